"""Proofs an outsider can check: signed checkpoints, a match's receipt, one history that only grew.

- A **signed checkpoint** (``sign_checkpoint``) is the tree head of the checkpoints' Merkle log
  (``replay.store.checkpoint``, RFC 6962's tree) in C2SP's tlog-checkpoint form, signed with the
  organiser's Ed25519 key (the key that signs result certificates) as a C2SP signed note
  (``replay.formats.note``), and kept in the store by size (``replay.store.signed``).
- A **match's receipt** (``match_receipt``) is a small JSON file: the match's sealed head digest,
  the leaf the log holds for it, the leaf's index, its audit path (RFC 6962 §2.1.1) and the signed
  checkpoint. ``check_receipt`` verifies it with no store: the leaf names the head, the path leads
  from the leaf's hash to the checkpoint's root, and the organiser's key signed the checkpoint.
- A **consistency proof** (RFC 6962 §2.1.2, ``consistency``) shows the tree of one signed
  checkpoint is a prefix of the tree of a later one: the history only grew. A store rolled back
  or forked between two published checkpoints cannot make one.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from domain.errors import HonbaError
from domain.integrity import canonical
from domain.match import match_id
from domain.store_errors import DamagedMatch
from replay.formats.note import (
    Note,
    NoteError,
    Verifier,
    checkpoint_text,
    parse_checkpoint,
    parse_note,
    parse_signature_line,
    parse_vkey,
    public_raw,
    sign_text,
    verifier_of,
    verify_note,
)
from replay.input.files import read_capped
from replay.input.json_text import load_json
from replay.service.audit.keys import CertificateError, key_id, load_private_key, public_key_from_pem
from replay.store.application import HonbaApp
from replay.store.checkpoint import last_checkpoint, leaf_log, read_checkpoints
from replay.store.evidence import read_evidence
from replay.store.integrity import check_match
from replay.store.merkle import (
    ProofError,
    consistency_proof,
    hash_leaf,
    inclusion_proof,
    is_hash,
    leaf_hash,
    root,
    tree_root,
    verify_consistency,
    verify_inclusion,
)
from replay.store.signed import keep_signed, kept

RECEIPT_FORMAT = "honba-match-receipt/1"
# A receipt nests three deep (the receipt, its leaf or path); its file is a few kilobytes.
RECEIPT_DEEPEST = 6


class ProofFailed(HonbaError):
    """A signed checkpoint, a receipt or a consistency proof that cannot be made or does not verify."""


class CheckpointNotSigned(ProofFailed):
    """No signed checkpoint of that size (or none at all) is kept in the store."""


def default_origin(public_raw: bytes) -> str:
    """The log's origin (and the organiser's key name) when none is given: honba and the key's id,
    so that two organisers' logs never share a name."""
    return f"honba/{key_id(public_raw)}"


@attrs.frozen
class SignedCheckpoint:
    """A signed checkpoint: the tree's size and root, the note as written, the verifier key."""

    size: int
    root: str
    note: str
    vkey: str


def sign_checkpoint(app: HonbaApp, key_path: Path, origin: str | None = None) -> SignedCheckpoint:
    """Take a checkpoint of what was saved since the last, and sign its tree head with the
    organiser's key (``origin``: the log's name, also the key's; by default the one signed before,
    else ``honba/<key id>``). Refused when the store's checkpoints do not check: a signature is a
    promise about the history."""
    key = load_private_key(key_path)
    app.checkpoint()
    checkpoints = read_checkpoints(app)
    if not checkpoints.check.intact:
        problem = checkpoints.check.problems[0]
        raise ProofFailed(f"the store's checkpoints do not check ({problem.detail}): see honba check; nothing signed")
    last = last_checkpoint(app)
    if last.size == 0:
        raise ProofFailed("nothing is stored yet: there is no tree head to sign")
    head = root(last.frontier)
    leaves = leaf_log(app)
    if len(leaves) != last.size or tree_root([leaf_hash(leaf) for leaf in leaves]) != head:
        raise ProofFailed("the checkpoints' leaves do not make the tree head they state: see honba check")
    stored = kept(app)
    signer = verifier_of(
        origin or _origin_signed_before(stored.notes) or default_origin(public_raw(key.public_key())), key.public_key()
    )
    if last.size in stored.notes:
        # Signed before (nothing saved since): the same note. One of this size with another root is
        # a history changed since it was signed: never signed over.
        note = stored.notes[last.size]
        if parse_checkpoint(parse_note(note).text).root != head:
            raise ProofFailed(
                f"a checkpoint of {last.size} leaves was signed before with another root: the store's history "
                "was changed since (honba check --against that checkpoint); nothing signed"
            )
        keep_signed(app, last.size, note, stored.vkeys[last.size])
        return SignedCheckpoint(last.size, head, note, stored.vkeys[last.size])
    text = checkpoint_text(signer.name, last.size, head)
    note = Note(text, (sign_text(text, signer.name, key),)).written
    keep_signed(app, last.size, note, signer.vkey)
    return SignedCheckpoint(last.size, head, kept(app).notes[last.size], signer.vkey)


