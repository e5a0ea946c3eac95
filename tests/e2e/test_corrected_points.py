"""Where points go when history is corrected (docs/audit.md, "Points after a correction").

Issue 10: "Voiding a win that collected riichi deposits makes the deposits vanish";
"The end of the match is not re-judged after corrections."

The rule: deposits taken by a voided or amended win stay on the table and follow the
corrected history (the next winner takes them, or they are left over at the end under
the rules); the end of the match, its final scores and points are judged again on the
corrected history, and where that differs from what was played the audit says so.

Numbers from the published riichi rules (seed 003 and the Tenhou table, 25,000 start):
a riichi deposit is 1,000; an exhaustive draw with two ready and two not ready moves
3,000 (1,500 from each not-ready player, 1,500 to each ready one); 1 han 30 fu on a
discard is 1,000 from a non-dealer's hand; each counter adds 300 to a ron.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import TENHOU, hv, ron, tsumo, won
from honba_cli import Honba

from domain.match import Match
from domain.rules import load_preset
from domain.values import ExhaustiveDraw, HandValue
from replay.service.audit.audit import build_report
from replay.store.findings import MatchCheck

EAST_ONLY = load_preset("tenhou-east")


@pytest.fixture
def voided(tmp_path: Path) -> Honba:
    """The issue's example: C's riichi stick goes to the table at a draw, B's win takes it, the win is voided."""
    honba = Honba(tmp_path / "honba.sqlite")
    honba.ok("start", "v1", "--players", "A,B,C,D")
    honba.ok("draw", "v1", "--ready", "A,C", "--riichi", "C")
    honba.ok("win", "v1", "B:1/30", "--from", "A")
    honba.ok("void", "v1", "3", "--by", "Ref", "--reason", "wrong")
    return honba


def test_deposits_taken_by_a_voided_win_stay_on_the_table(voided: Honba) -> None:
    status = voided.json("status", "v1")
    assert status["deposits"] == 1000
    # After the draw: A and C +1,500 each, B and D -1,500 each, C's 1,000 on the table.
    assert status["scores"] == {"A": 26500, "B": 23500, "C": 25500, "D": 23500}
    assert sum(status["scores"].values()) + status["deposits"] == 100_000


def test_the_audit_of_a_voided_win_with_deposits_passes(voided: Honba) -> None:
    result = voided("audit", "v1", "--json")
    assert result.exit_code == 0, result.output
    findings = json.loads(result.stdout)["findings"]
    assert not [f for f in findings if f["kind"] == "invariant"]


def test_the_next_winner_of_the_corrected_history_takes_the_deposits_of_a_voided_win(voided: Honba) -> None:
    # The voided win was the last hand, so it is taken back with its deal pass: East 1 with the
    # draw's 1 counter again. D's 1 han 30 fu on A's discard: 1,000, 300 for the counter, the 1,000 stick.
    assert voided.json("status", "v1")["hand"] == "E1-1"
    voided.ok("win", "v1", "D:1/30", "--from", "A")
    status = voided.json("status", "v1")
    assert status["deposits"] == 0
    assert status["scores"] == {"A": 26500 - 1300, "B": 23500, "C": 25500, "D": 23500 + 2300}


def test_deposits_left_by_a_voided_win_at_the_end_go_to_the_top_player() -> None:
    # Tenhou: "leftover deposits to the top player" at the end.
    match = Match.start("left-over", ["A", "B", "C", "D"], TENHOU)
    match.record(ExhaustiveDraw(ready=(0, 2), riichi=(2,)))
    match.record(won(ron(1, 0, hv(1, 30))))
    match.end("agreed")
    match.void(3, by="Ref", reason="wrong")
    assert match.state.deposits == 0
    # A tops with 26,500 and takes the 1,000 left on the table.
    assert match.state.scores == (27500, 23500, 25500, 23500)
    assert sum(match.state.scores) == 100_000


