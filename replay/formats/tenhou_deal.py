"""The deals a Tenhou mjlog shows, and its shuffle seed: what ``honba verify --deal`` checks.

Per hand (each ``INIT``): the hands dealt (``hai0`` to ``hai3``), the dealer (``oya``), the dice
and first dora indicator (``seed``'s fourth to sixth values), every draw in order (``T``, ``U``,
``V``, ``W`` tags; the draw after a kan or a north, an ``N`` that is no chi or pon, comes from
the dead wall), the later indicators (``DORA``) and the uras a win shows (``AGARI doraHaiUra``).
The game's ``SHUFFLE seed`` commits every wall; a log without one says so.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Final

import attrs

from replay.formats.deal import DealtHand, Draw, GameDeal
from replay.formats.logmodel import LogError
from replay.formats.source import unpack
from replay.formats.tenhou_vocab import LOG_ID
from replay.formats.tenhou_xml import FORMAT, SANMA, parse_xml

DRAW_SEATS: Final = {"T": 0, "U": 1, "V": 2, "W": 3}
WINDS: Final = "ESWN"
# Meld-code bits of a chi and a pon: any other call (a kan of any kind, a north) draws from the dead wall.
CHI_OR_PON: Final = 0x4 | 0x8


def _tiles(el: ET.Element, name: str, where: str) -> tuple[int, ...]:
    raw = el.get(name) or ""
    try:
        tiles = tuple(int(t) for t in raw.split(",") if t.strip())
    except ValueError:
        raise LogError(where, f"<{el.tag} {name}={raw[:40]!r}>: not a list of tiles") from None
    if any(not 0 <= t < 136 for t in tiles):
        raise LogError(where, f"<{el.tag} {name}={raw[:40]!r}>: a tile outside 0 to 135")
    return tiles


@attrs.define
class _Hand:
    position: str
    label: str
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    dice: tuple[int, ...]
    dora: list[int]
    draws: list[Draw] = attrs.field(factory=list)
    ura: list[int] = attrs.field(factory=list)
    dead_next: set[int] = attrs.field(factory=set)
    seed: str | None = None

    def dealt(self) -> DealtHand:
        return DealtHand(
            self.position,
            self.label,
            self.dealer,
            self.hands,
            tuple(self.draws),
            tuple(self.dora),
            tuple(self.ura),
            self.dice,
            seed=self.seed,
        )


def deals(data: bytes, *, file: str) -> list[GameDeal]:
    """The deals of a Tenhou mjlog (plain or gzipped), with its seed when it has one."""
    root = parse_xml(unpack(data, file=file), file)
    if root.tag != "mjloggm":
        raise LogError(file, f"not a Tenhou mjlog: the document is <{root.tag}>, not <mjloggm>")
    players = 4
    seed: str | None = None
    game_id: str | None = None
    hands: list[_Hand] = []
    hand: _Hand | None = None
    for el in root:
        tag = el.tag
        where = f"{file}, INIT #{len(hands)}" if hands else file
        if tag[:1] in DRAW_SEATS and tag[1:].isdigit():
            if hand is None:
                raise LogError(where, f"<{tag}> before the first hand")
            seat = DRAW_SEATS[tag[0]]
            tile = int(tag[1:])
            if not 0 <= tile < 136:
                raise LogError(where, f"<{tag}>: a tile outside 0 to 135")
            hand.draws.append(Draw(seat, tile, dead=seat in hand.dead_next))
            hand.dead_next.discard(seat)
        elif tag == "SHUFFLE":
            seed = el.get("seed")
        elif tag == "GO":
            players = 3 if int(el.get("type") or 0) & SANMA else 4
        elif tag == "TAIKYOKU":
            game_id = el.get("log") or None
        elif tag == "INIT":
            where = f"{file}, INIT #{len(hands) + 1}"
            try:
                values = [int(v) for v in (el.get("seed") or "").split(",")]
                dealer = int(el.get("oya") or "")
            except ValueError:
                raise LogError(where, "<INIT> seed or oya is not numbers") from None
            if len(values) < 6:
                raise LogError(where, f"<INIT seed>: {len(values)} values, expected 6")
            kyoku, counters, _sticks, die1, die2, indicator = values[:6]
            label = f"{WINDS[kyoku // 4 % 4]}{kyoku % 4 + 1}-{counters}"
            seats = tuple(_tiles(el, f"hai{seat}", where) for seat in range(players))
            if players == 4 and not seats[3] and all(seats[:3]):
                # A three-player table of 2009 whose GO type does not say so: the fourth seat is dealt nothing.
                players, seats = 3, seats[:3]
            hand = _Hand(
                f"INIT #{len(hands) + 1}", label, dealer, seats, (die1, die2), [indicator], seed=el.get("shuffle")
            )
            hands.append(hand)
        elif hand is None:
            continue
        elif tag == "N":
            code = int(el.get("m") or 0)
            if not code & CHI_OR_PON:
                hand.dead_next.add(int(el.get("who") or 0))
        elif tag == "DORA":
            hand.dora.extend(_tiles(el, "hai", where))
        elif tag == "AGARI" and el.get("doraHaiUra") and not hand.ura:
            hand.ura = list(_tiles(el, "doraHaiUra", where))
    if game_id is None:
        found = LOG_ID.search(file.rsplit("/", 1)[-1])
        game_id = found.group(0) if found else file.rsplit("/", 1)[-1]
    commitment = "tenhou-seed" if seed or (hands and all(h.seed for h in hands)) else None
    return [GameDeal(file, game_id, FORMAT, players, tuple(h.dealt() for h in hands), commitment, seed)]
