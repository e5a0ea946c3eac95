"""Players who come and go, teams, and the seating checks of issue 27, each against a hand calculation.

The event: eight players A to H, one stage of two sessions seated by rank (names in order before
anything is played), the EMA's rules (the ``ema`` preset: 30,000 start and return, uma
+15/+5/-5/-15, no oka, ties split). Every match goes as in tests/e2e/test_staged_event.py: seat 1
rons seat 2 for V1, seat 3 rons seat 0 for V2 < V1, time limit; session points seat 0
-V2/1000 - 5, seat 1 +V1/1000 + 15, seat 2 -V1/1000 - 15, seat 3 +V2/1000 + 5.

Session 1, tables A B C D (8000, 2000) and E F G H (12000, 1000): A -7.0, B +23.0, C -23.0, D +7.0;
E -6.0, F +27.0, G -27.0, H +6.0. D withdraws after session 1; Sub stands in for D. Session 2 by
rank after session 1 (F 27, B 23, [D gone], H 6, E -6, A -7, C -23, G -27, then Sub, who has no
result yet): F B H E (5200, 1000): F -6.0, B +20.2, H -20.2, E +6.0; A C G Sub (3900, 2600):
A -7.6, C +18.9, G -18.9, Sub +7.6 as played.

Totals: B 43.2, F 21.0, D 7.0 (one match), E 0.0, C -4.1, H -14.2, A -14.6, G -45.9; Sub, under
the EMA rule as MahjongPantheon counts it (pantheon pull request #14): -15,000 and an uma of
-15,000 whatever happened, -30.0 a match. Teams North (A, B) 28.6, East (E, F) 21.0, South (C, D)
2.9, West (G, H) -60.1; by average North 14.3, East 10.5.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from honba_cli import Honba
from prepared_store import PreparedStores

from domain.bounds import OutOfBounds
from domain.errors import RuleViolation
from domain.seating import separate_teams, snake_seating, team_clashes
from domain.stages import EventFormat, Stage, carried_tenths
from domain.tournament import Tournament

VALUES = {1000: "1/30", 2000: "2/30", 2600: "2/40", 3900: "3/30", 5200: "3/40", 8000: "mangan", 12000: "haneman"}


def play(honba: Honba, key: str, table: list[str], v1: int, v2: int) -> None:
    honba.ok("win", key, f"{table[1]}:{VALUES[v1]}", "--from", table[2])
    honba.ok("win", key, f"{table[3]}:{VALUES[v2]}", "--from", table[0])
    honba.ok("end", key, "--reason", "time limit")


def played(db: str) -> None:
    """The league of the module's docstring, both sessions played."""
    honba = Honba(Path(db))
    honba.ok("tournament", "create", "league", "--players", "A,B,C,D,E,F,G,H")
    honba.ok("tournament", "format", "league", "--stage", "league:2:seating=rank,later=rank", "--substitutes", "ema")
    for team, players in (("North", "AB"), ("South", "CD"), ("East", "EF"), ("West", "GH")):
        honba.ok("tournament", "team", "league", team, *players)
    out = honba.ok("tournament", "next", "league", "--rules", "ema")
    assert "table 1: A, B, C, D" in out and "table 2: E, F, G, H" in out
    play(honba, "league-s1-t1", ["A", "B", "C", "D"], 8000, 2000)
    play(honba, "league-s1-t2", ["E", "F", "G", "H"], 12000, 1000)
    honba.ok("tournament", "withdraw", "league", "D", "--after", "1", "--reason", "fell ill")
    honba.ok("tournament", "substitute", "league", "Sub", "--for", "D", "--reason", "stands in for D")
    out = honba.ok("tournament", "next", "league", "--rules", "ema")
    assert "table 1: F, B, H, E" in out and "table 2: A, C, G, Sub" in out
    play(honba, "league-s2-t1", ["F", "B", "H", "E"], 5200, 1000)
    play(honba, "league-s2-t2", ["A", "C", "G", "Sub"], 3900, 2600)


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> PreparedStores:
    """The league played once for the module (tests/prepared_store.py)."""
    return PreparedStores(played, tmp_path_factory.mktemp("prepared"), request)


