"""Words, tables and JSON for people and tools: the shell formats, it does not decide."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from domain.codec import to_data
from domain.progression import Fact, ranking
from domain.rules import Ruleset
from domain.scoring.payments import pending_extra_hand_bonus
from domain.values import (
    WIND_NAMES,
    AbortiveDraw,
    ExhaustiveDraw,
    MatchEnd,
    Payment,
    Penalty,
    TableState,
    WinResult,
)
from projections.ledger import CorrectionMark, LedgerEntry
from replay.batch import VerifyRun


def seat_wind(seat: int, state: TableState) -> str:
    """The seat wind a player holds in the current hand."""
    return WIND_NAMES[(seat - state.dealer) % state.players]


def describe_fact(fact: Fact, players: Sequence[str]) -> str:
    """A hand result in words, e.g. ``Dai ron on Cho: 2 han 30 fu``."""
    if isinstance(fact, WinResult):
        parts = []
        for win in fact.wins:
            how = "tsumo" if win.discarder is None else f"ron on {players[win.discarder]}"
            pao = f", {players[win.liable]} liable" if win.liable is not None else ""
            parts.append(f"{players[win.winner]} {how}: {win.value.describe()}{pao}")
        text = "; ".join(parts)
    elif isinstance(fact, ExhaustiveDraw):
        ready = ", ".join(players[s] for s in fact.ready) or "nobody"
        text = f"exhaustive draw, ready: {ready}"
        if fact.nagashi:
            text += "; nagashi mangan: " + ", ".join(players[s] for s in fact.nagashi)
    elif isinstance(fact, AbortiveDraw):
        text = "abortive draw: " + fact.kind.value.replace("_", " ")
    elif isinstance(fact, Penalty):
        text = f"penalty ({fact.kind}) on {players[fact.seat]}: {fact.amount}"
        if fact.note:
            text += f" ({fact.note})"
    elif isinstance(fact, MatchEnd):
        text = f"match ended ({fact.reason.replace('_', ' ')})"
    else:
        text = f"deal passed to {players[fact.to_dealer]}"
    riichi = getattr(fact, "riichi", ())
    if riichi:
        text += "; riichi: " + ", ".join(players[s] for s in riichi)
    return text


def describe_payment(p: Payment, players: Sequence[str]) -> str:
    """One payment as ``Cho -> Dai 2000 (hand value: 2 han 30 fu)``."""
    payer = "table" if p.payer is None else players[p.payer]
    payee = "table" if p.payee is None else players[p.payee]
    note = f": {p.note}" if p.note else ""
    return f"{payer} -> {payee} {p.amount} ({p.reason.value}{note})"


def recorded_payments_lines(players: Sequence[str], entries: Sequence[LedgerEntry]) -> list[str]:
    """What the last recorded hand or penalty paid, line by line, and the end it led to, for
    printing after a recording command."""
    last = [i for i, e in enumerate(entries) if e.kind != "end"]
    if not last:
        return []
    recorded = entries[last[-1] :]
    lines = []
    for entry in recorded:
        what = "the end" if entry.kind == "end" else describe_fact(entry.fact, players)
        if not entry.payments and entry.kind == "end":
            continue
        lines.append(f"Recorded at {entry.before.hand_label}: {what}")
        if not entry.payments:
            counted = " (counted off the final points)" if entry.kind == "penalty" else ""
            lines.append(f"  no payments{counted}")
        lines += [f"  {describe_payment(p, players)}" for p in entry.payments]
    return lines


def status_table(players: Sequence[str], state: TableState, title: str) -> Table:
    """Each player's seat wind, score and place."""
    table = Table(title=title)
    table.add_column("seat")
    table.add_column("player")
    table.add_column("wind")
    table.add_column("score", justify="right")
    table.add_column("place", justify="right")
    if state.final_points:
        table.add_column("points", justify="right")
    places = {seat: i + 1 for i, seat in enumerate(ranking(state.scores))}
    for seat, name in enumerate(players):
        row = [str(seat), name, seat_wind(seat, state), f"{state.scores[seat]:,}", str(places[seat])]
        if state.final_points:
            row.append(f"{state.final_points[seat]:+.1f}")
        table.add_row(*row)
    return table


