"""honba's SQLite event recorder: the library's, with ids read in the one spelling it writes.

SQLite keeps an event's id as text, written as 32 lower-case hex digits. The library reads any
spelling of a UUID back as that UUID: a row inserted under ``ABC...`` (or a dashed spelling)
would count for the match in every projection, while ``honba check``, which selects a stream's
rows by their exact text, never saw it. This recorder hands such a row over with its id as the
text found (``replay.store.mapper.HonbaMapper`` then refuses to read it), and lists them for
``honba check`` (``misspelled_rows``). ``HonbaApp`` uses it on SQLite unless
``APPLICATION_RECORDER_TOPIC`` names another.

It also holds the checkpoint lock of a store in a file (``checkpoint_lock``), and lets a thread's
calls be refused at once, rather than wait, when another connection holds the file's write lock
(``not_waiting``: ``honba serve`` records a hand on its event loop, which must never wait for
another process's write).
"""

from __future__ import annotations

import functools
import re
import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from itertools import chain
from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteConnection, SQLiteConnectionPool, SQLiteDatastore

from domain.said import Said
from domain.store_errors import StoreBusy
from replay.store.checkpoint import file_lock, thread_lock
from replay.store.rows import Row

CANONICAL = re.compile(r"[0-9a-f]{32}")
# Rows one INSERT statement takes (four parameters each, far below SQLite's 32,766).
INSERT_ROWS = 500


# SQLite's primary result codes for a lock another connection holds: SQLITE_BUSY (another
# connection's write, or a reader in its way) and SQLITE_LOCKED (a table of a shared cache).
_LOCK_CODES = (5, 6)


@functools.lru_cache(maxsize=8)
def _insert_statement(table: str, rows: int) -> str:
    """The statement inserting ``rows`` rows into the events table, their rowids returned (made once
    per size: an import's batch is all ``INSERT_ROWS`` but its last)."""
    values = ",".join(["(?,?,?,?)"] * rows)
    return f"INSERT INTO {table} VALUES {values} RETURNING rowid"


@functools.lru_cache(maxsize=8)
def _tails_statement(table: str, streams: int) -> str:
    """The statement reading ``streams`` streams' rows from a position each (``select_tails``), made
    once per count: every recorded hand reads two."""
    wanted = " OR ".join(["(originator_id=? AND originator_version>=?)"] * streams)
    return (
        f"SELECT originator_id, originator_version, topic, state FROM {table} "
        f"WHERE {wanted} ORDER BY originator_id, originator_version"
    )


@functools.lru_cache(maxsize=8)
def _tails_and_token_statement(table: str, streams: int, tokens: str) -> str:
    """``_tails_statement``'s rows and, in the same statement, a token's row of ``tokens`` (its
    ``originator_id`` NULL, its role, match, salt and digest in ``topic`` and three columns more):
    a recorded hand's token checked and its match's tails read in one statement (issue 36,
    fourteenth round)."""
    wanted = " OR ".join(["(originator_id=? AND originator_version>=?)"] * streams)
    return (
        f"SELECT originator_id, originator_version, topic, state, NULL AS match_key, NULL AS salt, NULL AS digest "
        f"FROM {table} WHERE {wanted} "
        f"UNION ALL SELECT NULL, NULL, role, NULL, match_key, salt, digest FROM {tokens} WHERE token_id = ? "
        "ORDER BY 1, 2"
    )


@functools.lru_cache(maxsize=1024)
def _canonical_id(spelled: str) -> UUID | None:
    """The id spelled as the store writes ids (32 lowercase hex digits), or None: found once per
    id for the streams read most (a server's every hand reads its match's and its seal's rows)."""
    return UUID(spelled) if CANONICAL.fullmatch(spelled) else None


class _Patience(threading.local):
    """Whether this thread's connections wait out the store's busy timeout for another connection's
    write lock (``waiting``), and, while they do not, whether any of them changed a row (``wrote``)."""

    def __init__(self) -> None:
        self.waiting = True
        self.wrote = False


