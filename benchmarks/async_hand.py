"""A recorded hand with an asynchronous store path, its ceiling measured (not a test; issue 36, thirteenth round).

    python -P benchmarks/async_hand.py [--tables 20] [--hands 50] [--pairs 3] [--statements 2000]
                                       [--also DIR] [--before 422]

The JSON API's recorded hand on PostgreSQL takes a turn of the server's thread pool, whose twenty
threads take turns on the interpreter lock with the event loop; run on the loop with the
synchronous driver, each of its three round trips holds the whole server (docs/performance.md,
issue 36's sixth round). The design named for it: an asynchronous store path, the loop waiting for
PostgreSQL while it serves the other tables, the service's pure work on the loop between the round
trips. This script measures what that path can give before it is built, with a prototype that
changes nothing in honba: the hand's synchronous code (the token's check, ``apply_entry``: the
load, the checks, the save) run on the event loop's thread in a greenlet, and every wait of psycopg
for the database handed to the loop (``psycopg.waiting.wait_async``, what psycopg's own
``AsyncConnection`` waits with) while the loop serves the rest. The same statements, the same
integrity work, the same pool; only where the waits happen changes. A path built through the
service with psycopg's ``AsyncConnection`` would do the same work and the same waits on the loop,
without the greenlet's switches: by the statements' figures below 30 to 35 us a statement less,
about 0.1 ms a hand; what this prototype's CPU per hand cannot reach by more than that, neither can it.

Printed, against a throwaway PostgreSQL (``tests/pg_server.py``):

- **a statement's CPU in the client**, one prepared one-row ``SELECT`` at a time on each of 10
  connections: the synchronous driver from one thread and from 10 threads, psycopg's
  ``AsyncConnection`` from 10 tasks on one loop, and the synchronous driver with its waits handed
  to the loop from 10 greenlets (the prototype's);
- **a hand's CPU in one process** (``--tables`` tables at once, each posting ``--hands`` abortive
  draws after three not counted, to the ASGI app called directly: no socket, no uvicorn, no HTTP
  client; process CPU per hand, and PostgreSQL's): ``pool``, the thread pool's turn as served;
  ``sync``, on the loop with the synchronous driver (each round trip holds the loop); ``async``, on
  the loop with the waits handed to it; and, to split the ``pool`` mode's figure, ``service`` (what
  the route calls in the thread pool, without the web layer around it) and ``404`` (a request no
  route takes: the app's floor). The modes alternate, ``--pairs`` times, fresh databases each;
- **the ceiling**: 2.5x the hands a second of the code before issue 36 at 40 tables (``--before``,
  measured by ``serve_load.py``'s back-to-back scenario) leaves two cores 2 / (2.5 x before) of CPU a
  hand for everything; beside it the least a hand costs here in any mode (one process, without the
  socket, uvicorn and the client, which a 404 from ``serve_load.py``'s client measures at about 0.3 ms
  more) and PostgreSQL's share, and the hands a second two cores would give at that cost.

``--also DIR`` runs the ``pool`` mode with another tree's honba too. The instructions of a hand in
these modes (``valgrind --tool=cachegrind``) are not a measure here: valgrind runs one thread at a
time and the interpreter lock changes hands far more often per instruction than on the machine, so
the ``pool`` mode's count is inflated (docs/performance.md, issue 36's thirteenth round).

``benchmarks/serve_load.py --loop-hand async`` (or ``sync``) runs the back-to-back and neighbours
scenarios with this tree's servers made the same way (a ``sitecustomize`` put first on their path,
``LOOP_HAND`` below), beside ``--also``'s tree served as it is.

The prototype needs ``greenlet`` (installed with Playwright, the tests' extra); honba does not.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

# ``python -P`` leaves this script's folder off the path: its helpers are found there all the same.
sys.path.append(str(Path(__file__).resolve().parent))

from machine import REPO, load_average, print_machine, started_postgres
from serve_load import setup

# The prototype's first half: psycopg's waits handed to the event loop from a greenlet. With
# ``HONBA_BENCH_LOOP_HAND`` unset it changes nothing. A hand's code calls psycopg as always; where
# psycopg would block the thread on the socket (``waiting.wait``), a hand running in an ``_OnLoop``
# greenlet switches to the loop's own greenlet, which awaits ``waiting.wait_async`` (with the same
# interval: psycopg's asynchronous connection's 0.1 s, never 0, which spins) and switches back.
BRIDGE = """
import asyncio as _asyncio
import os as _os

