"""A request's JSON body read from its bytes (``replay.input.json_text.load_json_bytes``): whatever
the bytes, the same value (its types too: an integer stays an integer) or the same error as the
standard reading, ``load_json`` of the bytes decoded as UTF-8, which it was before orjson read flat
objects (issue 36, nineteenth round)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.input.json_text import load_json, load_json_bytes
from replay.web.limits import DEEPEST_JSON


def outcome(read: Any, data: bytes, deepest: int) -> tuple[str, str, str]:
    """What a reading gives: the value's ``repr`` (which tells ``1`` from ``1.0``), or the error's class and words."""
    try:
        return ("value", repr(read(data, deepest)), "")
    except (ValueError, RecursionError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        return ("error", type(exc).__name__, str(exc))


def standard(data: bytes, deepest: int) -> Any:
    return load_json(data.decode("utf-8"), deepest=deepest)


def from_bytes(data: bytes, deepest: int) -> Any:
    return load_json_bytes(data, deepest=deepest)


def same(data: bytes, deepest: int = DEEPEST_JSON) -> tuple[str, str, str]:
    found = outcome(from_bytes, data, deepest)
    assert found == outcome(standard, data, deepest), data
    return found


# Where orjson and the standard parser part: each read as the standard parser reads it.
EDGES = [
    b'{"kind": "abort", "abort": "four_winds", "client_key": "c1"}',
    b'{"kind":"win","winner":"Ann","han":2,"fu":30,"riichi":["Ann","Ben"],"note":null,"tsumo":true}',
    b'{"han": 123456789012345678901234567890}',  # orjson: a float
    b'{"han": 18446744073709551616}',  # one past 64 bits: orjson a float equal to it
    b'{"han": -9223372036854775809}',
    b'{"han": 18446744073709551615, "fu": -9223372036854775808}',
    b'{"han": 1e400}',  # the standard parser: infinity; orjson refuses
    b'{"han": NaN}',
    b'{"han": -Infinity}',
    b'{"han": 2.0}',
    b'{"han": 1E2}',
    b'{"han": -0}',
    b'{"note": "\\ud800"}',  # a lone surrogate: the standard reading's own refusal
    b'{"note": "\\udc00x", "a": 1}',
    b'{"note": "\\ud83c\\udc04"}',  # a pair: text
    b'{"\\ud800": 1}',
    b'\xef\xbb\xbf{"a": 1}',  # a byte order mark
    b'{"note": "\xff"}',  # not UTF-8
    b'{"note": "\xed\xa0\x80"}',  # a surrogate written in UTF-8
    b'{"note": "\x01"}',  # a control character
    b'{"a": 1, "b": 2, "a": 3}',  # a name twice: the last value, the first place
    b'{"a": 1,}',
    b'{"a": 01}',
    b'{"a": 1}\x0c',
    b'{"a": 1} {"b": 2}',
    b"",
    b"   ",
    b"[1, 2]",
    b'"text"',
    b"12",
    b"null",
    b'{"a": [1, [2]]}',  # nested deeper than flat
    b'{"a": {"b": 1}}',
    b'{"a": [1.5]}',
    b'{"a": "\\u0000\\/\\n\\t\\"\\\\ \xe6\x9d\xb1"}',
    b'{"a": [] }',
    b'{"a":' + b"1" * 5000 + b"}",  # past the standard parser's digits
    b'{"a": ' + b"[" * 40 + b"]" * 40 + b"}",  # deeper than the cap
]


@pytest.mark.parametrize("data", EDGES)
def test_a_body_where_orjson_reads_otherwise_is_read_as_the_standard_parser_reads_it(data: bytes) -> None:
    same(data)


def test_a_flat_object_is_read_with_its_values_types() -> None:
    kind, value, _ = same(b'{"kind":"win","han":2,"riichi":["Ann"],"note":null,"tsumo":true}')
    assert kind == "value" and value == "{'kind': 'win', 'han': 2, 'riichi': ['Ann'], 'note': None, 'tsumo': True}"
    # A cap below two: only the standard reading, which refuses the list nested in the object.
    assert same(b'{"riichi": ["Ann"]}', deepest=1)[0] == "error"
    assert same(b'{"kind": "abort"}', deepest=1)[0] == "value"


scalars = st.none() | st.booleans() | st.integers() | st.text() | st.floats()
values = scalars | st.lists(scalars, max_size=4) | st.dictionaries(st.text(max_size=3), scalars, max_size=2)
bodies = st.dictionaries(st.text(max_size=8), values, max_size=6)
# What a mutation puts into the bytes: JSON's own punctuation, escapes, and what orjson reads otherwise.
pieces = st.sampled_from(
    [
        *(b'"', b"\\", b"\\u", b"d800", b"dc00", b"{", b"}", b"[", b"]", b",", b":", b" ", b"\x00", b"\x1f", b"\x7f"),
        *(b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xef\xbb\xbf", b"NaN", b"Infinity", b"1e400", b"-0", b"0.5", b"e5"),
        *(b"99999999999999999999", b"-9223372036854775809", b"true", b"null", b"01", b"\xe6\x9d\xb1"),
    ]
)


@settings(max_examples=600)
@given(bodies, st.booleans(), st.lists(st.tuples(st.integers(min_value=0), pieces, st.booleans()), max_size=3))
def test_any_body_mutated_or_not_is_read_as_the_standard_parser_reads_it(
    body: dict[str, Any], ascii_only: bool, mutations: list[tuple[int, bytes, bool]]
) -> None:
    data = json.dumps(body, ensure_ascii=ascii_only).encode("utf-8", "surrogatepass")
    same(data)
    for at, piece, replace in mutations:
        place = at % (len(data) + 1)
        data = data[:place] + piece + data[place + (len(piece) if replace else 0) :]
        same(data)
