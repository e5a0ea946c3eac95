"""The per-hand ledger: every payment of every hand with its reason.

A ledger entry is one hand result (or penalty, or the end of the match) with the
table state before it, the itemised payments, each player's change and the
scores after; the deal pass that followed a hand is shown on that hand's entry.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import attrs

from domain.amendments import CorrectedStep, Correction
from domain.progression import Fact
from domain.rules import Ruleset
from domain.scoring.payments import score_changes
from domain.values import DealPass, MatchEnd, Payment, Penalty, TableState
from projections.table import steps


@attrs.frozen
class LedgerEntry:
    """One line of the ledger: a hand result, a penalty or the end of the match."""

    number: int
    before: TableState
    fact: Fact
    payments: tuple[Payment, ...]
    deltas: tuple[int, ...]
    after: TableState
    deal_pass: DealPass | None = None
    position: int | None = None

    @property
    def kind(self) -> str:
        """``hand``, ``penalty`` or ``end``."""
        if isinstance(self.fact, Penalty):
            return "penalty"
        if isinstance(self.fact, MatchEnd):
            return "end"
        return "hand"


@attrs.frozen
class CorrectionMark:
    """How a log shows a corrected entry: ``amended`` (original -> replacement) or ``voided``
    (struck through), with the correction in force (its position, who, why, when) and the
    table the entry was played on."""

    position: int
    kind: str
    original: Fact
    replacement: Fact | None
    by: str
    reason: str
    at: str
    correction: int | None
    before: TableState


def correction_marks(
    history: Sequence[tuple[int, Fact]], corrections: Mapping[int, Correction], steps: Iterable[CorrectedStep]
) -> dict[int, CorrectionMark]:
    """The mark of each corrected entry, by its position (``Match.corrections`` are the
    corrections in force; ``steps`` the match's corrected steps, for the table of each)."""
    facts = dict(history)
    tables = {step.position: step.before for step in steps}
    marks = {}
    for position, correction in corrections.items():
        original = facts.get(position)
        if original is None or position not in tables:
            continue
        kind = "voided" if correction.replacement is None else "amended"
        marks[position] = CorrectionMark(
            position,
            kind,
            original,
            correction.replacement,
            correction.by,
            correction.reason,
            correction.at,
            correction.position,
            tables[position],
        )
    return marks


def ledger(
    rules: Ruleset, facts: Iterable[Fact], start: TableState | None = None, positions: Sequence[int] | None = None
) -> list[LedgerEntry]:
    """The ledger of a match from its facts, under the given rules (from East 1, or ``start``).

    ``positions`` names, fact by fact, the entry of the match's log each fact stands for.
    """
    return corrected_ledger(
        CorrectedStep(positions[i] if positions is not None else -1, step.before, step.fact, step.payments, step.after)
        for i, step in enumerate(steps(rules, facts, start))
    )


def corrected_ledger(steps: Iterable[CorrectedStep]) -> list[LedgerEntry]:
    """The ledger of a corrected history (``domain.amendments.corrected_steps``): voided
    entries leave no line, each line names the position of the entry it stands for."""
    entries: list[LedgerEntry] = []
    hands = 0
    for step in steps:
        if step.fact is None:
            continue
        if isinstance(step.fact, DealPass):
            if entries:
                entries[-1] = attrs.evolve(entries[-1], deal_pass=step.fact, after=step.after)
            continue
        if not isinstance(step.fact, Penalty | MatchEnd):
            hands += 1
        deltas = score_changes(step.payments, step.before.players)
        position = step.position if step.position >= 0 else None
        entries.append(LedgerEntry(hands, step.before, step.fact, step.payments, deltas, step.after, None, position))
    return entries
