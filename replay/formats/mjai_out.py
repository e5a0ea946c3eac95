"""A match written as an mjai log (``honba export KEY --format mjai``): JSON Lines, one event a line.

``start_game`` (the names, and honba's rules under ``honba_rules``: mjai names none, honba's
reader takes them back), then per hand ``start_kyoku`` (round wind, hand, counters, sticks,
dealer, scores; the hands dealt and first dora indicator when the match kept its log's tiles),
``reach`` and ``reach_accepted`` for each riichi, the result (``hora`` per winner with its
``deltas``, ``fan`` and ``fu``; ``ryukyoku`` with its ``reason``, ``tenpais`` and ``deltas``)
and ``end_kyoku``; ``end_game`` with the final scores when the match has ended. The changes
follow mjai: a win's own payments (deposits taken included), a draw's noten payments; the
riichi sticks are ``reach_accepted``'s. When the match kept its log's tiles (tenhou.net/6's
arrays), each hand's play is written between its start and its result (``play_events``): the
draws (``tsumo``), discards (``dahai``), calls (``chi``, ``pon``, ``daiminkan``, ``ankan``,
``kakan``, ``nukidora``), each ``reach`` before its discard and ``reach_accepted`` after it when it
stood, and ``dora`` as each kan turns an indicator; else only the riichi are written.
"""

from __future__ import annotations

import json
from typing import Any, Final

from domain.match import Match
from domain.values import AbortiveDraw, AbortKind, ExhaustiveDraw, MatchEnd, Penalty, WinResult
from projections.ledger import LedgerEntry, corrected_ledger
from replay.formats.tenhou_json_out import ExportError, logged_tiles

WINDS: Final = "ESWN"
ABORT_REASONS: Final = {
    AbortKind.NINE_TERMINALS: "kyushukyuhai",
    AbortKind.FOUR_WINDS: "sufonrenta",
    AbortKind.FOUR_RIICHI: "suchareach",
    AbortKind.FOUR_KONGS: "sukaikan",
    AbortKind.TRIPLE_RON: "sanchaho",
}
# A limit hand written as the han that reach it (a reader values 5 han and more by the han alone).
LIMIT_HAN: Final = {"mangan": 5, "haneman": 6, "baiman": 8, "sanbaiman": 11}
HONORS: Final = "ESWNPFC"


def export_mjai(match: Match) -> str:
    """The match as mjai JSON Lines."""
    players = len(match.players)
    tiles = logged_tiles(match)
    events: list[dict[str, Any]] = [
        {"type": "start_game", "names": list(match.players), "honba_rules": match.rules.to_dict()}
    ]
    hands = 0
    for entry in corrected_ledger(match.corrected_steps()):
        if isinstance(entry.fact, Penalty):
            raise ExportError(
                f"match {match.key!r}: hand {entry.before.hand_label} has a penalty, which an mjai log cannot hold"
            )
        if isinstance(entry.fact, MatchEnd):
            continue
        events += _hand(entry, players, match, tiles[hands] if hands < len(tiles) else None)
        hands += 1
    state = match.fold()
    if state.finished:
        events.append({"type": "end_game", "scores": list(state.scores)})
    return "".join(json.dumps(event, ensure_ascii=False) + "\n" for event in events)


def mjai_tile(code: int) -> str:
    """A tile of tenhou.net/6's codes (11 to 47, 51 to 53 the red fives) in mjai's names."""
    if code in (51, 52, 53):
        return f"5{'mps'[code - 51]}r"
    if 41 <= code <= 47:
        return HONORS[code - 41]
    return f"{code % 10}{'mps'[code // 10 - 1]}"


