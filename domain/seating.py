"""Seating a tournament session: players into tables of the rules' size.

Two ways: at random, and the way that keeps players from meeting again (as few pairs
seated together twice as can be found). The second is a local search: start from a
random seating, then swap two players of different tables whenever that lowers the count
of pairs who already met in the sessions before, until no swap helps; the best of a few
starts is kept. It is seeded, so a director who asks again with the same seed gets the
same seating.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence

from domain.errors import RuleViolation

Seating = list[list[str]]


def _check(players: Sequence[str], size: int) -> None:
    if size < 2:
        raise RuleViolation("a table seats at least two players")
    if len(set(players)) != len(players):
        raise RuleViolation("each player is seated once: the list names someone twice")
    if not players or len(players) % size:
        raise RuleViolation(
            f"{len(players)} players do not fill tables of {size}: add or withdraw "
            f"{size - len(players) % size if players else size} (or use substitutes)"
        )


def random_seating(players: Sequence[str], size: int = 4, *, seed: int | None = None) -> Seating:
    """The players shuffled into tables of ``size``, each table in seat order (the first deals first)."""
    _check(players, size)
    order = list(players)
    random.Random(seed).shuffle(order)
    return [order[i : i + size] for i in range(0, len(order), size)]


def met_pairs(sessions: Iterable[Sequence[Sequence[str]]]) -> dict[frozenset[str], int]:
    """How often each pair of players sat at one table in the given sessions."""
    met: dict[frozenset[str], int] = {}
    for tables in sessions:
        for table in tables:
            for a, b in itertools.combinations(table, 2):
                pair = frozenset((a, b))
                met[pair] = met.get(pair, 0) + 1
    return met


def repeats(seating: Sequence[Sequence[str]], met: dict[frozenset[str], int]) -> int:
    """The number of meetings again that this seating makes: each pair at one table counted as often
    as the pair met before."""
    return sum(met.get(frozenset(pair), 0) for table in seating for pair in itertools.combinations(table, 2))


def fewest_repeats_seating(
    players: Sequence[str],
    before: Iterable[Sequence[Sequence[str]]],
    size: int = 4,
    *,
    seed: int | None = None,
    starts: int = 12,
) -> Seating:
    """A seating where as few pairs as can be found meet again after the sessions ``before``."""
    _check(players, size)
    met = met_pairs(before)
    rng = random.Random(seed)
    best: Seating | None = None
    best_cost = -1
    for _ in range(starts):
        seating = random_seating(players, size, seed=rng.randrange(2**32))
        cost = _improve(seating, met)
        if best is None or cost < best_cost:
            best, best_cost = seating, cost
        if best_cost == 0:
            break
    assert best is not None
    return best


def _table_cost(table: Sequence[str], met: dict[frozenset[str], int]) -> int:
    return sum(met.get(frozenset(pair), 0) for pair in itertools.combinations(table, 2))


def _improve(seating: Seating, met: dict[frozenset[str], int]) -> int:
    """Swap players between tables while a swap lowers the repeats; the repeats left."""
    costs = [_table_cost(t, met) for t in seating]
    improved = True
    while improved:
        improved = False
        for i, j in itertools.combinations(range(len(seating)), 2):
            for a, b in itertools.product(range(len(seating[i])), range(len(seating[j]))):
                left, right = list(seating[i]), list(seating[j])
                left[a], right[b] = right[b], left[a]
                new_left, new_right = _table_cost(left, met), _table_cost(right, met)
                if new_left + new_right < costs[i] + costs[j]:
                    seating[i], seating[j] = left, right
                    costs[i], costs[j] = new_left, new_right
                    improved = True
    return sum(costs)
