"""The store reads honba's own events only (docs/architecture.md: a topic of honba's list, an id in
the one spelling the store writes, each field of the type its event declares, a start row seating a
table of three or four different players): a row changed behind honba's back is refused as a
``ForeignRow`` that says what is wrong, never read as something else. Rows made from a real match's
events with the store's own mapper, one thing changed in each, in memory."""

from __future__ import annotations

import dataclasses
import datetime
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import TENHOU, hv, ron, won
from eventsourcing.persistence import StoredEvent

from domain.match import Match
from domain.values import ExhaustiveDraw
from replay.store.application import HonbaApp
from replay.store.checkpoint import CHECKPOINTS_ID, Checkpoint
from replay.store.mapper import ForeignRow, HonbaMapper

PLAYERS = ["Ann", "Ben", "Cho", "Dai"]


@pytest.fixture(scope="module")
def mapper() -> Iterator[HonbaMapper]:
    app = HonbaApp.open(":memory:")
    assert isinstance(app.mapper, HonbaMapper)
    yield app.mapper
    app.close()


@pytest.fixture(scope="module")
def rows(mapper: HonbaMapper) -> dict[str, StoredEvent]:
    """A match's rows by event kind: started, a win recorded, corrected to a draw, ended early."""
    match = Match.start("m1", PLAYERS, TENHOU)
    match.record(won(ron(0, 1, hv(3, 30))))
    match.amend(2, ExhaustiveDraw(ready=(0,)), by="referee", reason="misread")
    match.end("agreed")
    return {type(event).__name__: mapper.to_stored_event(event) for event in match.collect_events()}


def changed(row: StoredEvent, change: Callable[[dict[str, Any]], object]) -> StoredEvent:
    state = json.loads(row.state)
    change(state)
    return dataclasses.replace(row, state=json.dumps(state).encode())


def refusal(mapper: HonbaMapper, row: StoredEvent) -> str:
    with pytest.raises(ForeignRow) as caught:
        mapper.to_domain_event(row)
    return str(caught.value)


def test_each_row_as_written_reads_back_as_its_event(mapper: HonbaMapper, rows: dict[str, StoredEvent]) -> None:
    # What every refusal below departs from: the rows as the store writes them are whole.
    assert set(rows) == {"Started", "HandWon", "Corrected", "MatchEnded"}
    started = mapper.to_domain_event(rows["Started"])
    assert isinstance(started, Match.Started) and started.players == PLAYERS
    assert mapper.to_domain_event(rows["Corrected"]).replacement == ExhaustiveDraw(ready=(0,))


def test_a_row_under_a_topic_of_no_honba_event_is_refused(mapper: HonbaMapper, rows: dict[str, StoredEvent]) -> None:
    row = dataclasses.replace(rows["HandWon"], topic="os:system")
    assert refusal(mapper, row) == "its topic 'os:system' is not one of honba's events"


def test_a_row_under_an_id_spelled_otherwise_is_refused(mapper: HonbaMapper, rows: dict[str, StoredEvent]) -> None:
    row = dataclasses.replace(rows["HandWon"], originator_id=str(rows["HandWon"].originator_id).upper())
    assert "spelled otherwise than honba writes ids" in refusal(mapper, row)


def test_a_start_naming_another_aggregate_is_refused(mapper: HonbaMapper, rows: dict[str, StoredEvent]) -> None:
    row = changed(rows["Started"], lambda state: state.update(originator_topic="os:system"))
    assert refusal(mapper, row) == "it names 'os:system', none of honba's aggregates"


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda s: s.pop("players"), "its 'players' is missing"),
        (lambda s: s.update(players="Ann,Ben,Cho,Dai"), "its 'players' is a str, not list"),
        (lambda s: s.update(players=["Ann", "Ben", "Cho", 4]), "its 'players' is a list, not list"),
        # A table seats three or four players, each once.
        (lambda s: s.update(players=["Ann", "Ben"]), "its players (2, 2 different) are no table's"),
        (lambda s: s.update(players=[*PLAYERS, "Eve"]), "its players (5, 5 different) are no table's"),
        (lambda s: s.update(players=["Ann", "Ben", "Ann", "Dai"]), "its players (4, 3 different) are no table's"),
    ],
)
def test_a_start_that_seats_no_table_is_refused(
    mapper: HonbaMapper, rows: dict[str, StoredEvent], change: Callable[[dict[str, Any]], object], said: str
) -> None:
    assert refusal(mapper, changed(rows["Started"], change)) == f"it is not a whole Started: {said}"


