"""Plain data (JSON-ready dicts) for the domain's values, and back.

One canonical encoding serves the stored events, the record files and the
digests of the audit chain: fields at their default value are left out, enums
are written by value, tuples as lists.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any, Literal, Union, get_args, get_origin

import attrs

from domain.errors import HonbaError
from domain.said import Said
from domain.values import (
    AbortiveDraw,
    DealPass,
    ExhaustiveDraw,
    HandPenalty,
    HandValue,
    MatchEnd,
    Payment,
    Penalty,
    TableState,
    Win,
    WinDetails,
    WinFacts,
    WinResult,
    Yaku,
)

VALUE_CLASSES: tuple[type, ...] = (
    HandValue,
    HandPenalty,
    WinFacts,
    Yaku,
    WinDetails,
    Win,
    WinResult,
    ExhaustiveDraw,
    AbortiveDraw,
    Penalty,
    DealPass,
    MatchEnd,
    Payment,
    TableState,
)

FACT_TAGS: dict[type, str] = {
    WinResult: "win",
    ExhaustiveDraw: "draw",
    AbortiveDraw: "abort",
    Penalty: "penalty",
    DealPass: "deal_pass",
    MatchEnd: "end",
}
TAG_CLASSES = {tag: cls for cls, tag in FACT_TAGS.items()}


class DecodeError(HonbaError):
    """Data that does not describe a value of the expected kind."""


_SCALARS = frozenset({str, int, float, bool, type(None)})
# Each attrs class's fields as (name, default), found once: encoding runs for every event stored and hashed.
_FIELDS: dict[type, tuple[tuple[str, Any], ...] | None] = {}


def value_fields(cls: type) -> tuple[tuple[str, Any], ...] | None:
    """The (name, default) of each field of an attrs class, in order; None for any other class."""
    try:
        return _FIELDS[cls]
    except KeyError:
        fields = tuple((f.name, f.default) for f in attrs.fields(cls)) if attrs.has(cls) else None
        _FIELDS[cls] = fields
        return fields


def write_encoders(classes: tuple[type, ...] = VALUE_CLASSES) -> None:
    """Each class's encoder (``_encoder``) written and compiled now, not at its first value: a process
    that forks others (an import's fork server, ``replay.service.imports.preload``) writes them once for
    all of its children, where each reading worker wrote and compiled its own (about 7 ms of CPU, in
    Python's parser and compiler, at its first file). The data each encodes is the same either way."""
    for cls in classes:
        if cls not in _ENCODERS:
            _ENCODERS[cls] = _encoder(cls)


def to_data(value: Any) -> Any:
    """A value as JSON-ready data; attrs fields at their default are left out."""
    cls = type(value)
    if cls in _SCALARS:
        return value
    encode = _ENCODERS.get(cls)
    if encode is None:
        encode = _ENCODERS[cls] = _encoder(cls)
    if encode is not _NOT_A_VALUE:
        return encode(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, (tuple, list)):
        return [v if type(v) in _SCALARS else to_data(v) for v in value]
    return value


def _not_a_value(value: Any) -> Any:
    raise AssertionError("never called: to_data's marker of a class that is no attrs class")


_NOT_A_VALUE: Callable[[Any], Any] = _not_a_value
# Each attrs class's encoder (``_encoder``), made once: every fact is encoded for its event's digest,
# for its stored row and for its match's content (an import: three times per event).
_ENCODERS: dict[type, Callable[[Any], Any]] = {}


def _encoder(cls: type) -> Callable[[Any], Any]:
    """``to_data`` of an attrs class's values as one function of its own, written out field by field
    (what a loop over the fields did: each field read, left out at its default, encoded unless plain),
    as attrs writes a class's ``__init__``; ``_NOT_A_VALUE`` for any other class.

    A field whose type names a value class, a tuple of them or of plain items, or an enumeration is
    encoded in line (``_encoded``) where the item is of that very type, each other item by
    ``to_data`` as before: the same data, without a call of ``to_data`` per value (every fact of an
    import is encoded once, its wins, values, details and yaku with it)."""
    fields = value_fields(cls)
    if fields is None:
        return _NOT_A_VALUE
    try:
        hints = _field_types(cls)
    except Exception:  # a type attrs cannot resolve: every field by ``to_data``
        hints = {}
    _MAKING.add(cls)
    try:
        return _written(cls, fields, hints)
    finally:
        _MAKING.discard(cls)


# The classes whose encoder is being written: a field of one of them (a class holding values of its
# own kind, or of a class that holds it) is encoded by ``to_data``, which finds the encoder made.
_MAKING: set[type] = set()


def _written(cls: type, fields: tuple[tuple[str, Any], ...], hints: dict[str, Any]) -> Callable[[Any], Any]:
    """The encoder of ``cls`` (``_encoder``), its source written out and compiled."""
    scope: dict[str, Any] = {"_SCALARS": _SCALARS, "to_data": to_data}
    lines = ["def encode(value):", "    out = {}"]
    for index, (name, default) in enumerate(fields):
        lines.append(f"    item = value.{name}")
        # Values use plain defaults (no factories), so the default is the field's own.
        indent = "    "
        if default is not attrs.NOTHING:
            scope[f"default_{index}"] = default
            # The default itself (a value's shared default, ``WinFacts()``) is left out without
            # comparing it field by field; only where its equality is its identity's too (no float).
            same = default is None or type(default) in (bool, int, str) or default == () or exact_data(type(default))
            test = f"item is default_{index} or item == default_{index}" if same else f"item == default_{index}"
            lines.append(f"    if not ({test}):")
            indent = "        "
        lines.append(f"{indent}out[{name!r}] = {_encoded(cls, hints.get(name), index, scope)}")
    lines.append("    return out")
    exec(compile("\n".join(lines), f"<to_data of {cls.__qualname__}>", "exec"), scope)
    encode: Callable[[Any], Any] = scope["encode"]
    return encode


# Most fields are plain already: they skip the call (every event is encoded and hashed).
_GENERAL = "item if type(item) in _SCALARS else to_data(item)"


def _encoded(cls: type, tp: Any, index: int, scope: dict[str, Any]) -> str:
    """The expression that encodes ``item``, a field of type ``tp`` of ``cls``: in line for a value
    class other than ``cls`` (its encoder made first), a tuple of such or of plain items, or an
    enumeration, when the item is of that type; ``to_data``'s own way otherwise."""
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        options = [option for option in get_args(tp) if option is not type(None)]
        tp = options[0] if len(options) == 1 else None
        origin = get_origin(tp)
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            each = _item_encoded(cls, args[0], f"each_{index}", scope, "v")
            return f"[{each} for v in item] if type(item) is tuple else ({_GENERAL})"
        return _GENERAL
    if isinstance(tp, type):
        return _item_encoded(cls, tp, f"field_{index}", scope, "item")
    return _GENERAL


def _item_encoded(cls: type, tp: Any, label: str, scope: dict[str, Any], item: str) -> str:
    general = f"{item} if type({item}) in _SCALARS else to_data({item})"
    if not isinstance(tp, type) or tp is cls or tp in _MAKING:
        return general
    if issubclass(tp, Enum):
        scope[f"{label}_type"] = tp
        return f"{item}.value if type({item}) is {label}_type else ({general})"
    if tp is not float and value_fields(tp) is not None:
        encode = _ENCODERS.get(tp)
        if encode is None:
            encode = _ENCODERS[tp] = _encoder(tp)
        scope[f"{label}_type"], scope[f"{label}_encode"] = tp, encode
        return f"{label}_encode({item}) if type({item}) is {label}_type else ({general})"
    return general


# The scalars ``to_data`` writes that orjson writes as the standard JSON encoder does (no float:
# orjson writes ``1e-05`` as ``0.00001``, a NaN as ``null``).
_EXACT_SCALARS = frozenset({str, int, bool, type(None)})
# Each attrs class's verdict (``exact_data``), found once; True while its own fields are being
# looked at, so that a class that holds values of its own kind is judged by its other fields.
_EXACT_DATA: dict[type, bool] = {}


def exact_data(cls: type) -> bool:
    """Whether ``to_data`` of any value of ``cls`` is data orjson writes as the standard JSON encoder
    does, known from the class's field types alone (found once per class): an attrs class whose
    every field holds text, a whole number, true or false, None, an enumeration or a ``Literal`` of
    those, a tuple of such or a value of such a class. A float anywhere (orjson writes some
    otherwise), a UUID or a datetime (orjson writes them, the standard encoder refuses them), a
    list, a dict or ``Any`` (anything may be in it) and every class that is no attrs class: False.

    Trusting the field types is what lets an event's bytes skip the scan for floats
    (``domain.integrity.json_exactly``): every caller is held to them by ``mypy --strict``, the
    decoders (``from_data``) check them in the data they read, and the value classes convert their
    tuples (``_tuple_of_ints``). What orjson refuses (an integer beyond 64 bits, a subclass of text
    that is no enumeration) still raises, and its caller encodes the standard way."""
    found = _EXACT_DATA.get(cls)
    if found is None:
        if not (isinstance(cls, type) and attrs.has(cls)):
            found = _EXACT_DATA[cls] = False
        else:
            before = set(_EXACT_DATA)
            _EXACT_DATA[cls] = True
            found = False
            try:
                found = all(_exact_type(tp) for tp in _field_types(cls).values())
            except Exception:  # a field type attrs cannot resolve (a name not in scope): not known exact
                found = False
            finally:
                if not found:  # a class judged meanwhile on this one's provisional True is judged again
                    for judged in set(_EXACT_DATA) - before:
                        del _EXACT_DATA[judged]
            _EXACT_DATA[cls] = found
    return found


def _exact_type(tp: Any) -> bool:
    """Whether ``to_data`` of any value of the field type ``tp`` is data orjson writes exactly."""
    if tp in _EXACT_SCALARS:
        return True
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        return all(_exact_type(option) for option in get_args(tp))
    if origin is Literal:
        return all(type(option) in _EXACT_SCALARS for option in get_args(tp))
    if origin is tuple:
        return all(option is Ellipsis or _exact_type(option) for option in get_args(tp))
    if isinstance(tp, type) and issubclass(tp, Enum):
        # ``to_data`` writes an enumeration as its value.
        return all(type(member.value) in _EXACT_SCALARS for member in tp)
    if isinstance(tp, type) and attrs.has(tp):
        return exact_data(tp)
    return False


@functools.cache
def _shape(tp: Any) -> tuple[str, Any]:
    """How data of a field type is built: ``plain`` (as is), ``optional`` (of one type),
    ``union`` (as is), ``tuple`` (of a type) or ``value`` (an attrs class); worked out once per type."""
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        options = [a for a in get_args(tp) if a is not type(None)]
        return ("optional", options[0]) if len(options) == 1 else ("union", None)
    if origin is tuple:
        return "tuple", get_args(tp)[0]
    if isinstance(tp, type) and attrs.has(tp):
        return "value", tp
    return "plain", None


_FIELD_TYPES: dict[type, dict[str, Any]] = {}


def _field_types(cls: type[Any]) -> dict[str, Any]:
    found = _FIELD_TYPES.get(cls)
    if found is None:
        found = _FIELD_TYPES[cls] = {f.name: f.type for f in attrs.fields(attrs.resolve_types(cls))}
    return found


# The plain types whose data must be of that very type (no 3.0 for a 3, no "3", no true for a 1):
# what was written is read back as it was, and anything else is data that was changed.
_EXACT = {int: Said("a whole number"), str: Said("text"), bool: Said("true or false")}


def _plain(tp: Any, data: Any, where: str) -> Any:
    """Plain data as it is, when it is of the type the field holds (an int, text, true or false)."""
    expected = _EXACT.get(tp)
    if expected is not None and type(data) is not tp:
        raise DecodeError(
            Said("{where}: expected {expected}, got {got}", where=where, expected=expected, got=repr(str(data)[:40]))
        )
    return data


def _build(tp: Any, data: Any, where: str) -> Any:
    kind, inner = _shape(tp)
    if kind == "optional":
        return None if data is None else _build(inner, data, where)
    if kind == "tuple":
        if not isinstance(data, list | tuple):
            raise DecodeError(Said("{where}: expected a list, got {got}", where=where, got=type(data).__name__))
        if _shape(inner)[0] == "plain":
            if inner in _EXACT:
                for i, v in enumerate(data):
                    _plain(inner, v, f"{where}[{i}]")
            return tuple(data)
        return tuple(_build(inner, v, f"{where}[{i}]") for i, v in enumerate(data))
    if kind == "value":
        return _from_data_named(inner, data, where=where)
    return _plain(tp, data, where)


def _fast_field(tp: Any) -> Callable[[Any], Any]:
    """How ``_build`` builds data of a field type when nothing is wrong with it, as a function made
    once: no ``where`` text, no shape looked up per item. It raises on anything ``_build`` refuses
    (and maybe more): ``from_data`` then builds the slow way, which says what is wrong."""
    kind, inner = _shape(tp)
    if kind == "optional":
        each = _fast_field(inner)
        return lambda data: None if data is None else each(data)
    if kind == "tuple":
        if _shape(inner)[0] == "plain":
            if inner in _EXACT:

                def exact_items(data: Any) -> Any:
                    if type(data) is not list and type(data) is not tuple:
                        raise DecodeError(Said("expected a list"))
                    for item in data:
                        if type(item) is not inner:
                            raise DecodeError(Said("expected another type"))
                    return tuple(data)

                return exact_items

            def items(data: Any) -> Any:
                if type(data) is not list and type(data) is not tuple:
                    raise DecodeError(Said("expected a list"))
                return tuple(data)

            return items
        each = _fast_field(inner)

        def values(data: Any) -> Any:
            if type(data) is not list and type(data) is not tuple:
                raise DecodeError(Said("expected a list"))
            return tuple([each(item) for item in data])

        return values
    if kind == "value":
        return _fast_value(inner)
    if tp in _EXACT:

        def exact(data: Any) -> Any:
            if type(data) is not tp:
                raise DecodeError(Said("expected another type"))
            return data

        return exact
    return _as_is


def _as_is(data: Any) -> Any:
    return data


_FAST: dict[type, Callable[[Any], Any]] = {}


def _fast_value(cls: type[Any]) -> Callable[[Any], Any]:
    """``from_data`` of one class when nothing is wrong with the data (see ``_fast_field``), made once."""
    found = _FAST.get(cls)
    if found is None:
        found = _FAST[cls] = _fast_builder(cls)
    return found


def _fast_builder(cls: type[Any]) -> Callable[[Any], Any]:
    builders: dict[str, Callable[[Any], Any]] = {}

    def build(data: Any) -> Any:
        if type(data) is not dict:
            raise DecodeError(Said("expected an object"))
        return cls(**{name: builders[name](item) for name, item in data.items()})

    # Filled after ``build`` exists: a class that holds values of its own kind refers to it.
    builders.update({name: _fast_field(tp) for name, tp in _field_types(cls).items()})
    return build


def from_data(cls: type[Any], data: Any, *, where: str = "") -> Any:
    """Rebuild a value of ``cls`` from data written by ``to_data``."""
    try:
        # Most data read is whole: built without the bookkeeping that names what is wrong.
        return _fast_value(cls)(data)
    except Exception:  # whatever the fast way refused, the slow way decides (and names it)
        return _from_data_named(cls, data, where=where)


def _from_data_named(cls: type[Any], data: Any, *, where: str = "") -> Any:
    """``from_data``, naming where the data is wrong (``where``: the field's path) when it is."""
    where = where or cls.__name__
    if not isinstance(data, dict):
        raise DecodeError(Said("{where}: expected an object, got {got}", where=where, got=type(data).__name__))
    fields = _field_types(cls)
    if not data.keys() <= fields.keys():
        unknown = sorted(set(data) - set(fields))
        raise DecodeError(Said("{where}: unknown field {field}", where=where, field=repr(unknown[0])))
    kwargs = {}
    for name, item in data.items():
        tp = fields[name]
        at = f"{where}.{name}"
        kwargs[name] = _plain(tp, item, at) if _shape(tp)[0] == "plain" else _build(tp, item, at)
    try:
        return cls(**kwargs)
    except (TypeError, ValueError) as exc:
        # (what the class refused, in its own words: data, as the value it was given)
        raise DecodeError(Said("{where}: {why}", where=where, why=str(exc))) from None


def fact_to_data(fact: Any, data: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A recorded fact (hand result, penalty, deal pass, end) with its ``type`` tag; ``data``: its
    ``to_data`` made already (an import makes each fact's once)."""
    return {"type": FACT_TAGS[type(fact)], **(to_data(fact) if data is None else data)}


def fact_from_data(data: Any, *, where: str = "fact") -> Any:
    """The fact that ``fact_to_data`` wrote."""
    if not isinstance(data, dict) or data.get("type") not in TAG_CLASSES:
        known = ", ".join(TAG_CLASSES)
        raise DecodeError(Said("{where}: 'type' must be one of {known}", where=where, known=known))
    body = {k: v for k, v in data.items() if k != "type"}
    return from_data(TAG_CLASSES[data["type"]], body, where=where)
