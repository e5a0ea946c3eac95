"""Bad input for every reader: random bytes, broken logs, wrong types, absurd values, hostile files.

Each log importer (Tenhou mjlog XML, tenhou.net/6 JSON, mjai) and the record-file
reader is fed input that is truncated, corrupted, mistyped or hostile. Whatever
comes in, the answer is a normal result or a ``HonbaError`` whose one-line message
starts with the file, names the position (line, tag, index) and says what is wrong;
never another exception. The same input through ``verify_paths`` and
``import_paths`` (what ``honba verify`` and ``honba import`` run) never raises, and
an unreadable file stores nothing.

The budget is fixed (``derandomize``: the same examples on every run), small
enough that all of this takes well under half a minute on two cores.
"""

from __future__ import annotations

import copy
import gzip
import io
import json
import math
import os
import re
import tempfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fuzz_samples import (
    chained_record_text,
    corpus_samples,
    mjai_events,
    mjai_log,
    record_text,
    samples,
    tenhou_json_games,
    tenhou_json_log,
    xml_log,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.errors import HonbaError
from replay.formats.detect import read_log
from replay.formats.logmodel import LogError
from replay.formats.record import build_match, check_record_text, parse_record
from replay.formats.source import MAX_UNPACKED
from replay.input.files import MAX_FILE
from replay.input.json_text import DEEPEST, load_json
from replay.service.imports.batch import import_paths, verify_paths
from replay.service.imports.importing import match_from_log
from replay.service.imports.verify import verify_game
from replay.store.application import HonbaApp

# A fixed budget and the same examples on every run; HONBA_FUZZ_EXAMPLES=2000 HONBA_FUZZ_RANDOM=1
# searches further (new examples each run) when a reader changes.
EXAMPLES = int(os.environ.get("HONBA_FUZZ_EXAMPLES", "100"))
FUZZ = settings(
    max_examples=EXAMPLES,
    derandomize=not os.environ.get("HONBA_FUZZ_RANDOM"),
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
LOG_FORMATS = ("auto", "tenhou-xml", "tenhou-json", "mjai")

# Where in a file: a line, a column, a byte, a tag or hand (``INIT #3``, ``<AGARI>``), an
# index (``log[2][16]``, ``sc[3]``), a record line (``file:12:``), a named game or field.
POSITION = re.compile(
    r"line \d+|column \d+|byte \d+|INIT #\d+|<[A-Za-z]+>|\[\d+\]|^:\d+\b|, (sc|name|rule|log|owari)\b|game \S+"
)
# What is wrong with the file as a whole (no position inside it to name).
WHOLE_FILE = re.compile(
    r"not a recognised log format|not UTF-8|UTF-16|UTF-32|broken gzip|unpacks to more than|larger than|refused XML"
    r"|empty|no <GO> tag|no mjai events|no start_kyoku|cannot read|a honba record file|no game in it"
    r"|not a Tenhou mjlog|must be a JSON object|^: unsupported: "
)
PYTHON_ERRORS = re.compile(r"\b(TypeError|KeyError|IndexError|AttributeError|ValueError|RecursionError|Traceback)\b")

# A reader that takes this long on any of these inputs hangs: a guard, not a speed test.
HANG = 300


def assert_clear(message: str, file: str) -> None:
    """One line, starting with the file, naming the position (or a whole-file problem) and what is wrong."""
    assert message.startswith(file), message
    rest = message[len(file) :]
    assert "\n" not in message, message
    assert len(rest) < 400, f"an error message of {len(rest)} characters: {rest[:200]}..."
    assert re.search(r"[a-z]{3}", rest), message
    assert POSITION.search(rest) or WHOLE_FILE.search(rest), f"no position in: {message}"
    assert not PYTHON_ERRORS.search(rest), message


# Running the readers.


@contextmanager
def written(data: bytes, name: str) -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        yield path


def stored_events(app: HonbaApp) -> int:
    return app.recorder.max_notification_id() or 0


def check_file(data: bytes, name: str, formats: tuple[str, ...] = ("auto",)) -> None:
    """Every way honba reads a file: each reader, then verify and import as the commands run them."""
    with written(data, name) as path:
        file = str(path)
        for fmt in formats:
            try:
                games = read_log(path, fmt)
            except HonbaError as exc:
                assert_clear(str(exc), file)
            else:
                for game in games:
                    verify_game(game)
        run = verify_paths([path])
        for item in run.unreadable:
            assert item.file == file
            assert_clear(item.message, file)
        app = HonbaApp.open(":memory:")
        try:
            # Read as a record file whatever it holds (import --format record), then as it comes.
            for item in import_paths(app, [path], "record").unreadable:
                assert_clear(item.message, file)
            if stored_events(app):
                app.close()
                app = HonbaApp.open(":memory:")
            imported = import_paths(app, [path])
            for item in (*imported.unreadable, *imported.unsupported):
                assert_clear(item.message, file)
            if imported.unreadable:
                # An unreadable file stores nothing: no match, no event.
                assert stored_events(app) == 0
                assert list(app.list_matches()) == []
            else:
                stored = {m.key for m in app.list_matches()}
                assert len(stored) == imported.stored
                assert stored == {key for key, _ in imported.listed} or imported.stored > len(imported.listed)
                for key in stored:
                    assert app.get_match(key).version >= 1
        finally:
            app.close()


def check_record(text: str, name: str = "r.jsonl") -> None:
    """The record-file reader on text: a match or a RecordError naming the file and line."""
    try:
        check_record_text(text, name=name)
        build_match(parse_record(text, name=name), name=name)
    except HonbaError as exc:
        assert_clear(str(exc), name)


# Mutations of valid input.


def cut(data: bytes, at: int) -> bytes:
    return data[: at % (len(data) + 1)]


def flip(data: bytes, changes: list[tuple[int, int]]) -> bytes:
    out = bytearray(data)
    for at, value in changes:
        if out:
            out[at % len(out)] = value
    return bytes(out)


def pieces(data: bytes) -> list[bytes]:
    """The lines of a file, or the tags of a one-line XML document."""
    if data.lstrip().startswith(b"<"):
        return [p + b">" for p in data.split(b">") if p]
    return data.split(b"\n")


def reshuffle(data: bytes, op: str, i: int, j: int) -> bytes:
    parts = pieces(data)
    if not parts:
        return data
    i, j = i % len(parts), j % len(parts)
    if op == "drop":
        del parts[i]
    elif op == "duplicate":
        parts.insert(i, parts[j])
    else:
        parts[i], parts[j] = parts[j], parts[i]
    joiner = b"" if data.lstrip().startswith(b"<") else b"\n"
    return joiner.join(parts)


def gzipped(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


mutation = st.one_of(
    st.tuples(st.just("cut"), st.integers(min_value=0)),
    st.tuples(st.just("flip"), st.lists(st.tuples(st.integers(min_value=0), st.integers(0, 255)), max_size=6)),
    st.tuples(st.sampled_from(["drop", "duplicate", "swap"]), st.integers(min_value=0), st.integers(min_value=0)),
    st.tuples(st.just("gzip")),
)


def mutated(data: bytes, steps: list[Any]) -> bytes:
    for step in steps:
        if step[0] == "cut":
            data = cut(data, step[1])
        elif step[0] == "flip":
            data = flip(data, step[1])
        elif step[0] == "gzip":
            data = gzipped(data)
        else:
            data = reshuffle(data, step[0], step[1], step[2])
    return data


# JSON values of the wrong kind or absurd size, for every field.
EVIL: tuple[Any, ...] = (
    None,
    True,
    False,
    "",
    "7",
    "x" * 50,
    [],
    {},
    [None],
    {"a": [1]},
    -1,
    0,
    7,
    13,
    99,
    -25000,
    2**200,
    -(2**200),
    0.5,
    1e308,
    math.nan,
    math.inf,
    -math.inf,
    "\ud800",
    "two\nlines",
)


def json_paths(document: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path to every value in a JSON document, the document itself first."""
    yield prefix
    if isinstance(document, dict):
        for key, value in document.items():
            yield from json_paths(value, (*prefix, key))
    elif isinstance(document, list):
        for index, value in enumerate(document):
            yield from json_paths(value, (*prefix, index))


def replaced(document: Any, path: tuple[Any, ...], value: Any, *, delete: bool = False) -> Any:
    """The document with the value at ``path`` replaced (or deleted), the document itself unchanged: only
    the containers along the path are copied (a whole copy of a record's lines, for each of its thousands of
    variants, was most of the fuzzing's time)."""
    if not path:
        return value
    out = copy.copy(document)
    parent = out
    for step in path[:-1]:
        parent[step] = copy.copy(parent[step])
        parent = parent[step]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return out


def dumps(document: Any) -> bytes:
    # NaN and Infinity are written as Python's json does; a lone surrogate stays escaped.
    return json.dumps(document, ensure_ascii=True, allow_nan=True).encode()


def lines_of(events: Any) -> bytes:
    return b"\n".join(dumps(e) for e in (events if isinstance(events, list) else [events]))


def json_documents() -> dict[str, tuple[Any, Callable[[Any], bytes]]]:
    """Each JSON-based sample as a document and the way it is written back."""
    return {
        "game.json": (json.loads(tenhou_json_log()), dumps),
        "games.json": (json.loads(tenhou_json_games()), dumps),
        "game.jsonl": (mjai_events(), lines_of),
        "record.jsonl": ([json.loads(line) for line in record_text().splitlines()], lines_of),
        "chained.jsonl": ([json.loads(line) for line in chained_record_text().splitlines()], lines_of),
    }


def evil_variants(document: Any) -> Iterator[tuple[tuple[Any, ...], Any, bool]]:
    """For every field: deleted, and replaced by three wrong values (rotating through EVIL)."""
    for n, path in enumerate(json_paths(document)):
        if path and not isinstance(path[-1], int):
            yield path, None, True
        for k in range(3):
            yield path, EVIL[(3 * n + k) % len(EVIL)], False


# The tests.


def test_the_samples_read_verify_and_import_cleanly() -> None:
    """The valid inputs the fuzzing starts from are read without any error."""
    for name, data in {**samples(), **corpus_samples()}.items():
        with written(data, name) as path:
            app = HonbaApp.open(":memory:")
            run = import_paths(app, [path])
            assert run.unreadable == () and run.stored, (name, run)
            app.close()


@FUZZ
@given(
    prefix=st.sampled_from([b"", b"<", b"<mjloggm>", b"{", b'{"log": ', b'{"type": "start_kyoku"', b"\x1f\x8b", b"["]),
    body=st.binary(max_size=300),
)
def test_random_bytes(prefix: bytes, body: bytes) -> None:
    check_file(prefix + body, "random.log", LOG_FORMATS)
    check_file(prefix + body, "random.jsonl")


@FUZZ
@given(name=st.sampled_from(sorted(samples())), steps=st.lists(mutation, min_size=1, max_size=3))
def test_valid_samples_cut_flipped_and_reordered(name: str, steps: list[Any]) -> None:
    check_file(mutated(samples()[name], steps), name, LOG_FORMATS)


@pytest.mark.skipif(not corpus_samples(), reason="../shared/corpus is not present")
@settings(FUZZ, max_examples=max(EXAMPLES * 5 // 8, 1))
@given(data=st.data(), steps=st.lists(mutation, min_size=1, max_size=2))
def test_real_logs_cut_flipped_and_reordered(data: st.DataObject, steps: list[Any]) -> None:
    real = corpus_samples()
    name = data.draw(st.sampled_from(sorted(real)))
    check_file(mutated(real[name], steps), name)


@FUZZ
@given(data=st.data())
def test_wrong_json_values_anywhere(data: st.DataObject) -> None:
    """A few fields at once replaced by wrong types, absurd numbers, NaN, or deleted."""
    name = data.draw(st.sampled_from(sorted(json_documents())))
    document, write = json_documents()[name]
    for _ in range(data.draw(st.integers(1, 3))):
        paths = list(json_paths(document))
        path = data.draw(st.sampled_from(paths))
        if path and data.draw(st.booleans()) and isinstance(path[-1], str):
            document = replaced(document, path, None, delete=True)
        else:
            document = replaced(document, path, data.draw(st.sampled_from(EVIL)))
    check_file(write(document), name)


@pytest.mark.parametrize("name", sorted(json_documents()))
def test_every_json_field_deleted_or_of_the_wrong_kind(name: str) -> None:
    """Each field of each JSON sample in turn: missing, and three wrong values, through the reader."""
    document, write = json_documents()[name]
    for path, value, delete in evil_variants(document):
        data = write(replaced(document, path, value, delete=delete))
        file = f"/fuzz/{name}"
        if name.startswith(("record", "chained")):
            check_record(data.decode(), file)
            continue
        try:
            games = read_tenhou_or_mjai(data, file)
        except HonbaError as exc:
            assert_clear(str(exc), file)
            continue
        for game in games:
            verify_game(game)
            if game.unsupported is None and game.hands:
                try:
                    match_from_log(game)
                except LogError as exc:  # a result the rules refuse: named by its hand
                    assert_clear(str(exc), file)
                except HonbaError:
                    pass  # a match that cannot start: batch adds the file and game (check_file)


def read_tenhou_or_mjai(data: bytes, file: str) -> list[Any]:
    from replay.formats.mjai import read_mjai
    from replay.formats.tenhou_json import read_tenhou_json

    return read_tenhou_json(data, file=file) if file.endswith(".json") else read_mjai(data, file=file)


XML_VALUES = ("7", "-1", "99", "", "x", "1,2", "3.5", "NaN", str(2**200), "-" + str(2**200), "9" * 5000, "0,0,0")


def test_every_xml_attribute_of_the_wrong_kind() -> None:
    """Each attribute of the XML sample in turn given wrong values, and each tag dropped or repeated."""
    from replay.formats.tenhou_xml import read_tenhou_xml

    data = xml_log()
    attributes = list(re.finditer(rb'="([^"]*)"', data))
    variants = [
        data[: m.start(1)] + XML_VALUES[(n + k) % len(XML_VALUES)].encode() + data[m.end(1) :]
        for n, m in enumerate(attributes)
        for k in range(0, len(XML_VALUES), 4)
    ]
    variants += [reshuffle(data, op, i, i + 1) for op in ("drop", "duplicate", "swap") for i in range(20)]
    for variant in variants:
        try:
            games = read_tenhou_xml(variant, file="/fuzz/game.mjlog")
        except HonbaError as exc:
            assert_clear(str(exc), "/fuzz/game.mjlog")
            continue
        for game in games:
            verify_game(game)


# Impossible values, one by one, in each format: each case with what import must say about
# it (a part of the reason), or None where the value is legal after all (a tsumo is written
# as a win "from" the winner; negative scores and 99 han can happen; mjai's own rules then
# allow the third winner the log shows).


def xml_with(agari: str) -> bytes:
    return xml_log().replace(b'who="1" fromWho="0" sc="250,-39,250,39,250,0,250,0"', agari.encode(), 1)


XML_THREE_WINNERS = xml_log().replace(
    b"</mjloggm>",
    b'<INIT seed="3,0,0,1,2,33" ten="163,304,278,255" oya="3"/>'
    + b"".join(
        f'<AGARI ba="0,0" ten="30,1000,0" yaku="8,1" who="{w}" fromWho="3" sc="0,0,0,0,0,0,0,0"/>'.encode()
        for w in (0, 1, 2)
    )
    + b"</mjloggm>",
)
IMPOSSIBLE_XML: dict[str, tuple[bytes, str | re.Pattern[str] | None]] = {
    "seat 7": (xml_with('who="7" fromWho="0" sc="250,-39,250,39,250,0,250,0"'), "INIT #1 <AGARI>: who=7"),
    "winner is the discarder": (xml_with('who="1" fromWho="1" sc="250,-39,250,39,250,0,250,0"'), None),
    "huge score": (
        xml_log().replace(b'ten="250,250,250,250"', f'ten="{2**200},250,250,250"'.encode()),
        "INIT #1: <INIT ten=",
    ),
    "negative score": (xml_log().replace(b'ten="250,250,250,250"', b'ten="-250,250,250,250"'), "starts at [-25000"),
    "huge kyoku": (
        xml_log().replace(b'seed="0,0,0,1,2,33"', f'seed="{4 * 2**200},0,0,1,2,33"'.encode()),
        "out of range",
    ),
    "han 99": (xml_log().replace(b'yaku="8,1,52,2"', b'yaku="8,99"'), "more than 13 han"),
    "negative han": (xml_log().replace(b'yaku="8,1,52,2"', b'yaku="8,-5"'), "less than 0"),
    # The log names no id: its key is its file's name and content digest (issue 34).
    "fu 13": (
        xml_log().replace(b'ten="30,3900,0"', b'ten="13,3900,0"'),
        re.compile(r"INIT #1: game game-[0-9a-f]{12}, hand E1-0: 13 fu"),
    ),
    "three winners": (XML_THREE_WINNERS, re.compile(r"INIT #5: game game-[0-9a-f]{12}, hand E3-1: 3 winners")),
}


def json_with(change: Callable[[dict[str, Any]], None]) -> bytes:
    document = json.loads(tenhou_json_log())
    change(document)
    return dumps(document)


def json_win(item: int, value: Any) -> bytes:
    return json_with(lambda d: d["log"][0][16][2].__setitem__(item, value))


def json_three_winners(document: dict[str, Any]) -> None:
    for seat in (2, 3):
        document["log"][0][16] += [[0, 0, 0, 0], [seat, 0, seat, "30符1飜1000点", "立直(1飜)"]]


IMPOSSIBLE_JSON: dict[str, tuple[bytes, str | None]] = {
    "seat 7": (json_win(0, 7), "log[0][16][2][0]: seat 7"),
    "winner is the discarder": (json_win(1, 1), None),
    "huge score": (json_with(lambda d: d["log"][0][1].__setitem__(0, 2**200)), "log[0][1][0]: 16069"),
    "negative score": (json_with(lambda d: d["log"][0][1].__setitem__(0, -25000)), None),
    "NaN score": (json_with(lambda d: d["log"][0][1].__setitem__(0, math.nan)), "log[0][1][0]: expected a whole"),
    "Infinity points": (json_with(lambda d: d["sc"].__setitem__(1, math.inf)), "sc[1]: inf is out of range"),
    # Issue 10: a count beyond any hand is refused, from a log as at the table.
    "han 99": (json_win(3, "30符99飜3900点"), "hand E1-0: 99 han is beyond any hand"),
    "fu 13": (json_win(3, "13符3飜3900点"), "log[0]: game 2024010100gm-00a9-0000-00000000, hand E1-0: 13 fu"),
    "three winners": (json_with(json_three_winners), "hand E1-0: 3 winners"),
    "huge honba": (json_with(lambda d: d["log"][0][0].__setitem__(1, 2**200)), "log[0][0][1]"),
}


def mjai_with(index: int, **fields: Any) -> bytes:
    events = mjai_events()
    events[index] = {**events[index], **fields}
    return lines_of(events)


HORA = next(i for i, e in enumerate(mjai_events()) if e["type"] == "hora")
START = next(i for i, e in enumerate(mjai_events()) if e["type"] == "start_kyoku")
MJAI_THREE_WINNERS = lines_of(
    [*mjai_events()[: HORA + 1], *[{**mjai_events()[HORA], "actor": a} for a in (2, 3)], *mjai_events()[HORA + 1 :]]
)
IMPOSSIBLE_MJAI: dict[str, tuple[bytes, str | re.Pattern[str] | None]] = {
    "seat 7": (mjai_with(HORA, actor=7), f"line {HORA + 1}: actor 7"),
    "winner is the discarder": (mjai_with(HORA, target=1), None),
    "huge score": (mjai_with(START, scores=[2**200, 25000, 25000, 25000]), "line 2: 'scores' 16069"),
    "negative score": (mjai_with(START, scores=[-25000, 25000, 25000, 25000]), None),
    "NaN score": (mjai_with(START, scores=[math.nan, 25000, 25000, 25000]), "line 2: 'scores' must be a whole"),
    "han 99": (mjai_with(HORA, fan=99), "hand E1-0: 99 han is beyond any hand"),
    # mjai's fu are read rounded up to the ten (akochan writes raw fu): 125 is 130, beyond any hand.
    # The refused win is named by its own line (issue 34).
    "fu 125": (mjai_with(HORA, fu=125), re.compile(rf"line {HORA + 1}: game game-[0-9a-f]{{12}}, hand E1-0: 130 fu")),
    "bakaze a list": (mjai_with(START, bakaze=["E"]), "line 2: bakaze a list"),
    "three winners": (MJAI_THREE_WINNERS, None),
}


@pytest.mark.parametrize(
    ("name", "case"),
    [(f"game.mjlog {k}", v) for k, v in IMPOSSIBLE_XML.items()]
    + [(f"game.json {k}", v) for k, v in IMPOSSIBLE_JSON.items()]
    + [(f"game.jsonl {k}", v) for k, v in IMPOSSIBLE_MJAI.items()],
)
def test_impossible_values_in_logs(name: str, case: tuple[bytes, str | re.Pattern[str] | None]) -> None:
    data, says = case
    file = name.split()[0]
    check_file(data, file, LOG_FORMATS)
    with written(data, file) as path:
        app = HonbaApp.open(":memory:")
        run = import_paths(app, [path])
        app.close()
    reasons = [item.reason for item in (*run.unreadable, *run.unsupported)]
    if says is None:
        assert run.stored and not reasons, reasons
    elif isinstance(says, re.Pattern):
        assert len(reasons) == 1 and says.search(reasons[0]), reasons
    else:
        assert len(reasons) == 1 and says in reasons[0], reasons


def record_with(*lines: dict[str, Any], start: dict[str, Any] | None = None) -> str:
    head = start or {"type": "start", "key": "k", "players": ["Ann", "Ben", "Cho", "Dai"], "rules": "tenhou"}
    return "\n".join(json.dumps(line, allow_nan=True) for line in (head, *lines))


def ron(**fields: Any) -> dict[str, Any]:
    return {"type": "win", "wins": [{"winner": "Ben", "from": "Ann", "han": 3, "fu": 30, **fields}]}


def opening(**table: Any) -> dict[str, Any]:
    return {"type": "start", "key": "k", "players": ["Ann", "Ben", "Cho", "Dai"], "opening": table}


THREE_RONS = {"type": "win", "wins": [{"winner": p, "from": "Ann", "limit": "mangan"} for p in ("Ben", "Cho", "Dai")]}
IMPOSSIBLE_RECORDS: dict[str, tuple[str, str | None]] = {
    "seat 7": (record_with(ron(winner=7)), ":2.wins[0].winner: there is no seat 7"),
    "winner is the discarder": (record_with(ron(**{"from": "Ben"})), ":2: result 1 (E1-0): Ben cannot win"),
    "han 99": (record_with(ron(han=99)), ":2: result 1 (E1-0): 99 han is beyond any hand"),
    "han as text": (record_with(ron(han="3")), ":2.wins[0].han: '3' is not a whole number"),
    "han as a list": (record_with(ron(han=[3])), ":2.wins[0].han: a list is not a whole number"),
    "han NaN": (record_with(ron(han=math.nan)), ":2.wins[0].han: nan is not a whole number"),
    "fu 13": (record_with(ron(fu=13)), ":2: result 1 (E1-0): 13 fu"),
    "fu 30.5": (record_with(ron(fu=30.5)), ":2.wins[0].fu: 30.5 is not"),
    "huge han": (record_with(ron(han=2**200)), ":2.wins[0].han: 16069"),
    "negative han": (record_with(ron(han=-3)), ":2: result 1 (E1-0): -3 han"),
    "limit as a list": (record_with(ron(limit=["mangan"], han=None, fu=None)), ":2.wins[0].limit: a list is not"),
    "three winners": (record_with(THREE_RONS), ":2: result 1 (E1-0): 3 winners"),
    "huge penalty": (record_with({"type": "penalty", "player": "Ann", "amount": 2**200}), ":2: a penalty needs"),
    "facts of the wrong kind": (
        record_with(ron(facts={"last_tile": "yes", "melded_sets": "x"})),
        ":2.wins[0].facts.last_tile: 'yes' is not true or false",
    ),
    "loser scores as text": (record_with(ron(loser_scores="abc")), ":2.wins[0].loser_scores"),
    "opening seat 7": (
        record_with(ron(), start=opening(players=4, scores=[25000] * 4, dealer=7, hand_number=8)),
        ":1: opening dealer: there is no seat 7",
    ),
    "opening scores as text": (
        record_with(ron(), start=opening(players=4, scores="abcd")),
        ":1.opening.scores: 'abcd' is not a list",
    ),
    "doubles in the trillions": (
        record_with(
            {"type": "win", "wins": [{"winner": "Ben", "from": "Ann", "doubles": 10**12, "points": 20}]},
            start={"type": "start", "key": "k", "players": ["Ann", "Ben", "Cho", "Dai"], "rules": "american-modern"},
        ),
        ":2.wins[0].doubles: 1000000000000 is not",
    ),
    "a name on two lines": (
        record_with(ron(), start={"type": "start", "key": "k", "players": ["Ann", "Ben\nBen", "Cho", "Dai"]}),
        ":1: the key and the players' names must be text on one line",
    ),
    "a number of 5000 digits": (
        '{"type": "start", "key": "k", "players": ["A", "B", "C", "D"], "x": ' + "9" * 5000 + "}",
        ":1: not valid JSON (a number too long to read)",
    ),
    "nested 100000 deep": ("[" * 100_000, ":1: not valid JSON (nested more than 32 deep)"),
    "a BOM": ("\ufeff" + record_text(), None),
}


@pytest.mark.parametrize("name", sorted(IMPOSSIBLE_RECORDS))
@pytest.mark.timeout(HANG)
def test_impossible_values_in_record_files(name: str) -> None:
    text, says = IMPOSSIBLE_RECORDS[name]
    check_record(text, "/fuzz/r.jsonl")
    check_file(text.encode(), "r.jsonl", ("auto",))
    try:
        build_match(parse_record(text, name="/fuzz/r.jsonl"), name="/fuzz/r.jsonl")
    except HonbaError as exc:
        assert says is not None and str(exc).startswith(f"/fuzz/r.jsonl{says}"), str(exc)
    else:
        assert says is None


# Wrong encodings.


def reencoded(data: bytes, encoding: str) -> bytes:
    return data.decode("utf-8").encode(encoding)


@pytest.mark.parametrize("name", sorted(samples()))
@pytest.mark.parametrize(
    "encode",
    [
        lambda d: reencoded(d, "utf-16"),
        lambda d: reencoded(d, "utf-16-be"),
        lambda d: reencoded(d, "utf-32"),
        lambda d: b"\xef\xbb\xbf" + d,
        lambda d: d.replace("あ".encode(), "é".encode("latin-1")).replace(b"Ann", b"\xe9"),
        lambda d: d.replace(b"Ben", b"\xff\xfe\xc0\xaf"),
        lambda d: d.decode("utf-8").encode("cp932", "replace"),
    ],
    ids=["utf-16", "utf-16-be", "utf-32", "bom", "latin-1", "invalid-utf-8", "shift-jis"],
)
def test_wrong_encodings(name: str, encode: Callable[[bytes], bytes]) -> None:
    check_file(encode(samples()[name]), name, LOG_FORMATS)


# XML entity tricks: refused, never expanded nor fetched.

BILLION_LAUGHS = (
    b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    + b"".join(f'<!ENTITY lol{i} "{("&lol" + str(i - 1 if i > 1 else "") + ";") * 10}">'.encode() for i in range(1, 10))
    + b"]><mjloggm>&lol9;</mjloggm>"
)
HOSTILE_XML = {
    "billion laughs": BILLION_LAUGHS,
    "external entity": b'<?xml version="1.0"?><!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]><mjloggm>&x;</mjloggm>',
    "external entity in an attribute": (
        b'<!DOCTYPE m [<!ENTITY x SYSTEM "http://127.0.0.1:1/x">]><mjloggm><GO type="&x;"/></mjloggm>'
    ),
    "parameter entity": b'<!DOCTYPE m [<!ENTITY % p SYSTEM "http://127.0.0.1:1/p.dtd"> %p;]><mjloggm/>',
    "external DTD": b'<!DOCTYPE mjloggm SYSTEM "http://127.0.0.1:1/x.dtd"><mjloggm><GO type="169"/></mjloggm>',
    "quadratic blowup": b'<!DOCTYPE m [<!ENTITY a "'
    + b"x" * 50_000
    + b'">]><mjloggm>'
    + b"&a;" * 50_000
    + b"</mjloggm>",
    "processing instruction and CDATA": b"<?php boom ?><mjloggm><![CDATA[<GO type='169'/>]]></mjloggm>",
}


@pytest.mark.parametrize("name", sorted(HOSTILE_XML))
@pytest.mark.timeout(HANG)
def test_xml_entity_tricks_are_refused(name: str) -> None:
    data = HOSTILE_XML[name]
    with written(data, "hostile.xml") as path:
        with pytest.raises(HonbaError) as caught:
            read_log(path)
        assert_clear(str(caught.value), str(path))
        if b"<!DOCTYPE" in data:
            assert "refused XML: a document type declaration (<!DOCTYPE" in str(caught.value)
    check_file(data, "hostile.xml", LOG_FORMATS)


def test_an_entity_declaration_without_a_doctype_is_refused_before_parsing() -> None:
    data = b'<mjloggm><!ENTITY x SYSTEM "file:///etc/passwd"><GO type="169"/></mjloggm>'
    with written(data, "entity.mjlog") as path, pytest.raises(HonbaError) as caught:
        read_log(path)
    assert "refused XML: an entity declaration has no place in a log" in str(caught.value)
    assert_clear(str(caught.value), str(path))


def test_a_doctype_hidden_behind_a_declared_encoding_is_not_read_in_that_encoding() -> None:
    # In EBCDIC (cp037) the declaration's bytes are not "<!DOCTYPE": a parser that obeyed the
    # declared encoding would see a DTD the check on the text did not. The text is read as UTF-8.
    hidden = '<!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]><mjloggm>&x;</mjloggm>'.encode("cp037")
    data = b'<?xml version="1.0" encoding="cp037"?>' + hidden
    with written(data, "ebcdic.mjlog") as path, pytest.raises(HonbaError) as caught:
        read_log(path)
    assert "passwd" not in str(caught.value) and "root:" not in str(caught.value)
    assert_clear(str(caught.value), str(path))


def test_a_doctype_in_a_log_is_refused_and_named() -> None:
    data = b'<?xml version="1.0"?><!DOCTYPE mjloggm><mjloggm><GO type="169"/></mjloggm>'
    with written(data, "doctype.mjlog") as path, pytest.raises(HonbaError) as caught:
        read_log(path)
    assert "refused XML: a document type declaration (<!DOCTYPE 'mjloggm'>) has no place in a log" in str(caught.value)


# Huge input.


def gzip_bomb(size: int) -> bytes:
    """A gzip member that unpacks to ``size`` zero bytes, built without holding them."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    chunk = b"\0" * (1 << 20)
    out = io.BytesIO()
    for _ in range(size // len(chunk)):
        out.write(compressor.compress(chunk))
    out.write(compressor.flush())
    return out.getvalue()


def test_a_gzip_bomb_beyond_the_cap_is_refused_without_unpacking_it_all() -> None:
    bomb = gzip_bomb(MAX_UNPACKED + (2 << 20))
    assert len(bomb) < 200_000
    with written(bomb, "bomb.mjlog.gz") as path, pytest.raises(HonbaError, match="unpacks to more than 64 MiB"):
        read_log(path)
    check_file(bomb, "bomb.jsonl.gz")


def test_broken_and_nested_gzip() -> None:
    good = gzipped(xml_log())
    for data in (good[:20], good[:-8], b"\x1f\x8b" + b"\0" * 30, gzipped(gzipped(xml_log())), good + b"junk"):
        check_file(data, "broken.mjlog.gz", LOG_FORMATS)


HUGE = 10 * 1024 * 1024


HUGE_INPUTS: dict[str, Callable[[], bytes]] = {
    "line.jsonl": lambda: mjai_log() + b'\n{"type": "none", "text": "' + b"x" * HUGE + b'"}\n',
    "line.json": lambda: b'{"log": [' + b"[0, 0, 0], " * (HUGE // 11) + b"[]]}",
    "digits.jsonl": lambda: b'{"type": "start_game", "names": ' + b"1" * HUGE + b"}",
    "digits.json": lambda: b'{"log": [], "sc": [' + b"9" * 5000 + b"]}",
    "deep.json": lambda: b'{"log": ' + b"[" * 200_000 + b"]" * 200_000 + b"}",
    "deep.jsonl": lambda: b'{"type": "none", "x": ' + b"[" * 200_000 + b"}",
    "attr.mjlog": lambda: xml_log().replace(b'n1="Ben"', b'n1="' + b"B" * HUGE + b'"'),
    "tags.mjlog": lambda: xml_log().replace(b"<T12/>", b"<T12/>" * (HUGE // 30)),
    "name.jsonl": lambda: mjai_log().replace(b'"Ann"', b'"' + b"A" * HUGE + b'"'),
}


@pytest.mark.parametrize("name", sorted(HUGE_INPUTS))
@pytest.mark.timeout(HANG)
def test_huge_input(name: str) -> None:
    """Ten megabytes in one line, one attribute, one name; numbers and nesting beyond Python's limits.

    The work is bounded by the input's size; the timeout only catches a reader that hangs (an
    expansion or a quadratic loop), not a slow machine. Speed is measured in benchmarks/.
    """
    check_file(HUGE_INPUTS[name](), name)


# Size and depth caps (issue 24): a file is read up to MAX_FILE bytes, JSON nesting is measured
# before the text is parsed.


def test_a_file_beyond_the_size_cap_is_refused_by_every_way_honba_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "huge.mjlog"
    with path.open("wb") as file:
        file.truncate(MAX_FILE + 1)  # sparse: no room taken on the disk
    message = f"{path}: larger than 64 MiB: honba reads a log or record file of at most 64 MiB"
    with pytest.raises(HonbaError) as caught:
        read_log(path)
    assert str(caught.value) == message
    assert [item.message for item in verify_paths([path]).unreadable] == [message]
    app = HonbaApp.open(":memory:")
    try:
        for fmt in ("auto", "record", "mjai"):
            assert [item.message for item in import_paths(app, [path], fmt).unreadable] == [message]
        assert stored_events(app) == 0
    finally:
        app.close()


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


JUST_TOO_DEEP: dict[str, Callable[[], bytes]] = {
    # One level beyond the cap: far below Python's own recursion limit, so only the cap refuses it.
    "deep.json": lambda: tenhou_json_log().replace(b'"ref":', b'"x": ' + nested(DEEPEST + 1).encode() + b', "ref":', 1),
    "deep.jsonl": lambda: mjai_log().replace(
        b'{"type": "start_kyoku"', b'{"x": ' + nested(DEEPEST + 1).encode() + b', "type": "start_kyoku"', 1
    ),
}


@pytest.mark.parametrize("name", sorted(JUST_TOO_DEEP))
def test_json_one_level_beyond_the_cap_is_refused_where_it_goes_too_deep(name: str) -> None:
    data = JUST_TOO_DEEP[name]()
    assert b"[" * (DEEPEST + 1) in data
    with written(data, name) as path, pytest.raises(HonbaError) as caught:
        read_log(path)
    message = str(caught.value)
    assert f"nested more than {DEEPEST} deep" in message and "column" in message, message
    assert_clear(message, str(path))


def test_the_depth_is_measured_before_the_text_is_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    def parser_reached(*_: object, **__: object) -> object:
        raise AssertionError("json.loads was called on text nested beyond the cap")

    monkeypatch.setattr(json, "loads", parser_reached)
    for text in ("[" * (DEEPEST + 1), '{"a": ' * (DEEPEST + 1), nested(DEEPEST + 1), "[" * 200_000):
        with pytest.raises(json.JSONDecodeError, match=f"nested more than {DEEPEST} deep"):
            load_json(text)
    with pytest.raises(json.JSONDecodeError, match="nested more than 3 deep: line 1 column 12"):
        load_json('[["[[[[", [[1]]]]', deepest=3)
