"""Load check of ``honba serve`` (not a test): tables recording over HTTP, measured at the server.

    python benchmarks/serve_load.py [--scenario all|back-to-back|sqlite-back-to-back|steady|neighbours|import|
                                               sqlite-import]
                                    [--tables 40] [--servers 2] [--sqlite-tables 20] [--steady-tables 200]
                                    [--seconds 60] [--neighbours 2] [--also DIR] [--no-baselines] [--smoke]
                                    [--repeat N] [--no-floor] [--floor-requests 100] [--floor-seconds 10]
                                    [--loop-hand sync|async] [--hanchans N]

A PostgreSQL server is started like the tests' (``tests/pg_server.py``). ``honba serve``
processes share a database on it; every table has its own match, its own table token and its
own HTTP/1.1 connection, alternating between the servers (``--hanchans N``: N matches each, played in
turn on the same connection), and sends each entry with a client
key; an entry answered 409 (another process saved the same match at that moment) or not
answered is sent again with the same key, as a phone would, and its latency counts from the
first send.

The client is one asyncio loop writing raw HTTP/1.1 on keep-alive connections: its own CPU per
request (printed) is well below the server's, so what is measured is the server. Printed for
each scenario: hands recorded per second, the p50, p95 and p99 latency of a recorded hand, the
servers' CPU time per hand (read from /proc), the client's CPU per request, and requests sent
again.

Scenarios (issue 26):

- ``back-to-back``: ``--tables`` tables (40) each send the eight hands of a hanchan as fast as
  the answers come, to ``--servers`` (2) server processes.
- ``sqlite-back-to-back`` (issue 36, sixth round): ``--sqlite-tables`` tables (20) the same way, to
  one server over a SQLite file (no PostgreSQL); ``--repeat`` alternates the trees as for
  ``back-to-back``.
- ``steady``: ``--steady-tables`` tables (200), each sending one hand every 1 to 3 s (about
  100 hands/s offered) for ``--seconds``.
- ``neighbours`` (issue 36): the ``steady`` tables while ``--neighbours`` (2) CPU-bound processes
  (plain Python busy loops at normal priority, started by this script for the scenario's whole
  length) compete for the cores: what a server shares a machine with. Printed besides: the
  neighbours' CPU share and the hands slower than 100 ms.
- ``import``: ``honba import`` of the corpus's 633-game archive alone, then again into a fresh
  database while 40 tables record one hand every 1 to 3 s; the import's time both ways, the
  games it refused, and the tables' latency during it against the same tables alone.
- ``sqlite-import``: the same import into a SQLite store, alone and while four tables record
  through the command line (``honba abort`` in a loop): the import's time both ways.

Baselines measured in the same run: a plain PostgreSQL insert of three rows per transaction
from 40 connections (the floor of any save), and the same with the library's table lock and
NOTIFY in each transaction (what the event library does on every insert, so that followers
never miss an event: its cost at the database).

``back-to-back`` also prints its floor, measured in the same run (issue 36, fifth round; ``--no-floor``
skips it): the same client and tables against the same two servers (this tree's) answering the
cheapest request the app has (a hand's body posted where no route is: a 404, no store, no thread
pool), and PostgreSQL alone from as many connections by ``pgbench`` (a C client, prepared
statements, as honba's): the insert function's call of a hand, and a hand's three statements. Beside
them, as ratios: issue 36's target (2.5x the hands/s of ``--also``'s tree, the code before issue 36,
or ``--before``), the PostgreSQL server's CPU per hand (its processes', from /proc), the CPU a hand
costs the whole machine and what two cores allow at that cost, and Little's law (with every table
waiting for its answer, the mean latency is tables / hands per second). ``--repeat N`` runs each
tree's back-to-back N times, alternating, and prints the medians.

``--loop-hand async`` (or ``sync``) serves this tree's hands on PostgreSQL on the event loop, with
``benchmarks/async_hand.py``'s prototype of an asynchronous store path (issue 36, thirteenth round):
its ceiling in the back-to-back and neighbours scenarios, beside ``--also``'s tree served as it is.

``--also DIR`` runs the same scenarios, in the same run, with the honba of another tree (its
``replay`` and ``domain`` on PYTHONPATH; for instance main's, to compare with the store-wide
chain of saves). ``--smoke`` runs a small, quick version of each (for a loaded machine: the
figures then mean nothing, the script only shows it runs).
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import json
import os
import random
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# ``python -P`` (the tree named by PYTHONPATH runs, not the working directory's) leaves this script's
# folder off the path: its helpers are found there all the same, after every tree on the path.
sys.path.append(str(Path(__file__).resolve().parent))

from machine import CORPUS, REPO, load_average, print_machine, started_postgres

PLAYERS = ("Ann", "Ben", "Cho", "Dai")
SCENARIOS = ("back-to-back", "sqlite-back-to-back", "steady", "neighbours", "import", "sqlite-import")


# What runs inside a tree's own honba: the matches and tokens a run needs, made with its own code.

SETUP = """
import json, sys
from domain.rules import load_preset
from replay.service.recording import recording
from replay.service.common.access import TokenStore
from replay.store.application import HonbaApp
db, count = sys.argv[1], int(sys.argv[2])
app = HonbaApp.open(db)
tokens = TokenStore(app)
found = []
for n in range(count):
    key = f"load-{n}"
    recording.start_match(app, key, ["Ann", "Ben", "Cho", "Dai"], load_preset("tenhou"))
    found.append([key, tokens.create("table", key)])
