"""How long one recording command takes, start to finish, against Python starting typer and rich.

    python benchmarks/command_start.py [--repeat N]

Runs ``honba win KEY 0:1/30`` (the dealer's self-drawn win, a new match every ten) N
times (20 by default) on a SQLite store in a temporary directory, interleaved with the same
number of runs of the baseline ``python -c "import typer, rich"``: the floor any command built
on typer and rich pays. Prints the median wall time of each and their ratio. Target: the
command within 2x the baseline. ``python -X importtime -c "import replay.cli; ..."`` shows where
the rest goes.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from machine import print_machine, verdict

HONBA = shutil.which("honba") or ""
COMMAND = [HONBA] if HONBA else [sys.executable, "-c", "from replay.cli import main; main()"]
BASELINE = [sys.executable, "-c", "import typer, rich"]
TARGET = 2.0


def run(args: list[str], env: dict[str, str]) -> float:
    """The wall time of one run (it must succeed)."""
    began = time.perf_counter()
    subprocess.run(args, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=20, help="runs of each")
    args = parser.parse_args()
    repeat = args.repeat
    print_machine()
    with tempfile.TemporaryDirectory(prefix="honba-bench-") as scratch:
        env = {**os.environ, "HONBA_DB": str(Path(scratch) / "bench.sqlite"), "COLUMNS": "100"}
        env.pop("PERSISTENCE_MODULE", None)
        # One run of the baseline first, so that neither pays for a cold disk cache.
        run(BASELINE, env)
        command, baseline = [], []
        for i in range(repeat):
            key = f"bench-{i // 10}"
            if i % 10 == 0:
                # A new match every ten wins (untimed): the counters would make a loser bust.
                start = [*COMMAND, "start", key, "--players", "A,B,C,D"]
                subprocess.run(start, env=env, check=True, stdout=subprocess.DEVNULL)
            baseline.append(run(BASELINE, env))
            command.append(run([*COMMAND, "win", key, "0:1/30"], env))
    base, honba = statistics.median(baseline), statistics.median(command)
    ratio = honba / base
    print(f"runs: {repeat} of each, interleaved; medians")
    print(f"baseline  python -c 'import typer, rich': {base * 1000:7.1f} ms")
    print(f"command   honba win (SQLite store):        {honba * 1000:7.1f} ms")
    print(f"ratio: {ratio:.2f}x the baseline (target at most {TARGET:.0f}x) {verdict(ratio <= TARGET)}")


if __name__ == "__main__":
    main()
