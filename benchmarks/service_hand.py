"""A recorded hand's service call alone, in instructions or a profile (not a test; issue 36, thirteenth round).

    python -P benchmarks/service_hand.py [--store all|memory|sqlite-file|postgresql] [--hands 200]
                                         [--also DIR] [--profile] [--through-app | --web-alone]

What the JSON API's route runs for a hand in the thread pool (``replay.web.api.record_json``'s
``run``): the token's check (``Site.may_record``), the entry read, ``apply_entry`` (the match's tail
loaded from its checkpoint, the command applied, the new event encoded, digested, sealed and
stored), and the answer's state data; called directly, in one process, on one thread: no HTTP, no
thread pool, no web layer around it.

Default: the instructions of one such call (``valgrind --tool=cachegrind``, ``PYTHONHASHSEED=0``),
as the difference of a run of ``--hands`` + 50 abortive draws and a run of 50 in one match, divided
by ``--hands``: start-up, imports and the match's set-up cancel out. Each store: in memory
(``:memory:``, the library's POPO recorder, which the tests use), SQLite in a file, PostgreSQL
(``tests/pg_server.py``, a throwaway server; its own instructions are not counted, only the
client's). ``--also DIR`` counts another tree's too (for instance main's, from ``git archive``).
The load does not change an instruction count.

``--cpu PAIRS``: the process CPU time (user and system) of one call instead, over ``--hands`` calls
after 50 not counted, one process per tree and store, the trees alternating ``PAIRS`` times (a
fresh store each): the load moves these, so read the ratios pair by pair.

``--through-app`` (issue 36, seventeenth round): the whole request instead, in one process: the hand
posted to the ASGI application (``replay.web.app.create_app``) as ``honba serve``'s server hands it
over (a scope, the body, the answer's messages; no socket, no HTTP parser): the route, the body's
JSON, the hand-over to a thread and back, the service call, the answer's JSON and headers. The
difference from the service call alone is what the web layer adds to a hand.

``--web-alone`` (nineteenth round): ``--through-app`` with what the service call does made once
beforehand and given back at once (its functions in ``replay.web.api`` replaced), on a store in
memory whose hands go to the hand threads as on PostgreSQL: the web layer alone (and this script's
own requests, the same in every tree), without a database's waits or the service call's own spread.

``--profile``: a ``cProfile`` of ``--hands`` calls (after 20 not profiled) on ``--store`` (SQLite
in a file by default), the top functions by their own time and by cumulative time.

Compile each tree first (``python -m compileall -q domain projections replay``): this environment
sets PYTHONDONTWRITEBYTECODE, and a tree without bytecode compiles in every run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent))

from machine import REPO, counted_instructions, load_average, print_machine

# Both scripts' start: the app over the store ``db`` (argv: db, hands, mode), one match and its table token.
START = """
import sys, uuid
from domain.rules import load_preset
from replay.service.recording import recording
from replay.web.app import create_app

db, hands, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
web = create_app(db)
served = web.state.served
recording.start_match(served.app, "load-0", ["Ann", "Ben", "Cho", "Dai"], load_preset("tenhou"))
token = served.tokens.create("table", "load-0")
"""

# One process: ``hands`` service calls on that match.
CALLS = (
    START
    + """
from replay.service.common.shapes import state_data
from replay.service.recording.entry import apply_entry
from replay.web.api import read_body_entry

key = "load-0"

try:
    from replay.service.recording.entry import entering
except ImportError:  # a tree before the fourteenth round: the two reads apart
    import contextlib
    entering = lambda app, key: contextlib.nullcontext()

def run():
    body = {"kind": "abort", "abort": "four_winds", "client_key": uuid.uuid4().hex}
    with entering(served.app, key):
        grant = served.may_record(key, token)
        entry = read_body_entry(body)
        match = apply_entry(served.app, key, entry, client_key=body["client_key"], by=f"table {grant.token_id}")
    return {"match": key, **state_data(match.players, match.state, match.rules), "head": match.head}

