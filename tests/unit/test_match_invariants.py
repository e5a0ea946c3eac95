"""A command the rules do not allow is refused with a named error, and nothing is
recorded: the aggregate's pending events and its table state stay as they were."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import pytest
from conftest import SANMA, hv, ron, started, tsumo, won

import domain.match
from domain.errors import (
    DamagedFact,
    HonbaError,
    InvalidHandValue,
    MatchAlreadyEnded,
    RuleViolation,
    UnknownSeat,
    WinnerIsDiscarder,
)
from domain.match import Match
from domain.values import (
    AbortiveDraw,
    AbortKind,
    DealPass,
    ExhaustiveDraw,
    HandResult,
    HandValue,
    Penalty,
    TableState,
    Win,
)


def a_match_in_progress() -> Match:
    match = started()
    match.record(won(ron(1, 2, hv(1, 30))))
    match.record(ExhaustiveDraw(ready=(0,), riichi=(0,)))
    return match


def assert_refused(match: Match, command: Callable[[], object], error: type[HonbaError]) -> None:
    events = list(match.pending_events)
    state = match.state
    with pytest.raises(error):
        command()
    assert match.pending_events == events
    assert match.state == state


@pytest.mark.parametrize(
    "result",
    [
        won(ron(1, 1, hv(1, 30))),
        won(ron(0, 2, hv(1, 30)), ron(2, 2, hv(1, 30))),
    ],
    ids=["single", "in-a-double-ron"],
)
def test_a_winner_cannot_be_the_discarder_of_their_own_winning_tile(result: HandResult) -> None:
    match = a_match_in_progress()
    assert_refused(match, lambda: match.record(result), WinnerIsDiscarder)


@pytest.mark.parametrize(
    "result",
    [
        won(ron(4, 1, hv(1, 30))),
        won(ron(1, 4, hv(1, 30))),
        won(ron(-1, 1, hv(1, 30))),
        won(tsumo(1, hv(limit="yakuman"), liable=7)),
        won(ron(1, 2, hv(1, 30)), riichi=[4]),
        ExhaustiveDraw(ready=(4,)),
        ExhaustiveDraw(ready=(), nagashi=(5,)),
        ExhaustiveDraw(ready=(), riichi=(9,)),
        AbortiveDraw(AbortKind.FOUR_RIICHI, riichi=(0, 1, 2, 4)),
    ],
    ids=["winner", "discarder", "negative", "liable", "riichi", "ready", "nagashi", "draw-riichi", "abort-riichi"],
)
def test_an_unknown_seat_is_refused(result: HandResult) -> None:
    match = a_match_in_progress()
    assert_refused(match, lambda: match.record(result), UnknownSeat)


def test_seat_3_is_unknown_at_a_three_player_table() -> None:
    match = started(SANMA)
    assert_refused(match, lambda: match.record(won(ron(3, 0, hv(1, 30)))), UnknownSeat)
    assert_refused(match, lambda: match.record(ExhaustiveDraw(ready=(3,))), UnknownSeat)


def test_a_penalty_against_an_unknown_seat_is_refused() -> None:
    match = a_match_in_progress()
    assert_refused(match, lambda: match.penalise(Penalty(seat=4, amount=8000)), UnknownSeat)


@pytest.mark.parametrize(
    "win",
    [ron(1, 2, hv(1, 20)), tsumo(1, hv(1, 20)), ron(1, 2, hv(1, 25)), ron(1, 2, hv(2, 20)), ron(1, 2, hv(0, 30))],
    ids=["1han20fu-ron", "1han20fu-tsumo", "1han25fu", "20fu-ron", "0han"],
)
def test_an_impossible_hand_value_is_refused(win: Win) -> None:
    match = a_match_in_progress()
    assert_refused(match, lambda: match.record(won(win)), InvalidHandValue)


def test_an_impossible_hand_value_in_a_double_ron_refuses_the_whole_result() -> None:
    match = a_match_in_progress()
    result = won(ron(0, 2, hv(1, 30)), ron(1, 2, hv(2, 20)))
    assert_refused(match, lambda: match.record(result), InvalidHandValue)


def ended_match() -> Match:
    match = started()
    match.end("agreed")
    return match


@pytest.mark.parametrize(
    "command",
    [
        lambda m: m.record(won(ron(1, 2, hv(1, 30)))),
        lambda m: m.record(ExhaustiveDraw(ready=(0,))),
        lambda m: m.record(AbortiveDraw(AbortKind.NINE_TERMINALS)),
        lambda m: m.penalise(Penalty(seat=0, amount=8000)),
        lambda m: m.end("agreed"),
    ],
    ids=["win", "draw", "abort", "penalty", "end"],
)
def test_nothing_is_recorded_after_the_match_ended(command: Callable[[Match], object]) -> None:
    match = ended_match()
    assert_refused(match, lambda: command(match), MatchAlreadyEnded)


def test_nothing_is_recorded_after_an_automatic_end() -> None:
    match = started()
    # Seat 2 at 25,000 deals in to a yakuman: bust.
    match.record(won(ron(1, 2, hv(limit="yakuman"))))
    assert match.state.finished and match.state.end_reason == "bust"
    assert_refused(match, lambda: match.record(won(ron(1, 2, hv(1, 30)))), MatchAlreadyEnded)


def test_three_winners_on_one_discard_are_too_many_under_tenhou_rules() -> None:
    # FORMAT.md: "Triple ron: Tenhou aborts with 三家和了 (ron3) and there is no win."
    match = a_match_in_progress()
    result = won(ron(0, 3, hv(1, 30)), ron(1, 3, hv(1, 30)), ron(2, 3, hv(1, 30)))
    assert_refused(match, lambda: match.record(result), RuleViolation)
    match.record(AbortiveDraw(AbortKind.TRIPLE_RON))


def test_two_winners_are_too_many_when_the_rules_allow_one() -> None:
    match = started(started().rules.with_overrides({"multiple_ron": 1}))
    result = won(ron(0, 3, hv(1, 30)), ron(1, 3, hv(1, 30)))
    assert_refused(match, lambda: match.record(result), RuleViolation)


def test_several_winners_cannot_win_on_a_self_drawn_tile() -> None:
    match = a_match_in_progress()
    result = won(tsumo(0, hv(1, 30)), tsumo(1, hv(1, 30)))
    assert_refused(match, lambda: match.record(result), RuleViolation)
    mixed = won(ron(0, 2, hv(1, 30)), tsumo(1, hv(1, 30)))
    assert_refused(match, lambda: match.record(mixed), RuleViolation)


def test_several_winners_must_win_on_the_same_discard() -> None:
    match = a_match_in_progress()
    result = won(ron(0, 2, hv(1, 30)), ron(1, 3, hv(1, 30)))
    assert_refused(match, lambda: match.record(result), RuleViolation)


def test_the_same_player_cannot_win_twice_in_one_hand() -> None:
    match = a_match_in_progress()
    result = won(ron(1, 2, hv(1, 30)), ron(1, 2, hv(2, 30)))
    assert_refused(match, lambda: match.record(result), RuleViolation)


def test_a_win_needs_a_winner() -> None:
    match = a_match_in_progress()
    assert_refused(match, lambda: match.record(won()), RuleViolation)


def test_a_winner_cannot_be_liable_for_their_own_hand() -> None:
    match = a_match_in_progress()
    assert_refused(match, lambda: match.record(won(tsumo(1, hv(limit="yakuman"), liable=1))), RuleViolation)


def test_a_player_declares_riichi_at_most_once_a_hand() -> None:
    match = a_match_in_progress()
    assert_refused(match, lambda: match.record(won(ron(1, 2, hv(1, 30)), riichi=[0, 0])), RuleViolation)


def test_triple_ron_is_a_win_not_an_abort_when_the_rules_allow_three_winners() -> None:
    match = started(started().rules.with_overrides({"multiple_ron": 3}))
    assert_refused(match, lambda: match.record(AbortiveDraw(AbortKind.TRIPLE_RON)), RuleViolation)


def test_a_penalty_must_be_positive() -> None:
    match = a_match_in_progress()
    assert_refused(match, lambda: match.penalise(Penalty(seat=0, amount=0)), RuleViolation)


def test_after_a_refusal_the_match_goes_on_as_if_nothing_happened() -> None:
    match = a_match_in_progress()
    twin = a_match_in_progress()
    with pytest.raises(WinnerIsDiscarder):
        match.record(won(ron(3, 3, hv(1, 30))))
    match.record(won(ron(3, 2, hv(1, 30))))
    twin.record(won(ron(3, 2, hv(1, 30))))
    assert match.state == twin.state
    assert [type(e) for e in match.pending_events] == [type(e) for e in twin.pending_events]


def test_every_named_error_is_a_rule_violation() -> None:
    for error in (WinnerIsDiscarder, UnknownSeat, InvalidHandValue, MatchAlreadyEnded):
        assert issubclass(error, RuleViolation)


class _RefusingNothing:
    """Entry checks that pass every hand: what a fact changed behind honba's back would have met."""

    def hand(self, result: HandResult, state: TableState, match: object = None) -> None:
        return None


