"""Entering results at a table, shared by the front ends (``honba win``, ``honba serve``).

What a person typed or tapped (a winner and a value such as ``3/30``, a discarder, the
riichi declared, a penalised player) becomes a domain result here, once: the command line
and the web page call the same functions. ``preview`` applies the command to the match as
stored, in memory, and reports what it would pay, so the rules check the entry before the
confirm step and nothing is stored; ``apply_entry`` is the one place the front ends call
the application's recording and correcting methods (so a change of their signatures is
adapted here, once).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

import attrs

from domain.errors import RuleViolation
from domain.match import Match
from domain.rules import Ruleset
from domain.scoring.payments import penalty_at
from domain.values import (
    AbortiveDraw,
    AbortKind,
    ExhaustiveDraw,
    HandResult,
    Payment,
    Penalty,
    Reason,
    TableState,
    Win,
    WinFacts,
    WinResult,
)
from projections.ledger import LedgerEntry, corrected_ledger
from replay.input.parsing import InputError, parse_value, seat_of, seats_of
from replay.service.corrections import add_penalty, amend, undo, void
from replay.service.recording import Recorded, penalise, record, server_time
from replay.service.shapes import describe_fact
from replay.store.application import HonbaApp


def win_result(
    players: Sequence[str],
    winners: Sequence[str],
    discarder: int | None,
    liable: int | None,
    riichi: str | None,
    dora: int | None,
    facts: WinFacts | None = None,
    scores: tuple[int, ...] = (),
) -> WinResult:
    """A win as typed: ``PLAYER:VALUE`` for each winner (``honba win``, ``honba amend ... win``, the table page)."""
    wins = []
    for spec in winners:
        if ":" not in spec:
            raise InputError(f"write each winner as PLAYER:VALUE, e.g. Ann:3/30 (got {spec!r})")
        name, text = spec.rsplit(":", 1)
        value = parse_value(text)
        if dora is not None:
            value = attrs.evolve(value, dora=dora)
        wins.append(Win(seat_of(name, players), value, discarder, liable, facts or WinFacts(), scores))
    return WinResult(tuple(wins), seats_of(riichi, players))


def penalty_fact(
    players: Sequence[str],
    state: TableState,
    rules: Ruleset,
    player: str,
    amount: int | None,
    kind: str,
    share: str | None,
    note: str,
) -> Penalty:
    """A penalty as typed (``honba penalty``, ``honba amend ... penalty``, the table page), at the table ``state``.

    The defaults and the reverse mangan's amount are the rules' (``domain.scoring.payments.penalty_at``).
    """
    if share not in (None, "to_others", "off_table", "reverse_mangan"):
        raise InputError(f"--share must be to_others, reverse_mangan or off_table, not {share!r}")
    try:
        return penalty_at(seat_of(player, players), state, rules, amount=amount, kind=kind, share=share, note=note)
    except RuleViolation as exc:
        # Said in the command's own words: the amount is an option.
        raise InputError(str(exc).replace("leave out the amount", "leave out --amount")) from None


class FieldError(InputError):
    """Input a form cannot be recorded with, naming the field it belongs next to."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


@attrs.frozen
class Entry:
    """One thing entered at a table, as plain form or JSON fields.

    ``kind`` is ``win``, ``draw``, ``abort``, ``penalty`` or ``undo``. A win names its
    ``winner`` and ``value`` (``3/30``, ``mangan``; or ``han`` and ``fu``), the ``discarder``
    (none for self-drawn), the player ``pao`` liable; a draw the ``ready`` and ``nagashi``
    players; an abortive draw its ``abort`` kind; a penalty its ``player``, ``amount``
    (default the rules') and ``note``. ``riichi`` lists who declared riichi this hand.
    ``winner2`` and ``value2`` name a second winner on the same discard (a double ron).
    """

    kind: str
    winner: str = ""
    value: str = ""
    discarder: str = ""
    pao: str = ""
    riichi: tuple[str, ...] = ()
    ready: tuple[str, ...] = ()
    nagashi: tuple[str, ...] = ()
    abort: str = ""
    player: str = ""
    amount: str = ""
    note: str = ""
    winner2: str = ""
    value2: str = ""

    @classmethod
    def from_fields(cls, fields: Mapping[str, Any]) -> Entry:
        """An entry from form or JSON fields (lists for riichi, ready and nagashi; a value from
        ``han`` and ``fu`` or a ``limit`` when no ``value`` is given)."""

        def text(name: str) -> str:
            value = fields.get(name)
            return "" if value is None else str(value).strip()

        def names(name: str) -> tuple[str, ...]:
            value = fields.get(name)
            if value is None:
                return ()
            items = value if isinstance(value, list | tuple) else str(value).split(",")
            return tuple(str(v).strip() for v in items if str(v).strip())

        def value_of(suffix: str) -> str:
            value = text("value" + suffix) or text("limit" + suffix)
            han, fu = text("han" + suffix), text("fu" + suffix)
            if not value and han:
                value = f"{han}/{fu}" if fu else f"{han}han"
            return value

        return cls(
            kind=text("kind"),
            winner=text("winner"),
            value=value_of(""),
            discarder=text("discarder"),
            pao=text("pao"),
            riichi=names("riichi"),
            ready=names("ready"),
            nagashi=names("nagashi"),
            abort=text("abort"),
            player=text("player"),
            amount=text("amount"),
            note=text("note"),
            winner2=text("winner2"),
            value2=value_of("2"),
        )

    def fields(self) -> dict[str, Any]:
        """The plain fields again (what a confirm step sends back unchanged)."""
        return attrs.asdict(self, value_serializer=lambda _i, _f, v: list(v) if isinstance(v, tuple) else v)


