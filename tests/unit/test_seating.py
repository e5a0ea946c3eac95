"""Seating a session: at random, and keeping players from meeting twice where possible."""

from __future__ import annotations

import itertools

import pytest

from domain.errors import RuleViolation
from domain.seating import fewest_repeats_seating, met_pairs, random_seating, repeats

SIXTEEN = [f"P{n:02d}" for n in range(16)]


def test_a_random_seating_seats_everyone_once_in_tables_of_four() -> None:
    seating = random_seating(SIXTEEN, seed=7)
    assert len(seating) == 4 and all(len(t) == 4 for t in seating)
    assert sorted(p for t in seating for p in t) == SIXTEEN
    assert random_seating(SIXTEEN, seed=7) == seating  # the seed gives the same seating again


def test_players_who_do_not_fill_the_tables_are_refused() -> None:
    # 14 players: two short of four tables, or two over three.
    with pytest.raises(RuleViolation, match="14 players do not fill tables of 4: add 2 or withdraw 2"):
        random_seating(SIXTEEN[:14])
    with pytest.raises(RuleViolation, match="13 players do not fill tables of 4: add 3 or withdraw 1"):
        random_seating(SIXTEEN[:13])
    with pytest.raises(RuleViolation, match="twice"):
        random_seating([*SIXTEEN[:15], "P00"])


def test_sixteen_players_meet_nobody_twice_over_three_sessions() -> None:
    # Sixteen players at four tables can play five sessions without any pair meeting twice (the affine
    # plane of order 4); the search must find at least three such sessions.
    sessions: list[list[list[str]]] = []
    for session in range(3):
        seating = fewest_repeats_seating(SIXTEEN, sessions, seed=session)
        assert repeats(seating, met_pairs(sessions)) == 0
        sessions.append(seating)
    assert max(met_pairs(sessions).values()) == 1


def test_where_meeting_again_cannot_be_avoided_the_fewest_repeats_are_found() -> None:
    eight = list("ABCDEFGH")
    before = [[list("ABCD"), list("EFGH")], [list("ABEF"), list("CDGH")]]
    met = met_pairs(before)
    # Every way to split eight players into two tables, checked by brute force.
    best = min(
        repeats([list(first), [p for p in eight if p not in first]], met) for first in itertools.combinations(eight, 4)
    )
    seating = fewest_repeats_seating(eight, before, seed=1)
    assert best > 0
    assert repeats(seating, met) == best
