"""What a winning hand must satisfy before it is recorded: a real value, the minimum, special-hand facts."""

from __future__ import annotations

import functools
import operator

from domain.bounds import (
    DISCARDS,
    DORA,
    DOUBLES,
    FAAN,
    FU,
    HAN,
    HAND_POINTS,
    HAND_SCORE,
    LOSER_SCORE,
    PENALTY_AMOUNT,
    TAI,
    TEXT,
    YAKUMAN_MULTIPLE,
    OutOfBounds,
    check_all,
)
from domain.errors import InvalidHandValue, RuleViolation
from domain.rules import Ruleset
from domain.said import Said
from domain.scoring.memo import MEMO_SIZE, rules_memo, value_key
from domain.scoring.points import raw_score, winner_score
from domain.scoring.riichi import check_hand_value
from domain.scoring.units import unit_problem
from domain.special_hands import check_special_hands
from domain.values import NO_WIN_FACTS, HandValue, TableState, Win
from domain.win_facts import check_win_facts


class BelowMinimum(RuleViolation):
    """A win worth less than the minimum the rules require at this table state."""


def minimum_for(state: TableState, rules: Ruleset) -> int:
    """The minimum in force: raised by one from the set count of counters or extra hands.

    Japanese two-han binding is minimum 1 han raised from 5 counters; the seeds' option
    raises the minimum at the start of the dealer's 5th extra hand, restored when the
    extra-hand count resets with the deal.
    """
    if rules.minimum_raise_from:
        count = state.counters if rules.minimum_raise_counter == "counters" else state.extra_hands
        if count >= rules.minimum_raise_from:
            return rules.minimum + 1
    return rules.minimum


