"""``honba log`` marks corrections and numbers entries as exported record files do.

Issue 10: "`honba log` shows the corrected history without marks: an amended hand reads
as if played that way, a voided one disappears; positions in an exported file differ
from those `honba log` shows."

The match is the worked example of seed 003 (docs/examples/counters-seed.jsonl): Ben's
ron on Ann at E1-0 (position 2), Cho's tsumo at E2-0 (position 4), Ann's 3 han 30 fu ron
on Ben at E3-0 (position 6), and so on.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from test_audit import KEY, SEED_RECORD
from typer.testing import CliRunner, Result

from projections.ledger import corrected_ledger, correction_marks
from replay.cli import app
from replay.formats.record import build_match, parse_record
from replay.render import ledger_table

runner = CliRunner()


def run(db: Path, *args: str) -> Result:
    result = runner.invoke(app, ["--db", str(db), *args])
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """The seed's match, Cho's tsumo voided and Ann's 3 han amended to 2 han."""
    path = tmp_path / "honba.sqlite"
    run(path, "import", str(SEED_RECORD))
    run(path, "void", KEY, "4", "--by", "Eve", "--reason", "misread tile")
    run(path, "amend", KEY, "6", "win", "Ann:2/30", "--from", "Ben", "--by", "Eve", "--reason", "no dora")
    return path


def log(db: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(run(db, "log", KEY, "--json").stdout)
    return data


def test_an_amended_hand_shows_what_it_was_and_who_changed_it_and_why(db: Path) -> None:
    amended = next(h for h in log(db)["hands"] if h["position"] == 6)
    assert amended["result"] == "Ann ron on Ben: 2 han 30 fu"
    correction = amended["correction"]
    assert (correction["kind"], correction["original"]) == ("amended", "Ann ron on Ben: 3 han 30 fu")
    assert (correction["by"], correction["reason"]) == ("Eve", "no dora")
    text = run(db, "log", KEY).stdout
    assert "was: Ann ron on Ben: 3 han 30 fu" in text
    assert "amended at 14 by Eve: no dora" in text


def test_a_voided_hand_stays_in_the_log_with_who_voided_it_and_why(db: Path) -> None:
    (voided,) = log(db)["voided"]
    assert (voided["position"], voided["hand"]) == (4, "E2-0")
    assert voided["correction"]["original"] == "Cho tsumo: 2 han 30 fu"
    assert (voided["correction"]["by"], voided["correction"]["reason"]) == ("Eve", "misread tile")
    assert "voided at 13 by Eve: misread tile" in run(db, "log", KEY).stdout


def test_a_voided_hand_is_struck_through() -> None:
    match = build_match(parse_record(SEED_RECORD.read_text(encoding="utf-8")))
    match.void(4, by="Eve", reason="misread tile")
    marks = correction_marks(match.history, match.corrections, match.corrected_steps())
    console = Console(record=True, width=200, force_terminal=True)
    console.print(ledger_table(match.players, corrected_ledger(match.corrected_steps()), "log", marks=marks))
    struck = "\x1b[9m"  # the terminal's strike-through
    assert f"{struck}Cho tsumo: 2 han 30 fu" in console.export_text(styles=True)


def test_the_log_numbers_each_entry_by_its_line_in_an_exported_file(db: Path, tmp_path: Path) -> None:
    exported = tmp_path / "match.jsonl"
    run(db, "export", KEY, "--output", str(exported))
    lines = [json.loads(line) for line in exported.read_text(encoding="utf-8").splitlines()]
    data = log(db)
    for hand in data["hands"]:
        line = lines[hand["line"] - 1]
        assert line["type"] in ("win", "draw", "abort", "penalty")
    (voided,) = data["voided"]
    assert lines[voided["line"] - 1]["type"] == "win"  # Cho's tsumo, as recorded
    # The corrections in the file name those same lines.
    corrections = [line for line in lines if line["type"] == "correction"]
    assert [c["target"] for c in corrections] == [
        voided["line"],
        next(h["line"] for h in data["hands"] if h["position"] == 6),
    ]
