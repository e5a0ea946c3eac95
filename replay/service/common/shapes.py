"""The plain data the front ends show: a hand in words, the table state, the ledger, the log.

Each function returns strings, numbers, lists and dicts (the JSON shapes of ``--json``, documented
in docs/replay.md and docs/audit.md); the command line prints them, the HTML pages lay them out,
and the audit builds its report from them. Nothing here prints.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from domain.amendments import EndJudgement
from domain.codec import to_data
from domain.match import Match
from domain.progression import Fact
from domain.rules import Ruleset
from domain.said import Listed, Said
from domain.scoring.payments import pending_extra_hand_bonus
from domain.values import (
    ABORT_NAMES,
    WIND_NAMES,
    AbortiveDraw,
    ExhaustiveDraw,
    MatchEnd,
    Payment,
    Penalty,
    TableState,
    WinResult,
)
from projections.entries import EntryNumbers
from projections.ledger import CorrectionMark, LedgerEntry


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """A count with its noun in the right number: ``1 match``, ``2 matches``, ``0 hands``."""
    if count == 1:
        return f"{count} {noun}"
    return f"{count} {plural or _plural(noun)}"


def not_counted_yet(in_progress: int) -> Said:
    """``1 match still in progress does not count yet`` (``2 matches ... do not``), as words (the
    standings page says them in its language)."""
    return Said(
        "{count} match still in progress does not count yet"
        if in_progress == 1
        else "{count} matches still in progress do not count yet",
        count=in_progress,
    )


def _plural(noun: str) -> str:
    head, _, last = noun.rpartition(" ")
    word = last + ("es" if last.endswith(("s", "x", "ch", "sh")) else "s")
    return f"{head} {word}" if head else word


def seat_wind(seat: int, state: TableState) -> str:
    """The seat wind a player holds in the current hand."""
    return WIND_NAMES[(seat - state.dealer) % state.players]


# The ends the rules decide, in words; an early end's reason is already the words typed ("agreed").
_END_WORDS = {
    "time_up": Said("time up"),
    "dealer_stop": Said("dealer stop"),
    "complete": Said("complete"),
    "bust": Said("bust"),
}


def end_reason_words(reason: str) -> str:
    """Why a match ended, in the words every front end says it: ``time up``, ``bust``; an early
    end's own reason as given (``agreed``, ``time limit``)."""
    return str(end_reason_said(reason))


def end_reason_said(reason: str) -> Said | str:
    """``end_reason_words`` as words (``domain.said.Said``); an early end's own reason is data."""
    return _END_WORDS.get(reason, reason)


# The penalties' usual kind as words (an unusual kind typed is data); the abortive draws are the domain's.
PENALTY_WORDS = {"chombo": Said("chombo")}


def describe_fact(fact: Fact, players: Sequence[str], scoring: str = "riichi") -> str:
    """A hand result in words, e.g. ``Dai ron on Cho: 2 han 30 fu``, each value in the words of the
    rules' family (``scoring``, ``Ruleset.scoring``: a Hong Kong limit hand is the ``limit``): the
    English of ``said_fact``."""
    return str(said_fact(fact, players, scoring))


def said_fact(fact: Fact, players: Sequence[str], scoring: str = "riichi") -> Said | Listed:
    """``describe_fact``'s words (``domain.said``): the one place a hand is put in words, which the
    command line prints in English and a page says in its language; names and notes are data."""
    text: Said | Listed
    if isinstance(fact, WinResult):
        parts: list[Said] = []
        for win in fact.wins:
            value = win.value.said(scoring)
            if win.discarder is None:
                part = Said("{winner} tsumo: {value}", winner=players[win.winner], value=value)
            else:
                part = Said(
                    "{winner} ron on {discarder}: {value}",
                    winner=players[win.winner],
                    discarder=players[win.discarder],
                    value=value,
                )
            if win.liable is not None:
                part = Said("{win}, {player} liable", win=part, player=players[win.liable])
            parts.append(part)
        text = Listed(tuple(parts), "; ")
    elif isinstance(fact, ExhaustiveDraw):
        ready = Listed(tuple(players[s] for s in fact.ready), ", ", Said("nobody"))
        text = Said("exhaustive draw, ready: {ready}", ready=ready)
        if fact.nagashi:
            nagashi = Listed(tuple(players[s] for s in fact.nagashi))
            text = Said("{draw}; nagashi mangan: {players}", draw=text, players=nagashi)
    elif isinstance(fact, AbortiveDraw):
        text = Said("abortive draw: {kind}", kind=ABORT_NAMES[fact.kind])
    elif isinstance(fact, Penalty):
        kind = PENALTY_WORDS.get(fact.kind, fact.kind)
        text = Said("penalty ({kind}) on {player}: {amount}", kind=kind, player=players[fact.seat], amount=fact.amount)
        if fact.note:
            text = Said("{penalty} ({note})", penalty=text, note=fact.note)
    elif isinstance(fact, MatchEnd):
        text = Said("match ended ({why})", why=end_reason_said(fact.reason))
    else:
        text = Said("deal passed to {player}", player=players[fact.to_dealer])
    riichi = getattr(fact, "riichi", ())
    if riichi:
        text = Said("{result}; riichi: {players}", result=text, players=Listed(tuple(players[s] for s in riichi)))
    return text