KINDS = ("win", "draw", "abort", "penalty", "undo")


def _seat(field: str, name: str, players: Sequence[str]) -> int:
    try:
        return seat_of(name, players)
    except InputError as exc:
        raise FieldError(field, str(exc)) from None


def _seats(field: str, names: Sequence[str], players: Sequence[str]) -> tuple[int, ...]:
    return tuple(_seat(field, n, players) for n in names)


def entry_fact(entry: Entry, match: Match, state: TableState | None = None) -> HandResult | Penalty:
    """The domain fact an entry stands for at this match's table, or at ``state`` (the table an
    amended entry was played at: a penalty's default amount is the rules' there). Not for ``undo``."""
    players = match.players
    if entry.kind == "win":
        if not entry.winner:
            raise FieldError("winner", "choose the winner")
        if not entry.value:
            raise FieldError("value", "give the hand's value (han and fu, or a limit)")
        winner = _seat("winner", entry.winner, players)
        # Who may win on whose discard, and that no one wins twice, the domain's entry checks decide.
        discarder = _seat("discarder", entry.discarder, players) if entry.discarder else None
        liable = _seat("pao", entry.pao, players) if entry.pao else None
        try:
            value = parse_value(entry.value)
        except InputError as exc:
            raise FieldError("value", str(exc)) from None
        wins = [Win(winner, value, discarder, liable)]
        if entry.winner2:
            if discarder is None:
                raise FieldError("winner2", "a second winner only on a discard: choose the discarder")
            second = _seat("winner2", entry.winner2, players)
            if not entry.value2:
                raise FieldError("value2", "give the second winner's hand value")
            try:
                wins.append(Win(second, parse_value(entry.value2), discarder))
            except InputError as exc:
                raise FieldError("value2", str(exc)) from None
        return WinResult(tuple(wins), _seats("riichi", entry.riichi, players))
    if entry.kind == "draw":
        return ExhaustiveDraw(
            _seats("ready", entry.ready, players),
            _seats("riichi", entry.riichi, players),
            _seats("nagashi", entry.nagashi, players),
        )
    if entry.kind == "abort":
        kinds = [k.value for k in AbortKind]
        if entry.abort not in kinds:
            raise FieldError("abort", f"choose which abortive draw ({', '.join(kinds)})")
        return AbortiveDraw(AbortKind(entry.abort), _seats("riichi", entry.riichi, players))
    if entry.kind == "penalty":
        if not entry.player:
            raise FieldError("player", "choose the player penalised")
        amount = None
        if entry.amount:
            if not entry.amount.isdigit():
                raise FieldError("amount", f"the amount is a whole number of points, not {entry.amount!r}")
            amount = int(entry.amount)
        _seat("player", entry.player, players)
        try:
            table = match.state if state is None else state
            return penalty_fact(players, table, match.rules, entry.player, amount, "chombo", None, entry.note)
        except InputError as exc:
            raise FieldError("amount", str(exc).replace("leave out --amount", "leave the amount empty")) from None
    raise FieldError("kind", f"choose what happened ({', '.join(KINDS)})")


def apply_entry(
    app: HonbaApp, key: str, entry: Entry, *, client_key: str | None, by: str = "table", reason: str = "undo"
) -> Recorded:
    """Record an entry on the stored match (the one call the web front end makes): the match is
    loaded once, the entry read at its table, and saved once."""
    if entry.kind == "undo":
        return undo(app, key, by=by, reason=reason, client_key=client_key)
    if entry.kind == "penalty":
        return penalise(app, key, lambda match: _penalty(entry_fact(entry, match)), client_key=client_key)
    return record(app, key, lambda match: _result(entry_fact(entry, match)), client_key=client_key)


def _penalty(fact: HandResult | Penalty) -> Penalty:
    if not isinstance(fact, Penalty):
        raise FieldError("kind", "a penalty is added here; a hand is amended")
    return fact


