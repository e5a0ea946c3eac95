"""Standings by rule family: each preset's final points are what its tournaments add up.

Riichi adds up "(score - return) / 1000 + uma" (tests/e2e/test_standings.py). The points
families keep a tally with no uma or oka, and their tournaments rank by the net score
(``final_points_by = "net_score"``); the Chinese Official (MCR) convention gives table
points 4-2-1-0 by place, tied players sharing, the score breaking ties in table points
(``final_points_by = "table_points"``). Sources are in docs/standings.md and the presets'
``[sources]`` tables.

Every tournament here is built the way a director builds one: record files imported with
``honba import --tournament``, then ``honba standings``. Every expected number is worked
out by hand from the seeds' payment rules:

- Hong Kong (seed 002, Faan-Laak): 10 faan or more pay the maximum of 64, 4 faan the laak
  of 16, 3 faan 8; self-drawn every loser pays double the score, on a discard the
  discarder pays double and the other two the score.
- Taiwanese (seeds 000 and 001): tai added up; self-drawn every loser pays the score, on a
  discard the discarder alone; a non-East winner self-drawn gets the dealer bonus of 1 from
  East alone.
- Chinese Classical (seed 002 and Four Winds' Chinese Classical): every loser pays the
  winner's score, East double; the losers settle the differences of their own scores,
  East double again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from honba_cli import invoke

from domain.errors import InvalidRules
from domain.progression import final_points
from domain.rules import load_preset

PLAYERS = ["Ann", "Ben", "Cho", "Dai"]  # Ann deals first


def record_file(folder: Path, key: str, rules: str, *lines: dict[str, Any], overrides: Any = None) -> Path:
    """A record file: the start line, the hands, and an early end."""
    start: dict[str, Any] = {"type": "start", "key": key, "players": PLAYERS, "rules": rules}
    if overrides:
        start["overrides"] = overrides
    path = folder / f"{key}.jsonl"
    text = [json.dumps(start), *(json.dumps(line) for line in lines), json.dumps({"type": "end", "reason": "time"})]
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    return path


def win(winner: str, value: dict[str, Any], discarder: str | None = None, **extra: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"winner": winner, **value, **extra}
    if discarder is not None:
        entry["from"] = discarder
    return {"type": "win", "wins": [entry]}


def standings(db: str, tournament: str, sessions: list[list[Path]]) -> dict[str, Any]:
    """Import each session's files into the tournament, then the standings as JSON."""
    for number, files in enumerate(sessions, start=1):
        imported = invoke(
            ["--db", db, "import", *map(str, files), "--tournament", tournament, "--session", str(number)]
        )
        assert imported.exit_code == 0, imported.output
    result = invoke(["--db", db, "standings", "--tournament", tournament, "--format", "json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def ranked(data: dict[str, Any]) -> list[tuple[int, str, float]]:
    return [(row["rank"], row["player"], row["points"]) for row in data["rows"]]


def test_hong_kong_standings_add_up_the_net_scores(tmp_path: Path) -> None:
    # Session 1: Ann goes out self-drawn twice on a limit hand (10 faan = 64): each time every
    # loser pays double, 128, so Ann +768 and the others -256 each (the match).
    first = record_file(tmp_path, "hk-1", "hong-kong", win("Ann", {"faan": 10}), win("Ann", {"faan": 12}))
    # Session 2: Ben out on Ann's discard with 4 faan (16): Ann pays 32, Cho and Dai 16 each,
    # Ben +64; Cho self-drawn with 3 faan (8): every loser pays 16, Cho +48.
    second = record_file(tmp_path, "hk-2", "hong-kong", win("Ben", {"faan": 4}, "Ann"), win("Cho", {"faan": 3}))
    data = standings(str(tmp_path / "hk.sqlite"), "hk-cup", [[first], [second]])
    matches = {m["match"]: m["final_points"] for m in data["matches"]}
    assert matches["hk-1"] == [768, -256, -256, -256]
    assert matches["hk-2"] == [-48, 48, 32, -32]
    assert ranked(data) == [(1, "Ann", 720), (2, "Ben", -208), (3, "Cho", -224), (4, "Dai", -288)]
    assert [row["net_score"] for row in data["rows"]] == [720, -208, -224, -288]
    assert data["tie_break"] == "net_score"


def test_taiwanese_standings_add_up_the_tai(tmp_path: Path) -> None:
    # Session 1: Ben out on Cho's discard with 10 tai (Cho alone pays 10); the deal passes to
    # Ben; Dai out on Cho's discard with 5 (neither is East: no bonus).
    first = record_file(
        tmp_path, "tw-1", "taiwanese", win("Ben", {"points": 10}, "Cho"), win("Dai", {"points": 5}, "Cho")
    )
    # Session 2: Cho, not East, self-drawn with 8: every loser pays 8 and East (Ann) alone the
    # dealer bonus of 1 (seed 001): Ann -9, Ben -8, Dai -8, Cho +25.
    second = record_file(tmp_path, "tw-2", "taiwanese", win("Cho", {"points": 8}))
    data = standings(str(tmp_path / "tw.sqlite"), "tw-cup", [[first], [second]])
    matches = {m["match"]: m["final_points"] for m in data["matches"]}
    assert matches["tw-1"] == [0, 10, -15, 5]
    assert matches["tw-2"] == [-9, -8, 25, -8]
    assert ranked(data) == [(1, "Cho", 10), (2, "Ben", 2), (3, "Dai", -3), (4, "Ann", -9)]


def test_chinese_classical_standings_add_up_the_net_scores(tmp_path: Path) -> None:
    # Session 1: Ben out on a discard with 100, the losers holding nothing: every loser pays 100,
    # East (Ann) double.
    first = record_file(
        tmp_path, "cc-1", "chinese-classical", win("Ben", {"points": 100}, "Cho", loser_scores=[0, 100, 0, 0])
    )
    # Session 2: Dai out on Cho's discard with 40, the losers holding 20 (Ann), 10 (Ben), 0 (Cho):
    # Ann pays 80, Ben and Cho 40; then Ben pays Ann 2 x 10, Cho pays Ann 2 x 20 and Ben 10.
    second = record_file(
        tmp_path,
        "cc-2",
        "chinese-classical",
        win("Dai", {"points": 40}, "Cho", loser_scores=[20, 10, 0, 40]),
    )
    data = standings(str(tmp_path / "cc.sqlite"), "cc-cup", [[first], [second]])
    matches = {m["match"]: m["final_points"] for m in data["matches"]}
    assert matches["cc-1"] == [-200, 400, -100, -100]
    assert matches["cc-2"] == [-20, -50, -90, 160]
    assert ranked(data) == [(1, "Ben", 350), (2, "Dai", 60), (3, "Cho", -190), (4, "Ann", -220)]


# Chinese Official (MCR) tournaments: table points 4-2-1-0, the score breaking ties. Played here
# under Taiwanese payments without the dealer's bonuses, so that East pays like everyone else.
MCR_STYLE = {
    "final_points_by": "table_points",
    "table_points": [4, 2, 1, 0],
    "dealer_bonus_enabled": False,
    "extra_hand_bonus_enabled": False,
}


def test_table_points_rank_first_and_the_score_breaks_a_tie_in_them(tmp_path: Path) -> None:
    # Session 1: Ann self-drawn 10 (+30, the others -10), Cho out on Dai's discard with 5:
    # Ann +30, Cho -5, Ben -10, Dai -15: table points 4, 2, 1, 0.
    first = record_file(
        tmp_path,
        "mcr-1",
        "taiwanese",
        win("Ann", {"points": 10}),
        win("Cho", {"points": 5}, "Dai"),
        overrides=MCR_STYLE,
    )
    # Session 2: Ben out on Ann's discard with 8, Cho on Dai's with 2: Ben +8, Cho +2, Dai -2,
    # Ann -8: Ben 4, Cho 2, Dai 1, Ann 0.
    second = record_file(
        tmp_path,
        "mcr-2",
        "taiwanese",
        win("Ben", {"points": 8}, "Ann"),
        win("Cho", {"points": 2}, "Dai"),
        overrides=MCR_STYLE,
    )
    data = standings(str(tmp_path / "mcr.sqlite"), "mcr-cup", [[first], [second]])
    # Ann (4 + 0, net +22) and Cho (2 + 2, net -3) tie on table points: the score puts Ann
    # ahead, though Cho's average place (2.0) is better than Ann's (2.5).
    assert ranked(data) == [(1, "Ben", 5), (2, "Ann", 4), (3, "Cho", 4), (4, "Dai", 1)]
    assert {row["player"]: row["net_score"] for row in data["rows"]} == {"Ben": -2, "Ann": 22, "Cho": -3, "Dai": -17}


def test_table_points_tied_players_share_the_places_they_hold() -> None:
    rules = load_preset("taiwanese").with_overrides(MCR_STYLE)
    # Two tied for first share 4 + 2; the last two tied share 1 + 0.
    assert final_points((30, 30, -20, -40), rules) == (3.0, 3.0, 1.0, 0.0)
    assert final_points((10, -10, -10, 10), rules) == (3.0, 0.5, 0.5, 3.0)


def test_table_points_need_one_value_per_place() -> None:
    with pytest.raises(InvalidRules, match="table_points"):
        load_preset("taiwanese").with_overrides({"final_points_by": "table_points", "table_points": [4, 2, 1]})


def test_every_points_family_preset_ranks_by_the_net_score() -> None:
    for name in ("hong-kong", "taiwanese", "chinese-classical", "american-modern", "japanese-classical"):
        rules = load_preset(name)
        assert (rules.final_points_by, rules.standings_tie_break) == ("net_score", "net_score"), name
        # A +64 winner gets +64, not "(64 - 0) / 1000 + 0" = +0.1.
        start = rules.start_score
        assert final_points((start + 64, start - 64, start, start), rules) == (64, -64, 0, 0), name
