"""A recorded hand's cost (not a test): the server's CPU early and late in one match, and SQL statements per hand.

    python benchmarks/hand_cost.py [--hands 240] [--also DIR] [--store both|sqlite|postgresql] [--pg-socket]

One ``honba serve`` over one store, one match, one table token; one client posts ``--hands``
abortive draws (which keep the dealer and end nothing, so a match can take any number of them)
to the JSON API one after another, each with a client key, and reads the server's CPU time
(user + system, to the nanosecond: ``serve_load.process_cpu``) after every hand. Printed, per store:

- the server's CPU per hand for the first quarter of the hands (1-60 of 240) and the last
  (181-240), and their ratio (issue 36's target: at most 1.25; before it, every hand re-read and
  re-hashed the whole match: 4.2-4.8x);
- on PostgreSQL, the statements the server sent per recorded hand, counted by the database's own
  ``pg_stat_statements`` (loaded into the server this script starts; top-level statements, each
  BEGIN and COMMIT one), over the last quarter's hands after a reset, with the statements that
  make them up (the checkpoints the server takes every few seconds are in the count: the script
  waits for one after the last hand).

On SQLite, in the same server run, three more figures (issue 36's "at most 2 ms of server CPU per
hand" and "at most 6 statements per recorded hand"):

- the table page's form: ``--form-hands`` entries posted as the page's form does (``POST
  /matches/KEY/record`` with the CSRF cookie and field) and the redirect after it followed (``GET``
  of the table page, which a browser loads next): the server's CPU per hand, both requests; late in
  the long match (after its ``--hands``) and early in a second match (hands 11-20, where a table
  at an event is: 10 hands posted to the JSON API first);
- the floor of any request: ``GET`` of a page that does not exist (404) as many times, the CPU per
  request of uvicorn and Starlette alone, beside which a hand's CPU is read;
- the statements per recorded hand, counted in a second server whose SQLite connections trace
  every statement they run (``sqlite3``'s trace callback, set by a ``sitecustomize`` this script
  puts first on that server's path: nothing in honba changes), over the last quarter's hands.

The load average is printed at the start and the end: on a shared machine the CPU per hand of a
server rises with the load (other processes' cache and memory traffic), so each figure is read
beside its baseline taken in the same run.

``--also DIR`` runs the same, in the same run, with the honba of another tree (its ``replay`` and
``domain`` on PYTHONPATH; for instance main's before issue 36), so that the two are compared on
the machine as it is loaded at that moment.

``--pg-socket`` runs each tree's PostgreSQL figures a second time with the server reaching the
database through its unix socket rather than TCP on 127.0.0.1 (the tests' server listens on both):
each statement's send and wait cost the server less CPU in the kernel.

``--plain-uvicorn`` runs each tree's SQLite figures a second time with uvicorn's pure-Python HTTP
parser (h11) and event loop (asyncio): a ``sitecustomize`` first on that server's path hides
``httptools`` and ``uvloop`` (``uvicorn[standard]``, which ``honba serve`` runs on when they are
installed), so what they buy is measured in the same run.
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import sys
import tempfile
import time
import urllib.parse
import uuid
from pathlib import Path
from typing import Any

# ``python -P`` (the tree named by PYTHONPATH runs, not the working directory's) leaves this script's
# folder off the path: its helpers are found there all the same, after every tree on the path.
sys.path.append(str(Path(__file__).resolve().parent))

from machine import REPO, load_average, print_machine
from pg_server import PostgresServer
from serve_load import ABORT, Servers, setup

from replay.service.audit.checkpoints import EVERY

STATEMENTS = """
SELECT calls, query FROM pg_stat_statements
WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT LIKE '%pg_stat_statements%'
ORDER BY calls DESC
"""


def post_hands(port: int, key: str, token: str, count: int, servers: Servers) -> list[float]:
    """Post ``count`` abortive draws one after another; the servers' CPU seconds before the first
    and after each one."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    cpu = [servers.cpu()]
    for _hand in range(count):
        body = json.dumps({**ABORT, "client_key": str(uuid.uuid4())})
        connection.request("POST", f"/api/matches/{key}/entries", body=body, headers=headers)
        answer = connection.getresponse()
        answer.read()
        if answer.status != 200:
            raise SystemExit(f"hand not recorded: HTTP {answer.status}")
        cpu.append(servers.cpu())
    connection.close()
    return cpu


def per_hand(cpu: list[float], first: int, last: int) -> float:
    """The CPU milliseconds per hand of hands ``first`` to ``last`` (counted from 1)."""
    return 1000 * (cpu[last] - cpu[first - 1]) / (last - first + 1)


def show_cpu(name: str, cpu: list[float], hands: int) -> float:
    quarter = hands // 4
    early = per_hand(cpu, 1, quarter)
    late = per_hand(cpu, hands - quarter + 1, hands)
    print(
        f"  {name}: server CPU per hand, hands 1-{quarter}: {early:.2f} ms; hands {hands - quarter + 1}-{hands}: "
        f"{late:.2f} ms; late / early: {late / early:.2f}x (target <= 1.25); of which hand 1 alone "
        f"{per_hand(cpu, 1, 1):.1f} ms (the server's first request)"
    )
    return late / early


