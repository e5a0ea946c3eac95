"""The rows of ``honba serve``'s access tokens, stored beside the events: the table (created on
first use, in the store's own database: SQLite or PostgreSQL), a token's row inserted, read and
deleted, a match's table tokens found or replaced. A store in memory keeps them in memory. Only
salts and digests are stored; what a token allows, and its hashing, is the service's
(``replay.service.common.access.TokenStore``)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any, Final

from replay.store.application import HonbaApp
from replay.store.retry import OPEN_TRIES, retrying

TABLE: Final = "honba_access_tokens"
# A token's row: its role, the match it writes to (a table token's), the salt and the digest.
Row = tuple[str, str | None, str, str]
# How many token rows one process keeps as last read (``TokenRows.row``): a server's open tables' and
# their referees' (a few hundred at most at once); one not kept is read again.
KNOWN = 1024


class TokenRows:
    """The token rows of one store (in its database, or in memory for a store in memory)."""

    def __init__(self, app: HonbaApp):
        self._app = app
        datastore = getattr(app.recorder, "datastore", None)
        self._datastore = datastore
        self._postgres = type(datastore).__module__.startswith("eventsourcing.postgres") if datastore else False
        self._memory: dict[str, Row] = {}
        self._lock = threading.Lock()
        # Token rows as last read from the store, by id: what a hand in one round trip checks against
        # (``HonbaApp.token_with_tails``), never taken as the store's answer without a statement that
        # checks it is still there as read (``HonbaPostgresRecorder.insert_checked``).
        self._known: dict[str, Row] = {}
        # A token's row read, in the driver's spelling: every request with a token reads one.
        self._select_row = self._sql(f"SELECT role, match_key, salt, digest FROM {TABLE} WHERE token_id = ?")
        if datastore is not None:
            self._create()

    @contextlib.contextmanager
    def _cursor(self, commit: bool) -> Iterator[Any]:
        assert self._datastore is not None
        with self._datastore.transaction(commit=commit) as cursor:
            yield cursor

    @contextlib.contextmanager
    def _reading(self) -> Iterator[Any]:
        """A cursor for one read: one statement of the pool's autocommit connections (a token checked
        on every request costs its SELECT alone, not BEGIN and ROLLBACK besides; one statement reads
        one snapshot on PostgreSQL and on SQLite alike)."""
        assert self._datastore is not None
        if not self._postgres:
            with self._datastore.get_connection(commit=False) as conn, conn.cursor() as cursor:
                yield cursor
            return
        # Rows as tuples, as SQLite's cursor gives them (the pool's connections make each a dict).
        from psycopg.rows import tuple_row  # (PostgreSQL's driver, there when its store is)

        with self._datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as cursor:
            yield cursor

    def _sql(self, text: str) -> str:
        return text.replace("?", "%s") if self._postgres else text

    def _create(self) -> None:
        statement = (
            f"CREATE TABLE IF NOT EXISTS {TABLE} (token_id TEXT PRIMARY KEY, role TEXT NOT NULL, "
            "match_key TEXT, salt TEXT NOT NULL, digest TEXT NOT NULL)"
        )

        def once(_attempt: int) -> None:
            with self._cursor(commit=True) as cursor:
                cursor.execute(statement)

        # Two servers creating the table at once race (each driver names it its own way); the
        # second finds it on the next try.
        retrying(once, conflict=Exception, tries=OPEN_TRIES)
        # On PostgreSQL, the function that records a hand in one round trip, checking its token's row
        # in this table (``HonbaPostgresRecorder.make_insert_checked``), made once per process.
        make = getattr(self._app.recorder, "make_insert_checked", None)
        made = getattr(self._app.recorder, "checked_tokens", None) == TABLE
        if make is not None and not made and not self._app.read_only:
            make(TABLE)

    def insert(self, token_id: str, row: Row, *, replacing: str | None = None) -> None:
        """Store a token's row; ``replacing``, a role: the match's other table tokens get that role
        in the same transaction (a table's link issued again)."""
        role, match, salt, digest = row
        if self._datastore is None:
            with self._lock:
                if replacing is not None:
                    for old, stored in list(self._memory.items()):
                        if stored[:2] == ("table", match):
                            self._memory[old] = (replacing, *stored[1:])
                self._memory[token_id] = row
            return
        with self._cursor(commit=True) as cursor:
            if replacing is not None:
                cursor.execute(
                    self._sql(f"UPDATE {TABLE} SET role = ? WHERE role = 'table' AND match_key = ?"),
                    (replacing, match),
                )
            cursor.execute(
                self._sql(f"INSERT INTO {TABLE} (token_id, role, match_key, salt, digest) VALUES (?, ?, ?, ?, ?)"),
                (token_id, role, match, salt, digest),
            )
        if replacing is not None:
            # The match's old table rows as this process last read them are rows no longer: forgotten,
            # so that their next hand reads its row (the insert's check would refuse them anyway).
            with self._lock:
                for old in [k for k, stored in self._known.items() if stored[:2] == ("table", match)]:
                    del self._known[old]

    def table_rows(self, match: str) -> list[tuple[str, str, str]]:
        """The table tokens of a match: (id, salt, digest), by id."""
        if self._datastore is None:
            with self._lock:
                found = [
                    (i, salt, dig) for i, (role, m, salt, dig) in self._memory.items() if role == "table" and m == match
                ]
            return sorted(found)
        with self._cursor(commit=False) as cursor:
            cursor.execute(
                self._sql(
                    f"SELECT token_id, salt, digest FROM {TABLE} "
                    "WHERE role = 'table' AND match_key = ? ORDER BY token_id"
                ),
                (match,),
            )
            rows = cursor.fetchall()
        return [(r["token_id"], r["salt"], r["digest"]) if isinstance(r, dict) else (r[0], r[1], r[2]) for r in rows]

    def table_count(self, match: str) -> int:
        """How many table tokens write to ``match``."""
        if self._datastore is None:
            with self._lock:
                return sum(1 for row in self._memory.values() if row[:2] == ("table", match))
        with self._cursor(commit=False) as cursor:
            cursor.execute(self._sql(f"SELECT COUNT(*) FROM {TABLE} WHERE role = 'table' AND match_key = ?"), (match,))
            row = cursor.fetchone()
        return int(next(iter(row.values())) if isinstance(row, dict) else row[0])

    def row(self, token_id: str) -> Row | None:
        """A token's row, or None."""
        if self._datastore is None:
            with self._lock:
                return self._memory.get(token_id)
        # Inside ``HonbaApp.reading_ahead`` (a recorded hand): read with its match's tails, or in one
        # round trip (``HonbaApp.one_trip``) the row last read, checked by the hand's insert.
        read, row = self._app.token_with_tails(TABLE, token_id, self._known.get(token_id))
        if read:
            self._knew(token_id, row)
            return row
        with self._reading() as cursor:
            cursor.execute(self._select_row, (token_id,))
            row = cursor.fetchone()
        if row is None:
            self._knew(token_id, None)
            return None
        found = (
            (row["role"], row["match_key"], row["salt"], row["digest"])
            if isinstance(row, dict)
            else (row[0], row[1], row[2], row[3])
        )
        self._knew(token_id, found)
        return found

    def _knew(self, token_id: str, row: Row | None) -> None:
        """The row of ``token_id`` as just read (None: there is none), kept for a hand in one round trip."""
        if not self._postgres:
            return  # (no one trip on other stores)
        with self._lock:
            if row is None:
                self._known.pop(token_id, None)
                return
            self._known[token_id] = row
            while len(self._known) > KNOWN:
                del self._known[next(iter(self._known))]

    def delete(self, token_id: str) -> bool:
        """Remove a token's row; whether there was one."""
        if self._datastore is None:
            with self._lock:
                return self._memory.pop(token_id, None) is not None
        found = self.row(token_id) is not None
        with self._cursor(commit=True) as cursor:
            cursor.execute(self._sql(f"DELETE FROM {TABLE} WHERE token_id = ?"), (token_id,))
        self._knew(token_id, None)
        return found
