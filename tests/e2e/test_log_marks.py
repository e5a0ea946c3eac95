"""``honba log`` marks corrections and numbers entries as exported record files do.

Issue 10: "`honba log` shows the corrected history without marks: an amended hand reads
as if played that way, a voided one disappears; positions in an exported file differ
from those `honba log` shows."

One number names an entry everywhere: its line in the exported record file. ``honba log``
shows it, ``honba amend``/``void`` and the application take it, correction lines name
their targets by it. The match is the worked example of seed 003
(docs/examples/counters-seed.jsonl), one entry a line: Ben's ron on Ann at E1-0 (entry 2),
Cho's tsumo at E2-0 (entry 3), Ann's 3 han 30 fu ron on Ben at E3-0 (entry 4), Dai's
tsumo at E4-0 (5), the draw at E4-1 (6), Dai's ron on Cho at S1-2 (7). Deal passes stand
between them in the match's own log (after entries 2, 3, 4 and 6) and have no number.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from honba_cli import invoke
from rich.console import Console
from test_audit import KEY, SEED_RECORD
from typer.testing import Result

from projections.entries import entry_numbers
from projections.ledger import corrected_ledger, correction_marks
from replay.cli.render import ledger_table
from replay.formats.record import build_match, parse_record
from replay.service.recording.entry import CorrectionRequest, apply_correction
from replay.store.application import HonbaApp


def run(db: Path, *args: str) -> Result:
    result = invoke(["--db", str(db), *args])
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """The seed's match, Cho's tsumo (entry 3) voided and Ann's 3 han (entry 4) amended to 2 han:
    the void is entry 8, the amendment entry 9."""
    path = tmp_path / "honba.sqlite"
    run(path, "import", str(SEED_RECORD))
    run(path, "void", KEY, "3", "--by", "Eve", "--reason", "misread tile")
    run(path, "amend", KEY, "4", "win", "Ann:2/30", "--from", "Ben", "--by", "Eve", "--reason", "no dora")
    return path


@pytest.fixture
def seed(tmp_path: Path) -> Path:
    """The seed's match as imported, uncorrected."""
    path = tmp_path / "seed.sqlite"
    run(path, "import", str(SEED_RECORD))
    return path