def post_forms(port: int, key: str, token: str, count: int, servers: Servers) -> float:
    """Post ``count`` abortive draws as the table page's form does, following each redirect to the
    page; the servers' CPU milliseconds per hand (both requests)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    csrf = uuid.uuid4().hex
    cookie = f"honba_csrf={csrf}"
    form = {"kind": ABORT["kind"], "abort": ABORT["abort"], "token": token, "csrf": csrf}
    start = servers.cpu()
    for _hand in range(count):
        body = urllib.parse.urlencode({**form, "client_key": str(uuid.uuid4())})
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
        connection.request("POST", f"/matches/{key}/record", body=body, headers=headers)
        answer = connection.getresponse()
        answer.read()
        if answer.status != 303:
            raise SystemExit(f"form not recorded: HTTP {answer.status}")
        connection.request("GET", answer.getheader("Location") or "", headers={"Cookie": cookie})
        page = connection.getresponse()
        page.read()
        if page.status != 200:
            raise SystemExit(f"the table page after the form: HTTP {page.status}")
    connection.close()
    return 1000 * (servers.cpu() - start) / count


def floor_requests(port: int, count: int, servers: Servers) -> float:
    """The servers' CPU milliseconds per request of a page that does not exist (404)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    start = servers.cpu()
    for _ in range(count):
        connection.request("GET", "/no-such-page")
        answer = connection.getresponse()
        answer.read()
    connection.close()
    return 1000 * (servers.cpu() - start) / count


# Put first on the traced server's path: every SQLite connection it opens reports each statement.
TRACER = """
import os, sqlite3
_path = os.environ.get("HONBA_BENCH_SQL_TRACE")
if _path:
    _out = open(_path, "a", buffering=1)
    _connect = sqlite3.connect

    def connect(*args, **kwargs):
        connection = _connect(*args, **kwargs)
        connection.set_trace_callback(lambda statement: _out.write(" ".join(statement.split())[:200] + "\\n"))
        return connection

    sqlite3.connect = connect
"""


# Put first on a server's path: uvicorn finds neither httptools nor uvloop, and runs on h11 and asyncio.
PLAIN_UVICORN = """
import sys
sys.modules["httptools"] = None
sys.modules["uvloop"] = None
"""


def sqlite_statements(tree: Path, hands: int, work: Path) -> None:
    """Statements per recorded hand on SQLite, over the last quarter of ``hands`` (a traced server)."""
    db = str(work / f"traced-{uuid.uuid4().hex[:8]}.sqlite")
    ((key, token),) = setup(tree, db, 1)
    site = work / f"tracer-{uuid.uuid4().hex[:8]}"
    site.mkdir()
    (site / "sitecustomize.py").write_text(TRACER)
    trace = work / f"trace-{uuid.uuid4().hex[:8]}.log"
    quarter = hands // 4
    servers = Servers(tree, db, 1, extra_env={"HONBA_BENCH_SQL_TRACE": str(trace)}, first_on_path=site)
    try:
        post_hands(servers.ports[0], key, token, hands - quarter, servers)
        time.sleep(EVERY + 1)  # the checkpoint after the first hands is not counted
        before = len(trace.read_text().splitlines())
        post_hands(servers.ports[0], key, token, quarter, servers)
        time.sleep(EVERY + 1)  # one checkpoint after the counted hands is, as on PostgreSQL
    finally:
        servers.stop()
    counted = collections.Counter(
        statement.split(" WHERE")[0].split(" VALUES")[0][:110] for statement in trace.read_text().splitlines()[before:]
    )
    total = sum(counted.values())
    last = f"hands {hands - quarter + 1}-{hands}"
    print(f"  SQLite ({tree}): {total / quarter:.2f} statements per recorded hand ({last})")
    for statement, calls in counted.most_common(12):
        print(f"    {calls / quarter:5.2f}  {statement}")


