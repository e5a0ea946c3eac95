"""The rule sets the seeds name, as presets used alone: every worked example and Y/N value.

Seed 004 gives option values for six rule sets of the seeds' program (Four Winds): JC
(``japanese-classical``), JT (``japanese-transitional``), JM (``japanese-modern``), CT
(``chinese-transitional``), CC (``chinese-classical``) and WA (``wilmington-advanced``).
Seed 000 gives the Japanese and Taiwanese bonus for dealer's extra hands, seed 001 the
Taiwanese dealer bonus, seed 002 the limits. Each test starts a match under one preset
with no override and checks the seed's own numbers.
"""

from __future__ import annotations

import tomllib
from importlib import resources

import pytest

from domain.match import Match
from domain.rules import load_preset
from domain.scoring.payments import pending_extra_hand_bonus, settle
from domain.scoring.points import winner_score
from domain.scoring.riichi import base_points
from domain.special_hands import InvalidSpecialHand
from domain.values import ExhaustiveDraw, HandValue, Reason, Win, WinFacts, WinResult

PLAYERS = ("East", "South", "West", "North")
EAST, SOUTH, WEST, NORTH = range(4)

JC = "japanese-classical"
JT = "japanese-transitional"
JM = "japanese-modern"
CT = "chinese-transitional"
CC = "chinese-classical"
WA = "wilmington-advanced"


def started(preset: str) -> Match:
    return Match.start("seed-rule-set", PLAYERS, load_preset(preset))


def win(winner: int, *, by: int | None = None, facts: WinFacts | None = None, **value: int) -> WinResult:
    hand = HandValue(**value) if value else HandValue(points=20)
    return WinResult((Win(winner, hand, discarder=by, facts=facts or WinFacts()),))


def paid(match: Match, result: WinResult, reason: Reason) -> list[tuple[int | None, int | None, int]]:
    """The (payer, payee, amount) this result pays for one reason; the result is then recorded."""
    payments = settle(result, match.state, match.rules).payments
    match.record(result)
    return [(p.payer, p.payee, p.amount) for p in payments if p.reason is reason]


# Seed 004 states these values per rule set; a rule set it does not name for an option has it off.
SEED_004 = {
    JC: {"earthly_extended": True, "earthly_narrowed": False, "orphans_jokers_as_discards": False},
    JT: {
        "earthly_extended": True,
        "earthly_narrowed": False,
        "orphans_jokers_as_discards": False,
        "consecutive_wins": 9,
        "consecutive_wins_allow_draws": False,
        "consecutive_wins_pass_deal": True,
    },
    JM: {"earthly_extended": False, "earthly_narrowed": True, "orphans_jokers_as_discards": False},
    CT: {"earthly_extended": False, "earthly_narrowed": True, "orphans_jokers_as_discards": False},
    CC: {
        "earthly_extended": False,
        "earthly_narrowed": False,
        "orphans_jokers_as_discards": False,
        "consecutive_wins": 13,
        "consecutive_wins_allow_draws": True,
        "consecutive_wins_pass_deal": True,
    },
    WA: {"earthly_extended": False, "earthly_narrowed": False, "orphans_jokers_as_discards": True},
}


# Seed 004 names no rule set for the "No supplements" boxes of the Heavenly and Earthly Hands.
NOT_NAMED = {"heavenly_no_supplements": False, "earthly_no_supplements": False}


@pytest.mark.parametrize("preset", sorted(SEED_004))
def test_each_rule_set_of_seed_004_has_the_option_values_the_seed_gives(preset: str) -> None:
    rules = load_preset(preset)
    expected = {**NOT_NAMED, **SEED_004[preset]}
    assert {key: getattr(rules, key) for key in expected} == expected


@pytest.mark.parametrize("preset", sorted(SEED_004))
def test_each_rule_set_of_seed_004_cites_the_seed_for_each_value(preset: str) -> None:
    text = (resources.files("domain") / "presets" / f"{preset}.toml").read_text(encoding="utf-8")
    sources = tomllib.loads(text)["sources"]
    assert "abbreviation" in sources
    cited = [key for key, value in SEED_004[preset].items() if value is not False]
    for key in cited:
        assert "seed 004" in sources.get(key, ""), key


