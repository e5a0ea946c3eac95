"""Amendments, never edits: a referee's corrections checked at the service, in memory, through the
one corrections path every front end calls (``replay.service.recording.entry.apply_correction``).
What the command line adds (its options, its one-line refusal with exit 2, its output, the record
file's round trip) is tests/e2e/test_corrections.py.

Numbers are worked by hand from the published riichi rules (Tenhou's game, 25,000 start, 30,000
return, uma 20/10, the 20,000 oka to the top): base points = fu x 2^(2 + han); a non-dealer's ron is
4 x base, a dealer's 6 x base, rounded up to 100. So 3 han 30 fu = 30 x 32 = 960 -> 3,840 -> 3,900;
2 han 30 fu = 480 -> 1,920 -> 2,000 (a dealer's: 2,880 -> 2,900); 1 han 30 fu = 240 -> 960 -> 1,000.
Final points: the score rounded to the thousand, less 30, plus uma; the top takes what makes the
sum zero.

The match (entries named by the numbers ``honba log`` shows):
    1 start (Ann deals first)   2 E1-0 Ben ron on Cho 3/30   3 E2-0 Cho ron on Dai 1/30
Scores as recorded: Ann 25,000, Ben 28,900, Cho 22,100, Dai 24,000.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from service_match import ServiceMatch

from domain.errors import HonbaError
from replay.input.entry import FieldError
from replay.input.fields import entry_from_fields
from replay.service.audit.audit import report_data
from replay.service.audit.checks import audit_match
from replay.service.recording.entry import CorrectionRequest, Entry, apply_correction
from replay.service.recording.matches import read_log

KEY = "club-2026-11-21-t1"
AS_RECORDED = {"Ann": 25000, "Ben": 28900, "Cho": 22100, "Dai": 24000}

New = Callable[..., ServiceMatch]


def ben_won(value: str) -> Entry:
    """Ben's ron on Cho for ``value``, as the amendment gives it."""
    return entry_from_fields({"kind": "win", "winner": "Ben", "value": value, "discarder": "Cho"})


AMEND_TO_2_30 = ben_won("2/30")
ANN_WON_IT = entry_from_fields({"kind": "win", "winner": "Ann", "value": "2/30", "discarder": "Cho"})
DAI_PAYS = entry_from_fields({"kind": "penalty", "player": "Dai", "amount": "3000", "share": "to_others"})


@pytest.fixture
def match(service_match: New) -> ServiceMatch:
    """The match of the module docstring, recorded through the service."""
    played = service_match("tenhou", key=KEY)
    played.win("Ben:3/30", discarder="Cho")
    played.win("Cho:1/30", discarder="Dai")
    assert played.scores() == AS_RECORDED
    return played


def correct(match: ServiceMatch, request: CorrectionRequest) -> None:
    apply_correction(match.app, KEY, request, client_key=None)


def amend(match: ServiceMatch, entry: int, replacement: Entry, reason: str) -> None:
    correct(match, CorrectionRequest("amend", entry, entry=replacement, by="Referee Ito", reason=reason))


def void(match: ServiceMatch, entry: int, reason: str) -> None:
    correct(match, CorrectionRequest("void", entry, by="Referee Ito", reason=reason))


def refused(match: ServiceMatch, request: CorrectionRequest) -> str:
    """The one line a correction is refused with, nothing recorded."""
    before = match.version()
    with pytest.raises(HonbaError) as refusal:
        correct(match, request)
    assert match.version() == before
    text = str(refusal.value)
    assert "\n" not in text.strip(), text
    return text


def audit(match: ServiceMatch) -> dict[str, Any]:
    """The audit, as ``honba audit --json`` gives it."""
    return report_data(audit_match(match.app, KEY))


def log(match: ServiceMatch) -> dict[str, Any]:
    """The log, as ``honba log --json`` gives it."""
    return read_log(match.app, KEY).data


def test_amending_3_han_30_fu_to_2_han_30_fu_moves_both_players_by_1900(match: ServiceMatch) -> None:
    # 3,900 was paid; 2,000 was owed: Ben gives back 1,900 and Cho gets it.
    amend(match, 2, AMEND_TO_2_30, "miscounted")
    assert match.scores() == {"Ann": 25000, "Ben": 28900 - 1900, "Cho": 22100 + 1900, "Dai": 24000}


def test_the_log_shows_the_amended_hand_at_its_original_entry(match: ServiceMatch) -> None:
    amend(match, 2, AMEND_TO_2_30, "miscounted")
    first, second = log(match)["hands"]
    assert first["entry"] == 2
    assert first["result"] == "Ben ron on Cho: 2 han 30 fu"
    assert first["changes"] == {"Ann": 0, "Ben": 2000, "Cho": -2000, "Dai": 0}
    assert second["scores_after"] == {"Ann": 25000, "Ben": 27000, "Cho": 24000, "Dai": 24000}


