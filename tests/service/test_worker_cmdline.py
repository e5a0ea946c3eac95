"""The import's worker processes do not carry the store's password (issue 11, case 6).

The workers read files; they are forked from a fork server, so their command lines in the
process list are not the ``honba --db postgresql://user:password@...`` that started them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = """
import os
from pathlib import Path
from replay.service.imports.batch import reading_pool

with reading_pool(2, 100) as pool:
    assert pool is not None
    parents = {}
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                parents[int(proc.name)] = int((proc / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = set(), {os.getpid()}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    for pid in sorted(found):
        try:
            print(pid, Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\\0", b" ").decode(errors="replace"))
        except OSError:
            pass
"""


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs /proc (Linux)")
def test_the_import_workers_command_lines_hold_no_password() -> None:
    secret = "postgresql://club:s3cr3t-pw@db.example/honba"
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, "--db", secret], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) >= 2, "no worker process found"  # the fork server and its workers
    assert all("s3cr3t" not in line for line in lines), lines