if mode == "cpu":
    import time
    for _ in range(50):
        run()
    start = time.process_time()
    for _ in range(hands):
        run()
    print(1000 * (time.process_time() - start) / hands)
elif mode == "profile":
    import cProfile, pstats
    for _ in range(20):
        run()
    prof = cProfile.Profile()
    prof.enable()
    for _ in range(hands):
        run()
    prof.disable()
    stats = pstats.Stats(prof)
    stats.sort_stats("tottime").print_stats(35)
    stats.sort_stats("cumulative").print_stats(45)
else:
    for _ in range(hands):
        run()
"""
)


# The same hands posted through the ASGI application (``--through-app``), on uvloop as ``honba serve``
# runs it: what a server's event loop and threads do for a hand, less the socket and the HTTP parser.
APP_HANDS = """
import asyncio, json
import uvloop
from starlette.concurrency import run_in_threadpool

path = "/api/matches/load-0/entries"

async def one():
    body = json.dumps({"kind": "abort", "abort": "four_winds", "client_key": uuid.uuid4().hex}).encode()
    headers = [(b"host", b"127.0.0.1"), (b"authorization", f"Bearer {token}".encode()),
               (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    scope = {"type": "http", "asgi": {"version": "3.0", "spec_version": "2.3"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
             "root_path": "", "headers": headers, "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8000),
             "state": {}}
    messages = [{"type": "http.request", "body": body, "more_body": False}]
    async def receive():
        return messages.pop() if messages else {"type": "http.disconnect"}
    sent = []
    async def send(message):
        sent.append(message)
    await web(scope, receive, send)
    if sent[0]["status"] != 200:
        raise SystemExit(f"the hand was answered {sent[0]['status']}: {sent[1].get('body')!r}")

async def main():
    await run_in_threadpool(lambda: None)  # as the server's start does
    for _ in range(20 if mode == "profile" else 0):
        await one()
    if mode == "cpu":
        import time
        for _ in range(50):
            await one()
        start = time.process_time()
    elif mode == "profile":
        import cProfile, pstats
        prof = cProfile.Profile()  # the event loop's thread (the service call's is the plain run's)
        prof.enable()
    for _ in range(hands):
        await one()
    if mode == "cpu":
        print(1000 * (time.process_time() - start) / hands)
    elif mode == "profile":
        prof.disable()
        stats = pstats.Stats(prof)
        stats.sort_stats("tottime").print_stats(35)
        stats.sort_stats("cumulative").print_stats(45)

uvloop.run(main())
served.close()
"""
APP_CALLS = START + APP_HANDS

# ``--web-alone``: the same, with what the service call does (``CALLS``' ``run``) made beforehand and
# given back at once: the route's ``entering``, ``may_record``, ``read_body_entry``, ``apply_entry``
# and ``state_data`` (a store in memory, its hands in the hand threads as on PostgreSQL). What is
# left is the web layer alone, and the script's own requests: no database, no noise from its waits.
WEB_ALONE = (
    START
    + """
import contextlib
import replay.web.api as api
from replay.service.common.shapes import state_data
from replay.service.recording.entry import apply_entry

grant = served.may_record("load-0", token)
entry = api.read_body_entry({"kind": "abort", "abort": "four_winds"})
match = apply_entry(served.app, "load-0", entry, client_key="made", by=f"table {grant.token_id}")
shaped = state_data(match.players, match.state, match.rules)
api.entering = lambda app, key: contextlib.nullcontext()
served.may_record = lambda key, token: grant
api.read_body_entry = lambda body: entry
api.apply_entry = lambda *args, **kwargs: match
api.state_data = lambda *args: shaped
served._lock = None  # the hand threads, as on PostgreSQL
"""
    + APP_HANDS
)


def instructions(tree: Path, db: str, hands: int, calls: str = CALLS) -> int:
    """The instructions (``Ir``) of a process making ``hands`` service calls with ``tree``'s honba
    (``calls``: the process's script, ``CALLS`` or ``APP_CALLS``)."""
    return counted_instructions(tree, [calls, db, str(hands), "count"], "the calls")


def cpu_ms(tree: Path, db: str, hands: int, calls: str = CALLS) -> float:
    """The process CPU (user and system) of one service call, in ms, over ``hands`` calls after 50."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    run = subprocess.run(
        [sys.executable, "-P", "-c", calls, db, str(hands), "cpu"], env=env, capture_output=True, text=True
    )
    if run.returncode != 0:
        raise SystemExit(f"the calls failed: {run.stderr[-2000:]}")
    return float(run.stdout.split()[-1])


def databases(store: str, work: Path, pg: object | None) -> tuple[str, str]:
    """Two fresh stores of the kind ``store``: one for the long run, one for the short."""
    if store == "memory":
        return ":memory:", ":memory:"
    if store == "sqlite-file":
        for name in ("long.db", "short.db"):
            (work / name).unlink(missing_ok=True)
        return str(work / "long.db"), str(work / "short.db")
    assert pg is not None
    return pg.new_database(), pg.new_database()  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--store", choices=("all", "memory", "sqlite-file", "postgresql"), default="all")
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--also", type=Path, help="also count with the honba of this tree")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--through-app", action="store_true", help="the hand posted through the ASGI application, not the call alone"
    )
    parser.add_argument(
        "--web-alone",
        action="store_true",
        help="the hand through the ASGI application with the service call's work made beforehand (a store in memory)",
    )
    parser.add_argument(
        "--cpu", type=int, metavar="PAIRS", help="process CPU instead, the trees alternating, PAIRS times"
    )
    args = parser.parse_args()
    calls, what = (APP_CALLS, "hand through the app") if args.through_app else (CALLS, "service call")
    print_machine()
    stores = ("memory", "sqlite-file", "postgresql") if args.store == "all" else (args.store,)
    if args.web_alone:
        calls, what, stores = WEB_ALONE, "hand through the app, the service's work made beforehand", ("memory",)
    if args.profile:
        stores = stores if args.store != "all" else ("sqlite-file",)
    trees = [("this tree", REPO)] + ([("--also", args.also.resolve())] if args.also else [])
    pg = None
    if "postgresql" in stores:
        from pg_server import PostgresServer

        pg = PostgresServer()
        pg.start()
    try:
        with tempfile.TemporaryDirectory() as work:
            for store in stores:
                if args.profile:
                    env = {**os.environ, "PYTHONPATH": str(REPO)}
                    db = databases(store, Path(work), pg)[0]
                    subprocess.run(
                        [sys.executable, "-P", "-c", calls, db, str(args.hands), "profile"], env=env, check=True
                    )
                    continue
                if args.cpu:
                    spent: dict[str, list[float]] = {name: [] for name, _tree in trees}
                    for _pair in range(args.cpu):
                        for name, tree in trees:
                            spent[name].append(cpu_ms(tree, databases(store, Path(work), pg)[0], args.hands, calls))
                    for name, figures in spent.items():
                        shown = ", ".join(f"{figure:.3f}" for figure in figures)
                        print(f"{store:14} {name:10} {statistics.median(figures):.3f} ms CPU a {what} ({shown})")
                    if len(trees) == 2:
                        ratios = [a / b for a, b in zip(spent["this tree"], spent["--also"], strict=True)]
                        print(f"{store:14} this tree / --also, pair by pair: {', '.join(f'{r:.3f}' for r in ratios)}")
                    print(f"load average now: {load_average()}")
                    continue
                found = {}
                for name, tree in trees:
                    long_db, short_db = databases(store, Path(work), pg)
                    many = instructions(tree, long_db, args.hands + 50, calls)
                    few = instructions(tree, short_db, 50, calls)
                    found[name] = (many - few) / args.hands
                    print(f"{store:14} {name:10} {found[name] / 1e6:.3f} million instructions a {what}")
                if len(found) == 2:
                    print(f"{store:14} this tree / --also: {found['this tree'] / found['--also']:.3f}")
    finally:
        if pg is not None:
            pg.stop()


if __name__ == "__main__":
    main()
