"""Writing a record file: a stored match's lines (``export_record``) in the canonical spelling,
with the chain, each entry on the line ``projections.entries.entry_numbers`` numbers it by;
``unchained`` takes the chain off for editing by hand. ``docs/record-format.md`` is the reference.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain.amendments import AUTOMATIC_ENDS
from domain.match import Match
from domain.progression import Fact
from domain.rules import Ruleset, load_preset, preset_names
from domain.values import (
    AbortiveDraw,
    ExhaustiveDraw,
    MatchEnd,
    Penalty,
    WinResult,
)
from projections.entries import EntryNumbers, entry_numbers
from replay.formats.record.chain import chain_lines, record_lines
from replay.input.entry import entry_line, entry_of

# What ``dump_line`` escapes although JSON allows it raw: characters that readers other than
# honba's (``str.splitlines``, editors, terminals) take for a line break or act on.
_LINE_BREAKING = re.compile("[\x7f-\x9f\u2028\u2029]")


def fact_line(fact: Fact, players: Sequence[str]) -> dict[str, Any] | None:
    """One record line for a fact: a result or penalty as its entry's line (``replay.input.entry``:
    a line and an entry map one to one), an early end; None for facts the file does not hold (deal
    passes, automatic ends)."""
    if isinstance(fact, WinResult | ExhaustiveDraw | AbortiveDraw | Penalty):
        return entry_line(entry_of(fact, players))
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
    ``damage``, for a match whose chain did not check in the store, is written in the start
    line, under the chain (removing it breaks the chain), so that the file is never a
    clean-looking chain over a changed history.
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
    numbers = entry_numbers(match)
    corrections = dict(match.correction_log)
    entries = dict(match.history)
    for position in sorted(numbers.by_position):
        correction = corrections.get(position)
        if correction is not None:
            lines.append(_correction_line(correction, match.players, numbers))
        else:
            line = fact_line(entries[position], match.players)
            assert line is not None  # every numbered entry that is not a correction has its line
            lines.append(line)
        # The numbering and the file are one: the entry's number is the line it is written on.
        assert numbers.by_position[position] == len(lines)
    return "".join(dump_line(line) + "\n" for line in chain_lines(lines, damage=damage))


def _correction_line(correction: Any, players: Sequence[str], numbers: EntryNumbers) -> dict[str, Any]:
    target = numbers.number(correction.target)
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
