"""The facts of how a win went out: one table in the domain (``domain/win_facts.py``) that every
win goes through, from the command line, a record file or a correction, refusing in one line
what the seeds and the rules rule out. Checked here at the service, in memory, with the text fields
every front end sends (tests/service_match.py); what the command line adds (its options, its exit
code, the import and the correction commands) is tests/e2e/test_win_facts_cli.py.

The rules quoted: seed 004 (special ways of going out: the Heavenly and Earthly Hands, Thirteen
Discarded Orphans with its pre-dealt jokers "(there may be 1 or 2)"), seed 002 (Hong Kong's
maximum "is given for hands worth 10 faans or more"), and the presets' sources for the tiles in
play (Four Winds' preset pages: Tenhou's riichi has 136 tiles, no flowers, no jokers; Taiwanese
16-tile hands hold "5 sets of Chows/Pungs/Kongs and a pair"; Wilmington Advanced deals "4
jokers, one for each player"). Special hands pay the rules' special-hand limit (scoring.md):
under Wilmington Advanced (the seeds' WA) a self-drawn one is the Limit of 500 from each loser.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import attrs
import pytest
from conftest import REPO
from service_match import ServiceMatch

from domain.match import Match
from domain.rules import load_preset
from domain.values import HandValue, Win, WinFacts, WinResult
from domain.win_facts import WIN_FACTS, ImpossibleWinFacts

ORPHANS = ["1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"]
PLAYERS = ("Ann", "Ben", "Cho", "Dai")

New = Callable[..., ServiceMatch]


# Facts that cannot be true together, or not under the rules at the table.


def test_the_first_turn_is_never_the_last_tile(service_match: New) -> None:
    match = service_match()
    line = match.refused("Ben:2/30", discarder="Ann", facts=["first_turn", "last_tile"])
    assert "last tile" in line and "first turn" in line


def test_a_hand_holds_four_sets_and_a_pair_so_at_most_four_melded_sets(service_match: New) -> None:
    match = service_match()
    assert "at most 4 melded sets" in match.refused("Ben:2/30", discarder="Ann", melded="5")
    assert "at most 4 melded sets" in match.refused("Ben:2/30", discarder="Ann", melded="7")
    match.win("Ben:2/30", discarder="Ann", melded="4")


def test_a_taiwanese_hand_holds_five_sets_so_five_melded_sets_but_not_seven(service_match: New) -> None:
    # Four Winds, preset Taiwanese 16-Tile: "A winning hand must contain 5 sets of
    # Chows/Pungs/Kongs and a pair". 5 tai off a non-East discard: 5 from the discarder alone.
    match = service_match("taiwanese")
    assert "at most 5 melded sets" in match.refused("Ben:5tai", discarder="Cho", melded="7")
    match.win("Ben:5tai", discarder="Cho", melded="5")
    assert match.scores() == {"Ann": 0, "Ben": 5, "Cho": -5, "Dai": 0}


# The first turn (``honba win --help``: "Out on the first draw or discard, before any call"): the
# winner's first draw or the dealer's first discard (seed 004's Heavenly and Earthly Hands).


def test_the_first_turn_comes_before_the_winners_first_discard(service_match: New) -> None:
    # Seed 004: East goes out "with the dealt hand", a non-dealer "on dealer's first discard" or
    # "on his first self-drawn tile": the winner has discarded nothing yet.
    match = service_match()
    assert "discarded nothing" in match.refused("Ben:mangan", facts=["first_turn"], discards=",".join(ORPHANS))
    assert "discarded nothing" in match.refused("Ben:mangan", facts=["first_turn"], discards="1m")
    match.win("Ben:mangan", facts=["first_turn"])


def test_the_first_turn_comes_before_any_call_so_the_winner_has_no_melded_set(service_match: New) -> None:
    # A melded set is made of a claimed discard (record-format.md: "melded (claimed)").
    match = service_match()
    assert "before any call" in match.refused("Ben:mangan", facts=["first_turn"], melded="4")
    assert "before any call" in match.refused("Ben:mangan", facts=["first_turn"], melded="1")


def test_the_first_turn_comes_before_any_call_by_anyone(service_match: New) -> None:
    match = service_match()
    line = match.refused("Ben:mangan", facts=["first_turn", "call_before_first_draw"])
    assert "before any call" in line
    match.win("Ben:mangan", facts=["call_before_first_draw"])


def test_a_set_has_four_of_each_tile_so_no_fifth_among_the_discards(service_match: New) -> None:
    # Tenhou's riichi (the preset's sources): 136 tiles, 34 kinds four times, no jokers.
    match = service_match()
    assert "four of each tile" in match.refused("Ben:mangan", discards="1m,1m,1m,1m,1m")
    match.win("Ben:mangan", discards="1m,1m,1m,1m")


def test_a_set_has_four_of_each_tile_so_the_winning_tile_is_not_a_fifth(service_match: New) -> None:
    match = service_match()
    assert "four of each tile" in match.refused("Ben:mangan", discards="9p,9p,9p,9p", tile="9p")


def test_a_pre_dealt_joker_may_stand_for_a_fifth_tile(service_match: New) -> None:
    # Seed 004: jokers take "the required tile values" (Wilmington Advanced deals one to each player).
    match = service_match("wilmington-advanced")
    assert "four of each tile" in match.refused("Ben:limit", discards="1m,1m,1m,1m,1m,1m", jokers="1")
    match.win("Ben:limit", discards="1m,1m,1m,1m,1m", jokers="1")


@pytest.mark.parametrize("preset", ["wilmington-advanced", "tenhou"])
@pytest.mark.parametrize("field", ["melded", "jokers"])
def test_a_count_of_melded_sets_or_jokers_cannot_be_negative(service_match: New, field: str, preset: str) -> None:
    match = service_match(preset)
    line = match.refused("Ben:mangan", **{field: "-1"})
    assert "cannot be negative" in line and "at most" not in line and "deals no jokers" not in line


@pytest.mark.parametrize("tile", ["0z", "8z", "0m", "10p", "5x", "East"])
def test_a_tile_that_does_not_exist_is_refused(service_match: New, tile: str) -> None:
    match = service_match()
    assert f"{tile!r} is not a tile" in match.refused("Ben:2/30", discarder="Ann", tile=tile)


def test_a_discard_that_does_not_exist_is_refused(service_match: New) -> None:
    match = service_match()
    assert "'0z' is not a tile" in match.refused("Ben:2/30", discarder="Ann", discards="1m,0z")


def test_no_joker_is_dealt_under_rules_that_have_none(service_match: New) -> None:
    match = service_match()
    assert "deals no jokers" in match.refused("Ben:2/30", discarder="Ann", jokers="3")


def test_no_tile_is_drawn_for_a_flower_under_rules_that_have_none(service_match: New) -> None:
    match = service_match()
    assert "no flowers" in match.refused("Ben:2/30", facts=["flower_supplement"])
    assert "no flowers" in match.refused("Ben:2/30", facts=["supplements_to_ready"])


def test_a_tile_drawn_for_a_flower_where_flowers_are_played(service_match: New) -> None:
    # Hong Kong: 3 faan is 8 points; self-drawn every loser pays double: 16 each.
    match = service_match("hong-kong")
    match.win("Ben:3faan", facts=["flower_supplement"])
    assert match.scores() == {"Ann": -16, "Ben": 48, "Cho": -16, "Dai": -16}


# Pre-dealt jokers: "there may be 1 or 2" (seed 004); Wilmington Advanced deals one to each player.


def test_a_win_holds_no_more_pre_dealt_jokers_than_the_rules_deal(service_match: New) -> None:
    match = service_match("wilmington-advanced")
    orphans = {"special": ["thirteen_discarded_orphans"], "tile": "7z"}
    assert "at most 1" in match.refused("Ben:limit", **orphans, discards=",".join(ORPHANS[:12]), jokers="3")
    assert "at most 1" in match.refused("Ben:limit", **orphans, jokers="13")


# Thirteen Discarded Orphans with pre-dealt jokers counted as discards (the seeds' WA: "Yes").

ORPHAN_WIN = {"special": ["thirteen_discarded_orphans"]}


def test_a_pre_dealt_joker_lowers_the_orphan_discards_needed_to_twelve(service_match: New) -> None:
    """Seed 004: "if 1 pre-dealt joker is used, the player needs only 12 discards (either all 12
    unique, or 11 unique and one matching tile) and can go out on the 13th valid discard (either
    unique, if the pair already appears amongst discards, or on any of the 13 possible orphans,
    if the existing 12 are all unique discards)". The Limit (500) from each loser, self-drawn."""
    match = service_match("wilmington-advanced")
    match.win("Ben:limit", **ORPHAN_WIN, discards=",".join(ORPHANS[:12]), tile="7z", jokers="1")
    assert match.scores() == {"Ann": -500, "Ben": 1500, "Cho": -500, "Dai": -500}


