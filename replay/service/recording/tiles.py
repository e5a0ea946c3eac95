"""A win entered by its tiles: han, fu and the yaku worked out from the hand, not by the players.

The tiles are written as tenhou.net and most riichi tools write them: digits followed by their
suit, ``123m456p789s11z`` (``m`` characters, ``p`` circles, ``s`` bamboos, ``z`` honours: 1z-4z
the winds East, South, West, North, 5z-7z the dragons white, green, red), ``0`` for a red five
(``0p``). A hand is its concealed tiles with the winning tile among them; each call apart:
``chi:345m``, ``pon:777z``, ``kan:1111p`` (an open kong), ``ankan:2222s`` (a concealed one),
``kakan:5555m`` (a pon added to). The dora and ura dora are given by their indicators. What was
typed is read by ``replay.input.tiles`` (``HandTiles``); here it is valued and recorded.

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

from collections.abc import Sequence
from typing import Any, cast

import attrs

from domain.errors import HonbaError
from domain.match import Match
from domain.rules import Ruleset
from domain.said import Field, Listed, Said, listed
from domain.scoring.riichi import base_points
from domain.values import HandValue, TableState, WinDetails, WinFacts, WinResult
from replay.formats.valuation import TileReading, UnreadableHand, WinContext, read_tiles
from replay.input.entry import FLAG_KEYS, NO_VALUE, Entry, HandPenaltyEntry, WinEntry, result_of
from replay.input.parsing import InputError, parse_value
from replay.input.tiles import HandTiles, notation, refused
from replay.service.recording.entry import fact_at
from replay.service.recording.recording import ForHand, Recorded, record
from replay.store.application import HonbaApp


@attrs.frozen
class TileValue:
    """What the tiles of a win are worth: the value to record, the details to keep with the win,
    and a warning when a value typed as well differs from the tiles' (the typed one is recorded)."""

    value: HandValue
    details: WinDetails
    from_tiles: HandValue
    warning: Said | None = None

    def data(self) -> dict[str, Any]:
        """Plain data for a page or a tool: ``{"value", "han", "fu", "limit", "tiles_value",
        "yaku": [{"name", "han"}], "dora", "red", "ura", "warning"}`` (the values and the warning as
        words, ``domain.said``: their ``str()`` the English)."""
        return {
            "value": self.value.said(),
            "han": self.from_tiles.han,
            "fu": self.details.fu,
            "limit": self.from_tiles.limit,
            "tiles_value": self.from_tiles.said(),
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
        raise InputError(
            Said("a hand is valued from its tiles under riichi rules only, not under {rules}", rules=rules.name)
        )
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
        raise refused("--hand", exc.said) from None
    counted = attrs.evolve(reading.details, calls=details_calls(tiles))
    # The han from dora count toward the payment, not toward a minimum (``HandValue.dora``).
    dora = counted.dora + counted.red + counted.ura + counted.kita
    from_tiles = attrs.evolve(reading.value, dora=dora or None) if reading.value.han is not None else reading.value
    if typed is None or _pays_alike(typed, from_tiles, rules):
        # A typed value that pays what the tiles pay (``5han`` for a mangan, say) says the same:
        # the tiles' is kept, with its dora.
        return TileValue(from_tiles, counted, from_tiles)
    warning = Said(
        "the tiles give {tiles} ({yaku}), not {typed} as typed: {typed} is recorded",
        tiles=from_tiles.said(),
        yaku=yaku_said(counted),
        typed=typed.said(),
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
    """The yaku and dora of a win in one line: ``立直 1, 断幺九 1; dora 2`` (``yaku_said``'s English)."""
    return str(yaku_said(details))


def yaku_said(details: WinDetails) -> Listed:
    """``describe_yaku``'s words: the yaku by their names (Tenhou's, data), then the dora counted."""
    yaku = [f"{y.name} {y.han}" for y in details.yaku]
    counts = (
        (Said("dora {count}", count=details.dora), details.dora),
        (Said("red {count}", count=details.red), details.red),
        (Said("ura {count}", count=details.ura), details.ura),
    )
    counted = [said for said, n in counts if n]
    parts: list[Field] = [listed(yaku)] if yaku else []
    if counted:
        parts.append(listed(counted))
    return listed(parts, "; ")


def details_calls(tiles: HandTiles) -> tuple[str, ...]:
    """The winner's calls as ``WinDetails.calls`` writes them (``pon 7z``, ``chi 3m4m5m``, ``kan 1p (concealed)``)."""
    out = []
    for call in tiles.calls:
        first = notation(call.tiles[0])
        if call.kind == "chi":
            out.append("chi " + "".join(notation(t) for t in call.tiles))
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
        raise InputError(
            Said("{hand} gives one winner's tiles: name one winner (record a double ron by value)", hand="--hand")
        )
    (win,) = won.wins
    declared = won.riichi
    if (tiles.riichi or tiles.double_riichi) and win.winner not in declared:
        declared = (*declared, win.winner)
    facts = win.facts
    flagged = attrs.evolve(
        tiles,
        riichi=tiles.riichi or win.winner in declared,
        facts=attrs.evolve(
            tiles.facts, **cast(dict[str, Any], {flag: True for flag in FLAG_KEYS if getattr(facts, flag)})
        ),
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
        raise InputError(Said("{hand} gives the tiles of a win", hand="--hand"))
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
