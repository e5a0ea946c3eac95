"""``honba audit``: every number of a match explained, checked, compared and re-scored.

The audit is built from the stored match alone: the ledger of the corrected
history (the table before each hand, every payment with its reason), the
corrections with who made them, when and why, the invariants, the integrity of
the stored chain, and, on request, a comparison with a claimed score sheet and
a what-if under other rules. All scoring is the domain's; this module compares.
"""

from __future__ import annotations

import csv
import io
import itertools
import re
from collections.abc import Sequence
from typing import Any

import attrs

from domain.amendments import (
    Correction,
    corrected_steps,
    effective_entries,
    fold_corrected,
    judge_end,
    resolve_corrections,
    undone_positions,
)
from domain.bounds import SCORE, OutOfBounds, whole_number
from domain.codec import FACT_TAGS
from domain.errors import HonbaError
from domain.match import Match, opening_state
from domain.progression import Fact, deal_passes, evolve
from domain.rules import Ruleset
from domain.said import Said
from domain.values import DealPass, MatchEnd, Penalty, TableState
from projections.entries import EntryNumbers, entry_numbers
from projections.ledger import LedgerEntry, corrected_ledger
from replay.service.common.shapes import clock_entries, describe_fact, ledger_data
from replay.store.findings import MatchCheck


class SheetError(HonbaError):
    """A score sheet that cannot be read; the message names the file and row."""


@attrs.frozen
class Finding:
    """Something the audit found: an invariant broken, a history inconsistency, a sheet difference."""

    kind: str
    hand: str
    text: str


@attrs.frozen
class CorrectionView:
    """A correction as the audit shows it: its entry number, the number of the entry it
    corrects (none for a penalty it adds), the original and the replacement."""

    entry: int
    kind: str
    target: int | None
    original: Fact | None
    replacement: Fact | None
    by: str
    reason: str
    at: str


@attrs.frozen
class SheetRow:
    """One row of a claimed score sheet: the hand it is for and each player's score or change."""

    row: int
    hand: str
    values: tuple[int, ...]


@attrs.frozen
class SheetComparison:
    """Where a claimed sheet first parts from honba's ledger, and by how much.

    ``history`` is ``corrected`` or ``as played``; ``aligned`` how rows were matched to the
    ledger: ``by hand`` (the first column names each hand, ``E1-0``) or ``by order``.
    """

    kind: str
    rows: int
    first_difference: Finding | None
    differences: tuple[Finding, ...]
    history: str = "corrected"
    aligned: str = "by order"


@attrs.frozen
class WhatIf:
    """The same facts scored under other rules: per-hand changes and the end, side by side."""

    rules: Ruleset
    entries: tuple[LedgerEntry, ...]
    changed_hands: tuple[str, ...]
    final_scores: tuple[int, ...]
    final_points: tuple[float, ...]
    notes: tuple[Finding, ...]
    # Each changed hand with what each player gets more (+) or less (-) under the other rules.
    hand_changes: tuple[tuple[str, tuple[int, ...]], ...] = ()


@attrs.frozen
class AuditReport:
    """Everything ``honba audit`` shows of one match."""

    match: Match
    entries: tuple[LedgerEntry, ...]
    corrections: tuple[CorrectionView, ...]
    findings: tuple[Finding, ...]
    integrity: MatchCheck
    sheet: SheetComparison | None = None
    what_if: WhatIf | None = None
    # The numbers a user sees for the entries (their lines in the exported record file).
    numbers: EntryNumbers = attrs.field(default=attrs.Factory(lambda self: entry_numbers(self.match), takes_self=True))

    @property
    def players(self) -> tuple[str, ...]:
        return self.match.players

    @property
    def final(self) -> TableState:
        return self.entries[-1].after if self.entries else self.match.state