app.close()
print(json.dumps(found))
"""


def tree_env(tree: Path | None, db: str) -> dict[str, str]:
    """The environment of a honba process of ``tree`` (this one by default) over the store ``db``
    (given in the environment: a URL never goes on a command line, which process lists show)."""
    # The tree first on the path (this one's, not an installed honba's, by default).
    return {**os.environ, "HONBA_DB": db, "PYTHONPATH": str(tree if tree is not None else REPO)}


def honba_command(*args: str) -> list[str]:
    # -P: with -c Python puts the working directory first on the path, before PYTHONPATH, so a run
    # from a checkout would import that checkout's honba whatever tree ``tree_env`` names (every
    # ``--also`` comparison before this measured one tree twice).
    return [sys.executable, "-P", "-c", "from replay.cli import main; main()", *args]


def setup(tree: Path | None, db: str, count: int) -> list[tuple[str, str]]:
    """``count`` started matches with a table token each, made by the tree's own honba."""
    run = subprocess.run(
        [sys.executable, "-P", "-c", SETUP, db, str(count)], env=tree_env(tree, db), capture_output=True, text=True
    )
    if run.returncode != 0:
        raise SystemExit(f"setup failed: {run.stderr[-2000:]}")
    return [(key, token) for key, token in json.loads(run.stdout)]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class _Timespec(ctypes.Structure):
    _fields_ = [("seconds", ctypes.c_long), ("nanoseconds", ctypes.c_long)]


_LIBC = ctypes.CDLL(None, use_errno=True)


def process_cpu(pid: int) -> float:
    """The CPU seconds (user and system, every thread's, those that ended too) the process ``pid``
    used so far, to the nanosecond: its CPU-time clock (``clock_getcpuclockid``), which Linux lets
    any process read. /proc's ``stat`` counts in 10 ms ticks, so a figure over 60 hands moved by
    0.17 ms a hand (issue 36's fourth round) and a change of 0.1 ms could not be shown; read from
    /proc only where the clock cannot be."""
    clock = ctypes.c_int()
    held = _Timespec()
    if (
        _LIBC.clock_getcpuclockid(pid, ctypes.byref(clock)) == 0
        and _LIBC.clock_gettime(clock.value, ctypes.byref(held)) == 0
    ):
        return held.seconds + held.nanoseconds / 1e9
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_of(processes: Sequence[subprocess.Popen[Any]]) -> float:
    """The CPU seconds (user and system) ``processes`` used so far (``process_cpu``)."""
    return sum(process_cpu(process.pid) for process in processes)


