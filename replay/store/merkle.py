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


# Proofs (RFC 6962 §2.1.1 and §2.1.2; the verifiers as RFC 9162 §2.1.3.2 and §2.1.4.2 state them).
# Hashes are hexadecimal text, as everywhere above.


class ProofError(ValueError):
    """A proof asked for sizes or an index the tree cannot have."""


def _split(size: int) -> int:
    """The largest power of two smaller than ``size`` (``size`` > 1): where RFC 6962 splits a tree."""
    split = 1
    while split * 2 < size:
        split *= 2
    return split


def inclusion_proof(hashes: Sequence[str], index: int) -> list[str]:
    """The audit path of leaf ``index`` in the tree of ``hashes`` (RFC 6962 §2.1.1's PATH): the
    sibling hashes from the leaf up to the root."""
    if not 0 <= index < len(hashes):
        raise ProofError(f"leaf {index} is not in a tree of {len(hashes)} leaves")
    path: list[str] = []
    lo, hi = 0, len(hashes)
    # Walk down from the root, keeping the sibling subtree's hash at each split; the path lists them
    # from the leaf up.
    while hi - lo > 1:
        k = _split(hi - lo)
        if index - lo < k:
            path.append(tree_root(hashes[lo + k : hi]))
            hi = lo + k
        else:
            path.append(tree_root(hashes[lo : lo + k]))
            lo += k
    return path[::-1]


def consistency_proof(hashes: Sequence[str], old: int) -> list[str]:
    """The proof that the tree of the first ``old`` of ``hashes`` is a prefix of the tree of all of
    them (RFC 6962 §2.1.2's PROOF): empty when ``old`` is 0 or every leaf."""
    if not 0 <= old <= len(hashes):
        raise ProofError(f"a tree of {old} leaves is not a prefix of one of {len(hashes)}")
    if old in (0, len(hashes)):
        return []
    return _subproof(old, hashes, whole=True)


def _subproof(m: int, hashes: Sequence[str], *, whole: bool) -> list[str]:
    n = len(hashes)
    if m == n:
        return [] if whole else [tree_root(hashes)]
    k = _split(n)
    if m <= k:
        return [*_subproof(m, hashes[:k], whole=whole), tree_root(hashes[k:])]
    return [*_subproof(m - k, hashes[k:], whole=False), tree_root(hashes[:k])]


def root_from_inclusion(index: int, size: int, leaf: str, path: Sequence[str]) -> str | None:
    """The root an audit path leads to from leaf hash ``leaf`` at ``index`` in a tree of ``size``
    leaves, or None when the path cannot be one for that index and size."""
    if not 0 <= index < size:
        return None
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return None  # a path longer than the tree is high
        if fn % 2 == 1 or fn == sn:
            r = node_hash(p, r)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    return r if sn == 0 else None


def is_hash(text: object) -> bool:
    """Whether ``text`` is a SHA-256 hash as the tree writes one: 64 lowercase hexadecimal digits."""
    return isinstance(text, str) and len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def verify_inclusion(index: int, size: int, leaf: str, path: Sequence[str], expected_root: str) -> bool:
    """Whether ``path`` proves leaf hash ``leaf`` is leaf ``index`` of the tree of ``size`` leaves
    whose root is ``expected_root``."""
    if not all(is_hash(h) for h in (leaf, expected_root, *path)):
        return False
    return root_from_inclusion(index, size, leaf, path) == expected_root


def verify_consistency(old: int, new: int, old_root: str, new_root: str, proof: Sequence[str]) -> bool:
    """Whether ``proof`` shows the tree of ``old`` leaves with root ``old_root`` is a prefix of the
    tree of ``new`` leaves with root ``new_root``: the log only grew between them."""
    if not 0 <= old <= new or not all(is_hash(h) for h in (old_root, new_root, *proof)):
        return False
    if old == new:
        return not proof and old_root == new_root
    if old == 0:
        return not proof  # the empty tree is a prefix of every tree
    if not proof:
        return False
    path = list(proof)
    if old & (old - 1) == 0:
        path.insert(0, old_root)  # the old tree is a perfect subtree: its root starts the path
    fn, sn = old - 1, new - 1
    while fn % 2 == 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn % 2 == 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while fn % 2 == 0 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and fr == old_root and sr == new_root
