"""Each event's data encoded once where an import needs it twice, with the very same bytes: the
list digest put together from its items' encodings, a fact's stored form as ``to_data`` gives it,
a match's rules built once per set of values."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import attrs
import pytest
from conftest import CORPUS, hv, ron, tsumo
from hypothesis import given
from hypothesis import strategies as st

from domain import integrity
from domain.codec import to_data
from domain.integrity import canonical, digest_of, digests_of_items, event_content, event_digest, plain
from domain.match import Match, content_data, match_content_and_entries, stored_rules
from domain.values import (
    AbortiveDraw,
    AbortKind,
    DealPass,
    ExhaustiveDraw,
    MatchEnd,
    Penalty,
    WinDetails,
    WinResult,
    without_details,
)
from replay.formats.detect import read_log
from replay.service.imports.importing import match_from_log
from replay.store.application import HonbaApp, mapper_for

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@given(st.lists(JSON, max_size=6))
def test_a_list_digest_put_together_from_its_items_is_the_digest_of_the_list(items: list[Any]) -> None:
    whole, each = digests_of_items(items)
    assert whole == digest_of(items)
    assert each == [digest_of(item) for item in items]


def test_the_list_encoding_is_the_items_encodings_in_brackets() -> None:
    # What digests_of_items relies on, with text json escapes and a float in it.
    items = [["fact", {"b": 1.5, "a": '東\n"x"'}], ["opening", {}], [], "ü"]
    assert canonical(items) == b"[" + b",".join(canonical(i) for i in items) + b"]"
    assert hashlib.sha256(canonical([])).hexdigest() == digests_of_items([])[0]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
def test_a_real_game_s_facts_are_encoded_once_and_stored_as_to_data_gives_them() -> None:
    path = sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))[0]
    (game,) = read_log(path)
    match = match_from_log(game)
    events = list(match.pending_events)
    facts = [e.fact for e in events if isinstance(e, Match.Recorded)]
    assert len(facts) >= len(game.hands)
    # The stored form holds the data to_data gives (what the store decodes with from_data).
    mapper = mapper_for(HonbaApp.open(":memory:").mapper_settings())
    for event in events:
        if isinstance(event, Match.Recorded):
            stored = json.loads(mapper.to_stored_event(event).state)
            assert stored["fact"]["_data_"] == to_data(event.fact)
    # The content digest and the entries' digests, each entry encoded once: the digests of the
    # entries' plain data, one by one and as a list.
    content, entries = match_content_and_entries(events)
    start = events[0]
    assert isinstance(start, Match.Started)
    data = [["opening", plain(start.opening)], *(["fact", plain(without_details(f))] for f in facts)]
    assert entries == [digest_of(entry) for entry in data]
    assert content.results == digest_of(data)


def test_a_match_s_rules_are_built_once_per_set_of_values() -> None:
    from domain.rules import load_preset

    rules = load_preset("tenhou").to_dict()
    first = stored_rules(rules)
    assert stored_rules(dict(rules)) is first
    assert first == load_preset("tenhou")


# Every value json can write, NaN and the infinities included, and keys of every kind it sorts.
ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=6), inner, max_size=4)
        | st.dictionaries(st.integers(), inner, max_size=3)
    ),
    max_leaves=16,
)


def _dumps(data: Any) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


@given(ANY_JSON)
def test_the_canonical_encoder_made_once_writes_what_json_dumps_writes(data: Any) -> None:
    assert canonical(data) == _dumps(data)


def test_the_canonical_encoder_made_once_on_the_corpus_and_on_refusals() -> None:
    # Every event's content of the corpus's Tenhou logs, as its digest encodes it; then what
    # json.dumps refuses is refused alike, and the encoder still writes right afterwards.
    events = [
        event
        for path in sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))[:40]
        for game in read_log(path)
        for event in match_from_log(game).pending_events
    ]
    contents = [event_content(event) for event in events]
    assert len(contents) > 500
    assert all(canonical(content) == _dumps(content) for content in contents)
    assert canonical("東\n") == _dumps("東\n") and canonical(1e16) == b"1e+16"
    for refused in ({"a": object()}, [1, {2j}], {(1, 2): 3}):
        with pytest.raises(TypeError):
            _dumps(refused)
        with pytest.raises(TypeError):
            canonical(refused)
    shared = [1]
    assert canonical([shared, shared]) == b"[[1],[1]]" == _dumps([shared, shared])


def test_without_the_c_encoder_canonical_is_json_dumps(monkeypatch: pytest.MonkeyPatch) -> None:
    # A Python whose json has no C encoder: the same bytes through json.dumps itself.
    data = {"b": [1.5, None, True, "東\n"], "a": {"z": 1e16, "y": float("nan")}}
    made_once = canonical(data)
    monkeypatch.setattr(integrity, "_ENCODE", None)
    assert canonical(data) == made_once == _dumps(data)


@given(st.dictionaries(st.text(max_size=6), JSON, max_size=4) | st.dictionaries(st.integers(), st.floats(), max_size=3))
def test_a_view_document_is_stored_as_its_canonical_json(data: dict[Any, Any]) -> None:
    """A view document's text (``projections.views.encoded``, orjson where it writes the same) is the
    standard encoder's canonical JSON, and reads back as the data (NaN, keys not text, big ints too)."""
    from projections.views import encoded

    text = encoded(data)
    assert text == json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert json.dumps(json.loads(text), sort_keys=True) == json.dumps(json.loads(json.dumps(data)), sort_keys=True)


