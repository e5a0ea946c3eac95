"""A stored row read as one of honba's own events, and as nothing else.

The library finds an event's class from the topic stored with it (``module:Class``) and imports
that module: a row whose topic was changed to ``this:s`` makes every reader import Python's
``this`` (and print the Zen of Python). ``HonbaMapper`` reads a row only under a topic of honba's
own list (``event_class``: every event class of its aggregates, under its topic and the topic
it had before it moved), and a created event only for one of honba's aggregates; anything else
is a row that cannot be read, which every reader names.

It also refuses a row stored under an id spelled otherwise than the store writes ids (SQLite
keeps them as text; ``replay.store.sqlite_store`` hands such a row over with its id as the text
it found): the projections fold events by id, and ``honba check`` reads a stream by its exact
text, so a row under ``ABC...`` instead of ``abc...`` would otherwise count for the match while no
check ever saw it.

It writes an event as the library's mapper does, byte for byte, with ``orjson`` where that gives
the same bytes (``HonbaMapper.to_stored_event``): every event of an import is encoded once.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from itertools import repeat
from typing import Any, Union
from uuid import UUID

import orjson
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import DatetimeAsISO, JSONTranscoder, Mapper, StoredEvent, Transcoding
from eventsourcing.utils import get_topic

from domain.bounds import TABLE_SIZE
from domain.codec import FACT_TAGS, exact_data
from domain.integrity import UNSORTED, json_exactly, take_exact, time_text
from domain.match import Match
from domain.values import AbortiveDraw, DealPass, ExhaustiveDraw, MatchEnd, Penalty, WinResult
from replay.store import chain, checkpoint, identity, seal, signed
from replay.store.rows import Row, row_of, spelled_id
from replay.store.transcoding import ValueTranscoding

# honba's aggregates, with the module each lived in before it moved (its old topics stay readable).
AGGREGATES: tuple[tuple[type[Aggregate], str | None], ...] = (
    (Match, None),
    (seal.Seal, seal.OLD_MODULE),
    (chain.StoreChain, chain.OLD_MODULE),
    (identity.GameIdentity, identity.OLD_MODULE),
    (identity.ImportedFile, identity.OLD_MODULE),
    (checkpoint.Checkpoint, None),
    (signed.SignedCheckpoints, None),
)


def _topics(cls: type[Any], old_module: str | None) -> list[str]:
    topics = [get_topic(cls)]
    if old_module is not None:
        topics.append(f"{old_module}:{cls.__qualname__}")
    return topics


def _event_classes(aggregates: tuple[tuple[type[Aggregate], str | None], ...]) -> dict[str, type[Any]]:
    found: dict[str, type[Any]] = {}
    for aggregate, old_module in aggregates:
        for value in vars(aggregate).values():
            if isinstance(value, type) and issubclass(value, Aggregate.Event):
                for topic in _topics(value, old_module):
                    found[topic] = value
    return found


# honba's aggregates whose module is imported when a row of theirs is first read, by module: the
# tournaments' (``domain.tournament`` loads the draws, the seatings and the stages, and the event
# library builds each of its event classes as the module is imported), which a command on a match
# never reads. Each is one of honba's aggregates all the same: its topics are on the list below.
LATER: dict[str, str] = {"domain.tournament": "Tournament"}

# Every topic a stored honba event may carry, and its class (the aggregates of ``LATER`` aside: ``event_class``).
EVENT_CLASSES: dict[str, type[Any]] = _event_classes(AGGREGATES)
# Every topic a created event may name as its aggregate's (``originator_topic``).
AGGREGATE_TOPICS: frozenset[str] = frozenset(
    [
        *(topic for aggregate, old_module in AGGREGATES for topic in _topics(aggregate, old_module)),
        *(f"{module}:{name}" for module, name in LATER.items()),
    ]
)


@functools.cache
def _later_event_classes(module: str) -> dict[str, type[Any]]:
    """The event classes of the aggregate ``LATER`` names in ``module``, its module imported."""
    aggregate: type[Aggregate] = getattr(importlib.import_module(module), LATER[module])
    return _event_classes(((aggregate, None),))


def event_class(topic: str) -> type[Any] | None:
    """The class of honba's event stored under ``topic``; None for a topic of no honba event."""
    found = EVENT_CLASSES.get(topic)
    if found is None:
        module = topic.partition(":")[0]
        if module in LATER:
            found = _later_event_classes(module).get(topic)
    return found


