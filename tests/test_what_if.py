"""The whole event's standings under other rules (issue 27), beside them as run, by hand.

One match under WRC (30,000 start and return, uma +15/+5/-5/-15, ties split): Ben rons Cho for a
mangan (8,000): Ben 38,000 +23.0, Ann and Dai 30,000 (tied 2nd and 3rd: (5 - 5) / 2 = 0.0 each),
Cho 22,000 -23.0. A second match: Dai rons Ann for 2 han 30 fu (2,000), and Cho has a chombo of
20,000 after uma: Dai +17.0, Ben and Cho 0.0 (tied), Ann -17.0, Cho -20.0 more.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from honba_cli import Honba


@pytest.fixture
def cup(tmp_path: Path) -> Honba:
    honba = Honba(tmp_path / "cup.sqlite")
    honba.ok("tournament", "create", "cup", "--players", "Ann,Ben,Cho,Dai")
    honba.ok("start", "m1", "--players", "Ann,Ben,Cho,Dai", "--rules", "wrc")
    honba.ok("win", "m1", "Ben:mangan", "--from", "Cho")
    honba.ok("end", "m1", "--reason", "time limit")
    honba.ok("start", "m2", "--players", "Ann,Ben,Cho,Dai", "--rules", "wrc")
    honba.ok("win", "m2", "Dai:2/30", "--from", "Ann")
    honba.ok("penalty", "m2", "Cho", "--note", "chombo")
    honba.ok("end", "m2", "--reason", "time limit")
    for session, key in enumerate(("m1", "m2"), start=1):
        honba.ok("tournament", "attach", "cup", key, "--session", str(session))
    return honba


def rows(honba: Honba, *args: str) -> dict[str, tuple[float, float]]:
    data = json.loads(honba.ok("tournament", "what-if", "cup", "--format", "json", *args))
    return {r["player"]: (r["points"], r["what_if_points"]) for r in data["rows"]}


def test_other_uma_side_by_side_with_the_standings_as_run(cup: Honba) -> None:
    # Uma 30/10: m1 Ben 8 + 30 = +38, Ann and Dai (10 - 10) / 2 = 0, Cho -8 - 30 = -38;
    # m2 Dai 2 + 30 = +32, Ben and Cho 0, Ann -32, Cho's chombo -20.
    found = rows(cup, "--set", "uma=[30,10,-10,-30]")
    assert found == {
        "Ann": (-17.0, -32.0),
        "Ben": (23.0, 38.0),
        "Cho": (-43.0, -58.0),
        "Dai": (17.0, 32.0),
    }


def test_without_penalties(cup: Honba) -> None:
    assert rows(cup, "--without-penalties")["Cho"] == (-43.0, -23.0)


def test_nothing_to_change_is_refused(cup: Honba) -> None:
    assert "say what to change" in cup.refused("tournament", "what-if", "cup")
