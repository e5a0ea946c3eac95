"""The store: choosing and opening it, honba's PostgreSQL recorder, the concrete view stores.

Nothing here decides a rule; the modules that name PostgreSQL (``pgstore``, ``postgres_views``)
are imported only when PostgreSQL is the store, so that a command on SQLite never loads psycopg.
"""
