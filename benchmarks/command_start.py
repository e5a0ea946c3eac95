"""How long one recording command takes, start to finish, against Python starting typer and rich.

    python benchmarks/command_start.py [--repeat N]

Runs ``honba win KEY 0:1/30`` (the dealer's self-drawn win, a new match every ten wins) N
times (20 by default) with honba's bytecode cached, as an installed honba runs, and N times
as the environment is (where PYTHONDONTWRITEBYTECODE is set, an editable install compiles
honba's source on every run), on a SQLite store in a temporary directory, interleaved with the same
number of runs of the baseline ``python -c "import typer, rich"``: the floor any command built
on typer and rich pays. Interleaved with both, as many runs of the *floor*: Python importing
the libraries a recording command cannot do without (``FLOOR_MODULES``: typer, rich's console
and tables, the library's application and SQLite recorder, attrs, sqlite3), before any honba
code runs. Prints the median wall time of each, the command's ratio to the baseline (the
target: at most 2x), the floor's ratio to the baseline (what the target leaves to honba) and
the command's ratio to the floor (what honba adds). ``python -X importtime -c "import
replay.cli; ..."`` shows where the rest goes. Two plainer baselines run interleaved too: Python
doing nothing (``python -c pass``) and Python opening a SQLite file and selecting from it
(``PLAIN_SQLITE``), the least any command on a SQLite store could cost.

Then the same command in this process, as the tests run it (typer's ``CliRunner``), CPU time per
call (medians; the load of a shared machine moves CPU time less than wall time): with the whole app
(every command's click command built on each call: how the tests' helper ran it before) and with the
app the console script builds for the line (``replay.cli.app_for``: the helper now), each against a
plain sqlite3 open, select and close of the same store in this process, and the two against each other.
``--in-process-only`` runs that part alone (seconds).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# ``python -P`` leaves this script's folder off the path: its helpers are found there all the same,
# after every tree on the path.
sys.path.append(str(Path(__file__).resolve().parent))

from machine import print_machine, verdict

HONBA = shutil.which("honba") or ""
# Without the console script, ``-P``: ``-c`` alone puts the working directory first on the path,
# so that ``--also TREE`` run from a checkout would time that checkout's code, not the tree's.
COMMAND = [HONBA] if HONBA else [sys.executable, "-P", "-c", "from replay.cli import main; main()"]
BASELINE = [sys.executable, "-c", "import typer, rich"]
NOTHING = [sys.executable, "-c", "pass"]
# The least a command on a SQLite store does: open the file, read from it, close it.
PLAIN_SQLITE_CODE = (
    "import os, sqlite3; c = sqlite3.connect(os.environ['HONBA_DB']); "
    "c.execute('SELECT count(*) FROM sqlite_master').fetchall(); c.close()"
)
PLAIN_SQLITE = [sys.executable, "-c", PLAIN_SQLITE_CODE]
# What ``honba win`` on a SQLite store loads and cannot do without: the command line (typer), the
# printed table (rich's console and tables), the event store (the library's application and its
# SQLite recorder, which the store's settings name), the value classes (attrs) and sqlite3.
FLOOR_MODULES = (
    "typer",
    "rich.console",
    "rich.table",
    "eventsourcing.application",
    "eventsourcing.sqlite",
    "attrs",
    "sqlite3",
)
FLOOR = [sys.executable, "-c", f"import {', '.join(FLOOR_MODULES)}"]
TARGET = 2.0


def run(args: list[str], env: dict[str, str]) -> float:
    """The wall time of one run (it must succeed)."""
    began = time.perf_counter()
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - began


def cpu_per_call(action: Callable[[], object]) -> float:
    """The CPU time of one call of ``action`` in this process."""
    began = time.process_time()
    action()
    return time.process_time() - began


def in_process(repeat: int) -> None:
    """``honba win`` run in this process through typer's runner, with the whole app and with the app for
    the line, against a plain sqlite3 open, select and close: CPU time per call, medians."""
    from typer.testing import CliRunner

    from replay.cli import app, app_for

    runner = CliRunner()
    with tempfile.TemporaryDirectory(prefix="honba-bench-") as scratch:
        db = str(Path(scratch) / "in-process.sqlite")
        keys = iter(range(10**6))

        def win_on_new_match(whole: bool) -> Callable[[], object]:
            # A new match for each win (untimed), so that every call records the same hand.
            key = f"m{next(keys)}"
            start = ["--db", db, "start", key, "--players", "A,B,C,D"]
            assert runner.invoke(app_for(start), start).exit_code == 0
            win = ["--db", db, "win", key, "0:1/30"]

            def call() -> object:
                done = runner.invoke(app if whole else app_for(win), win)
                assert done.exit_code == 0, done.output
                return done

            return call

        def plain() -> object:
            connection = sqlite3.connect(db)
            rows = connection.execute("SELECT count(*) FROM sqlite_master").fetchall()
            connection.close()
            return rows

        for whole in (True, False):  # once each first: imports, the first build of each command
            cpu_per_call(win_on_new_match(whole))
        whole_app, one_command, baseline = [], [], []
        for _ in range(repeat):
            baseline.append(cpu_per_call(plain))
            whole_app.append(cpu_per_call(win_on_new_match(True)))
            one_command.append(cpu_per_call(win_on_new_match(False)))
    base = statistics.median(baseline)
    before, after = statistics.median(whole_app), statistics.median(one_command)
    print(f"in this process (typer's CliRunner), CPU per call, medians of {repeat}:")
    print(f"baseline  sqlite3 open, select, close:        {base * 1000:7.2f} ms")
    print(f"honba win, the whole app built per call:      {before * 1000:7.2f} ms  {before / base:6.1f}x the baseline")
    print(f"honba win, the app for the line (app_for):    {after * 1000:7.2f} ms  {after / base:6.1f}x the baseline")
    print(f"the app for the line / the whole app:         {after / before:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=20, help="runs of each")
    parser.add_argument("--in-process-only", action="store_true", help="only the in-process part (seconds)")
    parser.add_argument(
        "--also",
        type=Path,
        help="also time the command with another source tree of honba first on PYTHONPATH "
        "(e.g. `git archive` of an earlier commit, unpacked): before and after, side by side",
    )
    args = parser.parse_args()
    repeat = args.repeat
    print_machine()
    if args.in_process_only:
        in_process(repeat)
        return
    with tempfile.TemporaryDirectory(prefix="honba-bench-") as scratch:
        env = {**os.environ, "HONBA_DB": str(Path(scratch) / "bench.sqlite"), "COLUMNS": "100"}
        env.pop("PERSISTENCE_MODULE", None)
        # The libraries run from the bytecode pip compiled when it installed them; honba, installed
        # in place (pip install -e), has none unless Python may write it, which PYTHONDONTWRITEBYTECODE
        # forbids. So the command runs both ways: as the environment is, and with its bytecode
        # written once (untimed) to a cache of the benchmark's own, as an installed honba has it.
        compiled = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
        compiled["PYTHONPYCACHEPREFIX"] = str(Path(scratch) / "pycache")
        # One run of each first, so that none pays for a cold disk cache (or writes its bytecode timed).
        run(BASELINE, env)
        run(FLOOR, env)
        run(NOTHING, env)
        run(PLAIN_SQLITE, env)
        run([*COMMAND, "start", "warm-up", "--players", "A,B,C,D"], compiled)
        run([*COMMAND, "win", "warm-up", "0:1/30"], compiled)
        other: dict[str, dict[str, str]] = {}
        if args.also is not None:
            tree = str(args.also.resolve())
            # A store of its own: the two trees may store their events under different topics.
            own = {"PYTHONPATH": tree, "HONBA_DB": str(Path(scratch) / "other.sqlite")}
            other = {"compiled": {**compiled, **own}, "as is": {**env, **own}}
            run([*COMMAND, "start", "warm-up", "--players", "A,B,C,D"], other["compiled"])
            run([*COMMAND, "win", "warm-up", "0:1/30"], other["compiled"])
        command, as_is, baseline, floor, nothing, plain = [], [], [], [], [], []
        earlier: dict[str, list[float]] = {name: [] for name in other}
        # A new match (untimed) before ten wins: the counters would make a loser bust.
        rounds = 10 // (2 + len(other))
        for i in range(repeat):
            key = f"bench-{i // rounds}"
            if i % rounds == 0:
                start = [*COMMAND, "start", key, "--players", "A,B,C,D"]
                for settings in [env] + ([other["compiled"]] if other else []):  # each tree's own store
                    subprocess.run(start, env=settings, check=True, stdout=subprocess.DEVNULL)
            baseline.append(run(BASELINE, env))
            floor.append(run(FLOOR, env))
            nothing.append(run(NOTHING, env))
            plain.append(run(PLAIN_SQLITE, env))
            command.append(run([*COMMAND, "win", key, "0:1/30"], compiled))
            as_is.append(run([*COMMAND, "win", key, "0:1/30"], env))
            for name, settings in other.items():
                earlier[name].append(run([*COMMAND, "win", key, "0:1/30"], settings))
    base, least = statistics.median(baseline), statistics.median(floor)
    honba, uncompiled = statistics.median(command), statistics.median(as_is)
    ratio = honba / base
    dont_write = os.environ.get("PYTHONDONTWRITEBYTECODE", "")
    print(f"runs: {repeat} of each, interleaved; medians; floor: python -c 'import {', '.join(FLOOR_MODULES)}'")
    print(f"baseline  python -c 'import typer, rich':    {base * 1000:7.1f} ms")
    print(f"floor     the libraries, imported:            {least * 1000:7.1f} ms")
    print(f"command   honba win (SQLite store):           {honba * 1000:7.1f} ms  (honba's bytecode cached)")
    how = "honba's source compiled every run" if dont_write else "bytecode as Python wrote it"
    print(
        f"command   honba win, the environment as is:   {uncompiled * 1000:7.1f} ms"
        f"  (PYTHONDONTWRITEBYTECODE={dont_write!r}: {how})"
    )
    print(f"floor / baseline:   {least / base:.2f}x (what the libraries alone cost against the target's baseline)")
    print(f"command / floor:    {honba / least:.2f}x (what honba adds on top of the libraries)")
    print(f"command / baseline: {ratio:.2f}x (target at most {TARGET:.0f}x) {verdict(ratio <= TARGET)}")
    as_is_ratio = uncompiled / base
    print(f"the environment as is / baseline: {as_is_ratio:.2f}x {verdict(as_is_ratio <= TARGET)}")
    empty, sqlite_only = statistics.median(nothing), statistics.median(plain)
    print(f"python -c pass:                               {empty * 1000:7.1f} ms")
    print(f"python, sqlite3 open, select, close:          {sqlite_only * 1000:7.1f} ms")
    print(f"command / python -c pass:                     {honba / empty:.2f}x")
    print(f"command / the plain sqlite3 process:          {honba / sqlite_only:.2f}x")
    for name, times in earlier.items():
        then = statistics.median(times)
        print(
            f"the other tree ({args.also}), {name}: {then * 1000:7.1f} ms, {then / base:.2f}x the baseline; "
            f"this tree / that one: {(honba if name == 'compiled' else uncompiled) / then:.2f}"
        )
    print()
    in_process(repeat)


if __name__ == "__main__":
    main()