def test_a_win_row_holding_a_draw_is_refused(mapper: HonbaMapper, rows: dict[str, StoredEvent]) -> None:
    row = changed(rows["HandWon"], lambda s: s.update(fact={"_type_": "honba.ExhaustiveDraw", "_data_": {}}))
    assert refusal(mapper, row) == (
        "it is not a whole HandWon: its fact is a ExhaustiveDraw, not one of the facts a HandWon holds"
    )


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda s: s.update(replacement={"ready": [0]}), "its replacement is a dict, not a fact"),
        (lambda s: s.update(target="2"), "its 'target' is a str, not int | None"),
        # true is no entry's position, though Python counts a bool as an int.
        (lambda s: s.update(target=True), "its 'target' is a bool, not int | None"),
        # Text or nothing: each checked by one isinstance since issue 36's fifth round (any() before).
        (lambda s: s.update(client_key=7), "its 'client_key' is a int, not str | None"),
        (lambda s: s.update(client_key=["k"]), "its 'client_key' is a list, not str | None"),
    ],
)
def test_a_correction_of_no_fact_or_position_is_refused(
    mapper: HonbaMapper, rows: dict[str, StoredEvent], change: Callable[[dict[str, Any]], object], said: str
) -> None:
    assert refusal(mapper, changed(rows["Corrected"], change)) == f"it is not a whole Corrected: {said}"


def test_a_voiding_correction_has_no_replacement_and_reads(mapper: HonbaMapper, rows: dict[str, StoredEvent]) -> None:
    # A void replaces the entry by nothing: no replacement is a whole correction.
    event = mapper.to_domain_event(changed(rows["Corrected"], lambda s: s.update(replacement=None)))
    assert event.replacement is None and event.target == 2


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda s: s.update(final_points=[True, 0.0, 0.0, 0.0]), "its 'final_points' is a list, not list"),
        (lambda s: s.update(final_points="45.0"), "its 'final_points' is a str, not list"),
        (lambda s: s.update(final_scores=[25000.5, 25000, 25000, 25000]), "its 'final_scores' is a list, not list"),
        (lambda s: s.update(leftover=False), "its 'leftover' is a bool, not int"),
    ],
)
def test_an_end_with_scores_or_points_of_another_type_is_refused(
    mapper: HonbaMapper, rows: dict[str, StoredEvent], change: Callable[[dict[str, Any]], object], said: str
) -> None:
    assert refusal(mapper, changed(rows["MatchEnded"], change)) == f"it is not a whole MatchEnded: {said}"


def test_points_written_as_whole_numbers_are_points(mapper: HonbaMapper, rows: dict[str, StoredEvent]) -> None:
    # JSON has one kind of number: 45 read for 45.0 is the same points, not a row changed.
    event = mapper.to_domain_event(changed(rows["MatchEnded"], lambda s: s.update(final_points=[45, 5, -15, -35])))
    assert event.final_points == [45, 5, -15, -35]


def test_a_checkpoint_whose_leaves_are_no_list_is_refused(mapper: HonbaMapper) -> None:
    # A checkpoint's leaves are a list (a stream's id, position and head digest each), whatever each holds.
    taken = Checkpoint.Taken(
        originator_id=CHECKPOINTS_ID,
        originator_version=1,
        timestamp=datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC),
        upto=1,
        leaves=[["stream", 3, "ab"]],
        size=1,
        frontier=["ab"],
        root="ab",
        prior="",
    )
    row = mapper.to_stored_event(taken)
    assert mapper.to_domain_event(row).leaves == [["stream", 3, "ab"]]
    said = refusal(mapper, changed(row, lambda s: s.update(leaves="stream 3 ab")))
    assert said == "it is not a whole Taken: its 'leaves' is a str, not list"
