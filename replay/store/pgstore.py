"""honba's PostgreSQL event recorder: the library's, with a leaner insert and one-statement reads.

An insert is one statement, a call of a function the recorder creates with the tables
(``honba_events_insert``): it takes the library's table lock (``EXCLUSIVE``, so that rows are
committed in the order of their notification ids and a follower reading the log never passes a
gap filled later), sends the library's ``NOTIFY``, inserts the rows and returns their
notification ids; the statement runs in its own transaction, which PostgreSQL commits as the
statement ends. The library instead sends ``BEGIN``, ``SET LOCAL lock_timeout``, ``LOCK``,
``NOTIFY``, the ``INSERT`` and ``COMMIT``, in a pipeline that waits for the insert's answer
before it sends the ``COMMIT``: the table lock was held across a round trip to the client (and
its Python thread's turn), and every save of every match queued behind it (issue 36). The
library's own database function (``POSTGRES_ENABLE_DB_FUNCTIONS``) is one statement too, but
takes no table lock: followers could miss rows, so it is not used.

The rows go as four arrays of plain types in PostgreSQL's binary format: the library's
composite-type array is encoded as text in Python, escaping every byte of every event's state
with a regular expression, which for a bulk import cost more than the database's own work.

A statement that fails for want of a connection (the server restarting, the network gone) is tried
again as the library's recorder does, 10 times 0.2 s apart, each try waiting up to the pool's timeout
(``connect_timeout``) for a connection; ``HonbaPostgresRecorder.tries`` and ``pause``, which a test
of an outage shortens on its store's recorder (the library's own reads keep the library's).

``select_tails`` reads the rows of a match and its seal from given positions in one statement
(``replay.store.checked``). Everything else (tables, reading, subscriptions for the live views)
is the library's. ``HonbaApp`` uses it on PostgreSQL unless ``APPLICATION_RECORDER_TOPIC`` names
another.
"""

from __future__ import annotations

import contextlib
import functools
import random
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar, cast

from eventsourcing.persistence import InterfaceError, Notification, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from psycopg.rows import tuple_row
from psycopg.sql import SQL, Identifier, Literal

# The advisory lock's key: the store's checkpoints (any number honba alone uses).
CHECKPOINT_LOCK = 0x686F6E6261  # "honba"
# The advisory lock under which a process makes the store's tables and function ("honbs").
SCHEMA_LOCK = 0x686F6E6273
# Up to how many rows an insert sends each value as a plain parameter (a hand's save: its event and
# its seal's row; a match started: two more), not as arrays (``HonbaPostgresRecorder._few_rows``).
FEW = 8

Method = TypeVar("Method", bound=Callable[..., Any])


def _tried(method: Method) -> Method:
    """``method`` tried again while it fails for want of a connection, ``tries`` times in all and
    ``pause`` seconds apart (give or take 5 %, so that processes do not knock at once), as the
    recorder says: the library's ``retry``, whose count and pause are fixed where it decorates."""

    @functools.wraps(method)
    def tried(self: HonbaPostgresRecorder, *args: Any, **kwargs: Any) -> Any:
        failed = 0
        while True:
            try:
                return method(self, *args, **kwargs)
            except (InterfaceError, OperationalError):
                failed += 1
                if failed >= self.tries:
                    raise
                time.sleep(self.pause * (1 + 0.1 * (random.random() - 0.5)))

    return cast(Method, tried)


