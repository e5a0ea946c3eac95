"""``honba certificate ...``: an organiser's key, a signed result certificate, and its check."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from replay.cli.params import HonbaGroup
from replay.cli.render import json_text
from replay.cli.reports import fresh_view
from replay.cli.shell import app, guarded, out, shell
from replay.input.files import write_whole

certificate_app = typer.Typer(
    help="Signed results: an organiser's Ed25519 key, a result certificate, its check.",
    no_args_is_help=True,
    cls=HonbaGroup,
)
app.add_typer(certificate_app, name="certificate")


@certificate_app.command("keygen")
def keygen(
    prefix: Annotated[Path, typer.Argument(help="Writes PREFIX.key (private, mode 0600) and PREFIX.pub.pem.")],
) -> None:
    """Make an organiser's Ed25519 key pair (the private key is never printed)."""
    from replay.service.director.certificates import generate_key

    pair = guarded(lambda: generate_key(prefix))
    out.print(f"private key {pair.private} (keep it; mode 0600), public key {pair.public}", markup=False)
    out.print(f"key id {pair.key_id}: publish the public key and its id", markup=False)


@certificate_app.command("sign")
def sign(
    ctx: typer.Context,
    tournament: Annotated[str, typer.Argument(help="The finished tournament.")],
    key: Annotated[Path, typer.Option("--key", help="The organiser's private key (PEM).")],
    output: Annotated[Path, typer.Option("-o", "--output", help="The certificate file to write.")],
) -> None:
    """Sign a certificate of a finished tournament's result."""
    from replay.service.director.certificates import sign_tournament

    def run() -> dict[str, Any]:
        certificate = sign_tournament(shell(ctx).app, fresh_view(ctx), tournament, key)
        write_whole(output, json_text(certificate) + "\n")
        return certificate

    certificate = guarded(run)
    body = certificate["certificate"]
    out.print(
        f"wrote {output}: {tournament}, {len(body['standings'])} players, {len(body['matches'])} matches, "
        f"signed by key {certificate['signature']['key_id']}",
        markup=False,
    )


@certificate_app.command("verify")
def verify(
    ctx: typer.Context,
    certificate: Annotated[Path, typer.Argument(help="The certificate file.")],
    key: Annotated[
        Path | None, typer.Option("--key", help="The organiser's published public key (PEM): check against it.")
    ] = None,
    signature_only: Annotated[
        bool, typer.Option("--signature-only", help="Check the signature only, not against this store.")
    ] = False,
) -> None:
    """Check a certificate: its signature with the organiser's public key and, when this store holds
    the tournament, every match, the standings and the store's history against it. Exit 1 on failure."""
    from replay.service.director.certificates import load_public_key, read_certificate, verify_certificate

    def run() -> Any:
        data = read_certificate(certificate)
        public = load_public_key(key) if key is not None else None
        application = None if signature_only else shell(ctx).app
        return verify_certificate(data, public, application, lambda: fresh_view(ctx))

    verdict = guarded(run)
    if key is None:
        out.print(
            f"checked against the key the certificate names (id {verdict.key_id}): compare it with the "
            "organiser's published key id, or give --key",
            markup=False,
        )
    for problem in verdict.problems:
        out.print(f"FAILED: {problem}", markup=False)
    if verdict.problems:
        raise typer.Exit(1)
    where = "the signature and this store's record" if verdict.against_store else "the signature"
    out.print(f"The certificate of {verdict.tournament} verifies: {where}", markup=False)
