"""The command line's values without typer's pydantic (replay/cli/params.py), and the app built
for one command (``replay.cli.app_for``): the same results as typer's own, for less."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer.main
from honba_cli import invoke
from typer._click import Context
from typer._click.exceptions import BadParameter
from typer._coercion import build_runtime_param
from typer.core import _TyperParameter

from replay.cli import app, app_for
from replay.cli.params import TextFirst


def _parameters() -> list[tuple[Any, _TyperParameter]]:
    """Every typer parameter of every command of honba, with its command."""
    found: list[tuple[Any, _TyperParameter]] = []

    def walk(command: Any) -> None:
        found.extend((command, p) for p in command.params if isinstance(p, _TyperParameter))
        for sub in getattr(command, "commands", {}).values():
            walk(sub)

    walk(typer.main.get_command(app))
    return found


def _samples(annotation: Any) -> list[Any]:
    # What the command line gives a parameter: its words, well formed or not.
    return ["7", "-2", " 3 ", "x", "", "1.5", ("a", "b"), ["7"], 0, 4, 2.5]


def _converted(runtime: Any, value: Any, param: _TyperParameter, ctx: Context) -> tuple[str, Any]:
    try:
        return "value", runtime._coerce_value(value, param=param, ctx=ctx)
    except BadParameter as exc:
        return "refused", exc.format_message()


def test_every_parameter_converts_every_value_as_typer_itself_does(tmp_path: Path) -> None:
    parameters = _parameters()
    annotations = {repr(p.type_descriptor.annotation) for _, p in parameters}
    # The kinds honba declares (so that the comparison below covers what is used).
    assert {"<class 'str'>", "<class 'int'>", "<class 'bool'>", "list[str]", "<class 'pathlib.Path'>"} <= annotations
    for command, param in parameters:
        descriptor = param.type_descriptor
        if descriptor.annotation in (int, float):
            continue  # numbers are honba's own reader's (below)
        ours = TextFirst(parameter_info=descriptor.parameter_info, annotation=descriptor.annotation)
        theirs = build_runtime_param(descriptor)
        ctx = Context(command)
        for value in [*_samples(descriptor.annotation), param.default]:
            if value is None:
                continue
            assert _converted(ours, value, param, ctx) == _converted(theirs, value, param, ctx), (
                command.name,
                param.name,
                value,
            )


def test_every_number_parameter_is_read_by_the_one_number_reader() -> None:
    # Issue 24: ASCII digits only, a sign only where the range reaches below zero, a length cap,
    # then the range the parameter declares (domain.bounds.whole_number).
    numbers = [(c, p) for c, p in _parameters() if p.type_descriptor.annotation in (int, float)]
    # (``--amount`` and the other numbers of a result or a penalty are the entry's text fields, read by the
    # same reader in replay/input/fields.py: tests/e2e/test_bad_numbers_cli.py.)
    named = {"entry", "session", "table", "after", "port", "batch", "jobs", "seconds"}
    assert {p.name for _, p in numbers} >= named | {"size", "days", "countries", "top", "min_results"}
    for command, param in numbers:
        descriptor = param.type_descriptor
        ours = TextFirst(parameter_info=descriptor.parameter_info, annotation=descriptor.annotation)
        ctx = Context(command)
        info = descriptor.parameter_info
        low = -(10**18) if info.min is None else info.min
        high = 10**18 if info.max is None else info.max
        for text in ("²", "٣", "1_0", "0x1", "9" * 5000, "", "x"):
            assert _converted(ours, text, param, ctx)[0] == "refused", (command.name, param.name, text)
        assert _converted(ours, str(low), param, ctx) == ("value", low)
        assert _converted(ours, f" {high} ", param, ctx) == ("value", high)
        refused = _converted(ours, str(high + 1), param, ctx)
        assert refused[0] == "refused" and "out of range" in refused[1], (command.name, param.name)
        if param.default is not None:
            assert _converted(ours, param.default, param, ctx) == ("value", param.default)


def test_a_number_typed_on_the_command_line_is_read_and_refused_as_before(tmp_path: Path) -> None:
    db = ["--db", str(tmp_path / "t.sqlite")]
    assert invoke([*db, "start", "m", "--players", "A,B,C,D"]).exit_code == 0
    refused = invoke([*db, "amend", "m", "two", "--by", "Kim", "--reason", "x", "--set", "value=1/30"])
    assert refused.exit_code == 2
    # typer's error box wraps its lines: read its words.
    words = " ".join(refused.output.replace("│", " ").split())
    assert "Invalid value for 'entry'" in words
    assert "'two' is not a whole number (digits 0-9)" in words
    # A number of an entry's fields is the entry's reader's (the same for every front end).
    dora = invoke([*db, "win", "m", "A:3/30", "--dora", "two"])
    assert dora.exit_code == 2 and "'two' is not a whole number" in dora.output
    # 3 han with 3 of them dora reach no one-han minimum: the 3 reached the rules as a number.
    assert invoke([*db, "win", "m", "A:3/30", "--dora", "3"]).exit_code == 2
    # The dealer's 3 han 30 fu self-drawn: 2,000 from each (the Tenhou table).
    counted = invoke([*db, "win", "m", "A:3/30", "--dora", "2"])
    assert counted.exit_code == 0, counted.output
    assert "B -> A 2000" in counted.output


def test_the_app_for_a_command_has_that_command_only() -> None:
    assert [
        c.callback.__name__
        for c in app_for(["--db", "x.sqlite", "win", "m", "A:1/30"]).registered_commands
        if c.callback
    ] == ["win"]
    rules = app_for(["rules", "list"])
    assert rules.registered_commands == [] and [g.name for g in rules.registered_groups] == ["rules"]
    # A group with only the command of the line (typer builds every command of a group it builds)...
    (group,) = app_for(["tournament", "needs", "cup"]).registered_groups
    assert group.typer_instance is not None
    assert [c.name for c in group.typer_instance.registered_commands] == ["needs"]
    # ... and the whole group for its help or a word that is none of its commands (its error lists them).
    for line in (["tournament", "--help"], ["tournament", "neds", "cup"], ["tournament"]):
        (whole,) = app_for(line).registered_groups
        assert whole.typer_instance is not None and len(whole.typer_instance.registered_commands) > 10
    # The whole app for the overall help and for a word that is no command (its error lists them).
    assert app_for(["--help", "win"]) is app
    assert app_for(["wn", "m"]) is app
    assert app_for([]) is app
    assert len(app.registered_commands) > 1


def test_a_recording_command_does_not_load_pydantic(tmp_path: Path) -> None:
    db = tmp_path / "store.sqlite"
    # Both commands in one fresh process, one after the other as the console script runs each (what
    # the first loads stays loaded): pydantic absent after both was absent after each.
    script = (
        "import json, sys\n"
        "from replay.cli import main\n"
        "for line in json.loads(sys.argv[1]):\n"
        "    sys.argv = ['honba', *line]\n"
        "    try:\n"
        "        main()\n"
        "    except SystemExit as exit:\n"
        "        print('exit', exit.code, file=sys.stderr)\n"
        "    print('pydantic' in sys.modules, file=sys.stderr)\n"
    )
    # (A number typed on the line, such as --dora 2, is typer's to read: that loads pydantic.)
    lines = [["start", "m", "--players", "A,B,C,D"], ["win", "m", "A:1/30", "--riichi", "B"]]
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps([["--db", str(db), *line] for line in lines])],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[-4:] == ["exit 0", "False", "exit 0", "False"], done.stderr


@pytest.mark.parametrize("args", [["--help"], ["win", "--help"], ["rules", "--help"]])
def test_the_help_of_the_console_script_is_the_whole_apps(args: list[str], tmp_path: Path) -> None:
    # The console script's name, as the installed ``honba`` has it.
    script = "import sys\nsys.argv[0] = 'honba'\nfrom replay.cli import main\nmain()\n"
    env_width = {**os.environ, "COLUMNS": "100", "HONBA_DB": str(tmp_path / "s.sqlite")}
    done = subprocess.run(
        [sys.executable, "-c", script, *args], capture_output=True, text=True, check=False, env=env_width
    )
    expected = invoke(args, env=env_width, terminal_width=100)
    assert done.returncode == expected.exit_code == 0
    assert done.stdout == expected.output


_REGISTERED = """
import json, os, sys
from typer.main import get_command_name
from replay.cli import load_commands
from replay.cli.shell import app

