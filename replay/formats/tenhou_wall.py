"""Tenhou's walls regenerated from a log's shuffle seed (``<SHUFFLE seed="mt19937ar-sha512-n288-base64,...">``).

Tenhou published its algorithm (tenhou.net/stat/rand/; re-implemented by the ``tenhou-shuffle``
crate and the ``tenhou-wall-reproducer`` write-ups): the seed is 624 little-endian 32-bit words
that initialise a Mersenne Twister (mt19937ar's ``init_by_array``). Each hand draws 288 words,
hashes them with SHA-512 in nine blocks of 32 words, and the 144 words of the digests shuffle
the tiles (Fisher-Yates, ``swap(yama[i], yama[i + rnd[i] % (n - i)])``); the dice are
``rnd[135] % 6`` and ``rnd[136] % 6``. Logs of 2009 write the seed as 32 hexadecimal words
(``mt19937ar-sha512-n288,XXXXXXXX,...``); the algorithm is the same.

How a wall is dealt (checked on every Tenhou log with a seed in ``../shared/corpus``): the tiles
are taken from the wall's end (``yama[-1]`` first), four to each seat three times from the
dealer, then one each; draws continue from there. The dead wall is the wall's start: the dora
indicators are ``yama[5], yama[7], ...`` (uras ``yama[4], yama[6], ...``) and the kan draws
``yama[1], yama[0], yama[3], yama[2]``; three-player walls hold 108 tiles (no 2m to 8m), their
indicators ``yama[9], yama[11], ...`` (uras ``yama[8], ...``) and their kan and north draws
``yama[1], yama[0], ..., yama[7], yama[6]``. The 2009 logs' dead wall differs: indicators at
``yama[4], yama[6], ...``, uras at ``yama[5], yama[7], ...`` (three players: four further on);
the order of their kan draws is not known (one is seen in the corpus), so only that each comes
from ``yama[0:4]`` (``yama[0:8]``) is checked. Before mid-2009 each INIT carried its own seed
(``shuffle="mt19937ar,..."``, eight words): the generator's words shuffle that hand's wall
directly, with no SHA-512, and the dice follow the shuffle's words.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import random
import struct
from collections.abc import Iterator
from typing import Final

import attrs

# The seed's kinds, by the text before its first comma.
BASE64_SEED: Final = "mt19937ar-sha512-n288-base64"
HEX_SEED: Final = "mt19937ar-sha512-n288"
# Before mid-2009 each INIT carried a seed of its own (``shuffle="mt19937ar,XXXXXXXX,..."``): the
# generator's words shuffle the wall directly, without SHA-512.
HAND_SEED: Final = "mt19937ar"
# Words drawn from the generator per hand, and the words of one SHA-512 block.
WORDS_PER_HAND: Final = 288
BLOCK: Final = 32
# Three-player walls: the 136 tile ids without 2m to 8m (ids 4 to 31), in order.
SANMA_TILES: Final = tuple(tile for tile in range(136) if not 4 <= tile < 32)


class SeedError(ValueError):
    """A shuffle seed that cannot be read."""


@attrs.frozen
class Layout:
    """Where a platform deals from its wall: the order its live tiles are taken in (``live``:
    wall indices), its dora and ura indicators' positions, and its kan draws' positions
    (``dead_draws``; ``dead_draws_ordered`` False when only the set of them is known)."""

    live: tuple[int, ...]
    dora: tuple[int, ...]
    ura: tuple[int, ...]
    dead_draws: tuple[int, ...]
    dead_draws_ordered: bool = True


def layout(players: int, *, early: bool = False) -> Layout:
    """Tenhou's layout for a table of ``players`` (``early``: the 2009 logs' dead wall)."""
    size = 108 if players == 3 else 136
    live = tuple(range(size - 1, 13, -1))
    if early:
        # Three-player walls keep four more kan and north draws before the indicators, as now.
        extra = 4 if players == 3 else 0
        dora = tuple(extra + 4 + 2 * k for k in range(5))
        ura = tuple(extra + 5 + 2 * k for k in range(5))
        return Layout(live, dora=dora, ura=ura, dead_draws=tuple(range(4 + extra)), dead_draws_ordered=False)
    if players == 3:
        return Layout(live, dora=(9, 11, 13, 15, 17), ura=(8, 10, 12, 14, 16), dead_draws=(1, 0, 3, 2, 5, 4, 7, 6))
    return Layout(live, dora=(5, 7, 9, 11, 13), ura=(4, 6, 8, 10, 12), dead_draws=(1, 0, 3, 2))


@attrs.frozen
class Wall:
    """One hand's wall (``tiles``: Tenhou's ``yama``, tile ids 0 to 135) and its dice (0 to 5)."""

    tiles: tuple[int, ...]
    dice: tuple[int, int]


def seed_words(seed: str) -> tuple[tuple[int, ...], bool]:
    """The generator's key from a SHUFFLE seed, and whether it is the 2009 (hexadecimal) kind."""
    kind, _, body = seed.partition(",")
    if kind == BASE64_SEED:
        try:
            raw = base64.b64decode(body, validate=True)
        except (binascii.Error, ValueError):
            raise SeedError("the seed is not base64") from None
        if not raw or len(raw) % 4:
            raise SeedError(f"the seed holds {len(raw)} bytes, not whole 32-bit words")
        return struct.unpack(f"<{len(raw) // 4}I", raw), False
    if kind == HEX_SEED:
        try:
            words = tuple(int(word, 16) for word in body.split(","))
        except ValueError:
            raise SeedError("the seed's words are not hexadecimal") from None
        if not words or any(not 0 <= word < 2**32 for word in words):
            raise SeedError("the seed's words are not 32-bit numbers")
        return words, True
    raise SeedError(f"unknown seed kind {kind[:40]!r} (known: {BASE64_SEED}, {HEX_SEED})")