class ForeignRow(ValueError):
    """A stored row that is none of honba's events (an unknown topic), or under an id honba does not write."""


# The fact each kind of recorded event holds (``Match.Recorded`` itself: any fact).
FACT_OF: dict[type[Any], tuple[type[Any], ...]] = {
    Match.HandWon: (WinResult,),
    Match.HandDrawn: (ExhaustiveDraw,),
    Match.HandAborted: (AbortiveDraw,),
    Match.DealPassed: (DealPass,),
    Match.PenaltyApplied: (Penalty,),
    Match.MatchEnded: (MatchEnd,),
}
FACTS: tuple[type[Any], ...] = tuple(FACT_TAGS)
# Set by the mapper itself from the row, not read from its state.
_FROM_ROW = frozenset({"originator_id", "originator_version"})


@functools.cache
def _declared(cls: type) -> tuple[tuple[str, Any], ...]:
    """Each field an event class declares, with its type (a type variable taken for ``Any``); found once."""
    hints = typing.get_type_hints(cls)
    found = []
    for field in dataclasses.fields(cls):
        if field.name in _FROM_ROW:
            continue
        hint = hints.get(field.name, Any)
        found.append((field.name, Any if isinstance(hint, typing.TypeVar) else hint))
    return tuple(found)


def _simple(hint: Any) -> tuple[tuple[type, ...], bool] | None:
    """A hint checked by one ``isinstance``: the classes it takes and whether it refuses a bool (an
    ``int`` or a ``float`` field does: JSON's ``true`` is no number); None for any other hint."""
    if hint is int:
        return (int,), True
    if hint is float:
        return (int, float), True
    # ``Any`` is a class since Python 3.11, and none to ask ``isinstance`` of.
    if isinstance(hint, type) and hint is not Any and typing.get_origin(hint) is None:
        return (hint,), False
    return None


def _fitting(hint: Any) -> Callable[[Any], bool] | None:
    """Whether a decoded value is of a declared field type (the few kinds honba's events declare),
    as a function made once for the hint (None: any value fits), so that a fold of thousands of
    events does not walk the hint's ``typing`` structure for every one of them. Each is one
    ``isinstance`` where it can be, and a list's or a dict's items are checked in C (``map``)."""
    if hint is Any:
        return None
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        args = typing.get_args(hint)
        simple = [_simple(option) for option in args]
        if all(found is not None for found in simple):
            classes = tuple(cls for found in simple if found is not None for cls in found[0])
            # A bool is refused when a number option refuses it and no option takes it as itself.
            no_bool = any(found[1] for found in simple if found is not None) and not any(
                issubclass(bool, cls) for found in simple if found is not None and not found[1] for cls in found[0]
            )
            if no_bool:
                return lambda value: isinstance(value, classes) and type(value) is not bool
            return lambda value: isinstance(value, classes)
        options = [_fitting(option) for option in args]
        if any(option is None for option in options):
            return None
        checks = [option for option in options if option is not None]
        return lambda value: any(check(value) for check in checks)
    simple_one = _simple(hint)
    if simple_one is not None:
        classes, no_bool = simple_one
        if no_bool:
            return lambda value: isinstance(value, classes) and type(value) is not bool
        return lambda value: isinstance(value, classes)
    if origin in (list, tuple):
        (item,) = typing.get_args(hint)[:1] or (Any,)
        return _each(item, lambda value: isinstance(value, list | tuple), lambda value: value)
    if origin is dict:
        key, item = typing.get_args(hint)
        keys = _each(key, lambda value: isinstance(value, dict), lambda value: value.keys())
        items = _fitting(item)
        if items is None:
            return keys
        return lambda value: keys(value) and all(map(items, value.values()))
    return None


