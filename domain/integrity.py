"""Tamper evidence: a hash chain over a match's events, and over a record file's lines.

Each event names the digest of the event before it (``prior``); an event's own
digest covers its content and that ``prior``, so the digest of the last event
commits to the whole history. The digest leaves out the event's position so that
a check can tell rows moved around (reordered) from rows whose content changed
(altered). ``check_chain`` reads a sequence of links and names what is wrong.

A plain SHA-256 chain shows edits made by someone who did not recompute it; it
is no signature. Publishing a match's head digest (``honba audit`` prints it)
lets anyone detect a history rewritten later, the last event included.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import itertools
import json
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import attrs
import orjson

from domain.codec import exact_data, to_data, value_fields
from domain.said import Said

GENESIS = ""


# ``json.dumps`` builds a ``JSONEncoder`` and its C encoder again at every call: a quarter of the
# cost of encoding one event's content, and every event is hashed (an import, a rebuild of the
# standings). The same C encoder with the same options, made once, writes the same bytes. It is
# made without the circular check (``markers`` None: one shared check dict could keep an entry
# after a refused value): what is encoded here is plain data, made fresh, with no cycle in it.
_DUMPS_OPTIONS: dict[str, Any] = {"sort_keys": True, "separators": (",", ":"), "ensure_ascii": False}
_C_ENCODER: Any = getattr(json.encoder, "c_make_encoder", None)
_ENCODE: Any = (
    None
    if _C_ENCODER is None
    else _C_ENCODER(None, json.JSONEncoder().default, json.encoder.encode_basestring, None, ":", ",", True, False, True)
)


def canonical(data: Any) -> bytes:
    """The canonical bytes of plain data: sorted keys, no spaces, UTF-8 (``json.dumps`` with
    ``sort_keys=True, separators=(",", ":"), ensure_ascii=False``, byte for byte)."""
    if _ENCODE is None:  # a Python without the C encoder: json.dumps itself
        return json.dumps(data, **_DUMPS_OPTIONS).encode("utf-8")
    return "".join(_ENCODE(data, 0)).encode("utf-8")


# ``orjson`` writes plain data as the standard library's encoder does (``canonical``'s options, and
# the library transcoder's: no spaces, ``ensure_ascii=False``; with ``OPT_SORT_KEYS`` keys sorted by
# code point): the same escapes, integers, text, ``true``, ``false`` and ``null``, in C, about ten
# times faster. Not every float: ``canonical`` writes a float as its ``repr`` (``1e-05``, ``1e+16``,
# ``NaN``), orjson ``0.00001`` (for ``1e-05``), ``null`` (for a NaN). And orjson writes some things the standard
# encoder refuses or writes otherwise: a ``UUID`` (as text: searched for below), a datetime, a
# dataclass, a subclass of ``str``, ``int``, ``dict`` or ``list`` (told to pass them through, it
# raises), a key that is not text and an integer beyond 64 bits (it raises). One difference is left:
# an ``Enum`` that is neither text nor a number, which the standard encoder refuses, orjson writes as
# its value. No event holds one (the domain's values are written by ``to_data``, which writes every
# enumeration as its value), so a value that raised before is written now, nothing written changes.
_PASS_THROUGH = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_SUBCLASS
SORTED = _PASS_THROUGH | orjson.OPT_SORT_KEYS
UNSORTED = _PASS_THROUGH
# What orjson writes a float as, or anything the standard encoder would write otherwise, looks like,
# in bytes: a point before a digit or a digit before an exponent with its sign (every finite float has
# one: ``1.0``, ``1e-7``, ``1e+16``), ``null`` (a NaN or an infinity), a UUID's text. Bytes without any
# of them hold no such value and are the standard encoder's; bytes with one (a float, a ``None``, or
# text that looks like one) are checked value by value (``_suspect``). Each pattern starts with a rare
# byte: one starting with a class of digits tries every digit of a game's tiles, 30 to 100 times slower.
_POINT = re.compile(rb"\.[0-9]")
_EXPONENT = re.compile(rb"e[-+][0-9]")
_UUID_END = re.compile(rb'-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"')


def _suspect(found: bytes) -> bool:
    """Whether bytes orjson wrote may hold a float, a NaN, an infinity or a UUID (see above)."""
    if b"null" in found or _POINT.search(found) is not None or _UUID_END.search(found) is not None:
        return True
    # Each hit looked at from the one before, not from the start again: a log's file name (``...-wire-
    # 2018/...``) has one near the start of its match's source, whose tiles were then scanned twice.
    hit = _EXPONENT.search(found)
    while hit is not None:
        start = hit.start()
        if found[start - 1 : start].isdigit():
            return True
        hit = _EXPONENT.search(found, hit.end())
    return False


_PLAIN_SCALARS = (str, int, bool, type(None))
_PLAIN_SCALAR_SET = frozenset(_PLAIN_SCALARS)
_TEXT = frozenset({str})
# Each float met by ``_exactly_plain`` with whether orjson writes it as its ``repr``, by its value:
# equal floats are the same number (0.0 and -0.0 are both written as their ``repr``; a NaN equals no
# key), and a match's final points repeat (25.0, -15.0, ...). Kept small, all let go at once.
_FLOATS: dict[float, bool] = {}
_FLOATS_KEPT = 4096


def _float_as_repr(item: float) -> bool:
    """Whether orjson writes a float as its ``repr`` (``float.__repr__``), found once per value."""
    found = _FLOATS.get(item)
    if found is None:
        found = orjson.dumps(item) == float.__repr__(item).encode()
        if len(_FLOATS) >= _FLOATS_KEPT:
            _FLOATS.clear()
        _FLOATS[item] = found
    return found


def _exactly_plain(data: Any) -> bool:
    """Whether data is plain JSON (dicts with text keys, lists, tuples, text, integers, booleans,
    ``None``) whose every float orjson writes as its ``repr``: what orjson writes as the standard
    encoder does.

    Walked with a stack of what is left to see, not by recursion: a call and a generator per list or
    dict cost the walk half as much again (a match's figures and summary, their final points floats,
    are walked for every match an import stores). A list's or a dict's items that are all scalars
    (the classes of its items, found in C) are not put on the stack one by one: most of a match's
    document and figures are such lists and dicts. Nesting orjson refuses never comes here
    (``json_exactly``)."""
    left = [data]
    pop, extend = left.pop, left.extend
    while left:
        item = pop()
        cls = type(item)
        if cls in _PLAIN_SCALAR_SET:
            continue
        if cls is float:
            if not _float_as_repr(item):
                return False
        elif cls is list or cls is tuple:
            if not _PLAIN_SCALAR_SET.issuperset(map(type, item)):
                extend(item)
        elif cls is dict:
            if not _TEXT.issuperset(map(type, item)):
                return False
            values = item.values()
            if not _PLAIN_SCALAR_SET.issuperset(map(type, values)):
                extend(values)
        else:
            return False
    return True


def plain_items(items: Any) -> bool:
    """Whether every item of a list or tuple (every key of a dict) is text, a whole number, true or
    false, or None: what orjson writes as the standard encoder does, known from their classes (in C)."""
    return _PLAIN_SCALAR_SET.issuperset(map(type, items))


def exact_numbers(items: Any) -> bool:
    """Whether every item is a whole number or a float orjson writes as its ``repr``
    (``_float_as_repr``, as ``_exactly_plain`` asks of each float it meets): a match's final points."""
    for item in items:
        cls = type(item)
        if cls is float:
            if not _float_as_repr(item):
                return False
        elif cls is not int:
            return False
    return True


