"""The facts of how a win went out: one table in the domain (``domain/win_facts.py``) that every
win goes through, from the command line, a record file or a correction, refusing in one line
what the seeds and the rules rule out.

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
import re
from pathlib import Path

import attrs
import pytest
from conftest import REPO
from honba_cli import Honba

from domain.match import Match
from domain.rules import load_preset
from domain.values import HandValue, Win, WinFacts, WinResult
from domain.win_facts import WIN_FACTS, ImpossibleWinFacts

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


def test_a_hand_holds_four_sets_and_a_pair_so_at_most_four_melded_sets(tmp_path: Path) -> None:
    honba = table(tmp_path)
    assert "at most 4 melded sets" in refused(honba, "win", "t", "Ben:2/30", "--from", "Ann", "--melded", "5")
    assert "at most 4 melded sets" in refused(honba, "win", "t", "Ben:2/30", "--from", "Ann", "--melded", "7")
    honba.ok("win", "t", "Ben:2/30", "--from", "Ann", "--melded", "4")


def test_a_taiwanese_hand_holds_five_sets_so_five_melded_sets_but_not_seven(tmp_path: Path) -> None:
    # Four Winds, preset Taiwanese 16-Tile: "A winning hand must contain 5 sets of
    # Chows/Pungs/Kongs and a pair". 5 tai off a non-East discard: 5 from the discarder alone.
    honba = table(tmp_path, "--rules", "taiwanese")
    assert "at most 5 melded sets" in refused(honba, "win", "t", "Ben:5tai", "--from", "Cho", "--melded", "7")
    honba.ok("win", "t", "Ben:5tai", "--from", "Cho", "--melded", "5")
    assert honba.scores() == {"Ann": 0, "Ben": 5, "Cho": -5, "Dai": 0}


# The first turn (``honba win --help``: "Out on the first draw or discard, before any call"): the
# winner's first draw or the dealer's first discard (seed 004's Heavenly and Earthly Hands).


def test_the_first_turn_comes_before_the_winners_first_discard(tmp_path: Path) -> None:
    # Seed 004: East goes out "with the dealt hand", a non-dealer "on dealer's first discard" or
    # "on his first self-drawn tile": the winner has discarded nothing yet.
    honba = table(tmp_path)
    first_turn = ["win", "t", "Ben:mangan", "--first-turn"]
    assert "discarded nothing" in refused(honba, *first_turn, "--discards", ",".join(ORPHANS))
    assert "discarded nothing" in refused(honba, *first_turn, "--discards", "1m")
    honba.ok(*first_turn)


def test_the_first_turn_comes_before_any_call_so_the_winner_has_no_melded_set(tmp_path: Path) -> None:
    # A melded set is made of a claimed discard (record-format.md: "melded (claimed)").
    honba = table(tmp_path)
    assert "before any call" in refused(honba, "win", "t", "Ben:mangan", "--first-turn", "--melded", "4")
    assert "before any call" in refused(honba, "win", "t", "Ben:mangan", "--first-turn", "--melded", "1")


def test_the_first_turn_comes_before_any_call_by_anyone(tmp_path: Path) -> None:
    honba = table(tmp_path)
    line = refused(honba, "win", "t", "Ben:mangan", "--first-turn", "--call-before-first-draw")
    assert "before any call" in line
    honba.ok("win", "t", "Ben:mangan", "--call-before-first-draw")


def test_a_set_has_four_of_each_tile_so_no_fifth_among_the_discards(tmp_path: Path) -> None:
    # Tenhou's riichi (the preset's sources): 136 tiles, 34 kinds four times, no jokers.
    honba = table(tmp_path)
    assert "four of each tile" in refused(honba, "win", "t", "Ben:mangan", "--discards", "1m,1m,1m,1m,1m")
    honba.ok("win", "t", "Ben:mangan", "--discards", "1m,1m,1m,1m")


def test_a_set_has_four_of_each_tile_so_the_winning_tile_is_not_a_fifth(tmp_path: Path) -> None:
    honba = table(tmp_path)
    line = refused(honba, "win", "t", "Ben:mangan", "--discards", "9p,9p,9p,9p", "--tile", "9p")
    assert "four of each tile" in line


def test_a_pre_dealt_joker_may_stand_for_a_fifth_tile(tmp_path: Path) -> None:
    # Seed 004: jokers take "the required tile values" (Wilmington Advanced deals one to each player).
    honba = table(tmp_path, "--rules", "wilmington-advanced")
    assert "four of each tile" in refused(
        honba, "win", "t", "Ben:limit", "--discards", "1m,1m,1m,1m,1m,1m", "--jokers", "1"
    )
    honba.ok("win", "t", "Ben:limit", "--discards", "1m,1m,1m,1m,1m", "--jokers", "1")


@pytest.mark.parametrize("preset", ["wilmington-advanced", "tenhou"])
@pytest.mark.parametrize("option", ["--melded", "--jokers"])
def test_a_count_of_melded_sets_or_jokers_cannot_be_negative(tmp_path: Path, option: str, preset: str) -> None:
    honba = table(tmp_path, "--rules", preset)
    line = refused(honba, "win", "t", "Ben:mangan", option, "-1")
    assert "cannot be negative" in line and "at most" not in line and "deals no jokers" not in line


@pytest.mark.parametrize("tile", ["0z", "8z", "0m", "10p", "5x", "East"])
def test_a_tile_that_does_not_exist_is_refused(tmp_path: Path, tile: str) -> None:
    honba = table(tmp_path)
    line = refused(honba, "win", "t", "Ben:2/30", "--from", "Ann", "--tile", tile)
    assert f"{tile!r} is not a tile" in line


def test_a_discard_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    honba = table(tmp_path)
    assert "'0z' is not a tile" in refused(honba, "win", "t", "Ben:2/30", "--from", "Ann", "--discards", "1m,0z")


def test_no_joker_is_dealt_under_rules_that_have_none(tmp_path: Path) -> None:
    honba = table(tmp_path)
    line = refused(honba, "win", "t", "Ben:2/30", "--from", "Ann", "--jokers", "3")
    assert "deals no jokers" in line


def test_no_tile_is_drawn_for_a_flower_under_rules_that_have_none(tmp_path: Path) -> None:
    honba = table(tmp_path)
    assert "no flowers" in refused(honba, "win", "t", "Ben:2/30", "--flower-supplement")
    assert "no flowers" in refused(honba, "win", "t", "Ben:2/30", "--supplements-to-ready")


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


def test_a_win_holds_no_more_pre_dealt_jokers_than_the_rules_deal(tmp_path: Path) -> None:
    honba = table(tmp_path, "--rules", "wilmington-advanced")
    args = ["win", "t", "Ben:limit", "--special", "thirteen_discarded_orphans", "--tile", "7z"]
    assert "at most 1" in refused(honba, *args, "--discards", ",".join(ORPHANS[:12]), "--jokers", "3")
    assert "at most 1" in refused(honba, *args, "--jokers", "13")


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


# Thirteen Discarded Orphans with pre-dealt jokers counted as discards (the seeds' WA: "Yes").

ORPHAN_WIN = ["win", "t", "Ben:limit", "--special", "thirteen_discarded_orphans"]


def test_a_pre_dealt_joker_lowers_the_orphan_discards_needed_to_twelve(tmp_path: Path) -> None:
    """Seed 004: "if 1 pre-dealt joker is used, the player needs only 12 discards (either all 12
    unique, or 11 unique and one matching tile) and can go out on the 13th valid discard (either
    unique, if the pair already appears amongst discards, or on any of the 13 possible orphans,
    if the existing 12 are all unique discards)". The Limit (500) from each loser, self-drawn."""
    honba = table(tmp_path, "--rules", "wilmington-advanced")
    honba.ok(*ORPHAN_WIN, "--discards", ",".join(ORPHANS[:12]), "--tile", "7z", "--jokers", "1")
    assert honba.scores() == {"Ann": -500, "Ben": 1500, "Cho": -500, "Dai": -500}


