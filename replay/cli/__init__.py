"""The ``honba`` command: presentation only (typer commands, rich tables), over the application.

The commands live in one module per group (``record``, ``exports``, ``audit``, ``logs``, ``stats``,
``tournaments``), each registering itself on the one Typer app of ``shell``. ``main`` (the
console script) imports only the module of the command it is given, so that ``honba win``
does not pay for loading the audit, the importers and the HTML pages; ``app`` (for tests
and ``--help``) is the app with every command on it.
"""

from __future__ import annotations

import copy
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import typer
    from typer.models import CommandInfo, TyperInfo

# Which module defines each command; a name not listed here (``--help``, a typo) loads them all,
# so that the help and "no such command" see every command.
COMMAND_MODULES = {
    **dict.fromkeys(
        ("start", "win", "draw", "abort", "penalty", "end", "status", "log", "list", "rules"),
        "record",
    ),
    **dict.fromkeys(("export", "demo"), "exports"),
    **dict.fromkeys(("amend", "void", "undo", "reopen", "check", "audit"), "audit"),
    **dict.fromkeys(("import", "verify"), "logs"),
    "stats": "stats",
    "clock": "clock",
    **dict.fromkeys(("standings", "views"), "tournaments"),
    # The tournament group's director's commands (formats and stages, draws, teams, needs, what-if)
    # live in ``director``, which loads ``tournaments`` (the group and its first commands) itself.
    "tournament": "director",
    "serve": "serve",
    "token": "web",
    "certificate": "certificates",
    "ratings": "ratings",
    "checkpoint": "checkpoints",
    **dict.fromkeys(("proof", "witness"), "proofs"),
}
ALL_MODULES = (
    "record",
    "exports",
    "audit",
    "logs",
    "stats",
    "tournaments",
    "clock",
    "director",
    "certificates",
    "ratings",
    "web",
    "serve",
    "checkpoints",
    "proofs",
)
# The global options that take a value (the name of the command comes after it).
_VALUED_OPTIONS = ("--db",)


def command_name(argv: Sequence[str]) -> str | None:
    """The command a command line names: its first word that is no global option or option value."""
    words = iter(argv)
    for word in words:
        if word in _VALUED_OPTIONS:
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None


def load_commands(argv: Sequence[str]) -> None:
    """Register the command modules the command line needs (all of them when it names none we know)."""
    module = COMMAND_MODULES.get(command_name(argv) or "")
    for name in (module,) if module is not None else ALL_MODULES:
        importlib.import_module(f"replay.cli.{name}")


def app_for(argv: Sequence[str]) -> typer.Typer:
    """The app that runs a command line: ``app`` with only the command (or group) the line names.

    typer builds the click command of every command an app has before it parses anything; a
    recording command needs its own only. The whole app when the line names no command of
    ``app`` (the overall help, a typo: both list every command) or asks for the overall help
    before the command's name.
    """
    from replay.cli.shell import app

    name = command_name(argv)
    if name is None or "--help" in argv[: list(argv).index(name)]:
        return app
    commands = _named(app.registered_commands, name)
    groups = [g for g in app.registered_groups if g.name == name]
    if not commands and not groups:
        return app
    if len(groups) == 1:
        groups = [_group_for(groups[0], list(argv)[list(argv).index(name) + 1 :])]
    only = copy.copy(app)
    only.registered_commands = commands
    only.registered_groups = groups
    return only


def _group_for(group: TyperInfo, rest: Sequence[str]) -> TyperInfo:
    """A group (``honba tournament``) with only the command the rest of the line names: typer builds
    every command of a group it builds, some twenty for ``tournament``. The whole group when the rest
    starts with an option (the group's help) or names none of its commands (its error lists them)."""
    inner = group.typer_instance
    if inner is None or not rest or rest[0].startswith("-"):
        return group
    commands = _named(inner.registered_commands, rest[0])
    if not commands:
        return group
    only_inner = copy.copy(inner)
    only_inner.registered_commands = commands
    only_inner.registered_groups = []
    only = copy.copy(group)
    only.typer_instance = only_inner
    return only


def _named(commands: Sequence[CommandInfo], name: str) -> list[CommandInfo]:
    from typer.main import get_command_name

    return [c for c in commands if (c.name or get_command_name(_callback_name(c.callback))) == name]


def _callback_name(callback: Callable[..., object] | None) -> str:
    return "" if callback is None else callback.__name__


def main() -> None:
    """Entry point of the ``honba`` command."""
    try:
        load_commands(sys.argv[1:])
        from replay.cli.shell import main as run

        command = app_for(sys.argv[1:])
    except KeyboardInterrupt:
        # Ctrl-C (or a SIGINT) while the command is still loading: the one line it gives later on.
        print("honba: aborted", file=sys.stderr)
        raise SystemExit(130) from None
    run(command)


def __getattr__(name: str) -> Any:
    # ``from replay.cli import app``: the app with every command on it (a module attribute made on
    # first use, so that importing the package for ``main`` loads no command module).
    if name == "app":
        load_commands(())
        from replay.cli.shell import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["app", "app_for", "command_name", "load_commands", "main"]
