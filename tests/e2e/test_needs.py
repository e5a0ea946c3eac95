"""What each player needs (issue 27), checked by brute force over every placement of the last
session on small cases, and at a final table in progress against a hand calculation.

The brute force plays the last session on a grid of final scores (every placement of every table
occurs in it; tied scores left out, where the tie rule shares the uma), computes each outcome's
final points with the rules (``domain.progression.final_points``) and the standings after it, and
checks for every player and place: a place called certain always ends in the top N, one called
impossible never does, and every margin stated against a rival decides the order of the two
whenever the outcome is not exactly on it.
"""

from __future__ import annotations

import itertools
import json
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from pathlib import Path

from honba_cli import Honba

from domain.progression import final_points
from domain.rules import load_preset
from projections.needs import PlayerNeed, session_needs
from projections.standings import StandingRow

WRC = load_preset("wrc")


def rows(points: dict[str, float]) -> list[StandingRow]:
    ordered = sorted(points.items(), key=lambda item: -item[1])
    return [StandingRow(i, p, v, 0, 1, 2.0, (0, 1, 0, 0), 0) for i, (p, v) in enumerate(ordered, start=1)]


def table_outcomes(step: int, low: int, high: int, total: int) -> Iterator[tuple[int, ...]]:
    """Every score vector of a table on the grid, without tied scores."""
    values = range(low, high + 1, step)
    for first, second, third in itertools.product(values, repeat=3):
        fourth = total - first - second - third
        if low <= fourth <= high and len({first, second, third, fourth}) == 4:
            yield (first, second, third, fourth)


def table_end(table: list[str], scores: tuple[int, ...]) -> list[tuple[str, tuple[float, int, int]]]:
    """Each player of the table with their final points, place and score when the table ends on ``scores``."""
    order = sorted(range(4), key=lambda s: -scores[s])
    return [
        (player, (f, order.index(seat) + 1, scores[seat]))
        for seat, (player, f) in enumerate(zip(table, final_points(scores, WRC), strict=True))
    ]


def check(
    needs: Sequence[PlayerNeed], points: dict[str, float], tables: list[list[str]], top: int, outcomes: list
) -> int:
    by_player = {n.player: n for n in needs}
    checked = 0
    # Each table's scores give each of its players (final points, place, score) whatever the other
    # tables' do: computed once for each scores of the grid, not again for every combination of them.
    ends = [
        [(scores, table_end(table, scores)) for scores in table_grid]
        for table, table_grid in zip(tables, outcomes, strict=True)
    ]
    for combination in itertools.product(*ends):
        outcome = tuple(scores for scores, _end in combination)
        session = {player: end for _scores, table in combination for player, end in table}
        total = {p: round(points[p] + session.get(p, (0.0, 0, 0))[0], 1) for p in points}
        # How many end above a total and level with it, counted once in the sorted totals (bisect)
        # rather than over every player for every player.
        ordered = sorted(total.values())
        for player, (f, place, score) in session.items():
            mine = total[player]
            ahead = len(ordered) - bisect_right(ordered, mine)
            level = bisect_right(ordered, mine) - bisect_left(ordered, mine) - 1  # others on the same total
            need = by_player[player].places[place - 1]
            if need.status == "certain":
                assert ahead + level < top, (player, place, outcome)
            if need.status == "impossible":
                assert ahead >= top, (player, place, outcome)
            for c in need.conditions:
                other = session.get(c.rival)
                if c.rival_place and other is not None and other[1] != c.rival_place:
                    continue
                if c.rival_place and other is not None:
                    difference, margin = score - other[2], c.score_margin
                    assert margin is not None
                else:
                    difference = round((f - (other[0] if other else 0.0)) * 10)
                    margin = round(c.points_margin * 10)
                if c.relation == "behind" or (c.relation == "margin" and difference > margin):
                    assert total[player] > total[c.rival], (player, place, c, outcome)
                if c.relation == "ahead" or (c.relation == "margin" and difference < margin):
                    assert total[player] < total[c.rival], (player, place, c, outcome)
                checked += 1
    return checked


def test_a_final_tables_needs_hold_for_every_placement_and_score() -> None:
    points = {"Ann": 30.0, "Ben": 22.0, "Cho": 10.0, "Dai": -4.0}
    tables = [["Ann", "Ben", "Cho", "Dai"]]
    needs = session_needs(rows(points), tables, WRC, 1)
    # Ann, 8 points ahead, first at the table wins the event whatever the scores: every other player
    # then ends below her score and the uma of 1st (+15) is at least 10 above theirs.
    assert needs[0].player == "Ann" and needs[0].places[0].status == "certain"
    outcomes = [list(table_outcomes(2000, -10000, 130000, 120000))]
    assert check(needs, points, tables, 1, outcomes) > 100_000


