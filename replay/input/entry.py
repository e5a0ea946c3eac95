"""The one entry model: a hand result or a penalty as people write it, and the one way it becomes
a domain fact.

An ``Entry`` holds every fact the domain knows of a result (several winners, each with the hand
value, the discarder, the player liable, the win's facts and penalties, the losers' scores; the
riichi declared; the players ready and claiming nagashi; an abortive draw's kind and who declared
each kong) or of a penalty (the player, the amount, what it is for, the share, a note), with players
named as people name them (a name, or a seat number). Every front end builds it and nothing else:

- the record file's lines (``entry_from_line``; ``entry_line`` writes one back: a line and an
  entry map one to one, ``docs/record-format.md``);
- the command line, the table page, the referee's desk and the JSON API, from plain text fields
  (``replay.input.fields.entry_from_fields``, the same fields for all four, ``docs/web.md``);
- a stored fact, for a correction to start from (``entry_of``).

``fact_of`` is the one way an entry becomes a domain fact: the players' names become seats, a
penalty left unsized is sized by the rules at the table where it is given. What a result must
satisfy (who may win on whose discard, a hand value that exists, facts that agree, a player
named twice) is the domain's to say when the fact is recorded (``domain.entry_checks``,
``domain.scoring.checks``); here only what cannot be read is refused, each time with the name
of the field it is in (``FieldError``), in the record line's own words (``wins[1].from``).
"""

from __future__ import annotations

import math
import types
from collections.abc import Iterable, Mapping, Sequence
from enum import Enum
from typing import Any, Literal, TypeGuard, Union, get_args, get_origin

import attrs

from domain.bounds import DOUBLES, FAAN, MOST_SCORE, SEAT, TEXT, OutOfBounds, shown, unprintable, whole_number
from domain.codec import DecodeError, from_data, to_data
from domain.errors import HonbaError
from domain.rules import Ruleset
from domain.said import Said
from domain.scoring.payments import penalty_at
from domain.values import (
    AbortiveDraw,
    AbortKind,
    ExhaustiveDraw,
    HandPenalty,
    HandResult,
    HandValue,
    Penalty,
    PenaltyShare,
    Seat,
    TableState,
    Win,
    WinFacts,
    WinResult,
)

# A player as an entry names them: the name as on the match's start, or the seat number.
PlayerRef = str | int

KINDS = ("win", "draw", "abort", "penalty")
# Every field of a hand value (han, fu, dora, limit, multiple, faan, doubles, points, tai), in order.
VALUE_KEYS = tuple(f.name for f in attrs.fields(HandValue))
# The win's facts, but the penalties (they name players: ``WinEntry.penalties``).
FACT_KEYS = tuple(f.name for f in attrs.fields(WinFacts) if f.name != "penalties")
# The facts that are true or false: a set of names in an entry's text fields.
FLAG_KEYS = tuple(f.name for f in attrs.fields(attrs.resolve_types(WinFacts)) if f.type is bool)

# The bounds a record line (and an entry's text field) holds its numbers to as they are read: a
# score or an amount of points as far as any score goes (``domain.bounds.MOST_SCORE``), faan and
# doubles to their bounds (``FAAN``, ``DOUBLES``: 64 doublings); any other count to ``MAX_COUNT``,
# a cap far above every count's own range and no range of its own: the domain holds each count to
# its range when the entry is recorded (the rules' limits first, then ``domain.bounds``), so that
# a refusal names the rule, in the same words for a record line, a form and the command line.
MAX_POINTS = MOST_SCORE
MAX_COUNT = 10_000
FIELD_BOUNDS = {"faan": FAAN.high, "doubles": DOUBLES.high}
POINT_FIELDS = frozenset({"points", "tai", "scores", "deposits", "penalties", "loser_scores", "final_points", "amount"})
# A note, a penalty's kind: the domain's text (``domain.bounds.TEXT``).
MAX_NOTE = TEXT.longest
NO_VALUE = HandValue()
NO_FACTS = WinFacts()


