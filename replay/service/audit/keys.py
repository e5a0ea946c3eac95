"""The organiser's Ed25519 keys: made, read from PEM files or bytes, named by their id.

Result certificates (``replay.service.director.certificates``) and signed checkpoints
(``replay.service.audit.proofs``) sign with the same key; this module holds only what both need, so that
a command that checks a proof does not load the certificates' standings.

Private keys are written to new files of mode 0600 and never printed.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any

import attrs

from domain.errors import HonbaError
from replay.input.files import FileTooLarge, read_capped

# A key file is a few lines.
MAX_KEY_FILE = 64 * 1024


class CertificateError(HonbaError):
    """A key or certificate file that honba cannot use."""


def key_id(public_raw: bytes) -> str:
    """A public key's id: the first 16 hexadecimal digits of SHA-256 of its 32 raw bytes."""
    return hashlib.sha256(public_raw).hexdigest()[:16]


def raw_public(public: Any) -> bytes:
    """An Ed25519 public key's 32 raw bytes."""
    from cryptography.hazmat.primitives import serialization

    raw: bytes = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return raw


def _new_file(path: Path, data: bytes, mode: int) -> None:
    """Write a new file (never over an existing one) with ``mode`` from its creation on."""
    if path.exists():
        raise CertificateError(f"{path} exists: honba writes keys to new files only")
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    with os.fdopen(descriptor, "wb") as handle:
        handle.write(data)


@attrs.frozen
class KeyPair:
    """Where a new key pair was written, and its id."""

    private: Path
    public: Path
    key_id: str


def generate_key(prefix: Path) -> KeyPair:
    """A new Ed25519 key pair: ``PREFIX.key`` (PKCS#8 PEM, mode 0600) and ``PREFIX.pub.pem``
    (SubjectPublicKeyInfo PEM, to publish)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    private = Path(f"{prefix}.key")
    public = Path(f"{prefix}.pub.pem")
    _new_file(
        private,
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()),
        0o600,
    )
    _new_file(
        public,
        key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo),
        0o644,
    )
    return KeyPair(private, public, key_id(raw_public(key.public_key())))


def _key_file(path: Path) -> bytes:
    """A key file's bytes, at most ``MAX_KEY_FILE`` (``/dev/zero`` is refused, not read on)."""
    try:
        return read_capped(path, limit=MAX_KEY_FILE, what="key file")
    except FileTooLarge as exc:
        raise CertificateError(str(exc)) from None


def load_private_key(path: Path) -> Any:
    """An Ed25519 private key from a PEM file (its content never appears in an error)."""
    return private_key_from_pem(_key_file(path), str(path))


def private_key_from_pem(data: bytes, source: str = "the key") -> Any:
    """An Ed25519 private key from PEM bytes (a file read, or sent to ``honba serve``)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    try:
        key = serialization.load_pem_private_key(data, password=None)
    except (ValueError, TypeError):
        raise CertificateError(f"{source}: not an unencrypted PEM private key") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise CertificateError(f"{source}: not an Ed25519 key")
    return key


def load_public_key(path: Path) -> Any:
    """An Ed25519 public key from a PEM file."""
    return public_key_from_pem(_key_file(path), str(path))


def public_key_from_pem(data: bytes, source: str = "the key") -> Any:
    """An Ed25519 public key from PEM bytes."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        key = serialization.load_pem_public_key(data)
    except (ValueError, TypeError):
        raise CertificateError(f"{source}: not a PEM public key") from None
    if not isinstance(key, Ed25519PublicKey):
        raise CertificateError(f"{source}: not an Ed25519 public key")
    return key
