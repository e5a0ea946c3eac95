"""honba's record file: JSON Lines a person can write by hand.

The first line starts the match (key, players in seat order, rules preset and
overrides); every later line is one hand result, penalty or early end, in the
order they happened. Deal passes and the automatic end of the match are not
written: the rules decide them when the file is loaded. ``docs/record-format.md``
is the reference.
"""

from __future__ import annotations

import json
import math
import re
import types
from collections.abc import Iterable, Mapping, Sequence
from enum import Enum
from typing import Any, Literal, TypeGuard, Union, get_args, get_origin

import attrs

from domain.amendments import AUTOMATIC_ENDS, early_end_reason
from domain.codec import DecodeError, from_data, to_data
from domain.errors import HonbaError
from domain.integrity import GENESIS, ChainProblem, Link, check_chain, digest_of
from domain.match import Match
from domain.progression import Fact
from domain.rules import Ruleset, load_preset, preset_names
from domain.scoring.payments import penalty_at
from domain.values import (
    AbortiveDraw,
    DealPass,
    ExhaustiveDraw,
    HandValue,
    MatchEnd,
    Penalty,
    PenaltyShare,
    TableState,
    Win,
    WinFacts,
    WinResult,
)
from replay.formats.logmodel import load_json, shown

# A win line spells its hand value flat: every field of HandValue (han, fu, dora, limit, ...).
VALUE_KEYS = tuple(f.name for f in attrs.fields(HandValue))
# Bounds on the numbers of a record file, far above any real match: a hand of 64 doubles or
# faan is already astronomical, and a score beyond a hundred million is no game's.
MAX_POINTS = 100_000_000
MAX_COUNT = 10_000
FIELD_BOUNDS = {"faan": 64, "doubles": 64}
POINT_FIELDS = frozenset({"points", "scores", "deposits", "penalties", "loser_scores", "final_points"})


class RecordError(HonbaError):
    """A record file line that cannot be read; the message names file and line."""


@attrs.frozen
class MatchRecord:
    """A record file read into domain values: the match header and its facts."""

    key: str
    players: tuple[str, ...]
    rules: Ruleset
    source: Mapping[str, Any]
    opening: TableState | None
    facts: tuple[Fact | PenaltyLine, ...]
    # Where each part was read, for messages: the start line and each fact's line.
    start_line: int = 1
    lines: tuple[int, ...] = ()
    corrections: tuple[RecordCorrection, ...] = ()
    chained: bool = False


@attrs.frozen
class PenaltyLine:
    """A penalty line as written: what it leaves out (the amount, the share) the rules fill in at
    the table where it is given, as for ``honba penalty`` (``domain.scoring.payments.penalty_at``:
    the rules' chombo amount and share; a reverse mangan sized by who is dealer)."""

    seat: int
    amount: int | None
    kind: str
    share: str | None
    note: str

    def at(self, state: TableState, rules: Ruleset) -> Penalty:
        """The penalty given at the table ``state`` under ``rules``."""
        return penalty_at(self.seat, state, rules, amount=self.amount, kind=self.kind, share=self.share, note=self.note)


@attrs.frozen
class RecordCorrection:
    """A correction line: it replaces (or voids) the entry written at line ``target`` of the
    same file, or adds a penalty (``target`` None); ``line`` is where it is written."""

    line: int
    target: int | None
    replacement: Fact | PenaltyLine | None
    by: str
    reason: str
    at: str | None = None


def _seat(ref: Any, players: Sequence[str], where: str) -> int:
    if isinstance(ref, bool):
        raise RecordError(f"{where}: {ref!r} is not a player")
    if isinstance(ref, int):
        if 0 <= ref < len(players):
            return ref
        raise RecordError(f"{where}: there is no seat {ref}")
    if isinstance(ref, str) and ref in players:
        return players.index(ref)
    names = ", ".join(p if len(p) <= 24 else p[:21] + "..." for p in players)
    raise RecordError(f"{where}: {shown(ref)} is not one of the players ({names})")