class FieldError(HonbaError):
    """An entry that cannot be read, naming the field it is in (``wins[0].han``, ``riichi``, or
    ``""`` for the entry as a whole)."""

    def __init__(self, field: str, message: str | Said):
        super().__init__(message)
        self.field = field

    def within(self, where: str) -> str:
        """The message placed at ``where`` (a file and line): ``game.jsonl:3.wins[0].han: ...``."""
        return f"{where}.{self.field}: {self}" if self.field else f"{where}: {self}"


@attrs.frozen
class HandPenaltyEntry:
    """A penalty attached to a win: ``payer`` pays the winner ``amount`` for this hand."""

    payer: PlayerRef
    amount: int
    note: str = ""


@attrs.frozen
class WinEntry:
    """One winner's part of a win: the record line's ``wins[i]``.

    ``facts`` are the win's facts but its penalties, which name players (``penalties``).
    """

    winner: PlayerRef
    value: HandValue = NO_VALUE
    discarder: PlayerRef | None = None
    pao: PlayerRef | None = None
    facts: WinFacts = NO_FACTS
    penalties: tuple[HandPenaltyEntry, ...] = ()
    loser_scores: tuple[int, ...] = ()


@attrs.frozen
class Entry:
    """One result or penalty as entered: ``kind`` is ``win``, ``draw``, ``abort`` or ``penalty``
    (at a table also ``undo``: the last entry taken back, and ``end``: the match ended early for
    ``reason``; neither is a fact of its own), with the fields of that kind.

    A win: ``wins`` (one to three) and ``riichi``; a draw: ``ready``, ``riichi``, ``nagashi``; an
    abortive draw: ``abort`` (its kind), ``riichi``, ``kongs`` (who declared each kong, in
    order); a penalty: ``player``, ``amount`` (None: the rules'), ``penalty_kind`` (what it is
    for), ``share`` (None: the rules'), ``note``. The fields of other kinds stay at their default.
    """

    kind: str
    wins: tuple[WinEntry, ...] = ()
    riichi: tuple[PlayerRef, ...] = ()
    ready: tuple[PlayerRef, ...] = ()
    nagashi: tuple[PlayerRef, ...] = ()
    abort: str = ""
    kongs: tuple[PlayerRef, ...] = ()
    player: PlayerRef | None = None
    amount: int | None = None
    penalty_kind: str = "chombo"
    share: str | None = None
    note: str = ""
    reason: str = ""


# A stored fact as an entry.


def entry_of(fact: HandResult | Penalty, players: Sequence[str]) -> Entry:
    """The entry a stored result or penalty stands for, players by name: ``fact_of`` gives the
    same fact back (what a log said beside it, ``Win.details`` and who ``called``, is not a fact
    of the result: it is left out)."""

    def names(seats: Iterable[Seat]) -> tuple[str, ...]:
        return tuple(players[s] for s in seats)

    if isinstance(fact, WinResult):
        wins = tuple(
            WinEntry(
                winner=players[w.winner],
                value=w.value,
                discarder=None if w.discarder is None else players[w.discarder],
                pao=None if w.liable is None else players[w.liable],
                facts=attrs.evolve(w.facts, penalties=()),
                penalties=tuple(HandPenaltyEntry(players[p.payer], p.amount, p.note) for p in w.facts.penalties),
                loser_scores=w.loser_scores,
            )
            for w in fact.wins
        )
        return Entry("win", wins=wins, riichi=names(fact.riichi))
    if isinstance(fact, ExhaustiveDraw):
        return Entry("draw", ready=names(fact.ready), riichi=names(fact.riichi), nagashi=names(fact.nagashi))
    if isinstance(fact, AbortiveDraw):
        return Entry("abort", abort=fact.kind.value, riichi=names(fact.riichi), kongs=names(fact.kongs))
    return Entry(
        "penalty",
        player=players[fact.seat],
        amount=fact.amount,
        penalty_kind=fact.kind,
        share=fact.share.value,
        note=fact.note,
    )


# An entry as a domain fact.


