"""Proofs an outsider can check (issue 37): signed checkpoints (C2SP tlog-checkpoint in a signed note),
a match's receipt (an RFC 6962 inclusion proof) checked from its JSON alone, consistency proofs
between two signed checkpoints, and witnesses that co-sign only a log that only grew.

End to end on SQLite and PostgreSQL (``store_db``); rows are changed with plain SQL behind honba's
back (``test_tamper_both_stores``'s helpers). The documented standard-library check of a receipt is
run as docs/audit.md prints it, in a Python without honba, and its OpenSSL command with it.
"""

from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from honba_cli import Honba
from starlette.testclient import TestClient
from test_tamper_both_stores import delete, execute, last
from web_support import serving

from domain.match import match_id
from replay.formats.note import (
    COSIGNATURE,
    NoteError,
    cosign_text,
    parse_checkpoint,
    parse_note,
    parse_vkey,
    sign_text,
    verifier_of,
    verify_note,
)
from replay.service.audit.proofs import check_receipt, match_receipt, published_note
from replay.service.audit.witnesses import WitnessRefused, witness_once, witness_vkey
from replay.service.director.certificates import generate_key, load_private_key
from replay.store.application import HonbaApp
from replay.store.checkpoint import CHECKPOINTS_ID
from replay.store.seal import seal_id
from replay.web.app import create_app

ROOT = Path(__file__).resolve().parents[2]
AUDIT = ROOT / "docs" / "audit.md"

# golang.org/x/mod/sumdb/note's example: its signer key (type 0x01 and the Ed25519 seed), verifier
# key, text and signed note; Ed25519 signs deterministically, so the same seed must sign the same.
GO_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
GO_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
GO_TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n"
GO_LINE = "— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM="
# A witness's cosignature verifier key (type 0x04) of transparency-dev's witness network.
REMORA_VKEY = "remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2"


def test_notes_are_signed_and_read_as_gos_sumdb_note_signs_and_reads_them() -> None:
    seed = base64.b64decode(GO_SKEY.split("+", 4)[4])  # the key itself may hold a "+"
    assert seed[0] == 0x01
    key = Ed25519PrivateKey.from_private_bytes(seed[1:])
    assert verifier_of("PeterNeumann", key.public_key()).vkey == GO_VKEY
    assert sign_text(GO_TEXT, "PeterNeumann", key).line == GO_LINE
    note = parse_note(GO_TEXT + "\n" + GO_LINE + "\n")
    assert note.text == GO_TEXT and verify_note(note, parse_vkey(GO_VKEY)) is None
    changed = parse_note(GO_TEXT.replace("problem,", "problem!") + "\n" + GO_LINE + "\n")
    assert verify_note(changed, parse_vkey(GO_VKEY)) is not None
    remora = parse_vkey(REMORA_VKEY)
    assert remora.kind == COSIGNATURE and remora.key_id.hex() == "da77ade7"
    for bad in (GO_VKEY.replace("c74f20a3", "c74f20a4"), GO_VKEY[:-4], "PeterNeumann+c74f20a3", "a b+00+AA=="):
        with pytest.raises(NoteError, match=r"verifier key|key name"):
            parse_vkey(bad)


def test_a_cosignature_signs_the_tlog_cosignature_v1_message_with_its_time() -> None:
    key = Ed25519PrivateKey.generate()
    text = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"
    signature = cosign_text(text, "witness.example.com/w1", key, 1679315147)
    raw = base64.b64decode(signature.line.split(" ")[2])
    assert raw[:4] == verifier_of("witness.example.com/w1", key.public_key(), COSIGNATURE).key_id
    assert int.from_bytes(raw[4:12], "big") == 1679315147
    # The message as c2sp.org/tlog-cosignature writes it, verified with the key directly.
    key.public_key().verify(raw[12:], b"cosignature/v1\ntime 1679315147\n" + text.encode())
    # The checkpoint of c2sp.org/tlog-cosignature's example, read; and what a checkpoint is not.
    read = parse_checkpoint(text)
    assert (read.origin, read.size, read.text) == ("example.com/behind-the-sofa", 20852163, text)
    for bad in (text.replace("20852163", "020852163"), text.replace("CsUY", "CsU"), "origin\n12\n"):
        with pytest.raises(NoteError, match="checkpoint"):
            parse_checkpoint(bad)


