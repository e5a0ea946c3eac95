"""A table's hand on PostgreSQL in one round trip or two, side by side in one process (not a test; issue 36,
nineteenth round).

    python -P benchmarks/one_trip.py [--hands 300] [--pairs 5] [--tables 1]

The JSON API's step for a hand (the token checked, an abortive draw recorded) on ``--tables`` matches
of one store, one hand at a table after the other, in blocks of ``--hands``, the two ways alternating
``--pairs`` times: as ``HonbaApp.reading_ahead`` makes it (the token's row and the tails read in one
statement, then the insert: two round trips), and as ``HonbaApp.one_trip`` does (the insert alone,
checking what the read would have). Printed per hand: the client's CPU (this process, user and
system), the PostgreSQL server's (every process of it, from each one's CPU-time clock), the
statements sent, and the pair-by-pair differences. A throwaway server (``tests/pg_server.py``).
Compile the tree first (``python -m compileall -q domain projections replay``).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

# This tree's honba first (``python -P``: the working directory is not on the path), its tests' server helper after.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.append(str(Path(__file__).resolve().parent))
sys.path.append(str(Path(__file__).resolve().parent.parent / "tests"))

from machine import load_average, print_machine

_LIBC = ctypes.CDLL(None, use_errno=True)


class _Timespec(ctypes.Structure):
    _fields_ = [("seconds", ctypes.c_long), ("nanoseconds", ctypes.c_long)]


def cpu_of(pid: int) -> float:
    """The CPU seconds the process ``pid`` used so far (its CPU-time clock; 0 once it is gone)."""
    clock = ctypes.c_int()
    held = _Timespec()
    if _LIBC.clock_getcpuclockid(pid, ctypes.byref(clock)) != 0:
        return 0.0
    if _LIBC.clock_gettime(clock.value, ctypes.byref(held)) != 0:
        return 0.0
    return held.seconds + held.nanoseconds / 1e9


def postgres_cpu(data: Path) -> float:
    """The CPU seconds of the PostgreSQL server's postmaster and every process it started that is alive."""
    root = int((data / "postmaster.pid").read_text().split()[0])
    total = cpu_of(root)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            if parent == root:
                total += cpu_of(int(entry.name))
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--tables", type=int, default=1)
    args = parser.parse_args()
    print_machine()

    from pg_server import PostgresServer

    from domain.rules import load_preset
    from domain.values import AbortiveDraw
    from replay.service.common.access import TokenStore
    from replay.service.common.opening import ready_to_serve
    from replay.service.recording import recording
    from replay.store.application import HonbaApp

    server = PostgresServer()
    server.start()
    try:
        app = HonbaApp.open(server.new_database())
        tokens = TokenStore(app)
        tables = []
        for n in range(args.tables):
            key = f"trip-{n}"
            recording.start_match(app, key, ["Ann", "Ben", "Cho", "Dai"], load_preset("tenhou"))
            tables.append((key, tokens.create("table", key)))
        ready_to_serve(app)
        recorder: Any = app.recorder
        sent = {"n": 0}
        for name in ("select_tails", "select_tails_and_token", "insert_events", "insert_checked"):
            method = getattr(recorder, name)

            def counted(*a: Any, _method: Any = method, **k: Any) -> Any:
                sent["n"] += 1
                return _method(*a, **k)

            setattr(recorder, name, counted)
        abort = AbortiveDraw("four_winds")

        def hand(key: str, token: str) -> None:
            grant = tokens.check(token)
            assert grant is not None and grant.may_record(key)
            recording.record(app, key, abort)

        def block(way: str) -> tuple[float, float, float]:
            sent["n"] = 0
            pg, me = postgres_cpu(server.data), time.process_time()
            for _ in range(args.hands):
                for key, token in tables:
                    if way == "two":
                        with app.reading_ahead(key):
                            hand(key, token)
                    else:
                        app.one_trip(key, lambda key=key, token=token: hand(key, token))
            count = args.hands * len(tables)
            me, pg = time.process_time() - me, postgres_cpu(server.data) - pg
            return 1000 * me / count, 1000 * pg / count, sent["n"] / count

        for way in ("two", "one"):  # a warm-up of each (the prepares, the first reads, the caches)
            block(way)
        figures: dict[str, list[tuple[float, float, float]]] = {"two": [], "one": []}
        for _pair in range(args.pairs):
            for way in ("two", "one"):
                figures[way].append(block(way))
        for way, label in (("two", "two round trips (reading_ahead)"), ("one", "one round trip (one_trip)")):
            client = statistics.median(f[0] for f in figures[way])
            pg = statistics.median(f[1] for f in figures[way])
            print(
                f"{label:34} client {client:.3f} ms, PostgreSQL {pg:.3f} ms a hand "
                f"({', '.join(f'{f[0]:.3f}/{f[1]:.3f}' for f in figures[way])}); "
                f"{figures[way][0][2]:.2f} statements a hand"
            )
        saved = [(t[0] - o[0], t[1] - o[1]) for t, o in zip(figures["two"], figures["one"], strict=True)]
        print(
            "saved a hand, pair by pair: client "
            + ", ".join(f"{s[0]:.3f}" for s in saved)
            + " ms; PostgreSQL "
            + ", ".join(f"{s[1]:.3f}" for s in saved)
            + " ms"
        )
        print(f"load average now: {load_average()} (pid {os.getpid()})")
        app.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
