"""Logs saved in another text encoding than plain UTF-8: UTF-16 with a byte-order mark (as Windows
tools save text) and UTF-8 with a byte-order mark are read as the same log; UTF-32 and UTF-16
without a mark are still refused in one line.

``honba verify --json`` reads each sample (synthetic logs of every format, and a real Tenhou game
of the corpus in both its formats when the corpus is here) and must agree with it hand by hand,
exactly as it does with the plain UTF-8 file.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS
from fuzz_samples import mjai_log, tenhou_json_log, xml_log
from honba_cli import Honba, invoke

TSUBAKI = CORPUS / "tsubakisakura-mjlog2json" / "data" / "2019103023gm-00a9-0000-f90e0fe9"

SAMPLES: dict[str, Callable[[], bytes]] = {
    "game.mjlog": xml_log,
    "game.json": tenhou_json_log,
    "game.jsonl": mjai_log,
}
MARKED: dict[str, Callable[[bytes], bytes]] = {
    "utf-16": lambda d: d.decode("utf-8").encode("utf-16"),  # little-endian, with its mark
    "utf-16-be": lambda d: b"\xfe\xff" + d.decode("utf-8").encode("utf-16-be"),
    "utf-8 with a mark": lambda d: b"\xef\xbb\xbf" + d,
}


def verify(path: Path) -> dict[str, Any]:
    result = invoke(["--db", str(path.parent / "x.sqlite"), "verify", str(path), "--json"])
    assert result.exit_code in (0, 1, 2), result.output
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def agreeing(report: dict[str, Any]) -> tuple[int, int, int, int]:
    return report["games"], report["hands"], report["hands_agreeing"], len(report["unreadable"])


def differences(report: dict[str, Any]) -> list[tuple[Any, ...]]:
    """What a report finds, leaving out the file it was found in."""
    return [(d["game"], d["hand"], d["field"], d["log"], d["honba"]) for d in report["disagreements"]]


@pytest.mark.parametrize("encoding", sorted(MARKED))
@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_a_log_with_a_byte_order_mark_reads_as_the_same_log(tmp_path: Path, name: str, encoding: str) -> None:
    plain = tmp_path / "plain" / name
    marked = tmp_path / "marked" / name
    for path, data in ((plain, SAMPLES[name]()), (marked, MARKED[encoding](SAMPLES[name]()))):
        path.parent.mkdir()
        path.write_bytes(data)
    expected = verify(plain)
    assert expected["hands"] > 0 and expected["unreadable"] == []
    report = verify(marked)
    assert agreeing(report) == agreeing(expected)
    assert differences(report) == differences(expected)


@pytest.mark.parametrize("suffix", [".xml", ".json"])
@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be"])
def test_a_real_tenhou_game_saved_as_utf_16_agrees_hand_by_hand(tmp_path: Path, suffix: str, encoding: str) -> None:
    source = TSUBAKI.with_suffix(suffix)
    if not source.is_file():
        pytest.skip("the tsubakisakura games are not in the shared corpus here")
    path = tmp_path / source.name
    path.write_bytes(MARKED[encoding](source.read_bytes()))
    report = verify(path)
    # Tenhou's own game: 7 hands, every one agreeing with its final scores and points.
    assert agreeing(report) == (1, 7, 7, 0)
    assert report["disagreements"] == []


@pytest.mark.parametrize(
    ("encoding", "named"),
    [
        (lambda d: d.decode("utf-8").encode("utf-32"), "UTF-32"),
        (lambda d: d.decode("utf-8").encode("utf-16-le"), "UTF-16"),  # no mark: not told from binary
    ],
    ids=["utf-32", "utf-16 without a mark"],
)
def test_other_wide_encodings_are_refused_in_one_line(
    tmp_path: Path, encoding: Callable[[bytes], bytes], named: str
) -> None:
    path = tmp_path / "game.mjlog"
    path.write_bytes(encoding(xml_log()))
    report = verify(path)
    assert len(report["unreadable"]) == 1
    assert named in report["unreadable"][0]["reason"] and "UTF-8" in report["unreadable"][0]["reason"]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-8 with a mark"])
def test_a_record_file_saved_by_a_windows_editor_imports_and_checks_as_the_same_match(
    tmp_path: Path, encoding: str
) -> None:
    # The exported record re-saved as UTF-16 (Notepad's "Unicode"): the same entries, the chain intact.
    first = Honba(tmp_path / "first.sqlite")
    first.ok("start", "m1", "--players", "Ann,Ben,Cho,Dai")
    first.ok("win", "m1", "Ben:3/30", "--from", "Cho")
    first.ok("draw", "m1", "--ready", "Ann")
    record = tmp_path / "m1.honba"
    first.ok("export", "m1", "-o", str(record))
    saved = tmp_path / "saved.honba"
    saved.write_bytes(MARKED[encoding](record.read_bytes()))
    assert "intact" in first.ok("check", str(saved))
    second = Honba(tmp_path / "second.sqlite")
    assert "1 stored" in second.ok("import", str(saved))
    assert second.json("status", "m1") == first.json("status", "m1")


@pytest.mark.parametrize(
    "data", [b"\xff\xfe\x00\xd8A\x00", b"\xff\xfe<\x00m\x00l"], ids=["lone surrogate", "odd length"]
)
def test_broken_utf_16_is_said_to_be_broken_not_to_be_utf_16(tmp_path: Path, data: bytes) -> None:
    # It said "UTF-16 text: honba reads logs written in UTF-8", where UTF-16 with a mark is read.
    path = tmp_path / "broken.mjlog"
    path.write_bytes(data)
    report = verify(path)
    assert [u["reason"] for u in report["unreadable"]] == [
        "broken UTF-16 text: a byte order mark, then bytes that are not UTF-16 text"
    ]
