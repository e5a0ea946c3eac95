"""The kitty and the Goulash pool: stakes paid to the winner after everything else (seed 002).

The seeds' program (Four Winds help, "Kitty (or Goolie)" and "Bonus for the winner of
the Goulash deal"): each player stakes a sum (usually 100) at the start of each deal into
the kitty, collected by the player who wins with a pung hand (no chows); otherwise, or
after a draw, each adds another 100 at the next deal. A Goulash deal may follow a draw:
each player stakes a sum in its pool and the winner collects it. Both are pending (they
do not change the scores until collected) and are paid after the limit and the doubles.
"""

from __future__ import annotations

from domain.match import Match
from domain.rules import Ruleset, load_preset
from domain.scoring.payments import settle
from domain.values import ExhaustiveDraw, HandValue, Reason, Win, WinFacts, WinResult

EAST, SOUTH, WEST, NORTH = range(4)
# American Modern, without the settling between losers: these tests are about the pools alone.
BASE = load_preset("american-modern").with_overrides({"losers_settle": False})
KITTY = BASE.with_overrides({"kitty_stake": 100})
GOULASH = BASE.with_overrides({"goulash_stake": 100})


def from_others(winner: int, amount: int) -> list[tuple[int | None, int | None, int]]:
    return [(seat, winner, amount) for seat in range(4) if seat != winner]


def started(rules: Ruleset) -> Match:
    return Match.start("pools", ("A", "B", "C", "D"), rules)


def win(winner: int, *, by: int | None = None, pung: bool = False, points: int = 20) -> WinResult:
    return WinResult((Win(winner, HandValue(points=points), by, facts=WinFacts(pung_hand=pung)),))


def paid(match: Match, result: WinResult, reason: Reason) -> list[tuple[int | None, int | None, int]]:
    payments = settle(result, match.state, match.rules).payments
    match.record(result)
    return [(p.payer, p.payee, p.amount) for p in payments if p.reason is reason]


def test_a_pung_hand_collects_the_kitty_of_100_from_each_player() -> None:
    match = started(KITTY)
    assert paid(match, win(SOUTH, pung=True), Reason.KITTY) == [
        (EAST, SOUTH, 100),
        (WEST, SOUTH, 100),
        (NORTH, SOUTH, 100),
    ]


def test_a_hand_with_chows_leaves_the_kitty_and_everyone_adds_100_at_the_next_deal() -> None:
    match = started(KITTY)
    assert paid(match, win(SOUTH), Reason.KITTY) == []
    assert match.state.kitty_pending == 100
    assert paid(match, win(WEST, pung=True), Reason.KITTY) == [
        (EAST, WEST, 200),
        (SOUTH, WEST, 200),
        (NORTH, WEST, 200),
    ]
    assert match.state.kitty_pending == 0


def test_the_kitty_grows_through_a_draw() -> None:
    match = started(KITTY)
    match.record(ExhaustiveDraw(ready=()))
    assert match.state.kitty_pending == 100


def test_the_kitty_is_pending_it_changes_no_score_until_collected() -> None:
    match = started(KITTY)
    before = match.state.scores
    match.record(ExhaustiveDraw(ready=()))
    assert match.state.scores == before


def test_a_discarder_pays_only_his_own_stake_of_the_kitty() -> None:
    match = started(KITTY.with_overrides({"loser_payment": "discarder_pays_all"}))
    assert paid(match, win(SOUTH, by=WEST, pung=True), Reason.KITTY) == [
        (EAST, SOUTH, 100),
        (WEST, SOUTH, 100),
        (NORTH, SOUTH, 100),
    ]


def test_the_kitty_is_not_cut_to_the_limit_nor_doubled_for_east() -> None:
    match = started(KITTY)
    payments = settle(win(EAST, pung=True, points=900), match.state, KITTY).payments
    hand = [p.amount for p in payments if p.reason is Reason.HAND]
    kitty = [p.amount for p in payments if p.reason is Reason.KITTY]
    assert hand == [2 * KITTY.limit] * 3  # the hand is cut to the limit and doubled for East
    assert kitty == [100, 100, 100]


def test_a_goulash_deal_follows_a_draw_and_its_winner_collects_the_pool() -> None:
    match = started(GOULASH)
    assert paid(match, win(SOUTH), Reason.GOULASH) == []  # an ordinary deal
    match.record(ExhaustiveDraw(ready=()))
    assert match.state.goulash_deal
    assert paid(match, win(WEST), Reason.GOULASH) == [(EAST, WEST, 100), (SOUTH, WEST, 100), (NORTH, WEST, 100)]
    assert not match.state.goulash_deal


def test_a_drawn_goulash_carries_its_pool_into_the_next_goulash_deal() -> None:
    match = started(GOULASH)
    match.record(ExhaustiveDraw(ready=()))
    match.record(ExhaustiveDraw(ready=()))
    assert (match.state.goulash_deal, match.state.goulash_pending) == (True, 100)
    assert paid(match, win(NORTH), Reason.GOULASH) == [(EAST, NORTH, 200), (SOUTH, NORTH, 200), (WEST, NORTH, 200)]


def test_a_drawn_goulash_returns_the_stakes_where_the_rules_say_so() -> None:
    match = started(GOULASH.with_overrides({"goulash_draw": "return"}))
    match.record(ExhaustiveDraw(ready=()))
    match.record(ExhaustiveDraw(ready=()))
    assert match.state.goulash_pending == 0
    assert paid(match, win(NORTH), Reason.GOULASH) == [(EAST, NORTH, 100), (SOUTH, NORTH, 100), (WEST, NORTH, 100)]