def test_eleven_unique_orphans_and_a_pair_with_a_joker_go_out_on_a_missing_orphan(service_match: New) -> None:
    """Seed 004: 12 discards may be "11 unique and one matching tile", and then the player goes
    out "unique, if the pair already appears amongst discards"."""
    match = service_match("wilmington-advanced")
    discards = ",".join([*ORPHANS[:11], "1m"])  # 6z and 7z missing, 1m twice
    line = match.refused("Ben:limit", **ORPHAN_WIN, discards=discards, tile="9m", jokers="1")
    assert "missing orphan" in line
    match.win("Ben:limit", **ORPHAN_WIN, discards=discards, tile="6z", jokers="1")


def test_a_joker_counted_as_a_discard_never_invalidates_a_hand_that_holds_without_it(service_match: New) -> None:
    """Seed 004: "each joker that is pre-dealt in player's hand (there may be 1 or 2) decreases
    the number of required orphan discards by one" -- it lowers the count needed; the deadline
    stays "before the 14th discard". 13 unique orphans and a joker, out on a tile matching one of
    them, holds with the option as it holds without it."""
    option_off = service_match("wilmington-advanced", overrides=["orphans_jokers_as_discards=false"])
    option_off.win("Ben:limit", **ORPHAN_WIN, discards=",".join(ORPHANS), tile="1m", jokers="1")
    option_on = service_match("wilmington-advanced")
    option_on.win("Ben:limit", **ORPHAN_WIN, discards=",".join(ORPHANS), tile="1m", jokers="1")
    assert option_on.scores() == option_off.scores() == {"Ann": -500, "Ben": 1500, "Cho": -500, "Dai": -500}


