"""Entering and correcting results, shared by every front end (``honba win``/``amend``, the table
page, the referee's desk, the JSON API).

What a person typed or tapped becomes the one entry model (``replay.formats.entry.Entry``) here,
once: ``entry_from_fields`` reads the plain text fields every front end sends (the same names on
the command line's ``--set``, in the forms and in the API, ``docs/web.md``), ``entry_fields``
gives them back (what a confirm step sends again, what a correction form is filled with), and
``replay.formats.entry.fact_of`` makes the entry a domain fact. Fields are read, never judged:
what a result must satisfy is the domain's to say when it is recorded, and here a field that
cannot be read is refused by its name (``FieldError``).

A correction starts from the entry that stands (``stored_entry``) and changes only what the
referee changed (``amended``): the whole entry typed again, or the fields given. ``preview`` and
``correction_preview`` apply a command to the match as stored, in memory, and report what it
would change, so the rules check it before the confirm step and nothing is stored; ``apply_entry``
and ``apply_correction`` are the one place the front ends call the application's recording and
correcting methods.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeGuard

import attrs

from domain.amendments import Correction, corrected_steps, fact_in_force, resolve_corrections
from domain.errors import EntryRefused, HonbaError
from domain.match import Match, opening_state
from domain.values import (
    LIMIT_NAMES,
    AbortiveDraw,
    DealPass,
    ExhaustiveDraw,
    HandResult,
    HandValue,
    MatchEnd,
    Payment,
    Penalty,
    PenaltyShare,
    Reason,
    TableState,
    WinFacts,
    WinResult,
)
from projections.ledger import LedgerEntry, corrected_ledger
from replay.formats.entry import (
    FLAG_KEYS,
    KINDS,
    MAX_COUNT,
    MAX_NOTE,
    MAX_POINTS,
    VALUE_KEYS,
    Entry,
    FieldError,
    HandPenaltyEntry,
    WinEntry,
    bound_of,
    entry_line,
    entry_of,
    fact_of,
    has_control,
    result_of,
)
from replay.formats.logmodel import shown
from replay.input.parsing import InputError, parse_value
from replay.service.corrections import undo
from replay.service.recording import Recorded, on_match, penalise, record, recorded
from replay.service.shapes import describe_fact
from replay.store.application import HonbaApp

if TYPE_CHECKING:
    from replay.formats.record import EntryNumbers

# The entry model's names the front ends use, from here (with everything this module defines).
__all__ = ["FLAG_KEYS", "KINDS", "Entry", "FieldError", "entry_line", "entry_of"]

# At most every other player of a four-player table wins on one discard.
MAX_WINNERS = 3
# The win's facts by the names of their text fields; the facts that are true or false are listed
# by name in ``facts``, the hand's penalties in ``penalties`` (``PLAYER:AMOUNT``).
FACT_FIELDS = {
    "winning_tile": "tile",
    "discards": "discards",
    "melded_sets": "melded",
    "predealt_jokers": "jokers",
    "special_hands": "special",
}
# A value's fields one by one (the dora apart: they go with a value given as text too).
VALUE_FIELDS = tuple(k for k in VALUE_KEYS if k != "dora")
# The longest text a field may hold, and the most items a list may have (no entry has more).
MAX_TEXT = 200
MAX_ITEMS = 64
MAX_DIGITS = 12
# The number of an entry of a match's log (its line in the exported record file).
MAX_ENTRY = 1_000_000
_DIGITS = re.compile(r"-?[0-9]+")
_HAND_PENALTY = re.compile(r"^(?P<payer>.+?):(?P<amount>-?[0-9]+)(?::(?P<note>.*))?$", re.DOTALL)


def slot(index: int) -> str:
    """The suffix of the fields of the winner at ``index`` (from 0): ``""``, ``"2"``, ``"3"``."""
    return "" if index == 0 else str(index + 1)


# Reading the text fields.


def whole_number(field: str, raw: Any, *, low: int | None = None, high: int = MAX_COUNT) -> int:
    """A whole number a person or a client sent (a JSON number, or ASCII digits with an optional
    minus, at most 12 characters), within ``high`` either way (or from ``low``): the record line's
    bounds, so that text and a record line read alike; what else the rules allow (no negative dora,
    a positive amount) the domain says. The one reader of numbers in an entry's fields (where the
    domain's bounds and number reader of issue 24 come, they come in here)."""
    bottom = -high if low is None else low
    if isinstance(raw, int) and not isinstance(raw, bool):
        number = raw
    else:
        text = raw.strip() if isinstance(raw, str) else None
        if text is None or len(text) > MAX_DIGITS or not _DIGITS.fullmatch(text):
            raise FieldError(field, f"{shown(raw)} is not a whole number")
        number = int(text)
    if not bottom <= number <= high:
        raise FieldError(field, f"{number} is out of range ({bottom} to {high})")
    return number


