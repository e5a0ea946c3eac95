"""A win entered by its tiles: han, fu and the yaku worked out from the hand, not by the players.

The tiles are written as tenhou.net and most riichi tools write them: digits followed by their
suit, ``123m456p789s11z`` (``m`` characters, ``p`` circles, ``s`` bamboos, ``z`` honours: 1z-4z
the winds East, South, West, North, 5z-7z the dragons white, green, red), ``0`` for a red five
(``0p``). A hand is its concealed tiles with the winning tile among them; each call apart:
``chi:345m``, ``pon:777z``, ``kan:1111p`` (an open kong), ``ankan:2222s`` (a concealed one),
``kakan:5555m`` (a pon added to). The dora and ura dora are given by their indicators.

The count is the ``mahjong`` package's hand calculator (``replay.formats.valuation``, the one
honba's mjai importer uses), under the winner's seat wind and the round wind of the match's
table. The value it gives is paid like a value typed by hand; the yaku are kept with the win
(``WinDetails``, outside the match's content, as a game log's are). A value typed as well wins
when the two differ, with a warning: the table decides what it agreed. The rest of the win
(winner, discarder, riichi, the facts, penalties) is the one entry model's
(``replay.input.entry``), read as every front end's win is: the tiles give only the value and
the yaku (``tile_result``, ``record_tile_win``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

import attrs

from domain.errors import HonbaError
from domain.match import Match
from domain.rules import Ruleset
from domain.scoring.riichi import base_points
from domain.values import HandValue, TableState, WinDetails, WinFacts, WinResult
from replay.formats.valuation import MeldTiles, TileReading, UnreadableHand, WinContext, read_tiles
from replay.input.entry import FLAG_KEYS, NO_FACTS, NO_VALUE, Entry, HandPenaltyEntry, WinEntry, result_of
from replay.input.parsing import InputError, parse_value
from replay.service.entry import fact_at
from replay.service.recording import ForHand, Recorded, record
from replay.store.application import HonbaApp

HONOURS: Final = "ESWNPFC"
CALL_KINDS: Final = ("chi", "pon", "kan", "ankan", "kakan")
_GROUP = re.compile(r"(\d+)([mpsz])")
# The most tiles an option may name (a hand with four kongs holds 18): a bound on the input.
MOST_TILES: Final = 18


def parse_tiles(text: str, option: str = "--hand") -> tuple[str, ...]:
    """Tiles in the ``123m456p0s11z`` notation, as the hand calculator's names (``1m``, ``5pr``
    for a red five, ``E``..``C`` for the honours); a clear ``InputError`` naming the option."""
    compact = "".join(text.split()).lower()
    if not compact:
        raise InputError(f"{option}: no tiles given (write them as e.g. 123m456p789s11z)")
    tiles: list[str] = []
    position = 0
    for found in _GROUP.finditer(compact):
        if found.start() != position:
            break
        digits, suit = found.groups()
        for digit in digits:
            tiles.append(_tile(digit, suit, option))
        position = found.end()
    if position != len(compact):
        raise InputError(
            f"{option}: cannot read {text!r} from {compact[position:]!r} on: write digits and then their suit, "
            "e.g. 123m456p789s11z (m, p, s, z for honours 1z-7z; 0 for a red five)"
        )
    if len(tiles) > MOST_TILES:
        raise InputError(f"{option}: {len(tiles)} tiles is more than any hand holds")
    return tuple(tiles)


def _tile(digit: str, suit: str, option: str) -> str:
    if suit == "z":
        if not "1" <= digit <= "7":
            raise InputError(f"{option}: {digit}z is no tile (the honours are 1z-7z)")
        return HONOURS[int(digit) - 1]
    if digit == "0":
        return f"5{suit}r"
    return f"{digit}{suit}"


def shown(tile: str) -> str:
    """A tile in the notation people type (``5pr`` as ``0p``, ``E`` as ``1z``)."""
    if tile in HONOURS:
        return f"{HONOURS.index(tile) + 1}z"
    return f"0{tile[1]}" if tile.endswith("r") else tile


def parse_call(text: str) -> MeldTiles:
    """A call as ``KIND:TILES`` (``pon:777z``, ``chi:345m``, ``kan:1111p``, ``ankan:2222s``)."""
    kind, _, tiles = text.partition(":")
    kind = kind.strip().lower()
    if kind not in CALL_KINDS or not tiles:
        raise InputError(f"--call: write a call as KIND:TILES with KIND one of {', '.join(CALL_KINDS)}, not {text!r}")
    parsed = parse_tiles(tiles, "--call")
    size = 3 if kind in ("chi", "pon") else 4
    kinds = {t.removesuffix("r") for t in parsed}
    if len(parsed) != size:
        raise InputError(f"--call: a {kind} has {size} tiles, not {len(parsed)} ({text!r})")
    if kind != "chi" and len(kinds) != 1:
        raise InputError(f"--call: the tiles of a {kind} are all alike ({text!r})")
    if kind == "chi" and not _run(parsed):
        raise InputError(f"--call: a chi is three tiles in a row of one suit ({text!r})")
    return MeldTiles(kind, parsed)


def _run(tiles: Sequence[str]) -> bool:
    if any(t in HONOURS for t in tiles) or len({t[1] for t in tiles}) != 1:
        return False
    numbers = sorted(int(t[0]) for t in tiles)
    return numbers == list(range(numbers[0], numbers[0] + 3))


@attrs.frozen
class HandTiles:
    """A winning hand as entered: the concealed tiles (the winning tile among them), the winning
    tile, the calls, the dora and ura dora indicators, and how it went out beyond what the win
    itself says (``riichi``, ``double_riichi``, ``ippatsu``, the last tile, a supplement tile
    after a kong, a robbed kong, the first turn)."""

    concealed: tuple[str, ...]
    win_tile: str
    calls: tuple[MeldTiles, ...] = ()
    dora_indicators: tuple[str, ...] = ()
    ura_indicators: tuple[str, ...] = ()
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    # How it went out (the last tile, a supplement tile, a robbed kong, the first turn): the win's facts.
    facts: WinFacts = NO_FACTS

    @classmethod
    def from_text(
        cls,
        hand: str,
        win_tile: str,
        calls: Sequence[str] = (),
        dora_indicators: str | None = None,
        ura_indicators: str | None = None,
        *,
        riichi: bool = False,
        double_riichi: bool = False,
        ippatsu: bool = False,
        facts: WinFacts = NO_FACTS,
    ) -> HandTiles:
        """A hand from what was typed: ``--hand``, ``--win-tile``, each ``--call``, the indicators."""
        winning = parse_tiles(win_tile, "--win-tile")
        if len(winning) != 1:
            raise InputError(f"--win-tile: one tile, not {len(winning)} ({win_tile!r})")
        tiles = cls(
            parse_tiles(hand),
            winning[0],
            tuple(parse_call(c) for c in calls),
            parse_tiles(dora_indicators, "--dora-indicators") if dora_indicators else (),
            parse_tiles(ura_indicators, "--ura-indicators") if ura_indicators else (),
            riichi,
            double_riichi,
            ippatsu,
            facts,
        )
        tiles.check()
        return tiles

    def check(self) -> None:
        """The tiles make a hand of fourteen (a kong counting three), no tile more than four
        times, at most one red five a suit, the winning tile among the concealed ones."""
        if self.win_tile not in self.concealed:
            raise InputError(f"--win-tile: {shown(self.win_tile)} is not among the tiles of --hand")
        kongs = sum(1 for c in self.calls if len(c.tiles) == 4)
        count = len(self.concealed) + sum(len(c.tiles) for c in self.calls)
        if count - kongs != 14:
            raise InputError(
                f"--hand: a winning hand has 14 tiles (a kong counts 3), the winning tile among them; "
                f"these are {count - kongs} with the calls"
            )
        every = [*self.concealed, *(t for c in self.calls for t in c.tiles)]
        kinds = Counter(t.removesuffix("r") for t in every)
        over = sorted(kind for kind, n in kinds.items() if n > 4)
        if over:
            raise InputError(f"--hand: more than four of {', '.join(shown(k) for k in over)}")
        reds = Counter(t[1] for t in every if t.endswith("r"))
        if any(n > 1 for n in reds.values()):
            raise InputError("--hand: a suit has one red five")


@attrs.frozen
class TileValue:
    """What the tiles of a win are worth: the value to record, the details to keep with the win,
    and a warning when a value typed as well differs from the tiles' (the typed one is recorded)."""

    value: HandValue
    details: WinDetails
    from_tiles: HandValue
    warning: str | None = None

    def data(self) -> dict[str, Any]:
        """Plain data for a page or a tool: ``{"value", "han", "fu", "limit", "tiles_value",
        "yaku": [{"name", "han"}], "dora", "red", "ura", "warning"}``."""
        return {
            "value": self.value.describe(),
            "han": self.from_tiles.han,
            "fu": self.details.fu,
            "limit": self.from_tiles.limit,
            "tiles_value": self.from_tiles.describe(),
            "yaku": [{"name": y.name, "han": y.han} for y in self.details.yaku],
            "dora": self.details.dora,
            "red": self.details.red,
            "ura": self.details.ura,
            "warning": self.warning,
        }


