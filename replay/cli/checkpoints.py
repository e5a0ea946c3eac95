"""``honba checkpoint``: take a checkpoint of what was saved since the last one."""

from __future__ import annotations

import typer

from replay.cli.render import digest_line
from replay.cli.shell import app, fail, guarded, out, shell
from replay.service.checkpoints import checkpoint_now
from replay.service.digests import store_digest
from replay.service.shapes import counted


@app.command()
def checkpoint(ctx: typer.Context) -> None:
    """Take a checkpoint now: every match and tournament saved since the last one, committed to by
    the store head digest (honba check --against). honba serve takes them every few seconds while
    something changes, and every command that wrote takes one at its end."""
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