def _text(fields: Mapping[str, Any], name: str) -> str:
    value = fields.get(name)
    if value is None:
        return ""
    if isinstance(value, list | tuple):
        # A form may send a field twice (a stale hidden field and the one typed): the last counts.
        value = value[-1] if value else ""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise FieldError(name, f"{shown(value)} is not text")
    text = str(value).strip()
    if len(text) > MAX_TEXT or has_control(text):
        raise FieldError(name, f"expected one line of text (at most {MAX_TEXT} characters)")
    return text


# The fields that hold several items (a form sends them once per item: ``form_of`` keeps them as
# lists), by their names without a winner's suffix; the players' lists take an item as it is
# (a name may hold a comma), the others also split an item at its commas (a typed list).
PLAYER_LISTS = ("riichi", "ready", "nagashi", "kongs", "penalties")
VALUE_LISTS = ("facts", "special", "discards", "loser_scores")


def is_list_field(name: str) -> bool:
    """Whether a text field holds several items (``riichi``, ``facts2``, ...)."""
    return name.rstrip("23") in (*PLAYER_LISTS, *VALUE_LISTS)


def _items(fields: Mapping[str, Any], name: str) -> tuple[str, ...]:
    """A list field: a list (repeated form fields, a JSON list), or text with the items between
    commas; an item of a list of values is split at its commas too."""
    value = fields.get(name)
    if value is None:
        return ()
    if isinstance(value, list | tuple):
        raw = list(value)
        if name.rstrip("23") in VALUE_LISTS:
            raw = [part for item in raw for part in (item.split(",") if isinstance(item, str) else [item])]
    else:
        raw = _text(fields, name).split(",")
    if len(raw) > MAX_ITEMS:
        raise FieldError(name, f"at most {MAX_ITEMS} items")
    items = []
    for item in raw:
        text = _text({name: item}, name)
        if text:
            items.append(text)
    return tuple(items)


def _optional(fields: Mapping[str, Any], name: str) -> str | None:
    return _text(fields, name) or None


def entry_from_fields(fields: Mapping[str, Any]) -> Entry:
    """The entry plain text fields describe (form fields, a JSON body, the command line's options):
    the fields of ``docs/web.md``. A field that cannot be read is refused by its name."""
    kind = _text(fields, "kind")
    if kind == "undo":
        return Entry("undo")
    if kind == "win":
        wins = tuple(w for w in (_win_from_fields(fields, slot(i)) for i in range(MAX_WINNERS)) if w is not None)
        if not wins:
            raise FieldError("winner", "choose the winner")
        return Entry("win", wins=wins, riichi=_items(fields, "riichi"))
    if kind == "draw":
        return Entry(
            "draw", ready=_items(fields, "ready"), riichi=_items(fields, "riichi"), nagashi=_items(fields, "nagashi")
        )
    if kind == "abort":
        return Entry(
            "abort", abort=_text(fields, "abort"), riichi=_items(fields, "riichi"), kongs=_items(fields, "kongs")
        )
    if kind == "penalty":
        amount = _text(fields, "amount")
        share = _optional(fields, "share")
        if share is not None and share not in {s.value for s in PenaltyShare}:
            raise FieldError("share", f"the share is to_others, reverse_mangan or off_table, not {shown(share)}")
        return Entry(
            "penalty",
            player=_optional(fields, "player"),
            amount=whole_number("amount", amount, high=MAX_POINTS) if amount else None,
            penalty_kind=_text(fields, "penalty_kind") or "chombo",
            share=share,
            note=_note(fields, "note"),
        )
    raise FieldError("kind", f"choose what happened ({', '.join((*KINDS, 'undo'))})")


