"""The importing process reads files too (issue 36, twenty-first round).

An import with reading workers stores the files in the order of the archive. When the next file to
store is in a task no worker has started (still in the pool's queue: its ``Future.cancel()``
succeeds), the importing process reads that task itself rather than wait; while a worker reads it, the
importing process reads a later task no worker has started. Either way what is stored, and in what
order, is what one process stores. ``reading_pool(..., reads_here=True)`` (``honba import``'s) starts
one worker fewer than the processes reading: on two cores, one worker beside the importing process.
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
from replay.service.imports.batch import LOOKUP, READ_CHUNK, PARALLEL_FROM, reading_pool

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
    process has taken a later task from the queue (cancelled it); it starts no other task."""

    def __init__(self) -> None:
        self.futures: list[Future[Any]] = []
        self.taken_first: list[int] = []  # the tasks taken from the queue when the first was finished
        self.threads: list[threading.Thread] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        self.futures.append(future)
        if len(self.futures) == 1:
            assert future.set_running_or_notify_cancel()  # with the worker: no cancel succeeds
            thread = threading.Thread(target=self._work, args=(future, fn, args, kwargs))
            self.threads.append(thread)
            thread.start()
        return future

    def _work(self, future: Future[Any], fn: Callable[..., Any], args: Any, kwargs: Any) -> None:
        while not any(later.cancelled() for later in self.futures[1:]):
            threading.Event().wait(0.01)
        self.taken_first = [n for n, later in enumerate(self.futures) if later.cancelled()]
        future.set_result(fn(*args, **kwargs))


@pytest.mark.timeout(120)  # a hang guard: main's import waited for a task no worker would start
def test_a_task_no_worker_has_started_is_read_by_the_importing_process(tmp_path: Path) -> None:
    folder = archive(tmp_path, LOOKUP + 9)
    pool = Unstarted()
    run = imported(tmp_path / "here.sqlite", folder, pool=pool, keep_games=True)
    alone = imported(tmp_path / "alone.sqlite", folder, keep_games=True)
    # Every task was sent (16, 16 and the group's last 9) and taken back from the queue, then read here.
    assert [f.cancelled() for f in pool.futures] == [True, True, True]
    assert (run.stored, run.present) == (alone.stored, alone.present) == (LOOKUP + 9, 0)
    assert run.games == alone.games and run.listed == alone.listed


@pytest.mark.timeout(120)  # a hang guard, as above
def test_while_a_worker_reads_the_first_task_the_importing_process_reads_a_later_one_and_stores_in_order(
    tmp_path: Path,
) -> None:
    folder = archive(tmp_path, LOOKUP + 9)
    pool = FirstHeld()
    run = imported(tmp_path / "held.sqlite", folder, pool=pool, keep_games=True)
    for thread in pool.threads:
        thread.join()
    alone = imported(tmp_path / "alone.sqlite", folder, keep_games=True)
    first, *later = pool.futures
    # The first task was the worker's (its files handed back), the later ones read here, the second
    # while the worker still held the first.
    assert not first.cancelled() and len(first.result()) == READ_CHUNK
    assert all(f.cancelled() for f in later) and 1 in pool.taken_first
    # Stored in the archive's order all the same: the same games, listed in the same order.
    assert (run.stored, run.present) == (alone.stored, alone.present) == (LOOKUP + 9, 0)
    assert list(run.games) == list(alone.games) and run.listed == alone.listed


def test_an_import_pool_has_one_worker_fewer_than_the_processes_reading(tmp_path: Path) -> None:
    with reading_pool(1, 1000, reads_here=True) as none:
        assert none is None  # one process reading: this one, no worker
    with reading_pool(2, PARALLEL_FROM - 1, reads_here=True) as none:
        assert none is None  # too few files to start a worker for
    folder = archive(tmp_path, LOOKUP + 9)
    with reading_pool(2, LOOKUP + 9, on_demand=True, reads_here=True) as pool:
        assert isinstance(pool, batch.OnDemandPool) and not pool.started
        run = imported(tmp_path / "one-worker.sqlite", folder, pool=pool, keep_games=True)
        assert len(pool.start()._processes) == 1  # noqa: SLF001  (the worker processes started)
    alone = imported(tmp_path / "alone.sqlite", folder, keep_games=True)
    assert (run.stored, run.present) == (alone.stored, alone.present)
    assert list(run.games) == list(alone.games) and run.listed == alone.listed
