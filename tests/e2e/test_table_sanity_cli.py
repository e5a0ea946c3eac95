"""Sanity at the table: results that cannot have happened are refused with one line a player understands.

Issue 10, "Table-side sanity" and "Special-hand claims with contradictory facts". Each
refusal exits 2 with one line on stderr and records nothing. The rules are checked at the service and
in the domain (tests/service/test_table_sanity.py); here what the commands add: a draw's and an
abort's options, a negative count after its option, the one line and the exit code, and what
the commands print of a draw and of a match over.

The rules quoted: seed 000, "The Raise minimum point requirement on the 5th extra deal
option ... is available only when minimum points have been specified using the doubles,
han or faan unit"; seed 002, "in Japanese Modern Mah Jong ... The actual maximum final
score is 400% of the Limit (8,000 points) given for hands worth 13 han or more"; seed
004 (special hands by the way of going out); the abortive draws of riichi (four winds,
four riichi, triple ron: rules-and-peers.md) need four players, four riichi needs all
four riichi declared.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from honba_cli import Honba, invoke


@pytest.fixture
def table(tmp_path: Path) -> Honba:
    """One match ``t`` recorded through the command line on a fresh SQLite file."""
    honba = Honba(tmp_path / "honba.sqlite", "t")
    honba.ok("start", "t", "--players", "Ann,Ben,Cho,Dai")
    return honba


def test_a_riichi_at_a_draw_without_the_player_ready_is_refused(table: Honba) -> None:
    line = table.refused_as_it_was("draw", "t", "--riichi", "Ann")
    assert "Ann declared riichi" in line and "ready" in line


@pytest.mark.parametrize("kind", ["four_winds"])
def test_the_four_player_abortive_draws_are_refused_at_a_three_player_table(tmp_path: Path, kind: str) -> None:
    db = tmp_path / "sanma.sqlite"
    invoke(["--db", str(db), "start", "t", "--players", "Ann,Ben,Cho", "--rules", "tenhou-sanma"])
    result = invoke(["--db", str(db), "abort", "t", kind, "--riichi", "Ann,Ben,Cho"])
    assert result.exit_code == 2, result.output
    assert "needs four players" in result.stderr


def test_negative_dora_are_refused(table: Honba) -> None:
    assert "dora cannot be negative" in table.refused_as_it_was("win", "t", "Ben:1/30", "--from", "Ann", "--dora", "-1")


def test_a_riichi_at_a_draw_with_the_player_ready_is_recorded(table: Honba) -> None:
    table.ok("draw", "t", "--riichi", "Ann", "--ready", "Ann")
    # Ann alone ready: 1,000 from each of the others (Tenhou's 3,000 pool, FORMAT.md), less her
    # riichi stick, which stays on the table; Ann deals on with 1 counter.
    status = json.loads(table.ok("status", "t", "--json"))
    assert status["scores"] == {"Ann": 27000, "Ben": 24000, "Cho": 24000, "Dai": 24000}
    assert (status["dealer"], status["counters"], status["deposits"]) == ("Ann", 1, 1000)


def test_a_counted_yakuman_of_more_than_13_han_is_still_recorded(table: Honba) -> None:
    # A counted yakuman may list more han than 13 (Tenhou writes the sum of its yaku); seed 002:
    # the maximum, 400% of the Limit (8,000 base), "given for hands worth 13 han or more": 32,000
    # from Ann, the dealer, to Ben on a ron, which busts Ann.
    table.ok("win", "t", "Ben:15han", "--from", "Ann")
    status = json.loads(table.ok("status", "t", "--json"))
    assert status["scores"] == {"Ann": -7000, "Ben": 57000, "Cho": 25000, "Dai": 25000}
    assert status["end_reason"] == "bust"


def test_four_riichi_needs_all_four_riichi_declared(table: Honba) -> None:
    line = table.refused_as_it_was("abort", "t", "four_riichi", "--riichi", "Ann")
    assert "all four players declared riichi" in line
    table.ok("abort", "t", "four_riichi", "--riichi", "Ann,Ben,Cho,Dai")