def log(db: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(run(db, "log", KEY, "--json").stdout)
    return data


def exported_lines(db: Path, tmp_path: Path) -> list[dict[str, Any]]:
    exported = tmp_path / "match.jsonl"
    run(db, "export", KEY, "--output", str(exported))
    return [json.loads(line) for line in exported.read_text(encoding="utf-8").splitlines()]


def test_an_amended_hand_shows_what_it_was_and_who_changed_it_and_why(db: Path) -> None:
    amended = next(h for h in log(db)["hands"] if h["entry"] == 4)
    assert amended["result"] == "Ann ron on Ben: 2 han 30 fu"
    correction = amended["correction"]
    assert (correction["kind"], correction["original"]) == ("amended", "Ann ron on Ben: 3 han 30 fu")
    assert (correction["by"], correction["reason"], correction["entry"]) == ("Eve", "no dora", 9)
    text = run(db, "log", KEY).stdout
    assert "was: Ann ron on Ben: 3 han 30 fu" in text
    assert "amended at entry 9 by Eve: no dora" in text


def test_a_voided_hand_stays_in_the_log_with_who_voided_it_and_why(db: Path) -> None:
    (voided,) = log(db)["voided"]
    assert (voided["entry"], voided["hand"]) == (3, "E2-0")
    assert voided["correction"]["original"] == "Cho tsumo: 2 han 30 fu"
    assert (voided["correction"]["by"], voided["correction"]["reason"]) == ("Eve", "misread tile")
    assert "voided at entry 8 by Eve: misread tile" in run(db, "log", KEY).stdout


def test_a_voided_hand_is_struck_through() -> None:
    match = build_match(parse_record(SEED_RECORD.read_text(encoding="utf-8")))
    match.void(4, by="Eve", reason="misread tile")  # the domain's position 4: Cho's tsumo
    marks = correction_marks(match.history, match.corrections, match.corrected_steps())
    console = Console(record=True, width=200, force_terminal=True)
    entries = corrected_ledger(match.corrected_steps())
    console.print(ledger_table(match.players, entries, "log", numbers=entry_numbers(match), marks=marks))
    struck = "\x1b[9m"  # the terminal's strike-through
    assert f"{struck}Cho tsumo: 2 han 30 fu" in console.export_text(styles=True)


def test_the_number_honba_log_shows_is_the_line_of_the_exported_record_file(db: Path, tmp_path: Path) -> None:
    lines = exported_lines(db, tmp_path)
    data = log(db)
    numbered = {hand["entry"]: hand for hand in data["hands"]}
    assert sorted(numbered) == [2, 4, 5, 6, 7]  # entry 3 is voided, listed apart
    # The line each number names holds that very entry: the winners as the log describes them.
    for number, hand in numbered.items():
        line = lines[number - 1]
        assert line["type"] in ("win", "draw")
        if line["type"] == "win":
            assert hand["result"].startswith(line["wins"][0]["winner"])
    (voided,) = data["voided"]
    assert lines[voided["entry"] - 1]["wins"][0]["winner"] == "Cho"  # Cho's tsumo, as recorded
    # The corrections are the file's lines 8 and 9, and name those same numbers as targets.
    corrections = [(n, line["target"]) for n, line in enumerate(lines, start=1) if line["type"] == "correction"]
    assert corrections == [(8, 3), (9, 4)]
    assert (voided["correction"]["entry"], numbered[4]["correction"]["entry"]) == (8, 9)


def test_after_a_deal_pass_numbers_still_agree(seed: Path, tmp_path: Path) -> None:
    # E1-0 passed the deal to Ben: in the match's own log that deal pass stands between
    # Ben's ron and Cho's tsumo, yet Cho's tsumo is entry 3, line 3, in the log and the file.
    hands = log(seed)["hands"]
    assert [(h["entry"], h["hand"]) for h in hands[:3]] == [(2, "E1-0"), (3, "E2-0"), (4, "E3-0")]
    assert hands[0]["deal_passed_to"] == "Ben"
    lines = exported_lines(seed, tmp_path)
    assert lines[3 - 1]["wins"] == [{"winner": "Cho", "han": 2, "fu": 30}]
    # Voiding number 3 voids Cho's tsumo: the seed's E2-0 changes (-500, -1,000, +2,000, -500) come off.
    before = json.loads(run(seed, "status", KEY, "--json").stdout)["scores"]
    run(seed, "void", KEY, "3", "--by", "Eve", "--reason", "misread tile")
    after = json.loads(run(seed, "status", KEY, "--json").stdout)["scores"]
    assert {p: after[p] - before[p] for p in before} == {"Ann": 500, "Ben": 1000, "Cho": -2000, "Dai": 500}


def test_a_referee_voids_the_entry_numbered_as_honba_log_shows_it(seed: Path) -> None:
    shown = next(h for h in log(seed)["hands"] if h["hand"] == "E3-0")
    out = run(seed, "void", KEY, str(shown["entry"]), "--by", "Eve", "--reason", "wrong table").stdout
    # It says which entry it voided and what that entry was (issue 22: "Voided entry 12" named nothing).
    assert f"Entry {shown['entry']} voided by entry 8 (match {KEY!r}); the original stays in the log." in out
    assert "Before: Ann ron on Ben: 3 han 30 fu" in out and "After:  void" in out
    (voided,) = log(seed)["voided"]
    assert (voided["entry"], voided["hand"]) == (shown["entry"], "E3-0")
    assert voided["correction"]["original"] == shown["result"] == "Ann ron on Ben: 3 han 30 fu"


def test_the_application_takes_the_numbers_honba_log_shows(seed: Path) -> None:
    shown = next(h for h in log(seed)["hands"] if h["hand"] == "S1-2")
    application = HonbaApp.open(str(seed))
    try:
        void = CorrectionRequest("void", shown["entry"], by="Eve", reason="played after time")
        apply_correction(application, KEY, void, client_key=None)
    finally:
        application.close()
    (voided,) = log(seed)["voided"]
    assert (voided["entry"], voided["correction"]["original"]) == (7, "Dai ron on Cho: 2 han 30 fu")


def test_a_correction_of_a_correction_names_the_correction_s_number(db: Path, tmp_path: Path) -> None:
    # The amendment of entry 4 is entry 9; cancelling it names 9, and becomes entry 10.
    run(db, "void", KEY, "9", "--by", "Eve", "--reason", "there was a dora after all")
    corrections = json.loads(run(db, "audit", KEY, "--json").stdout)["corrections"]
    assert [(c["entry"], c["kind"], c["target"]) for c in corrections] == [
        (8, "voided", 3),
        (9, "amended", 4),
        (10, "correction cancelled", 9),
    ]
    assert next(h for h in log(db)["hands"] if h["entry"] == 4)["result"] == "Ann ron on Ben: 3 han 30 fu"
    lines = exported_lines(db, tmp_path)
    assert (lines[10 - 1]["type"], lines[10 - 1]["target"]) == ("correction", 9)


def test_undo_names_the_entry_it_took_back_by_its_number(seed: Path) -> None:
    # The last entry is Dai's ron at S1-2, line 7 of the record file.
    said = run(seed, "undo", KEY).stdout
    assert f"Entry 7 taken back by entry 8 (match {KEY!r})" in said
    assert "Before: Dai ron on Cho: 2 han 30 fu" in said
    (voided,) = log(seed)["voided"]
    assert (voided["entry"], voided["hand"]) == (7, "S1-2")


def test_a_record_file_s_refused_correction_names_lines_not_positions(tmp_path: Path) -> None:
    # Line 3 (Cho's tsumo, the domain's position 4) voided twice: the second is refused, and
    # the message names the file's lines, as the file does.
    void = {"type": "correction", "target": 3, "replacement": None, "by": "Eve", "reason": "misread tile"}
    text = SEED_RECORD.read_text(encoding="utf-8") + json.dumps(void) + "\n" + json.dumps(void) + "\n"
    path = tmp_path / "twice.jsonl"
    path.write_text(text, encoding="utf-8")
    result = invoke(["--db", str(tmp_path / "honba.sqlite"), "import", str(path)])
    assert result.exit_code == 2, result.output
    assert "the result or penalty at line 3 is void already (by the correction at line 8" in result.output
