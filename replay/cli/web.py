"""``honba token``: who may write through ``honba serve`` (the tokens of tables, referees, the director)."""

from __future__ import annotations

from typing import Annotated

import typer

from domain.bounds import shown
from replay.cli.params import HonbaGroup
from replay.cli.shell import app, fail, guarded, out, shell
from replay.service.common.access import TableLink, TokenStore
from replay.service.common.shapes import counted

token_app = typer.Typer(
    help="Secret tokens for honba serve: tables, referees, the director.", no_args_is_help=True, cls=HonbaGroup
)
app.add_typer(token_app, name="token")


@token_app.command("create")
def token_create(
    ctx: typer.Context,
    role: Annotated[str, typer.Option(help="director, referee or table.")],
    match: Annotated[str | None, typer.Option(help="The match a table token writes to.")] = None,
) -> None:
    """Make a secret token (shown once; the store keeps only its salted SHA-256 hash)."""

    def run() -> str:
        return TokenStore(shell(ctx).app).create(role, match)

    token = guarded(run)
    out.print(token, markup=False, highlight=False, soft_wrap=True)
    if match is not None:
        link = TableLink(match, token)
        out.print(f"table link: {link.path}", markup=False, highlight=False, soft_wrap=True)


@token_app.command("reissue")
def token_reissue(
    ctx: typer.Context,
    match: Annotated[str, typer.Option(help="The match whose table link is issued again.")],
) -> None:
    """Issue a table's link again: a new table token for the match; every earlier one stops writing."""
    link = guarded(lambda: TokenStore(shell(ctx).app).reissue(match))
    out.print(link.token, markup=False, highlight=False, soft_wrap=True)
    out.print(f"table link: {link.path}", markup=False, highlight=False, soft_wrap=True)
    revoked = "no earlier table link" if not link.revoked else counted(link.revoked, "earlier table link")
    out.print(f"revoked {revoked} of {match}", markup=False, highlight=False)


@token_app.command("revoke")
def token_revoke(
    ctx: typer.Context,
    token_id: Annotated[str, typer.Argument(help="The token's id: the part before the dot.")],
) -> None:
    """Remove a token: it no longer writes."""

    def run() -> bool:
        return TokenStore(shell(ctx).app).revoke(token_id)

    found = guarded(run)
    if not found:
        raise fail(f"no token {shown(token_id)}")
    out.print("revoked", markup=False)