def _origin_signed_before(notes: Mapping[int, str]) -> str | None:
    for size in sorted(notes, reverse=True):
        try:
            return parse_checkpoint(parse_note(notes[size]).text).origin
        except NoteError:
            continue
    return None


def published_note(app: HonbaApp, size: int | None = None) -> str:
    """The signed checkpoint of ``size`` leaves (the latest when None) as published: the organiser's
    note with the cosignatures witnesses sent (``replay.service.audit.witnesses``) after its signature."""
    stored = kept(app)
    chosen = stored.latest if size is None else size
    if chosen is None or chosen not in stored.notes:
        raise CheckpointNotSigned(
            "no checkpoint is signed yet: honba checkpoint --sign KEY"
            if chosen is None
            else f"no checkpoint of {chosen} leaves is signed"
        )
    text = stored.notes[chosen]
    # One cosignature per witness key: the last it sent (a witness co-signs the same size again later).
    latest: dict[tuple[str, bytes], str] = {}
    for line in stored.cosignatures.get(chosen, ()):
        signature = parse_signature_line(line, "a kept cosignature")
        latest[(signature.name, signature.key_id)] = line
    published = text + "".join(line + "\n" for line in latest.values() if line not in text)
    parse_note(published, f"the signed checkpoint of {chosen} leaves")  # a row changed behind honba's back
    return published


def organiser_vkey(app: HonbaApp) -> Verifier:
    """The organiser's verifier key the store's latest signed checkpoint was signed with."""
    stored = kept(app)
    if stored.latest is None:
        raise CheckpointNotSigned(
            "this store keeps no signed checkpoint: give the organiser's published key with --key"
        )
    return parse_vkey(stored.vkeys[stored.latest])


def read_verifier(text_or_path: str, origin: str | None = None) -> Verifier:
    """A verifier key given on the command line: a vkey, or a file holding one or an Ed25519 public
    key in PEM (then named ``origin``, the log's name the checkpoint states, or by default the
    default origin of that key)."""
    path = Path(text_or_path)
    if "+" in text_or_path and not path.is_file():
        return parse_vkey(text_or_path)
    try:
        data = read_capped(path, limit=64 * 1024, what="key file")
    except OSError as exc:
        raise ProofFailed(
            f"{text_or_path}: neither a verifier key (name+id+key) nor a key file ({exc.strerror})"
        ) from None
    if b"BEGIN PUBLIC KEY" in data:
        public = public_key_from_pem(data, str(path))
        return verifier_of(origin or default_origin(public_raw(public)), public)
    return parse_vkey(data.decode("utf-8", "replace"))


def receipt_verifier(key: str, receipt: Mapping[str, Any]) -> Verifier:
    """The verifier key given on the command line (``read_verifier``) for checking ``receipt``: a key
    file is named by the origin the receipt's checkpoint states (by the key's default origin when that
    checkpoint cannot be read: ``check_receipt`` names what is wrong with it)."""
    try:
        origin: str | None = parse_checkpoint(parse_note(str(receipt.get("checkpoint", ""))).text).origin
    except NoteError:
        origin = None
    return read_verifier(key, origin)


