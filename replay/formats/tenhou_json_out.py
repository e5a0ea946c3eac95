"""A match written as a tenhou.net/6 JSON log (``honba export KEY --format tenhou-json``).

The log holds what the match holds: each hand's header (round and dealer, counters,
deposit sticks, scores), its result and its score changes, and the final scores and
points when the match has ended. A match imported from a log gives back the same
hands, with their tiles (dora and ura indicators, hands dealt, draws, discards) when the
log had them (they are kept in the match's ``source``; a corrected match leaves them out); a
match recorded by hand gives its results, its tile arrays empty except one riichi discard
(``r60``, a discard from the draw) for each player who declared. The changes follow
Tenhou's JSON: a win's own changes (the deposits taken included, the sticks placed in the
hand left out), a draw's noten payments; a win's value
string is the bare hand value as each payer pays it (``満貫2000-4000点``), by the domain's
own payments.

The match's rules go with it in ``rule.honba``, and an early end's reason (a time
limit) in ``rule.honba_end``. honba's reader takes them as the rules the log states:
``honba verify`` reads the file back under the same rules and agrees with it hand by
hand. Tenhou's viewer ignores both keys.
"""

from __future__ import annotations

import json
from typing import Any, Final

import attrs

from domain.errors import HonbaError
from domain.match import Match
from domain.rules import Ruleset
from domain.scoring.payments import settle
from domain.scoring.riichi import base_points
from domain.values import (
    AbortiveDraw,
    ExhaustiveDraw,
    HandValue,
    MatchEnd,
    Penalty,
    Reason,
    TableState,
    Win,
    WinResult,
)
from projections.ledger import LedgerEntry, corrected_ledger
from replay.formats.tenhou_vocab import ABORT_WORDS, LIMIT_WORDS

DECLARED: Final = "r60"  # a riichi declaration discarding the tile just drawn
DISCARD: Final = 60  # a discard from the draw


class ExportError(HonbaError):
    """A match that a tenhou.net/6 log cannot hold (a penalty, an abortive draw of no Tenhou kind)."""


def export_tenhou_json(match: Match) -> str:
    """The match as one tenhou.net/6 JSON game, on one line."""
    entries = corrected_ledger(match.corrected_steps())
    players = len(match.players)
    log = []
    ended_early: str | None = None
    tiles = logged_tiles(match)
    hands = 0
    for entry in entries:
        if isinstance(entry.fact, Penalty):
            raise ExportError(
                f"match {match.key!r}: hand {entry.before.hand_label} has a penalty, "
                "which a tenhou.net/6 log cannot hold"
            )
        if isinstance(entry.fact, MatchEnd):
            ended_early = entry.fact.reason
            continue
        log.append(_kyoku(entry, players, match.rules, tiles[hands] if hands < len(tiles) else None))
        hands += 1
    state = match.fold()
    rules = match.rules
    east = rules.length == "east"
    document: dict[str, Any] = {
        "title": ["honba", match.rules.name],
        "name": [*match.players, *[""] * (4 - players)],
        "rule": {
            "disp": f"{'三' if players == 3 else ''}{'東' if east else '南'}喰赤",
            "aka": 1,
            "honba": rules.to_dict(),
        },
        "ref": match.key,
        "log": log,
    }
    if ended_early is not None:
        # Ended before the rules end it (a time limit): a reader settles it where the log ends.
        document["rule"]["honba_end"] = ended_early
    if state.finished and state.final_points:
        sc: list[float] = []
        for seat in range(4):
            if seat < players:
                sc += [state.scores[seat], float(state.final_points[seat])]
            else:
                sc += [0, 0]
        document["sc"] = sc
    return json.dumps(document, ensure_ascii=False) + "\n"


def logged_tiles(match: Match) -> list[Any]:
    """Each hand's tiles as the log it was imported from had them (``source.tiles``, in the log's
    order), or none: a match recorded by hand has none, and a corrected match's hands are no
    longer the log's, so its tiles are left out."""
    tiles = match.source.get("tiles")
    if not isinstance(tiles, list) or match.correction_log:
        return []
    return tiles