_LOOP_MODE = _os.environ.get("HONBA_BENCH_LOOP_HAND", "")
if _LOOP_MODE in ("sync", "async", "bridge"):
    import greenlet as _greenlet
    from psycopg import waiting as _waiting

    _plain_wait = _waiting.wait

    class _OnLoop(_greenlet.greenlet):
        pass

    def _wait(gen, fileno, interval=0.1, timeout=None):
        current = _greenlet.getcurrent()
        if isinstance(current, _OnLoop):
            return current.parent.switch((gen, fileno, interval, timeout))
        return _plain_wait(gen, fileno, interval=interval, timeout=timeout)

    _waiting.wait = _wait

    async def on_loop(fn):
        child = _OnLoop(fn)
        asked = child.switch()
        while not child.dead:
            gen, fileno, interval, timeout = asked
            try:
                answer = await _waiting.wait_async(gen, fileno, interval=interval, timeout=timeout)
            except BaseException as exc:
                asked = child.throw(exc)
            else:
                asked = child.switch(answer)
        return asked
"""

# The second half: the JSON API's recorded hand (``Site.call_here``) on PostgreSQL run on the loop,
# ``sync`` as it is (each round trip holds the loop), ``async`` in a greenlet with its waits handed to
# the loop. At most 10 hands at once: the library's pool has up to 15 connections, and a hand that
# found none free would block the loop's thread (the pool's wait is a thread's) while every hand
# that holds one waits for that loop. A prototype: a hand whose request is cancelled (the client
# gone) leaves its greenlet and connection behind.
HAND = """
if _LOOP_MODE in ("sync", "async"):
    import replay.web.site as _site

    _served = _site.Site.call_here
    _hands = _asyncio.Semaphore(10)

    async def _call_here(self, fn):
        if self._lock is not None:
            return await _served(self, fn)
        if _LOOP_MODE == "sync":
            return _site._answering(fn)
        async with _hands:
            return await on_loop(lambda: _site._answering(fn))

    _site.Site.call_here = _call_here
"""

# Put first on a server's path (``serve_load.py --loop-hand``): the server's hands made as above.
LOOP_HAND = BRIDGE + HAND

# One process: a statement's CPU four ways (argv: the database's URL, statements per way, rounds).
STATEMENTS = (
    BRIDGE
    + """
import concurrent.futures, json, sys, time
import psycopg, uvloop

db, count, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
conns = [psycopg.connect(db, autocommit=True) for _ in range(10)]

def one(conn):
    conn.execute("SELECT %s::int", (1,), prepare=True).fetchall()

def timed(run):
    start = time.process_time()
    run()
    return 1e6 * (time.process_time() - start) / count

def one_thread():
    for _ in range(count):
        one(conns[0])

