"""Data ``to_data`` makes of a value class whose field types hold no float, UUID or time is written by
orjson without a scan of its bytes (``domain.codec.exact_data``): what its class's field types allow
is text, whole numbers, true or false and None alone, which orjson writes as the standard encoder
does. A class gaining a float field (or a list, ``Any``, a value of such a class) loses the shortcut
and is checked as before; the digests and rows stay the standard encoder's either way."""

from __future__ import annotations

import dataclasses
import hashlib
from datetime import UTC, datetime
from enum import Enum, StrEnum
from typing import Any, Literal
from uuid import UUID

import attrs
import orjson
import pytest
from conftest import hv, ron, watched_where_interpreted, won

from domain import integrity
from domain.codec import FACT_TAGS, VALUE_CLASSES, exact_data
from domain.integrity import canonical, event_content, event_digest, id_text, plain, plain_canonical, time_text
from domain.match import Match, match_content_and_entries
from domain.rules import load_preset
from domain.values import ExhaustiveDraw, HandPenalty, Penalty, TableState, without_details


class Kind(StrEnum):
    ONE = "one"


class Weight(Enum):
    LIGHT = 0.5


@attrs.frozen
class Whole:
    seat: int
    name: str | None = None
    kind: Kind = Kind.ONE
    limit: Literal["mangan", "yakuman"] | None = None
    seats: tuple[int, ...] = ()


@attrs.frozen
class WithFloat:
    seat: int
    share: float = 0.0


@attrs.frozen
class HoldsFloat:
    inner: tuple[WithFloat, ...] = ()


@attrs.frozen
class WithEnum:
    weight: Weight = Weight.LIGHT


@attrs.frozen
class WithList:
    seats: list[int] = attrs.field(factory=list)


@attrs.frozen
class WithAny:
    anything: Any = None


@attrs.frozen
class Nested:
    # A class holding values of its own kind is judged by its other fields.
    children: tuple[Nested, ...] = ()
    seat: int = 0


def test_every_fact_class_is_exact_by_its_field_types_and_the_table_state_is_not() -> None:
    assert all(exact_data(cls) for cls in FACT_TAGS)
    assert all(exact_data(cls) for cls in VALUE_CLASSES if cls is not TableState)
    # Its final points are floats (``-16.0``): orjson writes some floats otherwise.
    assert not exact_data(TableState)


def test_a_class_gaining_a_float_field_loses_the_shortcut() -> None:
    assert exact_data(Whole) and exact_data(Nested)
    assert not exact_data(WithFloat)
    assert not exact_data(HoldsFloat)  # a float one value down
    assert not exact_data(WithEnum)  # an enumeration of floats
    assert not exact_data(WithList) and not exact_data(WithAny)
    assert not exact_data(dict) and not exact_data(int)


@pytest.mark.parametrize("value", [WithFloat(3, 1e-05), HoldsFloat((WithFloat(1, float("nan")),)), WithEnum()])
def test_a_value_with_a_float_orjson_writes_otherwise_is_written_as_the_standard_encoder_does(value: Any) -> None:
    data = plain(value)
    if not isinstance(value, WithEnum):  # orjson's own bytes differ: a shortcut taken would show
        assert orjson.dumps(data, option=orjson.OPT_SORT_KEYS) != canonical(data)
    assert plain_canonical(value) == canonical(data)


def test_a_whole_number_beyond_64_bits_in_an_exact_class_is_the_standard_encoder_s() -> None:
    value = HandPenalty(payer=1, amount=2**70, note="東")
    assert plain_canonical(value) == canonical(plain(value))
    assert plain_canonical(Whole(seat=2**64, kind=Kind.ONE, seats=(1, 2))) == canonical(
        plain(Whole(2**64, seats=(1, 2)))
    )


def _hand_events() -> list[Any]:
    match = Match.start("m", ["a", "b", "c", "d"], load_preset("tenhou"))
    match.record(won(ron(1, 0, hv(3, 40)), riichi=[1]))
    match.record(ExhaustiveDraw(ready=(0,)), client_key="k")
    match.penalise(Penalty(seat=2, amount=12000, note="東"))
    return list(match.pending_events)[1:]


