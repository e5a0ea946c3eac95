"""One optimistic-concurrency retry helper: every save that may be tried again goes through it.

It tries again when another process wrote first (at once after the first conflict, after a
short bounded jitter from the second on), as often as ``TRIES`` says and no more, and then gives
up with a clear error; a conflict that may not be retried is raised at once.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from eventsourcing.persistence import IntegrityError

from replay.store import retry
from replay.store.retry import TRIES, retrying

ROOT = Path(__file__).resolve().parents[2]


class Beaten(Exception):
    """The clear error of a write that kept losing the race."""


@pytest.fixture
def pauses(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    slept: list[float] = []
    monkeypatch.setattr(retry.time, "sleep", slept.append)
    return slept


def test_a_conflict_is_tried_again_until_the_write_goes_through(pauses: list[float]) -> None:
    tries: list[int] = []

    def save(attempt: int) -> str:
        tries.append(attempt)
        if attempt < 3:
            raise IntegrityError("another process saved first")
        return "saved"

    assert retrying(save) == "saved"
    assert tries == [1, 2, 3] and len(pauses) == 1


def test_the_first_conflict_is_tried_again_at_once_and_later_ones_after_a_bounded_jitter(pauses: list[float]) -> None:
    def save(attempt: int) -> str:
        if attempt < 5:
            raise IntegrityError("another process saved first")
        return "saved"

    assert retrying(save) == "saved"
    # Four conflicts: none after the first, one pause after each of the three others.
    assert len(pauses) == 3 and all(0 <= pause <= retry.JITTER for pause in pauses)
    assert retry.JITTER <= 0.05


def test_after_the_limit_it_gives_up_with_a_clear_error(pauses: list[float]) -> None:
    tries: list[int] = []

    def save(attempt: int) -> None:
        tries.append(attempt)
        raise IntegrityError("another process saved first")

    with pytest.raises(Beaten, match=f"tried {TRIES} times"):
        retrying(save, give_up=lambda conflict: Beaten(f"{conflict} (tried {TRIES} times)"))
    assert tries == list(range(1, TRIES + 1)) and len(pauses) == TRIES - 2


def test_a_conflict_that_may_not_be_retried_is_raised_at_once(pauses: list[float]) -> None:
    tries: list[int] = []

    def save(attempt: int) -> None:
        tries.append(attempt)
        raise IntegrityError("another process saved first")

    with pytest.raises(IntegrityError):
        retrying(save, again=lambda _conflict: False)
    assert tries == [1] and pauses == []


def test_no_other_module_sleeps_between_tries_of_its_own() -> None:
    # The pause and the number of tries are decided in replay/store/retry.py alone.
    for path in sorted((ROOT / "replay").rglob("*.py")):
        if path.name == "retry.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        loops = [node for node in ast.walk(tree) if isinstance(node, ast.For)]
        for loop in loops:
            target = loop.target
            assert not (isinstance(target, ast.Name) and target.id == "attempt"), f"{path}: a retry loop of its own"
