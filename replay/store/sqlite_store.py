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
from collections.abc import Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from uuid import UUID

from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

from replay.store.checkpoint import file_lock, thread_lock

CANONICAL = re.compile(r"[0-9a-f]{32}")


class HonbaSQLiteRecorder(SQLiteApplicationRecorder):
    """The library's SQLite application recorder, reading ids only in the spelling it writes."""

    def __init__(self, datastore: SQLiteDatastore, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name=events_table_name)
        self._checkpoint_lock = threading.Lock()

    def convert_originator_id(self, originator_id: str) -> UUID | str:
        if self.datastore.originator_id_type == "uuid" and CANONICAL.fullmatch(originator_id):
            return UUID(originator_id)
        return originator_id

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