def build_report(
    match: Match,
    integrity: MatchCheck,
    *,
    sheet: Sequence[SheetRow] | None = None,
    sheet_kind: str = "auto",
    other_rules: Ruleset | None = None,
    as_played: bool = False,
) -> AuditReport:
    """Audit a match loaded from the store; ``as_played`` compares the sheet with the history as
    it was played (no corrections) rather than as corrected."""
    entries = _entries(match, match.rules)
    numbers = entry_numbers(match)
    corrections = _corrections(match, numbers)
    findings = [*_invariants(match, entries), *after_the_end(match), *_inconsistencies(match, entries)]
    comparison = None
    if sheet is not None:
        compared = played_entries(match) if as_played else entries
        comparison = compare_sheet(compared, sheet, sheet_kind, match.players)
        comparison = attrs.evolve(comparison, history="as played" if as_played else "corrected")
    what_if = _what_if(match, entries, other_rules) if other_rules is not None else None
    return AuditReport(match, tuple(entries), corrections, tuple(findings), integrity, comparison, what_if, numbers)


def _entries(match: Match, rules: Ruleset) -> list[LedgerEntry]:
    steps = corrected_steps(opening_state(rules, match.opening), rules, match.history, match.corrections)
    return corrected_ledger(steps)


def played_entries(match: Match) -> list[LedgerEntry]:
    """The ledger of the history as it was played: every recorded result and penalty, no
    correction (penalties a referee added later are corrections too, so left out)."""
    added = {position for position, c in match.correction_log if c.target is None}
    history = [(position, fact) for position, fact in match.history if position not in added]
    return corrected_ledger(corrected_steps(opening_state(match.rules, match.opening), match.rules, history, {}))


def _corrections(match: Match, numbers: EntryNumbers) -> tuple[CorrectionView, ...]:
    originals = dict(match.history)
    corrections = dict(match.correction_log)
    views = []
    for position, correction in match.correction_log:
        corrected = None if correction.target is None else corrections.get(correction.target)
        if corrected is not None and corrected.target is not None:
            # A correction of a correction: what it corrects is that correction's replacement.
            views.append(_view(numbers, position, correction, corrected.replacement, of_correction=corrected))
            continue
        original = None if correction.target is None else originals.get(correction.target)
        views.append(_view(numbers, position, correction, original))
    return tuple(views)


def _view(
    numbers: EntryNumbers,
    position: int,
    correction: Correction,
    original: Fact | None,
    of_correction: Correction | None = None,
) -> CorrectionView:
    kind = correction.kind
    if of_correction is not None:
        if correction.replacement is not None:
            kind = "correction amended"
        else:
            kind = "void cancelled" if of_correction.replacement is None else "correction cancelled"
    elif kind == "voided" and isinstance(original, Penalty):
        kind = "penalty cancelled"
    entry = numbers.number(position)
    assert entry is not None  # a correction always has its line
    return CorrectionView(
        entry,
        kind,
        numbers.number(correction.target),
        original,
        correction.replacement,
        correction.by,
        correction.reason,
        correction.at,
    )


def _invariants(match: Match, entries: Sequence[LedgerEntry]) -> list[Finding]:
    """Each hand sums to zero apart from deposits, deposits are conserved (within a hand and
    from one entry to the next), scores plus deposits stay the starting total less what
    left the table by rule, and the final scores are the start plus every payment."""
    findings = []
    start = opening_state(match.rules, match.opening)
    total = list(start.scores)
    in_play = sum(start.scores) + start.deposits
    deposits = start.deposits
    for entry in entries:
        label = entry.before.hand_label
        to_table = sum(p.amount for p in entry.payments if p.payee is None and p.payer is not None)
        from_table = sum(p.amount for p in entry.payments if p.payer is None and p.payee is not None)
        if sum(entry.deltas) != from_table - to_table:
            findings.append(Finding("invariant", label, "the payments between players do not sum to zero"))
        expected_deposits = entry.before.deposits + to_table - from_table
        within = isinstance(entry.fact, MatchEnd | Penalty) or entry.after.deposits == expected_deposits
        if entry.before.deposits != deposits or not within:
            findings.append(Finding("invariant", label, "deposits on the table are not conserved"))
        # Points leave play only by rule: a penalty paid to nobody, deposits lost at the end.
        in_play -= sum(p.amount for p in entry.payments if p.payee is None and isinstance(entry.fact, Penalty))
        if isinstance(entry.fact, MatchEnd):
            in_play -= entry.before.deposits - from_table - entry.after.deposits
        if sum(entry.after.scores) + entry.after.deposits != in_play:
            findings.append(Finding("invariant", label, "scores and deposits on the table are not conserved"))
        deposits = entry.after.deposits
        total = [t + d for t, d in zip(total, entry.deltas, strict=True)]
    if entries and list(entries[-1].after.scores) != total:
        findings.append(Finding("invariant", "end", "the final scores are not the start plus every payment"))
    return findings