# Seed 004, Earthly Hand: extended for JC and JT, narrowed for CT and JM.

FIRST_TURN = WinFacts(first_turn=True, special_hands=("earthly_hand",))


@pytest.mark.parametrize(("preset", "limit"), [(JC, 500), (JT, 1500)])
def test_extended_earthly_hand_also_covers_going_out_on_ones_first_self_drawn_tile(preset: str, limit: int) -> None:
    # The Earthly Hand pays the Limit (JC 500, JT 1,500: Four Winds' preset pages), East paying
    # double; on a discard the discarder pays for all (the Japanese scheme): four Limits from East.
    self_drawn = paid(started(preset), win(SOUTH, facts=FIRST_TURN), Reason.HAND)
    assert sorted(self_drawn) == [(EAST, SOUTH, 2 * limit), (WEST, SOUTH, limit), (NORTH, SOUTH, limit)]
    on_the_first_discard = paid(started(preset), win(SOUTH, by=EAST, facts=FIRST_TURN), Reason.HAND)
    assert sum(amount for payer, _, amount in on_the_first_discard if payer == EAST) == 4 * limit
    assert {payer for payer, _, _ in on_the_first_discard} == {EAST}


@pytest.mark.parametrize("preset", [CT, JM])
def test_narrowed_earthly_hand_is_only_going_out_on_ones_first_self_drawn_tile(preset: str) -> None:
    value = {"han": 13} if preset == JM else {"points": 20}
    started(preset).record(win(SOUTH, facts=FIRST_TURN, **value))
    with pytest.raises(InvalidSpecialHand, match="own first self-drawn tile"):
        started(preset).record(win(SOUTH, by=EAST, facts=FIRST_TURN, **value))


def test_chinese_classical_earthly_hand_is_on_the_dealers_first_discard_only() -> None:
    started(CC).record(WinResult((Win(SOUTH, HandValue(points=20), EAST, facts=FIRST_TURN, loser_scores=(0,) * 4),)))
    with pytest.raises(InvalidSpecialHand, match="extended interpretation"):
        started(CC).record(WinResult((Win(SOUTH, HandValue(points=20), facts=FIRST_TURN, loser_scores=(0,) * 4),)))


# Seed 004, Thirteen Discarded Orphans: pre-dealt jokers count as discards for WA.


def test_wilmington_advanced_a_predealt_joker_stands_for_one_orphan_discard() -> None:
    # With 1 pre-dealt joker the player needs only 12 discards, all unique, and goes out on
    # any of the 13 orphans.
    twelve = ("1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z")
    facts = WinFacts(
        discards=twelve, predealt_jokers=1, winning_tile="9m", special_hands=("thirteen_discarded_orphans",)
    )
    match = started(WA)
    # A limit hand, 500; the discarder, the sole loser, pays 50% more.
    assert paid(match, win(SOUTH, by=WEST, facts=facts), Reason.HAND) == [(WEST, SOUTH, 750)]


def test_wilmington_advanced_the_discarder_is_the_sole_loser_and_pays_50_percent_more() -> None:
    # Four Winds, preset Wilmington Advanced 12-Tile: "the discarder of the winning tile is not
    # only the sole loser of the hand, but is also penalized by paying 50% more on the loss".
    assert paid(started(WA), win(SOUTH, by=WEST, points=20), Reason.HAND) == [(WEST, SOUTH, 30)]
    assert paid(started(WA), win(SOUTH, points=20), Reason.HAND) == [
        (EAST, SOUTH, 20),
        (WEST, SOUTH, 20),
        (NORTH, SOUTH, 20),
    ]


