"""Idempotent entry: a command sent again with its client key records nothing new.

Issue 5: "every recording command accepts a client key; sending the same command
again (a retry over a flaky connection) records nothing new and answers as the first
time." A key sent with a different command is a mistake of the client, refused.

The match: Ann, Ben, Cho, Dai under Tenhou's rules; position 2 holds E1-0, Ben's ron
on Cho for 3 han 30 fu (3,900), position 3 the deal pass to Ben. Numbers are worked
from the published table: 1 han 30 fu on a non-dealer's ron is 1,000.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest
from conftest import TENHOU, hv, ron, tsumo, won
from honba_cli import honba, invoke

from domain.errors import RuleViolation
from domain.match import Match
from domain.values import ExhaustiveDraw, Penalty
from replay.input.entry import entry_of
from replay.service.recording import recording
from replay.service.recording.entry import CorrectionRequest, apply_correction
from replay.store.application import HonbaApp

KEY = "club-1"
PLAYERS = ["Ann", "Ben", "Cho", "Dai"]


def stored_events(db: Path) -> int:
    """Every row of the store (the match's events and its seal's), counted with sqlite3."""
    with closing(sqlite3.connect(db)) as sql:
        count: int = sql.execute("SELECT COUNT(*) FROM stored_events").fetchone()[0]
    return count


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "honba.sqlite"
    for args in (["start", KEY, "--players", "Ann,Ben,Cho,Dai"], ["win", KEY, "Ben:3/30", "--from", "Cho"]):
        assert invoke(["--db", str(path), *args]).exit_code == 0
    return path


REFEREE = ["--by", "Referee Ito", "--reason", "seen on the video"]
LINE_2_HAN = json.dumps({"type": "win", "wins": [{"winner": "Ben", "from": "Cho", "han": 2, "fu": 30}]})

# Every command that records something, as it is typed, without its --key.
RECORDING_COMMANDS = {
    "win": ["win", KEY, "Cho:1/30", "--from", "Dai"],
    "win-several": ["win", KEY, "Cho:1/30", "Dai:2/30", "--from", "Ann"],
    "draw": ["draw", KEY, "--ready", "Ann,Ben", "--riichi", "Ann"],
    "abort": ["abort", KEY, "four_winds"],
    "penalty": ["penalty", KEY, "Dai", "--amount", "3000", "--share", "to_others"],
    "penalty-by-referee": ["penalty", KEY, "Dai", "--amount", "3000", "--share", "to_others", *REFEREE],
    "end": ["end", KEY, "--reason", "time limit"],
    "amend": ["amend", KEY, "2", "--result", LINE_2_HAN, *REFEREE],
    "void": ["void", KEY, "2", *REFEREE],
}


@pytest.mark.parametrize("command", RECORDING_COMMANDS.values(), ids=RECORDING_COMMANDS.keys())
def test_every_recording_command_sent_again_with_its_key_records_nothing_and_answers_the_same(
    db: Path, command: list[str]
) -> None:
    first = honba(db, *command, "--key", "tablet-7:42")
    assert first.exit_code == 0, first.output
    after_first = stored_events(db)
    assert after_first > 0

    again = honba(db, *command, "--key", "tablet-7:42")
    assert again.exit_code == 0, again.output
    assert stored_events(db) == after_first
    assert again.stdout == first.stdout


# Ending twice, voiding the same entry twice and amending it to what it already is are refused (a
# correction that changes nothing: tests/e2e/test_one_entry.py); these can be sent twice on purpose.
REPEATABLE = {name: command for name, command in RECORDING_COMMANDS.items() if name not in ("end", "void", "amend")}


@pytest.mark.parametrize("command", REPEATABLE.values(), ids=REPEATABLE.keys())
def test_the_same_command_without_a_key_records_again(db: Path, command: list[str]) -> None:
    """The key is what makes a retry: without it, a second draw is a second draw."""
    first = honba(db, *command)
    assert first.exit_code == 0, first.output
    count = stored_events(db)
    assert honba(db, *command).exit_code == 0
    assert stored_events(db) > count


def test_a_key_sent_with_a_different_command_is_refused(db: Path) -> None:
    assert honba(db, "win", KEY, "Cho:1/30", "--from", "Dai", "--key", "k1").exit_code == 0
    count = stored_events(db)
    result = honba(db, "win", KEY, "Cho:2/30", "--from", "Dai", "--key", "k1")
    assert result.exit_code == 2
    assert result.stderr.strip() == "honba: client key 'k1' was already used for a different command"
    assert stored_events(db) == count


def test_a_key_of_a_result_sent_with_a_correction_is_refused(db: Path) -> None:
    assert honba(db, "penalty", KEY, "Dai", "--amount", "3000", "--share", "to_others", "--key", "k2").exit_code == 0
    count = stored_events(db)
    result = honba(db, "penalty", KEY, "Dai", "--amount", "3000", "--share", "to_others", *REFEREE, "--key", "k2")
    assert result.exit_code == 2
    assert "already used for a different command" in result.stderr
    assert stored_events(db) == count


def test_a_retry_of_the_hand_that_ended_the_match_is_not_refused_as_after_the_end(db: Path) -> None:
    # Cho, at 21,100, pays a 32,000 yakuman: below zero, the match ends (bust).
    command = ["win", KEY, "Ann:yakuman", "--from", "Cho", "--key", "last-hand"]
    first = honba(db, *command)
    assert first.exit_code == 0, first.output
    assert "bust" in first.stdout
    count = stored_events(db)
    again = honba(db, *command)
    assert again.exit_code == 0, again.output
    assert (again.stdout, stored_events(db)) == (first.stdout, count)


def test_a_retry_after_another_command_still_records_nothing(db: Path) -> None:
    assert honba(db, "draw", KEY, "--ready", "Ann", "--key", "d1").exit_code == 0
    assert honba(db, "win", KEY, "Cho:1/30", "--from", "Dai", "--key", "w1").exit_code == 0
    count = stored_events(db)
    assert honba(db, "draw", KEY, "--ready", "Ann", "--key", "d1").exit_code == 0
    assert stored_events(db) == count


# Through the application service.


@pytest.fixture
def store(tmp_path: Path) -> HonbaApp:
    application = HonbaApp.open(str(tmp_path / "app.sqlite"))
    recording.start_match(application, KEY, PLAYERS, TENHOU)
    recording.record(application, KEY, won(ron(1, 2, hv(3, 30))))
    return application


def test_the_application_records_a_retried_result_once(store: HonbaApp) -> None:
    first = recording.record(store, KEY, won(tsumo(2, hv(1, 30))), client_key="k1")
    again = recording.record(store, KEY, won(tsumo(2, hv(1, 30))), client_key="k1")
    assert again.version == first.version
    assert again.state == first.state
    assert store.get_match(KEY).version == first.version


@pytest.mark.parametrize(
    "command",
    [
        lambda s: recording.record(s, KEY, ExhaustiveDraw(ready=(0,)), client_key="k"),
        lambda s: recording.penalise(s, KEY, Penalty(3, 3000, "chombo", "to_others"), client_key="k"),
        lambda s: recording.end(s, KEY, "time limit", client_key="k"),
        lambda s: apply_correction(
            s,
            KEY,
            CorrectionRequest(
                "amend", 2, entry=entry_of(won(ron(1, 2, hv(2, 30))), PLAYERS), by="Ito", reason="miscounted"
            ),
            client_key="k",
        ),
        lambda s: apply_correction(
            s, KEY, CorrectionRequest("void", 2, by="Ito", reason="wrong table"), client_key="k"
        ),
        lambda s: apply_correction(
            s,
            KEY,
            CorrectionRequest(
                "penalty", entry=entry_of(Penalty(3, 3000, "chombo", "to_others"), PLAYERS), by="Ito", reason="x"
            ),
            client_key="k",
        ),
    ],
    ids=["record", "penalise", "end", "amend", "void", "add_penalty"],
)
def test_every_application_command_with_a_key_is_idempotent(
    store: HonbaApp, command: Callable[[HonbaApp], Match]
) -> None:
    first = command(store)
    version = store.get_match(KEY).version
    again = command(store)
    assert store.get_match(KEY).version == version
    assert again.state == first.state


def test_the_application_refuses_a_key_sent_with_a_different_result(store: HonbaApp) -> None:
    recording.record(store, KEY, won(tsumo(2, hv(1, 30))), client_key="k1")
    version = store.get_match(KEY).version
    with pytest.raises(RuleViolation, match="client key 'k1' was already used for a different command"):
        recording.record(store, KEY, won(tsumo(2, hv(2, 30))), client_key="k1")
    assert store.get_match(KEY).version == version


def test_a_key_is_remembered_across_reopening_the_store(tmp_path: Path) -> None:
    path = str(tmp_path / "app.sqlite")
    first = HonbaApp.open(path)
    recording.start_match(first, KEY, PLAYERS, TENHOU)
    recording.record(first, KEY, won(ron(1, 2, hv(3, 30))), client_key="k1")
    version = first.get_match(KEY).version
    first.close()
    reopened = HonbaApp.open(path)
    recording.record(reopened, KEY, won(ron(1, 2, hv(3, 30))), client_key="k1")
    assert reopened.get_match(KEY).version == version
    reopened.close()