class HonbaPostgresRecorder(PostgresApplicationRecorder):
    """The library's application recorder, inserting a batch in one statement, as binary arrays."""

    # How many times a statement is tried for want of a connection, and the pause between two tries
    # (the library's: ``eventsourcing.postgres``).
    tries = 10
    pause = 0.2

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name=events_table_name)
        names = {
            "id_type": SQL(self.datastore.originator_id_type),
            "schema": Identifier(self.datastore.schema),
            "table": Identifier(self.events_table_name),
            "insert": Identifier(f"{self.events_table_name}_insert"),
            "channel": Identifier(self.channel_name),
        }
        # Processes opening one store at once make its tables and function one after another: two
        # ``CREATE OR REPLACE FUNCTION`` at once fail with "tuple concurrently updated". The library
        # runs these statements in one transaction, so a transaction's advisory lock taken first
        # holds until they are all made.
        self.sql_create_statements.insert(0, SQL("SELECT pg_advisory_xact_lock({})").format(Literal(SCHEMA_LOCK)))
        # Made with the tables (``create_table``, on every open: a store made before finds it there
        # next time it is opened). The lock's timeout is an argument: processes with different
        # settings share one function.
        self.sql_create_statements.append(
            SQL(
                "CREATE OR REPLACE FUNCTION {schema}.{insert}("
                "ids {id_type}[], versions bigint[], topics text[], states bytea[], wait_for_lock text) "
                "RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$ "
                "BEGIN "
                "PERFORM set_config('lock_timeout', wait_for_lock, true); "
                "LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE; "
                "NOTIFY {channel}; "
                "RETURN QUERY INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state) "
                "SELECT * FROM unnest(ids, versions, topics, states) RETURNING notification_id; "
                "END; $BODY$"
            ).format(**names)
        )
        self.insert_rows_statement = SQL(
            "SELECT notification_id FROM {schema}.{insert}(%b::{id_type}[], %b::bigint[], %b::text[], %b::bytea[], %s) "
            "AS inserted(notification_id)"
        ).format(**names)
        self._names = names
        # The statements of a few rows, by their count: each value a plain parameter (``_few_rows``).
        self._few: dict[tuple[str, int], bytes] = {}

    def _few_rows(self, kind: str, count: int) -> bytes:
        """The statement of ``kind`` for ``count`` rows with every value a plain parameter, its text
        made once per count: psycopg dumps a list by looking for its elements' type in Python at every
        call (a hand's save and load sent six lists: 15 % of the service's CPU per hand, issue 36), a
        uuid, a number, a text or bytes by a dumper it finds at once. The same rows, the same order,
        the same transaction and lock as the arrays' statement (``insert_rows_statement``), which an
        import's large batches keep (one text for any size)."""
        made = self._few.get((kind, count))
        if made is not None:
            return made
        names = self._names
        if kind == "insert":
            values = {
                name: SQL("ARRAY[{}]::{}").format(SQL(", ").join([SQL("%b")] * count), cast)
                for name, cast in (
                    ("ids", SQL("{}[]").format(names["id_type"])),
                    ("versions", SQL("bigint[]")),
                    ("topics", SQL("text[]")),
                    ("states", SQL("bytea[]")),
                )
            }
            statement = SQL(
                "SELECT notification_id FROM {schema}.{insert}({ids}, {versions}, {topics}, {states}, %s) "
                "AS inserted(notification_id)"
            ).format(**names, **values)
        else:
            # Each stream's rows from a position on: a join on the (id, position) primary key's index.
            pairs = SQL(", ").join([SQL("(%s::{}, %s::bigint)").format(names["id_type"])] * count)
            tails = SQL(
                "FROM (VALUES {pairs}) AS t(id, since) "
                "JOIN {schema}.{table} AS e ON e.originator_id = t.id AND e.originator_version >= t.since "
            ).format(pairs=pairs, schema=names["schema"], table=names["table"])
            if kind == "tails":
                statement = SQL(
                    "SELECT e.originator_id, e.originator_version, e.topic, e.state {tails}"
                    "ORDER BY e.originator_id, e.originator_version"
                ).format(tails=tails)
            else:
                # The tails and a token's row (``kind``: "tails+" and the tokens' table), its
                # ``originator_id`` NULL and its role in ``topic``: one statement, one round trip.
                statement = SQL(
                    "SELECT e.originator_id, e.originator_version, e.topic, e.state, "
                    "NULL::text AS match_key, NULL::text AS salt, NULL::text AS digest {tails}"
                    "UNION ALL SELECT NULL, NULL, role, NULL, match_key, salt, digest "
                    "FROM {tokens} WHERE token_id = %s ORDER BY 1, 2"
                ).format(tails=tails, tokens=Identifier(kind[6:]))
        with self.datastore.get_connection() as conn:
            # Made into text once (its names quoted as this server quotes them), not at every call.
            made = statement.as_bytes(conn)
        self._few[(kind, count)] = made
        return made

    @_tried
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

    @_tried
    def select_tails(self, streams: Sequence[tuple[Any, int]]) -> list[StoredEvent]:
        """The rows of each stream from its given position on, in one statement: one snapshot of all
        of them (a match and its seal, saved in one transaction, read as one save left them) for
        one round trip (``replay.store.checked.tail_rows``)."""
        if not streams:
            return []
        statement = self._few_rows("tails", len(streams))
        # Its rows as tuples (the pool's connections make each a dict: the names found and a dict made
        # per row, at every hand's load).
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
            curs.execute(statement, [value for stream in streams for value in stream], prepare=True)
            return [
                StoredEvent(originator_id, originator_version, topic, _state(state))
                for originator_id, originator_version, topic, state in curs.fetchall()
            ]

    @_tried
    def select_tails_and_token(
        self, streams: Sequence[tuple[Any, int]], tokens: str, token_id: str
    ) -> tuple[list[StoredEvent], tuple[str, str | None, str, str] | None]:
        """``select_tails``'s rows and the row of the token ``token_id`` in the table ``tokens`` (its
        role, match, salt and digest; None when there is none), in one statement: one snapshot, one
        statement and one round trip fewer for a recorded hand
        (``replay.store.application.HonbaApp.reading_ahead``)."""
        statement = self._few_rows(f"tails+{tokens}", len(streams))
        params: list[Any] = [value for stream in streams for value in stream]
        params.append(token_id)
        token = None
        events = []
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
            curs.execute(statement, params, prepare=True)
            for originator_id, originator_version, topic, state, match_key, salt, digest in curs.fetchall():
                if originator_id is None:
                    token = (topic, match_key, salt, digest)
                else:
                    events.append(StoredEvent(originator_id, originator_version, topic, _state(state)))
        return events, token

    @_tried
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

    @_tried
    def insert_events(self, stored_events: Sequence[StoredEvent], **_: Any) -> Sequence[int] | None:
        """Insert the rows in one transaction, under the table lock, with the notification: one
        statement, committed as it ends (no client round trip while the lock is held); their
        notification ids. ``IntegrityError`` when any row is there already (nothing is inserted)."""
        if not stored_events:
            return None
        lock = f"{self.datastore.lock_timeout}s"
        if len(stored_events) <= FEW:
            statement: Any = self._few_rows("insert", len(stored_events))
            arguments: Sequence[Any] = [
                *(e.originator_id for e in stored_events),
                *(e.originator_version for e in stored_events),
                *(e.topic for e in stored_events),
                *(e.state for e in stored_events),
                lock,
            ]
        else:
            statement = self.insert_rows_statement
            arguments = (
                [e.originator_id for e in stored_events],
                [e.originator_version for e in stored_events],
                [e.topic for e in stored_events],
                [e.state for e in stored_events],
                lock,
            )
        with self.datastore.get_connection() as conn, conn.cursor(row_factory=tuple_row) as curs:
            # The pool's connections are in autocommit: the statement is its own transaction.
            curs.execute(statement, arguments, prepare=True)
            return [notification_id for (notification_id,) in curs.fetchall()]


def _state(stored: Any) -> bytes:
    """A row's state as bytes: a NULL one (set behind honba's back) as empty bytes, which no reader decodes."""
    return b"" if stored is None else bytes(stored)
