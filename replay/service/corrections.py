"""A referee's corrections: amend or void an entry, add a penalty (also after the end), undo at the
table, reopen a match the players ended early.

Corrections name entries by the number a user sees (``honba log``, the record file's lines,
``replay.formats.record.entry_numbers``); the Match aggregate is given positions, and its
refusals are said again with the numbers. Each correction is one load and one save
(``replay.service.recording.on_match``); the original entry stays in the log. Each returns
``Recorded`` with its ``change`` (``replay.service.changes.change_at``): the entry it touched, as it
was and as it is now, the hands whose payments moved and the scores after.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.errors import EntryRefused
from domain.match import Match
from domain.values import HandResult, Penalty, TableState
from replay.formats.record import entry_numbers
from replay.service.changes import change_at
from replay.service.recording import ForHand, PenaltyGiven, Recorded, on_match, penalty_on, recorded
from replay.store.application import HonbaApp

# A replacement: a value, or made from the match as loaded and the table the entry was played at.
Replacement = HandResult | Penalty | Callable[[Match, TableState], HandResult | Penalty]


def on_entry(match: Match, entry: int, correct: Callable[[int], None]) -> None:
    """Apply a correction to the entry numbered ``entry``: the number translated to the
    aggregate's position, and a refusal that names entries named by their numbers."""
    numbers = entry_numbers(match)
    try:
        correct(numbers.position(entry))
    except EntryRefused as refused:
        raise refused.renamed(numbers.name) from None


def made(match: Match, by: str, reason: str, target: int | None = None, *, any_target: bool = False) -> int:
    """The position of the last correction of the match by ``by`` for ``reason`` (of the entry at
    position ``target``, unless ``any_target``): the one a command just made, or made the first
    time it was sent (a retry with its client key records nothing new)."""
    found = [
        p for p, c in match.correction_log if (c.by, c.reason) == (by, reason) and (any_target or c.target == target)
    ]
    assert found, "the correction was made"
    return found[-1]


def correction_recorded(
    match: Match, position: int, *, action: str | None = None, target: int | None = None
) -> Recorded:
    """The match after a correction, with what the correction at ``position`` did; ``entry`` is the
    number the correction was asked for by (or, for an undo, the entry it took back: ``change_at``)."""
    change = change_at(match, position, action=action, target=target)
    return recorded(match, change.target, change)


def amend(
    store: HonbaApp,
    key: str,
    entry: int,
    replacement: Replacement,
    *,
    by: str,
    reason: str,
    client_key: str | None = None,
) -> Recorded:
    """Replace the result, penalty or correction numbered ``entry`` (as ``honba log`` and the
    exported record file number it) of a stored match: a correction."""

    def correct(match: Match) -> int:
        def at(position: int) -> None:
            new = replacement(match, match.state_before(position)) if callable(replacement) else replacement
            match.amend(position, new, by=by, reason=reason, client_key=client_key)

        on_entry(match, entry, at)
        return made(match, by, reason, entry_numbers(match).position(entry))

    match, position = on_match(store, key, correct, client_key)
    return correction_recorded(match, position, target=entry)


def void(store: HonbaApp, key: str, entry: int, *, by: str, reason: str, client_key: str | None = None) -> Recorded:
    """Void the result or penalty numbered ``entry`` of a stored match, cancel the correction
    numbered so, or void an early end (the match reopened): a correction."""

    def correct(match: Match) -> int:
        on_entry(match, entry, lambda position: match.void(position, by=by, reason=reason, client_key=client_key))
        return made(match, by, reason, entry_numbers(match).position(entry))

    match, position = on_match(store, key, correct, client_key)
    return correction_recorded(match, position, target=entry)


def undo(
    store: HonbaApp, key: str, *, by: str, reason: str, client_key: str | None = None, expect: ForHand | None = None
) -> Recorded:
    """Void the last entry that still counts (a correction by the recorder): the last hand, penalty
    or correction, or the early end (the match reopened); ``entry`` is the number of the entry voided."""

    def correct(match: Match) -> int:
        return made(match, by, reason, match.undo(by=by, reason=reason, client_key=client_key))

    # Entered for a hand (the table's undo): a phone that did not see the last entry never takes it back.
    match, position = on_match(store, key, correct, client_key, expect)
    return correction_recorded(match, position, action="undo")


def reopen(store: HonbaApp, key: str, *, by: str, reason: str, client_key: str | None = None) -> Recorded:
    """Reopen a match the players ended early: its end voided (a correction with who and why); the
    match goes on from the table before the end."""

    def correct(match: Match) -> int:
        return made(match, by, reason, match.reopen(by=by, reason=reason, client_key=client_key))

    match, position = on_match(store, key, correct, client_key)
    return correction_recorded(match, position, action="reopen")


def add_penalty(
    store: HonbaApp, key: str, penalty: PenaltyGiven, *, by: str, reason: str, client_key: str | None = None
) -> Recorded:
    """Add a penalty as a correction, also after the match ended."""

    def correct(match: Match) -> int:
        match.add_penalty(penalty_on(penalty, match), by=by, reason=reason, client_key=client_key)
        return made(match, by, reason)

    match, position = on_match(store, key, correct, client_key)
    return correction_recorded(match, position)


def table_before(match: Match, entry: int) -> TableState:
    """The table the entry numbered ``entry`` was played on, with the scores as corrected (for
    a correction, the table of the entry it comes down to)."""
    return match.state_before(entry_numbers(match).position(entry))
