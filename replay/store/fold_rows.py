"""Stored rows read for a fold, as the mapper reads them, without the mapper's cost per event.

A rebuild of the standings view reads every event of the store once. The library's mapper
decodes a row's JSON with a Python callback on every object of it, the mapper then checks the
event's fields against their ``typing`` hints (``replay.store.mapper.whole``), and the view
hashes every event again from its objects (``domain.integrity.event_digest``: each value
encoded back to plain data first). ``FoldReader`` reads a row as a plain read does (one
``json.loads`` in C), rebuilds only the values the row names at its top level (the time, the
fact) with the very transcodings the mapper uses, and makes the event object as the library
does. The digest of the event is worked out from the same decoded data, once: the view
follows each match's chain with it. Its canonical JSON is written by ``orjson`` when each float of
the row is one orjson writes as ``canonical`` does (``domain.integrity.exact_digest``, the one function
that writes the canonical JSON by orjson, also an import's): the same bytes, in C.

What it gives is what the mapper and ``event_digest`` give, value for value: a row it cannot
take that way (a typed value anywhere but at the top level, an escaped character that might
spell one, a class with upcasts, a cipher or a compressor, a value its transcoding refuses, a
field missing or of the wrong type) returns None, and the caller reads that row through the
mapper, which names what is wrong with it as before (``tests/service/test_fold_rows.py``
compares both ways on the corpus, and on damaged rows).
"""

from __future__ import annotations

import json
import re
import typing
from collections.abc import Callable
from datetime import datetime
from typing import Any, cast
from uuid import UUID

import attrs
import orjson
from eventsourcing.persistence import JSONTranscoder, Transcoding, find_id_convertor

from domain.codec import FACT_TAGS, VALUE_CLASSES, to_data
from domain.integrity import _content_fields, exact_digest, plain
from projections.standings_view import ReadEvent
from replay.store.mapper import AGGREGATE_TOPICS, HonbaMapper, event_class, whole
from replay.store.sqlite_store import HonbaSQLiteRecorder
from replay.store.transcoding import ValueTranscoding

# How the library's JSON transcoder marks a typed value: {"_type_": name, "_data_": data}.
_MARK = b'"_type_"'
# An escaped character could spell the mark without its bytes appearing: such a row goes the slow way.
_ESCAPE = b"\\u"
# A time in UTC with its microseconds, as ``datetime.isoformat`` writes the time ``fromisoformat`` reads
# from it, digit for digit (ASCII digits only; microseconds of 0 it would leave out; no other offset).
_ISOFORMAT = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.(?!000000)[0-9]{6}\+00:00", re.ASCII)
# A topic not looked up yet (``FoldReader._class``).
_UNKNOWN: Any = object()
# What Python's JSON decoder makes of the constants it takes beside numbers.
_CONSTANTS = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}


def _may_hold_float(hint: Any, seen: frozenset[type] = frozenset()) -> bool:
    """Whether a value of this field type may hold a float (``Any`` may: it is not known)."""
    if hint is float or hint is Any:
        return True
    if isinstance(hint, type) and attrs.has(hint):
        if hint in seen:
            return False
        fields = attrs.fields(attrs.resolve_types(hint))
        return any(_may_hold_float(field.type, seen | {hint}) for field in fields)
    return any(_may_hold_float(arg, seen) for arg in typing.get_args(hint) if arg is not Ellipsis)


# The domain's values whose plain data never holds a float, whatever the row said: a value of any
# other class (``TableState``'s final points, made floats by its converter) is hashed the slow way.
FLOATLESS: frozenset[type] = frozenset(cls for cls in VALUE_CLASSES if not _may_hold_float(cls))


class FoldRow:
    """A stored row as the library's ``Notification`` holds it (its notification id, its aggregate's id
    and position, its topic and state), read by ``select_rows``: what ``FoldReader.read`` and the
    store's mapper read a row from."""

    __slots__ = ("id", "originator_id", "originator_version", "state", "topic")

    def __init__(self, id: int, originator_id: UUID | str, originator_version: int, topic: str, state: bytes):
        self.id = id
        self.originator_id = originator_id
        self.originator_version = originator_version
        self.topic = topic
        self.state = state


