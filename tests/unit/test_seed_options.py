"""Seed options as the seeds model them, and the facts of a win the seeds need.

Seed 000 has two boxes, "Pay to any winner" and "Paid by East and only if non-East wins
self-drawn or on East's discard"; seed 001 one, "Paid by East if non-East wins self-drawn or
on East's discard". Seed 002 pays penalties after the limit, for the hand; seed 004's Earthly
Hand has "No supplements" (to reach the calling hand) and "before any Chows, Pungs or Kongs
have been declared". Numbers come from the seeds.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from domain.errors import RuleViolation
from domain.match import Match, match_content
from domain.rules import Ruleset, load_preset
from domain.scoring.payments import settle
from domain.special_hands import InvalidSpecialHand
from domain.values import HandPenalty, HandValue, Reason, Win, WinFacts, WinResult
from domain.win_facts import ImpossibleWinFacts
from replay.formats.record import RecordError, export_record, parse_record

PLAYERS = ("East", "South", "West", "North")
EAST, SOUTH, WEST, NORTH = range(4)
JT = load_preset("japanese-transitional")


def extra_hand(ruleset: Ruleset) -> Match:
    """A match in the dealer's first extra hand (East won the first hand)."""
    match = Match.start("options", PLAYERS, ruleset)
    match.record(WinResult((Win(EAST, HandValue(points=20), SOUTH),)))
    return match


def bonus(match: Match, winner: int, by: int | None) -> list[tuple[int | None, int | None, int]]:
    result = WinResult((Win(winner, HandValue(points=20), by),))
    payments = settle(result, match.state, match.rules).payments
    return [(p.payer, p.payee, p.amount) for p in payments if p.reason is Reason.EXTRA_HAND_BONUS]


def boxes(*, any_winner: bool, from_east: bool) -> Ruleset:
    return JT.with_overrides({"extra_hand_bonus_any_winner": any_winner, "extra_hand_bonus_from_east": from_east})


# Seed 000: "Pay to any winner" and "Paid by East ..." are two boxes.


def test_traditionally_the_bonus_is_paid_only_if_the_dealer_wins() -> None:
    traditional = boxes(any_winner=False, from_east=False)
    assert bonus(extra_hand(traditional), SOUTH, WEST) == []
    assert bonus(extra_hand(traditional), EAST, WEST) == [(WEST, EAST, 300)]


def test_pay_to_any_winner_pays_a_non_dealer_winning_an_extra_hand() -> None:
    assert bonus(extra_hand(boxes(any_winner=True, from_east=False)), SOUTH, WEST) == [(WEST, SOUTH, 300)]


def test_paid_by_east_east_alone_pays_a_non_east_winner_self_drawn_or_on_easts_discard_just_for_himself() -> None:
    east_box = boxes(any_winner=False, from_east=True)
    assert bonus(extra_hand(east_box), SOUTH, None) == [(EAST, SOUTH, 100)]
    assert bonus(extra_hand(east_box), SOUTH, EAST) == [(EAST, SOUTH, 100)]
    assert bonus(extra_hand(east_box), SOUTH, WEST) == []


def test_the_two_boxes_are_separate_settings_a_non_east_discard_pays_only_with_any_winner() -> None:
    both = boxes(any_winner=True, from_east=True)
    assert bonus(extra_hand(both), SOUTH, WEST) == [(WEST, SOUTH, 300)]
    assert bonus(extra_hand(both), SOUTH, None) == [(EAST, SOUTH, 100)]


def test_by_default_each_of_several_winners_is_paid_the_bonus_as_if_he_had_won_alone() -> None:
    # Seed 000: "If multiple winners are allowed, each winner is paid as if he had won alone";
    # a rule file without a base starts from these defaults.
    rules = Ruleset(extra_hand_counter="extra_hands", scoring="points", limit=0, settling_table=(), minimum=0)
    match = extra_hand(rules)
    double = WinResult((Win(WEST, HandValue(points=20), SOUTH), Win(NORTH, HandValue(points=20), SOUTH)))
    payments = settle(double, match.state, rules).payments
    assert [(p.payer, p.payee, p.amount) for p in payments if p.reason is Reason.EXTRA_HAND_BONUS] == [
        (SOUTH, WEST, 300),
        (SOUTH, NORTH, 300),
    ]


OLD_MEANINGS = [
    ("any_winner", True, False),
    ("dealer_only", False, False),
    ("east_pays_non_east", False, True),
]


@pytest.mark.parametrize(("old", "any_winner", "from_east"), OLD_MEANINGS)
def test_a_match_stored_with_the_single_old_setting_reads_as_the_two_boxes(
    old: str, any_winner: bool, from_east: bool
) -> None:
    stored = load_preset("taiwanese").to_dict()
    del stored["extra_hand_bonus_any_winner"], stored["extra_hand_bonus_from_east"]
    stored["extra_hand_bonus_to"] = old
    rules = Ruleset.from_stored(stored)
    assert (rules.extra_hand_bonus_any_winner, rules.extra_hand_bonus_from_east) == (any_winner, from_east)


def test_a_match_stored_with_the_old_setting_is_the_same_match_when_imported_again() -> None:
    # Re-importing its record file must not report "stored with other rules".
    events = list(Match.start("old", PLAYERS, load_preset("taiwanese")).pending_events)
    stored_rules = dict(events[0].rules)
    del stored_rules["extra_hand_bonus_any_winner"], stored_rules["extra_hand_bonus_from_east"]
    stored_rules["extra_hand_bonus_to"] = "east_pays_non_east"
    stored = [dataclasses.replace(events[0], rules=stored_rules), *events[1:]]
    assert match_content(stored).differs_in(match_content(events)) is None


