"""Reading a record file: its lines into domain values (``parse_record``), and those replayed
into a Match in memory (``build_match``); every error names the file and the line.

The first line starts the match (key, players in seat order, rules preset and overrides); every
later line is one hand result, penalty, early end or correction, in the order they happened. Deal
passes and the automatic end are not written: the rules decide them when the file is loaded.
``docs/record-format.md`` is the reference.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from domain.amendments import early_end_reason
from domain.codec import DecodeError, from_data
from domain.entry_checks import opening_checks
from domain.errors import EntryRefused, HonbaError, RuleViolation
from domain.match import Match
from domain.progression import Fact
from domain.rules import Ruleset, load_preset
from domain.said import Said
from domain.values import DealPass, MatchEnd, Penalty, TableState
from replay.formats.record.chain import check_record_text, record_lines
from replay.input.entry import (
    FieldError,
    check_kinds,
    entry_from_line,
    expect_keys,
    has_control,
    result_of,
    seat_for,
    sized_penalty,
)
from replay.input.json_text import load_line


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
        """The penalty given at the table ``state`` under ``rules``, as every front end gives it
        (``replay.input.entry.sized_penalty``: a line that gives its amount and its share is the
        penalty as recorded, as ``export_record`` writes it)."""
        return sized_penalty(
            self.seat, state, rules, amount=self.amount, kind=self.kind, share=self.share, note=self.note
        )


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


def _fact(data: dict[str, Any], players: Sequence[str], where: str) -> Fact | PenaltyLine:
    """A line read into a fact, through the one entry model every front end builds
    (``replay.input.entry``): a result resolved at once, a penalty when its table is known."""
    if data.get("type") == "end":
        _expect_keys(data, ("type", "reason"), where)
        try:
            return MatchEnd(early_end_reason(data.get("reason", "agreed")))
        except HonbaError as exc:
            raise RecordError(f"{where}: {exc}") from None
    try:
        entry = entry_from_line(data)
        if entry.kind == "penalty":
            seat = seat_for(entry.player, players, "player")
            return PenaltyLine(seat, entry.amount, entry.penalty_kind, entry.share, entry.note)
        return result_of(entry, players)
    except FieldError as exc:
        raise RecordError(exc.within(where)) from None


def _expect_keys(data: Mapping[str, Any], allowed: Iterable[str], where: str) -> None:
    try:
        expect_keys(data, allowed, "")
    except FieldError as exc:
        raise RecordError(exc.within(where)) from None


def _check_kinds(cls: type[Any], data: Any, where: str) -> None:
    try:
        check_kinds(cls, data, "")
    except FieldError as exc:
        raise RecordError(exc.within(where)) from None


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
            data = load_line(line)
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
    if any(has_control(text) for text in (key, *players)):
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
        _check_opening(opening, where)
    return MatchRecord(key, tuple(players), _rules(data, where), source, opening, ())


def _check_opening(opening: TableState, where: str) -> None:
    """A table a match can start from, by the domain's rule for every opening table (seats that
    exist, a hand of the round, counts within their bounds: ``domain.entry_checks.opening_checks``),
    refused here with the line it is on."""
    try:
        opening_checks(opening)
    except RuleViolation as exc:
        raise RecordError(f"{where}: {exc}") from None


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
    if isinstance(correction.replacement, DealPass | MatchEnd):
        raise RecordError("only results and penalties can be corrected")
    try:
        if correction.replacement is None:
            match.void(position, by=correction.by, reason=correction.reason, at=correction.at)
        else:
            replacement = correction.replacement
            if isinstance(replacement, PenaltyLine):
                # The penalty replaced was given at the table before it: the new one is sized there.
                replacement = replacement.at(match.state_before(position), match.rules)
            match.amend(position, replacement, by=correction.by, reason=correction.reason, at=correction.at)
    except EntryRefused as refused:
        # The file names entries by their lines, and so does its error.
        line_of = {p: line for line, p in position_of_line.items()}
        raise refused.renamed(lambda p: Said("line {line}", line=line_of.get(p, p))) from None
