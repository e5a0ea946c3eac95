"""Writing a record file: a stored match's lines (``export_record``) in the canonical spelling,
with the chain, and the line each log entry gets (``export_line_numbers``); ``unchained`` takes
the chain off for editing by hand. ``docs/record-format.md`` is the reference.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain.amendments import AUTOMATIC_ENDS
from domain.codec import to_data
from domain.match import Match
from domain.progression import Fact
from domain.rules import Ruleset, load_preset, preset_names
from domain.values import (
    AbortiveDraw,
    ExhaustiveDraw,
    MatchEnd,
    Penalty,
    Win,
    WinResult,
)
from replay.formats.record.chain import chain_lines, record_lines

RECORD_DEEPEST = 32
# What ``dump_line`` escapes although JSON allows it raw: characters that readers other than
# honba's (``str.splitlines``, editors, terminals) take for a line break or act on.
_LINE_BREAKING = re.compile("[\x7f-\x9f\u2028\u2029]")


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