def test_without_the_wa_option_twelve_discards_and_a_joker_are_not_enough() -> None:
    twelve = ("1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z")
    facts = WinFacts(
        discards=twelve, predealt_jokers=1, winning_tile="9m", special_hands=("thirteen_discarded_orphans",)
    )
    ruleset = load_preset(WA).with_overrides({"orphans_jokers_as_discards": False})
    with pytest.raises(InvalidSpecialHand, match="13 discards are needed"):
        Match.start("wa-off", PLAYERS, ruleset).record(win(SOUTH, by=WEST, facts=facts))


# Seed 004, Dealer's consecutive wins: JT 9 in a row, no draws in between; CC 13, draws allowed; both pass the deal.

CONSECUTIVE = WinFacts(special_hands=("dealer_consecutive_wins",))


def test_japanese_transitional_the_ninth_win_in_a_row_is_dealers_consecutive_wins() -> None:
    match = started(JT)
    for _ in range(8):
        match.record(win(EAST, points=20))
    # A limit hand: the Limit of 1,500, doubled for East, from each loser.
    hand = paid(match, win(EAST, facts=CONSECUTIVE), Reason.HAND)
    assert hand == [(SOUTH, EAST, 3000), (WEST, EAST, 3000), (NORTH, EAST, 3000)]
    assert match.state.dealer == SOUTH  # pass deal: JT Yes


def test_japanese_transitional_the_eighth_win_is_not_yet_consecutive_wins() -> None:
    match = started(JT)
    for _ in range(7):
        match.record(win(EAST, points=20))
    with pytest.raises(InvalidSpecialHand, match="9 wins in a row"):
        match.record(win(EAST, facts=CONSECUTIVE))


def test_chinese_classical_the_thirteenth_win_counts_with_draws_in_between_and_passes_the_deal() -> None:
    match = started(CC)
    scores = (0, 0, 0, 0)
    for n in range(12):
        match.record(WinResult((Win(EAST, HandValue(points=20), loser_scores=scores),)))
        if n % 3 == 0:
            match.record(ExhaustiveDraw())  # CC: the dealer keeps the deal after a draw
    assert match.state.dealer == EAST
    match.record(WinResult((Win(EAST, HandValue(points=20), facts=CONSECUTIVE, loser_scores=scores),)))
    assert match.state.dealer == SOUTH  # pass deal: CC Yes


# Seed 000: the Japanese bonus for dealer's extra hands, 100 (JT).


def east_won_once(preset: str = JT) -> Match:
    match = started(preset)
    match.record(win(EAST, by=SOUTH))
    return match


def test_japanese_first_extra_hand_pays_300_from_the_discarder_for_all_losers() -> None:
    assert paid(east_won_once(), win(EAST, by=WEST), Reason.EXTRA_HAND_BONUS) == [(WEST, EAST, 300)]


def test_japanese_first_extra_hand_self_drawn_pays_100_from_each_loser() -> None:
    assert paid(east_won_once(), win(EAST), Reason.EXTRA_HAND_BONUS) == [
        (SOUTH, EAST, 100),
        (WEST, EAST, 100),
        (NORTH, EAST, 100),
    ]


def test_japanese_second_extra_hand_pays_600_that_is_200_per_loser() -> None:
    match = east_won_once()
    match.record(win(EAST, by=WEST))
    assert paid(match, win(EAST), Reason.EXTRA_HAND_BONUS) == [
        (SOUTH, EAST, 200),
        (WEST, EAST, 200),
        (NORTH, EAST, 200),
    ]


def test_japanese_winner_gets_three_times_the_pending_bonus_shown() -> None:
    match = east_won_once()
    shown = pending_extra_hand_bonus(match.state, match.rules)
    assert shown == 100
    assert sum(amount for *_, amount in paid(match, win(EAST, by=NORTH), Reason.EXTRA_HAND_BONUS)) == 3 * shown