def _seats(refs: Any, players: Sequence[str], where: str) -> tuple[int, ...]:
    if refs is None:
        return ()
    if not isinstance(refs, list):
        raise RecordError(f"{where}: expected a list of players")
    return tuple(_seat(r, players, where) for r in refs)


def _expect_keys(data: Mapping[str, Any], allowed: Iterable[str], where: str) -> None:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise RecordError(f"{where}: unknown field {shown(unknown[0])}")


def _penalty_seats(facts: Any, players: Sequence[str], where: str) -> Any:
    """A win's facts with each hand penalty's payer (a name or a seat) as a seat."""
    if not isinstance(facts, dict) or "penalties" not in facts:
        return facts
    penalties = facts["penalties"]
    if not isinstance(penalties, list) or not all(isinstance(p, dict) for p in penalties):
        raise RecordError(f"{where}: expected a list of objects with a payer and an amount")
    for i, penalty in enumerate(penalties):
        _expect_keys(penalty, ("payer", "amount", "note"), f"{where}[{i}]")
        if "payer" not in penalty or not _whole(penalty.get("amount"), MAX_POINTS):
            raise RecordError(f"{where}[{i}]: a penalty needs a payer and a whole amount of points")
        note = penalty.get("note", "")
        if not isinstance(note, str) or _control(note) or len(note) > 200:
            raise RecordError(f"{where}[{i}].note: expected one line of text (at most 200 characters)")
    converted = [
        {**penalty, "payer": _seat(penalty["payer"], players, f"{where}[{i}].payer")}
        for i, penalty in enumerate(penalties)
    ]
    return {**facts, "penalties": converted}


def _win(data: Any, players: Sequence[str], where: str) -> Win:
    if not isinstance(data, dict):
        raise RecordError(f"{where}: a win must be an object")
    _expect_keys(data, ("winner", "from", "pao", "facts", "loser_scores", *VALUE_KEYS), where)
    if "winner" not in data:
        raise RecordError(f"{where}: a win needs a 'winner'")
    value_data = {k: data[k] for k in VALUE_KEYS if k in data}
    _check_kinds(HandValue, value_data, where)
    facts_data = _penalty_seats(data.get("facts", {}), players, f"{where}.facts.penalties")
    _check_kinds(WinFacts, facts_data, f"{where}.facts")
    loser_scores = data.get("loser_scores", [])
    if not isinstance(loser_scores, list) or not all(_whole(s, MAX_POINTS) for s in loser_scores):
        raise RecordError(f"{where}.loser_scores: expected a list of whole numbers of points")
    try:
        value = from_data(HandValue, value_data, where=where)
        facts = from_data(WinFacts, facts_data, where=f"{where}.facts")
    except DecodeError as exc:
        raise RecordError(str(exc)) from None
    return Win(
        winner=_seat(data["winner"], players, f"{where}.winner"),
        value=value,
        discarder=None if data.get("from") is None else _seat(data["from"], players, f"{where}.from"),
        liable=None if data.get("pao") is None else _seat(data["pao"], players, f"{where}.pao"),
        facts=facts,
        loser_scores=loser_scores,
    )


def _control(text: str) -> bool:
    return any(ord(ch) < 32 or 127 <= ord(ch) < 160 for ch in text)


def _whole(value: Any, bound: int) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and -bound <= value <= bound


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
        return _whole(value, MAX_POINTS if name in POINT_FIELDS else FIELD_BOUNDS.get(name, MAX_COUNT))
    if tp is float:
        number = isinstance(value, int | float) and not isinstance(value, bool)
        return number and math.isfinite(value) and abs(value) <= MAX_POINTS
    if tp is str or (isinstance(tp, type) and issubclass(tp, Enum)):
        return isinstance(value, str)
    return True


