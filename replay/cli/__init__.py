"""The ``honba`` command: presentation only (typer commands, rich tables), over the application.

The commands live in one module per group (``record``, ``audit``, ``logs``, ``stats``,
``tournaments``), each registering itself on the one Typer app of ``shell``. ``main`` (the
console script) imports only the module of the command it is given, so that ``honba win``
does not pay for loading the audit, the importers and the HTML pages; ``app`` (for tests
and ``--help``) is the app with every command on it.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from typing import Any

# Which module defines each command; a name not listed here (``--help``, a typo) loads them all,
# so that the help and "no such command" see every command.
COMMAND_MODULES = {
    **dict.fromkeys(
        ("start", "win", "draw", "abort", "penalty", "end", "status", "log", "list", "export", "rules", "demo"),
        "record",
    ),
    **dict.fromkeys(("amend", "void", "undo", "check", "audit"), "audit"),
    **dict.fromkeys(("import", "verify"), "logs"),
    "stats": "stats",
    **dict.fromkeys(("tournament", "standings", "views"), "tournaments"),
    **dict.fromkeys(("serve", "token"), "web"),
}
ALL_MODULES = ("record", "audit", "logs", "stats", "tournaments", "web")
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


def main() -> None:
    """Entry point of the ``honba`` command."""
    try:
        load_commands(sys.argv[1:])
        from replay.cli.shell import main as run
    except KeyboardInterrupt:
        # Ctrl-C (or a SIGINT) while the command is still loading: the one line it gives later on.
        print("honba: aborted", file=sys.stderr)
        raise SystemExit(130) from None
    run()


def __getattr__(name: str) -> Any:
    # ``from replay.cli import app``: the app with every command on it (a module attribute made on
    # first use, so that importing the package for ``main`` loads no command module).
    if name == "app":
        load_commands(())
        from replay.cli.shell import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["app", "command_name", "load_commands", "main"]