class Servers:
    """``honba serve`` processes of a tree over one store, and the CPU time they used."""

    def __init__(
        self,
        tree: Path | None,
        db: str,
        count: int,
        *,
        extra_env: dict[str, str] | None = None,
        first_on_path: Path | None = None,
    ):
        self.ports = [free_port() for _ in range(count)]
        env = {**tree_env(tree, db), **(extra_env or {})}
        if first_on_path is None:
            first_on_path = SERVER_SITES.get(tree if tree is not None else REPO)
        if first_on_path is not None:
            env["PYTHONPATH"] = os.pathsep.join(p for p in (str(first_on_path), env.get("PYTHONPATH", "")) if p)
        self.processes = [
            subprocess.Popen(
                honba_command("serve", "--port", str(port)),
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for port in self.ports
        ]
        for port in self.ports:
            for _ in range(1200):  # bounded: 2 min to start listening (a loaded machine starts slowly)
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        break
                except OSError:
                    time.sleep(0.1)

    def cpu(self) -> float:
        """The CPU seconds (user and system) the server processes used so far."""
        return cpu_of(self.processes)

    def switches(self) -> tuple[int, int]:
        """The context switches of the server processes' live threads so far: (voluntary, forced).
        A voluntary one is a thread that waited (a round trip, the GIL, the thread pool) and must
        be woken: on cores other processes keep busy, each wake-up waits for a time slice."""
        voluntary = forced = 0
        for process in self.processes:
            for task in Path(f"/proc/{process.pid}/task").iterdir():
                try:
                    lines = (task / "status").read_text().splitlines()
                except OSError:  # a thread that ended meanwhile
                    continue
                for line in lines:
                    if line.startswith("voluntary_ctxt_switches:"):
                        voluntary += int(line.split()[1])
                    elif line.startswith("nonvoluntary_ctxt_switches:"):
                        forced += int(line.split()[1])
        return voluntary, forced

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            process.wait(timeout=30)


# ``--loop-hand``: a ``sitecustomize`` put first on the path of a tree's servers (by tree): the JSON
# API's recorded hand on the event loop (``benchmarks/async_hand.py``'s prototype).
SERVER_SITES: dict[Path, Path] = {}


# The client: raw HTTP/1.1 over keep-alive connections, one asyncio loop.


class Table:
    """One table's connection to a server and its token."""

    def __init__(self, key: str, token: str, port: int, path: str | None = None):
        self.key, self.token, self.port = key, token, port
        # Where entries are posted: the JSON API's (the floor's tables post to a path no route has).
        self.path = path if path is not None else f"/api/matches/{key}/entries"
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def post(self, body: dict[str, Any]) -> int:
        """POST one entry; the status (0: no answer)."""
        data = json.dumps(body).encode()
        head = (
            f"POST {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {self.token}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n"
        ).encode()
        try:
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            assert self.reader is not None
            self.writer.write(head + data)
            await self.writer.drain()
            status_line = await self.reader.readline()
            length = 0
            while True:
                line = await self.reader.readline()
                if line in (b"\r\n", b""):
                    break
                if line[:15].lower() == b"content-length:":
                    length = int(line[15:])
            await self.reader.readexactly(length)
            return int(status_line.split()[1])
        except (OSError, asyncio.IncompleteReadError, IndexError, ValueError):
            self.writer = None
            return 0

    def next_match(self, key: str, token: str) -> None:
        """The table's next match (``--hanchans``): its key and token, the same connection."""
        self.key, self.token = key, token
        self.path = f"/api/matches/{key}/entries"

    async def send(self, body: dict[str, Any], stats: Stats) -> None:
        """Send an entry until it is recorded (a 409 or no answer: again, with the same key)."""
        body = {**body, "client_key": str(uuid.uuid4())}
        started = time.perf_counter()
        for _attempt in range(50):
            stats.requests += 1
            status = await self.post(body)
            if status == 200:
                stats.latencies.append(time.perf_counter() - started)
                return
            stats.again += 1
            stats.again_statuses[status] += 1
            if status not in (0, 409):
                stats.failed.append(f"{self.key}: HTTP {status}")
                return
        stats.failed.append(f"{self.key}: not recorded after 50 tries")


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.requests = 0
        self.again = 0
        self.again_statuses: Counter[int] = Counter()
        self.failed: list[str] = []


def hanchan() -> list[dict[str, Any]]:
    """Eight hands, East 1 to South 4: Ben wins 2 han 30 fu off Dai unless he deals (then Cho does);
    the deal passes every hand and the match ends after South 4 (Tenhou's rules)."""
    hands = []
    for hand in range(8):
        winner = "Cho" if PLAYERS[hand % 4] == "Ben" else "Ben"
        hands.append({"kind": "win", "winner": winner, "discarder": "Dai", "han": "2", "fu": "30"})
    return hands


# An abortive draw keeps the dealer and ends nothing: a table can send them for as long as a run lasts.
ABORT = {"kind": "abort", "abort": "four_winds"}


def percentile(ordered: Sequence[float], share: float) -> float:
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000 if ordered else float("nan")


def show(
    name: str, stats: Stats, seconds: float, server_cpu: float, client_cpu: float, unit: str = "hand"
) -> dict[str, float]:
    ordered = sorted(stats.latencies)
    hands = len(ordered)
    figures = {
        "hands_per_s": hands / seconds if seconds else 0.0,
        "p50": statistics.median(ordered) * 1000 if ordered else float("nan"),
        "p95": percentile(ordered, 0.95),
        "p99": percentile(ordered, 0.99),
        "server_cpu_ms": 1000 * server_cpu / hands if hands else float("nan"),
        "client_cpu_ms": 1000 * client_cpu / stats.requests if stats.requests else float("nan"),
    }
    print(
        f"  {name}: {hands} {unit}s in {seconds:.1f} s, {figures['hands_per_s']:.1f} {unit}s/s; latency p50 "
        f"{figures['p50']:.0f} ms, p95 {figures['p95']:.0f} ms, p99 {figures['p99']:.0f} ms"
    )
    print(
        f"    servers' CPU {figures['server_cpu_ms']:.2f} ms per {unit}; client CPU {figures['client_cpu_ms']:.2f} ms "
        f"per request; sent again {stats.again}; failed {len(stats.failed)}"
    )
    for failure in stats.failed[:3]:
        print(f"    failure: {failure}")
    return figures


def client_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def back_to_back(tables: list[Table], stats: Stats, later: Sequence[list[tuple[str, str]]] = ()) -> None:
    """Each table plays its hanchan, then (``later``: each table's further matches, ``--hanchans``)
    the next match's, hand after hand, on the same connection."""

    async def one(at: int, table: Table) -> None:
        for hand in hanchan():
            await table.send(hand, stats)
        for key, token in later[at] if later else ():
            table.next_match(key, token)
            for hand in hanchan():
                await table.send(hand, stats)

    await asyncio.gather(*(one(at, t) for at, t in enumerate(tables)))


async def steady(tables: list[Table], stats: Stats, seconds: float, stop: asyncio.Event | None = None) -> None:
    deadline = time.perf_counter() + seconds

    async def one(table: Table) -> None:
        await asyncio.sleep(random.uniform(0, 2))
        while time.perf_counter() < deadline and not (stop is not None and stop.is_set()):
            await table.send(ABORT, stats)
            await asyncio.sleep(random.uniform(1, 3))

    await asyncio.gather(*(one(t) for t in tables))


def measured(
    name: str, servers: Servers, tables: list[Table], work: Any, database: Any = None, unit: str = "hand"
) -> tuple[Stats, dict[str, float]]:
    """``work`` run on a new event loop; its figures printed (``show``). ``database``: the PostgreSQL
    server, whose CPU per hand is then printed and kept too (``database_cpu_ms``)."""
    for table in tables:  # a new event loop: new connections
        table.reader = table.writer = None
    stats = Stats()
    cpu, mine = servers.cpu(), client_cpu()
    held = postgres_cpu(database) if database is not None else 0.0
    started = time.perf_counter()
    asyncio.run(work(stats))
    seconds = time.perf_counter() - started
    figures = show(name, stats, seconds, servers.cpu() - cpu, client_cpu() - mine, unit)
    if database is not None:
        hands = max(1, len(stats.latencies))
        figures["database_cpu_ms"] = 1000 * (postgres_cpu(database) - held) / hands
        print(f"    PostgreSQL's CPU {figures['database_cpu_ms']:.2f} ms per hand")
    return stats, figures


def postgres_cpu(server: Any) -> float:
    """The CPU seconds (user and system) the PostgreSQL server used so far: its postmaster, every
    live process it started (each connection's backend, the WAL writer, ...) and those that ended
    (the postmaster's count of its children's CPU, from /proc)."""
    ticks = os.sysconf("SC_CLK_TCK")
    root = int((server.data / "postmaster.pid").read_text().split()[0])
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # a process that ended meanwhile (its CPU is now the postmaster's children's)
            continue
        if int(entry.name) == root:
            total += sum(int(field) for field in fields[11:15]) / ticks
        elif int(fields[1]) == root:
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


# The scenarios, each on fresh databases of the one server.


def run_back_to_back(server: Any, tree: Path | None, tables: int, count: int, hanchans: int = 1) -> dict[str, float]:
    db = server.new_database()
    made = setup(tree, db, tables * hanchans)
    # Table n plays matches n, n + tables, n + 2 tables, ... (``--hanchans``), one after the other.
    later = [made[n + tables :: tables] for n in range(tables)] if hanchans > 1 else []
    servers = Servers(tree, db, count)
    try:
        connected = [Table(k, t, servers.ports[n % count]) for n, (k, t) in enumerate(made[:tables])]
        each = f", {hanchans} hanchans each" if hanchans > 1 else ""
        stats, figures = measured(
            f"{tables} tables back to back{each}, {count} servers",
            servers,
            connected,
            lambda s: back_to_back(connected, s, later),
            database=server,
        )
        whole = (
            figures["server_cpu_ms"]
            + figures["database_cpu_ms"]
            + figures["client_cpu_ms"] * stats.requests / max(1, len(stats.latencies))
        )
        figures["machine_cpu_ms"] = whole
        mean = 1000 * statistics.fmean(stats.latencies) if stats.latencies else float("nan")
        print(
            f"    the machine's CPU per hand (servers, PostgreSQL, client): {whole:.2f} ms: two cores give at most "
            f"{2000 / whole:.0f} hands/s at that cost"
        )
        print(
            f"    Little's law ({tables} tables, each sending its next hand when answered): mean latency = "
            f"{tables} / hands/s = {1000 * tables / figures['hands_per_s']:.0f} ms; measured mean {mean:.0f} ms"
        )
        figures.update(db_sizes(db))
        return figures
    finally:
        servers.stop()


def db_sizes(db: str) -> dict[str, float]:
    """The mean stored size in bytes of a recorded hand's two rows, its event's and its seal's
    (``event_bytes``, ``seal_bytes``), in the store at ``db``: the database floor inserts rows as large."""
    import psycopg

    with psycopg.connect(db, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT topic LIKE '%Seal.Sealed', avg(length(state)) FROM honba_events "
            "WHERE topic LIKE '%Seal.Sealed' OR topic LIKE '%Match.%' AND topic NOT LIKE '%Started' GROUP BY 1"
        ).fetchall()
    sizes = {bool(seal): float(size) for seal, size in rows}
    return {"event_bytes": sizes.get(False, 300.0), "seal_bytes": sizes.get(True, 300.0)}


def run_sqlite_back_to_back(tree: Path | None, tables: int, work: Path) -> dict[str, float]:
    """``tables`` tables back to back on one ``honba serve`` over a SQLite file (issue 36, sixth
    round: a hand on SQLite is recorded on the event loop, whose own work then no longer overlaps
    a commit's wait for the disk)."""
    db = str(work / f"back-to-back-{uuid.uuid4().hex[:8]}.sqlite")
    made = setup(tree, db, tables)
    servers = Servers(tree, db, 1)
    try:
        connected = [Table(k, t, servers.ports[0]) for k, t in made]
        name = f"{tables} tables back to back, 1 server on SQLite"
        _stats, figures = measured(name, servers, connected, lambda s: back_to_back(connected, s))
        return figures
    finally:
        servers.stop()


def medians(label: str, runs: list[dict[str, float]]) -> dict[str, float]:
    """Each figure's median over a tree's runs (printed when there is more than one run)."""
    middle = {name: statistics.median(run[name] for run in runs) for name in runs[0]}
    if len(runs) > 1:
        rates = ", ".join(f"{run['hands_per_s']:.0f}" for run in runs)
        tails = ", ".join(f"{run['p95']:.0f}" for run in runs)
        print(
            f"back-to-back, {label}, medians of {len(runs)} runs: {middle['hands_per_s']:.1f} hands/s "
            f"({rates}); p50 {middle['p50']:.0f} ms, p95 {middle['p95']:.0f} ms ({tails}); servers' CPU "
            f"{middle['server_cpu_ms']:.2f} ms"
            + (f", PostgreSQL's {middle['database_cpu_ms']:.2f} ms" if "database_cpu_ms" in middle else "")
            + " per hand"
        )
    return middle


# The floor: what the same client and servers do answering nothing, and what PostgreSQL does alone.


async def requests_back_to_back(tables: list[Table], stats: Stats, requests: int) -> None:
    """Each table posts a hand's body ``requests`` times to where no route is, the next when the 404 comes."""
    body = {**hanchan()[0], "client_key": str(uuid.uuid4())}

    async def one(table: Table) -> None:
        for _ in range(requests):
            started = time.perf_counter()
            stats.requests += 1
            status = await table.post(body)
            if status != 404:
                stats.failed.append(f"{table.key}: HTTP {status}")
                return
            stats.latencies.append(time.perf_counter() - started)

    await asyncio.gather(*(one(t) for t in tables))


def run_floor_requests(server: Any, tables: int, count: int, requests: int) -> dict[str, float]:
    """The back-to-back tables' client against ``count`` servers of this tree answering the cheapest
    request the app has: a hand's body posted where no route is (404, on the event loop: no store,
    no thread pool). Its requests/s bound any hand's."""
    db = server.new_database()
    setup(None, db, 0)  # the store's tables made before the servers start, as in the scenario
    servers = Servers(None, db, count)
    try:
        connected = [
            Table(f"floor-{n}", "none.none", servers.ports[n % count], path=f"/api/matches/floor-{n}/nothing")
            for n in range(tables)
        ]
        _, figures = measured(
            f"{tables} tables back to back, {count} servers answering a 404 (no store)",
            servers,
            connected,
            lambda s: requests_back_to_back(connected, s, requests),
            unit="request",
        )
        return figures
    finally:
        servers.stop()


def pgbench_program() -> Path | None:
    """PostgreSQL's own pgbench beside the server the tests use, or None where there is none."""
    from pg_server import ServerUnavailable, find_bin_dir

    try:
        program = find_bin_dir() / "pgbench"
    except ServerUnavailable:
        return None
    return program if program.is_file() else None


def pgbench_run(
    server: Any, url: str, script: str, seconds: float, work: Path, clients: int
) -> tuple[float, float, float] | None:
    """``script`` run by pgbench from ``clients`` connections (prepared statements, as honba's):
    (transactions/s, PostgreSQL's CPU ms per transaction, pgbench's CPU ms per transaction); None
    without pgbench."""
    program = pgbench_program()
    if program is None:
        return None
    path = work / f"floor-{uuid.uuid4().hex[:8]}.sql"
    path.write_text(script)
    before, held = resource.getrusage(resource.RUSAGE_CHILDREN), postgres_cpu(server)
    command = [str(program), "-n", "-M", "prepared", "-f", str(path), "-c", str(clients), "-j", "2"]
    run = subprocess.run(
        [*command, "-T", str(int(seconds)), url],
        capture_output=True,
        text=True,
    )
    used = postgres_cpu(server) - held
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    mine = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    done = [line for line in run.stdout.splitlines() if line.startswith("number of transactions actually processed")]
    rate = [line for line in run.stdout.splitlines() if line.startswith("tps = ")]
    if not done or not rate:
        print(f"  pgbench did not run: {run.stderr.strip()[-300:]}")
        return None
    transactions = int(done[0].split(":")[1].split()[0])
    return float(rate[0].split()[2]), 1000 * used / transactions, 1000 * mine / transactions


def insert_call(event_bytes: float, seal_bytes: float) -> str:
    """The insert function's call of one recorded hand: its event and its seal row (new streams: every
    call inserts; rows as large as the scenario's)."""
    return (
        "SELECT notification_id FROM honba_events_insert(ARRAY[gen_random_uuid(), gen_random_uuid()], "
        "'{1,1}'::bigint[], ARRAY['t', 't'], ARRAY[convert_to(repeat('x', "
        f"{int(event_bytes)}), 'UTF8'), convert_to(repeat('x', {int(seal_bytes)}), 'UTF8')], '5s') "
        "AS inserted(notification_id);\n"
    )


def run_floor_database(
    server: Any, seconds: float, work: Path, clients: int, sizes: dict[str, float]
) -> dict[str, float]:
    """PostgreSQL alone, from ``clients`` connections of pgbench (a C client): the insert function's
    call per hand, and a hand's three statements (the token's row, a match's and its seal's tails, the
    insert), on a store made by this tree."""
    import psycopg

    db = server.new_database()
    ((_key, token),) = setup(None, db, 1)
    with psycopg.connect(db, autocommit=True) as conn:
        streams = conn.execute(
            "SELECT originator_id, originator_version FROM honba_events ORDER BY notification_id"
        ).fetchall()
    ids = ", ".join(f"'{stream}'::uuid" for stream, _version in streams[:2])
    versions = ",".join(str(version) for _stream, version in streams[:2])
    insert = insert_call(sizes["event_bytes"], sizes["seal_bytes"])
    hand = (
        f"SELECT role, match_key, salt, digest FROM honba_access_tokens WHERE token_id = '{token.split('.')[0]}';\n"
        "SELECT e.originator_id, e.originator_version, e.topic, e.state "
        f"FROM unnest(ARRAY[{ids}], '{{{versions}}}'::bigint[]) AS t(id, since) "
        "JOIN honba_events AS e ON e.originator_id = t.id AND e.originator_version >= t.since "
        "ORDER BY e.originator_id, e.originator_version;\n" + insert
    )
    figures: dict[str, float] = {}
    for name, script, label in (
        ("insert", insert, "the insert function's call of a hand (its event and seal rows)"),
        ("hand", hand, "a hand's three statements (the token's row, the match's and seal's tails, the insert)"),
    ):
        found = pgbench_run(server, db, script, seconds, work, clients)
        if found is None:
            continue
        rate, cpu, client = found
        figures[f"{name}_per_s"], figures[f"{name}_cpu_ms"] = rate, cpu
        print(
            f"  PostgreSQL alone, {clients} connections (pgbench): {label}: {rate:.0f}/s; PostgreSQL's CPU "
            f"{cpu:.2f} ms, pgbench's {client:.2f} ms per hand"
        )
    return figures


def show_floor(
    before: float,
    said: str,
    this: dict[str, float],
    requests: dict[str, float],
    database: dict[str, float],
    tables: int,
    quiet: float | None = None,
) -> None:
    """The target beside the floor measured in the same run, as ratios (``quiet``: the hands/s of the
    code before issue 36 measured on a quiet machine, whose 2.5x is printed too)."""
    target = 2.5 * before
    print(f"  issue 36's target: 2.5 x {before:.1f} hands/s ({said}) = {target:.0f} hands/s, p95 <= 100 ms")
    if quiet is not None and quiet != before:
        print(
            f"    (against the code before issue 36 on a quiet machine, 2.5 x {quiet:.1f} = {2.5 * quiet:.0f} hands/s: "
            f"the 404s {requests['hands_per_s'] / (2.5 * quiet):.2f}x it)"
        )
    floor = requests["hands_per_s"]
    print(
        f"  a 404 (no store) from the same client to the same servers: {floor:.0f} requests/s = {floor / target:.2f}x "
        f"the target" + (f": the target is beyond this machine by {target / floor:.2f}x" if floor < target else "")
    )
    for name, label in (("insert", "the insert function's calls"), ("hand", "a hand's three statements")):
        if f"{name}_per_s" in database:
            rate = database[f"{name}_per_s"]
            print(f"  PostgreSQL alone, {label}: {rate:.0f}/s = {rate / target:.2f}x the target")
    if "hand_cpu_ms" in database:
        least = requests["server_cpu_ms"] + requests["client_cpu_ms"] + database["hand_cpu_ms"]
        print(
            f"  the least CPU a hand can cost here: a 404's at the servers ({requests['server_cpu_ms']:.2f} ms) "
            f"and the client ({requests['client_cpu_ms']:.2f} ms), PostgreSQL's for a hand's statements "
            f"({database['hand_cpu_ms']:.2f} ms) = {least:.2f} ms: two cores give at most {2000 / least:.0f} hands/s "
            f"({2000 / least / target:.2f}x the target) if honba's own work per hand were nothing"
        )
    if this:
        print(
            f"  this tree: {this['hands_per_s']:.0f} hands/s = {this['hands_per_s'] / target:.2f}x the target "
            f"({this['hands_per_s'] / before:.2f}x the before); the machine's CPU per hand "
            f"{this['machine_cpu_ms']:.2f} ms"
        )
    print(
        f"  Little's law: at the target, {tables} tables back to back wait {1000 * tables / target:.0f} ms per hand "
        f"on average; a p95 <= 100 ms needs at least {tables / 0.1:.0f} hands/s (a mean of 100 ms) and a p95 near the "
        f"mean"
    )


def run_steady(server: Any, tree: Path | None, tables: int, count: int, seconds: float) -> dict[str, float]:
    db = server.new_database()
    made = setup(tree, db, tables)
    servers = Servers(tree, db, count)
    try:
        connected = [Table(k, t, servers.ports[n % count]) for n, (k, t) in enumerate(made)]
        _, figures = measured(
            f"{tables} tables, one hand every 1-3 s", servers, connected, lambda s: steady(connected, s, seconds)
        )
        return figures
    finally:
        servers.stop()


# A neighbour: a plain Python busy loop, at normal priority, until it is stopped.
BUSY = "while True:\n    pass\n"


class Neighbours:
    """``count`` CPU-bound processes competing with the servers for the cores, and the CPU they took."""

    def __init__(self, count: int):
        self.processes = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(count)]

    def cpu(self) -> float:
        """The CPU seconds the neighbours used so far."""
        return cpu_of(self.processes)

    def stop(self) -> None:
        for process in self.processes:
            process.kill()
        for process in self.processes:
            process.wait(timeout=30)


