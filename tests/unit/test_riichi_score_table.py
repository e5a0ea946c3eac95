"""The published riichi score table, cell by cell, and the limit hands.

The numbers below are typed in from the standard Japanese score table (no
kiriage mangan) as printed in Wikipedia's "Japanese mahjong scoring rules"
(https://en.wikipedia.org/wiki/Japanese_mahjong_scoring_rules, points table),
riichi.wiki's "Scoring table", and mjstars.net beginner's lessons 17 (limit
hands) and 18 (the 30 fu row). They are not computed. Every cell that occurs in
the Tenhou logs of /work/shared/corpus (the ``ten="fu,points,0"`` of each
four-player AGARI against its yaku han) agrees with these numbers, e.g.
4 han 20 fu dealer tsumo 7800 = 2600 all, 3 han 60 fu non-dealer tsumo
7900 = 2000/3900.

Impossible cells (1 han 20 fu, 1 han 25 fu, 20 fu on a discard, 2 han 25 fu
self-drawn: seven pairs self-drawn has menzen tsumo too) are not in the tables and must be refused.
"""

from __future__ import annotations

import pytest
from conftest import SANMA, TENHOU, changes, hv, ron, started, table, tsumo, won

from domain.errors import InvalidHandValue
from domain.scoring.riichi import check_hand_value
from domain.values import HandValue

# Non-dealer wins by ron: what the discarder pays. (han, fu) -> points.
NON_DEALER_RON = {
    (1, 30): 1000, (1, 40): 1300, (1, 50): 1600, (1, 60): 2000, (1, 70): 2300,
    (1, 80): 2600, (1, 90): 2900, (1, 100): 3200, (1, 110): 3600,
    (2, 25): 1600, (2, 30): 2000, (2, 40): 2600, (2, 50): 3200, (2, 60): 3900,
    (2, 70): 4500, (2, 80): 5200, (2, 90): 5800, (2, 100): 6400, (2, 110): 7100,
    (3, 25): 3200, (3, 30): 3900, (3, 40): 5200, (3, 50): 6400, (3, 60): 7700,
    (3, 70): 8000, (3, 80): 8000, (3, 90): 8000, (3, 100): 8000, (3, 110): 8000,
    (4, 25): 6400, (4, 30): 7700, (4, 40): 8000, (4, 50): 8000, (4, 60): 8000,
    (4, 70): 8000, (4, 80): 8000, (4, 90): 8000, (4, 100): 8000, (4, 110): 8000,
}  # fmt: skip

# Non-dealer wins by tsumo: (each other non-dealer pays, the dealer pays).
NON_DEALER_TSUMO = {
    (1, 30): (300, 500), (1, 40): (400, 700), (1, 50): (400, 800), (1, 60): (500, 1000),
    (1, 70): (600, 1200), (1, 80): (700, 1300), (1, 90): (800, 1500), (1, 100): (800, 1600),
    (1, 110): (900, 1800),
    (2, 20): (400, 700), (2, 30): (500, 1000), (2, 40): (700, 1300), (2, 50): (800, 1600),
    (2, 60): (1000, 2000), (2, 70): (1200, 2300), (2, 80): (1300, 2600), (2, 90): (1500, 2900),
    (2, 100): (1600, 3200), (2, 110): (1800, 3600),
    (3, 20): (700, 1300), (3, 25): (800, 1600), (3, 30): (1000, 2000), (3, 40): (1300, 2600),
    (3, 50): (1600, 3200), (3, 60): (2000, 3900), (3, 70): (2000, 4000), (3, 110): (2000, 4000),
    (4, 20): (1300, 2600), (4, 25): (1600, 3200), (4, 30): (2000, 3900), (4, 40): (2000, 4000),
    (4, 110): (2000, 4000),
}  # fmt: skip

# The dealer wins by ron: what the discarder pays.
DEALER_RON = {
    (1, 30): 1500, (1, 40): 2000, (1, 50): 2400, (1, 60): 2900, (1, 70): 3400,
    (1, 80): 3900, (1, 90): 4400, (1, 100): 4800, (1, 110): 5300,
    (2, 25): 2400, (2, 30): 2900, (2, 40): 3900, (2, 50): 4800, (2, 60): 5800,
    (2, 70): 6800, (2, 80): 7700, (2, 90): 8700, (2, 100): 9600, (2, 110): 10600,
    (3, 25): 4800, (3, 30): 5800, (3, 40): 7700, (3, 50): 9600, (3, 60): 11600,
    (3, 70): 12000, (3, 110): 12000,
    (4, 25): 9600, (4, 30): 11600, (4, 40): 12000, (4, 110): 12000,
}  # fmt: skip