def test_the_latest_amendment_of_an_entry_is_the_one_that_counts(match: ServiceMatch) -> None:
    amend(match, 2, AMEND_TO_2_30, "miscounted")
    amend(match, 2, ben_won("1/30"), "miscounted again")
    # Ben: 25,000 + 1,000; Cho: 25,000 - 1,000 to Ben + 1,000 from Dai.
    assert match.scores() == {"Ann": 25000, "Ben": 26000, "Cho": 25000, "Dai": 24000}
    assert [c["reason"] for c in audit(match)["corrections"]] == ["miscounted", "miscounted again"]


def test_voiding_a_hand_takes_out_its_payments_but_not_its_events(match: ServiceMatch) -> None:
    before = match.version()
    void(match, 3, "played at the wrong table")
    assert match.version() == before + 1
    # Dai's 1,000 to Cho is gone.
    assert match.scores() == {"Ann": 25000, "Ben": 28900, "Cho": 21100, "Dai": 25000}
    assert [h["entry"] for h in log(match)["hands"]] == [2]
    (correction,) = audit(match)["corrections"]
    assert (correction["kind"], correction["target"], correction["replacement"]) == ("voided", 3, None)


def test_a_voided_hand_that_passed_the_deal_leaves_the_deal_as_played_and_the_audit_says_so(
    match: ServiceMatch,
) -> None:
    # E1-0 is voided after E2-0 was played on the table it left: the deal pass stays.
    void(match, 2, "played at the wrong table")
    status = match.status()
    assert (status["round_wind"], status["hand_number"], status["dealer"]) == ("East", 3, "Cho")
    findings = audit(match)["findings"]
    assert [(f["kind"], f["hand"]) for f in findings] == [("inconsistency", "E1-0")]


def test_voiding_the_last_hand_takes_it_back_with_its_deal_pass(match: ServiceMatch) -> None:
    # E2-0 is the last hand: nothing was played on the table it left, so the deal goes back to Ben.
    void(match, 3, "played at the wrong table")
    status = match.status()
    assert (status["round_wind"], status["hand_number"], status["dealer"]) == ("East", 2, "Ben")
    assert audit(match)["findings"] == []


def test_a_changed_winner_that_changes_the_deal_pass_is_shown_as_an_inconsistency(match: ServiceMatch) -> None:
    # As played Ben won and the deal passed to him; the referee finds it was Ann, the dealer,
    # whose win keeps the deal. The hands played after stay as they were played.
    amend(match, 2, ANN_WON_IT, "Ann declared first")
    report = audit(match)
    (finding,) = report["findings"]
    assert (finding["kind"], finding["hand"]) == ("inconsistency", "E1-0")
    assert "stay" in finding["text"] and "as played" in finding["text"]

    first, second = report["ledger"]
    assert first["changes"] == {"Ann": 2900, "Ben": 0, "Cho": -2900, "Dai": 0}  # a dealer's 2 han 30 fu
    assert first["corrected"] is True
    assert (second["entry"], second["dealer"], second["hand"][:2]) == (3, "Ben", "E2")
    assert second["result"] == "Cho ron on Dai: 1 han 30 fu"
    status = match.status()
    assert (status["round_wind"], status["hand_number"], status["dealer"]) == ("East", 3, "Cho")


def end_early(match: ServiceMatch) -> None:
    correct(match, CorrectionRequest("end", reason="time limit"))
    # Final points of 25,000 / 28,900 / 22,100 / 24,000: Ann 2nd: -5 + 10 = +5; Dai 3rd: -6 - 10 = -16;
    # Cho 4th: 22 - 30 - 20 = -28; Ben on top takes the rest, +39 (29 - 30 + 20 + 20 oka).
    assert match.status()["final_points"] == {"Ann": 5.0, "Ben": 39.0, "Cho": -28.0, "Dai": -16.0}


def add_penalty(match: ServiceMatch) -> None:
    correct(match, CorrectionRequest("penalty", entry=DAI_PAYS, by="Referee Ito", reason="chombo seen on the video"))