def _each(item: Any, container: Callable[[Any], bool], members: Callable[[Any], Any]) -> Callable[[Any], bool]:
    """A container's check (``container``) with each of its ``members`` of the hint ``item``: a plain
    class's ``isinstance`` called from C over the members, no Python frame per member."""
    simple = _simple(item)
    if simple is not None and not simple[1]:
        classes = simple[0]
        return lambda value: container(value) and all(map(isinstance, members(value), repeat(classes)))
    each = _fitting(item)
    if each is None:
        return container
    return lambda value: container(value) and all(map(each, members(value)))


@functools.cache
def _checks(cls: type) -> tuple[tuple[str, Any, Callable[[Any], bool] | None], ...]:
    """Each declared field of an event class with its hint and its check made once (``_fitting``)."""
    return tuple((name, hint, _fitting(hint)) for name, hint in _declared(cls))


def find_checks() -> None:
    """Every event class's declared fields and their checks (``_checks``) found now, not at the first
    row of each class read: a server does it as it starts (``replay.service.common.opening.ready_to_serve``),
    where its first recorded hand found them (``typing.get_type_hints``: about 3 ms of CPU)."""
    classes: list[type] = list(EVENT_CLASSES.values())
    for kind in classes:
        _checks(kind)


def whole(event: Any) -> str | None:
    """What is missing from a decoded event or of the wrong type (None: it is whole)."""
    state = vars(event)
    kind: type = type(event)
    for name, hint, check in _checks(kind):
        if name not in state:
            return f"its {name!r} is missing"
        if check is not None and not check(state[name]):
            return f"its {name!r} is a {type(state[name]).__name__}, not {getattr(hint, '__name__', hint)}"
    if isinstance(event, Match.Started):
        players = state["players"]
        if not TABLE_SIZE.low <= len(players) <= TABLE_SIZE.high or len(set(players)) != len(players):
            return f"its players ({len(players)}, {len(set(players))} different) are no table's"
    facts = FACT_OF.get(type(event), FACTS)
    if isinstance(event, Match.Recorded) and not isinstance(state["fact"], facts):
        return f"its fact is a {type(state['fact']).__name__}, not one of the facts a {type(event).__name__} holds"
    if isinstance(event, Match.Corrected) and not isinstance(state["replacement"], (*FACTS, type(None))):
        return f"its replacement is a {type(state['replacement']).__name__}, not a fact"
    return None


# The classes the standard JSON encoder writes itself, subclasses too: it asks the transcoder only
# about a value of none of them.
_JSON_NATIVE = (str, int, float, list, tuple, dict)
_TYPE, _DATA, _END = b'{"_type_":', b',"_data_":', b"}"
# Each attribute's name as written before its value, found once per name.
_KEYS: dict[str, bytes] = {}
# The attributes' classes written as they are, alike by orjson and the standard encoder.
_EXACT_SCALARS = frozenset({str, int, bool, type(None)})
# No value's data made already (``HonbaMapper.to_stored_event_known``).
_NOTHING_KNOWN: Mapping[int, Any] = types.MappingProxyType({})


_CLASS_VERSIONS: dict[type, int] = {}


def _class_version(cls: type) -> int:
    """An event class's version (the library's ``class_version``, 1 where it declares none), found
    once per class: asked of every row, and a class without one raises (and formats) an
    ``AttributeError`` inside ``getattr`` each time."""
    found = _CLASS_VERSIONS.get(cls)
    if found is None:
        found = _CLASS_VERSIONS[cls] = getattr(cls, "class_version", 1)
    return found


