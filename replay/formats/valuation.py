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

import threading
from collections.abc import Sequence
from typing import Final, NamedTuple

import attrs
from mahjong.constants import EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.hand_calculating.yaku import Yaku as LibraryYaku
from mahjong.meld import Meld

from domain.errors import HonbaError
from domain.rules import Ruleset
from domain.said import Said
from domain.scoring.payments import settle
from domain.scoring.riichi import hand_values
from domain.values import HandValue, TableState, Win, WinDetails, WinFacts, WinResult
from replay.formats.yaku import YAKUMAN_HAN, details, library_yaku
from replay.input.entry import NO_FACTS
from replay.input.tiles import MeldTiles, tile34

NORTH34: Final = 30


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
    # How the win went out, in the domain's words (the last tile, a supplement tile, a robbed kong,
    # the first turn); the hand calculator's names for them are derived below.
    facts: WinFacts = NO_FACTS
    kita: int = 0
    players: int = 4
    red_fives: bool = True


class _Ids:
    """Hands out distinct 136-format ids: red fives take copy 0, as the package expects."""

    __slots__ = ("used",)

    def __init__(self) -> None:
        self.used: set[int] = set()

    def take(self, tile: str) -> int | None:
        copies = _COPIES.get(tile)
        if copies is None:
            parsed = tile34(tile)
            if parsed is None:
                return None
            copies = _copies(*parsed)
        used = self.used
        for tile_id in copies:
            if tile_id not in used:
                used.add(tile_id)
                return tile_id
        return None


def _copies(kind: int, red: bool) -> tuple[int, ...]:
    """The 136-format ids a tile may take, in the order they are given out."""
    return tuple(kind * 4 + copy for copy in ((0,) if red else (1, 2, 3, 0)))


# Each mjai tile's ids, worked out once.
_COPIES: Final = {
    tile: _copies(*parsed)
    for tile in (*(f"{n}{suit}" for suit in "mps" for n in range(1, 10)), "5mr", "5pr", "5sr", *"ESWNPFC")
    if (parsed := tile34(tile)) is not None
}


@attrs.frozen
class TileReading:
    """What the hand calculator read from a winning hand's tiles: its value, and what it counted
    (the yaku by Tenhou's names and ids, the dora, red fives and ura dora apart, the fu), as the
    ``WinDetails`` a game log gives."""

    value: HandValue
    details: WinDetails


class UnreadableHand(HonbaError):
    """Tiles the hand calculator cannot read as a winning hand (with its reason)."""


def value_from_tiles(ctx: WinContext) -> HandValue | None:
    """The hand value the tiles give, or None when they cannot be read as a winning hand."""
    try:
        return _read(ctx, counted=False)[0]
    except UnreadableHand:
        return None


def read_tiles(ctx: WinContext) -> TileReading:
    """The hand value the tiles give and the yaku they hold; ``UnreadableHand`` (saying why) when
    they cannot be read as a winning hand.

    Yakuman are counted from the yakuman found (Tenhou rules: no double yakuman
    for special waits); 13 han or more without a yakuman is given as han so that
    the rules (counted yakuman) decide.
    """
    value, counted = _read(ctx, counted=True)
    assert counted is not None
    return TileReading(value, counted)