def note_verifier(key: str, note_text: str, source: str) -> Verifier:
    """The verifier key given on the command line for checking the signed checkpoint ``note_text``
    (read from ``source``): a key file is named by the origin that checkpoint states."""
    return read_verifier(key, parse_checkpoint(parse_note(note_text, source).text).origin)


# A match's receipt.


def match_receipt(app: HonbaApp, key: str) -> dict[str, Any]:
    """The receipt of a match: its sealed head, its leaf in the log, the audit path to the latest
    signed checkpoint that holds it. Refused when the store's check of the match fails (its events
    or seal were changed, or a checkpoint recorded a later save), when its last save is in no signed
    checkpoint yet, or when the log no longer makes the signed root."""
    try:
        shown = app.read(key)  # MatchNotFound in its own words; its chain and seal checked on the rows read
    except DamagedMatch as exc:
        raise ProofFailed(f"match {key!r} does not check in the store ({exc}): no receipt") from None
    stream = match_id(key)
    check = check_match(app, stream, key, read_evidence(app))
    if shown.damage is not None or not check.intact:
        said = shown.damage or check.problems[0].detail
        raise ProofFailed(f"match {key!r} does not check in the store ({said}): no receipt")
    match = shown.match
    leaves = leaf_log(app)
    indexes = [i for i, leaf in enumerate(leaves) if leaf[0] == str(stream)]
    if not indexes or (leaves[indexes[-1]][1], leaves[indexes[-1]][2]) != (match.version, match.head):
        raise ProofFailed(f"match {key!r}'s last save is in no checkpoint yet: honba checkpoint, then sign one")
    index = indexes[-1]
    stored = kept(app)
    sizes = [size for size in stored.notes if size > index]
    if not sizes:
        raise CheckpointNotSigned(
            f"match {key!r}'s last save is in no signed checkpoint yet: the organiser signs one "
            "(honba checkpoint --sign KEY)"
        )
    hashes = [leaf_hash(leaf) for leaf in leaves]
    # The latest signed checkpoint first, then the largest: the first whose root the log still makes
    # (one signed before the store was rolled back and signed again is not this history's).
    for size in sorted(sizes, key=lambda s: (s != stored.latest, -s)):
        note = published_note(app, size)
        checkpoint = parse_checkpoint(parse_note(note).text)
        if size <= len(hashes):
            path = inclusion_proof(hashes[:size], index)
            if verify_inclusion(index, size, hashes[index], path, checkpoint.root):
                break
    else:
        raise ProofFailed(
            f"the store's log no longer makes the root of any signed checkpoint after match {key!r}'s "
            "last save: see honba check --against the published checkpoint"
        )
    vkey = parse_vkey(stored.vkeys[size])
    return {
        "format": RECEIPT_FORMAT,
        "match": key,
        "head": match.head,
        "events": match.version,
        "leaf": leaves[index],
        "leaf_hash": hashes[index],
        "leaf_index": index,
        "tree_size": size,
        "audit_path": path,
        "checkpoint": note,
        "vkey": vkey.vkey,
        "public_key": base64.b64encode(vkey.public_raw).decode("ascii"),
        "public_key_pem": _pem(vkey.public_raw),
    }


def _pem(raw: bytes) -> str:
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    pem: bytes = Ed25519PublicKey.from_public_bytes(raw).public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return pem.decode("ascii")


def read_receipt(path: Path) -> dict[str, Any]:
    """A receipt file read as JSON (capped before it is parsed)."""
    return receipt_from_bytes(read_capped(path, what="receipt"), str(path))


def receipt_from_bytes(data: bytes, source: str = "the receipt") -> dict[str, Any]:
    """A receipt's bytes read as a JSON object."""
    try:
        read = load_json(data.decode("utf-8"), deepest=RECEIPT_DEEPEST)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ProofFailed(f"{source}: not a JSON receipt ({exc})") from None
    if not isinstance(read, dict):
        raise ProofFailed(f"{source}: a receipt is a JSON object")
    return read


