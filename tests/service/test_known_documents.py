"""A new match's standings documents and rows as an import prepares them (issue 36, twenty-first round).

``match_documents`` gives a new match's own documents (the match, its summary, its figures) as their
text, written by one call of orjson, where how they were made tells that orjson writes them as the
standard encoder does (``projections.standings_view._known_text``): the very text
``projections.views.encoded`` writes, which scans the bytes and walks every float. Anything else is
left to ``encoded``. ``HonbaMapper.rows_known`` writes a match's rows with its settings looked at
once: the rows of the events as the library itself writes them, one by one.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import CORPUS
from eventsourcing.compressor import ZlibCompressor
from eventsourcing.persistence import Mapper

from domain.integrity import canonical
from domain.match import Match
from domain.rules import load_preset
from domain.values import ExhaustiveDraw, Penalty
from projections.standings_view import _known_text, match_documents
from projections.views import encoded
from replay.formats.detect import read_log
from replay.service.imports.importing import match_from_log
from replay.store.application import HonbaApp, mapper_for
from replay.store.identity import GameIdentity
from replay.store.mapper import HonbaMapper
from replay.store.rows import row_of
from replay.store.seal import new_seal_events

TENHOU_LOGS = sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))


def _documents(match: Match) -> dict[tuple[str, str], Any]:
    events = list(match.pending_events)
    scored = (match.state, match.effective_facts(), match.corrected_steps())
    return match_documents(events, match.head, scored, rules=match.rules)


def _as_encoded_writes(match: Match) -> dict[tuple[str, str], Any]:
    """The same documents as ``encoded`` writes their data with the standard encoder alone
    (``canonical``): a document given as text is read back for its data. Independent of the known
    texts (a spy on ``_known_text`` is not reached from a compiled ``match_documents``): text written
    otherwise than the standard encoder writes its data (a float as orjson writes it) is not it."""
    return {
        key: None if data is None else canonical(json.loads(data) if type(data) is str else data).decode()
        for key, data in _documents(match).items()
    }


def _with_a_correction() -> Match:
    match = Match.start("club-1", ["Ann", "Ben", "Cho", "Dai"], load_preset("tenhou"))
    match.record(ExhaustiveDraw(ready=(0,)))
    match.penalise(Penalty(seat=2, amount=12000, note="東"))
    match.void(3, by="Eve (referee)", reason="misread")
    return match


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
def test_a_new_match_s_documents_are_the_text_encoded_writes() -> None:
    known = 0
    for path in TENHOU_LOGS[:12]:
        for game in read_log(path):
            match = match_from_log(game)
            documents = _documents(match)
            assert documents == _as_encoded_writes(match)
            # Its pending events from its start, as an import prepares them: folded as new, alike.
            events = list(match.pending_events)
            scored = (match.state, match.effective_facts(), match.corrected_steps())
            assert match_documents(events, match.head, scored, rules=match.rules, from_start=True) == documents
            known += sum(type(text) is str for (kind, _), text in documents.items() if kind != "rules")
    # Each game's match, summary and figures were written as known, not left to ``encoded``.
    assert known == 3 * 12


def test_a_match_with_a_correction_is_left_to_encoded_and_written_alike() -> None:
    match = _with_a_correction()
    documents = _documents(match)
    (key,) = [key for key in documents if key[0] == "match"]
    assert isinstance(documents[key], dict) and documents[key]["corrections"]
    assert {key: encoded(data) for key, data in documents.items() if data is not None} == {
        key: text for key, text in _as_encoded_writes(match).items() if text is not None
    }


def _stats() -> dict[str, Any]:
    return {
        "_schema": 2,
        "counts": [{"hands": 3, "wins": 1}, {"hands": 3, "wins": 2}],
        "final_points": [25.0, -25.0],
        "finished": True,
        "key": "m",
        "net_scores": [100, -100],
        "places": [1, 2],
        "players": ["Ann", "東"],
        "yaku": [{"立直": 1}, {}],
    }


@pytest.mark.parametrize(
    "change",
    [
        {"final_points": [1e-05, 25.0]},  # orjson writes 0.00001, the standard encoder 1e-05
        {"final_points": [float("nan"), 0.0]},  # orjson writes null
        {"counts": [{"hands": 3.0}, {"hands": 3}]},  # a float where a count is
        {"yaku": [{1: 1}, {}]},  # a key that is not text: orjson refuses it
        {"places": [2**70, 1]},  # beyond 64 bits: orjson refuses it
        {"players": ["Ann", None, 1]},  # still plain: known
        {"extra": 1},  # a field the kind does not have
    ],
)
def test_a_document_is_known_only_when_orjson_writes_it_as_encoded_does(change: dict[str, Any]) -> None:
    data = _stats() | change
    text = _known_text("stats", data, None)
    assert text is None or text == encoded(data)
    assert (text is not None) == ("players" in change)
    assert json.loads(_known_text("stats", _stats(), None) or "") == _stats()


def test_a_summary_with_provisional_points_is_known_as_encoded_writes_it() -> None:
    match = Match.start("m", ["Ann", "Ben", "Cho", "Dai"], load_preset("tenhou"))
    match.record(ExhaustiveDraw(ready=(0,)))
    documents = _documents(match)
    (key,) = [key for key in documents if key[0] == "summary"]
    assert json.loads(documents[key])["provisional_points"]
    assert documents[key] == encoded(json.loads(documents[key]))


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
def test_a_match_s_rows_written_together_are_those_written_one_by_one() -> None:
    app = HonbaApp.open(":memory:")
    plain = mapper_for(app.mapper_settings())
    app.close()
    assert isinstance(plain, HonbaMapper)
    # A mapper of its own (``mapper_for``'s is the process's): rows the library writes, compressed.
    zipped = HonbaMapper(transcoder=plain.transcoder, compressor=ZlibCompressor())
    matches = [match_from_log(game) for path in TENHOU_LOGS[:5] for game in read_log(path)]
    for match in [*matches, _with_a_correction()]:
        known = match.pending_fact_data()
        events = [
            *match.pending_events,
            *new_seal_events(match.id, match.version, match.head),
            *GameIdentity.claim_events("0" * 64, match.key),
        ]
        for mapper in (plain, zipped):
            # The library's own writing of each event (its JSON transcoder), and the served hand's writer.
            by_library = [row_of(Mapper.to_stored_event(mapper, event), {}) for event in events]
            one_by_one = [row_of(mapper.to_stored_event_known(event, known), {}) for event in events]
            assert mapper.rows_known(events, known, {}) == by_library == one_by_one
