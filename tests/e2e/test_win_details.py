"""What a log says about each win is kept and shown: yaku with their han, dora, fu, the winning
tile and the winner's calls.

The oracle is Tenhou itself: the corpus holds six games both as mjlog XML (yaku as ids,
calls as meld codes) and as Tenhou's own JSON export (yaku as names, calls as tile
strings such as ``c275226``), so what honba reads from one must be what the other says.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS
from honba_cli import invoke

from domain.values import Win, WinDetails, WinResult, Yaku
from replay.formats.logmodel import LoggedGame
from replay.formats.mjai import read_mjai
from replay.formats.tenhou_json import read_tenhou_json
from replay.formats.tenhou_xml import read_tenhou_xml
from replay.formats.yaku import parse_entry

TSUBAKI = CORPUS / "tsubakisakura-mjlog2json" / "data"
SUITS = {"1": "m", "2": "p", "3": "s", "4": "z"}


def pairs() -> list[tuple[Path, Path]]:
    found = [(x, x.with_suffix(".json")) for x in sorted(TSUBAKI.glob("*.xml")) if x.with_suffix(".json").is_file()]
    if not found:
        pytest.skip("the tsubakisakura games are not in the shared corpus here")
    return found


def wins(game: LoggedGame) -> list[Win]:
    return [w for h in game.hands if isinstance(h.result, WinResult) for w in h.result.wins]


def json_tile(code: str) -> str:
    """A tile of Tenhou's JSON (11-19 man, ..., 41-47 honours, 51-53 red fives) as ``1m``..``7z``."""
    if code[0] == "5":
        return f"5{'mps'[int(code[1]) - 1]}"
    return f"{code[1]}{SUITS[code[0]]}"


def json_calls(kyoku: list[Any], seat: int) -> Counter[str]:
    """The winner's calls in Tenhou's JSON, as kind and sorted tiles: chi/pon/daiminkan in the draws,
    added and concealed kans in the discards (a pon later added to is one added kan)."""
    found: list[tuple[str, str]] = []
    for entry in [*kyoku[5 + 3 * seat], *kyoku[6 + 3 * seat]]:
        if not isinstance(entry, str):
            continue
        letter = next(c for c in entry if c.isalpha())
        digits = entry.replace(letter, "")
        tiles = "".join(sorted(json_tile(digits[i : i + 2]) for i in range(0, len(digits), 2)))
        kind = {"c": "chi", "p": "pon", "m": "kan", "a": "kan", "k": "added kan"}.get(letter)
        if kind is not None:
            found.append((kind, tiles[:2] if kind != "chi" else tiles))
    added = {t for k, t in found if k == "added kan"}
    return Counter(f"{k} {t}" for k, t in found if not (k == "pon" and t in added))


def xml_call(call: str) -> str:
    """``chi 789m from seat 1`` as ``chi 7m8m9m``; ``pon 7s from seat 0`` as ``pon 7s``."""
    words = call.split(" from ")[0].replace(" (concealed)", "").split(" ")
    kind, tile = " ".join(words[:-1]), words[-1]
    if kind == "chi":
        tile = "".join(f"{d}{tile[-1]}" for d in tile[:-1])
    return f"{kind} {tile}"


def test_the_xml_and_the_json_of_a_game_say_the_same_of_every_win() -> None:
    checked = 0
    for xml, exported in pairs():
        (from_xml,) = read_tenhou_xml(xml.read_bytes(), file=xml.name)
        (from_json,) = read_tenhou_json(exported.read_bytes(), file=exported.name)
        for a, b in zip(wins(from_xml), wins(from_json), strict=True):
            assert a.details is not None and b.details is not None
            assert a.details.yaku == b.details.yaku, xml.name
            assert (a.details.dora, a.details.red, a.details.ura) == (b.details.dora, b.details.red, b.details.ura)
            assert a.details.fu == b.details.fu
            # The winning tile (the XML's machi; the JSON's last draw or discard) and every call
            # with the seat it was called from (the XML's meld codes; the JSON's call strings).
            assert a.details.winning_tile == b.details.winning_tile
            assert Counter(a.details.calls) == Counter(b.details.calls)
            checked += 1
    assert checked >= 20


