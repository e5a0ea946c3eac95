"""Who pays whom for a hand result: every payment itemised with its reason.

``settle`` is the single scoring entry point used by the Match aggregate, the
projections, the importers' verification and the CLI: the same facts and rules
always give the same payments.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import attrs

from domain.errors import PaymentsDoNotBalance
from domain.rules import Ruleset
from domain.scoring.riichi import LIMIT_BASE, base_points, round_up
from domain.values import (
    AbortiveDraw,
    ExhaustiveDraw,
    HandResult,
    Payment,
    Penalty,
    PenaltyShare,
    Reason,
    Seat,
    TableState,
    Win,
    WinResult,
)


@attrs.frozen
class Settlement:
    """The payments of one hand and the deposits left on the table after it."""

    payments: tuple[Payment, ...]
    deposits_after: int

    def deltas(self, players: int) -> tuple[int, ...]:
        """Each seat's score change over the hand, riichi sticks included."""
        return score_changes(self.payments, players)


def score_changes(payments: Iterable[Payment], players: int) -> tuple[int, ...]:
    """Each seat's net change from a set of payments (the table is not a seat)."""
    change = [0] * players
    for p in payments:
        if p.payer is not None:
            change[p.payer] -= p.amount
        if p.payee is not None:
            change[p.payee] += p.amount
    return tuple(change)


def turn_distance(start: Seat, seat: Seat, players: int) -> int:
    """How many turns after ``start`` the ``seat`` plays (1 = the next player)."""
    return (seat - start) % players


def nearest_winner(result: WinResult, players: int) -> Win:
    """The winner nearest the discarder in turn order (the one who takes counters)."""
    first = result.wins[0]
    if first.discarder is None:
        return first
    discarder = first.discarder
    return min(result.wins, key=lambda w: turn_distance(discarder, w.winner, players))


def _riichi_sticks(riichi: Iterable[Seat], rules: Ruleset) -> list[Payment]:
    return [Payment(seat, None, rules.riichi_deposit, Reason.RIICHI_STICK) for seat in riichi]