def after_the_end(match: Match) -> list[Finding]:
    """Nothing but corrections may follow an end that stands: honba refuses any other command on a
    match that has ended, so a hand, a penalty, a deal pass or another end stored while the match,
    as its history and corrections stood then, had ended was put there behind honba's back (its
    chain and seal extended to match). Each is an invariant broken. A match reopened (its end
    voided, or the hand that brought the rules' end taken back) goes on legitimately."""
    history, log = match.history, match.correction_log
    first_end = next((p for p, fact in history if isinstance(fact, MatchEnd)), None)
    if first_end is None:
        return []
    opening = opening_state(match.rules, match.opening)
    corrections = {position for position, _ in log}
    findings = []
    for position, fact in history:
        if position <= first_end or position in corrections:
            continue
        # The match as it stood when this event was stored: the events and corrections before it.
        before = [(p, f) for p, f in history if p < position]
        resolved = resolve_corrections([(p, c) for p, c in log if p < position])
        steps, _played = fold_corrected(opening, match.rules, before, resolved)
        if not (steps[-1].after if steps else opening).finished:
            continue
        ends = [p for p, f in effective_entries(before, resolved) if isinstance(f, MatchEnd)]
        what = FACT_TAGS.get(type(fact), type(fact).__name__)
        detail = (
            f"event {position} ({what}) was stored after the match ended at event {ends[-1] if ends else first_end}"
        )
        findings.append(Finding("invariant", "end", detail + ": nothing but corrections may follow the end"))
    return findings


def _inconsistencies(match: Match, entries: Sequence[LedgerEntry]) -> list[Finding]:
    """Where a corrected result would have moved the deal otherwise than it was played."""
    findings = []
    corrected = {c.target for _, c in match.correction_log if c.target is not None}
    for entry in entries:
        if entry.kind != "hand" or entry.position not in corrected or isinstance(entry.fact, DealPass):
            continue
        should_pass = deal_passes(entry.fact, entry.before, match.rules)  # type: ignore[arg-type]
        did_pass = entry.deal_pass is not None
        if should_pass != did_pass:
            played = "the deal passed" if did_pass else "the dealer kept the deal"
            rule = "pass" if should_pass else "stay"
            findings.append(
                Finding(
                    "inconsistency",
                    entry.before.hand_label,
                    f"as played {played}; under the corrected result the deal would {rule}. "
                    "The later hands stay as they were played.",
                )
            )
    findings += _voided_deal_passes(match)
    findings += _table_drift(match)
    findings += [Finding("end", j.hand, j.describe()) for j in match.end_judgements()]
    return _merged(findings)


def _merged(findings: list[Finding]) -> list[Finding]:
    """One finding per kind and hand: what one correction set off is told in one place."""
    merged: dict[tuple[str, str], Finding] = {}
    for finding in findings:
        key = (finding.kind, finding.hand)
        if key in merged:
            merged[key] = attrs.evolve(merged[key], text=f"{merged[key].text} Also, {finding.text}")
        else:
            merged[key] = finding
    return list(merged.values())


def _table_drift(match: Match) -> list[Finding]:
    """Counters the corrected history would have carried into the next hand, where that hand
    was played with others (the later hands stay as played), and deposits, which follow the
    corrected history (docs/audit.md): where they differ from the table as played, say so."""
    corrected = set(match.corrections)
    played_before = _played_tables(match)
    steps = [s for s in match.corrected_steps() if not isinstance(s.fact, DealPass)]
    findings = []
    for step, following in itertools.pairwise(steps):
        if step.position not in corrected or step.fact is None or isinstance(step.fact, Penalty | MatchEnd):
            continue
        differences = []
        if following.before.counters != step.after.counters:
            differences.append(
                f"counters: {following.before.counters} as played, {step.after.counters} by the correction"
            )
        played = played_before.get(following.position)
        if played is not None and played.deposits != following.before.deposits:
            differences.append(
                f"deposits: {played.deposits:,} as played, {following.before.deposits:,} by the correction "
                "(deposits follow the corrected history)"
            )
        if differences:
            text = "the next hand was played with other " + "; ".join(differences)
            findings.append(
                Finding("inconsistency", step.before.hand_label, text + ". The later hands stay as played.")
            )
    return findings


