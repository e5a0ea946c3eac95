"""Stored views: documents keyed by kind and key, written with a tracking record in one transaction.

A view is an ``eventsourcing`` tracking recorder: every write of view documents
also records the position of the last event it took into account, in the same
transaction, so each event counts exactly once (writing a position again raises
``IntegrityError`` and changes nothing). One class per store: in memory, SQLite
(a file of its own, beside the event store's) and PostgreSQL (tables of their own
in the same database).
"""

from __future__ import annotations

import json
import threading
from abc import abstractmethod
from collections.abc import Mapping
from typing import Any

from eventsourcing.persistence import IntegrityError, Tracking, TrackingRecorder
from eventsourcing.popo import POPOTrackingRecorder
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from eventsourcing.sqlite import SQLiteDatastore, SQLiteTrackingRecorder
from psycopg.sql import SQL, Identifier


class ViewMoved(IntegrityError):
    """Another writer moved the view on since this one read its position: fold again from there."""


def _moved(tracking: Tracking, expected: int | None) -> ViewMoved:
    return ViewMoved(
        f"the view is no longer at {expected or 0} (writing {tracking.notification_id} for {tracking.application_name})"
    )


DocKey = tuple[str, str]
Changes = Mapping[DocKey, dict[str, Any] | None]
TABLE = "honba_view_docs"


class DocumentView(TrackingRecorder):
    """A tracking recorder that also holds JSON documents by (kind, key)."""

    @abstractmethod
    def get_doc(self, kind: str, key: str) -> dict[str, Any] | None:
        """The document, or None."""

    @abstractmethod
    def docs(self, kind: str, prefix: str = "") -> list[tuple[str, dict[str, Any]]]:
        """Every document of a kind (whose key starts with ``prefix``), by key."""

    @abstractmethod
    def put_docs(self, changes: Changes, tracking: Tracking, *, expected: int | None = None) -> None:
        """Write (or delete, for None) documents and the tracking record in one transaction.

        With ``expected`` (the position the writer read, 0 for none), the write is a
        compare-and-set: it happens only if the view still stands at that position, and
        otherwise raises ``ViewMoved`` and changes nothing. Every writer of the view writes
        this way, so what a writer read stays what the view held until its write: any
        number of catch-ups and followers share one view without counting an event twice.
        """


class POPODocumentView(POPOTrackingRecorder, DocumentView):
    """Documents in memory (tests, ``--db :memory:``)."""

    def __init__(self) -> None:
        super().__init__()
        self._docs: dict[DocKey, str] = {}
        self._docs_lock = threading.Lock()

    def get_doc(self, kind: str, key: str) -> dict[str, Any] | None:
        with self._docs_lock:
            text = self._docs.get((kind, key))
        return None if text is None else dict(json.loads(text))

    def docs(self, kind: str, prefix: str = "") -> list[tuple[str, dict[str, Any]]]:
        with self._docs_lock:
            items = [(k, v) for (d, k), v in self._docs.items() if d == kind and k.startswith(prefix)]
        return [(k, json.loads(v)) for k, v in sorted(items)]

    def put_docs(self, changes: Changes, tracking: Tracking, *, expected: int | None = None) -> None:
        with self._database_lock, self._docs_lock:
            if expected is not None and (self._max_tracking_ids[tracking.application_name] or 0) != expected:
                raise _moved(tracking, expected)
            self._assert_tracking_uniqueness(tracking)
            for key, data in changes.items():
                if data is None:
                    self._docs.pop(key, None)
                else:
                    self._docs[key] = json.dumps(data, sort_keys=True)
            self._insert_tracking(tracking)