def select_rows(
    recorder: Any, start: int, limit: int, stop: int | None, topics: tuple[str, ...]
) -> tuple[int, int, list[Any]] | None:
    """The rows after notification id ``start`` (up to ``stop``, at most ``limit`` of them) as the
    recorder's ``select_notifications`` gives them: the last one's id, how many there were, and those
    whose topic starts with one of ``topics`` (what a fold reads); None when there are none.

    On honba's SQLite store, in one statement of its own, each row a ``FoldRow``: the library's makes
    each row a frozen ``Notification`` and its aggregate's id a new ``UUID`` (``convert_originator_id``,
    a regular expression and ``UUID()`` in Python per row), here converted once per aggregate, the
    same object then for each of its rows (three times the statement's own cost for the corpus's
    rows: docs/performance.md). Elsewhere, the recorder's own."""
    if type(recorder) is not HonbaSQLiteRecorder:
        notifications = recorder.select_notifications(start=start, limit=limit, stop=stop, inclusive_of_start=False)
        if not notifications:
            return None
        return notifications[-1].id, len(notifications), [n for n in notifications if n.topic.startswith(topics)]
    # The library's statement (``SQLiteApplicationRecorder.select_notifications``), its columns named.
    within = "rowid>?" if stop is None else "rowid>? AND rowid<=?"
    statement = (
        f"SELECT rowid, originator_id, originator_version, topic, state FROM {recorder.events_table_name} "
        f"WHERE {within} ORDER BY rowid LIMIT ?"
    )
    with recorder.datastore.transaction(commit=False) as c:
        c.execute(statement, (start, limit) if stop is None else (start, stop, limit))
        found = c.fetchall()
    if not found:
        return None
    ids: dict[str, UUID | str] = {}
    convert = recorder.convert_originator_id
    rows = []
    for rowid, text, version, topic, state in found:
        if topic.startswith(topics):
            originator_id = ids.get(text)
            if originator_id is None:
                originator_id = ids[text] = convert(text)
            rows.append(FoldRow(rowid, originator_id, version, topic, state))
    return found[-1][0], len(found), rows