class _NotWaitingPool(SQLiteConnectionPool):
    """Connections to the same file that never wait for another connection's lock: each opened with
    SQLite's busy timeout set to none (the library opens its own with the store's)."""

    def _create_connection(self) -> SQLiteConnection:
        connection = super()._create_connection()
        connection._sqlite_conn.execute("PRAGMA busy_timeout = 0")
        return connection


class HonbaSQLiteDatastore(SQLiteDatastore):
    """The library's SQLite datastore, whose connections wait for another connection's write lock
    as long as the store's busy timeout says (``SQLITE_LOCK_TIMEOUT``, else the library's 5 s),
    except on a thread inside ``not_waiting``: there its connections come from a pool of their own,
    opened with no busy timeout, and a lock held elsewhere refuses a statement at once ("database
    is locked"). SQLite keeps the busy timeout per connection: kept apart, neither pool's
    connections ever have theirs changed (no statement added to any call), at the cost of the one
    or two connections more that a server's event loop opens for its calls."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._set_up()

    def _set_up(self) -> None:
        # Per store and per thread: a server's event loop's calls, not its pool threads' nor another store's.
        self._patience = _Patience()
        self._not_waiting: _NotWaitingPool | None = None
        self._not_waiting_lock = threading.Lock()

    @classmethod
    def made_from(cls, datastore: SQLiteDatastore) -> HonbaSQLiteDatastore:
        """The library's datastore ``datastore`` (as its factory made it, shared by the factory's
        recorders) made this one in place: the same pool, the same settings."""
        if not isinstance(datastore, cls):
            datastore.__class__ = cls
            assert isinstance(datastore, cls)
            datastore._set_up()
        return datastore

    def _not_waiting_pool(self) -> SQLiteConnectionPool:
        """The pool of connections that do not wait, opened when first asked for; the store's own for
        a database in memory (one process's: no other process holds its lock, and another pool's
        connections would open another database)."""
        if self.pool.is_sqlite_memory_mode:
            return self.pool
        with self._not_waiting_lock:
            if self._not_waiting is None:
                self._not_waiting = _NotWaitingPool(
                    db_name=self.pool.db_name, lock_timeout=self.pool.lock_timeout, pool_size=2, max_overflow=10
                )
            return self._not_waiting

    @contextmanager
    def get_connection(self, *, commit: bool) -> Iterator[SQLiteConnection]:
        if self._patience.waiting:
            with super().get_connection(commit=commit) as connection:
                yield connection
            return
        pool = self._not_waiting_pool()
        connection = pool.get_connection(is_writer=commit)
        changes = connection._sqlite_conn.total_changes
        try:
            yield connection
        finally:
            if connection._sqlite_conn.total_changes != changes:
                self._patience.wrote = True
            pool.put_connection(connection)

    @contextmanager
    def not_waiting(self) -> Iterator[None]:
        """Run the block with this thread's connections to a SQLite store not waiting for another
        connection's write lock (``HonbaSQLiteDatastore``): a statement the lock refuses fails at once.
        When the block fails so and none of its connections changed a row (nothing was written: a
        refused ``INSERT`` rolls its transaction back), ``StoreBusy``, which the caller may run again
        where waiting costs nothing else; any other failure as it was raised."""
        if not self._patience.waiting:
            yield  # already inside one: the outer one decides
            return
        self._patience.waiting, self._patience.wrote = False, False
        try:
            yield
        except Exception as exc:
            if lock_refused(exc) and not self._patience.wrote:
                raise StoreBusy(
                    Said("the store is busy with another process's write: nothing was written, try again")
                ) from exc
            raise
        finally:
            self._patience.waiting, self._patience.wrote = True, False

    def close(self) -> None:
        not_waiting = getattr(self, "_not_waiting", None)
        if not_waiting is not None:
            not_waiting.close()
        super().close()


def lock_refused(exc: BaseException) -> bool:
    """Whether ``exc`` is, or was raised while handling (as the library and honba say it again), a
    statement SQLite refused because another connection held the lock it needed."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, sqlite3.OperationalError) and (cause.sqlite_errorcode & 0xFF) in _LOCK_CODES:
            return True
        cause = cause.__cause__ or cause.__context__
    return False


