"""Text from the data is printed as text (issue 11, case 1).

A player's, match's or tournament's name, a note or a reason that looks like console
markup (``[/b]``, ``[bold]``, ``[link=...]``), an emoji code or a terminal escape is
shown as the characters it is, in every command and every output format: it never
restyles the output, hides text, or crashes a command after it stored its result.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from honba_cli import honba

from replay.cli.render import SafeConsole, json_text, printable

PLAYERS = ["A[/b]", "[bold]B", "C[link=https://evil.example]x[/link]", ":thumbs_up:D"]
# Markup-like, without the "/" a match key may not hold (it is a part of its web address).
KEY = "mk[bold red]"
TOURNAMENT = "cup[red]"
ESC = "\x1b[2J"


def ok(db: Path, *args: str) -> str:
    result = honba(db, *args)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "h.sqlite"
    text = ok(path, "start", KEY, "--players", ",".join(PLAYERS))
    assert f"Started {KEY!r}" in text
    return path


def test_a_name_that_looks_like_markup_is_printed_as_text_by_every_recording_command(db: Path) -> None:
    a, b, c, d = PLAYERS
    for args in (
        ("win", KEY, f"{b}:3/30", "--from", a),
        ("draw", KEY, "--ready", c),
        ("abort", KEY, "four_winds"),
        ("penalty", KEY, d, "--note", "[/] noted [red]loud"),
        ("end", KEY, "--reason", "[/i] time"),
    ):
        text = ok(db, *args)
        for name in PLAYERS:
            assert name in text, args


def test_a_name_that_looks_like_markup_is_printed_as_text_by_every_reading_command(db: Path) -> None:
    ok(db, "penalty", KEY, PLAYERS[3], "--note", "[/] noted")
    assert KEY in ok(db, "list")
    status = ok(db, "status", KEY)
    assert KEY in status and all(name in status for name in PLAYERS)
    assert "[/] noted" in ok(db, "log", KEY)
    assert "[/] noted" in ok(db, "audit", KEY)
    assert "intact" in ok(db, "check")
    assert json.loads(ok(db, "status", KEY, "--json"))["match"] == KEY


def test_a_correction_by_and_reason_that_look_like_markup_are_printed_as_text(db: Path) -> None:
    ok(db, "win", KEY, f"{PLAYERS[1]}:3/30", "--from", PLAYERS[0])
    ok(db, "void", KEY, "2", "--by", "[b]Eve", "--reason", "[/] wrong")
    text = ok(db, "audit", KEY)
    assert "[b]Eve" in text and "[/] wrong" in text


def test_a_tournament_name_that_looks_like_markup_is_printed_as_text(db: Path) -> None:
    ok(db, "tournament", "create", TOURNAMENT, "--players", ",".join(PLAYERS))
    ok(db, "tournament", "attach", TOURNAMENT, KEY)
    assert TOURNAMENT in ok(db, "tournament", "show", TOURNAMENT)
    standings = ok(db, "standings", "--tournament", TOURNAMENT)
    assert TOURNAMENT in standings and PLAYERS[1] in standings


def test_an_export_of_a_match_with_markup_names_imports_into_another_store(db: Path, tmp_path: Path) -> None:
    file = tmp_path / "mk[red].jsonl"
    ok(db, "win", KEY, f"{PLAYERS[1]}:3/30", "--from", PLAYERS[0])
    ok(db, "export", KEY, "-o", str(file))
    other = tmp_path / "other.sqlite"
    assert f"match {KEY!r} stored" in ok(other, "import", str(file))
    assert str(file) in ok(other, "check", str(file))


def test_terminal_escapes_in_a_name_never_reach_the_terminal(tmp_path: Path) -> None:
    # Issue 24: a name is one line of text, so a name with an escape is refused (domain.bounds); the
    # refusal quotes it with the escape written out, never acted on.
    db = tmp_path / "e.sqlite"
    for names in (f"Ann{ESC},Ben,Cho,Dai", "Ann,Ben\x9b31m,Cho,Dai", "Ann,Ben,Cho\u202e,Dai"):
        result = honba(db, "start", "esc", "--players", names)
        assert result.exit_code == 2
        assert "\x1b" not in result.output and "\x9b" not in result.output and "\u202e" not in result.output
        assert "name: " in result.stderr and "it must be one line of text" in result.stderr
    assert "esc" not in ok(db, "list")


def test_the_json_output_keeps_the_text_and_escapes_what_a_terminal_acts_on() -> None:
    text = json_text({"name": "[/b]Ann\u2028\x9b\u202e"})
    assert "\u2028" not in text and "\x9b" not in text and "\u202e" not in text
    assert json.loads(text) == {"name": "[/b]Ann\u2028\x9b\u202e"}


def test_the_console_never_reads_markup_even_when_asked() -> None:
    console = SafeConsole(width=80, record=True, color_system=None)
    console.print("[/b] [link=x]y[/link] :smile:", markup=True, emoji=True)
    assert console.export_text().strip() == "[/b] [link=x]y[/link] :smile:"
    assert printable("a\tb\nc\rd\x07") == "a\tb\ncd"


def test_a_tenhou_handle_that_decodes_to_markup_is_printed_as_text(tmp_path: Path) -> None:
    from conftest import CORPUS

    source = CORPUS / "tenhou-wire-2018" / "2018021205gm-0089-0000-b659bd89.mjlog"
    if not source.exists():
        pytest.skip("the shared corpus is not here")
    text = source.read_text(encoding="utf-8")
    handle = 'n0="%E3%82%AA%E3%83%83%E3%83%88%E3%83%83%E3%83%88"'
    assert handle in text
    log = tmp_path / "hostile.mjlog"  # a copy in the test's own directory, changed there
    log.write_text(text.replace(handle, 'n0="%5B%2Fb%5DAnn"'), encoding="utf-8")
    db = tmp_path / "t.sqlite"
    imported = ok(db, "import", str(log))
    (key,) = re.findall(r"match '([^']+)' stored", imported)
    assert "[/b]Ann" in ok(db, "list")
    assert "[/b]Ann" in ok(db, "status", key)
    assert "[/b]Ann" in ok(db, "log", key)
