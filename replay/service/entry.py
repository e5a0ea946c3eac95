"""Entering and correcting results, shared by every front end (``honba win``/``amend``, the table
page, the referee's desk, the JSON API).

What a person typed or tapped is read into the one entry model by ``replay.input``
(``fields.entry_from_fields``, the text fields every front end sends) and made a domain fact by
``replay.input.entry.fact_of``; here are the use cases on it. An entry is recorded on the match as
loaded (``apply_entry``: one load, one save). A correction starts from the entry that stands
(``stored_entry``) and changes only what the referee changed: the whole entry given again, or
some of its fields (``replay.input.fields.amended``); ``apply_correction`` records it and
``corrected`` also says what it changed. ``preview`` and ``correction_preview`` apply a command to
the match as stored, in memory, and report what it would change, so the rules check it before the
confirm step and nothing is stored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, TypeGuard

import attrs

from domain.amendments import Correction, corrected_steps, fact_in_force, resolve_corrections
from domain.errors import EntryRefused, HonbaError
from domain.match import Match, opening_state
from domain.values import (
    AbortiveDraw,
    DealPass,
    ExhaustiveDraw,
    HandResult,
    MatchEnd,
    Payment,
    Penalty,
    Reason,
    TableState,
    WinResult,
)
from projections.ledger import LedgerEntry, corrected_ledger
from replay.formats.record import EntryNumbers, entry_numbers
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
    slot,
    value_text,
    whole_number,
)
from replay.service.corrections import undo
from replay.service.recording import Recorded, on_match, penalise, record, recorded, server_time
from replay.service.shapes import describe_fact
from replay.store.application import HonbaApp

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
        raise FieldError(field_name(exc.field), str(exc)) from None


def stored_entry(match: Match, number: int) -> Entry:
    """The entry that stands at the entry numbered ``number`` (as ``honba log`` numbers it): the
    result or penalty recorded there, as corrected since; a correction's own number gives what it
    put there. What a correction starts from."""
    numbers = entry_numbers(match)
    fact = fact_in_force(numbers.position(number), match.history, match.correction_log)
    if not isinstance(fact, WinResult | ExhaustiveDraw | AbortiveDraw | Penalty):
        raise FieldError(
            "target", f"nothing stands at entry {number} to correct (a void, or a correction cancelled since)"
        )
    return entry_of(fact, match.players)


def apply_entry(
    app: HonbaApp, key: str, entry: Entry, *, client_key: str | None, by: str = "table", reason: str = "undo"
) -> Recorded:
    """Record an entry on the stored match (the one call the front ends make): the match is loaded
    once, the entry read at its table, and saved once."""
    if entry.kind == "undo":
        return undo(app, key, by=by, reason=reason, client_key=client_key)
    if entry.kind == "penalty":
        return penalise(app, key, lambda match: _penalty(fact_at(match, entry)), client_key=client_key)
    return record(app, key, lambda match: _result(fact_at(match, entry)), client_key=client_key)


def _penalty(fact: HandResult | Penalty) -> Penalty:
    assert isinstance(fact, Penalty)  # a penalty's entry is one
    return fact


def _result(fact: HandResult | Penalty) -> HandResult:
    assert not isinstance(fact, Penalty)  # a penalty's entry is recorded by penalise
    return fact


CORRECTIONS = ("void", "amend", "penalty")


@attrs.frozen
class CorrectionRequest:
    """A referee's correction as asked for: ``void`` or ``amend`` the entry numbered ``target``, or
    add a ``penalty``. An amendment gives the whole ``entry`` again, or the ``changes`` to the
    entry that stands (its text fields, the rest kept); a penalty added gives its ``entry``."""

    action: str
    target: int | None = None
    entry: Entry | None = None
    changes: Mapping[str, Any] | None = None
    by: str = ""
    reason: str = ""


@attrs.frozen
class Correcting:
    """What a correction does: the entry as it stands and as it will stand (None: none, or void),
    and the fact it records (None for a void)."""

    request: CorrectionRequest
    before: Entry | None
    after: Entry | None
    fact: HandResult | Penalty | None
    position: int | None


def correcting(match: Match, request: CorrectionRequest) -> Correcting:
    """The correction a request asks for on this match, read and checked by field (who and why,
    the entry, what replaces it), not yet applied."""
    if request.action not in CORRECTIONS:
        raise FieldError("action", f"choose one of {', '.join(CORRECTIONS)}")
    if not request.by.strip():
        raise FieldError("by", "say who makes the correction")
    if not request.reason.strip():
        raise FieldError("reason", "say why")
    if request.action == "penalty":
        if request.entry is None or request.entry.kind != "penalty":
            raise FieldError("player", "choose the player penalised")
        return Correcting(request, None, request.entry, fact_at(match, request.entry), None)
    if request.target is None:
        raise FieldError("target", "choose the entry to correct")
    numbers = entry_numbers(match)
    try:
        position = numbers.position(request.target)
    except HonbaError as exc:
        raise FieldError("target", str(exc)) from None
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
        raise FieldError("kind", "give the entry that replaces it, or the fields that change")
    if after.kind == "undo":
        raise FieldError("kind", "an entry is amended by a result or a penalty")
    fact = fact_at(match, after, match.state_before(position))
    return Correcting(request, before, after, fact, position)


def _apply(match: Match, correction: Correcting, numbers: EntryNumbers, client_key: str | None) -> None:
    """The correction on the match in memory (the domain checks it)."""
    request = correction.request
    by, reason = request.by, request.reason
    try:
        if request.action == "penalty":
            assert isinstance(correction.fact, Penalty)
            match.add_penalty(correction.fact, by=by, reason=reason, client_key=client_key)
        elif correction.fact is None:
            assert correction.position is not None
            match.void(correction.position, by=by, reason=reason, client_key=client_key)
        else:
            assert correction.position is not None
            match.amend(correction.position, correction.fact, by=by, reason=reason, client_key=client_key)
    except EntryRefused as refused:
        raise refused.renamed(numbers.name) from None


def apply_correction(app: HonbaApp, key: str, request: CorrectionRequest, *, client_key: str | None) -> Recorded:
    """A referee's correction: void or amend the entry numbered ``request.target`` (the number
    ``honba log`` and the pages show), or add a penalty (also after the end). The one call the
    front ends make for corrections."""
    return corrected(app, key, request, client_key=client_key)[0]


def corrected(
    app: HonbaApp, key: str, request: CorrectionRequest, *, client_key: str | None
) -> tuple[Recorded, CorrectionPreview]:
    """Apply a correction (read on the match as loaded, once, and saved once) and say what it
    changed (``correction_report``): sent again with its client key, it records nothing and says
    the same."""

    def command(match: Match) -> None:
        _apply(match, correcting(match, request), entry_numbers(match), client_key)

    match, _, head = on_match(app, key, command, client_key)
    made = [p for p, c in match.correction_log if (c.by, c.reason) == (request.by, request.reason)]
    return recorded(match, head, request.target), correction_report(match, made[-1], target=request.target)


# What a command would do, before it is confirmed.


def apply_to(match: Match, entry: Entry, at: datetime | None = None) -> None:
    """Apply an entry to a match in memory (checked by the rules, stored by nobody); a hand
    result as recorded at ``at``, for the match's clock."""
    if entry.kind == "undo":
        match.undo(by="table", reason="undo")
        return
    fact = fact_at(match, entry)
    if isinstance(fact, Penalty):
        match.penalise(fact)
    else:
        match.record(fact, at=at)