class HonbaMapper(Mapper[UUID]):
    """The library's mapper, reading only honba's own events under the ids as the store writes them."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        """The library's ``to_stored_event``, its state's bytes written by ``orjson`` where they are the same.

        The library copies the event's attributes but its id and position and writes them with its
        JSON transcoder (the standard encoder, no spaces, ``ensure_ascii=False``, keys in the
        attributes' order), each value it cannot write itself as ``{"_type_": name, "_data_": ...}``
        by its transcoding: for an import's events, a Python callback per value and a second
        ``to_data`` of each fact. Here each attribute is written by ``orjson`` (``json_exactly``: the
        same bytes, or None where they might differ), and a transcoded one put together from its
        name and its data alike. Anything else (a cipher, a compressor, another transcoder, a class
        version, a value the check leaves to the standard encoder) is the library's own.
        ``tests/service/test_stored_bytes.py`` compares both on every event of the corpus's imports
        and on made-up values."""
        return self.to_stored_event_known(domain_event, _NOTHING_KNOWN)

    def to_stored_event_known(self, domain_event: Any, known: Mapping[int, Any]) -> StoredEvent:
        """``to_stored_event``, with the plain data (``domain.codec.to_data``) of some of the event's
        values made already by the caller, by the value's ``id()`` (the caller keeps the values alive):
        an import makes each fact's once for the store and its standings view. The same bytes."""
        state = self._state_bytes(domain_event, known)
        if state is None:
            return super().to_stored_event(domain_event)
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=get_topic(type(domain_event)),
            state=state,
        )

    def rows_known(self, events: Sequence[Any], known: Mapping[int, Any], spelled: dict[UUID, str]) -> list[Row]:
        """The rows the table holds (``replay.store.rows.Row``) of these events, in order (a match's, its
        seal's, its identity's, as an import prepares them): ``to_stored_event_known`` of each as its row,
        the same bytes, with no ``StoredEvent`` made where a state is written here, the mapper's own
        settings looked at once for them all, and each class's topic found once. ``spelled``: the ids
        spelled so far (``row_of``)."""
        types = self._json_types()
        # The library's own, for what is not written here (bound once: a comprehension has no ``super()``).
        library = super().to_stored_event
        if types is None:
            return [row_of(library(event), spelled) for event in events]
        rows: list[Row] = []
        # Each class's topic, or '' for a class with a version of its own (the library writes it).
        topics: dict[type, str] = {}
        last_id: Any = None
        last_text = ""
        for event in events:
            cls = type(event)
            topic = topics.get(cls)
            if topic is None:
                topic = topics[cls] = get_topic(cls) if _class_version(cls) <= 1 else ""
            state = None
            if topic:
                attributes = vars(event)
                # A hand's event (nearly every one of a match) by name, as ``_exact_state`` takes it first.
                if tuple(attributes) == _FACT_EVENT_ATTRIBUTES:
                    found = _fact_event_state(attributes, types, known)
                    if found is not None:
                        try:
                            state = orjson.dumps(found, option=UNSORTED)
                        except TypeError:  # (orjson's refusal is one) a number beyond 64 bits
                            state = None
                if state is None:
                    state = _state_bytes(event, types, known)
            if state is None:
                rows.append(row_of(library(event), spelled))
                continue
            # A match's events carry one id object: its text found once, by identity.
            stream = event.originator_id
            if stream is not last_id:
                last_id, last_text = stream, spelled_id(stream, spelled)
            rows.append((last_text, event.originator_version, topic, state))
        return rows

    def _json_types(self) -> dict[type, Transcoding] | None:
        """The transcodings of the library's JSON transcoder, when it is this mapper's alone (no other
        transcoder, no compressor, no cipher): the state's bytes may be written here; else None."""
        transcoder = self.transcoder
        if type(transcoder) is not JSONTranscoder or self.compressor is not None or self.cipher is not None:
            return None
        return transcoder.types

    def _state_bytes(self, domain_event: Any, known: Mapping[int, Any] = _NOTHING_KNOWN) -> bytes | None:
        """The bytes of an event's state as the library's JSON transcoder writes them, or None."""
        types = self._json_types()
        if types is None or _class_version(type(domain_event)) > 1:
            return None
        return _state_bytes(domain_event, types, known)

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        topic = stored_event.topic
        if event_class(topic) is None:
            raise ForeignRow(f"its topic {str(topic)[:80]!r} is not one of honba's events")
        if not isinstance(stored_event.originator_id, UUID):
            spelled = str(stored_event.originator_id)[:80]
            raise ForeignRow(f"it is stored under the id {spelled!r}, spelled otherwise than honba writes ids")
        event = super().to_domain_event(stored_event)
        created = vars(event).get("originator_topic")
        if created is not None and created not in AGGREGATE_TOPICS:
            raise ForeignRow(f"it names {str(created)[:80]!r}, none of honba's aggregates")
        missing = whole(event)
        if missing is not None:
            raise ForeignRow(f"it is not a whole {type(event).__name__}: {missing}")
        return event