def test_view_documents_of_odd_values_are_the_standard_encoder_s() -> None:
    from projections.views import encoded

    for data in ({"x": float("nan"), "y": 1e16, "z": 2**70}, {3: "a", 4: [1.5, -0.0]}, {"t": "東\u2028"}):
        assert encoded(data) == json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _corpus_matches(files: int = 12) -> list[Match]:
    return [
        match_from_log(game)
        for path in sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))[:files]
        for game in read_log(path)
    ]


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
def test_an_import_encodes_each_fact_once_for_its_digest_row_documents_and_content(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A fact's plain data is made once, when the command makes its event: its digest, its stored
    row, the standings documents and the match's content take it (before: three times)."""
    from domain import codec
    from replay.service.imports.storing import prepare

    (game,) = read_log(sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))[0])
    mapper = mapper_for(HonbaApp.open(":memory:").mapper_settings())
    encoded: list[type] = []
    for cls in codec.FACT_TAGS:
        encode = codec._ENCODERS.get(cls) or codec._encoder(cls)

        def counted(value: Any, encode: Any = encode) -> Any:
            encoded.append(type(value))
            return encode(value)

        monkeypatch.setitem(codec._ENCODERS, cls, counted)
    match = match_from_log(game)
    facts = [e.fact for e in match.pending_events if isinstance(e, Match.Recorded)]
    prepared = prepare(match, mapper, from_log=True, view=True)
    assert len(facts) > 10 and prepared.documents is not None
    assert len(encoded) == len(facts)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
def test_the_facts_data_made_by_the_command_gives_the_same_digests_and_content() -> None:
    matches = _corpus_matches()
    events = [event for match in matches for event in match.pending_events]
    assert sum(isinstance(event, Match.HandWon) for event in events) > 50
    for match in matches:
        pending = list(match.pending_events)
        known = match.pending_fact_data()
        assert len(known) == sum(isinstance(event, Match.Recorded) for event in pending)
        # The content and each entry's digest, from the data made already and from the facts.
        assert match_content_and_entries(pending, known=known) == match_content_and_entries(pending)
        for event in pending:
            if isinstance(event, Match.Recorded):
                assert known[id(event.fact)] == to_data(event.fact)
                assert content_data(event.fact, known[id(event.fact)]) == plain(without_details(event.fact))
        # Each event's digest as a match loaded from the store works it out (nothing made already).
        digests = [event_digest(event) for event in pending]
        assert [str(event.prior) for event in pending[1:]] == digests[:-1] and digests[-1] == match.head
        # Let go with the events: a match kept in memory holds no second copy of its facts.
        assert len(match.collect_events()) == len(pending) and match.pending_data == {}


