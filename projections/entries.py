"""The one numbering a user sees: each entry of a match's log numbered by its line in the record
file (``replay.formats.record.export_record`` writes each entry on the line numbered so; line 1 is
the start). A pure fold over the match's history and corrections, used by every use case that names
an entry (``honba log``, the corrections, the audit, the pages) and by the record file's writer.
"""

from __future__ import annotations

from collections.abc import Mapping

import attrs

from domain.amendments import AUTOMATIC_ENDS
from domain.errors import HonbaError
from domain.match import Match
from domain.progression import Fact
from domain.said import Said
from domain.values import AbortiveDraw, ExhaustiveDraw, MatchEnd, Penalty, WinResult


def has_line(fact: Fact) -> bool:
    """Whether a fact is an entry of the record file (so has a number): a result, a penalty, an
    early end; not a deal pass nor an end the rules or the clock decided (an import works those out
    again)."""
    if isinstance(fact, WinResult | ExhaustiveDraw | AbortiveDraw | Penalty):
        return True
    return isinstance(fact, MatchEnd) and fact.reason not in AUTOMATIC_ENDS


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
        return str(self.said(position))

    def said(self, position: int) -> Said:
        """``name`` as words (``domain.said.Said``), for a page that speaks another language."""
        number = self.number(position)
        if number is not None:
            return Said("entry {number}", number=number)
        return Said("the entry after entry {number}", number=self._before(position))

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
        why: Said
        if number == 1:
            why = Said("line 1 of the record file is the match's start, not an entry")
        elif last == 1:
            why = Said("the match has no entries yet")
        else:
            numbers = (
                Said("its one entry is numbered 2")
                if last == 2
                else Said("its entries are numbered 2 to {last}", last=last)
            )
            why = Said(
                "{numbers} (the numbers honba log shows, the lines of the exported record file; "
                "deal passes and the ends the rules decided have no number)",
                numbers=numbers,
            )
        raise UnknownEntry(
            Said("there is no entry {number} in match {match}: {why}", number=number, match=repr(self.key), why=why)
        )


def entry_numbers(match: Match) -> EntryNumbers:
    """The numbers of the match's entries: their lines in the file ``export_record`` writes."""
    corrections = dict(match.correction_log)
    entries = dict(match.history)
    numbers: dict[int, int] = {}
    line = 1  # the start line
    for position in sorted({*entries, *corrections}):
        if position in corrections or has_line(entries[position]):
            line += 1
            numbers[position] = line
    return EntryNumbers(match.key, numbers)
