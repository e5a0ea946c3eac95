"""Checkpoints as use cases: one taken now (``honba checkpoint``), and one every few seconds while
something changes (``honba serve``). What a checkpoint is: ``replay.store.checkpoint``."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TypeVar

from replay.store.application import HonbaApp
from replay.store.checkpoint import Taken

# How often ``honba serve`` takes a checkpoint of what was saved, in seconds.
EVERY = 3.0
# The longest wait between two tries while checkpoints fail, in seconds.
LONGEST_WAIT = 60.0

T = TypeVar("T")


def checkpoint_now(store: HonbaApp) -> Taken:
    """A checkpoint of what was saved since the last one (skipped when another process is taking
    one, or nothing was saved)."""
    return store.checkpoint()


def keep_checkpoints(
    store: HonbaApp,
    stop: threading.Event,
    *,
    every: float = EVERY,
    run: Callable[[Callable[[], Taken]], Taken] = lambda take: take(),
) -> None:
    """Take a checkpoint every ``every`` seconds while something was saved since the last, until
    ``stop`` is set (a server's background thread). ``run`` runs each one (a server on SQLite takes
    turns with its requests).

    A checkpoint that fails (the store unreachable) is said in one line on stderr, once per outage,
    not at every try; the tries then come at twice the wait each time, up to ``LONGEST_WAIT``, so
    that a server whose database is down does not knock on it every few seconds. The first that
    succeeds again says so, and covers what the failed ones would have."""
    failures = 0
    while not stop.wait(min(every * 2 ** min(failures, 16), max(every, LONGEST_WAIT))):
        try:
            run(lambda: checkpoint_now(store))
        except Exception as exc:  # a background thread must outlive a store's hiccup
            if failures == 0:
                print(f"honba: warning: no checkpoint taken: {' '.join(str(exc).split())[:200]}", file=sys.stderr)
            failures += 1
        else:
            if failures:
                print(f"honba: checkpoints taken again (after {failures} failed)", file=sys.stderr)
            failures = 0


def checkpoints_kept(
    store: HonbaApp, *, every: float = EVERY, run: Callable[[Callable[[], Taken]], Taken] | None = None
) -> Callable[[], None]:
    """Start ``keep_checkpoints`` in a daemon thread; the function that stops it (and takes a last
    checkpoint of what was saved since)."""
    stop = threading.Event()
    runner = run or (lambda take: take())
    thread = threading.Thread(
        target=keep_checkpoints,
        args=(store, stop),
        kwargs={"every": every, "run": runner},
        name="honba-checkpoints",
        daemon=True,
    )
    thread.start()

    def stopped() -> None:
        stop.set()
        thread.join(timeout=30)
        try:
            runner(lambda: checkpoint_now(store))
        except Exception as exc:  # the server is stopping: what it saved is covered by the next one
            print(f"honba: warning: no checkpoint taken: {' '.join(str(exc).split())[:200]}", file=sys.stderr)

    return stopped
