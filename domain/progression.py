"""How the table moves on: counters, extra hands, the deal pass, the end of a match.

Every function here is pure. ``after_hand`` applies a hand result to the table
state; ``deal_passes`` says whether the dealer changes; ``next_deal`` moves the
deal; ``match_end_reason`` says whether the match is over; ``finish`` settles
leftover deposits and final points. The Match aggregate and every projection
fold with these same functions (see ``evolve``).
"""

from __future__ import annotations

import operator

import attrs

from domain.errors import DamagedFact
from domain.rules import Ruleset
from domain.said import Said
from domain.scoring.payments import (
    Settlement,
    goulash_now,
    has_pools,
    kitty_now,
    score_changes,
    settle,
    settle_penalty,
)
from domain.special_hands import passes_deal_after
from domain.values import (
    AbortiveDraw,
    DealPass,
    ExhaustiveDraw,
    HandResult,
    MatchEnd,
    Payment,
    Penalty,
    Reason,
    Seat,
    TableState,
    WinResult,
    table_with,
)

Fact = HandResult | DealPass | Penalty | MatchEnd

# The rule ``length`` names the last scheduled round wind.
ROUNDS = ("east", "south", "west", "north")


def initial_state(rules: Ruleset) -> TableState:
    """The table before the first hand: East 1, no counters, everyone at the start score."""
    return TableState(
        players=rules.players, scores=(rules.start_score,) * rules.players, counters_shown=rules.has_counters
    )


def apply_payments(scores: tuple[int, ...], payments: tuple[Payment, ...]) -> tuple[int, ...]:
    """Scores after the payments."""
    # ``score_changes`` gives one change per seat of ``scores``: added seat by seat, in C.
    return tuple(map(operator.add, scores, score_changes(payments, len(scores))))


def dealer_won(result: HandResult, state: TableState) -> bool:
    """True when the dealer is one of the winners."""
    if isinstance(result, WinResult):
        dealer = state.dealer
        for win in result.wins:
            if win.winner == dealer:
                return True
    return False


def deal_passes(result: HandResult, state: TableState, rules: Ruleset) -> bool:
    """Whether the deal passes to the next player after this result."""
    if isinstance(result, WinResult):
        dealer_wins = False
        for win in result.wins:
            if win.winner == state.dealer:
                if passes_deal_after(win, rules):
                    return True
                dealer_wins = True
        return rules.deal_passes_after_dealer_win or not dealer_wins
    if isinstance(result, AbortiveDraw):
        return rules.deal_passes_after_abortive_draw
    if rules.deal_passes_after_draw == "always":
        return True
    if rules.deal_passes_after_draw == "never":
        return False
    return state.dealer not in result.ready


def after_hand(state: TableState, rules: Ruleset, result: HandResult) -> tuple[TableState, Settlement]:
    """The table after a hand result (before any deal pass), and its payments.

    Counters follow the Japanese rule: up by one on a dealer win or any draw,
    back to zero when only non-dealers win.
    """
    settlement = settle(result, state, rules)
    won_by_dealer = dealer_won(result, state)
    # Only a win without the dealer among the winners resets the counters.
    reset = isinstance(result, WinResult) and not won_by_dealer
    counters = 0 if reset else state.counters + 1
    kitty, goulash, goulash_deal = _pools_after(state, rules, result, settlement)
    # The dealer's streak ends with a hand that passes the deal, whether a deal pass follows
    # or the match ends on it (a bust on a non-dealer's win): no extra hand is pending.
    passes = deal_passes(result, state, rules)
    new = table_with(
        state,
        scores=apply_payments(state.scores, settlement.payments),
        kitty_pending=kitty,
        goulash_pending=goulash,
        goulash_deal=goulash_deal,
        counters=counters,
        deposits=settlement.deposits_after,
        consecutive_dealer_wins=0 if passes or not won_by_dealer else state.consecutive_dealer_wins + 1,
        dealer_wins_this_deal=0 if passes else state.dealer_wins_this_deal + (1 if won_by_dealer else 0),
        extra_hands=0 if passes else state.extra_hands + 1,
        hands_played=state.hands_played + 1,
    )
    return new, settlement


