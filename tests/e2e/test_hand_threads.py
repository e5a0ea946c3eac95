"""A recorded hand's hand-over and answer in ``honba serve`` (issue 36, seventeenth round).

On PostgreSQL the JSON API's recorded hand runs in the site's own threads (``replay.web.hand_threads``),
not the thread pool's: the same call in a thread other than the loop's, what it raises raised to the
route, at most ``most`` at once with the rest waiting their turn, a thread started only when none
is idle, a caller that stops waiting leaving its call to finish. A JSON answer is written by the
encoder with each ``Said`` said as it meets it (``i18n.json_spoken``): the bytes Starlette's
``JSONResponse`` wrote of ``i18n.spoken``'s copy, refusals the same. Nothing here is timed.
"""

from __future__ import annotations

import asyncio
import math
import threading
from collections.abc import Iterator
from typing import Any, TypeVar

import pytest
from event_loops import looped
from starlette.responses import JSONResponse
from starlette.testclient import TestClient

from domain.rules import load_preset
from domain.said import Listed, Said
from replay.service.recording import recording
from replay.service.recording.changes import Opening
from replay.store.application import HonbaApp
from replay.web import i18n
from replay.web.app import create_app
from replay.web.hand_threads import MOST, HandThreads

T = TypeVar("T")

PLAYERS = ["Ann", "Ben", "Cho", "Dai"]


def test_a_call_runs_in_a_hand_thread_and_gives_its_result_or_what_it_raised() -> None:
    threads = HandThreads()
    refusal = ValueError("refused")

    def failing(_: object) -> None:
        raise refusal

    async def calls() -> tuple[Any, ...]:
        where = await threads.run(lambda _: threading.current_thread().name, None)
        doubled = await threads.run(lambda n: n * 2, 21)
        with pytest.raises(ValueError) as raised:
            await threads.run(failing, None)
        return where, doubled, raised.value

    where, doubled, raised = looped(calls)
    threads.close()
    assert where.startswith("honba-hand-") and where != threading.current_thread().name
    assert doubled == 42
    assert raised is refusal  # the very exception, not a copy or a wrapper
    # One call after the other: one thread, taken again each time.
    assert threads.started == 1


@pytest.mark.parametrize(("most", "calls"), [(3, 8), (None, 14)])
def test_at_most_most_calls_run_at_once_and_the_rest_wait_their_turn(most: int | None, calls: int) -> None:
    # A server's hands: at most MOST at once, not the thread pool's 40 (threads the hands cannot use
    # only contend for the interpreter's lock).
    threads = HandThreads() if most is None else HandThreads(most=most)
    most = MOST if most is None else most
    running, highest, lock = 0, 0, threading.Lock()
    release = threading.Event()

    def held(n: int) -> int:
        nonlocal running, highest
        with lock:
            running += 1
            highest = max(highest, running)
        release.wait(timeout=30)  # a hang guard only
        with lock:
            running -= 1
        return n

    async def run_all() -> list[int]:
        pending = [asyncio.ensure_future(threads.run(held, n)) for n in range(calls)]
        while True:  # until ``most`` run and the others wait
            await asyncio.sleep(0.01)
            with lock:
                if running == most:
                    break
        release.set()
        return list(await asyncio.gather(*pending))

    assert looped(run_all) == list(range(calls))
    threads.close()
    assert highest == most
    assert threads.started == most


def test_the_thread_idle_last_takes_the_next_call() -> None:
    # As anyio's pool: a server that is not busy keeps few threads at work, not each in its turn.
    threads = HandThreads()
    gates = {"first": threading.Event(), "second": threading.Event()}
    running = threading.Semaphore(0)

    def held(gate: str) -> str:
        running.release()
        gates[gate].wait(timeout=30)
        return threading.current_thread().name

    async def calls() -> tuple[str, str, str]:
        first = asyncio.ensure_future(threads.run(held, "first"))
        second = asyncio.ensure_future(threads.run(held, "second"))
        while not running.acquire(blocking=False):
            await asyncio.sleep(0.01)
        while not running.acquire(blocking=False):
            await asyncio.sleep(0.01)
        gates["first"].set()
        first_in = await first
        gates["second"].set()
        second_in = await second
        return first_in, second_in, await threads.run(lambda _: threading.current_thread().name, None)

    first_in, second_in, next_in = looped(calls)
    threads.close()
    assert first_in != second_in
    assert next_in == second_in


