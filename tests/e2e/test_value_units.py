"""The units a hand's value is written in, by the rules at the table (``domain/scoring/units.py``):
a value in a unit the rules do not count in is refused in one line that names the unit they take,
wherever the win comes from (the command line, a record file, the aggregate), and the table page
offers only what the rules take.

The rules quoted: Four Winds, preset Taiwanese 16-Tile (taiwanese.toml's sources): "scores for
patterns are simply added up" -- tai are added, never doubled as faan are; seed 001: an East
winner "gets just 1 point from the discarder" where the discarder pays alone and just for himself;
seed 002: Hong Kong's Faan-Laak counts faan (the laak of 16 points "is given for a hand worth 4
faans"), the classical rules count "tile points and doubles", riichi's Mangan table counts han.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from honba_cli import Honba

from domain.errors import InvalidHandValue
from domain.match import Match
from domain.rules import load_preset
from domain.scoring.checks import check_value
from domain.scoring.points import winner_score
from domain.values import HandValue, Win, WinResult
from replay.input.parsing import parse_value
from replay.service.recording.table import value_choices

PLAYERS = "Ann,Ben,Cho,Dai"


def table(tmp_path: Path, preset: str) -> Honba:
    honba = Honba(tmp_path / "honba.sqlite", "t")
    honba.ok("start", "t", "--players", PLAYERS, "--rules", preset)
    return honba


def refused(honba: Honba, *args: str) -> str:
    """The one line a refused command prints; nothing is recorded."""
    return honba.refused_as_it_was(*args)


def test_taiwanese_counts_tai_so_a_value_in_faan_is_refused(tmp_path: Path) -> None:
    honba = table(tmp_path, "taiwanese")
    line = refused(honba, "win", "t", "Cho:4faan", "--from", "Dai")
    assert "tai" in line and "not in faan" in line


def test_taiwanese_counts_tai_so_doubles_are_refused(tmp_path: Path) -> None:
    honba = table(tmp_path, "taiwanese")
    assert "not in doubles" in refused(honba, "win", "t", "Cho:3doubles", "--from", "Dai")
    assert "not in doubles" in refused(honba, "win", "t", "Cho:40pts x 3dbl", "--from", "Dai")


def test_taiwanese_has_no_limit_so_a_limit_hand_is_refused(tmp_path: Path) -> None:
    # mahjongclub.com (taiwanese.toml's sources): "games are often played without a limit".
    honba = table(tmp_path, "taiwanese")
    assert "no limit" in refused(honba, "win", "t", "Cho:limit", "--from", "Dai")
    assert "no limit" in refused(honba, "win", "t", "Cho:mangan", "--from", "Dai")


def test_taiwanese_tai_add_up_with_the_dealer_bonus_from_the_discarder_alone(tmp_path: Path) -> None:
    # Seed 001: the discarder pays alone and just for himself, so East winning 4 tai on Dai's
    # discard gets 4 + the dealer bonus of 1 from Dai alone.
    honba = table(tmp_path, "taiwanese")
    honba.ok("win", "t", "Ann:4tai", "--from", "Dai")
    assert honba.scores() == {"Ann": 5, "Ben": 0, "Cho": 0, "Dai": -5}


def test_a_record_file_in_faan_under_taiwanese_rules_is_refused_with_its_line(tmp_path: Path) -> None:
    start = {"type": "start", "key": "t", "players": PLAYERS.split(","), "rules": "taiwanese"}
    win = {"type": "win", "wins": [{"winner": "Cho", "from": "Dai", "faan": 4}]}
    path = tmp_path / "faan.jsonl"
    path.write_text(json.dumps(start) + "\n" + json.dumps(win) + "\n", encoding="utf-8")
    honba = Honba(tmp_path / "honba.sqlite")
    line = honba.refused("import", str(path))
    assert "faan.jsonl:2" in line and "not in faan" in line
    assert "no match 't'" in honba.refused("status", "t")


def test_hong_kong_counts_faan_or_the_points_they_pay_not_doubles(tmp_path: Path) -> None:
    honba = table(tmp_path, "hong-kong")
    assert "faan" in refused(honba, "win", "t", "Cho:3doubles", "--from", "Dai")
    assert "not in doubles" in refused(honba, "win", "t", "Cho:40pts x 3dbl", "--from", "Dai")
    honba.ok("win", "t", "Cho:4faan", "--from", "Dai")
    honba.ok("win", "t", "Cho:16points", "--from", "Dai")


def test_classical_rules_count_tile_points_and_doubles_not_faan(tmp_path: Path) -> None:
    honba = table(tmp_path, "japanese-classical")
    line = refused(honba, "win", "t", "Cho:4faan", "--from", "Dai")
    assert "points and doubles" in line and "not in faan" in line
    honba.ok("win", "t", "Cho:40pts x 3dbl", "--from", "Dai")


def test_riichi_counts_han_and_fu_so_faan_or_points_beside_them_are_refused() -> None:
    rules = load_preset("tenhou")
    for stray in ({"faan": 4}, {"points": 20}, {"doubles": 2}):
        with pytest.raises(InvalidHandValue, match="han and fu"):
            check_value(HandValue(han=3, fu=30, **stray), rules, self_drawn=False)  # type: ignore[arg-type]
    match = Match.start("t", ("A", "B", "C", "D"), rules)
    with pytest.raises(InvalidHandValue, match="not in faan"):
        match.record(WinResult((Win(1, HandValue(han=3, fu=30, faan=4), discarder=0),)))
    assert [type(e).__name__ for e in match.pending_events] == ["Started"]


@pytest.mark.parametrize("preset", ["tenhou", "hong-kong", "taiwanese", "japanese-classical", "american-modern"])
def test_the_table_pages_example_offers_only_values_the_rules_take(preset: str) -> None:
    rules = load_preset(preset)
    example = value_choices(rules)["placeholder"]
    for text in example.split(","):
        value = parse_value(text)
        check_value(value, rules, self_drawn=False)  # refused: InvalidHandValue
    if preset == "taiwanese":
        assert "faan" not in example and "tai" in example


def test_a_value_in_tai_is_refused_alike_by_rules_that_count_faan_or_doubles() -> None:
    # Issue 31: Hong Kong took `8tai` as 8 points where Taiwanese refuses `5faan` by name.
    for preset, takes in (("hong-kong", "faan or the points they pay"), ("chinese-classical", "points and doubles")):
        with pytest.raises(InvalidHandValue, match=rf"counts a hand in {takes}.*not in tai$"):
            check_value(parse_value("8tai"), load_preset(preset), self_drawn=True)
    with pytest.raises(InvalidHandValue, match=r"counts a hand in tai, added up.*not in faan$"):
        check_value(parse_value("5faan"), load_preset("taiwanese"), self_drawn=True)
    # Under Taiwanese rules tai are the hand's points, as a value recorded in points before.
    rules = load_preset("taiwanese")
    assert parse_value("5tai") == HandValue(tai=5)
    assert winner_score(HandValue(tai=5), rules).points == winner_score(HandValue(points=5), rules).points == 5


def test_taiwanese_tai_typed_at_the_table_add_up_and_are_not_doubled(tmp_path: Path) -> None:
    # Four Winds, preset Taiwanese 16-Tile: "scores for patterns are simply added up ... if the
    # winner goes out on a discard, discarder alone pays the amount of the winner's final
    # score"; seed 000 and 001: no bonus when a non-East wins on a non-East's discard. 5 tai
    # from North to West is 5, as 5 points are.
    honba = Honba(tmp_path / "honba.sqlite", "tw")
    honba.ok("start", "tw", "--players", "A,B,C,D", "--rules", "taiwanese")
    out = honba.ok("win", "tw", "C:5tai", "--from", "D")
    assert "D -> C 5 (hand value: 5 tai)" in out
    assert honba.scores() == {"A": 0, "B": 0, "C": 5, "D": -5}
    honba.ok("win", "tw", "D:5points", "--from", "C")
    assert honba.scores() == {"A": 0, "B": 0, "C": 0, "D": 0}