# The dealer wins by tsumo: what each other player pays ("all").
DEALER_TSUMO = {
    (1, 30): 500, (1, 40): 700, (1, 50): 800, (1, 60): 1000, (1, 70): 1200,
    (1, 80): 1300, (1, 90): 1500, (1, 100): 1600, (1, 110): 1800,
    (2, 20): 700, (2, 30): 1000, (2, 40): 1300, (2, 50): 1600, (2, 60): 2000,
    (2, 70): 2300, (2, 80): 2600, (2, 90): 2900, (2, 100): 3200, (2, 110): 3600,
    (3, 20): 1300, (3, 25): 1600, (3, 30): 2000, (3, 40): 2600, (3, 50): 3200,
    (3, 60): 3900, (3, 70): 4000, (3, 110): 4000,
    (4, 20): 2600, (4, 25): 3200, (4, 30): 3900, (4, 40): 4000, (4, 110): 4000,
}  # fmt: skip

# Limit hands: (non-dealer ron, non-dealer tsumo (non-dealers, dealer), dealer ron, dealer tsumo all).
LIMITS = {
    "mangan": (8000, (2000, 4000), 12000, 4000),
    "haneman": (12000, (3000, 6000), 18000, 6000),
    "baiman": (16000, (4000, 8000), 24000, 8000),
    "sanbaiman": (24000, (6000, 12000), 36000, 12000),
    "yakuman": (32000, (8000, 16000), 48000, 16000),
}

# Han counts of 5 and more and the limit they reach (13 and more: counted yakuman).
LIMIT_BY_HAN = {
    5: "mangan", 6: "haneman", 7: "haneman", 8: "baiman", 9: "baiman", 10: "baiman",
    11: "sanbaiman", 12: "sanbaiman", 13: "yakuman", 16: "yakuman",
}  # fmt: skip


def cell_id(cell: tuple[int, int]) -> str:
    return f"{cell[0]}han{cell[1]}fu"


# Seats of a four-player table with the dealer in seat 0: seats 1, 2, 3 are non-dealers.


@pytest.mark.parametrize(("cell", "points"), NON_DEALER_RON.items(), ids=map(cell_id, NON_DEALER_RON))
def test_non_dealer_ron_is_paid_by_the_discarder_as_the_table_says(cell: tuple[int, int], points: int) -> None:
    han, fu = cell
    assert changes(won(ron(1, 2, hv(han, fu))), table(dealer=0)) == (0, points, -points, 0)


@pytest.mark.parametrize(("cell", "pays"), NON_DEALER_TSUMO.items(), ids=map(cell_id, NON_DEALER_TSUMO))
def test_non_dealer_tsumo_is_paid_by_all_the_dealer_paying_the_larger_share(
    cell: tuple[int, int], pays: tuple[int, int]
) -> None:
    han, fu = cell
    non_dealer, dealer = pays
    total = 2 * non_dealer + dealer
    assert changes(won(tsumo(1, hv(han, fu))), table(dealer=0)) == (-dealer, total, -non_dealer, -non_dealer)


@pytest.mark.parametrize(("cell", "points"), DEALER_RON.items(), ids=map(cell_id, DEALER_RON))
def test_dealer_ron_is_paid_by_the_discarder_as_the_table_says(cell: tuple[int, int], points: int) -> None:
    han, fu = cell
    assert changes(won(ron(0, 3, hv(han, fu))), table(dealer=0)) == (points, 0, 0, -points)


@pytest.mark.parametrize(("cell", "each"), DEALER_TSUMO.items(), ids=map(cell_id, DEALER_TSUMO))
def test_dealer_tsumo_is_paid_equally_by_all(cell: tuple[int, int], each: int) -> None:
    han, fu = cell
    assert changes(won(tsumo(0, hv(han, fu))), table(dealer=0)) == (3 * each, -each, -each, -each)


def test_the_dealer_is_any_seat_not_only_seat_0() -> None:
    # East 3 (seat 2 deals): 3 han 30 fu, non-dealer tsumo 1000/2000; dealer ron 5800.
    assert changes(won(tsumo(0, hv(3, 30))), table(dealer=2)) == (4000, -1000, -2000, -1000)
    assert changes(won(ron(2, 0, hv(3, 30))), table(dealer=2)) == (-5800, 0, 5800, 0)


