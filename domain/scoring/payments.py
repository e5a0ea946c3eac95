"""Who pays whom for a hand result: every payment itemised with its reason.

``settle`` is the single scoring entry point used by the Match aggregate, the
projections, the importers' verification and the CLI: the same facts and rules
always give the same payments.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from domain.errors import PaymentsDoNotBalance, RuleViolation
from domain.rules import Ruleset
from domain.said import Said
from domain.scoring.memo import MEMO_SIZE, rules_memo, value_key
from domain.scoring.points import loser_score, winner_score
from domain.scoring.riichi import base_points, round_up
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
    if first.discarder is None or len(result.wins) == 1:
        return first
    discarder = first.discarder
    return min(result.wins, key=lambda w: turn_distance(discarder, w.winner, players))


def _riichi_sticks(riichi: Sequence[Any], rules: Ruleset) -> list[Payment]:
    if not riichi:
        return []  # (no riichi: most hands)
    # The stick each seat places is the same payment every hand under these rules: made once.
    sticks = rules_memo(rules).sticks
    placed = []
    # Each seat as the caller's object (``Any``, not ``Seat``): compiled by mypyc, a seat read from a
    # sequence of ``int`` is a machine integer, and ``True`` would be asked its type as 1 and find seat
    # 1's stick.
    for seat in riichi:
        stick = sticks.get(seat)
        if stick is None or type(seat) is not int:
            stick = Payment(seat, None, rules.riichi_deposit, Reason.RIICHI_STICK)
            if type(seat) is int:
                sticks[seat] = stick
        placed.append(stick)
    return placed


def losers_of(winner: Seat, state: TableState) -> list[Seat]:
    """Every seat but the winner's, in seat order."""
    return [s for s in range(state.players) if s != winner]


def east_factor(winner: Seat, loser: Seat | None, state: TableState, rules: Ruleset) -> int:
    """2 when East (the dealer) is the winner or this loser and the rules double East's payments."""
    return 2 if rules.east_double and state.dealer in (winner, loser) else 1


def payment_double(win: Win, loser: Seat | None, rules: Ruleset) -> int:
    """2 where the Chinese Modern scheme doubles this loser's share: every loser of a
    self-drawn win, or the discarder of the winning tile (``None`` is an absent seat)."""
    # (``win.self_drawn`` is ``discarder is None``: read here without the property, per loser of every win.)
    if win.discarder is None:
        return 2 if rules.self_drawn_pays_double else 1
    return 2 if rules.discarder_pays_double and loser is not None and loser == win.discarder else 1