# One process for every module, each loaded in a child forked from a process that has loaded none
# (a fresh interpreter a module would cost a second of the suite): what each registers, by line.
for first in sys.argv[1:]:
    read, write = os.pipe()
    if os.fork() == 0:
        os.close(read)
        load_commands([first])
        names = [c.name or get_command_name(c.callback.__name__) for c in app.registered_commands]
        # A group (``rules`` is made with the app) counts where its commands are defined.
        groups = [g.name for g in app.registered_groups if g.typer_instance.registered_commands]
        os.write(write, json.dumps(names + groups).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        said = pipe.read()
    _pid, status = os.wait()
    assert status == 0 and said, first
    print(said)
"""


def test_each_command_is_registered_by_the_module_the_console_script_loads_for_it() -> None:
    # ``main`` imports only COMMAND_MODULES[name] for a command line naming ``name``: a command
    # moved to another module (or a new one missing from the map) would be "no such command".
    from replay.cli import ALL_MODULES, COMMAND_MODULES

    # A module may load another it builds on (``events`` adds to ``tournaments``' group): each
    # command must be registered by its own module, and every command registered is in the map.
    firsts = [next(name for name, m in COMMAND_MODULES.items() if m == module) for module in ALL_MODULES]
    done = subprocess.run(
        [sys.executable, "-c", _REGISTERED, *firsts], capture_output=True, text=True, timeout=300, check=True
    )
    lines = done.stdout.splitlines()
    assert len(lines) == len(ALL_MODULES), done.stdout
    registered = {module: set(json.loads(line)) for module, line in zip(ALL_MODULES, lines, strict=True)}
    assert set().union(*registered.values()) == set(COMMAND_MODULES)
    for name, module in COMMAND_MODULES.items():
        assert name in registered[module], (name, module)


@pytest.mark.parametrize("stage", ["loading", "building"])
def test_ctrl_c_while_the_command_is_being_built_is_one_line_and_exit_130(
    stage: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A SIGINT lands at any moment: while the command's module loads, or while typer builds the click
    # command (before click, which would turn it into Abort, has started).
    import replay.cli

    def interrupted(*_args: Any, **_kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(sys, "argv", ["honba", "status", "m1"])
    if stage == "loading":
        monkeypatch.setattr(replay.cli, "load_commands", interrupted)
    else:
        monkeypatch.setattr(typer.main, "get_command", interrupted)
    with pytest.raises(SystemExit) as exit_:
        replay.cli.main()
    assert exit_.value.code == 130
    assert capsys.readouterr().err.strip() == "honba: aborted"


def test_ctrl_c_that_a_library_turned_into_another_error_is_still_an_interrupt(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # psycopg_pool's connection() reads a local its try block never set when the SIGINT lands first:
    # an UnboundLocalError whose context is the KeyboardInterrupt (seen in an import on PostgreSQL).
    import replay.cli

    def interrupted_inside_a_library(*_args: Any, **_kwargs: Any) -> Any:
        try:
            raise KeyboardInterrupt
        finally:
            raise UnboundLocalError("cannot access local variable 't0' where it is not associated with a value")

    monkeypatch.setattr(sys, "argv", ["honba", "status", "m1"])
    monkeypatch.setattr(typer.main, "get_command", interrupted_inside_a_library)
    with pytest.raises(SystemExit) as exit_:
        replay.cli.main()
    assert exit_.value.code == 130
    assert capsys.readouterr().err.strip() == "honba: aborted"


def test_a_checkpoint_the_driver_refuses_at_a_commands_end_is_a_warning(capsys: pytest.CaptureFixture[str]) -> None:
    # A Ctrl-C inside a save leaves SQLite's connection in its transaction: the checkpoint at the
    # command's end raised the driver's error as a traceback instead of the import's one line.
    import sqlite3

    from replay.cli.shell import Shell

    class Interrupted:
        wrote = True
        closed = False

        def checkpoint(self) -> None:
            raise sqlite3.OperationalError("cannot start a transaction within a transaction")

        def close(self) -> None:
            self.closed = True

    shell = Shell(None)
    app = Interrupted()
    shell._app = app  # type: ignore[assignment]
    shell.close()
    assert app.closed
    assert capsys.readouterr().err.strip() == (
        "honba: warning: no checkpoint taken: cannot start a transaction within a transaction"
    )


@pytest.mark.parametrize(
    ("failure", "line"),
    [
        ("IntegrityError", "honba: the store failed: UNIQUE constraint failed"),
        ("OperationalError", "honba: the store did not answer: UNIQUE constraint failed"),
    ],
)
def test_the_store_failing_under_a_command_is_one_line(
    capsys: pytest.CaptureFixture[str], failure: str, line: str
) -> None:
    # The event library's errors are said by the service (store_failures), which the command line calls
    # around every command: it names neither the library nor its errors.
    import eventsourcing.persistence
    import typer

    from replay.cli.shell import guarded

    def command() -> None:
        raise getattr(eventsourcing.persistence, failure)("UNIQUE constraint\n failed")

    with pytest.raises(typer.Exit) as exit_:
        guarded(command)
    assert exit_.value.exit_code == 2
    assert capsys.readouterr().err.strip() == line
