"""A game imported from a log with its tiles is exported with them: ``honba export --format tenhou-json``
gives back every hand's dora and ura indicators, hands dealt, draws and discards, and ``honba verify``
reads the export with the same results as the log it came from.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS
from honba_cli import Honba

# Tenhou's own tenhou.net/6 JSON of a 2019 game (corpus), tiles and all.
TENHOU_JSON = CORPUS / "tsubakisakura-mjlog2json" / "data" / "2019103023gm-00a9-0000-f90e0fe9.json"


def small_log() -> dict[str, Any]:
    """Two hands written for the test: a non-dealer's 1 han 30 fu ron on the dealer's discard
    (1,000 points), then a draw with nobody ready."""
    haipai = [
        [11, 12, 13, 14, 15, 16, 17, 18, 19, 31, 31, 32, 33],
        [21, 22, 23, 24, 24, 26, 27, 28, 34, 35, 36, 37, 37],
        [11, 12, 13, 21, 22, 23, 31, 32, 33, 41, 41, 42, 42],
        [14, 15, 16, 24, 25, 26, 34, 35, 36, 43, 43, 44, 44],
    ]
    first = [
        [0, 0, 0],
        [25000, 25000, 25000, 25000],
        [23],
        [],
        haipai[0],
        [45, 25],
        [45, 60],
        haipai[1],
        [46],
        [46],
        haipai[2],
        [47],
        [47],
        haipai[3],
        [45],
        [60],
        ["和了", [-1000, 1000, 0, 0], [1, 0, 1, "30符1飜1000点", "断幺九(1飜)"]],
    ]
    second = [
        [1, 0, 0],
        [24000, 26000, 25000, 25000],
        [31],
        [],
        *(array for hand in haipai for array in (hand, [], [])),
        ["全員不聴", [0, 0, 0, 0]],
    ]
    return {
        # The game's own id (a converter's ``ref``): the match's key.
        "ref": "small",
        "title": ["test", ""],
        "name": ["Ann", "Ben", "Cho", "Dai"],
        "rule": {"disp": "般南喰赤", "aka": 1},
        "log": [first, second],
    }


def exported(tmp_path: Path, log: Path, key: str) -> tuple[dict[str, Any], Path]:
    honba = Honba(tmp_path / "store.sqlite")
    stored = honba("import", str(log))
    assert stored.exit_code == 0, stored.output
    out = tmp_path / "out.json"
    written = honba("export", key, "--format", "tenhou-json", "-o", str(out))
    assert written.exit_code == 0, written.output
    return json.loads(out.read_text("utf-8")), out


def verified(tmp_path: Path, log: Path) -> dict[str, Any]:
    result = Honba(tmp_path / "unused.sqlite")("verify", "--json", str(log))
    data: dict[str, Any] = json.loads(result.stdout)
    return {key: data[key] for key in ("games", "hands", "hands_agreeing", "disagreements")}


def test_the_tiles_of_a_small_log_come_back_in_the_export(tmp_path: Path) -> None:
    source = tmp_path / "small.json"
    original = small_log()
    source.write_text(json.dumps(original), "utf-8")
    document, out = exported(tmp_path, source, "small")
    assert [kyoku[2:16] for kyoku in document["log"]] == [kyoku[2:16] for kyoku in original["log"]]
    assert document["log"][0][16][1] == [-1000, 1000, 0, 0]
    assert verified(tmp_path, out) == verified(tmp_path, source)
    assert verified(tmp_path, out)["hands_agreeing"] == 2


def test_a_match_recorded_by_hand_still_exports_empty_tiles(tmp_path: Path) -> None:
    # A log of results only (honba's own export of a match entered at the table) keeps no tiles.
    source = tmp_path / "small.json"
    log = small_log()
    for kyoku in log["log"]:
        kyoku[2:16] = [[] for _ in range(14)]
    source.write_text(json.dumps(log), "utf-8")
    document, _ = exported(tmp_path, source, "small")
    assert all(array == [] for kyoku in document["log"] for array in kyoku[2:16])


def test_a_corrected_match_leaves_the_tiles_out(tmp_path: Path) -> None:
    source = tmp_path / "small.json"
    source.write_text(json.dumps(small_log()), "utf-8")
    honba = Honba(tmp_path / "store.sqlite")
    assert honba("import", str(source)).exit_code == 0
    amended = honba("amend", "small", "2", "win", "Ben:2/30", "--from", "Ann", "--by", "ref", "--reason", "miscounted")
    assert amended.exit_code == 0, amended.output
    out = tmp_path / "out.json"
    assert honba("export", "small", "--format", "tenhou-json", "-o", str(out)).exit_code == 0
    document = json.loads(out.read_text("utf-8"))
    assert all(not kyoku[4] for kyoku in document["log"])


@pytest.mark.skipif(not TENHOU_JSON.is_file(), reason="../shared/corpus is not present")
def test_a_real_tenhou_json_log_round_trips_with_its_tiles(tmp_path: Path) -> None:
    original = json.loads(TENHOU_JSON.read_text("utf-8"))
    document, out = exported(tmp_path, TENHOU_JSON, TENHOU_JSON.stem)
    assert [kyoku[2:16] for kyoku in document["log"]] == [kyoku[2:16] for kyoku in original["log"]]
    assert [kyoku[16] for kyoku in document["log"]] == [kyoku[16] for kyoku in original["log"]]
    assert verified(tmp_path, out)["hands"] == verified(tmp_path, TENHOU_JSON)["hands"] == len(original["log"])
    assert verified(tmp_path, out)["disagreements"] == []


PAIRS = sorted(path for path in (CORPUS / "tsubakisakura-mjlog2json" / "data").glob("*.xml")) if CORPUS.is_dir() else []


@pytest.mark.skipif(not PAIRS, reason="../shared/corpus is not present")
@pytest.mark.parametrize("xml", PAIRS, ids=lambda path: path.stem)
def test_a_tenhou_xml_game_exports_the_tiles_tenhou_itself_wrote(tmp_path: Path, xml: Path) -> None:
    # Tenhou's own tenhou.net/6 JSON of the same game lies beside its mjlog in the corpus: the
    # export of the game imported from the XML must give every hand's arrays exactly as it does
    # (hands dealt in Tenhou's order, draws, discards with tsumogiri 60 and riichi, every call
    # string, indicators).
    tenhou = json.loads(xml.with_suffix(".json").read_text("utf-8"))
    document, out = exported(tmp_path, xml, xml.stem)
    assert [kyoku[2:16] for kyoku in document["log"]] == [kyoku[2:16] for kyoku in tenhou["log"]]
    assert verified(tmp_path, out)["disagreements"] == []