def _note(fields: Mapping[str, Any], name: str) -> str:
    text = _text(fields, name)
    if len(text) > MAX_NOTE:
        raise FieldError(name, f"a note is at most {MAX_NOTE} characters")
    return text


def _win_from_fields(fields: Mapping[str, Any], s: str) -> WinEntry | None:
    winner = _text(fields, f"winner{s}")
    value_given = _text(fields, f"value{s}") or any(_text(fields, f"{k}{s}") for k in VALUE_FIELDS)
    if not winner:
        if value_given and s:
            raise FieldError(f"winner{s}", "choose this winner, or clear the hand value given for them")
        if value_given:
            raise FieldError("winner", "choose the winner")
        return None
    discarder = _optional(fields, f"discarder{s}") if s and f"discarder{s}" in fields else None
    return WinEntry(
        winner=winner,
        value=_value(fields, s),
        discarder=discarder or _optional(fields, "discarder"),
        pao=_optional(fields, f"pao{s}"),
        facts=_facts(fields, s),
        penalties=tuple(_hand_penalty(item, f"penalties{s}") for item in _items(fields, f"penalties{s}")),
        loser_scores=tuple(
            whole_number(f"loser_scores{s}", item, high=MAX_POINTS) for item in _items(fields, f"loser_scores{s}")
        ),
    )


def _value(fields: Mapping[str, Any], s: str) -> HandValue:
    text = _text(fields, f"value{s}")
    given = {k: _text(fields, f"{k}{s}") for k in VALUE_FIELDS}
    given = {k: v for k, v in given.items() if v}
    if text and given:
        raise FieldError(
            f"value{s}", "give the hand value as text (e.g. 3/30) or field by field (han, fu, limit ...), not both"
        )
    if text:
        try:
            value = parse_value(text)
        except InputError as exc:
            raise FieldError(f"value{s}", str(exc)) from None
    else:
        parts: dict[str, Any] = {}
        for name, raw in given.items():
            if name == "limit":
                if raw not in LIMIT_NAMES:
                    raise FieldError(f"value{s}", f"the limit is one of {', '.join(LIMIT_NAMES)}, not {shown(raw)}")
                parts[name] = raw
            else:
                parts[name] = whole_number(f"{name}{s}", raw, high=bound_of(name))
        value = HandValue(**parts)
    dora = _text(fields, f"dora{s}")
    return attrs.evolve(value, dora=whole_number(f"dora{s}", dora, high=bound_of("dora"))) if dora else value


def _facts(fields: Mapping[str, Any], s: str) -> WinFacts:
    flags = _items(fields, f"facts{s}")
    unknown = [f for f in flags if f not in FLAG_KEYS]
    if unknown:
        raise FieldError(f"facts{s}", f"unknown fact {shown(unknown[0])} (the facts are {', '.join(FLAG_KEYS)})")
    parts: dict[str, Any] = {name: True for name in flags}
    for field in attrs.fields(attrs.resolve_types(WinFacts)):
        name = FACT_FIELDS.get(field.name, field.name)
        if field.type is bool or field.name == "penalties":
            continue
        if field.type == tuple[str, ...]:
            parts[field.name] = _items(fields, f"{name}{s}")
        elif field.type is int:
            raw = _text(fields, f"{name}{s}")
            parts[field.name] = whole_number(f"{name}{s}", raw, high=bound_of(field.name)) if raw else 0
        else:
            parts[field.name] = _optional(fields, f"{name}{s}")
    return WinFacts(**parts)


def _hand_penalty(text: str, field: str) -> HandPenaltyEntry:
    found = _HAND_PENALTY.match(text)
    if found is None:
        raise FieldError(field, f"write a hand's penalty as PLAYER:AMOUNT, e.g. Ben:100 (got {shown(text)})")
    amount = whole_number(field, found["amount"], high=MAX_POINTS)
    return HandPenaltyEntry(found["payer"].strip(), amount, (found["note"] or "").strip())


