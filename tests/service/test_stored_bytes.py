"""honba's mapper writes every event as the event library's mapper writes it, byte for byte, with
``orjson`` where that gives the same bytes (``HonbaMapper.to_stored_event``); the event digests of an
import, written by ``orjson`` too, are the canonical JSON's (``domain.integrity.event_digest``)."""

from __future__ import annotations

import dataclasses
import hashlib
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType
from typing import Any
from uuid import UUID

import eventsourcing.domain as library
import orjson
import pytest
from conftest import CORPUS, compiled, watched_where_interpreted
from eventsourcing.persistence import Mapper, StoredEvent

import domain.match as match_module
import replay.store.mapper as mapper_module
from domain import integrity
from domain.integrity import canonical, event_content, event_digest, plain
from domain.match import Match
from domain.rules import Ruleset, load_preset
from domain.values import ExhaustiveDraw, Penalty
from replay.formats.detect import read_games, read_log, read_source
from replay.service.imports.batch import import_paths
from replay.service.imports.importing import match_from_log
from replay.service.imports.storing import prepare
from replay.store.application import HonbaApp, mapper_for
from replay.store.identity import GameIdentity
from replay.store.mapper import HonbaMapper
from replay.store.seal import Seal


@pytest.fixture(scope="module")
def mapper() -> HonbaMapper:
    app = HonbaApp.open(":memory:")
    found = mapper_for(app.mapper_settings())
    app.close()
    assert isinstance(found, HonbaMapper)
    return found


def _library(mapper: HonbaMapper, event: Any) -> StoredEvent:
    """The event as the event library's own mapper writes it."""
    return Mapper.to_stored_event(mapper, event)


def _corpus_events() -> list[Any]:
    """Every event an import of part of the corpus stores: its matches', seals' and identities'."""
    paths = sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))[:40]
    others = ("mjx-project-mjx", "tsubakisakura-mjlog2json", "equim-chan-mjai-reviewer", "ledenel-auto-white-reimu")
    for folder in others:
        paths += sorted(p for p in (CORPUS / folder).rglob("*") if p.is_file())[:15]
    events: list[Any] = []
    for path in paths:
        try:
            games = read_log(path)
        except Exception:  # a file of the corpus no reader takes (its notes, its unreadable samples)
            continue
        for game in games:
            try:
                match = match_from_log(game)
            except Exception:  # a log the rules refuse: nothing of it is stored
                continue
            events += match.pending_events
            events += _seal_and_identity(match)
    return events


def _seal_and_identity(match: Match) -> list[Any]:
    """The seal's and the identity's events of a match, as ``prepare`` makes them."""
    seal = Seal.open(match.id)
    seal.seal(match.version, match.head)
    return [*seal.collect_events(), *GameIdentity.claim("0" * 64, match.key).collect_events()]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
def test_every_event_of_the_corpus_s_imports_is_stored_as_the_library_writes_it(mapper: HonbaMapper) -> None:
    events = _corpus_events()
    assert len(events) > 1000
    fast = 0
    for event in events:
        assert mapper.to_stored_event(event) == _library(mapper, event)
        fast += mapper._state_bytes(event) is not None
        # And its digest is the canonical JSON's, as before orjson wrote it.
        assert event_digest(event) == hashlib.sha256(canonical(event_content(event))).hexdigest()
    # orjson writes (nearly) every one of them: the comparison above is of two encoders, not one.
    assert fast >= 0.99 * len(events)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
def test_a_prepared_match_holds_the_library_s_rows(mapper: HonbaMapper) -> None:
    (game,) = read_log(sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))[0])
    match = match_from_log(game)
    events = list(match.pending_events)
    prepared = prepare(match, mapper, from_log=True)
    assert prepared.records[: len(events)] == tuple(_library(mapper, event) for event in events)


