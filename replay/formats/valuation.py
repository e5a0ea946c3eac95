"""A win's hand value when the log does not state it: from the tiles, or from the payment.

mjai logs often record only who won and the score changes. The value is then
taken, in this order:

1. from the hand itself: the winner's tiles, melds, dora and the way the hand
   went out, valued by the ``mahjong`` package (han, fu, yakuman), the same
   count a person at the table would make before saying the value;
2. failing that (hidden tiles, a hand the package cannot read), from the
   payment: the smallest hand value whose payment under the rules, computed by
   honba's own ``settle``, gives the changes the log recorded.

Neither path computes a payment of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import attrs
from mahjong.constants import EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld

from domain.errors import HonbaError
from domain.rules import Ruleset
from domain.scoring.payments import settle
from domain.scoring.riichi import hand_values
from domain.values import HandValue, TableState, Win, WinResult

SUITS: Final = {"m": 0, "p": 9, "s": 18}
HONORS: Final = {"E": 27, "S": 28, "W": 29, "N": 30, "P": 31, "F": 32, "C": 33}
NORTH34: Final = 30


def tile34(tile: str) -> tuple[int, bool] | None:
    """An mjai tile (``5m``, ``5pr`` red, ``E``, ``P`` white, ``F`` green, ``C`` red dragon) as (0-33, red)."""
    if tile in HONORS:
        return HONORS[tile], False
    if len(tile) in (2, 3) and tile[0].isdigit() and tile[1] in SUITS and "1" <= tile[0] <= "9":
        red = tile[2:] == "r"
        if len(tile) == 3 and (not red or tile[0] != "5"):
            return None
        return SUITS[tile[1]] + int(tile[0]) - 1, red
    return None


def in_tile_order(tiles: Sequence[str]) -> tuple[str, ...]:
    """Tiles in the order of the 34 kinds (1m..9m, 1p.., 1s.., E S W N P F C), a red five
    beside its plain copies; a tile that is not one comes last."""
    return tuple(sorted(tiles, key=lambda t: (p[0], not p[1]) if (p := tile34(t)) is not None else (99, True)))


@attrs.frozen
class MeldTiles:
    """A called or declared set: ``kind`` is chi, pon, daiminkan, ankan or kakan.

    The tiles are kept in tile order whatever order the log lists them in: mjai gives a
    call's ``consumed`` tiles and the called ``pai`` apart, and the hand calculator reads a
    chi as a run only when its tiles ascend (an unsorted one made the hand unreadable).
    """

    kind: str
    tiles: tuple[str, ...] = attrs.field(converter=in_tile_order)
    called: str | None = None


@attrs.frozen
class WinContext:
    """What the tiles and the table say about one win, for the hand calculator."""

    concealed: tuple[str, ...]  # the winner's concealed tiles, the winning tile included
    melds: tuple[MeldTiles, ...]
    win_tile: str
    self_drawn: bool
    seat_wind: int  # 0 = East
    round_wind: int
    dora_markers: tuple[str, ...]
    ura_markers: tuple[str, ...]
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    rinshan: bool = False
    chankan: bool = False
    haitei: bool = False
    houtei: bool = False
    first_draw: bool = False  # tenhou (dealer) or chiihou: won on the first draw, no call before
    kita: int = 0
    players: int = 4
    red_fives: bool = True


class _Ids:
    """Hands out distinct 136-format ids: red fives take copy 0, as the package expects."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def take(self, tile: str) -> int | None:
        parsed = tile34(tile)
        if parsed is None:
            return None
        kind, red = parsed
        for copy in (0,) if red else (1, 2, 3, 0):
            tile_id = kind * 4 + copy
            if tile_id not in self.used:
                self.used.add(tile_id)
                return tile_id
        return None