# Writing them back.


def value_text(value: HandValue) -> str | None:
    """A hand value (but its dora) as the text ``parse_value`` reads back to exactly that value
    (``3/30``, ``6han``, ``mangan``, ``2xyakuman``, ``4faan``, ``40pts x 3dbl``); ``""`` for no
    value; None when no text says it exactly (it is written field by field)."""
    core = attrs.evolve(value, dora=None)
    if core == HandValue():
        return ""
    v = core
    if v.limit == "yakuman":
        text = "yakuman" if v.multiple == 1 else f"{v.multiple}xyakuman"
    elif v.limit is not None:
        text = v.limit
    elif v.han is not None:
        text = f"{v.han}/{v.fu}" if v.fu is not None else f"{v.han}han"
    elif v.faan is not None:
        text = f"{v.faan}faan"
    elif v.points is not None:
        text = f"{v.points}pts x {v.doubles}dbl" if v.doubles is not None else f"{v.points}points"
    elif v.doubles is not None:
        text = f"{v.doubles}doubles"
    else:
        return None
    try:
        return text if parse_value(text) == core else None
    except InputError:
        return None


def entry_fields(entry: Entry) -> dict[str, Any]:
    """The text fields of an entry (lists for the fields that hold several), fields at their
    default left out: ``entry_from_fields`` reads them back to the same entry."""
    out: dict[str, Any] = {"kind": entry.kind}
    if entry.kind == "win":
        first = entry.wins[0].discarder if entry.wins else None
        if first is not None:
            out["discarder"] = str(first)
        for i, win in enumerate(entry.wins):
            out.update(_win_fields(win, slot(i), first))
        if entry.riichi:
            out["riichi"] = [str(p) for p in entry.riichi]
    elif entry.kind in ("draw", "abort"):
        for name in ("ready", "riichi", "nagashi", "kongs"):
            if getattr(entry, name):
                out[name] = [str(p) for p in getattr(entry, name)]
        if entry.kind == "abort":
            out["abort"] = entry.abort
    elif entry.kind == "penalty":
        out["player"] = "" if entry.player is None else str(entry.player)
        if entry.amount is not None:
            out["amount"] = str(entry.amount)
        out["penalty_kind"] = entry.penalty_kind
        if entry.share is not None:
            out["share"] = entry.share
        if entry.note:
            out["note"] = entry.note
    return out


def _win_fields(win: WinEntry, s: str, discarder: object) -> dict[str, Any]:
    out: dict[str, Any] = {f"winner{s}": str(win.winner)}
    if win.discarder != discarder:
        out[f"discarder{s}"] = "" if win.discarder is None else str(win.discarder)
    text = value_text(win.value)
    if text is None:
        for name in VALUE_FIELDS:
            item = getattr(win.value, name)
            if item is not None and not (name == "multiple" and item == 1):
                out[f"{name}{s}"] = str(item)
    elif text:
        out[f"value{s}"] = text
    if win.value.dora is not None:
        out[f"dora{s}"] = str(win.value.dora)
    if win.pao is not None:
        out[f"pao{s}"] = str(win.pao)
    flags = [name for name in FLAG_KEYS if getattr(win.facts, name)]
    if flags:
        out[f"facts{s}"] = flags
    for field in attrs.fields(WinFacts):
        item = getattr(win.facts, field.name)
        if field.name == "penalties" or field.name in FLAG_KEYS or item == field.default:
            continue
        name = FACT_FIELDS.get(field.name, field.name)
        out[f"{name}{s}"] = list(item) if isinstance(item, tuple) else str(item)
    if win.penalties:
        out[f"penalties{s}"] = [f"{p.payer}:{p.amount}" + (f":{p.note}" if p.note else "") for p in win.penalties]
    if win.loser_scores:
        out[f"loser_scores{s}"] = ",".join(str(n) for n in win.loser_scores)
    return out


