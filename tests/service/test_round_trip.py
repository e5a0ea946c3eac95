"""A match with any name or key that honba accepts exports and imports again (issue 24, "Done when").

Before issue 24, ``start`` and log import accepted names and keys with newlines and escapes that
the record reader refuses, so such a match could not be exported and imported again. Now the
domain holds every name, key and note to one line of bounded text (``domain.bounds``), stricter
than the reader: whatever text hypothesis draws (any script, controls, separators, surrogates,
bidirectional controls, markup, long text), either the domain refuses it in one line naming the
field, or the match it makes exports to a record file that reads back into the same match.
"""

from __future__ import annotations

import json
import os
from typing import Any

from fuzz_samples import mjai_events
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.bounds import OutOfBounds
from domain.errors import HonbaError
from domain.match import Match
from domain.rules import load_preset
from domain.values import Penalty
from replay.formats.detect import read_games
from replay.formats.record import build_match, export_record, parse_record
from replay.service.imports.importing import match_from_log

TENHOU = load_preset("tenhou")
EXAMPLES = int(os.environ.get("HONBA_FUZZ_EXAMPLES", "100"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize=not os.environ.get("HONBA_FUZZ_RANDOM"),
    database=None,
)

# Text as it may come from anywhere: any character (surrogates and controls included), with the
# ones that break lines or read backwards drawn often, and lengths around the limits.
HOSTILE = "\n\r\t\x00\x1b\x7f\x85\x9b\u2028\u2029\u202e\u2066\u200f\ufeff\ud800\udcff\u200d"
characters = st.one_of(
    st.characters(codec=None, exclude_categories=()),
    st.sampled_from(HOSTILE),
    st.sampled_from("Ann [b]</i>:,{}\"'\\ 李ë👩"),
)
# Text honba may well accept: any script, markup, quotes, emoji with joiners; no control characters.
printable = st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp"))
# Most of the time text honba accepts (so that the round trip is run on it), else anything at all.
hostile = st.one_of(
    st.text(characters, min_size=1, max_size=12),
    st.text(characters, min_size=60, max_size=70),
    st.text(characters, min_size=195, max_size=205),
)
clean_name = st.one_of(st.text(printable, min_size=1, max_size=12), st.text(printable, min_size=60, max_size=64))
# Half the examples four names honba may well take, half with any text among them.
names = st.one_of(
    st.lists(clean_name, min_size=4, max_size=4, unique_by=str.strip),
    st.lists(st.one_of(clean_name, hostile), min_size=4, max_size=4, unique_by=str.strip),
)
clean_text = st.one_of(st.text(printable, max_size=12), st.text(printable, min_size=190, max_size=200))
text = st.one_of(clean_text, clean_text, hostile)


def same_match(match: Match) -> None:
    """Export the match, read the file back: the same match (key, players, rules, every fact and
    correction, the table after them). A correction made at the table has no ``at`` of its own: the
    file gives it the time it was stored, so the file read back is the match with those times."""
    exported = export_record(match)
    back = build_match(parse_record(exported, name="round-trip.jsonl"), name="round-trip.jsonl")
    assert (back.key, back.players, back.rules) == (match.key, match.players, match.rules)
    assert back.history == match.history

    def corrections(of: Match) -> list[tuple[Any, ...]]:
        return [(p, c.target, c.replacement, c.by, c.reason) for p, c in of.correction_log]

    assert corrections(back) == corrections(match)
    assert back.state == match.state
    # And the file read back exports to the same file: nothing is lost or changed on the way.
    assert export_record(back) == exported


def attempt(action: Any) -> bool:
    """Run a command of the match; False when the domain refuses it (one line, naming a field)."""
    try:
        action()
    except OutOfBounds as refused:
        assert "\n" not in str(refused) and refused.field and str(refused).startswith(refused.field)
        return False
    except HonbaError as refused:
        assert "\n" not in str(refused)
        return False
    return True


@SETTINGS
@given(key=text, players=names, notes=st.lists(text, min_size=6, max_size=6))
def test_a_match_with_any_names_honba_accepts_exports_and_imports_again(
    key: str, players: list[str], notes: list[str]
) -> None:
    try:
        match = Match.start(key, players, TENHOU)
    except HonbaError as refused:
        assert "\n" not in str(refused)
        match = Match.start("k", ["Ann", "Ben", "Cho", "Dai"], TENHOU)
    kind, note, by, reason, at, end = notes
    # 900: shared by the three others, whole 100-point sticks each.
    attempt(lambda: match.penalise(Penalty(1, 900, kind=kind, note=note)))
    attempt(lambda: match.penalise(Penalty(2, 900, note=note), client_key=key))
    if not attempt(lambda: match.add_penalty(Penalty(3, 900, note=note), by=by, reason=reason, at=at)):
        match.add_penalty(Penalty(3, 900), by="Ref", reason="why")
    attempt(lambda: match.void(2, by=by, reason=reason))
    attempt(lambda: match.end(end))
    same_match(match)


@SETTINGS
@given(players=names)
def test_a_log_with_any_names_imports_and_what_it_stores_exports_and_imports_again(players: list[str]) -> None:
    events = mjai_events()
    events[0] = {**events[0], "names": players}
    data = "\n".join(json.dumps(e) for e in events).encode()
    try:
        games = read_games(data, file="names.jsonl")
        match = match_from_log(games[0])
    except HonbaError as refused:
        assert "\n" not in str(refused)
        return
    same_match(match)
