"""One hand recorded reads the match once and writes it in one transaction, from the CLI and from the web.

The store's recorder is wrapped (honba's SQLite recorder, named by its settings), and every read
and write it is asked for is counted. Recording a hand needs: the match's events and its seal,
read once (the damage check works on those rows), and one insert of the new events and the new
seal event, in one transaction: no row shared with the saves of other matches (issue 26). The
command line then takes a checkpoint of what it saved: the last checkpoint read, the saves since
read from the log, one insert. Nothing is timed.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import pytest
from anyio.from_thread import start_blocking_portal
from eventsourcing.persistence import StoredEvent
from honba_cli import invoke
from starlette.testclient import TestClient
from stored_rows import write_lock_held
from web_support import hidden, prepare, serving

from domain.match import match_id
from domain.said import Said
from domain.store_errors import StoreUnavailable
from replay.store.checkpoint import CHECKPOINTS_ID, COVERED_TOPICS
from replay.store.seal import seal_id
from replay.store.sqlite_store import HonbaSQLiteRecorder
from replay.web import site as site_module
from replay.web.app import create_app
from replay.web.hand_threads import HandThreads

KEY = "t1"
CALLS: list[tuple[str, Any]] = []


class CountingRecorder(HonbaSQLiteRecorder):
    """honba's SQLite recorder, noting every read and write asked of it in ``CALLS``."""

    def select_events(self, originator_id: Any, **kwargs: Any) -> Any:
        CALLS.append(("read", originator_id))
        return super().select_events(originator_id, **kwargs)

    def select_notifications(self, *args: Any, **kwargs: Any) -> Any:
        CALLS.append(("read the log", kwargs.get("topics")))
        return super().select_notifications(*args, **kwargs)

    def insert_events(self, stored_events: list[StoredEvent], **kwargs: Any) -> Any:
        CALLS.append(("write", tuple(sorted({e.originator_id for e in stored_events}, key=str))))
        return super().insert_events(stored_events, **kwargs)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A store with the match ``t1`` and a table token for it, opened through the counting recorder."""
    db = str(tmp_path / "store.sqlite")
    (token,) = prepare(db, {KEY: ("Ann", "Ben", "Cho", "Dai")}, [("table", KEY)])
    monkeypatch.setenv("APPLICATION_RECORDER_TOPIC", f"{__name__}:{CountingRecorder.__name__}")
    CALLS.clear()
    yield db, token
    CALLS.clear()


def one_read_one_write() -> list[tuple[str, Any]]:
    """What recording one hand may ask of the store, in order."""
    match = match_id(KEY)
    return [("read", match), ("read", seal_id(match)), ("write", tuple(sorted({match, seal_id(match)}, key=str)))]


def a_checkpoint() -> list[tuple[str, Any]]:
    """What a checkpoint of the saves since the last one asks of the store (here the first)."""
    return [
        ("read", CHECKPOINTS_ID),
        ("read the log", list(COVERED_TOPICS)),
        ("write", (CHECKPOINTS_ID,)),
    ]


def reads_of(calls: list[tuple[str, Any]], stream: UUID) -> int:
    return sum(1 for kind, what in calls if kind == "read" and what == stream)


def test_a_hand_recorded_from_the_command_line_reads_the_match_once_and_writes_once(counted: tuple[str, str]) -> None:
    db, _token = counted
    result = invoke(["--db", db, "win", KEY, "Ben:3/30", "--from", "Ann"])
    assert result.exit_code == 0, result.output
    assert "Ann -> Ben 3900" in result.stdout  # the hand was recorded and its payment shown
    calls = list(CALLS)
    assert reads_of(calls, match_id(KEY)) == 1
    assert calls == one_read_one_write() + a_checkpoint()


def test_a_hand_recorded_from_the_table_page_reads_the_match_once_and_writes_once(counted: tuple[str, str]) -> None:
    db, token = counted
    with TestClient(create_app(db)) as client:
        page = client.get(f"/matches/{KEY}", params={"token": token})
        form = {
            "csrf": client.cookies.get("honba_csrf"),
            "token": token,
            "client_key": hidden(page.text, "client_key"),
            "kind": "win",
            "winner": "Ben",
            "discarder": "Ann",
            "han": "3",
            "fu": "30",
        }
        CALLS.clear()
        recorded = client.post(f"/matches/{KEY}/record", data=form, follow_redirects=False)
        assert recorded.status_code == 303, recorded.text
        calls = list(CALLS)
        after = client.get(f"/api/matches/{KEY}").json()
    assert after["scores"] == {"Ann": 21100, "Ben": 28900, "Cho": 25000, "Dai": 25000}
    assert reads_of(calls, match_id(KEY)) == 1
    assert [kind for kind, _ in calls].count("write") == 1
    assert calls == one_read_one_write()


def test_a_hand_recorded_through_the_json_api_reads_the_match_once_and_writes_once(counted: tuple[str, str]) -> None:
    db, token = counted
    with TestClient(create_app(db)) as client:
        CALLS.clear()
        body = {"kind": "win", "winner": "Ben", "discarder": "Ann", "value": "3/30", "client_key": "c1"}
        answer = client.post(f"/api/matches/{KEY}/entries", json=body, headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.text
        calls = list(CALLS)
    assert answer.json()["scores"] == {"Ann": 21100, "Ben": 28900, "Cho": 25000, "Dai": 25000}
    assert calls == one_read_one_write()


def test_the_confirm_step_reads_the_match_once_and_writes_nothing(counted: tuple[str, str]) -> None:
    db, token = counted
    with TestClient(create_app(db)) as client:
        CALLS.clear()
        body = {"kind": "win", "winner": "Ben", "discarder": "Ann", "value": "3/30"}
        answer = client.post(f"/api/matches/{KEY}/preview", json=body, headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.text
        calls = list(CALLS)
    assert calls == [("read", match_id(KEY))]


def test_a_damaged_match_is_still_refused_when_only_the_rows_read_once_are_checked(counted: tuple[str, str]) -> None:
    db, _token = counted
    # The seal row removed behind honba's back: the one read of the match finds it unsealed.
    with closing(sqlite3.connect(db)) as conn, conn:
        conn.execute("DELETE FROM stored_events WHERE originator_id = ?", (seal_id(match_id(KEY)).hex,))
    result = invoke(["--db", db, "win", KEY, "Ben:3/30", "--from", "Ann"])
    assert result.exit_code == 2
    assert "is damaged in the store: unsealed" in result.stderr
    assert "nothing recorded" in result.stderr
    assert not [call for call in CALLS if call[0] == "write"]


class PoolTurns:
    """The turns of the server's thread pool a test's requests take, each named by what it ran."""

    def __init__(self) -> None:
        self.names: list[str] = []
        self.asked = threading.Event()


@pytest.fixture
def pool_turns(monkeypatch: pytest.MonkeyPatch) -> PoolTurns:
    """Every turn of the thread pool the web layer asks for, counted (and still taken)."""
    turns = PoolTurns()
    original = site_module.run_in_threadpool

    async def counting(fn: Any, *args: Any) -> Any:
        turns.names.append(getattr(args[0], "__name__", "?") if args else fn.__name__)
        turns.asked.set()
        return await original(fn, *args)

    monkeypatch.setattr(site_module, "run_in_threadpool", counting)
    return turns


def test_a_hand_recorded_through_the_json_api_takes_no_turn_of_the_thread_pool(
    counted: tuple[str, str], pool_turns: PoolTurns
) -> None:
    # A turn is two thread wake-ups and a hand-over of the GIL: on cores that other processes keep
    # busy each waits for a time slice (issue 36), and on SQLite the server's calls take turns on the
    # store anyway: the token's check and the save run on the event loop when the store is free.
    db, token = counted
    turns, asked = pool_turns.names, pool_turns.asked
    with TestClient(create_app(db)) as client:
        turns.clear()  # the app's start takes the pool's first turn
        bearer = {"Authorization": f"Bearer {token}"}
        body = {"kind": "win", "winner": "Ben", "discarder": "Ann", "value": "3/30", "client_key": "c1"}
        answer = client.post(f"/api/matches/{KEY}/entries", json=body, headers=bearer)
        assert answer.status_code == 200, answer.text
        assert turns == []
        # Still the token before the entry: a stranger's bad field is refused for the token (403), not read.
        stranger = {"Authorization": "Bearer 00ff.not-a-secret"}
        refused = client.post(f"/api/matches/{KEY}/entries", json={"kind": "win", "han": "x"}, headers=stranger)
        assert refused.status_code == 403, refused.text
        bad = client.post(f"/api/matches/{KEY}/entries", json={**body, "client_key": "c2", "nots": "x"}, headers=bearer)
        assert bad.status_code == 400 and "nots" in bad.json()["error"], bad.text
        assert turns == []

        # The store held by another of the server's threads (a page's read, the checkpoint): the hand
        # goes to the pool, which waits its turn there, and the loop is not stalled waiting for it.
        held = client.app.state.served._lock  # type: ignore[attr-defined]
        assert held is not None and held.acquire(timeout=60)

        def let_go() -> None:
            asked.wait(timeout=60)  # a hang guard: the pool is asked at once
            held.release()

        holder = threading.Thread(target=let_go)
        holder.start()
        answer = client.post(f"/api/matches/{KEY}/entries", json={**body, "client_key": "c3"}, headers=bearer)
        holder.join(timeout=60)
        assert answer.status_code == 200, answer.text
        assert turns == ["run"]
        assert client.get(f"/api/matches/{KEY}").json()["version"] == answer.json()["version"]


def test_another_process_holding_the_write_lock_stalls_no_other_request_and_the_hand_is_recorded_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pool_turns: PoolTurns
) -> None:
    # Another process holds SQLite's write lock (an import beside the served store, another server, a
    # command). A hand on the event loop waited for it there, up to the store's busy timeout, and the
    # whole server (pages, static files, live streams, other tables) with it. On the loop the hand is
    # now refused the lock at once, before anything is written, and made again in the pool, which
    # waits for it while the loop answers the rest. The busy timeout is long here, so that a hand that
    # waits on the loop is seen holding it (the guard below), never answered by its timeout running out.
    monkeypatch.setenv("SQLITE_LOCK_TIMEOUT", "600")
    db = str(tmp_path / "store.sqlite")
    (token,) = prepare(db, {KEY: ("Ann", "Ben", "Cho", "Dai")}, [("table", KEY)])
    bearer = {"Authorization": f"Bearer {token}"}
    hand = {"kind": "abort", "abort": "four_winds"}
    answers: list[httpx.Response] = []
    with serving(create_app(db)) as base:
        with httpx.Client(base_url=base, timeout=60) as http:
            first = http.post(f"/api/matches/{KEY}/entries", json={**hand, "client_key": "c1"}, headers=bearer)
            assert first.status_code == 200, first.text
            before = first.json()["version"]

        def post() -> None:
            with httpx.Client(base_url=base, timeout=60) as http:
                sent = {**hand, "client_key": "c2"}
                answers.append(http.post(f"/api/matches/{KEY}/entries", json=sent, headers=bearer))

        pool_turns.names.clear()
        pool_turns.asked.clear()
        with write_lock_held(db) as other, httpx.Client(base_url=base, timeout=30) as http:
            poster = threading.Thread(target=post)
            poster.start()
            # (a hang guard: refused at once on the loop, the hand is the pool's at once)
            assert pool_turns.asked.wait(timeout=30), "the hand waited for the lock on the event loop"
            # While the lock is held, and the hand waits for it in the pool, the loop answers the rest.
            assert http.get("/static/honba.css").status_code == 200
            assert http.get("/no-such-page").status_code == 404
            assert answers == [] and other.in_transaction  # still held: those were answered first
            other.rollback()
            poster.join(timeout=60)
        assert pool_turns.names == ["run"]  # the hand's one turn, after its refusal on the loop
        with httpx.Client(base_url=base, timeout=60) as http:
            (answer,) = answers
            assert answer.status_code == 200, answer.text
            # Recorded once: the refused attempt on the loop left nothing behind.
            assert answer.json()["version"] == before + 1
            assert http.get(f"/api/matches/{KEY}").json()["version"] == before + 1


def test_a_hand_on_postgresql_takes_its_one_turn_of_the_hand_threads(
    postgres_url: str, pool_turns: PoolTurns, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its round trips to the database on the event loop would hold the server's other tables for
    # each wait (issue 36, sixth round: 0.4 to 0.5x the hands a second at 40 tables on a loaded
    # machine): on PostgreSQL a thread waits, and the loop serves the others. The thread is one of
    # the site's hand threads, handed the call with less work than the pool's (seventeenth round).
    (token,) = prepare(postgres_url, {KEY: ("Ann", "Ben", "Cho", "Dai")}, [("table", KEY)])
    turns = pool_turns.names
    handed: list[str] = []
    original = HandThreads.run

    async def counting(self: HandThreads, call: Any, argument: Any) -> Any:
        handed.append(call.__name__)
        return await original(self, call, argument)

    monkeypatch.setattr(HandThreads, "run", counting)
    with TestClient(create_app(postgres_url)) as client:
        turns.clear()  # the app's start takes the pool's first turn
        body = {"kind": "abort", "abort": "four_winds", "client_key": "c1"}
        answer = client.post(f"/api/matches/{KEY}/entries", json=body, headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.text
        assert handed == ["run"]
        assert turns == []


def test_a_store_that_did_not_answer_on_the_event_loop_is_called_from_the_pool_until_it_answers(
    counted: tuple[str, str], pool_turns: PoolTurns
) -> None:
    # A database that does not answer stalls the loop for the recorder's tries (seconds): once, not
    # at every table's every hand; calls go to the pool until the store answers one.
    db, _token = counted
    turns = pool_turns.names
    served = site_module.Site(db)
    answers = iter([StoreUnavailable(Said("the store did not answer")), StoreUnavailable(Said("nor now")), None, None])

    def call() -> str:
        failure = next(answers)
        if failure is not None:
            raise failure
        return "answered"

    async def calls() -> list[str]:
        said = []
        for _ in range(4):
            try:
                said.append(await served.call_here(call))
            except site_module.Unavailable:
                said.append("503")
            said.append(f"{len(turns)} turns")
        return said

    try:
        # On a loop of its own in another thread (as Starlette's TestClient runs the app): the
        # browser tests' Playwright keeps a loop running in this one.
        with start_blocking_portal() as portal:
            said = portal.call(calls)
        assert said == ["503", "0 turns", "503", "1 turns", "answered", "2 turns", "answered", "2 turns"]
    finally:
        served.close()


def test_a_hand_posted_to_the_json_api_is_matched_before_any_page_and_negotiates_no_language(
    counted: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Starlette tries the routes in order (a regular expression each): a table's every hand went past
    # the 47 pages' routes first. And an answer without words has no language to be said in: the
    # request's (its query, cookies and Accept-Language) is looked for only when there are words.
    db, token = counted
    web = create_app(db)
    tried: list[str] = []
    for route in web.router.routes:
        path = getattr(route, "path", "")
        original = route.matches

        def matching(scope: Any, original: Any = original, path: str = path) -> Any:
            tried.append(path)
            return original(scope)

        monkeypatch.setattr(route, "matches", matching)
    asked: list[str] = []
    language = site_module.Site.language

    def noting(request: Any) -> str:
        asked.append(request.url.path)
        return language(request)

    monkeypatch.setattr(site_module.Site, "language", staticmethod(noting))
    with TestClient(web) as client:
        bearer = {"Authorization": f"Bearer {token}", "Accept-Language": "ja"}
        body = {"kind": "abort", "abort": "four_winds", "client_key": "c1"}
        answer = client.post(f"/api/matches/{KEY}/entries", json=body, headers=bearer)
        assert answer.status_code == 200, answer.text
        assert tried and all(path.startswith("/api/") for path in tried), tried
        assert asked == []
        # Words are still said in the request's language.
        refused = client.post(
            f"/api/matches/{KEY}/entries", json={**body, "client_key": "c2", "nots": "x"}, headers=bearer
        )
        assert refused.status_code == 400 and asked == [f"/api/matches/{KEY}/entries"], refused.text
        english = client.post(
            f"/api/matches/{KEY}/entries",
            json={**body, "client_key": "c3", "nots": "x"},
            headers={**bearer, "Accept-Language": "en"},
        )
        assert refused.json()["error"] != english.json()["error"]


def test_no_route_of_a_page_takes_an_address_of_the_json_api(tmp_path: Path) -> None:
    # So the JSON API's routes may come first (above) without changing what any address answers.
    web = create_app(str(tmp_path / "store.sqlite"))
    api_routes = [r for r in web.router.routes if getattr(r, "path", "").startswith("/api/matches")]
    api_routes += [r for r in web.router.routes if getattr(r, "path", "").startswith("/api/tournaments")]
    assert len(api_routes) == 8
    for route in api_routes:
        path = route.path.replace("{key}", "k1").replace("{number}", "3").replace("{name}", "cup")
        for other in web.router.routes:
            if other in api_routes:
                continue
            for method in ("GET", "POST"):
                scope = {"type": "http", "path": path, "method": method, "root_path": ""}
                found, _ = other.matches(scope)
                assert found.name == "NONE", (path, getattr(other, "path", other))
