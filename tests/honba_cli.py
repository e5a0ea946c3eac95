"""The ``honba`` command on one SQLite file, and the two-hand match the correction tests share.

The match ``two_wins`` records, by entry number (as ``honba log`` shows it and as the
lines of its exported record file; the Match aggregate's positions in brackets):

    1 start, Ann deals first                      (1)
    2 E1-0 Ben ron on Cho, 3 han 30 fu            (2; the deal passes to Ben at 3)
    3 E2-0 Cho ron on Dai, 1 han 30 fu            (4; the deal passes to Cho at 5)

Scores as recorded (Tenhou's table, 25,000 start): Ann 25,000, Ben 28,900, Cho 22,100, Dai 24,000.
The first correction made on it is entry 4 (position 6), the next entry 5 (position 7).
"""

from __future__ import annotations

import json
import sqlite3
import sys
import traceback
from contextlib import closing
from pathlib import Path
from typing import Any

import attrs
from typer.testing import CliRunner, Result

import replay.cli
from domain.match import match_id
from replay.cli import app_for, load_commands

runner = CliRunner()
# Every command registered once, as ``from replay.cli import app`` does: ``app_for`` picks one of them.
load_commands(())

AS_RECORDED = {"Ann": 25000, "Ben": 28900, "Cho": 22100, "Dai": 24000}


def invoke(args: list[str], **options: Any) -> Result:
    """``honba ARGS`` in this process (typer's runner) as the console script dispatches it: the app with
    only the command the line names (``replay.cli.app_for``; the whole app for the overall help or a name
    it does not know). typer builds the click command of every command an app holds on each call, about
    60 ms for all of them against 1 or 2 for one: the whole app on every call was most of a test's time.
    ``options`` go to the runner (``env``, ``input``)."""
    return runner.invoke(app_for(args), args, **options)


def honba(db: Path | str | None, *args: str, **options: Any) -> Result:
    """``honba --db DB ARGS`` in this process (``invoke``); an exception it lets out other than its
    exit fails the test: the console script would show it as a traceback. ``db`` None: no ``--db``
    (the store ``HONBA_DB`` names, or a command that opens none, such as ``honba check FILE``)."""
    result = invoke([*(["--db", str(db)] if db is not None else []), *args], **options)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def ok(db: Path | str | None, *args: str) -> str:
    """Run a command that must succeed on that store; its standard output."""
    result = honba(db, *args)
    assert result.exit_code == 0, f"honba {' '.join(args)} failed: {result.output}"
    return result.stdout


class Honba:
    """The ``honba`` command on one SQLite file (None: the store ``HONBA_DB`` names); ``key`` is the match
    its reads look at by default."""

    def __init__(self, db: Path | None, key: str = ""):
        self.db = db
        self.key = key

    def __call__(self, *args: str) -> Result:
        return honba(self.db, *args)

    def ok(self, *args: str) -> str:
        """Run a command that must succeed; its output."""
        result = self(*args)
        assert result.exit_code == 0, f"honba {' '.join(args)} failed: {result.output}"
        return result.stdout

    def refused(self, *args: str) -> str:
        """Run a command that must be refused with one line and exit 2; that line."""
        result = self(*args)
        assert result.exit_code == 2, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1, result.stderr
        return lines[0]

    def refused_as_it_was(self, *args: str) -> str:
        """``refused``, and the match ``key`` as it was (its log unchanged: nothing recorded)."""
        before = self.ok("log", self.key, "--json")
        line = self.refused(*args)
        assert self.ok("log", self.key, "--json") == before
        return line

    def json(self, *args: str) -> Any:
        return json.loads(self.ok(*args, "--json"))

    def scores(self, key: str | None = None) -> dict[str, int]:
        scores: dict[str, int] = self.json("status", key or self.key)["scores"]
        return scores

    def table(self, key: str | None = None) -> tuple[str, int]:
        """The dealer and the counters on the table now."""
        status = self.json("status", key or self.key)
        return status["dealer"], status["counters"]

    def events(self, key: str | None = None) -> list[tuple[int, bytes]]:
        """The match's stored rows, read with sqlite3: (position, state)."""
        key = key or self.key
        with closing(sqlite3.connect(self.db)) as sql:
            rows = sql.execute(
                "SELECT originator_version, state FROM stored_events WHERE originator_id = ? "
                "ORDER BY originator_version",
                (match_id(key).hex,),
            ).fetchall()
        return [(int(v), bytes(s)) for v, s in rows]


@attrs.frozen
class Run:
    """What the ``honba`` console script did: its exit code, what it printed, and the traceback
    of an exception it let out (``""`` when none did)."""

    code: int
    stdout: str
    stderr: str
    traceback: str = ""


def honba_main(*args: str) -> Run:
    """Run the ``honba`` command line in this process as the console script runs it (``replay.cli.main``:
    its own one-line usage errors, exit codes), its output captured by typer's ``CliRunner``."""
    caught = ""
    code = 0
    with runner.isolation() as (stdout, stderr, _):
        argv = sys.argv
        sys.argv = ["honba", *args]
        try:
            replay.cli.main()
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
        except BaseException:  # what the console script would show as a traceback
            caught = traceback.format_exc()
            code = 1
        finally:
            sys.argv = argv
            sys.stdout.flush()
            sys.stderr.flush()
            out, err = stdout.getvalue(), stderr.getvalue()
    return Run(code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), caught)


def store_rows(db: Path) -> list[tuple[str, list[tuple[Any, ...]]]]:
    """Every row of every table of a SQLite store that holds any (nothing when there is no store yet):
    compared before and after a command, it shows whether the command stored anything (a table made
    empty, such as the tokens' when first asked for, stores nothing)."""
    if not db.exists():
        return []
    with closing(sqlite3.connect(db)) as sql:
        tables = [row[0] for row in sql.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        rows = [(t, sorted(sql.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr)) for t in tables]
    return [(table, held) for table, held in rows if held]


def two_wins(db: Path, key: str) -> Honba:
    """The match of the module docstring, recorded through the command line."""
    cli = Honba(db, key)
    cli.ok("start", key, "--players", "Ann,Ben,Cho,Dai")
    cli.ok("win", key, "Ben:3/30", "--from", "Cho")
    cli.ok("win", key, "Cho:1/30", "--from", "Dai")
    assert cli.scores() == AS_RECORDED
    return cli
