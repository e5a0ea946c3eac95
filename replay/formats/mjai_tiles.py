"""An mjai hand's play in tenhou.net/6's arrays, as the other readers keep a hand's tiles
(``LoggedHand.tiles``): dora and ura indicators, then for each seat its dealt hand, its draws (a
tile, or a call string: ``c``, ``p``, ``m`` before the called tile, at the place of the player it
was called from) and its discards (a tile, 60 the tile just drawn, ``r`` before a riichi's, ``a``
and ``k`` kans, ``f44`` a north, 0 the place of an open kan). A translation of the events the
reader has checked, no scoring; a hand with a tile not shown (``?``) keeps none.
"""

from __future__ import annotations

from typing import Any, Final

import attrs

HONORS: Final = "ESWNPFC"
# The events that put tiles in the arrays (the others change none).
PLAY: Final = frozenset(
    {"tsumo", "dahai", "reach", "chi", "pon", "daiminkan", "ankan", "kakan", "kita", "nukidora", "dora", "hora"}
)


def tenhou_code(tile: str) -> int:
    """An mjai tile (``1m``, ``5pr`` a red five, ``E``..``C``) in tenhou.net/6's code; ValueError else."""
    if tile in HONORS and tile:
        return 41 + HONORS.index(tile)
    if len(tile) in (2, 3) and tile[0].isdigit() and tile[1] in "mps" and tile[2:] in ("", "r"):
        number, suit = int(tile[0]), "mps".index(tile[1])
        if tile[2:] == "r":
            if number != 5:
                raise ValueError(tile)
            return 51 + suit
        if 1 <= number <= 9:
            return (suit + 1) * 10 + number
    raise ValueError(tile)


def _order(code: int) -> tuple[int, int]:
    # Tenhou lists tiles by kind, a red five after the plain ones.
    return ((code - 50) * 10 + 5, 1) if code > 50 else (code, 0)


def _kind(code: int) -> int:
    return (code - 50) * 10 + 5 if code > 50 else code


@attrs.define
class HandArrays:
    """One hand's arrays, built event by event; ``readable`` False once an event cannot be put in them."""

    players: int
    dealt: list[list[int]]
    dora: list[int]
    takes: list[list[Any]] = attrs.Factory(list)
    drops: list[list[Any]] = attrs.Factory(list)
    ura: list[int] = attrs.Factory(list)
    drawn: list[int | None] = attrs.Factory(list)
    declared: set[int] = attrs.Factory(set)
    pons: dict[tuple[int, int], str] = attrs.Factory(dict)
    readable: bool = True

    @classmethod
    def start(cls, tehais: list[list[str]], marker: str | None, players: int) -> HandArrays:
        """A hand's arrays from its ``start_kyoku``: every seat's thirteen tiles shown, or none kept."""
        try:
            if len(tehais) != players or any(len(hand) != 13 for hand in tehais):
                raise ValueError("no hands dealt")
            dealt = [sorted((tenhou_code(t) for t in hand), key=_order) for hand in tehais]
            dora = [tenhou_code(marker)] if marker is not None else []
        except ValueError:
            return cls(players, [], [], readable=False)
        return cls(
            players,
            dealt,
            dora,
            [[] for _ in range(players)],
            [[] for _ in range(players)],
            drawn=[None] * players,
        )

    def event(self, event: dict[str, Any]) -> None:
        """One event of the hand put in the arrays (the reader has checked its seats and tiles)."""
        if not self.readable:
            return
        try:
            self._event(event)
        except (ValueError, KeyError, TypeError, IndexError):
            self.readable = False

    def _event(self, event: dict[str, Any]) -> None:
        kind = event["type"]
        if kind not in PLAY:
            return
        if kind == "dora":
            self.dora.append(tenhou_code(event["dora_marker"]))
            return
        if kind == "hora":
            ura = event.get("ura_markers") or event.get("uradora_markers") or []
            if ura and not self.ura:
                self.ura = [tenhou_code(t) for t in ura]
            return
        seat = event["actor"]
        if kind == "tsumo":
            tile = tenhou_code(event["pai"])
            self.takes[seat].append(tile)
            self.drawn[seat] = tile
        elif kind == "reach":
            self.declared.add(seat)
        elif kind == "dahai":
            tile = tenhou_code(event["pai"])
            shown: int = 60 if event.get("tsumogiri") and self.drawn[seat] == tile else tile
            self.drops[seat].append(f"r{shown}" if seat in self.declared else shown)
            self.declared.discard(seat)
            self.drawn[seat] = None
        elif kind in ("chi", "pon", "daiminkan"):
            called = tenhou_code(event["pai"])
            others = sorted((tenhou_code(t) for t in event["consumed"]), key=_order)
            if kind == "chi":
                text = f"c{called}{''.join(map(str, others))}"
            else:
                text = self._placed("p" if kind == "pon" else "m", called, others, seat, event["target"])
                if kind == "pon":
                    self.pons[(seat, _kind(called))] = text
            self.takes[seat].append(text)
            if kind == "daiminkan":
                self.drops[seat].append(0)
            self.drawn[seat] = None
        elif kind == "ankan":
            tiles = sorted((tenhou_code(t) for t in event["consumed"]), key=_order)
            self.drops[seat].append(f"{''.join(map(str, tiles[:3]))}a{tiles[3]}")
        elif kind == "kakan":
            added = tenhou_code(event["pai"])
            pon = self.pons[(seat, _kind(added))]
            at = pon.index("p")
            self.drops[seat].append(f"{pon[:at]}k{added}{pon[at + 1 :]}")
        elif kind in ("kita", "nukidora"):
            self.drops[seat].append("f44")

    def _placed(self, letter: str, called: int, others: list[int], seat: int, target: int) -> str:
        """A pon or open kan's string: the letter and called tile first when called from the left,
        second from across, last from the right (in sanma, the left first and the right last)."""
        left = (seat - target) % self.players
        if self.players == 3 and left == 2:
            left = 3  # sanma has no seat across: two to the left is the one to the right
        at = {1: 0, 2: 1, 3: len(others)}[left]
        parts = [str(t) for t in others]
        parts.insert(at, f"{letter}{called}")
        return "".join(parts)

    def arrays(self) -> tuple[Any, ...] | None:
        """The hand in tenhou.net/6's fourteen arrays (empty ones for a fourth seat in sanma), or None."""
        if not self.readable:
            return None
        arrays: list[Any] = [list(self.dora), list(self.ura)]
        for seat in range(4):
            if seat < self.players:
                arrays += [list(self.dealt[seat]), self.takes[seat], self.drops[seat]]
            else:
                arrays += [[], [], []]
        return tuple(arrays)