@pytest.fixture
def organiser(tmp_path: Path) -> tuple[Path, Path]:
    pair = generate_key(tmp_path / "organiser")
    return pair.private, pair.public


def sealed(db: str, key: str) -> tuple[int, str]:
    """The match's last position and head digest, as the store holds them."""
    store = HonbaApp.open(db)
    try:
        match = store.get_match(key)
        return match.version, match.head
    finally:
        store.close()


def played(store_db: str) -> Honba:
    """m1 played and ended (Ben's ron, then an early end)."""
    honba = Honba(store_db)  # type: ignore[arg-type]  # a PostgreSQL URL is given to --db as it is
    honba.ok("start", "m1", "--players", "Ann,Ben,Cho,Dai")
    honba.ok("win", "m1", "Ben:3/30", "--from", "Ann")
    honba.ok("end", "m1", "--reason", "time limit")
    return honba


def signed(honba: Honba, key: Path, where: Path) -> Path:
    """Sign a checkpoint now and keep the published note in ``where``: what ``--sign`` printed, the
    note alone (as ``--show latest`` prints it)."""
    note = honba.ok("checkpoint", "--sign", str(key))
    assert note == honba.ok("checkpoint", "--show", "latest")
    where.write_text(note, encoding="utf-8")
    return where


def documented_python() -> str:
    section = AUDIT.read_text(encoding="utf-8").split("### Checking a receipt without honba", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def documented_openssl() -> list[str]:
    section = AUDIT.read_text(encoding="utf-8").split("### Checking a receipt without honba", 1)[1]
    return section.split("```console\n", 1)[1].split("```", 1)[0].split()


def run_documented_check(receipt: Path, tmp_path: Path) -> tuple[subprocess.CompletedProcess[str], Path]:
    """docs/audit.md's Python, in an isolated interpreter (no honba on its path), beside the receipt."""
    where = tmp_path / "outsider"
    where.mkdir(parents=True, exist_ok=True)
    (where / "receipt.json").write_bytes(receipt.read_bytes())
    done = subprocess.run(
        [sys.executable, "-I", "-c", documented_python()], cwd=where, capture_output=True, text=True, timeout=60
    )
    return done, where


def test_a_receipt_verifies_from_the_json_alone_and_two_checkpoints_prove_one_history(
    store_db: str, organiser: tuple[Path, Path], tmp_path: Path
) -> None:
    private, public = organiser
    honba = played(store_db)
    first = signed(honba, private, tmp_path / "cp-1.txt")
    receipt = tmp_path / "m1.receipt.json"
    honba.ok("proof", "match", "m1", "-o", str(receipt))
    data = json.loads(receipt.read_text())
    assert (data["events"], data["head"]) == sealed(store_db, "m1")
    assert "The receipt verifies: match m1" in honba.ok("proof", "check", str(receipt), "--key", str(public))
    # The same from the JSON alone: the documented standard-library Python, then OpenSSL.
    done, where = run_documented_check(receipt, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "match m1 is leaf" in done.stdout
    if shutil.which("openssl"):
        command = documented_openssl()
        assert command[:2] == ["openssl", "pkeyutl"]
        (where / "organiser.pem").write_bytes(public.read_bytes())  # the key the organiser published
        verified = subprocess.run(command, cwd=where, capture_output=True, text=True, timeout=60)
        assert verified.returncode == 0 and "Signature Verified Successfully" in verified.stdout
    # More is recorded, another checkpoint signed: the two are one history, and the store holds both.
    honba.ok("start", "m2", "--players", "Ann,Ben,Cho,Dai")
    honba.ok("win", "m2", "Cho:mangan", "--from", "Dai")
    second = signed(honba, private, tmp_path / "cp-2.txt")
    assert (
        parse_checkpoint(parse_note(second.read_text()).text).size
        > parse_checkpoint(parse_note(first.read_text()).text).size
    )
    assert "One history" in honba.ok("proof", "consistent", str(first), str(second), "--key", str(public))
    assert "the signed checkpoint of" in honba.ok("check", "--against", str(first), "--key", str(public))
    # The old receipt still verifies: it proves the match as it was in the first checkpoint.
    honba.ok("proof", "check", str(receipt), "--key", str(public))


def test_a_match_altered_in_the_store_gets_no_receipt(store_db: str, organiser: tuple[Path, Path]) -> None:
    private, _public = organiser
    honba = played(store_db)
    honba.ok("checkpoint", "--sign", str(private))
    delete(store_db, match_id("m1"), 2)  # Ben's ron removed behind honba's back
    line = honba.refused("proof", "match", "m1")
    assert "match 'm1' does not check in the store" in line and "no receipt" in line


def test_a_match_changed_since_the_last_signed_checkpoint_gets_no_receipt_until_one_is_signed(
    tmp_path: Path, organiser: tuple[Path, Path]
) -> None:
    private, _public = organiser
    honba = Honba(tmp_path / "s.sqlite")
    assert "no checkpoint is signed yet" in honba.refused("checkpoint", "--show", "latest")
    honba.ok("start", "m1", "--players", "Ann,Ben,Cho,Dai")
    assert "in no signed checkpoint yet" in honba.refused("proof", "match", "m1")
    honba.ok("checkpoint", "--sign", str(private))
    honba.ok("win", "m1", "Ben:3/30", "--from", "Ann")
    assert "in no signed checkpoint yet" in honba.refused("proof", "match", "m1")
    honba.ok("checkpoint", "--sign", str(private))
    receipt = json.loads(honba.ok("proof", "match", "m1"))
    assert (receipt["events"], receipt["head"]) == sealed(str(tmp_path / "s.sqlite"), "m1")


def tampered(receipt: dict[str, Any]) -> dict[str, Callable[[dict[str, Any]], None]]:
    other = Ed25519PrivateKey.generate()

    def head(r: dict[str, Any]) -> None:
        r["head"] = r["leaf"][2] = "0" * 64

    def head_and_leaf_hash(r: dict[str, Any]) -> None:
        from replay.store.merkle import leaf_hash

        head(r)
        r["leaf_hash"] = leaf_hash(r["leaf"])

    def path(r: dict[str, Any]) -> None:
        r["audit_path"][0] = f"{int(r['audit_path'][0][0], 16) ^ 1:x}" + r["audit_path"][0][1:]

    def index(r: dict[str, Any]) -> None:
        r["leaf_index"] ^= 1

    def root(r: dict[str, Any]) -> None:
        lines = r["checkpoint"].split("\n")
        lines[2] = base64.b64encode(b"\x01" * 32).decode()
        r["checkpoint"] = "\n".join(lines)

    def signature(r: dict[str, Any]) -> None:
        text, _, line = r["checkpoint"].partition("\n\n")
        dash, name, value = line.split(" ")
        raw = bytearray(base64.b64decode(value))
        raw[10] ^= 1
        r["checkpoint"] = f"{text}\n\n{dash} {name} {base64.b64encode(bytes(raw)).decode()}\n"

    def resigned_by_another_key(r: dict[str, Any]) -> None:
        text = r["checkpoint"].partition("\n\n")[0] + "\n"
        name = text.split("\n")[0]
        r["checkpoint"] = text + "\n" + sign_text(text, name, other).line + "\n"
        r["vkey"] = verifier_of(name, other.public_key()).vkey
        r["public_key"] = base64.b64encode(verifier_of(name, other.public_key()).public_raw).decode()

    return {
        "head": head,
        "head and leaf hash": head_and_leaf_hash,
        "audit path": path,
        "leaf index": index,
        "root": root,
        "signature": signature,
        "re-signed by another key": resigned_by_another_key,
    }


def test_a_tampered_receipt_fails_with_one_line_and_so_does_the_documented_check(
    tmp_path: Path, organiser: tuple[Path, Path]
) -> None:
    private, public = organiser
    honba = played(str(tmp_path / "s.sqlite"))
    honba.ok("start", "m2", "--players", "Ann,Ben,Cho,Dai")
    honba.ok("checkpoint", "--sign", str(private))
    good = json.loads(honba.ok("proof", "match", "m1"))
    assert len(good["audit_path"]) >= 1
    for what, change in tampered(good).items():
        receipt = json.loads(json.dumps(good))
        change(receipt)
        path = tmp_path / f"{what}.json"
        path.write_text(json.dumps(receipt), encoding="utf-8")
        result = honba("proof", "check", str(path), "--key", str(public))
        assert result.exit_code == 1, (what, result.output)
        (line,) = result.stderr.strip().splitlines()
        assert line.startswith(f"honba: {path}: FAILED: "), line
        # The documented check fails too: its assertions, or OpenSSL on the signature.
        done, where = run_documented_check(path, tmp_path / what.replace(" ", "-"))
        if done.returncode == 0 and shutil.which("openssl"):
            (where / "organiser.pem").write_bytes(public.read_bytes())
            verified = subprocess.run(documented_openssl(), cwd=where, capture_output=True, text=True, timeout=60)
            assert verified.returncode != 0, what
        else:
            assert done.returncode != 0, what
    # Without --key, a receipt re-signed by another key verifies only against the key it names.
    receipt = json.loads(json.dumps(good))
    tampered(good)["re-signed by another key"](receipt)
    assert check_receipt(receipt).problem is None
    assert check_receipt(receipt, parse_vkey(good["vkey"])).problem is not None


def roll_back_to(store_db: str, checkpoints: int, streams: dict[Any, int]) -> None:
    """Remove every checkpoint after the first ``checkpoints`` and each stream's events after the
    version given (0: the stream whole), with their seal rows: a store rolled back whole."""
    for version in range(last(store_db, CHECKPOINTS_ID), checkpoints, -1):
        delete(store_db, CHECKPOINTS_ID, version)
    for stream, keep in streams.items():
        for table_stream in (stream, seal_id(stream)):
            execute(
                store_db,
                "DELETE FROM EVENTS WHERE originator_id = ? AND originator_version > ?",
                table_stream,
                keep if table_stream == stream else 0,
            )


def test_a_store_rolled_back_or_forked_between_two_signed_checkpoints_fails_the_proof(
    store_db: str, organiser: tuple[Path, Path], tmp_path: Path
) -> None:
    private, public = organiser
    honba = played(store_db)
    first = signed(honba, private, tmp_path / "cp-1.txt")
    kept_checkpoints = last(store_db, CHECKPOINTS_ID)
    honba.ok("start", "m2", "--players", "Ann,Ben,Cho,Dai")
    honba.ok("win", "m2", "Cho:mangan", "--from", "Dai")
    second = signed(honba, private, tmp_path / "cp-2.txt")
    key = ("--key", str(public))
    # Rolled back: m2 and the checkpoints that covered it gone. The store alone checks clean.
    roll_back_to(store_db, kept_checkpoints, {match_id("m2"): 0})
    assert honba("check").exit_code == 0
    result = honba("proof", "consistent", str(first), str(second), *key)
    assert result.exit_code == 1 and "rolled back" in result.stderr, result.output
    result = honba("check", "--against", str(second), *key)
    assert result.exit_code == 1 and "rolled back" in result.stdout, result.output
    # Forked: another history recorded in its place, and signed.
    honba.ok("start", "m3", "--players", "Eve,Fay,Gus,Hal")
    forked = signed(honba, private, tmp_path / "cp-2b.txt")
    assert "One history" in honba.ok("proof", "consistent", str(first), str(forked), *key)
    result = honba("proof", "consistent", str(second), str(forked), *key)
    assert result.exit_code == 1, result.output
    result = honba("check", "--against", str(second), *key)
    assert result.exit_code == 1 and ("fork" in result.stdout or "rolled back" in result.stdout), result.output


def test_a_published_checkpoint_signed_by_someone_else_fails_against_the_organisers_key(
    tmp_path: Path, organiser: tuple[Path, Path]
) -> None:
    private, public = organiser
    honba = played(str(tmp_path / "s.sqlite"))
    published = signed(honba, private, tmp_path / "cp.txt")
    # Someone else posts a checkpoint of this log under the organiser's name, signed with their key.
    note = parse_note(published.read_text())
    impostor = Ed25519PrivateKey.generate()
    origin = parse_checkpoint(note.text).origin
    forged = tmp_path / "forged.txt"
    forged.write_text(note.text + "\n" + sign_text(note.text, origin, impostor).line + "\n")
    result = honba("check", "--against", str(forged), "--key", str(public))
    assert result.exit_code == 1 and "not the organiser's" in result.stdout, result.output
    result = honba("proof", "consistent", str(published), str(forged), "--key", str(public))
    assert result.exit_code == 1 and "has no signature of key" in result.stderr, result.output


def organiser_signature_verifies_with_openssl(note_text: str, public_pem: Path, tmp_path: Path) -> bool:
    note = parse_note(note_text)
    (tmp_path / "text").write_bytes(note.text.encode())
    (tmp_path / "sig").write_bytes(note.signatures[0].value)
    command = ["openssl", "pkeyutl", "-verify", "-pubin", "-inkey", str(public_pem), "-rawin"]
    done = subprocess.run(
        [*command, "-in", str(tmp_path / "text"), "-sigfile", str(tmp_path / "sig")], capture_output=True, text=True
    )
    return done.returncode == 0


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")
def test_the_signatures_of_a_served_checkpoint_verify_with_openssl(
    store_db: str, organiser: tuple[Path, Path], tmp_path: Path
) -> None:
    from cryptography.hazmat.primitives import serialization

    private, public = organiser
    honba = played(store_db)
    honba.ok("checkpoint", "--sign", str(private))
    witness_key = generate_key(tmp_path / "witness")
    witness = witness_vkey(witness_key.private)
    said = honba("checkpoint", "--sign", str(private)).stderr
    log_key = parse_vkey(re.findall(r"verifier key (\S+)", said)[0])
    with serving(create_app(store_db, witnesses=[witness.vkey])) as url:
        out = Honba(store_db)(  # type: ignore[arg-type]
            "witness", url, "--key", str(witness_key.private), "--log-key", log_key.vkey, "--state", str(tmp_path / "w")
        )
        assert out.exit_code == 0, out.output
        with TestClient(create_app(store_db)) as client:
            served = client.get("/checkpoints/latest")
    assert served.headers["content-type"].startswith("text/plain")
    note = parse_note(served.text)
    assert [s.name for s in note.signatures] == [log_key.name, witness.name]
    assert organiser_signature_verifies_with_openssl(served.text, public, tmp_path)
    # The witness's cosignature: its message (cosignature/v1, the time, the checkpoint) under its key.
    cosignature = note.signatures[1]
    message = f"cosignature/v1\ntime {int.from_bytes(cosignature.value[:8], 'big')}\n{note.text}"
    (tmp_path / "message").write_bytes(message.encode())
    (tmp_path / "cosig").write_bytes(cosignature.value[8:])
    pem = Ed25519PublicKey.from_public_bytes(witness.public_raw).public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    (tmp_path / "witness.pem").write_bytes(pem)
    command = ["openssl", "pkeyutl", "-verify", "-pubin", "-inkey", str(tmp_path / "witness.pem"), "-rawin"]
    done = subprocess.run(
        [*command, "-in", str(tmp_path / "message"), "-sigfile", str(tmp_path / "cosig")],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


def client_fetch(client: TestClient) -> Callable[[str, bytes | None], bytes]:
    """A witness's fetch over the in-process client (the same routes as over HTTP)."""

    def fetch(url: str, body: bytes | None) -> bytes:
        path = url.split("://", 1)[1].split("/", 1)[1]
        answer = client.post("/" + path, content=body) if body is not None else client.get("/" + path)
        if answer.status_code >= 400:
            raise WitnessRefused(f"{url}: the server answered {answer.status_code}: {answer.text.strip()}")
        return answer.content

    return fetch


def test_a_witness_cosigns_a_log_that_grew_and_refuses_a_split_view(
    store_db: str, organiser: tuple[Path, Path], tmp_path: Path
) -> None:
    private, _public = organiser
    honba = played(store_db)
    kept_checkpoints = last(store_db, CHECKPOINTS_ID)
    honba.ok("checkpoint", "--sign", str(private))
    witness_key = generate_key(tmp_path / "witness")
    witness = witness_vkey(witness_key.private)
    state = tmp_path / "witness-state"
    store = HonbaApp.open(store_db)
    try:
        log_key = parse_vkey(json.loads(json.dumps(match_receipt(store, "m1")))["vkey"])
    finally:
        store.close()

    def cosign() -> int:
        with TestClient(create_app(store_db, witnesses=[witness.vkey])) as client:
            done = witness_once("http://honba.test", witness_key.private, log_key, state, fetch=client_fetch(client))
            served = parse_note(client.get("/checkpoints/latest").text)
        assert witness.name in [s.name for s in served.signatures]
        return done.size

    first = cosign()
    honba.ok("start", "m2", "--players", "Ann,Ben,Cho,Dai")
    honba.ok("checkpoint", "--sign", str(private))
    second = cosign()  # consistent with the first: co-signed
    assert second > first
    remembered = sorted(state.iterdir())[0].read_bytes()
    # The organiser shows this witness another history: m2 rolled back, m3 and m4 recorded instead.
    roll_back_to(store_db, kept_checkpoints, {match_id("m2"): 0})
    honba.ok("start", "m3", "--players", "Eve,Fay,Gus,Hal")
    honba.ok("start", "m4", "--players", "Eve,Fay,Gus,Hal")
    honba.ok("checkpoint", "--sign", str(private))
    with pytest.raises(WitnessRefused, match="split view"):
        cosign()
    assert sorted(state.iterdir())[0].read_bytes() == remembered  # it still stands by what it signed
    # And a log that went back to fewer leaves than it co-signed.
    roll_back_to(store_db, kept_checkpoints, {match_id("m3"): 0, match_id("m4"): 0})
    honba.ok("checkpoint", "--sign", str(private))  # the first checkpoint, published again
    with pytest.raises(WitnessRefused, match="went back"):
        cosign()


def test_the_server_keeps_cosignatures_only_from_its_witnesses_and_only_when_they_verify(
    tmp_path: Path, organiser: tuple[Path, Path]
) -> None:
    private, _public = organiser
    db = str(tmp_path / "s.sqlite")
    honba = played(db)
    honba.ok("checkpoint", "--sign", str(private))
    configured, stranger = Ed25519PrivateKey.generate(), Ed25519PrivateKey.generate()
    witness = verifier_of("w.example/1", configured.public_key(), COSIGNATURE)
    with TestClient(create_app(db, witnesses=[witness.vkey])) as client:
        note = parse_note(client.get("/checkpoints/latest").text)
        size = parse_checkpoint(note.text).size
        assert client.get(f"/checkpoints/{size}").text == client.get("/checkpoints/latest").text
        assert client.get(f"/checkpoints/{size + 5}").status_code == 404
        foreign = cosign_text(note.text, "w.example/2", stranger, 1_700_000_000).line
        assert client.post(f"/checkpoints/{size}/cosignatures", content=foreign).status_code == 403
        wrong = cosign_text(note.text + "x\n", "w.example/1", configured, 1_700_000_000).line
        assert client.post(f"/checkpoints/{size}/cosignatures", content=wrong).status_code == 400
        assert client.post(f"/checkpoints/{size}/cosignatures", content="not a line").status_code == 400
        good = cosign_text(note.text, "w.example/1", configured, 1_700_000_000).line
        assert client.post(f"/checkpoints/{size}/cosignatures", content=good).status_code == 201
        served = client.get("/checkpoints/latest").text
        assert served.endswith(good + "\n") and foreign not in served
        # The same witness again, later: its last cosignature is served, once.
        again = cosign_text(note.text, "w.example/1", configured, 1_700_000_100).line
        assert client.post(f"/checkpoints/{size}/cosignatures", content=again).status_code == 201
        served = client.get("/checkpoints/latest").text
        assert served.endswith(again + "\n") and good not in served
        proof = client.get(f"/api/checkpoints/consistency?old=1&new={size}")
        assert proof.status_code == 200 and proof.json()["old"] == 1
        assert client.get(f"/api/checkpoints/consistency?old=1&new={size + 1}").status_code == 400
        assert client.get("/api/checkpoints/consistency?old=x&new=2").status_code == 400
    # The CLI prints the same note.
    assert honba.ok("checkpoint", "--show", str(size)) == served


def test_the_table_page_offers_the_receipt_once_the_match_has_ended(
    tmp_path: Path, organiser: tuple[Path, Path]
) -> None:
    private, public = organiser
    db = str(tmp_path / "s.sqlite")
    honba = Honba(Path(db))
    honba.ok("start", "m1", "--players", "Ann,Ben,Cho,Dai")
    with TestClient(create_app(db)) as client:
        assert 'id="receipt"' not in client.get("/matches/m1").text
    honba.ok("end", "m1", "--reason", "time limit")
    with TestClient(create_app(db)) as client:
        page = client.get("/matches/m1").text
        assert 'id="receipt"' in page and 'href="/matches/m1/receipt"' in page
        assert client.get("/matches/m1/receipt").status_code == 409  # no signed checkpoint holds it yet
    honba.ok("checkpoint", "--sign", str(private))
    with TestClient(create_app(db)) as client:
        answer = client.get("/matches/m1/receipt")
    assert answer.status_code == 200 and "attachment" in answer.headers["content-disposition"]
    path = tmp_path / "downloaded.json"
    path.write_bytes(answer.content)
    assert "The receipt verifies" in honba.ok("proof", "check", str(path), "--key", str(public))


def test_a_certificate_names_the_checkpoint_its_matches_are_in(tmp_path: Path, organiser: tuple[Path, Path]) -> None:
    private, _public = organiser
    honba = played(str(tmp_path / "s.sqlite"))
    honba.ok("tournament", "create", "cup", "--players", "Ann,Ben,Cho,Dai")
    honba.ok("tournament", "attach", "cup", "m1", "--session", "1", "--table", "1")
    path = tmp_path / "cup.cert.json"
    honba.ok("certificate", "sign", "cup", "--key", str(private), "-o", str(path))
    named = json.loads(path.read_text())["certificate"]["checkpoint"]
    signed_note = published(honba, private)
    checkpoint = parse_checkpoint(parse_note(signed_note).text)
    assert named == {"size": checkpoint.size, "root": checkpoint.root}
    receipt = json.loads(honba.ok("proof", "match", "m1"))
    assert receipt["tree_size"] == named["size"] and receipt["leaf_index"] < named["size"]
    honba.ok("certificate", "verify", str(path))


def published(honba: Honba, private: Path) -> str:
    honba.ok("checkpoint", "--sign", str(private))
    store = HonbaApp.open(str(honba.db))
    try:
        return published_note(store)
    finally:
        store.close()


def test_a_receipt_that_is_not_one_is_refused_in_one_line(tmp_path: Path, organiser: tuple[Path, Path]) -> None:
    _private, public = organiser
    honba = Honba(tmp_path / "s.sqlite")
    cases = {  # the file, the exit (2: not a receipt at all; 1: a receipt that does not verify), the reason
        "not-json.json": ("{", 2, "not a JSON receipt"),
        "a-list.json": ("[]", 2, "a receipt is a JSON object"),
        "no-leaf.json": (
            json.dumps({"format": "honba-match-receipt/1", "match": "m1", "checkpoint": "x"}),
            1,
            "FAILED: the receipt names no match, head digest and leaf",
        ),
    }
    for name, (text, code, reason) in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        result = honba("proof", "check", str(path), "--key", str(public))
        assert result.exit_code == code, result.output
        (line,) = result.stderr.strip().splitlines()
        assert line.startswith(f"honba: {path}: {reason}"), line


def test_the_logs_origin_is_named_once_and_kept_and_a_key_file_checks_under_it(
    tmp_path: Path, organiser: tuple[Path, Path]
) -> None:
    private, public = organiser
    honba = played(str(tmp_path / "s.sqlite"))
    assert "key name" in honba.refused("checkpoint", "--sign", str(private), "--origin", "club log")
    first = honba.ok("checkpoint", "--sign", str(private), "--origin", "club.example/log")
    assert first.startswith("club.example/log\n")
    honba.ok("start", "m2", "--players", "Ann,Ben,Cho,Dai")
    assert honba.ok("checkpoint", "--sign", str(private)).startswith("club.example/log\n")  # kept
    receipt = tmp_path / "m2.json"
    honba.ok("proof", "match", "m2", "-o", str(receipt))
    assert json.loads(receipt.read_text())["vkey"].startswith("club.example/log+")
    assert "verifies" in honba.ok("proof", "check", str(receipt), "--key", str(public))


def test_a_witness_reads_only_an_http_server(tmp_path: Path, organiser: tuple[Path, Path]) -> None:
    private, _public = organiser
    honba = Honba(tmp_path / "s.sqlite")
    vkey = verifier_of("honba/x", load_private_key(private).public_key()).vkey
    for url in ("file:///etc/hostname", "ftp://127.0.0.1/"):
        result = honba("witness", url, "--key", str(private), "--log-key", vkey, "--state", str(tmp_path / "w"))
        assert result.exit_code == 1 and "an http:// or https:// address" in result.stderr, result.output
    assert not (tmp_path / "w").exists()