def test_a_cut_to_the_top_4_of_8_holds_for_every_placement_and_score() -> None:
    points = {"A": 40.0, "B": 25.0, "C": 12.0, "D": 3.0, "E": 0.0, "F": -9.0, "G": -30.0, "H": -41.0}
    tables = [["A", "D", "E", "H"], ["B", "C", "F", "G"]]
    needs = session_needs(rows(points), tables, WRC, 4)
    grid = list(table_outcomes(10000, 0, 120000, 120000))
    assert check(needs, points, tables, 4, [grid, grid]) > 100_000


def test_the_least_hand_that_wins_a_final_table_now(tmp_path: Path) -> None:
    # Session 1 under WRC: Ben rons Cho for a mangan: Ben +23, Ann and Dai 0 (tied, both 2nd), Cho -23.
    # The final (session 2) seats Ben, Ann, Dai, Cho by rank (Ann before Dai on the name). Before any
    # hand, Cho wins the event with a haneman on Ben's discard (Cho 42,000: -23 + 12 + 15 = +4; Ben
    # 18,000: 23 - 12 - 15 = -4; Ann and Dai 0) but not a mangan (everyone at 0: Ann's average place
    # of 2 then ranks first); self-drawn, a haneman too (Cho +12,000, Ben -6,000, the others -3,000:
    # Cho +4, Ben 23 - 6 - 15 = +2, Ann and Dai -3), not a mangan (Cho 0, Ben 23 - 4 - 15 = +4).
    honba = Honba(tmp_path / "final.sqlite")
    honba.ok("tournament", "create", "final", "--players", "Ann,Ben,Cho,Dai")
    honba.ok("tournament", "format", "final", "--stage", "final:2:seating=rank,later=rank")
    honba.ok("tournament", "next", "final", "--rules", "wrc", "--no-start")
    honba.ok("start", "f1", "--players", "Ann,Ben,Cho,Dai", "--rules", "wrc")
    honba.ok("win", "f1", "Ben:mangan", "--from", "Cho")
    honba.ok("end", "f1", "--reason", "time limit")
    honba.ok("tournament", "attach", "final", "f1", "--session", "1", "--table", "1")
    out = honba.ok("tournament", "next", "final", "--rules", "wrc")
    assert "table 1: Ben, Ann, Dai, Cho" in out
    data = json.loads(honba.ok("tournament", "needs", "final", "--format", "json"))
    assert data["top"] == 1 and data["session"] == 2
    hands = {(h["player"], h["discarder"]): h["value"] for h in data["hands"]}
    assert hands[("Cho", "Ben")] == "haneman"
    assert hands[("Cho", None)] == "haneman"
    page = honba.ok("tournament", "needs", "final", "--format", "html")
    assert '<section id="needs">' in page and "on Ben's discard: haneman" in page


def test_two_players_tied_on_the_whole_chain_at_the_cut_are_tied_not_both_certain() -> None:
    # Every table of the last session has ended: the standings after it are final. C and D are
    # equal on everything (points, average place, first places, net score: a shared rank 3) and
    # one place is left above the line of 3: at most 3 players are certain of 3 places.
    standings = [
        StandingRow(1, "A", 30.0, 5000, 2, 1.5, (1, 1, 0, 0), 0),
        StandingRow(2, "B", 20.0, 3000, 2, 2.0, (0, 2, 0, 0), 0),
        StandingRow(3, "C", 10.0, 1000, 2, 2.5, (0, 1, 1, 0), 0),
        StandingRow(3, "D", 10.0, 1000, 2, 2.5, (0, 1, 1, 0), 0),
        StandingRow(5, "E", -5.0, -1000, 2, 3.0, (0, 0, 2, 0), 0),
        StandingRow(6, "F", -15.0, -2000, 2, 3.5, (0, 0, 1, 1), 0),
        StandingRow(7, "G", -20.0, -3000, 2, 3.5, (0, 0, 1, 1), 0),
        StandingRow(8, "H", -25.0, -4000, 2, 4.0, (0, 0, 0, 2), 0),
    ]
    tables = [("A", "C", "E", "G"), ("B", "D", "F", "H")]
    ended = {"A": 1, "C": 2, "E": 3, "G": 4, "B": 1, "D": 2, "F": 3, "H": 4}
    needs = {n.player: n for n in session_needs(standings, tables, WRC, 3, ended=ended)}
    status = {p: [x.status for x in n.places] for p, n in needs.items()}
    assert status == {
        "A": ["certain"],
        "B": ["certain"],
        "C": ["tied"],
        "D": ["tied"],
        "E": ["impossible"],
        "F": ["impossible"],
        "G": ["impossible"],
        "H": ["impossible"],
    }
    assert sum(1 for s in status.values() if s == ["certain"]) <= 3
    # The note says how the tie goes: the standings (and the cut recorded from them) by name.
    assert needs["C"].places[0].note == (
        "tied at the cut with D on the whole tie-break chain: the standings, and the cut recorded from"
        " them, go on by name (C, D) unless the director decides otherwise"
    )
    assert needs["D"].places[0].note.startswith("tied at the cut with C on the whole tie-break chain")
