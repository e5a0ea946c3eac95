"""The worked examples of the seeds (../shared/seeds), one rule a test, with the seeds' numbers.

000: bonus for dealer's extra hands; 001: dealer bonus; 002: limits and settling
tables; 003: Japanese counters (the worked example is in test_progression.py);
004: special hands by the way of going out, dealer's consecutive wins.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from domain.errors import RuleViolation
from domain.match import Match
from domain.rules import Ruleset, load_preset
from domain.scoring.checks import BelowMinimum
from domain.scoring.payments import settle
from domain.special_hands import InvalidSpecialHand
from domain.values import (
    ExhaustiveDraw,
    HandValue,
    Payment,
    Reason,
    Win,
    WinFacts,
    WinResult,
)
from projections.ledger import ledger
from replay.formats.record import parse_record

PLAYERS = ("East", "South", "West", "North")
EAST, SOUTH, WEST, NORTH = range(4)

# A neutral table that scores hands in points, pays no East double and has no bonus:
# each example switches on only the rule it is about.
POINTS = load_preset("tenhou").with_overrides(
    {
        "name": "seed-points",
        "scoring": "points",
        "limit": 0,
        "settling_table": [],
        "east_double": False,
        "round_payments_to": 1,
        "extra_hand_bonus_enabled": False,
        "noten_pool": 0,
        "minimum": 0,
        "minimum_unit": "points",
    }
)


def rules(**changes: Any) -> Ruleset:
    return POINTS.with_overrides(changes)


def win(winner: int, *, by: int | None = None, points: int = 100, **value: Any) -> WinResult:
    hand = HandValue(**value) if value else HandValue(points=points)
    return WinResult((Win(winner, hand, discarder=by),))


def from_each(amount: int) -> list[tuple[int, int | None, int]]:
    """East is paid ``amount`` by each of the other three."""
    return [(SOUTH, EAST, amount), (WEST, EAST, amount), (NORTH, EAST, amount)]


def started(ruleset: Ruleset) -> Match:
    return Match.start("seed-example", PLAYERS, ruleset)


def bonus(match: Match, result: WinResult, reason: Reason) -> list[tuple[int, int | None, int]]:
    """The (payer, payee, amount) of the bonus payments this result would make, then record it."""
    payments = settle(result, match.state, match.rules).payments
    match.record(result)
    return [(p.payer, p.payee, p.amount) for p in payments if p.reason is reason and p.payer is not None]


# Seed 000: the Japanese and Taiwanese bonus for dealer's extra hands are tests of the presets
# alone in test_seed_rule_sets.py (japanese-transitional, japanese-modern, taiwanese).


# Seed 001: dealer bonus of 1.


def test_dealer_bonus_self_drawn_is_1_from_each_loser() -> None:
    match = started(rules(dealer_bonus_enabled=True, dealer_bonus=1))
    assert bonus(match, win(EAST), Reason.DEALER_BONUS) == from_each(1)


def test_dealer_bonus_is_3_from_a_discarder_paying_for_all() -> None:
    match = started(rules(dealer_bonus_enabled=True, dealer_bonus=1, loser_payment="discarder_pays_all"))
    assert bonus(match, win(EAST, by=WEST), Reason.DEALER_BONUS) == [(WEST, EAST, 3)]


def test_dealer_bonus_is_1_from_a_discarder_paying_just_for_himself() -> None:
    match = started(rules(dealer_bonus_enabled=True, dealer_bonus=1, loser_payment="discarder_pays_alone"))
    assert bonus(match, win(EAST, by=WEST), Reason.DEALER_BONUS) == [(WEST, EAST, 1)]


def test_dealer_bonus_is_paid_by_each_loser_when_the_discarder_is_not_penalised() -> None:
    match = started(rules(dealer_bonus_enabled=True, dealer_bonus=1, loser_payment="each_loser"))
    assert bonus(match, win(EAST, by=WEST), Reason.DEALER_BONUS) == [
        (SOUTH, EAST, 1),
        (WEST, EAST, 1),
        (NORTH, EAST, 1),
    ]


def test_dealer_bonus_is_paid_only_to_the_dealer_by_default() -> None:
    match = started(rules(dealer_bonus_enabled=True, dealer_bonus=1))
    assert bonus(match, win(SOUTH), Reason.DEALER_BONUS) == []


def test_dealer_bonus_paid_by_east_alone_to_a_non_east_winning_self_drawn_or_on_easts_discard() -> None:
    taiwanese = rules(
        dealer_bonus_enabled=True, dealer_bonus=1, dealer_bonus_from_east=True, loser_payment="discarder_pays_alone"
    )
    assert bonus(started(taiwanese), win(SOUTH), Reason.DEALER_BONUS) == [(EAST, SOUTH, 1)]
    assert bonus(started(taiwanese), win(WEST, by=EAST), Reason.DEALER_BONUS) == [(EAST, WEST, 1)]
    assert bonus(started(taiwanese), win(WEST, by=NORTH), Reason.DEALER_BONUS) == []


def test_dealer_bonus_with_several_winners_east_pays_each_as_if_alone() -> None:
    taiwanese = rules(dealer_bonus_enabled=True, dealer_bonus=1, dealer_bonus_from_east=True, multiple_ron=3)
    double = WinResult(
        (Win(SOUTH, HandValue(points=100), discarder=EAST), Win(NORTH, HandValue(points=100), discarder=EAST))
    )
    assert bonus(started(taiwanese), double, Reason.DEALER_BONUS) == [(EAST, SOUTH, 1), (EAST, NORTH, 1)]


# Seed 002: limits and settling tables.


def american(limit_on_difference: bool) -> Ruleset:
    return rules(
        limit=500, losers_settle=True, limit_on_loser_difference=limit_on_difference, loser_payment="each_loser"
    )


def loser_payment_from(ruleset: Ruleset, payer: int, payee: int) -> list[int]:
    # South (A) 660 and West (B) 100 lose to North; East keeps out of it with 100 too.
    result = WinResult((Win(NORTH, HandValue(points=50), loser_scores=(100, 660, 100, 0)),))
    payments = settle(result, started(ruleset).state, ruleset).payments
    return [p.amount for p in payments if p.reason is Reason.LOSER_SETTLEMENT and (p.payer, p.payee) == (payer, payee)]


def test_american_modern_limit_cuts_the_losers_difference_so_b_pays_a_500() -> None:
    assert loser_payment_from(american(True), WEST, SOUTH) == [500]


def test_without_the_american_rule_a_is_first_cut_to_500_so_b_pays_a_400() -> None:
    assert loser_payment_from(american(False), WEST, SOUTH) == [400]


# Seed 003: the two-han minimum from five counters; seed 000: the minimum raised on the 5th extra hand.

TWO_HAN_FROM_FIVE = load_preset("tenhou").with_overrides({"minimum_raise_from": 5, "minimum_raise_counter": "counters"})


def five_counters(ruleset: Ruleset) -> Match:
    match = started(ruleset)
    for _ in range(5):
        match.record(ExhaustiveDraw(ready=(EAST,)))
    assert match.state.counters == 5
    return match


def test_two_han_are_needed_from_five_counters() -> None:
    with pytest.raises(BelowMinimum):
        five_counters(TWO_HAN_FROM_FIVE).record(win(SOUTH, by=WEST, han=1, fu=30))
    five_counters(TWO_HAN_FROM_FIVE).record(win(SOUTH, by=WEST, han=2, fu=30))


def test_dora_do_not_count_toward_the_two_han() -> None:
    with pytest.raises(BelowMinimum):
        five_counters(TWO_HAN_FROM_FIVE).record(win(SOUTH, by=WEST, han=2, fu=30, dora=1))


def test_one_han_is_enough_below_five_counters() -> None:
    match = started(TWO_HAN_FROM_FIVE)
    for _ in range(4):
        match.record(ExhaustiveDraw(ready=(EAST,)))
    # Four draws with East alone ready: 1,000 from each of the others each time (Tenhou's 3,000).
    assert (match.state.counters, match.state.scores) == (4, (37000, 21000, 21000, 21000))
    match.record(win(SOUTH, by=WEST, han=1, fu=30))
    # Seed 003: with n counters a ron gets "a bonus of n x 300 from the discarder": 1 han 30 fu
    # (1,000) and 4 x 300; the counters go back to zero when only a non-dealer wins.
    assert match.state.scores == (37000, 21000 + 2200, 21000 - 2200, 21000)
    assert match.state.counters == 0


RAISED_ON_FIFTH = rules(minimum=1, minimum_unit="doubles", minimum_raise_from=5, minimum_raise_counter="extra_hands")


def test_the_minimum_rises_by_one_at_the_start_of_the_dealers_fifth_extra_hand() -> None:
    match = started(RAISED_ON_FIFTH)
    for _ in range(4):
        match.record(win(EAST, doubles=1, points=10))
    assert match.state.extra_hands == 4
    match.record(win(EAST, doubles=1, points=10))  # the 4th extra hand still needs 1 double
    assert match.state.extra_hands == 5
    with pytest.raises(BelowMinimum):
        match.record(win(EAST, doubles=1, points=10))
    match.record(win(EAST, doubles=2, points=10))


def test_the_minimum_is_restored_when_the_extra_hand_count_resets() -> None:
    match = started(RAISED_ON_FIFTH)
    for _ in range(5):
        match.record(win(EAST, doubles=1, points=10))
    match.record(win(SOUTH, doubles=2, points=10))  # a non-dealer wins: the deal passes
    assert match.state.extra_hands == 0
    match.record(win(WEST, doubles=1, points=10))


# Seed 004: dealer's consecutive wins.

JAPANESE_NINE = rules(
    limit=500, special_hands=["dealer_consecutive_wins"], special_hand_percent=100, consecutive_wins=9
)
CLASSICAL_THIRTEEN = JAPANESE_NINE.with_overrides({"consecutive_wins": 13, "consecutive_wins_allow_draws": True})
CLAIM = WinFacts(special_hands=("dealer_consecutive_wins",))


def consecutive(match: Match) -> WinResult:
    return WinResult((Win(EAST, HandValue(points=10), facts=CLAIM),))


def test_the_ninth_win_in_a_row_scores_dealers_consecutive_wins_under_japanese_rules() -> None:
    match = started(JAPANESE_NINE)
    for _ in range(8):
        match.record(win(EAST, points=10))
    payments = settle(consecutive(match), match.state, JAPANESE_NINE).payments
    assert [(p.payer, p.amount) for p in payments if p.reason is Reason.HAND] == [(1, 500), (2, 500), (3, 500)]
    match.record(consecutive(match))


def test_the_eighth_win_in_a_row_is_not_yet_consecutive_wins() -> None:
    match = started(JAPANESE_NINE)
    for _ in range(7):
        match.record(win(EAST, points=10))
    with pytest.raises(InvalidSpecialHand, match="9 wins in a row"):
        match.record(consecutive(match))


def test_a_draw_in_between_breaks_the_run_under_japanese_rules() -> None:
    match = started(JAPANESE_NINE)
    for _ in range(4):
        match.record(win(EAST, points=10))
    match.record(ExhaustiveDraw(ready=(EAST,)))
    for _ in range(4):
        match.record(win(EAST, points=10))
    assert match.state.dealer == EAST
    with pytest.raises(InvalidSpecialHand, match="a draw in between breaks the run"):
        match.record(consecutive(match))


def test_the_thirteenth_win_scores_it_under_chinese_classical_rules_with_draws_in_between() -> None:
    match = started(CLASSICAL_THIRTEEN)
    for n in range(12):
        match.record(win(EAST, points=10))
        if n % 4 == 0:
            match.record(ExhaustiveDraw(ready=(EAST,)))
    match.record(consecutive(match))
    assert match.state.dealer == SOUTH  # "pass deal" is on: the deal passes after it


def test_without_pass_deal_the_dealer_scores_it_again_for_each_further_win() -> None:
    keep = JAPANESE_NINE.with_overrides({"consecutive_wins_pass_deal": False})
    match = started(keep)
    for _ in range(8):
        match.record(win(EAST, points=10))
    match.record(consecutive(match))
    assert match.state.dealer == EAST
    match.record(consecutive(match))  # the 10th win scores it again
    assert match.state.consecutive_dealer_wins == 10


def test_only_a_claimed_hand_the_rules_play_is_accepted() -> None:
    match = started(POINTS)
    with pytest.raises(RuleViolation, match="not played"):
        match.record(consecutive(match))


def test_heavenly_hand_needs_the_dealer_self_drawn_on_the_first_turn() -> None:
    heavenly = rules(limit=500, special_hands=["heavenly_hand"], special_hand_percent=100)
    facts = WinFacts(first_turn=True, special_hands=("heavenly_hand",))
    started(heavenly).record(WinResult((Win(EAST, HandValue(points=10), facts=facts),)))
    with pytest.raises(InvalidSpecialHand, match="dealer"):
        started(heavenly).record(WinResult((Win(SOUTH, HandValue(points=10), facts=facts),)))


def test_payment_reasons_are_named_in_the_ledger() -> None:
    payments = settle(win(EAST, by=WEST), started(rules(dealer_bonus_enabled=True)).state, POINTS).payments
    assert all(isinstance(p, Payment) and p.reason is Reason.HAND for p in payments)


# The example record files under docs/examples: `honba import` + `honba log` show the seeds' numbers.

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
SEED_LINES = {
    "extra-hand-bonus-japanese.jsonl": [
        ("Cho", "Ann", 300, "extra-hand bonus"),
        ("Ben", "Ann", 200, "extra-hand bonus"),
        ("Cho", "Ann", 200, "extra-hand bonus"),
        ("Dai", "Ann", 200, "extra-hand bonus"),
    ],
    "extra-hand-bonus-several-winners.jsonl": [
        ("Ben", "Cho", 300, "counters"),
        ("Ben", "Dai", 300, "counters"),
    ],
    "extra-hand-bonus-taiwanese.jsonl": [
        ("Ben", "Ann", 2, "extra-hand bonus"),
        ("Cho", "Ann", 4, "extra-hand bonus"),
        ("Ben", "Cho", 2, "extra-hand bonus"),
    ],
    "dealer-bonus.jsonl": [("Ben", "Ann", 1, "dealer bonus"), ("Ben", "Ann", 3, "dealer bonus")],
    "limit-american-modern.jsonl": [("Cho", "Ben", 500, "loser settlement")],
    "settling-table-hong-kong.jsonl": [("Cho", "Ben", 16, "hand value"), ("Dai", "Cho", 64, "hand value")],
    "counters-seed.jsonl": [("Cho", "Dai", 600, "counters")],
}


def test_no_payment_in_the_taiwanese_example_when_a_non_east_wins_on_a_non_east_discard(tmp_path: Path) -> None:
    record = parse_record((EXAMPLES / "extra-hand-bonus-taiwanese.jsonl").read_text(encoding="utf-8"))
    entries = ledger(record.rules, record.facts)
    fourth = entries[3]
    assert [p.reason for p in fourth.payments] == [Reason.HAND]
