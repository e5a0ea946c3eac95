"""After ``win``, ``draw``, ``abort`` and ``penalty`` the command prints the payments just recorded.

Issue 10: "After win/draw/abort/penalty the command prints the payments just recorded
(who paid whom, how much, why), then the table state."

Numbers from the published riichi rules (Tenhou, 25,000 start): 3 han 30 fu on a
discard is 3,900 from a non-dealer's hand; each counter adds 300; the riichi stick is
1,000; at a draw the not-ready players share 3,000 to the ready ones (with two ready and
two not ready: 750 from each not-ready player to each ready one).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from honba_cli import invoke


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "honba.sqlite"
    invoke(["--db", str(path), "start", "t", "--players", "Ann,Ben,Cho,Dai"])
    return path


def lines(db: Path, *args: str) -> list[str]:
    result = invoke(["--db", str(db), *args])
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def test_a_draw_prints_the_riichi_stick_and_the_noten_payments_before_the_table(db: Path) -> None:
    out = lines(db, "draw", "t", "--ready", "Ann,Cho", "--riichi", "Cho")
    assert out[:6] == [
        "Recorded at E1-0: exhaustive draw, ready: Ann, Cho; riichi: Cho",
        "  Cho -> table 1000 (riichi deposit placed)",
        "  Ben -> Ann 750 (noten payment)",
        "  Ben -> Cho 750 (noten payment)",
        "  Dai -> Ann 750 (noten payment)",
        "  Dai -> Cho 750 (noten payment)",
    ]
    assert out[6].startswith("Next hand: East 1, 1 counter")


def test_a_win_prints_the_hand_the_counters_and_the_deposits_taken(db: Path) -> None:
    lines(db, "draw", "t", "--ready", "Ann,Cho", "--riichi", "Cho")
    out = lines(db, "win", "t", "Ben:3/30", "--from", "Ann")
    assert out[:4] == [
        "Recorded at E1-1: Ben ron on Ann: 3 han 30 fu",
        "  Ann -> Ben 3900 (hand value: 3 han 30 fu)",
        "  Ann -> Ben 300 (counters: 1 counter)",
        "  table -> Ben 1000 (deposits taken)",
    ]


def test_a_penalty_prints_who_paid_whom(db: Path) -> None:
    out = lines(db, "penalty", "t", "Dai", "--amount", "3000", "--share", "to_others")
    assert out[:4] == [
        "Recorded at E1-0: penalty (chombo) on Dai: 3000",
        "  Dai -> Ann 1000 (penalty: chombo)",
        "  Dai -> Ben 1000 (penalty: chombo)",
        "  Dai -> Cho 1000 (penalty: chombo)",
    ]


def test_an_abort_prints_only_the_riichi_sticks_placed(db: Path) -> None:
    out = lines(db, "abort", "t", "four_winds", "--riichi", "Ben")
    assert out[:2] == [
        "Recorded at E1-0: abortive draw: four winds; riichi: Ben",
        "  Ben -> table 1000 (riichi deposit placed)",
    ]
