"""``honba export`` (a match written out) and ``honba demo`` (a sample match to look at)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from replay.cli.render import digest_line, ledger_table, print_status
from replay.cli.shell import app, err, guarded, guarded_match, out, shell
from replay.input.files import write_whole
from replay.service.imports.demo import record_demo
from replay.service.imports.exports import Exported, export_match


@app.command()
def export(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write to a file instead of stdout.")] = None,
    plain: Annotated[bool, typer.Option("--plain", help="Leave out the chain and seal (for editing by hand).")] = False,
    force: Annotated[
        bool, typer.Option("--force", help="Export a damaged match anyway, the damage written in its seal line.")
    ] = False,
    fmt: Annotated[
        str,
        typer.Option(
            "--format",
            help="record (a record file, the default), tenhou-json (a tenhou.net/6 JSON log) or mjai (JSON Lines).",
        ),
    ] = "record",
) -> None:
    """Write a match as a record file (JSON Lines), with the chain that honba check verifies,
    or as a tenhou.net/6 JSON log (``--format tenhou-json``) or an mjai log (``--format mjai``) that
    honba verify reads back.

    Prints the file's head digest on stderr (the chain over its lines: publish it, and honba check
    FILE --against it later), or the SHA-256 of a file without a chain (--plain, tenhou-json).

    A match whose chain or seal does not check in the store is refused: a fresh chain over it would
    launder the damage. With --force the record file is written with the damage in its seal line,
    which honba check reports and honba import refuses.
    """

    name = "the exported file" if output is None else str(output)

    def run() -> Exported:
        return export_match(shell(ctx).reader, key, fmt=fmt, plain=plain, force=force, path=name)

    exported = guarded_match(ctx, key, run)
    if output is None:
        sys.stdout.write(exported.text)
    else:
        guarded(lambda: write_whole(output, exported.text))
        err.print(f"wrote {output}", markup=False, highlight=False)
    # On stderr, so that the file written to stdout is the file alone.
    err.print(digest_line(exported.digest), markup=False, highlight=False, soft_wrap=True)


@app.command()
def demo(
    ctx: typer.Context,
) -> None:
    """Record a short sample match in a fresh SQLite file and show its status and ledger."""
    shown = guarded(lambda: record_demo(shell(ctx).db))
    verb = "Recorded" if shown.stored else "Found (already stored)"
    # A path is one word to copy: left to the terminal to wrap, never broken by a newline.
    out.print(f"{verb} the demo match {shown.key!r} in {shown.db}", soft_wrap=True)
    out.print(
        ledger_table(
            shown.players,
            list(shown.entries),
            f"Ledger of {shown.key}",
            numbers=shown.numbers,
            scoring=shown.rules.scoring,
        )
    )
    print_status(out, shown.players, shown.state, shown.rules)
    out.print(f"Try: honba --db {shown.db} status {shown.key}", soft_wrap=True)