def _check_kinds(cls: type[Any], data: Any, where: str) -> None:
    """Refuse a field of the wrong kind (text for a number, a list for true/false, 2**200, NaN) by
    name, before it reaches the rules; unknown fields and the rest are ``from_data``'s to judge."""
    if not isinstance(data, dict):
        return
    fields = {f.name: f.type for f in attrs.fields(attrs.resolve_types(cls))}
    for name, value in data.items():
        if name in fields and not _fits(fields[name], value, name):
            raise RecordError(f"{where}.{name}: {shown(value)} is not {_kind_name(fields[name], name)}")


def _kind_name(tp: Any, name: str) -> str:
    if get_origin(tp) in (Union, types.UnionType):
        options = [a for a in get_args(tp) if a is not type(None)]
        return f"{_kind_name(options[0], name)} or null" if len(options) == 1 else "of the right kind"
    within = f"(at most {MAX_POINTS if name in POINT_FIELDS else FIELD_BOUNDS.get(name, MAX_COUNT)} either way)"
    if get_origin(tp) is tuple:
        inner = get_args(tp)[0]
        return {int: f"a list of whole numbers {within}", float: "a list of numbers"}.get(inner, "a list of text")
    return {int: f"a whole number {within}", float: "a number", bool: "true or false"}.get(tp, "text")


def _fact(data: dict[str, Any], players: Sequence[str], where: str) -> Fact | PenaltyLine:
    kind = data.get("type")
    if kind == "win":
        _expect_keys(data, ("type", "wins", "riichi"), where)
        wins = data.get("wins")
        if not isinstance(wins, list) or not wins:
            raise RecordError(f"{where}: a win line needs a non-empty 'wins' list")
        return WinResult(
            tuple(_win(w, players, f"{where}.wins[{i}]") for i, w in enumerate(wins)),
            _seats(data.get("riichi"), players, f"{where}.riichi"),
        )
    if kind == "draw":
        _expect_keys(data, ("type", "ready", "riichi", "nagashi"), where)
        return ExhaustiveDraw(
            _seats(data.get("ready"), players, f"{where}.ready"),
            _seats(data.get("riichi"), players, f"{where}.riichi"),
            _seats(data.get("nagashi"), players, f"{where}.nagashi"),
        )
    if kind == "abort":
        _expect_keys(data, ("type", "kind", "riichi", "kongs"), where)
        riichi = _seats(data.get("riichi"), players, f"{where}.riichi")
        kongs = _seats(data.get("kongs"), players, f"{where}.kongs")
        try:
            return AbortiveDraw(data.get("kind", ""), riichi, kongs)
        except ValueError:
            raise RecordError(f"{where}: unknown abortive draw kind {shown(data.get('kind'))}") from None
    if kind == "penalty":
        _expect_keys(data, ("type", "player", "amount", "kind", "share", "note"), where)
        amount = data.get("amount")
        if amount is not None and not _whole(amount, MAX_POINTS):
            raise RecordError(
                f"{where}: a penalty needs a whole 'amount' of points (at most {MAX_POINTS}), or none: the rules'"
            )
        share = data.get("share")
        if share is not None and share not in {s.value for s in PenaltyShare}:
            raise RecordError(f"{where}: unknown penalty share {shown(share)}")
        return PenaltyLine(
            _seat(data.get("player"), players, f"{where}.player"),
            amount,
            str(data.get("kind", "chombo")),
            share,
            str(data.get("note", "")),
        )
    if kind == "end":
        _expect_keys(data, ("type", "reason"), where)
        try:
            return MatchEnd(early_end_reason(data.get("reason", "agreed")))
        except HonbaError as exc:
            raise RecordError(f"{where}: {exc}") from None
    raise RecordError(f"{where}: 'type' must be win, draw, abort, penalty or end, not {shown(kind)}")


