"""The log formats behind one registry: each format module has its own detect and read, and a new
format is one module plus one registration."""

from __future__ import annotations

import importlib
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import replay.formats.detect as detect
import replay.formats.source as source
from domain.rules import load_preset
from replay.formats.detect import LogFormat, detect_format, read_log
from replay.formats.logmodel import LoggedGame


def test_every_registered_format_has_its_own_detect_and_read() -> None:
    assert [entry.name for entry in detect.REGISTRY] == [
        "tenhou-xml",
        "riichi-city",
        "tenhou-json",
        "mjai",
        "mahjongsoul",
    ]
    for entry in detect.REGISTRY:
        module = importlib.import_module(entry.module)
        assert callable(getattr(module, entry.detect)) and callable(getattr(module, entry.read))


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b'<mjloggm ver="2.3"><GO type="169"/></mjloggm>', "tenhou-xml"),
        (b'{"title": ["", ""], "log": [], "name": ["a", "b", "c", "d"]}', "tenhou-json"),
        (b'[{"log": []}]', "tenhou-json"),
        (b'{"type":"start_game","names":["a","b","c","d"]}\n{"type":"end_game"}\n', "mjai"),
        (b'{"type": "start", "key": "k"}\n', "record"),
        (b"plain words", None),
    ],
)
def test_each_format_is_told_by_its_own_detect(data: bytes, expected: str | None) -> None:
    assert detect_format(data) == expected


def test_a_new_format_is_one_module_and_one_registration(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("honba_test_csv_format")

    def sniff(data: bytes) -> bool:
        return data.startswith(b"seat,name\n")

    def read(data: bytes, *, file: str) -> list[LoggedGame]:
        names = tuple(line.split(b",")[1].decode() for line in data.splitlines()[1:])
        return [
            LoggedGame(file=file, game_id="csv-1", format="csv", players=names, rules=load_preset("tenhou"), hands=())
        ]

    module.detect = sniff  # type: ignore[attr-defined]
    module.read = read  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    entry = LogFormat("csv", module.__name__)
    monkeypatch.setattr(detect, "REGISTRY", (*detect.REGISTRY, entry))
    monkeypatch.setitem(detect.READERS, "csv", entry)
    log = tmp_path / "table.csv"
    log.write_bytes(b"seat,name\n0,Ann\n1,Ben\n2,Cho\n3,Dai\n")
    (game,) = read_log(log)
    assert (game.format, game.players) == ("csv", ("Ann", "Ben", "Cho", "Dai"))
    assert detect_format(log.read_bytes()) == "csv"


def test_the_tenhou_readers_and_the_export_share_one_vocabulary() -> None:
    from replay.formats import tenhou_json, tenhou_vocab, tenhou_xml

    for name in ("LOG_ID", "MAX_POINTS", "MAX_COUNT", "MAX_KYOKU_INDEX"):
        assert getattr(tenhou_xml, name) is getattr(tenhou_json, name) is getattr(tenhou_vocab, name)
    # The reader's abortive draws are the vocabulary's spellings: Tenhou's words (the export's) and
    # the converters' romaji and English ones, one table in tenhou_vocab.
    assert tenhou_json.LIMITS is tenhou_vocab.LIMITS_BY_WORD and tenhou_json.ABORTS is tenhou_vocab.ABORT_SPELLINGS
    # What the export writes, the reader reads back as the same limit and the same abortive draw.
    for limit, word in tenhou_vocab.LIMIT_WORDS.items():
        assert tenhou_json.LIMITS[word] == limit
    for kind, word in tenhou_vocab.ABORT_WORDS.items():
        assert tenhou_json.ABORTS[word] is kind
    assert set(tenhou_xml.ABORT_KINDS.values()) == set(tenhou_vocab.ABORT_WORDS)


def test_detection_parses_a_files_first_line_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # A record, tenhou.net/6 JSON and mjai each ask for the first line as JSON: one parse serves all three.
    parsed: list[str] = []
    original = source.load_json

    def counted(text: str) -> Any:
        parsed.append(text)
        return original(text)

    monkeypatch.setattr(source, "load_json", counted)
    source._line_object.cache_clear()
    data = b'{"type":"start_game","names":["A","B","C","D"]}\n{"type":"end_game"}\n'
    assert detect.detect_format(data) == "mjai"
    assert len(parsed) == 1


def test_a_log_is_made_utf8_text_once_on_its_way_to_its_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    """A log saved as UTF-16 with a byte order mark is made UTF-8 text once: the detections are asked
    about that text and its reader is given the very same bytes, not a second copy made for it. Seen
    by what a registered format's detect and read are given (the registry is looked up by name each
    time), not by a spy on ``utf8_text``, which a compiled ``read_games`` calls directly."""
    given: list[tuple[str, bytes]] = []
    module = types.ModuleType("honba_test_seats_format")

    def sniff(data: bytes) -> bool:
        given.append(("detect", data))
        return data.startswith(b"seat,name\n")

    def read(data: bytes, *, file: str) -> list[LoggedGame]:
        given.append(("read", data))
        return []

    module.detect = sniff  # type: ignore[attr-defined]
    module.read = read  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    entry = LogFormat("seats", module.__name__)
    monkeypatch.setattr(detect, "REGISTRY", (*detect.REGISTRY, entry))
    monkeypatch.setitem(detect.READERS, "seats", entry)
    text = "seat,name\n0,東\n1,南\n"
    assert detect.read_games(text.encode("utf-16"), file="seats.csv") == []
    (detected, shown), (reading, read_as) = given
    assert (detected, reading) == ("detect", "read") and shown == text.encode()
    assert read_as is shown
    # A Tenhou log saved so reads as its UTF-8 bytes read.
    log = '<mjloggm ver="2.3"><GO type="169" lobby="0"/><UN n0="東" n1="B" n2="C" n3="D"/></mjloggm>\n'
    games = detect.read_games(log.encode("utf-16"), file="x.mjlog")
    assert games == detect.read_games(log.encode(), file="x.mjlog") and games[0].truncated


@given(st.sampled_from([0, 1, 4095, 4096, 4097, 8191, 8192, 8193, 12000]), st.binary(max_size=9000))
def test_a_logs_head_is_its_start_after_blank_space_however_much_of_it(blanks: int, rest: bytes) -> None:
    # ``head`` strips a prefix of the content, not the whole (a copy of every file, twice): the same
    # start for any run of byte order marks and blank space before it.
    data = (b"\xef\xbb\xbf \t\r\n" * (blanks // 7 + 1))[:blanks] + rest
    assert source.head(data) == data.lstrip(b"\xef\xbb\xbf \t\r\n")[:4096]
