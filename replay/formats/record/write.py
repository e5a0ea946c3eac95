"""Writing a record file: a stored match's lines (``export_record``) in the canonical spelling,
with the chain, and the number each log entry gets (``entry_numbers``: its line); ``unchained`` takes
the chain off for editing by hand. ``docs/record-format.md`` is the reference.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from domain.amendments import AUTOMATIC_ENDS
from domain.errors import HonbaError
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
from replay.formats.record.chain import chain_lines, record_lines
from replay.input.entry import entry_line, entry_of

RECORD_DEEPEST = 32
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


class UnknownEntry(HonbaError):
    """A number that names no entry of a match (a deal pass has none; beyond the end; the start)."""


@attrs.frozen
class EntryNumbers:
    """The one numbering a user sees: each entry of a match's log numbered by its line in the
    record file ``export_record`` writes (line 1 is the start). ``honba log`` shows these
    numbers, ``honba amend``/``void`` and the application's corrections take them, a record
    file's correction lines name their targets by them. Deal passes and the ends the rules
    decided have no line, so no number; the domain keeps its positions, and this is the one
    place that translates between the two."""

    key: str
    # The number of each entry that has one, by its position in the Match aggregate.
    by_position: Mapping[int, int]

    def number(self, position: int | None) -> int | None:
        """The number of the entry at ``position``; None for a deal pass, an automatic end, none."""
        return None if position is None else self.by_position.get(position)

    def name(self, position: int) -> str:
        """How a message names the entry at ``position``: ``entry 5``."""
        number = self.number(position)
        return f"entry {number}" if number is not None else f"the entry after entry {self._before(position)}"

    def _before(self, position: int) -> int:
        earlier = [n for p, n in self.by_position.items() if p < position]
        return max(earlier, default=1)

    def position(self, number: int) -> int:
        """The position in the aggregate of the entry numbered ``number``; a number that names
        no entry is refused with what the numbers are."""
        for position, numbered in self.by_position.items():
            if numbered == number:
                return position
        last = max(self.by_position.values(), default=1)
        if number == 1:
            why = "line 1 of the record file is the match's start, not an entry"
        elif last == 1:
            why = "the match has no entries yet"
        else:
            numbers = "its one entry is numbered 2" if last == 2 else f"its entries are numbered 2 to {last}"
            why = (
                f"{numbers} (the numbers honba log shows, the lines of the exported record file; "
                "deal passes and the ends the rules decided have no number)"
            )
        raise UnknownEntry(f"there is no entry {number} in match {self.key!r}: {why}")


def entry_numbers(match: Match) -> EntryNumbers:
    """The numbers of the match's entries: their lines in the file ``export_record`` writes."""
    corrections = dict(match.correction_log)
    entries = dict(match.history)
    numbers: dict[int, int] = {}
    line = 1  # the start line
    for position in sorted({*entries, *corrections}):
        if position in corrections or fact_line(entries[position], match.players) is not None:
            line += 1
            numbers[position] = line
    return EntryNumbers(match.key, numbers)


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
