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

from domain.progression import Fact
from domain.values import DealPass, MatchEnd


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


def is_correctable(fact: Fact) -> bool:
    """Hand results and penalties can be corrected; deal passes and the end follow from them."""
    return not isinstance(fact, DealPass | MatchEnd)
