"""The threads a server's recorded hands run in on PostgreSQL (``Site.call_here``): a plain thread pool.

A hand on PostgreSQL is a call that waits for the database twice (the token's row with the
match's tails, the insert), so it runs beside the event loop in a thread, as every other call of
the server does in the thread pool of Starlette (``run_in_threadpool``: anyio's worker threads).
That pool's hand-over is general: a checkpoint of the loop before it, its capacity limiter taken
and given back, a cancel scope entered and left, the caller's context copied and run, the result
reported through a method of the worker: about 0.18 million instructions a hand beside a service
call of about 1.0 million (issue 36, seventeenth round, ``docs/performance.md``). Here a hand is a
job put on the queue of the thread that became idle last (as anyio's pool picks one: a server that
is not busy keeps few threads at work, their memory warm), and its answer is set on the caller's
future by the loop itself (``call_soon_threadsafe``): what the hand-over must do and no more.

What stays as it was: the call runs in another thread than the loop, whatever it raises is raised
to the caller, a bounded number run at once and the rest wait their turn in order; a thread is
started only when none is idle. The bound is ``MOST`` (6), not the pool's 40: threads a server's
hands cannot use only contend for the interpreter's lock. A caller that stops waiting (its task
cancelled) leaves its call to finish in its thread, as anyio's (shielded) does: a save under way
is never cut in the middle; its answer is then dropped.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import queue
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

# At most this many hands at once in a server. More threads add no hands a second: every save takes
# the event table's lock in turn, and a PostgreSQL store's pool has 15 connections (the library's 5
# and 10 more), for which threads beyond them wait. Each active thread contends for the interpreter's
# lock, and each contended hand-over of it is a wake-up in the kernel: at 40 tables back to back
# (20 a server) the servers' CPU went from 1.0 ms a hand with 40 threads (anyio's default) to 0.84 to
# 0.94 ms with 6 to 16, paired round by round (2: fewer hands a second); seventeenth round. With a
# server's connections opened as it starts (eighteenth round), 6 against 10 on a quiet host: 1.03x to
# 1.11x the hands a second in four paired runs, p95 64 to 93 ms against 87 to 109 (4: level with 6
# within the noise, 1.02x to 1.16x of 10); docs/performance.md, the tenth session's lead's runs.
MOST = 6

# A job: the loop that waits, its future, the call and its argument. ``None`` stops a thread.
_Job = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[[Any], Any], Any]


def _settle(done: asyncio.Future[Any], failed: bool, outcome: Any) -> None:
    """On the loop: the caller's future given the call's result or exception (unless it stopped waiting)."""
    if done.cancelled():
        return
    if failed:
        done.set_exception(outcome)
    else:
        done.set_result(outcome)


class _Worker:
    """One thread's own queue: a job is handed to the thread itself, not to whichever wakes first."""

    __slots__ = ("jobs",)

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()


class HandThreads:
    """Threads that run calls handed over from an event loop, started as they are needed, at most ``most``."""

    def __init__(self, most: int = MOST, name: str = "honba-hand") -> None:
        self._most = most
        self._name = name
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._workers: list[_Worker] = []
        # Idle threads, the last to become idle last: it takes the next job (as anyio's pool does),
        # so that few threads, their memory warm, serve a server that is not busy.
        self._idle: list[_Worker] = []
        # Jobs handed over while ``most`` threads were busy, in the order they came.
        self._pending: collections.deque[_Job] = collections.deque()
        self._closed = False

    async def run(self, call: Callable[[Any], T], argument: Any) -> T:
        """``call(argument)`` run in one of the threads; its result, or what it raised, here."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[T] = loop.create_future()
        job: _Job = (loop, done, call, argument)
        with self._lock:
            if self._closed:
                raise RuntimeError("the server's hand threads are stopped")
            if self._idle:
                self._idle.pop().jobs.put(job)
            elif len(self._threads) < self._most:
                worker = _Worker()
                worker.jobs.put(job)
                thread = threading.Thread(
                    target=self._work, args=(worker,), name=f"{self._name}-{len(self._threads)}", daemon=True
                )
                self._workers.append(worker)
                self._threads.append(thread)
                thread.start()
            else:
                self._pending.append(job)
        del job
        return await done

    def _work(self, worker: _Worker) -> None:
        job = worker.jobs.get()
        while job is not None:
            loop, done, call, argument = job
            try:
                outcome, failed = call(argument), False
            except BaseException as exc:  # as anyio's worker: whatever it raised is the caller's
                outcome, failed = exc, True
            # The next job: one waiting its turn, else this thread idle (before the caller hears back,
            # so that its next call finds the thread idle rather than starting another).
            with self._lock:
                following = self._pending.popleft() if self._pending else None
                if following is None:
                    self._idle.append(worker)
            # (a loop closed meanwhile, the server stopping: no one waits for the answer)
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_settle, done, failed, outcome)
            del job, outcome, done, loop, call, argument
            job = following if following is not None else worker.jobs.get()

    @property
    def most(self) -> int:
        """How many calls run at once at most (a thread each)."""
        return self._most

    @property
    def started(self) -> int:
        """How many threads were started."""
        return len(self._threads)

    def close(self, timeout: float = 30) -> None:
        """Stop the threads once the jobs handed over are done (the server stops); no job is taken after."""
        with self._lock:
            self._closed = True
            workers, threads = list(self._workers), list(self._threads)
        for worker in workers:
            worker.jobs.put(None)  # taken once its thread has no job left
        # One wait for them all: a hand stuck on the database holds the server's stop ``timeout`` at most.
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(timeout=max(0.0, deadline - time.monotonic()))