def _rules(data: Mapping[str, Any], where: str) -> Ruleset:
    preset = data.get("rules", "tenhou")
    overrides = data.get("overrides", {})
    if not isinstance(preset, str) or not isinstance(overrides, dict):
        raise RecordError(f"{where}: 'rules' must name a preset and 'overrides' must be an object")
    try:
        base = load_preset(preset)
    except HonbaError as exc:
        raise RecordError(f"{where}: {exc}") from None
    try:
        return base.with_overrides(overrides, source=f"{where}.overrides")
    except HonbaError as exc:
        # The rules already name the place (``x.jsonl:1.overrides``): say it once.
        raise RecordError(str(exc)) from None


# How deep a record line's arrays and objects may nest: a line needs a handful of levels;
# a deeper one (a ``source`` nested hundreds deep) would exhaust the stack further on.
RECORD_DEEPEST = 32
# What ``dump_line`` escapes although JSON allows it raw: characters that readers other than
# honba's (``str.splitlines``, editors, terminals) take for a line break or act on.
_LINE_BREAKING = re.compile("[\x7f-\x9f\u2028\u2029]")


def record_lines(text: str) -> list[str]:
    """A record file's lines, exactly as the file holds them: split on newlines only (a
    ``\\r`` before one is dropped), blank lines kept, no line for the newline ending the file.

    Only ``\\n`` ends a line: the other characters ``str.splitlines`` breaks on (U+2028,
    U+0085, form feed) may stand inside a name or a note, and must not move a line.
    """
    text = text.removeprefix("\ufeff")  # a BOM some editors write before the first line
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _load_line(raw: str) -> Any:
    """One line's JSON, refusing nesting deeper than a record line has any use for."""
    data = load_json(raw)
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > RECORD_DEEPEST:
            raise json.JSONDecodeError(f"nested more than {RECORD_DEEPEST} deep", raw, 0)
        if isinstance(value, dict):
            stack.extend((v, depth + 1) for v in value.values())
        elif isinstance(value, list):
            stack.extend((v, depth + 1) for v in value)
    return data


def parse_record(text: str, *, name: str = "<record>") -> MatchRecord:
    """Read a record file's text; errors name the file and the line."""
    header: MatchRecord | None = None
    facts: list[Fact | PenaltyLine] = []
    lines: list[int] = []
    corrections: list[RecordCorrection] = []
    chained = _check_chain(text, name)
    for number, line in enumerate(record_lines(text), start=1):
        where = f"{name}:{number}"
        if not line.strip():
            continue
        try:
            data = _load_line(line)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{where}: not valid JSON ({exc.msg})") from None
        if not isinstance(data, dict):
            raise RecordError(f"{where}: each line must be a JSON object")
        data.pop("prior", None)
        if header is None:
            header = attrs.evolve(_header(data, where), start_line=number)
            continue
        kind = data.get("type")
        if kind == "start":
            raise RecordError(f"{where}: a record file holds one match; a second 'start' line")
        if kind == "seal":
            continue
        if kind == "correction":
            corrections.append(_correction(data, header.players, where, number))
            continue
        facts.append(_fact(data, header.players, where))
        lines.append(number)
    if header is None:
        raise RecordError(f"{name}: empty record file (the first line must start the match)")
    return attrs.evolve(header, facts=tuple(facts), lines=tuple(lines), corrections=tuple(corrections), chained=chained)


def fact_from_line(data: dict[str, Any], players: Sequence[str], where: str, state: TableState, rules: Ruleset) -> Fact:
    """A result or penalty written as a record line (``{"type": "win", ...}``), read into a fact;
    a penalty is given at the table ``state`` under ``rules`` (what it leaves out, they fill in)."""
    fact = _fact(dict(data), players, where)
    if isinstance(fact, PenaltyLine):
        try:
            return fact.at(state, rules)
        except HonbaError as exc:
            raise RecordError(f"{where}: {exc}") from None
    return fact