def _result(fact: HandResult | Penalty) -> HandResult:
    assert not isinstance(fact, Penalty)  # a penalty's entry is recorded by penalise
    return fact


CORRECTIONS = ("void", "amend", "penalty")


def apply_correction(
    app: HonbaApp,
    key: str,
    action: str,
    *,
    target: int | None,
    entry: Entry | None,
    by: str,
    reason: str,
    client_key: str | None,
) -> Recorded:
    """A referee's correction: void or amend the entry numbered ``target`` (the number
    ``honba log`` and the pages show: its line in the exported record file), or add a penalty
    (also after the end). The one call the web front end makes for corrections."""
    if not by.strip():
        raise FieldError("by", "say who makes the correction")
    if not reason.strip():
        raise FieldError("reason", "say why")
    if action == "penalty":
        if entry is None:
            raise FieldError("player", "choose the player penalised")
        penalty = entry
        return add_penalty(
            app, key, lambda match: _penalty(entry_fact(penalty, match)), by=by, reason=reason, client_key=client_key
        )
    if target is None:
        raise FieldError("target", "choose the entry to correct")
    if action == "void":
        return void(app, key, target, by=by, reason=reason, client_key=client_key)
    if action == "amend":
        if entry is None:
            raise FieldError("kind", "give the entry that replaces it")
        replacement = entry
        return amend(
            app,
            key,
            target,
            lambda match, table: entry_fact(replacement, match, table),
            by=by,
            reason=reason,
            client_key=client_key,
        )
    raise FieldError("action", f"choose one of {', '.join(CORRECTIONS)}")


def apply_to(match: Match, entry: Entry, at: datetime | None = None) -> None:
    """Apply an entry to a match in memory (checked by the rules, stored by nobody); a hand
    result as recorded at ``at``, for the match's clock."""
    if entry.kind == "undo":
        match.undo(by="table", reason="undo")
        return
    fact = entry_fact(entry, match)
    if isinstance(fact, Penalty):
        match.penalise(fact)
    else:
        match.record(fact, at=at)


@attrs.frozen
class Preview:
    """What an entry would record: its description, the payments in words, and the scores after."""

    lines: tuple[str, ...]
    scores_after: dict[str, int]
    hand: str


def preview(app: HonbaApp, key: str, entry: Entry) -> Preview:
    """What recording ``entry`` next would pay, worked out by the domain on the stored match in
    memory: a bad entry is refused here, before the confirm step, and nothing is stored."""
    match = app.get_match(key)
    before = corrected_ledger(match.corrected_steps())
    # At the server's time now, as recording it would be: the end on time shows in the preview.
    apply_to(match, entry, server_time())
    after = corrected_ledger(match.corrected_steps())
    new = after[len(before) :] if entry.kind != "undo" else after
    lines: list[str] = []
    if entry.kind == "undo":
        lines.append("Undo the last entry: a correction, the entry stays in the log, voided")
    for e in new if entry.kind != "undo" else ():
        lines.extend(payment_lines(e, match.players, match.rules.scoring))
    return Preview(tuple(lines), dict(zip(match.players, match.state.scores, strict=True)), match.state.hand_label)


def payment_lines(entry: LedgerEntry, players: Sequence[str], scoring: str) -> list[str]:
    """One ledger entry in words: what it is (in the words of the rules' family, ``scoring``), then
    one line per payer and payee, e.g. ``Cho pays Ben 3,900 + 300 counters + 1,000 deposits``."""
    if entry.kind == "end":
        return [f"The match ends ({entry.after.end_reason})"] if entry.after.end_reason else ["The match ends"]
    lines = [f"{entry.before.hand_label}: {describe_fact(entry.fact, players, scoring)}"]
    grouped: dict[tuple[int | None, int | None], list[Payment]] = {}
    for payment in entry.payments:
        grouped.setdefault((payment.payer, payment.payee), []).append(payment)
    for (payer, payee), payments in grouped.items():
        lines.append(_payment_line(payer, payee, payments, players))
    if not entry.payments:
        lines.append("no payments")
    return lines


_SHORT = {Reason.HAND: "", Reason.COUNTERS: "counters", Reason.DEPOSITS: "deposits", Reason.RIICHI_STICK: "deposit"}


def _payment_line(payer: int | None, payee: int | None, payments: Sequence[Payment], players: Sequence[str]) -> str:
    who = "the table" if payer is None else players[payer]
    whom = "the table" if payee is None else players[payee]
    parts = []
    for p in payments:
        label = _SHORT.get(p.reason, p.reason.value)
        parts.append(f"{p.amount:,}" + (f" {label}" if label else ""))
    if payee is None:
        return f"{who} puts {' + '.join(parts)} on the table"
    verb = "pays" if payer is not None else "gives"
    return f"{who} {verb} {whom} {' + '.join(parts)}"
