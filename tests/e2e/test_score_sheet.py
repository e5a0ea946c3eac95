"""The printed score sheet of a session (``honba tournament sheet``, the director's page's link):
one sheet a table with its players, seat winds, rules, start scores and empty rows; its columns the
ones ``honba audit --against`` reads, so that a sheet filled in and typed back is compared.

The match is the seeds' counters example (docs/examples/counters-seed.jsonl, Ann dealing first),
attached to a tournament's session as its table 1; the sheet typed back is the docs'
example sheet (its S1-2 row deliberately wrong by the 2 counters counted as 300, not 600)."""

from __future__ import annotations

import csv
import io
import re
from html.parser import HTMLParser
from pathlib import Path

from honba_cli import Honba

DOCS = Path(__file__).resolve().parents[2] / "docs"
SEED = DOCS / "examples" / "counters-seed.jsonl"
SEED_SHEET = DOCS / "examples" / "counters-seed-sheet.csv"


class _Sheets(HTMLParser):
    """Each sheet's header cells (``thead th``'s text, the wind left out) and its number of rows."""

    def __init__(self) -> None:
        super().__init__()
        self.sheets: list[dict[str, list[str] | int]] = []
        self._in: list[str] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._in.append(tag)
        if tag == "section":
            self.sheets.append({"columns": [], "winds": [], "rows": 0})
        elif tag == "th" and "thead" in self._in:
            self._cell = []
        elif tag == "span" and self._cell is not None:
            self._cell.append("\0")
        elif tag == "tr" and "tbody" in self._in:
            sheet = self.sheets[-1]
            sheet["rows"] = int(sheet["rows"]) + 1  # type: ignore[call-overload]

    def handle_endtag(self, tag: str) -> None:
        if tag == "th" and self._cell is not None:
            name, _, wind = "".join(self._cell).partition("\0")
            self.sheets[-1]["columns"].append(name)  # type: ignore[union-attr]
            if wind:
                self.sheets[-1]["winds"].append(wind)  # type: ignore[union-attr]
            self._cell = None
        while self._in and self._in.pop() != tag:
            pass

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def sheets_of(page: str) -> list[dict[str, list[str] | int]]:
    parser = _Sheets()
    parser.feed(page)
    return parser.sheets


def seated(tmp_path: Path) -> Honba:
    """The seed's match at table 1 of session 1 of "cup"; session 2 seated by honba (two tables)."""
    honba = Honba(tmp_path / "s.sqlite")
    honba.ok("import", str(SEED))
    honba.ok("tournament", "create", "cup", "--players", "Ann,Ben,Cho,Dai,Eve,Fay,Gus,Hal")
    honba.ok("tournament", "attach", "cup", "seed-counters-example", "--session", "1", "--table", "1")
    return honba


def test_a_sheet_has_the_players_by_seat_wind_the_rules_and_empty_rows_for_a_hanchan(tmp_path: Path) -> None:
    honba = seated(tmp_path)
    page = honba.ok("tournament", "sheet", "cup", "1", "--public-url", "http://192.168.1.20:8000")
    [sheet] = sheets_of(page)
    assert sheet["columns"] == ["hand", "Ann", "Ben", "Cho", "Dai"]
    # In seat order from the first dealer: Ann deals East 1.
    assert sheet["winds"] == ["East", "South", "West", "North"]
    assert 'Rules: <strong class="rules">tenhou</strong>' in page
    # The start row, 8 hands of a hanchan twice over and 4 more, the signatures.
    assert sheet["rows"] == 1 + 20 + 1
    # The QR code holds the table's public page at the address given.
    assert "http://192.168.1.20:8000/matches/seed-counters-example" in page
    assert page.count("<svg") == 1


def test_the_sheets_columns_typed_back_are_read_by_audit_against(tmp_path: Path) -> None:
    """The header printed on the sheet, with the seeds' rows written under it, is the sheet ``audit
    --against`` reads: it finds the one deliberate difference at S1-2 (Cho +300, Dai -300)."""
    honba = seated(tmp_path)
    [sheet] = sheets_of(honba.ok("tournament", "sheet", "cup", "1"))
    rows = list(csv.DictReader(SEED_SHEET.read_text(encoding="utf-8").splitlines()))
    typed = io.StringIO()
    writer = csv.writer(typed)
    columns = [str(c) for c in sheet["columns"]]  # type: ignore[union-attr]
    writer.writerow(columns)
    for row in rows:
        writer.writerow([row[column] for column in columns])
    path = tmp_path / "typed.csv"
    path.write_text(typed.getvalue(), encoding="utf-8")
    result = honba("audit", "seed-counters-example", "--against", str(path), "--json")
    assert result.exit_code == 1, result.output
    assert re.search(r'"hand": "S1-2"', result.stdout), result.stdout


def test_a_sheet_is_written_to_a_file_one_section_a_table_and_a_bad_paper_is_refused(tmp_path: Path) -> None:
    honba = seated(tmp_path)
    honba.ok("tournament", "seat", "cup", "2", "--seed", "3")
    honba.ok("tournament", "sheet", "cup", "2", "-o", str(tmp_path / "s2.html"), "--paper", "letter")
    page = (tmp_path / "s2.html").read_text(encoding="utf-8")
    assert len(sheets_of(page)) == 2
    assert "@page { size: letter;" in page
    assert "break-after: page" in page
    # Without a public URL no QR code: a relative address would be of no use on paper.
    assert "<svg" not in page
    assert honba.refused("tournament", "sheet", "cup", "2", "--paper", "tabloid") == (
        "honba: --paper must be a4 or letter, not 'tabloid'"
    )
    assert "session 3 of 'cup' is not seated" in honba.refused("tournament", "sheet", "cup", "3")
    assert "phones.local" in honba.refused("tournament", "sheet", "cup", "2", "--public-url", "phones.local")