@pytest.mark.parametrize(
    "source",
    [
        {"weight": 1e-05},
        {"weight": float("nan"), "more": [float("inf")]},
        {"id": [UUID(int=3)]},
        {"when": datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=UTC)},
        {3: "a key not text", "big": 2**70},
        {"text": '東\n"\\\x01\u2028', "looks": "1e-5 0.5 null 00000000-0000-0000-0000-000000000003"},
    ],
)
def test_values_orjson_writes_otherwise_are_stored_as_the_library_writes_them(
    mapper: HonbaMapper, source: dict[Any, Any]
) -> None:
    match = Match.start("m", ["a", "b", "c", "d"], load_preset("tenhou"), source=source)
    match.record(ExhaustiveDraw(ready=(0,)))
    for event in match.pending_events:
        assert mapper.to_stored_event(event) == _library(mapper, event)
        assert event_digest(event) == hashlib.sha256(canonical(event_content(event))).hexdigest()
    # What the library writes of such a source is read back as it was.
    start = mapper.to_domain_event(mapper.to_stored_event(match.pending_events[0]))
    assert start.source == Mapper.to_domain_event(mapper, _library(mapper, match.pending_events[0])).source


def test_a_value_the_library_refuses_is_refused_alike(mapper: HonbaMapper) -> None:
    """A value no transcoding writes (a mapping that is not a dict: the digest takes it as one): the
    library's error, from the library's own encoding."""
    match = Match.start("m", ["a", "b", "c", "d"], load_preset("tenhou"), source={"m": MappingProxyType({"a": 1})})
    (started,) = match.pending_events
    with pytest.raises(TypeError) as library:
        _library(mapper, started)
    with pytest.raises(type(library.value)):
        mapper.to_stored_event(started)


def _rows_of_an_import(folder: Path, db: Path) -> list[tuple[Any, ...]]:
    app = HonbaApp.open(str(db))
    try:
        run = import_paths(app, [folder], pool=None)
    finally:
        app.close()
    assert run.stored > 10
    with sqlite3.connect(db) as connection:
        return list(connection.execute("SELECT * FROM stored_events ORDER BY originator_id, originator_version"))


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
@pytest.mark.skipif(
    compiled(integrity),
    reason="a compiled import calls exact_canonical directly: the standard encoder cannot be put in orjson's "
    "place; each event's row is compared with the library's own (every event of the corpus's imports)",
)
def test_an_import_writes_the_rows_the_standard_encoders_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same logs imported with orjson's bytes and with the standard encoder's alone (the event
    library's mapper, ``canonical`` for every digest), the clock frozen: the very same rows."""
    frozen = datetime(2026, 1, 2, 3, 4, 5, 123456, tzinfo=UTC)
    for cls in list(vars(library).values()):
        if isinstance(cls, type) and "create_timestamp" in vars(cls):
            monkeypatch.setattr(cls, "create_timestamp", staticmethod(lambda: frozen))
    folder = tmp_path / "logs"
    folder.mkdir()
    for path in sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))[:30]:
        (folder / path.name).write_bytes(path.read_bytes())
    fast = _rows_of_an_import(folder, tmp_path / "fast.sqlite")
    monkeypatch.setattr(HonbaMapper, "to_stored_event", Mapper.to_stored_event)
    monkeypatch.setattr(integrity, "exact_canonical", lambda data, exact=None: canonical(data))
    # Every digest from the event's content alone (not the fact's data its command made already).
    monkeypatch.setattr(
        match_module,
        "event_digest",
        lambda event, known=None: hashlib.sha256(canonical(event_content(event))).hexdigest(),
    )
    assert _rows_of_an_import(folder, tmp_path / "standard.sqlite") == fast


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
def test_a_match_prepared_with_its_view_documents_holds_the_library_s_rows(mapper: HonbaMapper) -> None:
    """With the view's documents (``view=True``), each fact's plain data is made once and shared by the
    stored row and the documents: the rows are still the library's, byte for byte."""
    for log in sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))[:3]:
        (game,) = read_log(log)
        match = match_from_log(game)
        events = list(match.pending_events)
        assert any(isinstance(event, Match.Recorded) for event in events)
        prepared = prepare(match, mapper, from_log=True, view=True)
        assert prepared.documents is not None
        assert prepared.records[: len(events)] == tuple(_library(mapper, event) for event in events)


def _hand_events() -> list[Any]:
    match = Match.start("m", ["a", "b", "c", "d"], load_preset("tenhou"))
    match.record(ExhaustiveDraw(ready=(0,)))
    match.record(ExhaustiveDraw(ready=(1, 2)), client_key="東")
    match.penalise(Penalty(seat=2, amount=12000, note="東"))
    return list(match.pending_events)[1:]


