"""An import's seal and game identity events are made without their aggregates (issue 36, round
twelve), and its files' records too (round nineteen): the same events ``Seal.open``/``seal``,
``GameIdentity.claim`` and ``ImportedFile.record`` record, the same rows."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from uuid import UUID, uuid4

import eventsourcing.domain as library
import pytest
from eventsourcing.domain import Aggregate

from domain.match import Match
from domain.rules import Ruleset
from domain.values import ExhaustiveDraw
from replay.service.imports.storing import prepare
from replay.store.application import HonbaApp
from replay.store.identity import GameIdentity, ImportedFile
from replay.store.imported import imported_file, record_imported
from replay.store.seal import Seal, new_seal_events, seal_from

FROZEN = datetime(2026, 1, 2, 3, 4, 5, 123456, tzinfo=UTC)


def aggregates_made(monkeypatch: pytest.MonkeyPatch) -> list[type]:
    """From now on, the class of every aggregate the library's ``Aggregate._create`` makes, in order."""
    made: list[type] = []
    library_create = Aggregate._create.__func__  # type: ignore[attr-defined]

    def counted(cls: Any, *args: Any, **kwargs: Any) -> Any:
        made.append(cls)
        return library_create(cls, *args, **kwargs)

    monkeypatch.setattr(Aggregate, "_create", classmethod(counted))
    return made


@pytest.fixture
def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every event stamped ``FROZEN`` (as benchmarks/store_dump.py freezes the library's clock)."""
    for cls in list(vars(library).values()):
        if isinstance(cls, type) and "create_timestamp" in vars(cls):
            monkeypatch.setattr(cls, "create_timestamp", staticmethod(lambda: FROZEN))


def _fields(events: list[Any]) -> list[tuple[type, dict[str, Any]]]:
    return [(type(event), dict(vars(event))) for event in events]


@pytest.mark.usefixtures("frozen_clock")
@pytest.mark.parametrize(("position", "head"), [(3, "ab" * 32), (0, "")])
def test_new_seal_events_are_the_aggregates(position: int, head: str) -> None:
    match_id = uuid4()
    seal = Seal.open(match_id)
    seal.seal(position, head)
    made = new_seal_events(match_id, position, head)
    assert _fields(made) == _fields(list(seal.collect_events()))
    replayed = seal_from(made)
    assert replayed is not None and (replayed.id, replayed.position, replayed.head) == (seal.id, position, head)


@pytest.mark.usefixtures("frozen_clock")
def test_claim_events_are_the_aggregates() -> None:
    claimed = GameIdentity.claim("f" * 64, "2018011712gm-0009-0000-84f0883b")
    made = GameIdentity.claim_events("f" * 64, "2018011712gm-0009-0000-84f0883b")
    assert _fields(made) == _fields(list(claimed.collect_events()))


@pytest.mark.usefixtures("frozen_clock")
def test_a_file_s_record_is_the_aggregate_s_event() -> None:
    games = [["2018011712gm-0009-0000-84f0883b", ["A", "B", "C", "D"], "2018011712gm-0009-0000-84f0883b"]]
    made = ImportedFile.recorded("e" * 64, games, ["g2: three players"], ["hand 1: fu: the log has 30"])
    recorded = ImportedFile.record("e" * 64, games, ["g2: three players"], ["hand 1: fu: the log has 30"])
    assert _fields([made]) == _fields(list(recorded.collect_events()))


def test_an_import_records_its_files_without_an_aggregate_and_finds_them_again(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, frozen_clock: None
) -> None:
    """The rows ``record_imported`` writes for the records an import makes (``ImportedFile.recorded``)
    are those of the aggregate's event, and a record is read back as that event, no aggregate made
    either way (a re-import looks every file up)."""
    store, other = HonbaApp.open(str(tmp_path / "x.db")), HonbaApp.open(str(tmp_path / "y.db"))
    try:
        games = [["log-1", ["A", "B", "C", "D"], "log-1"]]
        expected = [
            other.mapper.to_stored_event(e) for e in ImportedFile.record("d" * 64, games, [], []).collect_events()
        ]
        made = aggregates_made(monkeypatch)
        record_imported(store, [ImportedFile.recorded("d" * 64, games, [], [])])
        found = imported_file(store, "d" * 64)
        assert made == []
        assert store.recorder.select_events(expected[0].originator_id) == expected
        assert found is not None and (found.digest, found.games, found.unsupported, found.warnings) == (
            "d" * 64,
            games,
            [],
            [],
        )
    finally:
        store.close()
        other.close()


def test_prepare_makes_no_aggregate_but_the_match(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, frozen_clock: None
) -> None:
    """``prepare`` makes the seal's and the identity's events without ``Aggregate._create`` (the
    library's, which built a Seal and a GameIdentity for every match an import stores), and its rows
    are those of the aggregates' events."""
    match = Match.start("table-1", ["A", "B", "C", "D"], Ruleset(), {"format": "test"}, None)
    match.record(ExhaustiveDraw(ready=(0,)))
    store = HonbaApp.open(str(tmp_path / "x.db"))
    try:
        made = aggregates_made(monkeypatch)
        prepared = prepare(match, store.mapper, from_log=True)
        assert made == []
        topics = [row[2] for row in prepared.rows]
        assert topics[-3:] == [
            "replay.store.seal:Seal.Opened",
            "replay.store.seal:Seal.Sealed",
            "replay.store.identity:GameIdentity.Claimed",
        ]
        seal = Seal.open(match.id)
        seal.seal(prepared.position, prepared.head)
        assert prepared.fingerprint is not None
        claimed = GameIdentity.claim(prepared.fingerprint, match.key)
        expected = [*seal.collect_events(), *claimed.collect_events()]
        stored = [store.mapper.to_stored_event(event) for event in expected]
        assert [(s.originator_id, s.originator_version, s.topic, s.state) for s in stored] == [
            (UUID(row[0]), row[1], row[2], row[3]) for row in prepared.rows[-3:]
        ]
    finally:
        store.close()


@pytest.mark.usefixtures("frozen_clock")
def test_seal_makes_the_library_s_event_and_state() -> None:
    """``Seal.seal`` makes its event in one step (issue 36, eighteenth round): the event, the seal's
    version, time, position and head are those the library's ``trigger_event`` makes."""
    match_id = uuid4()
    mine, theirs = Seal.open(match_id), Seal.open(match_id)
    for seal in (mine, theirs):
        seal.collect_events()
    for position, head in ((1, "ab" * 32), (2, "cd" * 32)):
        mine.seal(position, head)
        Aggregate.trigger_event(theirs, Seal.Sealed, position=position, head=head)
        assert _fields(list(mine.collect_events())) == _fields(list(theirs.collect_events()))
        assert vars(mine) == vars(theirs)
    mine.seal(2, "cd" * 32)  # the same end again: nothing new
    assert list(mine.collect_events()) == []
