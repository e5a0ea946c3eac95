"""honba's PostgreSQL event recorder: the library's, with a leaner insert.

The library's ``PostgresApplicationRecorder`` sends a batch of events as one array of a
composite type, which psycopg encodes as text in Python, escaping every byte of every
event's state with a regular expression: for a bulk import that costs more than the
database's own work. This recorder sends the same rows as four arrays of plain types in
PostgreSQL's binary format (no escaping), unnested by one INSERT, in the library's
pipeline and transaction, after the same table lock and notification, and returns the
same notification ids; everything else (tables, reading, subscriptions for
the live views) is the library's. ``HonbaApp`` uses it on PostgreSQL unless
``APPLICATION_RECORDER_TOPIC`` names another.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

from eventsourcing.persistence import InterfaceError, Notification, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from eventsourcing.utils import retry
from psycopg import Cursor
from psycopg.rows import DictRow
from psycopg.sql import SQL, Identifier

# The advisory lock's key: the store's checkpoints (any number honba alone uses).
CHECKPOINT_LOCK = 0x686F6E6261  # "honba"


class HonbaPostgresRecorder(PostgresApplicationRecorder):
    """The library's application recorder, inserting a batch as binary arrays."""

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name=events_table_name)
        self.insert_rows_statement = SQL(
            "INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state) "
            "SELECT * FROM unnest(%b::uuid[], %b::bigint[], %b::text[], %b::bytea[]) RETURNING notification_id"
        ).format(schema=Identifier(self.datastore.schema), table=Identifier(self.events_table_name))

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def select_events(
        self,
        originator_id: Any,
        *,
        gt: int | None = None,
        lte: int | None = None,
        desc: bool = False,
        limit: int | None = None,
    ) -> list[StoredEvent]:
        """The library's ``select_events``, reading a row whose state was set to NULL behind honba's
        back as an empty state (which no reader can decode, and ``honba check`` names), not failing."""
        statement = self.select_events_statement
        params: list[Any] = [originator_id]
        if gt is not None:
            params.append(gt)
            statement += SQL(" AND originator_version > %s")
        if lte is not None:
            params.append(lte)
            statement += SQL(" AND originator_version <= %s")
        statement += SQL(" ORDER BY originator_version DESC" if desc else " ORDER BY originator_version ASC")
        if limit is not None:
            params.append(limit)
            statement += SQL(" LIMIT %s")
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(statement, params, prepare=True)
            return [
                StoredEvent(row["originator_id"], row["originator_version"], row["topic"], _state(row["state"]))
                for row in curs.fetchall()
            ]

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def select_notifications(
        self,
        start: int | None,
        limit: int,
        stop: int | None = None,
        topics: Sequence[str] = (),
        *,
        inclusive_of_start: bool = True,
    ) -> list[Notification]:
        """The library's ``select_notifications``, reading a NULL state as ``select_events`` does."""
        conditions: list[SQL] = []
        params: list[Any] = []
        if start is not None:
            conditions.append(SQL("notification_id >= %s" if inclusive_of_start else "notification_id > %s"))
            params.append(start)
        if stop is not None:
            conditions.append(SQL("notification_id <= %s"))
            params.append(stop)
        if topics:
            conditions.append(SQL("topic = ANY(%s)"))
            params.append(list(topics))
        statement = SQL("SELECT * FROM {schema}.{table}").format(
            schema=Identifier(self.datastore.schema), table=Identifier(self.events_table_name)
        )
        if conditions:
            statement += SQL(" WHERE ") + SQL(" AND ").join(conditions)
        statement += SQL(" ORDER BY notification_id LIMIT %s")
        params.append(limit)
        with self.datastore.get_connection() as conn, conn.cursor() as curs:
            curs.execute(statement, params, prepare=True)
            return [
                Notification(
                    id=row["notification_id"],
                    originator_id=row["originator_id"],
                    originator_version=row["originator_version"],
                    topic=row["topic"],
                    state=_state(row["state"]),
                )
                for row in curs.fetchall()
            ]

    @contextlib.contextmanager
    def checkpoint_lock(self) -> Iterator[bool]:
        """The try-lock of the store's checkpoints: a session advisory lock on one connection of the
        pool, held while a checkpoint is read and written; True when this process holds it."""
        with self.datastore.get_connection() as conn:
            row = conn.execute("SELECT pg_try_advisory_lock(%s) AS held", (CHECKPOINT_LOCK,)).fetchone()
            held = bool(row and row["held"])
            try:
                yield held
            finally:
                if held:
                    conn.execute("SELECT pg_advisory_unlock(%s)", (CHECKPOINT_LOCK,))

    def _insert_stored_events(self, curs: Cursor[DictRow], stored_events: Sequence[StoredEvent], **_: Any) -> None:
        self._lock_table(curs)
        self._notify_channel(curs)
        columns = (
            [e.originator_id for e in stored_events],
            [e.originator_version for e in stored_events],
            [e.topic for e in stored_events],
            [e.state for e in stored_events],
        )
        curs.execute(self.insert_rows_statement, columns)


def _state(stored: Any) -> bytes:
    """A row's state as bytes: a NULL one (set behind honba's back) as empty bytes, which no reader decodes."""
    return b"" if stored is None else bytes(stored)