def test_amending_a_win_that_took_deposits_keeps_them_with_the_replacement_winner() -> None:
    match = Match.start("amended", ["A", "B", "C", "D"], TENHOU)
    match.record(ExhaustiveDraw(ready=(0, 2), riichi=(2,)))
    match.record(won(ron(1, 0, hv(1, 30))))
    # The winner was really D, on the same discard: D takes the hand, the counter and the stick.
    match.amend(3, won(ron(3, 0, hv(1, 30))), by="Ref", reason="the winner was D")
    assert match.state.deposits == 0
    assert match.state.scores == (26500 - 1300, 23500, 25500, 23500 + 2300)


# Positions: 1 start, 2/4/6 the draws, 3/5/7 the deal passes, 8 the dealer's win, 9 the end.
LAST_HAND = 8


def _dealer_stop_match() -> Match:
    """East-only: three draws nobody is ready for, then the dealer D tops at East 4 with a mangan."""
    match = Match.start("dealer-stop", ["A", "B", "C", "D"], EAST_ONLY)
    for _ in range(3):
        match.record(ExhaustiveDraw())
    # Dealer mangan self-drawn: 4,000 from each, plus 3 counters x 100 from each = 12,900.
    match.record(won(tsumo(3, HandValue(limit="mangan"))))
    assert match.state.finished and match.state.end_reason == "dealer_stop"
    assert match.state.scores[3] == 25000 + 12900
    return match


def test_an_amendment_that_leaves_the_dealer_below_the_target_re_judges_the_dealer_stop() -> None:
    match = _dealer_stop_match()
    # Amended to 1 han 30 fu: a dealer's 500 from each, plus 300 from each: D ends at 27,400, below 30,000.
    match.amend(LAST_HAND, won(tsumo(3, hv(1, 30))), by="Ref", reason="no mangan")
    assert match.state.scores[3] == 25000 + 2400
    (judgement,) = match.end_judgements()
    assert judgement.as_played == "dealer_stop"
    assert judgement.corrected is None
    report = build_report(match, MatchCheck("dealer-stop", 0, "", ()))
    ends = [f for f in report.findings if f.kind == "end"]
    assert len(ends) == 1 and "would have gone on" in ends[0].text


def test_a_what_if_says_where_the_other_rules_would_not_have_stopped_the_dealer() -> None:
    match = _dealer_stop_match()
    # The same facts with the target at 40,000: D's 37,900 is not enough to stop.
    other = EAST_ONLY.with_overrides({"target_score": 40000})
    report = build_report(match, MatchCheck("dealer-stop", 0, "", ()), other_rules=other)
    assert report.what_if is not None
    assert any("would have gone on" in note.text for note in report.what_if.notes)


def test_a_correction_that_busts_a_player_says_the_match_would_have_ended_there() -> None:
    match = Match.start("bust", ["A", "B", "C", "D"], TENHOU)
    match.record(won(ron(1, 0, hv(1, 30))))
    match.record(won(ron(2, 3, hv(1, 30))))
    # The first hand was a double yakuman on A's discard: 64,000 from A's 25,000 busts A.
    match.amend(2, won(ron(1, 0, HandValue(limit="yakuman", multiple=2))), by="Ref", reason="it was a yakuman")
    (judgement,) = match.end_judgements()
    assert (judgement.hand, judgement.as_played, judgement.corrected) == ("E1-0", None, "bust")


def test_the_status_says_when_the_end_is_judged_otherwise_on_the_corrected_history(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "honba.sqlite")
    honba.ok("start", "m", "--players", "A,B,C,D", "--rules", "tenhou-east")
    for _ in range(3):
        honba.ok("draw", "m")
    honba.ok("win", "m", "D:mangan")  # entry 5: the three draws are entries 2 to 4
    honba.ok(
        "amend",
        "m",
        "5",
        "--result",
        '{"type": "win", "wins": [{"winner": "D", "han": 1, "fu": 30}]}',
        "--by",
        "Ref",
        "--reason",
        "no mangan",
    )
    assert "would have gone on" in honba.ok("status", "m")
    (rejudged,) = honba.json("status", "m")["end_rejudged"]
    assert (rejudged["hand"], rejudged["entry"], rejudged["as_played"], rejudged["corrected"]) == (
        "E4-3",
        5,  # the hand amended: the number honba log shows, not its position (8)
        "dealer_stop",
        None,
    )
