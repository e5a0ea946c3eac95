"""A match read while another process saves it is read as one save left it, never as damage.

A command reads a match's events, then its seal: two reads. Another process's save between them
(its new events and its new seal, in one transaction) leaves a seal that names events the first
read did not see. That is not a history cut short: the store is re-read, and the command goes on.
A seal that still names events that are not there is the damage `honba check` reports. A
tournament's events and seal are read so too.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.sqlite import SQLiteApplicationRecorder

from domain.match import match_id
from domain.rules import load_preset
from domain.store_errors import DamagedMatch
from domain.tournament import tournament_id
from domain.values import HandValue, Win, WinResult
from replay.service.recording import recording
from replay.service.tournaments import tournaments
from replay.store.application import HonbaApp
from replay.store.evidence import read_evidence
from replay.store.integrity import check_match
from replay.store.seal import seal_id
from replay.store.store_check import check_tournament

KEY = "race"
CUP = "cup"
PLAYERS = ("Ann", "Ben", "Cho", "Dai")
# What the recorder does just before it reads a seal: another process's save, once.
BEFORE_SEAL_READ: list[Callable[[], None]] = []


class SlowSealRecorder(SQLiteApplicationRecorder):
    """The library's SQLite recorder, letting a save of another process in before a seal is read."""

    def select_events(self, originator_id: Any, **kwargs: Any) -> Any:
        raced = (seal_id(match_id(KEY)), seal_id(tournament_id(CUP)))
        if originator_id in raced and BEFORE_SEAL_READ:
            BEFORE_SEAL_READ.pop()()
        return super().select_events(originator_id, **kwargs)


def ron(winner: int, discarder: int) -> WinResult:
    return WinResult((Win(winner, HandValue(han=3, fu=30), discarder),))


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    db = str(tmp_path / "race.sqlite")
    app = HonbaApp.open(db)
    recording.start_match(app, KEY, PLAYERS, load_preset("tenhou"))
    recording.record(app, KEY, ron(1, 0))
    app.close()
    monkeypatch.setenv("APPLICATION_RECORDER_TOPIC", f"{__name__}:{SlowSealRecorder.__name__}")
    yield db
    BEFORE_SEAL_READ.clear()


def another_process_records(db: str) -> Callable[[], None]:
    def save() -> None:
        other = HonbaApp.open(db)
        try:
            recording.record(other, KEY, ron(2, 1))
        finally:
            other.close()

    return save


def test_a_save_between_the_events_read_and_the_seal_read_is_not_damage(store: str) -> None:
    app = HonbaApp.open(store)
    BEFORE_SEAL_READ.append(another_process_records(store))
    loaded = app.load(KEY)
    assert not BEFORE_SEAL_READ  # the other save did slip in between the two reads
    # Both hands are in the match as read: the events were read again after the seal.
    assert len(loaded.match.effective_facts()) >= 2
    app.close()


def test_a_check_read_while_another_process_saves_finds_nothing_wrong(store: str) -> None:
    app = HonbaApp.open(store)
    BEFORE_SEAL_READ.append(another_process_records(store))
    check = check_match(app, match_id(KEY), KEY)
    assert not BEFORE_SEAL_READ
    assert check.problems == ()
    assert check.events >= 5  # the start, two hands and their deal passes, as the other save left them
    app.close()


def test_a_tournament_checked_while_another_process_saves_it_finds_nothing_wrong(store: str) -> None:
    app = HonbaApp.open(store)
    tournaments.create_tournament(app, CUP, PLAYERS)
    evidence = read_evidence(app)

    def attach() -> None:
        other = HonbaApp.open(store)
        try:
            tournaments.attach_match(other, CUP, KEY)
        finally:
            other.close()

    BEFORE_SEAL_READ.append(attach)
    check = check_tournament(app, tournament_id(CUP), CUP, evidence)
    assert not BEFORE_SEAL_READ  # the other save did slip in between the two reads
    assert check.problems == ()
    assert check.events == 2  # created, and the match attached, as the other save left them
    app.close()


def test_a_seal_naming_events_no_longer_stored_is_still_damage(store: str) -> None:
    with closing(sqlite3.connect(store)) as db:
        (last,) = db.execute(
            "SELECT max(originator_version) FROM stored_events WHERE originator_id = ?", (match_id(KEY).hex,)
        ).fetchone()
        db.execute(
            "DELETE FROM stored_events WHERE originator_id = ? AND originator_version = ?", (match_id(KEY).hex, last)
        )
        db.commit()
    app = HonbaApp.open(store)
    with pytest.raises(DamagedMatch, match="nothing recorded"):
        app.load(KEY)
    app.close()
