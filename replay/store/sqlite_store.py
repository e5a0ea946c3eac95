"""honba's SQLite event recorder: the library's, with ids read in the one spelling it writes.

SQLite keeps an event's id as text, written as 32 lower-case hex digits. The library reads any
spelling of a UUID back as that UUID: a row inserted under ``ABC...`` (or a dashed spelling)
would count for the match in every projection, while ``honba check``, which selects a stream's
rows by their exact text, never saw it. This recorder hands such a row over with its id as the
text found (``replay.store.mapper.HonbaMapper`` then refuses to read it), and lists them for
``honba check`` (``misspelled_rows``). ``HonbaApp`` uses it on SQLite unless
``APPLICATION_RECORDER_TOPIC`` names another.

It also holds the checkpoint lock of a store in a file (``checkpoint_lock``).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

from replay.store.checkpoint import file_lock, thread_lock

CANONICAL = re.compile(r"[0-9a-f]{32}")
# Rows one INSERT statement takes (four parameters each, far below SQLite's 32,766).
INSERT_ROWS = 500


class HonbaSQLiteRecorder(SQLiteApplicationRecorder):
    """The library's SQLite application recorder, reading ids only in the spelling it writes."""

    def __init__(self, datastore: SQLiteDatastore, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name=events_table_name)
        self._checkpoint_lock = threading.Lock()

    def convert_originator_id(self, originator_id: str) -> UUID | str:
        if self.datastore.originator_id_type == "uuid" and CANONICAL.fullmatch(originator_id):
            return UUID(originator_id)
        return originator_id

    def _insert_events(self, c: Any, stored_events: Sequence[StoredEvent], **_: Any) -> Sequence[int] | None:
        """The library's insert (each row's notification id returned, in the order given), in one
        statement per ``INSERT_ROWS`` rows instead of one per row: a recorded hand inserts its event
        and its seal's row in one ``INSERT`` (issue 36: statements per hand)."""
        returning: list[int] = []
        for start in range(0, len(stored_events), INSERT_ROWS):
            chunk = stored_events[start : start + INSERT_ROWS]
            params: list[Any] = []
            for s in chunk:
                spelled = s.originator_id.hex if isinstance(s.originator_id, UUID) else s.originator_id
                params += (spelled, s.originator_version, s.topic, s.state)
            values = ",".join("(?,?,?,?)" for _ in chunk)
            c.execute(f"INSERT INTO {self.events_table_name} VALUES {values} RETURNING rowid", params)
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
        wanted = " OR ".join("(originator_id=? AND originator_version>=?)" for _ in streams)
        statement = (
            f"SELECT originator_id, originator_version, topic, state FROM {self.events_table_name} "
            f"WHERE {wanted} ORDER BY originator_id, originator_version"
        )
        params = [value for stream, position in streams for value in (stream.hex, position)]
        with self.datastore.get_connection(commit=False) as connection, connection.cursor() as cursor:
            cursor.execute(statement, params)
            rows = cursor.fetchall()
        return self._stored(rows)

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