def tile_value(
    tiles: HandTiles,
    *,
    winner: int,
    self_drawn: bool,
    state: TableState,
    rules: Ruleset,
    typed: HandValue | None = None,
) -> TileValue:
    """The value and yaku of a win from its tiles, the winner's seat wind and the round wind of
    ``state`` (the table the hand is played on). ``typed``, a value entered as well, is what is
    recorded; where it differs from the tiles' the result says so in ``warning``."""
    if rules.scoring != "riichi":
        raise InputError(f"a hand is valued from its tiles under riichi rules only, not under {rules.name}")
    context = WinContext(
        concealed=tiles.concealed,
        melds=tiles.calls,
        win_tile=tiles.win_tile,
        self_drawn=self_drawn,
        seat_wind=(winner - state.dealer) % state.players,
        round_wind=state.round_wind % 4,
        dora_markers=tiles.dora_indicators,
        ura_markers=tiles.ura_indicators,
        riichi=tiles.riichi or tiles.double_riichi,
        double_riichi=tiles.double_riichi,
        ippatsu=tiles.ippatsu,
        facts=tiles.facts,
        players=state.players,
    )
    try:
        reading: TileReading = read_tiles(context)
    except UnreadableHand as exc:
        raise InputError(f"--hand: {exc}") from None
    counted = attrs.evolve(reading.details, calls=details_calls(tiles))
    # The han from dora count toward the payment, not toward a minimum (``HandValue.dora``).
    dora = counted.dora + counted.red + counted.ura + counted.kita
    from_tiles = attrs.evolve(reading.value, dora=dora or None) if reading.value.han is not None else reading.value
    if typed is None or _pays_alike(typed, from_tiles, rules):
        # A typed value that pays what the tiles pay (``5han`` for a mangan, say) says the same:
        # the tiles' is kept, with its dora.
        return TileValue(from_tiles, counted, from_tiles)
    warning = (
        f"the tiles give {from_tiles.describe()} ({describe_yaku(counted)}), not {typed.describe()} as typed: "
        f"{typed.describe()} is recorded"
    )
    return TileValue(typed, counted, from_tiles, warning)