def _kyoku(entry: LedgerEntry, players: int, rules: Ruleset, tiles: Any = None) -> list[Any]:
    before = entry.before
    deposit = entry.before.deposits
    fact = entry.fact
    riichi = set(getattr(fact, "riichi", ()))
    # The sticks on the table, counted in the rules' riichi stick.
    sticks_value = rules.riichi_deposit
    header = [before.round_wind * 4 + before.dealer, before.counters, deposit // sticks_value if sticks_value else 0]
    scores = [*before.scores, *[0] * (4 - players)]
    if isinstance(tiles, list) and len(tiles) == 14 and all(isinstance(array, list) for array in tiles):
        # The log's own tiles: indicators, then each seat's haipai, draws and discards.
        return [header, scores, *tiles, _result(entry, players, rules)]
    hands: list[Any] = []
    for seat in range(4):
        discards: list[Any] = [DECLARED, DISCARD] if seat in riichi else []
        hands += [[], [], discards]
    return [header, scores, [], [], *hands, _result(entry, players, rules)]


def _result(entry: LedgerEntry, players: int, rules: Ruleset) -> list[Any]:
    fact = entry.fact
    placed = [0] * 4
    for p in entry.payments:
        if p.payee is None and p.payer is not None:
            placed[p.payer] += p.amount
    if isinstance(fact, WinResult):
        out: list[Any] = ["和了"]
        for win in fact.wins:
            changes = [0] * 4
            for p in entry.payments:
                if p.payee == win.winner:
                    changes[win.winner] += p.amount
                    if p.payer is not None:
                        changes[p.payer] -= p.amount
            discarder = win.winner if win.discarder is None else win.discarder
            liable = win.winner if win.liable is None else win.liable
            out += [changes, [win.winner, discarder, liable, *_value(win, entry.before, rules)]]
        return out
    changes = [*(d + s for d, s in zip(entry.deltas, placed, strict=False)), *[0] * (4 - players)]
    if isinstance(fact, ExhaustiveDraw):
        if fact.nagashi:
            return ["流し満貫", changes]
        if len(fact.ready) == players:
            return ["全員聴牌", changes]
        if not fact.ready:
            return ["全員不聴", changes]
        return ["流局", changes]
    if isinstance(fact, AbortiveDraw):
        word = ABORT_WORDS.get(fact.kind)
        if word is None:
            raise ExportError(f"hand {entry.before.hand_label}: an abortive draw of no kind Tenhou names")
        return [word]
    raise ExportError(f"hand {entry.before.hand_label}: {type(fact).__name__} cannot be written")  # pragma: no cover


def _value(win: Win, before: TableState, rules: Ruleset) -> list[str]:
    """The value string and the yaku list, as Tenhou's JSON writes them and honba's reader reads them.

    The value string is the bare hand value as each payer pays it (Tenhou's own exports, in the
    corpus beside their XML): ``30符1飜1000点`` on a ron, ``満貫2000-4000点`` for a non-dealer's
    self-drawn win (the non-dealers' share, the dealer's), ``30符1飜500点∀`` for the dealer's
    (each pays). A hand reaching a limit is named by it, a counted yakuman as ``役満`` too.
    """
    value: HandValue = win.value
    listed = _yaku_entries(win)
    paid = _shares(win, before, rules)
    reached = value.limit if value.limit is not None else _limit_reached(value, rules)
    if value.limit == "yakuman":
        named = [e for e in listed if e.endswith("(役満)")]
        entries = named if len(named) == value.multiple else ["役満(役満)"] * value.multiple
        return [f"役満{paid}", *entries]
    han = value.han or 0
    if reached == "yakuman":
        # A counted yakuman: Tenhou writes 役満 and lists the yaku with their han.
        entries = listed if _han_of(listed) == han else [f"han({han}飜)"]
        return [f"役満{paid}", *entries]
    if reached in LIMIT_WORDS:
        return [f"{LIMIT_WORDS[reached]}{paid}", *listed]
    fu = f"{value.fu}符" if value.fu is not None else ""
    return [f"{fu}{han}飜{paid}", *listed]


def _limit_reached(value: HandValue, rules: Ruleset) -> str | None:
    """The limit a riichi hand of han and fu reaches (a 5 han hand is a mangan), by the domain's table."""
    if rules.scoring != "riichi" or value.han is None:
        return None
    return base_points(value, rules).limit


def _shares(win: Win, before: TableState, rules: Ruleset) -> str:
    """What each loser pays for the hand's value alone, as Tenhou writes it (``1000-2000点``,
    ``500点∀``, ``3900点``): the domain's own payments of the win without counters, deposits,
    bonuses, penalties or a liable player."""
    bare = attrs.evolve(win, liable=None, facts=attrs.evolve(win.facts, penalties=()))
    table = attrs.evolve(
        before, counters=0, deposits=0, extra_hands=0, kitty_pending=0, goulash_pending=0, goulash_deal=False
    )
    paid: dict[int, int] = {}
    for payment in settle(WinResult((bare,)), table, rules).payments:
        if payment.reason is Reason.HAND and payment.payee == win.winner and payment.payer is not None:
            paid[payment.payer] = paid.get(payment.payer, 0) + payment.amount
    if not win.self_drawn:
        return f"{sum(paid.values())}点"
    if win.winner == before.dealer:
        return f"{max(paid.values(), default=0)}点∀"
    dealer = paid.get(before.dealer, 0)
    others = [amount for seat, amount in paid.items() if seat != before.dealer]
    return f"{max(others, default=0)}-{dealer}点"


def _yaku_entries(win: Win) -> list[str]:
    d = win.details
    if d is None:
        return []
    entries = [f"{y.name}(役満)" if y.han >= 13 else f"{y.name}({y.han}飜)" for y in d.yaku]
    for name, count in (("ドラ", d.dora), ("赤ドラ", d.red), ("裏ドラ", d.ura), ("抜きドラ", d.kita)):
        if count:
            entries.append(f"{name}({count}飜)")
    return entries


def _han_of(entries: list[str]) -> int:
    total = 0
    for entry in entries:
        if entry.endswith("飜)"):
            total += int(entry[entry.rindex("(") + 1 : -2])
    return total
