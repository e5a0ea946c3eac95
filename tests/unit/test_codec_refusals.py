"""The canonical plain data of the domain's values (domain/codec.py) read back: what ``to_data``
wrote is the value again, and data changed in any way is refused with a ``DecodeError`` that names
where (the field's path) and what was expected, never read as another value: no 3.0 for a 3, no
"3" or true for a whole number, no text for a list, no field of another value, no tag of no fact.
In memory, each in microseconds."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from conftest import hv, ron, tsumo, won

from domain.codec import DecodeError, fact_from_data, fact_to_data, from_data, to_data
from domain.values import (
    AbortiveDraw,
    AbortKind,
    DealPass,
    ExhaustiveDraw,
    MatchEnd,
    Penalty,
    PenaltyShare,
    TableState,
    Win,
    WinFacts,
    WinResult,
)

# A double ron (Ann and Cho on Ben's discard), Ann's with its facts and the losers' scores written down.
WIN = WinResult(
    wins=(
        Win(winner=0, value=hv(3, 30), discarder=1, facts=WinFacts(discards=("1m", "9p")), loser_scores=(3900,)),
        ron(2, 1, hv(limit="mangan")),
    ),
    riichi=(0,),
)
FACTS = [
    WIN,
    won(tsumo(3, hv(1, 30))),
    ExhaustiveDraw(ready=(0, 2), riichi=(2,)),
    AbortiveDraw(kind=AbortKind("four_winds")),
    Penalty(seat=1, amount=8000, share=PenaltyShare.TO_OTHERS, note="false win"),
    DealPass(from_dealer=0, to_dealer=1, round_wind=0, hand_number=2),
    MatchEnd("agreed"),
]


@pytest.mark.parametrize("fact", FACTS, ids=lambda f: type(f).__name__)
def test_every_fact_reads_back_as_it_was_written(fact: Any) -> None:
    assert fact_from_data(fact_to_data(fact)) == fact


def test_plain_values_are_their_own_data_and_an_enum_is_written_by_value() -> None:
    assert to_data(3) == 3 and to_data("East") == "East" and to_data(None) is None
    assert to_data(AbortiveDraw(kind=AbortKind("four_winds"))) == {"kind": "four_winds"}
    # Fields at their default are left out: a penalty to the others is written without its share.
    assert to_data(Penalty(seat=1, amount=8000)) == {"seat": 1, "amount": 8000}
    assert to_data({"already": "plain"}) == {"already": "plain"}


def changed(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    data = copy.deepcopy(fact_to_data(WIN))
    change(data)
    return data


def value_of_ann(data: dict[str, Any]) -> dict[str, Any]:
    value: dict[str, Any] = data["wins"][0]["value"]
    return value


@pytest.mark.parametrize(
    ("change", "said"),
    [
        # A whole number is written as one: 3.0, "3" or true for 3 han is data changed.
        (lambda d: value_of_ann(d).update(han=3.0), "fact.wins[0].value.han: expected a whole number, got '3.0'"),
        (lambda d: value_of_ann(d).update(han="3"), "fact.wins[0].value.han: expected a whole number, got '3'"),
        (lambda d: value_of_ann(d).update(han=True), "fact.wins[0].value.han: expected a whole number, got 'True'"),
        (lambda d: d["wins"][0].update(loser_scores=3900), "fact.wins[0].loser_scores: expected a list, got int"),
        (
            lambda d: d["wins"][0].update(loser_scores=[3900, False]),
            "fact.wins[0].loser_scores[1]: expected a whole number, got 'False'",
        ),
        (lambda d: d.update(wins="Ann"), "fact.wins: expected a list, got str"),
        (lambda d: d["wins"].__setitem__(1, "Cho"), "fact.wins[1]: expected an object, got str"),
        (lambda d: d["wins"][0].update(colour="red"), "fact.wins[0]: unknown field 'colour'"),
        (
            lambda d: d["wins"][0]["facts"].update(discards=["1m", 9]),
            "fact.wins[0].facts.discards[1]: expected text, got '9'",
        ),
        (lambda d: d.update(type="bonus"), "fact: 'type' must be one of win, draw, abort, penalty, deal_pass, end"),
    ],
)
def test_a_win_changed_behind_honbas_back_is_refused_where_it_was_changed(
    change: Callable[[dict[str, Any]], object], said: str
) -> None:
    with pytest.raises(DecodeError) as caught:
        fact_from_data(changed(change))
    assert str(caught.value) == said


def test_data_that_is_no_tagged_object_is_no_fact() -> None:
    for data in ("win", ["win"], {"wins": []}):
        with pytest.raises(DecodeError, match=r"^fact: 'type' must be one of win, draw, abort"):
            fact_from_data(data)


def test_an_optional_field_written_as_null_is_its_absence() -> None:
    data = changed(lambda d: d["wins"][1].update(discarder=None, liable=None))
    assert fact_from_data(data).wins[1].discarder is None


def test_a_value_its_own_checks_refuse_is_a_decode_error_naming_the_value() -> None:
    # A penalty shared in a way the rules do not know, and points that are not a number.
    with pytest.raises(DecodeError, match=r"^Penalty: 'nobody' is not a valid PenaltyShare$"):
        from_data(Penalty, {"seat": 1, "amount": 8000, "share": "nobody"})
    with pytest.raises(DecodeError, match=r"^TableState: could not convert string to float: 'x'$"):
        from_data(TableState, {"players": 4, "scores": [25000] * 4, "final_points": [1.5, "x"]})
    with pytest.raises(DecodeError, match=r"^TableState.final_points: expected a list, got str$"):
        from_data(TableState, {"players": 4, "scores": [25000] * 4, "final_points": "45.0"})
    with pytest.raises(DecodeError, match=r"^table: expected an object, got list$"):
        from_data(TableState, [4], where="table")