def threads():
    with concurrent.futures.ThreadPoolExecutor(10) as pool:
        list(pool.map(lambda c: [one(c) for _ in range(count // 10)], conns))

def native():
    async def run():
        made = [await psycopg.AsyncConnection.connect(db, autocommit=True) for _ in range(10)]
        async def each(c):
            for _ in range(count // 10):
                await (await c.execute("SELECT %s::int", (1,), prepare=True)).fetchall()
        start = time.process_time()
        await asyncio.gather(*(each(c) for c in made))
        spent = time.process_time() - start
        for c in made:
            await c.close()
        return 1e6 * spent / count
    return uvloop.run(run())

def bridged():
    async def run():
        async def each(c):
            for _ in range(count // 10):
                await on_loop(lambda: one(c))
        await asyncio.gather(*(each(c) for c in conns))
    uvloop.run(run())

import asyncio
ways = {
    "sync, one thread": lambda: timed(one_thread),
    "sync, 10 threads": lambda: timed(threads),
    "AsyncConnection, 10 tasks": native,
    "sync, waits on the loop, 10 greenlets": lambda: timed(bridged),
}
found = {way: [] for way in ways}
for _ in range(rounds):
    for way, measure in ways.items():
        found[way].append(measure())
print(json.dumps(found))
"""
)

# One process: the ASGI app called directly, tables at once (argv: the URL, the tables' keys and
# tokens as JSON, hands each); prints its CPU per hand and hands a second.
HANDS = (
    BRIDGE
    + HAND
    + """
import json, resource, sys, time, uuid
import uvloop
from replay.web.app import create_app

db, made, hands, postmaster = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
web = create_app(db)

def database_cpu():
    # The PostgreSQL server's CPU seconds so far (``serve_load.postgres_cpu``): its postmaster's own and
    # its ended children's, and each live child's; read around the hands counted only.
    import os
    ticks, total = os.sysconf("SC_CLK_TCK"), 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry) == postmaster:
            total += sum(int(field) for field in fields[11:15]) / ticks
        elif int(fields[1]) == postmaster:
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total

async def post(key, token):
    if _LOOP_MODE == "service":
        return await serviced(key, token)
    body = json.dumps({"kind": "abort", "abort": "four_winds", "client_key": uuid.uuid4().hex}).encode()
    path = f"/api/matches/{key}/entries" if _LOOP_MODE != "404" else "/api/no-such-route"
    headers = [(b"host", b"127.0.0.1"), (b"authorization", f"Bearer {token}".encode()),
               (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": headers, "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80), "state": {}}
    given = False
    async def receive():
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        await _asyncio.sleep(3600)
    status = []
    async def send(message):
        if message["type"] == "http.response.start":
            status.append(message["status"])
    await web(scope, receive, send)
    if status != [404 if _LOOP_MODE == "404" else 200]:
        raise SystemExit(f"a hand answered {status}")

async def serviced(key, token):
    # What the JSON API's route calls in the thread pool for a hand (``replay.web.api.record_json``'s
    # ``run``: the token's check, the entry read, ``apply_entry``, the answer's data), without the web
    # layer around it: Starlette's routing and middleware, the body read, the answer encoded.
    from replay.service.common.shapes import state_data
    from replay.service.recording.entry import apply_entry
    from replay.web.api import read_body_entry

    served = web.state.served
    body = {"kind": "abort", "abort": "four_winds", "client_key": uuid.uuid4().hex}

    def run():
        grant = served.may_record(key, token)
        entry = read_body_entry(body)
        match = apply_entry(served.app, key, entry, client_key=body["client_key"], by=f"table {grant.token_id}")
        return {"match": key, **state_data(match.players, match.state, match.rules), "head": match.head}

    await served.call(run)

async def main():
    asked, told = _asyncio.Queue(), _asyncio.Queue()
    await asked.put({"type": "lifespan.startup"})
    lifespan = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}
    life = _asyncio.ensure_future(web(lifespan, asked.get, told.put))
    await told.get()
    async def table(key, token, count):
        for _ in range(count):
            await post(key, token)
    await _asyncio.gather(*(table(k, t, 3) for k, t in made))
    used, held, wall = resource.getrusage(resource.RUSAGE_SELF), database_cpu(), time.perf_counter()
    await _asyncio.gather(*(table(k, t, hands) for k, t in made))
    after, wall = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter() - wall
    database = database_cpu() - held
    user, system = after.ru_utime - used.ru_utime, after.ru_stime - used.ru_stime
    await asked.put({"type": "lifespan.shutdown"})
    await told.get()
    await life
    count = len(made) * hands
    print(json.dumps({
        "cpu_ms": 1000 * (user + system) / count,
        "system_ms": 1000 * system / count,
        "hands_per_s": count / wall,
        "database_cpu_ms": 1000 * database / count,
    }))

uvloop.run(main())
"""
)

MODES = ("pool", "sync", "async")
# This tree's only: the hand's service call through the thread pool without the web layer, and a
# request the app answers 404 (no store, no pool): what the web layer around a hand costs.
SPLIT = ("service", "404")


def child_env(tree: Path, mode: str) -> dict[str, str]:
    env = {**os.environ, "PYTHONPATH": str(tree), "HONBA_BENCH_LOOP_HAND": mode}
    return env


def statements(db: str, count: int, rounds: int) -> None:
    run = subprocess.run(
        [sys.executable, "-P", "-c", STATEMENTS, db, str(count), str(rounds)],
        env=child_env(REPO, "bridge"),
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        raise SystemExit(f"the statements' run failed: {run.stderr[-2000:]}")
    found: dict[str, list[float]] = json.loads(run.stdout)
    print(f"a prepared one-row SELECT, the client's CPU per statement (medians of {rounds}, {count} statements each):")
    for way, figures in found.items():
        shown = ", ".join(f"{f:.0f}" for f in figures)
        print(f"  {way}: {statistics.median(figures):.0f} us ({shown})")


def hand_run(server: Any, tree: Path, mode: str, tables: int, hands: int) -> dict[str, float]:
    db = server.new_database()
    made = setup(tree, db, tables)
    postmaster = (server.data / "postmaster.pid").read_text().split()[0]
    run = subprocess.run(
        [sys.executable, "-P", "-c", HANDS, db, json.dumps(made), str(hands), postmaster],
        env=child_env(tree, mode),
        capture_output=True,
        text=True,
        check=False,
    )
    if run.returncode != 0:
        raise SystemExit(f"the hands' run ({mode}, {tree}) failed: {run.stderr[-2000:]}")
    figures: dict[str, float] = json.loads(run.stdout.splitlines()[-1])
    figures["load"] = os.getloadavg()[0]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20, help="tables at once in the one process (a server's 20)")
    parser.add_argument("--hands", type=int, default=50, help="hands each table posts, after three not counted")
    parser.add_argument("--pairs", type=int, default=3, help="rounds of the modes, alternating")
    parser.add_argument("--statements", type=int, default=2000, help="statements per way (0: none)")
    parser.add_argument("--also", type=Path, help="also run the pool's mode with the honba of this tree")
    parser.add_argument(
        "--before",
        type=float,
        default=422.0,
        help="hands/s of the code before issue 36 at 40 tables (422: 339df4b, the seventh session's quiet run)",
    )
    options = parser.parse_args()
    print_machine()
    print(f"load average at the start: {load_average()}")
    server = started_postgres()
    if server is None:
        return
    try:
        if options.statements:
            statements(server.new_database(), options.statements, options.pairs)
        runs: dict[str, list[dict[str, float]]] = {}
        kinds = [(mode, REPO, mode) for mode in (*MODES, *SPLIT)]
        if options.also is not None:
            kinds.append((f"pool, the tree at {options.also}", options.also.resolve(), "pool"))
        for _pair in range(options.pairs):
            for label, tree, mode in kinds:
                runs.setdefault(label, []).append(hand_run(server, tree, mode, options.tables, options.hands))
        print(
            f"a hand in one process ({options.tables} tables at once, {options.hands} hands each; the ASGI app "
            f"called directly), medians of {options.pairs}:"
        )
        for label, figures in runs.items():

            def median(name: str, figures: list[dict[str, float]] = figures) -> float:
                return statistics.median(f[name] for f in figures)

            cpu = ", ".join(f"{f['cpu_ms']:.2f}" for f in figures)
            system = ", ".join(f"{f['system_ms']:.2f}" for f in figures)
            rate = ", ".join(f"{f['hands_per_s']:.0f}" for f in figures)
            load = ", ".join(f"{f['load']:.1f}" for f in figures)
            print(
                f"  {label}: {median('cpu_ms'):.2f} ms CPU a hand ({cpu}), of it in the kernel "
                f"{median('system_ms'):.2f} ({system}); {median('hands_per_s'):.0f} hands/s "
                f"({rate}); PostgreSQL's CPU {median('database_cpu_ms'):.2f} ms a hand; load {load}"
            )
        pool, service, floor_404 = (statistics.median(f["cpu_ms"] for f in runs[m]) for m in ("pool", *SPLIT))
        print(
            f"  where the pool's hand goes: the service's call in the thread pool {service:.2f} ms, the web layer "
            f"around it {pool - service:.2f} ms, of which a request the app answers 404 {floor_404:.2f} ms"
        )
        target = 2.5 * options.before
        budget = 2000 / target
        least = min(statistics.median(f["cpu_ms"] for f in runs[mode]) for mode in MODES)
        database = statistics.median(f["database_cpu_ms"] for mode in MODES for f in runs[mode])
        floor = least + database
        print(
            f"the ceiling: issue 36's target 2.5 x {options.before:.0f} = {target:.0f} hands/s leaves two cores "
            f"{budget:.2f} ms of CPU a hand for everything (servers, PostgreSQL, client)"
        )
        print(
            f"  the least a hand costs here: {least:.2f} ms (the cheapest mode, in one process with no socket, no "
            f"uvicorn, no client) + {database:.2f} ms of PostgreSQL = {floor:.2f} ms: two cores give at most "
            f"{2000 / floor:.0f} hands/s = {2000 / floor / options.before:.2f}x the code before issue 36"
        )
        print(f"load average at the end: {load_average()}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
