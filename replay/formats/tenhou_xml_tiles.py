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

import functools
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from operator import itemgetter
from typing import Any, Final, cast

import attrs

from domain.bounds import shown as quoted
from replay.formats.logmodel import LogError, LoggedGame
from replay.formats.source import unpack
from replay.formats.tenhou_xml import (
    SANMA,
    piece_pattern,
    read_plain_mjlog,
    read_plain_pieces,
    read_tenhou_xml,
    tag_pieces,
)

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


# Each of Tenhou's 136 tiles: its code, and its place in a hand dealt (``_order`` as one number), so
# that a hand of tiles Tenhou has is sorted and coded without a call per tile.
_CODES: Final = tuple(code(tile) for tile in range(136))
_RANKS: Final = tuple(2 * (tile // 4) + (1 if tile in REDS else 0) for tile in range(136))
# Each tile as Tenhou writes it in a list (``0`` to ``135``, without leading zeros or blanks): its
# place in a hand dealt, one number that sorts as ``_order`` does (``_RANKS`` made distinct, the tile's
# number breaking ties). A hand dealt as Tenhou writes it is sorted by these numbers alone (no key
# function) and each coded by ``_CODE_AT``, one look-up per tile; a tile in any other spelling is no
# key (the general reading then says what it is).
_PLACE_OF_TEXT: Final = {str(tile): _RANKS[tile] * 136 + tile for tile in range(136)}
_CODE_AT: Final = {_RANKS[tile] * 136 + tile: _CODES[tile] for tile in range(136)}


def _order(tile: int) -> tuple[int, int]:
    # Within a call Tenhou lists tiles by kind, a red five after the plain ones.
    return tile // 4, 1 if tile in REDS else 0


def _joined(tiles: list[int]) -> str:
    return "".join(str(code(t)) for t in tiles)


@functools.lru_cache(maxsize=8192)
def call_string(meld: int, players: int) -> tuple[str, bool]:
    """A meld code (``N m``) as its call string, and whether it goes with the draws (chi, pon,
    open kan) rather than the discards (added or closed kan, north). A code no call of Tenhou's has
    (a pon or kan from nobody) raises ``KeyError``. Remembered for the last few thousand codes: an
    archive's calls repeat (a pure function of its two numbers; the 633 logs of
    ``benchmarks/import_store.py`` have some 4,800 codes, which all stay remembered)."""
    source = meld & 3  # from the caller: 1 the right, 2 across, 3 the left (0: none)
    if meld & 0x4:  # chi, always from the left
        base = meld >> 10
        called_index = base % 3
        first = base // 3
        kind = first // 7 * 9 + first % 7
        tiles = [(kind + i) * 4 + ((meld >> (3 + 2 * i)) & 3) for i in range(3)]
        called = tiles.pop(called_index)
        # The other two in Tenhou's order (``_order``): of kinds in a row, in order already.
        return f"c{code(called)}{code(tiles[0])}{code(tiles[1])}", True
    if meld & 0x18:  # pon, or a pon made a kan (added)
        base = meld >> 9
        called_index = base % 3
        kind = base // 3
        unused = (meld >> 5) & 3
        others = [kind * 4 + i for i in range(4) if i != unused]
        called = others.pop(called_index)
        # The others in Tenhou's order (``_order``): of one kind, a red five (its first tile) last.
        if others[0] in REDS:
            others.append(others.pop(0))
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


class _Unreadable(ValueError):
    """A value the tiles cannot be read from (which attribute, what it holds, and what it is not)."""

    def __init__(self, name: str, value: str | None, why: str = "not a tile"):
        super().__init__(f"{name}={quoted(value)}: {why}")


def _tile(name: str, value: str | None) -> int:
    """A tile's number as ``int`` reads it, or ``_Unreadable`` naming the attribute."""
    try:
        return int(value or 0)
    except ValueError:
        raise _Unreadable(name, value) from None


def _tiles(name: str, value: str | None) -> list[int]:
    """A list of tiles (``hai0``, ``doraHaiUra``), its blank items left out."""
    try:
        return [int(t) for t in (value or "").split(",") if t.strip()]
    except ValueError:
        raise _Unreadable(name, value) from None


def _hand_start(seed: str | None, dealt: Sequence[str | None], players: int) -> list[list[Any]]:
    """A hand's fourteen arrays at its ``INIT``: the first dora indicator (``seed``'s sixth value),
    no ura yet, and per seat the hand dealt (sorted as Tenhou lists it; empty past the table's
    players), its draws and its discards to come."""
    values = (seed or "0,0,0,0,0,0").split(",")
    try:
        indicator = int(values[5])
    except (IndexError, ValueError):
        raise _Unreadable("seed", seed, "no dora indicator (its sixth number)") from None
    # The fourteen arrays, each seat's hand dealt (2 + 3 * seat) empty until read.
    hand: list[list[Any]] = [[code(indicator)], [], [], [], [], [], [], [], [], [], [], [], [], []]
    # A seat past the table's players has no hand (whatever its attribute holds).
    for seat in range(players):
        value = dealt[seat]
        if value:
            try:
                # As Tenhou writes a hand (each tile one of its 136): sorted and coded by a look-up per tile
                # (comprehensions, compiled: ``map`` of a dictionary's ``__getitem__`` calls a method wrapper per tile).
                places = [_PLACE_OF_TEXT[tile] for tile in value.split(",")]
                places.sort()
                tiles = [_CODE_AT[place] for place in places]
            except KeyError:
                tiles = [code(t) for t in sorted(_tiles(f"hai{seat}", value), key=_order)]
            hand[2 + 3 * seat] = tiles
    return hand


def _call(hand: list[list[Any]], seat: int, meld: int, players: int) -> int:
    """A call (``N``) put in the seat's arrays: a chi, pon or open kan with the draws (an open kan's
    discard left empty, 0: the replacement draw follows), an added or closed kan or a north with
    the discards; how many values it put there (``plain_tags`` counts a hand's play by them)."""
    try:
        text, with_draws = call_string(meld, players)
    except KeyError:
        raise _Unreadable("m", str(meld), "not a call Tenhou writes") from None
    if with_draws:
        hand[3 + 3 * seat].append(text)
        if text.find("m") >= 0:
            hand[4 + 3 * seat].append(0)
            return 2
    else:
        hand[4 + 3 * seat].append(text)
    return 1


def _players(kind: str | None) -> int:
    """The game's players by ``GO type`` (as the reader takes them: a log seen from one seat hides
    hands, not seats)."""
    return 3 if int(kind or 0) & SANMA else 4


class TileCollector:
    """Every hand's fourteen tile arrays, in the order of the log's INIT tags, collected one tag at a
    time (``feed``) as the reader's own loop visits them: the log is parsed and walked once. The
    tree's way (a log not in the plain shape); ``plain_hand_tiles`` reads the same from the text."""

    def __init__(self, file: str = "") -> None:
        self.file = file
        self.hands: list[list[Any]] = []
        self.current: list[Any] | None = None
        self.players = 4
        self.last_draw = [-1] * 4
        self.riichi_next: set[int] = set()

    def feed(self, el: ET.Element) -> None:
        """One tag of the log (a draw, discard, call, riichi, indicator, win; the others pass). A value
        no tile can be read from raises ``LogError`` naming the file, the hand and the tag."""
        try:
            self._feed(el)
        except _Unreadable as exc:
            # As the reader names a tag: the hand it is in (an INIT opens the next one), or the tag alone.
            hand = len(self.hands) + (el.tag == "INIT")
            position = f"INIT #{hand} <{el.tag}>" if hand else f"<{el.tag}>"
            raise LogError(f"{self.file}, {position}", str(exc)) from None

    def _feed(self, el: ET.Element) -> None:
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
            dealt = [el.get(f"hai{seat}") for seat in range(4)]
            current = self.current = _hand_start(el.get("seed"), dealt, self.players)
            self.hands.append(current)
            self.last_draw = [-1] * 4
            self.riichi_next = set()
        elif tag == "GO":
            self.players = _players(el.get("type"))
        elif current is None:
            return
        elif tag == "N":
            seat = int(el.get("who") or 0)
            _call(current, seat, int(el.get("m") or 0), self.players)
            self.last_draw[seat] = -1
        elif tag == "REACH" and el.get("step") == "1":
            self.riichi_next.add(int(el.get("who") or 0))
        elif tag == "DORA":
            current[0].append(code(_tile("hai", el.get("hai"))))
        elif tag == "AGARI" and el.get("doraHaiUra") and not current[1]:
            current[1] = [code(t) for t in _tiles("doraHaiUra", el.get("doraHaiUra"))]


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


# The plain shape's text cut at each ``<`` (in that shape no ``<`` but the one opening a tag), a
# draw or discard as Tenhou writes it is a piece ``T52/>``: each such piece with what its tag says
# (``_MOVES``, and whether it is a draw), and a draw whose tile is hidden (``T/>``: a log seen from one
# seat) as empty, the one look-up nine pieces in ten take.
_PIECES: Final[dict[str, tuple[int, int, int, Any, bool] | tuple[()]]] = {
    f"{tag}/>": (*move, move[0] % 3 == 0) for tag, move in _MOVES.items()
} | {f"{letter}/>": () for letter in _MOVE_LETTERS}
# A tag's attributes, for a tag the tiles read in another layout than Tenhou's.
_PAIR: Final = re.compile(r'([^ \t\r\n="]++)="([^"]*+)"')
_DEALT: Final = ("hai0", "hai1", "hai2", "hai3")  # each seat's hand dealt, in an INIT


def _play(
    current: list[list[Any]], last_draw: list[int], riichi: list[bool], slot: int, seat: int, tile: int, shown: Any
) -> None:
    """A draw or discard spelled otherwise than Tenhou does (``T007``) put in the hand's arrays as
    ``plain_hand_tiles`` puts the ones its look-up finds (the same steps, written out there)."""
    if slot % 3 == 0:
        last_draw[seat] = tile
    else:
        if tile == last_draw[seat]:
            shown = TSUMOGIRI
        if riichi[seat]:
            shown = f"r{shown}"
            riichi[seat] = False
        last_draw[seat] = -1
    current[slot].append(shown)


def plain_hand_tiles(text: str) -> list[list[Any]] | None:
    """Every hand's fourteen tile arrays, as ``TileCollector`` collects them from the tree, read from
    the text of a mjlog in the plain shape (``read_plain_mjlog`` says whether it is) without the tree:
    its pieces between one ``<`` and the next, nearly all of them a draw or discard found by one
    look-up. None where the text holds a tag the tiles read in a layout other than Tenhou's, or a
    value the collector would refuse: such a log is read by the tree and the collector, which say the
    same or name what is wrong. (Of a text not of the plain shape, what it gives means nothing.)"""
    found = plain_tags(text)
    return found[0] if found is not None else None


# A hand's draws and discards, seat by seat (the arrays its play is put in).
_PLAYS: Final = itemgetter(3, 4, 6, 7, 9, 10, 12, 13)
# The reader's patterns for a piece of a plain-shaped text (compiled here: only the tiles read with them):
# by its first two characters, the one tag in Tenhou's layout it can be, and the rest.
_HANDLED, _REST = piece_pattern()
# The groups of a tag the tiles read, each in its own tag's pattern: a call's seat and meld code, a
# riichi's seat and step, an indicator, a hand's start (its seed and each seat's hand dealt), a win's
# ura indicators; in the rest's, a tag in another layout (its name and attributes).
_WHO, _MELD = _HANDLED["N "].groupindex["call_who"], _HANDLED["N "].groupindex["call_m"]
_RIICHI_WHO, _STEP = _HANDLED["RE"].groupindex["reach_who"], _HANDLED["RE"].groupindex["reach_step"]
_INDICATOR = _HANDLED["DO"].groupindex["dora_hai"]
_SEED = _HANDLED["IN"].groupindex["seed"]
_DEALT_GROUPS: Final = tuple(_HANDLED["IN"].groupindex[f"dealt{seat}"] for seat in range(4))
_URA = _HANDLED["AG"].groupindex["ura"]
_NAME, _ATTRIBUTES = _REST.groupindex["name"], _REST.groupindex["attributes"]
# A tag no handler reads that starts as a draw or discard does: one spelled otherwise than Tenhou spells
# it (``T007/>``), or one with blank space or attributes after its tile (``T5 />``, the tree's to read).
_SPELLED: Final = re.compile(r"([TUVWDEFG][0-9]++)(?:(/>)|[ \t\r\n/])")


def plain_tags(text: str) -> tuple[list[list[Any]], list[re.Match[str]], list[bool]] | None:
    """``plain_hand_tiles``'s arrays, with what the same walk leaves for the reader of the hands
    (``read_plain_pieces``): the tags of the text (``tag_pieces``) but the draws and discards spelled as
    Tenhou spells them, matched by the reader's ``piece_pattern()`` (one match for both), in order, and for
    each hand whether its play is in the log (a draw or discard with its tile between its ``INIT`` and the
    next: the values put in its draws and discards outnumber those its calls put there). None where a
    piece is not of the plain shape too (the tree reads such a log)."""
    cut = tag_pieces(text)
    if cut is None:
        return None
    pieces, first = cut
    hands: list[list[Any]] = []
    tags: list[re.Match[str]] = []
    played: list[bool] = []
    # Before the first INIT nothing is kept (the collector passes over it): a hand no one sees.
    current: list[list[Any]] = [[] for _ in range(14)]
    called = 0  # the values the open hand's calls put in its draws and discards
    players = 4
    last_draw = [-1] * 4
    riichi = [False] * 4
    handled = _HANDLED.get
    rest = _REST.match
    keep = tags.append
    try:
        for piece in pieces[first:-1]:  # (a copy of the list: cheaper per piece than ``islice``)
            move = _PIECES.get(piece)
            if move:
                # A draw or discard (nine pieces in ten): the one test the other pieces take after the look-up.
                slot, seat, tile, shown, draw = move
                if draw:
                    last_draw[seat] = tile
                else:
                    if tile == last_draw[seat]:
                        shown = TSUMOGIRI
                    if riichi[seat]:
                        shown = f"r{shown}"
                        riichi[seat] = False
                    last_draw[seat] = -1
                current[slot].append(shown)
            elif move is None:
                pattern = handled(piece[:2])
                found = pattern.match(piece) if pattern is not None else None
                if found is None:
                    found = rest(piece)
                if found is None or found.end() != len(piece):
                    return None
                keep(found)
                kind = found.lastgroup
                if kind == "call":
                    who, meld = cast("tuple[str, str]", found.group(_WHO, _MELD))  # (``int`` of a text, compiled)
                    seat = int(who)
                    called += _call(current, seat, int(meld), players)
                    last_draw[seat] = -1
                elif kind == "reach":
                    if found.group(_STEP) == "1":
                        riichi[int(found.group(_RIICHI_WHO))] = True
                elif kind == "init":
                    if hands:
                        played.append(sum(map(len, _PLAYS(current))) > called)
                    current = _hand_start(found.group(_SEED), found.group(*_DEALT_GROUPS), players)
                    hands.append(current)
                    called = 0
                    last_draw = [-1] * 4
                    riichi = [False] * 4
                elif kind == "agari":
                    ura = found.group(_URA)
                    if ura and not current[1]:
                        current[1] = [code(t) for t in _tiles("doraHaiUra", ura)]
                elif kind == "dora":
                    current[0].append(code(int(found.group(_INDICATOR))))
                elif kind == "attributes":
                    # A tag the tiles read in another layout than Tenhou's (``INIT`` with ``shuffle``).
                    name = found.group(_NAME)
                    if name in ("N", "REACH"):
                        return None  # the tree's to read
                    if name == "INIT":
                        attrib = dict(_PAIR.findall(found.group(_ATTRIBUTES)))
                        if hands:
                            played.append(sum(map(len, _PLAYS(current))) > called)
                        current = _hand_start(attrib.get("seed"), list(map(attrib.get, _DEALT)), players)
                        hands.append(current)
                        called = 0
                        last_draw = [-1] * 4
                        riichi = [False] * 4
                    elif name == "GO":
                        players = _players(dict(_PAIR.findall(found.group(_ATTRIBUTES))).get("type"))
                    elif name == "AGARI" and not current[1]:
                        ura = dict(_PAIR.findall(found.group(_ATTRIBUTES))).get("doraHaiUra")
                        if ura:
                            current[1] = [code(t) for t in _tiles("doraHaiUra", ura)]
                elif kind != "draw" and piece[0] in _MOVE_LETTERS:
                    # A draw or discard spelled otherwise (``T007``): placed as the look-up's are.
                    spelled = _SPELLED.match(piece)
                    if spelled is not None:
                        if spelled[2] is None:
                            return None  # blank space or attributes after its tile: the tree's to read
                        slot, seat, tile, shown = _move(spelled[1])
                        _play(current, last_draw, riichi, slot, seat, tile, shown)
            # (Else a draw whose tile is hidden, ``()``: nothing kept.)
    except (ValueError, IndexError):
        # A value the collector refuses, or a seat past the four (``REACH who="7"``, refused by the
        # reader): the tree's walk says which, in the order of the log.
        return None
    if hands:
        played.append(sum(map(len, _PLAYS(current))) > called)
    return hands, tags, played


def _kept(game: LoggedGame, tiles: list[list[Any]]) -> LoggedGame:
    """The game with each hand's tiles (where every hand has them)."""
    if len(tiles) != len(game.hands):
        return game
    hands = tuple(attrs.evolve(hand, tiles=tuple(t)) for hand, t in zip(game.hands, tiles, strict=True))
    return attrs.evolve(game, hands=hands)


def read_with_tiles(data: bytes, *, file: str) -> list[LoggedGame]:
    """The games of a mjlog, each hand with its tiles (``LoggedHand.tiles``). Asked by an import only
    (``read_games(..., tiles=True)``): ``verify`` does not pay for the tiles. A log in the plain shape
    every Tenhou server writes is read without the tree, as ``verify`` reads it, and its tiles from the
    same text (``plain_hand_tiles``); any other is parsed once, the tiles collected in the reader's own
    walk of the tree (``TileCollector``)."""
    unpacked = unpack(data, file=file)
    try:
        text = unpacked.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = ""  # no plain shape: the tree's reader says what is wrong
    # The tiles first: a tag they would refuse sends the log to the tree, which refuses what comes
    # first in the log, the reader's fault or the tiles'. Tiles read from a text that turns out not to
    # be of the plain shape are not used.
    found = plain_tags(text) if text else None
    if found is not None:
        tiles, tags, played = found
        # The tags the tiles' walk matched (no draw or discard), read by the hands' reader; a log it
        # refuses, read as any text (which says why; the text decoded once).
        game = read_plain_pieces(tags, played, file=file, tiles=tiles) or read_plain_mjlog(text, file=file, tiles=tiles)
        if game is not None:
            return [game]
    collector = TileCollector(file)
    return [_kept(game, collector.hands) for game in read_tenhou_xml(data, file=file, collect=collector.feed)]
