"""The store: opening it (``settings``, ``application``), reading a match once and saving it with its
seal and the store chain's link (``application``, ``seal``, ``chain``), checks of its rows
(``integrity``, ``store_check``), tournaments, imported files, and the standings view's tables.

Nothing here decides a rule or a policy (that is ``replay.service``'s); the modules that name
PostgreSQL (``pgstore``, ``postgres_views``) are imported only when PostgreSQL is the store, so
that a command on SQLite never loads psycopg.
"""