# Whether nothing is scanned is seen by spies set on ``_suspect`` and ``_exactly_plain``, which a compiled
# ``domain.integrity`` calls directly: checked where it runs interpreted; what is written, everywhere.
SCANS_WATCHED = watched_where_interpreted(
    "a compiled domain.integrity calls _suspect and _exactly_plain directly", integrity
)


def _no_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_scan(*args: Any) -> bool:
        raise AssertionError("the bytes were scanned")

    monkeypatch.setattr(integrity, "_suspect", no_scan)
    monkeypatch.setattr(integrity, "_exactly_plain", no_scan)


@SCANS_WATCHED
def test_a_hand_s_event_is_digested_without_a_scan_of_its_bytes(monkeypatch: pytest.MonkeyPatch, watched: bool) -> None:
    """Its fields are text, None (a ``client_key`` not given: a ``null`` no longer sends the content to
    the walk), a time, an id and a fact of an exact class: one call of orjson, nothing looked at."""
    events = _hand_events()
    expected = [hashlib.sha256(canonical(event_content(event))).hexdigest() for event in events]
    if watched:
        _no_scan(monkeypatch)
    assert any(event.client_key is None for event in events)
    assert [event_digest(event) for event in events] == expected


def test_a_hand_s_event_with_a_number_orjson_refuses_is_digested_as_before() -> None:
    (event, *_) = _hand_events()
    big = dataclasses.replace(event, fact=Penalty(seat=2, amount=2**70))
    assert event_digest(big) == hashlib.sha256(canonical(event_content(big))).hexdigest()


@SCANS_WATCHED
def test_a_match_s_facts_are_digested_as_its_content_without_a_scan(
    monkeypatch: pytest.MonkeyPatch, watched: bool
) -> None:
    """The content's entries of a match's facts (``match_content_and_entries``): each fact's plain data,
    of a class exact by its field types, is written by orjson with nothing looked at; the digests are
    the canonical JSON's."""
    match = Match.start("m", ["a", "b", "c", "d"], load_preset("tenhou"))
    match.record(won(ron(1, 0, hv(3, 40)), riichi=[1]))
    match.record(ExhaustiveDraw(ready=(0,)))
    match.penalise(Penalty(seat=2, amount=12000))
    hands = list(match.pending_events)[1:]
    known = match.pending_fact_data()
    entries = [["fact", plain(without_details(event.fact))] for event in hands]
    expected = [hashlib.sha256(canonical(entry)).hexdigest() for entry in entries]
    whole = hashlib.sha256(canonical(entries)).hexdigest()

    if watched:
        _no_scan(monkeypatch)
    for given in (known, None):
        content, digests = match_content_and_entries(hands, known=given)
        assert digests == expected
        assert content.results == whole


@attrs.frozen
class _Unresolved:
    seat: int
    other: NotInScope  # type: ignore[name-defined]  # noqa: F821


def test_a_class_whose_field_types_cannot_be_resolved_is_not_known_exact() -> None:
    assert not exact_data(_Unresolved)
    value = _Unresolved(1, 1e-05)
    assert plain_canonical(value) == canonical(plain(value))


class _OddTime(datetime):
    def isoformat(self, sep: str = "T", timespec: str = "auto") -> str:
        return "odd"


def test_an_event_s_time_is_written_as_text_once_and_a_subclass_by_its_own_isoformat() -> None:
    when = datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=UTC)
    assert time_text(when) == when.isoformat()
    assert integrity._TIMES[id(when)] == (when, when.isoformat())  # kept: the row finds it
    odd = _OddTime(2026, 1, 2, tzinfo=UTC)
    assert time_text(odd) == time_text(odd) == "odd"
    assert id(odd) not in integrity._TIMES


def test_a_match_s_id_is_written_as_text_once() -> None:
    match_id = UUID(int=7)
    assert id_text(match_id) == id_text(match_id) == str(match_id)
    assert integrity._TIMES[id(match_id)] == (match_id, str(match_id))
