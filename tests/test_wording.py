"""What honba says reads as English and in the words of the rules' family (issue 25, item 8):
"1 matches still in progress", "after 1 hands" and a Hong Kong limit hand called "mangan" were
what a new user saw."""

from __future__ import annotations

from pathlib import Path

from honba_cli import Honba

from domain.values import HandValue
from replay.service.shapes import counted, not_counted_yet


def test_counts_take_the_number_of_their_noun() -> None:
    assert [counted(n, "hand") for n in (0, 1, 2)] == ["0 hands", "1 hand", "2 hands"]
    assert counted(1, "match") == "1 match" and counted(3, "match") == "3 matches"
    assert counted(2, "more hand") == "2 more hands"
    assert not_counted_yet(1) == "1 match still in progress does not count yet"
    assert not_counted_yet(2) == "2 matches still in progress do not count yet"


def test_a_match_over_after_one_hand_says_one_hand(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "w.sqlite", "w")
    honba.ok("start", "w", "--players", "Ann,Ben,Cho,Dai")
    honba.ok("win", "w", "Ben:3/30", "--from", "Ann")
    assert "Match over (time limit) after 1 hand\n" in honba.ok("end", "w", "--reason", "time limit")


def test_a_hong_kong_limit_hand_is_the_limit_not_a_mangan(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "w.sqlite", "w")
    honba.ok("start", "w", "--players", "Ann,Ben,Cho,Dai", "--rules", "hong-kong")
    honba.ok("win", "w", "Ben:limit", "--from", "Ann")
    (hand,) = honba.json("log", "w")["hands"]
    assert hand["result"] == "Ben ron on Ann: limit"
    assert "mangan" not in honba.ok("log", "w") and "mangan" not in honba.ok("audit", "w")
    # Riichi names its limits.
    assert HandValue(limit="mangan").describe("riichi") == "mangan"
    assert HandValue(limit="yakuman", multiple=2).describe("points") == "limit"


def test_the_standings_say_the_penalties_are_table_points(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "w.sqlite", "w")
    honba.ok("tournament", "create", "cup", "--players", "Ann,Ben,Cho,Dai")
    honba.ok("start", "w", "--players", "Ann,Ben,Cho,Dai", "--rules", "wrc")
    honba.ok("penalty", "w", "Dai")
    honba.ok("end", "w")
    honba.ok("tournament", "attach", "cup", "w")
    shown = honba.ok("standings", "--tournament", "cup")
    assert "penalties (table points)" in shown and "20,000" in shown
    html = honba.ok("standings", "--tournament", "cup", "--format", "html")
    assert "penalties (table points)" in html
