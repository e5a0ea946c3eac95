"""A count that is no whole number is refused in words, whether the domain runs compiled (mypyc) or
from its sources: compiled code reads a field declared ``int`` as a machine integer, where ``True``
is 1 and ``"60"`` a ``TypeError``, so each check reads the count as the caller gave it."""

from __future__ import annotations

import re

import attrs
import pytest
from conftest import ron, started, tsumo, won

from domain.bounds import OutOfBounds
from domain.errors import RuleViolation, UnknownSeat
from domain.match import Match
from domain.rules import load_preset
from domain.values import (
    AbortiveDraw,
    AbortKind,
    ExhaustiveDraw,
    HandPenalty,
    HandResult,
    HandValue,
    Penalty,
    TableState,
    Win,
    WinFacts,
    WinResult,
)


def test_a_yakuman_multiple_of_true_is_refused() -> None:
    match = started()
    with pytest.raises(OutOfBounds, match="yakuman multiple: True is not a whole number"):
        match.record(won(ron(1, 2, HandValue(limit="yakuman", multiple=True))))
    assert match.state.scores == started().state.scores


@pytest.mark.parametrize("rules", ["hong-kong", "taiwanese", "tenhou"])
def test_a_penalty_amount_of_true_is_refused(rules: str) -> None:
    match = started(load_preset(rules))
    with pytest.raises(OutOfBounds, match="penalty amount: True is not a whole number"):
        match.penalise(Penalty(0, True))


def test_a_penalty_of_no_positive_amount_is_said_so() -> None:
    with pytest.raises(RuleViolation, match="a penalty must be a positive amount, not -8"):
        started().penalise(Penalty(0, -8))


@pytest.mark.parametrize("count", ["counters", "deposits", "hands_played"])
def test_an_opening_table_s_count_of_true_is_refused(count: str) -> None:
    opening = TableState(players=4, scores=(25000,) * 4, **{count: True})  # type: ignore[arg-type]
    with pytest.raises(OutOfBounds, match="True is not a whole number"):
        Match.start("m", ["A", "B", "C", "D"], load_preset("tenhou"), opening=opening)


@pytest.mark.parametrize("minutes", ["60", 5.0, True])
def test_minutes_that_are_no_whole_number_are_refused_by_the_match(minutes: object) -> None:
    match = started()
    with pytest.raises(RuleViolation, match="a time limit is a whole number of minutes"):
        match.set_time_limit(minutes, by="director")  # type: ignore[arg-type]
    with pytest.raises(RuleViolation, match="the time added is a whole number of minutes"):
        match.add_time(minutes, by="director")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (HandValue(han=2.0, fu=30), "han: 2.0 is not a whole number"),  # type: ignore[arg-type]
        (HandValue(han=2, fu=30.0), "fu: 30.0 is not a whole number"),  # type: ignore[arg-type]
        (HandValue(han=3, fu=30, dora=1.0), "dora: 1.0 is not a whole number"),  # type: ignore[arg-type]
        (HandValue(limit="yakuman", multiple=2.0), "yakuman multiple: 2.0 is not a whole number"),  # type: ignore[arg-type]
        (HandValue(han=3, fu=30, multiple=None), "yakuman multiple: None is not a whole number"),  # type: ignore[arg-type]
        (HandValue(limit="yakuman", multiple=None), "yakuman multiple: None is not a whole number"),  # type: ignore[arg-type]
    ],
)
def test_a_hand_value_count_that_is_a_float_is_refused_in_words(value: HandValue, said: str) -> None:
    match = started()
    with pytest.raises(OutOfBounds, match=re.escape(said)):
        match.record(won(ron(1, 2, value)))
    assert match.state.scores == started().state.scores


def test_a_float_faan_is_refused_in_words_under_points_rules() -> None:
    match = started(load_preset("hong-kong"))
    with pytest.raises(OutOfBounds, match=re.escape("faan: 3.0 is not a whole number")):
        match.record(won(tsumo(1, HandValue(faan=3.0))))  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", [1.0, True, "1"])
def test_a_winner_that_is_no_whole_number_is_no_seat(seat: object) -> None:
    match = started()
    with pytest.raises(UnknownSeat, match="winner: there is no seat"):
        match.record(won(ron(seat, 2, HandValue(han=1, fu=30))))  # type: ignore[arg-type]
    assert match.state.scores == started().state.scores


@pytest.mark.parametrize(("role", "named"), [("discarder", "discarder"), ("liable", "liable player")])
def test_a_discarder_or_liable_seat_that_is_a_float_is_no_seat(role: str, named: str) -> None:
    seats = {"discarder": 2, "liable": None} | {role: 2.0}
    win = Win(winner=1, value=HandValue(limit="yakuman"), **seats)  # type: ignore[arg-type]
    with pytest.raises(UnknownSeat, match=re.escape(f"{named}: there is no seat 2.0 at a 4-player table")):
        started().record(won(win))