def _correction(data: dict[str, Any], players: Sequence[str], where: str, number: int) -> RecordCorrection:
    _expect_keys(data, ("type", "target", "replacement", "by", "reason", "at"), where)
    target = data.get("target")
    if target is not None and (isinstance(target, bool) or not isinstance(target, int) or target >= number):
        raise RecordError(f"{where}: 'target' must be the number of an earlier line of this file")
    by, reason = data.get("by"), data.get("reason")
    if not isinstance(by, str) or not isinstance(reason, str) or not by.strip() or not reason.strip():
        raise RecordError(f"{where}: a correction needs who made it ('by') and why ('reason')")
    raw = data.get("replacement")
    replacement = None
    if raw is not None:
        if not isinstance(raw, dict):
            raise RecordError(f"{where}: 'replacement' must be a result or penalty line, or null to void")
        replacement = _fact(dict(raw), players, f"{where}.replacement")
    if target is None and not isinstance(replacement, PenaltyLine):
        raise RecordError(f"{where}: a correction without a target adds a penalty; give a penalty")
    at = data.get("at")
    if at is not None and not isinstance(at, str):
        raise RecordError(f"{where}: 'at' must be the time the correction was made, as text")
    return RecordCorrection(number, target, replacement, by, reason, at)


def _check_chain(text: str, name: str) -> bool:
    """Refuse a chained file whose lines were edited, removed, moved or added, before any line
    is read (an edited line is named as such, not by what it breaks further on); True when the
    file carries a chain."""
    check = check_record_text(text, name=name)
    if check.chained and check.problems:
        first = check.problems[0]
        raise RecordError(
            f"{name}:{first.position}: the file's chain is broken: line {first.position} {first.kind}"
            f" ({first.detail}); it is not what honba exported"
        )
    return check.chained


def _header(data: dict[str, Any], where: str) -> MatchRecord:
    if data.get("type") != "start":
        raise RecordError(f'{where}: the first line must be the match start ({{"type": "start", ...}})')
    _expect_keys(data, ("type", "key", "players", "rules", "overrides", "source", "opening"), where)
    key, players = data.get("key"), data.get("players")
    if not isinstance(key, str) or not key.strip():
        raise RecordError(f"{where}: the match needs a 'key'")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError(f"{where}: 'players' must be a list of names in seat order")
    if any(_control(text) for text in (key, *players)):
        raise RecordError(f"{where}: the key and the players' names must be text on one line (no control characters)")
    source = data.get("source", {})
    if not isinstance(source, dict):
        raise RecordError(f"{where}: 'source' must be an object")
    opening = None
    if data.get("opening"):
        _check_kinds(TableState, data["opening"], f"{where}.opening")
        try:
            opening = from_data(TableState, data["opening"], where=f"{where}.opening")
        except DecodeError as exc:
            raise RecordError(str(exc)) from None
        _check_opening(opening, f"{where}.opening")
    return MatchRecord(key, tuple(players), _rules(data, where), source, opening, ())


def _check_opening(opening: TableState, where: str) -> None:
    """A table a match can start from: seats that exist, a hand of the round, no negative counts."""
    players = opening.players
    if not 0 <= opening.dealer < players:
        raise RecordError(f"{where}.dealer: there is no seat {opening.dealer} at a {players}-player table")
    if not 1 <= opening.hand_number <= players or not 0 <= opening.round_wind <= 3:
        raise RecordError(f"{where}: there is no hand {opening.hand_number} of round {opening.round_wind}")
    counts = ("counters", "deposits", "extra_hands", "consecutive_dealer_wins", "dealer_wins_this_deal", "hands_played")
    for name in counts:
        if getattr(opening, name) < 0:
            raise RecordError(f"{where}.{name}: {getattr(opening, name)} cannot be negative")