def _read(ctx: WinContext, *, counted: bool) -> tuple[HandValue, WinDetails | None]:
    """``read_tiles``' value, and what it counted where asked (a verify asks the value alone)."""
    ids = _Ids()
    win_id = ids.take(ctx.win_tile)
    if win_id is None:
        raise UnreadableHand(Said("{tile} is no tile", tile=repr(ctx.win_tile)))
    rest = list(ctx.concealed)
    if ctx.win_tile not in rest:
        raise UnreadableHand(Said("the winning tile {tile} is not among the hand's tiles", tile=ctx.win_tile))
    rest.remove(ctx.win_tile)
    hand: list[int] = [win_id]
    for tile in rest:
        tile_id = ids.take(tile)
        if tile_id is None:
            raise UnreadableHand(Said("{tile} is no tile, or there are more than four of it", tile=repr(tile)))
        hand.append(tile_id)
    melds: list[Meld] = []
    for meld in ctx.melds:
        meld_ids = [ids.take(t) for t in meld.tiles]
        if any(i is None for i in meld_ids):
            raise UnreadableHand(
                Said(
                    "the call {kind} {tiles} has a tile that is no tile or a fifth copy",
                    kind=meld.kind,
                    tiles="".join(meld.tiles),
                )
            )
        tiles = [i for i in meld_ids if i is not None]
        hand.extend(tiles)
        kind = {"chi": Meld.CHI, "pon": Meld.PON, "kakan": Meld.SHOUMINKAN}.get(meld.kind, Meld.KAN)
        melds.append(Meld(meld_type=kind, tiles=tiles, opened=meld.kind != "ankan"))
    markers = _marker_ids(ctx.dora_markers)
    ura = _marker_ids(ctx.ura_markers)
    if markers is None or ura is None:
        raise UnreadableHand(Said("a dora indicator is no tile"))
    dealer = ctx.seat_wind == 0
    facts, self_drawn = ctx.facts, ctx.self_drawn
    # tenhou (dealer) or chiihou: won on the first draw, no call before.
    first_draw = facts.first_turn and self_drawn
    config = _hand_config(
        _ConfigKey(
            tsumo=ctx.self_drawn,
            riichi=ctx.riichi and not ctx.double_riichi,
            double_riichi=ctx.double_riichi,
            ippatsu=ctx.ippatsu,
            rinshan=facts.supplement_tile,
            chankan=facts.robbed_kong,
            haitei=facts.last_tile and self_drawn and not facts.supplement_tile,
            houtei=facts.last_tile and not self_drawn,
            tenhou=first_draw and dealer,
            chiihou=first_draw and not dealer,
            seat_wind=EAST + ctx.seat_wind,
            round_wind=EAST + ctx.round_wind,
            kita=ctx.kita,
            red_fives=ctx.red_fives,
            three_players=ctx.players == 3,
        )
    )
    try:
        response = HandCalculator.estimate_hand_value(hand, win_id, melds, markers, config, ura_dora_indicators=ura)
    except Exception as exc:
        # Whatever the package cannot value (a malformed hand): the caller values it otherwise.
        raise UnreadableHand(
            Said("the hand calculator cannot read the hand ({error})", error=type(exc).__name__)
        ) from None
    if response.error is not None or response.han is None or not response.yaku:
        # A reason the package gives that honba does not know is quoted as it is (its own code).
        reason = _ERRORS.get(str(response.error)) or (str(response.error) if response.error else Said("no yaku"))
        raise UnreadableHand(reason)
    yakuman = [y for y in response.yaku if y.is_yakuman]
    if yakuman:
        # The package counts a yakuman as 13 han (26 for a double one).
        value = HandValue(limit="yakuman", multiple=max(1, response.han // 13))
    elif response.han >= 5:
        value = HandValue(han=response.han)
    else:
        value = HandValue(han=response.han, fu=response.fu)
    if not counted:
        return value, None
    found = [
        library_yaku(
            y.yaku_id, y.name, YAKUMAN_HAN if y.is_yakuman else (y.han_open if response.is_open_hand else y.han_closed)
        )
        for y in response.yaku
    ]
    return value, details(found, fu=response.fu, winning_tile=_tenhou_tile(ctx.win_tile))


class _ConfigKey(NamedTuple):
    """What a ``HandConfig`` is made from (``_hand_config``): the win's flags, the winds, the kita, and
    the rules (red fives, three players); named, so that no two flags can be swapped unseen."""

    tsumo: bool
    riichi: bool
    double_riichi: bool
    ippatsu: bool
    rinshan: bool
    chankan: bool
    haitei: bool
    houtei: bool
    tenhou: bool
    chiihou: bool
    seat_wind: int
    round_wind: int
    kita: int
    red_fives: bool
    three_players: bool


# The most configurations one thread keeps (about 9 KiB each: 4.5 MiB at most). The 1,099 hands of
# 110 riichienv games made 91; the rest of the flags' combinations are rare.
_MOST_CONFIGS: Final = 512
_configs = threading.local()


def _hand_config(key: _ConfigKey) -> HandConfig:
    """The hand calculator's configuration for these flags, made once per thread.

    A ``HandConfig`` builds its set of some sixty yaku objects each time it is made, and the
    calculator sets the dora counts on them as it values a hand: one made per win was 2 % of an mjai
    verify. The same configuration values any hand alike (the counts are set afresh for each hand
    before they are read, and ``read_tiles`` reads them before the next hand), but not in two
    threads at once (the web's recording service values hands too): hence one per thread.
    """
    made: dict[_ConfigKey, HandConfig] | None = getattr(_configs, "made", None)
    if made is None:
        made = _configs.made = {}
    config = made.get(key)
    if config is None:
        if len(made) >= _MOST_CONFIGS:
            made.clear()
        config = made[key] = _new_hand_config(key)
    return config


def _new_hand_config(key: _ConfigKey) -> HandConfig:
    """A fresh ``HandConfig`` for these flags."""
    return HandConfig(
        is_tsumo=key.tsumo,
        is_riichi=key.riichi,
        is_daburu_riichi=key.double_riichi,
        is_ippatsu=key.ippatsu,
        is_rinshan=key.rinshan,
        is_chankan=key.chankan,
        is_haitei=key.haitei,
        is_houtei=key.houtei,
        is_tenhou=key.tenhou,
        is_chiihou=key.chiihou,
        player_wind=key.seat_wind,
        round_wind=key.round_wind,
        num_nuki_dora=key.kita,
        options=OptionalRules(
            has_open_tanyao=True,
            has_aka_dora=key.red_fives,
            has_double_yakuman=False,
            kazoe_limit=HandConstants.KAZOE_NO_LIMIT,
            is_three_player=key.three_players,
        ),
    )


def _han(yaku: LibraryYaku, open_hand: bool) -> int:
    """The han a yaku the calculator found counts (13 for a yakuman, as logs write it)."""
    if yaku.is_yakuman:
        return YAKUMAN_HAN
    return yaku.han_open if open_hand else yaku.han_closed


# The hand calculator's reasons, in words.
_ERRORS: Final[dict[str, Said]] = {
    "hand_not_winning": Said("the tiles are not a winning hand"),
    "no_yaku": Said("the hand has no yaku"),
    "winning_tile_not_in_hand": Said("the winning tile is not among the hand's tiles"),
    "open_hand_riichi_not_allowed": Said("riichi with an open hand"),
    "open_hand_daburi_not_allowed": Said("double riichi with an open hand"),
    "ippatsu_without_riichi_not_allowed": Said("ippatsu without riichi"),
    "chankan_with_tsumo_not_allowed": Said("a robbed kong cannot be self-drawn"),
    "rinshan_without_tsumo_not_allowed": Said("a supplement tile after a kong is self-drawn"),
    "haitei_without_tsumo_not_allowed": Said("the last tile of the wall is self-drawn"),
    "houtei_with_tsumo_not_allowed": Said("the last discard cannot be self-drawn"),
    "haitei_with_rinshan_not_allowed": Said("the last tile and a supplement tile at once"),
    "houtei_with_rinshan_not_allowed": Said("the last discard and a supplement tile at once"),
    "tenhou_not_as_dealer_not_allowed": Said("the heavenly hand is the dealer's"),
    "tenhou_without_tsumo_not_allowed": Said("the heavenly hand is self-drawn"),
    "tenhou_with_meld_not_allowed": Said("the heavenly hand has no call"),
    "chiihou_as_dealer_not_allowed": Said("the earthly hand is not the dealer's"),
    "chiihou_without_tsumo_not_allowed": Said("the earthly hand is self-drawn"),
    "chiihou_with_meld_not_allowed": Said("the earthly hand has no call"),
}

HONOR_NUMBERS: Final = {name: str(number) for number, name in enumerate("ESWNPFC", start=1)}


def _tenhou_tile(tile: str) -> str:
    """An mjai tile in the ``1m``..``7z`` notation of ``WinDetails`` (a red five as ``0m``)."""
    if tile in HONOR_NUMBERS:
        return f"{HONOR_NUMBERS[tile]}z"
    return f"0{tile[1]}" if tile.endswith("r") else tile


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
