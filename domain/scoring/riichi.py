"""Riichi hand value to base points: the han/fu formula and the mangan table.

Base points are what one share of a non-dealer tsumo costs before rounding:
``fu x 2^(2 + han)``, cut to the mangan table's limits.
"""

from __future__ import annotations

from collections.abc import Iterator

import attrs

from domain.errors import InvalidHandValue
from domain.rules import MAX_YAKUMAN_MULTIPLE, Ruleset
from domain.said import Said
from domain.values import LIMIT_NAMES, LIMIT_WORDS, HandValue

# Riichi names the rows of its settling table by their percent of the mangan base.
LIMIT_PERCENT = {"mangan": 100, "haneman": 150, "baiman": 200, "sanbaiman": 300, "yakuman": 400}
PERCENT_NAME = {percent: name for name, percent in LIMIT_PERCENT.items()}
# The fu a hand below 5 han can count, from the smallest.
FU_COUNTS = (20, 25, *range(30, 111, 10))
VALID_FU = frozenset(FU_COUNTS)


@attrs.frozen
class BasePoints:
    """Base points of a hand and the limit that applied, if any."""

    base: int
    limit: str | None


def table_percent(count: int, rules: Ruleset) -> int | None:
    """The percent of the limit a hand of ``count`` (han, faan or doubles) reaches in the settling table."""
    reached = [percent for threshold, percent in rules.settling_table if count >= threshold]
    return reached[-1] if reached else None


def limit_name(percent: int) -> str:
    """Riichi's name for a percent of the mangan base (``haneman`` for 150), or the percent itself."""
    return PERCENT_NAME.get(percent, f"{percent}% of the limit")


def hand_values(*, self_drawn: bool) -> Iterator[HandValue]:
    """Every riichi hand value that exists, from the smallest: han and fu below 5 han (those
    ``check_hand_value`` lets through), then the limits, then yakuman counted up to six times."""
    for han in range(1, 5):
        for fu in FU_COUNTS:
            value = HandValue(han=han, fu=fu)
            if _impossible(value, self_drawn=self_drawn) is None:
                yield value
    for limit in LIMIT_NAMES[:-1]:
        yield HandValue(limit=limit)  # type: ignore[arg-type]  # LIMIT_NAMES holds the LimitName values
    for multiple in range(1, MAX_YAKUMAN_MULTIPLE + 1):
        yield HandValue(limit="yakuman", multiple=multiple)


def check_hand_value(value: HandValue, *, self_drawn: bool) -> None:
    """Refuse hand values that cannot exist in riichi, with the reason."""
    if value.limit is not None:
        if value.limit not in LIMIT_NAMES:
            raise InvalidHandValue(Said("unknown limit {limit}", limit=repr(value.limit)))
        if value.multiple < 1 or (value.limit != "yakuman" and value.multiple != 1):
            raise InvalidHandValue(
                Said("a {limit} cannot count {times} times", limit=LIMIT_WORDS[value.limit], times=value.multiple)
            )
        return
    if value.han is None:
        raise InvalidHandValue(Said("a riichi hand needs han (and fu below 5 han) or a limit name"))
    if value.han < 1:
        raise InvalidHandValue(Said("{han} han: a winning hand has at least 1 han", han=value.han))
    if value.han >= 5:
        return
    why = _impossible(value, self_drawn=self_drawn)
    if why is not None:
        raise InvalidHandValue(why)


def _impossible(value: HandValue, *, self_drawn: bool) -> Said | None:
    """Why a hand of 1 to 4 han with this fu count cannot exist, or None when it can."""
    fu = value.fu
    if fu is None:
        return Said("{han} han needs a fu count", han=value.han or 0)
    if fu not in VALID_FU:
        return Said("{fu} fu: fu are 20, 25 or a multiple of 10 from 30 to 110", fu=fu)
    if fu == 20 and (value.han or 0) < 2:
        return Said("1 han 20 fu does not exist: 20 fu is pinfu tsumo, at least 2 han")
    if fu == 25 and (value.han or 0) < 2:
        return Said("1 han 25 fu does not exist: 25 fu is seven pairs, at least 2 han")
    if fu == 20 and not self_drawn:
        return Said("20 fu on a discard does not exist: a closed ron has at least 30 fu")
    if fu == 25 and self_drawn and (value.han or 0) < 3:
        # Seven pairs drawn by the winner always has menzen tsumo beside it: 2 + 1 han. Score tables
        # leave the 2 han 25 fu self-drawn cell empty.
        return Said(
            "2 han 25 fu self-drawn does not exist: seven pairs self-drawn is at least 3 han (with menzen tsumo)"
        )
    return None


def base_points(value: HandValue, rules: Ruleset) -> BasePoints:
    """Base points of a riichi hand under the rules: the settling (mangan) table, then the formula.

    The table's rows are percents of ``rules.limit`` (the mangan base, 2000): 13 han and more
    pays 400% (8,000) where the table has that row (counted yakuman), and named limits
    (``mangan``, ``yakuman`` x multiple, ...) pay their row directly.
    """
    if value.limit is not None:
        percent = LIMIT_PERCENT[value.limit]
        if value.limit == "yakuman":
            percent *= min(value.multiple, rules.max_yakuman_multiple)
        return BasePoints(rules.limit * percent // 100, value.limit)
    if value.han is None:
        raise InvalidHandValue(Said("a riichi hand needs han (and fu below 5 han) or a limit name"))
    reached = table_percent(value.han, rules)
    if reached is not None:
        return BasePoints(rules.limit * reached // 100, limit_name(reached))
    fu = value.fu or 0
    base = fu << (2 + value.han)
    if rules.limit and base >= rules.limit:
        return BasePoints(rules.limit, "mangan")
    if rules.kiriage_mangan and (value.han, fu) in ((4, 30), (3, 60)):
        return BasePoints(rules.limit, "mangan")
    return BasePoints(base, None)


def round_up(amount: int, unit: int) -> int:
    """Round a payment up to the rules' unit (100 in riichi)."""
    return -(-amount // unit) * unit