def test_eleven_unique_orphans_and_a_pair_with_a_joker_go_out_on_a_missing_orphan(tmp_path: Path) -> None:
    """Seed 004: 12 discards may be "11 unique and one matching tile", and then the player goes
    out "unique, if the pair already appears amongst discards"."""
    honba = table(tmp_path, "--rules", "wilmington-advanced")
    discards = ",".join([*ORPHANS[:11], "1m"])  # 6z and 7z missing, 1m twice
    line = refused(honba, *ORPHAN_WIN, "--discards", discards, "--tile", "9m", "--jokers", "1")
    assert "missing orphan" in line
    honba.ok(*ORPHAN_WIN, "--discards", discards, "--tile", "6z", "--jokers", "1")


def test_a_joker_counted_as_a_discard_never_invalidates_a_hand_that_holds_without_it(tmp_path: Path) -> None:
    """Seed 004: "each joker that is pre-dealt in player's hand (there may be 1 or 2) decreases
    the number of required orphan discards by one" -- it lowers the count needed; the deadline
    stays "before the 14th discard". 13 unique orphans and a joker, out on a tile matching one of
    them, holds with the option as it holds without it."""
    option_off = table(tmp_path, "--rules", "wilmington-advanced", "--set", "orphans_jokers_as_discards=false")
    option_off.ok(*ORPHAN_WIN, "--discards", ",".join(ORPHANS), "--tile", "1m", "--jokers", "1")
    option_on = table(tmp_path, "--rules", "wilmington-advanced", db="on.sqlite")
    option_on.ok(*ORPHAN_WIN, "--discards", ",".join(ORPHANS), "--tile", "1m", "--jokers", "1")
    assert option_on.scores() == option_off.scores() == {"Ann": -500, "Ben": 1500, "Cho": -500, "Dai": -500}


def test_twelve_orphan_discards_are_not_enough_without_a_joker(tmp_path: Path) -> None:
    honba = table(tmp_path, "--rules", "wilmington-advanced")
    line = refused(honba, *ORPHAN_WIN, "--discards", ",".join(ORPHANS[:12]), "--tile", "7z")
    assert "13 discards are needed, 12 recorded" in line