def field_name(path: str) -> str:
    """The text field a place in an entry is written in: ``wins[1].from`` is ``discarder``,
    ``wins[1].han`` is ``value2``, ``wins[0].facts.penalties[0].payer`` is ``penalties``."""
    found = re.match(r"wins\[(\d+)\]\.?([a-z_]*)\.?([a-z_]*)", path)
    if found is None:
        return "winner" if path == "wins" else (path or "kind")
    s = slot(int(found[1]))
    part, inner = found[2], found[3]
    if part == "from":
        return "discarder"
    if part in VALUE_KEYS:
        return f"dora{s}" if part == "dora" else f"value{s}"
    if part == "facts":
        if inner in FLAG_KEYS:
            return f"facts{s}"
        return f"{FACT_FIELDS.get(inner, inner)}{s}" if inner else f"facts{s}"
    return f"{part or 'winner'}{s}"


def amended(entry: Entry, changes: Mapping[str, Any]) -> Entry:
    """The entry with the fields ``changes`` gives changed and every other field kept: what a
    correction of some fields makes of the entry that stands. A field given empty is cleared; a
    hand value given (as text or field by field) replaces that winner's value whole."""
    fields = entry_fields(entry)
    for i in range(MAX_WINNERS):
        s = slot(i)
        if any(f"{k}{s}" in changes for k in ("value", *VALUE_FIELDS)):
            for k in ("value", *VALUE_FIELDS):
                fields.pop(f"{k}{s}", None)
    return entry_from_fields({**fields, **changes})


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
    from replay.formats.record import entry_numbers  # not loaded by the recording commands

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
    from replay.formats.record import entry_numbers  # not loaded by the recording commands

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
    from replay.formats.record import entry_numbers  # not loaded by the recording commands

    def command(match: Match) -> None:
        _apply(match, correcting(match, request), entry_numbers(match), client_key)

    match, _, head = on_match(app, key, command, client_key)
    made = [p for p, c in match.correction_log if (c.by, c.reason) == (request.by, request.reason)]
    return recorded(match, head, request.target), correction_report(match, made[-1], target=request.target)


# What a command would do, before it is confirmed.


def apply_to(match: Match, entry: Entry) -> None:
    """Apply an entry to a match in memory (checked by the rules, stored by nobody)."""
    if entry.kind == "undo":
        match.undo(by="table", reason="undo")
        return
    fact = fact_at(match, entry)
    if isinstance(fact, Penalty):
        match.penalise(fact)
    else:
        match.record(fact)


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
    apply_to(match, entry)
    after = corrected_ledger(match.corrected_steps())
    new = after[len(before) :] if entry.kind != "undo" else after
    lines: list[str] = []
    if entry.kind == "undo":
        lines.append("Undo the last entry: a correction, the entry stays in the log, voided")
    for e in new if entry.kind != "undo" else ():
        lines.extend(payment_lines(e, match.players))
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
    from replay.formats.record import entry_numbers  # not loaded by the recording commands

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
    hands = _changed_hands(ledger_before, ledger_after, players)
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
        before=describe_fact(was, players) if was is not None else None,
        after="void" if now is None else describe_fact(now, players),
        fields=changed,
        hands=hands,
        scores_before=scores(ledger_before),
        scores_after=scores(ledger_after),
    )


def _is_entry(fact: object) -> TypeGuard[HandResult | Penalty]:
    return isinstance(fact, WinResult | ExhaustiveDraw | AbortiveDraw | Penalty)


def _changed_hands(
    before: Sequence[LedgerEntry], after: Sequence[LedgerEntry], players: Sequence[str]
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
                tuple(payment_lines(old, players)) if old is not None else (),
                tuple(payment_lines(new, players)) if new is not None else (),
            )
        )
    return tuple(hands)


def _shown_field(value: Any) -> str:
    if value is None:
        return ""
    return ", ".join(value) if isinstance(value, list) else str(value)


def payment_lines(entry: LedgerEntry, players: Sequence[str]) -> list[str]:
    """One ledger entry in words: what it is, then one line per payer and payee,
    e.g. ``Cho pays Ben 3,900 + 300 counters + 1,000 deposits``."""
    if entry.kind == "end":
        return [f"The match ends ({entry.after.end_reason})"] if entry.after.end_reason else ["The match ends"]
    lines = [f"{entry.before.hand_label}: {describe_fact(entry.fact, players)}"]
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
