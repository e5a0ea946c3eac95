"""The test modules' rewritten bytecode written once, before the test processes start.

pytest rewrites the ``assert`` statements of every test module it imports, and keeps the result as a
pyc of its own (``__pycache__/<module>.<tag>-pytest-<version>.pyc``) that it reads on the next import,
unless ``PYTHONDONTWRITEBYTECODE`` is set, as on this project's machines and in CI. Then nothing is kept,
and each test process (``pytest -n 2``: two) rewrites the whole suite's ~190 modules on every run before
its first test: about 7 s of CPU each, most of what a process's collection costs. pytest still READS
such a pyc when one exists and its source hash matches, so the controller writes the stale ones here,
on the cores it has, and every process after it finds them.

This reaches into pytest's private module (``_pytest.assertion.rewrite``): every failure here, an import
or a name gone after an upgrade or a file that cannot be written, leaves the rewriting to pytest as it
was (``ahead`` returns 0), never fails the run. The pyc's name carries pytest's version, so a pyc of
another version is never read.
"""

from __future__ import annotations

import fnmatch
import os
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

# Fewer stale modules than this are rewritten in the controller itself: starting processes costs more.
FORKED_FROM = 16


def _pytest_rewriter() -> tuple[Callable[[Path], Path], Callable[[Path, Path], bool], Callable[..., Any]] | None:
    """pytest's own pieces (where its pyc is, whether it is fresh, rewrite and write one), or None."""
    try:
        from _pytest.assertion import rewrite

        tail: str = rewrite.PYC_TAIL
        cache_dir = rewrite.get_cache_dir
        read_pyc = rewrite._read_pyc
        rewrite_test = rewrite._rewrite_test
        write_pyc = rewrite._write_pyc
        state_key = rewrite.assertstate_key
    except (ImportError, AttributeError):
        return None

    def pyc_of(source: Path) -> Path:
        return Path(cache_dir(source)) / (source.name[:-3] + tail)

    def fresh(source: Path, pyc: Path) -> bool:
        return read_pyc(source, pyc) is not None

    def written(config: Any, source: Path, pyc: Path) -> None:
        source_hash, code = rewrite_test(source, config)
        pyc.parent.mkdir(exist_ok=True)
        write_pyc(config.stash[state_key], code, source_hash, pyc)

    return pyc_of, fresh, written


def rewritten_modules(config: Any, tests: Path) -> list[Path]:
    """The modules pytest will rewrite for this run in ``tests``: those its ``python_files`` patterns
    name, and conftest, in the folders and files the command line names (``pytest tests/unit/test_x.py``
    needs that module's alone; plain ``pytest``, the whole suite's)."""
    patterns = [*config.getini("python_files"), "conftest.py"]
    here = Path(config.invocation_params.dir)
    found: set[Path] = set()
    for arg in config.args:
        named = (here / str(arg).split("::")[0]).resolve()
        if named.is_dir():
            found.update(named.rglob("*.py"))
        elif named.is_file():
            found.add(named)
    found.add(tests / "conftest.py")
    return sorted(
        p for p in found if p.is_relative_to(tests) and any(fnmatch.fnmatch(p.name, pattern) for pattern in patterns)
    )


def ahead(config: Any, sources: Sequence[Path], processes: int) -> int:
    """Write the rewritten pyc of each of ``sources`` whose pyc is missing or stale, across
    ``processes`` forked processes; the number written (0 when pytest's pieces are not there, or
    the assertions are not rewritten: ``--assert=plain``)."""
    pieces = _pytest_rewriter()
    if pieces is None or getattr(config.option, "assertmode", None) != "rewrite":
        return 0
    pyc_of, fresh, written = pieces
    try:
        stale = [(source, pyc_of(source)) for source in sources]
        stale = [(source, pyc) for source, pyc in stale if not fresh(source, pyc)]
    except Exception:  # pytest's pieces changed their ways: pytest rewrites as it did
        return 0

    def write(share: Sequence[tuple[Path, Path]]) -> None:
        for source, pyc in share:
            try:
                written(config, source, pyc)
            except Exception:  # a file that does not parse, a folder that cannot be written: pytest says it
                continue

    # A process with threads is not forked (a child could wait forever on a lock another thread held):
    # the controller has none yet when the session starts; a test process does (execnet's).
    forked = len(stale) >= FORKED_FROM and threading.active_count() == 1
    shares = [stale[n::processes] for n in range(processes)] if forked else [stale]
    children = []
    for share in shares[1:]:
        pid = os.fork()
        if pid == 0:  # the child: its share, then gone without running the parent's exit handlers
            try:
                write(share)
            finally:
                os._exit(0)
        children.append(pid)
    write(shares[0])
    for pid in children:
        os.waitpid(pid, 0)
    return len(stale)