def seat_for(ref: PlayerRef | None, players: Sequence[str], field: str) -> Seat:
    """The seat of a player as an entry names them: the name as on the start (or the one name
    that matches it but for case), or the seat number (a number, or its digits as text)."""
    if isinstance(ref, bool) or ref is None:
        raise FieldError(field, Said("{player} is not a player", player=shown(ref)))
    if isinstance(ref, int):
        if 0 <= ref < len(players):
            return ref
        raise FieldError(field, Said("there is no seat {seat}", seat=ref))
    if ref in players:
        return players.index(ref)
    folded = [i for i, p in enumerate(players) if p.casefold() == ref.casefold()]
    if len(folded) == 1:
        return folded[0]
    if ref.isascii() and ref.isdigit():
        try:
            seat = whole_number(ref, SEAT)
        except OutOfBounds:
            seat = len(players)
        if seat < len(players):
            return seat
    names = ", ".join(p if len(p) <= 24 else p[:21] + "..." for p in players)
    raise FieldError(field, Said("{player} is not a player at this table ({names})", player=shown(ref), names=names))


def _seats(refs: Iterable[PlayerRef], players: Sequence[str], field: str) -> tuple[Seat, ...]:
    return tuple(seat_for(r, players, field) for r in refs)


def sized_penalty(
    seat: Seat,
    table: TableState,
    rules: Ruleset,
    *,
    amount: int | None,
    kind: str,
    share: str | None,
    note: str,
) -> Penalty:
    """A penalty given at ``table``. An entry that gives both its amount and its share is the
    penalty as recorded (what ``honba export`` writes, so a file always imports back; a reverse
    mangan's amount only records its total); what it leaves out the rules fill in there
    (``domain.scoring.payments.penalty_at``: the rules' amount and share, a reverse mangan sized
    by who is dealer); an amount the rules refuse is refused naming the amount."""
    if amount is not None and share is not None:
        if share not in {s.value for s in PenaltyShare}:
            raise FieldError(
                "share", Said("the share is to_others, reverse_mangan or off_table, not {share}", share=shown(share))
            )
        return Penalty(seat, amount, kind, share, note)
    try:
        return penalty_at(seat, table, rules, amount=amount, kind=kind, share=share, note=note)
    except HonbaError as exc:
        raise FieldError("amount", exc.said) from None


# The abortive draws' names an entry may give, made once (an enum's members walked and their values
# read each hand were a hundredth of a recorded hand's service call).
_ABORT_KINDS = frozenset(kind.value for kind in AbortKind)


def result_of(entry: Entry, players: Sequence[str]) -> HandResult:
    """The hand result a win, draw or abortive draw entry stands for at a table of these players
    (in seat order). Only names that are no player and missing parts are refused here, by field;
    the domain checks the rest when the result is recorded."""
    if entry.kind == "win":
        if not entry.wins:
            raise FieldError("wins", Said("choose the winner"))
        return WinResult(
            tuple(_win(w, players, f"wins[{i}]") for i, w in enumerate(entry.wins)),
            _seats(entry.riichi, players, "riichi"),
        )
    if entry.kind == "draw":
        return ExhaustiveDraw(
            _seats(entry.ready, players, "ready"),
            _seats(entry.riichi, players, "riichi"),
            _seats(entry.nagashi, players, "nagashi"),
        )
    if entry.kind == "abort":
        if entry.abort not in _ABORT_KINDS:
            kinds = ", ".join(k.value for k in AbortKind)
            raise FieldError(
                "abort",
                Said("choose which abortive draw ({kinds}), not {abort}", kinds=kinds, abort=shown(entry.abort)),
            )
        return AbortiveDraw(
            AbortKind(entry.abort), _seats(entry.riichi, players, "riichi"), _seats(entry.kongs, players, "kongs")
        )
    if entry.kind == "penalty":
        raise FieldError("kind", Said("a penalty is not a hand result"))
    raise FieldError(
        "kind", Said("choose what happened (win, draw, abort or penalty), not {kind}", kind=shown(entry.kind))
    )


def fact_of(entry: Entry, players: Sequence[str], table: TableState, rules: Ruleset) -> HandResult | Penalty:
    """The domain fact an entry stands for at a table of these players (in seat order), given at
    ``table`` under ``rules``: a result (``result_of``), or a penalty sized there (what it leaves
    out, the rules fill in)."""
    if entry.kind != "penalty":
        return result_of(entry, players)
    if entry.player is None or entry.player == "":
        raise FieldError("player", Said("choose the player penalised"))
    return sized_penalty(
        seat_for(entry.player, players, "player"),
        table,
        rules,
        amount=entry.amount,
        kind=entry.penalty_kind,
        share=entry.share,
        note=entry.note,
    )


