"""Witnesses: anyone checks that the organiser's log only grows, and co-signs what they checked.

A witness (``witness_once``, ``honba witness URL``) fetches the organiser's latest signed
checkpoint from ``honba serve``, verifies the organiser's signature, and checks it is consistent
with the last checkpoint it co-signed (a consistency proof fetched from the server, RFC 6962
§2.1.2): the same size must have the same root, a larger one must extend it, a smaller one is a
log that went back. Only then does it co-sign (C2SP tlog-cosignature: ``cosignature/v1``, Ed25519,
with the time), keep the checkpoint as the last it co-signed, and post the cosignature back.

The server keeps a cosignature only from a witness key the organiser configured
(``honba serve --witness VKEY``), and only when it verifies over the checkpoint it signed
(``accept_cosignature``); the checkpoints it serves carry them. An organiser who shows one
history to some and another to others cannot get both co-signed by a witness that saw either:
its next cosignature is refused by the witness itself (the split-view attack).
"""

from __future__ import annotations

import hashlib
import json
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from replay.formats.note import (
    MAX_NOTE,
    NoteError,
    Signature,
    Verifier,
    cosign_text,
    parse_checkpoint,
    parse_note,
    parse_signature_line,
    parse_vkey,
    public_raw,
    signature_verifies,
    verifier_of,
    verify_note,
)
from replay.input.files import write_whole
from replay.service.audit.keys import key_id, load_private_key
from replay.service.audit.proofs import CheckpointNotSigned, ProofFailed
from replay.store.application import HonbaApp
from replay.store.merkle import verify_consistency
from replay.store.signed import keep_cosignature, kept

# How long a witness waits for the server, in seconds.
TIMEOUT = 30.0


class WitnessRefused(ProofFailed):
    """The witness will not co-sign: the checkpoint is not the organiser's, or not consistent with
    the one it co-signed before."""


@attrs.frozen
class Witnessed:
    """What a witness did: the checkpoint's size, the cosignature line, where it went."""

    size: int
    line: str
    posted: bool
    vkey: str


def witness_vkey(key_path: Path, name: str | None = None) -> Verifier:
    """A witness's verifier key (cosignature type 0x04): what the organiser configures."""
    key = load_private_key(key_path)
    return verifier_of(name or default_witness_name(key), key.public_key(), 0x04)


def default_witness_name(key: Any) -> str:
    """A witness's key name when none is given: honba-witness and the key's id."""
    return f"honba-witness/{key_id(public_raw(key.public_key()))}"


Fetch = Callable[[str, bytes | None], bytes]


def http_fetch(url: str, body: bytes | None = None) -> bytes:
    """GET ``url`` (POST ``body`` as text when given); the answer's body, at most a note's size. Only
    ``http`` and ``https``: a witness reads a server, never a file or another scheme."""
    if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
        raise WitnessRefused(f"{url[:200]}: a witness fetches from an http:// or https:// address")
    request = urllib.request.Request(url, data=body, method="POST" if body is not None else "GET")
    if body is not None:
        request.add_header("Content-Type", "text/plain; charset=utf-8")
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as answer:
            data: bytes = answer.read(MAX_NOTE + 1)
            return data
    except urllib.error.HTTPError as exc:
        said = exc.read(500).decode("utf-8", "replace").strip().splitlines()
        raise WitnessRefused(f"{url}: the server answered {exc.code}{': ' + said[0][:200] if said else ''}") from None
    except (urllib.error.URLError, OSError, ValueError) as exc:  # ValueError: an address http.client cannot use
        raise WitnessRefused(f"{url[:200]}: cannot reach the server ({getattr(exc, 'reason', exc)})") from None


def _state_file(state: Path, origin: str) -> Path:
    return state / f"{hashlib.sha256(origin.encode()).hexdigest()[:24]}.checkpoint"


