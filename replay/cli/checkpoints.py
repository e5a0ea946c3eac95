"""``honba checkpoint``: take a checkpoint of what was saved since the last one, sign one, print one."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from replay.cli.render import digest_line
from replay.cli.shell import app, err, fail, guarded, out, shell
from replay.input.files import write_whole
from replay.service.audit.checkpoints import checkpoint_now
from replay.service.audit.digests import store_digest
from replay.service.common.shapes import counted


@app.command()
def checkpoint(
    ctx: typer.Context,
    sign: Annotated[
        Path | None,
        typer.Option("--sign", help="The organiser's private key (PEM, as for certificates): sign the tree head."),
    ] = None,
    origin: Annotated[
        str | None, typer.Option("--origin", help="The log's name in the signed checkpoint (and its key's).")
    ] = None,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write the signed checkpoint (--sign, --show) to this file.")
    ] = None,
    show: Annotated[
        str | None,
        typer.Option("--show", help="Print the signed checkpoint of that many leaves ('latest': the last signed)."),
    ] = None,
) -> None:
    """Take a checkpoint now: every match and tournament saved since the last one, committed to by
    the store head digest (honba check --against). honba serve takes them every few seconds while
    something changes, and every command that wrote takes one at its end. With --sign, the tree head
    is signed as a C2SP checkpoint (a signed note) and kept; --show prints a signed one."""
    from replay.service.audit import proofs

    if show is not None:
        size = None if show == "latest" else _size(show)
        note = guarded(lambda: proofs.published_note(shell(ctx).app, size))
        _note_out(note, output)
        return
    if sign is not None:
        signed = guarded(lambda: proofs.sign_checkpoint(shell(ctx).app, sign, origin))
        # The note alone on stdout (honba checkpoint --sign KEY > cp.txt is the note); what it is, on stderr.
        err.print(f"Signed checkpoint of {signed.size} leaves, root {signed.root}", markup=False, highlight=False)
        err.print(f"verifier key {signed.vkey}", markup=False, highlight=False)
        _note_out(signed.note, output)
        return
    if origin is not None or output is not None:
        raise fail("--origin and --output are for a signed checkpoint: with --sign (--output also with --show)")
    taken = guarded(lambda: checkpoint_now(shell(ctx).app))
    if taken.skipped == "damaged":
        raise fail("the last checkpoint cannot be read: none is taken after it; see honba check")
    if taken.taken:
        out.print(
            f"Checkpoint {taken.number}: {counted(taken.leaves, 'stream')} saved since the one before", markup=False
        )
    elif taken.skipped == "locked":
        out.print("Another process is taking a checkpoint now: it covers what was saved", markup=False)
    else:
        out.print(f"Nothing saved since checkpoint {taken.number}", markup=False)
    out.print(digest_line(store_digest(taken.head)), soft_wrap=True, markup=False, highlight=False)


def _note_out(note: str, output: Path | None) -> None:
    """The note printed as it is (its lines are what is signed), or written to ``output``."""
    if output is None:
        print(note, end="")
    else:
        guarded(lambda: write_whole(output, note))
        err.print(f"wrote {output}", markup=False, highlight=False)


def _size(text: str) -> int:
    if not text.isascii() or not text.isdigit() or len(text) > 18:
        raise fail(f"--show takes a number of leaves or 'latest', not {text[:40]!r}")
    return int(text)