def _pays_alike(typed: HandValue, tiles: HandValue, rules: Ruleset) -> bool:
    """Whether a typed value pays what the tiles' value pays under the rules (the domain's base
    points: ``mangan`` and ``5han`` alike); a typed value the rules cannot pay differs."""
    try:
        return base_points(typed, rules).base == base_points(tiles, rules).base
    except HonbaError:
        return False


def describe_yaku(details: WinDetails) -> str:
    """The yaku and dora of a win in one line: ``立直 1, 断幺九 1; dora 2``."""
    parts = [", ".join(f"{y.name} {y.han}" for y in details.yaku)]
    counted = [f"{name} {n}" for name, n in (("dora", details.dora), ("red", details.red), ("ura", details.ura)) if n]
    if counted:
        parts.append(", ".join(counted))
    return "; ".join(p for p in parts if p)


def details_calls(tiles: HandTiles) -> tuple[str, ...]:
    """The winner's calls as ``WinDetails.calls`` writes them (``pon 7z``, ``chi 3m4m5m``, ``kan 1p (concealed)``)."""
    out = []
    for call in tiles.calls:
        first = shown(call.tiles[0])
        if call.kind == "chi":
            out.append("chi " + "".join(shown(t) for t in call.tiles))
        elif call.kind == "ankan":
            out.append(f"kan {first} (concealed)")
        elif call.kind == "kakan":
            out.append(f"added kan {first}")
        else:
            out.append(f"{call.kind} {first}")
    return tuple(out)