def json_exactly(data: Any, option: int = SORTED, *, kept: bool = True) -> bytes | None:
    """The bytes the standard library's compact JSON encoder writes for plain data (``canonical``'s
    with ``SORTED``, the event library's transcoder's with ``UNSORTED``), written by ``orjson``; None
    where they might differ (see ``_suspect``: a float orjson writes otherwise, a value that is not
    plain JSON), or orjson refuses the data: the caller encodes it the standard way. ``kept``: long
    bytes found clean are kept (``_CLEAN``); False for bytes written once (a match's source, every
    tile of its game: hashed to be looked up and kept, for nothing, and pushing out a match's rules)."""
    try:
        found = orjson.dumps(data, option=option)
    except (TypeError, orjson.JSONEncodeError):
        return None
    cls = type(data)
    if cls is str or cls is int or cls is bool or data is None:
        return found  # written alike, ``None`` as ``null`` too
    if kept and _CLEAN_FROM <= len(found) <= _CLEAN_TO:
        if found in _CLEAN:
            return found
        if not _suspect(found):
            if len(_CLEAN) >= _CLEAN_KEPT:
                _CLEAN.clear()
            _CLEAN[found] = None
            return found
    elif not _suspect(found):
        return found
    return found if _exactly_plain(data) else None


# Long bytes found clean (``_suspect``: no float, ``null`` or UUID text in them), kept by the bytes
# themselves: whether bytes are clean depends on nothing else. A match's rules (about 2 KB) are written
# six times as the same bytes while an import prepares it (its ``Ruleset`` found by them, its digest,
# its event's digest, its standings reference and document): hashing them is a twentieth of scanning
# them. Few are kept, none longer than 16 KB (a whole game's source is written twice, and otherwise:
# what is kept stays small), and all let go at once: what is looked up again is what was just written.
_CLEAN: dict[bytes, None] = {}
_CLEAN_FROM = 512
_CLEAN_TO = 16384
_CLEAN_KEPT = 64


