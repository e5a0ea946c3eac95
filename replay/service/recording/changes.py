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

from collections.abc import Callable, Sequence
from typing import Any, TypeGuard

import attrs

from domain.amendments import Correction, corrected_steps, resolve_corrections
from domain.match import Match, opening_state
from domain.progression import Fact
from domain.said import Listed, Said, listed
from domain.values import AbortiveDraw, ExhaustiveDraw, HandResult, MatchEnd, Payment, Penalty, Reason, WinResult
from projections.entries import entry_numbers
from projections.ledger import LedgerEntry, corrected_ledger
from replay.input.entry import entry_of
from replay.input.fields import entry_fields
from replay.service.common.shapes import end_reason_said, said_fact

ACTIONS = ("amend", "void", "undo", "penalty", "reopen", "end")


@attrs.frozen
class ChangedHand:
    """A ledger entry whose payments a change moves: in words (``payment_said``), before and after
    (empty: not in the ledger then)."""

    before: tuple[Said, ...]
    after: tuple[Said, ...]


@attrs.frozen
class Change:
    """What a correction or an early end did (or would do) to a match.

    ``action`` is ``amend``, ``void``, ``undo``, ``penalty`` (added by a referee), ``reopen`` (an
    early end voided) or ``end``; ``entry`` the number of the entry it touched (for a correction of
    a correction, the entry that correction came down to; for a penalty added or an end, its own
    number); ``target`` the number as it was asked for (a correction's own number, when one was
    corrected); ``correction`` the number of the correction's own entry (None for an end).
    ``before`` and ``after`` say what stood at the entry, in words (``domain.said``; None: nothing;
    ``void``: the entry voided); ``fields`` the text fields that changed (name, before, after: the
    entry's text fields, as a form or the JSON API sends them); ``hands`` every hand whose payments
    changed; the scores before and after (the final ones when the match ended).
    """

    action: str
    entry: int | None
    target: int | None
    correction: int | None
    before: Said | Listed | None
    after: Said | Listed | None
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
    was: Said | Listed | None
    now: Said | Listed
    if correction is None:
        # An early end: the match with and without it.
        end = facts[position]
        assert isinstance(end, MatchEnd), f"no correction nor end at {position}"
        before_ledger = _ledger(match, [(p, f) for p, f in match.history if p != position], log)
        after_ledger = _ledger(match, list(match.history), log)
        was, now, root, kind = None, said_fact(end, players, scoring), position, action or "end"
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
        was = None if was_fact is None else said_fact(was_fact, players, scoring)
        now = Said("void") if now_fact is None else said_fact(now_fact, players, scoring)
        if correction.target is not None and was_fact is None:
            was = Said("void")
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
                tuple(payment_said(old, players, scoring)) if old is not None else (),
                tuple(payment_said(new, players, scoring)) if new is not None else (),
            )
        )
    return tuple(hands)


def _shown_field(value: Any) -> str:
    if value is None:
        return ""
    return ", ".join(value) if isinstance(value, list) else str(value)


def payment_lines(entry: LedgerEntry, players: Sequence[str], scoring: str) -> list[str]:
    """One ledger entry in words: what it is (in the words of the rules' family, ``scoring``), then
    one line per payer and payee, e.g. ``Cho pays Ben 3,900 + 300 counters + 1,000 deposits``: the
    English of ``payment_said``."""
    return [str(line) for line in payment_said(entry, players, scoring)]


def payment_said(entry: LedgerEntry, players: Sequence[str], scoring: str) -> list[Said]:
    """``payment_lines`` as words (``domain.said``), for a page in another language."""
    lines = [entry_title(entry, players, scoring), *(_payment_said(row) for row in payment_data(entry, players))]
    if entry.kind != "end" and not entry.payments:
        lines.append(Said("no payments"))
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


# A payment's reason in words (``payment_data``'s ``reason``): the short ones, then each ``Reason``'s own.
_REASONS = {
    "counters": Said("counters"),
    "deposits": Said("deposits"),
    "deposit": Said("deposit"),
    Reason.LIABILITY.value: Said("liability (pao)"),
    Reason.EXTRA_HAND_BONUS.value: Said("extra-hand bonus"),
    Reason.DEALER_BONUS.value: Said("dealer bonus"),
    Reason.LOSER_SETTLEMENT.value: Said("loser settlement"),
    Reason.KITTY.value: Said("kitty"),
    Reason.GOULASH.value: Said("Goulash bonus"),
    Reason.NOTEN.value: Said("noten payment"),
    Reason.NAGASHI.value: Said("nagashi mangan"),
    Reason.PENALTY.value: Said("penalty"),
    Reason.LEFTOVER.value: Said("leftover deposits"),
}