def test_a_record_file_written_with_the_old_setting_still_imports() -> None:
    start = {
        "type": "start",
        "key": "old-file",
        "players": list(PLAYERS),
        "rules": "tenhou",
        "overrides": {"extra_hand_bonus_to": "east_pays_non_east"},
    }
    record = parse_record(json.dumps(start) + "\n")
    assert record.rules.extra_hand_bonus_from_east and not record.rules.extra_hand_bonus_any_winner


# Seed 002: "penalties ... are paid after applying the limit (and after calculating possible payment doubles)".


def with_penalty(amount: int = 100) -> WinResult:
    facts = WinFacts(penalties=(HandPenalty(SOUTH, amount, "false call"),))
    return WinResult((Win(EAST, HandValue(points=2000), WEST, facts=facts),))


def test_a_penalty_attached_to_a_hand_is_paid_after_the_limit_and_the_doubles() -> None:
    match = Match.start("penalty", PLAYERS, JT)
    payments = settle(with_penalty(), match.state, JT).payments
    # 2,000 points is cut to the Limit of 1,500, doubled for East, for three losers: 9,000 from
    # the discarder; the penalty of 100 is neither doubled nor cut.
    assert [(p.payer, p.payee, p.amount, p.reason) for p in payments] == [
        (WEST, EAST, 9000, Reason.HAND),
        (SOUTH, EAST, 100, Reason.PENALTY),
    ]
    match.record(with_penalty())
    assert match.state.scores == (8000 + 9100, 8000 - 100, 8000 - 9000, 8000)


def test_the_winner_cannot_pay_a_penalty_attached_to_his_own_hand() -> None:
    facts = WinFacts(penalties=(HandPenalty(EAST, 100),))
    with pytest.raises(RuleViolation, match="other players"):
        Match.start("penalty", PLAYERS, JT).record(WinResult((Win(EAST, HandValue(points=20), WEST, facts=facts),)))


def test_a_hand_penalty_is_written_in_the_record_file_with_the_payers_name() -> None:
    start = {"type": "start", "key": "pen", "players": list(PLAYERS), "rules": "japanese-transitional"}
    line = {
        "type": "win",
        "wins": [
            {
                "winner": "East",
                "from": "West",
                "points": 2000,
                "facts": {"penalties": [{"payer": "South", "amount": 100}]},
            }
        ],
    }
    record = parse_record(json.dumps(start) + "\n" + json.dumps(line) + "\n")
    win = record.facts[0].wins[0]  # type: ignore[union-attr]
    assert win.facts.penalties == (HandPenalty(SOUTH, 100),)
    match = Match.start("pen", PLAYERS, record.rules)
    match.record(record.facts[0])  # type: ignore[arg-type]
    assert '"penalties": [{"payer": "South", "amount": 100}]' in export_record(match)


# Seed 004, Earthly Hand: "No supplements" and "before any Chows, Pungs or Kongs have been declared".


def test_earthly_hand_no_supplements_refuses_supplement_tiles_used_to_reach_the_calling_hand() -> None:
    # "When checked, a player must not have used supplement tiles (for Flowers and Seasons) to
    # achieve his calling hand" -- even when the winning tile itself is an ordinary discard.
    # JT's own tiles have no flowers (136 tiles): played with Flowers and Seasons here.
    with_flowers = JT.with_overrides({"flowers": True})
    strict = with_flowers.with_overrides({"earthly_no_supplements": True})
    facts = WinFacts(first_turn=True, supplements_to_ready=True, special_hands=("earthly_hand",))
    with pytest.raises(InvalidSpecialHand, match="calling hand"):
        Match.start("e", PLAYERS, strict).record(WinResult((Win(SOUTH, HandValue(points=20), EAST, facts=facts),)))
    # "supplement tiles are allowed" without the option.
    Match.start("e", PLAYERS, with_flowers).record(WinResult((Win(SOUTH, HandValue(points=20), EAST, facts=facts),)))


@pytest.mark.parametrize("preset", ["japanese-transitional", "chinese-transitional"])
def test_earthly_hand_on_ones_first_self_drawn_tile_only_before_any_call(preset: str) -> None:
    rules = load_preset(preset)
    called = WinFacts(first_turn=True, call_before_first_draw=True, special_hands=("earthly_hand",))
    # The first turn itself comes before any call: the facts of the win refuse it (domain.win_facts).
    with pytest.raises(ImpossibleWinFacts, match="before any call"):
        Match.start("e", PLAYERS, rules).record(WinResult((Win(SOUTH, HandValue(points=20), facts=called),)))


def test_the_record_file_holds_the_calling_hand_and_first_draw_facts() -> None:
    start = {"type": "start", "key": "f", "players": list(PLAYERS), "rules": "japanese-transitional"}
    facts = {"first_turn": True, "call_before_first_draw": True, "supplements_to_ready": True}
    line = {"type": "win", "wins": [{"winner": "South", "from": "East", "points": 20, "facts": facts}]}
    record = parse_record(json.dumps(start) + "\n" + json.dumps(line) + "\n")
    recorded = record.facts[0].wins[0].facts  # type: ignore[union-attr]
    assert (recorded.call_before_first_draw, recorded.supplements_to_ready) == (True, True)


def test_a_hand_penalty_in_a_record_file_without_a_payer_is_refused_with_its_place() -> None:
    start = {"type": "start", "key": "p", "players": list(PLAYERS), "rules": "japanese-transitional"}
    line = {"type": "win", "wins": [{"winner": "East", "points": 20, "facts": {"penalties": [{"amount": 100}]}}]}
    with pytest.raises(RecordError, match=r"^x.jsonl:2.wins\[0\].facts.penalties\[0\]: a penalty needs a payer"):
        parse_record(json.dumps(start) + "\n" + json.dumps(line) + "\n", name="x.jsonl")
