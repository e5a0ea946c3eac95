"""Sanity at the table: results that cannot have happened are refused with one line a player understands.

Issue 10, "Table-side sanity" and "Special-hand claims with contradictory facts". Each
refusal is one line and records nothing; checked here at the service, in memory, with the text
fields every front end sends (tests/service_match.py), and in the domain for the rules and the
special hands; the commands' own refusal (exit 2, one line on stderr) is tests/e2e/test_table_sanity_cli.py.

The rules quoted: seed 000, "The Raise minimum point requirement on the 5th extra deal
option ... is available only when minimum points have been specified using the doubles,
han or faan unit"; seed 002, "in Japanese Modern Mah Jong ... The actual maximum final
score is 400% of the Limit (8,000 points) given for hands worth 13 han or more"; seed
004 (special hands by the way of going out); the abortive draws of riichi (four winds,
four riichi, triple ron: rules-and-peers.md) need four players, four riichi needs all
four riichi declared.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from conftest import TENHOU
from service_match import ServiceMatch
from test_special_hands import CLASSICAL, EAST, ORPHANS, SOUTH, WEST, claim, holds, refused

from domain.errors import InvalidRules

New = Callable[..., ServiceMatch]


def test_a_riichi_at_a_draw_without_the_player_ready_is_refused(service_match: New) -> None:
    line = service_match().refused_entry({"kind": "draw", "riichi": "Ann"})
    assert "Ann declared riichi" in line and "ready" in line


def test_a_riichi_at_a_draw_with_the_player_ready_is_recorded(service_match: New) -> None:
    table = service_match()
    table.enter({"kind": "draw", "riichi": "Ann", "ready": "Ann"})
    # Ann alone ready: 1,000 from each of the others (Tenhou's 3,000 pool, FORMAT.md), less her
    # riichi stick, which stays on the table; Ann deals on with 1 counter.
    status = table.status()
    assert status["scores"] == {"Ann": 27000, "Ben": 24000, "Cho": 24000, "Dai": 24000}
    assert (status["dealer"], status["counters"], status["deposits"]) == ("Ann", 1, 1000)


def test_four_riichi_needs_all_four_riichi_declared(service_match: New) -> None:
    table = service_match()
    line = table.refused_entry({"kind": "abort", "abort": "four_riichi", "riichi": "Ann"})
    assert "all four players declared riichi" in line
    table.enter({"kind": "abort", "abort": "four_riichi", "riichi": "Ann,Ben,Cho,Dai"})


@pytest.mark.parametrize("kind", ["four_winds", "four_riichi", "triple_ron"])
def test_the_four_player_abortive_draws_are_refused_at_a_three_player_table(service_match: New, kind: str) -> None:
    table = service_match("tenhou-sanma")
    assert table.players == ("Ann", "Ben", "Cho")
    assert "needs four players" in table.refused_entry({"kind": "abort", "abort": kind, "riichi": "Ann,Ben,Cho"})


def test_a_count_beyond_any_hand_is_refused(service_match: New) -> None:
    # 13 han already reaches the largest limit; 99 han is a slip of the pen.
    assert "99 han is beyond any hand" in service_match().refused("Ben:99/30", discarder="Ann")


def test_a_counted_yakuman_of_more_than_13_han_is_still_recorded(service_match: New) -> None:
    # A counted yakuman may list more han than 13 (Tenhou writes the sum of its yaku); seed 002:
    # the maximum, 400% of the Limit (8,000 base), "given for hands worth 13 han or more": 32,000
    # from Ann, the dealer, to Ben on a ron, which busts Ann.
    table = service_match()
    table.win("Ben:15han", discarder="Ann")
    status = table.status()
    assert status["scores"] == {"Ann": -7000, "Ben": 57000, "Cho": 25000, "Dai": 25000}
    assert status["end_reason"] == "bust"


def test_negative_dora_are_refused(service_match: New) -> None:
    assert "dora cannot be negative" in service_match().refused("Ben:1/30", discarder="Ann", dora="-1")


def test_negative_dora_do_not_slip_a_one_han_win_past_a_two_han_minimum(service_match: New) -> None:
    table = service_match(overrides=["minimum=2"])
    assert "dora cannot be negative" in table.refused("Ben:1/30", discarder="Ann", dora="-1")


def test_more_dora_than_han_are_refused(service_match: New) -> None:
    assert "cannot be more than" in service_match().refused("Ben:2/30", discarder="Ann", dora="3")


def test_the_minimum_refusal_says_dora_do_not_count(service_match: New) -> None:
    line = service_match(overrides=["minimum=2"]).refused("Ben:2/30", discarder="Ann", dora="1")
    assert "counts 1 han toward the minimum of 2 han" in line
    assert "dora do not count toward the minimum" in line


def test_raising_a_minimum_in_points_on_the_fifth_extra_hand_is_refused() -> None:
    with pytest.raises(InvalidRules, match="only for a minimum in doubles, han or faan"):
        TENHOU.with_overrides(
            {"minimum": 8, "minimum_unit": "points", "minimum_raise_from": 5, "minimum_raise_counter": "extra_hands"}
        )


def test_raising_a_minimum_in_han_on_the_fifth_extra_hand_is_allowed() -> None:
    rules = TENHOU.with_overrides({"minimum_raise_from": 5, "minimum_raise_counter": "extra_hands"})
    assert rules.minimum_raise_from == 5


# Special hands whose facts contradict each other.


def test_plum_blossom_on_a_discard_with_a_supplement_tile_is_refused() -> None:
    line = refused(claim("plum_blossom_on_the_roof", by=WEST, supplement_tile=True, winning_tile="5p"))
    assert "self-drawn" in line


def test_kong_on_kong_on_a_discard_is_refused() -> None:
    assert "self-drawn" in refused(claim("kong_on_kong", by=WEST, second_kong=True, supplement_tile=True))


def test_kong_on_kong_needs_only_the_second_kong_fact() -> None:
    # record-format.md: second_kong is "won on the supplement tile after a second kong".
    assert holds(claim("kong_on_kong", second_kong=True)) > 0


def test_scratching_a_carrying_pole_self_drawn_is_refused() -> None:
    line = refused(claim("scratching_a_carrying_pole", robbed_kong=True, winning_tile="2s"))
    assert "robbed kong" in line


def test_heavenly_hand_on_a_robbed_kong_is_refused() -> None:
    assert "robbed kong" in refused(claim("heavenly_hand", winner=EAST, first_turn=True, robbed_kong=True))


def test_thirteen_discarded_orphans_after_the_fourteenth_discard_is_refused() -> None:
    # Seed 004: "The hand must always be declared Out (and before the 14th discard)".
    line = refused(claim("thirteen_discarded_orphans", winner=SOUTH, discards=[*ORPHANS, "2m"], winning_tile="1m"))
    assert "before discard 14" in line


def test_thirteen_discarded_orphans_declared_on_time_holds() -> None:
    assert holds(claim("thirteen_discarded_orphans", discards=ORPHANS, winning_tile="1m"), CLASSICAL) > 0
