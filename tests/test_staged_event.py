"""Issue 27, done when: a 32-player event with two qualification sessions, a cut to 16 with points
halved, a semi-final and a final table runs end to end from the command line; each stage's seating
comes from the standings before it; the standings per stage match a hand calculation.

Every match is played under the WRC rules (30,000 start and return, uma +15/+5/-5/-15, no oka;
riichi.wiki World_Riichi_Championship_rules) the same way, with values of the WRC score table
chosen per table: the player in seat 1 rons seat 2 for ``V1``, then seat 3 rons seat 0 for
``V2 < V1`` (both non-dealer wins, no counters, no riichi), then the time limit. Final scores:
seat 0 30,000 - V2, seat 1 30,000 + V1, seat 2 30,000 - V1, seat 3 30,000 + V2; places 3, 1, 4, 2;
session points (score - 30,000) / 1,000 + uma: seat 1 +V1/1000 + 15, seat 3 +V2/1000 + 5, seat 0
-V2/1000 - 5, seat 2 -V1/1000 - 15. The test adds these up itself and ranks by the documented
chain (points, average place, first places, net score, name), halves the points at the cut to the
tenth (a half tenth away from zero), and seats each session as the format says: session 1 by the
draw's published recipe (docs/events.md), computed here with hashlib alone; session 2 by rank
(Swiss); the semi-final by snake; the final table 1-4 by rank.
"""

from __future__ import annotations

import hashlib
import json
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from honba_cli import Honba

from replay.store.application import HonbaApp
from replay.store.tournaments import get_tournament

SEED = "5eed" * 16
PLAYERS = [f"P{n:02d}" for n in range(1, 33)]
VALUES = {1000: "1/30", 1300: "1/40", 2000: "2/30", 2600: "2/40", 3900: "3/30", 5200: "3/40", 8000: "mangan"}
VALUES |= {12000: "haneman", 16000: "baiman"}
# (V1, V2) per session and table.
PLAYED = {
    1: [
        (16000, 1000),
        (12000, 2000),
        (8000, 3900),
        (5200, 1300),
        (3900, 2600),
        (2600, 1000),
        (12000, 5200),
        (2000, 1300),
    ],
    2: [
        (8000, 1000),
        (16000, 3900),
        (2000, 1000),
        (12000, 2600),
        (5200, 2000),
        (3900, 1300),
        (8000, 5200),
        (2600, 2000),
    ],
    3: [(12000, 1000), (5200, 3900), (16000, 2600), (8000, 1300)],
    4: [(3900, 2000)],
}


class Line:
    """A player's totals in a stage, as the test adds them up."""

    def __init__(self, carried_tenths: int = 0) -> None:
        self.tenths = carried_tenths
        self.matches = 0
        self.places = 0
        self.firsts = 0
        self.net = 0

    def add(self, tenths: int, place: int, net: int) -> None:
        self.tenths += tenths
        self.matches += 1
        self.places += place
        self.firsts += place == 1
        self.net += net


def ranked(lines: dict[str, Line]) -> list[str]:
    def key(item: tuple[str, Line]) -> tuple[Any, ...]:
        name, line = item
        average = line.places / line.matches if line.matches else float("inf")
        return (line.matches == 0, -line.tenths, average, -line.firsts, -line.net, name)

    return [name for name, _ in sorted(lines.items(), key=key)]