def _init_by_array(key: tuple[int, ...]) -> list[int]:
    """mt19937ar's ``init_by_array``: the generator's 624 words of state from a key."""
    mask = 0xFFFFFFFF
    state = [0] * 624
    state[0] = 19650218
    for i in range(1, 624):
        state[i] = (1812433253 * (state[i - 1] ^ (state[i - 1] >> 30)) + i) & mask
    i, j = 1, 0
    for _ in range(max(624, len(key))):
        state[i] = ((state[i] ^ ((state[i - 1] ^ (state[i - 1] >> 30)) * 1664525)) + key[j] + j) & mask
        i, j = i + 1, j + 1
        if i >= 624:
            state[0], i = state[623], 1
        if j >= len(key):
            j = 0
    for _ in range(623):
        state[i] = ((state[i] ^ ((state[i - 1] ^ (state[i - 1] >> 30)) * 1566083941)) - i) & mask
        i += 1
        if i >= 624:
            state[0], i = state[623], 1
    state[0] = 0x80000000
    return state


def hand_wall(seed: str, players: int = 4) -> Wall:
    """The wall of a hand from the seed of its own INIT (``shuffle="mt19937ar,..."``, before mid-2009)."""
    kind, _, body = seed.partition(",")
    if kind != HAND_SEED:
        raise SeedError(f"unknown hand seed kind {kind[:40]!r} (known: {HAND_SEED})")
    try:
        key = tuple(int(word, 16) for word in body.split(","))
    except ValueError:
        raise SeedError("the hand seed's words are not hexadecimal") from None
    if not key or any(not 0 <= word < 2**32 for word in key):
        raise SeedError("the hand seed's words are not 32-bit numbers")
    generator = _generator(key)
    rnd = [generator.getrandbits(32) for _ in range(137)]
    tiles = SANMA_TILES if players == 3 else tuple(range(136))
    # The dice are the two words after the shuffle's (seen on a three-player hand of the corpus).
    return Wall(_shuffled(tiles, rnd), (rnd[len(tiles) - 1] % 6, rnd[len(tiles)] % 6))


def _generator(key: tuple[int, ...]) -> random.Random:
    generator = random.Random()
    generator.setstate((3, (*_init_by_array(key), 624), None))
    return generator


def _shuffled(tiles: tuple[int, ...], rnd: list[int]) -> tuple[int, ...]:
    yama = list(tiles)
    size = len(yama)
    for i in range(size - 1):
        other = i + rnd[i] % (size - i)
        yama[i], yama[other] = yama[other], yama[i]
    return tuple(yama)


def walls(seed: str, players: int) -> Iterator[Wall]:
    """The walls of a game's hands, in order, from its SHUFFLE seed (``SeedError`` if unreadable).

    Python's ``random.Random`` is the same mt19937 generator; it is given the state
    ``init_by_array`` makes (its own seeding would drop a key's leading zero words).
    """
    key, _ = seed_words(seed)
    generator = _generator(key)
    tiles = SANMA_TILES if players == 3 else tuple(range(136))
    while True:
        words = [generator.getrandbits(32) for _ in range(WORDS_PER_HAND)]
        rnd: list[int] = []
        for start in range(0, WORDS_PER_HAND, BLOCK):
            block = struct.pack(f"<{BLOCK}I", *words[start : start + BLOCK])
            rnd.extend(struct.unpack("<16I", hashlib.sha512(block).digest()))
        yield Wall(_shuffled(tiles, rnd), (rnd[135] % 6, rnd[136] % 6))