def test_content_data_leaves_out_what_without_details_leaves_out() -> None:
    detailed = attrs.evolve(ron(1, 2, hv(3, 40)), details=WinDetails(dora=2))
    facts = [
        WinResult((detailed, ron(3, 2, hv(2, 30))), riichi=(1,), called=(3, 2)),
        WinResult((tsumo(0, hv(limit="mangan")),), called=(1,)),
        WinResult((detailed,)),
        WinResult((tsumo(0, hv(1, 30)),), riichi=(0, 2)),
        ExhaustiveDraw(ready=(0, 1), called=(2,)),
        ExhaustiveDraw(ready=(0,)),
        AbortiveDraw(AbortKind.FOUR_WINDS, called=()),
        Penalty(seat=1, amount=8000, note="chombo"),
        DealPass(0, 1, 0, 2),
        MatchEnd("agreed"),
    ]
    for fact in facts:
        assert content_data(fact, to_data(fact)) == plain(without_details(fact)), fact


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
def test_rules_stored_under_another_description_are_built_once_and_are_from_stored_s() -> None:
    """A log's rules carry its date in their description (the corpus: 325 sets among 633 games): the
    other values are built once (``_undescribed_rules``), each description a copy of them, and each is
    the very Ruleset ``from_stored`` builds of the values."""
    from domain import match as match_module
    from domain.rules import Ruleset, load_preset, preset_names

    match_module._RULES.clear()
    match_module._undescribed_rules.cache_clear()
    stored = [
        game.rules.to_dict()
        for path in sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))[:60]
        for game in read_log(path)
    ]
    assert len({values["description"] for values in stored}) > 20
    for values in stored:
        assert stored_rules(values) == Ruleset.from_stored(values)
    assert match_module._undescribed_rules.cache_info().misses <= 2
    # Every preset, under another description; and values under a name since replaced, renamed.
    for name in preset_names():
        values = {**load_preset(name).to_dict(), "description": f"{name}, played on 2018-02-03"}
        assert stored_rules(values) == Ruleset.from_stored(values)
        old = {**values, "extra_hand_bonus_to": "any_winner"}
        del old["extra_hand_bonus_enabled"]
        assert stored_rules(old) == Ruleset.from_stored(old)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
def test_a_prepared_match_s_entries_are_worked_out_from_its_rows_only_when_an_excerpt_needs_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The worker hashes no entry on its own (the content's digest alone: one hash for its list); the
    storing process works each entry's digest out from the rows, for the rare game whose key holds
    another recording (``_complete_excerpt``): the digests of the match built in memory."""
    from replay.service.imports import storing

    store = HonbaApp.open(":memory:")
    mapper = mapper_for(store.mapper_settings())
    hashed: list[bytes] = []
    real = hashlib.sha256

    def counted(data: bytes = b"") -> Any:
        hashed.append(data)
        return real(data)

    for match in _corpus_matches(4):
        expected_content, expected_entries = match_content_and_entries(list(match.pending_events))
        hashed.clear()
        monkeypatch.setattr(integrity.hashlib, "sha256", counted)
        prepared = storing.prepare(match, mapper, from_log=True, view=True)
        monkeypatch.setattr(integrity.hashlib, "sha256", real)
        # No entry's canonical bytes hashed on their own (each was before: one hash per entry).
        entry_bytes = {canonical(entry) for entry in _entries_data(prepared, store)}
        assert len(entry_bytes) > 10 and not entry_bytes & set(hashed)
        assert prepared.content == expected_content
        assert storing._entries_of(store, prepared) == expected_entries


def _entries_data(prepared: Any, store: HonbaApp) -> list[Any]:
    """The plain data of each entry of a prepared match (what its digest is of), from its rows."""
    events = [store.mapper.to_domain_event(r) for r in prepared.records if r.originator_id == prepared.id]
    found: list[Any] = []
    for event in events:
        if isinstance(event, Match.Started):
            found.append(["opening", plain(event.opening)])
        elif isinstance(event, Match.Recorded):
            found.append(["fact", plain(without_details(event.fact))])
    return found