@attrs.frozen
class ReceiptVerdict:
    """What checking a receipt found: the match, the checkpoint's size, the key checked against,
    and the first problem (None: it verifies)."""

    match: str
    size: int
    key: str
    problem: str | None


def check_receipt(data: Mapping[str, Any], trusted: Verifier | None = None) -> ReceiptVerdict:
    """Verify a receipt with no store: the leaf is the match's (its id) and names its head, the leaf
    hash is RFC 6962's of the leaf, the audit path leads from it to the signed checkpoint's root,
    and the organiser's key signed that checkpoint (``trusted``; else the key the receipt names)."""
    key = str(data.get("match", ""))
    size = data.get("tree_size")
    try:
        problem, named = _receipt_problem(data, trusted)
    except (NoteError, CertificateError) as exc:
        problem, named = str(exc), ""
    return ReceiptVerdict(key, size if isinstance(size, int) else 0, named, problem)


def _receipt_problem(data: Mapping[str, Any], trusted: Verifier | None) -> tuple[str | None, str]:
    if data.get("format") != RECEIPT_FORMAT:
        return f"the receipt's format is {data.get('format')!r}, not {RECEIPT_FORMAT!r}", ""
    key, head, leaf = data.get("match"), data.get("head"), data.get("leaf")
    index, size, path = data.get("leaf_index"), data.get("tree_size"), data.get("audit_path")
    if not isinstance(key, str) or not is_hash(head) or not isinstance(leaf, list) or len(leaf) != 3:
        return "the receipt names no match, head digest and leaf", ""
    if not isinstance(index, int) or not isinstance(size, int) or not isinstance(path, list):
        return "the receipt has no leaf index, tree size and audit path", ""
    if leaf[0] != str(match_id(key)) or leaf[2] != head or leaf[1] != data.get("events"):
        return f"the leaf is not match {key!r}'s sealed head: the receipt was changed", ""
    leaf_hashed = hash_leaf(canonical(leaf))
    if data.get("leaf_hash") != leaf_hashed:
        return "the leaf hash is not the hash of the leaf: the receipt was changed", ""
    verifier = trusted or parse_vkey(str(data.get("vkey", "")))
    named = f"{verifier.name} ({verifier.key_id.hex()})"
    if trusted is None and data.get("public_key") != base64.b64encode(verifier.public_raw).decode("ascii"):
        return "the receipt's public key is not its verifier key's", named
    note = parse_note(str(data.get("checkpoint", "")), "the receipt's checkpoint")
    unsigned = verify_note(note, verifier)
    if unsigned is not None:
        return f"the checkpoint is not signed by the organiser's key: {unsigned}", named
    checkpoint = parse_checkpoint(note.text, "the receipt's checkpoint")
    if checkpoint.size != size:
        return f"the receipt's tree size {size} is not the signed checkpoint's {checkpoint.size}", named
    if not verify_inclusion(index, size, leaf_hashed, [str(p) for p in path], checkpoint.root):
        return (
            f"the audit path does not lead from the leaf to the signed root of {size} leaves: the match "
            "is not in the published history as the receipt says",
            named,
        )
    return None, named


# One history that only grew.


def consistency(app: HonbaApp, old: int, new: int) -> list[str]:
    """The consistency proof from the store's log at ``old`` leaves to ``new`` leaves (hex hashes).
    Refused when the log holds fewer than ``new`` leaves (it was rolled back past a tree head)."""
    if not 0 <= old <= new:
        raise ProofFailed(f"a consistency proof goes from a smaller tree to a larger, not {old} to {new}")
    leaves = leaf_log(app)
    if new > len(leaves):
        raise ProofFailed(
            f"the store's log holds {len(leaves)} leaves, not {new}: it was rolled back, or never had them"
        )
    try:
        return consistency_proof([leaf_hash(leaf) for leaf in leaves[:new]], old)
    except ProofError as exc:
        raise ProofFailed(str(exc)) from None


