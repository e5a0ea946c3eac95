"""The application service answers in plain data, without the command line.

The same data ``honba ... --json`` prints: the table state, the ledger, the log, the standings.
Each is JSON as it stands (no value classes left in it) and names players, not seats.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import CORPUS
from honba_cli import invoke

from domain.errors import InvalidRules
from domain.rules import load_preset
from domain.values import HandValue, Win, WinResult
from projections.entries import entry_numbers
from projections.ledger import corrected_ledger, correction_marks
from replay.formats.record import export_record
from replay.input.parsing import InputError
from replay.service.audit.checks import audit_failed, audit_match, check_data, check_targets
from replay.service.common.rules import resolve_rules, rules_for_start
from replay.service.common.shapes import ledger_data, log_data, state_data
from replay.service.imports.batch import verify_paths
from replay.service.imports.imports import import_options_refusal, verify_options_refusal
from replay.service.recording import recording
from replay.service.recording.entry import CorrectionRequest, apply_correction
from replay.service.recording.matches import log_json, match_log, status_data
from replay.service.tournaments.standings import standings_data, tournament_report
from replay.service.tournaments.tournaments import attach_all
from replay.store.application import HonbaApp
from replay.store.standings_view import catch_up, open_view

TENHOU = load_preset("tenhou")
PLAYERS = ["Ann", "Ben", "Cho", "Dai"]


@pytest.fixture
def app() -> Iterator[HonbaApp]:
    application = HonbaApp.open(":memory:")
    recording.start_match(application, "club-1", PLAYERS, TENHOU, {"format": "honba"})
    # Ben wins 3 han 30 fu off Ann's discard: 3,900.
    recording.record(application, "club-1", WinResult((Win(1, HandValue(han=3, fu=30), discarder=0),)))
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
    recording.end(app, "club-1", "time limit")
    attach_all(app, "night", [("club-1", PLAYERS)], 1)
    view = open_view(app)
    catch_up(app, view)
    data = standings_data(tournament_report(view, "night"))
    assert json.loads(json.dumps(data)) == data
    assert data["tournament"] == "night"
    assert [m["match"] for m in data["matches"]] == ["club-1"]
    assert {row["player"] for row in data["rows"]} == set(PLAYERS)


# --- which rules a reference means: one function for every command --------------------------


def test_a_rules_reference_names_a_preset() -> None:
    assert resolve_rules("tenhou") is load_preset("tenhou")


def test_a_rule_file_without_a_name_is_named_after_its_file(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text('base = "tenhou"\nstart_score = 30000\n', encoding="utf-8")
    rules = resolve_rules(str(path))
    assert rules.name == "club" and rules.start_score == 30000
    assert rules.return_score == TENHOU.return_score


def test_a_new_match_takes_the_rule_file_then_the_overrides(tmp_path: Path) -> None:
    path = tmp_path / "club.toml"
    path.write_text('name = "club rules"\nbase = "tenhou"\nstart_score = 30000\n', encoding="utf-8")
    rules = rules_for_start("m-league", str(path), ["return_score=40000"])
    assert (rules.name, rules.start_score, rules.return_score) == ("club rules", 30000, 40000)


@pytest.mark.parametrize("ref", ["no-such-preset", "missing.toml"])
def test_a_bad_rules_reference_is_a_clear_error_naming_it(ref: str, tmp_path: Path) -> None:
    with pytest.raises(InvalidRules, match=ref.removesuffix(".toml")):
        resolve_rules(ref if ref.endswith("preset") else str(tmp_path / ref))


# --- check and audit return their findings; the command only presents them -----------------


def test_check_of_the_whole_store_gives_each_match_and_the_store_chain(app: HonbaApp) -> None:
    run = check_targets(lambda: app, [])
    assert run.intact and run.store is not None
    assert [c.name for c in run.checks] == ["club-1"]
    data = check_data(run)
    assert json.loads(json.dumps(data)) == data
    assert data["checked"] == 1 and data["intact"] is True and data["store"]["intact"] is True


def test_check_of_an_edited_record_file_finds_the_edit_without_opening_the_store(app: HonbaApp, tmp_path: Path) -> None:
    path = tmp_path / "club-1.jsonl"
    path.write_text(export_record(app.get_match("club-1")).replace("Ben", "Bob", 1), encoding="utf-8")

    def no_store() -> HonbaApp:
        raise AssertionError("a file check opened the store")

    run = check_targets(no_store, [str(path)])
    assert not run.intact and run.checks[0].problems


def test_check_against_a_published_digest_takes_one_target(app: HonbaApp) -> None:
    with pytest.raises(InputError, match="--against"):
        check_targets(lambda: app, ["club-1", "club-2"], against="0" * 16)


def test_audit_agrees_with_a_sheet_of_the_recorded_scores(app: HonbaApp, tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    # Ben's 3 han 30 fu ron on Ann is 3,900 (the Tenhou table): the claimed scores after the hand.
    sheet.write_text("hand,Ann,Ben,Cho,Dai\nE1-0,21100,28900,25000,25000\n", encoding="utf-8")
    report = audit_match(app, "club-1", sheet=sheet)
    assert report.sheet is not None and report.sheet.first_difference is None
    assert not audit_failed(report)


def test_audit_fails_on_a_sheet_that_differs(app: HonbaApp, tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("hand,Ann,Ben,Cho,Dai\nE1-0,21000,29000,25000,25000\n", encoding="utf-8")
    assert audit_failed(audit_match(app, "club-1", sheet=sheet))


def test_audit_refuses_an_unknown_sheet_kind(app: HonbaApp) -> None:
    with pytest.raises(InputError, match="sheet-kind"):
        audit_match(app, "club-1", sheet_kind="totals")


# --- a stored match's status and log, as honba status and honba log --json print them ------------


def test_the_status_names_the_match_and_its_table(app: HonbaApp) -> None:
    data = status_data("club-1", app.get_match("club-1"))
    assert json.loads(json.dumps(data)) == data
    assert data["match"] == "club-1" and data["end_rejudged"] == []
    assert data["scores"] == {"Ann": 21100, "Ben": 28900, "Cho": 25000, "Dai": 25000}


def test_the_log_numbers_each_hand_by_its_line_in_the_exported_file_and_marks_a_void(app: HonbaApp) -> None:
    recording.record(app, "club-1", WinResult((Win(2, HandValue(han=1, fu=30), discarder=3),)))
    # Cho's win: line 3 (the deal pass has none)
    void = CorrectionRequest("void", 3, by="Eve (referee)", reason="wrong winner")
    apply_correction(app, "club-1", void, client_key=None)
    match = app.get_match("club-1")
    data = log_json("club-1", match, match_log(match))
    assert json.loads(json.dumps(data)) == data
    # The start is line 1 of the file; Ben's win line 2; Cho's (voided) line 3.
    assert [hand["entry"] for hand in data["hands"]] == [2]
    assert [(v["entry"], v["correction"]["reason"]) for v in data["voided"]] == [(3, "wrong winner")]


# --- verify decides its own outcome; the command only presents it ------------------------------

needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")


@needs_corpus
def test_verify_of_a_real_log_that_agrees_is_a_success() -> None:
    run = verify_paths([CORPUS / "dnovikoff-tenhou" / "log" / "test_data" / "bug2.xml"])
    assert run.reports and run.hands == run.hands_agreeing > 0
    assert run.exit_code == 0


def test_verify_of_a_file_that_cannot_be_read_says_so(tmp_path: Path) -> None:
    path = tmp_path / "broken.xml"
    path.write_text("<mjloggm ver", encoding="utf-8")
    run = verify_paths([path])
    assert run.unreadable and run.exit_code == 2
    assert run.as_dict()["unreadable"][0]["file"].endswith("broken.xml")


def test_import_options_that_go_together_are_accepted() -> None:
    assert import_options_refusal("auto", None, session=1, batch=100, jobs=None) is None
    assert import_options_refusal("record", "club cup", session=3, batch=1, jobs=1) is None
    assert verify_options_refusal("tenhou-xml", jobs=2) is None


@pytest.mark.parametrize(
    ("options", "refusal"),
    [
        (
            ("xml", None, 1, 100, None),
            "--format must be one of auto, tenhou-xml, riichi-city, tenhou-json, mjai, mahjongsoul, record, not 'xml'",
        ),
        (("auto", "  ", 1, 100, None), "--tournament needs a name"),
        (("auto", "cup", 0, 100, None), "--session: sessions are numbered from 1, not 0"),
        (("auto", None, 1, 0, None), "--batch: at least 1, not 0"),
        (("auto", None, 1, 100, -2), "--jobs: at least 1, not -2"),
        (("auto", "cup", 1001, 100, None), "--session: at most 1,000, not 1001"),
        (("auto", None, 1, 10_001, None), "--batch: at most 10,000, not 10001"),
        (("auto", None, 1, 100, 1025), "--jobs: at most 1,024, not 1025"),
    ],
)
def test_import_options_that_do_not_go_together_are_refused_in_words(
    options: tuple[str, str | None, int, int, int | None], refusal: str
) -> None:
    fmt, tournament, session, batch, jobs = options
    assert import_options_refusal(fmt, tournament, session, batch, jobs) == refusal


def test_verify_refuses_the_record_format_and_no_jobs() -> None:
    assert verify_options_refusal("record", None) == (
        "--format must be one of auto, tenhou-xml, riichi-city, tenhou-json, mjai, mahjongsoul, not 'record'"
    )
    assert verify_options_refusal("auto", 0) == "--jobs: at least 1, not 0"


@needs_corpus
def test_the_import_command_prints_the_service_refusal_and_stores_nothing(tmp_path: Path) -> None:
    db = tmp_path / "store.sqlite"
    # A real log, so that nothing but the options can be what is refused.
    game = sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))[0]
    refused = invoke(["--db", str(db), "import", str(game), "--session", "2", "--tournament", " "])
    assert refused.exit_code == 2
    assert "honba: --tournament needs a name" in refused.output
    assert "Traceback" not in refused.output
    assert not db.exists()