def _win(win: WinEntry, players: Sequence[str], field: str) -> Win:
    if win.winner == "":
        raise FieldError(f"{field}.winner", Said("choose the winner"))
    penalties = tuple(
        HandPenalty(seat_for(p.payer, players, f"{field}.facts.penalties[{i}].payer"), p.amount, p.note)
        for i, p in enumerate(win.penalties)
    )
    return Win(
        winner=seat_for(win.winner, players, f"{field}.winner"),
        value=win.value,
        discarder=None if win.discarder is None else seat_for(win.discarder, players, f"{field}.from"),
        liable=None if win.pao is None else seat_for(win.pao, players, f"{field}.pao"),
        facts=attrs.evolve(win.facts, penalties=penalties),
        loser_scores=win.loser_scores,
    )


# The record line.


def entry_line(entry: Entry) -> dict[str, Any]:
    """The record line of an entry, in the canonical spelling ``honba export`` writes
    (``docs/record-format.md``): fields at their default left out, except ``ready`` on a draw
    and ``kind`` and ``share`` on a penalty."""
    if entry.kind == "win":
        out: dict[str, Any] = {"type": "win", "wins": [_win_line(w) for w in entry.wins]}
        if entry.riichi:
            out["riichi"] = list(entry.riichi)
        return out
    if entry.kind == "draw":
        out = {"type": "draw", "ready": list(entry.ready)}
        if entry.riichi:
            out["riichi"] = list(entry.riichi)
        if entry.nagashi:
            out["nagashi"] = list(entry.nagashi)
        return out
    if entry.kind == "abort":
        out = {"type": "abort", "kind": entry.abort}
        if entry.riichi:
            out["riichi"] = list(entry.riichi)
        if entry.kongs:
            out["kongs"] = list(entry.kongs)
        return out
    if entry.kind == "penalty":
        out = {"type": "penalty", "player": entry.player}
        if entry.amount is not None:
            out["amount"] = entry.amount
        out["kind"] = entry.penalty_kind
        if entry.share is not None:
            out["share"] = entry.share
        if entry.note:
            out["note"] = entry.note
        return out
    raise FieldError("kind", f"{shown(entry.kind)} has no record line")


def _win_line(win: WinEntry) -> dict[str, Any]:
    out: dict[str, Any] = {"winner": win.winner}
    if win.discarder is not None:
        out["from"] = win.discarder
    out.update(to_data(win.value))
    if win.pao is not None:
        out["pao"] = win.pao
    facts = to_data(win.facts)
    if win.penalties:
        facts["penalties"] = [to_data(p) for p in win.penalties]
    if facts:
        out["facts"] = facts
    if win.loser_scores:
        out["loser_scores"] = list(win.loser_scores)
    return out