@pytest.mark.parametrize("limit", LIMITS)
def test_limit_hands_pay_their_fixed_values(limit: str) -> None:
    nd_ron, (nd_each, nd_dealer), d_ron, d_each = LIMITS[limit]
    value = hv(limit=limit)
    assert changes(won(ron(1, 2, value)), table()) == (0, nd_ron, -nd_ron, 0)
    assert changes(won(tsumo(1, value)), table()) == (-nd_dealer, nd_dealer + 2 * nd_each, -nd_each, -nd_each)
    assert changes(won(ron(0, 2, value)), table()) == (d_ron, 0, -d_ron, 0)
    assert changes(won(tsumo(0, value)), table()) == (3 * d_each, -d_each, -d_each, -d_each)


@pytest.mark.parametrize(("han", "limit"), LIMIT_BY_HAN.items())
def test_five_han_and_more_reach_a_limit_whatever_the_fu(han: int, limit: str) -> None:
    nd_ron, _, d_ron, _ = LIMITS[limit]
    for fu in (None, 20, 30, 110):
        assert changes(won(ron(1, 2, hv(han, fu))), table()) == (0, nd_ron, -nd_ron, 0)
        assert changes(won(ron(0, 2, hv(han, fu))), table()) == (d_ron, 0, -d_ron, 0)


def test_thirteen_han_is_only_sanbaiman_without_counted_yakuman() -> None:
    # WRC rules: "There is no counted yakuman: ... 13 or more han ... is only rewarded sanbaiman."
    # Without counted yakuman the mangan table stops at its sanbaiman row.
    rules = TENHOU.with_overrides({"settling_table": [[5, 100], [6, 150], [8, 200], [11, 300]]})
    assert changes(won(ron(1, 2, hv(13))), table(rules), rules) == (0, 24000, -24000, 0)


def test_double_yakuman_pays_twice_a_yakuman() -> None:
    value = hv(limit="yakuman", multiple=2)
    assert changes(won(ron(1, 2, value)), table()) == (0, 64000, -64000, 0)
    assert changes(won(ron(0, 2, value)), table()) == (96000, 0, -96000, 0)
    assert changes(won(tsumo(1, value)), table()) == (-32000, 64000, -16000, -16000)
    assert changes(won(tsumo(0, value)), table()) == (96000, -32000, -32000, -32000)


def test_hands_worth_more_than_mangan_by_fu_are_mangan() -> None:
    # Tenhou 2019103023gm-00a9-0000-f90e0fe9, East 1: 4 han 40 fu tsumo by a non-dealer,
    # ten="40,8000,1" (limit 1 = mangan), sc changes -4000 (dealer), -2000, +8000, -2000.
    assert changes(won(tsumo(2, hv(4, 40))), table(dealer=0)) == (-4000, -2000, 8000, -2000)
    assert changes(won(ron(1, 2, hv(3, 70))), table()) == (0, 8000, -8000, 0)


# Impossible hands.


@pytest.mark.parametrize(
    ("value", "self_drawn"),
    [
        (hv(1, 20), True),
        (hv(1, 20), False),
        (hv(1, 25), True),
        (hv(1, 25), False),
        (hv(2, 20), False),
        (hv(3, 20), False),
        (hv(4, 20), False),
        (hv(2, 25), True),
    ],
    ids=["1han20fu-tsumo", "1han20fu-ron", "1han25fu-tsumo", "1han25fu-ron", "2han20fu-ron", "3han20fu-ron",
         "4han20fu-ron", "2han25fu-tsumo"],
)  # fmt: skip
def test_impossible_han_fu_combinations_are_refused(value: HandValue, self_drawn: bool) -> None:
    with pytest.raises(InvalidHandValue):
        check_hand_value(value, self_drawn=self_drawn)
    match = started()
    win = tsumo(1, value) if self_drawn else ron(1, 2, value)
    with pytest.raises(InvalidHandValue):
        match.record(won(win))


