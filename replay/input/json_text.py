"""JSON text as honba reads it from outside (a log, a record file's line, a request's body, a rule
override typed on the command line, a certificate): ``load_json``, where every failure is a
position, and nesting is capped before the text is parsed."""

from __future__ import annotations

import json
import re
import sys
from typing import Any

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


def deeper_than(text: str, deepest: int) -> int | None:
    """Where the nesting of arrays and objects in JSON text first goes deeper than ``deepest`` (the
    offset of the opening bracket one too deep), or None. Brackets inside strings do not count; the
    text need not be valid JSON (an unclosed bracket counts until the end). Linear in the text."""
    if text.count("[") + text.count("{") <= deepest:
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