def _replayed(match: Match) -> Match:
    """A match given the recorded events again, as a fold of the stored events gives them."""
    replayed = started()
    for event in match.pending_events[1:]:
        replayed.trigger_event(type(event), fact=event.fact)
    return replayed


def test_a_result_the_command_checked_is_scored_once_without_the_guard_for_damaged_facts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``record`` checks a result on the table, then scores it with ``evolve_checked``: the guard
    that finds a stored fact changed behind honba's back (``seats_named``, ``impossible``) is not
    run again on what the checks just passed, nor on the deal pass the rules made from that very
    table (``following_fact``). Every fact a fold replays still goes through it, and the table is
    the one the guarded fold gives.

    Seen by what the guard does (a compiled caller calls it directly: a spy set on the module's name
    is not reached): with entry checks that refuse nothing, a result the guard refuses (a limit
    multiple of 0) is recorded; with ``domain.match.following_fact`` (looked up by the interpreted
    aggregate at every call) giving a deal pass to a seat the table does not have, that deal pass is
    recorded. Each is refused as damaged when the events are folded again."""
    match = started()
    match.record(won(ron(1, 2, hv(3, 30))))
    assert isinstance(match.pending_events[-1].fact, DealPass)
    assert _replayed(match).fold() == match.fold()

    damaged = won(ron(1, 2, HandValue(han=3, fu=30, multiple=0)))
    with pytest.raises(RuleViolation, match="multiple: 0 is out of range"):
        started().record(damaged)  # the checks refuse what the guard refuses
    unchecked = started()
    unchecked.checks = _RefusingNothing()  # type: ignore[assignment]
    unchecked.record(damaged)
    assert [type(e) for e in unchecked.pending_events] == [Match.Started, Match.HandWon, Match.DealPassed]
    with pytest.raises(DamagedFact, match="has a limit multiple of 0"):
        _replayed(unchecked).fold()

    made_by_the_rules = domain.match.following_fact

    def to_no_seat(*args: Any) -> Any:
        following = made_by_the_rules(*args)
        return attrs.evolve(following, to_dealer=9) if isinstance(following, DealPass) else following

    monkeypatch.setattr(domain.match, "following_fact", to_no_seat)
    passed = started()
    passed.record(won(ron(1, 2, hv(3, 30))))
    assert passed.pending_events[-1].fact.to_dealer == 9
    monkeypatch.undo()
    with pytest.raises(DamagedFact, match="names seat 9"):
        _replayed(passed).fold()
