"""A referee's corrections: amend or void an entry, add a penalty (also after the end), undo at the table.

Corrections name entries by the number a user sees (``honba log``, the record file's lines,
``replay.formats.record.entry_numbers``); the Match aggregate is given positions, and its
refusals are said again with the numbers. Each correction is one load and one save
(``replay.service.recording.on_match``); the original entry stays in the log.
"""

from __future__ import annotations

from collections.abc import Callable

from domain.errors import EntryRefused
from domain.match import Match
from domain.values import HandResult, Penalty, TableState
from replay.formats.record import entry_numbers
from replay.service.recording import PenaltyGiven, Recorded, on_match, penalty_on, recorded
from replay.store.application import HonbaApp

# A replacement: a value, or made from the match as loaded and the table the entry was played at.
Replacement = HandResult | Penalty | Callable[[Match, TableState], HandResult | Penalty]


def _on_entry(match: Match, entry: int, correct: Callable[[int], None]) -> None:
    """Apply a correction to the entry numbered ``entry``: the number translated to the
    aggregate's position, and a refusal that names entries named by their numbers."""
    numbers = entry_numbers(match)
    try:
        correct(numbers.position(entry))
    except EntryRefused as refused:
        raise refused.renamed(numbers.name) from None


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

    def correct(match: Match) -> None:
        def at(position: int) -> None:
            new = replacement(match, match.state_before(position)) if callable(replacement) else replacement
            match.amend(position, new, by=by, reason=reason, client_key=client_key)

        _on_entry(match, entry, at)

    match, _, head = on_match(store, key, correct, client_key)
    return recorded(match, head, entry)


def void(store: HonbaApp, key: str, entry: int, *, by: str, reason: str, client_key: str | None = None) -> Recorded:
    """Void the result or penalty numbered ``entry`` of a stored match, or cancel the correction
    numbered so (a correction)."""

    def correct(match: Match) -> None:
        _on_entry(match, entry, lambda position: match.void(position, by=by, reason=reason, client_key=client_key))

    match, _, head = on_match(store, key, correct, client_key)
    return recorded(match, head, entry)


def undo(store: HonbaApp, key: str, *, by: str, reason: str, client_key: str | None = None) -> Recorded:
    """Void the last entry that still counts (a correction by the recorder); ``entry`` is the
    number of the entry voided."""
    match, position, head = on_match(
        store, key, lambda m: m.undo(by=by, reason=reason, client_key=client_key), client_key
    )
    number = entry_numbers(match).number(position)
    assert number is not None  # undo voids a result, a penalty or a correction: each has its line
    return recorded(match, head, number)


def add_penalty(
    store: HonbaApp, key: str, penalty: PenaltyGiven, *, by: str, reason: str, client_key: str | None = None
) -> Recorded:
    """Add a penalty as a correction, also after the match ended."""

    def correct(match: Match) -> None:
        match.add_penalty(penalty_on(penalty, match), by=by, reason=reason, client_key=client_key)

    match, _, head = on_match(store, key, correct, client_key)
    return recorded(match, head)


def table_before(match: Match, entry: int) -> TableState:
    """The table the entry numbered ``entry`` was played on, with the scores as corrected (for
    a correction, the table of the entry it comes down to)."""
    return match.state_before(entry_numbers(match).position(entry))
