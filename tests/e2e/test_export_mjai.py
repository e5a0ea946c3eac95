"""``honba export KEY --format mjai``: a match as mjai JSON Lines, read back by ``honba verify`` with the
same results, hand by hand; a game imported with its tiles starts each hand with the hands dealt."""

from __future__ import annotations

import json
import re
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
    # The whole play: every draw, discard and call of the log, in an order the tiles allow.
    counts = played_through(events(out))
    assert counts["tsumo"] > counts["hora"] and counts["dahai"] > 0
    assert counts["pon"] + counts.get("chi", 0) > 0 and counts["reach"] >= counts["reach_accepted"] > 0


def played_through(written: list[dict[str, Any]]) -> dict[str, int]:
    """Each hand's play followed tile by tile: every discard and call is of tiles the player holds, every
    call takes the tile just discarded by its target; the count of each kind of event."""
    counts: dict[str, int] = {}
    hands: list[list[str]] = []
    last: tuple[int, str] | None = None
    for event in written:
        kind = event["type"]
        counts[kind] = counts.get(kind, 0) + 1
        actor = event.get("actor")
        if kind == "start_kyoku":
            hands = [list(hand) for hand in event["tehais"]]
        elif kind == "tsumo":
            hands[actor].append(event["pai"])
        elif kind in ("dahai", "kakan", "nukidora"):
            hands[actor].remove(event["pai"])  # ValueError: a tile the player does not hold
            last = (actor, event["pai"])
        elif kind in ("chi", "pon", "daiminkan"):
            assert last == (event["target"], event["pai"]), event
            for tile in event["consumed"]:
                hands[actor].remove(tile)
        elif kind == "ankan":
            for tile in event["consumed"]:
                hands[actor].remove(tile)
    return counts


def test_a_game_with_tiles_is_exported_with_its_whole_play(tmp_path: Path) -> None:
    source = tmp_path / "small.json"
    source.write_text(json.dumps(small_log()), "utf-8")
    honba = Honba(tmp_path / "store.sqlite")
    assert honba("import", str(source)).exit_code == 0
    written = events(export(honba, "small", tmp_path / "small.mjson"))
    first = [e["type"] for e in written[1 : next(i for i, e in enumerate(written) if e["type"] == "end_kyoku")]]
    # The log's first hand: each seat draws and discards once, the dealer's second discard is ronned.
    assert first == ["start_kyoku", *["tsumo", "dahai"] * 5, "hora"]
    assert written[2:4] == [
        {"type": "tsumo", "actor": 0, "pai": "P"},
        {"type": "dahai", "actor": 0, "pai": "P", "tsumogiri": False},
    ]
    assert written[11:13] == [
        {"type": "dahai", "actor": 0, "pai": "5p", "tsumogiri": True},
        {"type": "hora", "actor": 1, "target": 0, "deltas": [-1000, 1000, 0, 0], "fan": 1, "fu": 30},
    ]
    played_through(written)


def stored_key(honba: Honba, path: Path) -> str:
    """Import one file into the store; the key it was stored under."""
    result = honba("import", str(path))
    assert result.exit_code == 0, result.output
    [key] = re.findall(r"match '([^']+)' stored", result.stdout)
    return key


def tenhou_tiles(honba: Honba, key: str, out: Path) -> list[list[Any]]:
    """The hands' tile arrays of the match's tenhou-json export (indicators, haipai, draws, discards)."""
    result = honba("export", key, "--format", "tenhou-json", "-o", str(out))
    assert result.exit_code == 0, result.output
    return [hand[2:16] for hand in json.loads(out.read_text("utf-8"))["log"]]


def test_an_mjai_import_keeps_its_tiles_for_the_tenhou_json_export(tmp_path: Path) -> None:
    source = tmp_path / "small.json"
    source.write_text(json.dumps(small_log()), "utf-8")
    honba = Honba(tmp_path / "store.sqlite")
    key = stored_key(honba, source)
    mjai = export(honba, key, tmp_path / "small.mjson")
    again = Honba(tmp_path / "again.sqlite")
    from_mjai = stored_key(again, mjai)
    # The tiles the mjai log's events carry, back in tenhou.net/6's arrays as the original log has them.
    tiles = tenhou_tiles(again, from_mjai, tmp_path / "again.json")
    assert tiles == [hand[2:16] for hand in small_log()["log"]]
    assert verified(again, tmp_path / "again.json") == verified(honba, source)


@pytest.mark.skipif(not TENHOU_XML.is_file(), reason="../shared/corpus is not present")
def test_a_real_game_keeps_its_tiles_through_mjai_and_back(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "store.sqlite")
    key = stored_key(honba, TENHOU_XML)
    original = tenhou_tiles(honba, key, tmp_path / "original.json")
    mjai = export(honba, key, tmp_path / "game.mjson")
    again = Honba(tmp_path / "again.sqlite")
    back = tenhou_tiles(again, stored_key(again, mjai), tmp_path / "again.json")
    assert back == original and any(isinstance(t, str) for hand in back for array in hand for t in array)
    assert verified(again, tmp_path / "again.json") == verified(honba, TENHOU_XML)