def _played_tables(match: Match) -> dict[int, TableState]:
    """The table before each entry as it was played, without any correction."""
    state = opening_state(match.rules, match.opening)
    tables = {}
    # An early end voided (the match reopened) was played on by the hands after it: skipped.
    reopened = undone_positions(match.history, match.corrections)
    for position, fact in match.history:
        tables[position] = state
        if not (isinstance(fact, MatchEnd) and position in reopened):
            state, _ = evolve(state, match.rules, fact)
    return tables


def _voided_deal_passes(match: Match) -> list[Finding]:
    """Voided hands whose recorded deal pass stays: the deal moved on after a hand that no longer counts."""
    # A hand taken back while it was the last took its deal pass with it: nothing to report.
    voided = {target for target, c in match.corrections.items() if c.replacement is None}
    voided -= undone_positions(match.history, match.corrections)
    recorded = list(match.history)
    findings = []
    state = opening_state(match.rules, match.opening)
    effective = dict(match.effective_entries())
    for index, (position, fact) in enumerate(recorded):
        if position in voided and not isinstance(fact, Penalty):
            following = recorded[index + 1][1] if index + 1 < len(recorded) else None
            if isinstance(following, DealPass):
                findings.append(
                    Finding(
                        "inconsistency",
                        state.hand_label,
                        "as played the deal passed after this hand, which is now void; the deal pass stays "
                        "and the later hands stay as they were played.",
                    )
                )
        if position in effective and not isinstance(effective[position], MatchEnd):
            state, _ = evolve(state, match.rules, effective[position])
    return findings


def _delimiter(text: str) -> str:
    """What separates the sheet's cells: the one of tab, semicolon and comma its header line holds
    most of (a spreadsheet saves "Unicode text" with tabs, and a CSV with semicolons where the comma
    is the decimal point); a comma when it holds none."""
    header = next((line for line in text.splitlines() if line.strip()), "")
    return max(("\t", ";", ","), key=header.count) if any(d in header for d in "\t;") else ","


def read_sheet(text: str, players: Sequence[str], *, name: str) -> list[SheetRow]:
    """A claimed score sheet: a header ``hand,<player>,<player>,...`` then one row per hand (its
    cells between commas, semicolons or tabs, as the header shows).

    The first column names the hand (``E1-0``, ``3``, anything); each player's column holds
    either the score after the hand or the change in the hand (see ``compare_sheet``).
    Numbers may carry thousands separators (``31,400`` in quotes, or ``31400``) and are read as
    every number honba is sent (``domain.bounds.whole_number``: ASCII digits, a score's bounds).
    """
    try:
        rows = [r for r in csv.reader(io.StringIO(text), delimiter=_delimiter(text)) if any(c.strip() for c in r)]
    except csv.Error as exc:  # a NUL byte, a cell longer than the csv module reads
        raise SheetError(Said("{name}: not a CSV score sheet ({why})", name=name, why=str(exc))) from None
    if not rows:
        raise SheetError(Said("{name}: the sheet is empty", name=name))
    header = [cell.strip() for cell in rows[0]]
    missing = [p for p in players if p not in header[1:]]
    if missing:
        raise SheetError(
            Said("{name}:1: the header must name every player; {player} is missing", name=name, player=repr(missing[0]))
        )
    columns = [header.index(p) for p in players]
    out = []
    for number, row in enumerate(rows[1:], start=2):
        try:
            values = tuple(whole_number(row[c].replace(",", "").replace("_", ""), SCORE) for c in columns)
        except (OutOfBounds, IndexError):
            raise SheetError(Said("{name}:{line}: every player needs a whole number", name=name, line=number)) from None
        out.append(SheetRow(number, row[0].strip(), values))
    return out


