"""An ended match reopened: an early end is an entry of its own, which a correction takes back.

Issue 22, "Seen" 4: "an ended match cannot be reopened (`honba undo` after `honba end` undoes the
hand before it, and the end stays; `void` refuses the end's entry number that `honba log` shows)".
The end the players decided (agreed, a time limit) has its line in the record file and its number
in `honba log`; `honba undo` takes it back when it is the last entry, `honba void KEY N` voids it,
and `honba reopen KEY --by --reason` does the same by name. The match then goes on from the table
before the end; the end stays in the log, voided, with who and why. An end the rules decided (the
last hand, a bust, the clock's time up) follows from the last hand: taking that hand back takes it back.

The match is ``honba_cli.two_wins``: entry 2 Ben ron on Cho 3/30 (E1-0), entry 3 Cho ron on Dai
1/30 (E2-0); scores Ann 25,000, Ben 28,900, Cho 22,100, Dai 24,000; the next hand is E3-0 (Cho deals).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from conftest import hv, ron, won
from honba_cli import AS_RECORDED, Honba, two_wins

from domain.clock import TIME_UP
from domain.rules import load_preset
from replay.service.recording import clock, recording
from replay.store.application import HonbaApp

KEY = "club-2026-11-21-t1"


@pytest.fixture
def honba(tmp_path: Path) -> Honba:
    cli = two_wins(tmp_path / "honba.sqlite", KEY)
    cli.ok("end", KEY, "--reason", "time limit")  # entry 4
    assert cli.json("status", KEY)["finished"]
    return cli


def entries(honba: Honba) -> list[tuple[int, str]]:
    return [(h["entry"], h["result"]) for h in honba.json("log", KEY)["hands"]]


def test_undo_after_an_early_end_takes_back_the_end_not_the_hand_before_it(honba: Honba) -> None:
    said = honba.ok("undo", KEY)
    assert "The match reopened: its end, entry 4, voided by entry 5" in said
    status = honba.json("status", KEY)
    assert not status["finished"] and status["hand"] == "E3-0"
    assert honba.scores() == AS_RECORDED  # both hands stand
    # The match goes on: the next hand is recorded on the table before the end.
    honba.ok("win", KEY, "Ann:1/30", "--from", "Ben")
    assert honba.scores() == {**AS_RECORDED, "Ann": 26000, "Ben": 27900}


def test_void_takes_the_end_s_entry_number_that_honba_log_shows(honba: Honba) -> None:
    (end,) = [h for h in honba.json("log", KEY)["hands"] if h["kind"] == "end"]
    assert end["entry"] == 4
    said = honba.ok("void", KEY, "4", "--by", "Eve (referee)", "--reason", "the clock was wrong")
    assert "The match reopened: its end, entry 4, voided by entry 5" in said
    assert "Before: match ended (time limit)" in said and "After:  void" in said
    assert not honba.json("status", KEY)["finished"]
    (voided,) = honba.json("log", KEY)["voided"]
    assert voided["entry"] == 4
    assert (voided["correction"]["by"], voided["correction"]["reason"]) == ("Eve (referee)", "the clock was wrong")


def test_reopen_names_the_end_it_voided_and_the_scores_after(honba: Honba) -> None:
    said = honba.ok("reopen", KEY, "--by", "Eve (referee)", "--reason", "played on by agreement")
    assert "The match reopened: its end, entry 4, voided by entry 5" in said
    assert "Scores after: Ann 25,000, Ben 28,900, Cho 22,100, Dai 24,000" in said
    assert not honba.json("status", KEY)["finished"]


def test_reopen_needs_who_and_why_and_stores_nothing_without(honba: Honba) -> None:
    before = honba.events()
    honba.refused("reopen", KEY, "--by", " ", "--reason", "x")
    honba.refused("reopen", KEY, "--by", "Eve", "--reason", "")
    assert honba.events() == before


def test_a_match_that_has_not_ended_is_not_reopened(tmp_path: Path) -> None:
    cli = two_wins(tmp_path / "open.sqlite", KEY)
    assert "has not ended: there is nothing to reopen" in cli.refused("reopen", KEY, "--by", "Eve", "--reason", "x")


def test_an_end_the_rules_decided_is_taken_back_with_its_last_hand_not_reopened(tmp_path: Path) -> None:
    cli = Honba(tmp_path / "bust.sqlite", "b")
    cli.ok("start", "b", "--players", "Ann,Ben,Cho,Dai")
    # A yakuman off Dai (32,000 from 25,000): Dai is below zero, the rules end the match (bust).
    cli.ok("win", "b", "Ann:yakuman", "--from", "Dai")
    assert cli.json("status", "b")["end_reason"] == "bust"
    before = cli.events()
    message = cli.refused("reopen", "b", "--by", "Eve", "--reason", "x")
    assert "was ended by the rules (bust)" in message and "take that hand back" in message
    assert cli.events() == before
    cli.ok("undo", "b")
    status = cli.json("status", "b")
    assert not status["finished"] and status["scores"] == {"Ann": 25000, "Ben": 25000, "Cho": 25000, "Dai": 25000}


def test_an_early_end_is_not_amended(honba: Honba) -> None:
    line = json.dumps({"type": "win", "wins": [{"winner": "Ann", "from": "Ben", "han": 1, "fu": 30}]})
    message = honba.refused("amend", KEY, "4", "--result", line, "--by", "Eve", "--reason", "x")
    assert "the end at entry 4 is not amended: void it to reopen the match" in message
    message = honba.refused("amend", KEY, "4", "--set", "value=1/30", "--by", "Eve", "--reason", "x")
    assert "entry 4 is the match's end: it is not amended; void it to reopen the match" in message


def test_the_reopening_is_cancelled_while_nothing_was_recorded_since_and_stands_after(honba: Honba) -> None:
    honba.ok("reopen", KEY, "--by", "Eve", "--reason", "played on")  # entry 5
    honba.ok("void", KEY, "5", "--by", "Eve", "--reason", "they did not play on after all")  # entry 6
    assert honba.json("status", KEY)["finished"]
    honba.ok("void", KEY, "6", "--by", "Eve", "--reason", "they did play on")  # entry 7: reopened again
    honba.ok("win", KEY, "Ann:1/30", "--from", "Ben")  # entry 8
    message = honba.refused("void", KEY, "7", "--by", "Eve", "--reason", "x")
    assert "the end at entry 4 was voided (the match reopened) and hands were recorded since" in message


def test_a_reopened_match_exports_and_imports_to_the_same_match(honba: Honba, tmp_path: Path) -> None:
    honba.ok("undo", KEY)  # entry 5 voids the end, entry 4
    honba.ok("win", KEY, "Ann:1/30", "--from", "Ben")  # entry 6
    honba.ok("end", KEY, "--reason", "agreed")  # entry 7
    exported = tmp_path / "m.jsonl"
    honba.ok("export", KEY, "-o", str(exported))
    lines = [json.loads(line) for line in exported.read_text(encoding="utf-8").splitlines()]
    # One numbering: the end is line 4, the correction that voids it line 5, naming 4.
    assert (lines[4 - 1]["type"], lines[4 - 1]["reason"]) == ("end", "time limit")
    assert (lines[5 - 1]["type"], lines[5 - 1]["target"], lines[5 - 1]["replacement"]) == ("correction", 4, None)
    other = Honba(tmp_path / "other.sqlite", KEY)
    other.ok("import", str(exported))
    assert other.json("status", KEY) == honba.json("status", KEY)
    assert entries(other) == entries(honba)
    audit = json.loads(other.ok("audit", KEY, "--json"))
    assert audit["integrity"]["intact"] and not [f for f in audit["findings"] if f["kind"] == "invariant"]


# The clock's end (issue 25's ``time_up``) is the rules' (``Ruleset.hands_after_time``), not a
# person's: it follows the hand that brought it, as a bust does. WRC finishes the hand in play when
# time is up (0 hands after it): Ben's 3 han 30 fu on Ann's discard, recorded a minute after the
# deadline, ends the match (30,000 start: Ann 26,100, Ben 33,900).
T0 = datetime(2026, 11, 21, 13, 0, tzinfo=UTC)


@pytest.fixture
def on_time(tmp_path: Path) -> Honba:
    db = tmp_path / "clock.sqlite"
    app = HonbaApp.open(str(db))
    try:
        recording.start_match(app, "t", ("Ann", "Ben", "Cho", "Dai"), load_preset("wrc"))
        clock.set_time_limit(app, "t", 60, by="director")
        clock.start_clock(app, "t", at=T0, by="director")
        recording.record(app, "t", won(ron(1, 0, hv(3, 30))), at=T0 + timedelta(minutes=61))
    finally:
        app.close()
    cli = Honba(db, "t")
    status = cli.json("status", "t")
    assert status["finished"] and status["end_reason"] == TIME_UP
    assert cli.scores() == {"Ann": 26100, "Ben": 33900, "Cho": 30000, "Dai": 30000}
    return cli


def test_an_end_on_time_is_not_voided_alone(on_time: Honba) -> None:
    (end,) = [h for h in on_time.json("log", "t")["hands"] if h["kind"] == "end"]
    before = on_time.events()
    message = on_time.refused("void", "t", str(end["entry"]), "--by", "Eve", "--reason", "x")
    assert f"no hand result or penalty at entry {end['entry']}" in message
    assert "an end the rules decided follows from the last hand" in message
    message = on_time.refused("reopen", "t", "--by", "Eve", "--reason", "x")
    assert "was ended by the clock (time up" in message and "take that hand back" in message
    assert on_time.events() == before


def test_undo_takes_an_end_on_time_back_with_its_hand(on_time: Honba) -> None:
    (hand,) = [h for h in on_time.json("log", "t")["hands"] if h["kind"] == "hand"]
    said = on_time.ok("undo", "t")
    assert f"Entry {hand['entry']} taken back by entry" in said and "reopened" not in said
    status = on_time.json("status", "t")
    assert not status["finished"] and status["hand"] == "E1-0"
    assert on_time.scores() == {"Ann": 30000, "Ben": 30000, "Cho": 30000, "Dai": 30000}
    assert [h["kind"] for h in on_time.json("log", "t")["hands"]] == []