def _hand(entry: LedgerEntry, players: int, match: Match, tiles: Any) -> list[dict[str, Any]]:
    before = entry.before
    fact = entry.fact
    deposit = match.rules.riichi_deposit
    start: dict[str, Any] = {
        "type": "start_kyoku",
        "bakaze": WINDS[before.round_wind % 4],
        "kyoku": before.dealer + 1,
        "honba": before.counters,
        "kyotaku": before.deposits // deposit if deposit else 0,
        "oya": before.dealer,
        "scores": list(before.scores),
    }
    if isinstance(tiles, list) and len(tiles) == 14:
        dealt = [tiles[2 + 3 * seat] for seat in range(players)]
        if all(isinstance(hand, list) and all(isinstance(t, int) for t in hand) for hand in dealt):
            start["tehais"] = [[mjai_tile(t) for t in hand] for hand in dealt]
        if isinstance(tiles[0], list) and tiles[0] and isinstance(tiles[0][0], int):
            start["dora_marker"] = mjai_tile(tiles[0][0])
    events = [start]
    stood = tuple(getattr(fact, "riichi", ()))
    play = None
    # A log seen from one seat (Tenhou's wire logs) hides the others' tiles: no play to follow then.
    if "tehais" in start and all(len(hand) == 13 for hand in start["tehais"]):
        try:
            play = play_events(tiles, players, before.dealer, stood)
        except (ValueError, TypeError, IndexError, StopIteration):
            play = None  # arrays that cannot be followed: the hand as without its tiles
    if play is not None:
        events += play
    else:
        for seat in stood:
            events += [{"type": "reach", "actor": seat}, {"type": "reach_accepted", "actor": seat}]
    placed = [0] * players
    for payment in entry.payments:
        if payment.payee is None and payment.payer is not None:
            placed[payment.payer] += payment.amount
    if isinstance(fact, WinResult):
        for win in fact.wins:
            changes = [0] * players
            for payment in entry.payments:
                if payment.payee == win.winner:
                    changes[win.winner] += payment.amount
                    if payment.payer is not None:
                        changes[payment.payer] -= payment.amount
            hora: dict[str, Any] = {
                "type": "hora",
                "actor": win.winner,
                "target": win.winner if win.discarder is None else win.discarder,
                "deltas": changes,
            }
            if play is not None and isinstance(tiles[1], list) and tiles[1] and win.winner in stood:
                hora["ura_markers"] = [mjai_tile(t) for t in tiles[1] if isinstance(t, int)]
            value = win.value
            if value.limit == "yakuman":
                hora["fan"] = 13 * value.multiple
                hora["yakus"] = [["yakuman", 13 * value.multiple]]
            elif value.limit is not None:
                hora["fan"] = LIMIT_HAN[value.limit]
            else:
                hora["fan"] = value.han
                if value.fu is not None:
                    hora["fu"] = value.fu
            events.append(hora)
    else:
        changes = [d + s for d, s in zip(entry.deltas, placed, strict=False)]
        draw: dict[str, Any] = {"type": "ryukyoku", "deltas": changes}
        if isinstance(fact, ExhaustiveDraw):
            draw["reason"] = "nagashimangan" if fact.nagashi else "fanpai"
            draw["tenpais"] = [seat in fact.ready for seat in range(players)]
        elif isinstance(fact, AbortiveDraw):
            if fact.kind not in ABORT_REASONS:
                raise ExportError(f"hand {before.hand_label}: an abortive draw of no kind mjai names")
            draw["reason"] = ABORT_REASONS[fact.kind]
        events.append(draw)
    events.append({"type": "end_kyoku"})
    return events


def _codes(digits: str) -> list[int]:
    """A call string's tiles (two digits each)."""
    return [int(digits[i : i + 2]) for i in range(0, len(digits), 2)]


def _call(text: str, letter: str) -> tuple[int, list[int], int]:
    """A tenhou.net/6 call string read: the called (or added) tile, the others, and where the letter
    stood (its tile's place: first, second, third or fourth)."""
    at = text.index(letter)
    tiles = _codes(text[:at] + text[at + 1 :])
    place = at // 2
    return tiles[place], tiles[:place] + tiles[place + 1 :], place


def _source(place: int, size: int, seat: int, players: int, discarder: int | None) -> int:
    """The seat a pon or open kan was called from: the letter first from the left (kamicha),
    second across (toimen), last from the right (shimocha). In sanma writers place the letter
    differently (Tenhou's JSON in the four seats' geometry, its mjlog's converters by the left and
    the right): the call there is of the tile just discarded, by whoever discarded it."""
    if players == 3:
        if discarder is None:
            raise ValueError("a call with no discard before it")
        return discarder
    relative = 1 if place == 0 else 3 if place == size - 1 else 2
    return (seat - relative) % 4


