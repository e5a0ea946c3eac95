"""``honba import`` and ``honba verify``: many files at once, with progress and a summary."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from replay.batch import import_paths, verify_paths
from replay.formats.detect import FORMATS, expand_paths
from replay.render import print_verify_run
from replay.shell import app, err, fail, guarded, out, progress_bar, shell

FormatOption = Annotated[
    str, typer.Option("--format", help="auto (judged from the content), tenhou-xml, tenhou-json, mjai or record.")
]


@app.command("import")
def import_(
    ctx: typer.Context,
    paths: Annotated[list[Path], typer.Argument(help="Record files, game logs, or directories of them.")],
    fmt: FormatOption = "auto",
) -> None:
    """Store matches from record files and game logs; a match already stored is left as it is."""
    if fmt not in (*FORMATS, "record"):
        raise fail(f"--format must be one of {', '.join((*FORMATS, 'record'))}, not {fmt!r}")
    application = guarded(lambda: shell(ctx).app)
    files = expand_paths(paths)
    with progress_bar(len(files), "importing") as progress:
        task = progress.add_task("import", total=len(files), file="")
        run = import_paths(application, paths, fmt, lambda f: progress.update(task, advance=1, file=f))
    listed = len(run.stored) + len(run.present) <= 50
    if listed:
        for key in run.stored:
            out.print(f"match {key!r} stored", markup=False, highlight=False)
        for key in run.present:
            out.print(f"match {key!r} already stored, nothing new", markup=False, highlight=False)
    for item in (*run.unsupported, *run.unreadable):
        err.print(f"honba: {item.message}", markup=False, highlight=False)
    out.print(
        f"{len(run.stored)} stored, {len(run.present)} already present, "
        f"{len(run.unsupported)} unsupported, {len(run.unreadable)} unreadable",
        markup=False,
        highlight=False,
    )
    if run.unreadable:
        raise typer.Exit(2)


@app.command()
def verify(
    paths: Annotated[list[Path], typer.Argument(help="Game logs, or directories of them.")],
    fmt: FormatOption = "auto",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object for tools.")] = False,
) -> None:
    """Replay logs in memory and compare every hand with what the log recorded.

    Exit 0 when everything agrees, 1 when anything disagrees, 2 when an input could not be read.
    """
    if fmt not in FORMATS:
        raise fail(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    files = expand_paths(paths)
    with progress_bar(len(files), "verifying") as progress:
        task = progress.add_task("verify", total=len(files), file="")
        run = verify_paths(paths, fmt, lambda f: progress.update(task, advance=1, file=f))
    if as_json:
        print(json.dumps(run.as_dict(), ensure_ascii=False))
    else:
        print_verify_run(out, run)
    if run.unreadable:
        raise typer.Exit(2)
    if any(r.disagreements for r in run.reports):
        raise typer.Exit(1)