def test_a_penalty_added_after_the_match_ended_counts_toward_the_final_scores(match: ServiceMatch) -> None:
    end_early(match)
    add_penalty(match)
    # Dai pays 3,000 shared by the other three, 1,000 each.
    status = match.status()
    assert status["finished"] is True
    assert status["scores"] == {"Ann": 26000, "Ben": 29900, "Cho": 23100, "Dai": 21000}
    # Ann 2nd: 26 - 30 + 10 = +6; Cho 3rd: 23 - 30 - 10 = -17; Dai 4th: 21 - 30 - 20 = -29; Ben +40.
    assert status["final_points"] == {"Ann": 6.0, "Ben": 40.0, "Cho": -17.0, "Dai": -29.0}
    (correction,) = audit(match)["corrections"]
    assert (correction["kind"], correction["target"], correction["by"]) == ("penalty added", None, "Referee Ito")


def test_after_the_end_a_penalty_without_a_referee_is_refused(match: ServiceMatch) -> None:
    end_early(match)
    message = match.refused_entry({"kind": "penalty", "player": "Dai", "amount": "3000", "share": "to_others"})
    assert "has ended" in message


def test_a_cancelled_penalty_no_longer_counts(match: ServiceMatch) -> None:
    end_early(match)
    add_penalty(match)  # entry 5: after the end, entry 4
    void(match, 5, "it was not a chombo after all")
    status = match.status()
    assert status["scores"] == AS_RECORDED
    assert status["final_points"] == {"Ann": 5.0, "Ben": 39.0, "Cho": -28.0, "Dai": -16.0}
    kinds = [c["kind"] for c in audit(match)["corrections"]]
    assert kinds == ["penalty added", "penalty cancelled"]


def test_a_penalty_recorded_in_play_can_be_cancelled(match: ServiceMatch) -> None:
    match.enter({"kind": "penalty", "player": "Ann", "amount": "3000", "share": "to_others"})  # entry 4
    assert match.scores()["Ann"] == 22000
    void(match, 4, "the wall was broken, not a chombo")
    assert match.scores() == AS_RECORDED
    assert [c["kind"] for c in audit(match)["corrections"]] == ["penalty cancelled"]


def test_a_correction_with_an_empty_by_or_reason_is_refused(match: ServiceMatch) -> None:
    message = refused(match, CorrectionRequest("void", 2, by=" ", reason="miscounted"))
    assert "say who makes the correction" in message
    refused(match, CorrectionRequest("amend", 2, entry=AMEND_TO_2_30, by="Referee Ito", reason=""))


def test_a_correction_needs_by_and_reason_through_the_application(match: ServiceMatch) -> None:
    with pytest.raises(FieldError, match="who") as no_one:
        correct(match, CorrectionRequest("void", 2, by="", reason="miscounted"))
    assert no_one.value.field == "by"
    chombo = entry_from_fields({"kind": "penalty", "player": "Dai", "amount": "3000", "share": "to_others"})
    with pytest.raises(FieldError, match="why") as no_reason:
        correct(match, CorrectionRequest("penalty", entry=chombo, by="Referee Ito", reason=""))
    assert no_reason.value.field == "reason"
    assert match.app.get_match(KEY).correction_log == []


@pytest.mark.parametrize("entry", [1, 99])
def test_a_number_that_names_no_entry_is_refused(match: ServiceMatch, entry: int) -> None:
    message = refused(match, CorrectionRequest("void", entry, by="Referee Ito", reason="x"))
    assert f"there is no entry {entry} in match {KEY!r}" in message


def test_the_end_of_a_match_is_not_amended_but_voided_to_reopen_it(match: ServiceMatch) -> None:
    correct(match, CorrectionRequest("end", reason="time limit"))  # entry 4
    message = refused(match, CorrectionRequest("amend", 4, entry=AMEND_TO_2_30, by="Referee Ito", reason="x"))
    assert "the end at entry 4 is not amended: void it to reopen the match" in message
    # (the void itself: tests/e2e/test_reopen.py)


def test_a_voided_entry_cannot_be_voided_again(match: ServiceMatch) -> None:
    void(match, 3, "wrong table")  # entry 4
    message = refused(match, CorrectionRequest("void", 3, by="Referee Ito", reason="wrong table, again"))
    assert "the result or penalty at entry 3 is void already (by the correction at entry 4" in message


def test_an_amendment_the_rules_refuse_is_refused(match: ServiceMatch) -> None:
    own_discard = entry_from_fields({"kind": "win", "winner": "Ben", "value": "2/30", "discarder": "Ben"})
    message = refused(match, CorrectionRequest("amend", 2, entry=own_discard, by="Referee Ito", reason="x"))
    assert "own discard" in message


def test_a_hand_result_is_amended_by_a_hand_result_not_a_penalty(match: ServiceMatch) -> None:
    penalty = entry_from_fields({"kind": "penalty", "player": "Ben", "amount": "3000", "share": "to_others"})
    message = refused(match, CorrectionRequest("amend", 2, entry=penalty, by="Referee Ito", reason="x"))
    assert "amended by a hand result" in message
