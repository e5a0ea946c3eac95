"""The application service answers in plain data, without the command line.

The same data ``honba ... --json`` prints: the table state, the ledger, the log, the standings.
Each is JSON as it stands (no value classes left in it) and names players, not seats.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from domain.rules import load_preset
from domain.values import HandValue, Win, WinResult
from projections.ledger import corrected_ledger, correction_marks
from replay.app import HonbaApp
from replay.formats.record import entry_numbers
from replay.service.shapes import ledger_data, log_data, state_data
from replay.service.standings import standings_data
from replay.tournaments import attach_all, catch_up, open_view, tournament_report

TENHOU = load_preset("tenhou")
PLAYERS = ["Ann", "Ben", "Cho", "Dai"]


@pytest.fixture
def app() -> Iterator[HonbaApp]:
    application = HonbaApp.open(":memory:")
    application.start_match("club-1", PLAYERS, TENHOU, {"format": "honba"})
    # Ben wins 3 han 30 fu off Ann's discard: 3,900.
    application.record("club-1", WinResult((Win(1, HandValue(han=3, fu=30), discarder=0),)))
    yield application
    application.close()


def test_the_table_state_is_plain_data_naming_the_players(app: HonbaApp) -> None:
    match = app.get_match("club-1")
    data = state_data(match.players, match.state, match.rules)
    assert json.loads(json.dumps(data)) == data
    assert data["scores"] == {"Ann": 21100, "Ben": 28900, "Cho": 25000, "Dai": 25000}
    assert data["dealer"] == "Ben"


def test_the_ledger_and_the_log_are_plain_data(app: HonbaApp) -> None:
    match = app.get_match("club-1")
    entries = corrected_ledger(match.corrected_steps())
    numbers = entry_numbers(match)
    ledger = ledger_data(match.players, entries, numbers)
    assert json.loads(json.dumps(ledger)) == ledger
    assert ledger[0]["result"] == "Ben ron on Ann: 3 han 30 fu"
    assert ledger[0]["changes"] == {"Ann": -3900, "Ben": 3900, "Cho": 0, "Dai": 0}
    assert ledger[0]["entry"] == 2  # line 2 of the record file, after the start line
    log = log_data(
        match.players, entries, correction_marks(match.history, match.corrections, match.corrected_steps()), numbers
    )
    assert log["voided"] == [] and len(log["hands"]) == 1


def test_the_standings_are_plain_data(app: HonbaApp) -> None:
    app.end("club-1", "time limit")
    attach_all(app, "night", [("club-1", PLAYERS)], 1)
    view = open_view(app)
    catch_up(app, view)
    data = standings_data(tournament_report(view, "night"))
    assert json.loads(json.dumps(data)) == data
    assert data["tournament"] == "night"
    assert [m["match"] for m in data["matches"]] == ["club-1"]
    assert {row["player"] for row in data["rows"]} == set(PLAYERS)