def run_neighbours(
    server: Any, tree: Path | None, tables: int, count: int, seconds: float, neighbours: int
) -> dict[str, float]:
    """The ``steady`` tables while ``neighbours`` busy loops run for the scenario's whole length."""
    db = server.new_database()
    made = setup(tree, db, tables)
    servers = Servers(tree, db, count)
    busy = Neighbours(neighbours)
    try:
        connected = [Table(k, t, servers.ports[n % count]) for n, (k, t) in enumerate(made)]
        started, taken, switched = time.perf_counter(), busy.cpu(), servers.switches()
        stats, figures = measured(
            f"{tables} tables, one hand every 1-3 s, beside {neighbours} CPU-bound processes",
            servers,
            connected,
            lambda s: steady(connected, s, seconds),
        )
        share = (busy.cpu() - taken) / (time.perf_counter() - started)
        voluntary, forced = (after - before for after, before in zip(servers.switches(), switched, strict=True))
        hands = max(1, len(stats.latencies))
        slow = sum(1 for latency in stats.latencies if latency > 0.1)
        load = load_average(1)
        print(
            f"    servers' context switches per hand: {voluntary / hands:.1f} waits, {forced / hands:.1f} preempted; "
            f"answers sent again by status: {dict(sorted(stats.again_statuses.items()))}"
        )
        print(
            f"    the neighbours took {share:.2f} cores; hands slower than 100 ms: {slow} of {len(stats.latencies)}"
            f"; load average {load}"
        )
        return figures
    finally:
        busy.stop()
        servers.stop()