def compare_sheet(
    entries: Sequence[LedgerEntry], rows: Sequence[SheetRow], kind: str, players: Sequence[str]
) -> SheetComparison:
    """Compare a sheet with the ledger hand by hand, and name the first hand where they part.

    ``kind`` is ``scores`` (each row: the scores after the hand), ``changes`` (each row: what
    each player won or lost in the hand, riichi sticks included) or ``auto``: rows whose
    values sum near zero are changes. Rows are matched to the ledger by the hand they name
    (``E1-0``; several rows of one hand, a penalty and the hand, in order) when every row
    names a hand the way the ledger does, else by order. A row for a hand the ledger does
    not have (a voided hand still on the table's sheet) is named and the rest still align.
    """
    hands = [e for e in entries if e.kind != "end"]
    if kind == "auto":
        kind = "changes" if rows and abs(sum(rows[0].values)) < 10_000 else "scores"
    by_hand = bool(rows) and all(_LABEL.fullmatch(row.hand) for row in rows)
    pairs = _by_hand(rows, hands) if by_hand else list(itertools.zip_longest(rows, hands))
    differences = []
    for row, entry in pairs:
        if row is not None and entry is not None:
            ours = entry.deltas if kind == "changes" else entry.after.scores
            if tuple(ours) != row.values:
                parts = [
                    f"{player} {theirs:,} on the sheet, {mine:,} by honba ({theirs - mine:+,})"
                    for player, theirs, mine in zip(players, row.values, ours, strict=True)
                    if theirs != mine
                ]
                differences.append(Finding("sheet", entry.before.hand_label, f"row {row.row}: " + "; ".join(parts)))
        elif row is not None and by_hand:
            differences.append(Finding("sheet", row.hand, f"row {row.row}: {row.hand} is not a hand of the ledger"))
        elif entry is not None and by_hand:
            differences.append(Finding("sheet", entry.before.hand_label, "the sheet has no row for this hand"))
    if len(rows) != len(hands):
        differences.append(
            Finding("sheet", "end", f"the sheet has {len(rows)} rows, the match {len(hands)} hands and penalties")
        )
    aligned = "by hand" if by_hand else "by order"
    first = differences[0] if differences else None
    return SheetComparison(kind, len(rows), first, tuple(differences), aligned=aligned)


# A hand label as the ledger writes it: round wind letter, hand number, counters (E1-0, S4-12).
_LABEL = re.compile(r"[ESWN][1-4]-[0-9]+")


def _by_hand(
    rows: Sequence[SheetRow], hands: Sequence[LedgerEntry]
) -> list[tuple[SheetRow | None, LedgerEntry | None]]:
    """Rows and ledger entries paired by hand label, each label's entries in order; unpaired
    ones alone, everything in the ledger's order (rows for no hand of the ledger where they stood)."""
    entries_of: dict[str, list[LedgerEntry]] = {}
    for entry in hands:
        entries_of.setdefault(entry.before.hand_label, []).append(entry)
    used: dict[str, int] = {}
    paired: dict[int, SheetRow] = {}
    unmatched: list[tuple[int, SheetRow]] = []
    for row in rows:
        candidates = entries_of.get(row.hand, [])
        index = used.get(row.hand, 0)
        if index < len(candidates):
            paired[id(candidates[index])] = row
            used[row.hand] = index + 1
        else:
            unmatched.append((len(paired), row))
    out: list[tuple[SheetRow | None, LedgerEntry | None]] = [(paired.get(id(e)), e) for e in hands]
    # A row for no hand of the ledger goes after the hands matched before it on the sheet.
    matched_rows = [r.row for r in paired.values()]
    for _, row in unmatched:
        after = sum(1 for r in matched_rows if r < row.row)
        index = 0
        seen = 0
        while index < len(out) and seen < after:
            if out[index][0] is not None:
                seen += 1
            index += 1
        out.insert(index, (row, None))
    return out


