"""An event loop run in a thread of its own, for tests that run one.

Playwright's synchronous API (the browser tests' session-wide ``browser``) leaves the main thread's
event loop marked running for the rest of the test process: ``asyncio.run`` there then fails in any
test that happens to come after a browser test on the same worker. A test that runs a loop runs it
here, in a thread of its own, as a server runs its loop.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def looped(main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """``main()`` run to its end on a new event loop in a thread of its own, as a server's loop runs:
    its result, or what it raised (a test before may leave this thread's loop marked running)."""
    outcome: list[Any] = []

    def loop() -> None:
        try:
            outcome.append((True, asyncio.run(main())))
        except BaseException as exc:
            outcome.append((False, exc))

    thread = threading.Thread(target=loop)
    thread.start()
    thread.join(timeout=120)  # a hang guard only
    ((ok, value),) = outcome
    if not ok:
        raise value
    result: T = value
    return result
