"""The digests honba prints for people to publish, each saying what it is the digest of and which
check compares a history with it (``honba check ... --against``, docs/audit.md).

Three kinds, never to be mixed up: a match's head digest (its history up to its last event, in the
store), the store's (its evidence over every save: a rollback of the store's last save shows only
against it), and an exported file's (the chain over its lines; a file's head differs from the
stored match's, since the file's lines are not the store's events). A name and its wording live
here once: when what the store publishes changes, this module changes.
"""

from __future__ import annotations

import hashlib
import shlex

import attrs


@attrs.frozen
class Digest:
    """A digest to publish: ``name`` (what people call it), ``value`` (hex), ``of`` (what it is the
    digest of) and ``check`` (the command that compares a history with it later)."""

    name: str
    value: str
    of: str
    check: str


def match_digest(key: str, head: str) -> Digest:
    """A stored match's head digest: the last event of its history, which commits to all before it."""
    return Digest(
        "match head digest",
        head,
        f"match {key}'s history in the store, up to its last entry",
        f"honba check {shlex.quote(key)} --against DIGEST",
    )


def store_digest(head: str) -> Digest:
    """The store's head digest: its last checkpoint's, which commits to every match's and
    tournament's saves up to it (and to the checkpoints before: ``replay.store.checkpoint``); the
    one evidence a rollback of what the last checkpoint covered leaves."""
    return Digest(
        "store head digest",
        head,
        "the store's last checkpoint, over every match's and tournament's saves up to it",
        "honba check --against DIGEST",
    )


def file_digest(path: str, head: str) -> Digest:
    """An exported record file's head digest: the chain over its lines (not the stored match's head)."""
    return Digest(
        "file head digest",
        head,
        f"the chain over the lines of {path}",
        f"honba check {shlex.quote(path)} --against DIGEST",
    )


def bytes_digest(path: str, content: bytes) -> Digest:
    """The SHA-256 of a written file with no chain of its own (a plain record file, a tenhou.net/6 log)."""
    return Digest(
        "file SHA-256",
        hashlib.sha256(content).hexdigest(),
        f"the bytes of {path}, which carry no chain for honba check",
        f"sha256sum {shlex.quote(path)}",
    )


def published(key: str, head: str, store_head: str) -> tuple[Digest, Digest]:
    """The two digests a recording command, ``honba status`` and the table page give: the match's
    and the store's."""
    return match_digest(key, head), store_digest(store_head)
