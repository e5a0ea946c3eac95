"""The shell the ``honba`` commands share: the Typer app, the consoles, the store, one-line errors."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, NoReturn, TypeVar

import typer

from domain.bounds import clipped
from domain.errors import HonbaError
from domain.said import Said
from replay.cli.params import HonbaGroup
from replay.cli.render import SafeConsole
from replay.service.common.opening import OpenedStore, store_failures, unnamed_store

if TYPE_CHECKING:  # loaded where a bar is shown (progress_bar)
    from rich.progress import Progress

app = typer.Typer(
    name="honba",
    help="Event-sourced mahjong match tracker: record, replay, audit and rank matches.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    # Text typed on the command line taken as text, without typer's pydantic (replay/cli/params.py).
    cls=HonbaGroup,
)
rules_app = typer.Typer(help="Rule presets.", no_args_is_help=True, cls=HonbaGroup)
app.add_typer(rules_app, name="rules")


def _output_width() -> int:
    """The width of standard output: ``COLUMNS`` when set, the terminal's, else 160 for a file or pipe.

    Tables are wide; when the output is a file or a pipe, do not squeeze them into 80 columns.
    """
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    return shutil.get_terminal_size().columns if sys.stdout.isatty() else 160


# Both print text from the data as text, never as console markup (``replay.cli.render.SafeConsole``).
# The width of ``out`` is decided when a command runs (``main_options``), not when this module is imported.
out = SafeConsole()
err = SafeConsole(stderr=True, soft_wrap=True)

T = TypeVar("T")
DbOption = Annotated[
    str | None,
    typer.Option(
        "--db",
        help=f"SQLite file, :memory:, or postgresql://user:password@host:port/dbname. Default: {unnamed_store()}",
    ),
]


Expect = Annotated[
    str | None,
    typer.Option(
        "--expect",
        metavar="HAND",
        help="The hand this entry is for, as honba status shows it (E2-0): refused if that hand was recorded since.",
    ),
]

ClientKey = Annotated[
    str | None,
    typer.Option(
        "--key",
        help="A key of the client's choosing for this command: sent again (a retry), it records nothing new.",
    ),
]


class Shell(OpenedStore):
    """What the commands share: the store named on the command line (``--db``), opened when a command
    first asks for it (``app``, ``reader``) and closed by the service when the command ends."""

    def close(self) -> None:
        """Close the store, with a checkpoint when the command wrote (``OpenedStore.close``); a
        checkpoint that failed is a warning line: what the command did is stored, the next covers it."""
        said = super().close()
        if said is not None:
            err.print(f"honba: warning: no checkpoint taken: {said}", markup=False, highlight=False)


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one line on stderr and give the exit to raise."""
    err.print(f"honba: {clipped(message)}", markup=False, highlight=False)
    return typer.Exit(code)


def guarded(action: Callable[[], T]) -> T:
    """Run a command body; honba's own errors become one line and exit 2."""
    try:
        # The store failing under a command (a lost connection, a locked file) said by the service.
        with store_failures():
            return action()
    except HonbaError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": ")) from None


def guarded_match(ctx: typer.Context, key: str, action: Callable[[], T]) -> T:
    """Run a command body on one stored match, as ``guarded``; and when it fails in any other way
    on a match changed behind honba's back (a seat that no longer exists, a row of another kind),
    give the one line that names the damage instead of a traceback. Other failures are bugs: raised."""

    def run() -> T:
        try:
            with store_failures():  # the store failing is no damage of the match's: said as ``guarded`` does
                return action()
        except (HonbaError, OSError, typer.Exit):
            raise
        except Exception:
            # Loaded on a failure only: every command imports this module when it starts.
            from replay.service.recording.matches import damage_refusal

            refusal = damage_refusal(shell(ctx).app, key)
            if refusal is None:
                raise
            raise refusal from None

    return guarded(run)


