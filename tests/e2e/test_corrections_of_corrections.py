"""Corrections of corrections, undo at the table, amend as typed at the table, client keys.

Issue 10: "A mistaken void cannot be undone, a correction cannot be corrected, and
`amend` needs a hand-typed JSON line where `win` takes `Ben:4/30 --from Ann`. `amend`
sent again with the same `--key` but another `--by`/`--reason` is answered as a retry;
`start` with another key on an existing match answers success."

Numbers from the published riichi table (Tenhou, 25,000 start): a non-dealer's ron is
3,900 at 3 han 30 fu, 7,700 at 4 han 30 fu, 1,000 at 1 han 30 fu; a draw with one
player ready moves 3,000 (1,000 from each of the three others).

The match of these tests is ``honba_cli.two_wins``; entries are named by the numbers
``honba log`` shows (their lines in the exported record file):
    1 start (Ann deals first)   2 E1-0 Ben ron on Cho 3/30   3 E2-0 Cho ron on Dai 1/30
The first correction is entry 4, the next entry 5.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from honba_cli import AS_RECORDED, Honba, two_wins

KEY = "t"
REF = ("--by", "Referee Ito", "--reason")


@pytest.fixture
def honba(tmp_path: Path) -> Honba:
    return two_wins(tmp_path / "honba.sqlite", KEY)


# Corrections of corrections.


def test_a_void_can_be_cancelled_and_the_hand_counts_again(honba: Honba) -> None:
    honba.ok("void", KEY, "2", *REF, "wrong table")
    assert honba.scores()["Ben"] == 25000
    honba.ok("void", KEY, "4", *REF, "it was the right table after all")
    assert honba.scores() == AS_RECORDED
    kinds = [c["kind"] for c in honba.json("audit", KEY)["corrections"]]
    assert kinds == ["voided", "void cancelled"]


def test_an_amendment_can_be_amended(honba: Honba) -> None:
    honba.ok("amend", KEY, "2", "win", "Ben:4/30", "--from", "Cho", *REF, "a red five")
    # The amendment, entry 4, is itself amended: 1 han 30 fu, not 4 han.
    honba.ok("amend", KEY, "4", "win", "Ben:1/30", "--from", "Cho", *REF, "no red five, no dora either")
    assert honba.scores() == {"Ann": 25000, "Ben": 26000, "Cho": 25000, "Dai": 24000}
    kinds = [c["kind"] for c in honba.json("audit", KEY)["corrections"]]
    assert kinds == ["amended", "correction amended"]


def test_an_amendment_can_be_cancelled(honba: Honba) -> None:
    honba.ok("amend", KEY, "2", "win", "Ben:4/30", "--from", "Cho", *REF, "a red five")
    honba.ok("void", KEY, "4", *REF, "the amendment was a mistake")
    assert honba.scores() == AS_RECORDED


def test_a_cancelled_correction_cannot_be_corrected(honba: Honba) -> None:
    honba.ok("amend", KEY, "2", "win", "Ben:4/30", "--from", "Cho", *REF, "a red five")
    honba.ok("void", KEY, "4", *REF, "the amendment was a mistake")
    assert "the correction at entry 4 was cancelled" in honba.refused(
        "amend", KEY, "4", "win", "Ben:2/30", "--from", "Cho", *REF, "again"
    )


def test_a_voided_entry_points_to_its_void_to_take_it_back(honba: Honba) -> None:
    honba.ok("void", KEY, "2", *REF, "wrong table")
    assert "void or amend that correction" in honba.refused("void", KEY, "2", *REF, "twice")


def test_corrections_of_corrections_survive_export_and_import(honba: Honba, tmp_path: Path) -> None:
    honba.ok("amend", KEY, "2", "win", "Ben:4/30", "--from", "Cho", *REF, "a red five")
    honba.ok("amend", KEY, "4", "win", "Ben:1/30", "--from", "Cho", *REF, "no red five")
    record = tmp_path / "t.jsonl"
    honba.ok("export", KEY, "--output", str(record))
    other = Honba(tmp_path / "other.sqlite", KEY)
    other.ok("import", str(record))
    assert other.scores() == honba.scores()
    assert other.json("log", KEY) == honba.json("log", KEY)


# Undo at the table.


def test_undo_takes_back_the_last_hand_and_its_deal_pass(honba: Honba) -> None:
    honba.ok("undo", KEY)
    assert honba.scores() == {"Ann": 25000, "Ben": 28900, "Cho": 21100, "Dai": 25000}
    assert honba.table() == ("Ben", 0)
    (correction,) = honba.json("audit", KEY)["corrections"]
    assert (correction["kind"], correction["target"], correction["by"]) == ("voided", 3, "the recorder")


def test_undo_twice_takes_back_two_hands(honba: Honba) -> None:
    honba.ok("undo", KEY)
    honba.ok("undo", KEY)
    assert honba.scores() == {"Ann": 25000, "Ben": 25000, "Cho": 25000, "Dai": 25000}
    assert honba.table() == ("Ann", 0)
    honba.ok("win", KEY, "Dai:1/30", "--from", "Ann")
    assert honba.scores() == {"Ann": 24000, "Ben": 25000, "Cho": 25000, "Dai": 26000}


def test_undo_cancels_the_last_correction(honba: Honba) -> None:
    honba.ok("amend", KEY, "3", "draw", "--ready", "Cho", *REF, "nobody won")
    honba.ok("undo", KEY)
    assert honba.scores() == AS_RECORDED


def test_undo_of_nothing_is_refused(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "fresh.sqlite", KEY)
    honba.ok("start", KEY, "--players", "Ann,Ben,Cho,Dai")
    assert "nothing to undo" in honba.refused("undo", KEY)


def test_a_hand_taken_back_stays_void_once_hands_were_played_after_it(honba: Honba) -> None:
    honba.ok("undo", KEY)  # the void, entry 4, takes back E2-0 (entry 3) and its deal pass
    honba.ok("win", KEY, "Ann:1/30", "--from", "Ben")
    assert "the hand at entry 3 was taken back" in honba.refused("void", KEY, "4", *REF, "the hand was right")


def test_undo_retried_with_its_key_takes_back_one_entry(honba: Honba) -> None:
    honba.ok("undo", KEY, "--key", "tablet-undo-1")
    honba.ok("undo", KEY, "--key", "tablet-undo-1")
    assert honba.table() == ("Ben", 0)


# amend as typed at the table.


def test_amend_takes_a_win_as_typed_at_the_table(honba: Honba) -> None:
    honba.ok("amend", KEY, "2", "win", "Ben:4/30", "--from", "Cho", *REF, "a red five")
    # 7,700 instead of 3,900: Ben +3,800, Cho -3,800.
    assert honba.scores() == {"Ann": 25000, "Ben": 32700, "Cho": 18300, "Dai": 24000}


def test_amend_takes_a_draw_as_typed_at_the_table(honba: Honba) -> None:
    honba.ok("amend", KEY, "3", "draw", "--ready", "Cho", *REF, "nobody won")
    # Instead of Dai's 1,000 to Cho: 1,000 from each of Ann, Ben and Dai to Cho.
    assert honba.scores() == {"Ann": 24000, "Ben": 27900, "Cho": 24100, "Dai": 24000}


def test_amend_takes_an_abort_as_typed_at_the_table(honba: Honba) -> None:
    honba.ok("amend", KEY, "3", "abort", "nine_terminals", *REF, "it was aborted")
    assert honba.scores() == {"Ann": 25000, "Ben": 28900, "Cho": 21100, "Dai": 25000}


def test_amend_takes_a_penalty_as_typed_at_the_table(honba: Honba) -> None:
    honba.ok("penalty", KEY, "Dai", "--amount", "3000", "--share", "to_others")  # entry 4
    honba.ok("amend", KEY, "4", "penalty", "Ann", "--amount", "3000", "--share", "to_others", *REF, "it was Ann")
    assert honba.scores() == {"Ann": 22000, "Ben": 29900, "Cho": 23100, "Dai": 25000}


def test_amend_refuses_a_replacement_it_cannot_read(honba: Honba) -> None:
    assert "cannot read the replacement" in honba.refused("amend", KEY, "2", "tsumo", "Ben:1/30", *REF, "?")


# Client keys compare the whole command.


def test_an_amend_retried_with_another_referee_or_reason_is_refused(honba: Honba) -> None:
    honba.ok("amend", KEY, "2", "win", "Ben:4/30", "--from", "Cho", *REF, "a red five", "--key", "k1")
    honba.ok("amend", KEY, "2", "win", "Ben:4/30", "--from", "Cho", *REF, "a red five", "--key", "k1")  # a retry
    line = honba.refused("amend", KEY, "2", "win", "Ben:4/30", "--from", "Cho", *REF, "another reason", "--key", "k1")
    assert "already used for a different command" in line
    assert len(honba.json("audit", KEY)["corrections"]) == 1


def test_a_start_with_another_key_on_an_existing_match_is_refused(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "start.sqlite", KEY)
    honba.ok("start", KEY, "--players", "Ann,Ben,Cho,Dai", "--key", "tablet-1")
    honba.ok("start", KEY, "--players", "Ann,Ben,Cho,Dai", "--key", "tablet-1")  # a retry
    assert "already stored" in honba.refused("start", KEY, "--players", "Ann,Ben,Cho,Dai", "--key", "tablet-2")


def test_undo_of_the_hand_that_ended_the_match_takes_back_the_end_too(tmp_path: Path) -> None:
    # East-only: three draws nobody is ready for, then the dealer Dai tops East 4 with a mangan
    # (4,000 from each plus 3 counters x 100 from each) and stops the match on top.
    honba = Honba(tmp_path / "east.sqlite", KEY)
    honba.ok("start", KEY, "--players", "Ann,Ben,Cho,Dai", "--rules", "tenhou-east")
    for _ in range(3):
        honba.ok("draw", KEY)
    honba.ok("win", KEY, "Dai:mangan")
    assert honba.json("status", KEY)["end_reason"] == "dealer_stop"
    honba.ok("undo", KEY)
    status = honba.json("status", KEY)
    assert (status["finished"], status["hand"]) == (False, "E4-3")
    # The hand is played again: Dai's 1 han 30 fu self-drawn is 500 from each, plus 300 from each.
    honba.ok("win", KEY, "Dai:1/30")
    assert honba.scores() == {"Ann": 24200, "Ben": 24200, "Cho": 24200, "Dai": 27400}