def _payment_said(row: dict[str, Any]) -> Said:
    """One payer's and payee's payments (a row of ``payment_data``) in words: ``Cho pays Ben 3,900 +
    300 counters``, ``Ann puts 1,000 deposit on the table``, ``the table gives Ben 1,000 deposits``."""
    table = Said("the table")
    who: str | Said = table if row["payer"] is None else row["payer"]
    amounts = listed(
        [
            Said("{amount:,} {reason}", amount=p["amount"], reason=_REASONS.get(p["reason"], p["reason"]))
            if p["reason"]
            else Said("{amount:,}", amount=p["amount"])
            for p in row["parts"]
        ],
        " + ",
    )
    if row["payee"] is None:
        return Said("{payer} puts {amount} on the table", payer=who, amount=amounts)
    if row["payer"] is None:
        return Said("the table gives {payee} {amount}", payee=row["payee"], amount=amounts)
    return Said("{payer} pays {payee} {amount}", payer=who, payee=row["payee"], amount=amounts)


class Opening(Said):
    """Words that open a sentence: said with a capital first letter (``Entry 8 voided``; a language
    without capitals as it is)."""

    def spoken(self, look_up: Callable[[str], str]) -> str:
        """The sentence said (``Said.spoken``), its first letter a capital."""
        text = super().spoken(look_up)
        return text[:1].upper() + text[1:]


def opening(said: Said) -> Opening:
    """``said`` as the opening of a sentence (``Opening``)."""
    opened = object.__new__(Opening)
    opened.__attrs_init__(said.template, said.fields)
    return opened


def change_headline(change: Change) -> str:
    """What a change did, in one phrase every front end says the same way, naming the entry it
    touched and its own: ``entry 8 voided by entry 13``, ``the match ended as entry 11``."""
    return str(change_said(change))


def change_said(change: Change) -> Said:
    """``change_headline`` as words (``domain.said.Said``), for a page in another language."""
    # (an entry's number as the phrase always printed it)
    entry = str(change.entry)
    if change.action == "end":
        return Said("the match ended as entry {entry}", entry=entry)
    if change.action == "penalty":
        return Said("penalty added as entry {entry}", entry=entry)
    by = change.correction
    if change.action == "reopen":
        if by is None:
            return Said("the match reopened: its end, entry {entry}, voided", entry=entry)
        return Said("the match reopened: its end, entry {entry}, voided by entry {by}", entry=entry, by=by)
    if change.target is not None and change.target != change.entry:
        if change.action == "amend":
            if by is None:
                return Said("entry {target} (a correction of entry {entry}) amended", target=change.target, entry=entry)
            return Said(
                "entry {target} (a correction of entry {entry}) amended by entry {by}",
                target=change.target,
                entry=entry,
                by=by,
            )
        if by is None:
            return Said("entry {target} (a correction of entry {entry}) cancelled", target=change.target, entry=entry)
        return Said(
            "entry {target} (a correction of entry {entry}) cancelled by entry {by}",
            target=change.target,
            entry=entry,
            by=by,
        )
    if change.action == "amend":
        if by is None:
            return Said("entry {entry} amended", entry=entry)
        return Said("entry {entry} amended by entry {by}", entry=entry, by=by)
    if change.action == "void":
        if by is None:
            return Said("entry {entry} voided", entry=entry)
        return Said("entry {entry} voided by entry {by}", entry=entry, by=by)
    if by is None:
        return Said("entry {entry} taken back", entry=entry)
    return Said("entry {entry} taken back by entry {by}", entry=entry, by=by)


def change_data(change: Change) -> dict[str, Any]:
    """A change as data (the JSON API's ``correction``): ``{"action", "headline", "entry", "target",
    "correction", "before", "after", "fields": [{"field", "before", "after"}], "hands": [{"before":
    [...], "after": [...]}], "scores_before", "scores_after", "finished"}``. The headline, ``before``,
    ``after`` and the hands' payments are words (``domain.said``), said in a language before they
    are sent (``replay.web.i18n.spoken``; ``str()`` in English)."""
    return {
        "action": change.action,
        "headline": change_said(change),
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
