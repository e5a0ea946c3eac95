"""Fold a match's facts into table states: ``state, fact -> state``.

These folds work on any sequence of facts: a stored match, a record file, a log
being replayed, or the same facts under other rules (a what-if).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import attrs

from domain.progression import Fact, evolve, initial_state
from domain.rules import Ruleset
from domain.values import Payment, TableState


@attrs.frozen
class Step:
    """One fact applied: the table before, the payments it caused, the table after."""

    before: TableState
    fact: Fact
    payments: tuple[Payment, ...]
    after: TableState


def steps(rules: Ruleset, facts: Iterable[Fact], start: TableState | None = None) -> Iterator[Step]:
    """Each fact in turn with the table state before and after it."""
    state = start if start is not None else initial_state(rules)
    for fact in facts:
        after, payments = evolve(state, rules, fact)
        yield Step(state, fact, payments, after)
        state = after


def table_state(rules: Ruleset, facts: Iterable[Fact], start: TableState | None = None) -> TableState:
    """The table state after all the facts (from East 1, or from ``start``)."""
    state = start if start is not None else initial_state(rules)
    for fact in facts:
        state, _ = evolve(state, rules, fact)
    return state