def exact_canonical(data: Any, exact: bool | None = None) -> bytes:
    """``canonical(data)``, byte for byte, encoded by ``orjson`` where that gives the same bytes.

    ``exact``: the caller has checked that every float of the data is one orjson writes as
    ``canonical`` does (``replay.store.fold_rows.FoldReader`` compares each float its JSON decoder
    parses with its ``repr``, and counts every NaN and infinity); False: it is not, and ``canonical``
    encodes; None: the bytes orjson writes are checked here (``json_exactly``). Whenever orjson refuses
    the data (an integer beyond 64 bits, a key not text, nesting past its limit), it is ``canonical``'s
    own encoding, which also raises where it always did. ``tests/service/test_fold_rows.py`` and
    ``tests/unit/test_exact_json.py`` compare the two on every corpus row and on made-up data."""
    if exact:
        try:
            return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
        except (TypeError, orjson.JSONEncodeError):
            pass
    elif exact is None:
        found = json_exactly(data)
        if found is not None:
            return found
    return canonical(data)


def exact_digest(content: Any, exact: bool | None = None) -> str:
    """``digest_of(content)``, byte for byte, its bytes written by ``exact_canonical``."""
    return hashlib.sha256(exact_canonical(content, exact)).hexdigest()


def digest_of(data: Any) -> str:
    """SHA-256 of the canonical encoding, in hex."""
    return hashlib.sha256(exact_canonical(data)).hexdigest()


def digests_of_items(
    items: Sequence[Any], exact: Sequence[bool | None] = (), *, each: bool = True
) -> tuple[str, list[str]]:
    """``digest_of(items)`` and ``digest_of`` each item, each item encoded once (``each``: False, the
    list's digest alone, no item hashed on its own: an empty list in their place).

    The canonical encoding of a list is its items' canonical encodings, comma-separated in
    brackets (no spaces, nothing depends on the place of an item), so the list's bytes are
    put together from the items' and give the very same digest.

    ``exact``: for each item (as far as it goes), ``exact_canonical``'s ``exact``: True where the
    caller knows it is data orjson writes as ``canonical`` does (a fact's plain data, by its class's
    field types: ``domain.codec.exact_data``), None where its bytes are to be checked.
    """
    known = len(exact)
    encoded = [exact_canonical(item, exact[index] if index < known else None) for index, item in enumerate(items)]
    whole = hashlib.sha256(b"[" + b",".join(encoded) + b"]").hexdigest()
    return whole, [hashlib.sha256(one).hexdigest() for one in encoded] if each else []


def prefix_digests(items: Sequence[Any]) -> list[str]:
    """``digest_of(items[:n])`` for every n from 1 to the number of items, each item encoded once."""
    found = []
    whole = hashlib.sha256(b"[")
    for index, item in enumerate(items):
        whole.update((b"," if index else b"") + exact_canonical(item))
        closed = whole.copy()
        closed.update(b"]")
        found.append(closed.hexdigest())
    return found


_SCALARS = frozenset({str, int, float, bool, type(None)})


def plain(value: Any) -> Any:
    """A value as plain JSON-ready data: domain values tagged with their class, ids and times as text."""
    cls = type(value)
    if cls in _SCALARS:  # the common case first: most fields are plain already
        return value
    # Items already plain skip the call (a match's source holds every tile of every hand: an import
    # hashes thousands per game); a plain list or dict is none of the classes asked about below.
    if cls is list or cls is tuple:
        return [v if type(v) in _SCALARS else plain(v) for v in value]
    if cls is dict:
        return {k if type(k) is str else str(k): v if type(v) in _SCALARS else plain(v) for k, v in value.items()}
    if value_fields(cls) is not None:
        return to_data(value) | {"__type__": cls.__name__}
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


@functools.cache
def _content_fields(cls: type) -> tuple[str, ...]:
    # Found once per event class: every event recorded is hashed.
    return tuple(f.name for f in dataclasses.fields(cls) if f.name != "originator_version")


def event_content(event: Any) -> dict[str, Any]:
    """What an event's digest covers: its class, match, time, fields and ``prior``; not its position."""
    return {
        "event": type(event).__qualname__,
        **{name: plain(getattr(event, name)) for name in _content_fields(event.__class__)},
    }