class FoldReader:
    """Reads stored rows for a fold (``read``), or says it cannot (``usable``: the store's mapper is
    not honba's plain JSON one, with neither cipher nor compressor)."""

    def __init__(self, mapper: Any):
        transcoder = getattr(mapper, "transcoder", None)
        self.usable = (
            type(mapper) is HonbaMapper
            and type(transcoder) is JSONTranscoder
            and mapper.cipher is None
            and mapper.compressor is None
        )
        self._names: dict[str, Transcoding] = dict(transcoder.names) if self.usable else {}  # type: ignore[union-attr]
        # Whether each named transcoding is one of the domain's values (``ValueTranscoding``), asked once.
        self._values = {name: isinstance(found, ValueTranscoding) for name, found in self._names.items()}
        self._classes: dict[str, tuple[type[Any], tuple[str, ...], str, Callable[[Any], Any]] | None] = {}
        # The rows' JSON is parsed by the C scanner the mapper's decoder uses, with every float it
        # parses checked: ``inexact`` counts those ``orjson`` would write otherwise than the canonical
        # JSON (which writes a float as its ``repr``), and every NaN and infinity (``null`` in orjson).
        # A row with none is hashed by ``orjson``.
        self.inexact = 0
        decoder = json.JSONDecoder(parse_float=self._float, parse_constant=self._constant)
        # The decoder's scanner (C's ``c_make_scanner``), called at the row's start: the typeshed stubs
        # do not name it, so it is looked up by name.
        self._scan: Callable[[str, int], tuple[Any, int]] = getattr(decoder, "scan_once")  # noqa: B009
        self._last_id: Any = None
        self._last_text = ""

    def scan(self, text: str) -> Any:
        """A row's JSON as ``read`` parses it (each float checked: ``inexact``); the benchmark's stages."""
        return self._scan(text, 0)[0]

    def transcoding(self, name: str) -> Transcoding:
        """The store's transcoding of a typed value's name (``KeyError``: none of that name)."""
        return self._names[name]

    def _id_text(self, value: Any) -> str:
        """``str`` of an aggregate's id, made once for the rows of an aggregate that follow each other
        carrying the same id object (``select_rows`` gives one per aggregate)."""
        if value is not self._last_id:
            self._last_id, self._last_text = value, str(value)
        return self._last_text

    def _float(self, text: str) -> float:
        value = float(text)
        if orjson.dumps(value) != float.__repr__(value).encode():
            self.inexact += 1
        return value

    def _constant(self, text: str) -> float:
        self.inexact += 1
        return _CONSTANTS[text]

    def _class(self, topic: str, id_type: type) -> tuple[type[Any], tuple[str, ...], str, Callable[[Any], Any]] | None:
        """The event class of a topic, its digest's fields, its name and its id's conversion, found once
        per topic (``read`` takes ids of one type, the UUIDs the store gives)."""
        cls = event_class(topic)
        found = None
        if cls is not None and getattr(cls, "class_version", 1) == 1:
            convert = find_id_convertor(cast(Any, cls), cast(Any, id_type))
            found = (cls, _content_fields(cast(Any, cls)), cls.__qualname__, convert)
        self._classes[topic] = found
        return found

    def read(self, row: Any) -> ReadEvent | None:
        """The event of a stored row (a notification or a stored event) with its digest; None when
        this row must be read through the mapper."""
        state = row.state
        originator_id = row.originator_id
        if not self.usable or type(state) is not bytes or type(originator_id) is not UUID or _ESCAPE in state:
            return None
        known = self._classes.get(row.topic, _UNKNOWN)
        if known is _UNKNOWN:
            known = self._class(row.topic, UUID)
        if known is None:
            return None
        cls, fields, qualname, convert = known
        # As the library's decoder reads it: UTF-8, one JSON value, here with nothing after it.
        self.inexact = 0
        try:
            text = state.decode("utf-8")
            data, end = self._scan(text, 0)
        except (ValueError, StopIteration):
            return None
        if end != len(text) or type(data) is not dict or "class_version" in data:
            return None
        exact = not self.inexact
        marks = state.count(_MARK)
        plains: dict[str, Any] = {}
        fact_data = None
        for name, value in data.items():
            if type(value) is dict and "_type_" in value:
                # A mark whose name is not text (damage: a list, a number) is the mapper's to name.
                if len(value) != 2 or "_data_" not in value or type(value["_type_"]) is not str:
                    return None
                type_name = value["_type_"]
                transcoding = self._names.get(type_name)
                if transcoding is None:
                    return None
                try:
                    decoded = transcoding.decode(value["_data_"])
                except Exception:  # refused by its transcoding: the mapper names why
                    return None
                data[name] = decoded
                marks -= 1
                if self._values[type_name]:
                    if type(decoded) not in FLOATLESS:
                        exact = False
                    plain_data = to_data(decoded)
                    plains[name] = plain_data | {"__type__": type(decoded).__name__}
                    tag = FACT_TAGS.get(type(decoded))
                    if tag is not None and name in ("fact", "replacement"):
                        fact_data = {"type": tag, **plain_data}
                elif type(decoded) is datetime:  # the time of every event: what ``plain`` gives it
                    written = value["_data_"]
                    # Spelled as ``isoformat`` spells the time it parsed to (what honba writes), the
                    # text is that spelling: not spelled out again for every row.
                    same = type(written) is str and _ISOFORMAT.fullmatch(written) is not None
                    plains[name] = written if same else decoded.isoformat()
                else:
                    plains[name] = plain(decoded)
        if marks:
            return None  # a typed value below the top level (or a key spelled as the mark)
        data["originator_id"] = convert(originator_id)
        data["originator_version"] = row.originator_version
        event = object.__new__(cls)
        object.__setattr__(event, "__dict__", data)
        created = data.get("originator_topic")
        if (created is not None and created not in AGGREGATE_TOPICS) or whole(event) is not None:
            return None
        content: dict[str, Any] = {"event": qualname}
        for name in fields:
            found = plains.get(name)
            if found is None:
                value = data[name]
                found = self._id_text(value) if name == "originator_id" else value
            content[name] = found
        return ReadEvent(event, exact_digest(content, exact), fact_data)
