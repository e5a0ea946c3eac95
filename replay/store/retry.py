"""Trying a save again when another process saved first: one place decides how often and how long.

Every write to the store is optimistic: it names the version it read, and the store refuses it
(``IntegrityError``, or honba's ``StoreConflict``) when another process wrote in between. The
callers that may safely try again (a command with a client key, an import's match, a tournament
change, opening a new store or view whose tables are being created by another process) all go
through ``retrying``.

A conflict now means two writers of the same match (or tournament): saves share no row with
other matches' (checkpoints are taken apart). The loser reads the match again and applies its
command again at once; only from the second conflict on does it wait, a few milliseconds at
most, drawn at random, so that two writers that keep colliding fall out of step. No command
sleeps for long, and none sleeps at all when it met one conflict.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TypeVar

from eventsourcing.persistence import IntegrityError

T = TypeVar("T")

# How many times a write is tried when another process wrote first (two writers that keep
# writing to one match take turns by chance: tries are cheap, none waits long).
TRIES = 16
# How many times a new store or view is opened while other processes race to create its tables.
OPEN_TRIES = 6
# The longest pause between two tries, in seconds (from the second conflict on).
JITTER = 0.05


def pause(attempt: int) -> None:
    """Before try ``attempt + 1``: none after the first conflict (the match is read again and the
    command applied again at once); after a later one, a random pause of at most 5 ms, 10 ms,
    20 ms, ... and never more than ``JITTER``."""
    if attempt >= 2:
        time.sleep(min(JITTER, 0.005 * 2 ** (attempt - 2)) * random.random())


def retrying(
    once: Callable[[int], T],
    *,
    conflict: type[BaseException] | tuple[type[BaseException], ...] = IntegrityError,
    again: Callable[[BaseException], bool] = lambda _conflict: True,
    give_up: Callable[[BaseException], BaseException] | None = None,
    tries: int = TRIES,
) -> T:
    """``once(attempt)`` (attempt 1, 2, ...) until it returns, tried again (``pause``) when it
    raises ``conflict`` and ``again(the error)`` says the retry is safe and useful.

    A conflict that may not be retried is raised as it is; after ``tries`` tries the last one is
    raised, or ``give_up(it)`` when given (a clear error saying it was tried that many times).
    """
    for attempt in range(1, tries + 1):
        try:
            return once(attempt)
        except conflict as exc:
            if not again(exc):
                raise
            if attempt == tries:
                if give_up is None:
                    raise
                raise give_up(exc) from None
            pause(attempt)
    raise AssertionError("unreachable")  # pragma: no cover