@pytest.mark.parametrize(
    ("result", "said"),
    [
        (ExhaustiveDraw(ready=(0.7,)), "ready or nagashi: there is no seat 0.7"),  # type: ignore[arg-type]
        (ExhaustiveDraw(ready=("1", 0)), "ready or nagashi: there is no seat '1'"),  # type: ignore[arg-type]
        (ExhaustiveDraw(ready=(1,), riichi=(True,)), "riichi: there is no seat True"),  # type: ignore[arg-type]
        (AbortiveDraw(kind=AbortKind.FOUR_KONGS, kongs=(1.0, 2, 2, 2)), "kong declarer: there is no seat 1.0"),  # type: ignore[arg-type]
    ],
)
def test_a_seat_in_a_set_of_seats_is_never_made_one_by_rounding(result: HandResult, said: str) -> None:
    match = started()
    with pytest.raises(UnknownSeat, match=re.escape(said)):
        match.record(result)
    assert match.state.scores == started().state.scores


@pytest.mark.parametrize("called", [(7,), (-1,), (2.0,)])
def test_an_open_call_by_a_seat_the_table_does_not_have_is_refused(called: tuple[object, ...]) -> None:
    # A note of the log never paid by, but counted by seat in the statistics.
    with pytest.raises(UnknownSeat, match="open call: there is no seat"):
        started().record(ExhaustiveDraw(ready=(0,), called=called))  # type: ignore[arg-type]


def test_tai_that_are_no_whole_number_are_refused_as_tai() -> None:
    with pytest.raises(OutOfBounds, match=re.escape("tai: 5.0 is not a whole number")):
        started(load_preset("taiwanese")).record(won(tsumo(1, HandValue(tai=5.0))))  # type: ignore[arg-type]


def _with_hand_penalty(payer: object, amount: object = 1000, winner: int = 2) -> WinResult:
    penalty = HandPenalty(payer=payer, amount=amount)  # type: ignore[arg-type]
    return won(attrs.evolve(tsumo(winner, HandValue(han=1, fu=30)), facts=WinFacts(penalties=(penalty,))))


@pytest.mark.parametrize("payer", [2.0, "2", True])
def test_a_hand_penalty_payer_that_is_no_whole_number_is_no_seat(payer: object) -> None:
    match = started()
    with pytest.raises(UnknownSeat, match="hand penalty payer: there is no seat"):
        match.record(_with_hand_penalty(payer))
    assert match.state.scores == started().state.scores


@pytest.mark.parametrize("amount", [1000.0, True])
def test_a_hand_penalty_amount_that_is_no_whole_number_is_refused(amount: object) -> None:
    with pytest.raises(OutOfBounds, match=r"hand penalty amount: .* is not a whole number"):
        started().record(_with_hand_penalty(1, amount))


@pytest.mark.parametrize("seat", [1.0, True, "1"])
def test_a_penalised_seat_that_is_no_whole_number_is_no_seat(seat: object) -> None:
    match = started()
    with pytest.raises(UnknownSeat, match="penalised seat: there is no seat"):
        match.penalise(Penalty(seat=seat, amount=8000))  # type: ignore[arg-type]
    assert match.state.scores == started().state.scores


@pytest.mark.parametrize("scores", [(0, 10.7, 20), (0, True, 20)])
def test_a_loser_score_that_is_no_whole_number_is_never_rounded(scores: tuple[object, ...]) -> None:
    win = Win(winner=1, value=HandValue(han=1, fu=30), loser_scores=scores)  # type: ignore[arg-type]
    assert win.loser_scores == scores
    with pytest.raises(OutOfBounds, match=r"loser score: .* is not a whole number"):
        started().record(won(win))


@pytest.mark.parametrize(
    ("field", "value", "refusal"),
    [
        ("hand_number", 1.0, RuleViolation),
        ("hand_number", True, RuleViolation),
        ("round_wind", 0.0, RuleViolation),
        ("dealer", 1.0, UnknownSeat),
        ("dealer", True, UnknownSeat),
    ],
)
def test_an_opening_table_s_hand_round_and_dealer_are_whole_numbers(
    field: str, value: object, refusal: type[Exception]
) -> None:
    opening = TableState(players=4, scores=(25000,) * 4, **{field: value})  # type: ignore[arg-type]
    with pytest.raises(refusal, match="opening"):
        Match.start("m", ["A", "B", "C", "D"], load_preset("tenhou"), opening=opening)
