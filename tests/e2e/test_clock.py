"""The clock: a time limit, and the rule for ending on time, decide the end of a match.

Every time here is given explicitly (``T0`` and minutes after it): the match decides from
the time its commands are given, never from a clock it reads. The rule is the rules'
``hands_after_time``: WRC finishes the hand in play (0), EMA plays one more hand after it
(1), as the MahjongPantheon tournament system's rulesets of those two bodies do.

The hands are the seeds' and the score table's: a non-dealer's 3 han 30 fu on a discard pays
3,900, a non-dealer's 1 han 30 fu on a discard 1,000 (30,000 start under WRC and EMA).
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from conftest import hv, ron, won
from honba_cli import Honba

from domain.clock import TIME_UP, Clock
from domain.errors import RuleViolation
from domain.match import Match, match_id
from domain.rules import load_preset
from domain.values import MatchEnd, Penalty, PenaltyShare
from replay.formats.record import build_match, export_record, parse_record
from replay.service.recording import clock, recording
from replay.service.recording.clock import clock_data, session_clocks, set_session_time_limit, start_session_clock
from replay.service.tournaments.tournaments import change_tournament
from replay.store.application import HonbaApp

WRC = load_preset("wrc")
EMA = load_preset("ema")
T0 = datetime(2026, 11, 21, 13, 0, tzinfo=UTC)
PLAYERS = ("Ann", "Ben", "Cho", "Dai")
# Ben's 3 han 30 fu on Ann's discard; Cho's 1 han 30 fu on Dai's discard.
BEN_WINS = won(ron(1, 0, hv(3, 30)))
CHO_WINS = won(ron(2, 3, hv(1, 30)))


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def on_the_clock(rules: object, minutes: int = 60) -> Match:
    match = Match.start("clocked", PLAYERS, rules)  # type: ignore[arg-type]
    match.set_time_limit(minutes, by="director")
    match.start_clock(T0, by="director")
    return match


def test_the_rules_presets_say_what_happens_when_time_is_up() -> None:
    assert (WRC.hands_after_time, EMA.hands_after_time, load_preset("tenhou").hands_after_time) == (0, 1, 0)


def test_before_the_deadline_the_match_goes_on() -> None:
    match = on_the_clock(WRC)
    match.record(BEN_WINS, at=at(59))
    assert not match.state.finished
    assert match.clock.time_up_at is None
    assert match.clock.remaining(at(59)) == timedelta(minutes=1)


def test_wrc_ends_the_match_after_the_hand_in_play_when_time_is_up() -> None:
    match = on_the_clock(WRC)
    match.record(BEN_WINS, at=at(30))
    match.record(CHO_WINS, at=at(61))  # the hand in play when time ran out
    assert match.state.finished and match.state.end_reason == TIME_UP
    # 30,000 start: Ann -3,900, Ben +3,900, then Cho +1,000 from Dai; uma 15/5/-5/-15, no oka.
    assert match.state.scores == (26100, 33900, 31000, 29000)
    assert match.state.final_points == (-18.9, 18.9, 6.0, -6.0)
    kinds = [type(e).__name__ for e in match.collect_events()]
    assert kinds[-3:] == ["TimeUp", "HandWon", "MatchEnded"]


def test_ema_plays_one_more_hand_after_the_hand_in_play() -> None:
    match = on_the_clock(EMA)
    match.record(BEN_WINS, at=at(62))  # the hand in play
    assert not match.state.finished
    assert match.state.dealer == 1  # the deal passed to Ben: one more hand is played
    match.record(CHO_WINS, at=at(71))
    assert match.state.finished and match.state.end_reason == TIME_UP
    assert match.hands_after_time() == 2


def test_a_penalty_after_time_is_no_hand() -> None:
    match = on_the_clock(WRC)
    match.penalise(Penalty(3, 20000, share=PenaltyShare.OFF_TABLE), client_key=None)
    match.record(BEN_WINS, at=at(65))
    assert match.state.finished
    assert match.hands_after_time() == 1


def test_time_added_after_time_was_up_lets_the_clock_run_again() -> None:
    match = on_the_clock(EMA)
    match.record(BEN_WINS, at=at(61))  # time up: the hand in play
    match.add_time(10, by="head referee", reason="a ruling took ten minutes")
    assert match.clock.time_up_at is None
    match.record(CHO_WINS, at=at(65))  # before the new deadline, 70 minutes after the start
    assert not match.state.finished
    match.record(BEN_WINS, at=at(72))  # the hand in play when the added time ran out
    assert not match.state.finished
    match.record(CHO_WINS, at=at(80))  # and one more
    assert match.state.end_reason == TIME_UP


def test_undoing_the_hand_that_ended_the_match_on_time_takes_the_end_back_with_it() -> None:
    match = on_the_clock(WRC)
    match.record(BEN_WINS, at=at(61))
    assert match.state.finished
    match.undo(by="table", reason="wrong winner")
    assert not match.state.finished
    match.record(CHO_WINS, at=at(63))
    assert match.state.finished and match.state.end_reason == TIME_UP
    assert match.state.scores == (30000, 30000, 31000, 29000)


def test_a_result_recorded_without_a_time_is_not_judged_by_the_clock() -> None:
    # An import replays a game played long ago: it gives no time, the clock decides nothing.
    match = on_the_clock(WRC)
    match.record(BEN_WINS)
    assert not match.state.finished


def test_the_clock_is_decided_again_from_the_stored_events_alone(tmp_path: Path) -> None:
    app = HonbaApp.open(str(tmp_path / "c.sqlite"))
    try:
        recording.start_match(app, "t1", PLAYERS, EMA)
        clock.set_time_limit(app, "t1", 60, by="director")
        clock.start_clock(app, "t1", at=T0, by="director")
        recording.record(app, "t1", BEN_WINS, at=at(61))
        again = app.get_match("t1")  # replayed from the store, long after
        assert again.clock == Clock(limit=60, started=T0.isoformat(), added=0, time_up_at=4)
        recording.record(app, "t1", CHO_WINS, at=at(75))
        assert app.get_match("t1").state.end_reason == TIME_UP
    finally:
        app.close()


def test_the_clock_refuses_what_makes_no_sense() -> None:
    match = Match.start("m", PLAYERS, WRC)
    with pytest.raises(RuleViolation, match="set the time limit before starting"):
        match.start_clock(T0, by="director")
    with pytest.raises(RuleViolation, match="has not started"):
        match.add_time(5, by="director")
    for minutes in (0, -5, 24 * 60 + 1):
        with pytest.raises(RuleViolation, match="from 1 to 1440"):
            match.set_time_limit(minutes, by="director")
    match.set_time_limit(60, by="director")
    match.start_clock(T0, by="director")
    with pytest.raises(RuleViolation, match="started already"):
        match.start_clock(at(1), by="director")
    with pytest.raises(RuleViolation, match="offset from UTC"):
        Match.start("n", PLAYERS, WRC).start_clock(datetime(2026, 1, 1), by="director")


def test_who_sets_the_clock_and_why_time_is_added_are_one_line_of_text_within_bounds() -> None:
    match = Match.start("m", PLAYERS, WRC)
    with pytest.raises(RuleViolation, match="clock by"):
        match.set_time_limit(60, by="Eve\nthe director")
    match.set_time_limit(60, by="Eve")
    with pytest.raises(RuleViolation, match="clock by"):
        match.start_clock(T0, by="E" * 65)
    match.start_clock(T0, by="Eve")
    with pytest.raises(RuleViolation, match="clock reason"):
        match.add_time(5, by="Eve", reason="a ruling\u202e")
    with pytest.raises(RuleViolation, match="clock reason"):
        match.add_time(5, by="Eve", reason="x" * 201)
    match.add_time(5, by="Eve", reason="a ruling")
    assert (match.clock.limit, match.clock.added) == (60, 5)


def test_a_match_ended_on_time_exports_and_imports_as_the_same_match() -> None:
    match = on_the_clock(WRC)
    match.record(BEN_WINS, at=at(61))
    text = export_record(match)
    assert json.loads(text.splitlines()[2])["reason"] == TIME_UP
    again = build_match(parse_record(text, name="x"), name="x")
    assert again.state.end_reason == TIME_UP
    assert again.state.final_points == match.state.final_points


def test_the_clock_shows_the_time_left_and_then_the_hands_left() -> None:
    match = on_the_clock(EMA)
    shown = clock_data(match, at(17.5))
    assert shown["remaining_seconds"] == 42 * 60 + 30 and str(shown["text"]) == "42:30 left" and shown["running"]
    up = clock_data(match, at(60))
    assert up["time_up"] and up["hands_left"] == 2 and str(up["text"]) == "time is up: this hand and 1 more hand"
    match.record(BEN_WINS, at=at(61))
    last = clock_data(match, at(61))
    assert last["hands_left"] == 1 and str(last["text"]) == "time is up: this hand is the last"
    match.record(CHO_WINS, at=at(66))
    assert clock_data(match, at(66))["ended_on_time"]
    assert [e["kind"] for e in clock_data(match, at(66))["events"]] == ["limit", "started", "up"]


def test_a_session_with_a_60_minute_limit_ends_each_of_its_matches_by_the_rule(tmp_path: Path) -> None:
    app = HonbaApp.open(str(tmp_path / "s.sqlite"))
    try:
        tables = [PLAYERS, ("Eve", "Fay", "Gus", "Hal")]
        change_tournament(app, "cup", lambda t: None, create=True)
        for number, players in enumerate(tables, start=1):
            recording.start_match(app, f"cup-s1-t{number}", players, EMA)
            change_tournament(app, "cup", lambda t, n=number, p=players: t.attach(f"cup-s1-t{n}", p, 1, n))
        assert set_session_time_limit(app, "cup", 1, 60) == ["cup-s1-t1", "cup-s1-t2"]
        assert start_session_clock(app, "cup", 1, at=T0) == ["cup-s1-t1", "cup-s1-t2"]
        # Table 1 plays two hands before time and two after (the hand in play and one more).
        for minutes in (20, 45, 61, 70):
            recording.record(app, "cup-s1-t1", BEN_WINS if minutes != 45 else CHO_WINS, at=at(minutes))
        # Table 2 is in its hand in play at the deadline: it ends the hand after.
        recording.record(app, "cup-s1-t2", CHO_WINS, at=at(58))
        recording.record(app, "cup-s1-t2", BEN_WINS, at=at(64))
        assert not app.get_match("cup-s1-t2").state.finished
        recording.record(app, "cup-s1-t2", CHO_WINS, at=at(69))
        for key in ("cup-s1-t1", "cup-s1-t2"):
            assert app.get_match(key).state.end_reason == TIME_UP
        first = app.get_match("cup-s1-t1")
        assert [type(f).__name__ for f in first.effective_facts()].count("WinResult") == 4
        assert isinstance(first.effective_facts()[-1], MatchEnd)
    finally:
        app.close()


def test_honba_clock_sets_starts_adds_and_shows_and_the_log_and_audit_show_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The server's clock stands still (the commands run in this process): what is shown is the
    # limit and the time added, whatever the time the commands take.
    # Whole seconds, as a moment is stored (domain.clock).
    now = datetime.now(UTC).replace(microsecond=0)
    monkeypatch.setattr(clock, "server_time", lambda: now)
    honba = Honba(tmp_path / "c.sqlite", "c")
    honba.ok("start", "c", "--players", "Ann,Ben,Cho,Dai", "--rules", "ema")
    assert "60 minutes" in honba.ok("clock", "set", "c", "--minutes", "60")
    assert "started" in honba.ok("clock", "start", "c")
    assert "5 minutes added" in honba.ok("clock", "add", "c", "--minutes", "5", "--reason", "a ruling")
    shown = honba.json("clock", "show", "c")
    assert (shown["limit_minutes"], shown["added_minutes"], shown["running"]) == (60, 5, True)
    # No time has passed on the server's clock: the 60 set and the 5 added.
    assert shown["remaining_seconds"] == 65 * 60
    assert "left" in honba.ok("clock", "show", "c")
    honba.ok("win", "c", "Ben:3/30", "--from", "Ann")
    log = honba.json("log", "c")
    assert [c["text"].split(" ")[0:2] for c in log["clock"]] == [
        ["time", "limit"],
        ["clock", "started"],
        ["5", "minutes"],
    ]
    assert "clock: 5 minutes added" in honba.ok("log", "c")
    audit = honba.json("audit", "c")
    assert [c["kind"] for c in audit["clock"]] == ["limit", "started", "added"]
    assert "Clock:" in honba.ok("status", "c")
    assert "intact" in honba.ok("check", "c")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["clock", "start", "c"], "set the time limit before starting"),
        (["clock", "add", "c", "--minutes", "5"], "has not started"),
        (["clock", "set", "c", "--minutes", "0"], "from 1 to 1440"),
        (["clock", "set", "c", "--tournament", "cup", "--session", "1", "--minutes", "60"], "not both"),
        (["clock", "show"], "name a match, or --tournament and --session"),
        (["clock", "show", "nope"], "no match 'nope'"),
    ],
)
def test_honba_clock_refuses_with_one_line(tmp_path: Path, args: list[str], said: str) -> None:
    honba = Honba(tmp_path / "c.sqlite", "c")
    honba.ok("start", "c", "--players", "Ann,Ben,Cho,Dai")
    assert said in honba.refused(*args)


def test_a_clock_event_changed_behind_honbas_back_is_caught(tmp_path: Path) -> None:
    db = tmp_path / "c.sqlite"
    honba = Honba(db, "c")
    honba.ok("start", "c", "--players", "Ann,Ben,Cho,Dai")
    honba.ok("clock", "set", "c", "--minutes", "60")
    with closing(sqlite3.connect(db)) as sql:
        (state,) = sql.execute(
            "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = 2", (match_id("c").hex,)
        ).fetchone()
        changed = bytes(state).replace(b'"minutes":60', b'"minutes":90')
        assert changed != bytes(state)
        sql.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = 2",
            (changed, match_id("c").hex),
        )
        sql.commit()
    result = honba("check", "c")
    assert result.exit_code == 1
    assert "altered" in result.stdout


def test_a_session_limit_set_before_its_seating_goes_on_every_table_seated(tmp_path: Path) -> None:
    from replay.service.common.access import TokenStore
    from replay.service.director.director import seat_session
    from replay.service.tournaments.tournaments import create_tournament

    app = HonbaApp.open(str(tmp_path / "d.sqlite"))
    try:
        create_tournament(app, "cup", [*PLAYERS, "Eve", "Fay", "Gus", "Hal"])
        assert set_session_time_limit(app, "cup", 1, 75) == []  # nothing seated yet
        tables, _repeats = seat_session(app, TokenStore(app), "cup", 1, rules="wrc", seed=7)
        assert [app.get_match(t.match).clock.limit for t in tables] == [75, 75]
        assert start_session_clock(app, "cup", 1, at=T0) == [t.match for t in tables]
        assert {clock["deadline"] for clock in session_clocks(app, "cup", 1, at(1))} == {at(75).isoformat()}
    finally:
        app.close()
    shown = Honba(tmp_path / "d.sqlite").ok("tournament", "show", "cup")
    assert "Session 1: time limit 75 minutes" in shown
