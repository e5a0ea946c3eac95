"""A server's start on PostgreSQL (``replay.service.common.opening.ready_to_serve``): a recorded hand's
statements are prepared on every connection of the pool before any hand runs on it, those the pool
opens later (under load, after an outage) included, and a hand then prepares nothing. Nothing is
timed: the server's prepared statements and the recorder's prepares are looked at."""

from __future__ import annotations

from typing import Any

import pytest
from psycopg_pool import PoolTimeout

from domain.rules import load_preset
from domain.values import AbortiveDraw
from replay.service.common.access import TokenStore
from replay.service.common.opening import ready_to_serve
from replay.service.recording import recording
from replay.store import pgstore
from replay.store.application import HonbaApp
from replay.store.pgstore import HonbaPostgresRecorder

PLAYERS = ("Ann", "Ben", "Cho", "Dai")
HELD = "SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'honba%%'"


def _every_connection(recorder: HonbaPostgresRecorder) -> list[tuple[Any, set[str]]]:
    """Each connection of the pool (all held at once, so none twice) with the statements the server holds on it."""
    pool = recorder.datastore.pool
    held = [pool.getconn() for _ in range(max(pool.min_size, pool.get_stats()["pool_size"]))]
    try:
        return [(conn, {row["statement"] for row in conn.execute(HELD, prepare=False).fetchall()}) for conn in held]
    finally:
        for conn in held:
            pool.putconn(conn)


def _hand_texts(recorder: HonbaPostgresRecorder) -> set[str]:
    return {text.decode() for text, _formats, _params in recorder._hands}


def test_every_connection_has_the_hand_s_statements_before_a_hand_and_a_hand_prepares_none(
    pg_opened: tuple[HonbaApp, HonbaPostgresRecorder], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, recorder = pg_opened
    recording.start_match(app, "m", PLAYERS, load_preset("tenhou"))
    token = TokenStore(app).create("table", "m")
    ready_to_serve(app)
    wanted = _hand_texts(recorder)
    assert len(wanted) == 3
    connections = _every_connection(recorder)
    assert len(connections) >= recorder.datastore.pool.min_size
    for _conn, statements in connections:
        assert wanted <= statements
    prepares: list[bytes] = []
    prepare = pgstore._prepare

    def noting(conn: Any, prepared: Any, text: bytes, types: Any) -> bytes:
        prepares.append(text)
        return prepare(conn, prepared, text, types)

    monkeypatch.setattr(pgstore, "_prepare", noting)
    tokens = TokenStore(app)
    # As a table's hands come to a server: the token read with the match's tails, then the save;
    # the first hand loads the match whole, the others read its tails (each statement on every connection).
    for _ in range(2 * len(connections) + 2):
        with app.reading_ahead("m"):
            assert tokens.check(token) is not None
            recording.record(app, "m", AbortiveDraw("four_winds"))
        recording.record(app, "m", AbortiveDraw("four_winds"))
    assert prepares == []


def test_a_connection_the_pool_opens_later_has_them_before_its_first_hand(
    pg_opened: tuple[HonbaApp, HonbaPostgresRecorder],
) -> None:
    app, recorder = pg_opened
    ready_to_serve(app)
    pool = recorder.datastore.pool
    before = {id(conn) for conn, _ in _every_connection(recorder)}
    # One lost (as in an outage): the pool replaces it; and one more opened (as under load).
    lost = pool.getconn()
    lost.close()
    pool.putconn(lost)
    pool.resize(pool.min_size + 1, pool.max_size)
    pool.wait(timeout=30)
    connections = _every_connection(recorder)
    assert len({id(conn) for conn, _ in connections} - before) == 2
    for _conn, statements in connections:
        assert _hand_texts(recorder) <= statements


def test_ready_to_serve_writes_nothing(pg_opened: tuple[HonbaApp, HonbaPostgresRecorder]) -> None:
    app, recorder = pg_opened
    recording.start_match(app, "m", PLAYERS, load_preset("tenhou"))
    with recorder.datastore.get_connection() as conn:
        rows = conn.execute("SELECT count(*) AS n FROM honba_events").fetchone()
    ready_to_serve(app)
    first = {id(conn): statements for conn, statements in _every_connection(recorder)}
    made = {id(conn): recorder._prepared[conn].made for conn, _ in _every_connection(recorder)}
    ready_to_serve(app)  # twice (a server started again on the same pool): nothing prepared twice
    with recorder.datastore.get_connection() as conn:
        assert conn.execute("SELECT count(*) AS n FROM honba_events").fetchone() == rows
    assert {id(conn): statements for conn, statements in _every_connection(recorder)} == first
    assert {id(conn): recorder._prepared[conn].made for conn, _ in _every_connection(recorder)} == made


def test_a_store_that_does_not_answer_as_the_server_starts_leaves_its_hands_to_prepare_them(
    pg_opened: tuple[HonbaApp, HonbaPostgresRecorder], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, recorder = pg_opened
    recording.start_match(app, "m", PLAYERS, load_preset("tenhou"))
    pool = recorder.datastore.pool

    def gone(timeout: float = 30.0) -> None:
        raise PoolTimeout(f"pool initialization incomplete after {timeout} sec")

    monkeypatch.setattr(pool, "wait", gone)
    ready_to_serve(app)  # no error: the server starts all the same
    monkeypatch.undo()
    stream = app.load("m").match.id
    before = len(recorder.select_events(stream))
    recording.record(app, "m", AbortiveDraw("four_winds"))
    assert len(recorder.select_events(stream)) == before + 1