class SQLiteDocumentView(SQLiteTrackingRecorder, DocumentView):
    """Documents in a SQLite file of their own."""

    def __init__(self, datastore: SQLiteDatastore, **kwargs: Any):
        super().__init__(datastore, **kwargs)

    def construct_create_table_statements(self) -> list[str]:
        return [
            *super().construct_create_table_statements(),
            f"CREATE TABLE IF NOT EXISTS {TABLE} "
            "(kind TEXT, key TEXT, data TEXT, PRIMARY KEY (kind, key)) WITHOUT ROWID",
        ]

    def get_doc(self, kind: str, key: str) -> dict[str, Any] | None:
        with self.datastore.transaction(commit=False) as c:
            c.execute(f"SELECT data FROM {TABLE} WHERE kind = ? AND key = ?", (kind, key))
            row = c.fetchone()
        return None if row is None else dict(json.loads(row[0]))

    def docs(self, kind: str, prefix: str = "") -> list[tuple[str, dict[str, Any]]]:
        with self.datastore.transaction(commit=False) as c:
            c.execute(
                f"SELECT key, data FROM {TABLE} WHERE kind = ? AND substr(key, 1, ?) = ? ORDER BY key",
                (kind, len(prefix), prefix),
            )
            rows = c.fetchall()
        return [(row[0], json.loads(row[1])) for row in rows]

    def put_docs(self, changes: Changes, tracking: Tracking, *, expected: int | None = None) -> None:
        with self.datastore.transaction(commit=True) as c:
            if expected is None:
                self._insert_tracking(c, tracking)
            else:
                # The first statement writes, so the transaction holds the write lock from here on
                # (a deferred transaction that read first could not take it after another wrote).
                if expected:
                    c.execute(
                        "UPDATE tracking SET notification_id = ? WHERE application_name = ? AND notification_id = ? "
                        "RETURNING notification_id",
                        (tracking.notification_id, tracking.application_name, expected),
                    )
                else:
                    c.execute(
                        "INSERT INTO tracking VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING notification_id",
                        (tracking.application_name, tracking.notification_id),
                    )
                if c.fetchone() is None:
                    raise _moved(tracking, expected)
            for (kind, key), data in changes.items():
                if data is None:
                    c.execute(f"DELETE FROM {TABLE} WHERE kind = ? AND key = ?", (kind, key))
                else:
                    c.execute(
                        f"INSERT INTO {TABLE} VALUES (?, ?, ?) "
                        "ON CONFLICT (kind, key) DO UPDATE SET data = excluded.data",
                        (kind, key, json.dumps(data, sort_keys=True)),
                    )


class PostgresDocumentView(PostgresTrackingRecorder, DocumentView):
    """Documents in a table of their own in the PostgreSQL database."""

    def __init__(self, datastore: PostgresDatastore, **kwargs: Any):
        # The library's factory names the tracking table after the environment's name (the
        # application's, or the projection runner's): one name here, so that the catch-up of
        # ``honba standings`` and the live runner share the same tracking records.
        kwargs["tracking_table_name"] = "honba_view_tracking"
        super().__init__(datastore, **kwargs)
        self.sql_create_statements.append(
            SQL("CREATE TABLE IF NOT EXISTS {0}.{1} (kind text, key text, data text, PRIMARY KEY (kind, key))").format(
                Identifier(self.datastore.schema), Identifier(TABLE)
            )
        )

    def _table(self) -> Any:
        return SQL("{0}.{1}").format(Identifier(self.datastore.schema), Identifier(TABLE))

    def get_doc(self, kind: str, key: str) -> dict[str, Any] | None:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(SQL("SELECT data FROM {0} WHERE kind = %s AND key = %s").format(self._table()), (kind, key))
            row = curs.fetchone()
        return None if row is None else dict(json.loads(row["data"]))

    def docs(self, kind: str, prefix: str = "") -> list[tuple[str, dict[str, Any]]]:
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(
                SQL("SELECT key, data FROM {0} WHERE kind = %s AND starts_with(key, %s) ORDER BY key").format(
                    self._table()
                ),
                (kind, prefix),
            )
            rows = curs.fetchall()
        return [(row["key"], json.loads(row["data"])) for row in rows]

    def put_docs(self, changes: Changes, tracking: Tracking, *, expected: int | None = None) -> None:
        with self.datastore.transaction(commit=True) as curs:
            if expected is None:
                self._insert_tracking(curs, tracking)
            else:
                tracking_table = SQL("{0}.{1}").format(
                    Identifier(self.datastore.schema), Identifier(self.tracking_table_name)
                )
                # The row lock of the update queues concurrent writers; a writer that waited finds
                # the position changed (read committed re-checks the condition) and updates nothing.
                if expected:
                    curs.execute(
                        SQL(
                            "UPDATE {0} SET notification_id = %s WHERE application_name = %s AND notification_id = %s"
                        ).format(tracking_table),
                        (tracking.notification_id, tracking.application_name, expected),
                    )
                else:
                    curs.execute(
                        SQL("INSERT INTO {0} VALUES (%s, %s) ON CONFLICT DO NOTHING").format(tracking_table),
                        (tracking.application_name, tracking.notification_id),
                    )
                if curs.rowcount != 1:
                    raise _moved(tracking, expected)
            for (kind, key), data in changes.items():
                if data is None:
                    curs.execute(SQL("DELETE FROM {0} WHERE kind = %s AND key = %s").format(self._table()), (kind, key))
                else:
                    curs.execute(
                        SQL(
                            "INSERT INTO {0} VALUES (%s, %s, %s) "
                            "ON CONFLICT (kind, key) DO UPDATE SET data = EXCLUDED.data"
                        ).format(self._table()),
                        (kind, key, json.dumps(data, sort_keys=True)),
                    )


__all__ = [
    "DocumentView",
    "IntegrityError",
    "POPODocumentView",
    "PostgresDocumentView",
    "SQLiteDocumentView",
    "ViewMoved",
]