@pytest.fixture
def league(prepared: PreparedStores, tmp_path: Path) -> Honba:
    """A copy of the played league of its own, for a test to change."""
    return Honba(Path(prepared.copy("sqlite", tmp_path)))


def test_a_withdrawal_keeps_the_players_matches_and_an_ema_substitute_counts_minus_30_a_match(
    league: Honba,
) -> None:
    data = json.loads(league.ok("tournament", "results", "league", "--format", "json"))
    rows = data["stages"][0]["rows"]
    assert [(r["player"], r["points"]) for r in rows] == [
        ("B", 43.2),
        ("F", 21.0),
        ("D", 7.0),
        ("E", 0.0),
        ("C", -4.1),
        ("H", -14.2),
        ("A", -14.6),
        ("Sub", -30.0),
        ("G", -45.9),
    ]
    marks = {r["player"]: r["marks"] for r in rows}
    assert marks["D"] == ["withdrew after session 1", "replaced by Sub"]
    assert marks["Sub"] == ["substitute for D"]
    assert {r["player"]: r["matches"] for r in rows}["D"] == 1


def test_a_substitute_whose_results_do_not_count_is_left_out_and_the_others_keep_theirs(league: Honba) -> None:
    league.ok(
        "tournament", "format", "league", "--stage", "league:2:seating=rank,later=rank", "--substitutes", "not-counted"
    )
    rows = json.loads(league.ok("tournament", "results", "league", "--format", "json"))["stages"][0]["rows"]
    assert [r["player"] for r in rows] == ["B", "F", "D", "E", "C", "H", "A", "G"]
    assert {r["player"]: r["points"] for r in rows}["G"] == -45.9


def test_team_standings_sum_or_average_the_members_points(league: Honba) -> None:
    teams = json.loads(league.ok("tournament", "results", "league", "--format", "json"))["teams"]
    assert [(t["team"], t["points"]) for t in teams] == [
        ("North", 28.6),
        ("East", 21.0),
        ("South", 2.9),
        ("West", -60.1),
    ]
    league.ok(
        "tournament",
        "format",
        "league",
        "--stage",
        "league:2:seating=rank,later=rank",
        "--substitutes",
        "ema",
        "--team-points",
        "average",
    )
    teams = json.loads(league.ok("tournament", "results", "league", "--format", "json"))["teams"]
    assert [(t["team"], t["points"]) for t in teams][:2] == [("North", 14.3), ("East", 10.5)]


def test_tournament_show_lists_players_teams_comings_and_goings_and_each_sessions_tables(league: Honba) -> None:
    # Its help promised players and sessions; it printed a count and the matches.
    shown = league.ok("tournament", "show", "league")
    rows = {line.split("│")[1].strip(): line for line in shown.splitlines() if line.count("│") == 4}
    assert "North" in rows["A"] and "South" in rows["D"] and "withdrew after session 1" in rows["D"]
    assert "substitute for D" in rows["Sub"]
    assert "Session 1" in shown and "Session 2" in shown
    assert "A, B, C, D" in shown and "F, B, H, E" in shown and "A, C, G, Sub" in shown
    assert max(len(line) for line in shown.splitlines()) <= 80


def test_a_withdrawn_player_is_not_seated_again(league: Honba) -> None:
    line = league.refused("tournament", "seat", "league", "3", "A,B,C,D", "E,F,G,H")
    assert "D" in line and "withdrew after session 1" in line


def test_seating_keeps_team_mates_apart_by_the_smallest_swap() -> None:
    # A and B are one team, E and F another: A swaps with the first player of table 2 that
    # leaves fewer team-mates together, E.
    teams = {"A": "N", "B": "N", "E": "X", "F": "X"}
    seating = separate_teams([["A", "B", "C", "D"], ["E", "F", "G", "H"]], teams)
    assert seating == [["E", "B", "C", "D"], ["A", "F", "G", "H"]]
    assert team_clashes(seating, teams) == 0


