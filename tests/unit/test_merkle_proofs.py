"""Inclusion and consistency proofs of the checkpoints' Merkle tree (RFC 6962 §2.1.1, §2.1.2).

The vectors are Certificate Transparency's, as the transparency-dev/merkle project publishes them
(proof/verify_test.go: ``inclusionProofs``, ``consistencyProofs``, over the eight leaves of
testonly/constants.go); the property tests check every leaf of every tree size and every pair of
sizes against the tree hash computed directly.
"""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.store.merkle import (
    EMPTY_ROOT,
    ProofError,
    consistency_proof,
    hash_leaf,
    inclusion_proof,
    tree_root,
    verify_consistency,
    verify_inclusion,
)

LEAVES = [
    bytes.fromhex(h)
    for h in ("", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f")
]
HASHES = [hash_leaf(leaf) for leaf in LEAVES]
# transparency-dev/merkle's roots of the first n leaves, n = 1..8.
ROOTS = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]
# (leaf, 1-based as the vectors give it; tree size; the audit path)
INCLUSION = [
    (1, 1, []),
    (
        1,
        8,
        [
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ],
    ),
    (
        6,
        8,
        [
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
    (3, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]),
    (
        2,
        5,
        [
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        ],
    ),
]
# (old size, new size, the proof)
CONSISTENCY = [
    (1, 1, []),
    (
        1,
        8,
        [
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ],
    ),
    (
        6,
        8,
        [
            "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
    (
        2,
        5,
        [
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        ],
    ),
    (
        6,
        7,
        [
            "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
]
SOME_HASH = "abacaba000000000000000000000000000000000000000000060061e00123456"


def _flip(proof: list[str], i: int) -> list[str]:
    changed = list(proof)
    changed[i] = f"{int(changed[i][:2], 16) ^ 8:02x}" + changed[i][2:]
    return changed


@pytest.mark.parametrize(("leaf", "size", "path"), INCLUSION)
def test_the_audit_paths_are_certificate_transparencys_and_verify(leaf: int, size: int, path: list[str]) -> None:
    index = leaf - 1
    assert inclusion_proof(HASHES[:size], index) == path
    assert verify_inclusion(index, size, HASHES[index], path, ROOTS[size - 1])
    # transparency-dev's corruptions: none of them verifies.
    wrong = [
        (index - 1, size, HASHES[index], path, ROOTS[size - 1]),
        (index + 1, size, HASHES[index], path, ROOTS[size - 1]),
        (index ^ 2, size, HASHES[index], path, ROOTS[size - 1]),
        (index, size * 2, HASHES[index], path, ROOTS[size - 1]),
        (index, size // 2, HASHES[index], path, ROOTS[size - 1]),
        (index, size, hashlib.sha256(b"WrongLeaf").hexdigest(), path, ROOTS[size - 1]),
        (index, size, HASHES[index], path, EMPTY_ROOT),
        (index, size, HASHES[index], path, SOME_HASH),
        (index, size, HASHES[index], [*path, ROOTS[size - 1]], ROOTS[size - 1]),
        (index, size, HASHES[index], [ROOTS[size - 1], *path], ROOTS[size - 1]),
        (index, size, HASHES[index], [*path, ""], ROOTS[size - 1]),
        *[(index, size, HASHES[index], _flip(path, i), ROOTS[size - 1]) for i in range(len(path))],
        *([(index, size, HASHES[index], path[:-1], ROOTS[size - 1])] if path else []),
        *([(index, size, HASHES[index], [path[0], SOME_HASH, *path[1:]], ROOTS[size - 1])] if len(path) > 1 else []),
    ]
    for probe in wrong:
        if probe[0] == index and probe[1] == size and probe[3] == path and probe[4] == ROOTS[size - 1]:
            continue  # index ^ 2 or size // 2 that happen to be the same
        assert not verify_inclusion(*probe), probe


@pytest.mark.parametrize(("old", "new", "proof"), CONSISTENCY)
def test_the_consistency_proofs_are_certificate_transparencys_and_verify(old: int, new: int, proof: list[str]) -> None:
    assert consistency_proof(HASHES[:new], old) == proof
    assert verify_consistency(old, new, ROOTS[old - 1], ROOTS[new - 1], proof)
    if not proof:
        return
    r1, r2 = ROOTS[old - 1], ROOTS[new - 1]
    wrong = [
        (old - 1, new, r1, r2, proof),
        (old + 1, new, r1, r2, proof),
        (old ^ 2, new, r1, r2, proof),
        (old, new * 2, r1, r2, proof),
        (old, new // 2, r1, r2, proof),
        (old, new, SOME_HASH, r2, proof),
        (old, new, r1, SOME_HASH, proof),
        (old, new, r2, r1, proof),
        (old, new, r1, r2, []),
        (old, new, r1, r2, [*proof, r1]),
        (old, new, r1, r2, [*proof, r2]),
        (old, new, r1, r2, [r1, *proof]),
        (old, new, r1, r2, [r2, *proof]),
        (old, new, r1, r2, [proof[0], *proof]),
        (old, new, r1, r2, proof[:-1]),
        *[(old, new, r1, r2, _flip(proof, i)) for i in range(len(proof))],
    ]
    for probe in wrong:
        assert not verify_consistency(*probe), probe


def test_trees_of_the_same_size_and_the_empty_tree() -> None:
    assert verify_consistency(0, 0, EMPTY_ROOT, EMPTY_ROOT, [])
    assert verify_consistency(0, 1, EMPTY_ROOT, ROOTS[0], [])
    assert not verify_consistency(1, 1, EMPTY_ROOT, ROOTS[0], [])
    assert not verify_consistency(1, 0, ROOTS[0], EMPTY_ROOT, [])  # back in time
    assert not verify_consistency(1, 1, ROOTS[0], ROOTS[0], [EMPTY_ROOT])  # same roots, a proof left over
    assert not verify_inclusion(0, 0, HASHES[0], [], EMPTY_ROOT)
    with pytest.raises(ProofError):
        inclusion_proof(HASHES[:3], 3)
    with pytest.raises(ProofError):
        consistency_proof(HASHES[:3], 4)


leaf_lists = st.lists(st.binary(max_size=8), min_size=1, max_size=70)


@settings(max_examples=150)
@given(leaf_lists, st.data())
def test_any_leaf_of_any_tree_has_an_audit_path_to_its_root_and_no_other_leaf_does(
    leaves: list[bytes], data: st.DataObject
) -> None:
    hashes = [hash_leaf(leaf) for leaf in leaves]
    index = data.draw(st.integers(0, len(hashes) - 1))
    path = inclusion_proof(hashes, index)
    whole = tree_root(hashes)
    assert verify_inclusion(index, len(hashes), hashes[index], path, whole)
    assert len(path) <= max(1, len(hashes) - 1).bit_length()
    other = hash_leaf(leaves[index] + b"!")
    assert not verify_inclusion(index, len(hashes), other, path, whole)
    if len(hashes) > 1:
        moved = data.draw(st.integers(0, len(hashes) - 1).filter(lambda i: i != index))
        assert not verify_inclusion(moved, len(hashes), hashes[index], path, whole) or hashes[moved] == hashes[index]


@settings(max_examples=150)
@given(leaf_lists, st.data())
def test_any_two_sizes_of_one_log_prove_consistent_and_a_changed_history_does_not(
    leaves: list[bytes], data: st.DataObject
) -> None:
    hashes = [hash_leaf(leaf) for leaf in leaves]
    new = len(hashes)
    old = data.draw(st.integers(1, new))
    proof = consistency_proof(hashes, old)
    assert verify_consistency(old, new, tree_root(hashes[:old]), tree_root(hashes), proof)
    # A fork: one leaf of the old tree changed, everything after as before.
    changed = data.draw(st.integers(0, old - 1))
    forked = [*hashes[:changed], hash_leaf(leaves[changed] + b"!"), *hashes[changed + 1 :]]
    assert not verify_consistency(old, new, tree_root(forked[:old]), tree_root(hashes), proof)
    assert not verify_consistency(old, new, tree_root(hashes[:old]), tree_root(forked), proof)
    # Rolled back: the new tree is the old one's prefix, not the other way round.
    if old < new:
        assert not verify_consistency(new, old, tree_root(hashes), tree_root(hashes[:old]), proof)
