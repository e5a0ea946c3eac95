"""A Merkle tree over an append-only log of leaves, as Certificate Transparency keeps one (RFC 6962).

Each checkpoint (``replay.store.checkpoint``) appends the streams saved since the one before as
leaves and states the tree head: how many leaves the log holds and the root over all of them. The
root commits to every leaf ever appended, in order; a leaf's hash is ``SHA-256(0x00 || leaf)`` and
an inner node's ``SHA-256(0x01 || left || right)``, so that no leaf can pass for a node.

Appending needs only the *frontier*: the roots of the perfect subtrees the log's size splits
into (one per bit set in it, largest first), at most one per bit of the size. A checkpoint keeps
it, so the next one is computed from the last alone, however long the log.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from domain.integrity import canonical

EMPTY_ROOT = hashlib.sha256(b"").hexdigest()


def hash_leaf(data: bytes) -> str:
    """RFC 6962's hash of a leaf's bytes."""
    return hashlib.sha256(b"\x00" + data).hexdigest()


def leaf_hash(leaf: object) -> str:
    """The hash of one leaf given as plain data (canonically encoded)."""
    return hash_leaf(canonical(leaf))


def node_hash(left: str, right: str) -> str:
    """The hash of an inner node over its two children."""
    return hashlib.sha256(b"\x01" + bytes.fromhex(left) + bytes.fromhex(right)).hexdigest()


def append(frontier: Sequence[str], size: int, hashes: Iterable[str]) -> tuple[list[str], int]:
    """The frontier and size after appending leaves (their hashes) to a log of ``size`` leaves."""
    stack = list(frontier)
    for leaf in hashes:
        stack.append(leaf)
        size += 1
        # Every trailing 1 bit of the new size closes a perfect subtree: merge its two halves.
        merged = size
        while merged % 2 == 0:
            right = stack.pop()
            stack[-1] = node_hash(stack[-1], right)
            merged //= 2
    return stack, size


def root(frontier: Sequence[str]) -> str:
    """The tree head's root: RFC 6962's hash of the whole log, from its frontier (largest subtree
    first; the smaller ones fold in from the right)."""
    if not frontier:
        return EMPTY_ROOT
    head = frontier[-1]
    for left in reversed(frontier[:-1]):
        head = node_hash(left, head)
    return head


def tree_root(hashes: Sequence[str]) -> str:
    """RFC 6962's Merkle tree hash of a whole list of leaf hashes, computed directly (split at the
    largest power of two below the size): what ``append`` and ``root`` must agree with."""
    if not hashes:
        return EMPTY_ROOT
    if len(hashes) == 1:
        return hashes[0]
    split = 1
    while split * 2 < len(hashes):
        split *= 2
    return node_hash(tree_root(hashes[:split]), tree_root(hashes[split:]))