# Whether nothing is scanned is seen by spies set on ``_suspect``, ``_exactly_plain`` and the mapper's
# ``json_exactly``, which a compiled ``domain.integrity`` and mapper call directly: checked where they
# run interpreted; the rows, everywhere.
SCANS_WATCHED = watched_where_interpreted(
    "a compiled domain.integrity and mapper call _suspect, _exactly_plain and json_exactly directly",
    integrity,
    mapper_module,
)


@SCANS_WATCHED
def test_a_hand_s_event_is_stored_without_a_scan_of_its_bytes(
    mapper: HonbaMapper, monkeypatch: pytest.MonkeyPatch, watched: bool
) -> None:
    """Its attributes are text, None, a time and a fact of a class whose field types hold no float
    (``domain.codec.exact_data``): one call of orjson writes its row, nothing of it is looked at."""
    events = _hand_events()
    expected = [_library(mapper, event) for event in events]

    def no_scan(*args: Any) -> bool:
        raise AssertionError("the event's bytes were scanned")

    if watched:
        monkeypatch.setattr(integrity, "_suspect", no_scan)
        monkeypatch.setattr(integrity, "_exactly_plain", no_scan)
    assert [mapper.to_stored_event(event) for event in events] == expected


def _sealed() -> Any:
    match = Match.start("sealed", ["Ann", "Ben", "Cho", "Dai"], load_preset("tenhou"))
    seal = Seal.open(match.id)
    seal.seal(match.version, match.head)
    sealed = seal.collect_events()[-1]
    assert type(sealed) is Seal.Sealed
    return sealed


def test_a_seal_s_event_is_stored_as_the_library_writes_it(mapper: HonbaMapper) -> None:
    """Every recorded hand saves one."""
    sealed = _sealed()
    assert mapper.to_stored_event(sealed) == _library(mapper, sealed)