def event_digest(event: Any, known: tuple[Any, Any] | None = None) -> str:
    """The digest of one event (its content and the ``prior`` it names): ``digest_of(event_content(event))``.

    Put together field by field, as ``digests_of_items`` puts a list together: the canonical bytes
    of a dict are its keys, sorted, each with its value's canonical bytes, in braces; each value's
    bytes are ``exact_canonical``'s, from the field as it is (a match's source, every tile of its
    game, is not copied into plain data first), or its plain data where it is not plain JSON already.

    ``known``: one of the event's values and its plain data (``domain.codec.to_data``) made already by
    the caller (a match's command makes each new fact's once, for its digest, its stored row and its
    standings documents: ``Match.pending_data``); used for the field holding that very value.
    """
    cls = event.__class__
    content = _exact_content(event, cls, known)
    if content is not None:
        try:
            return hashlib.sha256(orjson.dumps(content, option=SORTED)).hexdigest()
        except TypeError:  # (orjson's refusal is one) an integer beyond 64 bits: the fields one by one
            pass
    # Hashed piece by piece, never joined: a field's bytes can be large (a checkpoint's leaves, one per
    # match it covers: joined and braced, they were copied three times over, the peak of an import's
    # storing process at ten times the corpus).
    digest = hashlib.sha256(b"{")
    update = digest.update
    for number, (key, name) in enumerate(_content_keys(cls)):
        if number:
            update(b",")
        update(key)
        if not name:
            update(orjson.dumps(cls.__qualname__))
            continue
        value = getattr(event, name)
        kind = type(value)
        if known is not None and value is known[0]:
            update(_value_canonical(value, known[1] | {"__type__": kind.__name__}))
        elif kind is list or kind is dict:
            kept = _EXACT_VALUES.get(id(value))
            if kept is not None and kept[0] is value:
                found = kept[1]  # written for its event already (``written_for_event``)
            else:
                written = json_exactly(value, kept=False)
                if written is None:
                    found = canonical(plain(value))
                else:
                    found = written
                    _remember_exact(value, written)
            update(found)
        else:
            update(plain_canonical(value))
    update(b"}")
    return digest.hexdigest()


# An event's lists and dicts (a match's rules, its source with every tile of its game, its players and
# opening; an end's final scores and points) that ``event_digest`` found orjson writes as the standard
# encoder does, by id, each kept while it is alive (the entry holds it: its id names no other object
# meanwhile). Whether bytes are exact is a matter of the values alone, not of the keys' order: the same
# values are written exactly as the library's transcoder writes them (``replay.store.mapper``), whose
# row of the event then is one call of orjson, with no scan of its bytes; kept with the canonical bytes
# the digest wrote, which ``plain_canonical`` and ``written_exactly`` give again (a match's rules are
# written for its standings reference and its content's rules digest too). An event's values are not
# changed once it is made (its digest, and the chain after it, cover them). Each is let go when its row
# takes it (``take_exact``: a source holds every tile of its game), and all at once past a few: a
# reading worker prepares a file's games right after building them, and a file of more loses only the
# shortcut. Every event digested is seen here, those read back from the store too (a check, a
# checkpoint's leaves: one per match, growing with the store), which no row takes: so few are kept,
# the oldest let go first, and none longer than a game's source, or an import's storing process held
# a checkpoint's whole list of leaves alive (its peak at ten times the corpus 1.18x its peak at once,
# not 1.12x).
_EXACT_VALUES: dict[int, tuple[Any, bytes]] = {}
_EXACT_VALUES_KEPT = 16
_EXACT_BYTES_MOST = 65536


def _remember_exact(value: list[Any] | dict[str, Any], written: bytes) -> None:
    if len(written) > _EXACT_BYTES_MOST:
        return
    while len(_EXACT_VALUES) >= _EXACT_VALUES_KEPT:
        # The oldest let go first: the game being built keeps its values for its rows.
        try:
            del _EXACT_VALUES[next(iter(_EXACT_VALUES))]
        except (KeyError, RuntimeError, StopIteration):  # another thread let it go meanwhile
            break
    _EXACT_VALUES[id(value)] = (value, written)


def take_exact(value: Any) -> bool:
    """Whether a list or dict of an event is one ``event_digest`` found orjson writes exactly as the
    standard encoder does (with either order of keys): that very object. It is forgotten then (its
    stored row is the last to write it; asked again, the answer is False and it is scanned)."""
    found = _EXACT_VALUES.get(id(value))
    if found is None or found[0] is not value:
        return False
    _EXACT_VALUES.pop(id(value), None)  # (another thread may have let them all go meanwhile)
    return True


