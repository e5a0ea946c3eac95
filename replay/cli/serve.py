"""``honba serve``: the web front end over the store (``replay.web``), served by uvicorn."""

from __future__ import annotations

from typing import Annotated

import typer
import uvicorn

from domain.bounds import Bound
from replay.cli.params import number_option
from replay.cli.shell import app, guarded, out, shell
from replay.store.settings import store_name
from replay.web.app import create_app

# A TCP port (0, a port the system picks, would not be the one printed).
PORT = Bound("port", 1, 65_535)


@app.command()
def serve(
    ctx: typer.Context,
    host: Annotated[str, typer.Option(help="The address to listen on (0.0.0.0 for every network).")] = "127.0.0.1",
    port: Annotated[int, number_option("--port", bound=PORT, help="The port to listen on.")] = 8000,
    witness: Annotated[
        list[str] | None,
        typer.Option(
            "--witness", help="A witness's verifier key (name+id+key): its cosignatures of signed checkpoints are kept."
        ),
    ] = None,
) -> None:
    """Serve the table pages, the live standings and the JSON API over the store (--db)."""

    def run() -> None:
        db = shell(ctx).db
        web = create_app(db, witness or ())
        out.print(f"honba serve: {store_name(db)} on http://{host}:{port}/", markup=False)
        uvicorn.run(web, host=host, port=port, log_level="warning", access_log=False)

    guarded(run)