def _state_bytes(domain_event: Any, types: dict[type, Transcoding], known: Mapping[int, Any]) -> bytes | None:
    """The bytes of an event's state as the library's JSON transcoder writes them (``types``: its
    transcodings; the mapper's settings and the class's version looked at by the caller), or None."""
    state = _exact_state(domain_event, types, known)
    if state is not None:
        try:
            return orjson.dumps(state, option=UNSORTED)
        except TypeError:  # (orjson's refusal is one) text UTF-8 refuses, a number beyond 64 bits
            pass
    pieces = []
    for name, value in vars(domain_event).items():
        if name == "originator_id" or name == "originator_version":
            continue
        key = _KEYS.get(name)
        if key is None:
            if type(name) is not str:
                return None
            key = _KEYS[name] = orjson.dumps(name) + b":"
        cls = type(value)
        if cls is str:  # most attributes: written alike (text UTF-8 refuses: the library's error)
            try:
                pieces.append(key + orjson.dumps(value))
            except orjson.JSONEncodeError:
                return None
            continue
        transcoding = types.get(cls)
        if transcoding is None or isinstance(value, _JSON_NATIVE):
            written = json_exactly(value, UNSORTED)
        else:
            plain = known.get(id(value)) if type(transcoding) is ValueTranscoding else None
            data = json_exactly(transcoding.encode(value) if plain is None else plain, UNSORTED)
            written = None if data is None else _TYPE + orjson.dumps(transcoding.name) + _DATA + data + _END
        if written is None:
            return None
        pieces.append(key + written)
    return b"{" + b",".join(pieces) + b"}"


# The attributes of a hand's, a deal pass's and a penalty's event, in the order the event holds them.
_FACT_EVENT_ATTRIBUTES = ("originator_id", "originator_version", "timestamp", "fact", "prior", "client_key")


def _fact_event_state(
    attributes: Mapping[str, Any], types: Mapping[type, Transcoding], known: Mapping[int, Any]
) -> dict[str, Any] | None:
    """``_exact_state`` of an event holding ``_FACT_EVENT_ATTRIBUTES`` (nearly every event of a match),
    its four written attributes looked at by name, not in a loop asking each what it is: the same
    state where its time is a ``datetime``, its fact a value of a class whose data is exact, its
    ``prior`` text and its client key text or None; else None (``_exact_state``'s loop decides)."""
    timestamp, fact, prior, client_key = (
        attributes["timestamp"],
        attributes["fact"],
        attributes["prior"],
        attributes["client_key"],
    )
    if type(timestamp) is not datetime or type(prior) is not str:
        return None
    if client_key is not None and type(client_key) is not str:
        return None
    time_coding, fact_class = types.get(datetime), type(fact)
    fact_coding = types.get(fact_class)
    if type(time_coding) is not DatetimeAsISO or type(fact_coding) is not ValueTranscoding:
        return None
    if not exact_data(fact_class):
        return None
    data = known.get(id(fact))
    if data is None:
        data = fact_coding.encode(fact)
    return {
        "timestamp": {"_type_": time_coding.name, "_data_": time_text(timestamp)},
        "fact": {"_type_": fact_coding.name, "_data_": data},
        "prior": prior,
        "client_key": client_key,
    }