@pytest.mark.skipif(
    compiled(mapper_module),
    reason="a compiled mapper calls _sealed_state directly: the path is seen by no spy, and the bytes "
    "are the same either way (test_a_seal_s_event_is_stored_as_the_library_writes_it)",
)
def test_a_seal_s_event_is_stored_as_the_library_writes_it_its_attributes_read_by_name(
    mapper: HonbaMapper, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its time, position and head read by name (``_sealed_state``), not in the loop that asks each
    attribute what it is, which writes the same bytes: nothing outside the mapper tells the two apart,
    so this is seen only where the mapper is interpreted."""
    sealed = _sealed()
    expected = _library(mapper, sealed)
    looped: list[Any] = []
    monkeypatch.setattr(mapper_module, "_sealed_state", lambda *args: looped.append(1))
    assert mapper.to_stored_event(sealed) == expected and looped == [1]


def test_a_fact_with_a_number_orjson_refuses_is_stored_as_the_library_writes_it(mapper: HonbaMapper) -> None:
    (event, *_) = _hand_events()
    big = dataclasses.replace(event, fact=ExhaustiveDraw(ready=(2**70,)))
    assert mapper.to_stored_event(big) == _library(mapper, big)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
@SCANS_WATCHED
def test_a_new_match_s_start_and_end_rows_are_written_without_a_scan(
    mapper: HonbaMapper, monkeypatch: pytest.MonkeyPatch, watched: bool
) -> None:
    """The lists and dicts of a new match's start (its rules, its source with every tile of the game,
    its players, its opening) and of its end (final scores and points) were found exact by their
    event's digest (``domain.integrity.take_exact``): their rows are one call of orjson, nothing
    scanned or written attribute by attribute again, and the library's bytes all the same."""
    path = sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))[0]
    (game,) = read_games(read_source(path), file=str(path), tiles=True)
    match = match_from_log(game)
    events = list(match.pending_events)
    start, end = events[0], events[-1]
    assert isinstance(start, Match.Started) and isinstance(end, Match.MatchEnded)
    kept = integrity._EXACT_VALUES
    assert "tiles" in start.source and all(kept[id(v)][0] is v for v in (start.rules, start.source, start.players))
    assert kept[id(end.final_points)][0] is end.final_points and not integrity.take_exact(dict(start.source))
    # Written once: not hashed into the clean bytes kept for a match's rules (nor pushing them out).
    source_bytes = kept[id(start.source)][1]
    assert 512 <= len(source_bytes) <= 16384 and source_bytes not in integrity._CLEAN
    expected = [_library(mapper, event) for event in (start, end)]

    def no_scan(*args: Any) -> Any:
        raise AssertionError("the row's values were scanned again")

    if watched:
        monkeypatch.setattr(mapper_module, "json_exactly", no_scan)
        monkeypatch.setattr(integrity, "_suspect", no_scan)
        monkeypatch.setattr(integrity, "_exactly_plain", no_scan)
    assert [mapper.to_stored_event(event) for event in (start, end)] == expected
    # Each is let go as its row takes it: a source holds every tile of its game.
    assert all(kept.get(id(v)) is None for v in (start.rules, start.source, end.final_points))


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
def test_a_new_match_s_rules_are_written_once_for_its_ruleset_digest_reference_and_content(
    mapper: HonbaMapper, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new match's rule values are written and checked once (``Match.start``: ``written_for_event``),
    and not at all where rules of the same other values started a match before in this process
    (``domain.match.start_values``: their bytes with this description's): its ``Ruleset`` is found by
    those bytes, its start's digest covers them, its standings reference (``DocumentView.rules_ref``)
    and its content's rules digest (``rules_digest``) take them again; the same reference, digest and
    rows either way.

    Counted where the bytes are written, ``orjson.dumps`` (an attribute of its module, looked up at
    each call whether the writers run compiled or not): a spy on ``json_exactly`` is not reached from
    compiled callers, which call it directly."""
    import domain.match as match_module

    # No rules started before in this process (whatever ran before this test): the first match writes
    # its rules, the second of the same room's rules (the same log read again, its own description
    # object) puts them together from the first's.
    monkeypatch.setattr(match_module, "_FRAMES", {})
    path = sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))[1]
    written: list[tuple[Any, int]] = []
    original = orjson.dumps

    def counted(data: Any, default: Any = None, option: int = 0) -> bytes:
        written.append((data, option))
        return original(data, default, option)

    monkeypatch.setattr(orjson, "dumps", counted)
    for expected_writes in ([integrity.SORTED], []):
        (game,) = read_games(read_source(path), file=str(path), tiles=True)
        match = match_from_log(game)
        start = match.pending_events[0]
        prepared = prepare(match, mapper, from_log=True, view=True)
        assert [option for data, option in written if data is start.rules] == expected_writes
        assert prepared.content.rules == integrity.digest_of(plain(Ruleset.from_stored(start.rules).to_dict()))
        assert match.rules == Ruleset.from_stored(start.rules)
        assert prepared.documents is not None
        assert prepared.records[0] == _library(mapper, start)
        assert event_digest(start) == hashlib.sha256(canonical(event_content(start))).hexdigest()


class _Text(str):
    """Text of a subclass of ``str``: the library writes it as text all the same."""


def test_a_fact_s_event_with_a_client_key_or_text_of_a_subclass_is_stored_as_the_library_writes_it(
    mapper: HonbaMapper,
) -> None:
    """A hand's, a deal pass's and a penalty's event are written by name (``_fact_event_state``) where
    each attribute is of the type it checks, else attribute by attribute: the library's bytes either way."""
    match = Match.start("m", ["a", "b", "c", "d"], load_preset("tenhou"))
    match.record(ExhaustiveDraw(ready=(1,)), client_key="phone-1 東")
    match.penalise(Penalty(seat=2, amount=12000), client_key="phone-2")
    events = list(match.pending_events[1:])
    assert {type(event) for event in events} >= {Match.HandDrawn, Match.DealPassed, Match.PenaltyApplied}
    odd = [
        dataclasses.replace(events[0], client_key=_Text("phone-1")),
        dataclasses.replace(events[0], prior=_Text(events[0].prior)),
        dataclasses.replace(events[0], client_key=3),
    ]
    for event in [*events, *odd]:
        assert mapper.to_stored_event(event) == _library(mapper, event)
        # And its digest is the canonical JSON's, its fields by name (``_exact_content``) or by the loop.
        assert event_digest(event) == hashlib.sha256(canonical(event_content(event))).hexdigest()
    # The first events by name, the odd ones (text of a subclass, a key not text) by the loop.
    types = mapper.transcoder.types
    assert all(mapper_module._fact_event_state(vars(event), types, {}) is not None for event in events)
    assert all(mapper_module._fact_event_state(vars(event), types, {}) is None for event in odd)
