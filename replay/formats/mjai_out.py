"""A match written as an mjai log (``honba export KEY --format mjai``): JSON Lines, one event a line.

``start_game`` (the names, and honba's rules under ``honba_rules``: mjai names none, honba's
reader takes them back), then per hand ``start_kyoku`` (round wind, hand, counters, sticks,
dealer, scores; the hands dealt and first dora indicator when the match kept its log's tiles),
``reach`` and ``reach_accepted`` for each riichi, the result (``hora`` per winner with its
``deltas``, ``fan`` and ``fu``; ``ryukyoku`` with its ``reason``, ``tenpais`` and ``deltas``)
and ``end_kyoku``; ``end_game`` with the final scores when the match has ended. The changes
follow mjai: a win's own payments (deposits taken included), a draw's noten payments; the
riichi sticks are ``reach_accepted``'s. The draws and discards of the hands are not written:
mjai places every call between them, and a match keeps its tiles in tenhou.net/6's arrays.
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
    for seat in getattr(fact, "riichi", ()):
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