def test_every_call_of_a_winner_is_the_one_tenhous_json_shows() -> None:
    checked = 0
    for xml, exported in pairs():
        (from_xml,) = read_tenhou_xml(xml.read_bytes(), file=xml.name)
        document = json.loads(exported.read_text(encoding="utf-8"))
        hands = [h for h in from_xml.hands if isinstance(h.result, WinResult)]
        kyokus = [k for k in document["log"] if k[16][0] == "和了"]
        for hand, kyoku in zip(hands, kyokus, strict=True):
            assert isinstance(hand.result, WinResult)
            for win in hand.result.wins:
                assert win.details is not None
                assert Counter(xml_call(c) for c in win.details.calls) == json_calls(kyoku, win.winner)
                checked += len(win.details.calls)
    assert checked >= 10


def test_a_yaku_entry_of_tenhous_json_is_its_name_han_and_id() -> None:
    assert parse_entry("立直(1飜)") == Yaku("立直", 1, 1)
    assert parse_entry("大三元(役満)") == Yaku("大三元", 13, 39)
    # Mahjong Soul converters' English names map to Tenhou's.
    assert parse_entry("Riichi(1飜)") == Yaku("立直", 1, 1)


def test_the_original_mjai_yakus_are_named_as_tenhou_names_them() -> None:
    events = [
        {"type": "start_game", "names": ["A", "B", "C", "D"]},
        {
            "type": "start_kyoku",
            "bakaze": "E",
            "kyoku": 1,
            "honba": 0,
            "kyotaku": 0,
            "oya": 0,
            "dora_marker": "1p",
            "scores": [25000] * 4,
            "tehais": [["?"] * 13] * 4,
        },
        {
            "type": "hora",
            "actor": 1,
            "target": 0,
            "pai": "5pr",
            "fan": 4,
            "fu": 30,
            "yakus": [["reach", 1], ["pinfu", 1], ["dora", 1], ["akadora", 1]],
            "deltas": [-7700, 7700, 0, 0],
        },
        {"type": "end_kyoku"},
        {"type": "end_game"},
    ]
    data = "\n".join(json.dumps(e) for e in events).encode()
    (game,) = read_mjai(data, file="g.jsonl")
    (win,) = wins(game)
    assert win.details == WinDetails((Yaku("立直", 1, 1), Yaku("平和", 1, 7)), 30, dora=1, red=1, winning_tile="5p")


def test_the_log_shows_what_the_game_log_said_of_each_win(tmp_path: Path) -> None:
    xml = next(iter(pairs()))[0]
    db = str(tmp_path / "honba.sqlite")
    assert invoke(["--db", db, "import", str(xml)]).exit_code == 0
    (from_xml,) = read_tenhou_xml(xml.read_bytes(), file=xml.name)
    first = wins(from_xml)[0]
    assert first.details is not None
    result = invoke(["--db", db, "log", xml.stem, "--json"])
    hands = json.loads(result.output)["hands"]
    said = next(h for h in hands if h["log_details"])
    assert [y["name"] for y in said["log_details"][0]["yaku"]] == [y.name for y in first.details.yaku]
    html = tmp_path / "report.html"
    invoke(["--db", db, "audit", xml.stem, "--html", str(html)])
    assert first.details.yaku[0].name in html.read_text(encoding="utf-8")


def test_the_same_game_from_xml_and_json_is_one_match_though_only_the_xml_shows_calls(tmp_path: Path) -> None:
    xml, exported = pairs()[0]
    db = str(tmp_path / "honba.sqlite")
    assert invoke(["--db", db, "import", str(xml)]).exit_code == 0
    result = invoke(["--db", db, "import", str(exported)])
    assert result.exit_code == 0, result.output
    assert "0 stored, 1 already present" in result.output