def build_match(record: MatchRecord, *, name: str = "<record>") -> Match:
    """Replay a record into a Match aggregate in memory; errors name the file, line and hand."""
    try:
        match = Match.start(record.key, record.players, record.rules, record.source, record.opening)
    except HonbaError as exc:
        raise RecordError(f"{name}:{record.start_line}: {exc}") from None
    lines = record.lines if len(record.lines) == len(record.facts) else tuple(range(2, 2 + len(record.facts)))
    steps: list[tuple[int, Fact | PenaltyLine | RecordCorrection]] = [*zip(lines, record.facts, strict=True)]
    steps += [(c.line, c) for c in record.corrections]
    position_of_line: dict[int, int] = {}
    hands = 0
    for line, step in sorted(steps, key=lambda item: item[0]):
        where = f"{name}:{line}"
        label = match.state.hand_label
        position_of_line[line] = match.version + 1
        try:
            if isinstance(step, RecordCorrection):
                _apply_correction(match, step, position_of_line)
                continue
            hands += 1
            if isinstance(step, PenaltyLine):
                match.penalise(step.at(match.state, match.rules))
            elif isinstance(step, Penalty):
                match.penalise(step)
            elif isinstance(step, MatchEnd):
                match.end(step.reason)
            elif isinstance(step, DealPass):
                raise RecordError("deal passes are decided by the rules, not written")
            else:
                match.record(step)
        except HonbaError as exc:
            raise RecordError(f"{where}: result {hands} ({label}): {exc}") from None
    return match


def _apply_correction(match: Match, correction: RecordCorrection, position_of_line: Mapping[int, int]) -> None:
    if correction.target is None:
        assert isinstance(correction.replacement, PenaltyLine)
        penalty = correction.replacement.at(match.state, match.rules)
        match.add_penalty(penalty, by=correction.by, reason=correction.reason, at=correction.at)
        return
    if correction.target not in position_of_line:
        raise RecordError(f"line {correction.target} holds no result or penalty to correct")
    position = position_of_line[correction.target]
    if correction.replacement is None:
        match.void(position, by=correction.by, reason=correction.reason, at=correction.at)
    elif isinstance(correction.replacement, DealPass | MatchEnd):
        raise RecordError("only results and penalties can be corrected")
    else:
        replacement = correction.replacement
        if isinstance(replacement, PenaltyLine):
            # The penalty replaced was given at the table before it: the new one is sized there.
            replacement = replacement.at(match.state_before(position), match.rules)
        match.amend(position, replacement, by=correction.by, reason=correction.reason, at=correction.at)


def _names(seats: Iterable[int], players: Sequence[str]) -> list[str]:
    return [players[s] for s in seats]


def _win_data(win: Win, players: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {"winner": players[win.winner]}
    if win.discarder is not None:
        out["from"] = players[win.discarder]
    out.update(to_data(win.value))
    if win.liable is not None:
        out["pao"] = players[win.liable]
    facts = to_data(win.facts)
    for penalty in facts.get("penalties", []):
        penalty["payer"] = players[penalty["payer"]]
    if facts:
        out["facts"] = facts
    if win.loser_scores:
        out["loser_scores"] = list(win.loser_scores)
    return out


def fact_line(fact: Fact, players: Sequence[str]) -> dict[str, Any] | None:
    """One record line for a fact; None for facts the file does not hold (deal passes, automatic ends)."""
    if isinstance(fact, WinResult):
        out: dict[str, Any] = {"type": "win", "wins": [_win_data(w, players) for w in fact.wins]}
        if fact.riichi:
            out["riichi"] = _names(fact.riichi, players)
        return out
    if isinstance(fact, ExhaustiveDraw):
        out = {"type": "draw", "ready": _names(fact.ready, players)}
        if fact.riichi:
            out["riichi"] = _names(fact.riichi, players)
        if fact.nagashi:
            out["nagashi"] = _names(fact.nagashi, players)
        return out
    if isinstance(fact, AbortiveDraw):
        out = {"type": "abort", "kind": fact.kind.value}
        if fact.riichi:
            out["riichi"] = _names(fact.riichi, players)
        if fact.kongs:
            out["kongs"] = _names(fact.kongs, players)
        return out
    if isinstance(fact, Penalty):
        out = {"type": "penalty", "player": players[fact.seat], "amount": fact.amount, "kind": fact.kind}
        out["share"] = fact.share.value
        if fact.note:
            out["note"] = fact.note
        return out
    if isinstance(fact, MatchEnd):
        return None if fact.reason in AUTOMATIC_ENDS else {"type": "end", "reason": fact.reason}
    return None


def rules_reference(rules: Ruleset) -> tuple[str, dict[str, Any]]:
    """A preset name and the overrides that turn it into these rules."""
    base = rules.name if rules.name in preset_names() else "tenhou"
    preset = load_preset(base).to_dict()
    mine = rules.to_dict()
    return base, {k: v for k, v in mine.items() if preset.get(k) != v}


def dump_line(data: Mapping[str, Any]) -> str:
    """One record line, in the canonical spelling export writes: UTF-8 as is, but a line or
    paragraph separator (or a C1 control) inside a name or note written as a ``\\u`` escape, so
    that every reader sees one line (the digests are over the decoded content: unchanged)."""
    return _LINE_BREAKING.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(data, ensure_ascii=False))


