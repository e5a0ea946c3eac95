"""JSON text as honba reads it (``replay.input.json_text``).

How deep it nests, found before it is parsed (``deeper_than``): the quick look that passes text whose
every bracket closes within the cap says what the walk over every bracket says, on any text, valid
JSON or not (strings, escapes, unclosed and stray brackets). The cycle collector, paused while a
parse runs, is as it was after it, whether the parse succeeded or not."""

from __future__ import annotations

import gc
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.input import json_text
from replay.input.json_text import deeper_than, load_json


def walked(text: str, deepest: int) -> int | None:
    """The walk over every bracket alone: ``deeper_than`` with its quick look turned off."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(json_text, "_closes_within", lambda _text, _deepest: False)
        return deeper_than(text, deepest)


@settings(max_examples=500)
@given(st.text(alphabet='[]{}"\\a, 東', max_size=40), st.integers(min_value=0, max_value=6))
def test_the_depth_found_is_the_walk_s_on_any_text(text: str, deepest: int) -> None:
    assert deeper_than(text, deepest) == walked(text, deepest)


def test_a_log_of_many_short_arrays_and_a_nesting_one_too_deep() -> None:
    log = '{"log": [' + "[0, 0, 0], " * 1000 + '["[[[", "]"]]}'
    assert deeper_than(log, 3) is None
    assert deeper_than(log, 2) == walked(log, 2) == log.index("[0")  # the first array of the log
    # Every bracket closes, but one of them four deep: the quick look says no, the walk says where.
    deep = "[" * 1000 + "]" * 1000 + "[[[[]]]]"
    assert deeper_than(deep, 1000) is None
    assert deeper_than(deep, 999) == 999
    # An array left open counts until the end: the quick look says no, the walk finds it.
    unclosed = "[]" * 600 + "[" * 3
    assert deeper_than(unclosed, 2) == walked(unclosed, 2) == 1202


def test_a_parse_leaves_the_cycle_collector_as_it_found_it() -> None:
    assert gc.isenabled()
    assert load_json('{"log": [[0, 0], [1]]}') == {"log": [[0, 0], [1]]}
    assert gc.isenabled()
    with pytest.raises(json.JSONDecodeError):
        load_json('{"log": [[0, 0], [1]')
    assert gc.isenabled()
    gc.disable()
    try:
        assert load_json("[[]]") == [[]]
        assert not gc.isenabled()
    finally:
        gc.enable()
