"""The PostgreSQL document view: tables of their own in the event store's database.

Imported only when the store is PostgreSQL (it loads psycopg).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.postgres import PostgresDatastore, PostgresTrackingRecorder
from psycopg.sql import SQL, Identifier, Literal

from projections.views import TABLE, Changes, DocKey, DocumentView, encoded, moved
from replay.store.pgstore import SCHEMA_LOCK

# The documents asked for by one statement of ``get_docs``.
_KEYS_AT_ONCE = 5000


class PostgresDocumentView(PostgresTrackingRecorder, DocumentView):
    """Documents in a table of their own in the PostgreSQL database."""

    def __init__(self, datastore: PostgresDatastore, **kwargs: Any):
        # The library's factory names the tracking table after the environment's name (the
        # application's, or the projection runner's): one name here, so that the catch-up of
        # ``honba standings`` and the live runner share the same tracking records.
        kwargs["tracking_table_name"] = "honba_view_tracking"
        super().__init__(datastore, **kwargs)
        # Made one process after another, as the event store's tables (``pgstore.SCHEMA_LOCK``).
        self.sql_create_statements.insert(0, SQL("SELECT pg_advisory_xact_lock({})").format(Literal(SCHEMA_LOCK)))
        self.sql_create_statements.append(
            SQL("CREATE TABLE IF NOT EXISTS {0}.{1} (kind text, key text, data text, PRIMARY KEY (kind, key))").format(
                Identifier(self.datastore.schema), Identifier(TABLE)
            )
        )

    def _table(self) -> Any:
        return SQL("{0}.{1}").format(Identifier(self.datastore.schema), Identifier(TABLE))

    def get_doc(self, kind: str, key: str) -> dict[str, Any] | None:
        if "\x00" in key:  # PostgreSQL's text cannot hold a NUL, so no stored key has one (it would refuse the query)
            return None
        with self.datastore.transaction(commit=False) as curs:
            curs.execute(SQL("SELECT data FROM {0} WHERE kind = %s AND key = %s").format(self._table()), (kind, key))
            row = curs.fetchone()
        return None if row is None else dict(json.loads(row["data"]))

    def get_docs(self, keys: Iterable[DocKey]) -> dict[DocKey, dict[str, Any] | None]:
        # One statement for a batch's documents, not one each (a catch-up asks for thousands): the
        # keys go in as two arrays joined with the documents' primary key, as SQLite's view does.
        wanted = list(keys)
        found: dict[DocKey, dict[str, Any] | None] = dict.fromkeys(wanted)
        # PostgreSQL's text cannot hold a NUL, so no stored key has one (it would refuse the query).
        asked = [(kind, key) for kind, key in wanted if "\x00" not in kind and "\x00" not in key]
        with self.datastore.transaction(commit=False) as curs:
            for start in range(0, len(asked), _KEYS_AT_ONCE):
                part = asked[start : start + _KEYS_AT_ONCE]
                curs.execute(
                    SQL(
                        "SELECT d.kind, d.key, d.data FROM unnest(%s::text[], %s::text[]) AS w (kind, key) "
                        "JOIN {0} AS d ON d.kind = w.kind AND d.key = w.key"
                    ).format(self._table()),
                    ([kind for kind, _ in part], [key for _, key in part]),
                )
                for row in curs.fetchall():
                    found[(row["kind"], row["key"])] = dict(json.loads(row["data"]))
        return found

    def docs(self, kind: str, prefix: str = "") -> list[tuple[str, dict[str, Any]]]:
        if "\x00" in prefix:  # as in get_doc: no stored key holds a NUL
            return []
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
                    # A row at 0 (set back behind honba's back, the view then emptied) stands for none.
                    curs.execute(
                        SQL(
                            "INSERT INTO {0} VALUES (%s, %s) ON CONFLICT (application_name) DO UPDATE "
                            "SET notification_id = excluded.notification_id WHERE {0}.notification_id = 0"
                        ).format(tracking_table),
                        (tracking.application_name, tracking.notification_id),
                    )
                if curs.rowcount != 1:
                    raise moved(tracking, expected)
            # One statement for the deletions and one for the writes, each sent in one pipeline (psycopg's
            # ``executemany``), not a round trip per document: an import keeps hundreds a batch.
            deleted = [key for key, data in changes.items() if data is None]
            if deleted:
                curs.executemany(SQL("DELETE FROM {0} WHERE kind = %s AND key = %s").format(self._table()), deleted)
            written = [(kind, key, encoded(data)) for (kind, key), data in changes.items() if data is not None]
            if written:
                curs.executemany(
                    SQL(
                        "INSERT INTO {0} VALUES (%s, %s, %s) ON CONFLICT (kind, key) DO UPDATE SET data = EXCLUDED.data"
                    ).format(self._table()),
                    written,
                )

    def reset(self, application_name: str, *, expected: int) -> None:
        with self.datastore.transaction(commit=True) as curs:
            # The row lock of the deletion queues a concurrent writer until this one commits.
            curs.execute(
                SQL("DELETE FROM {0} WHERE application_name = %s AND notification_id = %s").format(
                    SQL("{0}.{1}").format(Identifier(self.datastore.schema), Identifier(self.tracking_table_name))
                ),
                (application_name, expected),
            )
            if curs.rowcount != 1:
                # At 0, no tracking row is there either (documents left without one: emptied all the same).
                curs.execute(
                    SQL("SELECT notification_id FROM {0} WHERE application_name = %s FOR UPDATE").format(
                        SQL("{0}.{1}").format(Identifier(self.datastore.schema), Identifier(self.tracking_table_name))
                    ),
                    (application_name,),
                )
                if expected or curs.fetchone() is not None:
                    raise moved(Tracking(application_name, 0), expected)
            curs.execute(SQL("DELETE FROM {0}").format(self._table()))


def discard_view(datastore: PostgresDatastore) -> None:
    """Drop the view's tables (its documents and its tracking rows, the library's migration marker
    among them): derived data whose tracking rows no longer open, made anew by the next catch-up."""
    with datastore.transaction(commit=True) as curs:
        for table in (TABLE, "honba_view_tracking"):
            curs.execute(SQL("DROP TABLE IF EXISTS {0}.{1}").format(Identifier(datastore.schema), Identifier(table)))