def export_record(match: Match, facts: Iterable[Fact] | None = None, *, damage: str | None = None) -> str:
    """The record file of a stored match, corrections included, with its chain and seal.

    Import it and it gives the same match. Each line names the digest of the line
    before it (``prior``) and the last line seals the count and the head digest, so
    ``honba check FILE`` finds any line edited, removed, moved or added later.
    (``facts`` is accepted for callers that pass the history; the match's own log is used.)
    ``damage``, for a match whose chain did not check in the store, is written in the seal
    line, so that the file is never a clean-looking chain over a changed history.
    """
    preset, overrides = rules_reference(match.rules)
    start: dict[str, Any] = {"type": "start", "key": match.key, "players": list(match.players), "rules": preset}
    if overrides:
        start["overrides"] = overrides
    if match.source:
        start["source"] = match.source
    if match.opening:
        start["opening"] = match.opening
    lines: list[dict[str, Any]] = [start]
    line_of_position: dict[int, int] = {}
    corrections = dict(match.correction_log)
    entries = {position: fact for position, fact in match.history}
    for position in sorted({*entries, *corrections}):
        correction = corrections.get(position)
        if correction is not None:
            lines.append(_correction_line(correction, match.players, line_of_position))
        else:
            line = fact_line(entries[position], match.players)
            if line is None:
                continue
            lines.append(line)
        line_of_position[position] = len(lines)
    return "".join(dump_line(line) + "\n" for line in chain_lines(lines, damage=damage))


def export_line_numbers(match: Match) -> dict[int, int]:
    """The line each entry of the match's log has in the file ``export_record`` writes, by
    position (deal passes and the ends the rules decided have no line): ``honba log`` shows
    them beside the positions, so that a file and the log name entries alike."""
    corrections = dict(match.correction_log)
    entries = dict(match.history)
    numbers: dict[int, int] = {}
    line = 1  # the start line
    for position in sorted({*entries, *corrections}):
        if position in corrections or fact_line(entries[position], match.players) is not None:
            line += 1
            numbers[position] = line
    return numbers


def _correction_line(correction: Any, players: Sequence[str], line_of_position: Mapping[int, int]) -> dict[str, Any]:
    target = None if correction.target is None else line_of_position[correction.target]
    replacement = None if correction.replacement is None else fact_line(correction.replacement, players)
    return {
        "type": "correction",
        "target": target,
        "replacement": replacement,
        "by": correction.by,
        "reason": correction.reason,
        "at": correction.at,
    }


def chain_lines(lines: Sequence[Mapping[str, Any]], *, damage: str | None = None) -> list[dict[str, Any]]:
    """The lines with the chain: each names the digest of the one before; then the seal line
    (carrying ``damage``, what did not check in the store, when there is any)."""
    chained: list[dict[str, Any]] = []
    prior = GENESIS
    for line in lines:
        linked = {**line, "prior": prior}
        chained.append(linked)
        prior = digest_of(linked)
    seal: dict[str, Any] = {"type": "seal", "lines": len(chained), "head": prior}
    if damage is not None:
        seal["damaged"] = damage
    chained.append(seal)
    return chained


