"""The SQLite document view: documents in a file of their own, beside the event store's."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.sqlite import SQLiteDatastore, SQLiteTrackingRecorder

from projections.views import TABLE, Changes, DocKey, DocumentView, encoded, moved

# The documents asked for by one statement of ``get_docs``.
_KEYS_AT_ONCE = 5000


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

    def get_docs(self, keys: Iterable[DocKey]) -> dict[DocKey, dict[str, Any] | None]:
        # One read transaction for a batch's documents, not one each (a rebuild reads thousands),
        # and one statement for them all: the keys go in as one JSON array that SQLite joins with
        # the documents' primary key (a first build asks for thousands that are not there yet).
        wanted = list(keys)
        found: dict[DocKey, dict[str, Any] | None] = dict.fromkeys(wanted)
        with self.datastore.transaction(commit=False) as c:
            for start in range(0, len(wanted), _KEYS_AT_ONCE):
                c.execute(
                    f"SELECT d.kind, d.key, d.data FROM json_each(?) AS j JOIN {TABLE} AS d "
                    "ON d.kind = json_extract(j.value, '$[0]') AND d.key = json_extract(j.value, '$[1]')",
                    (json.dumps(wanted[start : start + _KEYS_AT_ONCE]),),
                )
                for kind, key, data in c.fetchall():
                    found[(kind, key)] = dict(json.loads(data))
        return found

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
                    # A row at 0 (set back behind honba's back, the view then emptied) stands for none.
                    c.execute(
                        "INSERT INTO tracking VALUES (?, ?) ON CONFLICT (application_name) DO UPDATE "
                        "SET notification_id = excluded.notification_id WHERE tracking.notification_id = 0 "
                        "RETURNING notification_id",
                        (tracking.application_name, tracking.notification_id),
                    )
                if c.fetchone() is None:
                    raise moved(tracking, expected)
            # One statement for the batch's deletions and one for its writes (a rebuild writes
            # thousands of documents a batch), in the order of the table's key: each insert lands
            # beside the one before in the B-tree (an import's batch interleaves the kinds; about
            # a fifth less CPU for the corpus's documents).
            ordered = sorted(changes)
            c.executemany(
                f"DELETE FROM {TABLE} WHERE kind = ? AND key = ?",
                [key for key in ordered if changes[key] is None],
            )
            c.executemany(
                f"INSERT INTO {TABLE} VALUES (?, ?, ?) ON CONFLICT (kind, key) DO UPDATE SET data = excluded.data",
                [(kind, key, encoded(data)) for kind, key in ordered if (data := changes[(kind, key)]) is not None],
            )

    def reset(self, application_name: str, *, expected: int) -> None:
        with self.datastore.transaction(commit=True) as c:
            # The first statement writes, so the check and the deletion hold the write lock together.
            c.execute(
                "DELETE FROM tracking WHERE application_name = ? AND notification_id = ? RETURNING notification_id",
                (application_name, expected),
            )
            if c.fetchone() is None:
                # At 0, no tracking row is there either (documents left without one: emptied all the same).
                c.execute("SELECT notification_id FROM tracking WHERE application_name = ?", (application_name,))
                if expected or c.fetchone() is not None:
                    raise moved(Tracking(application_name, 0), expected)
            c.execute(f"DELETE FROM {TABLE}")