def run_sqlite(tree: Path, hands: int, work: Path, form_hands: int, *, plain: bool = False) -> None:
    db = str(work / f"hands-{uuid.uuid4().hex[:8]}.sqlite")
    ((key, token), (early_key, early_token)) = setup(tree, db, 2)
    site = None
    if plain:
        site = work / f"plain-{uuid.uuid4().hex[:8]}"
        site.mkdir()
        (site / "sitecustomize.py").write_text(PLAIN_UVICORN)
    servers = Servers(tree, db, 1, first_on_path=site)
    early = None
    try:
        if form_hands:
            # A table at an event: hands 11-20 of its match, the first 10 sent to the JSON API. The
            # page shown once before: the server compiles its templates once in its life, at its first page.
            warm = http.client.HTTPConnection("127.0.0.1", servers.ports[0], timeout=60)
            warm.request("GET", f"/matches/{urllib.parse.quote(early_key)}")
            warm.getresponse().read()
            warm.close()
            post_hands(servers.ports[0], early_key, early_token, 10, servers)
            early = post_forms(servers.ports[0], early_key, early_token, 10, servers)
        cpu = post_hands(servers.ports[0], key, token, hands, servers)
        form = post_forms(servers.ports[0], key, token, form_hands, servers) if form_hands else None
        floor = floor_requests(servers.ports[0], max(form_hands, 60), servers)
    finally:
        servers.stop()
    name = f"SQLite ({tree}{', h11 and asyncio' if plain else ''})"
    show_cpu(name, cpu, hands)
    api = per_hand(cpu, 1, hands)
    print(f"  {name}: the JSON API, all {hands} hands: {api:.2f} ms of server CPU per hand (target <= 2)")
    if early is not None:
        print(
            f"  {name}: the table page's form, hands 11-20 of a match, the POST and the page after it: "
            f"{early:.2f} ms per hand"
        )
    if form is not None:
        print(
            f"  {name}: the table page's form, hands {hands + 1}-{hands + form_hands}, the POST and the "
            f"page after it: {form:.2f} ms per hand"
        )
    print(f"  {name}: the floor, a 404 through uvicorn and Starlette: {floor:.2f} ms per request")


def over_socket(server: Any, db: str) -> str:
    """The same database's URL through the server's unix socket (``host=/dir``) instead of TCP on
    127.0.0.1: what a server on the database's own machine can use."""
    parts = urllib.parse.urlsplit(db)
    return urllib.parse.urlunsplit(
        parts._replace(
            netloc=f"{parts.username}:{parts.password}@:{parts.port}",
            query=urllib.parse.urlencode({"host": str(server.sockets)}),
        )
    )


def run_postgres(server: Any, tree: Path, hands: int, *, socket: bool = False) -> None:
    import psycopg

    db = server.new_database()
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    ((key, token),) = setup(tree, db, 1)
    servers = Servers(tree, over_socket(server, db) if socket else db, 1)
    quarter = hands // 4
    try:
        early = post_hands(servers.ports[0], key, token, hands - quarter, servers)
        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute("SELECT pg_stat_statements_reset()")
        late = post_hands(servers.ports[0], key, token, quarter, servers)
        # The server takes a checkpoint every few seconds while something was saved: one is counted.
        time.sleep(EVERY + 1)
        with psycopg.connect(db, autocommit=True) as conn:
            rows = conn.execute(STATEMENTS).fetchall()
    finally:
        servers.stop()
    name = f"PostgreSQL ({tree}{', unix socket' if socket else ''})"
    show_cpu(name, early + [c - late[0] + early[-1] for c in late[1:]], hands)
    total = sum(calls for calls, _query in rows)
    print(f"  {name}: {total / quarter:.2f} statements per recorded hand (hands {hands - quarter + 1}-{hands})")
    for calls, query in rows[:12]:
        print(f"    {calls / quarter:5.2f}  {' '.join(query.split())[:110]}")


class StatementsServer(PostgresServer):
    """The tests' throwaway PostgreSQL server, with ``pg_stat_statements`` loaded (top-level
    statements only: what a client sends, not what a function it calls runs inside)."""

    def _options(self) -> str:
        return (
            super()._options() + " -c shared_preload_libraries=pg_stat_statements"
            " -c pg_stat_statements.track=top -c pg_stat_statements.track_utility=on"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=240)
    parser.add_argument("--also", type=Path, help="also run with the honba of this tree")
    parser.add_argument("--store", choices=("both", "sqlite", "postgresql"), default="both")
    parser.add_argument("--form-hands", type=int, default=60, help="hands posted as the table page's form (SQLite)")
    parser.add_argument(
        "--plain-uvicorn", action="store_true", help="also run each tree on SQLite without httptools and uvloop"
    )
    parser.add_argument(
        "--pg-socket", action="store_true", help="also run each tree on PostgreSQL over its unix socket (not TCP)"
    )
    args = parser.parse_args()
    print_machine()
    print(f"load average at the start: {load_average()}")
    trees: list[Path] = [REPO] + ([args.also.resolve()] if args.also else [])
    with tempfile.TemporaryDirectory(prefix="honba-hands-") as work:
        if args.store in ("both", "sqlite"):
            for tree in trees:
                run_sqlite(tree, args.hands, Path(work), args.form_hands)
                if args.plain_uvicorn:
                    run_sqlite(tree, args.hands, Path(work), args.form_hands, plain=True)
            for tree in trees:
                sqlite_statements(tree, args.hands, Path(work))
        if args.store in ("both", "postgresql"):
            server = StatementsServer()
            server.start()
            try:
                for tree in trees:
                    run_postgres(server, tree, args.hands)
                    if args.pg_socket:
                        run_postgres(server, tree, args.hands, socket=True)
            finally:
                server.stop()
    print(f"load average at the end: {load_average()}")


if __name__ == "__main__":
    sys.exit(main())
