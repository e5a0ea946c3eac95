"""``orjson`` writes the canonical JSON (and the event library's) only where its bytes are the standard
encoder's: ``domain.integrity.json_exactly`` gives the same bytes or None, ``exact_canonical`` and
``event_digest`` give ``canonical``'s and ``digest_of(event_content(...))``'s, or raise where they
raise."""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from uuid import UUID

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain import integrity
from domain.integrity import (
    SORTED,
    UNSORTED,
    canonical,
    digest_of,
    event_content,
    event_digest,
    exact_canonical,
    json_exactly,
)
from domain.match import Match
from domain.rules import load_preset
from domain.values import ExhaustiveDraw

# Every value json writes, NaN and the infinities, floats orjson writes otherwise (below 1e-4, from
# 1e16), integers beyond 64 bits, keys of every kind, and values json refuses or writes otherwise
# than orjson (a UUID, a time), at any depth.
STRANGE_FLOATS = st.sampled_from([1e-05, 2.5e-07, 1e16, -1.5e22, 5e-324, float("nan"), float("inf"), -0.0, 0.1])
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=2**63, max_value=2**70)
    | st.floats()
    | STRANGE_FLOATS
    | st.text()
    | st.uuids()
    | st.datetimes(timezones=st.just(UTC))
)
ANY = st.recursive(
    LEAVES,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(st.text(max_size=6), inner, max_size=4)
        | st.dictionaries(st.integers(), inner, max_size=3)
    ),
    max_leaves=16,
)


def _standard(data: Any, *, sort: bool) -> bytes | None:
    """The standard encoder's bytes (``canonical``'s options, sorted or not); None where it refuses."""
    try:
        return json.dumps(data, sort_keys=sort, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    except (TypeError, ValueError):
        return None


@given(ANY)
def test_orjson_s_bytes_are_taken_only_where_they_are_the_standard_encoder_s(data: Any) -> None:
    for option, sort in ((SORTED, True), (UNSORTED, False)):
        found = json_exactly(data, option)
        if found is not None:
            assert found == _standard(data, sort=sort)


@given(ANY)
def test_exact_canonical_is_canonical_or_raises_alike(data: Any) -> None:
    try:
        expected = canonical(data)
    except (TypeError, ValueError) as refused:
        with pytest.raises(type(refused)):
            exact_canonical(data)
    else:
        assert exact_canonical(data) == expected


@pytest.mark.parametrize("number", [1e-05, 2.5e-07, 7e-05, float("nan"), float("inf"), float("-inf")])
def test_a_float_orjson_writes_otherwise_is_left_to_the_standard_encoder(number: float) -> None:
    """Without the check these would differ (``1e-5`` for ``1e-05``, ``null`` for a NaN)."""
    data = {"source": {"tiles": [[1, 2], [3]], "weight": number}}
    assert orjson.dumps(data, option=SORTED) != _standard(data, sort=True)
    assert json_exactly(data) is None
    assert exact_canonical(data) == canonical(data)


def test_plain_data_without_a_float_is_written_by_orjson() -> None:
    """The check passes what it should: floats it writes alike, ``None``, text that looks like a number."""
    data = {"b": [1.5, -16.0, 50.0, None, "東\n\x01"], "a": {"z": "wire-2018.mjlog", "y": "1e-5 and 0.5"}}
    assert json_exactly(data) == canonical(data)
    # Text that reads as a UUID is looked at value by value, and found to be text.
    assert json_exactly({"id": str(UUID(int=7))}) == canonical({"id": str(UUID(int=7))})


def test_a_uuid_or_a_time_inside_plain_data_is_never_written_by_orjson() -> None:
    """orjson would write a UUID as its text and a time as RFC 3339: the standard encoder refuses both."""
    assert json_exactly({"a": [UUID(int=7)]}) is None
    assert json_exactly({"a": [datetime(2026, 1, 2, tzinfo=UTC)]}) is None
    with pytest.raises(TypeError):
        exact_canonical({"a": [UUID(int=7)]})


def _event(source: dict[str, Any]) -> list[Any]:
    match = Match.start("m", ["a", "b", "c", "d"], load_preset("tenhou"), source=source)
    match.record(ExhaustiveDraw(ready=(0,)))
    return list(match.pending_events)


@pytest.mark.parametrize(
    "source",
    [
        {"tiles": [[1, 2], [3]], "file": "x.mjlog"},
        {"weight": 1e-05, "id": UUID(int=3), "when": datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=UTC)},
        {"nested": [{"b": None, "a": [0.5, 1e16]}], 3: "a key not text"},
    ],
)
def test_an_event_s_digest_is_the_digest_of_its_content(source: dict[str, Any]) -> None:
    for event in _event(source):
        # ``canonical`` alone, the standard encoder: the digest as it was before orjson wrote it.
        assert event_digest(event) == hashlib.sha256(canonical(event_content(event))).hexdigest()
        assert digest_of(event_content(event)) == event_digest(event)


