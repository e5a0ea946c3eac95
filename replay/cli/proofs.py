"""``honba proof ...`` and ``honba witness``: receipts, consistency proofs, co-signing a log."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from replay.cli.params import HonbaGroup
from replay.cli.render import json_text
from replay.cli.shell import app, fail, guarded, out, shell
from replay.input.files import write_whole

proof_app = typer.Typer(
    help="Proofs an outsider can check: a match's receipt, two signed checkpoints of one history.",
    no_args_is_help=True,
    cls=HonbaGroup,
)
app.add_typer(proof_app, name="proof")

KeyOption = Annotated[
    str | None,
    typer.Option(
        "--key",
        help="The organiser's published key: a verifier key (name+id+key) or its public key file (PEM).",
    ),
]


@proof_app.command("match")
def match(
    ctx: typer.Context,
    key: Annotated[str, typer.Argument(help="The match.")],
    output: Annotated[Path | None, typer.Option("-o", "--output", help="The receipt file to write.")] = None,
) -> None:
    """Write a match's receipt: its sealed head, its leaf and audit path to the latest signed
    checkpoint that holds it (JSON; honba proof check verifies it with no store)."""
    from replay.service.audit.proofs import match_receipt

    receipt = guarded(lambda: match_receipt(shell(ctx).app, key))
    text = json_text(receipt) + "\n"
    if output is None:
        print(text, end="")
        return
    guarded(lambda: write_whole(output, text))
    out.print(
        f"wrote {output}: match {key}, leaf {receipt['leaf_index']} of the signed checkpoint of "
        f"{receipt['tree_size']} leaves",
        markup=False,
    )


@proof_app.command("check")
def check(
    receipt: Annotated[Path, typer.Argument(help="The receipt file.")],
    key: KeyOption = None,
) -> None:
    """Verify a match's receipt with no store: the leaf names the match's head, the audit path leads
    to the signed checkpoint's root, the organiser's key signed it. Exit 1 when it does not."""
    from replay.service.audit.proofs import ReceiptVerdict, check_receipt, read_receipt, receipt_verifier

    def run() -> ReceiptVerdict:
        data = read_receipt(receipt)
        return check_receipt(data, receipt_verifier(key, data) if key is not None else None)

    verdict = guarded(run)
    if verdict.problem is not None:
        raise fail(f"{receipt}: FAILED: {verdict.problem}", 1)
    if key is None:
        out.print(
            f"checked against the key the receipt names, {verdict.key}: compare it with the organiser's", markup=False
        )
    out.print(
        f"The receipt verifies: match {verdict.match} is in the signed checkpoint of {verdict.size} leaves",
        markup=False,
    )


@proof_app.command("consistent")
def consistent(
    ctx: typer.Context,
    old: Annotated[Path, typer.Argument(help="The older signed checkpoint (a file).")],
    new: Annotated[Path, typer.Argument(help="The newer signed checkpoint (a file).")],
    key: KeyOption = None,
) -> None:
    """Check that two signed checkpoints are one history that only grew: the consistency proof
    between them, made from this store's log (RFC 6962). Exit 1 when they are not."""
    from replay.service.audit.proofs import ConsistencyVerdict, note_verifier, prove_consistent, read_note_file

    def run() -> ConsistencyVerdict:
        old_text, new_text = read_note_file(old), read_note_file(new)
        trusted = note_verifier(key, new_text, str(new)) if key is not None else None
        return prove_consistent(shell(ctx).app, old_text, new_text, trusted)

    verdict = guarded(run)
    if verdict.problem is not None:
        raise fail(f"FAILED: {verdict.problem}", 1)
    out.print(
        f"One history: the checkpoint of {verdict.old} leaves is a prefix of the one of {verdict.new}", markup=False
    )


@app.command()
def witness(
    url: Annotated[str, typer.Argument(help="The organiser's honba serve (http://host:port).")],
    key: Annotated[Path, typer.Option("--key", help="The witness's private key (PEM, honba certificate keygen).")],
    log_key: Annotated[
        str, typer.Option("--log-key", help="The organiser's verifier key (name+id+key, or a file holding it).")
    ],
    state: Annotated[
        Path | None, typer.Option("--state", help="Where the witness keeps the last checkpoint it co-signed.")
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="The witness's key name.")] = None,
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Write the co-signed checkpoint to this file too.")
    ] = None,
    no_post: Annotated[bool, typer.Option("--no-post", help="Do not post the cosignature back.")] = False,
) -> None:
    """Co-sign the organiser's latest checkpoint after checking it: signed by the organiser, and
    consistent with the last one this witness co-signed. Refuses (exit 1) a log that went back or
    showed another history."""
    from replay.service.audit.proofs import read_verifier
    from replay.service.audit.witnesses import Witnessed, WitnessRefused, witness_once
    from replay.service.common.opening import data_folder

    where = state if state is not None else data_folder() / "witness"

    def run() -> Witnessed:
        try:
            return witness_once(url, key, read_verifier(log_key), where, name=name, post=not no_post, output=output)
        except WitnessRefused as exc:
            raise fail(str(exc), 1) from None

    done = guarded(run)
    out.print(f"Co-signed the checkpoint of {done.size} leaves{' and posted it' if done.posted else ''}", markup=False)
    out.print(f"witness key {done.vkey}", markup=False, soft_wrap=True, highlight=False)
