"""Amendments, never edits: a referee corrects a match with new events; the original stays.

Issue 5: "A referee can amend an earlier hand (replace its result), void it, add or
cancel a penalty, at any time, also after the match ended. Each amendment is a new
event with who made it, when and why; the original stays in the log. Projections,
scores and standings use the amended history. Where an amendment changes a result
that decided a later deal pass, the hands that were actually played stay as played,
and the audit shows the inconsistency plainly."

Numbers are worked by hand from the published riichi rules (Tenhou's game, 25,000
start, 30,000 return, uma 20/10, the 20,000 oka to the top): base points = fu x
2^(2 + han); a non-dealer's ron is 4 x base, a dealer's 6 x base, rounded up to 100.
So 3 han 30 fu = 30 x 32 = 960 -> 3,840 -> 3,900; 2 han 30 fu = 480 -> 1,920 -> 2,000
(a dealer's: 2,880 -> 2,900); 1 han 30 fu = 240 -> 960 -> 1,000. Final points: the
score rounded to the thousand, less 30, plus uma; the top takes what makes the sum zero.

The match of these tests is ``honba_cli.two_wins``; entries are named by the numbers
``honba log`` shows (their lines in the exported record file):
    1 start (Ann deals first)   2 E1-0 Ben ron on Cho 3/30   3 E2-0 Cho ron on Dai 1/30
Scores as recorded: Ann 25,000, Ben 28,900, Cho 22,100, Dai 24,000.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from conftest import TENHOU, hv, ron, won
from honba_cli import Honba, two_wins

from domain.values import Penalty
from replay.input.entry import FieldError, entry_of
from replay.service.recording import recording
from replay.service.recording.entry import CorrectionRequest, apply_correction
from replay.store.application import HonbaApp

KEY = "club-2026-11-21-t1"

AMEND_TO_2_30 = json.dumps({"type": "win", "wins": [{"winner": "Ben", "from": "Cho", "han": 2, "fu": 30}]})
ANN_WON_IT = json.dumps({"type": "win", "wins": [{"winner": "Ann", "from": "Cho", "han": 2, "fu": 30}]})


@pytest.fixture
def honba(tmp_path: Path) -> Honba:
    """The match of the module docstring, recorded through the command line."""
    return two_wins(tmp_path / "honba.sqlite", KEY)


def amend(honba: Honba, entry: int, line: str, *extra: str) -> str:
    return honba.ok("amend", KEY, str(entry), "--result", line, "--by", "Referee Ito", "--reason", *extra)


def test_an_amendment_is_a_new_event_and_the_original_stays_in_the_log(honba: Honba) -> None:
    before = honba.events()
    amend(honba, 2, AMEND_TO_2_30, "miscounted: no dora")
    after = honba.events()
    assert after[: len(before)] == before  # every recorded event is still there, unchanged
    assert len(after) == len(before) + 1
    assert b'"han":3' in dict(after)[2]


def test_the_amendment_records_who_made_it_when_and_why(honba: Honba) -> None:
    amend(honba, 2, AMEND_TO_2_30, "miscounted: no dora")
    (correction,) = honba.json("audit", KEY)["corrections"]
    assert correction["kind"] == "amended"
    assert correction["target"] == 2
    assert correction["original"] == "Ben ron on Cho: 3 han 30 fu"
    assert correction["replacement"] == "Ben ron on Cho: 2 han 30 fu"
    assert (correction["by"], correction["reason"]) == ("Referee Ito", "miscounted: no dora")
    assert datetime.fromisoformat(correction["at"]).tzinfo is not None


def test_amending_3_han_30_fu_to_2_han_30_fu_moves_both_players_by_1900(honba: Honba) -> None:
    # 3,900 was paid; 2,000 was owed: Ben gives back 1,900 and Cho gets it.
    amend(honba, 2, AMEND_TO_2_30, "miscounted")
    assert honba.scores() == {"Ann": 25000, "Ben": 28900 - 1900, "Cho": 22100 + 1900, "Dai": 24000}


def test_the_log_shows_the_amended_hand_at_its_original_entry(honba: Honba) -> None:
    amend(honba, 2, AMEND_TO_2_30, "miscounted")
    first, second = honba.json("log", KEY)["hands"]
    assert first["entry"] == 2
    assert first["result"] == "Ben ron on Cho: 2 han 30 fu"
    assert first["changes"] == {"Ann": 0, "Ben": 2000, "Cho": -2000, "Dai": 0}
    assert second["scores_after"] == {"Ann": 25000, "Ben": 27000, "Cho": 24000, "Dai": 24000}


def test_the_latest_amendment_of_an_entry_is_the_one_that_counts(honba: Honba) -> None:
    amend(honba, 2, AMEND_TO_2_30, "miscounted")
    one_han = json.dumps({"type": "win", "wins": [{"winner": "Ben", "from": "Cho", "han": 1, "fu": 30}]})
    amend(honba, 2, one_han, "miscounted again")
    # Ben: 25,000 + 1,000; Cho: 25,000 - 1,000 to Ben + 1,000 from Dai.
    assert honba.scores() == {"Ann": 25000, "Ben": 26000, "Cho": 25000, "Dai": 24000}
    assert [c["reason"] for c in honba.json("audit", KEY)["corrections"]] == ["miscounted", "miscounted again"]


def test_voiding_a_hand_takes_out_its_payments_but_not_its_events(honba: Honba) -> None:
    before = len(honba.events())
    honba.ok("void", KEY, "3", "--by", "Referee Ito", "--reason", "played at the wrong table")
    assert len(honba.events()) == before + 1
    # Dai's 1,000 to Cho is gone.
    assert honba.scores() == {"Ann": 25000, "Ben": 28900, "Cho": 21100, "Dai": 25000}
    assert [h["entry"] for h in honba.json("log", KEY)["hands"]] == [2]
    (correction,) = honba.json("audit", KEY)["corrections"]
    assert (correction["kind"], correction["target"], correction["replacement"]) == ("voided", 3, None)


def test_a_voided_hand_that_passed_the_deal_leaves_the_deal_as_played_and_the_audit_says_so(honba: Honba) -> None:
    # E1-0 is voided after E2-0 was played on the table it left: the deal pass stays.
    honba.ok("void", KEY, "2", "--by", "Referee Ito", "--reason", "played at the wrong table")
    status = honba.json("status", KEY)
    assert (status["round_wind"], status["hand_number"], status["dealer"]) == ("East", 3, "Cho")
    findings = honba.json("audit", KEY)["findings"]
    assert [(f["kind"], f["hand"]) for f in findings] == [("inconsistency", "E1-0")]


def test_voiding_the_last_hand_takes_it_back_with_its_deal_pass(honba: Honba) -> None:
    # E2-0 is the last hand: nothing was played on the table it left, so the deal goes back to Ben.
    honba.ok("void", KEY, "3", "--by", "Referee Ito", "--reason", "played at the wrong table")
    status = honba.json("status", KEY)
    assert (status["round_wind"], status["hand_number"], status["dealer"]) == ("East", 2, "Ben")
    assert honba.json("audit", KEY)["findings"] == []


def test_a_changed_winner_that_changes_the_deal_pass_is_shown_as_an_inconsistency(honba: Honba) -> None:
    # As played Ben won and the deal passed to him; the referee finds it was Ann, the dealer,
    # whose win keeps the deal. The hands played after stay as they were played.
    amend(honba, 2, ANN_WON_IT, "Ann declared first")
    audit = honba.json("audit", KEY)
    (finding,) = audit["findings"]
    assert (finding["kind"], finding["hand"]) == ("inconsistency", "E1-0")
    assert "stay" in finding["text"] and "as played" in finding["text"]

    first, second = audit["ledger"]
    assert first["changes"] == {"Ann": 2900, "Ben": 0, "Cho": -2900, "Dai": 0}  # a dealer's 2 han 30 fu
    assert first["corrected"] is True
    assert (second["entry"], second["dealer"], second["hand"][:2]) == (3, "Ben", "E2")
    assert second["result"] == "Cho ron on Dai: 1 han 30 fu"
    status = honba.json("status", KEY)
    assert (status["round_wind"], status["hand_number"], status["dealer"]) == ("East", 3, "Cho")


def test_audit_shows_the_inconsistency_in_words(honba: Honba) -> None:
    amend(honba, 2, ANN_WON_IT, "Ann declared first")
    text = honba.ok("audit", KEY)
    assert "inconsistency: E1-0" in text
    assert "Ann declared first" in text


def end_early(honba: Honba) -> None:
    honba.ok("end", KEY, "--reason", "time limit")
    # Final points of 25,000 / 28,900 / 22,100 / 24,000: Ann 2nd: -5 + 10 = +5; Dai 3rd: -6 - 10 = -16;
    # Cho 4th: 22 - 30 - 20 = -28; Ben on top takes the rest, +39 (29 - 30 + 20 + 20 oka).
    assert honba.json("status", KEY)["final_points"] == {"Ann": 5.0, "Ben": 39.0, "Cho": -28.0, "Dai": -16.0}


def add_penalty(honba: Honba) -> str:
    return honba.ok(
        "penalty", KEY, "Dai", "--amount", "3000", "--share", "to_others",
        "--by", "Referee Ito", "--reason", "chombo seen on the video",
    )  # fmt: skip


def test_a_penalty_added_after_the_match_ended_counts_toward_the_final_scores(honba: Honba) -> None:
    end_early(honba)
    add_penalty(honba)
    # Dai pays 3,000 shared by the other three, 1,000 each.
    status = honba.json("status", KEY)
    assert status["finished"] is True
    assert status["scores"] == {"Ann": 26000, "Ben": 29900, "Cho": 23100, "Dai": 21000}
    # Ann 2nd: 26 - 30 + 10 = +6; Cho 3rd: 23 - 30 - 10 = -17; Dai 4th: 21 - 30 - 20 = -29; Ben +40.
    assert status["final_points"] == {"Ann": 6.0, "Ben": 40.0, "Cho": -17.0, "Dai": -29.0}
    (correction,) = honba.json("audit", KEY)["corrections"]
    assert (correction["kind"], correction["target"], correction["by"]) == ("penalty added", None, "Referee Ito")


def test_after_the_end_a_penalty_without_a_referee_is_refused(honba: Honba) -> None:
    end_early(honba)
    message = honba.refused("penalty", KEY, "Dai", "--amount", "3000", "--share", "to_others")
    assert "has ended" in message


def test_a_cancelled_penalty_no_longer_counts(honba: Honba) -> None:
    end_early(honba)
    add_penalty(honba)  # entry 5: after the end, entry 4
    honba.ok("void", KEY, "5", "--by", "Referee Ito", "--reason", "it was not a chombo after all")
    status = honba.json("status", KEY)
    assert status["scores"] == {"Ann": 25000, "Ben": 28900, "Cho": 22100, "Dai": 24000}
    assert status["final_points"] == {"Ann": 5.0, "Ben": 39.0, "Cho": -28.0, "Dai": -16.0}
    kinds = [c["kind"] for c in honba.json("audit", KEY)["corrections"]]
    assert kinds == ["penalty added", "penalty cancelled"]


def test_a_penalty_recorded_in_play_can_be_cancelled(honba: Honba) -> None:
    honba.ok("penalty", KEY, "Ann", "--amount", "3000", "--share", "to_others")  # entry 4
    assert honba.scores()["Ann"] == 22000
    honba.ok("void", KEY, "4", "--by", "Referee Ito", "--reason", "the wall was broken, not a chombo")
    assert honba.scores() == {"Ann": 25000, "Ben": 28900, "Cho": 22100, "Dai": 24000}
    assert [c["kind"] for c in honba.json("audit", KEY)["corrections"]] == ["penalty cancelled"]


@pytest.mark.parametrize(
    "missing",
    [("--reason", "miscounted"), ("--by", "Referee Ito")],
    ids=["without-by", "without-reason"],
)
def test_a_correction_needs_by_and_reason(honba: Honba, missing: tuple[str, str]) -> None:
    before = honba.events()
    result = honba("amend", KEY, "2", "--result", AMEND_TO_2_30, *missing)
    assert result.exit_code == 2
    result = honba("void", KEY, "2", *missing)
    assert result.exit_code == 2
    assert honba.events() == before


def test_a_correction_with_an_empty_by_or_reason_is_refused(honba: Honba) -> None:
    before = honba.events()
    message = honba.refused("void", KEY, "2", "--by", " ", "--reason", "miscounted")
    assert "say who makes the correction" in message
    honba.refused("amend", KEY, "2", "--result", AMEND_TO_2_30, "--by", "Referee Ito", "--reason", "")
    assert honba.events() == before


def test_a_correction_needs_by_and_reason_through_the_application(tmp_path: Path) -> None:
    store = HonbaApp.open(str(tmp_path / "app.sqlite"))
    recording.start_match(store, KEY, ["Ann", "Ben", "Cho", "Dai"], TENHOU)
    recording.record(store, KEY, won(ron(1, 2, hv(3, 30))))
    with pytest.raises(FieldError, match="who") as no_one:
        apply_correction(store, KEY, CorrectionRequest("void", 2, by="", reason="miscounted"), client_key=None)
    assert no_one.value.field == "by"
    chombo = entry_of(Penalty(3, 3000, "chombo", "to_others"), ["Ann", "Ben", "Cho", "Dai"])
    with pytest.raises(FieldError, match="why") as no_reason:
        penalty = CorrectionRequest("penalty", entry=chombo, by="Referee Ito", reason="")
        apply_correction(store, KEY, penalty, client_key=None)
    assert no_reason.value.field == "reason"
    assert store.get_match(KEY).correction_log == []


@pytest.mark.parametrize("command", ["amend", "void"])
def test_a_number_that_names_a_deal_pass_is_refused(honba: Honba, command: str) -> None:
    # The deal pass after E2-0 stands in the match's log after entry 3, but deal passes are
    # decided by the rules: they have no line in the record file, so no number; 4 names nothing.
    before = honba.events()
    extra = ["--result", AMEND_TO_2_30] if command == "amend" else []
    result = honba(command, KEY, "4", *extra, "--by", "Referee Ito", "--reason", "x")
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    message = result.stderr.strip()
    assert f"there is no entry 4 in match {KEY!r}" in message
    assert "numbered 2 to 3" in message and "deal passes" in message
    assert honba.events() == before


@pytest.mark.parametrize("entry", ["1", "99"])
def test_a_number_that_names_no_entry_is_refused(honba: Honba, entry: str) -> None:
    before = honba.events()
    message = honba.refused("void", KEY, entry, "--by", "Referee Ito", "--reason", "x")
    assert f"there is no entry {entry} in match {KEY!r}" in message
    assert honba.events() == before


@pytest.mark.parametrize("entry", ["0", "²", "9" * 5000])
def test_an_entry_number_out_of_range_is_a_usage_mistake(honba: Honba, entry: str) -> None:
    # Entry numbers start at 1 (domain.bounds.ENTRY) and are read by the one number reader.
    before = honba.events()
    result = honba("void", KEY, entry, "--by", "Referee Ito", "--reason", "x")
    assert result.exit_code == 2, result.output
    assert "Invalid value for 'entry'" in " ".join(result.output.replace("│", " ").split())
    assert honba.events() == before


def test_the_end_of_a_match_is_not_amended_but_voided_to_reopen_it(honba: Honba) -> None:
    honba.ok("end", KEY, "--reason", "time limit")  # entry 4
    before = honba.events()
    message = honba.refused("amend", KEY, "4", "--result", AMEND_TO_2_30, "--by", "Referee Ito", "--reason", "x")
    assert "the end at entry 4 is not amended: void it to reopen the match" in message
    assert honba.events() == before
    # (the void itself: tests/e2e/test_reopen.py)


def test_a_voided_entry_cannot_be_voided_again(honba: Honba) -> None:
    honba.ok("void", KEY, "3", "--by", "Referee Ito", "--reason", "wrong table")  # entry 4
    message = honba.refused("void", KEY, "3", "--by", "Referee Ito", "--reason", "wrong table, again")
    assert "the result or penalty at entry 3 is void already (by the correction at entry 4" in message


def test_an_amendment_the_rules_refuse_is_refused(honba: Honba) -> None:
    own_discard = json.dumps({"type": "win", "wins": [{"winner": "Ben", "from": "Ben", "han": 2, "fu": 30}]})
    before = honba.events()
    message = honba.refused("amend", KEY, "2", "--result", own_discard, "--by", "Referee Ito", "--reason", "x")
    assert "own discard" in message
    assert honba.events() == before


def test_a_hand_result_is_amended_by_a_hand_result_not_a_penalty(honba: Honba) -> None:
    penalty = json.dumps({"type": "penalty", "player": "Ben", "amount": 3000, "share": "to_others"})
    message = honba.refused("amend", KEY, "2", "--result", penalty, "--by", "Referee Ito", "--reason", "x")
    assert "amended by a hand result" in message


def test_record_files_round_trip_with_their_corrections(honba: Honba, tmp_path: Path) -> None:
    amend(honba, 2, AMEND_TO_2_30, "miscounted")
    honba.ok("void", KEY, "3", "--by", "Referee Ito", "--reason", "wrong table")
    honba.ok("end", KEY, "--reason", "time limit")
    add_penalty(honba)
    exported = honba.ok("export", KEY)
    assert exported.count('"type": "correction"') == 3

    path = tmp_path / "with-corrections.jsonl"
    path.write_text(exported, encoding="utf-8")
    elsewhere = Honba(tmp_path / "elsewhere.sqlite", KEY)
    elsewhere.ok("import", str(path))

    assert elsewhere.json("status", KEY) == honba.json("status", KEY)
    assert elsewhere.json("log", KEY) == honba.json("log", KEY)

    def corrections(cli: Honba) -> list[tuple[Any, ...]]:
        return [
            (c["kind"], c["original"], c["replacement"], c["by"], c["reason"])
            for c in cli.json("audit", KEY)["corrections"]
        ]

    assert corrections(elsewhere) == corrections(honba)
    assert elsewhere.ok("export", KEY) == exported
    # Ben's 2,000 from Cho stands; Cho's 1,000 from Dai is void; Dai's 3,000 penalty is shared.
    assert elsewhere.scores() == {"Ann": 26000, "Ben": 28000, "Cho": 24000, "Dai": 22000}