def written_for_event(value: list[Any] | dict[str, Any]) -> None:
    """Write and check a list or dict made for an event about to be made (a new match's rules, which
    its match builds its ``Ruleset`` by before its digest is worked out), once for both."""
    found = json_exactly(value)
    if found is not None:
        _remember_exact(value, found)


def written_as(value: list[Any] | dict[str, Any], written: bytes) -> None:
    """What ``written_for_event`` remembers of a list or dict made for an event about to be made, its
    bytes ``written`` put together by the caller from bytes ``json_exactly`` wrote (a new match's rules
    named with a log's date: the bytes of the same rules under another description, with this one's,
    ``domain.match.start_values``): the canonical bytes orjson writes of it, found exact."""
    _remember_exact(value, written)


def written_exactly(value: Any) -> bytes | None:
    """``json_exactly(value)``: the canonical bytes its event's digest wrote of a list or dict it found
    exact (a match's rules: its standings reference and its content's rules digest are made of them
    before its row takes them), else written and checked here."""
    found = _EXACT_VALUES.get(id(value))
    if found is not None and found[0] is value:
        return found[1]
    return json_exactly(value)


_EXACT_SCALARS = frozenset(_PLAIN_SCALARS)
# Each event's time and its match's id as text (``time_text``, ``id_text``), kept by the value itself
# while it is alive (the entry holds it: its id names no other object meanwhile). Enough are kept for
# a file's games (a reading worker builds them all, then prepares them), and all let go at once.
_TIMES: dict[int, tuple[datetime | UUID, str]] = {}
_TIMES_KEPT = 4096


def written_all() -> None:
    """Let go of every id and time kept with its text (``_TIMES``): the events made so far have all
    been written (an import's batch stored, its files recorded). Kept, they stayed until 4,096 were:
    an import's storing process, which makes a game identity's and a file's record per game, reached
    that bound at ten times the corpus and a third of it at once (issue 36)."""
    _TIMES.clear()


def id_text(value: UUID) -> str:
    """``str(value)`` of a ``UUID`` (not of a subclass), written once per id object: every event of a
    match names its id (``originator_id``) in its digest, the same object (a UUID is immutable)."""
    found = _TIMES.get(id(value))
    if found is not None and found[0] is value:
        return found[1]
    text = str(value)
    if type(value) is UUID:
        if len(_TIMES) >= _TIMES_KEPT:
            _TIMES.clear()
        _TIMES[id(value)] = (value, text)
    return text


def time_text(value: datetime) -> str:
    """``value.isoformat()`` of a ``datetime`` (not of a subclass: its own ``isoformat`` is called),
    written once per time: an event's digest writes its time as the event is made, its stored row
    again as its match is prepared (``replay.store.mapper``), the same object (a datetime is
    immutable, so the text made of it stays true)."""
    found = _TIMES.get(id(value))
    if found is not None and found[0] is value:
        return found[1]
    text = _utc_text(value) if type(value) is datetime and value.tzinfo is UTC else value.isoformat()
    if type(value) is datetime:
        if len(_TIMES) >= _TIMES_KEPT:
            _TIMES.clear()
        _TIMES[id(value)] = (value, text)
    return text


def _utc_text(value: datetime) -> str:
    """``value.isoformat()`` of a time in UTC (``timezone.utc``, as every event is stamped): its second
    written once, by ``isoformat`` itself, for the times that follow in that second (a match's events
    are made in a few, in order), then its microseconds added. The second is told by the time's
    distance from the last one written (one subtraction in C) and the microseconds' six digits by
    those of ``1_000_000 + microsecond``: the six attributes, the tuple and the ``format`` calls of a
    second's key and its microseconds' ``:06d`` cost three times as much."""
    kept = _LAST_SECOND[0]
    if kept is None or not (_NO_TIME <= value - kept[0] < _ONE_SECOND):
        start = value.replace(microsecond=0)
        # Without its "+00:00": the microseconds go before it.
        prefix = start.isoformat()[:-6]
        # Kept as one tuple, set in one step: a thread reads the second and its text together.
        kept = _LAST_SECOND[0] = (start, prefix + ".", prefix + "+00:00")
    microsecond = value.microsecond
    # ``isoformat`` leaves out microseconds of 0.
    return kept[1] + str(1_000_000 + microsecond)[1:] + "+00:00" if microsecond else kept[2]


