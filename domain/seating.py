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
from collections.abc import Iterable, Mapping, Sequence

from domain.errors import RuleViolation
from domain.said import Said

Seating = list[list[str]]


def _check(players: Sequence[str], size: int) -> None:
    if size < 2:
        raise RuleViolation(Said("a table seats at least two players"))
    if len(set(players)) != len(players):
        raise RuleViolation(Said("each player is seated once: the list names someone twice"))
    if not players:
        raise RuleViolation(Said("no players to seat at tables of {size}: add {size}", size=size))
    if len(players) % size:
        over = len(players) % size
        raise RuleViolation(
            Said(
                "{count} players do not fill tables of {size}: add {missing} or withdraw {over} (or seat substitutes)",
                count=len(players),
                size=size,
                missing=size - over,
                over=over,
            )
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


# Seating by the standings: a stage's sessions after the first (Swiss, or progressive, seating),
# the first session of a stage after a cut, a final table.


def rank_seating(ranked: Sequence[str], size: int = 4) -> Seating:
    """Tables of consecutive ranks, in rank order (table 1 seats ranks 1 to ``size``; the best
    placed deals first): a final table seats 1-4 by rank, a Swiss session players of similar
    standing together."""
    _check(ranked, size)
    return [list(ranked[i : i + size]) for i in range(0, len(ranked), size)]


def snake_seating(ranked: Sequence[str], size: int = 4) -> Seating:
    """Ranks spread over the tables: the first ``tables`` ranks head tables 1 to ``tables``, the
    next ones sit at them in reverse order, and so on (16 players: table 1 seats ranks 1, 8, 9,
    16; table 4 ranks 4, 5, 12, 13)."""
    _check(ranked, size)
    count = len(ranked) // size
    seating: Seating = [[] for _ in range(count)]
    for index, player in enumerate(ranked):
        row, column = divmod(index, count)
        seating[column if row % 2 == 0 else count - 1 - column].append(player)
    return seating


def team_clashes(seating: Sequence[Sequence[str]], team_of: Mapping[str, str]) -> int:
    """How many pairs of team-mates a seating puts at one table."""
    return sum(
        1
        for table in seating
        for a, b in itertools.combinations(table, 2)
        if team_of.get(a) is not None and team_of.get(a) == team_of.get(b)
    )


def separate_teams(seating: Sequence[Sequence[str]], team_of: Mapping[str, str]) -> Seating:
    """The seating with team-mates moved apart, each move as small as can be: table by table, a
    player who meets a team-mate swaps with the nearest player of a later table (else an earlier
    one) whose swap leaves fewer team-mates together at the two tables. Deterministic: no randomness, so a
    drawn or Swiss seating stays what its own rule made it but for these swaps. Where no such
    swap exists, team-mates stay together (``team_clashes`` counts them)."""
    tables = [list(t) for t in seating]

    def clash(table: list[str], player: str, skip: int) -> bool:
        team = team_of.get(player)
        return team is not None and any(team_of.get(o) == team for i, o in enumerate(table) if i != skip)

    for t, table in enumerate(tables):
        for seat in range(len(table)):
            if not clash(table, table[seat], seat):
                continue
            others = [*range(t + 1, len(tables)), *range(t - 1, -1, -1)]
            for u in others:
                swapped = False
                for other_seat in range(len(tables[u])):
                    mine, theirs = list(table), list(tables[u])
                    mine[seat], theirs[other_seat] = theirs[other_seat], mine[seat]
                    if team_clashes([mine, theirs], team_of) < team_clashes([table, tables[u]], team_of):
                        table[:], tables[u][:] = mine, theirs
                        swapped = True
                        break
                if swapped:
                    break
    return tables
