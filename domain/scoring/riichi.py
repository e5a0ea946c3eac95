"""Riichi hand value to base points: the han/fu formula and the mangan table.

Base points are what one share of a non-dealer tsumo costs before rounding:
``fu x 2^(2 + han)``, cut to the mangan table's limits.
"""

from __future__ import annotations

import attrs

from domain.errors import InvalidHandValue
from domain.rules import Ruleset
from domain.values import LIMIT_NAMES, HandValue

MANGAN_BASE = 2000
LIMIT_BASE = {
    "mangan": 2000,
    "haneman": 3000,
    "baiman": 4000,
    "sanbaiman": 6000,
    "yakuman": 8000,
}
VALID_FU = frozenset({20, 25, *range(30, 111, 10)})


@attrs.frozen
class BasePoints:
    """Base points of a hand and the limit that applied, if any."""

    base: int
    limit: str | None


def limit_for_han(han: int, rules: Ruleset) -> str | None:
    """The limit a han count reaches by itself (5 han and more)."""
    if han >= 13:
        return "yakuman" if rules.counted_yakuman else "sanbaiman"
    if han >= 11:
        return "sanbaiman"
    if han >= 8:
        return "baiman"
    if han >= 6:
        return "haneman"
    if han >= 5:
        return "mangan"
    return None


def check_hand_value(value: HandValue, *, self_drawn: bool) -> None:
    """Refuse hand values that cannot exist in riichi, with the reason."""
    if value.limit is not None:
        if value.limit not in LIMIT_NAMES:
            raise InvalidHandValue(f"unknown limit {value.limit!r}")
        if value.multiple < 1 or (value.limit != "yakuman" and value.multiple != 1):
            raise InvalidHandValue(f"a {value.limit} cannot count {value.multiple} times")
        return
    if value.han is None:
        raise InvalidHandValue("a riichi hand needs han (and fu below 5 han) or a limit name")
    if value.han < 1:
        raise InvalidHandValue(f"{value.han} han: a winning hand has at least 1 han")
    if value.han >= 5:
        return
    fu = value.fu
    if fu is None:
        raise InvalidHandValue(f"{value.han} han needs a fu count")
    if fu not in VALID_FU:
        raise InvalidHandValue(f"{fu} fu: fu are 20, 25 or a multiple of 10 from 30 to 110")
    if fu == 20 and value.han < 2:
        raise InvalidHandValue("1 han 20 fu does not exist: 20 fu is pinfu tsumo, at least 2 han")
    if fu == 25 and value.han < 2:
        raise InvalidHandValue("1 han 25 fu does not exist: 25 fu is seven pairs, at least 2 han")
    if fu == 20 and not self_drawn:
        raise InvalidHandValue("20 fu on a discard does not exist: a closed ron has at least 30 fu")


def base_points(value: HandValue, rules: Ruleset) -> BasePoints:
    """Base points of a riichi hand under the rules (limits and kiriage included)."""
    if value.limit is not None:
        multiple = min(value.multiple, rules.max_yakuman_multiple) if value.limit == "yakuman" else 1
        return BasePoints(LIMIT_BASE[value.limit] * multiple, value.limit)
    if value.han is None:
        raise InvalidHandValue("a riichi hand needs han (and fu below 5 han) or a limit name")
    limit = limit_for_han(value.han, rules)
    if limit is not None:
        return BasePoints(LIMIT_BASE[limit], limit)
    fu = value.fu or 0
    base = fu * 2 ** (2 + value.han)
    if base >= MANGAN_BASE:
        return BasePoints(MANGAN_BASE, "mangan")
    if rules.kiriage_mangan and (value.han, fu) in ((4, 30), (3, 60)):
        return BasePoints(MANGAN_BASE, "mangan")
    return BasePoints(base, None)


def round_up(amount: int, unit: int) -> int:
    """Round a payment up to the rules' unit (100 in riichi)."""
    return -(-amount // unit) * unit
