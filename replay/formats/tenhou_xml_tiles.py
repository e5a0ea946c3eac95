"""A Tenhou mjlog's hands in tenhou.net/6's tile arrays: what an imported game keeps to export again.

Per hand (each ``INIT``): the dora indicators (``INIT seed``'s sixth value, then each ``DORA``),
the ura indicators (``AGARI doraHaiUra``), and per seat the hand dealt (``hai0`` to ``hai3``, in
tile order), the draws (``T`` to ``W``; a chi, pon or open kan as its call string) and the
discards (``D`` to ``G``: 60 for the tile just drawn, ``r`` before a riichi's discard, 0 after an
open kan; a closed or added kan and a north as their call strings), as Tenhou's own JSON writes
them (checked against Tenhou's JSON of the corpus's games, ``tests/e2e/test_export_tiles.py``).

Codes: 11 to 19 manzu, 21 to 29 pinzu, 31 to 39 souzu, 41 to 47 the honors, 51 to 53 the red
fives (Tenhou's tiles 16, 52, 88). A call string puts its letter (``c`` chi, ``p`` pon, ``m``
open kan, ``k`` added kan, ``a`` closed kan, ``f`` north) before the called tile, at the place
of the player it was called from: first from the left, second across, last from the right.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any, Final

import attrs

from replay.formats.logmodel import LoggedGame
from replay.formats.tenhou_xml import SANMA, read_tenhou_xml

REDS: Final = {16: 51, 52: 52, 88: 53}
DRAWS: Final = {"T": 0, "U": 1, "V": 2, "W": 3}
DISCARDS: Final = {"D": 0, "E": 1, "F": 2, "G": 3}
TSUMOGIRI: Final = 60


def code(tile: int) -> int:
    """A Tenhou tile (0 to 135) in tenhou.net/6's code."""
    if tile in REDS:
        return REDS[tile]
    kind = tile // 4
    return (kind // 9 + 1) * 10 + kind % 9 + 1


def _order(tile: int) -> tuple[int, int]:
    # Within a call Tenhou lists tiles by kind, a red five after the plain ones.
    return tile // 4, 1 if tile in REDS else 0


def _joined(tiles: list[int]) -> str:
    return "".join(str(code(t)) for t in tiles)


def call_string(meld: int, players: int) -> tuple[str, bool]:
    """A meld code (``N m``) as its call string, and whether it goes with the draws (chi, pon,
    open kan) rather than the discards (added or closed kan, north)."""
    source = meld & 3  # from the caller: 1 the right, 2 across, 3 the left (0: none)
    if meld & 0x4:  # chi, always from the left
        base = meld >> 10
        called_index = base % 3
        first = base // 3
        kind = first // 7 * 9 + first % 7
        tiles = [(kind + i) * 4 + ((meld >> (3 + 2 * i)) & 3) for i in range(3)]
        called = tiles[called_index]
        others = sorted((t for t in tiles if t != called), key=_order)
        return f"c{code(called)}{_joined(others)}", True
    if meld & 0x18:  # pon, or a pon made a kan (added)
        base = meld >> 9
        called_index = base % 3
        kind = base // 3
        unused = (meld >> 5) & 3
        tiles = [kind * 4 + i for i in range(4) if i != unused]
        called = tiles[called_index]
        others = sorted((t for t in tiles if t != called), key=_order)
        if meld & 0x8:
            return _placed("p", called, others, source, players), True
        added = kind * 4 + unused
        pon = _placed("p", called, others, source, players)
        return pon.replace(f"p{code(called)}", f"k{code(added)}{code(called)}"), False
    if meld & 0x20:  # north
        return f"f{code(meld >> 8)}", False
    called = meld >> 8
    kind = called // 4
    if source == 0:  # closed kan: three tiles, then the letter before the fourth (a red five last)
        tiles = sorted((kind * 4 + i for i in range(4)), key=_order)
        return f"{_joined(tiles[:3])}a{code(tiles[3])}", False
    others = sorted((kind * 4 + i for i in range(4) if kind * 4 + i != called), key=_order)
    return _placed("m", called, others, source, players), True


def _placed(letter: str, called: int, others: list[int], source: int, players: int) -> str:
    """The letter and called tile at the place of the player called from among the others."""
    if players == 3 and source == 2:
        # Three players: across does not exist; Tenhou counts the left as 2.
        source = 3
    at = {3: 0, 2: 1, 1: len(others)}[source]
    parts = [str(code(t)) for t in others]
    parts.insert(at, f"{letter}{code(called)}")
    return "".join(parts)


class TileCollector:
    """Every hand's fourteen tile arrays, in the order of the log's INIT tags, collected one tag at a
    time (``feed``) as the reader's own loop visits them: the log is parsed and walked once."""

    def __init__(self) -> None:
        self.hands: list[list[Any]] = []
        self.current: list[Any] | None = None
        self.players = 4
        self.last_draw = [-1] * 4
        self.riichi_next: set[int] = set()

    def feed(self, el: ET.Element) -> None:
        """One tag of the log (a draw, discard, call, riichi, indicator, win; the others pass)."""
        tag = el.tag
        current = self.current
        move = _MOVES.get(tag)
        if move is None and tag[:1] in _MOVE_LETTERS and tag[1:].isdigit():
            move = _move(tag)  # a tile spelled otherwise (``T007``), or none Tenhou has: kept as read
        if move is not None:
            # Nearly every tag of a log: one look-up says whose draw or discard of which tile.
            if current is None:
                return
            slot, seat, tile, shown = move
            if slot % 3 == 0:  # a draw
                current[slot].append(shown)
                self.last_draw[seat] = tile
                return
            if tile == self.last_draw[seat]:
                shown = TSUMOGIRI
            if seat in self.riichi_next:
                shown = f"r{shown}"
                self.riichi_next.discard(seat)
            current[slot].append(shown)
            self.last_draw[seat] = -1
        elif tag == "INIT":
            seed = [int(v) for v in (el.get("seed") or "0,0,0,0,0,0").split(",")]
            current = self.current = [[code(seed[5])], []]
            for seat in range(4):
                dealt = sorted((int(t) for t in (el.get(f"hai{seat}") or "").split(",") if t.strip()), key=_order)
                current += [[code(t) for t in dealt] if seat < self.players else [], [], []]
            self.hands.append(current)
            self.last_draw = [-1] * 4
            self.riichi_next = set()
        elif tag == "GO":
            # The game's players, as the reader takes them (a log seen from one seat hides hands).
            self.players = 3 if int(el.get("type") or 0) & SANMA else 4
        elif current is None:
            return
        elif tag == "N":
            seat = int(el.get("who") or 0)
            text, with_draws = call_string(int(el.get("m") or 0), self.players)
            if with_draws:
                current[3 + 3 * seat].append(text)
                if text.find("m") >= 0:
                    # An open kan: its discard slot is empty (the replacement draw follows).
                    current[4 + 3 * seat].append(0)
            else:
                current[4 + 3 * seat].append(text)
            self.last_draw[seat] = -1
        elif tag == "REACH" and el.get("step") == "1":
            self.riichi_next.add(int(el.get("who") or 0))
        elif tag == "DORA":
            current[0].append(code(int(el.get("hai") or 0)))
        elif tag == "AGARI" and el.get("doraHaiUra") and not current[1]:
            current[1] = [code(int(t)) for t in (el.get("doraHaiUra") or "").split(",") if t.strip()]


# Every draw and discard tag (``T0`` to ``G135``): the array it goes to in a hand's fourteen (3 + 3 * seat
# for the draws, 4 + 3 * seat for the discards), the seat, the tile and its code, worked out once.
_MOVE_LETTERS: Final = {letter: (3 + 3 * seat, seat) for letter, seat in DRAWS.items()} | {
    letter: (4 + 3 * seat, seat) for letter, seat in DISCARDS.items()
}


def _move(tag: str) -> tuple[int, int, int, Any]:
    slot, seat = _MOVE_LETTERS[tag[0]]
    tile = int(tag[1:])
    return slot, seat, tile, code(tile)


_MOVES: Final = {f"{letter}{tile}": _move(f"{letter}{tile}") for letter in _MOVE_LETTERS for tile in range(136)}


def hand_tiles(root: ET.Element) -> list[list[Any]]:
    """Every hand's fourteen tile arrays, in the order of the log's INIT tags."""
    collector = TileCollector()
    for el in root:
        collector.feed(el)
    return collector.hands


def read_with_tiles(data: bytes, *, file: str) -> list[LoggedGame]:
    """The games of a mjlog, each hand with its tiles (``LoggedHand.tiles``), the tiles collected in
    the reader's own walk of the log. Asked by an import only (``read_games(..., tiles=True)``):
    ``verify`` does not pay for the tiles."""
    collector = TileCollector()
    out = []
    for game in read_tenhou_xml(data, file=file, collect=collector.feed):
        tiles = collector.hands
        if len(tiles) == len(game.hands):
            hands = tuple(attrs.evolve(hand, tiles=tuple(t)) for hand, t in zip(game.hands, tiles, strict=True))
            game = attrs.evolve(game, hands=hands)
        out.append(game)
    return out