def unchained(text: str) -> str:
    """A record file without its chain: no ``prior`` fields, no seal line (for editing by hand)."""
    out = []
    for raw in record_lines(text):
        if not raw.strip():
            continue
        data = json.loads(raw)
        if isinstance(data, dict):
            if data.get("type") == "seal":
                continue
            data.pop("prior", None)
        out.append(dump_line(data) + "\n")
    return "".join(out)


def check_record_text(text: str, *, name: str) -> FileCheck:
    """Check a record file's chain: every line names the digest of the line before, and the
    seal line counts the lines and names the head digest. A file without any chain (written by
    hand) has nothing to check. Problems are named by their line in the file."""
    lines: list[dict[str, Any] | None] = []
    numbers: list[int] = []  # the file line of each non-blank line
    unreadable: dict[int, str] = {}
    problems: list[ChainProblem] = []
    blank: list[int] = []
    for number, raw in enumerate(record_lines(text), start=1):
        if not raw.strip():
            blank.append(number)
            continue
        try:
            data = _load_line(raw)
        except json.JSONDecodeError as exc:
            data, unreadable[len(lines) + 1] = None, f"not JSON ({exc.msg})"
        else:
            if not isinstance(data, dict):
                # (``null`` included: every line that is not an object is named as such)
                data, unreadable[len(lines) + 1] = None, "not a JSON object"
        lines.append(data)
        numbers.append(number)
    seal = lines.pop() if lines and lines[-1] is not None and lines[-1].get("type") == "seal" else None
    if seal is None and not any(line is not None and "prior" in line for line in lines):
        # Nothing to check is no evidence that nothing changed: the check says it could not be made.
        why = "the file carries no chain (no 'prior' fields, no seal line): it could not be checked"
        return FileCheck(name, len(lines), GENESIS, (ChainProblem(0, "unchained", why),), chained=False)
    links: list[Link] = []
    for i, line in enumerate(lines, start=1):
        if line is None:
            # An unreadable line is taken to follow the line before it, so that only it is named.
            problems.append(ChainProblem(i, "altered", unreadable[i]))
            links.append(Link(i, f"unreadable-{i}", links[-1].digest if links else GENESIS))
        else:
            links.append(Link(i, digest_of(line), str(line.get("prior", ""))))
    sealed = None
    if seal is None:
        problems.append(ChainProblem(len(lines), "unsealed", "the seal line at the end is missing"))
    else:
        count, head = seal.get("lines"), seal.get("head")
        sealed = (count if isinstance(count, int) else 0, head if isinstance(head, str) else "")
    problems += check_chain(links, sealed=sealed, noun="line")
    if seal is not None and "damaged" in seal:
        detail = f"exported with --force from a store where the match did not check: {seal['damaged']}"
        problems.append(ChainProblem(len(lines) + 1, "damaged", detail))

    def in_file(position: int) -> int:
        return numbers[position - 1] if 1 <= position <= len(numbers) else position

    found: dict[tuple[int, str], ChainProblem] = {}
    # The chain covers the file's exact lines: a blank line honba did not write is one added.
    for number in blank:
        found[(number, "inserted")] = ChainProblem(number, "inserted", "a blank line the chain does not include")
    for problem in problems:
        found.setdefault(
            (in_file(problem.position), problem.kind), attrs.evolve(problem, position=in_file(problem.position))
        )
    head = links[-1].digest if links else GENESIS
    problems = sorted(found.values(), key=lambda p: p.position)
    return FileCheck(
        name, len(lines), head, tuple(problems), chained=True, digests=tuple(link.digest for link in links)
    )


@attrs.frozen
class FileCheck:
    """The integrity of a record file: its lines, head digest and the problems found."""

    name: str
    lines: int
    head: str
    problems: tuple[ChainProblem, ...]
    chained: bool = True
    # The digest of every line, in order: a published head digest is looked for among them.
    digests: tuple[str, ...] = ()