class HonbaSQLiteRecorder(SQLiteApplicationRecorder):
    """The library's SQLite application recorder, reading ids only in the spelling it writes."""

    def __init__(self, datastore: SQLiteDatastore, events_table_name: str = "stored_events"):
        # Its connections refused at once rather than waiting, on a thread inside ``not_waiting``.
        super().__init__(HonbaSQLiteDatastore.made_from(datastore), events_table_name=events_table_name)
        self._checkpoint_lock = threading.Lock()

    def not_waiting(self) -> AbstractContextManager[None]:
        """Calls on this thread refused at once, not waiting, when another connection holds the
        store's write lock (``not_waiting``)."""
        datastore = self.datastore
        assert isinstance(datastore, HonbaSQLiteDatastore)
        return datastore.not_waiting()

    def convert_originator_id(self, originator_id: str) -> UUID | str:
        if self.datastore.originator_id_type == "uuid":
            found = _canonical_id(originator_id)
            if found is not None:
                return found
        return originator_id

    def _insert_events(self, c: Any, stored_events: Sequence[StoredEvent], **_: Any) -> Sequence[int] | None:
        """The library's insert (each row's notification id returned, in the order given), in one
        statement per ``INSERT_ROWS`` rows instead of one per row: a recorded hand inserts its event
        and its seal's row in one ``INSERT`` (issue 36: statements per hand)."""
        return self._insert_rows(
            c,
            [(s.originator_id.hex if isinstance(s.originator_id, UUID) else s.originator_id) for s in stored_events],
            stored_events,
        )

    def insert_rows(self, rows: Sequence[Row]) -> Sequence[int]:
        """Rows as the table holds them (``replay.store.rows.Row``: an import's, made in its reading
        workers) inserted in one transaction as ``insert_events`` inserts events: their notification
        ids; ``IntegrityError`` when any is there already (nothing is inserted)."""
        with self.datastore.transaction(commit=True) as c:
            return self._insert_rows(c, None, rows)

    def _insert_rows(self, c: Any, spelled: Sequence[str] | None, rows: Sequence[Any]) -> list[int]:
        """Insert ``rows`` (stored events under these ids as ``spelled`` in the table, or ``Row``
        tuples, ``spelled`` None: each its id as spelled, position, topic and state, in that order)."""
        returning: list[int] = []
        for start in range(0, len(rows), INSERT_ROWS):
            stop = min(start + INSERT_ROWS, len(rows))
            if spelled is None:
                # An import's rows are the statement's parameters as they are, in order: laid end to
                # end in C (a Python loop over every row and column cost the store step a tenth).
                params: list[Any] = list(chain.from_iterable(rows[start:stop]))
            else:
                params = []
                for index in range(start, stop):
                    row = rows[index]
                    params += (spelled[index], row.originator_version, row.topic, row.state)
            c.execute(_insert_statement(self.events_table_name, stop - start), params)
            # SQLite gives each row of one insert the next rowid in the order of its VALUES (no
            # AUTOINCREMENT, rowids below the largest), while RETURNING's order is not promised:
            # sorted, they are the rows' ids in the order given.
            returning += sorted(row[0] for row in c.fetchall())
        return returning

    def select_events(
        self,
        originator_id: UUID | str,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> list[StoredEvent]:
        """The library's read of a stream, as one statement on an autocommit connection: one
        ``SELECT`` is its own read transaction (one snapshot), where the library sends ``BEGIN``
        and ``ROLLBACK`` around it; a recorded hand reads two tails (issue 36: statements per hand)."""
        statement = self.select_events_statement
        params: list[Any] = [originator_id.hex if isinstance(originator_id, UUID) else originator_id]
        if gt is not None:
            statement += "AND originator_version>? "
            params.append(gt)
        if lte is not None:
            statement += "AND originator_version<=? "
            params.append(lte)
        statement += "ORDER BY originator_version " + ("DESC " if desc else "ASC ")
        if limit is not None:
            statement += "LIMIT ? "
            params.append(limit)
        with self.datastore.get_connection(commit=False) as connection, connection.cursor() as cursor:
            cursor.execute(statement, params)
            rows = cursor.fetchall()
        return self._stored(rows)

    def select_tails(self, streams: Sequence[tuple[UUID, int]]) -> list[StoredEvent]:
        """The rows of each stream from its given position on, in one statement on an autocommit
        connection (as ``select_events``): one snapshot of all of them (a match and its seal, saved
        in one transaction, read as one save left them), as PostgreSQL's recorder reads them
        (``replay.store.checked.tail_rows``). A recorded hand read its two tails in two statements
        (issue 36, sixth round: 6.25 statements a hand on SQLite, 5.25 now)."""
        if not streams:
            return []
        statement = _tails_statement(self.events_table_name, len(streams))
        params = [value for stream, position in streams for value in (stream.hex, position)]
        with self.datastore.get_connection(commit=False) as connection, connection.cursor() as cursor:
            cursor.execute(statement, params)
            rows = cursor.fetchall()
        return self._stored(rows)

    def select_tails_and_token(
        self, streams: Sequence[tuple[UUID, int]], tokens: str, token_id: str
    ) -> tuple[list[StoredEvent], tuple[str, str | None, str, str] | None]:
        """``select_tails``'s rows and the row of the token ``token_id`` in the table ``tokens`` (its
        role, match, salt and digest; None when there is none), in one statement: one snapshot, one
        statement fewer for a recorded hand (``replay.store.application.HonbaApp.reading_ahead``)."""
        statement = _tails_and_token_statement(self.events_table_name, len(streams), tokens)
        params: list[Any] = [value for stream, position in streams for value in (stream.hex, position)]
        params.append(token_id)
        with self.datastore.get_connection(commit=False) as connection, connection.cursor() as cursor:
            cursor.execute(statement, params)
            rows = cursor.fetchall()
        token = None
        events = []
        for row in rows:
            if row["originator_id"] is None:
                token = (row["topic"], row["match_key"], row["salt"], row["digest"])
            else:
                events.append(row)
        return self._stored(events), token

    def select_streams(self, originator_ids: Sequence[UUID]) -> list[StoredEvent]:
        """Every row of each of these streams, each stream's in order, in one statement per
        ``INSERT_ROWS`` streams (on an autocommit connection, as ``select_events``): an import looks up
        the records of the next files at once (``replay.store.imported.imported_files``)."""
        rows: list[Any] = []
        for start in range(0, len(originator_ids), INSERT_ROWS):
            chunk = [stream.hex for stream in originator_ids[start : start + INSERT_ROWS]]
            statement = (
                f"SELECT originator_id, originator_version, topic, state FROM {self.events_table_name} "
                f"WHERE originator_id IN ({','.join('?' for _ in chunk)}) ORDER BY originator_id, originator_version"
            )
            with self.datastore.get_connection(commit=False) as connection, connection.cursor() as cursor:
                cursor.execute(statement, chunk)
                rows += cursor.fetchall()
        return self._stored(rows)

    def _stored(self, rows: Sequence[Any]) -> list[StoredEvent]:
        """The rows of a ``SELECT originator_id, originator_version, topic, state`` as stored events."""
        return [
            StoredEvent(
                originator_id=self.convert_originator_id(row["originator_id"]),
                originator_version=row["originator_version"],
                topic=row["topic"],
                state=row["state"],
            )
            for row in rows
        ]

    def misspelled_rows(self) -> Iterator[tuple[str, int, str]]:
        """Every row whose id is not spelled as the store writes ids: (its id, position, topic)."""
        statement = (
            f"SELECT originator_id, originator_version, topic FROM {self.events_table_name} "
            "WHERE length(originator_id) != 32 OR originator_id GLOB '*[^0-9a-f]*' ORDER BY rowid"
        )
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(statement)
            rows = [(str(row[0]), int(row[1]), str(row[2])) for row in cursor.fetchall()]
        yield from rows

    def checkpoint_lock(self) -> AbstractContextManager[bool]:
        """The try-lock of the store's checkpoints: a file beside the store's (``club.sqlite`` ->
        ``club.checkpoint.lock``); an in-memory database has its own connection's lock."""
        if self.datastore.pool.is_sqlite_memory_mode:
            return thread_lock(self._checkpoint_lock)
        path = Path(self.datastore.pool.db_name)
        return file_lock(path.with_name(path.stem + ".checkpoint.lock"))