def discarder_share(amount: int, win: Win, loser: Seat, rules: Ruleset) -> int:
    """A loser's share of the hand's value with the discarder's percent applied (rounded up)."""
    if loser != win.discarder or win.discarder is None or rules.discarder_pays_percent == 100:
        return amount
    return -(-amount * rules.discarder_pays_percent // 100)


def hand_unit(win: Win, state: TableState, rules: Ruleset) -> tuple[int, str]:
    """What one ordinary loser owes for the hand before East's double, with the ledger's note.

    Riichi: the base points from han and fu or the mangan table. Points rules: the
    winner's score after doubles, the settling table and the limit. A valid special
    hand (checked before recording) pays the rules' special-hand limit.
    """
    if win.facts.special_hands:
        names = ", ".join(n.replace("_", " ") for n in win.facts.special_hands)
        return rules.limit * rules.special_hand_percent // 100, f"special hand: {names}"
    if rules.scoring == "riichi":
        points = base_points(win.value, rules)
        note = win.value.describe()
        if points.limit is not None and win.value.limit is None:
            note = f"{note} = {points.limit}"
        return points.base, note
    score = winner_score(win.value, rules)
    return score.points, score.note


def route(
    win: Win,
    owed: dict[Seat, int],
    state: TableState,
    rules: Ruleset,
    reason: Reason,
    note: str,
    *,
    absent: int = 0,
    liable_split: bool = True,
    unit: int = 1,
) -> list[Payment]:
    """Turn what each loser owes into payments under the rules' paying method.

    Self-drawn: every loser pays his own share. On a discard the discarder pays for all
    losers, only for himself, or not at all specially (every loser pays), by rule.
    ``absent`` is the share of the missing fourth player at a three-player table. A
    liable player (pao) pays what a self-drawn win costs everyone; on a discard the hand
    value is split with the discarder (``liable_split``), while bonuses are his alone.
    """
    winner = win.winner
    if win.self_drawn:
        if absent and not rules.tsumo_loss and owed:
            extra = absent // len(owed)
            owed = {s: amount + extra for s, amount in owed.items()}
        if win.liable is not None:
            total = sum(round_up(a, unit) for a in owed.values())
            return [Payment(win.liable, winner, total, Reason.LIABILITY if reason is Reason.HAND else reason, note)]
        return [Payment(s, winner, round_up(a, unit), reason, note) for s, a in owed.items() if a]
    discarder = win.discarder
    assert discarder is not None
    if rules.loser_payment == "discarder_pays_alone":
        return [Payment(discarder, winner, round_up(owed[discarder], unit), reason, note)]
    if rules.loser_payment == "each_loser":
        return [Payment(s, winner, round_up(a, unit), reason, note) for s, a in owed.items() if a]
    total = round_up(sum(owed.values()) + (absent if rules.three_player_ron_as_four else 0), unit)
    if win.liable is not None and win.liable != discarder:
        if not liable_split:
            return [Payment(win.liable, winner, total, reason, note)]
        half = round_up(total // 2, unit)
        return [
            Payment(win.liable, winner, half, Reason.LIABILITY if reason is Reason.HAND else reason, note),
            Payment(discarder, winner, total - half, reason, note),
        ]
    return [Payment(discarder, winner, total, reason, note)]


def hand_value_payments(win: Win, state: TableState, rules: Ruleset) -> tuple[Payment, ...]:
    """What the losers pay for the hand's value (no bonuses, no deposits).

    The same for every hand of the same value, seats and dealer under the same rules (a special
    hand's aside): worked out once per set of rules (``domain.scoring.memo``), the payments being
    frozen values."""
    if win.facts.special_hands:
        return _hand_value_payments(win, state, rules)
    kept = rules_memo(rules).payments
    # The value's key itself in the key (kept by the value: found by its identity, not item by item).
    key = (value_key(win.value), *_seats_key(win, state))
    payments = kept.get(key)
    if payments is None:
        payments = _hand_value_payments(win, state, rules)
        if len(kept) < MEMO_SIZE:
            kept[key] = payments
    return payments


def _seats_key(win: Win, state: TableState) -> tuple[object, ...]:
    """What a win's payments read of its seats and the table: the winner, discarder and liable
    player, the dealer and the players, with the seats' types (a memo's key: ``True`` is no seat 1)."""
    winner, discarder, liable, dealer = win.winner, win.discarder, win.liable, state.dealer
    return (
        winner,
        discarder,
        liable,
        dealer,
        state.players,
        type(winner),
        type(discarder),
        type(liable),
        type(dealer),
    )


def _hand_value_payments(win: Win, state: TableState, rules: Ruleset) -> tuple[Payment, ...]:
    value, note = hand_unit(win, state, rules)
    owed = {
        s: discarder_share(
            value * east_factor(win.winner, s, state, rules) * payment_double(win, s, rules), win, s, rules
        )
        for s in losers_of(win.winner, state)
    }
    # At a three-player table the missing fourth seat is a non-dealer.
    absent = (
        value * east_factor(win.winner, None, state, rules) * payment_double(win, None, rules)
        if state.players == 3
        else 0
    )
    return tuple(route(win, owed, state, rules, Reason.HAND, note, absent=absent, unit=rules.round_payments_to))


def bonus_payments(
    win: Win, per_loser: int, state: TableState, rules: Ruleset, reason: Reason, note: str, *, east_pays: bool
) -> list[Payment]:
    """A bonus paid after the limit and the doubles (never doubled nor cut).

    With ``east_pays`` (the Taiwanese option) a non-East winner gets it from East alone,
    just for East himself, and only when self-drawn or on East's discard.
    """
    if east_pays and win.winner != state.dealer and (win.self_drawn or win.discarder == state.dealer):
        return [Payment(state.dealer, win.winner, per_loser, reason, note)]
    owed = {s: per_loser for s in losers_of(win.winner, state)}
    return route(win, owed, state, rules, reason, note, liable_split=False)


def extra_hand_count(state: TableState, rules: Ruleset) -> int:
    """The count the extra-hand bonus uses: Japanese counters or the dealer's extra hands."""
    return state.counters if rules.extra_hand_counter == "counters" else state.extra_hands


def pending_extra_hand_bonus(state: TableState, rules: Ruleset) -> int:
    """The extra-hand bonus in force for the next hand, per loser (the seeds' status-bar figure)."""
    return rules.extra_hand_bonus * extra_hand_count(state, rules) if rules.extra_hand_bonus_enabled else 0


def extra_hand_bonus(win: Win, state: TableState, rules: Ruleset) -> Sequence[Payment]:
    """The bonus for dealer's extra hands (riichi's counters): bonus x count per loser.

    The same for every hand of the same count, seats and dealer under the same rules: worked out
    once per set of rules (``domain.scoring.memo``)."""
    count = extra_hand_count(state, rules)
    if not rules.extra_hand_bonus_enabled or count == 0:
        return ()
    kept = rules_memo(rules).bonuses
    key = (count, type(count), *_seats_key(win, state))
    payments = kept.get(key)
    if payments is None:
        payments = tuple(_extra_hand_bonus(win, state, rules, count))
        if len(kept) < MEMO_SIZE:
            kept[key] = payments
    return payments


def _extra_hand_bonus(win: Win, state: TableState, rules: Ruleset, count: int) -> list[Payment]:
    if win.winner != state.dealer:
        # Seed 000's two boxes: East alone pays a non-East winner self-drawn or on East's
        # discard; otherwise a non-East winner is paid only where "pay to any winner" is on.
        from_east = rules.extra_hand_bonus_from_east and (win.self_drawn or win.discarder == state.dealer)
        if not (from_east or rules.extra_hand_bonus_any_winner):
            return []
    if rules.extra_hand_counter == "counters":
        reason, note = Reason.COUNTERS, f"{count} counter{'s' if count != 1 else ''}"
    else:
        reason, note = Reason.EXTRA_HAND_BONUS, f"extra hand {count}"
    east_pays = rules.extra_hand_bonus_from_east
    return bonus_payments(win, rules.extra_hand_bonus * count, state, rules, reason, note, east_pays=east_pays)


def dealer_bonus(win: Win, state: TableState, rules: Ruleset) -> list[Payment]:
    """The dealer bonus: to an East winner by the paying method, or from East by option."""
    if not rules.dealer_bonus_enabled:
        return []
    # Seed 001: a non-East winner gets it only from East, self-drawn or on East's discard.
    from_east = rules.dealer_bonus_from_east and (win.self_drawn or win.discarder == state.dealer)
    if win.winner != state.dealer and not from_east:
        return []
    return bonus_payments(
        win,
        rules.dealer_bonus,
        state,
        rules,
        Reason.DEALER_BONUS,
        "dealer bonus",
        east_pays=rules.dealer_bonus_from_east,
    )


def loser_settlement(win: Win, state: TableState, rules: Ruleset) -> list[Payment]:
    """Losers settle the differences of their own hand scores among themselves (classical rules).

    Each score is cut to the limit first, or, under the American Modern rule, the
    difference itself is cut; East pays or receives double. Not after a special hand.
    """
    # A special (limit) hand is paid as the limit alone: nothing is settled between losers.
    if not rules.losers_settle or not win.loser_scores or win.facts.special_hands:
        return []
    losers = losers_of(win.winner, state)
    scores = {s: loser_score(win.loser_scores[s], rules) for s in losers}
    payments = []
    for i, a in enumerate(losers):
        for b in losers[i + 1 :]:
            difference = scores[a] - scores[b]
            if difference == 0:
                continue
            high, low = (a, b) if difference > 0 else (b, a)
            amount = abs(difference)
            note = f"{scores[high]} against {scores[low]}"
            if rules.limit_on_loser_difference and rules.limit and amount > rules.limit:
                note += f", difference {amount} cut to the limit"
                amount = rules.limit
            amount *= 2 if rules.east_double and state.dealer in (a, b) else 1
            payments.append(Payment(low, high, amount, Reason.LOSER_SETTLEMENT, note))
    return payments


def has_pools(rules: Ruleset) -> bool:
    """Whether the rules stake a kitty or a Goulash pool (no riichi rule set does: then nothing is
    ever at stake or pending, and the pools need not be looked at)."""
    return bool(rules.kitty_stake or rules.goulash_stake)


def kitty_now(state: TableState, rules: Ruleset) -> int:
    """What each player has at stake in the kitty during this deal (this deal's stake included)."""
    return state.kitty_pending + rules.kitty_stake if rules.kitty_stake else 0


def goulash_now(state: TableState, rules: Ruleset) -> int:
    """What each player has at stake in the Goulash pool during this deal (0 outside a Goulash deal)."""
    return state.goulash_pending + rules.goulash_stake if rules.goulash_stake and state.goulash_deal else 0


def pool_payments(win: Win, state: TableState, rules: Ruleset) -> list[Payment]:
    """The kitty (to a pung hand) and the Goulash pool, collected from each loser's own stake.

    Like penalties they are paid after everything else, never doubled nor cut, and a
    discarder pays only his own stake.
    """
    payments: list[Payment] = []
    if not has_pools(rules):
        return payments
    kitty = kitty_now(state, rules)
    if kitty and win.facts.pung_hand:
        note = f"{kitty} staked by each player"
        payments += [Payment(s, win.winner, kitty, Reason.KITTY, note) for s in losers_of(win.winner, state)]
    goulash = goulash_now(state, rules)
    if goulash:
        note = f"{goulash} staked by each player"
        payments += [Payment(s, win.winner, goulash, Reason.GOULASH, note) for s in losers_of(win.winner, state)]
    return payments


def hand_penalties(win: Win) -> list[Payment]:
    """Penalties attached to this win, each paid by its offender to the winner after the limit
    and the doubles (seed 002), never doubled nor cut."""
    penalties = win.facts.penalties
    if not penalties:
        return []
    return [
        Payment(p.payer, win.winner, p.amount, Reason.PENALTY, p.note or "penalty for this hand") for p in penalties
    ]


def settle_win(result: WinResult, state: TableState, rules: Ruleset) -> Settlement:
    """Payments for one or more winners: each is paid as if alone; the extra-hand bonus and the
    deposits go to the winner nearest the discarder (or the bonus to each, by rule)."""
    payments = _riichi_sticks(result.riichi, rules)
    on_table = state.deposits + rules.riichi_deposit * len(result.riichi)
    taker = nearest_winner(result, state.players)
    for win in result.wins:
        payments += hand_value_payments(win, state, rules)
        payments += loser_settlement(win, state, rules)
        if win is taker or rules.multiple_ron_counters == "each":
            payments += extra_hand_bonus(win, state, rules)
        payments += dealer_bonus(win, state, rules)
        if win is taker and on_table:
            payments.append(Payment(None, win.winner, on_table, Reason.DEPOSITS))
        if win is taker:
            payments += pool_payments(win, state, rules)
        payments += hand_penalties(win)
    return Settlement(tuple(payments), 0)


def settle_exhaustive_draw(result: ExhaustiveDraw, state: TableState, rules: Ruleset) -> Settlement:
    """Noten payments from the not-ready to the ready, or nagashi mangan instead."""
    payments = _riichi_sticks(result.riichi, rules)
    deposits = state.deposits + rules.riichi_deposit * len(result.riichi)
    if result.nagashi and rules.nagashi_mangan:
        for seat in result.nagashi:
            # Paid as a mangan (the limit's 100%) self-drawn, without counters.
            for payer in losers_of(seat, state):
                amount = round_up(rules.limit * east_factor(seat, payer, state, rules), rules.round_payments_to)
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


def reverse_mangan(seat: Seat, state: TableState, rules: Ruleset) -> dict[Seat, int]:
    """What a riichi chombo costs as a reverse mangan: each other player gets what a mangan
    self-drawn win by him would pay (2,000 and 4,000 from the dealer; 4,000 each when the
    offender is the dealer)."""
    return {
        s: round_up(rules.limit * east_factor(seat, s, state, rules), rules.round_payments_to)
        for s in losers_of(seat, state)
    }


def penalty_at(
    seat: Seat,
    state: TableState,
    rules: Ruleset,
    *,
    amount: int | None = None,
    kind: str = "chombo",
    share: str | None = None,
    note: str = "",
) -> Penalty:
    """A penalty as a referee gives it, the rules filling in what is left out.

    The share defaults to the rules' ``chombo_share``, but an amount of the referee's own is
    shared by the others (a reverse mangan has no free amount); the amount defaults to the
    rules' ``chombo_amount``; a reverse mangan's amount follows from who is dealer (8,000 for
    a non-dealer, 12,000 for the dealer under riichi rules) and another amount is refused.
    """
    # Not a starred generator in a tuple display: mypyc 2.4 fails on one.
    if share is not None and share not in [s.value for s in PenaltyShare]:
        raise RuleViolation(
            Said("a penalty's share is to_others, reverse_mangan or off_table, not {share}", share=repr(share))
        )
    how = share or rules.chombo_share
    if share is None and rules.penalties_after_uma:
        # Taken off the final points after uma: nobody receives it, whatever a rule file's default.
        how = PenaltyShare.OFF_TABLE
    if share is None and amount is not None and how == PenaltyShare.REVERSE_MANGAN:
        how = PenaltyShare.TO_OTHERS
    if how == PenaltyShare.REVERSE_MANGAN:
        total = sum(reverse_mangan(seat, state, rules).values())
        if amount is not None and amount != total:
            raise RuleViolation(
                Said("a reverse mangan here is {total}, not {amount}: leave out the amount", total=total, amount=amount)
            )
    else:
        total = amount if amount is not None else rules.chombo_amount
    return Penalty(seat, total, kind, how, note)


def settle_penalty(penalty: Penalty, state: TableState, rules: Ruleset) -> tuple[Payment, ...]:
    """A penalty: shared by the other players, paid as a reverse mangan, or taken off the table."""
    note = penalty.kind + (f": {penalty.note}" if penalty.note else "")
    if penalty.share is PenaltyShare.OFF_TABLE:
        return (Payment(penalty.seat, None, penalty.amount, Reason.PENALTY, note),)
    if penalty.share is PenaltyShare.REVERSE_MANGAN:
        owed = reverse_mangan(penalty.seat, state, rules)
        return tuple(Payment(penalty.seat, s, amount, Reason.PENALTY, note) for s, amount in owed.items())
    others = losers_of(penalty.seat, state)
    share, rest = divmod(penalty.amount, len(others))
    # Any remainder goes to the first player after the offender so nothing is lost.
    return tuple(
        Payment(penalty.seat, s, share + (rest if i == 0 else 0), Reason.PENALTY, note) for i, s in enumerate(others)
    )


def check_balance(payments: Sequence[Payment], state: TableState, deposits_after: int) -> None:
    """Payments between players sum to zero and the table's sticks are conserved."""
    # One pass over the payments (every hand settled checks its own), the refusals in the order
    # they are said: the table's sticks first, then the first payment that is wrong.
    to_table = from_table = 0
    wrong: Payment | None = None
    for p in payments:
        if p.payee is None:
            if p.payer is not None:
                to_table += p.amount
        elif p.payer is None:
            from_table += p.amount
        if wrong is None and (p.amount < 0 or (p.payer is not None and p.payer == p.payee)):
            wrong = p
    if state.deposits + to_table - from_table != deposits_after:
        raise PaymentsDoNotBalance(
            Said(
                "deposits not conserved: {before} on the table + {placed} placed - {taken} taken != {left} left",
                before=state.deposits,
                placed=to_table,
                taken=from_table,
                left=deposits_after,
            )
        )
    if wrong is not None and wrong.amount < 0:
        raise PaymentsDoNotBalance(
            Said("negative payment {amount} ({reason})", amount=wrong.amount, reason=wrong.reason.value)
        )
    if wrong is not None and wrong.payer is not None:  # (a payment of no negative amount: it pays itself)
        raise PaymentsDoNotBalance(
            Said("seat {seat} pays itself ({reason})", seat=wrong.payer, reason=wrong.reason.value)
        )
