"""Small valid inputs of every format honba reads, and a few real ones, for the fuzz tests to break.

The synthetic games are written here by hand (their score changes worked from the
published riichi table: 3 han 30 fu ron = 3900, noten payments share 3000, ...);
they only need to be well-formed, not to agree with honba. Real logs come from
``../shared/corpus`` when it is present.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from replay.formats.record import build_match, export_record, parse_record

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "corpus"
NAMES4 = ["Ann", "Ben", "Cho", "Dai"]
HIDDEN = ["?"] * 13

# A few real logs of each kind: four and three players, pao, a double ron, a gzip-less ``.xml_``.
CORPUS_FILES = (
    "tenhou-wire-2018/2018011712gm-0009-0000-a06a7d07.mjlog",
    "dnovikoff-tenhou/log/test_data/pao.xml",
    "dnovikoff-tenhou/log/test_data/sanma2.xml",
    "tsubakisakura-mjlog2json/data/2019103023gm-00a9-0000-f90e0fe9.json",
    "equim-chan-mjai-reviewer/convlog/tests/testdata/double_ron.json",
    "hidacow-mjai-reviewer3p/convlog/tests/testdata/double_nukidora.json",
)


def xml_log() -> bytes:
    """A Tenhou mjlog: a ron, a draw after a riichi, a double ron with counters and a deposit."""
    tags = [
        '<mjloggm ver="2.3">',
        '<GO type="169" lobby="0"/>',
        '<UN n0="%41%6E%6E" n1="Ben" n2="%E3%81%82" n3="Dai" dan="0,0,0,0" rate="1500,1500,1500,1500" sx="M,M,M,M"/>',
        '<TAIKYOKU oya="0"/>',
        '<INIT seed="0,0,0,1,2,33" ten="250,250,250,250" oya="0" hai0="1,2,3"/>',
        "<T12/>",
        "<D12/>",
        '<AGARI ba="0,0" hai="1" machi="12" ten="30,3900,0" yaku="8,1,52,2" doraHai="1" who="1" fromWho="0"'
        ' sc="250,-39,250,39,250,0,250,0"/>',
        '<INIT seed="1,0,0,1,2,33" ten="211,289,250,250" oya="1" hai0="1,2,3"/>',
        '<REACH who="2" step="1"/>',
        '<REACH who="2" ten="211,289,240,250" step="2"/>',
        '<RYUUKYOKU ba="0,1" sc="211,-15,289,15,240,15,250,-15" hai1="1,2" hai2="3,4"/>',
        '<INIT seed="1,1,1,1,2,33" ten="196,304,255,235" oya="1" hai0="1,2,3"/>',
        '<AGARI ba="1,1" hai="1" machi="1" ten="30,1000,0" yaku="8,1" doraHai="1" who="2" fromWho="0"'
        ' sc="196,-13,304,0,255,23,235,0"/>',
        '<AGARI ba="0,0" hai="1" machi="1" ten="30,2000,0" yaku="1,1,0,1" doraHai="1" who="3" fromWho="0"'
        ' sc="183,-20,304,0,278,0,235,20"/>',
        '<INIT seed="2,0,0,1,2,33" ten="163,304,278,255" oya="2" hai0="1,2,3"/>',
        '<RYUUKYOKU type="yao9" ba="0,0" sc="163,0,304,0,278,0,255,0"/>',
        "</mjloggm>",
    ]
    return "\n".join(tags).encode()


def tenhou_json_log() -> bytes:
    """The same game as tenhou.net/6 JSON (the export form, with a final ``sc``)."""

    def kyoku(index: int, result: list[Any], scores: list[int], honba: int = 0, sticks: int = 0) -> list[Any]:
        body: list[Any] = [[index, honba, sticks], scores, [11], []]
        for seat in range(4):
            body += [[], [], ["r11"] if (index, seat, honba) == (1, 2, 0) else []]
        body.append(result)
        return body

    log = [
        kyoku(0, ["和了", [-3900, 3900, 0, 0], [1, 0, 1, "30符3飜3900点", "立直(1飜)", "ドラ(2飜)"]], [25000] * 4),
        kyoku(1, ["流局", [-1500, 1500, 1500, -1500]], [21100, 28900, 25000, 25000]),
        kyoku(
            1,
            [
                "和了",
                [-1300, 0, 2300, 0],
                [2, 0, 2, "30符1飜1000点", "役牌 中(1飜)"],
                [-2000, 0, 0, 2000],
                [3, 0, 3, "30符2飜2000点", "立直(1飜)", "一発(1飜)"],
            ],
            [19600, 30400, 25500, 23500],
            honba=1,
            sticks=1,
        ),
        kyoku(2, ["九種九牌"], [16300, 30400, 27800, 25500]),
    ]
    document = {
        "ver": 2.3,
        "ref": "2024010100gm-00a9-0000-00000000",
        "ratingc": "PF4",
        "rule": {"disp": "鳳南喰赤", "aka": 1},
        "name": NAMES4,
        "log": log,
        "sc": [16300, -23.7, 30400, 50.4, 27800, 7.8, 25500, -34.5],
    }
    return json.dumps(document, ensure_ascii=False).encode()


def mjai_events() -> list[dict[str, Any]]:
    """An mjai game: a ron valued by the log, a draw after a riichi and a pon, and a tsumo valued
    from the tiles (menzen tsumo and the round wind's triplet: 2 han 40 fu, 700/1300 and a counter)."""

    def kyoku(number: int, oya: int, scores: list[int], *, honba: int = 0, kyotaku: int = 0) -> dict[str, Any]:
        tehais = [list(HIDDEN) for _ in range(4)]
        if number == 2 and honba == 1:
            tehais[3] = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "E", "5m"]
        return {
            "type": "start_kyoku",
            "bakaze": "E",
            "dora_marker": "9s",
            "kyoku": number,
            "honba": honba,
            "kyotaku": kyotaku,
            "oya": oya,
            "scores": scores,
            "tehais": tehais,
        }

    def turn(actor: int, tile: str) -> list[dict[str, Any]]:
        return [{"type": "tsumo", "actor": actor, "pai": "?"}, {"type": "dahai", "actor": actor, "pai": tile}]

    return [
        {"type": "start_game", "names": NAMES4},
        kyoku(1, 0, [25000] * 4),
        *turn(0, "1p"),
        {"type": "hora", "actor": 1, "target": 0, "fan": 3, "fu": 30, "deltas": [-3900, 3900, 0, 0]},
        {"type": "end_kyoku"},
        kyoku(2, 1, [21100, 28900, 25000, 25000]),
        *turn(1, "N"),
        {"type": "reach", "actor": 2},
        *turn(2, "S"),
        {"type": "reach_accepted", "actor": 2},
        {"type": "pon", "actor": 3, "target": 2, "pai": "S", "consumed": ["S", "S"]},
        {"type": "dahai", "actor": 3, "pai": "W"},
        {"type": "ryukyoku", "reason": "fanpai", "deltas": [-1500, 1500, 1500, -1500]},
        {"type": "end_kyoku"},
        kyoku(2, 1, [19600, 30400, 25500, 23500], honba=1, kyotaku=1),
        *turn(1, "N"),
        *turn(2, "W"),
        {"type": "tsumo", "actor": 3, "pai": "C"},
        {"type": "dahai", "actor": 3, "pai": "C", "tsumogiri": True},
        *turn(0, "9p"),
        *turn(1, "N"),
        *turn(2, "W"),
        {"type": "tsumo", "actor": 3, "pai": "5m"},
        {"type": "hora", "actor": 3, "target": 3, "deltas": [-800, -1400, -800, 4000]},
        {"type": "end_kyoku"},
        {"type": "end_game", "scores": [18800, 29000, 24700, 27500]},
    ]


