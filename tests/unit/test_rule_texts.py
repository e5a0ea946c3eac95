"""Texts a player reads: hand values in words, one location per error, hand names without
counters where the rules have none, and no loser scores asked where nothing is settled."""

from __future__ import annotations

import json

import pytest

from domain.match import Match
from domain.rules import load_preset
from domain.scoring.payments import settle
from domain.scoring.points import winner_score
from domain.values import ExhaustiveDraw, HandValue, Reason, Win, WinFacts, WinResult
from replay.cli.render import state_lines
from replay.formats.record import RecordError, parse_record

PLAYERS = ("East", "South", "West", "North")
EAST, SOUTH, WEST, NORTH = range(4)


def test_a_value_in_points_and_doubles_reads_as_a_player_says_it() -> None:
    assert HandValue(points=20, doubles=1).describe() == "20 points, 1 double"
    assert HandValue(points=165, doubles=2).describe() == "165 points, 2 doubles"


def test_the_ledger_note_says_what_the_doubles_made_of_the_points() -> None:
    # 165 points doubled twice are 660, under the Limit of 1,500 of Japanese Transitional.
    assert winner_score(HandValue(points=165, doubles=2), load_preset("japanese-transitional")).note == (
        "165 points, 2 doubles = 660"
    )


def test_a_rule_out_of_range_in_a_record_file_names_the_place_once() -> None:
    start = {"type": "start", "key": "k", "players": list(PLAYERS), "overrides": {"extra_hand_bonus": 5000}}
    with pytest.raises(RecordError) as caught:
        parse_record(json.dumps(start) + "\n", name="x.jsonl")
    assert str(caught.value) == "x.jsonl:1.overrides: rule 'extra_hand_bonus': 5000 is out of range (1 to 2000)"


def test_hands_are_named_without_counters_in_rules_that_have_none() -> None:
    match = Match.start("cc", PLAYERS, load_preset("chinese-classical"))
    for _ in range(5):
        match.record(ExhaustiveDraw())  # Chinese Classical: the dealer keeps the deal after a draw
    assert (match.state.hand_label, match.state.hand_name) == ("E1", "East 1")


def test_hands_keep_their_counters_in_japanese_modern_rules() -> None:
    match = Match.start("jm", PLAYERS, load_preset("japanese-modern"))
    match.record(ExhaustiveDraw(ready=(EAST,)))
    assert (match.state.hand_label, match.state.hand_name) == ("E1-1", "East 1, 1 counter")


def test_chinese_classical_special_limit_hand_needs_no_loser_scores_and_settles_nothing_between_losers() -> None:
    rules = load_preset("chinese-classical")
    facts = WinFacts(first_turn=True, special_hands=("earthly_hand",))
    result = WinResult((Win(SOUTH, HandValue(points=20), EAST, facts=facts),))
    match = Match.start("cc", PLAYERS, rules)
    payments = settle(result, match.state, rules).payments
    assert not [p for p in payments if p.reason is Reason.LOSER_SETTLEMENT]
    match.record(result)


def test_the_status_of_a_match_under_rules_without_counters_does_not_list_them() -> None:
    rules = load_preset("chinese-classical")
    match = Match.start("cc", PLAYERS, rules)
    match.record(ExhaustiveDraw())
    lines = state_lines(PLAYERS, match.state, rules)
    assert lines[0] == "Next hand: East 1 (E1)"
    assert not [line for line in lines if "Counters" in line]
