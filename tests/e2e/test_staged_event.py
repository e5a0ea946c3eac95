"""Issue 27, done when: a 32-player event with two qualification sessions, a cut to 16 with points
halved, a semi-final and a final table runs end to end from the command line; each stage's seating
comes from the standings before it; the standings per stage match a hand calculation.

The event, the results played and the hand calculation are in staged_support.py (the web's test,
test_staged_event_web.py, plays the same event through the pages).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from honba_cli import Honba
from staged_support import PLAYED, PLAYERS, SEED, STAGES, VALUES, Line, by_rank, credit, drawn, halved, ranked, snake

from replay.store.application import HonbaApp
from replay.store.tournaments import get_tournament


def play(honba: Honba, key: str, table: list[str], v1: int, v2: int, lines: dict[str, Line]) -> None:
    honba.ok("win", key, f"{table[1]}:{VALUES[v1]}", "--from", table[2])
    honba.ok("win", key, f"{table[3]}:{VALUES[v2]}", "--from", table[0])
    honba.ok("end", key, "--reason", "time limit")
    credit(table, v1, v2, lines)


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
        *(arg for stage in STAGES for arg in ("--stage", stage)),
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
    assert tables == by_rank(order)
    for number, (table, (v1, v2)) in enumerate(zip(tables, PLAYED[2], strict=True), start=1):
        play(honba, f"cup-s2-t{number}", table, v1, v2, stage1)

    # The cut: the top 16 go on with half their points; the semi-final seats them by snake.
    order = ranked(stage1)
    top = order[:16]
    stage2 = {p: Line(halved(stage1[p].tenths)) for p in top}
    out = honba.ok("tournament", "next", "cup", "--rules", "wrc")
    assert "Stage 1 closed" in out
    tables = seating_of(honba, 3)
    assert tables == snake(top)
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