def mjai_log() -> bytes:
    return "\n".join(json.dumps(e) for e in mjai_events()).encode()


def record_text() -> str:
    """honba's demo record file: wins, a double ron, a draw, an abort, a penalty."""
    return (REPO / "replay" / "demo.jsonl").read_text(encoding="utf-8")


@cache  # built and exported through the record format: a tenth of a second, asked for by each fuzzed example
def chained_record_text() -> str:
    """The demo match exported with its chain and seal, as ``honba export`` writes it."""
    return export_record(build_match(parse_record(record_text(), name="demo"), name="demo"))


def tenhou_json_games() -> bytes:
    """Two games in one file: a JSON list, the second a one-hand excerpt without its end."""
    first = json.loads(tenhou_json_log())
    second = {**first, "ref": "2024010101gm-00a9-0000-00000001", "log": first["log"][:1]}
    del second["sc"]
    return json.dumps([first, second], ensure_ascii=False).encode()


def mjai_two_games() -> bytes:
    """Two mjai games one after the other in one file."""
    return mjai_log() + b"\n" + mjai_log()


def samples() -> dict[str, bytes]:
    """Every synthetic sample, by the file name it is written under."""
    return {
        "game.mjlog": xml_log(),
        "game.json": tenhou_json_log(),
        "games.json": tenhou_json_games(),
        "game.jsonl": mjai_log(),
        "games.jsonl": mjai_two_games(),
        "record.jsonl": record_text().encode(),
        "chained.jsonl": chained_record_text().encode(),
    }


def corpus_samples() -> dict[str, bytes]:
    """A few real logs, when ``../shared/corpus`` is present (empty otherwise)."""
    found = {}
    for relative in CORPUS_FILES:
        path = CORPUS / relative
        if path.is_file():
            found[path.name] = path.read_bytes()
    return found
