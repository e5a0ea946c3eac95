"""Signed notes and checkpoints as the transparency-log community writes them (C2SP).

A **signed note** (c2sp.org/signed-note) is UTF-8 text ending in a newline, a blank line, and one
or more signature lines ``— <key name> <base64(4-byte key ID || signature)>``. A key's ID is the
first four bytes of SHA-256(key name || 0x0A || signature type || public key): 0x01 for an
Ed25519 signature of the note's text, 0x04 for a witness's timestamped Ed25519 cosignature
(c2sp.org/tlog-cosignature). A **verifier key** (vkey) is written
``<name>+<key ID in hex>+<base64(signature type || public key)>``.

A **checkpoint** (c2sp.org/tlog-checkpoint) is a note whose text is the log's origin, its size in
decimal and its root hash in base64, each on a line. A **cosignature** signs
``cosignature/v1\\ntime <POSIX seconds>\\n`` followed by the checkpoint's text, and its signature
bytes are the key ID, the timestamp (8 bytes, big-endian) and the Ed25519 signature.

Everything here is bytes and text; the keys are the ``cryptography`` package's Ed25519 keys.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from typing import Any

import attrs

from domain.errors import HonbaError

ED25519 = 0x01
COSIGNATURE = 0x04
DASH = "\u2014"
# A note is a few lines; a server's answer larger than this is not one.
MAX_NOTE = 64 * 1024
# Verifiers must take at least 16 signatures (signed-note); honba takes no more than 64.
MAX_SIGNATURES = 64


class NoteError(HonbaError):
    """A note, checkpoint or verifier key that cannot be read as one."""


def key_id(name: str, kind: int, public_raw: bytes) -> bytes:
    """A key's 4-byte ID: SHA-256(name || newline || signature type || public key)[:4]."""
    return hashlib.sha256(name.encode("utf-8") + b"\n" + bytes([kind]) + public_raw).digest()[:4]


def check_key_name(name: str) -> str:
    """A key name (or a log's origin used as one): not empty, no spaces, no plus sign."""
    if not name or any(c.isspace() or c == "+" or ord(c) < 0x20 for c in name):
        raise NoteError(f"a key name has no spaces or '+' and is not empty: {name[:80]!r}")
    return name


@attrs.frozen
class Verifier:
    """A verifier key: the name, the signature type, the 32-byte Ed25519 public key."""

    name: str
    kind: int
    public_raw: bytes

    @property
    def key_id(self) -> bytes:
        """The key's 4-byte ID."""
        return key_id(self.name, self.kind, self.public_raw)

    @property
    def vkey(self) -> str:
        """The key written as a vkey."""
        encoded = base64.b64encode(bytes([self.kind]) + self.public_raw).decode("ascii")
        return f"{self.name}+{self.key_id.hex()}+{encoded}"


def public_raw(public_key: Any) -> bytes:
    """An Ed25519 public key's 32 raw bytes."""
    from cryptography.hazmat.primitives import serialization

    raw: bytes = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return raw


def verifier_of(name: str, public_key: Any, kind: int = ED25519) -> Verifier:
    """The verifier key of a public key under ``name``."""
    return Verifier(check_key_name(name), kind, public_raw(public_key))


def parse_vkey(text: str) -> Verifier:
    """A vkey read (``name+hexid+base64``): its ID must be the one its name and key make."""
    parts = text.strip().split("+", 2)  # the key's base64 may hold a "+" too
    if len(parts) != 3:
        raise NoteError(f"a verifier key is name+keyid+key, not {text.strip()[:80]!r}")
    name, hex_id, encoded = parts
    try:
        raw = base64.b64decode(encoded, validate=True)
        named_id = bytes.fromhex(hex_id)
    except (binascii.Error, ValueError):
        raise NoteError(f"verifier key {name[:80]!r}: its key or key ID is not base64 / hex") from None
    if len(raw) != 33 or raw[0] not in (ED25519, COSIGNATURE):
        raise NoteError(f"verifier key {name[:80]!r}: not an Ed25519 key (type 0x01 or 0x04, 32 bytes)")
    verifier = Verifier(check_key_name(name), raw[0], raw[1:])
    if verifier.key_id != named_id:
        raise NoteError(f"verifier key {name[:80]!r}: its key ID is not the one its name and key make")
    return verifier


@attrs.frozen
class Signature:
    """One signature line: the key's name, its 4-byte ID, the signature bytes after the ID."""

    name: str
    key_id: bytes
    value: bytes

    @property
    def line(self) -> str:
        """The line as the note writes it (without its newline)."""
        return f"{DASH} {self.name} {base64.b64encode(self.key_id + self.value).decode('ascii')}"


@attrs.frozen
class Note:
    """A signed note: its text (ending in a newline) and its signatures in order."""

    text: str
    signatures: tuple[Signature, ...]

    @property
    def written(self) -> str:
        """The note as text: the text, a blank line, a line per signature."""
        return self.text + "\n" + "".join(s.line + "\n" for s in self.signatures)

    def with_signatures(self, more: tuple[Signature, ...]) -> Note:
        """The note with ``more`` signatures after its own (one per key: a key's first kept)."""
        seen = {(s.name, s.key_id) for s in self.signatures}
        added = []
        for signature in more:
            if (signature.name, signature.key_id) not in seen:
                seen.add((signature.name, signature.key_id))
                added.append(signature)
        return Note(self.text, (*self.signatures, *added))


