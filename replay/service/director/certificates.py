"""Signed results: an organiser's Ed25519 key signs a certificate of a tournament's result.

The certificate (docs/certificates.md) is a small JSON file: ``certificate``, the signed body
(the tournament, its final standings, every match's head digest, the store's evidence of its
history), and ``signature`` (the algorithm, the signing key's id and public key, the value). The
signed bytes are the body's canonical JSON: keys sorted, no spaces, UTF-8, and only strings and
whole numbers in it (points are written as text, ``"+23.0"``), so that ``jq -cSj`` and Python's
``json`` make the same bytes and OpenSSL checks the signature without honba.

The organiser's keys are made and read in ``replay.service.audit.keys``.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import attrs

from domain.match import match_id
from domain.said import Said
from projections.views import DocumentView
from replay.input.files import read_capped
from replay.input.json_text import load_json
from replay.service.audit.keys import CertificateError, key_id, load_private_key, private_key_from_pem, raw_public
from replay.service.audit.keys import generate_key as generate_key  # named here too, as before the keys moved
from replay.service.audit.keys import load_public_key as load_public_key
from replay.service.audit.keys import public_key_from_pem as public_key_from_pem
from replay.service.director.stages import standings_of_event
from replay.service.tournaments.standings import tournament_report
from replay.service.tournaments.tournaments import change_tournament, holds_tournament
from replay.store.application import HonbaApp
from replay.store.checkpoint import last_checkpoint, leaf_log
from replay.store.evidence import read_evidence
from replay.store.integrity import check_match, damage_line
from replay.store.merkle import leaf_hash, root, tree_root
from replay.store.store_check import check_tournament
from replay.store.tournaments import get_tournament

FORMAT = "honba-result-certificate/1"


def canonical(body: Mapping[str, Any]) -> bytes:
    """The signed bytes of a certificate body: canonical JSON (sorted keys, no spaces, UTF-8)."""
    return json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _points(value: float) -> str:
    return f"{value:+.1f}"


def certificate_body(app: HonbaApp, view: DocumentView, name: str) -> dict[str, Any]:
    """What a certificate of a tournament says: its final standings (the whole event's order), every
    match with its session, table, last position and head digest, and the store's evidence of its
    history: the head of a checkpoint taken now (``HonbaApp.checkpoint``), which covers every save
    before it (the last checkpoint's when another process holds the lock: its next covers them)."""
    tournament = get_tournament(app, name)
    report = tournament_report(view, name)
    unfinished = sorted(s.key for s, _session in report.summaries if not s.finished)
    if unfinished:
        raise CertificateError(
            Said(
                "match {match} of {name} has not ended: certify a finished event",
                match=repr(unfinished[0]),
                name=repr(name),
            )
        )
    standings = standings_of_event(app, view, name)
    matches = []
    for key, (session, table) in sorted(
        tournament.matches.items(), key=lambda item: (item[1][0], item[1][1] or 0, item[0])
    ):
        match = app.get_match(key)
        matches.append(
            {"match": key, "session": session, "table": table or 0, "events": match.version, "head": match.head}
        )
    return {
        "format": FORMAT,
        "tournament": name,
        "issued": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "standings": [
            {"rank": row.rank, "player": row.player, "stage": row.stage, "points": _points(row.points)}
            for row in standings.overall
        ],
        "matches": matches,
        "store_evidence": {"kind": "checkpoint-head", "digest": app.checkpoint().head},
        # The tree head of the checkpoints' Merkle log its matches are in (after the checkpoint just
        # taken): a signed checkpoint of this size and root, and each match's receipt, check against it.
        "checkpoint": _tree_head(app),
    }


def _tree_head(app: HonbaApp) -> dict[str, Any]:
    last = last_checkpoint(app)
    return {"size": last.size, "root": root(last.frontier)}


def sign(body: Mapping[str, Any], private_key: Any) -> dict[str, Any]:
    """The certificate: the body and its Ed25519 signature over the body's canonical JSON."""
    public_raw = raw_public(private_key.public_key())
    return {
        "certificate": dict(body),
        "signature": {
            "algorithm": "Ed25519",
            "key_id": key_id(public_raw),
            "public_key": base64.b64encode(public_raw).decode("ascii"),
            "value": base64.b64encode(private_key.sign(canonical(body))).decode("ascii"),
        },
    }


def sign_tournament(app: HonbaApp, view: DocumentView, name: str, key_path: Path) -> dict[str, Any]:
    """Certify a finished tournament's result with the organiser's key."""
    key = load_private_key(key_path)
    return sign(certificate_body(app, view, name), key)


# A certificate nests four deep (the certificate, its standings, a row).
CERTIFICATE_DEEPEST = 8


def read_certificate(path: Path) -> dict[str, Any]:
    """A certificate file (at most ``MAX_FILE`` bytes), read as JSON with the shape of the format."""
    return certificate_from_bytes(read_capped(path, what="certificate"), str(path))


# What a refusal names a certificate sent to ``honba serve`` by (a file is named by its path).
SENT_CERTIFICATE = Said("the certificate")


def certificate_from_bytes(data: bytes, source: str | Said = SENT_CERTIFICATE) -> dict[str, Any]:
    """A certificate's bytes (a file read, or sent to ``honba serve``), read as JSON (its nesting
    capped before it is parsed) with the shape of the format."""
    try:
        read = load_json(data.decode("utf-8"), deepest=CERTIFICATE_DEEPEST)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CertificateError(
            Said("{source}: not a JSON certificate ({problem})", source=source, problem=str(exc))
        ) from None
    if (
        not isinstance(read, dict)
        or not isinstance(read.get("certificate"), dict)
        or not isinstance(read.get("signature"), dict)
    ):
        raise CertificateError(Said("{source}: a certificate has a 'certificate' and a 'signature'", source=source))
    return read


def certify_tournament(app: HonbaApp, view: DocumentView, name: str, private_pem: bytes) -> dict[str, Any]:
    """Sign a finished tournament's certificate with the organiser's key (PEM bytes, used once and
    kept nowhere) and keep the certificate in the tournament, for anyone to download."""
    certificate = sign(certificate_body(app, view, name), private_key_from_pem(private_pem))
    change_tournament(app, name, lambda t: t.certify(certificate))
    return certificate


def stored_certificate(app: HonbaApp, name: str) -> dict[str, Any] | None:
    """The certificate the organiser last kept in the tournament, if any."""
    return get_tournament(app, name).certificate


def is_certified(app: HonbaApp, name: str) -> bool:
    """Whether the tournament holds a signed certificate of its result."""
    return stored_certificate(app, name) is not None


@attrs.frozen
class Verdict:
    """What verifying a certificate found: the tournament, the key it checked against, the
    problems (none: it verifies), and whether the store was compared."""

    tournament: str
    key_id: str
    problems: tuple[str, ...]
    against_store: bool


def verify_signature(data: Mapping[str, Any], public_key: Any | None) -> tuple[str, list[str]]:
    """Check a certificate's signature with the organiser's public key (or, without one, with the key
    it names). Returns the key id checked against and the problems."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    signature = data["signature"]
    problems: list[str] = []
    if signature.get("algorithm") != "Ed25519":
        return "", [f"the signature's algorithm is {signature.get('algorithm')!r}, not Ed25519"]
    if public_key is None:
        try:
            public_key = Ed25519PublicKey.from_public_bytes(base64.b64decode(str(signature.get("public_key", ""))))
        except ValueError:
            return "", ["the certificate names no readable public key"]
    expected = key_id(raw_public(public_key))
    named = str(signature.get("key_id", ""))
    if named != expected:
        problems.append(f"signed by another key (key id {named}), not the one checked against (key id {expected})")
    try:
        public_key.verify(base64.b64decode(str(signature.get("value", ""))), canonical(data["certificate"]))
    except (InvalidSignature, ValueError):
        problems.append(
            "the signature does not match the certificate: it was changed after signing, or signed by another key"
        )
    return expected, problems


def compare_with_store(body: Mapping[str, Any], app: HonbaApp, view: DocumentView) -> list[str]:
    """What differs between a certificate and the store's own record of the tournament: a match
    left out or unknown, a match changed since (its head), the standings, the store's history."""
    name = str(body.get("tournament", ""))
    problems: list[str] = []
    tournament = get_tournament(app, name)
    certified = {str(m.get("match")): m for m in body.get("matches", []) if isinstance(m, dict)}
    for key in sorted(set(tournament.matches) - set(certified)):
        problems.append(f"match {key!r} of {name!r} is not in the certificate")
    for key in sorted(set(certified) - set(tournament.matches)):
        problems.append(f"match {key!r} is certified but does not count for {name!r}")
    # Each certified match checked as ``honba check`` checks it (its chain, its seal, what the
    # checkpoints recorded of it), not only its count and head: a hand changed in the middle of a
    # match leaves its head as it was, and only its chain shows it.
    store = read_evidence(app)
    for key in sorted(set(certified) & set(tournament.matches)):
        stream = match_id(key)
        check = check_match(app, stream, key, store)
        found = damage_line(key, check)
        if found is not None:
            problems.append(str(found))
        claimed = (certified[key].get("events"), certified[key].get("head"))
        if (check.events, check.head) != claimed:
            problems.append(
                f"match {key!r} changed since it was certified (now {check.events} events, head {check.head[:16]})"
            )
        elif store.saved(stream) and not any((at, head) == claimed for at, head, _who in store.saved(stream)):
            problems.append(f"match {key!r}: no checkpoint recorded the certified head {check.head[:16]}")
    held = check_tournament(app, tournament.id, name, store)
    if held.problems:
        first = held.problems[0]
        problems.append(f"tournament {name!r} is damaged in the store: {first.kind} ({first.detail}); see honba check")
    now: list[dict[str, Any]] = [
        {"rank": row.rank, "player": row.player, "stage": row.stage, "points": _points(row.points)}
        for row in standings_of_event(app, view, name).overall
    ]
    if now != body.get("standings"):
        was: dict[str, dict[str, Any]] = {
            str(r.get("player")): r for r in body.get("standings", []) if isinstance(r, dict)
        }
        differing = [r for r in now if was.get(str(r["player"])) != r] or now
        row = differing[0]
        before = was.get(str(row["player"]))
        problems.append(
            f"the standings differ: {row['player']} is certified "
            + (f"rank {before.get('rank')} with {before.get('points')}" if before else "nowhere")
            + f", the store says rank {row['rank']} with {row['points']}"
        )
    evidence = body.get("store_evidence") or {}
    # A certificate signed before checkpoints names the head of the store chain of saves, whose
    # links the store keeps beside its checkpoints (``replay.store.evidence``).
    if evidence.get("kind") in ("checkpoint-head", "store-chain-head"):
        digests = set(read_evidence(app).check.digests)
        if evidence.get("digest") not in digests:
            problems.append(
                "the store's checkpoints never had the certified head: its history is not the one certified"
            )
    else:
        problems.append(f"store evidence of kind {evidence.get('kind')!r} is not one this honba checks")
    named = body.get("checkpoint")
    if isinstance(named, dict):
        hashes = [leaf_hash(leaf) for leaf in leaf_log(app)]
        size = named.get("size")
        if not isinstance(size, int) or size > len(hashes) or tree_root(hashes[: max(size, 0)]) != named.get("root"):
            problems.append(
                f"the store's log does not hold the checkpoint the certificate names ({size} leaves, root "
                f"{str(named.get('root'))[:16]}): its history is not the one certified"
            )
    return problems


def verify_certificate(
    data: Mapping[str, Any],
    public_key: Any | None,
    app: HonbaApp | None = None,
    view_of: Callable[[], DocumentView] | None = None,
) -> Verdict:
    """Verify a certificate: its signature with the organiser's public key and, when a store is given
    and it holds the certified tournament, everything the certificate says against the store (its
    standings view asked of ``view_of`` only then). A certificate of a tournament the store does not
    hold is checked by its signature alone, whatever front end asks."""
    checked, problems = verify_signature(data, public_key)
    body = data["certificate"]
    if body.get("format") != FORMAT:
        problems.append(f"the certificate's format is {body.get('format')!r}, not {FORMAT!r}")
    tournament = str(body.get("tournament", ""))
    against = app is not None and view_of is not None and holds_tournament(app, tournament)
    if against:
        assert app is not None and view_of is not None
        problems += compare_with_store(body, app, view_of())
    return Verdict(tournament, checked, tuple(problems), against)