def describe_details(fact: Fact, players: Sequence[str]) -> list[str]:
    """What a game log said of each win of a hand, one line per win, as Tenhou's viewer lists it:
    ``Dai: 立直 1, 門前清自摸和 1; dora 2, red 1, ura 1; 30 fu; winning tile 5p; calls: pon 5p from Cho``."""
    if not isinstance(fact, WinResult):
        return []
    lines = []
    for win in fact.wins:
        d = win.details
        if d is None:
            continue
        parts = [", ".join(f"{y.name} {y.han}" for y in d.yaku) or "no yaku listed"]
        counted = [
            f"{name} {n}" for name, n in (("dora", d.dora), ("red", d.red), ("ura", d.ura), ("kita", d.kita)) if n
        ]
        if counted:
            parts.append(", ".join(counted))
        if d.fu is not None:
            parts.append(f"{d.fu} fu")
        if d.winning_tile is not None:
            parts.append(f"winning tile {d.winning_tile}")
        if d.calls:
            parts.append("calls: " + ", ".join(_named_seats(c, players) for c in d.calls))
        lines.append(f"{players[win.winner]}: " + "; ".join(parts))
    return lines


def _named_seats(text: str, players: Sequence[str]) -> str:
    """``from seat 2`` as the player's name."""
    return re.sub(
        r"from seat (\d)",
        lambda m: f"from {players[int(m.group(1))] if int(m.group(1)) < len(players) else m.group(0)}",
        text,
    )


def details_data(fact: Fact, players: Sequence[str]) -> list[dict[str, Any]]:
    """What a game log said of each win, for tools (``log --json``)."""
    if not isinstance(fact, WinResult):
        return []
    return [{"winner": players[w.winner], **to_data(w.details)} for w in fact.wins if w.details is not None]


def describe_payment(p: Payment, players: Sequence[str]) -> str:
    """One payment as ``Cho -> Dai 2000 (hand value: 2 han 30 fu)``."""
    payer = "table" if p.payer is None else players[p.payer]
    payee = "table" if p.payee is None else players[p.payee]
    note = f": {p.note}" if p.note else ""
    return f"{payer} -> {payee} {p.amount} ({p.reason.value}{note})"


def state_data(players: Sequence[str], state: TableState, rules: Ruleset) -> dict[str, Any]:
    """The table state, computed once for every front end (``honba status`` and its ``--json``,
    the API, the table page): ``counters`` null under rules that use none (classical, Taiwanese);
    ``extra_hand_bonus_pending`` the bonus in force for the next hand as seed 000's status bar
    shows it (the bonus itself, not multiplied by the losers; null where the rules have none, or
    once the match is over: no hand is next) and ``extra_hand_bonus_note`` how it is paid."""
    pending = rules.extra_hand_bonus_enabled and not state.finished
    return {
        "hand": state.hand_label,
        "hand_name": state.hand_name,
        "round_wind": WIND_NAMES[state.round_wind % 4],
        "hand_number": state.hand_number,
        "dealer": players[state.dealer],
        "counters": state.counters if state.counters_shown else None,
        "deposits": state.deposits,
        "dealer_streak": state.dealer_streak,
        "extra_hands": state.extra_hands,
        "consecutive_dealer_wins": state.consecutive_dealer_wins,
        "dealer_wins_this_deal": state.dealer_wins_this_deal,
        "hands_played": state.hands_played,
        "extra_hand_bonus_pending": pending_extra_hand_bonus(state, rules) if pending else None,
        "extra_hand_bonus_note": extra_hand_bonus_note(rules) if pending else None,
        "finished": state.finished,
        "end_reason": state.end_reason or None,
        "scores": dict(zip(players, state.scores, strict=True)),
        "final_points": dict(zip(players, state.final_points, strict=True)) if state.final_points else None,
    }