def play(honba: Honba, key: str, table: list[str], v1: int, v2: int, lines: dict[str, Line]) -> None:
    honba.ok("win", key, f"{table[1]}:{VALUES[v1]}", "--from", table[2])
    honba.ok("win", key, f"{table[3]}:{VALUES[v2]}", "--from", table[0])
    honba.ok("end", key, "--reason", "time limit")
    # (tenths of points, place, net score) by seat, worked out by hand above.
    for seat, (tenths, place, net) in enumerate(
        [(-v2 // 100 - 50, 3, -v2), (v1 // 100 + 150, 1, v1), (-v1 // 100 - 150, 4, -v1), (v2 // 100 + 50, 2, v2)]
    ):
        lines[table[seat]].add(tenths, place, net)


def drawn(seed: str, players: list[str]) -> list[list[str]]:
    """The draw's recipe as docs/events.md publishes it."""
    order = sorted(players)
    secret = bytes.fromhex(seed)
    for i in range(len(order) - 1, 0, -1):
        j = int.from_bytes(hashlib.sha256(secret + i.to_bytes(4, "big")).digest(), "big") % (i + 1)
        order[i], order[j] = order[j], order[i]
    return [order[i : i + 4] for i in range(0, len(order), 4)]


def halved(tenths: int) -> int:
    half = (Decimal(abs(tenths)) / 2).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    return int(half) if tenths >= 0 else -int(half)


def seating_of(honba: Honba, session: int) -> list[list[str]]:
    """The session's seating as the tournament stored it."""
    app = HonbaApp.open(str(honba.db))
    try:
        return get_tournament(app, "cup").sessions[session]
    finally:
        app.close()


def test_a_32_player_event_with_a_cut_a_semi_final_and_a_final_table_runs_from_the_command_line(
    tmp_path: Path,
) -> None:
    honba = Honba(tmp_path / "cup.sqlite")
    honba.ok("tournament", "create", "cup", "--players", ",".join(PLAYERS))
    honba.ok(
        "tournament",
        "format",
        "cup",
        "--stage",
        "qualification:2:advance=16",
        "--stage",
        "semi-final:1:advance=4,carry=halve,seating=snake",
        "--stage",
        "final:1",
    )
    commitment = hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
    honba.ok("tournament", "commit-draw", "cup", "1", "--commitment", commitment)
    honba.ok("tournament", "reveal-draw", "cup", "1", "--seed", SEED, "--rules", "wrc")

    # Qualification, session 1: the draw.
    stage1 = {p: Line() for p in PLAYERS}
    tables = seating_of(honba, 1)
    assert tables == drawn(SEED, PLAYERS)
    for number, (table, (v1, v2)) in enumerate(zip(tables, PLAYED[1], strict=True), start=1):
        play(honba, f"cup-s1-t{number}", table, v1, v2, stage1)

    # Session 2: Swiss, tables of consecutive ranks after session 1.
    order = ranked(stage1)
    honba.ok("tournament", "next", "cup", "--rules", "wrc")
    tables = seating_of(honba, 2)
    assert tables == [order[i : i + 4] for i in range(0, 32, 4)]
    for number, (table, (v1, v2)) in enumerate(zip(tables, PLAYED[2], strict=True), start=1):
        play(honba, f"cup-s2-t{number}", table, v1, v2, stage1)

    # The cut: the top 16 go on with half their points; the semi-final seats them by snake.
    order = ranked(stage1)
    top = order[:16]
    stage2 = {p: Line(halved(stage1[p].tenths)) for p in top}
    out = honba.ok("tournament", "next", "cup", "--rules", "wrc")
    assert "Stage 1 closed" in out
    tables = seating_of(honba, 3)
    snake = [[top[c], top[7 - c], top[8 + c], top[15 - c]] for c in range(4)]
    assert tables == snake
    for number, (table, (v1, v2)) in enumerate(zip(tables, PLAYED[3], strict=True), start=1):
        play(honba, f"cup-s3-t{number}", table, v1, v2, stage2)

    # The final table: the semi-final's top 4, seated 1-4 by rank, keeping their points.
    order2 = ranked(stage2)
    finalists = order2[:4]
    stage3 = {p: Line(stage2[p].tenths) for p in finalists}
    honba.ok("tournament", "next", "cup", "--rules", "wrc")
    assert seating_of(honba, 4) == [finalists]
    play(honba, "cup-s4-t1", finalists, *PLAYED[4][0], stage3)

    data = json.loads(honba.ok("tournament", "results", "cup", "--format", "json"))
    stages = data["stages"]
    for stage, lines in zip(stages, (stage1, stage2, stage3), strict=True):
        assert [r["player"] for r in stage["rows"]] == ranked(lines)
        assert {r["player"]: round(r["points"] * 10) for r in stage["rows"]} == {p: x.tenths for p, x in lines.items()}
    assert [r["player"] for r in stages[0]["rows"] if r["status"] == "advanced"] == top
    assert [r["status"] for r in stages[0]["rows"]].count("cut") == 16
    assert {r["player"]: round(r["carried"] * 10) for r in stages[1]["rows"]} == {
        p: halved(stage1[p].tenths) for p in top
    }
    assert [r["player"] for r in stages[1]["rows"] if r["status"] == "advanced"] == finalists
    overall = [r["player"] for r in data["overall"]]
    assert overall == ranked(stage3) + order2[4:] + order[16:]
    assert [r["rank"] for r in data["overall"]] == list(range(1, 33))
    assert [r["stage"] for r in data["overall"]] == ["final"] * 4 + ["semi-final"] * 12 + ["qualification"] * 16
    # Every session of the format is seated: one more is refused in one line.
    assert "every session" in honba.refused("tournament", "next", "cup", "--rules", "wrc")