@attrs.frozen
class Preview:
    """What an entry would record: its description, the payments in words, and the scores after."""

    lines: tuple[str, ...]
    scores_after: dict[str, int]
    hand: str


def preview(app: HonbaApp, key: str, entry: Entry) -> Preview:
    """What recording ``entry`` next would pay, worked out by the domain on the stored match in
    memory: a bad entry is refused here, before the confirm step, and nothing is stored."""
    match = app.get_match(key)
    before = corrected_ledger(match.corrected_steps())
    # At the server's time now, as recording it would be: the end on time shows in the preview.
    apply_to(match, entry, server_time())
    after = corrected_ledger(match.corrected_steps())
    new = after[len(before) :] if entry.kind != "undo" else after
    lines: list[str] = []
    if entry.kind == "undo":
        lines.append("Undo the last entry: a correction, the entry stays in the log, voided")
    for e in new if entry.kind != "undo" else ():
        lines.extend(payment_lines(e, match.players, match.rules.scoring))
    return Preview(tuple(lines), dict(zip(match.players, match.state.scores, strict=True)), match.state.hand_label)


@attrs.frozen
class ChangedHand:
    """A ledger entry whose payments a correction changes: in words, before and after (empty:
    not in the ledger then)."""

    before: tuple[str, ...]
    after: tuple[str, ...]


@attrs.frozen
class CorrectionPreview:
    """What a correction would do: the entry as it stands and as corrected (in words, and the text
    fields that change: name, before, after), every hand whose payments change, the scores."""

    action: str
    target: int | None
    before: str | None
    after: str | None
    fields: tuple[tuple[str, str, str], ...]
    hands: tuple[ChangedHand, ...]
    scores_before: dict[str, int]
    scores_after: dict[str, int]


def correction_preview(app: HonbaApp, key: str, request: CorrectionRequest) -> CorrectionPreview:
    """What a correction would change, worked out by the domain on the stored match in memory: a
    correction the rules refuse is refused here, before the confirm step, and nothing is stored."""
    match = app.get_match(key)
    _apply(match, correcting(match, request), entry_numbers(match), None)
    return correction_report(match, match.version, target=request.target)