# The attributes of a seal's event (``Seal.Sealed``: every recorded hand saves one), in order.
_SEALED_ATTRIBUTES = ("originator_id", "originator_version", "timestamp", "position", "head")


def _sealed_state(attributes: Mapping[str, Any], types: Mapping[type, Transcoding]) -> dict[str, Any] | None:
    """``_exact_state`` of an event holding ``_SEALED_ATTRIBUTES``, its three written attributes looked
    at by name: the same state where its time is a ``datetime``, its position a whole number and its
    head text; else None (``_exact_state``'s loop decides)."""
    timestamp, position, head = attributes["timestamp"], attributes["position"], attributes["head"]
    if type(timestamp) is not datetime or type(position) is not int or type(head) is not str:
        return None
    time_coding = types.get(datetime)
    if type(time_coding) is not DatetimeAsISO:
        return None
    return {
        "timestamp": {"_type_": time_coding.name, "_data_": time_text(timestamp)},
        "position": position,
        "head": head,
    }


def _exact_state(
    domain_event: Any, types: Mapping[type, Transcoding], known: Mapping[int, Any]
) -> dict[str, Any] | None:
    """An event's state as the library's transcoder writes it (its attributes in order, each it
    cannot write itself as ``{"_type_": name, "_data_": ...}``), as data orjson writes exactly alike,
    when every attribute is known to be such data without looking at its bytes: text, a whole number,
    true or false, None, a value whose transcoding writes it as text (a time, an id), or a domain
    value of a class whose field types hold nothing else (``domain.codec.exact_data``), or a list or
    dict the event's digest found exact (``domain.integrity.take_exact``). None when an attribute is
    anything else (another list or dict, a float): the event is written attribute by attribute. A
    hand's event is all of these, and so are a new match's start and end: its row is one call of
    orjson, no scan of its bytes."""
    attributes = vars(domain_event)
    names = tuple(attributes)
    if names == _FACT_EVENT_ATTRIBUTES:
        found = _fact_event_state(attributes, types, known)
        if found is not None:
            return found
    elif names == _SEALED_ATTRIBUTES:
        found = _sealed_state(attributes, types)
        if found is not None:
            return found
    state: dict[str, Any] = {}
    for name, value in attributes.items():
        if name == "originator_id" or name == "originator_version":
            continue
        cls = type(value)
        if cls in _EXACT_SCALARS:
            state[name] = value
            continue
        if (cls is list or cls is dict) and take_exact(value):
            # A list or dict its event's digest found orjson writes exactly (a match's rules, source,
            # players and opening; an end's final scores and points): written as ``json_exactly``
            # writes it attribute by attribute, no scan of its bytes again.
            state[name] = value
            continue
        transcoding = types.get(cls)
        if transcoding is None or isinstance(value, _JSON_NATIVE):
            return None
        if type(transcoding) is ValueTranscoding:
            if not exact_data(cls):
                return None
            data = known.get(id(value))
            if data is None:
                data = transcoding.encode(value)
        elif cls is datetime and type(transcoding) is DatetimeAsISO:
            data = time_text(value)  # its ``encode``: the text its digest wrote already
        else:
            data = transcoding.encode(value)
            if type(data) is not str:
                return None
        state[name] = {"_type_": transcoding.name, "_data_": data}
    return state
