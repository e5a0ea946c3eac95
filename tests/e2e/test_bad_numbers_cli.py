"""What a careless operator types, refused in one line with nothing stored (issue 24, cases 3 and 4).

Each command runs as the console script runs it (``honba_main``: its one-line usage errors and
exit codes), in this process. Before issue 24 each of these printed a Python traceback (a
5000-digit han, fu, seat or ``--set`` value; ``amend --result`` nested 100,000 deep or with an
integer too long to read; ``audit --against`` a binary file; ``serve --port 99999``) or stored a
value nobody can mean (a penalty of 99,999,999,999,999,999,999,999; a session of 10^23).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from fuzz_samples import mjai_log
from honba_cli import Run, honba_main, store_rows

KEY = "club-1"
DIGITS = "9" * 5000
HUGE = str(10**23)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A store with one match (Ann deals) where Ben won the first hand on Ann's discard (entry 2)."""
    path = tmp_path / "store.sqlite"
    ok(path, "start", KEY, "--players", "Ann,Ben,Cho,Dai")
    ok(path, "win", KEY, "Ben:3/30", "--from", "Ann")
    ok(path, "tournament", "create", "cup", "--players", "Ann,Ben,Cho,Dai")
    return path


def ok(db: Path, *args: str) -> str:
    run = honba_main("--db", str(db), *args)
    assert run.code == 0 and not run.traceback, (run.stderr, run.traceback)
    return run.stdout


def refused(db: Path, *args: str) -> str:
    """The one line a refused command prints: exit 2, no traceback, nothing stored."""
    before = store_rows(db)
    run = honba_main("--db", str(db), *args)
    assert not run.traceback, run.traceback
    assert run.code == 2, run
    assert "Traceback" not in run.stderr + run.stdout
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert len(lines[0]) <= 620, lines[0]  # replay.cli.shell.clipped
    assert lines[0].startswith("honba: ")
    assert store_rows(db) == before
    return lines[0]


# A 5000-digit han, fu, seat or --set value.


def test_a_han_of_5000_digits_is_refused_naming_the_han(db: Path) -> None:
    # The hand value is a text field of the entry (replay/input/fields.py): one line of at most 200
    # characters, then each count read by the number reader (at most 20 characters).
    line = refused(db, "win", KEY, f"Cho:{DIGITS}/30", "--from", "Ann")
    assert "value: 5,003 characters, at most 200" in line
    line = refused(db, "win", KEY, f"Cho:{DIGITS[:25]}/30", "--from", "Ann")
    assert "han: " in line and "too long for a number" in line


def test_a_fu_of_5000_digits_is_refused_naming_the_fu(db: Path) -> None:
    line = refused(db, "win", KEY, f"Cho:3/{DIGITS}", "--from", "Ann")
    assert "value: 5,002 characters, at most 200" in line
    line = refused(db, "win", KEY, f"Cho:3/{DIGITS[:25]}", "--from", "Ann")
    assert "fu: " in line and "too long for a number" in line


@pytest.mark.parametrize("where", ["winner", "--from", "--riichi"])
def test_a_seat_of_5000_digits_or_unicode_digits_is_no_player(db: Path, where: str) -> None:
    field = {"winner": "winner", "--from": "discarder", "--riichi": "riichi"}[where]
    for seat in (DIGITS, DIGITS[:25], "²", "4"):
        args = {
            "winner": (f"{seat}:3/30", "--from", "Ann"),
            "--from": ("Cho:3/30", "--from", seat),
            "--riichi": ("Cho:3/30", "--from", "Ann", "--riichi", seat),
        }[where]
        line = refused(db, "win", KEY, *args)
        if seat == DIGITS:
            # A field of the entry is one line of at most 200 characters (replay/input/fields.py).
            assert f"{field}: 5,000 characters, at most 200" in line
        else:
            assert "is not a player at this table (Ann, Ben, Cho, Dai)" in line


def test_a_rule_value_of_5000_digits_is_refused_naming_the_rule(db: Path) -> None:
    line = refused(db, "start", "club-2", "--players", "Ann,Ben,Cho,Dai", "--set", f"start_score={DIGITS}")
    assert "--set 'start_score': " in line and "too long for a number" in line
    line = refused(db, "start", "club-2", "--players", "Ann,Ben,Cho,Dai", "--set", "uma=" + "[" * 100_000)
    assert "--set 'uma': not a JSON list or object (nested more than" in line