def test_twelve_orphan_discards_are_not_enough_without_a_joker(service_match: New) -> None:
    match = service_match("wilmington-advanced")
    line = match.refused("Ben:limit", **ORPHAN_WIN, discards=",".join(ORPHANS[:12]), tile="7z")
    assert "13 discards are needed, 12 recorded" in line


# Heavenly and Earthly Hands against their "No supplements" options and the extended Earthly Hand.

HEAVENLY = {"special": ["heavenly_hand"]}
EARTHLY = {"special": ["earthly_hand"]}


def test_heavenly_hand_without_supplements_refuses_the_supplement_after_a_second_kong(service_match: New) -> None:
    """Seed 004, Heavenly Hand, No supplements: "a player must go out immediately on the dealt
    hand -- going out on a supplement tile after declaring a concealed Kong or melding Flowers
    and Seasons does not qualify". The tile after a second kong is a supplement tile (Plum
    Blossom on the Roof and Kong on Kong read it so)."""
    match = service_match("chinese-classical", overrides=["heavenly_no_supplements=true"])
    assert "no supplement tiles" in match.refused("Ann:limit", **HEAVENLY, facts=["first_turn", "second_kong"])


def test_heavenly_hand_without_supplements_refuses_supplements_for_flowers_to_the_calling_hand(
    service_match: New,
) -> None:
    """Seed 004, Heavenly Hand, No supplements: "must go out immediately on the dealt hand -- going
    out on a supplement tile after ... melding Flowers and Seasons does not qualify"."""
    match = service_match("hong-kong", overrides=["heavenly_no_supplements=true"])
    line = match.refused("Ann:limit", **HEAVENLY, facts=["first_turn", "supplements_to_ready"])
    assert "no supplement tiles" in line