def play_events(tiles: list[Any], players: int, dealer: int, stood: tuple[int, ...]) -> list[dict[str, Any]]:
    """A hand's draws, discards, calls, riichi and new dora indicators as mjai events, from its
    tenhou.net/6 arrays: each seat's draws (a tile, or a call string ``c``/``p``/``m`` with the
    called tile after its letter) and discards (a tile, 60 the tile just drawn, ``r`` a riichi's,
    ``a``/``k`` a closed or added kan, ``f`` a north, 0 the place of an open kan). Play passes to the
    seat whose next draw calls the tile discarded (a pon or kan before a chi), else to the next seat;
    the hand ends where the arrays do. ``stood``: the seats whose riichi stood (accepted)."""
    takes = [list(tiles[3 + 3 * seat]) for seat in range(players)]
    drops = [list(tiles[4 + 3 * seat]) for seat in range(players)]
    indicators = list(tiles[0])[1:]
    events: list[dict[str, Any]] = []
    seat = dealer
    drawn: int | None = None
    discarder: int | None = None
    pending_dora = 0

    def reveal() -> None:
        if indicators:
            events.append({"type": "dora", "dora_marker": mjai_tile(indicators.pop(0))})

    while takes[seat]:
        take = takes[seat].pop(0)
        if isinstance(take, int):
            drawn = take
            events.append({"type": "tsumo", "actor": seat, "pai": mjai_tile(take)})
        else:
            letter = next(ch for ch in str(take) if ch in "cpm")
            called, others, place = _call(str(take), letter)
            kind = {"c": "chi", "p": "pon", "m": "daiminkan"}[letter]
            target = (
                (seat - 1) % players if letter == "c" else _source(place, len(others) + 1, seat, players, discarder)
            )
            events.append(
                {
                    "type": kind,
                    "actor": seat,
                    "target": target,
                    "pai": mjai_tile(called),
                    "consumed": [mjai_tile(t) for t in others],
                }
            )
            drawn = None
            if letter == "m":
                if drops[seat] and drops[seat][0] == 0:
                    drops[seat].pop(0)
                pending_dora += 1
                continue  # the replacement draw is the seat's next draw
        # The seat's turn: kans and norths draw again, a discard passes play on.
        while drops[seat]:
            drop = drops[seat].pop(0)
            text = str(drop)
            if "a" in text:
                added, others, _ = _call(text, "a")
                events.append({"type": "ankan", "actor": seat, "consumed": [mjai_tile(t) for t in [*others, added]]})
                reveal()
                break
            if "k" in text:
                added, others, _ = _call(text, "k")
                events.append(
                    {
                        "type": "kakan",
                        "actor": seat,
                        "pai": mjai_tile(added),
                        "consumed": [mjai_tile(t) for t in others],
                    }
                )
                pending_dora += 1
                break
            if text.startswith("f"):
                events.append({"type": "nukidora", "actor": seat, "pai": "N"})
                break
            riichi = text.startswith("r")
            tile = int(text[1:]) if riichi else int(text)
            tsumogiri = tile == 60
            if tsumogiri:
                if drawn is None:
                    raise ValueError("a discard of the tile drawn with none drawn")
                tile = drawn
            if riichi:
                events.append({"type": "reach", "actor": seat})
            events.append({"type": "dahai", "actor": seat, "pai": mjai_tile(tile), "tsumogiri": tsumogiri})
            for _ in range(pending_dora):
                reveal()
            pending_dora = 0
            if riichi and seat in stood:
                events.append({"type": "reach_accepted", "actor": seat})
            discarder = seat
            seat = _next_seat(takes, seat, tile, players)
            break
        else:
            break
    return events


def _next_seat(takes: list[list[Any]], discarder: int, tile: int, players: int) -> int:
    """Who plays after a discard: a seat whose next draw calls it (a pon or kan first), else the next."""
    chi: int | None = None
    for offset in range(1, players):
        seat = (discarder + offset) % players
        if not takes[seat] or isinstance(takes[seat][0], int):
            continue
        text = str(takes[seat][0])
        letter = next((ch for ch in text if ch in "cpm"), None)
        if letter is None:
            continue
        called, others, place = _call(text, letter)
        if called != tile:
            continue
        if letter == "c":
            if offset == 1:
                chi = seat
        elif _source(place, len(others) + 1, seat, players, discarder) == discarder:
            return seat
    return chi if chi is not None else (discarder + 1) % players
