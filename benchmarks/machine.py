"""What the benchmarks share: the machine they ran on, timing, memory and the logs they read."""

from __future__ import annotations

import os
import platform
import re
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
import tracemalloc
import xml.etree.ElementTree as ET  # the plain baseline a user would reach for
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib.metadata import version
from pathlib import Path
from typing import Any, TypeVar

REPO = Path(__file__).resolve().parent.parent
CORPUS = REPO.parent / "shared" / "corpus" / "tenhou-wire-2018"
T = TypeVar("T")

# The tests' PostgreSQL server (initdb/pg_ctl in a temporary directory) serves the benchmarks too.
sys.path.insert(0, str(REPO / "tests"))


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def postgres_version() -> str:
    """The version of the PostgreSQL server programs the benchmarks would start, or why none."""
    from pg_server import ServerUnavailable, find_bin_dir

    try:
        done = subprocess.run(
            [str(find_bin_dir() / "pg_ctl"), "--version"], capture_output=True, text=True, check=False, timeout=30
        )
    except (ServerUnavailable, OSError) as exc:
        return f"none ({exc})"
    return done.stdout.strip() or done.stderr.strip()


def load_average(digits: int = 2, separator: str = " ") -> str:
    """The machine's load average (1, 5 and 15 minutes), as the benchmarks print it beside a figure."""
    return separator.join(f"{value:.{digits}f}" for value in os.getloadavg())


def print_machine() -> None:
    """The machine, in the lines docs/performance.md quotes."""
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 1
    print(f"machine: {cpu_model()}, {os.cpu_count()} cores ({usable} usable), {platform.system()} {platform.release()}")
    print(
        f"python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, {postgres_version()}, "
        f"eventsourcing {version('eventsourcing')}, psycopg {version('psycopg')}"
    )


def corpus_files() -> list[Path]:
    """The real Tenhou logs the benchmarks read (exits saying why when they are not here)."""
    files = sorted(CORPUS.glob("*.mjlog"))
    if not files:
        raise SystemExit(f"the shared corpus is not at {CORPUS}: the benchmarks read its Tenhou logs")
    return files


def timed(action: Callable[[], T], repeat: int = 1) -> tuple[float, T]:
    """The best wall time of ``repeat`` runs, and what the last run gave."""
    best = float("inf")
    result: Any = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = action()
        best = min(best, time.perf_counter() - start)
    return best, result


@contextmanager
def peak_python_memory() -> Iterator[list[int]]:
    """The peak of memory Python allocated in the block (tracemalloc), in bytes, put in the list."""
    found: list[int] = []
    tracemalloc.start()
    tracemalloc.reset_peak()
    try:
        yield found
    finally:
        found.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()


def max_rss_mib() -> float:
    """The peak resident size of this process so far (getrusage), in MiB."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def mib(size: float) -> str:
    return f"{size / (1024 * 1024):.1f} MiB"


def verdict(met: bool) -> str:
    return "target met" if met else "TARGET NOT MET"


def plain_parse(files: list[Path]) -> int:
    """Read and parse every file with ElementTree, visiting every element: the elements seen
    (the plain baseline of the verify and import benchmarks)."""
    seen = 0
    for path in files:
        for element in ET.fromstring(path.read_bytes()).iter():
            seen += len(element.attrib) >= 0
    return seen


def started_postgres(indent: str = "") -> Any:
    """A throwaway PostgreSQL server started like the tests' (``tests/pg_server.py``), or None when
    none can be started here, said on one line (the benchmark's PostgreSQL part is then skipped)."""
    from pg_server import PostgresServer, ServerUnavailable

    server = PostgresServer()
    try:
        server.start()
    except ServerUnavailable as exc:
        print(f"{indent}skipped: no PostgreSQL server could be started: {exc}")
        server.stop()
        return None
    return server


def counted_instructions(tree: Path, arguments: list[str], what: str) -> int:
    """The instructions (``Ir``, valgrind's cachegrind, no cache simulation) of ``python -P -c
    ARGUMENTS`` with ``tree``'s honba first on the path and ``PYTHONHASHSEED=0`` (the same count from
    run to run, whatever the machine's load); ``what`` names the process in an error."""
    with tempfile.TemporaryDirectory() as work:
        out = Path(work) / "cachegrind.out"
        env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
        command = ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out}"]
        run = subprocess.run(
            [*command, sys.executable, "-P", "-c", *arguments], env=env, capture_output=True, text=True
        )
        if run.returncode != 0:
            raise SystemExit(f"{what} failed: {run.stderr[-2000:]}")
        found = re.search(r"^summary:\s+(\d+)", out.read_text(), re.MULTILINE)
        if found is None:
            raise SystemExit("no summary in cachegrind's output")
        return int(found.group(1))
