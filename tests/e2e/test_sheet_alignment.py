"""``honba audit --against``: a table's sheet is compared hand by hand, as played or as corrected.

Issue 10: "A score sheet is compared with the corrected ledger only, row by row, so a
table's sheet that still has a voided hand misaligns from there on; the text output
prints only the first difference."

The match is the worked example of seed 003 (docs/examples/counters-seed.jsonl); its
changes, worked by hand in tests/e2e/test_audit.py from the published Tenhou table:

    E1-0 Ben ron on Ann 1/30        -1,000  +1,000       0       0   (entry 2)
    E2-0 Cho tsumo 2/30               -500  -1,000  +2,000    -500   (entry 3)
    E3-0 Ann ron on Ben 3/30        +3,900  -3,900       0       0
    E4-0 Dai (dealer) tsumo 1/30      -500    -500    -500  +1,500
    E4-1 draw, only Ann ready       +3,000  -1,000  -1,000  -1,000
    S1-2 Dai ron on Cho 2/30             0       0  -2,600  +2,600
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from honba_cli import invoke
from test_audit import HEADER, KEY, SEED_RECORD
from typer.testing import Result

# The table's sheet of changes, each row named by its hand.
TABLE_SHEET = [
    "E1-0,-1000,1000,0,0",
    "E2-0,-500,-1000,2000,-500",
    "E3-0,3900,-3900,0,0",
    "E4-0,-500,-500,-500,1500",
    "E4-1,3000,-1000,-1000,-1000",
    "S1-2,0,0,-2600,2600",
]


@pytest.fixture
def voided(tmp_path: Path) -> Path:
    """The seed's match with E2-0 voided by the referee after the later hands were played."""
    db = tmp_path / "honba.sqlite"
    assert run(db, "import", str(SEED_RECORD)).exit_code == 0
    assert run(db, "void", KEY, "3", "--by", "Eve", "--reason", "Cho's tsumo was a misread tile").exit_code == 0
    return db


def run(db: Path, *args: str) -> Result:
    return invoke(["--db", str(db), *args])


def write(tmp_path: Path, rows: list[str]) -> Path:
    path = tmp_path / "sheet.csv"
    path.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    return path


def sheet_of(db: Path, *args: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(run(db, "audit", KEY, *args, "--json").stdout)["sheet"]
    return data


def test_a_sheet_that_still_has_a_voided_hand_parts_only_at_that_hand(voided: Path, tmp_path: Path) -> None:
    comparison = sheet_of(voided, "--against", str(write(tmp_path, TABLE_SHEET)))
    assert [d["hand"] for d in comparison["differences"]] == ["E2-0", "end"]
    assert "E2-0 is not a hand of the ledger" in comparison["first_difference"]["text"]


def test_a_table_sheet_agrees_with_the_history_as_played(voided: Path, tmp_path: Path) -> None:
    path = write(tmp_path, TABLE_SHEET)
    comparison = sheet_of(voided, "--against", str(path), "--as-played")
    assert comparison["first_difference"] is None
    assert run(voided, "audit", KEY, "--against", str(path), "--as-played").exit_code == 0


def test_rows_are_matched_by_hand_in_any_order(voided: Path, tmp_path: Path) -> None:
    rows = [TABLE_SHEET[0], *reversed(TABLE_SHEET[2:])]
    assert sheet_of(voided, "--against", str(write(tmp_path, rows)))["first_difference"] is None


def test_the_text_prints_every_difference(voided: Path, tmp_path: Path) -> None:
    # The scorer wrote E3-0 as 2 han 30 fu (2,000) and S1-2's counters as 300 in all.
    rows = [*TABLE_SHEET[:2], "E3-0,2000,-2000,0,0", *TABLE_SHEET[3:5], "S1-2,0,0,-2300,2300"]
    text = run(voided, "audit", KEY, "--against", str(write(tmp_path, rows)), "--as-played").stdout
    assert "first parts from the ledger at E3-0" in text
    assert "also at S1-2" in text