def warn_if_damaged(damage: Said | str | None) -> None:
    """A warning line on stderr when a match's chain or seal does not check (what is shown may
    not be what was recorded); ``damage`` is the service's line (its English), or None."""
    if damage is not None:
        err.print(f"honba: warning: {damage}")


def shell(ctx: typer.Context) -> Shell:
    obj = ctx.obj
    assert isinstance(obj, Shell)
    return obj


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("honba")
        except PackageNotFoundError:  # run from a source tree that was never installed
            number = "unknown (not installed)"
        from domain.compiled import describe

        print(f"honba {number}, {describe()}")
        raise typer.Exit(0)


VersionOption = Annotated[
    bool,
    typer.Option("--version", help="Print honba's version and exit.", callback=_print_version, is_eager=True),
]


@app.callback()
def main_options(ctx: typer.Context, db: DbOption = None, version: VersionOption = False) -> None:
    """Choose the store; the commands below act on it."""
    out.width = _output_width()
    ctx.obj = Shell(db)
    ctx.call_on_close(ctx.obj.close)


def progress_bar(total: int, label: str) -> Progress:
    """A progress bar on stderr for long work (hidden for a single file)."""
    # Imported here: only import and verify show one, and a recording command should not load it.
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    return Progress(
        TextColumn(label, markup=False),
        BarColumn(),
        MofNCompleteColumn(),
        # A file's name is data: shown as text, never read as markup.
        TextColumn("{task.fields[file]}", markup=False),
        console=err,
        transient=True,
        disable=total < 2,
    )


def _is_usage_error(exc: BaseException) -> bool:
    # Typer raises the usage errors of the click it ships with; they are matched by class name
    # so that this works whichever click that is.
    return any(cls.__name__ == "UsageError" for cls in type(exc).__mro__)


def quiet_after_interrupt() -> None:
    """After a Ctrl-C, say nothing more as the process exits: an object the interrupt caught
    half-built (the event library's connection pool) fails in its ``__del__`` when collected
    ("Exception ignored in ..."), which is no news to whoever pressed Ctrl-C."""
    sys.unraisablehook = lambda _unraisable: None


def interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is a Ctrl-C in disguise: an error raised while a ``KeyboardInterrupt`` was
    being handled (psycopg_pool's ``connection()`` reads a local its ``try`` never set when the
    SIGINT lands first, and raises ``UnboundLocalError`` in the interrupt's place)."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, KeyboardInterrupt):
            return True
        seen.add(id(cause))
        # An error raised "from None" replaced what it was handling on purpose: not a disguise.
        if cause.__cause__ is not None:
            cause = cause.__cause__
        else:
            cause = None if cause.__suppress_context__ else cause.__context__
    return False


def aborted() -> NoReturn:
    """Say the command was aborted and exit 130, as a shell does after Ctrl-C."""
    err.print("honba: aborted", markup=False, highlight=False)
    quiet_after_interrupt()
    raise SystemExit(130) from None


def main(command: typer.Typer = app) -> None:
    """Entry point of the ``honba`` command: run ``command`` (the app, or the app built for the command
    line) on the command line; usage mistakes also get one line and exit 2."""
    try:
        code = command(standalone_mode=False)
    except (typer.Abort, KeyboardInterrupt):
        # click turns Ctrl-C into Abort only once it parses; typer builds the click command before
        # that, and a SIGINT there must read the same.
        aborted()
    except Exception as exc:
        if interrupted(exc):
            aborted()
        if not _is_usage_error(exc):
            raise
        describe = getattr(exc, "format_message", None)
        message = describe() if callable(describe) else str(exc)
        context = getattr(exc, "ctx", None)
        if not message and context is not None:
            # A command given without arguments: show its help, as the bare command does.
            print(context.get_help())
            raise SystemExit(0) from None
        err.print(f"honba: {clipped(message)} (see honba --help)", markup=False, highlight=False)
        raise SystemExit(2) from None
    raise SystemExit(code if isinstance(code, int) else 0)