def conflicts(output: str) -> int:
    for line in output.splitlines():
        if "conflicts" in line and "stored" in line:
            return int(line.rsplit(",", 1)[1].split()[0])
    return -1


def import_archive(work: Path, count: int) -> Path:
    files = sorted(CORPUS.glob("*.mjlog"))[:count]
    if not files:
        raise SystemExit(f"the corpus {CORPUS} is not here")
    folder = work / "archive"
    if not folder.exists():
        folder.mkdir()
        for file in files:
            shutil.copyfile(file, folder / file.name)
    return folder


def timed_import(tree: Path | None, db: str, archive: Path) -> tuple[float, int, str]:
    started = time.perf_counter()
    run = subprocess.run(honba_command("import", str(archive)), env=tree_env(tree, db), capture_output=True, text=True)
    seconds = time.perf_counter() - started
    return seconds, conflicts(run.stdout), run.stdout.strip().splitlines()[-1] if run.stdout.strip() else run.stderr


def run_import(server: Any, tree: Path | None, archive: Path, tables: int, count: int, seconds: float) -> None:
    alone, refused, said = timed_import(tree, server.new_database(), archive)
    print(f"  import alone: {alone:.1f} s; {said}")
    db = server.new_database()
    made = setup(tree, db, tables)
    servers = Servers(tree, db, count)
    try:
        connected = [Table(k, t, servers.ports[n % count]) for n, (k, t) in enumerate(made)]
        measured(
            f"{tables} tables alone, one hand every 1-3 s", servers, connected, lambda s: steady(connected, s, seconds)
        )
        result: dict[str, Any] = {}

        async def during(stats: Stats) -> None:
            stop = asyncio.Event()

            async def importing() -> None:
                started = time.perf_counter()
                process = await asyncio.create_subprocess_exec(
                    *honba_command("import", str(archive)),
                    env=tree_env(tree, db),
                    stdout=asyncio.subprocess.PIPE,
                    stderr=asyncio.subprocess.PIPE,
                )
                out, err = await process.communicate()
                result["seconds"] = time.perf_counter() - started
                result["out"] = out.decode()
                result["err"] = err.decode()
                stop.set()

            await asyncio.gather(importing(), steady(connected, stats, 3600, stop))

        measured(f"{tables} tables during the import", servers, connected, during)
        with_tables = result["seconds"]
        lines = result["out"].strip().splitlines()
        print(f"  import while {tables} tables record: {with_tables:.1f} s; {lines[-1] if lines else result['err']}")
        print(
            f"  import with tables / alone: {with_tables / alone:.2f}x (target <= 2); games refused: "
            f"{conflicts(result['out'])} (target 0; alone: {refused})"
        )
    finally:
        servers.stop()