def test_japanese_the_bonus_is_not_doubled_nor_cut_to_the_limit() -> None:
    match = east_won_once()
    # 2,000 points is cut to the Limit of 1,500 and doubled for East, for each of three losers;
    # the bonus stays 300.
    payments = settle(win(EAST, by=WEST, points=2000), match.state, match.rules).payments
    assert [(p.amount, p.reason) for p in payments] == [(9000, Reason.HAND), (300, Reason.EXTRA_HAND_BONUS)]


def test_japanese_a_new_dealers_first_hand_after_a_draw_pays_no_bonus() -> None:
    # Seed 000: an extra hand is played only when the deal does not pass; in JT a draw passes it.
    match = started(JT)
    match.record(ExhaustiveDraw())
    assert match.state.dealer == SOUTH
    assert paid(match, win(SOUTH, by=WEST), Reason.EXTRA_HAND_BONUS) == []


@pytest.mark.parametrize(
    ("preset", "second"),
    [(JC, [(WEST, SOUTH, 300)]), (CC, [(EAST, SOUTH, 100), (WEST, SOUTH, 100), (NORTH, SOUTH, 100)])],
)
def test_classical_rules_with_the_bonus_switched_on_count_the_dealers_extra_hands(
    preset: str, second: list[tuple[int, int, int]]
) -> None:
    # Seed 000: the bonus is for the dealer's extra hands, played when the deal does not pass;
    # a new dealer's first hand after a draw is not one, though Japanese counters would count it.
    ruleset = load_preset(preset).with_overrides({"extra_hand_bonus_enabled": True, "deal_passes_after_draw": "always"})
    match = Match.start("classical-bonus", PLAYERS, ruleset)
    match.record(ExhaustiveDraw())
    scores = (0, 0, 0, 0) if ruleset.losers_settle else ()
    result = WinResult((Win(SOUTH, HandValue(points=20), WEST, loser_scores=scores),))
    assert paid(match, result, Reason.EXTRA_HAND_BONUS) == []
    assert paid(match, result, Reason.EXTRA_HAND_BONUS) == second


def test_several_winners_on_one_discard_each_get_300_on_the_first_extra_hand() -> None:
    # Seed 000: "each winner is paid as if he had won alone"; JM pays its counters so.
    match = started(JM)
    match.record(win(EAST, by=SOUTH, han=1, fu=30))
    double = WinResult((Win(WEST, HandValue(han=1, fu=30), SOUTH), Win(NORTH, HandValue(han=1, fu=30), SOUTH)))
    assert paid(match, double, Reason.COUNTERS) == [(SOUTH, WEST, 300), (SOUTH, NORTH, 300)]


def test_several_winners_each_get_600_on_the_second_extra_hand() -> None:
    match = started(JM)
    match.record(win(EAST, by=SOUTH, han=1, fu=30))
    match.record(win(EAST, by=WEST, han=1, fu=30))
    double = WinResult((Win(WEST, HandValue(han=1, fu=30), SOUTH), Win(NORTH, HandValue(han=1, fu=30), SOUTH)))
    assert paid(match, double, Reason.COUNTERS) == [(SOUTH, WEST, 600), (SOUTH, NORTH, 600)]


def test_tenhou_keeps_its_own_rule_counters_to_the_winner_nearest_the_discarder() -> None:
    match = started("tenhou")
    match.record(win(EAST, by=SOUTH, han=1, fu=30))
    double = WinResult((Win(WEST, HandValue(han=1, fu=30), SOUTH), Win(NORTH, HandValue(han=1, fu=30), SOUTH)))
    assert paid(match, double, Reason.COUNTERS) == [(SOUTH, WEST, 300)]


# Seed 000 and 001: the Taiwanese bonuses (preset taiwanese).


def taiwanese_east_won_once() -> Match:
    match = started("taiwanese")
    match.record(win(EAST, by=SOUTH, points=5))
    return match


def test_taiwanese_east_self_drawn_on_the_first_extra_hand_gets_2_from_each() -> None:
    assert paid(taiwanese_east_won_once(), win(EAST), Reason.EXTRA_HAND_BONUS) == [
        (SOUTH, EAST, 2),
        (WEST, EAST, 2),
        (NORTH, EAST, 2),
    ]