# The last second times were written in (``_utc_text``): the second, its text with the dot before the
# microseconds, and its text whole (no microseconds).
_LAST_SECOND: list[tuple[datetime, str, str] | None] = [None]
_NO_TIME = timedelta(0)
_ONE_SECOND = timedelta(seconds=1)


def read_back_digest(event: Any) -> str:
    """``event_digest`` of an event read back from the store (a checkpoint's leaves): the same digest,
    its id's and time's text not kept in ``_TIMES``, which keeps them for a row still to be written of
    the same object; no row is written of an event read back. A checkpoint digests one event per game
    identity and imported file it covers: kept, they filled ``_TIMES`` in an import's storing process
    (4,096 ids and times with their text, about 1 MiB, at ten times the corpus, against half that at
    once) and held the checkpoint's memory in use after it (issue 36)."""
    digest = event_digest(event)
    for name in _content_fields(event.__class__):
        value = getattr(event, name)
        if type(value) is UUID or type(value) is datetime:
            found = _TIMES.get(id(value))
            if found is not None and found[0] is value:
                del _TIMES[id(value)]
    return digest


# The fields a hand's, a deal pass's and a penalty's event's digest covers (``_content_fields``).
_FACT_CONTENT = ("originator_id", "timestamp", "fact", "prior", "client_key")


def _exact_content(event: Any, cls: type, known: tuple[Any, Any] | None) -> dict[str, Any] | None:
    """An event's content (``event_content``) as data orjson writes exactly as ``canonical`` does,
    when every field is known to be such data without looking at its bytes: text, a whole number,
    true or false, None, an id or a time (``plain`` writes them as text), or a domain value of a class
    whose field types hold nothing else (``domain.codec.exact_data``); None when a field is anything
    else (a list, a dict: a match's opening, its source, its final points), written field by field.
    A hand's event is all of these: its digest is one call of orjson, no scan of its bytes."""
    if _content_fields(cls) == _FACT_CONTENT:
        # A hand's, a deal pass's or a penalty's event (nearly every one of a match): its five fields
        # looked at by name, not in a loop asking each what it is; the loop where one is of another type.
        originator_id, timestamp, fact, prior, client_key = (
            event.originator_id,
            event.timestamp,
            event.fact,
            event.prior,
            event.client_key,
        )
        kind = type(fact)
        if (
            type(originator_id) is UUID
            and type(timestamp) is datetime
            and type(prior) is str
            and (client_key is None or type(client_key) is str)
            and exact_data(kind)
        ):
            data = known[1] if known is not None and fact is known[0] else to_data(fact)
            return {
                "event": cls.__qualname__,
                "originator_id": id_text(originator_id),
                "timestamp": time_text(timestamp),
                "fact": data | {"__type__": kind.__name__},
                "prior": prior,
                "client_key": client_key,
            }
    content: dict[str, Any] = {"event": cls.__qualname__}
    for name in _content_fields(cls):
        value = getattr(event, name)
        kind = type(value)
        if kind in _EXACT_SCALARS:
            content[name] = value
        elif kind is UUID:
            content[name] = id_text(value)
        elif kind is datetime:
            content[name] = time_text(value)
        elif exact_data(kind):
            data = known[1] if known is not None and value is known[0] else to_data(value)
            content[name] = data | {"__type__": kind.__name__}
        else:
            return None
    return content


@functools.cache
def _content_keys(cls: type) -> tuple[tuple[bytes, str], ...]:
    """Each key of an event's content in canonical order, encoded with its colon, and the field it
    holds ('' for ``event``, the class's name); found once per class."""
    names = {"event": "", **{name: name for name in _content_fields(cls)}}
    return tuple((canonical(key) + b":", names[key]) for key in sorted(names))


def plain_canonical(value: Any) -> bytes:
    """``canonical(plain(value))``, byte for byte, by ``orjson`` where that gives the same bytes."""
    cls = type(value)
    if value is None:
        return b"null"
    if cls is str or cls is int or cls is bool:
        data: Any = value
    elif cls is UUID:
        data = id_text(value)
    elif cls is datetime:
        data = time_text(value)
    elif cls is list or cls is dict:
        found = _EXACT_VALUES.get(id(value))
        if found is not None and found[0] is value:
            return found[1]  # an event's list or dict, written by its digest already
        data = value  # what ``plain`` makes of it, as orjson writes it, unless it holds some other value
    elif cls is tuple:
        data = value
    elif value_fields(cls) is not None:
        data = to_data(value) | {"__type__": cls.__name__}
    else:
        data = value
    return _value_canonical(value, data)


