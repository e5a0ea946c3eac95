"""Every correction says what it did: the entry it touched (its number, what it was), as it was and as
it is now, and the scores after (issue 22, "Seen" 5: "`honba void KEY 12` prints 'Voided entry 12'
without naming the entry ...; `amend` and `void` never print the scores after").

One function makes the data (``replay.service.recording.changes.change_at``); the command line prints it
(these tests), the referee's desk and the JSON API show it (tests/e2e/test_parity.py).

The match is ``honba_cli.two_wins``: entry 2 Ben ron on Cho 3/30 (E1-0: Cho pays 3,900), entry 3 Cho
ron on Dai 1/30 (E2-0: Dai pays 1,000); scores Ann 25,000, Ben 28,900, Cho 22,100, Dai 24,000.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from honba_cli import Honba, two_wins

from replay.service.recording.changes import change_headline
from replay.service.recording.entry import CorrectionRequest, apply_correction
from replay.store.application import HonbaApp

KEY = "club-2026-11-21-t1"
BY = ("--by", "Eve (referee)", "--reason", "checked the sheet")


@pytest.fixture
def honba(tmp_path: Path) -> Honba:
    return two_wins(tmp_path / "honba.sqlite", KEY)


def test_void_names_the_entry_it_voided_what_it_was_and_the_scores_after(honba: Honba) -> None:
    said = honba.ok("void", KEY, "3", *BY)
    assert "Entry 3 voided by entry 4" in said
    assert "Before: Cho ron on Dai: 1 han 30 fu" in said and "After:  void" in said
    assert "was E2-0: Cho ron on Dai: 1 han 30 fu" in said and "was Dai pays Cho 1,000" in said
    assert "Scores after: Ann 25,000, Ben 28,900, Cho 21,100 (-1,000), Dai 25,000 (+1,000)" in said


def test_amend_names_the_entry_the_field_and_every_score_after(honba: Honba) -> None:
    said = honba.ok("amend", KEY, "2", "--set", "value=4/30", *BY)
    assert "Entry 2 amended by entry 4" in said
    assert "Before: Ben ron on Cho: 3 han 30 fu" in said and "After:  Ben ron on Cho: 4 han 30 fu" in said
    assert "value: 3/30 -> 4/30" in said
    # 4 han 30 fu off a discard, non-dealer: 7,700 (the score table), 3,800 more than 3,900.
    assert "Scores after: Ann 25,000, Ben 32,700 (+3,800), Cho 18,300 (-3,800), Dai 24,000" in said


def test_undo_names_the_entry_it_took_back(honba: Honba) -> None:
    said = honba.ok("undo", KEY)
    assert "Entry 3 taken back by entry 4" in said and "Before: Cho ron on Dai: 1 han 30 fu" in said
    assert "Scores after: Ann 25,000, Ben 28,900, Cho 21,100 (-1,000), Dai 25,000 (+1,000)" in said


def test_a_referee_s_penalty_names_its_entry_and_the_scores_after(honba: Honba) -> None:
    said = honba.ok("penalty", KEY, "Dai", "--amount", "1000", "--share", "off_table", *BY)
    assert "Penalty added as entry 4" in said and "After:  penalty (chombo) on Dai: 1000" in said
    assert "Scores after: Ann 25,000, Ben 28,900, Cho 22,100, Dai 23,000 (-1,000)" in said


def test_a_correction_of_a_correction_names_both_numbers(honba: Honba) -> None:
    honba.ok("void", KEY, "3", *BY)  # entry 4
    said = honba.ok("void", KEY, "4", "--by", "Eve (referee)", "--reason", "the void was a mistake")
    assert "Entry 4 (a correction of entry 3) cancelled by entry 5" in said
    assert "Before: void" in said and "After:  Cho ron on Dai: 1 han 30 fu" in said


def test_an_early_end_names_its_entry_and_the_final_scores(honba: Honba) -> None:
    said = honba.ok("end", KEY, "--reason", "time limit")
    assert "The match ended as entry 4 (match" in said and "After:  match ended (time limit)" in said
    assert "Final scores: Ann 25,000, Ben 28,900, Cho 22,100, Dai 24,000" in said


def test_the_service_returns_what_a_correction_did_for_every_front_end(tmp_path: Path) -> None:
    two_wins(tmp_path / "s.sqlite", KEY)
    store = HonbaApp.open(str(tmp_path / "s.sqlite"))
    try:
        done = apply_correction(
            store, KEY, CorrectionRequest("void", 2, by="Eve", reason="wrong table"), client_key=None
        )
    finally:
        store.close()
    change = done.change
    assert change is not None
    assert (change.action, change.entry, change.correction) == ("void", 2, 4)
    # (words, ``domain.said``: their English the sentences the command line prints)
    assert (str(change.before), str(change.after)) == ("Ben ron on Cho: 3 han 30 fu", "void")
    assert change.moved == {"Ben": -3900, "Cho": 3900}
    assert change_headline(change) == "entry 2 voided by entry 4"
