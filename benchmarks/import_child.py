"""One import of a folder into a fresh SQLite store, timed as ``honba import`` pays for it: run by
``import_store.py`` as a process of its own, it prints one JSON line (the CPU of this process and of
its reading workers, the wall time, the games stored).

    python -P benchmarks/import_child.py DB FOLDER JOBS [no]   (the tree to measure first on PYTHONPATH;
                                                                no: the reading workers alone, ``import_pool``)

Why a process of its own (issue 36, thirteenth round): each reading worker runs the program's main
script again as it starts (``multiprocessing``'s ``__mp_main__``: Python 3.11's fork server cannot
load it once for all of them). Run in ``import_store.py``'s own process, every worker ran that
script's imports again (argparse, statistics, ``machine``'s ``importlib.metadata``): 42 to 46 ms of
CPU each, against 7 ms for the ``honba`` command's script, about 0.08 CPU s that ``honba import``
never pays. This script imports nothing at its top but the standard library's ``json``, ``os``,
``sys``, ``time`` and ``pathlib``, so a worker running it again costs less than the command's. The clock
starts after its imports and after the fork server started (once per process, before the clock, as
before); it stops when ``import_paths`` returns, before the pool stops: the same stretch as before.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any


def worker_cpu(pool: Any) -> float:
    """The CPU seconds (user and system) the reading workers of a pool have used so far (Linux's
    ``/proc``; 0 without workers)."""
    started = getattr(pool, "_pool", None)
    if started is None:
        return 0.0
    ticks = 0
    for pid in list(getattr(started, "_processes", {})):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return ticks / os.sysconf("SC_CLK_TCK")


def import_pool(reading_pool: Any, jobs: int, reads_here: str = "auto") -> Any:
    """The pool ``honba import`` opens for ``jobs`` reading processes: where the tree's ``reading_pool``
    takes ``reads_here`` (issue 36, twenty-first round: the storing process reads too, with one worker
    fewer), with it, as the command passes it, unless ``reads_here`` is "no" (that tree's workers alone,
    to compare); a tree before it, its workers alone."""
    import inspect

    if reads_here != "no" and "reads_here" in inspect.signature(reading_pool).parameters:
        return reading_pool(jobs, 1000, on_demand=True, reads_here=True)
    return reading_pool(jobs, 1000, on_demand=True)


def main() -> None:
    db, folder, jobs = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3])
    # Imported here, not at the top: a reading worker runs this file again (``__mp_main__``), and
    # must not import them a second time (the fork server has them already).
    from replay.service.imports.batch import import_paths, reading_pool
    from replay.store.application import HonbaApp

    with reading_pool(jobs, 1000):
        pass  # the fork server the workers come from, started once per process, before the clock
    app = HonbaApp.open(db)
    try:
        with import_pool(reading_pool, jobs, sys.argv[4] if len(sys.argv) > 4 else "auto") as pool:
            cpu, start = time.process_time(), time.perf_counter()
            run = import_paths(app, [folder], pool=pool)
            seconds = time.perf_counter() - start
            storing = time.process_time() - cpu
            workers = worker_cpu(pool)
    finally:
        app.close()
    figures = {"storing": storing, "workers": workers, "cpu": storing + workers, "wall": seconds}
    print(json.dumps({**figures, "stored": run.stored, "unreadable": len(run.unreadable)}))


if __name__ == "__main__":
    main()