# amend --result with deeply nested JSON or a huge integer.


def test_a_result_line_nested_100000_deep_is_refused(db: Path) -> None:
    line = refused(db, "amend", KEY, "2", "--by", "Ref", "--reason", "x", "--result", "[" * 100_000)
    assert "--result is not JSON (nested more than 32 deep)" in line


def test_a_result_line_with_an_integer_too_long_to_read_is_refused(db: Path) -> None:
    result = json.dumps({"type": "win", "wins": [{"winner": "Ben", "from": "Ann", "han": 3, "fu": 30}]})
    line = refused(db, "amend", KEY, "2", "--by", "Ref", "--reason", "x", "--result", result.replace("30", DIGITS))
    assert "--result is not JSON (a number too long to read)" in line


# audit --against a binary file.


def test_an_audit_against_a_binary_file_is_refused(db: Path, tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    sheet.write_bytes(bytes(range(256)) * 16)
    assert f"{sheet}: not a CSV score sheet" in refused(db, "audit", KEY, "--against", str(sheet))
    sheet.write_bytes(b"hand,Ann,Ben,Cho,Dai\nE1-0,0,\x00,0,0\n")
    assert f"{sheet}:2: every player needs a whole number" in refused(db, "audit", KEY, "--against", str(sheet))
    sheet.write_bytes(b"hand,Ann,Ben,Cho,Dai\nE1-0,0," + b"9" * 200_000 + b",0,0\n")
    assert f"{sheet}: not a CSV score sheet" in refused(db, "audit", KEY, "--against", str(sheet))


def test_a_sheet_with_unicode_digits_reads_no_number(db: Path, tmp_path: Path) -> None:
    sheet = tmp_path / "sheet.csv"
    sheet.write_text("hand,Ann,Ben,Cho,Dai\nE1-0,-3900,٣٩٠٠,0,0\n", encoding="utf-8")
    assert f"{sheet}:2: every player needs a whole number" in refused(db, "audit", KEY, "--against", str(sheet))


def test_a_rule_file_with_a_number_of_5000_digits_or_nested_too_deep_is_refused(db: Path, tmp_path: Path) -> None:
    rules = tmp_path / "club.toml"
    rules.write_text(f'base = "tenhou"\nstart_score = {DIGITS}\n', encoding="utf-8")
    run = honba_main("rules", "show", str(rules))
    assert (run.code, run.traceback) == (2, "")
    assert run.stderr == f"honba: {rules}: not valid TOML: a number too long to read\n"
    rules.write_text("uma = " + "[" * 100_000 + "\n", encoding="utf-8")
    assert "not valid TOML: nested too deep" in refused(
        db, "start", "club-2", "--players", "A,B,C,D", "--rules-file", str(rules)
    )


# serve --port 99999.


@pytest.mark.parametrize("port", ["99999", "0", "-1", "²", DIGITS])
@pytest.mark.timeout(120)  # a port taken would serve until stopped: a guard, not a speed test
def test_a_port_no_server_can_listen_on_is_refused_before_serving(db: Path, port: str) -> None:
    assert "Invalid value for '--port'" in refused(db, "serve", "--port", port)


# Values nobody can mean.


def test_a_penalty_of_99999999999999999999999_is_refused_not_stored(db: Path) -> None:
    # --amount is the entry's amount field, read by the one number reader (replay/input/fields.py).
    line = refused(db, "penalty", KEY, "Ann", "--amount", "99999999999999999999999")
    assert line == "honba: amount: '99999999999999999999999' is too long for a number (at most 20 characters)"
    line = refused(db, "penalty", KEY, "Ann", "--amount", "4000001")
    assert line == "honba: penalty amount: 4000001 is out of range (1 to 4,000,000)"
    refused(db, "amend", KEY, "2", "--by", "Ref", "--reason", "x", "penalty", "Ann", "--amount", "9" * 23)
    shown = ok(db, "penalty", KEY, "Ann", "--amount", "4000000", "--share", "off_table")
    assert "Ann -> Ben 4,000,000" not in shown


def test_sessions_of_ten_to_the_twenty_three_are_refused(db: Path, tmp_path: Path) -> None:
    assert "Invalid value for 'session'" in refused(db, "tournament", "seat", "cup", HUGE, "Ann,Ben,Cho,Dai")
    assert "Invalid value for '--session'" in refused(db, "tournament", "attach", "cup", KEY, "--session", HUGE)
    assert "Invalid value for '--table'" in refused(db, "tournament", "attach", "cup", KEY, "--table", "1001")
    assert "Invalid value for '--after'" in refused(db, "standings", "--tournament", "cup", "--after", HUGE)
    (tmp_path / "logs").mkdir()
    imported = refused(db, "import", str(tmp_path / "logs"), "--tournament", "cup", "--session", HUGE)
    assert "Invalid value for '--session'" in imported
    ok(db, "tournament", "seat", "cup", "1000", "Ann,Ben,Cho,Dai")


def test_dora_of_ten_to_the_twenty_three_are_refused(db: Path) -> None:
    line = refused(db, "win", KEY, "Cho:13han", "--from", "Ann", "--dora", HUGE)
    assert line == f"honba: dora: '{HUGE}' is too long for a number (at most 20 characters)"
    assert "dora cannot be more than" in refused(db, "win", KEY, "Cho:13han", "--from", "Ann", "--dora", "99")


def test_a_yakuman_counted_a_thousand_times_is_refused(db: Path) -> None:
    line = refused(db, "win", KEY, "Cho:1000xyakuman", "--from", "Ann")
    assert line == "honba: yakuman multiple: 1000 is out of range (1 to 6)"
    assert "Ann -> Cho 192,000" in ok(db, "win", KEY, "Cho:6xyakuman", "--from", "Ann").replace("192000", "192,000")


@pytest.mark.parametrize("option", ["--batch", "--jobs", "--session"])
def test_import_options_are_numbers_in_their_range(db: Path, tmp_path: Path, option: str) -> None:
    for value in ("0", "²", DIGITS, "1e3"):
        assert f"Invalid value for '{option}'" in refused(db, "import", str(tmp_path), option, value)


def test_a_key_prefix_with_a_slash_is_refused_once_before_any_file_is_read(db: Path, tmp_path: Path) -> None:
    line = refused(db, "import", str(tmp_path), "--key-prefix", "club/")
    assert line == "honba: --key-prefix: 'club/' holds '/': a match's key is a part of its web address"


def test_names_and_keys_on_two_lines_are_refused_where_typed(db: Path) -> None:
    assert "player 2's name: " in refused(db, "start", "club-3", "--players", "Ann,B\nen,Cho,Dai")
    assert "match key: " in refused(db, "start", "club\x1b[2J", "--players", "Ann,Ben,Cho,Dai")
    assert "client key: " in refused(db, "draw", KEY, "--key", "k\r\n")
    assert "tournament name: " in refused(db, "tournament", "create", "cup\u202e", "--players", "Ann")
    assert "alias: " in refused(db, "tournament", "alias", "cup", "An\tn", "Ann")


def run_as_console_script(*args: str) -> Run:
    return honba_main(*args)


def test_the_console_script_runs_here_as_it_runs_installed(tmp_path: Path) -> None:
    # The helper the tests above use gives what the installed command gives: one line, exit 2.
    run = run_as_console_script("--db", os.fspath(tmp_path / "s.sqlite"), "serve", "--port", "99999")
    assert (run.code, run.traceback) == (2, "")
    assert run.stderr == "honba: Invalid value for '--port': 99999 is out of range (1 to 65,535) (see honba --help)\n"


# Found by tests/e2e/test_fuzz_cli.py.


def test_a_key_of_20000_characters_is_quoted_in_one_short_line(db: Path) -> None:
    line = refused(db, "status", "k" * 20_000)
    assert line.startswith("honba: no match 'kkk") and line.endswith("kkk' in the store")
    assert " ... " in line and len(line) <= 610


def test_a_file_name_with_a_line_break_is_quoted_on_one_line(db: Path, tmp_path: Path) -> None:
    line = refused(db, "audit", KEY, "--against", str(tmp_path / "sheet\nx.csv"))
    assert "sheet\\nx.csv" in line and "No such file" in line


@pytest.mark.parametrize("command", ["import", "verify"])
def test_a_path_longer_than_the_system_takes_is_one_unreadable_file(db: Path, tmp_path: Path, command: str) -> None:
    good = tmp_path / "good.jsonl"
    good.write_bytes(mjai_log())
    run = honba_main("--db", str(db), command, "x" * 5000, str(good))
    assert (run.code, run.traceback) == (2, "")
    (line,) = [line for line in run.stderr.splitlines() if line.strip()]
    assert line.startswith("honba: xxx") and line.endswith("xxx: cannot read: File name too long")


def test_revoking_no_token_is_refused_in_one_line_on_stderr(db: Path) -> None:
    assert refused(db, "token", "revoke", "nosuchtoken") == "honba: no token 'nosuchtoken'"


# The staged events' commands (issue 27's), merged: the same number reader, bounds and file caps.


def test_a_stage_of_unicode_digits_or_a_draw_of_no_seats_is_one_line_not_a_traceback(db: Path) -> None:
    line = refused(db, "tournament", "format", "cup", "--stage", "q:²")
    assert line == "honba: stage 'q': sessions: '²' is not a whole number (digits 0-9)"
    seed = ("--seed", "0" * 64, "--players", "Ann,Ben,Cho,Dai")
    line = refused(db, "tournament", "verify-draw", *seed, "--size", "0")
    assert "Invalid value for '--size': 0 is out of range (3 to 4)" in line


def test_staged_event_values_nobody_means_are_refused_not_stored(db: Path) -> None:
    why = ("--reason", "ill")
    assert "Invalid value for '--after'" in refused(db, "tournament", "withdraw", "cup", "Ann", "--after", HUGE, *why)
    commitment = ("--commitment", "0" * 64)
    assert "Invalid value for 'session'" in refused(db, "tournament", "commit-draw", "cup", HUGE, *commitment)
    facts = ("tournament", "ranking-facts", "cup", "--ended-on", "2026-11-21")
    assert "Invalid value for '--days': 31 is out of range (1 to 30)" in refused(db, *facts, "--days", "31")
    assert "Invalid value for '--countries'" in refused(db, *facts, "--countries", HUGE)
    line = refused(db, "tournament", "format", "cup", "--stage", "q:2", "--substitutes", "fixed:nan")
    assert line == "honba: --substitutes fixed: 'nan' is not a number (digits 0-9, with a sign)"
    line = refused(db, "tournament", "team", "cup", "T" * 70, "Ann")
    assert line.startswith("honba: team name: 70 characters, at most 64")
    assert "Invalid value for '--top'" in refused(db, "tournament", "needs", "cup", "--top", "²")
    assert "Invalid value for '--top'" in refused(db, "ratings", "--top", "0")
    assert "Invalid value for '--min-results'" in refused(db, "ratings", "--min-results", "-1")
    ok(db, "tournament", "withdraw", "cup", "Ann", "--after", "1000", *why)


def test_a_seed_a_key_or_a_certificate_file_that_never_ends_is_refused(db: Path, tmp_path: Path) -> None:
    line = refused(db, "tournament", "reveal-draw", "cup", "1", "--seed-file", "/dev/zero")
    assert line == "honba: /dev/zero: larger than 4 KiB: honba reads a seed file of at most 4 KiB"
    line = refused(db, "certificate", "sign", "cup", "--key", "/dev/zero", "-o", str(tmp_path / "cup.cert.json"))
    assert line == "honba: /dev/zero: larger than 64 KiB: honba reads a key file of at most 64 KiB"
    assert not (tmp_path / "cup.cert.json").exists()
    run = honba_main("--db", str(db), "certificate", "verify", "/dev/zero")
    assert (run.code, run.traceback) == (2, "")
    assert run.stderr == "honba: /dev/zero: larger than 64 MiB: honba reads a certificate of at most 64 MiB\n"
    deep = tmp_path / "deep.cert.json"
    deep.write_text("[" * 100_000, encoding="utf-8")
    run = honba_main("--db", str(db), "certificate", "verify", str(deep))
    assert (run.code, run.traceback) == (2, "")
    assert run.stderr.startswith(f"honba: {deep}: not a JSON certificate (nested more than 8 deep")