def entry_from_line(data: Mapping[str, Any]) -> Entry:
    """The entry a result or penalty line stands for (``{"type": "win", ...}``); a field of the
    wrong kind (text for a number, 2**200, NaN), an unknown field or a missing one is refused by
    name (``FieldError``). An ``end`` line is no entry: the record reader reads it."""
    kind = data.get("type")
    if kind == "win":
        expect_keys(data, ("type", "wins", "riichi"), "")
        wins = data.get("wins")
        if not isinstance(wins, list) or not wins:
            raise FieldError("", "a win line needs a non-empty 'wins' list")
        return Entry(
            "win",
            wins=tuple(_win_from_line(w, f"wins[{i}]") for i, w in enumerate(wins)),
            riichi=_refs(data.get("riichi"), "riichi"),
        )
    if kind == "draw":
        expect_keys(data, ("type", "ready", "riichi", "nagashi"), "")
        return Entry(
            "draw",
            ready=_refs(data.get("ready"), "ready"),
            riichi=_refs(data.get("riichi"), "riichi"),
            nagashi=_refs(data.get("nagashi"), "nagashi"),
        )
    if kind == "abort":
        expect_keys(data, ("type", "kind", "riichi", "kongs"), "")
        abort = data.get("kind", "")
        if abort not in _ABORT_KINDS:
            raise FieldError("", f"unknown abortive draw kind {shown(abort)}")
        return Entry(
            "abort", abort=abort, riichi=_refs(data.get("riichi"), "riichi"), kongs=_refs(data.get("kongs"), "kongs")
        )
    if kind == "penalty":
        expect_keys(data, ("type", "player", "amount", "kind", "share", "note"), "")
        amount = data.get("amount")
        if amount is not None and not whole(amount, MAX_POINTS):
            raise FieldError(
                "", f"a penalty needs a whole 'amount' of points (at most {MAX_POINTS}), or none: the rules'"
            )
        share = data.get("share")
        if share is not None and share not in {s.value for s in PenaltyShare}:
            raise FieldError("", f"unknown penalty share {shown(share)}")
        what, note = data.get("kind", "chombo"), data.get("note", "")
        if not _line_text(what) or not _line_text(note):
            raise FieldError("", f"a penalty's kind and note are text on one line (at most {MAX_NOTE} characters)")
        return Entry(
            "penalty",
            player=_ref(data.get("player"), "player"),
            amount=amount,
            penalty_kind=what,
            share=share,
            note=note,
        )
    raise FieldError("", f"'type' must be win, draw, abort, penalty or end, not {shown(kind)}")


def _line_text(value: Any) -> bool:
    """Whether a value is one line of text as the domain holds a note to (``domain.bounds.TEXT``)."""
    try:
        TEXT.check(value)
    except OutOfBounds:
        return False
    return True


def _ref(value: Any, field: str) -> PlayerRef:
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise FieldError(field, f"{shown(value)} is not a player")


