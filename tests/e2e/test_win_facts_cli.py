"""The facts of how a win went out: one table in the domain (``domain/win_facts.py``) that every
win goes through, from the command line, a record file or a correction, refusing in one line
what the seeds and the rules rule out. The rules are checked at the service, in memory
(tests/service/test_win_facts.py); here what the command line adds: its options (the flags, the
counts, the lists of tiles) read into those facts, its one-line refusal with exit 2 and nothing
recorded, and a win's facts refused from a record file and a correction as from ``honba win``.

The rules quoted: seed 004 (special ways of going out: the Heavenly and Earthly Hands, Thirteen
Discarded Orphans with its pre-dealt jokers "(there may be 1 or 2)"), seed 002 (Hong Kong's
maximum "is given for hands worth 10 faans or more"), and the presets' sources for the tiles in
play (Four Winds' preset pages: Tenhou's riichi has 136 tiles, no flowers, no jokers; Taiwanese
16-tile hands hold "5 sets of Chows/Pungs/Kongs and a pair"; Wilmington Advanced deals "4
jokers, one for each player"). Special hands pay the rules' special-hand limit (scoring.md):
under Wilmington Advanced (the seeds' WA) a self-drawn one is the Limit of 500 from each loser.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from honba_cli import Honba

ORPHANS = ["1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"]
PLAYERS = "Ann,Ben,Cho,Dai"


def table(tmp_path: Path, *start: str, db: str = "honba.sqlite") -> Honba:
    honba = Honba(tmp_path / db, "t")
    honba.ok("start", "t", "--players", PLAYERS, *start)
    return honba


def refused(honba: Honba, *args: str) -> str:
    """The one line a refused command prints; nothing is recorded."""
    return honba.refused_as_it_was(*args)


# Facts that cannot be true together, or not under the rules at the table.


def test_the_first_turn_is_never_the_last_tile(tmp_path: Path) -> None:
    honba = table(tmp_path)
    line = refused(honba, "win", "t", "Ben:2/30", "--from", "Ann", "--first-turn", "--last-tile")
    assert "last tile" in line and "first turn" in line


def test_a_taiwanese_hand_holds_five_sets_so_five_melded_sets_but_not_seven(tmp_path: Path) -> None:
    # Four Winds, preset Taiwanese 16-Tile: "A winning hand must contain 5 sets of
    # Chows/Pungs/Kongs and a pair". 5 tai off a non-East discard: 5 from the discarder alone.
    honba = table(tmp_path, "--rules", "taiwanese")
    assert "at most 5 melded sets" in refused(honba, "win", "t", "Ben:5tai", "--from", "Cho", "--melded", "7")
    honba.ok("win", "t", "Ben:5tai", "--from", "Cho", "--melded", "5")
    assert honba.scores() == {"Ann": 0, "Ben": 5, "Cho": -5, "Dai": 0}


def test_a_pre_dealt_joker_may_stand_for_a_fifth_tile(tmp_path: Path) -> None:
    # Seed 004: jokers take "the required tile values" (Wilmington Advanced deals one to each player).
    honba = table(tmp_path, "--rules", "wilmington-advanced")
    assert "four of each tile" in refused(
        honba, "win", "t", "Ben:limit", "--discards", "1m,1m,1m,1m,1m,1m", "--jokers", "1"
    )
    honba.ok("win", "t", "Ben:limit", "--discards", "1m,1m,1m,1m,1m", "--jokers", "1")


@pytest.mark.parametrize("option", ["--melded", "--jokers"])
def test_a_count_of_melded_sets_or_jokers_cannot_be_negative(tmp_path: Path, option: str) -> None:
    # A negative count after its option is the option's value, refused by the rules' words.
    honba = table(tmp_path, "--rules", "wilmington-advanced")
    line = refused(honba, "win", "t", "Ben:mangan", option, "-1")
    assert "cannot be negative" in line and "at most" not in line and "deals no jokers" not in line


@pytest.mark.parametrize("tile", ["0z", "East"])
def test_a_tile_that_does_not_exist_is_refused(tmp_path: Path, tile: str) -> None:
    honba = table(tmp_path)
    line = refused(honba, "win", "t", "Ben:2/30", "--from", "Ann", "--tile", tile)
    assert f"{tile!r} is not a tile" in line


def test_a_discard_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    honba = table(tmp_path)
    assert "'0z' is not a tile" in refused(honba, "win", "t", "Ben:2/30", "--from", "Ann", "--discards", "1m,0z")


def test_a_tile_drawn_for_a_flower_where_flowers_are_played(tmp_path: Path) -> None:
    # Hong Kong: 3 faan is 8 points; self-drawn every loser pays double: 16 each.
    honba = table(tmp_path, "--rules", "hong-kong")
    honba.ok("win", "t", "Ben:3faan", "--flower-supplement")
    assert honba.scores() == {"Ann": -16, "Ben": 48, "Cho": -16, "Dai": -16}


# Pre-dealt jokers: "there may be 1 or 2" (seed 004); Wilmington Advanced deals one to each player.


def test_pre_dealt_jokers_are_one_or_two_at_most_in_the_rules(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "honba.sqlite", "t")
    start = ["start", "t", "--players", PLAYERS, "--rules", "wilmington-advanced"]
    line = honba.refused(*start, "--set", "predealt_jokers=3")
    assert "predealt_jokers" in line and "out of range (0 to 2)" in line


def test_thirteen_jokers_and_no_discards_are_no_thirteen_discarded_orphans_in_a_record_file(tmp_path: Path) -> None:
    start = {"type": "start", "key": "t", "players": PLAYERS.split(","), "rules": "wilmington-advanced"}
    facts = {"special_hands": ["thirteen_discarded_orphans"], "predealt_jokers": 13, "winning_tile": "1m"}
    win = {"type": "win", "wins": [{"winner": "Ben", "limit": "mangan", "facts": facts}]}
    path = tmp_path / "jokers.jsonl"
    path.write_text(json.dumps(start) + "\n" + json.dumps(win) + "\n", encoding="utf-8")
    honba = Honba(tmp_path / "honba.sqlite")
    line = honba.refused("import", str(path))
    assert "jokers.jsonl:2" in line and "13 pre-dealt jokers" in line and "at most 1" in line
    assert "no match 't'" in honba.refused("status", "t")


# The extended Earthly Hand, its options as typed: --special, --first-turn, --supplement, --melded.

EARTHLY = ["win", "t", "Ben:limit", "--special", "earthly_hand", "--first-turn"]


def test_earthly_hand_is_not_on_the_winners_own_kong_supplement(tmp_path: Path) -> None:
    """Seed 004, Earthly Hand, extended interpretation (JC Yes): "the situation where non-dealer
    goes out on his first self-drawn tile before any Chows, Pungs or Kongs have been declared" --
    a supplement tile comes after the winner's own kong."""
    honba = table(tmp_path, "--rules", "japanese-classical")
    assert "before any chow, pung or kong is declared" in refused(honba, *EARTHLY, "--supplement")
    # A melded set is a call: the first turn comes before any (the facts of the win refuse it).
    assert "before any call" in refused(honba, *EARTHLY, "--melded", "1")
    # On his first self-drawn tile itself: the Limit of 500, East paying double.
    honba.ok(*EARTHLY)
    assert honba.scores() == {"Ann": 2000 - 1000, "Ben": 2000 + 2000, "Cho": 2000 - 500, "Dai": 2000 - 500}


