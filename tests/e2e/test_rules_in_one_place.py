"""Rules that once lived in two places, each now in the domain once, and every reader asks it.

- which early ends exist: ``domain.amendments.early_end_reason`` (the Match aggregate, the
  record file, the application);
- a penalty's defaults and the reverse mangan's size: ``domain.scoring.payments.penalty_at``
  (``honba penalty``, ``honba amend ... penalty`` and a record file's penalty lines);
- the special hands' names: ``domain.rules.SPECIAL_HANDS``, each with its check;
- a choice-valued rule's values: one ``Literal`` in ``domain.rules``, its field's type and its check;
- a preset is read once per process: ``domain.rules.load_preset``;
- the riichi stick is the rules' ``riichi_deposit`` (the tenhou.net/6 export, the mjai reader,
  the Tenhou XML and JSON readers);
- how a correction changes the history: ``domain.amendments`` (``resolve_corrections``,
  ``corrected_steps``), for the Match aggregate and the standings view alike;
- which riichi hand values exist: ``domain.scoring.riichi.hand_values`` (what
  ``check_hand_value`` lets through; the mjai valuation searches the same list);
- a hand is settled once per command: the Match aggregate holds the steps it scored (no cache
  beside it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_args

import pytest
from conftest import CORPUS, instances_made
from honba_cli import ok

from domain.amendments import early_end_reason
from domain.errors import HonbaError, InvalidHandValue, InvalidRules, RuleViolation
from domain.match import Match
from domain.progression import initial_state
from domain.rules import SPECIAL_HANDS, ChomboShare, load_preset
from domain.scoring.payments import Settlement, penalty_at
from domain.scoring.riichi import check_hand_value, hand_values
from domain.special_hands import CHECKS
from domain.values import ExhaustiveDraw, HandValue, Penalty, PenaltyShare, Win, WinResult
from projections.standings_view import DocCache, apply_event, match_state
from projections.views import POPODocumentView
from replay.formats.record import RecordError, build_match, parse_record
from replay.formats.tenhou_json_out import export_tenhou_json
from replay.store.application import HonbaApp

TENHOU = load_preset("tenhou")
PLAYERS = ("Ann", "Ben", "Cho", "Dai")


# Early ends.


@pytest.mark.parametrize("reason", ["complete", "bust", "dealer_stop", "", "   "])
def test_an_early_end_needs_a_reason_the_rules_do_not_decide_themselves(reason: str) -> None:
    with pytest.raises(RuleViolation):
        early_end_reason(reason)


def test_the_match_and_the_record_file_refuse_the_same_early_ends_in_the_same_words() -> None:
    match = Match.start("k", PLAYERS, TENHOU)
    with pytest.raises(RuleViolation) as by_match:
        match.end("bust")
    start = {"type": "start", "key": "k", "players": list(PLAYERS), "rules": "tenhou"}
    text = json.dumps(start) + "\n" + json.dumps({"type": "end", "reason": "bust"}) + "\n"
    with pytest.raises(RecordError) as by_file:
        parse_record(text, name="f.jsonl")
    assert str(by_match.value) in str(by_file.value)


def test_an_early_end_keeps_its_reason_without_the_spaces_around_it() -> None:
    match = Match.start("k", PLAYERS, TENHOU)
    match.end("  time limit ")
    assert match.state.end_reason == "time limit"


# Penalties.


def test_a_penalty_left_unsized_takes_the_rules_share_and_amount() -> None:
    rules = TENHOU.with_overrides({"chombo_share": "off_table", "chombo_amount": 4000}, source="test")
    penalty = penalty_at(2, initial_state(rules), rules)
    assert (penalty.amount, penalty.share) == (4000, PenaltyShare.OFF_TABLE)


def test_a_reverse_mangan_costs_a_non_dealer_8000_and_the_dealer_12000() -> None:
    rules = TENHOU.with_overrides({"chombo_share": "reverse_mangan"}, source="test")
    state = initial_state(rules)  # seat 0 deals
    assert penalty_at(1, state, rules).amount == 8000
    assert penalty_at(0, state, rules).amount == 12000


def test_a_reverse_mangan_of_another_size_is_refused() -> None:
    rules = TENHOU.with_overrides({"chombo_share": "reverse_mangan"}, source="test")
    with pytest.raises(RuleViolation, match="reverse mangan here is 8000"):
        penalty_at(1, initial_state(rules), rules, amount=6000, share="reverse_mangan")


def test_an_amount_of_the_referees_own_is_shared_by_the_others_under_reverse_mangan_rules() -> None:
    rules = TENHOU.with_overrides({"chombo_share": "reverse_mangan"}, source="test")
    penalty = penalty_at(1, initial_state(rules), rules, amount=3000)
    assert (penalty.amount, penalty.share) == (3000, PenaltyShare.TO_OTHERS)


def test_an_unknown_share_is_refused() -> None:
    with pytest.raises(HonbaError):
        penalty_at(1, initial_state(TENHOU), TENHOU, share="to_the_house")


def _record_penalty(rules: str, line: dict[str, Any]) -> Penalty:
    start = {"type": "start", "key": "k", "players": list(PLAYERS), "rules": rules}
    text = json.dumps(start) + "\n" + json.dumps(line) + "\n"
    match = build_match(parse_record(text, name="f.jsonl"), name="f.jsonl")
    (penalty,) = (fact for _position, fact in match.history if isinstance(fact, Penalty))
    return penalty


def _command_penalty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: str, player: str) -> Penalty:
    monkeypatch.setenv("HONBA_DB", str(tmp_path / "honba.sqlite"))
    monkeypatch.delenv("PERSISTENCE_MODULE", raising=False)
    ok(None, "start", "k", "--players", ",".join(PLAYERS), "--rules", rules)
    ok(None, "penalty", "k", player)
    application = HonbaApp.open(str(tmp_path / "honba.sqlite"))
    try:
        (penalty,) = (f for _p, f in application.get_match("k").history if isinstance(f, Penalty))
    finally:
        application.close()
    return penalty


def test_a_penalty_without_an_amount_in_a_record_file_is_the_rules_default_same_as_honba_penalty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # M-League: a chombo is a penalty worth 20,000 points, taken off the table (the preset's source).
    from_file = _record_penalty("m-league", {"type": "penalty", "player": "Dai"})
    assert (from_file.amount, from_file.share) == (20000, PenaltyShare.OFF_TABLE)
    assert from_file == _command_penalty(tmp_path, monkeypatch, "m-league", "Dai")


def test_a_reverse_mangan_in_a_record_file_is_sized_by_who_deals_same_as_honba_penalty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Under the tenhou preset a chombo is a reverse mangan: the dealer (Ann at East 1) pays 4,000
    # to each, 12,000 in all; a non-dealer 8,000 (4,000 to the dealer, 2,000 to each other).
    dealer = _record_penalty("tenhou", {"type": "penalty", "player": "Ann"})
    assert (dealer.amount, dealer.share) == (12000, PenaltyShare.REVERSE_MANGAN)
    assert _record_penalty("tenhou", {"type": "penalty", "player": "Ben"}).amount == 8000
    assert dealer == _command_penalty(tmp_path, monkeypatch, "tenhou", "Ann")


# Choice-valued rules: one list of values, the field's type and the rule file's check.


def test_a_chombo_share_is_one_of_the_penalty_shares_and_nothing_else() -> None:
    assert set(get_args(ChomboShare)) == {share.value for share in PenaltyShare}
    with pytest.raises(InvalidRules, match="to_others, off_table, reverse_mangan"):
        TENHOU.with_overrides({"chombo_share": "to_the_house"}, source="test")


# Special hands.


def test_every_special_hand_a_rule_file_may_name_has_its_check_and_no_other() -> None:
    assert tuple(CHECKS) == SPECIAL_HANDS


# Presets.


def test_a_preset_is_read_once_per_process() -> None:
    assert load_preset("tenhou") is load_preset("tenhou")


# The riichi stick.


def test_the_tenhou_export_counts_the_sticks_in_the_rules_own_stick() -> None:
    rules = TENHOU.with_overrides({"riichi_deposit": 500}, source="test")
    match = Match.start("k", PLAYERS, rules)
    # Two riichi at a draw in which both were ready: two 500-point sticks stay on the table.
    match.record(ExhaustiveDraw(ready=(0, 1), riichi=(0, 1)))
    match.record(ExhaustiveDraw(ready=(0,)))
    second_hand = json.loads(export_tenhou_json(match))["log"][1]
    assert second_hand[0][2] == 2  # sticks, not 1000-point units (which would say 1)


@pytest.mark.parametrize("suffix", [".xml", ".json"])
def test_the_tenhou_readers_count_the_sticks_placed_in_a_hand_in_the_rules_own_stick(
    suffix: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import replay.formats.tenhou_rules as tenhou_rules
    from domain.rules import Ruleset
    from replay.formats.detect import read_log

    log = CORPUS / "tsubakisakura-mjlog2json" / "data" / f"2019103023gm-00a9-0000-f90e0fe9{suffix}"
    if not log.is_file():
        pytest.skip("../shared/corpus is not present")
    (as_logged,) = read_log(log)
    original = tenhou_rules.load_preset

    def half_sticks(name: str) -> Ruleset:
        return original(name).with_overrides({"riichi_deposit": 500}, source="test")

    # The room's rules with a stick of 500, where the Tenhou rules take their preset (``load_preset``,
    # domain.rules' own, looked up by name whether the readers run compiled or not; the rooms' rules
    # are kept, and let go around the test): a reader's own ``rules_for`` is called directly when compiled.
    tenhou_rules._room_rules.cache_clear()
    tenhou_rules._described.cache_clear()
    monkeypatch.setattr(tenhou_rules, "load_preset", half_sticks)
    try:
        (half,) = read_log(log)
    finally:
        tenhou_rules._room_rules.cache_clear()
        tenhou_rules._described.cache_clear()
    assert half.rules.riichi_deposit == 500
    riichi_hands = 0
    for before, after in zip(as_logged.hands, half.hands, strict=True):
        assert before.deltas is not None and after.deltas is not None and before.result is not None
        riichi = before.result.riichi
        riichi_hands += bool(riichi)
        # Tenhou's sc leaves out the sticks placed in the hand: a stick worth 500 less is added back 500 less.
        assert [a - b for a, b in zip(after.deltas, before.deltas, strict=True)] == [
            500 * (seat in riichi) for seat in range(4)
        ]
    assert riichi_hands > 0


# A hand is settled once per command.


def test_a_recording_command_settles_each_hand_of_the_match_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HONBA_DB", str(tmp_path / "honba.sqlite"))
    monkeypatch.delenv("PERSISTENCE_MODULE", raising=False)

    ok(None, "start", "k", "--players", ",".join(PLAYERS))
    ok(None, "win", "k", "Ben:3/30", "--from", "Ann")
    ok(None, "draw", "k", "--ready", "Ann")
    # Counted by the settlements made (``Settlement``, an attrs class, whose ``__init__`` each settling
    # of a hand reaches, compiled or not): a spy on ``domain.progression.settle`` is not reached from
    # a compiled fold, which calls it directly.
    settled = instances_made(monkeypatch, Settlement)
    ok(None, "win", "k", "Cho:2/30")
    # The two hands already stored and the one recorded now: each settled once, whatever the
    # command loads, checks, records and prints.
    assert len(settled) == 3


# How a correction changes the history.


def test_the_standings_view_folds_the_corrected_history_the_match_itself_folds() -> None:
    match = Match.start("k", PLAYERS, TENHOU)
    match.record(WinResult((Win(1, HandValue(han=3, fu=30), discarder=0),)))  # position 2, its deal pass 3
    match.record(ExhaustiveDraw(ready=(0,)))  # 4, its deal pass 5
    match.penalise(Penalty(2, 900))  # 6 (shared by three: whole 100-point sticks each)
    match.record(WinResult((Win(3, HandValue(han=1, fu=30)),)))  # 7
    match.amend(2, WinResult((Win(1, HandValue(han=4, fu=30), discarder=0),)), by="ref", reason="miscounted")
    match.void(6, by="ref", reason="no chombo")
    match.void(9, by="ref", reason="the amendment was right the first time")  # cancels the amendment
    match.undo(by="ref", reason="taken back at the table")  # the last hand, with its deal pass
    cache = DocCache(POPODocumentView())
    for event in match.collect_events():
        apply_event(cache, event)
    doc = cache.get("match", str(match.id))
    assert doc is not None
    state, facts, steps = match_state(doc, cache.rules(doc["rules"]))
    assert steps == match.corrected_steps()
    assert facts == match.effective_facts()
    assert state == match.state


# Which riichi hand values exist.


@pytest.mark.parametrize("self_drawn", [True, False])
def test_the_riichi_hand_values_that_exist_are_those_the_check_accepts(self_drawn: bool) -> None:
    listed = list(hand_values(self_drawn=self_drawn))
    for value in listed:
        check_hand_value(value, self_drawn=self_drawn)
    below_five_han = [HandValue(han=han, fu=fu) for han in range(1, 5) for fu in range(0, 131, 5)]
    accepted = []
    for value in below_five_han:
        try:
            check_hand_value(value, self_drawn=self_drawn)
        except InvalidHandValue:
            continue
        accepted.append(value)
    assert [v for v in listed if v.limit is None] == accepted


def test_the_mjai_valuation_searches_the_domains_hand_values() -> None:
    import replay.formats.valuation as valuation

    assert valuation.hand_values is hand_values