def extra_hand_bonus_note(rules: Ruleset) -> str:
    """How the pending extra-hand bonus is paid, in words (seed 000): the figure is the bonus
    itself; in Japanese games the winner gets it from every loser (three times it, or all of it
    from the discarder), in Taiwanese games three times it only when East wins self-drawn."""
    losers = rules.players - 1
    if rules.extra_hand_bonus_from_east:
        return (
            f"East winning gets it from each loser self-drawn ({losers} times it), from the discarder alone on a"
            " discard; another winner gets it from East alone, self-drawn or on East's discard"
        )
    winner = "the winner" if rules.extra_hand_bonus_any_winner else "the dealer winning"
    if rules.loser_payment == "discarder_pays_all":
        return f"{winner} gets {losers} times it: from each loser self-drawn, all from the discarder on a discard"
    if rules.loser_payment == "discarder_pays_alone":
        return f"{winner} gets it from each loser self-drawn ({losers} times it), from the discarder alone on a discard"
    return f"{winner} gets it from every loser ({losers} times it)"


def ledger_data(
    players: Sequence[str], entries: Sequence[LedgerEntry], numbers: EntryNumbers, scoring: str = "riichi"
) -> list[dict[str, Any]]:
    """The ledger for tools (``--json``): ``entry`` is the entry's number (its line in the
    exported record file, none for an end the rules decided), ``number`` the hand's count;
    results in the words of the rules' family (``scoring``)."""
    out = []
    for entry in entries:
        out.append(
            {
                "number": entry.number,
                "entry": numbers.number(entry.position),
                "kind": entry.kind,
                "hand": entry.before.hand_label,
                "dealer": players[entry.before.dealer],
                # None under rules that use no counters, as in the table state (``state_data``).
                "counters": entry.before.counters if entry.before.counters_shown else None,
                "deposits": entry.before.deposits,
                "result": describe_fact(entry.fact, players, scoring),
                "fact": to_data(entry.fact),
                # What the game log said of each win (yaku with han, dora, fu, winning tile, calls).
                "log_says": describe_details(entry.fact, players),
                "log_details": details_data(entry.fact, players),
                "payments": [
                    {
                        "payer": None if p.payer is None else players[p.payer],
                        "payee": None if p.payee is None else players[p.payee],
                        "amount": p.amount,
                        "reason": p.reason.value,
                        "note": p.note,
                    }
                    for p in entry.payments
                ],
                "changes": dict(zip(players, entry.deltas, strict=True)),
                "scores_after": dict(zip(players, entry.after.scores, strict=True)),
                "deal_passed_to": None if entry.deal_pass is None else players[entry.deal_pass.to_dealer],
            }
        )
    return out


def clock_entries(match: Match, numbers: EntryNumbers) -> list[dict[str, Any]]:
    """The clock's events of a match (``domain.clock``), for the log and the audit: ``[{"position",
    "after_entry" (the number of the last entry before it: clock events have no line in a record
    file, hence no number of their own), "kind" (limit, started, added, up), "text"}]``."""
    out = []
    for position, note in match.clock_log:
        before = [n for p, n in numbers.by_position.items() if p < position]
        out.append(
            {"position": position, "after_entry": max(before, default=1), "kind": note.kind, "text": note.describe()}
        )
    return out


def end_judgement_data(judgement: EndJudgement, numbers: EntryNumbers) -> dict[str, Any]:
    """Where the corrected history judges the end otherwise (``honba status --json``'s
    ``end_rejudged``): the hand's label, its ``entry`` number, the end as played and as
    corrected (None: the match goes on), and whether that hand is now void."""
    return {
        "hand": judgement.hand,
        "entry": numbers.number(judgement.position),
        "as_played": judgement.as_played,
        "corrected": judgement.corrected,
        "voided": judgement.voided,
        "text": judgement.describe(),
    }


def log_data(
    players: Sequence[str],
    entries: Sequence[LedgerEntry],
    marks: Mapping[int, CorrectionMark],
    numbers: EntryNumbers,
    scoring: str = "riichi",
) -> dict[str, Any]:
    """``honba log --json``: the ledger's hands (each with its ``entry`` number, the line in an
    exported file, and, when amended, its ``correction``), and the ``voided`` entries. A
    correction is named by its own entry number."""

    def mark_data(mark: CorrectionMark) -> dict[str, Any]:
        return {
            "kind": mark.kind,
            "entry": numbers.number(mark.correction),
            "original": describe_fact(mark.original, players, scoring),
            "replacement": None if mark.replacement is None else describe_fact(mark.replacement, players, scoring),
            "by": mark.by,
            "reason": mark.reason,
            "at": mark.at,
        }

    hands = []
    for line, entry in zip(ledger_data(players, entries, numbers, scoring), entries, strict=True):
        mark = marks.get(entry.position) if entry.position is not None else None
        line["correction"] = mark_data(mark) if mark is not None else None
        hands.append(line)
    shown = {entry.position for entry in entries}
    voided = [
        {"entry": numbers.number(p), "hand": m.before.hand_label, "correction": mark_data(m)}
        for p, m in sorted(marks.items())
        if m.kind == "voided" and p not in shown
    ]
    return {"hands": hands, "voided": voided}
