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
    turns with its requests). A checkpoint that fails (the store unreachable for a moment) is
    said in one line on stderr; the next one covers what it would have."""
    while not stop.wait(every):
        try:
            run(lambda: checkpoint_now(store))
        except Exception as exc:  # a background thread must outlive a store's hiccup
            print(f"honba: warning: no checkpoint taken: {' '.join(str(exc).split())[:200]}", file=sys.stderr)


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