def test_snake_seating_spreads_the_ranks_over_the_tables() -> None:
    ranked = [f"R{n}" for n in range(1, 17)]
    assert snake_seating(ranked) == [
        ["R1", "R8", "R9", "R16"],
        ["R2", "R7", "R10", "R15"],
        ["R3", "R6", "R11", "R14"],
        ["R4", "R5", "R12", "R13"],
    ]


def test_points_halved_at_a_cut_round_a_half_tenth_away_from_zero() -> None:
    assert [carried_tenths(t, "halve") for t in (189, -189, 310, -123, 0)] == [95, -95, 155, -62, 0]
    assert carried_tenths(189, "keep") == 189 and carried_tenths(189, "reset") == 0


def test_a_session_seats_each_player_once_and_a_match_plays_at_its_own_table() -> None:
    t = Tournament.create("cup", ["A", "B", "C", "D", "E", "F", "G", "H"])
    with pytest.raises(RuleViolation, match="seated twice"):
        t.plan_session(1, [["A", "B", "C", "D"], ["E", "F", "G", "A"]])
    t.plan_session(1, [["A", "B", "C", "D"], ["E", "F", "G", "H"]])
    with pytest.raises(RuleViolation, match="table 2 of session 1 seats"):
        t.attach("m1", ["A", "B", "C", "D"], session=1, table=2)
    with pytest.raises(RuleViolation, match="do not sit at one table"):
        t.attach("m1", ["A", "B", "E", "F"], session=1)
    t.attach("m1", ["A", "B", "C", "D"], session=1, table=1)
    assert t.matches == {"m1": (1, 1)}


def test_a_table_seats_three_or_four_and_every_table_of_a_session_the_same() -> None:
    t = Tournament.create("cup", ["A", "B", "C", "D", "E", "F", "G", "H"])
    with pytest.raises(OutOfBounds, match=r"^players at table 1: 1 is out of range \(3 to 4\)"):
        t.plan_session(1, [["A"]])
    with pytest.raises(OutOfBounds, match=r"^players at table 1: 0 is out of range"):
        t.plan_session(1, [[]])
    with pytest.raises(RuleViolation, match="needs at least one table"):
        t.plan_session(1, [])
    with pytest.raises(RuleViolation, match="tables seat 3, 4 players: one size for every table"):
        t.plan_session(1, [["A", "B", "C"], ["E", "F", "G", "H"]])
    t.plan_session(1, [["A", "B", "C"], ["E", "F", "G"]])  # sanma tables


def test_a_session_played_as_seated_is_not_seated_again() -> None:
    # Seated again once a match counts for it, the match would stay at a table that now seats others.
    t = Tournament.create("cup", ["A", "B", "C", "D", "E", "F", "G", "H"])
    t.plan_session(1, [["A", "B", "C", "D"], ["E", "F", "G", "H"]])
    t.plan_session(1, [["A", "B", "C", "E"], ["D", "F", "G", "H"]])  # nothing played yet: a new seating
    t.attach("m1", ["A", "B", "C", "E"], session=1, table=1)
    with pytest.raises(RuleViolation, match=r"session 1 of 'cup' is already seated and played \(m1\)"):
        t.plan_session(1, [["A", "B", "C", "D"], ["E", "F", "G", "H"]])
    assert t.sessions[1] == [["A", "B", "C", "E"], ["D", "F", "G", "H"]]


def test_a_format_must_make_sense() -> None:
    with pytest.raises(RuleViolation, match="nobody advances"):
        EventFormat((Stage("q", 2, advance=4),)).check()
    with pytest.raises(RuleViolation, match="how many advance"):
        EventFormat((Stage("q", 2), Stage("f", 1))).check()
    with pytest.raises(RuleViolation, match="fewer advance"):
        EventFormat((Stage("q", 2, advance=8), Stage("s", 1, advance=8, carry="halve"), Stage("f", 1))).check()
    with pytest.raises(RuleViolation, match="carry"):
        EventFormat((Stage("q", 2, advance=4), Stage("f", 1, carry="double"))).check()