def witness_once(
    url: str,
    key_path: Path,
    log_key: Verifier,
    state: Path,
    *,
    name: str | None = None,
    post: bool = True,
    output: Path | None = None,
    now: int | None = None,
    fetch: Fetch = http_fetch,
) -> Witnessed:
    """Fetch the log's latest signed checkpoint from ``url``, check it (the organiser's signature
    with ``log_key``; consistent with the last this witness co-signed, kept in ``state``), co-sign
    it, keep it as the last co-signed, and post the cosignature back (or write it to ``output``)."""
    base = url.rstrip("/")
    key = load_private_key(key_path)
    me = verifier_of(name or default_witness_name(key), key.public_key(), 0x04)
    note = parse_note(fetch(f"{base}/checkpoints/latest", None), f"{base}/checkpoints/latest")
    unsigned = verify_note(note, log_key)
    if unsigned is not None:
        raise WitnessRefused(f"not co-signed: the checkpoint is not the organiser's ({unsigned})")
    checkpoint = parse_checkpoint(note.text)
    if checkpoint.origin != log_key.name:
        raise WitnessRefused(f"not co-signed: the checkpoint is of log {checkpoint.origin!r}, not {log_key.name!r}")
    last_file = _state_file(state, checkpoint.origin)
    if last_file.is_file():
        before = parse_checkpoint(parse_note(last_file.read_bytes(), str(last_file)).text, str(last_file))
        _consistent(base, before.size, before.root, checkpoint.size, checkpoint.root, fetch)
    signature = cosign_text(note.text, me.name, key, int(time.time()) if now is None else now)
    state.mkdir(parents=True, exist_ok=True)
    write_whole(last_file, note.with_signatures((signature,)).written)
    if output is not None:
        write_whole(output, note.with_signatures((signature,)).written)
    if post:
        fetch(f"{base}/checkpoints/{checkpoint.size}/cosignatures", (signature.line + "\n").encode())
    return Witnessed(checkpoint.size, signature.line, post, me.vkey)


def _consistent(base: str, old: int, old_root: str, new: int, new_root: str, fetch: Fetch) -> None:
    if new < old:
        raise WitnessRefused(
            f"not co-signed: the log went back from {old} leaves (co-signed before) to {new}: "
            "a rollback or a split view"
        )
    if new == old:
        if new_root != old_root:
            raise WitnessRefused(
                f"not co-signed: a checkpoint of {new} leaves with another root than the one co-signed before: "
                "two histories shown (a split view)"
            )
        return
    query = urllib.parse.urlencode({"old": old, "new": new})
    try:
        answer = json.loads(fetch(f"{base}/api/checkpoints/consistency?{query}", None).decode("utf-8"))
        proof = [str(h) for h in answer["proof"]]
    except (ValueError, KeyError, TypeError):
        raise WitnessRefused("not co-signed: the server's consistency proof is not one") from None
    if not verify_consistency(old, new, old_root, new_root, proof):
        raise WitnessRefused(
            f"not co-signed: the checkpoint of {new} leaves does not extend the one of {old} co-signed before: "
            "two histories shown (a split view), or one rewritten"
        )


# The server's side: cosignatures from the witnesses the organiser configured.


# The witnesses' verifier keys a server keeps cosignatures from (``honba serve --witness``).
WitnessKeys = tuple[Verifier, ...]


def cosignature_line(sent: bytes) -> str:
    """A cosignature as a witness sends it (one line of text), refused when it is larger than a note."""
    if len(sent) > MAX_NOTE:
        raise NoteError("a cosignature is one line")
    return sent.decode("utf-8", "replace")


def witness_keys(vkeys: Sequence[str]) -> WitnessKeys:
    """The witnesses' verifier keys an organiser configures (cosignature keys, type 0x04)."""
    keys = tuple(parse_vkey(v) for v in vkeys)
    for key in keys:
        if key.kind != 0x04:
            raise NoteError(f"witness key {key.name}: a witness's key is a cosignature key (type 0x04)")
    return keys


def accept_cosignature(app: HonbaApp, size: int, line: str, witnesses: Sequence[Verifier]) -> str:
    """Keep a witness's cosignature of the signed checkpoint of ``size`` leaves: only from a key in
    ``witnesses`` (``WitnessUnknown`` otherwise), only when it verifies over that checkpoint. The
    witness's name."""
    stored = kept(app)
    if size not in stored.notes:
        raise CheckpointNotSigned(f"no checkpoint of {size} leaves is signed")
    if any(ord(c) < 0x20 for c in line.strip()):
        raise NoteError("a cosignature is one line of text")
    signature = parse_signature_line(line.strip(), "the cosignature")
    witness = _known(signature, witnesses)
    text = parse_note(stored.notes[size]).text
    if not signature_verifies(text, signature, witness):
        raise ProofFailed(f"the cosignature of {witness.name} does not verify over the checkpoint of {size} leaves")
    keep_cosignature(app, size, signature.line)
    return witness.name


class WitnessUnknown(ProofFailed):
    """A cosignature from a key the organiser did not configure as a witness."""


def _known(signature: Signature, witnesses: Sequence[Verifier]) -> Verifier:
    for witness in witnesses:
        if (witness.name, witness.key_id) == (signature.name, signature.key_id):
            return witness
    raise WitnessUnknown(f"{signature.name} is not a witness this server was configured with")