def value_from_tiles(ctx: WinContext) -> HandValue | None:
    """The hand value the tiles give, or None when they cannot be read as a winning hand.

    Yakuman are counted from the yakuman found (Tenhou rules: no double yakuman
    for special waits); 13 han or more without a yakuman is given as han so that
    the rules (counted yakuman) decide.
    """
    ids = _Ids()
    win_id = ids.take(ctx.win_tile)
    if win_id is None:
        return None
    rest = list(ctx.concealed)
    if ctx.win_tile not in rest:
        return None
    rest.remove(ctx.win_tile)
    hand: list[int] = [win_id]
    for tile in rest:
        tile_id = ids.take(tile)
        if tile_id is None:
            return None
        hand.append(tile_id)
    melds: list[Meld] = []
    for meld in ctx.melds:
        meld_ids = [ids.take(t) for t in meld.tiles]
        if any(i is None for i in meld_ids):
            return None
        tiles = [i for i in meld_ids if i is not None]
        hand.extend(tiles)
        kind = {"chi": Meld.CHI, "pon": Meld.PON, "kakan": Meld.SHOUMINKAN}.get(meld.kind, Meld.KAN)
        melds.append(Meld(meld_type=kind, tiles=tiles, opened=meld.kind != "ankan"))
    markers = _marker_ids(ctx.dora_markers)
    ura = _marker_ids(ctx.ura_markers)
    if markers is None or ura is None:
        return None
    options = OptionalRules(
        has_open_tanyao=True,
        has_aka_dora=ctx.red_fives,
        has_double_yakuman=False,
        kazoe_limit=HandConstants.KAZOE_NO_LIMIT,
        is_three_player=ctx.players == 3,
    )
    dealer = ctx.seat_wind == 0
    config = HandConfig(
        is_tsumo=ctx.self_drawn,
        is_riichi=ctx.riichi and not ctx.double_riichi,
        is_daburu_riichi=ctx.double_riichi,
        is_ippatsu=ctx.ippatsu,
        is_rinshan=ctx.rinshan,
        is_chankan=ctx.chankan,
        is_haitei=ctx.haitei and not ctx.rinshan,
        is_houtei=ctx.houtei,
        is_tenhou=ctx.first_draw and dealer,
        is_chiihou=ctx.first_draw and not dealer,
        player_wind=EAST + ctx.seat_wind,
        round_wind=EAST + ctx.round_wind,
        num_nuki_dora=ctx.kita,
        options=options,
    )
    try:
        response = HandCalculator.estimate_hand_value(hand, win_id, melds, markers, config, ura_dora_indicators=ura)
    except Exception:
        # Whatever the package cannot value (a malformed hand) is valued from the payment instead.
        return None
    if response.error is not None or response.han is None or not response.yaku:
        return None
    yakuman = [y for y in response.yaku if y.is_yakuman]
    if yakuman:
        # The package counts a yakuman as 13 han (26 for a double one).
        return HandValue(limit="yakuman", multiple=max(1, response.han // 13))
    if response.han >= 5:
        return HandValue(han=response.han)
    return HandValue(han=response.han, fu=response.fu)


def _marker_ids(markers: Sequence[str]) -> list[int] | None:
    out: list[int] = []
    for marker in markers:
        parsed = tile34(marker)
        if parsed is None:
            return None
        # Indicators only matter by kind; any copy of the kind will do.
        out.append(parsed[0] * 4 + 1)
    return out


def value_from_payment(win: Win, recorded: Sequence[int], state: TableState, rules: Ruleset) -> HandValue:
    """The smallest hand value whose payment under the rules gives the recorded changes.

    ``state`` is the table as this win is paid: with the counters and the
    deposits when this winner takes them, without when another winner of the
    same discard does. ``recorded`` is the win's own score changes (no riichi
    sticks placed in the hand). When no value gives them exactly, the closest
    one is returned, and the verifier will show the difference.
    """
    best: tuple[int, HandValue] | None = None
    # The hand values that exist are the domain's (``domain.scoring.riichi.hand_values``).
    for value in hand_values(self_drawn=win.discarder is None):
        try:
            changes = settle(WinResult((attrs.evolve(win, value=value),)), state, rules).deltas(state.players)
        except HonbaError:
            continue
        distance = sum(abs(a - b) for a, b in zip(changes, recorded, strict=False))
        if distance == 0:
            return value
        if best is None or distance < best[0]:
            best = (distance, value)
    return best[1] if best is not None else HandValue(limit="mangan")  # pragma: no cover - settle always answers
