"""Stored rows read for a fold, as the mapper reads them, without the mapper's cost per event.

A rebuild of the standings view reads every event of the store once. The library's mapper
decodes a row's JSON with a Python callback on every object of it, the mapper then checks the
event's fields against their ``typing`` hints (``replay.store.mapper.whole``), and the view
hashes every event again from its objects (``domain.integrity.event_digest``: each value
encoded back to plain data first). ``FoldReader`` reads a row as a plain read does (one
``json.loads`` in C), rebuilds only the values the row names at its top level (the time, the
fact) with the very transcodings the mapper uses, and makes the event object as the library
does. The digest of the event is worked out from the same decoded data, once: the view
follows each match's chain with it.

What it gives is what the mapper and ``event_digest`` give, value for value: a row it cannot
take that way (a typed value anywhere but at the top level, an escaped character that might
spell one, a class with upcasts, a cipher or a compressor, a value its transcoding refuses, a
field missing or of the wrong type) returns None, and the caller reads that row through the
mapper, which names what is wrong with it as before (``tests/service/test_fold_rows.py``
compares both ways on the corpus, and on damaged rows).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast
from uuid import UUID

from eventsourcing.persistence import JSONTranscoder, Transcoding, find_id_convertor

from domain.codec import FACT_TAGS, to_data
from domain.integrity import _content_fields, digest_of, plain
from projections.standings_view import ReadEvent
from replay.store.mapper import AGGREGATE_TOPICS, HonbaMapper, event_class, whole
from replay.store.transcoding import ValueTranscoding

# How the library's JSON transcoder marks a typed value: {"_type_": name, "_data_": data}.
_MARK = b'"_type_"'
# An escaped character could spell the mark without its bytes appearing: such a row goes the slow way.
_ESCAPE = b"\\u"


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
        self._classes: dict[str, tuple[type[Any], tuple[str, ...], str, Callable[[Any], Any]] | None] = {}

    def _class(self, topic: str, id_type: type) -> tuple[type[Any], tuple[str, ...], str, Callable[[Any], Any]] | None:
        key = f"{topic}|{id_type.__name__}"
        if key not in self._classes:
            cls = event_class(topic)
            found = None
            if cls is not None and getattr(cls, "class_version", 1) == 1:
                convert = find_id_convertor(cast(Any, cls), cast(Any, id_type))
                found = (cls, _content_fields(cast(Any, cls)), cls.__qualname__, convert)
            self._classes[key] = found
        return self._classes[key]

    def read(self, row: Any) -> ReadEvent | None:
        """The event of a stored row (a notification or a stored event) with its digest; None when
        this row must be read through the mapper."""
        state = row.state
        originator_id = row.originator_id
        if not self.usable or type(state) is not bytes or type(originator_id) is not UUID or _ESCAPE in state:
            return None
        known = self._class(row.topic, UUID)
        if known is None:
            return None
        cls, fields, qualname, convert = known
        try:
            data = json.loads(state)
        except ValueError:
            return None
        if type(data) is not dict or "class_version" in data:
            return None
        marks = state.count(_MARK)
        plains: dict[str, Any] = {}
        fact_data = None
        for name, value in data.items():
            if type(value) is dict and "_type_" in value:
                # A mark whose name is not text (damage: a list, a number) is the mapper's to name.
                if len(value) != 2 or "_data_" not in value or type(value["_type_"]) is not str:
                    return None
                transcoding = self._names.get(value["_type_"])
                if transcoding is None:
                    return None
                try:
                    decoded = transcoding.decode(value["_data_"])
                except Exception:  # refused by its transcoding: the mapper names why
                    return None
                data[name] = decoded
                marks -= 1
                if isinstance(transcoding, ValueTranscoding):
                    plain_data = to_data(decoded)
                    plains[name] = plain_data | {"__type__": type(decoded).__name__}
                    tag = FACT_TAGS.get(type(decoded))
                    if tag is not None and name in ("fact", "replacement"):
                        fact_data = {"type": tag, **plain_data}
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
                found = str(value) if name == "originator_id" else value
            content[name] = found
        return ReadEvent(event, digest_of(content), fact_data)