def test_heavenly_hand_after_supplements_where_the_option_is_off(service_match: New) -> None:
    """Seed 004: "East declares 'Out' with the dealt hand (after supplement tiles, if any)". Hong
    Kong pays the maximum of 64 points (seed 002), doubled self-drawn: 128 from each loser."""
    match = service_match("hong-kong")
    match.win("Ann:limit", **HEAVENLY, facts=["first_turn", "supplements_to_ready"])
    assert match.scores() == {"Ann": 384, "Ben": -128, "Cho": -128, "Dai": -128}


def test_earthly_hand_without_supplements_refuses_the_supplement_after_a_second_kong(service_match: New) -> None:
    """Seed 004, Earthly Hand, No supplements: "a player must not have used supplement tiles (for
    Flowers and Seasons) to achieve his calling hand"; the extended interpretation: "non-dealer
    goes out on his first self-drawn tile before any Chows, Pungs or Kongs have been declared"."""
    match = service_match("japanese-classical", overrides=["earthly_no_supplements=true"])
    assert "supplement" in match.refused("Ben:limit", **EARTHLY, facts=["first_turn", "second_kong"])


def test_earthly_hand_is_not_on_the_winners_own_kong_supplement(service_match: New) -> None:
    """Seed 004, Earthly Hand, extended interpretation (JC Yes): "the situation where non-dealer
    goes out on his first self-drawn tile before any Chows, Pungs or Kongs have been declared" --
    a supplement tile comes after the winner's own kong."""
    match = service_match("japanese-classical")
    line = match.refused("Ben:limit", **EARTHLY, facts=["first_turn", "supplement_tile"])
    assert "before any chow, pung or kong is declared" in line
    # A melded set is a call: the first turn comes before any (the facts of the win refuse it).
    assert "before any call" in match.refused("Ben:limit", **EARTHLY, facts=["first_turn"], melded="1")
    # On his first self-drawn tile itself: the Limit of 500, East paying double.
    match.win("Ben:limit", **EARTHLY, facts=["first_turn"])
    assert match.scores() == {"Ann": 2000 - 1000, "Ben": 2000 + 2000, "Cho": 2000 - 500, "Dai": 2000 - 500}


# A faan count above the settling table's top pays the top.


def test_hong_kong_faan_above_ten_pay_the_maximum(service_match: New) -> None:
    # Seed 002: "the actual maximum final score is 3 laaks ... 64 points and is given for hands
    # worth 10 faans or more". On a discard the discarder pays double (128), the others 64.
    match = service_match("hong-kong")
    match.win("Cho:21faan", discarder="Dai")
    assert match.scores() == {"Ann": -64, "Ben": -64, "Cho": 256, "Dai": -128}
    match.win("Cho:10faan", discarder="Dai")
    assert match.scores() == {"Ann": -128, "Ben": -128, "Cho": 512, "Dai": -256}


def test_a_faan_count_beyond_any_hand_is_still_refused(service_match: New) -> None:
    match = service_match("hong-kong")
    assert "faan: 65 is out of range (0 to 64)" in match.refused("Cho:65faan", discarder="Dai")


# Wherever a win comes from: the aggregate (the record file and the correction: tests/e2e/test_win_facts_cli.py).


def test_the_aggregate_refuses_impossible_facts_before_recording_anything() -> None:
    match = Match.start("t", PLAYERS, load_preset("tenhou"))
    facts = WinFacts(first_turn=True, last_tile=True)
    with pytest.raises(ImpossibleWinFacts, match="first turn"):
        match.record(WinResult((Win(1, HandValue(han=2, fu=30), discarder=0, facts=facts),)))
    assert [type(e).__name__ for e in match.pending_events] == ["Started"]


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
