"""Corrections of a match's history: amend or void a hand, add or cancel a penalty.

A correction never edits what was recorded; it is a new fact that says which
earlier entry it replaces (by the entry's position in the match's event log),
who made it and why. ``effective_facts`` gives the history that projections,
scores and standings use: corrected entries replaced, voided ones left out,
deal passes kept as they were played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from domain.progression import Fact, evolve
from domain.rules import Ruleset
from domain.values import DealPass, MatchEnd, Payment, TableState


@attrs.frozen
class Correction:
    """A referee's correction: ``target`` is the position of the corrected entry (None when a
    penalty is added), ``replacement`` the new fact (None voids the entry)."""

    target: int | None
    replacement: Fact | None
    by: str
    reason: str
    at: str = ""

    @property
    def kind(self) -> str:
        """``amended``, ``voided``, ``penalty added`` or ``penalty cancelled``."""
        if self.target is None:
            return "penalty added"
        if self.replacement is None:
            return "voided"
        return "amended"


def effective_entries(
    history: Sequence[tuple[int, Fact]], corrections: Mapping[int, Correction]
) -> list[tuple[int, Fact]]:
    """The history as corrected, each fact with the position of the entry it stands for:
    replaced entries, voided ones dropped, the end kept last.

    ``history`` holds each entry's position and fact in recorded order (penalties added
    by a correction included at the correction's own position); ``corrections`` the
    latest correction of each corrected position.
    """
    entries: list[tuple[int, Fact]] = []
    end: list[tuple[int, Fact]] = []
    for position, fact in history:
        correction = corrections.get(position)
        if correction is not None:
            if correction.replacement is None:
                continue
            fact = correction.replacement
        (end if isinstance(fact, MatchEnd) else entries).append((position, fact))
    # A penalty added after the match ended still counts toward its final scores.
    return entries + end


def effective_facts(history: Sequence[tuple[int, Fact]], corrections: Mapping[int, Correction]) -> list[Fact]:
    """The facts of ``effective_entries``, without their positions."""
    return [fact for _, fact in effective_entries(history, corrections)]


@attrs.frozen
class CorrectedStep:
    """One entry of the corrected history: the table it was scored on, the fact in force
    (None for a voided entry), its payments and the table after it."""

    position: int
    before: TableState
    fact: Fact | None
    payments: tuple[Payment, ...]
    after: TableState


def corrected_steps(
    opening: TableState, rules: Ruleset, history: Sequence[tuple[int, Fact]], corrections: Mapping[int, Correction]
) -> list[CorrectedStep]:
    """Fold the corrected history, keeping the hands that were played as they were played.

    Two timelines run side by side: the table as it was played (the recorded facts) and
    the scores under the corrections. Every entry is scored on the table as played (its
    dealer, round, counters and deposits) carrying the corrected scores, so a correction
    changes what was paid, never which hands were played or at what table. Where the
    corrected result would have led to another table, the audit shows it.
    """
    played = opening
    corrected = opening
    steps: list[CorrectedStep] = []
    ordered = [e for e in history if not isinstance(e[1], MatchEnd)] + [
        e for e in history if isinstance(e[1], MatchEnd)
    ]
    for position, fact in ordered:
        correction = corrections.get(position)
        effective = fact if correction is None else correction.replacement
        table = attrs.evolve(played, scores=corrected.scores, penalties=corrected.penalties)
        if effective is None:
            steps.append(CorrectedStep(position, table, None, (), table))
            corrected = table
        else:
            corrected, payments = evolve(table, rules, effective)
            steps.append(CorrectedStep(position, table, effective, payments, corrected))
        played, _ = evolve(played, rules, fact)
    return steps


def is_correctable(fact: Fact) -> bool:
    """Hand results and penalties can be corrected; deal passes and the end follow from them."""
    return not isinstance(fact, DealPass | MatchEnd)
