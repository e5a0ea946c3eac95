"""A save collects an aggregate's events without the event library's protocol checks, and stores the same.

``HonbaApp.save`` collects a match's and its seal's pending events itself (``_Collected``): the
library's ``ProcessingEvent.collect_events`` asks two ``runtime_checkable`` protocols of each object
saved, each ``isinstance`` walking the protocol's members (issue 36, sixth round: about 5 % of a
recorded hand's CPU in the server). What is stored is the same: the events, in order, and the
aggregates the save names. Nothing is timed: the protocols' checks are counted.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import eventsourcing.application as library
import pytest
from eventsourcing.application import ProcessingEvent

from domain.match import match_id
from domain.rules import load_preset
from domain.values import AbortiveDraw
from replay.service.recording import recording
from replay.store.application import HonbaApp, _Collected

KEY = "t1"
PLAYERS = ("Ann", "Ben", "Cho", "Dai")


def test_a_recorded_hand_is_saved_without_asking_the_library_s_protocols(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = HonbaApp.open(str(tmp_path / "store.sqlite"))
    try:
        recording.start_match(app, KEY, PLAYERS, load_preset("tenhou"))
        asked: list[str] = []
        for name in ("DomainEventProtocol", "CollectEventsProtocol"):
            protocol = getattr(library, name)

            class Counting(type):
                def __instancecheck__(cls, obj: Any, name: str = name, protocol: Any = protocol) -> bool:
                    asked.append(name)
                    return isinstance(obj, protocol)

            monkeypatch.setattr(library, name, Counting(name, (), {}))
        before = app.load(KEY).match.version
        recording.record(app, KEY, AbortiveDraw("four_winds"))
        assert asked == []
        assert app.load(KEY).match.version == before + 1
    finally:
        app.close()


def test_the_events_collected_are_the_library_s(tmp_path: Path) -> None:
    app = HonbaApp.open(str(tmp_path / "store.sqlite"))
    try:
        recording.start_match(app, KEY, PLAYERS, load_preset("tenhou"))
        loaded = app.load(KEY)
        loaded.match.record(AbortiveDraw("four_winds"))
        loaded.seal.seal(loaded.match.version, loaded.match.head)
        mine, theirs = _Collected(), ProcessingEvent()
        match, seal = copy.deepcopy((loaded.match, loaded.seal))
        mine.collect_events(loaded.match, None, loaded.seal, client="c1")
        theirs.collect_events(match, None, seal, client="c1")
        assert [(e.originator_id, e.originator_version, type(e)) for e in mine.events] == [
            (e.originator_id, e.originator_version, type(e)) for e in theirs.events
        ]
        assert len(mine.events) == 2 and mine.events[0].originator_id == match_id(KEY)
        assert list(mine.aggregates) == list(theirs.aggregates) == [match.id, seal.id]
        assert mine.saved_kwargs == theirs.saved_kwargs == {"client": "c1"}
    finally:
        app.close()


def test_a_recorded_hand_s_fact_is_made_into_data_once_and_its_rows_are_the_library_s(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The save writes each fact's row from the data its command made for the event's digest
    (``_Collected.known``, ``HonbaApp._record``; issue 36, eighteenth round): the fact is made into
    data once a hand, and the rows and recordings are those the library's ``_record`` makes."""
    import domain.match
    import replay.store.transcoding

    app = HonbaApp.open(str(tmp_path / "store.sqlite"))
    try:
        recording.start_match(app, KEY, PLAYERS, load_preset("tenhou"))
        made: list[Any] = []
        to_data = domain.codec.to_data

        def counted(value: Any) -> Any:
            made.append(value)
            return to_data(value)

        monkeypatch.setattr(domain.match, "to_data", counted)
        monkeypatch.setattr(replay.store.transcoding, "to_data", counted)
        recording.record(app, KEY, AbortiveDraw("four_winds"), client_key="k1")
        assert [type(value) for value in made] == [AbortiveDraw]
        monkeypatch.undo()

        loaded = app.load(KEY)
        loaded.match.record(AbortiveDraw("four_winds"), client_key="k2")
        loaded.seal.seal(loaded.match.version, loaded.match.head)
        mine, theirs = _Collected(), ProcessingEvent()
        mine.collect_events(*copy.deepcopy((loaded.match, loaded.seal)))
        theirs.collect_events(loaded.match, loaded.seal)
        assert mine.known
        ours = HonbaApp._record(app, mine)
        # The library's, on a copy of the store's rows: the same rows written and answered.
        written = [(r.notification.originator_version, r.notification.topic, r.notification.state) for r in ours]
        expected = [
            (stored.originator_version, stored.topic, stored.state)
            for stored in map(app.mapper.to_stored_event, theirs.events)
        ]
        assert written == expected
        assert [type(r.domain_event) for r in ours] == [type(e) for e in theirs.events]
        assert app.load(KEY).match.version == loaded.match.version
    finally:
        app.close()


def test_a_match_s_events_are_collected_in_order_and_let_go() -> None:
    """``Match.collect_events`` (issue 36, eighteenth round: the list taken at once, not popped from
    its front): the events made, in order, and nothing pending after, nor their facts' data."""
    from domain.match import Match
    from domain.values import ExhaustiveDraw

    match = Match.start(KEY, PLAYERS, load_preset("tenhou"))
    match.record(ExhaustiveDraw(ready=(1,)))  # the dealer not ready: the hand, then a deal pass
    made = list(match.pending_events)
    assert [type(event).__name__ for event in made] == ["Started", "HandDrawn", "DealPassed"]
    collected = match.collect_events()
    assert [id(event) for event in collected] == [id(event) for event in made]
    assert match.pending_events == [] and match.pending_data == {}
    assert match.collect_events() == []