def parse_note(data: str | bytes, source: str = "the note") -> Note:
    """A signed note read: UTF-8, no control characters but newlines, the text, a blank line, and
    at least one signature line."""
    if isinstance(data, bytes):
        if len(data) > MAX_NOTE:
            raise NoteError(f"{source}: longer than a note ({MAX_NOTE} bytes)")
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError:
            raise NoteError(f"{source}: not UTF-8 text") from None
    if any(ord(c) < 0x20 and c != "\n" for c in data):
        raise NoteError(f"{source}: a note has no control characters but newlines")
    split = data.rfind("\n\n")
    if split < 0 or not data.endswith("\n"):
        raise NoteError(f"{source}: not a signed note (text, a blank line, signature lines)")
    text, lines = data[: split + 1], data[split + 2 :].splitlines()
    if not lines:
        raise NoteError(f"{source}: a signed note has at least one signature")
    if len(lines) > MAX_SIGNATURES:
        raise NoteError(f"{source}: more than {MAX_SIGNATURES} signatures")
    signatures = [parse_signature_line(line, f"{source}: signature line {n}") for n, line in enumerate(lines, 1)]
    return Note(text, tuple(signatures))


def parse_signature_line(line: str, source: str = "the signature line") -> Signature:
    """One signature line read: ``— <key name> <base64(key ID || signature)>``."""
    parts = line.split(" ")
    if len(parts) != 3 or parts[0] != DASH:
        raise NoteError(f"{source} is not '— <key name> <signature>'")
    try:
        raw = base64.b64decode(parts[2], validate=True)
    except binascii.Error:
        raise NoteError(f"{source} is not base64") from None
    if len(raw) < 5:
        raise NoteError(f"{source} is too short to be a signature")
    return Signature(check_key_name(parts[1]), raw[:4], raw[4:])


def sign_text(text: str, name: str, private_key: Any) -> Signature:
    """The Ed25519 note signature of ``text`` under key name ``name``."""
    verifier = verifier_of(name, private_key.public_key())
    return Signature(name, verifier.key_id, private_key.sign(text.encode("utf-8")))


def cosignature_message(text: str, timestamp: int) -> bytes:
    """The bytes a witness signs for a checkpoint's text at ``timestamp`` (tlog-cosignature v1)."""
    return f"cosignature/v1\ntime {timestamp}\n{text}".encode()


def cosign_text(text: str, name: str, private_key: Any, timestamp: int) -> Signature:
    """A witness's cosignature of a checkpoint's text at ``timestamp`` (POSIX seconds)."""
    if not 0 <= timestamp < 2**63:
        raise NoteError(f"a cosignature's time is 0 to 2^63-1 seconds, not {timestamp}")
    verifier = verifier_of(name, private_key.public_key(), COSIGNATURE)
    value = private_key.sign(cosignature_message(text, timestamp))
    return Signature(name, verifier.key_id, timestamp.to_bytes(8, "big") + value)


def signature_verifies(text: str, signature: Signature, verifier: Verifier) -> bool:
    """Whether ``signature`` is ``verifier``'s (name and key ID) and verifies over ``text``: a note
    signature (type 0x01) over the text, a cosignature (0x04) over its message."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if (signature.name, signature.key_id) != (verifier.name, verifier.key_id):
        return False
    if verifier.kind == COSIGNATURE:
        if len(signature.value) != 72:
            return False
        timestamp = int.from_bytes(signature.value[:8], "big")
        message, value = cosignature_message(text, timestamp), signature.value[8:]
    else:
        message, value = text.encode("utf-8"), signature.value
    try:
        Ed25519PublicKey.from_public_bytes(verifier.public_raw).verify(value, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def cosigned_at(signature: Signature) -> int:
    """The time a cosignature names (POSIX seconds)."""
    return int.from_bytes(signature.value[:8], "big")


def verify_note(note: Note, verifier: Verifier) -> str | None:
    """None when ``verifier`` signed the note; else why not (no signature of that key, or one that
    does not verify)."""
    mine = [s for s in note.signatures if (s.name, s.key_id) == (verifier.name, verifier.key_id)]
    if not mine:
        return f"the note has no signature of key {verifier.name} ({verifier.key_id.hex()})"
    if not all(signature_verifies(note.text, s, verifier) for s in mine):
        return f"the signature of key {verifier.name} does not verify: the note was changed or not signed by that key"
    return None


# Checkpoints (c2sp.org/tlog-checkpoint).


@attrs.frozen
class Checkpoint:
    """A checkpoint's three lines: the log's origin, its size, its root hash (hexadecimal here)."""

    origin: str
    size: int
    root: str

    @property
    def text(self) -> str:
        """The checkpoint as a note's text."""
        return f"{self.origin}\n{self.size}\n{base64.b64encode(bytes.fromhex(self.root)).decode('ascii')}\n"


def checkpoint_text(origin: str, size: int, root: str) -> str:
    """The text of a checkpoint of ``size`` leaves with root ``root`` (hex) of log ``origin``."""
    return Checkpoint(check_key_name(origin), size, root).text


def parse_checkpoint(text: str, source: str = "the checkpoint") -> Checkpoint:
    """A checkpoint's text read: the origin, the size (decimal, no leading zeros), the root hash
    (base64 of 32 bytes); extension lines after them are allowed and ignored."""
    lines = text.split("\n")
    if len(lines) < 4:
        raise NoteError(f"{source}: a checkpoint is an origin, a size and a root hash, each on a line")
    origin, size, encoded = lines[0], lines[1], lines[2]
    if not origin:
        raise NoteError(f"{source}: a checkpoint's first line is its log's origin")
    if not size.isascii() or not size.isdigit() or (len(size) > 1 and size[0] == "0") or len(size) > 20:
        raise NoteError(f"{source}: the checkpoint's size {size[:30]!r} is not a decimal number")
    try:
        root = base64.b64decode(encoded, validate=True)
    except binascii.Error:
        root = b""
    if len(root) != 32:
        raise NoteError(f"{source}: the checkpoint's root hash is not 32 bytes in base64")
    return Checkpoint(origin, int(size), root.hex())