def _value_canonical(value: Any, data: Any) -> bytes:
    """``plain_canonical(value)``, given what it makes of the value first (``data``: the value, or its
    plain data when it is a domain value)."""
    if type(data) in _PLAIN_SCALARS:
        try:
            return orjson.dumps(data)
        except orjson.JSONEncodeError:  # text UTF-8 refuses, an integer beyond 64 bits: ``canonical``'s
            return canonical(data)
    if exact_data(type(value)):  # data orjson writes exactly, by its class's field types: no scan
        try:
            return orjson.dumps(data, option=SORTED)
        except TypeError:  # (orjson's refusal is one) an integer beyond 64 bits: ``canonical``'s
            return canonical(plain(value))
    found = json_exactly(data)
    return found if found is not None else canonical(plain(value))


@attrs.frozen
class Link:
    """One link of a chain as stored: its position, the digest of its content, the prior it names."""

    position: int
    digest: str
    prior: str


@attrs.frozen
class ChainProblem:
    """What is wrong at a position: ``altered``, ``deleted``, ``reordered``, ``inserted`` or ``unsealed``.
    ``detail``: words where a page may show it (a stored match's damage); a record file's check,
    which only the command line shows, may give it as English text."""

    position: int
    kind: str
    detail: Said | str

    def said(self) -> Said:
        """The problem as one clause of a damage line: ``altered at 3 (its content ...)``, its kind
        in words (``position`` 0, the match as a whole, is not named)."""
        kind = KINDS.get(self.kind, self.kind)
        if self.position:
            return Said("{kind} at {position} ({detail})", kind=kind, position=self.position, detail=self.detail)
        return Said("{kind} ({detail})", kind=kind, detail=self.detail)


# What each kind of problem is called where a page shows it (its English is the kind itself).
KINDS: dict[str, Said] = {
    "altered": Said("altered"),
    "deleted": Said("deleted"),
    "reordered": Said("reordered"),
    "inserted": Said("inserted"),
    "unsealed": Said("unsealed"),
    "unpublished": Said("unpublished"),
}

# What a link of a chain is, in words (``check_chain``'s ``noun``), and with its article.
_NOUNS: dict[str, Said] = {
    "event": Said("event"),
    "line": Said("line"),
    "link": Said("link"),
    "checkpoint": Said("checkpoint"),
}
_WITH_ARTICLE: dict[str, Said] = {
    "event": Said("an event"),
    "line": Said("a line"),
    "link": Said("a link"),
    "checkpoint": Said("a checkpoint"),
}


