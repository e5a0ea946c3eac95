"""The instructions of an import's reading worker's job: ``read_for_import`` of the corpus's first Tenhou logs.

    python -P benchmarks/worker_instructions.py [--logs 150] [--also TREE]

Each count is one process under ``valgrind --tool=cachegrind --cache-sim=no`` with ``PYTHONHASHSEED=0``
(the load does not change it): the readers imported as a worker has them (``preload``), one log read
first (caches and first uses), then the logs read, built and encoded with the standings view's
documents, the cycle collector paused as the import pauses it. The same process with no log after the
first is counted too and taken off: the figure is the job's alone. ``--also TREE``: the same for another
checkout (a copy of main, its bytecode compiled), and the ratio. Used for issue 36's fifteenth round.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

# ``python -P`` leaves this script's folder off the path: its helpers are found there all the same.
sys.path.append(str(Path(__file__).resolve().parent))

from machine import CORPUS, REPO

JOB = """
import sys
from pathlib import Path
from replay.service.imports.batch import read_for_import
import replay.service.imports.preload  # noqa: F401  (what a reading worker has loaded)
every = sorted(Path(sys.argv[1]).glob("*.mjlog"))
read_for_import(every[0], "auto", {})
for path in every[: int(sys.argv[2])]:
    read_for_import(path, "auto", {})
"""
VALGRIND = ("valgrind", "--tool=cachegrind", "--cache-sim=no")


def instructions(tree: Path, logs: int) -> int:
    """The instructions (``Ir``) of one process reading ``logs`` logs with ``tree``'s honba."""
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "cachegrind.out"
        env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
        folder = str(CORPUS)
        command = [*VALGRIND, f"--cachegrind-out-file={out}", sys.executable, "-P", "-c", JOB, folder, str(logs)]
        run = subprocess.run(command, env=env, capture_output=True, text=True)
        if run.returncode != 0:
            raise SystemExit(f"the job failed: {run.stderr[-2000:]}")
        found = re.search(r"^summary:\s+(\d+)", out.read_text(), re.MULTILINE)
        if found is None:
            raise SystemExit("no summary in cachegrind's output")
        return int(found.group(1))


def job(tree: Path, logs: int) -> int:
    """The job's own instructions: ``logs`` logs, less the same process with none after the first."""
    return instructions(tree, logs) - instructions(tree, 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", type=int, default=150, help="how many of the corpus's Tenhou logs")
    parser.add_argument("--also", type=Path, help="another checkout to count, and the ratio to it")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        raise SystemExit(f"the shared corpus is not at {CORPUS}")
    mine = job(REPO, args.logs)
    print(f"{REPO}: {mine / 1e6:,.1f} M instructions for {args.logs} logs")
    if args.also is not None:
        other = job(args.also.resolve(), args.logs)
        print(f"{args.also}: {other / 1e6:,.1f} M instructions")
        print(f"this tree / {args.also}: {mine / other:.4f}")


if __name__ == "__main__":
    main()
