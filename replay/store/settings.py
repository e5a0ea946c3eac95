"""Which store a command opens: ``--db`` or ``HONBA_DB`` (a SQLite file, ``:memory:`` or a PostgreSQL URL)
into the eventsourcing library's settings; a URL's password never shown.

Storage is the ``eventsourcing`` library's: an embedded SQLite file by default
(``eventsourcing.sqlite``), a PostgreSQL database named by a
``postgresql://user:password@host:port/dbname`` URL (``eventsourcing.postgres``),
in memory for tests (``eventsourcing.popo``). The library's own settings
(``PERSISTENCE_MODULE``, ``SQLITE_DBNAME``, ``POSTGRES_*``) still work when no
database is named explicitly.
"""

from __future__ import annotations

import os
import re
import urllib.parse
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from eventsourcing.utils import Environment

from domain.bounds import Bound, OutOfBounds, whole_number
from domain.said import Said
from domain.store_errors import StoreError

# The eventsourcing application's name: it prefixes its settings (``HONBA_...``) and names the
# store in the views' tracking records.
APP_NAME = "honba"
DB_ENV = "HONBA_DB"
MEMORY = ":memory:"
POSTGRES = "eventsourcing.postgres"
# honba's PostgreSQL recorder (replay/store/pgstore.py), imported only when PostgreSQL is used.
POSTGRES_RECORDER = "replay.store.pgstore:HonbaPostgresRecorder"
SQLITE = "eventsourcing.sqlite"
# honba's SQLite recorder (replay/store/sqlite_store.py): ids read only in the spelling it writes.
SQLITE_RECORDER = "replay.store.sqlite_store:HonbaSQLiteRecorder"
POSTGRES_URL_FORM = "postgresql://user:password@host:port/dbname"
# Opening a new PostgreSQL store from several processes at once: their CREATE statements race.
CREATE_RACES = ("concurrently updated", "already exists", "deadlock detected")


def default_db_path() -> Path:
    """Where the SQLite file lives unless ``--db`` or ``HONBA_DB`` says otherwise."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "honba" / "honba.sqlite"


def persistence_env(db: str | None) -> dict[str, str]:
    """The library settings for a database named by path, ``:memory:``, PostgreSQL URL or nothing.

    With nothing named, ``HONBA_DB`` is used; failing that, the library's own
    ``PERSISTENCE_MODULE`` settings if set; failing that, the default SQLite file.
    """
    db = db or os.environ.get(DB_ENV)
    if db is None and os.environ.get("PERSISTENCE_MODULE"):
        return {}
    if db == MEMORY:
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    if db is not None and _URL.match(db):
        return postgres_env(db)
    path = Path(db) if db else default_db_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)}


def read_only_env(env: dict[str, str]) -> dict[str, str]:
    """The same store's settings for a connection that only reads (``honba check``, ``audit``,
    ``export``): no table created; SQLite opened with ``mode=ro`` (the library connects with URIs),
    so that nothing it does needs to write (a full disk); PostgreSQL's sessions are made read-only
    by ``HonbaApp`` (``default_transaction_read_only``)."""
    found = dict(env)
    found["CREATE_TABLE"] = "false"
    path = found.get("SQLITE_DBNAME")
    if found.get("PERSISTENCE_MODULE") == "eventsourcing.sqlite" and path and not path.startswith("file:"):
        found["SQLITE_DBNAME"] = sqlite_uri(path, "mode=ro")
    return found


def sqlite_uri(path: str, query: str) -> str:
    """A SQLite file's URI (``file:``, the path percent-encoded) with a query (``mode=ro``)."""
    return f"file:{urllib.parse.quote(str(Path(path).absolute()))}?{query}"


def sqlite_path(name: str) -> str:
    """The file a SQLite store's name (a path, or a ``file:`` URI) names."""
    if not name.startswith("file:"):
        return name
    return urllib.parse.unquote(name[len("file:") :].split("?", 1)[0])


_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
# URL query parameters and the library settings they become.
_URL_PARAMETERS = {
    "schema": "POSTGRES_SCHEMA",
    "connect_timeout": "POSTGRES_CONNECT_TIMEOUT",
    "pool_size": "POSTGRES_POOL_SIZE",
    "lock_timeout": "POSTGRES_LOCK_TIMEOUT",
}
# The numbers among them, read as every number honba is sent (``domain.bounds.whole_number``: ASCII
# digits, a length cap; ``isdigit`` took "²", which ``int`` then refused with a traceback).
_URL_NUMBERS = {
    "port": Bound("port", 1, 65_535),
    "connect_timeout": Bound("connect_timeout", 1, 3_600),
    "pool_size": Bound("pool_size", 1, 1_000),
    "lock_timeout": Bound("lock_timeout", 0, 3_600),
}