CLI_TABLE = """
import subprocess, sys, time
db, key, stop, write = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4] == "write"
command = [sys.executable, "-P", "-c", "from replay.cli import main; main()", "--db", db]
subprocess.run(command + ["start", key, "--players", "Ann,Ben,Cho,Dai"], capture_output=True, check=True)
hands = 0
from pathlib import Path
while not Path(stop).exists():
    if write:
        subprocess.run(command + ["abort", key, "four_winds", "--key", f"{key}-{hands}"], capture_output=True)
    else:
        subprocess.run(command + ["status", key], capture_output=True)
    hands += 1
print(hands)
"""


def sqlite_import_beside(tree: Path | None, archive: Path, work: Path, mode: str) -> tuple[float, int, str, int]:
    """The import into a SQLite store while four command-line tables ``write`` (record) or ``read``
    (ask for their status) in a loop: its time, the games it refused, its line, the commands run."""
    db = str(work / f"tables-{mode}.sqlite")
    stop = work / f"stop-{mode}"
    env = tree_env(tree, db)
    tables = [
        subprocess.Popen(
            [sys.executable, "-P", "-c", CLI_TABLE, db, f"cli-{n}", str(stop), mode], env=env, stdout=subprocess.PIPE
        )
        for n in range(4)
    ]
    time.sleep(2)
    try:
        seconds, refused, said = timed_import(tree, db, archive)
    finally:
        stop.touch()
        commands = sum(int((t.communicate(timeout=120)[0] or b"0").strip() or 0) for t in tables)
    return seconds, refused, said, commands