def _what_if(match: Match, entries: Sequence[LedgerEntry], other: Ruleset) -> WhatIf:
    """Re-score the same corrected facts under other rules; deal passes stay as played."""
    if other.players != match.rules.players:
        raise HonbaError(
            Said(
                "the rules {rules} are for {players} players, the match has {seated}",
                rules=repr(other.name),
                players=other.players,
                seated=len(match.players),
            )
        )
    theirs = _entries(match, other)
    hand_changes = tuple(
        (a.before.hand_label, tuple(new - old for old, new in zip(a.deltas, b.deltas, strict=True)))
        for a, b in zip(entries, theirs, strict=True)
        if a.deltas != b.deltas and a.kind != "end"
    )
    changed = tuple(label for label, _ in hand_changes)
    notes = []
    for entry in theirs:
        if entry.kind == "hand" and not isinstance(entry.fact, DealPass | MatchEnd | Penalty):
            would = deal_passes(entry.fact, entry.before, other)
            if would != (entry.deal_pass is not None):
                notes.append(
                    Finding(
                        "what-if",
                        entry.before.hand_label,
                        "under these rules the deal would "
                        + ("pass" if would else "stay")
                        + "; the hands stay as played",
                    )
                )
    opening = opening_state(other, match.opening)
    notes += [
        Finding("what-if", j.hand, f"under {other.name}: " + j.describe())
        for j in judge_end(opening, other, match.history, match.corrections)
    ]
    final = theirs[-1].after if theirs else opening
    return WhatIf(other, tuple(theirs), changed, final.scores, final.final_points, tuple(notes), hand_changes)


def report_data(report: AuditReport) -> dict[str, Any]:
    """The audit as plain data (``--json``, and the HTML report's input)."""

    players = report.players
    match = report.match
    corrected = {c.target for c in report.corrections}

    scoring = match.rules.scoring

    def fact_text(fact: Fact | None) -> str | None:
        return None if fact is None else describe_fact(fact, players, scoring)

    data: dict[str, Any] = {
        "match": match.key,
        "players": list(players),
        "rules": match.rules.name,
        "rules_description": match.rules.description,
        "source": match.source,
        "integrity": report.integrity.as_dict(),
        "ledger": [
            {**line, "corrected": line["entry"] is not None and line["entry"] in corrected}
            for line in ledger_data(players, report.entries, report.numbers, scoring)
        ],
        "corrections": [
            {
                "entry": c.entry,
                "kind": c.kind,
                "target": c.target,
                "original": fact_text(c.original),
                "replacement": fact_text(c.replacement),
                "by": c.by,
                "reason": c.reason,
                "at": c.at,
            }
            for c in report.corrections
        ],
        "findings": [attrs.asdict(f) for f in report.findings],
        "final_scores": dict(zip(players, report.final.scores, strict=True)),
        "final_points": dict(zip(players, report.final.final_points, strict=True))
        if report.final.final_points
        else None,
        "scores_by_hand": [list(opening_state(match.rules, match.opening).scores)]
        + [list(e.after.scores) for e in report.entries],
        "hand_labels": ["start"] + [e.before.hand_label for e in report.entries],
        "clock": clock_entries(match, report.numbers),
    }
    if report.sheet is not None:
        data["sheet"] = {
            "kind": report.sheet.kind,
            "rows": report.sheet.rows,
            "history": report.sheet.history,
            "aligned": report.sheet.aligned,
            "first_difference": None
            if report.sheet.first_difference is None
            else attrs.asdict(report.sheet.first_difference),
            "differences": [attrs.asdict(f) for f in report.sheet.differences],
        }
    if report.what_if is not None:
        w = report.what_if
        data["what_if"] = {
            "rules": w.rules.name,
            "changed_hands": list(w.changed_hands),
            "hand_changes": [
                {"hand": label, "changes": dict(zip(players, diff, strict=True))} for label, diff in w.hand_changes
            ],
            "final_scores": dict(zip(players, w.final_scores, strict=True)),
            "final_points": _by_player(players, w.final_points),
            "notes": [attrs.asdict(f) for f in w.notes],
            "ledger": ledger_data(players, w.entries, report.numbers, w.rules.scoring),
        }
    return data


def _by_player(players: Sequence[str], values: Sequence[float]) -> dict[str, float] | None:
    return dict(zip(players, values, strict=True)) if values else None


def _plain(finding: Finding | None) -> dict[str, Any] | None:
    return None if finding is None else attrs.asdict(finding)
