"""``honba serve``: the web front end over the store (``replay.web``), served by uvicorn."""

from __future__ import annotations

import importlib
from typing import Annotated, Literal

import typer
import uvicorn

from domain.bounds import Bound
from replay.cli.params import number_option
from replay.cli.shell import app, err, guarded, out, shell
from replay.service.common.opening import store_shown
from replay.service.director.address import PUBLIC_URL_ENV, served_address
from replay.web.app import create_app

# A TCP port (0, a port the system picks, would not be the one printed).
PORT = Bound("port", 1, 65_535)


def http_stack() -> tuple[Literal["httptools", "h11"], Literal["uvloop", "asyncio"]]:
    """The HTTP parser and the event loop uvicorn runs on: ``httptools`` and ``uvloop``
    (what ``uvicorn[standard]`` adds for serving, honba's dependencies: in C, a hand through the JSON
    API costs about 0.7x the server's CPU, docs/performance.md) where they are installed; else its
    pure-Python ``h11`` and ``asyncio``, which serve the same (uvloop has no Windows build)."""
    parser: Literal["httptools", "h11"] = "httptools" if _found("httptools") else "h11"
    loop: Literal["uvloop", "asyncio"] = "uvloop" if _found("uvloop") else "asyncio"
    return parser, loop


def _found(module: str) -> bool:
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


@app.command()
def serve(
    ctx: typer.Context,
    host: Annotated[
        str, typer.Option(help="The address to listen on: 0.0.0.0 for every network (the phones' too).")
    ] = "127.0.0.1",
    port: Annotated[int, number_option("--port", bound=PORT, help="The port to listen on.")] = 8000,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="The address phones open (https://honba.example.org behind a proxy, http://192.168.1.20:8000):"
            f" table links and QR codes start with it. Default: {PUBLIC_URL_ENV}, else made from --host and --port.",
        ),
    ] = None,
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
        address = served_address(host, port, public_url)
        web = create_app(db, address, witnesses=witness or ())
        parser, loop = http_stack()
        out.print(f"honba serve: {store_shown(db)} on http://{host}:{port}/ ({parser}, {loop})", markup=False)
        # Said at start: the address phones open, or why they cannot reach this server.
        (out if address.reachable else err).print(f"honba serve: {address.said}", markup=False, soft_wrap=True)
        uvicorn.run(web, host=host, port=port, log_level="warning", access_log=False, http=parser, loop=loop)

    guarded(run)