def run_sqlite_import(tree: Path | None, archive: Path, work: Path) -> None:
    alone, _, said = timed_import(tree, str(work / "alone.sqlite"), archive)
    print(f"  SQLite import alone: {alone:.1f} s; {said}")
    reading, _, _, reads = sqlite_import_beside(tree, archive, work, "read")
    print(
        f"  while four command-line processes only read (honba status in a loop: their CPU, no write): "
        f"{reading:.1f} s, {reading / alone:.2f}x alone ({reads} commands)"
    )
    with_tables, refused, said, hands = sqlite_import_beside(tree, archive, work, "write")
    print(f"  while four tables record through the command line: {with_tables:.1f} s; {said}")
    print(
        f"  with tables / alone: {with_tables / alone:.2f}x (target <= 2); with tables / beside readers: "
        f"{with_tables / reading:.2f}x (the store's part); refused {refused}; hands {hands}"
    )


# Baselines: plain PostgreSQL inserts, and the same with the library's table lock and NOTIFY.


async def plain_inserts(url: str, clients: int, seconds: float, locked: bool) -> float:
    import psycopg

    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS plain_events (originator_id uuid, originator_version bigint, topic text, "
            "state bytea, notification_id bigserial, PRIMARY KEY (originator_id, originator_version))"
        )
    state = b"x" * 300
    done = [0]
    deadline = time.perf_counter() + seconds

    async def one() -> None:
        async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
            stream, version = uuid.uuid4(), 0
            while time.perf_counter() < deadline:
                async with conn.transaction():
                    if locked:
                        await conn.execute("LOCK TABLE plain_events IN EXCLUSIVE MODE")
                        await conn.execute("NOTIFY plain_events")
                    rows = [(stream, version + n, "t", state) for n in (1, 2, 3)]
                    async with conn.cursor() as cursor:
                        await cursor.executemany(
                            "INSERT INTO plain_events (originator_id, originator_version, topic, state) "
                            "VALUES (%s, %s, %s, %s)",
                            rows,
                        )
                version += 3
                done[0] += 1

    started = time.perf_counter()
    await asyncio.gather(*(one() for _ in range(clients)))
    return done[0] / (time.perf_counter() - started)


PGBENCH_TABLE = (
    "CREATE TABLE plain_events (originator_id uuid, originator_version bigint, topic text, state bytea, "
    "notification_id bigserial, PRIMARY KEY (originator_id, originator_version))"
)
PGBENCH_INSERT = (
    "INSERT INTO plain_events (originator_id, originator_version, topic, state) "
    "SELECT u, n, 't', convert_to(repeat('x', 300), 'UTF8') FROM (SELECT gen_random_uuid() AS u) s, "
    "generate_series(1, 3) AS n;"
)


def pgbench(url: str, seconds: float, locked: bool, work: Path) -> float | None:
    """Three-row insert transactions per second from 40 connections, by PostgreSQL's own pgbench
    (a C client: the figure is the database's); None when there is no pgbench."""
    program = pgbench_program()
    if program is None:
        return None
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(PGBENCH_TABLE)
    script = work / ("locked.sql" if locked else "plain.sql")
    lock = "LOCK TABLE plain_events IN EXCLUSIVE MODE;\nNOTIFY plain_events;\n" if locked else ""
    script.write_text(f"BEGIN;\n{lock}{PGBENCH_INSERT}\nCOMMIT;\n")
    run = subprocess.run(
        [str(program), "-n", "-f", str(script), "-c", "40", "-j", "2", "-T", str(int(seconds)), url],
        capture_output=True,
        text=True,
    )
    for line in run.stdout.splitlines():
        if line.startswith("tps = "):
            return float(line.split()[2])
    print(f"  pgbench did not run: {run.stderr.strip()[-300:]}")
    return None


