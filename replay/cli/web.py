"""``honba serve`` (the web front end) and ``honba token`` (who may write through it)."""

from __future__ import annotations

from typing import Annotated

import typer

from domain.bounds import Bound, shown
from replay.app import redact
from replay.cli.params import HonbaGroup, number_option
from replay.cli.shell import app, fail, guarded, out, shell

# A TCP port (0, a port the system picks, would not be the one printed).
PORT = Bound("port", 1, 65_535)

token_app = typer.Typer(
    help="Secret tokens for honba serve: tables, referees, the director.", no_args_is_help=True, cls=HonbaGroup
)
app.add_typer(token_app, name="token")


@app.command()
def serve(
    ctx: typer.Context,
    host: Annotated[str, typer.Option(help="The address to listen on (0.0.0.0 for every network).")] = "127.0.0.1",
    port: Annotated[int, number_option("--port", bound=PORT, help="The port to listen on.")] = 8000,
) -> None:
    """Serve the table pages, the live standings and the JSON API over the store (--db)."""

    def run() -> None:
        import uvicorn

        # Loaded here, not at the command's start: nothing else in honba imports the web front end.
        from replay.web.app import create_app

        db = shell(ctx).db
        web = create_app(db)
        out.print(f"honba serve: {redact(db or 'the default store')} on http://{host}:{port}/", markup=False)
        uvicorn.run(web, host=host, port=port, log_level="warning", access_log=False)

    guarded(run)


@token_app.command("create")
def token_create(
    ctx: typer.Context,
    role: Annotated[str, typer.Option(help="director, referee or table.")],
    match: Annotated[str | None, typer.Option(help="The match a table token writes to.")] = None,
) -> None:
    """Make a secret token (shown once; the store keeps only its salted SHA-256 hash)."""

    def run() -> str:
        from replay.service.access import TokenStore

        return TokenStore(shell(ctx).app).create(role, match)

    token = guarded(run)
    out.print(token, markup=False, highlight=False, soft_wrap=True)
    if match is not None:
        out.print(f"table link: /matches/{match}?token={token}", markup=False, highlight=False, soft_wrap=True)


@token_app.command("revoke")
def token_revoke(
    ctx: typer.Context,
    token_id: Annotated[str, typer.Argument(help="The token's id: the part before the dot.")],
) -> None:
    """Remove a token: it no longer writes."""

    def run() -> bool:
        from replay.service.access import TokenStore

        return TokenStore(shell(ctx).app).revoke(token_id)

    found = guarded(run)
    if not found:
        raise fail(f"no token {shown(token_id)}")
    out.print("revoked", markup=False)
