"""Special hands by the way of going out (seed 004): each claim checked against how the win went out.

Tiles: 1m-9m characters, 1p-9p dots, 1s-9s bamboo, 1z-7z East South West North White Green Red.
"""

from __future__ import annotations

from typing import Any

import pytest

from domain.match import Match
from domain.rules import Ruleset, load_preset
from domain.scoring.payments import settle
from domain.special_hands import InvalidSpecialHand
from domain.values import HandValue, Reason, Win, WinFacts, WinResult
from domain.win_facts import ImpossibleWinFacts

EAST, SOUTH, WEST, NORTH = range(4)
ALL = [
    "heavenly_hand",
    "earthly_hand",
    "moon_from_the_bottom_of_the_sea",
    "plum_blossom_on_the_roof",
    "scratching_a_carrying_pole",
    "kong_on_kong",
    "thirteen_discarded_orphans",
]
CLASSICAL = load_preset("chinese-classical").with_overrides(
    {"special_hands": ALL, "special_hand_percent": 100, "losers_settle": False}
)
ORPHANS = ["1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"]


def claim(name: str, winner: int = SOUTH, by: int | None = None, rules: Ruleset = CLASSICAL, **facts: Any) -> WinResult:
    win = Win(winner, HandValue(points=10), discarder=by, facts=WinFacts(special_hands=(name,), **facts))
    return WinResult((win,))


def holds(result: WinResult, rules: Ruleset = CLASSICAL) -> int:
    """Record the claim on a fresh match; return what the winner got for the hand's value."""
    match = Match.start("special", ("A", "B", "C", "D"), rules)
    payments = settle(result, match.state, rules).payments
    match.record(result)
    return sum(p.amount for p in payments if p.reason is Reason.HAND)


def refused(result: WinResult, rules: Ruleset = CLASSICAL) -> str:
    """Record the claim on a fresh match: refused, as a special hand the facts do not support or as
    facts that cannot be (``domain.win_facts``); the reason, with nothing recorded."""
    match = Match.start("special", ("A", "B", "C", "D"), rules)
    with pytest.raises((InvalidSpecialHand, ImpossibleWinFacts)) as caught:
        match.record(result)
    assert match.pending_events[-1].__class__.__name__ == "Started"  # nothing recorded
    return str(caught.value)


# A non-dealer's special hand: the Limit (500) from each loser, East paying double (Chinese
# Classical: every loser pays, East double).
NON_DEALER_LIMIT = 4 * CLASSICAL.limit


def test_a_valid_special_hand_scores_the_limit() -> None:
    # East goes out on the dealt hand: each of the three losers pays the limit, doubled as East wins.
    assert holds(claim("heavenly_hand", winner=EAST, first_turn=True)) == 3 * 2 * CLASSICAL.limit


def test_heavenly_hand_with_no_supplements_refuses_a_supplement_tile() -> None:
    strict = CLASSICAL.with_overrides({"heavenly_no_supplements": True})
    assert "supplement" in refused(claim("heavenly_hand", winner=EAST, first_turn=True, supplement_tile=True), strict)
    assert holds(claim("heavenly_hand", winner=EAST, first_turn=True, supplement_tile=True)) == 3 * 2 * CLASSICAL.limit


def test_earthly_hand_is_a_non_dealer_out_on_the_dealers_first_discard() -> None:
    assert holds(claim("earthly_hand", winner=SOUTH, by=EAST, first_turn=True)) == NON_DEALER_LIMIT
    assert "dealer's first discard" in refused(claim("earthly_hand", winner=SOUTH, by=WEST, first_turn=True))


def test_earthly_hand_on_the_first_self_drawn_tile_needs_the_extended_interpretation() -> None:
    assert "extended" in refused(claim("earthly_hand", winner=SOUTH, first_turn=True))
    paid = holds(
        claim("earthly_hand", winner=SOUTH, first_turn=True), CLASSICAL.with_overrides({"earthly_extended": True})
    )
    assert paid == NON_DEALER_LIMIT