def test_long_bytes_found_clean_are_not_scanned_again_and_nothing_suspect_is_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A match's rules are written several times as the same bytes: those found clean are known by
    the bytes themselves the next time; bytes holding a float, ``null`` or a UUID's text are looked at
    every time (a NaN and a None are both ``null`` to orjson).

    Seen by what is kept (``_CLEAN``) and by the scan's search for a point (``_POINT``, a compiled
    pattern the scan looks up as a module attribute, compiled or not: a spy on ``_suspect`` itself is
    not reached from a compiled ``json_exactly``). Bytes holding ``null`` are told by it before any
    pattern is searched: what is kept says that they are looked at again."""
    clean: dict[bytes, None] = {}
    monkeypatch.setattr(integrity, "_CLEAN", clean)
    scanned = _CountedSearch(integrity._POINT)
    monkeypatch.setattr(integrity, "_POINT", scanned)
    rules = {"name": "tenhou", "values": list(range(300)), "words": "東" * 100}
    first = json_exactly(rules)
    assert first == json_exactly(dict(rules)) == canonical(rules)
    assert len(first) >= integrity._CLEAN_FROM and list(clean) == [first] and len(scanned.starts) == 1
    for odd, written in (
        ({"x": float("nan")}, False),
        ({"x": 1e-05}, False),
        ({"x": None}, True),
        ({"x": "0.5"}, True),
    ):
        long_odd = rules | odd
        for _ in range(2):
            assert json_exactly(long_odd) == (_standard(long_odd, sort=True) if written else None)
    assert list(clean) == [first]  # none of them kept
    assert len(scanned.starts) == 1 + 2 * 2  # the two without ``null`` scanned both times
    assert json_exactly([1e-05] * 200) is None and json_exactly([1e-05] * 200) is None
    assert list(clean) == [first]


def test_each_float_s_verdict_kept_by_value_holds_for_every_float_equal_to_it() -> None:
    """The walk keeps each float's verdict by its value (``_float_as_repr``): 0.0 and -0.0 are equal
    keys, both written as their ``repr``; a NaN equals no key and is found written otherwise each time."""
    for first, second in ((0.0, -0.0), (-0.0, 0.0)):
        data = {"points": [first, None, second]}  # ``None``: the bytes are walked
        assert json_exactly(data) == canonical(data)
    nan = float("nan")
    assert json_exactly({"points": [nan, None]}) is None
    assert json_exactly({"points": [float("nan"), None]}) is None
    # A list or a dict of scalars alone is not walked item by item; one float inside one still is.
    assert json_exactly({"counts": {"wins": 2}, "points": [[1, 2, 2.5e-07], None]}) is None
    assert json_exactly({"counts": [{"wins": 2, "w": 1e-05}], "x": None}) is None


class _CountedSearch:
    """A compiled pattern whose searches record where each started (``_suspect``'s patterns)."""

    def __init__(self, pattern: Any) -> None:
        self.pattern = pattern
        self.starts: list[int] = []

    def search(self, data: bytes, pos: int = 0) -> Any:
        self.starts.append(pos)
        return self.pattern.search(data, pos)

    def finditer(self, data: bytes, pos: int = 0) -> Any:
        self.starts.append(pos)
        return self.pattern.finditer(data, pos)


@pytest.mark.parametrize(
    ("written", "suspect"),
    [
        (b'{"file":"a/tenhou-wire-2018/x","tiles":[[11,12],[13]]}', False),
        (b'{"file":"a/tenhou-wire-2018/x","points":[1e-05]}', True),
        (b'{"file":"wire-2018","more":"the-1","n":[2e+16]}', True),
        (b'["e-1","e+2"]', False),
    ],
)
def test_an_exponent_s_hits_are_each_looked_at_once(
    monkeypatch: pytest.MonkeyPatch, written: bytes, suspect: bool
) -> None:
    """A log's file name has an exponent's look (``wire-2018``) near the start of its match's source:
    the hits after it are searched for from there, the tiles after it scanned once, not again from
    the start; the verdict the same."""
    counted = _CountedSearch(integrity._EXPONENT)
    monkeypatch.setattr(integrity, "_EXPONENT", counted)
    assert integrity._suspect(written) is suspect
    assert counted.starts.count(0) == 1 and counted.starts == sorted(counted.starts)


def test_an_event_s_long_list_is_digested_without_being_kept_alive() -> None:
    """A value longer than a game's source (a checkpoint's leaves, one per match of the store) is
    digested as any other, but not kept for a row that will never take it: an import's storing process
    held each checkpoint's whole list alive, and its peak memory grew with the store."""
    leaves = [[str(UUID(int=n)), n, "d" * 64] for n in range(1000)]
    (start, *_) = _event({"tiles": leaves, "file": "x.mjlog"})
    integrity._EXACT_VALUES.clear()
    assert event_digest(start) == hashlib.sha256(canonical(event_content(start))).hexdigest()
    assert id(start.source) not in integrity._EXACT_VALUES
    assert integrity._EXACT_VALUES[id(start.rules)][0] is start.rules  # (short: kept for its row)


def test_few_digested_values_are_kept_alive() -> None:
    """Every event digested passes by (those a check reads back too): at most a few of its values are
    kept at any time, the oldest let go first."""
    integrity._EXACT_VALUES.clear()
    for n in range(40):
        events = _event({"tiles": [[n]], "file": f"{n}.mjlog"})
        for event in events:
            event_digest(event)
        assert len(integrity._EXACT_VALUES) <= integrity._EXACT_VALUES_KEPT <= 16
        # The game digested last keeps its values (the oldest were let go first).
        assert integrity._EXACT_VALUES[id(events[0].source)][0] is events[0].source


def test_a_view_document_is_written_as_canonical_writes_it_and_not_kept_among_the_clean_bytes() -> None:
    """A document is written once (``projections.views.encoded``): its bytes are not hashed to be kept
    (``_CLEAN``), where they pushed out what is looked up again (a match's rules)."""
    from projections.views import encoded

    document = {"players": ["東", "南", "西", "北"], "hands": [[n, -n, n * 100] for n in range(60)]}
    integrity._CLEAN.clear()
    text = encoded(document)
    assert text.encode() == integrity.canonical(document) and len(text) > integrity._CLEAN_FROM
    assert not integrity._CLEAN


@given(st.datetimes(timezones=st.sampled_from([UTC, timezone(timedelta(hours=9)), timezone(timedelta(0))])))
def test_a_time_s_text_is_its_isoformat_whatever_its_second_zone_and_microseconds(value: datetime) -> None:
    # A time in UTC is written from its second's text and its microseconds (``_utc_text``); the same
    # text as ``isoformat``, microseconds of 0 left out, a year before 1000 written with four digits.
    assert integrity.time_text(value) == value.isoformat()
    again = value.replace(microsecond=(value.microsecond + 1) % 1_000_000)
    assert integrity.time_text(again) == again.isoformat()
    assert integrity.time_text(value.replace(microsecond=0)) == value.replace(microsecond=0).isoformat()
