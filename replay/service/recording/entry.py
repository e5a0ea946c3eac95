"""Entering and correcting results, shared by every front end (``honba win``/``amend``, the table
page, the referee's desk, the JSON API).

What a person typed or tapped is read into the one entry model by ``replay.input``
(``fields.entry_from_fields``, the text fields every front end sends) and made a domain fact by
``replay.input.entry.fact_of``; here are the use cases on it. An entry is recorded on the match as
loaded (``apply_entry``: one load, one save). A correction starts from the entry that stands
(``stored_entry``) and changes only what the referee changed: the whole entry given again, or
some of its fields (``replay.input.fields.amended``); ``apply_correction`` records it and says
what it changed (``Recorded.change``, ``replay.service.recording.changes``). ``preview`` and
``correction_preview`` apply a command to the match as stored, in memory, and report what it would
change, so the rules check it before the confirm step and nothing is stored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any, TypeVar

import attrs

from domain.amendments import fact_in_force
from domain.errors import EntryRefused, HonbaError
from domain.match import Match
from domain.said import Said
from domain.values import (
    AbortiveDraw,
    DealPass,
    ExhaustiveDraw,
    HandResult,
    MatchEnd,
    Penalty,
    TableState,
    WinResult,
    with_notes_of,
)
from projections.entries import entry_numbers
from projections.ledger import corrected_ledger
from replay.input.entry import FLAG_KEYS, KINDS, Entry, FieldError, entry_line, entry_of, fact_of, result_of
from replay.input.fields import (
    MAX_ENTRY,
    MAX_WINNERS,
    VALUE_FIELDS,
    amended,
    entry_fields,
    entry_from_fields,
    field_name,
    is_list_field,
    refuse_unread,
    slot,
    value_text,
    whole_number,
)
from replay.service.recording.changes import Change, change_at, change_said, opening, payment_said
from replay.service.recording.recording import (
    ForHand,
    Recorded,
    end,
    ending,
    on_match,
    penalise,
    record,
    recorded,
    server_time,
)
from replay.store.application import HonbaApp

T = TypeVar("T")

# The entry's names the front ends use, from here (with everything this module defines).
__all__ = [
    "FLAG_KEYS",
    "KINDS",
    "MAX_ENTRY",
    "MAX_WINNERS",
    "VALUE_FIELDS",
    "Entry",
    "FieldError",
    "amended",
    "entry_fields",
    "entry_from_fields",
    "entry_line",
    "entry_of",
    "is_list_field",
    "refuse_unread",
    "slot",
    "value_text",
    "whole_number",
]

# Entries of a stored match.


def fact_at(match: Match, entry: Entry, table: TableState | None = None) -> HandResult | Penalty:
    """The fact an entry stands for on this match, at its table now (or at ``table``: the table an
    amended entry was played at); a field that names no player is refused by its text field."""
    try:
        if entry.kind != "penalty":
            # A result needs no table (working the table out would settle the match's hands).
            return result_of(entry, match.players)
        return fact_of(entry, match.players, match.state if table is None else table, match.rules)
    except FieldError as exc:
        raise FieldError(field_name(exc.field), exc.said) from None


def stored_entry(match: Match, number: int) -> Entry:
    """The entry that stands at the entry numbered ``number`` (as ``honba log`` numbers it): the
    result or penalty recorded there, as corrected since; a correction's own number gives what it
    put there. What a correction starts from."""
    numbers = entry_numbers(match)
    position = numbers.position(number)
    if isinstance(dict(match.history).get(position), MatchEnd):
        raise FieldError(
            "target",
            Said("entry {number} is the match's end: it is not amended; void it to reopen the match", number=number),
        )
    fact = fact_in_force(position, match.history, match.correction_log)
    if not isinstance(fact, WinResult | ExhaustiveDraw | AbortiveDraw | Penalty):
        raise FieldError(
            "target",
            Said(
                "nothing stands at entry {number} to correct (a void, or a correction cancelled since)", number=number
            ),
        )
    return entry_of(fact, match.players)


def entry_data(app: HonbaApp, key: str, number: int) -> dict[str, Any]:
    """The entry that stands at the entry numbered ``number`` of a stored match (``stored_entry``),
    as the API gives it: its text fields (what a correction starts from) and its record line."""
    entry = stored_entry(app.get_match(key), number)
    return {"match": key, "entry": number, "fields": entry_fields(entry), "line": entry_line(entry)}


def entered(app: HonbaApp, key: str, step: Callable[[], T]) -> T:
    """``step()``, a table's entry at the match ``key`` (its token checked, the entry applied), in
    one round trip to the store where it can be, else with the token's row and the match's tails
    read in one statement (``HonbaApp.one_trip``, ``HonbaApp.reading_ahead``)."""
    return app.one_trip(key, step)


def apply_entry(
    app: HonbaApp,
    key: str,
    entry: Entry,
    *,
    client_key: str | None,
    by: str = "table",
    reason: str = "undo",
    expect: ForHand | None = None,
) -> Recorded:
    """Record an entry on the stored match (the one call the front ends make): the match is loaded
    once, the entry read at its table, and saved once. ``undo`` takes back the last entry (a
    correction by ``by`` for ``reason``), ``end`` ends the match early. ``expect``, the hand it was
    entered for, refuses it once that hand is taken (``replay.service.recording.recording.HandTaken``)."""
    if entry.kind == "undo":
        return _undo(app, key, by=by, reason=reason, client_key=client_key, expect=expect)
    if entry.kind == "end":
        return end(app, key, entry.reason, client_key=client_key, expect=expect)
    if entry.kind == "penalty":
        return penalise(app, key, lambda match: _penalty(fact_at(match, entry)), client_key=client_key, expect=expect)
    return record(app, key, lambda match: _result(fact_at(match, entry)), client_key=client_key, expect=expect)


def made(match: Match, by: str, reason: str, target: int | None = None, *, any_target: bool = False) -> int:
    """The position of the last correction of the match by ``by`` for ``reason`` (of the entry at
    position ``target``, unless ``any_target``): the one a command just made, or made the first
    time it was sent (a retry with its client key records nothing new)."""
    found = [
        p for p, c in match.correction_log if (c.by, c.reason) == (by, reason) and (any_target or c.target == target)
    ]
    assert found, "the correction was made"
    return found[-1]


def undone(match: Match, by: str, reason: str, client_key: str | None = None) -> int:
    """Take back the last entry that still counts on the match in memory (a correction by ``by``
    for ``reason``): the position of the correction that did."""
    return made(match, by, reason, match.undo(by=by, reason=reason, client_key=client_key))


def _undo(app: HonbaApp, key: str, *, by: str, reason: str, client_key: str | None, expect: ForHand | None) -> Recorded:
    # Entered for a hand (the table's undo): a phone that did not see the last entry never takes it back.
    match, position = on_match(app, key, lambda m: undone(m, by, reason, client_key), client_key, expect)
    change = change_at(match, position, action="undo")
    return recorded(match, change.target, change)


def _penalty(fact: HandResult | Penalty) -> Penalty:
    assert isinstance(fact, Penalty)  # a penalty's entry is one
    return fact


def _result(fact: HandResult | Penalty) -> HandResult:
    assert not isinstance(fact, Penalty)  # a penalty's entry is recorded by penalise
    return fact


# What a referee may ask for: void or amend an entry, add a penalty, reopen a match ended early,
# end one early.
CORRECTIONS = ("void", "amend", "penalty", "reopen", "end")


@attrs.frozen
class CorrectionRequest:
    """A referee's correction as asked for: ``void`` or ``amend`` the entry numbered ``target``, add
    a ``penalty``, ``reopen`` a match ended early (its end voided), or ``end`` it early (for
    ``reason``; no ``by``: an end names no referee). An amendment gives the whole ``entry`` again,
    or the ``changes`` to the entry that stands (its text fields, the rest kept); a penalty added
    gives its ``entry``."""

    action: str
    target: int | None = None
    entry: Entry | None = None
    changes: Mapping[str, Any] | None = None
    by: str = ""
    reason: str = ""


@attrs.frozen
class Correcting:
    """What a correction does: the entry as it stands and as it will stand (None: none, or void),
    and the fact it records (None for a void, a reopening, an end)."""

    request: CorrectionRequest
    before: Entry | None
    after: Entry | None
    fact: HandResult | Penalty | None
    position: int | None
    # An amendment to what already stands (refused: a line of the record for good that says nothing).
    unchanged: bool = False


def correcting(match: Match, request: CorrectionRequest) -> Correcting:
    """The correction a request asks for on this match, read and checked by field (who and why,
    the entry, what replaces it), not yet applied."""
    if request.action not in CORRECTIONS:
        raise FieldError("action", Said("choose one of {actions}", actions=", ".join(CORRECTIONS)))
    if request.action != "end" and not request.by.strip():
        raise FieldError("by", Said("say who makes the correction"))
    if not request.reason.strip():
        raise FieldError("reason", Said("say why"))
    if request.action in ("reopen", "end"):
        return Correcting(request, None, None, None, None)
    if request.action == "penalty":
        if request.entry is None or request.entry.kind != "penalty":
            raise FieldError("player", Said("choose the player penalised"))
        return Correcting(request, None, request.entry, fact_at(match, request.entry), None)
    if request.target is None:
        raise FieldError("target", Said("choose the entry to correct"))
    numbers = entry_numbers(match)
    try:
        position = numbers.position(request.target)
    except HonbaError as exc:
        raise FieldError("target", exc.said) from None
    # Where nothing stands (a void, a correction cancelled), the domain says why it cannot be corrected.
    standing = fact_in_force(position, match.history, match.correction_log)
    before = (
        None if standing is None or isinstance(standing, DealPass | MatchEnd) else entry_of(standing, match.players)
    )
    if request.action == "void":
        return Correcting(request, before, None, None, position)
    if request.entry is not None:
        after = request.entry
    elif request.changes:
        if before is None:
            before = stored_entry(match, request.target)
        after = amended(before, request.changes)
    else:
        raise FieldError("kind", Said("give the entry that replaces it, or the fields that change"))
    if after.kind in ("undo", "end"):
        raise FieldError("kind", Said("an entry is amended by a result or a penalty"))
    fact = fact_at(match, after, match.state_before(position))
    unchanged = fact == standing
    if not isinstance(fact, Penalty):
        fact = with_notes_of(standing, fact)
    return Correcting(request, before, after, fact, position, unchanged)


def _apply(match: Match, correction: Correcting, client_key: str | None) -> int:
    """The correction on the match in memory (the domain checks it); the position of the event that
    says what it did (the correction, or the end)."""
    request = correction.request
    by, reason = request.by, request.reason
    numbers = entry_numbers(match)
    try:
        if request.action == "end":
            return ending(match, reason, client_key)
        if request.action == "reopen":
            return made(match, by, reason, match.reopen(by=by, reason=reason, client_key=client_key))
        if request.action == "penalty":
            assert isinstance(correction.fact, Penalty)
            match.add_penalty(correction.fact, by=by, reason=reason, client_key=client_key)
            return made(match, by, reason)
        assert correction.position is not None
        if correction.unchanged and (client_key is None or client_key not in match.client_keys):
            # A retry of a correction stored with this key is the domain's to answer (it records nothing).
            target = request.target
            assert target is not None  # an amendment names its entry (``correcting`` refuses one that does not)
            raise FieldError(
                "target", Said("entry {number} already stands so: the correction changes nothing", number=target)
            )
        if correction.fact is None:
            match.void(correction.position, by=by, reason=reason, client_key=client_key)
        else:
            match.amend(correction.position, correction.fact, by=by, reason=reason, client_key=client_key)
        return made(match, by, reason, correction.position)
    except EntryRefused as refused:
        raise refused.renamed(numbers.said) from None


def apply_correction(app: HonbaApp, key: str, request: CorrectionRequest, *, client_key: str | None) -> Recorded:
    """A referee's correction: void or amend the entry numbered ``request.target`` (the number
    ``honba log`` and the pages show), add a penalty (also after the end), reopen a match ended
    early, or end one early. The one call the front ends make for corrections: the match read once
    and saved once; ``Recorded.change`` says what it did (sent again with its client key, it
    records nothing and says the same)."""

    def command(match: Match) -> int:
        return _apply(match, correcting(match, request), client_key)

    match, position = on_match(app, key, command, client_key)
    change = change_at(match, position, target=request.target)
    return recorded(match, change.target, change)


def correction_preview(app: HonbaApp, key: str, request: CorrectionRequest) -> Change:
    """What a correction would change, worked out by the domain on the stored match in memory: a
    correction the rules refuse is refused here, before the confirm step, and nothing is stored."""
    match = app.get_match(key)
    position = _apply(match, correcting(match, request), None)
    return change_at(match, position, target=request.target)


def correction_made(app: HonbaApp, key: str, entry: int) -> Change:
    """What the correction numbered ``entry`` did (or the early end numbered so), as it stands
    now: what the desk shows after a correction is stored."""
    match = app.get_match(key)
    numbers = entry_numbers(match)
    try:
        position = numbers.position(entry)
    except HonbaError as exc:
        raise FieldError("target", exc.said) from None
    if position not in dict(match.correction_log) and not isinstance(dict(match.history).get(position), MatchEnd):
        raise FieldError("target", Said("entry {number} is not a correction nor an end", number=entry))
    return change_at(match, position)


# What a command would do, before it is confirmed.


def apply_to(match: Match, entry: Entry, at: datetime | None = None) -> int | None:
    """Apply an entry to a match in memory (checked by the rules, stored by nobody): a hand result
    as recorded at ``at``, for the match's clock; for an undo or an end, the position of the event
    that says what it did."""
    if entry.kind == "undo":
        return undone(match, "table", "undo")
    if entry.kind == "end":
        return ending(match, entry.reason)
    fact = fact_at(match, entry)
    if isinstance(fact, Penalty):
        match.penalise(fact)
    else:
        match.record(fact, at=at)
    return None


@attrs.frozen
class Preview:
    """What an entry would record: its description, the payments in words (``domain.said``), and the
    scores after; for an undo or an end, what it would change (``change``)."""

    lines: tuple[Said, ...]
    scores_after: dict[str, int]
    hand: str
    change: Change | None = None


def preview(app: HonbaApp, key: str, entry: Entry) -> Preview:
    """What recording ``entry`` next would pay, worked out by the domain on the stored match in
    memory: a bad entry is refused here, before the confirm step, and nothing is stored."""
    # At the server's time now, as recording it would be: the end on time shows in the preview.
    return previewed(app.get_match(key), entry, server_time())


def previewed(match: Match, entry: Entry, at: datetime | None) -> Preview:
    """``preview`` on a match already loaded, the entry applied to it in memory (recorded at ``at``)."""
    before = corrected_ledger(match.corrected_steps())
    position = apply_to(match, entry, at)
    scores = dict(zip(match.players, match.state.scores, strict=True))
    if position is not None:
        change = change_at(match, position, action=entry.kind)
        lines = [opening(change_said(change)), *(line for hand in change.hands for line in hand.after)]
        return Preview(tuple(lines), scores, match.state.hand_label, change)
    after = corrected_ledger(match.corrected_steps())
    scoring = match.rules.scoring
    lines = [line for e in after[len(before) :] for line in payment_said(e, match.players, scoring)]
    return Preview(tuple(lines), scores, match.state.hand_label)