def test_earthly_hand_narrowed_is_only_the_first_self_drawn_tile() -> None:
    narrowed = CLASSICAL.with_overrides({"earthly_narrowed": True})
    assert holds(claim("earthly_hand", winner=SOUTH, first_turn=True), narrowed) == NON_DEALER_LIMIT
    assert "first self-drawn" in refused(claim("earthly_hand", winner=SOUTH, by=EAST, first_turn=True), narrowed)


def test_moon_from_the_bottom_of_the_sea_is_the_last_tile_being_dot_1() -> None:
    assert holds(claim("moon_from_the_bottom_of_the_sea", last_tile=True, winning_tile="1p")) == NON_DEALER_LIMIT
    assert "1p" in refused(claim("moon_from_the_bottom_of_the_sea", last_tile=True, winning_tile="2p"))
    assert "last tile" in refused(claim("moon_from_the_bottom_of_the_sea", winning_tile="1p"))


def test_plum_blossom_on_the_roof_is_a_supplement_tile_being_dot_5() -> None:
    assert holds(claim("plum_blossom_on_the_roof", supplement_tile=True, winning_tile="5p")) == NON_DEALER_LIMIT
    assert "5p" in refused(claim("plum_blossom_on_the_roof", supplement_tile=True, winning_tile="5s"))


def test_plum_blossom_on_a_flower_supplement_only_where_the_option_allows() -> None:
    flower = claim("plum_blossom_on_the_roof", flower_supplement=True, winning_tile="5p")
    assert "supplement" in refused(flower)
    assert holds(flower, CLASSICAL.with_overrides({"plum_blossom_flower_supplement": True})) == NON_DEALER_LIMIT


def test_scratching_a_carrying_pole_is_a_robbed_kong_being_bamboo_2() -> None:
    assert holds(claim("scratching_a_carrying_pole", by=WEST, robbed_kong=True, winning_tile="2s")) == NON_DEALER_LIMIT
    assert "robbed" in refused(claim("scratching_a_carrying_pole", by=WEST, winning_tile="2s"))


def test_kong_on_kong_is_the_supplement_after_a_second_kong_in_one_turn() -> None:
    assert holds(claim("kong_on_kong", second_kong=True, supplement_tile=True)) == NON_DEALER_LIMIT
    assert "second kong" in refused(claim("kong_on_kong", supplement_tile=True))


def test_thirteen_discarded_orphans_goes_out_on_a_tile_matching_a_discarded_orphan() -> None:
    assert holds(claim("thirteen_discarded_orphans", discards=ORPHANS, winning_tile="7z")) == NON_DEALER_LIMIT


def test_thirteen_discarded_orphans_with_a_pair_goes_out_on_the_missing_orphan() -> None:
    twelve_and_a_pair = [*ORPHANS[:12], "1m"]  # Red dragon (7z) missing, 1m twice
    assert holds(claim("thirteen_discarded_orphans", discards=twelve_and_a_pair, winning_tile="7z")) == NON_DEALER_LIMIT
    assert "missing orphan" in refused(
        claim("thirteen_discarded_orphans", discards=twelve_and_a_pair, winning_tile="1m")
    )


def test_thirteen_discarded_orphans_refuses_a_simple_tile_among_the_discards() -> None:
    assert "orphan" in refused(claim("thirteen_discarded_orphans", discards=[*ORPHANS[:12], "5m"], winning_tile="7z"))


def test_thirteen_discarded_orphans_refuses_melded_sets() -> None:
    assert "melded" in refused(claim("thirteen_discarded_orphans", discards=ORPHANS, winning_tile="7z", melded_sets=1))


def test_pre_dealt_jokers_count_as_discards_where_the_option_says_so() -> None:
    one_joker = claim("thirteen_discarded_orphans", discards=ORPHANS[:12], winning_tile="7z", predealt_jokers=1)
    dealt_one = CLASSICAL.with_overrides({"predealt_jokers": 1})
    assert "13 discards are needed" in refused(one_joker, dealt_one)
    assert holds(one_joker, dealt_one.with_overrides({"orphans_jokers_as_discards": True})) == NON_DEALER_LIMIT