def check_chain(
    links: Sequence[Link], *, first: int = 1, sealed: tuple[int, str] | None = None, noun: str = "event"
) -> list[ChainProblem]:
    """Name every break of a chain stored as ``links`` (in stored order).

    ``first`` is the position the chain starts at; ``sealed`` the (last position,
    head digest) recorded beside the chain, when there is such a seal; ``noun`` what
    a link is called in the messages (an event, a line). A gap in the positions is a
    deletion, and so is a break where the seal counts more links than are stored (the
    later links moved up to close the gap); a link whose removal mends the chain, where
    the seal counts fewer links than are stored, an insertion; links that are all there
    but name each other out of order are reordered; any other break means the content
    of the link before it was altered.
    """
    problems: list[ChainProblem] = []
    word, a_word = _NOUNS[noun], _WITH_ARTICLE[noun]
    present = {link.position for link in links}
    last_stored = max(present, default=first - 1)
    gaps = [p for p in range(first, last_stored + 1) if p not in present]
    for missing in gaps:
        detail = Said("{noun} {position} is missing", noun=word, position=missing)
        problems.append(ChainProblem(missing, "deleted", detail))
    if sealed is not None and not links and sealed[0] >= first:
        detail = Said("every {noun} is missing; the seal names {noun} {sealed}", noun=word, sealed=sealed[0])
        return [ChainProblem(first, "deleted", detail)]
    room = None if sealed is None else max(len(links) - (sealed[0] - first + 1), 0)
    inserted = _insertions(links, sealed, room)
    for index in inserted:
        link = links[index]
        detail = Said("{a_noun} the chain does not include", a_noun=a_word)
        problems.append(ChainProblem(link.position, "inserted", detail))
    kept = [link for i, link in enumerate(links) if i not in inserted]
    # Links the seal counts that are neither stored nor missing from a gap: removed, the later ones moved up.
    short = 0 if sealed is None else max(sealed[0] - first + 1 - len(kept) - len(gaps), 0)
    priors = [link.prior for link in kept[1:]]
    earlier = [link.digest for link in kept[:-1]]
    moved = priors != earlier and sorted(priors) == sorted(earlier)
    digests = {link.digest for link in kept}
    stored_after = {link.position: link for link in links}
    for before, link in itertools.pairwise(kept):
        if link.prior == before.digest:
            continue
        between = [stored_after[p] for p in range(before.position + 1, link.position) if p in stored_after]
        if link.position - before.position != 1 and not between:
            continue  # a deletion, named above
        if moved or link.prior in digests:
            detail = Said("the {noun}s are all there but not in the order they were recorded", noun=word)
            problems.append(ChainProblem(link.position, "reordered", detail))
        elif short:
            short -= 1
            detail = Said(
                "{a_noun} is missing here: the next one names a predecessor that is not stored", a_noun=a_word
            )
            problems.append(ChainProblem(link.position, "deleted", detail))
        else:
            detail = Said(
                "its content no longer matches what {noun} {position} recorded of it", noun=word, position=link.position
            )
            problems.append(ChainProblem(before.position, "altered", detail))
    if kept and kept[0].position == first and kept[0].prior != GENESIS:
        if short and kept[0].prior not in digests:
            short -= 1
            problems.append(ChainProblem(first, "deleted", Said("the first {noun} is missing", noun=word)))
        else:
            problems.append(ChainProblem(first, "altered", Said("the first {noun} names a predecessor", noun=word)))
    if sealed is not None and kept:
        last_position, head = sealed
        last = kept[-1]
        named = {p.position for p in problems}
        if last.digest == head and last.position != last_position and not problems:
            detail = Said(
                "the seal counts {count} {noun}s but the chain it names ends at {noun} {position}",
                count=last_position,
                noun=word,
                position=last.position,
            )
            problems.append(ChainProblem(last.position + 1, "altered", detail))
        elif last.position < last_position and not any(p.kind == "deleted" for p in problems):
            detail = Said("the seal names {noun} {position}", noun=word, position=last_position)
            problems.append(ChainProblem(last.position + 1, "deleted", detail))
        elif last.digest != head and last.position not in named and last.position >= last_position:
            problems.append(ChainProblem(last.position, "altered", Said("its content no longer matches the seal")))
    return unique_problems(problems)


def _insertions(links: Sequence[Link], sealed: tuple[int, str] | None, room: int | None) -> set[int]:
    """Indexes of links whose removal mends the chain, at most ``room`` of them.

    Without a seal there is no count to tell an insertion from a reordering, so none is named.
    """
    found: set[int] = set()
    if sealed is None or not room:
        return found
    for i in range(len(links)):
        if len(found) >= room:
            break
        before = links[i - 1].digest if i > 0 else GENESIS
        following = links[i + 1].prior if i + 1 < len(links) else sealed[1]
        if following == before:
            found.add(i)
    return found


def roll(head: str, digest: str) -> str:
    """The rolling head of a stream whose events carry no chain of their own (a tournament's):
    the head before, extended by the digest of the next event."""
    return digest_of([head, digest])


def published_digest(text: str) -> str:
    """A head digest as given to ``--against``: hex, at least its first 16 characters."""
    digest = text.strip().lower()
    if len(digest) < 16 or len(digest) > 64 or any(ch not in "0123456789abcdef" for ch in digest):
        raise ValueError(f"--against takes a head digest (16 to 64 hex characters), not {text!r}")
    return digest


def check_published(digests: Sequence[str], published: str, *, noun: str = "event") -> tuple[ChainProblem | None, str]:
    """Compare a chain (the digest of each link, in order) with a head digest published earlier.

    The chain holds the published history when one of its links has that digest: the head
    itself, or an earlier link when entries (corrections) were added since, which the note
    says. Otherwise the history was rewritten or cut short after it was published, even
    when it was rechained and resealed so that it checks clean on its own: a problem.
    """
    for index, digest in enumerate(digests):
        if digest.startswith(published):
            added = len(digests) - index - 1
            note = f"the published head digest is {noun} {index + 1}'s"
            return None, note + (f"; {added} {noun}s were added since" if added else ", the head")
    detail = f"the published head digest {published[:16]} is not in this history: it was rewritten or cut short since"
    return ChainProblem(0, "unpublished", detail), ""


def unique_problems(problems: list[ChainProblem]) -> list[ChainProblem]:
    """The problems in position order, each (position, kind) once."""
    seen: set[tuple[int, str]] = set()
    out = []
    for problem in sorted(problems, key=lambda p: p.position):
        if (problem.position, problem.kind) not in seen:
            seen.add((problem.position, problem.kind))
            out.append(problem)
    return out