def minimum_count(value: HandValue, rules: Ruleset) -> int | None:
    """The part of a hand value the minimum is checked against (dora never count); None for limit hands."""
    if value.limit is not None:
        return None
    if rules.minimum_unit == "han":
        return None if value.han is None else value.han - (value.dora or 0)
    if rules.minimum_unit == "faan":
        if value.faan is None and value.points is not None:
            # A hand written by its points (Hong Kong's 8 for 3 faan): the most faan those points
            # pay, the base doubled per faan (``raw_score``), so that 4 points is held to the
            # minimum as 2 faan is.
            return (value.points // rules.score_base).bit_length() - 1
        return value.faan
    if rules.minimum_unit == "doubles":
        # Tile points without a double are no double.
        return 0 if value.doubles is None and value.points is not None else value.doubles
    return raw_score(value, rules)


# Riichi counts a hand of 13 han and more as its largest limit (a counted yakuman, seed 002).
RIICHI_LARGEST_LIMIT_HAN = 13
# Faan and doubles have no ceiling of their own rules: a count from the settling table's top row
# up pays the top (seed 002: Hong Kong's maximum "is given for hands worth 10 faans or more"), and
# without a table a double more doubles the points again before the limit cuts them. Their bound
# (``domain.bounds.FAAN``, ``DOUBLES``: 64 doublings, beyond any hand of any rule family) is checked
# with every other bound.


def han_ceiling(rules: Ruleset) -> int:
    """The largest han count honba accepts: twice the count that reaches the largest limit (the
    settling table's top row; 13 han in riichi). A count beyond any riichi hand is a slip of the
    pen; a limit hand is written by its name."""
    return _han_ceiling(rules.settling_table)


# Every hand checked asks; a few settling tables exist (a frozen tuple of pairs, cheap to hash).
@functools.lru_cache(maxsize=64)
def _han_ceiling(settling_table: tuple[tuple[int, int], ...]) -> int:
    top = max((row for row, _ in settling_table), default=0)
    return 2 * max(top, RIICHI_LARGEST_LIMIT_HAN)


# The units a minimum counts in, as words.
UNIT_WORDS = {"han": Said("han"), "faan": Said("faan"), "doubles": Said("doubles"), "points": Said("points")}
# The counts of a hand value, as words (a count refused by its name).
COUNT_WORDS = {**UNIT_WORDS, "tai": Said("tai"), "dora": Said("dora")}


def _check_counts(value: HandValue, rules: Ruleset) -> None:
    """Dora are part of han and never negative; no count beyond any hand."""
    if value.dora is not None:
        if value.dora < 0:
            raise InvalidHandValue(Said("dora cannot be negative ({dora})", dora=value.dora))
        if value.han is not None and value.dora > value.han:
            raise InvalidHandValue(
                Said("{dora} dora cannot be more than the hand's {han} han", dora=value.dora, han=value.han)
            )
    ceiling = han_ceiling(rules)
    if value.han is not None and value.han > ceiling:
        raise InvalidHandValue(
            Said(
                "{han} han is beyond any hand: the largest limit is reached well before "
                "(at most {ceiling} han are accepted; write a limit hand by its name, e.g. yakuman)",
                han=value.han,
                ceiling=ceiling,
            )
        )


def _check_bounds(value: HandValue) -> None:
    """Every count of a hand value within the bounds it is held to under any rules (``domain.bounds``)."""
    for bound, number in (
        (HAN, value.han),
        (FU, value.fu),
        (DORA, value.dora),
        (FAAN, value.faan),
        (DOUBLES, value.doubles),
        (HAND_POINTS, value.points),
        (TAI, value.tai),
    ):
        # Compared here: every hand of an import passes through. The type asked first, of the caller's
        # object: past ``is not None`` code compiled by mypyc holds the count as a machine integer, and
        # ``True`` would be asked its type as 1 and pass as a han count of 1.
        if type(number) is int:
            if not bound.low <= number <= bound.high:
                _refuse_counts(value)
        elif number is not None:
            _refuse_counts(value)
    # The multiple is declared ``int`` (never None): compiled, ``value.multiple`` would be read as a
    # machine integer and ``True`` would pass as 1. Read through ``attrgetter`` it stays the caller's.
    multiple = _MULTIPLE(value)
    if type(multiple) is not int or not YAKUMAN_MULTIPLE.low <= multiple <= YAKUMAN_MULTIPLE.high:
        _refuse_counts(value)


_MULTIPLE = operator.attrgetter("multiple")
_AMOUNT = operator.attrgetter("amount")
# The counts ``_check_bounds`` bounds, read in one call, and their bounds in the same order.
_COUNTS = operator.attrgetter("han", "fu", "dora", "faan", "doubles", "points", "tai", "multiple")
_COUNT_BOUNDS = (HAN, FU, DORA, FAAN, DOUBLES, HAND_POINTS, TAI, YAKUMAN_MULTIPLE)


def _check_kinds(value: HandValue) -> None:
    """Every count of a hand value a whole number or None, asked before any check compares it: read
    as the caller gave it (``attrgetter``: ``Any``), since compiled code reads a count declared ``int``
    as one and a ``2.0`` han is a ``TypeError`` there, where the pure build refused it in words. The
    refusal is the count's bound's (``Bound.check``: "han: 2.0 is not a whole number"), in both builds."""
    for bound, number in zip(_COUNT_BOUNDS, _COUNTS(value), strict=True):
        if number is not None and type(number) is not int:
            bound.check(number)
    # The multiple is declared ``int``, never None (1: a single yakuman): None is no multiple either.
    multiple = _MULTIPLE(value)
    if type(multiple) is not int:
        YAKUMAN_MULTIPLE.check(multiple)


def _refuse_counts(value: HandValue) -> None:
    """The refusal of a hand value's first count out of its bound, made by the bound (``Bound.check``)
    of the count as the caller gave it: read through ``attrgetter`` (``Any``), ``True`` stays ``True``
    where a count read as the field's ``int`` would reach the bound as 1 in code compiled by mypyc."""
    for bound, number in zip(_COUNT_BOUNDS, _COUNTS(value), strict=True):
        if number is not None:
            bound.check(number)


def check_fact_bounds(win: Win) -> None:
    """The facts of a win and its loser scores within their bounds (``domain.bounds``).

    The melded sets, the pre-dealt jokers, the winning tile and each discard are the rules' to
    limit (``domain.win_facts``, checked first: at most the sets and jokers the rules deal, a tile
    of the notation); what is left to bound here is what no rule limits."""
    facts = win.facts
    if facts is NO_WIN_FACTS:
        # A win that states no fact (every log's: ``Win``'s default): none of them to bound.
        if win.loser_scores:
            check_all(win.loser_scores, LOSER_SCORE)
        return
    if len(facts.discards) > DISCARDS.high:
        count = len(facts.discards)
        raise OutOfBounds(
            field="discards", problem=Said("{count} tiles, at most {most}", count=count, most=DISCARDS.high)
        )
    check_all(facts.special_hands, TEXT, "special hand")
    for penalty in facts.penalties:
        # The amount as the caller gave it (``attrgetter``: ``Any``): declared ``int``, compiled code
        # reads a float there as a ``TypeError`` and ``True`` as 1.
        amount = _AMOUNT(penalty)
        if type(amount) is not int or amount > 0:
            PENALTY_AMOUNT.check(amount, "hand penalty amount")
        TEXT.check(penalty.note, "hand penalty note")
    if win.loser_scores:
        check_all(win.loser_scores, LOSER_SCORE)


def check_value(value: HandValue, rules: Ruleset, *, self_drawn: bool) -> None:
    """Refuse a value that cannot exist in the rules' unit, or is written in a unit the rules do
    not count in (``domain.scoring.units``: 4 faan under rules that add tai up).

    Every check here reads the value and the rules alone: a value that passed once under a set of
    rules is let through again without them (``domain.scoring.memo``; a refusal is said each time)."""
    # The value's key itself in the key (kept by the value: found by its identity, not item by item).
    key = (value_key(value), self_drawn)
    passed = rules_memo(rules).checked
    if key in passed:
        return
    _check_value(value, rules, self_drawn=self_drawn)
    if len(passed) < MEMO_SIZE:
        passed.add(key)


def _check_value(value: HandValue, rules: Ruleset, *, self_drawn: bool) -> None:
    _check_kinds(value)
    wrong_unit = unit_problem(value, rules)
    if wrong_unit is not None:
        raise InvalidHandValue(wrong_unit)
    _check_counts(value, rules)
    if rules.scoring == "riichi":
        check_hand_value(value, self_drawn=self_drawn)
        _check_bounds(value)
        return
    for name in ("faan", "doubles", "points", "tai", "han", "dora"):
        number = getattr(value, name)
        if number is not None and number < 0:
            raise InvalidHandValue(
                Said("{count} cannot be negative ({number})", count=COUNT_WORDS[name], number=number)
            )
    counts = (value.limit, value.faan, value.doubles, value.points, value.tai)
    if all(count is None for count in counts):
        raise InvalidHandValue(Said("a hand needs points, doubles or faan under these rules"))
    _check_bounds(value)
    # Under rules without a Limit nothing cuts the doubling: no hand is worth a hundred million.
    HAND_SCORE.check(winner_score(value, rules).points)


def check_win(win: Win, state: TableState, rules: Ruleset, players: int) -> None:
    """Every check of one winner's hand against the rules and the table state."""
    # The rules' own limits first (at most 4 melded sets, 1 pre-dealt joker...): they name the
    # rule; the bounds that hold under any rules catch what the rules leave open.
    check_win_facts(win, rules)
    check_fact_bounds(win)
    if win.facts.special_hands:
        # A special hand is scored as the rules' limit: its value is not read, but it is recorded.
        _check_kinds(win.value)
        _check_counts(win.value, rules)
        _check_bounds(win.value)
        check_special_hands(win, state, rules)
    else:
        check_value(win.value, rules, self_drawn=win.self_drawn)
        needed = minimum_for(state, rules)
        count = minimum_count(win.value, rules)
        if count is not None and count < needed:
            unit = rules.minimum_unit
            dora = win.value.dora or 0
            if unit == "han" and dora:
                raise BelowMinimum(
                    Said(
                        "{value} counts {count} han toward the minimum of {needed} han in force: "
                        "its {dora} han of dora do not count toward the minimum",
                        value=win.value.said(),
                        count=count,
                        needed=needed,
                        dora=dora,
                    )
                )
            raise BelowMinimum(
                Said(
                    "{value} is below the minimum of {needed} {unit} in force",
                    value=win.value.said(),
                    needed=needed,
                    unit=UNIT_WORDS.get(unit, unit),
                )
            )
    for penalty in win.facts.penalties:
        if not 0 <= penalty.payer < players or penalty.payer == win.winner:
            raise RuleViolation(
                Said("a hand's penalty is paid by one of the other players, not seat {seat}", seat=penalty.payer)
            )
        if penalty.amount <= 0:
            raise RuleViolation(Said("a hand's penalty must be a positive amount, not {amount}", amount=penalty.amount))
    if win.loser_scores and len(win.loser_scores) != players:
        raise RuleViolation(
            Said("loser scores must list all {players} seats (the winner's entry is ignored)", players=players)
        )
    if rules.losers_settle and not win.loser_scores and not win.facts.special_hands:
        raise RuleViolation(Said("these rules settle losers' hand scores: give each seat's hand score"))
