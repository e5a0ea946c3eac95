"""A Mahjong Soul tournament game as the league converters write it in tenhou.net/6 JSON, built
for the tests of issue 34 (no real log is kept in the repository).

The converters ("majsoul to tenhou" downloaders, their RONAME word column) write the result and
limit names in romaji: ``Ryuukyoku`` for 流局, ``Mangan 2000-4000点``, ``Haneman 12000点``,
``Mangan 4000点∀``; a hand below the limits keeps its Japanese ``30符4飜8000点``. The room: an
east-only tournament room starting from 25,000, which rounds 4 han 30 fu up to a mangan
(kiriage: the E2-0 win's own value string says 8000 where Tenhou's table pays 7,700), plays on
below zero (Dai is at -2,900 after E3-1 and the game goes on to E4-1) and counts M-League's final
points (30,000 return, uma 30/10/-10/-30, the oka of 20 to the top, tenths kept).

The hands, seats Ann 0, Ben 1, Cho 2, Dai 3 (each delta is what a real table pays):

    E1-0 Ann (dealer) tsumo, mangan 4000 all           +12000 -4000 -4000 -4000
    E1-1 Ben tsumo, mangan 2000-4000 (+100 each)        -4100 +8300 -2100 -2100
    E2-0 Cho ron on Dai, 30 fu 4 han, paid 8000             0     0 +8000 -8000
    E3-0 draw, Ann and Cho ready                        +1500 -1500 +1500 -1500
    E3-1 Ann ron on Dai, haneman 12000 (+300)          +12300     0     0 -12300   (Dai -2,900)
    E4-0 Dai (dealer) ron on Ben, mangan 12000              0 -12000    0 +12000
    E4-1 Ben ron on Ann, 30 fu 2 han 2000 (+300)        -2300 +2300     0     0

Final: Ann 44,400 (14.4 + 30 + 20 = 64.4), Cho 28,400 (-1.6 + 10 = 8.4), Ben 18,100
(-11.9 - 10 = -21.9), Dai 9,100 (-20.9 - 30 = -50.9).
"""

from __future__ import annotations

import copy
import json
from typing import Any

NAMES = ["Ann", "Ben", "Cho", "Dai"]
FINAL_SC = [44400, 64.4, 18100, -21.9, 28400, 8.4, 9100, -50.9]


def _kyoku(header: list[int], scores: list[int], result: list[Any]) -> list[Any]:
    # Tiles are left out: the converters' numbers are what the tests are about.
    return [header, scores, [], [], *([[], [], []] * 4), result]


HANDS: list[list[Any]] = [
    _kyoku(
        [0, 0, 0],
        [25000, 25000, 25000, 25000],
        [
            "和了",
            [12000, -4000, -4000, -4000],
            [0, 0, 0, "Mangan 4000点∀", "門前清自摸和(1飜)", "断幺九(1飜)", "ドラ(3飜)"],
        ],
    ),
    _kyoku(
        [0, 1, 0],
        [37000, 21000, 21000, 21000],
        ["和了", [-4100, 8300, -2100, -2100], [1, 1, 1, "Mangan 2000-4000点", "門前清自摸和(1飜)", "ドラ(4飜)"]],
    ),
    _kyoku(
        [1, 0, 0],
        [32900, 29300, 18900, 18900],
        ["和了", [0, 0, 8000, -8000], [2, 3, 2, "30符4飜8000点", "断幺九(1飜)", "ドラ(3飜)"]],
    ),
    _kyoku([2, 0, 0], [32900, 29300, 26900, 10900], ["Ryuukyoku", [1500, -1500, 1500, -1500]]),
    _kyoku(
        [2, 1, 0],
        [34400, 27800, 28400, 9400],
        ["和了", [12300, 0, 0, -12300], [0, 3, 0, "Haneman 12000点", "断幺九(1飜)", "ドラ(5飜)"]],
    ),
    _kyoku(
        [3, 0, 0],
        [46700, 27800, 28400, -2900],
        ["和了", [0, -12000, 0, 12000], [3, 1, 3, "Mangan 12000点", "断幺九(1飜)", "ドラ(4飜)"]],
    ),
    _kyoku(
        [3, 1, 0],
        [46700, 15800, 28400, 9100],
        ["和了", [-2300, 2300, 0, 0], [1, 0, 1, "30符2飜2000点", "断幺九(1飜)", "ドラ(1飜)"]],
    ),
]


def tournament_game(**changes: Any) -> dict[str, Any]:
    """The game as a JSON object; ``changes`` replace its top-level fields."""
    game: dict[str, Any] = {
        "ver": "2.3",
        "ref": "240501-0c5a1b2e-3f4d-4e6a-9b7c-1d2e3f4a5b6c",
        "log": copy.deepcopy(HANDS),
        "ratingc": "PF4",
        "rule": {"disp": "Tournament East", "aka53": 1, "aka52": 1, "aka51": 1},
        "lobby": 0,
        "dan": ["", "", "", ""],
        "rate": ["", "", "", ""],
        "sx": ["C", "C", "C", "C"],
        "name": list(NAMES),
        "sc": list(FINAL_SC),
        "title": ["Tournament East: 123456", "2024/5/1 21:00:00"],
    }
    game.update(changes)
    return game


def tournament_bytes(**changes: Any) -> bytes:
    """The game as a file's content."""
    return json.dumps(tournament_game(**changes), ensure_ascii=False).encode()
