"""What a correction (or an early end) did to a match, as every front end shows it.

A correction (amend, void, undo, a penalty added by a referee, a match reopened) and an early end
each touch one entry of the match. ``change_at`` says which (its number, as ``honba log`` numbers
it, and the number of the correction's own entry), what stood there before and what stands there
now, each text field that changed, every hand whose payments changed (as it was, as it is now: a
correction can move the counters and deposits of the hands after it), and the scores before and
after. The command line prints it, the referee's desk and the JSON API show it, before the
correction is confirmed (worked out on the match in memory) and after it is stored: one function
makes the data, each front end presents it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeGuard

import attrs

from domain.amendments import Correction, corrected_steps, resolve_corrections
from domain.match import Match, opening_state
from domain.progression import Fact
from domain.said import Said
from domain.values import AbortiveDraw, ExhaustiveDraw, HandResult, MatchEnd, Payment, Penalty, Reason, WinResult
from projections.entries import entry_numbers
from projections.ledger import LedgerEntry, corrected_ledger
from replay.input.entry import entry_of
from replay.input.fields import entry_fields
from replay.service.common.shapes import describe_fact, end_reason_said, said_fact

ACTIONS = ("amend", "void", "undo", "penalty", "reopen", "end")


@attrs.frozen
class ChangedHand:
    """A ledger entry whose payments a change moves: in words, before and after (empty: not in the
    ledger then)."""

    before: tuple[str, ...]
    after: tuple[str, ...]


@attrs.frozen
class Change:
    """What a correction or an early end did (or would do) to a match.

    ``action`` is ``amend``, ``void``, ``undo``, ``penalty`` (added by a referee), ``reopen`` (an
    early end voided) or ``end``; ``entry`` the number of the entry it touched (for a correction of
    a correction, the entry that correction came down to; for a penalty added or an end, its own
    number); ``target`` the number as it was asked for (a correction's own number, when one was
    corrected); ``correction`` the number of the correction's own entry (None for an end).
    ``before`` and ``after`` say what stood at the entry, in words (None: nothing; ``"void"``: the
    entry voided); ``fields`` the text fields that changed (name, before, after); ``hands`` every
    hand whose payments changed; the scores before and after (the final ones when the match ended).
    """

    action: str
    entry: int | None
    target: int | None
    correction: int | None
    before: str | None
    after: str | None
    fields: tuple[tuple[str, str, str], ...]
    hands: tuple[ChangedHand, ...]
    scores_before: dict[str, int]
    scores_after: dict[str, int]
    finished: bool

    @property
    def moved(self) -> dict[str, int]:
        """Each player whose score the change moved, and by how much."""
        return {p: s - self.scores_before[p] for p, s in self.scores_after.items() if s != self.scores_before.get(p)}


def change_at(match: Match, position: int, *, action: str | None = None, target: int | None = None) -> Change:
    """What the event at ``position`` of the match changed, everything else as it stands: a
    correction there (its entry before and after, all other corrections as they are), or an early
    end. ``action`` names how it was asked for (``undo`` for a void made at the table), else it is
    read from the event; ``target`` the number it was asked for by, else the entry's own."""
    numbers = entry_numbers(match)
    players = match.players
    scoring = match.rules.scoring
    log = match.correction_log
    facts = dict(match.history)
    correction = dict(log).get(position)
    added = {p for p, c in log if c.target is None}
    if correction is None:
        # An early end: the match with and without it.
        end = facts[position]
        assert isinstance(end, MatchEnd), f"no correction nor end at {position}"
        before_ledger = _ledger(match, [(p, f) for p, f in match.history if p != position], log)
        after_ledger = _ledger(match, list(match.history), log)
        was, now, root, kind = None, describe_fact(end, players, scoring), position, action or "end"
        before_fields: dict[str, Any] = {}
        after_fields: dict[str, Any] = {}
    else:
        without = [(p, c) for p, c in log if p < position]
        through = [(p, c) for p, c in log if p <= position]
        history_before = [(p, f) for p, f in match.history if p not in added or p in dict(without)]
        history_after = [(p, f) for p, f in match.history if p not in added or p in dict(through)]
        before_ledger = _ledger(match, history_before, without)
        after_ledger = _ledger(match, history_after, through)
        root = _root(position, log)
        was_fact = None if correction.target is None else _standing(root, facts, without)
        now_fact = _standing(root, facts, through)
        was = None if was_fact is None else describe_fact(was_fact, players, scoring)
        now = "void" if now_fact is None else describe_fact(now_fact, players, scoring)
        if correction.target is not None and was_fact is None:
            was = "void"
        kind = _kind(correction, facts.get(root))
        if action is not None and kind != "reopen":
            # (an undo that takes back an early end reopens the match, and says so)
            kind = action
        before_fields = entry_fields(entry_of(was_fact, players)) if _is_entry(was_fact) else {}
        after_fields = entry_fields(entry_of(now_fact, players)) if _is_entry(now_fact) else {}
    # The fields that changed, where an entry stands before and after (a void or a penalty added
    # changes the whole entry: before and after say it).
    both = bool(before_fields) and bool(after_fields)
    changed = tuple(
        (name, _shown_field(before_fields.get(name)), _shown_field(after_fields.get(name)))
        for name in dict.fromkeys([*before_fields, *after_fields])
        if both and before_fields.get(name) != after_fields.get(name)
    )
    own = numbers.number(position)
    opening = opening_state(match.rules, match.opening)
    if target is None and correction is not None and correction.target is not None and action in ("undo", "reopen"):
        # An undo or a reopening names the entry it took back (a correction's own number when it took
        # back a correction), whether shown at the confirm step or once recorded.
        target = numbers.number(correction.target)

    def scores(entries: list[LedgerEntry]) -> dict[str, int]:
        state = entries[-1].after if entries else opening
        return dict(zip(players, state.scores, strict=True))

    return Change(
        action=kind,
        entry=numbers.number(root),
        target=target if target is not None else numbers.number(root),
        correction=own if correction is not None else None,
        before=was,
        after=now,
        fields=changed,
        hands=_changed_hands(before_ledger, after_ledger, players, scoring),
        scores_before=scores(before_ledger),
        scores_after=scores(after_ledger),
        finished=bool(after_ledger and after_ledger[-1].after.finished),
    )