@pytest.mark.parametrize(
    "value",
    [hv(0, 30), hv(2, 35), hv(2, 120), hv(2, 10), hv(2), hv(fu=30), HandValue(), hv(limit="mangan", multiple=2)],
    ids=["0han", "35fu", "120fu", "10fu", "no-fu", "no-han", "nothing", "double-mangan"],
)
def test_hand_values_outside_the_table_are_refused(value: HandValue) -> None:
    with pytest.raises(InvalidHandValue):
        started().record(won(ron(1, 2, value)))


def test_twenty_fu_is_a_self_drawn_value_from_two_han() -> None:
    # Pinfu tsumo: 2 han 20 fu is 400/700 (the table above), 700 all from the dealer; it is
    # recorded, and paid so.
    check_hand_value(hv(2, 20), self_drawn=True)
    match = started()
    match.record(won(tsumo(1, hv(2, 20))))
    assert match.state.scores == (25000 - 700, 25000 + 1500, 25000 - 400, 25000 - 400)
    assert changes(won(tsumo(0, hv(2, 20))), table(dealer=0)) == (2100, -700, -700, -700)


# Kiriage mangan (rounded-up mangan), a rule option: mjstars.net lesson 18 and the WRC
# rules ("A base value of 1920 points, being close to mangan, is rounded up to 2,000").

KIRIAGE = TENHOU.with_overrides({"kiriage_mangan": True})


@pytest.mark.parametrize("cell", [(4, 30), (3, 60)], ids=cell_id)
def test_kiriage_mangan_makes_4_han_30_fu_and_3_han_60_fu_a_mangan(cell: tuple[int, int]) -> None:
    value = hv(*cell)
    assert changes(won(ron(1, 2, value)), table(KIRIAGE), KIRIAGE) == (0, 8000, -8000, 0)
    assert changes(won(ron(0, 2, value)), table(KIRIAGE), KIRIAGE) == (12000, 0, -12000, 0)
    assert changes(won(tsumo(1, value)), table(KIRIAGE), KIRIAGE) == (-4000, 8000, -2000, -2000)
    assert changes(won(tsumo(0, value)), table(KIRIAGE), KIRIAGE) == (12000, -4000, -4000, -4000)


@pytest.mark.parametrize("cell", [(4, 30), (3, 60)], ids=cell_id)
def test_without_kiriage_4_han_30_fu_and_3_han_60_fu_stay_7700(cell: tuple[int, int]) -> None:
    assert changes(won(ron(1, 2, hv(*cell))), table()) == (0, 7700, -7700, 0)
    assert changes(won(ron(0, 2, hv(*cell))), table()) == (11600, 0, -11600, 0)


@pytest.mark.parametrize("cell", [(3, 50), (4, 25), (2, 110), (3, 30)], ids=cell_id)
def test_kiriage_mangan_leaves_the_other_cells_alone(cell: tuple[int, int]) -> None:
    points = NON_DEALER_RON[cell]
    assert changes(won(ron(1, 2, hv(*cell))), table(KIRIAGE), KIRIAGE) == (0, points, -points, 0)


# Three players: a ron is worth the same; Tenhou's three-player tsumo drops the absent
# fourth player's share (tsumo loss). Corpus: hidacow .../double_nukidora.json.


def test_three_player_ron_pays_the_four_player_table() -> None:
    # double_nukidora.json [4,0,0]: "40符1飜1300点", changes [0, 1300, -1300].
    assert changes(won(ron(1, 2, hv(1, 40))), table(SANMA, dealer=0), SANMA) == (0, 1300, -1300)
    # sanma2.xml, East 2: the dealer's mangan ron, ten="40,12000,1".
    assert changes(won(ron(1, 2, hv(limit="mangan"))), table(SANMA, dealer=1), SANMA) == (0, 12000, -12000)


def test_three_player_tsumo_loses_the_absent_players_share() -> None:
    # sanma2.xml East 1: a non-dealer's mangan tsumo is 2000/4000 from two payers, ten="30,6000,1".
    assert changes(won(tsumo(1, hv(5))), table(SANMA, dealer=0), SANMA) == (-4000, 6000, -2000)
    # sanma2.xml East 2: the dealer's haneman tsumo is 6000 all from two payers, ten="30,12000,2".
    assert changes(won(tsumo(1, hv(6))), table(SANMA, dealer=1), SANMA) == (-6000, 12000, -6000)
    # double_nukidora.json [6,4,0] without its counters: "25符3飜800-1600点".
    assert changes(won(tsumo(0, hv(3, 25))), table(SANMA, dealer=2), SANMA) == (2400, -800, -1600)