def state_lines(players: Sequence[str], state: TableState, rules: Ruleset) -> list[str]:
    """The table state in words, with the extra-hand bonus pending as the seeds show it."""
    if state.finished:
        head = f"Match over ({state.end_reason.replace('_', ' ')}) after {state.hands_played} hands"
    else:
        head = f"Next hand: {state.hand_name} ({state.hand_label})"
    return [
        head,
        f"Dealer: {players[state.dealer]}",
        f"Counters (honba): {state.counters}",
        f"Deposits on the table: {state.deposits}",
        f"Dealer streak: {state.dealer_streak} (extra hands: {state.extra_hands})",
        f"Dealer's consecutive wins: {state.consecutive_dealer_wins}"
        f" (wins while holding the deal: {state.dealer_wins_this_deal})",
        *_pending_bonus(state, rules),
    ]


def _pending_bonus(state: TableState, rules: Ruleset) -> list[str]:
    if not rules.extra_hand_bonus_enabled or state.finished:
        return []
    pending = pending_extra_hand_bonus(state, rules)
    return [f"Extra-hand bonus pending: {pending} (what each loser pays; the winner gets it from every loser)"]


def state_data(players: Sequence[str], state: TableState, rules: Ruleset) -> dict[str, Any]:
    """The table state for tools (``--json``)."""
    return {
        "hand": state.hand_label,
        "hand_name": state.hand_name,
        "round_wind": WIND_NAMES[state.round_wind % 4],
        "hand_number": state.hand_number,
        "dealer": players[state.dealer],
        "counters": state.counters,
        "deposits": state.deposits,
        "dealer_streak": state.dealer_streak,
        "extra_hands": state.extra_hands,
        "consecutive_dealer_wins": state.consecutive_dealer_wins,
        "dealer_wins_this_deal": state.dealer_wins_this_deal,
        "hands_played": state.hands_played,
        "extra_hand_bonus_pending": pending_extra_hand_bonus(state, rules) if rules.extra_hand_bonus_enabled else None,
        "finished": state.finished,
        "end_reason": state.end_reason or None,
        "scores": dict(zip(players, state.scores, strict=True)),
        "final_points": dict(zip(players, state.final_points, strict=True)) if state.final_points else None,
    }


def ledger_table(
    players: Sequence[str],
    entries: Sequence[LedgerEntry],
    title: str,
    *,
    marks: Mapping[int, CorrectionMark] | None = None,
    lines: Mapping[int, int] | None = None,
) -> Table:
    """The hand-by-hand ledger: table state before, result, payments, changes and scores.

    With ``marks`` an amended entry says what it was and who changed it and why, and a
    voided one is shown struck through with who voided it and why; with ``lines`` a
    ``line`` column gives each entry's line in an exported record file.
    """
    marks = marks or {}
    table = Table(title=title, show_lines=True)
    table.add_column("pos", justify="right", style="dim")
    if lines is not None:
        table.add_column("line", justify="right", style="dim")
    table.add_column("#", justify="right")
    table.add_column("hand")
    table.add_column("dealer")
    table.add_column("result")
    table.add_column("payments")
    for name in players:
        table.add_column(name, justify="right")
    shown = {entry.position for entry in entries}
    rows: list[tuple[int, list[Any]]] = []
    for index, entry in enumerate(entries):
        before = entry.before
        result: Any = describe_fact(entry.fact, players)
        if entry.deal_pass is not None:
            result += f"\n-> deal passes to {players[entry.deal_pass.to_dealer]}"
        mark = marks.get(entry.position) if entry.position is not None else None
        if mark is not None and mark.kind == "amended":
            result = Text(result, style="bold")
            result.append(f"\namended at {mark.correction} by {mark.by}: {mark.reason}", style="italic")
            result.append(f"\nwas: {describe_fact(mark.original, players)}", style="strike")
        payments = "\n".join(describe_payment(p, players) for p in entry.payments) or "-"
        cells = [f"{d:+,}\n{s:,}" for d, s in zip(entry.deltas, entry.after.scores, strict=True)]
        number = str(entry.number) if entry.kind == "hand" else ""
        shown_at = "" if entry.position is None else str(entry.position)
        row: list[Any] = [shown_at, *_line_cell(lines, entry.position), number, before.hand_label]
        row += [players[before.dealer], result, payments, *cells]
        rows.append((entry.position if entry.position is not None else index, row))
    for voided_at, mark in marks.items():
        if mark.kind != "voided" or voided_at in shown:
            continue
        text = Text(describe_fact(mark.original, players), style="strike")
        text.append(f"\nvoided at {mark.correction} by {mark.by}: {mark.reason}", style="italic")
        row = [str(voided_at), *_line_cell(lines, voided_at), "", mark.before.hand_label]
        row += [players[mark.before.dealer], text, "-", *([""] * len(players))]
        rows.append((voided_at, row))
    for _, row in sorted(rows, key=lambda item: item[0]):
        table.add_row(*row)
    return table