def _ledger(match: Match, history: list[tuple[int, Fact]], log: list[tuple[int, Correction]]) -> list[LedgerEntry]:
    opening = opening_state(match.rules, match.opening)
    return corrected_ledger(corrected_steps(opening, match.rules, history, resolve_corrections(log)))


def _root(position: int, log: Sequence[tuple[int, Correction]]) -> int:
    """The entry a correction comes down to (through corrections of corrections); for a penalty
    added, the correction itself."""
    at = dict(log)
    root = position
    while root in at and at[root].target is not None:
        target = at[root].target
        assert target is not None
        root = target
    return root


def _standing(root: int, facts: dict[int, Fact], log: Sequence[tuple[int, Correction]]) -> Fact | None:
    """What stands at the entry ``root`` under these corrections (None: void, or nothing there)."""
    in_force = resolve_corrections(log).get(root)
    if in_force is not None:
        return in_force.replacement
    at = dict(log)
    if root in at:
        # A penalty added by a correction: it stands while that correction does.
        return at[root].replacement if root in facts else None
    return facts.get(root)


def _kind(correction: Correction, root_fact: Fact | None) -> str:
    if correction.target is None:
        return "penalty"
    if correction.replacement is None:
        return "reopen" if isinstance(root_fact, MatchEnd) else "void"
    return "amend"


def _is_entry(fact: object) -> TypeGuard[HandResult | Penalty]:
    return isinstance(fact, WinResult | ExhaustiveDraw | AbortiveDraw | Penalty)


def _changed_hands(
    before: Sequence[LedgerEntry], after: Sequence[LedgerEntry], players: Sequence[str], scoring: str
) -> tuple[ChangedHand, ...]:
    was = {e.position: e for e in before}
    now = {e.position: e for e in after}
    hands = []
    for position in sorted({*was, *now}, key=lambda p: (p is None, p or 0)):
        old, new = was.get(position), now.get(position)
        if old is not None and new is not None and (old.fact, old.payments) == (new.fact, new.payments):
            continue
        hands.append(
            ChangedHand(
                tuple(payment_lines(old, players, scoring)) if old is not None else (),
                tuple(payment_lines(new, players, scoring)) if new is not None else (),
            )
        )
    return tuple(hands)


def _shown_field(value: Any) -> str:
    if value is None:
        return ""
    return ", ".join(value) if isinstance(value, list) else str(value)


