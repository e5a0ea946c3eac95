"""Every CSV honba writes is text to a spreadsheet, never a formula: a player named
``=HYPERLINK(...)`` is shown as that name (one guard, ``replay.cli.render.spreadsheet_cells``, for the
ledger, the standings and the statistics)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from honba_cli import ok

HOSTILE = ('=HYPERLINK("http://example.invalid")', "+1+cmd", "@SUM(A1)", "-Dai")


def league(tmp_path: Path) -> Path:
    db = tmp_path / "csv.sqlite"
    ok(db, "tournament", "create", "cup", "--players", ",".join(HOSTILE))
    ok(db, "start", "m1", "--players", ",".join(HOSTILE))
    ok(db, "win", "m1", "1:3/30", "--from", "0")
    ok(db, "end", "m1", "--reason", "time limit")
    ok(db, "tournament", "attach", "cup", "m1", "--session", "1")
    return db


def assert_names_are_text(rows: list[dict[str, str]]) -> None:
    names = {row["player"] for row in rows}
    assert names == {"'" + name for name in HOSTILE}
    for row in rows:
        # Numbers stay numbers, signs and all: only text that a spreadsheet would run is marked.
        assert not row["points"].startswith("'")
    assert any(row["points"].startswith("-") for row in rows)


def test_standings_csv_shows_formula_names_as_text(tmp_path: Path) -> None:
    db = league(tmp_path)
    assert_names_are_text(
        list(csv.DictReader(io.StringIO(ok(db, "standings", "--tournament", "cup", "--format", "csv"))))
    )


def test_stats_csv_shows_formula_names_as_text(tmp_path: Path) -> None:
    db = league(tmp_path)
    assert_names_are_text(list(csv.DictReader(io.StringIO(ok(db, "stats", "--tournament", "cup", "--format", "csv")))))