def baselines(server: Any, seconds: float, work: Path) -> None:
    plain = pgbench(server.new_database(), seconds, False, work)
    if plain is None:  # no pgbench: the same from Python (its client then costs as much as the database)
        plain = asyncio.run(plain_inserts(server.new_database(), 40, seconds, locked=False))
        locked = asyncio.run(plain_inserts(server.new_database(), 40, seconds, locked=True))
        client = "an asyncio psycopg client"
    else:
        locked = pgbench(server.new_database(), seconds, True, work) or float("nan")
        client = "pgbench"
    print(f"  plain PostgreSQL, 40 connections ({client}): {plain:.0f} three-row insert transactions/s")
    print(f"  the same with the table lock and NOTIFY in each (the library's insert): {locked:.0f}/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenario", choices=("all", *SCENARIOS), default="all")
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument(
        "--hanchans",
        type=int,
        default=1,
        help="back-to-back: matches each table plays in turn (1, the target's run: 8 hands a table, about half "
        "a second, the servers' start of work included; more: nearer the steady state)",
    )
    parser.add_argument("--sqlite-tables", type=int, default=20, help="tables of sqlite-back-to-back (one server)")
    parser.add_argument("--steady-tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--games", type=int, default=633)
    parser.add_argument("--neighbours", type=int, default=2, help="CPU-bound processes beside the servers")
    parser.add_argument("--also", type=Path, help="also run the scenarios with the honba of this tree")
    parser.add_argument("--no-baselines", action="store_true", help="skip the PostgreSQL baselines (30 s of pgbench)")
    parser.add_argument("--smoke", action="store_true", help="a small, quick run: shows the script works")
    parser.add_argument(
        "--no-floor", action="store_true", help="back-to-back without its floor (a 404's requests/s, PostgreSQL alone)"
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="back-to-back runs of each tree, alternating (medians printed)"
    )
    parser.add_argument(
        "--loop-hand",
        choices=("sync", "async"),
        help="this tree's servers make the JSON API's hand on PostgreSQL on the event loop (benchmarks/async_hand.py's "
        "prototype): sync, with the synchronous driver; async, its waits for the database handed to the loop",
    )
    parser.add_argument("--floor-requests", type=int, default=100, help="404s each table sends for the floor")
    parser.add_argument("--floor-seconds", type=float, default=10, help="each pgbench run of the database's floor")
    parser.add_argument(
        "--before",
        type=float,
        default=433.8,
        help="hands/s of the code before issue 36, the target's base when no --also tree is measured "
        "(433.8: 339df4b, the quiet paired run of docs/performance.md)",
    )
    options = parser.parse_args()
    if options.hanchans < 1:
        parser.error("--hanchans: at least 1")
    if options.smoke:
        options.tables, options.steady_tables, options.seconds, options.games = 8, 20, 8, 60
        options.floor_requests, options.floor_seconds = 10, 3
    print_machine()
    print(f"load average at the start: {load_average()}")
    server = started_postgres()
    if server is None:
        return
    trees: list[tuple[str, Path | None]] = [("this tree", REPO)]
    if options.also is not None:
        trees.append((f"the tree at {options.also}", options.also.resolve()))
    chosen = SCENARIOS if options.scenario == "all" else (options.scenario,)
    work = Path(tempfile.mkdtemp(prefix="honba-serve-load-"))
    if options.loop_hand is not None:
        from async_hand import LOOP_HAND

        site = work / "loop-hand"
        site.mkdir()
        mode = f"import os\nos.environ['HONBA_BENCH_LOOP_HAND'] = {options.loop_hand!r}\n"
        (site / "sitecustomize.py").write_text(mode + LOOP_HAND)
        SERVER_SITES[REPO] = site
        trees[0] = (f"this tree, the hand on the loop ({options.loop_hand})", REPO)
    try:
        if not options.no_baselines:
            print("Baselines (PostgreSQL alone):")
            baselines(server, 5 if options.smoke else 15, work)
        archive = import_archive(work, options.games) if {"import", "sqlite-import"} & set(chosen) else None
        for scenario in chosen:
            runs: dict[str, list[dict[str, float]]] = {label: [] for label, _tree in trees}
            rounds = options.repeat if scenario in ("back-to-back", "sqlite-back-to-back") else 1
            for turn, (label, tree) in ((t, pair) for t in range(rounds) for pair in trees):
                print(f"{scenario}, {label}" + (f" (run {turn + 1} of {rounds}):" if rounds > 1 else ":"))
                if scenario == "back-to-back":
                    runs[label].append(
                        run_back_to_back(server, tree, options.tables, options.servers, options.hanchans)
                    )
                elif scenario == "sqlite-back-to-back":
                    runs[label].append(run_sqlite_back_to_back(tree, options.sqlite_tables, work))
                elif scenario == "steady":
                    run_steady(server, tree, options.steady_tables, options.servers, options.seconds)
                elif scenario == "neighbours":
                    run_neighbours(
                        server, tree, options.steady_tables, options.servers, options.seconds, options.neighbours
                    )
                elif scenario == "import":
                    assert archive is not None
                    run_import(server, tree, archive, options.tables, options.servers, options.seconds)
                else:
                    assert archive is not None
                    run_sqlite_import(tree, archive, Path(tempfile.mkdtemp(dir=work)))
            if scenario == "sqlite-back-to-back":
                for label, _tree in trees:
                    medians(label, runs[label])
            if scenario != "back-to-back":
                continue
            rates = [medians(label, runs[label]) for label, _tree in trees]
            if not options.no_floor:
                print("back-to-back, the floor (this tree's servers and the same client; PostgreSQL alone):")
                requests = run_floor_requests(server, options.tables, options.servers, options.floor_requests)
                database = run_floor_database(server, options.floor_seconds, work, options.tables, rates[0])
                before, said = options.before, "the code before issue 36, measured before"
                if len(rates) > 1:
                    before, said = rates[1]["hands_per_s"], f"the tree at {options.also}, this run"
                show_floor(before, said, rates[0], requests, database, options.tables, options.before)
        print(f"load average at the end: {load_average()}")
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
