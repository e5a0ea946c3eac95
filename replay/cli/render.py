"""Words, tables and JSON for people and tools: the shell formats, it does not decide."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from domain.progression import ranking
from domain.rules import Ruleset
from domain.said import Listed, Said
from domain.values import (
    TableState,
)
from projections.entries import EntryNumbers
from projections.ledger import CorrectionMark, LedgerEntry
from replay.cli.layout import Cell, Column, Grid
from replay.service.audit.digests import Digest, published
from replay.service.common.shapes import (
    counted,
    describe_details,
    describe_fact,
    describe_payment,
    end_reason_words,
    ledger_data,
    seat_wind,
    state_data,
)
from replay.service.recording.changes import Change, change_headline
from replay.service.recording.matches import MatchStatus
from replay.service.recording.recording import Recorded

# Characters that text from data (names, keys, notes, reasons, handles) may not bring to a
# terminal: C0 controls but newline and tab (escape sequences, carriage returns that overwrite
# a line), DEL and the C1 controls (0x9b starts an escape sequence on some terminals), the
# line and paragraph separators, and the bidirectional overrides that reorder what is shown.
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# What JSON output writes as \\u escapes although ``ensure_ascii=False`` would leave it raw.
_JSON_ESCAPED = re.compile("[\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """Text as it may reach a terminal: control characters, separators and bidi overrides removed."""
    return _UNPRINTABLE.sub("", text)


def json_text(data: Any) -> str:
    """JSON for tools: UTF-8 text kept as it is, but the characters a terminal or a line reader
    would act on (C1 controls, line separators, bidi overrides) written as ``\\u`` escapes. What
    the service gives as words (``domain.said.Said``: a damaged match's line) is its English."""
    text = json.dumps(data, ensure_ascii=False, default=_english)
    return _JSON_ESCAPED.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _english(value: object) -> str:
    # Words are the one kind of value JSON for tools is given as their English; anything else
    # that is not JSON is a bug, refused as ``json.dumps`` refuses it.
    if isinstance(value, Said | Listed):
        return str(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


class SafeConsole(Console):
    """A console that prints every string as text: never console markup (``[bold]``, ``[/``,
    ``[link=...]``), never emoji codes, never highlighting, and without the characters
    ``printable`` removes. Every string printed goes through ``render_str``: a line, a table's
    title, a cell; so names from the data cannot restyle, hide or break the output."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(markup=False, emoji=False, highlight=False, **kwargs)

    def render_str(self, text: str, **kwargs: Any) -> Text:
        """The string as plain text, whatever the caller asked for."""
        kwargs.update(markup=False, emoji=False, highlight=False)
        return super().render_str(printable(text), **kwargs)


def recorded_payments_lines(
    players: Sequence[str], entries: Sequence[LedgerEntry], scoring: str = "riichi"
) -> list[str]:
    """What the last recorded hand or penalty paid, line by line, and the end it led to, for
    printing after a recording command."""
    last = [i for i, e in enumerate(entries) if e.kind != "end"]
    if not last:
        return []
    recorded = entries[last[-1] :]
    lines = []
    for entry in recorded:
        what = "the end" if entry.kind == "end" else describe_fact(entry.fact, players, scoring)
        if not entry.payments and entry.kind == "end":
            continue
        lines.append(f"Recorded at {entry.before.hand_label}: {what}")
        if not entry.payments:
            counted = " (counted off the final points)" if entry.kind == "penalty" else ""
            lines.append(f"  no payments{counted}")
        lines += [f"  {describe_payment(p, players)}" for p in entry.payments]
    return lines


def change_lines(change: Change, key: str) -> list[str]:
    """What a correction or an early end did, for the command line: the entry it touched (its
    number, and the correction's own), as it was and as it is now, each field that changed, every
    hand whose payments changed (was, then now), and every player's score after it."""
    headline = change_headline(change)
    kept = "" if change.action in ("end", "penalty") else "; the original stays in the log"
    lines = [f"{headline[0].upper()}{headline[1:]} (match {key!r}){kept}."]
    if change.before is not None:
        lines.append(f"  Before: {change.before}")
    if change.after is not None:
        lines.append(f"  After:  {change.after}")
    lines += [f"    {name}: {was or '-'} -> {now or '-'}" for name, was, now in change.fields]
    for hand in change.hands:
        lines += [f"  was {line}" for line in hand.before] + [f"  now {line}" for line in hand.after]
    moved = change.moved
    scores = ", ".join(
        f"{p} {s:,}" + (f" ({moved[p]:+,})" if p in moved else "") for p, s in change.scores_after.items()
    )
    lines.append(f"{'Final scores' if change.finished else 'Scores after'}: {scores}")
    return lines


def print_recorded(console: Console, done: Recorded, store_head: str) -> None:
    """What a recording command prints: the payments just recorded (or what a correction or an end
    did: the entry it touched, before and after, the scores after), the table, the digests (the
    store's: ``store_head``, the checkpoint the command took of what it saved)."""
    if done.change is not None:
        lines = change_lines(done.change, done.key)
    else:
        lines = recorded_payments_lines(done.players, done.ledger, done.rules.scoring)
    for line in lines:
        console.print(line, markup=False, highlight=False)
    print_status(console, done.players, done.state, done.rules)
    print_digests(console, done, store_head)


def print_digests(console: Console, shown: Recorded | MatchStatus, store_head: str) -> None:
    """The digests to publish, each saying what it is of: the match's head, and the store's
    (``store_head``: ``honba check KEY --against``, ``honba check --against``)."""
    for digest in published(shown.key, shown.head, store_head):
        console.print(digest_line(digest), markup=False, highlight=False, soft_wrap=True)


def digest_line(digest: Digest) -> str:
    """A digest to publish, saying what it is the digest of and how it is checked later."""
    return f"{digest.name[0].upper()}{digest.name[1:]}: {digest.value} ({digest.of}; {digest.check})"


def status_table(players: Sequence[str], state: TableState, title: str) -> Grid:
    """Each player's seat wind, score and place."""
    columns = [
        Column("seat", numeric=True),
        Column("player", key=True),
        Column("wind"),
        Column("score", numeric=True),
        Column("place", numeric=True),
    ]
    if state.final_points:
        columns.append(Column("points", numeric=True))
    table = Grid(title, columns)
    places = {seat: i + 1 for i, seat in enumerate(ranking(state.scores))}
    for seat, name in enumerate(players):
        row = [str(seat), name, seat_wind(seat, state), f"{state.scores[seat]:,}", str(places[seat])]
        if state.final_points:
            row.append(f"{state.final_points[seat]:+.1f}")
        table.add_row(*row)
    return table


def print_status(console: Console, players: Sequence[str], state: TableState, rules: Ruleset) -> None:
    """The table state in words, then the scores as a table."""
    for line in state_lines(players, state, rules):
        console.print(line, markup=False, highlight=False)
    console.print(status_table(players, state, "Scores"))


def state_lines(players: Sequence[str], state: TableState, rules: Ruleset) -> list[str]:
    """The table state in words: the service's one value (``state_data``) rendered."""
    data = state_data(players, state, rules)
    if data["finished"]:
        reason = end_reason_words(data["end_reason"] or "")
        head = f"Match over ({reason}) after {counted(data['hands_played'], 'hand')}"
    else:
        head = f"Next hand: {data['hand_name']} ({data['hand']})"
    pending = data["extra_hand_bonus_pending"]
    return [
        head,
        f"Dealer: {data['dealer']}",
        # Rules without counters (classical, Taiwanese) have nothing to show here.
        *([f"Counters (honba): {data['counters']}"] if data["counters"] is not None else []),
        f"Deposits on the table: {data['deposits']}",
        f"Dealer streak: {data['dealer_streak']} (extra hands: {data['extra_hands']})",
        f"Dealer's consecutive wins: {data['consecutive_dealer_wins']}"
        f" (wins while holding the deal: {data['dealer_wins_this_deal']})",
        *([f"Extra-hand bonus pending: {pending} ({data['extra_hand_bonus_note']})"] if pending is not None else []),
    ]


# The narrowest a column of sentences (a hand's result, its payments) is shown in a table: any
# narrower, a ledger reads better one block per entry.
PROSE = 24


def ledger_table(
    players: Sequence[str],
    entries: Sequence[LedgerEntry],
    title: str,
    *,
    numbers: EntryNumbers,
    marks: Mapping[int, CorrectionMark] | None = None,
    scoring: str = "riichi",
    clock: Sequence[tuple[int, str]] = (),
) -> Grid:
    """The hand-by-hand ledger: each entry's number, the table state before, result, payments,
    changes and scores.

    The ``entry`` column is the number ``honba amend``/``void`` take and the entry's line in
    the exported record file (``numbers``). With ``marks`` an amended entry says what it was
    and which correction changed it, who and why, and a voided one is shown struck through
    with who voided it and why. Results are in the words of the rules' family (``scoring``);
    ``clock`` holds the clock's events (position, what happened), each shown where it happened.
    """
    marks = marks or {}
    columns = [
        Column("entry", numeric=True, key=True, style="dim"),
        # The count of hands played so far, not a number to give a command: only ``entry`` is that.
        Column("nth hand", numeric=True, key=True),
        Column("hand", key=True),
        Column("dealer", key=True),
        Column("result", prose=PROSE),
        Column("payments", prose=PROSE),
        *(Column(name, numeric=True) for name in players),
    ]
    table = Grid(title, columns, show_lines=True, joiner=" -> ")
    shown = {entry.position for entry in entries}
    rows: list[tuple[int, list[Cell]]] = []
    for index, entry in enumerate(entries):
        before = entry.before
        result: Any = describe_fact(entry.fact, players, scoring)
        for line in describe_details(entry.fact, players):
            result += f"\n{line}"
        if entry.deal_pass is not None:
            result += f"\n-> deal passes to {players[entry.deal_pass.to_dealer]}"
        mark = marks.get(entry.position) if entry.position is not None else None
        if mark is not None and mark.kind == "amended":
            result = Text(result, style="bold")
            result.append(
                f"\namended at entry {_number(numbers, mark.correction)} by {mark.by}: {mark.reason}", style="italic"
            )
            result.append(f"\nwas: {describe_fact(mark.original, players, scoring)}", style="strike")
        payments = "\n".join(describe_payment(p, players) for p in entry.payments) or "-"
        cells: list[Cell] = [(f"{d:+,}", f"{s:,}") for d, s in zip(entry.deltas, entry.after.scores, strict=True)]
        number = str(entry.number) if entry.kind == "hand" else ""
        row: list[Cell] = [_number(numbers, entry.position), number, before.hand_label]
        row += [players[before.dealer], result, payments, *cells]
        rows.append((entry.position if entry.position is not None else index, row))
    for voided_at, mark in marks.items():
        if mark.kind != "voided" or voided_at in shown:
            continue
        text = Text(describe_fact(mark.original, players, scoring), style="strike")
        text.append(
            f"\nvoided at entry {_number(numbers, mark.correction)} by {mark.by}: {mark.reason}", style="italic"
        )
        row = [_number(numbers, voided_at), "", mark.before.hand_label]
        row += [players[mark.before.dealer], text, "-", *([""] * len(players))]
        rows.append((voided_at, row))
    for position, what in clock:
        rows.append((position, ["", "", "", "", f"clock: {what}", "-", *([""] * len(players))]))
    for _, row in sorted(rows, key=lambda item: item[0]):
        table.add_row(*row)
    return table


def _number(numbers: EntryNumbers, position: int | None) -> str:
    """An entry's number as a cell: empty for an end the rules decided (it has none)."""
    number = numbers.number(position)
    return "" if number is None else str(number)


def ledger_csv(
    players: Sequence[str], entries: Sequence[LedgerEntry], numbers: EntryNumbers, scoring: str = "riichi"
) -> str:
    """The ledger as CSV for spreadsheets: one row per entry, each player's change and score after;
    results in the words of the rules' family (``scoring``).

    Cells are text as data, never formulas: a cell a spreadsheet would read as a formula
    (starting ``=``, ``+``, ``-``, ``@``) that is not a number is written with a leading ``'``.
    """
    import csv  # honba log --csv only

    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        spreadsheet_cells(
            [
                "entry",
                "number",
                "kind",
                "hand",
                "dealer",
                "counters",
                "deposits",
                "result",
                "log says",
                *(f"{p} change" for p in players),
                *(f"{p} score" for p in players),
            ]
        )
    )
    for row, entry in zip(ledger_data(players, entries, numbers, scoring), entries, strict=True):
        writer.writerow(
            spreadsheet_cells(
                [
                    row["entry"],
                    row["number"],
                    row["kind"],
                    row["hand"],
                    row["dealer"],
                    row["counters"],
                    row["deposits"],
                    row["result"],
                    " | ".join(row["log_says"]),
                    *entry.deltas,
                    *entry.after.scores,
                ]
            )
        )
    return buffer.getvalue()


# What makes a spreadsheet read a cell as a formula (or, tab and carriage return, hide one).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cells(values: Sequence[Any]) -> list[str]:
    """One CSV row's cells as text a spreadsheet shows as text, never runs as a formula: a cell
    starting ``=``, ``+``, ``-``, ``@``, a tab or a carriage return that is not a number gets a
    leading ``'``. Every CSV honba writes (ledger, standings, statistics) goes through it."""
    out = []
    for value in values:
        text = "" if value is None else str(value)
        if text[:1] in FORMULA_STARTS and not _is_number(text):
            text = "'" + text
        out.append(text)
    return out


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
