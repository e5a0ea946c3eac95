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

A hand's statements (the insert function's call, ``select_tails``, ``select_tails_and_token``) are
prepared once per connection and run through psycopg's own dumping, libpq call and row loading,
without a cursor, on a connection taken from the pool directly (``_run``, ``_rows``): the same
SQL, parameters, autocommit transaction and errors, a fifth fewer of a recorded hand's service
call's instructions (issue 36, sixteenth round). A server prepares them on every connection of the
pool as it starts, and on every connection the pool opens later as it connects it
(``HonbaPostgresRecorder.prepare_hands``, eighteenth round).

``select_tails`` reads the rows of a match and its seal from given positions in one statement
(``replay.store.checked``). Everything else (tables, reading, subscriptions for the live views)
is the library's. ``HonbaApp`` uses it on PostgreSQL unless ``APPLICATION_RECORDER_TOPIC`` names
another.
"""

from __future__ import annotations

import contextlib
import functools
import random
import re
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import Any, ClassVar, TypeVar, cast
from uuid import UUID

import psycopg
from eventsourcing.persistence import (
    DatabaseError,
    DataError,
    IntegrityError,
    InterfaceError,
    InternalError,
    Notification,
    NotSupportedError,
    OperationalError,
    PersistenceError,
    ProgrammingError,
    StoredEvent,
)
from eventsourcing.postgres import PostgresApplicationRecorder, PostgresDatastore
from psycopg import Connection, abc, errors
from psycopg.adapt import PyFormat, Transformer
from psycopg.generators import execute
from psycopg.pq import DiagnosticField, ExecStatus, Format
from psycopg.sql import SQL, Identifier, Literal

from replay.store.errors import NotAsChecked

# The advisory lock's key: the store's checkpoints (any number honba alone uses).
CHECKPOINT_LOCK = 0x686F6E6261  # "honba"
# The advisory lock under which a process makes the store's tables and function ("honbs").
SCHEMA_LOCK = 0x686F6E6273
# Up to how many rows an insert sends each value as a plain parameter (a hand's save: its event and
# its seal's row; a match started: two more), not as arrays (``HonbaPostgresRecorder._few_rows``).
FEW = 8
# The streams a recorded hand reads and writes: its match's and its seal's (``replay.store.checked``).
HAND_STREAMS = 2

Method = TypeVar("Method", bound=Callable[..., Any])

# psycopg's errors as the library's ``PostgresDatastore.get_connection`` raises them, the most
# particular first (``HonbaPostgresRecorder._run``).
TRANSLATED: tuple[tuple[type[psycopg.Error], type[PersistenceError]], ...] = (
    (psycopg.InterfaceError, InterfaceError),
    (psycopg.OperationalError, OperationalError),
    (psycopg.DataError, DataError),
    (psycopg.IntegrityError, IntegrityError),
    (psycopg.InternalError, InternalError),
    (psycopg.ProgrammingError, ProgrammingError),
    (psycopg.NotSupportedError, NotSupportedError),
    (psycopg.DatabaseError, DatabaseError),
    (psycopg.Error, PersistenceError),
)

# A placeholder of honba's statements (``%s``: psycopg chooses the format, ``%b``: binary) or a
# literal ``%`` (``%%``): what psycopg's query conversion reads (``_converted``).
PLACEHOLDER = re.compile(rb"%([sb%])")
# The server's error code for a prepared statement it does not have (psycopg's ``InvalidSqlStatementName``).
UNKNOWN_STATEMENT = b"26000"
# The codes ``insert_checked``'s function refuses with, and what each says.
NOT_AS_CHECKED = {"HB001": "token", "HB002": "rows"}


class _Prepared:
    """What a connection of the pool keeps for honba's statements: the names of those prepared on it
    (by their text and their parameters' types, as psycopg keys its own) and the transformer that
    dumps their parameters and loads their rows. A connection is one thread's at a time (the pool's
    checkout), and so is this."""

    __slots__ = ("made", "names", "tx")

    def __init__(self, conn: Connection[Any]):
        self.names: dict[tuple[bytes, tuple[int, ...] | None], bytes] = {}
        self.made = 0  # how many statements were prepared on the connection: the next one's name
        self.tx: abc.Transformer = Transformer(conn)


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
    # Each connection's prepared statements (``_rows``), gone with the connection: one table for every
    # recorder, so that recorders on one pool share a connection's names and never prepare one twice.
    _prepared: ClassVar[weakref.WeakKeyDictionary[Connection[Any], _Prepared]] = weakref.WeakKeyDictionary()

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str = "stored_events"):
        super().__init__(datastore, events_table_name=events_table_name)
        names = {
            "id_type": SQL(self.datastore.originator_id_type),
            "schema": Identifier(self.datastore.schema),
            "table": Identifier(self.events_table_name),
            "insert": Identifier(f"{self.events_table_name}_insert"),
            "checked": Identifier(f"{self.events_table_name}_insert_checked"),
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
        # A statement's text as the server gets it ($1, $2...) and its parameters' formats (``_rows``).
        self._converted: dict[bytes, tuple[bytes, list[PyFormat]]] = {}
        # A recorded hand's statements, prepared on every connection once a server asks (``prepare_hands``).
        self._hands: tuple[tuple[bytes, list[PyFormat], list[Any]], ...] = ()
        # And a hand's one-trip insert, prepared with them where its function was made (``make_insert_checked``).
        self._trip: tuple[tuple[bytes, list[PyFormat], list[Any]], ...] = ()
        self._hooked = False
        # The token table whose one-trip insert function this process made (``make_insert_checked``).
        self.checked_tokens: str | None = None

    def prepare_hands(self, tokens: str, connections: int = 0) -> None:
        """A recorded hand's statements (``select_tails_and_token`` on the token table ``tokens``,
        ``select_tails`` and ``insert_events`` of a hand's two rows: its event and its seal's) made into text now, and
        prepared on every connection of the pool: the ones open now (the pool opened and filled to
        its size first) and every one it opens from now on (more under load, or in place of those
        lost in an outage), as the pool connects it, before any hand runs on it. A server calls it
        as it starts (``replay.service.common.opening.ready_to_serve``): its first hands, and a
        table's first hand on each connection, neither make these texts nor wait for a prepare
        (issue 36, eighteenth round). A connection whose statements are dropped later prepares
        them again at its next hand (``_rows``), as before. ``connections``: how many the pool is
        to have open now (up to its most), for a server whose threads would otherwise open them
        at its first hands; those beyond the pool's size it closes when idle, as it would."""
        nil = UUID(int=0)
        # Values of the types a hand sends (a version, a position: small whole numbers), which
        # decide the parameters' types the statements are prepared for (``_rows``'s key).
        hands = [
            (self._few_rows(f"tails+{tokens}", HAND_STREAMS), [nil, 1, nil, 1, ""]),
            # The tails alone: a command's load without a token read along (a director's, a form's).
            (self._few_rows("tails", HAND_STREAMS), [nil, 1, nil, 1]),
            (self._few_rows("insert", HAND_STREAMS), [nil, nil, 1, 1, "", "", b"", b"", ""]),
        ]
        self._hands = tuple((*self._converted_query(query), params) for query, params in hands)
        if self.checked_tokens == tokens:
            # A hand in one round trip (``insert_checked``; where its function was made): the insert's
            # values, the token's row, the streams' last rows.
            row = [nil, nil, 1, 1, "", "", b"", b"", "", "", "", "", "", "", nil, nil, 1, 1, "", "", b"", b""]
            self._trip = ((*self._converted_query(self._few_rows(f"checked+{tokens}", HAND_STREAMS)), row),)
        pool = self.datastore.pool
        if not self._hooked:
            # The library's own set-up of a new connection first (autocommit, its timeouts), then these.
            library = pool._configure

            def configure(conn: Connection[Any]) -> None:
                if library is not None:
                    library(conn)
                self._prepare_on(conn)

            pool._configure = configure
            self._hooked = True
        held: list[Connection[Any]] = []
        try:
            pool.wait(timeout=float(pool.timeout))
            # Each connection of the pool at once (none is handed out twice), those opened before the
            # hook too; the pool may hold more than its size (opened while its first were being made).
            # Those it opens to hand them all out are prepared as it connects them.
            wanted = max(pool.min_size, pool.get_stats()["pool_size"], min(connections, pool.max_size))
            for _ in range(wanted):
                held.append(pool.getconn())
            for conn in held:
                self._prepare_on(conn)
        except psycopg.Error as error:  # (the pool's timeout among them) raised as the library's
            raise next(ours for theirs, ours in TRANSLATED if isinstance(error, theirs))(str(error)) from error
        finally:
            for conn in held:
                pool.putconn(conn)

    def _prepare_on(self, conn: Connection[Any]) -> None:
        """The hand's statements (``prepare_hands``) prepared on ``conn`` where they are not yet."""
        prepared = self._prepared.get(conn)
        if prepared is None:
            prepared = self._prepared[conn] = _Prepared(conn)
        with conn.lock:
            for text, formats, params in (*self._hands, *self._trip):
                prepared.tx.dump_sequence(params, formats)
                types = prepared.tx.types
                if (text, types) not in prepared.names:
                    _prepare(conn, prepared, text, types)

    def _converted_query(self, query: bytes) -> tuple[bytes, list[PyFormat]]:
        """``query``'s text as the server gets it and its parameters' formats, converted once."""
        converted = self._converted.get(query)
        if converted is None:
            converted = self._converted[query] = _converted(query)
        return converted

    def _run(self, query: bytes, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        """``_rows`` on a connection of the pool: what ``with self.datastore.get_connection() as conn``
        does around it (the pool's checkout and return, psycopg's errors raised as the library's),
        without its two context managers, its opening of the pool and its ``with conn`` (a commit or
        rollback that the pool's connections, in autocommit, have no transaction for); the pool not
        open (never yet, or closed) is the library's to open."""
        pool = self.datastore.pool
        if pool.closed:
            with self.datastore.get_connection() as conn:
                return self._rows(conn, query, params)
        try:
            conn = pool.getconn()
            try:
                return self._rows(conn, query, params)
            finally:
                # A connection broken meanwhile is the pool's to replace, as after the library's checkout.
                pool.putconn(conn)
        except psycopg.Error as error:
            raise next(ours for theirs, ours in TRANSLATED if isinstance(error, theirs))(str(error)) from error

    def _rows(self, conn: Connection[Any], query: bytes, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        """The rows of ``query`` (psycopg's ``%s`` and ``%b`` placeholders) with ``params`` on ``conn``,
        as tuples: what ``conn.cursor(row_factory=tuple_row).execute(query, params, prepare=True)``
        then ``fetchall()`` give, the same statement prepared once per connection, the same
        parameters in the same formats, the same transaction (the pool's connections are in
        autocommit), the same errors (psycopg's, from the server's answer or a connection gone).
        A cursor's execute is mostly psycopg's Python around libpq (a cursor made, the query
        converted and looked up, its prepared-statement cache kept, the results checked and set): a
        third of a recorded hand's PostgreSQL client work (issue 36, sixteenth round). Here the
        statement's conversion is looked up in one dict and its prepared name in another; the
        parameters are dumped, the statement sent, its answer waited for and its rows loaded by
        psycopg's own C functions, the rows in binary (the same values as in text)."""
        converted = self._converted.get(query)
        if converted is None:
            converted = self._converted_query(query)
        text, formats = converted
        prepared = self._prepared.get(conn)
        if prepared is None:
            prepared = self._prepared[conn] = _Prepared(conn)
        tx = prepared.tx
        pgconn = conn.pgconn
        with conn.lock:
            dumped = tx.dump_sequence(params, formats)
            types = tx.types
            key = (text, types)
            for tried in (False, True):
                name = prepared.names.get(key)
                if name is None:
                    name = _prepare(conn, prepared, text, types)
                pgconn.send_query_prepared(name, dumped, param_formats=tx.formats, result_format=Format.BINARY)
                results = conn.wait(execute(pgconn))
                # The connection's prepared statements dropped behind the recorder's back (psycopg
                # sends ``DEALLOCATE ALL`` when its own cache is cleared, after a ``ROLLBACK`` or a
                # ``DROP`` on the connection): nothing ran, so prepare them again and run it once more.
                if not tried and results and _unknown_statement(results[-1]):
                    prepared.names.clear()
                    continue
                break
            result = _checked(results, conn, ExecStatus.TUPLES_OK)
        tx.set_pgresult(result)
        return tx.load_rows(0, result.ntuples, tuple)

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
        if kind == "arrays":
            # The arrays' statement (any count of rows), made into text as the others.
            statement = self.insert_rows_statement
        elif kind == "insert" or kind.startswith("checked+"):
            values = {
                name: SQL("ARRAY[{}]::{}").format(SQL(", ").join([SQL("%b")] * count), cast)
                for name, cast in (
                    ("ids", SQL("{}[]").format(names["id_type"])),
                    ("versions", SQL("bigint[]")),
                    ("topics", SQL("text[]")),
                    ("states", SQL("bytea[]")),
                )
            }
            if kind == "insert":
                statement = SQL(
                    "SELECT notification_id FROM {schema}.{insert}({ids}, {versions}, {topics}, {states}, %s) "
                    "AS inserted(notification_id)"
                ).format(**names, **values)
            else:
                # The one-trip insert (``insert_checked``): the rows as above, the token's row as checked,
                # and the last row of each of a hand's streams as checked, by the same casts.
                heads = {
                    f"head_{name}": SQL("ARRAY[{}]::{}").format(SQL(", ").join([SQL("%b")] * HAND_STREAMS), cast)
                    for name, cast in (
                        ("ids", SQL("{}[]").format(names["id_type"])),
                        ("versions", SQL("bigint[]")),
                        ("topics", SQL("text[]")),
                        ("states", SQL("bytea[]")),
                    )
                }
                statement = SQL(
                    "SELECT notification_id FROM {schema}.{checked}({ids}, {versions}, {topics}, {states}, %s, "
                    "%s::text, %s::text, %s::text, %s::text, %s::text, "
                    "{head_ids}, {head_versions}, {head_topics}, {head_states}) AS inserted(notification_id)"
                ).format(**names, **values, **heads)
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
        rows = self._run(statement, [value for stream in streams for value in stream])
        return [
            StoredEvent(originator_id, originator_version, topic, _state(state))
            for originator_id, originator_version, topic, state in rows
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
        rows = self._run(statement, params)
        for originator_id, originator_version, topic, state, match_key, salt, digest in rows:
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
            statement = self._few_rows("insert", len(stored_events))
            arguments: Sequence[Any] = [
                *(e.originator_id for e in stored_events),
                *(e.originator_version for e in stored_events),
                *(e.topic for e in stored_events),
                *(e.state for e in stored_events),
                lock,
            ]
        else:
            statement = self._few_rows("arrays", 0)
            arguments = (
                [e.originator_id for e in stored_events],
                [e.originator_version for e in stored_events],
                [e.topic for e in stored_events],
                [e.state for e in stored_events],
                lock,
            )
        # The pool's connections are in autocommit: the statement is its own transaction.
        rows = self._run(statement, arguments)
        return [notification_id for (notification_id,) in rows]

    def make_insert_checked(self, tokens: str) -> None:
        """The function of ``insert_checked`` made in the store (beside the token table ``tokens``,
        which it reads): ``honba_events_insert``'s lock, notification and insert, after two checks
        made under that lock, each refusing the whole statement (nothing inserted, nothing notified)
        with its own code: the token's row is the one given, field for field (``HB001``: revoked,
        replaced, removed), and each stream's last row is the one given, its position, topic and
        state, with none after it (``HB002``: another process's save, a row changed or removed), for
        a hand's two streams (the match's and its seal's, ``HAND_STREAMS``), each found by its primary
        key's index from the position given on: the rows a tails' read would have found, and no more
        (a first form, each head looked for in a correlated subquery of the streams' ``unnest``, cost
        PostgreSQL more than the read it saved).
        The table lock (``EXCLUSIVE``) keeps every other write of the events out from the checks
        to the commit. Made once per process, under the schema's advisory lock as the tables are."""
        names = {**self._names, "tokens": Identifier(tokens), "streams": Literal(HAND_STREAMS)}
        function = SQL(
            "CREATE OR REPLACE FUNCTION {schema}.{checked}("
            "ids {id_type}[], versions bigint[], topics text[], states bytea[], wait_for_lock text, "
            "token text, token_role text, token_match text, token_salt text, token_digest text, "
            "head_ids {id_type}[], head_versions bigint[], head_topics text[], head_states bytea[]) "
            "RETURNS SETOF bigint LANGUAGE plpgsql AS $BODY$ "
            "BEGIN "
            "PERFORM set_config('lock_timeout', wait_for_lock, true); "
            "LOCK TABLE {schema}.{table} IN EXCLUSIVE MODE; "
            "PERFORM 1 FROM {tokens} AS k WHERE k.token_id = token AND k.role = token_role "
            "AND k.match_key IS NOT DISTINCT FROM token_match AND k.salt = token_salt AND k.digest = token_digest; "
            "IF NOT FOUND THEN RAISE EXCEPTION 'the token is not as checked' USING ERRCODE = 'HB001'; END IF; "
            "IF (SELECT count(*) <> {streams} OR NOT bool_and(e.originator_version = h.version AND e.topic = h.topic "
            "AND e.state = h.state) FROM (VALUES (head_ids[1], head_versions[1], head_topics[1], head_states[1]), "
            "(head_ids[2], head_versions[2], head_topics[2], head_states[2])) AS h(id, version, topic, state) "
            "JOIN {schema}.{table} AS e ON e.originator_id = h.id AND e.originator_version >= h.version) "
            "THEN RAISE EXCEPTION 'the stored rows are not as checked' USING ERRCODE = 'HB002'; END IF; "
            "NOTIFY {channel}; "
            "RETURN QUERY INSERT INTO {schema}.{table} (originator_id, originator_version, topic, state) "
            "SELECT * FROM unnest(ids, versions, topics, states) RETURNING notification_id; "
            "END; $BODY$"
        ).format(**names)
        with self.datastore.transaction(commit=True) as curs:
            curs.execute(SQL("SELECT pg_advisory_xact_lock({})").format(Literal(SCHEMA_LOCK)))
            curs.execute(function)
        self.checked_tokens = tokens

    def insert_checked(
        self,
        stored_events: Sequence[StoredEvent],
        tokens: str,
        token: tuple[str, tuple[str, str | None, str, str]],
        heads: Sequence[StoredEvent],
    ) -> Sequence[int]:
        """``insert_events`` of a recorded hand's rows in one round trip, with what its two reads
        would have found checked in the same statement (``make_insert_checked``'s function): the
        token's row (``token``: its id and its row as this process read it) and each stream's last
        row (``heads``: as this process wrote them, the rows the hand was made on). ``NotAsChecked``
        when either differs, nothing inserted; ``IntegrityError`` for a row there already, as
        ``insert_events``. Tried again for want of a connection as ``insert_events`` is; a refusal
        on such a try is an ``IntegrityError``, as ``insert_events``'s would be: the first try may
        have been committed before its answer was lost (its own rows now the heads)."""
        token_id, (role, match_key, salt, digest) = token
        if len(heads) != HAND_STREAMS:
            raise ValueError(f"a hand's one-trip insert checks {HAND_STREAMS} streams' last rows, not {len(heads)}")
        statement = self._few_rows(f"checked+{tokens}", len(stored_events))
        arguments = [
            *(e.originator_id for e in stored_events),
            *(e.originator_version for e in stored_events),
            *(e.topic for e in stored_events),
            *(e.state for e in stored_events),
            f"{self.datastore.lock_timeout}s",
            token_id,
            role,
            match_key,
            salt,
            digest,
            *(e.originator_id for e in heads),
            *(e.originator_version for e in heads),
            *(e.topic for e in heads),
            *(e.state for e in heads),
        ]
        tried = False

        def once(self: HonbaPostgresRecorder) -> list[tuple[Any, ...]]:
            nonlocal tried
            again, tried = tried, True
            try:
                return self._run(statement, arguments)
            except PersistenceError as error:
                code = getattr(error.__cause__, "sqlstate", None)
                if code not in NOT_AS_CHECKED:
                    raise
                if again:
                    raise IntegrityError(f"not as checked ({NOT_AS_CHECKED[code]}) on a try again") from None
                raise NotAsChecked(NOT_AS_CHECKED[code]) from None

        return [notification_id for (notification_id,) in _tried(once)(self)]


def _prepare(conn: Connection[Any], prepared: _Prepared, text: bytes, types: tuple[int, ...] | None) -> bytes:
    """``text`` prepared on ``conn`` (whose lock the caller holds) for parameters of ``types``, under a
    name never used on this connection, even after its statements were dropped; that name."""
    name = b"honba_%d" % prepared.made
    prepared.made += 1
    pgconn = conn.pgconn
    pgconn.send_prepare(name, text, param_types=types)
    _checked(conn.wait(execute(pgconn)), conn, ExecStatus.COMMAND_OK)
    prepared.names[(text, types)] = name
    return name


def _converted(query: bytes) -> tuple[bytes, list[PyFormat]]:
    """``query``'s text with its placeholders numbered as the server reads them, and each one's format
    (``%s``: psycopg's choice, ``%b``: binary), as psycopg converts a query with positional parameters."""
    formats: list[PyFormat] = []

    def numbered(placeholder: re.Match[bytes]) -> bytes:
        if placeholder.group(1) == b"%":
            return b"%"
        formats.append(PyFormat.BINARY if placeholder.group(1) == b"b" else PyFormat.AUTO)
        return b"$%d" % len(formats)

    return PLACEHOLDER.sub(numbered, query), formats


def _checked(results: list[Any], conn: Connection[Any], status: ExecStatus) -> Any:
    """The last of a statement's results when it has ``status``, else psycopg's error for it (the
    server's, as a cursor raises it: an ``IntegrityError`` for a row there already)."""
    if not results:
        raise errors.InternalError("got no result from the query")
    result = results[-1]
    if result.status != status:
        if result.status == ExecStatus.FATAL_ERROR:
            raise errors.error_from_result(result, encoding=conn.info.encoding)
        raise errors.InternalError(f"unexpected result status from query: {ExecStatus(result.status).name}")
    return result


def _unknown_statement(result: Any) -> bool:
    """Whether ``result`` is the server's error for a prepared statement it does not have (26000)."""
    return bool(
        result.status == ExecStatus.FATAL_ERROR and result.error_field(DiagnosticField.SQLSTATE) == UNKNOWN_STATEMENT
    )


def _state(stored: Any) -> bytes:
    """A row's state as bytes: a NULL one (set behind honba's back) as empty bytes, which no reader decodes."""
    return b"" if stored is None else bytes(stored)