def _pools_after(
    state: TableState, rules: Ruleset, result: HandResult, settlement: Settlement
) -> tuple[int, int, bool]:
    """The kitty and Goulash stakes still pending after the hand, and whether the next deal is a Goulash."""
    if not has_pools(rules):
        return 0, 0, False  # nothing pending, no Goulash deal
    collected = {p.reason for p in settlement.payments}
    kitty = 0 if Reason.KITTY in collected else kitty_now(state, rules)
    goulash = goulash_now(state, rules)
    if Reason.GOULASH in collected or (goulash and rules.goulash_draw == "return"):
        goulash = 0
    drawn = isinstance(result, ExhaustiveDraw)
    return kitty, goulash if drawn else 0, bool(rules.goulash_stake) and drawn


def next_deal(state: TableState) -> DealPass:
    """The deal pass from the current dealer to the next player."""
    to_dealer = (state.dealer + 1) % state.players
    hand_number = state.hand_number + 1
    round_wind = state.round_wind
    if hand_number > state.players:
        hand_number = 1
        round_wind += 1
    return DealPass(state.dealer, to_dealer, round_wind, hand_number)


def pass_deal(state: TableState, deal: DealPass) -> TableState:
    """The table after the deal passed: a new dealer, the extra-hand counts reset."""
    return table_with(
        state,
        dealer=deal.to_dealer,
        round_wind=deal.round_wind,
        hand_number=deal.hand_number,
        extra_hands=0,
        consecutive_dealer_wins=0,
        dealer_wins_this_deal=0,
    )


def ranking(scores: tuple[int, ...]) -> list[Seat]:
    """Seats from first to last; equal scores are ranked by seat order from the first dealer."""
    return sorted(range(len(scores)), key=lambda s: (-scores[s], s))


def match_end_reason(
    before: TableState, after: TableState, rules: Ruleset, result: HandResult, passes: bool
) -> str | None:
    """Why the match ends after this hand, or None if it goes on.

    Bust ends it at once. From the last scheduled hand on (South 4 in a hanchan):
    the match ends when the deal passes and someone has reached the return score,
    or when the dealer is top (and at the target) after winning, or after a ready
    hand where the rules stop there. Extension hands end as soon as anyone reaches
    the target; the last hand of the last extension wind always ends it.

    ``before`` is the table as the hand started, ``after`` the table after it
    (before the deal pass).
    """
    if rules.bust and after.scores and min(after.scores) < 0:
        return "bust"
    last_wind = ROUNDS.index(rules.length)
    final_wind = last_wind + rules.extension_winds
    n = before.players
    in_last_hand_or_later = (before.round_wind, before.hand_number) >= (last_wind, n)
    if not in_last_hand_or_later:
        return None
    top = ranking(after.scores)[0]
    # Deposits still on the table do not count toward the target.
    someone_reached_target = after.scores[top] >= rules.target
    if before.round_wind > last_wind and rules.extension_sudden_death and someone_reached_target:
        # Extension hands are sudden death: the first hand that leaves someone at the target ends it.
        return "complete"
    if passes:
        if (before.round_wind, before.hand_number) >= (final_wind, n):
            return "complete"
        return "complete" if someone_reached_target else None
    dealer_on_top = top == before.dealer and someone_reached_target
    if dealer_on_top and rules.dealer_stop_on_win and dealer_won(result, before):
        return "dealer_stop"
    if (
        dealer_on_top
        and rules.dealer_stop_on_ready
        and isinstance(result, ExhaustiveDraw)
        and before.dealer in result.ready
    ):
        return "dealer_stop"
    return None


def following_fact(before: TableState, after: TableState, rules: Ruleset, result: HandResult) -> Fact | None:
    """What a hand result leads to at once: the match's end (``MatchEnd`` with its reason), the
    deal pass (``DealPass``), or None (the dealer keeps the deal). ``before`` is the table as the
    hand started, ``after`` the table after it. The Match records it as its own event; the
    verifier folds it with ``evolve`` like any fact."""
    passes = deal_passes(result, before, rules)
    reason = match_end_reason(before, after, rules, result, passes)
    if reason is not None:
        return MatchEnd(reason)
    return next_deal(after) if passes else None