def tile_result(
    won: WinResult, typed: HandValue | None, tiles: HandTiles, state: TableState, rules: Ruleset
) -> tuple[WinResult, TileValue]:
    """A win as the entry reads it (one winner, ``won``; its value ``typed``, or None where the
    tiles alone give it), valued by its tiles at the table ``state``: the tiles' value (or the
    typed one, where it pays otherwise, with the warning of the ``TileValue``), the yaku kept
    with the win as its ``details``. Riichi, the last tile, a supplement tile, a robbed kong and
    the first turn are the win's (what the table says) or the tiles' own."""
    if len(won.wins) != 1:
        raise InputError("--hand gives one winner's tiles: name one winner (record a double ron by value)")
    (win,) = won.wins
    declared = won.riichi
    if (tiles.riichi or tiles.double_riichi) and win.winner not in declared:
        declared = (*declared, win.winner)
    facts = win.facts
    flagged = attrs.evolve(
        tiles,
        riichi=tiles.riichi or win.winner in declared,
        facts=attrs.evolve(tiles.facts, **{flag: True for flag in FLAG_KEYS if getattr(facts, flag)}),
    )
    valued = tile_value(
        flagged, winner=win.winner, self_drawn=win.discarder is None, state=state, rules=rules, typed=typed
    )
    return WinResult((attrs.evolve(win, value=valued.value, details=valued.details),), declared), valued


def typed_value(entry: Entry) -> HandValue | None:
    """The value typed for an entry's one winner beside the tiles, or None (none typed, or its
    dora alone: the tiles count the dora)."""
    value = entry.wins[0].value if entry.wins else NO_VALUE
    return None if attrs.evolve(value, dora=None) == NO_VALUE else value


def record_tile_win(
    app: HonbaApp,
    key: str,
    entry: Entry,
    tiles: HandTiles,
    *,
    client_key: str | None = None,
    expect: ForHand | None = None,
) -> tuple[Recorded, TileValue]:
    """Record a win entered by its tiles (``honba win KEY Ben --hand ...``): the win is the entry
    (the one entry model: its winner, discarder, riichi, facts and penalties read as every
    front end's), its value and yaku the tiles' at the table it is recorded at. What the tiles
    gave comes back beside the match (its ``warning`` where a typed value was recorded)."""
    if entry.kind != "win":
        raise InputError("--hand gives the tiles of a win")
    valued: list[TileValue] = []

    def result(match: Match) -> WinResult:
        won = fact_at(match, entry)
        assert isinstance(won, WinResult)  # a win's entry is one
        tiled, value = tile_result(won, typed_value(entry), tiles, match.state, match.rules)
        valued[:] = [value]
        return tiled

    done = record(app, key, result, client_key=client_key, expect=expect)
    return done, valued[-1]


def tile_win(
    players: Sequence[str],
    state: TableState,
    rules: Ruleset,
    winner: str,
    tiles: HandTiles,
    *,
    discarder: int | None,
    liable: int | None = None,
    riichi: str | None = None,
    facts: WinFacts | None = None,
    scores: tuple[int, ...] = (),
) -> tuple[WinResult, TileValue]:
    """A win entered by its tiles, its parts given one by one: ``winner`` is the player, or
    ``PLAYER:VALUE`` with a value typed as well (recorded where it differs, with the warning the
    ``TileValue`` gives); read as an entry (``replay.input.entry``) and valued by ``tile_result``."""
    name, _, text = winner.partition(":") if ":" in winner else (winner, "", "")
    given = facts or WinFacts()
    win = WinEntry(
        winner=name.strip(),
        value=parse_value(text) if text else NO_VALUE,
        discarder=discarder,
        pao=liable,
        facts=attrs.evolve(given, penalties=()),
        penalties=tuple(HandPenaltyEntry(players[p.payer], p.amount, p.note) for p in given.penalties),
        loser_scores=scores,
    )
    declared = tuple(name.strip() for name in (riichi or "").split(",") if name.strip())
    entry = Entry("win", wins=(win,), riichi=declared)
    won = result_of(entry, players)
    assert isinstance(won, WinResult)  # a win's entry is one
    return tile_result(won, typed_value(entry), tiles, state, rules)