def _line_cell(lines: Mapping[int, int] | None, position: int | None) -> list[str]:
    if lines is None:
        return []
    return [str(lines[position]) if position is not None and position in lines else ""]


def ledger_data(players: Sequence[str], entries: Sequence[LedgerEntry]) -> list[dict[str, Any]]:
    """The ledger for tools (``--json``)."""
    out = []
    for entry in entries:
        out.append(
            {
                "number": entry.number,
                "position": entry.position,
                "kind": entry.kind,
                "hand": entry.before.hand_label,
                "dealer": players[entry.before.dealer],
                "counters": entry.before.counters,
                "deposits": entry.before.deposits,
                "result": describe_fact(entry.fact, players),
                "fact": to_data(entry.fact),
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


def log_data(
    players: Sequence[str],
    entries: Sequence[LedgerEntry],
    marks: Mapping[int, CorrectionMark],
    lines: Mapping[int, int],
) -> dict[str, Any]:
    """``honba log --json``: the ledger's hands (each with its ``line`` in an exported file and,
    when amended, its ``correction``), and the ``voided`` entries."""

    def mark_data(mark: CorrectionMark) -> dict[str, Any]:
        return {
            "kind": mark.kind,
            "position": mark.correction,
            "original": describe_fact(mark.original, players),
            "replacement": None if mark.replacement is None else describe_fact(mark.replacement, players),
            "by": mark.by,
            "reason": mark.reason,
            "at": mark.at,
        }

    hands = []
    for line, entry in zip(ledger_data(players, entries), entries, strict=True):
        position = entry.position
        line["line"] = lines.get(position) if position is not None else None
        mark = marks.get(position) if position is not None else None
        line["correction"] = mark_data(mark) if mark is not None else None
        hands.append(line)
    shown = {entry.position for entry in entries}
    voided = [
        {"position": p, "line": lines.get(p), "hand": m.before.hand_label, "correction": mark_data(m)}
        for p, m in sorted(marks.items())
        if m.kind == "voided" and p not in shown
    ]
    return {"hands": hands, "voided": voided}


def print_verify_run(console: Console, run: VerifyRun) -> None:
    """The verify summary, then every disagreement, unsupported game and unreadable file."""
    summary = Table(title="Verification")
    for column in ("files", "games", "hands", "hands agreeing", "disagreements", "unsupported", "unreadable"):
        summary.add_column(column, justify="right")
    data = run.as_dict()
    summary.add_row(
        str(data["files"]),
        str(data["games"]),
        str(data["hands"]),
        str(data["hands_agreeing"]),
        str(len(data["disagreements"])),
        str(len(data["unsupported"])),
        str(len(data["unreadable"])),
    )
    console.print(summary)
    if data["disagreements"]:
        table = Table(title="Disagreements")
        for column in ("file", "game", "hand", "field", "log", "honba"):
            table.add_column(column)
        for d in data["disagreements"]:
            table.add_row(d["file"], d["game"], d["hand"], d["field"], str(d["log"]), str(d["honba"]))
        console.print(table)
    for report in run.reports:
        if report.value_sources:
            taken = ", ".join(f"{count} from the {source}" for source, count in report.value_sources)
            line = f"hand values not in the log, taken {taken}: {report.file} {report.game}"
            console.print(line, markup=False, highlight=False)
    for item in data["unsupported"]:
        console.print(f"unsupported: {item['file']} {item['game']}: {item['reason']}", markup=False, highlight=False)
    for item in data["unreadable"]:
        console.print(f"unreadable: {item['file']}: {item['reason']}", markup=False, highlight=False)
