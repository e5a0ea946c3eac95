"""Hand value to score for the rule families that count points, doubles or faan.

Classical and Chinese rules score a hand as basic points doubled once per double
(or ``score_base x 2^faan``), rounded, then cut to the Limit points; a settling
table (Hong Kong's Faan-Laak) replaces the doubling from its first row on.
"""

from __future__ import annotations

import attrs

from domain.errors import InvalidHandValue
from domain.rules import Ruleset
from domain.said import Said
from domain.scoring.riichi import round_up, table_percent
from domain.values import HandValue


@attrs.frozen
class Score:
    """A hand's score before payment doubles, and how the limit shaped it (for the ledger)."""

    points: int
    note: str


def table_count(value: HandValue, rules: Ruleset) -> int | None:
    """The count the settling table reads: faan, doubles, han or tai (a hand's points), as the rules say."""
    tai = value.tai if value.tai is not None else value.points
    return {"faan": value.faan, "doubles": value.doubles, "han": value.han, "tai": tai}[rules.settling_unit]


def raw_score(value: HandValue, rules: Ruleset) -> int:
    """The score before the limit: points doubled per double, or the base doubled per faan."""
    if value.faan is not None:
        return rules.score_base << value.faan
    if value.doubles is not None:
        return (value.points if value.points is not None else rules.score_base) << value.doubles
    if value.points is not None:
        return value.points
    if value.tai is not None:
        return value.tai  # tai add up: the hand's points
    raise InvalidHandValue(Said("a hand needs points, doubles or faan under these rules"))


def cut_to_limit(points: int, rules: Ruleset) -> int:
    """A score cut to the Limit points (no cut when the rules have no limit)."""
    return min(points, rules.limit) if rules.limit else points


def winner_score(value: HandValue, rules: Ruleset) -> Score:
    """The winner's score: the settling table where it applies, else doubled, rounded and cut."""
    if value.limit is not None:
        return Score(rules.limit, "limit hand")
    count = table_count(value, rules)
    percent = table_percent(count, rules) if count is not None else None
    if percent is not None:
        return Score(rules.limit * percent // 100, f"{count} {rules.settling_unit}: {percent}% of the limit")
    raw = round_up(raw_score(value, rules), rules.round_score_to)
    cut = cut_to_limit(raw, rules)
    if cut < raw:
        return Score(cut, f"{raw} cut to the limit of {rules.limit}")
    if value.doubles:
        # Say what the doubles made of the points: "165 points, 2 doubles = 660".
        return Score(raw, f"{value.describe()} = {raw}")
    return Score(raw, value.describe())


def loser_score(points: int, rules: Ruleset) -> int:
    """A loser's own hand score as settled between losers (cut to the limit unless the
    rules cut the difference instead)."""
    if rules.limit_on_loser_difference:
        return points
    return cut_to_limit(points, rules)
