"""Trying a save again when another process saved first: one place decides how often and how long.

Every write to the store is optimistic: it names the version it read, and the store refuses it
(``IntegrityError``, or honba's ``StoreConflict``) when another process wrote in between. The
callers that may safely try again (a command with a client key, an import, a tournament change,
a store chain link, opening a new store or view whose tables are being created by another
process) all go through ``retrying``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import TypeVar

from eventsourcing.persistence import IntegrityError

T = TypeVar("T")

# How many times a write is tried when another process wrote first.
TRIES = 8
# How many times a new store or view is opened while other processes race to create its tables.
OPEN_TRIES = 6


def pause(attempt: int) -> None:
    """A short, growing, jittered pause before the next try (at most 0.6 s): processes that
    collided once do not collide again in step."""
    time.sleep(min(0.4, 0.02 * 2**attempt) * (0.5 + random.random()))


def retrying(
    once: Callable[[int], T],
    *,
    conflict: type[BaseException] | tuple[type[BaseException], ...] = IntegrityError,
    again: Callable[[BaseException], bool] = lambda _conflict: True,
    give_up: Callable[[BaseException], BaseException] | None = None,
    tries: int = TRIES,
) -> T:
    """``once(attempt)`` (attempt 1, 2, ...) until it returns, tried again after a pause when it
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