def test_a_caller_that_stops_waiting_leaves_its_call_to_finish() -> None:
    threads = HandThreads()
    started, finish, finished = threading.Event(), threading.Event(), threading.Event()

    def saving(_: object) -> str:
        started.set()
        finish.wait(timeout=30)
        finished.set()
        return "saved"

    async def calls() -> str:
        waiting = asyncio.ensure_future(threads.run(saving, None))
        while not started.is_set():
            await asyncio.sleep(0.01)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        finish.set()
        # The next call is answered (by that thread, or by another started while it ends the save).
        answer: str = await threads.run(lambda _: "next", None)
        return answer

    assert looped(calls) == "next"
    # The cancelled caller's save ran to its end all the same (waited for: a hang guard only).
    assert finished.wait(timeout=30)
    threads.close()
    assert all(not thread.is_alive() for thread in threading.enumerate() if thread.name.startswith("honba-hand"))


def test_no_call_is_taken_after_the_threads_are_closed() -> None:
    threads = HandThreads()

    async def one() -> None:
        await threads.run(lambda _: None, None)

    looped(one)
    threads.close()
    with pytest.raises(RuntimeError):
        looped(one)


@pytest.fixture
def served_pg(postgres_url: str) -> Iterator[tuple[TestClient, str]]:
    """The web app on a PostgreSQL store with one match started, and a table token for it."""
    app = HonbaApp.open(postgres_url)
    recording.start_match(app, "threads", PLAYERS, load_preset("tenhou"))
    app.close()
    web = create_app(postgres_url)
    with TestClient(web) as client:
        token = web.state.served.tokens.create("table", "threads")
        yield client, token


def test_a_hand_on_postgresql_is_recorded_in_a_hand_thread(served_pg: tuple[TestClient, str]) -> None:
    client, token = served_pg
    served = client.app.state.served  # type: ignore[attr-defined]
    ran_in: list[str] = []
    run = served.run

    def running(call: Any) -> Any:
        ran_in.append(threading.current_thread().name)
        return run(call)

    served.run = running
    headers = {"Authorization": f"Bearer {token}"}
    first = client.post("/api/matches/threads/entries", json={"kind": "abort", "abort": "four_winds"}, headers=headers)
    assert first.status_code == 200, first.text
    assert str(first.json()["version"]) == first.headers["etag"].strip('"')
    # What the service refuses is answered as before (the route's handlers see the same exception).
    refused = client.post("/api/matches/threads/entries", json={"kind": "abort", "abort": "no_such"}, headers=headers)
    assert refused.status_code == 400 and refused.json()["field"] == "abort"
    assert len(ran_in) == 2 and all(name.startswith("honba-hand-") for name in ran_in)
    assert served.hand_threads.started == 1


WORDS = [
    {"match": "m", "lines": [Said("{player} wins {points:,} points", player="Cho", points=12000)], "n": 3},
    {"headline": Opening("entry {number} voided", number=8), "names": ("東", "Ben"), "none": None, "f": 0.5},
    [Listed((Said("{player} pays", player="Ann"), "Ben"), separator="; "), [True, False, {"x": Listed(())}]],
    {"plain": ["no words", 1, -2, {"nested": {"deeper": "ラ\u2028\"'<>&\x00\x1f\t\n\\/"}}]},
    # Plain data orjson writes (a hand's answer: text, numbers, null) and what it would write otherwise.
    {"scores": {"Ann": 25000, "Ben": -300}, "end_reason": None, "finished": False, "points": [0.5, -15.0, 1e-05]},
    {"far": [1e16, 1e-7, 123456789.125, 2**70, -(2**63)], "id": "8c5d2f0e-1b2a-4c3d-9e8f-0a1b2c3d4e5f"},
    [True, None, "", [], {}, {"": [[[]]]}],
]


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("data", WORDS)
def test_a_json_answer_is_the_bytes_jsonresponse_wrote_of_the_spoken_copy(data: Any, language: str) -> None:
    assert i18n.json_spoken(data, language) == JSONResponse(i18n.spoken(data, language)).body
    assert i18n.json_spoken(data, lambda: language) == JSONResponse(i18n.spoken(data, lambda: language)).body


def test_a_json_answer_without_words_never_asks_the_language_and_refuses_as_before() -> None:
    def asked() -> str:
        raise AssertionError("the language was asked for an answer without words")

    assert i18n.json_spoken({"a": [1, "b"], "c": None}, asked) == b'{"a":[1,"b"],"c":null}'
    for bad in ({"f": math.nan}, {"o": object()}, {Said("k"): 1}):
        with pytest.raises((ValueError, TypeError)) as before:
            JSONResponse(i18n.spoken(bad, "en"))
        with pytest.raises(type(before.value)):
            i18n.json_spoken(bad, "en")
