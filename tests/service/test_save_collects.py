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
