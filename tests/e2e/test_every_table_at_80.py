"""Every command that prints a table reads at 80 columns (and at 160): no number cut or wrapped
inside, no word of a header broken, nothing cut off with "…", no table line past the width.

Issue 25 saw "-3,90/0", "25,00/0" and "deale/r" in ``honba log`` at 80 columns, the same in
``audit``, ``standings`` and the ``verify`` summary, and ``honba stats`` one letter a column.
Tables too wide for the terminal now fold (replay/cli/layout.py): into tables of fewer
columns, or one block per row. The store here has what makes tables wide: long names,
five-digit scores, a win entered by its tiles (yaku in Japanese), corrections, a penalty, the
clock, a tournament with a table in progress, and a real Tenhou game imported.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import CORPUS
from honba_cli import invoke

PLAYERS = ("Annabelle-Longname", "Benedict-Longname", "Chotaro-Longname", "Daisuke-Longname")
GAME = CORPUS / "tsubakisakura-mjlog2json" / "data" / "2019021004gm-00a9-0000-e2f6516d.xml"
WIDTHS = (80, 160)
# A number as honba prints it: digits in groups of three after the first, an optional sign and
# decimals. A number cut inside ("-3,90" then "0") leaves a group of fewer than three.
NUMBER = re.compile(r"(?<![\w.,:/-])[+-]?\d(?:[\d,]*\d)?(?:\.\d+)?(?![\w])")
WELL_FORMED = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?")
TABLE_LINE = re.compile(r"^[┏┃┡│└├┗┣]")


def run(db: Path, columns: int, *args: str) -> str:
    result = invoke(["--db", str(db), *args], env={"COLUMNS": str(columns)})
    assert result.exit_code in (0, 1), f"honba {' '.join(args)}: {result.output}"
    return result.stdout


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("wide") / "wide.sqlite"
    a, b, c, d = PLAYERS
    steps = [
        ["tournament", "create", "cup", "--players", ",".join(PLAYERS)],
        ["start", "t1", "--players", ",".join(PLAYERS)],
        ["clock", "set", "t1", "--minutes", "60"],
        ["clock", "start", "t1"],
        ["win", "t1", b, "--from", a, "--riichi", b, "--hand", "234m567p23488s678s", "--win-tile", "2s",
         "--dora-indicators", "1m"],
        ["win", "t1", f"{c}:mangan"],
        ["penalty", "t1", d, "--amount", "12000", "--share", "off_table"],
        ["draw", "t1", "--ready", f"{a},{c}"],
        ["amend", "t1", "3", "win", f"{c}:haneman", "--by", "Referee Eve", "--reason", "the hand had a flush"],
        ["win", "t1", f"{d}:3/30", "--from", b],
        ["void", "t1", "7", "--by", "Referee Eve", "--reason", "the discard was taken back at the table"],
        ["tournament", "attach", "cup", "t1", "--session", "1", "--table", "1"],
        ["start", "t2", "--players", ",".join(reversed(PLAYERS))],
        ["win", "t2", f"{a}:4/40", "--from", d],
        ["end", "t2", "--reason", "time limit"],
        ["tournament", "attach", "cup", "t2", "--session", "1", "--table", "2"],
        ["import", str(GAME), "--tournament", "cup", "--session", "2"],
    ]  # fmt: skip
    if not GAME.is_file():
        # A checkout without the shared corpus: everything but the imported game's tables is still checked.
        steps = [step for step in steps if step[0] != "import"]
    for step in steps:
        result = invoke(["--db", str(path), *step])
        assert result.exit_code == 0, f"{step}: {result.output}"
    return path


COMMANDS = {
    "status": ["status", "t1"],
    "log": ["log", "t1"],
    "log of an import": ["log", GAME.stem],
    "list": ["list"],
    "audit": ["audit", "t1", "--rules", "wrc"],
    "check": ["check"],
    "rules show": ["rules", "show", "tenhou"],
    "rules diff": ["rules", "diff", "tenhou", "wrc"],
    "standings": ["standings", "--tournament", "cup"],
    "stats": ["stats", "--tournament", "cup"],
    "stats of everything": ["stats", "--all"],
    "tournament show": ["tournament", "show", "cup"],
    "clock show": ["clock", "show", "t1"],
    "verify": ["verify", str(GAME)],
}


HEADER_WORDS = {
    "log": ("entry", "dealer", "result", "payments"),
    "audit": ("dealer", "payments", "corrects", "replacement"),
    "standings": ("rank", "player", "points", "matches", "penalties"),
    "stats": ("player", "matches", "self-drawn", "deal-in", "deposits"),
    "verify": ("files", "games", "hands", "agreeing", "disagreements", "unsupported", "unreadable"),
    "status": ("seat", "player", "wind", "score", "place"),
    "check": ("events", "status", "digest"),
}


def numbers_in(text: str) -> list[str]:
    return NUMBER.findall(text)


def test_the_check_finds_the_numbers_cut_as_issue_25_saw_them() -> None:
    assert [n for n in numbers_in("│ -3,90 │\n│ 0 │ 25,00 │ +23.0 │ 12,000") if not WELL_FORMED.fullmatch(n)] == [
        "-3,90",
        "25,00",
    ]


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize("name", COMMANDS)
def test_every_table_keeps_its_numbers_and_words_whole(db: Path, columns: int, name: str) -> None:
    if GAME.stem in COMMANDS[name][-1] and not GAME.is_file():
        pytest.skip("../shared/corpus is not present: no imported game to show")
    shown = run(db, columns, *COMMANDS[name])
    assert shown.strip(), name
    assert "…" not in shown
    assert all(len(line) <= columns for line in shown.splitlines() if TABLE_LINE.match(line))
    broken = [n for n in numbers_in(shown) if not WELL_FORMED.fullmatch(n)]
    assert broken == [], f"{name} at {columns} columns cuts numbers: {broken}"
    # Every header word whole (a column is never narrower than its longest word).
    for word in HEADER_WORDS.get(name, ()):
        assert word in shown, f"{name} at {columns} columns: {word!r} is not whole"


@pytest.mark.parametrize("columns", WIDTHS)
def test_the_ledger_shows_every_score_and_change_whole(db: Path, columns: int) -> None:
    hands = json.loads(run(db, 200, "log", "t1", "--json"))["hands"]
    shown = run(db, columns, "log", "t1")
    for hand in hands:
        for player in PLAYERS:
            assert f"{hand['scores_after'][player]:,}" in shown
            assert f"{hand['changes'][player]:+,}" in shown
    for word in ("dealer", "payments", "result"):
        assert word in shown


@pytest.mark.parametrize("columns", WIDTHS)
def test_the_standings_and_statistics_show_their_points_whole(db: Path, columns: int) -> None:
    data = json.loads(run(db, 200, "standings", "--tournament", "cup", "--format", "json"))
    shown = run(db, columns, "standings", "--tournament", "cup")
    for row in data["rows"]:
        assert f"{row['points']:+.1f}" in shown and row["player"] in shown
    stats = json.loads(run(db, 200, "stats", "--tournament", "cup", "--format", "json"))
    text = run(db, columns, "stats", "--tournament", "cup")
    for row in stats["players"]:
        assert f"{row['points']:+.1f}" in text and f"{row['average_place']:.2f}" in text
    if GAME.is_file():  # the imported game's wins carry their yaku (t1, which has some, is still playing)
        assert "Wins by yaku" in text


@pytest.mark.parametrize("columns", WIDTHS)
def test_a_session_seated_by_honba_shows_its_tables_and_links_whole(db: Path, columns: int, tmp_path: Path) -> None:
    # Seating changes the store: a copy of it, session 3 of "cup" seated (issue 22's seat --method).
    copy = tmp_path / "seated.sqlite"
    shutil.copyfile(db, copy)
    shown = run(copy, columns, "tournament", "seat", "cup", "3", "--method", "random", "--seed", "7")
    assert "…" not in shown
    assert all(len(line) <= columns for line in shown.splitlines() if TABLE_LINE.match(line))
    for word in (*PLAYERS, "cup-s3-t1", "players", "match"):
        assert word in shown, f"seat at {columns} columns: {word!r} is not whole"
    # The link is one word to copy, on one line: never folded.
    assert re.search(r"table link: /matches/cup-s3-t1\?token=[0-9a-f]{12}\.[\w-]{32}\n", shown), shown


def test_at_80_columns_the_ledger_is_one_block_per_entry_and_at_160_a_table(db: Path) -> None:
    narrow = run(db, 80, "log", "t1")
    assert "entry 2 · nth hand 1 · hand E1-0" in narrow and not any(TABLE_LINE.match(x) for x in narrow.splitlines())
    wide = run(db, 200, "log", "t1")
    assert any(TABLE_LINE.match(line) for line in wide.splitlines())