def postgres_env(url: str) -> dict[str, str]:
    """The library settings for ``postgresql://user:password@host:port/dbname[?schema=...]``.

    User, password and database name may be percent-encoded; ``host=/dir`` in the query
    names a unix socket directory. Without a user, the login name is used (as libpq does);
    without a host, localhost; without a port, 5432. A URL of another kind, without a
    database name, with a bad port or with an unknown parameter is refused with ``StoreError``.
    """
    shown = redact(url)

    def bad(why: str | Said) -> StoreError:
        return StoreError(
            Said("bad store URL {store}: {why} (expected {form})", store=shown, why=why, form=POSTGRES_URL_FORM)
        )

    unencoded = Said("a password with '/', '#' or '?' must be percent-encoded (%2F, %23, %3F)")
    try:
        parts = urlsplit(url)
        if "@" in parts.path + parts.query + parts.fragment:
            # The password ran into the path, query or fragment: the parser's own words would quote it.
            raise bad(unencoded)
        port = parts.port
    except ValueError as exc:  # the port, read after the last '@' of the address: no password in it
        raise bad(str(exc)) from None
    if parts.scheme.lower() not in ("postgresql", "postgres"):
        raise StoreError(
            Said(
                "unknown kind of store {store}: give a SQLite file, {memory} or a PostgreSQL URL ({form})",
                store=shown,
                memory=MEMORY,
                form=POSTGRES_URL_FORM,
            )
        )
    dbname = unquote(parts.path.removeprefix("/"))
    if not dbname or "/" in dbname:
        raise bad(Said("no database name") if not dbname else Said("database name {name} has a '/'", name=repr(dbname)))
    if parts.fragment:
        raise bad(Said("it has a '#' part"))
    env = {
        "PERSISTENCE_MODULE": POSTGRES,
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": parts.hostname or "localhost",
        "POSTGRES_PORT": str(port or 5432),
        "POSTGRES_USER": unquote(parts.username) if parts.username else _login_name(),
        "POSTGRES_PASSWORD": unquote(parts.password) if parts.password else "",
        "POSTGRES_CONNECT_TIMEOUT": "10",
    }
    for name, value in parse_qsl(parts.query, keep_blank_values=True):
        if name in _URL_NUMBERS:
            try:
                value = str(whole_number(value, _URL_NUMBERS[name]))
            except OutOfBounds as exc:
                raise bad(exc.said) from None
        if name == "host" and value:
            env["POSTGRES_HOST"] = value
        elif name == "port":
            env["POSTGRES_PORT"] = value
        elif name in _URL_PARAMETERS:
            env[_URL_PARAMETERS[name]] = value
        else:
            known = ", ".join(["host", "port", *_URL_PARAMETERS])
            raise bad(Said("unknown parameter {name} (known: {known})", name=repr(name), known=known))
    return env


def _login_name() -> str:
    import getpass  # PostgreSQL's default user only: not loaded by a command on a SQLite store

    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no USER variable and no password-file entry
        return "postgres"


def store_name(db: str | None) -> str:
    """The store a command works on, as a message names it: ``db``, else ``HONBA_DB``, else the
    library's own settings' database, else the default file; a password masked (``redact``)."""
    named = db or os.environ.get(DB_ENV) or os.environ.get("POSTGRES_DBNAME") or str(default_db_path())
    return redact(named)


_QUERY_PASSWORD = re.compile(r"([?&][^=&#]*pass[^=&#]*=)[^&#]*", re.IGNORECASE)


def redact(db: str) -> str:
    """A store's name as shown in messages: a URL's password is replaced by ***.

    The password is whatever stands between the first ``:`` after the scheme and the last ``@``,
    however the URL parses: a password with an unencoded ``/``, ``#`` or ``?`` makes the URL
    parse otherwise (part of it read as the path, the query or the fragment), and must not be
    shown either. A URL whose user part cannot be told apart is masked whole.
    """
    found = _URL.match(db)
    if not found:
        return db
    # A password given as a query parameter (libpq's ?password=, ?sslpassword=) is masked too.
    db = _QUERY_PASSWORD.sub(lambda m: f"{m[1]}***", db)
    scheme, rest = db[: found.end()], db[found.end() :]
    if "@" not in rest:
        return db if ":" not in rest.split("/", 1)[0] or _plain_host(rest) else f"{scheme}***"
    userinfo, after = rest.rsplit("@", 1)
    if ":" not in userinfo:
        return db if "/" not in userinfo else f"{scheme}***@{after}"
    user = userinfo.split(":", 1)[0]
    if "/" in user or "?" in user or "#" in user:
        return f"{scheme}***@{after}"
    return f"{scheme}{user}:***@{after}"


def _plain_host(rest: str) -> bool:
    """Whether the part after the scheme starts with ``host:port`` (a colon that is no password's)."""
    host = rest.split("/", 1)[0].split("?", 1)[0]
    return bool(re.fullmatch(r"[^:@]*:\d*", host))


def _timeout(text: str) -> int:
    """POSTGRES_CONNECT_TIMEOUT as a number of seconds (10 where it is none: the library refuses it itself)."""
    try:
        return whole_number(text, _URL_NUMBERS["connect_timeout"])
    except OutOfBounds:
        return 10


def check_postgres(env: Mapping[str, str]) -> None:
    """Connect once to the PostgreSQL server the settings name, so that a wrong address, user,
    password or database gives the server's own reason at once (the library's connection pool
    would wait out its timeout and say only that it got no connection)."""
    settings = Environment(APP_NAME, {**os.environ, **env})
    if settings.get("PERSISTENCE_MODULE") != POSTGRES or settings.get("POSTGRES_GET_PASSWORD_TOPIC"):
        return
    import psycopg

    names = ("DBNAME", "HOST", "PORT", "USER", "PASSWORD")
    dbname, host, port, user, password = (settings.get(f"POSTGRES_{name}") for name in names)
    if dbname is None or host is None or user is None or password is None:
        return  # the library names the missing setting
    timeout = settings.get("POSTGRES_CONNECT_TIMEOUT") or "10"
    where = f"{host}:{port or 5432}"
    try:
        psycopg.connect(
            dbname=dbname,
            host=host,
            port=port or "5432",
            user=user,
            password=password,
            connect_timeout=_timeout(timeout),
        ).close()
    except psycopg.Error as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise StoreError(
            Said(
                "cannot connect to PostgreSQL at {where} (database {database}, user {user}): {why}",
                where=where,
                database=repr(dbname),
                user=repr(user),
                why=reason,
            )
        ) from None
