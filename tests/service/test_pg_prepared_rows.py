"""A hand's PostgreSQL statements go through the recorder's prepared path (``HonbaPostgresRecorder._rows``).

Each statement is prepared once per connection and executed with psycopg's own dumping, libpq
call and row loading, without a psycopg cursor: the same rows as a cursor reads, the same errors,
the connection usable after one. Nothing is timed: the server's prepared statements and the rows
are looked at.
"""

from __future__ import annotations

import uuid
from typing import Any

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError, OperationalError, StoredEvent
from psycopg.rows import tuple_row

from domain.rules import load_preset
from domain.values import AbortiveDraw
from replay.service.common.access import TokenStore
from replay.service.recording import recording
from replay.store.application import HonbaApp
from replay.store.pgstore import HonbaPostgresRecorder
from replay.store.tokens import TABLE

PLAYERS = ("Ann", "Ben", "Cho", "Dai")


def test_a_recorded_hand_s_statements_are_prepared_once_per_connection_and_make_no_cursor(
    pg_opened: tuple[HonbaApp, HonbaPostgresRecorder], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, recorder = pg_opened
    recording.start_match(app, "m", PLAYERS, load_preset("tenhou"))
    by_cursor: list[str] = []
    execute = psycopg.Cursor.execute

    def noting(self: psycopg.Cursor[Any], query: Any, params: Any = None, **kwargs: Any) -> Any:
        by_cursor.append(query.decode() if isinstance(query, bytes) else str(query))
        return execute(self, query, params, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", noting)
    for _ in range(12):
        recording.record(app, "m", AbortiveDraw("four_winds"))
    monkeypatch.undo()
    assert not [text for text in by_cursor if "honba_events" in text]
    assert recorder._prepared, "no statement went the prepared path"
    # The server holds exactly the statements the recorder names on each connection, each once.
    for _ in range(len(recorder._prepared) + 1):
        with recorder.datastore.get_connection() as conn:
            known = recorder._prepared.get(conn)
            held = conn.execute(
                "SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'honba%%'"
            ).fetchall()
        names = sorted(known.names.values()) if known else []
        assert sorted(row["name"].encode() for row in held) == names
        assert len(set(names)) == len(names)
        for (text, _types), name in known.names.items() if known else ():
            assert [row["statement"] for row in held if row["name"].encode() == name] == [text.decode()]


def test_the_prepared_path_reads_what_a_cursor_reads(pg_opened: tuple[HonbaApp, HonbaPostgresRecorder]) -> None:
    app, recorder = pg_opened
    first, second = uuid.uuid4(), uuid.uuid4()
    # Versions whose parameters psycopg dumps as different integer types: each its own statement.
    versions = [1, 2, 40_000, 2**40]
    made = [StoredEvent(stream, v, f"t{v}", b"x\x00\xff%d" % v) for stream in (first, second) for v in versions]
    recorder.insert_events(made)
    recording.start_match(app, "m", PLAYERS, load_preset("tenhou"))
    TokenStore(app).create("table", "m")
    with recorder.datastore.get_connection() as conn:
        token_id = conn.execute(f"SELECT token_id FROM {TABLE}").fetchall()[0]["token_id"]
    for since, token in zip(versions, [token_id, "no such token"] * 2, strict=True):
        statement = recorder._few_rows(f"tails+{TABLE}", 2)
        params = [first, since, second, 1, token]
        with recorder.datastore.get_connection() as conn:
            ours = recorder._rows(conn, statement, params)
            with conn.cursor(row_factory=tuple_row) as curs:
                theirs = curs.execute(statement, params).fetchall()
        assert ours == theirs
        assert sorted((str(row[0]), row[1]) for row in ours if row[0] is not None) == sorted(
            [(str(first), v) for v in versions if v >= since] + [(str(second), v) for v in versions]
        )
        assert [row[2] for row in ours if row[0] is None] == (["table"] if token == token_id else [])
        assert {type(row[3]) for row in ours if row[0] is not None} == {bytes}
        got = recorder.select_tails([(first, since)])
        assert [(e.originator_id, e.originator_version, e.topic, e.state) for e in got] == [
            (e.originator_id, e.originator_version, e.topic, e.state)
            for e in made
            if e.originator_id == first and e.originator_version >= since
        ]


def test_a_conflict_raises_and_leaves_every_connection_usable(
    pg_opened: tuple[HonbaApp, HonbaPostgresRecorder],
) -> None:
    _app, recorder = pg_opened
    stream = uuid.uuid4()
    recorder.insert_events([StoredEvent(stream, 1, "t", b"a")])
    for _ in range(4):  # on each of the pool's connections in turn
        with pytest.raises(IntegrityError):
            recorder.insert_events([StoredEvent(stream, 1, "t", b"b")])
    ids = recorder.insert_events([StoredEvent(stream, 2, "t", b"c")])
    assert ids is not None and len(ids) == 1
    assert [(e.originator_version, e.state) for e in recorder.select_tails([(stream, 1)])] == [(1, b"a"), (2, b"c")]


def test_statements_dropped_behind_the_recorder_s_back_are_prepared_again(
    pg_opened: tuple[HonbaApp, HonbaPostgresRecorder],
) -> None:
    """psycopg sends ``DEALLOCATE ALL`` on a connection whose own cache it clears (after a
    ``ROLLBACK`` or a ``DROP`` there): a hand recorded after it is recorded, each statement once."""
    app, recorder = pg_opened
    recording.start_match(app, "m", PLAYERS, load_preset("tenhou"))
    recording.record(app, "m", AbortiveDraw("four_winds"))
    stream = app.load("m").match.id
    before = len(recorder.select_events(stream))
    # Only honba's statements dropped (what psycopg's ``DEALLOCATE ALL`` does to them): dropping psycopg's
    # own too, behind its back, would break the library's next cursor on that connection, not honba's.
    for _ in range(len(recorder._prepared) + 1):
        with recorder.datastore.get_connection() as conn:
            names = conn.execute(
                "SELECT name FROM pg_prepared_statements WHERE name LIKE 'honba%'", prepare=False
            ).fetchall()
            for row in names:
                conn.execute(f"DEALLOCATE {row['name']}", prepare=False)
            assert not conn.execute(
                "SELECT name FROM pg_prepared_statements WHERE name LIKE 'honba%'", prepare=False
            ).fetchall()
    for _ in range(3):
        recording.record(app, "m", AbortiveDraw("four_winds"))
    assert len(recorder.select_events(stream)) == before + 3


def test_a_recorded_hand_takes_the_pool_s_connections_directly_and_a_closed_pool_is_refused_as_before(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = HonbaApp.open(postgres_url)
    recorder = app.recorder
    assert isinstance(recorder, HonbaPostgresRecorder)
    recording.start_match(app, "m", PLAYERS, load_preset("tenhou"))
    recording.record(app, "m", AbortiveDraw("four_winds"))
    datastore = recorder.datastore
    taken: list[int] = []
    get_connection = type(datastore).get_connection

    def counting(self: Any) -> Any:
        taken.append(1)
        return get_connection(self)

    monkeypatch.setattr(type(datastore), "get_connection", counting)
    for _ in range(3):
        recording.record(app, "m", AbortiveDraw("four_winds"))
    assert taken == []
    # A closed pool: the library's checkout, which refuses it as it did.
    stream = app.load("m").match.id
    datastore.pool.close()
    recorder.tries = 1
    with pytest.raises(OperationalError, match="closed"):
        recorder.select_tails([(stream, 1)])
    assert taken == [1]
    app.close()


def test_two_recorders_on_one_pool_share_its_connections_prepared_statements(
    pg_opened: tuple[HonbaApp, HonbaPostgresRecorder],
) -> None:
    _app, recorder = pg_opened
    other = HonbaPostgresRecorder(recorder.datastore, events_table_name=recorder.events_table_name)
    stream = uuid.uuid4()
    recorder.insert_events([StoredEvent(stream, 1, "t", b"a")])
    for _ in range(12):  # round the pool's connections, each recorder in turn
        for reader in (recorder, other):
            assert [e.state for e in reader.select_tails([(stream, 1)])] == [b"a"]