def correction_report(match: Match, position: int, *, target: int | None = None) -> CorrectionPreview:
    """What the correction at ``position`` of the match changed, all else as it stands: the entry
    before and after it (in words, and the text fields that differ), every hand whose payments
    it changed, the scores with and without it. ``target`` is the entry's number as asked for."""
    log = match.correction_log
    correction = dict(log)[position]
    added = {p for p, c in log if c.target is None}
    without = [(p, c) for p, c in log if p < position]
    through = [(p, c) for p, c in log if p <= position]
    players = match.players
    opening = opening_state(match.rules, match.opening)

    def ledger(corrections: list[tuple[int, Correction]]) -> list[LedgerEntry]:
        history = [(p, f) for p, f in match.history if p not in added or p in dict(corrections)]
        return corrected_ledger(corrected_steps(opening, match.rules, history, resolve_corrections(corrections)))

    if correction.target is None:
        was, now = None, correction.replacement
    else:
        was = fact_in_force(correction.target, match.history, without)
        now = fact_in_force(correction.target, match.history, through)
    ledger_before, ledger_after = ledger(without), ledger(through)
    scoring = match.rules.scoring
    hands = _changed_hands(ledger_before, ledger_after, players, scoring)
    before_fields = entry_fields(entry_of(was, players)) if _is_entry(was) else {}
    after_fields = entry_fields(entry_of(now, players)) if _is_entry(now) else {}
    changed = tuple(
        (name, _shown_field(before_fields.get(name)), _shown_field(after_fields.get(name)))
        for name in dict.fromkeys([*before_fields, *after_fields])
        if before_fields.get(name) != after_fields.get(name)
    )

    def scores(entries: list[LedgerEntry]) -> dict[str, int]:
        state = entries[-1].after if entries else opening
        return dict(zip(players, state.scores, strict=True))

    return CorrectionPreview(
        action="penalty" if correction.target is None else "void" if correction.replacement is None else "amend",
        target=target,
        before=describe_fact(was, players, scoring) if was is not None else None,
        after="void" if now is None else describe_fact(now, players, scoring),
        fields=changed,
        hands=hands,
        scores_before=scores(ledger_before),
        scores_after=scores(ledger_after),
    )


def _is_entry(fact: object) -> TypeGuard[HandResult | Penalty]:
    return isinstance(fact, WinResult | ExhaustiveDraw | AbortiveDraw | Penalty)


def _changed_hands(
    before: Sequence[LedgerEntry], after: Sequence[LedgerEntry], players: Sequence[str], scoring: str
) -> tuple[ChangedHand, ...]:
    was = {e.position: e for e in before}
    now = {e.position: e for e in after}
    hands = []
    for position in sorted({*was, *now}, key=lambda p: (p is None, p or 0)):
        old, new = was.get(position), now.get(position)
        if old is not None and new is not None and (old.fact, old.payments) == (new.fact, new.payments):
            continue
        hands.append(
            ChangedHand(
                tuple(payment_lines(old, players, scoring)) if old is not None else (),
                tuple(payment_lines(new, players, scoring)) if new is not None else (),
            )
        )
    return tuple(hands)


def _shown_field(value: Any) -> str:
    if value is None:
        return ""
    return ", ".join(value) if isinstance(value, list) else str(value)


def payment_lines(entry: LedgerEntry, players: Sequence[str], scoring: str) -> list[str]:
    """One ledger entry in words: what it is (in the words of the rules' family, ``scoring``), then
    one line per payer and payee, e.g. ``Cho pays Ben 3,900 + 300 counters + 1,000 deposits``."""
    if entry.kind == "end":
        return [f"The match ends ({entry.after.end_reason})"] if entry.after.end_reason else ["The match ends"]
    lines = [f"{entry.before.hand_label}: {describe_fact(entry.fact, players, scoring)}"]
    grouped: dict[tuple[int | None, int | None], list[Payment]] = {}
    for payment in entry.payments:
        grouped.setdefault((payment.payer, payment.payee), []).append(payment)
    for (payer, payee), payments in grouped.items():
        lines.append(_payment_line(payer, payee, payments, players))
    if not entry.payments:
        lines.append("no payments")
    return lines


_SHORT = {Reason.HAND: "", Reason.COUNTERS: "counters", Reason.DEPOSITS: "deposits", Reason.RIICHI_STICK: "deposit"}


def _payment_line(payer: int | None, payee: int | None, payments: Sequence[Payment], players: Sequence[str]) -> str:
    who = "the table" if payer is None else players[payer]
    whom = "the table" if payee is None else players[payee]
    parts = []
    for p in payments:
        label = _SHORT.get(p.reason, p.reason.value)
        parts.append(f"{p.amount:,}" + (f" {label}" if label else ""))
    if payee is None:
        return f"{who} puts {' + '.join(parts)} on the table"
    verb = "pays" if payer is not None else "gives"
    return f"{who} {verb} {whom} {' + '.join(parts)}"
