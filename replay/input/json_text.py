"""JSON text as honba reads it from outside (a log, a record file's line, a request's body, a rule
override typed on the command line, a certificate): ``load_json``, where every failure is a
position, and nesting is capped before the text is parsed."""

from __future__ import annotations

import contextlib
import gc
import json
import re
import sys
import threading
from collections.abc import Iterator
from typing import Any

import orjson

# A UTF-16 surrogate escape with no partner: valid JSON syntax, but no text (it cannot be stored).
LONE_SURROGATE = re.compile(
    r"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)
# How deep a log's arrays and objects may nest, checked before the text is parsed: a tenhou.net/6
# log nests four deep, an mjai event three; Python's parser would recurse a level per nesting.
DEEPEST = 500
# A record file's line (and a line typed as one, ``honba amend --result``) nests a few levels.
RECORD_DEEPEST = 32
# Tokens that change the nesting: a string (skipped whole: brackets inside it do not count, and an
# unterminated one runs to the end), a run of openings, a run of closings.
_NESTING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[{]+|[\]}]+')


def load_json(text: str, *, deepest: int = DEEPEST) -> Any:
    """``json.loads``, where every failure is a ``json.JSONDecodeError`` with a line and column.

    Nesting deeper than ``deepest`` is refused before the text is parsed (Python's parser would
    recurse once per level, up to a ``RecursionError``); Python's parser raises a bare
    ``ValueError`` for an integer of thousands of digits, and it accepts escapes of lone UTF-16
    surrogates (``"\\ud800"``) that no text can hold: each is given a position here.
    """
    too_deep = deeper_than(text, deepest)
    if too_deep is not None:
        raise json.JSONDecodeError(f"nested more than {deepest} deep", text, too_deep)
    try:
        with no_cycle_collection():
            document = json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:  # not reached below the cap; kept so that no stack limit ever escapes
        raise json.JSONDecodeError(f"nested more than {deepest} deep", text, 0) from None
    except ValueError:
        digits = re.search(rf"\d{{{sys.get_int_max_str_digits() + 1},}}", text)
        raise json.JSONDecodeError("a number too long to read", text, digits.start() if digits else 0) from None
    if "\\u" in text and not _encodable(document):
        found = LONE_SURROGATE.search(text)
        raise json.JSONDecodeError("an escaped lone surrogate, not text", text, found.start() if found else 0)
    return document


# What a flat object's values are (``load_json_bytes``): text, whole numbers, booleans and null.
_FLAT = frozenset({str, int, bool, type(None)})


def load_json_bytes(data: bytes, *, deepest: int = DEEPEST) -> Any:
    """``load_json(data.decode("utf-8"), deepest=deepest)``: the same value or the same error (a
    ``UnicodeDecodeError`` for bytes that are not UTF-8).

    A flat object (its values text, whole numbers, booleans, null, or lists of those: a request's
    body) is parsed by orjson, in C, for about a fifth of the instructions (issue 36, nineteenth
    round). Only what orjson and the standard parser read alike is taken from it: orjson refuses
    what the standard parser would read otherwise or refuse with its own words (bytes that are not
    UTF-8, a byte order mark, a lone surrogate, ``NaN``, an infinity), and it reads an integer
    beyond 64 bits as a float, as it reads every float: a document with a float in it, nested
    deeper, or that is not an object is read by ``load_json``. A flat object nests two deep at most,
    which every cap honba uses allows; orjson stops at 1,024 levels itself, without recursing."""
    if deepest >= 2:
        try:
            document = orjson.loads(data)
        except orjson.JSONDecodeError:
            document = None
        if type(document) is dict:
            values = document.values()
            if _FLAT.issuperset(map(type, values)) or all(
                type(value) in _FLAT or (type(value) is list and _FLAT.issuperset(map(type, value))) for value in values
            ):
                return document
    return load_json(data.decode("utf-8"), deepest=deepest)


# What the quick look at the nesting keeps of a text: its brackets outside strings, "{}" read as "[]".
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?')
_SQUARE = bytes.maketrans(b"{}", b"[]")
_NOT_BRACKET = bytes(set(range(256)) - set(b"[]{}"))


# Parses under way in this process's threads, and whether the collector was on before the first.
_parsing = 0
_collecting = True
_parsing_lock = threading.Lock()


@contextlib.contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Python's cycle collector paused while JSON is parsed or a log read (and while any other thread
    does either): a parse makes a tree, no cycle, but every 700 arrays made started a collection over
    them all, so that a log of a million short arrays took 3.5 times its parse. Restored by the last
    to end; what was left in a cycle meanwhile is collected once the collector is back."""
    global _parsing, _collecting
    with _parsing_lock:
        if _parsing == 0:
            _collecting = gc.isenabled()
            gc.disable()
        _parsing += 1
    try:
        yield
    finally:
        with _parsing_lock:
            _parsing -= 1
            if _parsing == 0 and _collecting:
                gc.enable()


def deeper_than(text: str, deepest: int) -> int | None:
    """Where the nesting of arrays and objects in JSON text first goes deeper than ``deepest`` (the
    offset of the opening bracket one too deep), or None. Brackets inside strings do not count; the
    text need not be valid JSON (an unclosed bracket counts until the end). Linear in the text."""
    if text.count("[") + text.count("{") <= deepest or _closes_within(text, deepest):
        return None
    depth = 0
    for token in _NESTING.finditer(text):
        first = text[token.start()]
        if first == '"':
            continue
        size = token.end() - token.start()
        if first in "[{":
            if depth + size > deepest:
                return token.start() + deepest - depth
            depth += size
        else:
            depth = max(depth - size, 0)
    return None


def _closes_within(text: str, deepest: int) -> bool:
    """Whether every array and object of the text closes, none nested deeper than ``deepest``: with
    only the brackets kept, taking away every innermost pair (``[]``) ``deepest`` times leaves
    nothing. Each pass is one ``bytes.replace``: a log of a million short arrays is read in a fraction
    of the time of ``deeper_than``'s token by token walk, which then only runs where this says no. The
    passes stop (no) once they have gone over three times the brackets, so the look stays linear."""
    unquoted = _STRING.sub("", text) if '"' in text else text
    brackets = unquoted.encode("utf-8", "surrogatepass").translate(_SQUARE, _NOT_BRACKET)
    budget = 3 * len(brackets)
    for _ in range(deepest):
        if not brackets or budget < 0:
            break
        budget -= len(brackets)
        brackets = brackets.replace(b"[]", b"")
    return not brackets


def _encodable(value: Any) -> bool:
    """Whether every string in a JSON value is text (no lone surrogate)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return False
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def load_line(raw: str) -> Any:
    """One record line's JSON, refusing nesting deeper than a record line has any use for before it
    is parsed (a line of a record file, or one typed on the command line)."""
    return load_json(raw, deepest=RECORD_DEEPEST)
