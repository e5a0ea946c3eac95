"""What ``honba standings`` and ``honba stats`` share: the stored view brought up to date, and a
report printed or written (``--format``, ``-o``) as a console table, CSV, JSON or HTML."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import typer

from projections.views import DocumentView
from replay.cli.render import SafeConsole, json_text
from replay.cli.shell import guarded, out, progress_bar, shell
from replay.input.files import write_whole
from replay.input.parsing import InputError
from replay.service.common.shapes import not_counted_yet
from replay.service.tournaments.standings import read_view

T = TypeVar("T")

REPORT_FORMATS = ("table", "csv", "json", "html")


def check_report_format(fmt: str) -> None:
    """Refuse a ``--format`` no report has."""
    if fmt not in REPORT_FORMATS:
        raise InputError(f"--format must be table, csv, json or html, not {fmt!r}")


def fresh_report(ctx: typer.Context, read: Callable[[DocumentView], T]) -> T:
    """What ``read`` finds in the stored standings view, brought up to date first (a progress bar
    while it folds; a view that cannot be read is rebuilt: ``replay.service.tournaments.standings.read_view``)."""
    with progress_bar(2, "updating the standings view") as progress:
        task = progress.add_task("view", total=None, file="")
        tick: Callable[[int], None] = lambda n: progress.update(task, completed=n, file=f"{n} events")  # noqa: E731
        return read_view(shell(ctx).app, read, tick=tick)


def fresh_view(ctx: typer.Context) -> DocumentView:
    """The stored standings view, brought up to date first (``fresh_report``: rebuilt when it
    cannot be read), for a command that reads it and may then write to the store (seating a
    session, signing): what it does is done once, never again after a rebuild."""
    return fresh_report(ctx, lambda view: view)


def write_report(
    fmt: str,
    output: Path | None,
    data: Any,
    *,
    csv: Callable[[], str],
    html: Callable[[], str],
    table: Callable[[], Any],
    in_progress: int,
    width: int,
) -> None:
    """Print the report, or write it to ``output``: ``data`` (the service's plain data) as JSON,
    ``csv()``, ``html()``, or ``table()`` on the console (or as plain text ``width`` wide in the
    file) with a line saying how many matches still in progress do not count."""
    if fmt == "json":
        body = json_text(data)
    elif fmt == "csv":
        body = csv()
    elif fmt == "html":
        body = html()
    else:
        screen = out if output is None else SafeConsole(file=io.StringIO(), width=width, color_system=None)
        screen.print(table())
        if in_progress:
            screen.print(str(not_counted_yet(in_progress)), markup=False)
        if output is None:
            return
        assert isinstance(screen.file, io.StringIO)
        body = screen.file.getvalue()
    if output is None:
        print(body, end="" if body.endswith("\n") else "\n")
    else:
        guarded(lambda: write_whole(output, body))
        out.print(f"wrote {output}", markup=False)