def hand_value_payments(win: Win, state: TableState, rules: Ruleset) -> list[Payment]:
    """What the losers pay for the hand's value (no counters, no deposits)."""
    points = base_points(win.value, rules)
    note = win.value.describe()
    if points.limit is not None and win.value.limit is None:
        note = f"{note} = {points.limit}"
    base = points.base
    dealer_won = win.winner == state.dealer
    payments: list[Payment] = []
    if win.discarder is not None:
        total = round_up(base * (6 if dealer_won else 4), rules.round_payments_to)
        if win.liable is not None and win.liable != win.discarder:
            half = round_up(total // 2, rules.round_payments_to)
            payments.append(Payment(win.liable, win.winner, half, Reason.LIABILITY, note))
            payments.append(Payment(win.discarder, win.winner, total - half, Reason.HAND, note))
        else:
            payments.append(Payment(win.discarder, win.winner, total, Reason.HAND, note))
        return payments
    others = [s for s in range(state.players) if s != win.winner]
    shares = {
        s: round_up(base * (2 if dealer_won or s == state.dealer else 1), rules.round_payments_to) for s in others
    }
    if state.players == 3 and not rules.tsumo_loss:
        # The absent fourth player's share (a non-dealer's) is split between the payers.
        missing = base * (2 if dealer_won else 1)
        shares = {
            s: round_up(base * (2 if dealer_won or s == state.dealer else 1) + missing // 2, rules.round_payments_to)
            for s in others
        }
    if win.liable is not None:
        total = sum(shares.values())
        return [Payment(win.liable, win.winner, total, Reason.LIABILITY, note)]
    return [Payment(s, win.winner, amount, Reason.HAND, note) for s, amount in shares.items()]


def counter_payments(win: Win, state: TableState, rules: Ruleset) -> list[Payment]:
    """The counters (honba) bonus: from the discarder on a ron, from each payer on a tsumo."""
    if state.counters == 0 or rules.counter_per_payer == 0:
        return []
    note = f"{state.counters} counter{'s' if state.counters != 1 else ''}"
    if win.discarder is not None:
        # With a liable player (pao) the counters are theirs to pay, as Tenhou rules it.
        payer = win.liable if win.liable is not None else win.discarder
        amount = rules.counter_on_ron * state.counters
        return [Payment(payer, win.winner, amount, Reason.COUNTERS, note)]
    per_payer = rules.counter_per_payer * state.counters
    if win.liable is not None:
        total = per_payer * (state.players - 1)
        return [Payment(win.liable, win.winner, total, Reason.COUNTERS, note)]
    return [Payment(s, win.winner, per_payer, Reason.COUNTERS, note) for s in range(state.players) if s != win.winner]


def settle_win(result: WinResult, state: TableState, rules: Ruleset) -> Settlement:
    """Payments for one or more winners: each is paid as if alone; counters and
    deposits go to the winner nearest the discarder (or to each, by rule)."""
    payments = _riichi_sticks(result.riichi, rules)
    on_table = state.deposits + rules.riichi_deposit * len(result.riichi)
    taker = nearest_winner(result, state.players)
    for win in result.wins:
        payments += hand_value_payments(win, state, rules)
        if win is taker or rules.multiple_ron_counters == "each":
            payments += counter_payments(win, state, rules)
        if win is taker and on_table:
            payments.append(Payment(None, win.winner, on_table, Reason.DEPOSITS))
    return Settlement(tuple(payments), 0)


def settle_exhaustive_draw(result: ExhaustiveDraw, state: TableState, rules: Ruleset) -> Settlement:
    """Noten payments from the not-ready to the ready, or nagashi mangan instead."""
    payments = _riichi_sticks(result.riichi, rules)
    deposits = state.deposits + rules.riichi_deposit * len(result.riichi)
    if result.nagashi and rules.nagashi_mangan:
        for seat in result.nagashi:
            for payer in range(state.players):
                if payer == seat:
                    continue
                factor = 2 if seat == state.dealer or payer == state.dealer else 1
                amount = LIMIT_BASE["mangan"] * factor
                payments.append(Payment(payer, seat, amount, Reason.NAGASHI))
        return Settlement(tuple(payments), deposits)
    ready = sorted(set(result.ready))
    noten = [s for s in range(state.players) if s not in ready]
    if ready and noten and rules.noten_pool:
        share = rules.noten_pool // (len(ready) * len(noten))
        for payer in noten:
            for payee in ready:
                payments.append(Payment(payer, payee, share, Reason.NOTEN))
    return Settlement(tuple(payments), deposits)


def settle_abortive_draw(result: AbortiveDraw, state: TableState, rules: Ruleset) -> Settlement:
    """An abortive draw moves only the riichi sticks placed in the hand."""
    payments = _riichi_sticks(result.riichi, rules)
    return Settlement(tuple(payments), state.deposits + rules.riichi_deposit * len(result.riichi))


def settle(result: HandResult, state: TableState, rules: Ruleset) -> Settlement:
    """The payments of a hand result at this table state under these rules."""
    if isinstance(result, WinResult):
        settlement = settle_win(result, state, rules)
    elif isinstance(result, ExhaustiveDraw):
        settlement = settle_exhaustive_draw(result, state, rules)
    else:
        settlement = settle_abortive_draw(result, state, rules)
    check_balance(settlement.payments, state, settlement.deposits_after)
    return settlement


def settle_penalty(penalty: Penalty, state: TableState) -> tuple[Payment, ...]:
    """A penalty: shared by the other players, or taken off the table."""
    note = penalty.kind + (f": {penalty.note}" if penalty.note else "")
    if penalty.share is PenaltyShare.OFF_TABLE:
        return (Payment(penalty.seat, None, penalty.amount, Reason.PENALTY, note),)
    others = [s for s in range(state.players) if s != penalty.seat]
    share, rest = divmod(penalty.amount, len(others))
    # Any remainder goes to the first player after the offender so nothing is lost.
    return tuple(
        Payment(penalty.seat, s, share + (rest if i == 0 else 0), Reason.PENALTY, note) for i, s in enumerate(others)
    )


def check_balance(payments: Sequence[Payment], state: TableState, deposits_after: int) -> None:
    """Payments between players sum to zero and the table's sticks are conserved."""
    to_table = sum(p.amount for p in payments if p.payee is None and p.payer is not None)
    from_table = sum(p.amount for p in payments if p.payer is None and p.payee is not None)
    if state.deposits + to_table - from_table != deposits_after:
        raise PaymentsDoNotBalance(
            f"deposits not conserved: {state.deposits} on the table + {to_table} placed "
            f"- {from_table} taken != {deposits_after} left"
        )
    for p in payments:
        if p.amount < 0:
            raise PaymentsDoNotBalance(f"negative payment {p.amount} ({p.reason.value})")
        if p.payer is not None and p.payer == p.payee:
            raise PaymentsDoNotBalance(f"seat {p.payer} pays itself ({p.reason.value})")