def _refs(value: Any, field: str) -> tuple[PlayerRef, ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        raise FieldError(field, "expected a list of players")
    return tuple(_ref(v, field) for v in value)


def _win_from_line(data: Any, field: str) -> WinEntry:
    if not isinstance(data, dict):
        raise FieldError(field, "a win must be an object")
    expect_keys(data, ("winner", "from", "pao", "facts", "loser_scores", *VALUE_KEYS), field)
    if "winner" not in data:
        raise FieldError(field, "a win needs a 'winner'")
    value_data = {k: data[k] for k in VALUE_KEYS if k in data}
    check_kinds(HandValue, value_data, field)
    facts_data = data.get("facts", {})
    if not isinstance(facts_data, dict):
        raise FieldError(f"{field}.facts", "expected an object of the win's facts")
    expect_keys(facts_data, (*FACT_KEYS, "penalties"), f"{field}.facts")
    penalties: tuple[HandPenaltyEntry, ...] = ()
    if "penalties" in facts_data:
        penalties = _hand_penalties(facts_data["penalties"], f"{field}.facts.penalties")
        facts_data = {k: v for k, v in facts_data.items() if k != "penalties"}
    check_kinds(WinFacts, facts_data, f"{field}.facts")
    loser_scores = data.get("loser_scores", [])
    if not isinstance(loser_scores, list) or not all(whole(s, MAX_POINTS) for s in loser_scores):
        raise FieldError(f"{field}.loser_scores", "expected a list of whole numbers of points")
    try:
        value = from_data(HandValue, value_data, where=field)
        facts = from_data(WinFacts, facts_data, where=f"{field}.facts")
    except DecodeError as exc:
        # The decoder names the place as it was given it (``wins[0].facts: ...``).
        place, _, why = str(exc).partition(": ")
        raise FieldError(place, why) from None
    return WinEntry(
        winner=_ref(data["winner"], f"{field}.winner"),
        value=value,
        discarder=None if data.get("from") is None else _ref(data["from"], f"{field}.from"),
        pao=None if data.get("pao") is None else _ref(data["pao"], f"{field}.pao"),
        facts=facts,
        penalties=penalties,
        loser_scores=tuple(loser_scores),
    )


def _hand_penalties(data: Any, field: str) -> tuple[HandPenaltyEntry, ...]:
    if not isinstance(data, list) or not all(isinstance(p, dict) for p in data):
        raise FieldError(field, "expected a list of objects with a payer and an amount")
    found = []
    for i, penalty in enumerate(data):
        expect_keys(penalty, ("payer", "amount", "note"), f"{field}[{i}]")
        if "payer" not in penalty or not whole(penalty.get("amount"), MAX_POINTS):
            raise FieldError(f"{field}[{i}]", "a penalty needs a payer and a whole amount of points")
        note = penalty.get("note", "")
        if not _line_text(note):
            raise FieldError(f"{field}[{i}].note", f"expected one line of text (at most {MAX_NOTE} characters)")
        found.append(HandPenaltyEntry(_ref(penalty["payer"], f"{field}[{i}].payer"), penalty["amount"], note))
    return tuple(found)


# What a line's values must be: the kinds of the fields, their bounds, text on one line.


def expect_keys(data: Mapping[str, Any], allowed: Iterable[str], field: str) -> None:
    """Refuse a field the line or object does not have (a misspelt field is never ignored)."""
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise FieldError(field, Said("unknown field {field}", field=shown(unknown[0])))


def has_control(text: str) -> bool:
    """Whether text is more than one line of printable text: a control character (a line break, an
    escape, a C1 control), a line separator, a lone surrogate or a bidirectional control, as the
    domain says it for every name and note (``domain.bounds.unprintable``)."""
    return unprintable(text) is not None


def whole(value: Any, bound: int) -> TypeGuard[int]:
    """Whether a JSON value is a whole number (not true or false) within ``bound`` either way."""
    return isinstance(value, int) and not isinstance(value, bool) and -bound <= value <= bound


def bound_of(name: str) -> int:
    """The largest number a field of that name may hold, either way."""
    return MAX_POINTS if name in POINT_FIELDS else FIELD_BOUNDS.get(name, MAX_COUNT)


def _fits(tp: Any, value: Any, name: str) -> bool:
    """Whether a JSON value is of a field's kind: whole numbers within bounds, true/false, text, lists."""
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        return any(_fits(option, value, name) for option in get_args(tp))
    if tp is type(None):
        return value is None
    if origin is Literal:
        return isinstance(value, str)
    if origin is tuple:
        return isinstance(value, list) and all(_fits(get_args(tp)[0], v, name) for v in value)
    if tp is bool:
        return isinstance(value, bool)
    if tp is int:
        return whole(value, bound_of(name))
    if tp is float:
        number = isinstance(value, int | float) and not isinstance(value, bool)
        return number and math.isfinite(value) and abs(value) <= MAX_POINTS
    if tp is str or (isinstance(tp, type) and issubclass(tp, Enum)):
        return isinstance(value, str)
    return True


def check_kinds(cls: type[Any], data: Any, field: str) -> None:
    """Refuse a field of the wrong kind (text for a number, a list for true/false, 2**200, NaN) by
    name, before it reaches the rules; unknown fields and the rest are ``from_data``'s to judge."""
    if not isinstance(data, dict):
        return
    fields = {f.name: f.type for f in attrs.fields(attrs.resolve_types(cls))}
    for name, value in data.items():
        if name in fields and not _fits(fields[name], value, name):
            where = f"{field}.{name}" if field else name
            raise FieldError(
                where, Said("{value} is not {kind}", value=shown(value), kind=_kind_name(fields[name], name))
            )


def _kind_name(tp: Any, name: str) -> Said:
    if get_origin(tp) in (Union, types.UnionType):
        options = [a for a in get_args(tp) if a is not type(None)]
        if len(options) == 1:
            return Said("{kind} or null", kind=_kind_name(options[0], name))
        return Said("of the right kind")
    within = Said("(at most {most} either way)", most=bound_of(name))
    if get_origin(tp) is tuple:
        inner = get_args(tp)[0]
        if inner is int:
            return Said("a list of whole numbers {within}", within=within)
        return Said("a list of numbers") if inner is float else Said("a list of text")
    if tp is int:
        return Said("a whole number {within}", within=within)
    return {float: Said("a number"), bool: Said("true or false")}.get(tp, Said("text"))