# Wherever a win comes from: a record file, a correction (the aggregate: tests/service/test_win_facts.py).


def test_a_record_file_with_impossible_facts_is_refused_with_its_line(tmp_path: Path) -> None:
    start = {"type": "start", "key": "t", "players": PLAYERS.split(",")}
    win = {"type": "win", "wins": [{"winner": "Ben", "from": "Ann", "han": 2, "fu": 30, "facts": {"melded_sets": 5}}]}
    path = tmp_path / "melded.jsonl"
    path.write_text(json.dumps(start) + "\n" + json.dumps(win) + "\n", encoding="utf-8")
    line = Honba(tmp_path / "honba.sqlite").refused("import", str(path))
    assert "melded.jsonl:2" in line and "at most 4 melded sets" in line


def test_a_correction_with_impossible_facts_is_refused(tmp_path: Path) -> None:
    honba = table(tmp_path)
    honba.ok("win", "t", "Ben:2/30", "--from", "Ann")
    replacement = {"type": "win", "wins": [{"winner": "Ben", "from": "Ann", "han": 2, "fu": 30}]}
    replacement["wins"][0]["facts"] = {"winning_tile": "0z"}  # type: ignore[index]
    line = refused(honba, "amend", "t", "2", "--result", json.dumps(replacement), "--by", "Ref", "--reason", "typo")
    assert "'0z' is not a tile" in line