# Heavenly and Earthly Hands against their "No supplements" options and the extended Earthly Hand.

HEAVENLY = ["win", "t", "Ann:limit", "--special", "heavenly_hand", "--first-turn"]
EARTHLY = ["win", "t", "Ben:limit", "--special", "earthly_hand", "--first-turn"]


def test_heavenly_hand_without_supplements_refuses_the_supplement_after_a_second_kong(tmp_path: Path) -> None:
    """Seed 004, Heavenly Hand, No supplements: "a player must go out immediately on the dealt
    hand -- going out on a supplement tile after declaring a concealed Kong or melding Flowers
    and Seasons does not qualify". The tile after a second kong is a supplement tile (Plum
    Blossom on the Roof and Kong on Kong read it so)."""
    honba = table(tmp_path, "--rules", "chinese-classical", "--set", "heavenly_no_supplements=true")
    assert "no supplement tiles" in refused(honba, *HEAVENLY, "--second-kong")


def test_heavenly_hand_without_supplements_refuses_supplements_for_flowers_to_the_calling_hand(
    tmp_path: Path,
) -> None:
    """Seed 004, Heavenly Hand, No supplements: "must go out immediately on the dealt hand -- going
    out on a supplement tile after ... melding Flowers and Seasons does not qualify"."""
    honba = table(tmp_path, "--rules", "hong-kong", "--set", "heavenly_no_supplements=true")
    assert "no supplement tiles" in refused(honba, *HEAVENLY, "--supplements-to-ready")


def test_heavenly_hand_after_supplements_where_the_option_is_off(tmp_path: Path) -> None:
    """Seed 004: "East declares 'Out' with the dealt hand (after supplement tiles, if any)". Hong
    Kong pays the maximum of 64 points (seed 002), doubled self-drawn: 128 from each loser."""
    honba = table(tmp_path, "--rules", "hong-kong")
    honba.ok(*HEAVENLY, "--supplements-to-ready")
    assert honba.scores() == {"Ann": 384, "Ben": -128, "Cho": -128, "Dai": -128}


def test_earthly_hand_without_supplements_refuses_the_supplement_after_a_second_kong(tmp_path: Path) -> None:
    """Seed 004, Earthly Hand, No supplements: "a player must not have used supplement tiles (for
    Flowers and Seasons) to achieve his calling hand"; the extended interpretation: "non-dealer
    goes out on his first self-drawn tile before any Chows, Pungs or Kongs have been declared"."""
    honba = table(tmp_path, "--rules", "japanese-classical", "--set", "earthly_no_supplements=true")
    assert "supplement" in refused(honba, *EARTHLY, "--second-kong")


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


# A faan count above the settling table's top pays the top.


def test_hong_kong_faan_above_ten_pay_the_maximum(tmp_path: Path) -> None:
    # Seed 002: "the actual maximum final score is 3 laaks ... 64 points and is given for hands
    # worth 10 faans or more". On a discard the discarder pays double (128), the others 64.
    honba = table(tmp_path, "--rules", "hong-kong")
    honba.ok("win", "t", "Cho:21faan", "--from", "Dai")
    assert honba.scores() == {"Ann": -64, "Ben": -64, "Cho": 256, "Dai": -128}
    honba.ok("win", "t", "Cho:10faan", "--from", "Dai")
    assert honba.scores() == {"Ann": -128, "Ben": -128, "Cho": 512, "Dai": -256}


def test_a_faan_count_beyond_any_hand_is_still_refused(tmp_path: Path) -> None:
    honba = table(tmp_path, "--rules", "hong-kong")
    assert "faan: 65 is out of range (0 to 64)" in refused(honba, "win", "t", "Cho:65faan", "--from", "Dai")


# Wherever a win comes from: the aggregate, a record file, a correction.


def test_the_aggregate_refuses_impossible_facts_before_recording_anything() -> None:
    match = Match.start("t", tuple(PLAYERS.split(",")), load_preset("tenhou"))
    facts = WinFacts(first_turn=True, last_tile=True)
    with pytest.raises(ImpossibleWinFacts, match="first turn"):
        match.record(WinResult((Win(1, HandValue(han=2, fu=30), discarder=0, facts=facts),)))
    assert [type(e).__name__ for e in match.pending_events] == ["Started"]


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


# The table and its documentation.


def test_every_fact_of_a_win_has_its_row_in_the_table() -> None:
    # special_hands are checked by their own table (domain.special_hands), penalties by the win's.
    rows = {fact.name for fact in WIN_FACTS}
    fields = {f.name for f in attrs.fields(WinFacts)} - {"special_hands", "penalties"}
    assert rows == fields


def test_docs_rules_shows_the_table_row_for_row() -> None:
    text = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    section = text[text.index("## The facts of a win") :]
    documented = re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE)
    assert documented[: len(WIN_FACTS)] == [fact.name for fact in WIN_FACTS]