def test_taiwanese_east_on_a_discard_gets_2_from_the_discarder_alone() -> None:
    assert paid(taiwanese_east_won_once(), win(EAST, by=NORTH), Reason.EXTRA_HAND_BONUS) == [(NORTH, EAST, 2)]


def test_taiwanese_second_extra_hand_is_4_from_each_or_from_the_discarder() -> None:
    match = taiwanese_east_won_once()
    match.record(win(EAST))
    assert paid(match, win(EAST, by=WEST), Reason.EXTRA_HAND_BONUS) == [(WEST, EAST, 4)]


def test_taiwanese_east_alone_pays_the_bonus_when_a_non_east_wins_self_drawn_or_on_easts_discard() -> None:
    assert paid(taiwanese_east_won_once(), win(SOUTH), Reason.EXTRA_HAND_BONUS) == [(EAST, SOUTH, 2)]
    assert paid(taiwanese_east_won_once(), win(WEST, by=EAST), Reason.EXTRA_HAND_BONUS) == [(EAST, WEST, 2)]


def test_taiwanese_no_bonus_when_a_non_east_wins_on_a_non_east_discard() -> None:
    assert paid(taiwanese_east_won_once(), win(SOUTH, by=WEST), Reason.EXTRA_HAND_BONUS) == []


def test_taiwanese_dealer_bonus_is_1_from_each_loser_self_drawn_and_1_from_the_discarder() -> None:
    assert paid(started("taiwanese"), win(EAST), Reason.DEALER_BONUS) == [
        (SOUTH, EAST, 1),
        (WEST, EAST, 1),
        (NORTH, EAST, 1),
    ]
    assert paid(started("taiwanese"), win(EAST, by=WEST), Reason.DEALER_BONUS) == [(WEST, EAST, 1)]


def test_taiwanese_dealer_bonus_east_pays_each_of_several_winners_as_if_alone() -> None:
    double = WinResult((Win(SOUTH, HandValue(points=5), EAST), Win(NORTH, HandValue(points=5), EAST)))
    assert paid(started("taiwanese"), double, Reason.DEALER_BONUS) == [(EAST, SOUTH, 1), (EAST, NORTH, 1)]


# Seed 002: limits and settling tables.


def test_a_classical_total_over_the_limit_is_cut_to_the_traditional_500() -> None:
    assert winner_score(HandValue(points=660), load_preset(CC)).points == 500


def test_hong_kong_four_faan_pay_the_laak_of_16_and_ten_faan_the_maximum_of_64() -> None:
    hong_kong = load_preset("hong-kong")
    assert winner_score(HandValue(faan=4), hong_kong).points == 16
    assert winner_score(HandValue(faan=10), hong_kong).points == 64


def test_japanese_modern_13_han_pays_the_maximum_of_8000_that_is_400_percent_of_2000() -> None:
    assert base_points(HandValue(han=13), load_preset(JM)).base == 8000


def test_american_modern_b_pays_a_the_difference_cut_to_500() -> None:
    result = WinResult((Win(NORTH, HandValue(points=50), loser_scores=(100, 660, 100, 0)),))
    payments = settle(result, started("american-modern").state, load_preset("american-modern")).payments
    assert [
        p.amount for p in payments if p.reason is Reason.LOSER_SETTLEMENT and (p.payer, p.payee) == (WEST, SOUTH)
    ] == [500]


# Each new rule set plays a whole match: four rounds of non-dealer wins end it after North 4.


@pytest.mark.parametrize("preset", [JT, CT, WA])
def test_the_rule_set_plays_four_rounds_from_east_1_to_north_4(preset: str) -> None:
    match = started(preset)
    hands = 0
    while not match.state.finished:
        dealer = match.state.dealer
        match.record(win((dealer + 1) % 4, by=dealer, points=20))
        hands += 1
    assert hands == 16
    assert sum(match.state.scores) == 4 * load_preset(preset).start_score
