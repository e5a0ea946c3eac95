"""A winning hand as it was typed or tapped, read: the tiles in the notation tenhou.net and most
riichi tools write (digits followed by their suit, ``123m456p789s11z``: ``m`` characters, ``p``
circles, ``s`` bamboos, ``z`` honours 1z-4z the winds, 5z-7z the dragons; ``0`` for a red five),
each call (``chi:345m``, ``pon:777z``, ``kan:1111p``, ``ankan:2222s``, ``kakan:5555m``), the
indicators, and the form's tile fields (``hand_tiles_from_fields``). Inside, a tile is named as
the hand calculator and mjai name it (``5m``, ``5pr`` a red five, ``E``..``C`` the honours):
``tile34`` and ``in_tile_order`` read those names, for the log readers too. Valuing the hand is
the service's (``replay.service.recording.tiles``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from domain.said import Said
from domain.values import WinFacts
from replay.input.entry import NO_FACTS, FieldError
from replay.input.parsing import InputError

SUITS: Final = {"m": 0, "p": 9, "s": 18}
HONORS: Final = {"E": 27, "S": 28, "W": 29, "N": 30, "P": 31, "F": 32, "C": 33}


def tile34(tile: str) -> tuple[int, bool] | None:
    """An mjai tile (``5m``, ``5pr`` red, ``E``, ``P`` white, ``F`` green, ``C`` red dragon) as (0-33, red)."""
    # The 37 tiles, read once (``_TILE34``): a log reader asks for them by the thousand.
    known = _TILE34.get(tile)
    if known is not None:
        return known
    return _read_tile34(tile)


def _read_tile34(tile: str) -> tuple[int, bool] | None:
    if tile in HONORS:
        return HONORS[tile], False
    if len(tile) in (2, 3) and tile[0].isdigit() and tile[1] in SUITS and "1" <= tile[0] <= "9":
        red = tile[2:] == "r"
        if len(tile) == 3 and (not red or tile[0] != "5"):
            return None
        return SUITS[tile[1]] + int(tile[0]) - 1, red
    return None


_TILE34: Final[dict[str, tuple[int, bool]]] = {
    tile: parsed
    for tile in (*(f"{n}{suit}" for suit in SUITS for n in range(1, 10)), "5mr", "5pr", "5sr", *HONORS)
    if (parsed := _read_tile34(tile)) is not None
}


def in_tile_order(tiles: Sequence[str]) -> tuple[str, ...]:
    """Tiles in the order of the 34 kinds (1m..9m, 1p.., 1s.., E S W N P F C), a red five
    beside its plain copies; a tile that is not one comes last."""
    try:
        # The 37 tiles' places looked up (a log's calls are all of them): no Python call per tile.
        return tuple(sorted(tiles, key=_TILE_ORDER.__getitem__))
    except KeyError:
        return tuple(sorted(tiles, key=lambda t: (p[0], not p[1]) if (p := tile34(t)) is not None else (99, True)))


# Each of the 37 tiles' place in ``in_tile_order``.
_TILE_ORDER: Final = {tile: (kind, not red) for tile, (kind, red) in _TILE34.items()}


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
        raise refused(option, Said("no tiles given (write them as e.g. 123m456p789s11z)"))
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
        raise refused(
            option,
            Said(
                "cannot read {text} from {rest} on: write digits and then their suit, "
                "e.g. 123m456p789s11z (m, p, s, z for honours 1z-7z; 0 for a red five)",
                text=repr(text),
                rest=repr(compact[position:]),
            ),
        )
    if len(tiles) > MOST_TILES:
        raise refused(option, Said("{count} tiles is more than any hand holds", count=len(tiles)))
    return tuple(tiles)


def _tile(digit: str, suit: str, option: str) -> str:
    if suit == "z":
        if not "1" <= digit <= "7":
            raise refused(option, Said("{digit}z is no tile (the honours are 1z-7z)", digit=digit))
        return HONOURS[int(digit) - 1]
    if digit == "0":
        return f"5{suit}r"
    return f"{digit}{suit}"


def notation(tile: str) -> str:
    """A tile in the notation people type (``5pr`` as ``0p``, ``E`` as ``1z``)."""
    if tile in HONOURS:
        return f"{HONOURS.index(tile) + 1}z"
    return f"0{tile[1]}" if tile.endswith("r") else tile


def parse_call(text: str) -> MeldTiles:
    """A call as ``KIND:TILES`` (``pon:777z``, ``chi:345m``, ``kan:1111p``, ``ankan:2222s``)."""
    kind, _, tiles = text.partition(":")
    kind = kind.strip().lower()
    if kind not in CALL_KINDS or not tiles:
        named = ", ".join(CALL_KINDS)
        raise refused(
            "--call",
            Said("write a call as KIND:TILES with KIND one of {kinds}, not {text}", kinds=named, text=repr(text)),
        )
    parsed = parse_tiles(tiles, "--call")
    size = 3 if kind in ("chi", "pon") else 4
    kinds = {t.removesuffix("r") for t in parsed}
    if len(parsed) != size:
        raise refused(
            "--call",
            Said(
                "a {kind} has {size} tiles, not {count} ({text})",
                kind=kind,
                size=size,
                count=len(parsed),
                text=repr(text),
            ),
        )
    if kind != "chi" and len(kinds) != 1:
        raise refused("--call", Said("the tiles of a {kind} are all alike ({text})", kind=kind, text=repr(text)))
    if kind == "chi" and not _run(parsed):
        raise refused("--call", Said("a chi is three tiles in a row of one suit ({text})", text=repr(text)))
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
            raise refused("--win-tile", Said("one tile, not {count} ({text})", count=len(winning), text=repr(win_tile)))
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
            raise refused(
                "--win-tile",
                Said("{tile} is not among the tiles of {hand}", tile=notation(self.win_tile), hand="--hand"),
            )
        kongs = sum(1 for c in self.calls if len(c.tiles) == 4)
        count = len(self.concealed) + sum(len(c.tiles) for c in self.calls)
        if count - kongs != 14:
            raise refused(
                "--hand",
                Said(
                    "a winning hand has 14 tiles (a kong counts 3), the winning tile among them; "
                    "these are {count} with the calls",
                    count=count - kongs,
                ),
            )
        every = [*self.concealed, *(t for c in self.calls for t in c.tiles)]
        kinds = Counter(t.removesuffix("r") for t in every)
        over = sorted(kind for kind, n in kinds.items() if n > 4)
        if over:
            raise refused("--hand", Said("more than four of {tiles}", tiles=", ".join(notation(k) for k in over)))
        reds = Counter(t[1] for t in every if t.endswith("r"))
        if any(n > 1 for n in reds.values()):
            raise refused("--hand", Said("a suit has one red five"))


# The fields of a win entered by its tiles, by the command line's options they stand for.
TILE_FIELDS: Final = {
    "hand": "--hand",
    "win_tile": "--win-tile",
    "calls": "--call",
    "dora_indicators": "--dora-indicators",
    "ura_indicators": "--ura-indicators",
}
TILE_FLAGS: Final = ("ippatsu", "double_riichi")
# The longest text a tile field may hold (a hand of four kongs and its calls is far shorter).
MAX_TILE_TEXT: Final = 120


def hand_tiles_from_fields(fields: Mapping[str, Any]) -> HandTiles | None:
    """The winning hand a form's tile fields describe (``hand``, ``win_tile``, ``calls`` between
    spaces or commas, ``dora_indicators``, ``ura_indicators``, ``ippatsu``, ``double_riichi``: the
    command line's ``--hand`` and its options), or None when no hand is given. A field that
    cannot be read is refused by its name."""
    text = {name: tile_text(fields, name) for name in TILE_FIELDS}
    flags = {name: bool(tile_text(fields, name)) for name in TILE_FLAGS}
    if not text["hand"]:
        if any(text.values()) or any(flags.values()):
            raise FieldError(
                "hand", Said("the winning tile, the calls, the indicators and ippatsu go with the hand's tiles")
            )
        return None
    if not text["win_tile"]:
        raise FieldError("win_tile", Said("which of the hand's tiles won?"))
    calls = [c for c in text["calls"].replace(",", " ").split() if c]
    try:
        return HandTiles.from_text(
            text["hand"],
            text["win_tile"],
            calls,
            text["dora_indicators"] or None,
            text["ura_indicators"] or None,
            ippatsu=flags["ippatsu"],
            double_riichi=flags["double_riichi"],
        )
    except InputError as exc:
        raise tile_error(exc.said) from None


def tile_text(fields: Mapping[str, Any], name: str) -> str:
    raw = fields.get(name)
    if isinstance(raw, list | tuple):
        raw = raw[-1] if raw else ""
    if raw is None:
        return ""
    if not isinstance(raw, str):
        raise FieldError(name, Said("expected text"))
    text = raw.strip()
    if len(text) > MAX_TILE_TEXT:
        raise FieldError(name, Said("at most {most} characters", most=MAX_TILE_TEXT))
    return text


def refused(option: str, problem: Said | str) -> InputError:
    """A refusal of the tiles' reader, naming the command line's option it is in (``--hand: ...``)."""
    return InputError(Said("{option}: {problem}", option=option, problem=problem))


# The options' names as a page says them, by its field (``win tile``).
_FIELD_WORDS: Final = {
    "--hand": Said("hand"),
    "--win-tile": Said("win tile"),
    "--call": Said("calls"),
    "--dora-indicators": Said("dora indicators"),
    "--ura-indicators": Said("ura indicators"),
}


def tile_error(said: Said | str) -> FieldError:
    """A refusal of the tiles' reader (which names the command line's options) by its field: the
    option it is in is the field, the options it names are said as the fields' names."""
    if not isinstance(said, Said):
        return _tile_error_text(said)
    fields = dict(said.fields)
    if said.template == "{option}: {problem}":
        field = next((name for name, option in TILE_FIELDS.items() if option == fields["option"]), "hand")
        problem = fields["problem"]
        return FieldError(field, _fields_named(problem) if isinstance(problem, Said) else str(problem))
    return FieldError("hand", _fields_named(said))


def _fields_named(said: Said) -> Said:
    """The words with each option they name said as its field's name."""
    return said.mapped(lambda value: _FIELD_WORDS.get(value, value) if isinstance(value, str) else value)


def _tile_error_text(message: str) -> FieldError:
    """``tile_error`` of a message given as text: its option read from its start."""
    field = "hand"
    for name, option in TILE_FIELDS.items():
        if message.startswith(option):
            field = name
            message = message[len(option) :].lstrip(": ")
            break
    for name, option in TILE_FIELDS.items():
        message = message.replace(option, name.replace("_", " "))
    return FieldError(field, message)