def read_note_file(path: Path) -> str:
    """A signed checkpoint's file, read as text."""
    try:
        return read_capped(path, limit=64 * 1024, what="checkpoint").decode("utf-8")
    except UnicodeDecodeError:
        raise ProofFailed(f"{path}: not a signed checkpoint (not UTF-8 text)") from None


@attrs.frozen
class ConsistencyVerdict:
    """Two signed checkpoints compared: their sizes and the first problem (None: one history)."""

    old: int
    new: int
    problem: str | None


def checkpoints_consistent(
    old_note: str, new_note: str, proof: Sequence[str], verifier: Verifier
) -> ConsistencyVerdict:
    """Whether two signed checkpoints are one history that only grew: both signed by ``verifier``,
    of the same log, and ``proof`` shows the older tree is a prefix of the newer."""
    try:
        olds, news = parse_note(old_note, "the older checkpoint"), parse_note(new_note, "the newer checkpoint")
        old, new = (
            parse_checkpoint(olds.text, "the older checkpoint"),
            parse_checkpoint(news.text, "the newer checkpoint"),
        )
    except NoteError as exc:
        return ConsistencyVerdict(0, 0, str(exc))
    for which, note in (("older", olds), ("newer", news)):
        unsigned = verify_note(note, verifier)
        if unsigned is not None:
            return ConsistencyVerdict(old.size, new.size, f"the {which} checkpoint: {unsigned}")
    if old.origin != new.origin:
        return ConsistencyVerdict(old.size, new.size, f"the checkpoints are of two logs ({old.origin}, {new.origin})")
    if old.size > new.size:
        return ConsistencyVerdict(
            old.size, new.size, f"the older checkpoint is larger ({old.size} > {new.size} leaves)"
        )
    if not verify_consistency(old.size, new.size, old.root, new.root, proof):
        return ConsistencyVerdict(
            old.size,
            new.size,
            f"the tree of {old.size} leaves is not a prefix of the tree of {new.size}: not one history that only grew",
        )
    return ConsistencyVerdict(old.size, new.size, None)


def prove_consistent(
    app: HonbaApp, old_note: str, new_note: str, verifier: Verifier | None = None
) -> ConsistencyVerdict:
    """Two signed checkpoints (published before) checked against this store: the proof between their
    sizes made from its log, and verified against both roots. A store rolled back or forked between
    them fails: it holds fewer leaves than the newer, or its leaves no longer make both roots."""
    checker = verifier or organiser_vkey(app)
    try:
        sizes = (
            parse_checkpoint(parse_note(old_note).text).size,
            parse_checkpoint(parse_note(new_note).text).size,
        )
    except NoteError as exc:
        return ConsistencyVerdict(0, 0, str(exc))
    try:
        proof = consistency(app, *sizes)
    except ProofFailed as exc:
        return ConsistencyVerdict(*sizes, str(exc))
    return checkpoints_consistent(old_note, new_note, proof, checker)


def store_against_checkpoint(app: HonbaApp, note_text: str, verifier: Verifier | None = None) -> str | None:
    """None when the store's log still holds the signed checkpoint's tree as a prefix of its own (it
    only grew since it was published); else why not: the note not the organiser's, the log rolled back
    to fewer leaves, or its leaves changed (a fork)."""
    checker = verifier or organiser_vkey(app)
    note = parse_note(note_text, "the signed checkpoint")
    unsigned = verify_note(note, checker)
    if unsigned is not None:
        return f"the signed checkpoint is not the organiser's: {unsigned}"
    checkpoint = parse_checkpoint(note.text, "the signed checkpoint")
    hashes = [leaf_hash(leaf) for leaf in leaf_log(app)]
    if len(hashes) < checkpoint.size:
        return (
            f"the store's log holds {len(hashes)} leaves, fewer than the {checkpoint.size} of the signed "
            "checkpoint: it was rolled back"
        )
    proof = consistency_proof(hashes, checkpoint.size)
    if not verify_consistency(checkpoint.size, len(hashes), checkpoint.root, tree_root(hashes), proof):
        return (
            f"the store's log is not the signed checkpoint's tree of {checkpoint.size} leaves grown: its history "
            "was changed (a fork)"
        )
    return None
