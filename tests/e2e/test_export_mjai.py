"""``honba export KEY --format mjai``: a match as mjai JSON Lines, read back by ``honba verify`` with the
same results, hand by hand; a game imported with its tiles starts each hand with the hands dealt."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS
from honba_cli import Honba, two_wins
from test_export_tiles import small_log

# A 2019 Tenhou game of the corpus (riichi, wins and draws of every kind it has).
TENHOU_XML = CORPUS / "tsubakisakura-mjlog2json" / "data" / "2019103023gm-00a9-0000-f90e0fe9.xml"


def events(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def export(honba: Honba, key: str, out: Path) -> Path:
    result = honba("export", key, "--format", "mjai", "-o", str(out))
    assert result.exit_code == 0, result.output
    return out


def verified(honba: Honba, path: Path) -> dict[str, Any]:
    result = honba("verify", "--json", str(path))
    data: dict[str, Any] = json.loads(result.stdout)
    return {key: data[key] for key in ("games", "hands", "hands_agreeing", "disagreements", "unsupported")}


def test_a_match_recorded_by_hand_is_read_back_from_its_mjai_export(tmp_path: Path) -> None:
    honba = two_wins(tmp_path / "store.sqlite", "club-1")
    out = export(honba, "club-1", tmp_path / "club-1.mjson")
    written = events(out)
    assert [e["type"] for e in written] == [
        "start_game",
        *["start_kyoku", "hora", "end_kyoku"] * 2,
    ]
    # Ben's 3 han 30 fu ron on Cho: 3,900 (the seeds' table), as the match recorded it.
    assert written[2] == {"type": "hora", "actor": 1, "target": 2, "deltas": [0, 3900, -3900, 0], "fan": 3, "fu": 30}
    assert verified(honba, out) == {
        "games": 1,
        "hands": 2,
        "hands_agreeing": 2,
        "disagreements": [],
        "unsupported": [],
    }


def test_a_game_with_tiles_starts_its_hands_with_the_tiles_dealt(tmp_path: Path) -> None:
    source = tmp_path / "small.json"
    source.write_text(json.dumps(small_log()), "utf-8")
    honba = Honba(tmp_path / "store.sqlite")
    assert honba("import", str(source)).exit_code == 0
    out = export(honba, "small", tmp_path / "small.mjson")
    starts = [e for e in events(out) if e["type"] == "start_kyoku"]
    # Seat 1's haipai of the log, 21 to 28 and 34 to 37 in tenhou.net/6's codes.
    assert starts[0]["tehais"][1] == ["1p", "2p", "3p", "4p", "4p", "6p", "7p", "8p", "4s", "5s", "6s", "7s", "7s"]
    assert starts[0]["dora_marker"] == "3p"
    assert verified(honba, out)["hands_agreeing"] == 2


@pytest.mark.skipif(not TENHOU_XML.is_file(), reason="../shared/corpus is not present")
def test_a_real_tenhou_game_round_trips_through_mjai(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "store.sqlite")
    assert honba("import", str(TENHOU_XML)).exit_code == 0
    key = TENHOU_XML.stem
    out = export(honba, key, tmp_path / "game.mjson")
    original, again = verified(honba, TENHOU_XML), verified(honba, out)
    assert again["disagreements"] == [] and again["unsupported"] == []
    assert again["hands"] == again["hands_agreeing"] == original["hands"] > 0