def payment_lines(entry: LedgerEntry, players: Sequence[str], scoring: str) -> list[str]:
    """One ledger entry in words: what it is (in the words of the rules' family, ``scoring``), then
    one line per payer and payee, e.g. ``Cho pays Ben 3,900 + 300 counters + 1,000 deposits``."""
    lines = [str(entry_title(entry, players, scoring)), *_payment_lines(entry, players)]
    if entry.kind != "end" and not entry.payments:
        lines.append("no payments")
    return lines


def entry_title(entry: LedgerEntry, players: Sequence[str], scoring: str) -> Said:
    """``payment_lines``' first line as words (``domain.said``): ``E1-0: Cho ron on Dai: 2 han 30 fu``,
    ``The match ends (time up)``."""
    if entry.kind == "end":
        reason = entry.after.end_reason
        return Said("The match ends ({why})", why=end_reason_said(reason)) if reason else Said("The match ends")
    return Said("{hand}: {what}", hand=entry.before.hand_label, what=said_fact(entry.fact, players, scoring))


_SHORT = {Reason.HAND: "", Reason.COUNTERS: "counters", Reason.DEPOSITS: "deposits", Reason.RIICHI_STICK: "deposit"}


def payment_data(entry: LedgerEntry, players: Sequence[str]) -> list[dict[str, Any]]:
    """The payments of one ledger entry as values, one per payer and payee, for a page to word in
    its own language: ``{"payer", "payee" (a player, or None for the table), "parts": [{"amount",
    "reason" ("" for the hand's value, "counters", "deposits", "deposit" for a riichi stick, else
    the reason's own name)}]}``. ``payment_lines`` words the same values in English."""
    grouped: dict[tuple[int | None, int | None], list[Payment]] = {}
    for payment in entry.payments:
        grouped.setdefault((payment.payer, payment.payee), []).append(payment)
    return [
        {
            "payer": None if payer is None else players[payer],
            "payee": None if payee is None else players[payee],
            "parts": [{"amount": p.amount, "reason": _SHORT.get(p.reason, p.reason.value)} for p in payments],
        }
        for (payer, payee), payments in grouped.items()
    ]


def _payment_lines(entry: LedgerEntry, players: Sequence[str]) -> list[str]:
    return [_payment_line(row) for row in payment_data(entry, players)]


def _payment_line(row: dict[str, Any]) -> str:
    who = "the table" if row["payer"] is None else row["payer"]
    whom = "the table" if row["payee"] is None else row["payee"]
    parts = [f"{p['amount']:,}" + (f" {p['reason']}" if p["reason"] else "") for p in row["parts"]]
    if row["payee"] is None:
        return f"{who} puts {' + '.join(parts)} on the table"
    verb = "pays" if row["payer"] is not None else "gives"
    return f"{who} {verb} {whom} {' + '.join(parts)}"


def change_headline(change: Change) -> str:
    """What a change did, in one phrase every front end says the same way, naming the entry it
    touched and its own: ``entry 8 voided by entry 13``, ``the match ended as entry 11``."""
    by = f" by entry {change.correction}" if change.correction is not None else ""
    if change.action == "end":
        return f"the match ended as entry {change.entry}"
    if change.action == "penalty":
        return f"penalty added as entry {change.entry}"
    if change.action == "reopen":
        return f"the match reopened: its end, entry {change.entry}, voided{by}"
    if change.target is not None and change.target != change.entry:
        verb = "amended" if change.action == "amend" else "cancelled"
        return f"entry {change.target} (a correction of entry {change.entry}) {verb}{by}"
    verb = {"amend": "amended", "void": "voided", "undo": "taken back"}[change.action]
    return f"entry {change.entry} {verb}{by}"


def change_data(change: Change) -> dict[str, Any]:
    """A change as plain data (the JSON API's ``correction``): ``{"action", "headline", "entry",
    "target", "correction", "before", "after", "fields": [{"field", "before", "after"}], "hands":
    [{"before": [...], "after": [...]}], "scores_before", "scores_after", "finished"}``."""
    return {
        "action": change.action,
        "headline": change_headline(change),
        "entry": change.entry,
        "target": change.target,
        "correction": change.correction,
        "before": change.before,
        "after": change.after,
        "fields": [{"field": f, "before": b, "after": a} for f, b, a in change.fields],
        "hands": [{"before": list(h.before), "after": list(h.after)} for h in change.hands],
        "scores_before": change.scores_before,
        "scores_after": change.scores_after,
        "finished": change.finished,
    }