def after_result(before: TableState, after: TableState, rules: Ruleset, result: HandResult) -> TableState:
    """The table once a hand result scored from ``before`` to ``after`` has led where it leads at
    once: its deal pass or end (``following_fact``) folded with ``evolve``, as the Match folds the
    event it records for it. The verifier's table moves on by it."""
    following = following_fact(before, after, rules, result)
    # Folded as ``evolve`` folds it, without its guard against a fact changed behind honba's back:
    # this one was just made by the rules (``following_fact``), not read from a store.
    return after if following is None else _evolve(after, rules, following)[0]


@attrs.frozen
class Final:
    """Leftover deposits and where they went, final scores and final points."""

    leftover: int
    leftover_to: Seat | None
    scores: tuple[int, ...]
    points: tuple[float, ...]


def _points_before_uma(score: int, rules: Ruleset) -> float:
    """A final score against the return score, in thousands.

    Under ``tenhou`` rounding the score is first rounded to the thousand, half
    away from zero (16,500 -> 17; -8,500 -> -9), as Tenhou's recorded points
    show; ``none`` keeps tenths.
    """
    if rules.points_rounding == "none":
        return round((score - rules.return_score) / 1000, 1)
    thousands = (score + 500) // 1000 if score >= 0 else -((-score + 500) // 1000)
    return float(thousands - rules.return_score // 1000)


def uma_for(scores: tuple[int, ...], rules: Ruleset) -> tuple[int, ...]:
    """The uma by place: fixed, or floating by how many players end below the start score."""
    if rules.uma_floating:
        sinkers = sum(1 for score in scores if score < rules.start_score)
        if 0 < sinkers <= len(rules.uma_floating):
            return rules.uma_floating[sinkers - 1]
    return rules.uma


def final_points(scores: tuple[int, ...], rules: Ruleset, penalties: tuple[int, ...] = ()) -> tuple[float, ...]:
    """Final points: the score against the return score, plus uma, oka to the top, less any
    penalty counted after uma; or, as the rules' ``final_points_by`` says, the net score (the
    points families) or the table points of each place (tied players share them).

    Ties are ranked by seat order (the top player's points are whatever makes the sum
    zero, as Tenhou counts, so the oka and any rounding fall to the top), or, where the
    rules split them, tied players share the uma and oka of the places they hold.
    """
    order = ranking(scores)
    if rules.final_points_by == "net_score":
        points = [float(score - rules.start_score) for score in scores]
        return tuple(p - penalty for p, penalty in zip(points, penalties or (0,) * len(scores), strict=True))
    if rules.final_points_by == "table_points":
        return _shared_by_place(scores, order, [float(t) for t in rules.table_points])
    uma = uma_for(scores, rules)
    points = [0.0] * len(scores)
    if rules.uma_ties == "split":
        bonus = [float(u) for u in uma]
        bonus[0] += rules.oka / 1000
        place = 0
        while place < len(order):
            tied = [s for s in order[place:] if scores[s] == scores[order[place]]]
            share = sum(bonus[place : place + len(tied)]) / len(tied)
            for seat in tied:
                points[seat] = round(_points_before_uma(scores[seat], rules) + share, 1)
            place += len(tied)
    else:
        for place, seat in enumerate(order[1:], start=1):
            points[seat] = round(_points_before_uma(scores[seat], rules) + uma[place], 1)
        # The top's points are what makes the sum zero of what is on the table (Tenhou's: the
        # rounding falls to the top), never of what left it: a penalty taken off the table (and
        # deposits lost) is taken off the player, nobody gains (the EMA's rule), so it is not
        # handed to the top by the sum.
        off_table = rules.start_score * len(scores) - sum(scores)
        points[order[0]] = round(-sum(points) - off_table / 1000, 1)
    if penalties:
        points = [round(p - penalty / 1000, 1) for p, penalty in zip(points, penalties, strict=True)]
    return tuple(points)


@attrs.frozen
class PointsOfSeat:
    """How one seat's final points are made: ``score`` the final score counted against the return
    score (in thousands, rounded as the rules round it; the net score or nothing in the families
    that count no uma), ``uma`` the uma and oka of the place held (shared where tied players
    share them, the remainder of Tenhou's rounding to the top), ``penalty`` what is taken off after
    uma, and ``points`` the final points: ``score + uma - penalty``."""

    score: float
    uma: float
    penalty: float
    points: float


def points_by_seat(
    scores: tuple[int, ...], rules: Ruleset, penalties: tuple[int, ...] = ()
) -> tuple[PointsOfSeat, ...]:
    """Each seat's final points and what they are made of (``final_points``, taken apart)."""
    points = final_points(scores, rules, penalties)
    owed = penalties or (0,) * len(scores)
    parts = []
    for seat, total in enumerate(points):
        if rules.final_points_by == "uma":
            penalty = owed[seat] / 1000
            score = _points_before_uma(scores[seat], rules)
            parts.append(PointsOfSeat(score, round(total - score + penalty, 1), penalty, total))
        else:
            # No uma: the points are the net score (less penalties) or the table points of the place.
            penalty = float(owed[seat]) if rules.final_points_by == "net_score" else 0.0
            parts.append(PointsOfSeat(total + penalty, 0.0, penalty, total))
    return tuple(parts)


def _shared_by_place(scores: tuple[int, ...], order: list[Seat], by_place: list[float]) -> tuple[float, ...]:
    """What each place is worth, tied players sharing equally what the places they hold are worth."""
    points = [0.0] * len(scores)
    place = 0
    while place < len(order):
        tied = [s for s in order[place:] if scores[s] == scores[order[place]]]
        share = round(sum(by_place[place : place + len(tied)]) / len(tied), 1)
        for seat in tied:
            points[seat] = share
        place += len(tied)
    return tuple(points)


def finish(state: TableState, rules: Ruleset) -> Final:
    """Settle the end of the match: leftover deposits, then final points."""
    scores = state.scores
    leftover_to: Seat | None = None
    if state.deposits and rules.leftover_deposits == "top":
        leftover_to = ranking(scores)[0]
        scores = tuple(s + (state.deposits if i == leftover_to else 0) for i, s in enumerate(scores))
    return Final(state.deposits, leftover_to, scores, final_points(scores, rules, state.penalties))


def end_payments(state: TableState, rules: Ruleset) -> tuple[Payment, ...]:
    """The leftover deposits paid out at the end, as ledger payments."""
    return _leftover_payments(finish(state, rules))


def _leftover_payments(final: Final) -> tuple[Payment, ...]:
    if final.leftover_to is None or not final.leftover:
        return ()
    return (Payment(None, final.leftover_to, final.leftover, Reason.LEFTOVER),)


def end_match(state: TableState, rules: Ruleset, end: MatchEnd) -> TableState:
    """The table once the match has ended."""
    return _ended(state, rules, end, finish(state, rules))


def _ended(state: TableState, rules: Ruleset, end: MatchEnd, final: Final) -> TableState:
    """``end_match`` with the end settled (``finish``) already: the fold settles it once for the
    table and its payments."""
    return table_with(
        state,
        scores=final.scores,
        deposits=0 if final.leftover_to is not None or rules.leftover_deposits == "lost" else state.deposits,
        finished=True,
        end_reason=end.reason,
        final_points=final.points,
    )


def seats_named(fact: Fact) -> tuple[int, ...]:
    """Every seat a fact names: winners, discarders, those liable or paying a hand's penalty,
    riichi, ready and nagashi hands, kongs, a penalty's seat, a deal pass's dealers."""
    if isinstance(fact, WinResult):
        named = [*fact.riichi]
        for win in fact.wins:
            named += [win.winner, *(s for s in (win.discarder, win.liable) if s is not None)]
            named += [p.payer for p in win.facts.penalties]
        return tuple(named)
    if isinstance(fact, ExhaustiveDraw):
        return (*fact.ready, *fact.riichi, *fact.nagashi)
    if isinstance(fact, AbortiveDraw):
        return (*fact.riichi, *fact.kongs)
    if isinstance(fact, Penalty):
        return (fact.seat,)
    if isinstance(fact, DealPass):
        return (fact.from_dealer, fact.to_dealer)
    return ()


def evolve(state: TableState, rules: Ruleset, fact: Fact) -> tuple[TableState, tuple[Payment, ...]]:
    """The one transition of the table: a recorded fact applied to a state.

    Returns the new state and the payments the fact caused, so that ledgers and
    scores come from the same computation. A fact naming a seat the table does not have can
    only have been changed behind honba's back (every fact is checked before it is recorded):
    ``DamagedFact``, never an error further on.
    """
    for seat in seats_named(fact):
        if not 0 <= seat < state.players:
            raise DamagedFact(
                Said(
                    "a recorded {fact} names seat {seat}; the table has {players}",
                    fact=type(fact).__name__,
                    seat=seat,
                    players=state.players,
                )
            )
    wrong = impossible(fact)
    if wrong is not None:
        raise DamagedFact(Said("a recorded {fact} {wrong}", fact=type(fact).__name__, wrong=wrong))
    return _transition(state, rules, fact)


def evolve_checked(
    state: TableState, rules: Ruleset, result: HandResult | DealPass
) -> tuple[TableState, tuple[Payment, ...]]:
    """``evolve`` of a hand result that the entry checks (``EntryChecks.hand``) have just passed at
    this very table under these rules: they refuse every seat and value ``evolve``'s guard looks
    for (``seats_named``, ``impossible``), so the guard is not run a second time; or of the deal
    pass the rules made after it (``following_fact``: from the dealer to the next seat of this
    table). The same table and payments as ``evolve``."""
    return _transition(state, rules, result)


def _transition(state: TableState, rules: Ruleset, fact: Fact) -> tuple[TableState, tuple[Payment, ...]]:
    try:
        return _evolve(state, rules, fact)
    except (ValueError, ArithmeticError, LookupError) as exc:
        # Every fact is checked against the table before it is recorded: one that breaks the
        # transition all the same was changed behind honba's back (a value no rule defines).
        # Python's own words on what broke (a key, a division): quoted as they are.
        problem = str(exc)
        raise DamagedFact(
            Said("a recorded {fact} cannot be scored ({problem})", fact=type(fact).__name__, problem=problem)
        ) from None


def impossible(fact: Fact) -> Said | None:
    """What makes a recorded fact one no table can hold, beyond its seats (``seats_named``): a win
    with no winner, a hand value below what any hand is worth, a penalty of nothing. None: none.
    Every fact is checked against the rules before it is recorded, so such a fact was changed
    behind honba's back; the fold says so (``DamagedFact``) rather than score it."""
    if isinstance(fact, WinResult):
        if not fact.wins:
            return Said("has no winner")
        for win in fact.wins:
            value = win.value
            for name in ("han", "fu", "dora", "faan", "doubles", "points"):
                number = getattr(value, name)
                if number is not None and number < 0:
                    # The stored value's own key (han, fu ...): data, as the store holds it.
                    return Said("has a hand value of {number} {key}", number=number, key=name)
            if value.multiple < 1:
                return Said("has a limit multiple of {multiple}", multiple=value.multiple)
    if isinstance(fact, Penalty) and fact.amount < 0:
        return Said("has an amount of {amount}", amount=fact.amount)
    return None


def _evolve(state: TableState, rules: Ruleset, fact: Fact) -> tuple[TableState, tuple[Payment, ...]]:
    if isinstance(fact, DealPass):
        return pass_deal(state, fact), ()
    if isinstance(fact, Penalty):
        if rules.penalties_after_uma:
            # Counted off the final points after uma: the table scores (and places) stay.
            penalties = list(state.penalties or (0,) * state.players)
            penalties[fact.seat] += fact.amount
            return table_with(state, penalties=tuple(penalties)), ()
        payments = settle_penalty(fact, state, rules)
        return table_with(state, scores=apply_payments(state.scores, payments)), payments
    if isinstance(fact, MatchEnd):
        final = finish(state, rules)  # once, for the table and the payments alike
        return _ended(state, rules, fact, final), _leftover_payments(final)
    new, settlement = after_hand(state, rules, fact)
    return new, settlement.payments
