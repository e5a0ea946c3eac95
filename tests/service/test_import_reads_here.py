"""The importing process reads files too (issue 36, twenty-first and twenty-second rounds).

An import with reading workers stores the files in the order of the archive. The workers are given
the files from the front, a task of ``READ_CHUNK`` at a time; the importing process, when the next
file to store is still a worker's, reads the last file no worker was given (from the back) rather
than wait, and looks more files up to read, up to ``READ_MOST`` in flight per process. A task no
worker has started (still in the pool's queue: its ``Future.cancel()`` succeeds) is read here when
there is nothing else to do. Either way what is stored, and in what order, is what one process
stores. ``reading_pool(..., reads_here=True)`` (``honba import``'s) starts one worker fewer than the
processes reading: on two cores, one worker beside the importing process.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, imported

import replay.service.imports.batch as batch
from replay.service.imports.batch import LOOKUP, PARALLEL_FROM, READ_AHEAD, READ_CHUNK, READ_MOST, reading_pool

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")


def archive(tmp_path: Path, count: int) -> Path:
    folder = tmp_path / "logs"
    folder.mkdir()
    for path in sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))[:count]:
        (folder / path.name).write_bytes(path.read_bytes())
    return folder


class Unstarted(Executor):
    """A pool whose workers never start a task: every task stays in its queue."""

    def __init__(self) -> None:
        self.futures: list[Future[Any]] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.futures.append(future)
        return future


class FirstHeld(Executor):
    """A pool of one worker that starts the first task at once and finishes it only once the importing
    process has read ``later`` files itself; it starts no other task."""

    def __init__(self, read_here: list[str], later: int) -> None:
        self.futures: list[Future[Any]] = []
        self.first: list[str] = []  # the first task's files
        self.read_here = read_here
        self.later = later
        self.threads: list[threading.Thread] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.futures.append(future)
        if len(self.futures) == 1:
            assert future.set_running_or_notify_cancel()  # with the worker: no cancel succeeds
            self.first = [Path(path).name for _, path in args[0]]
            thread = threading.Thread(target=self._work, args=(future, fn, args, kwargs))
            self.threads.append(thread)
            thread.start()
        return future

    def _work(self, future: Future[Any], fn: Callable[..., Any], args: Any, kwargs: Any) -> None:
        while len(self.read_here) < self.later:
            threading.Event().wait(0.01)
        future.set_result(fn(*args, **kwargs))


@pytest.fixture
def read_here(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files the importing process reads itself (not a worker, here a thread of ``FirstHeld``), in
    the order it reads them."""
    files: list[str] = []
    read = batch._read_recorded
    main = threading.get_ident()

    def recorded(digest: str | None, path: Path, *options: Any) -> Any:
        if threading.get_ident() == main:
            files.append(path.name)
        return read(digest, path, *options)

    monkeypatch.setattr(batch, "_read_recorded", recorded)
    return files


@pytest.mark.timeout(120)  # a hang guard: an import must not wait for a task no worker would start
def test_a_task_no_worker_has_started_is_read_by_the_importing_process(tmp_path: Path) -> None:
    folder = archive(tmp_path, LOOKUP + 9)
    pool = Unstarted()
    run = imported(tmp_path / "here.sqlite", folder, pool=pool, keep_games=True)
    alone = imported(tmp_path / "alone.sqlite", folder, keep_games=True)
    # Tasks were given, taken back from the queue, and read here.
    assert pool.futures and all(f.cancelled() for f in pool.futures)
    assert (run.stored, run.present) == (alone.stored, alone.present) == (LOOKUP + 9, 0)
    assert run.games == alone.games and run.listed == alone.listed


@pytest.mark.timeout(120)  # a hang guard, as above
def test_while_a_worker_reads_the_next_files_the_importing_process_reads_the_last_ones_and_stores_in_order(
    tmp_path: Path, read_here: list[str]
) -> None:
    folder = archive(tmp_path, LOOKUP + 9)
    names = sorted(path.name for path in folder.iterdir())
    pool = FirstHeld(read_here, later=3)
    run = imported(tmp_path / "held.sqlite", folder, pool=pool, keep_games=True)
    for thread in pool.threads:
        thread.join()
    here = list(read_here)
    alone = imported(tmp_path / "alone.sqlite", folder, keep_games=True)
    first, *_ = pool.futures
    # The first task was the worker's, its files the first of the archive; while it held them, the
    # importing process read the last files of the archive, the last first.
    assert not first.cancelled() and pool.first == names[: len(pool.first)]
    assert here[:3] == names[-1:-4:-1]
    assert not set(here) & set(pool.first)
    # Stored in the archive's order all the same: the same games, listed in the same order.
    assert (run.stored, run.present) == (alone.stored, alone.present) == (LOOKUP + 9, 0)
    assert list(run.games) == list(alone.games) and run.listed == alone.listed


@pytest.mark.timeout(180)  # a hang guard, as above
def test_while_a_worker_holds_the_next_files_the_importing_process_reads_beyond_the_files_ahead(
    tmp_path: Path, read_here: list[str]
) -> None:
    # One worker and the importing process: ``READ_AHEAD`` files in flight each before the next is
    # stored, and while the worker holds it, more looked up and read here, up to ``READ_MOST`` each.
    limit, most = 2 * READ_AHEAD, 2 * READ_MOST
    folder = archive(tmp_path, most + 10)
    names = sorted(path.name for path in folder.iterdir())
    pool = FirstHeld(read_here, later=limit - READ_CHUNK)
    run = imported(tmp_path / "held.sqlite", folder, pool=pool, keep_games=True)
    for thread in pool.threads:
        thread.join()
    held = read_here[: limit - READ_CHUNK]
    alone = imported(tmp_path / "alone.sqlite", folder, keep_games=True)
    # Before the worker gave back the first files, this process had read files past the first
    # ``limit`` (looked up while it would otherwise wait), none past the first ``most``.
    assert any(names.index(name) >= limit for name in held)
    assert all(names.index(name) < most for name in held)
    assert (run.stored, run.present) == (alone.stored, alone.present) == (most + 10, 0)
    assert list(run.games) == list(alone.games) and run.listed == alone.listed


def test_an_import_pool_has_one_worker_fewer_than_the_processes_reading(tmp_path: Path) -> None:
    with reading_pool(1, 1000, reads_here=True) as none:
        assert none is None  # one process reading: this one, no worker
    with reading_pool(2, PARALLEL_FROM - 1, reads_here=True) as none:
        assert none is None  # too few files to start a worker for
    folder = archive(tmp_path, LOOKUP + 9)
    with reading_pool(2, LOOKUP + 9, on_demand=True, reads_here=True) as pool:
        assert isinstance(pool, batch.OnDemandPool) and not pool.started and pool.workers == 1
        run = imported(tmp_path / "one-worker.sqlite", folder, pool=pool, keep_games=True)
        assert len(pool.start()._processes) == 1  # the worker processes started
    alone = imported(tmp_path / "alone.sqlite", folder, keep_games=True)
    assert (run.stored, run.present) == (alone.stored, alone.present)
    assert list(run.games) == list(alone.games) and run.listed == alone.listed
