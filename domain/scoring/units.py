"""The units a hand's value is written in, by the rules at the table: the one place that says so.

Each rule family counts a hand in its own units, and a value in another unit would be paid by a
formula it was not meant for (4 faan doubled to 16 under rules that add tai up):

| unit (``value_unit``) | rules | a value is written in |
|---|---|---|
| ``han`` | riichi (``scoring = "riichi"``) | han and fu, or a limit name (seed 002: the Mangan table counts han) |
| ``faan`` | Hong Kong (``settling_unit = "faan"``) | faan, or the points they pay (8 for 3 faan); the limit |
| ``doubles`` | the classical rules (``settling_unit = "doubles"``) | tile points and doubles; the limit |
| ``tai`` | Taiwanese (``settling_unit = "tai"``) | tai added up (``5tai``: 5 points); a limit where there is one |

A points-family rule file that names no unit of its own (``settling_unit`` left at ``han``)
takes faan, points and doubles, as it always did. ``check_value`` (``domain.scoring.checks``)
refuses the rest in one line for every front end; the table page's example comes from here.
"""

from __future__ import annotations

from typing import Final

from domain.rules import Ruleset
from domain.said import Said
from domain.values import HandValue

# The counts of a HandValue that are units (dora are part of han; a limit's multiple goes with it).
UNIT_FIELDS: Final = ("han", "fu", "faan", "doubles", "points", "tai", "limit")

# Per unit: the counts a value may state, how a refusal names what the rules take (words), an example.
TAKES: Final[dict[str, tuple[tuple[str, ...], Said, str]]] = {
    "han": (("han", "fu", "limit"), Said("han and fu or a limit name (e.g. 3/30, mangan)"), "2xyakuman, 6han"),
    "faan": (
        ("faan", "points", "limit"),
        Said("faan or the points they pay (e.g. 4faan, 16points)"),
        "4faan, 16points",
    ),
    "doubles": (
        ("points", "doubles", "limit"),
        Said("points and doubles (e.g. 40pts x 3dbl)"),
        "40pts x 3dbl, 120points",
    ),
    # Four Winds, preset Taiwanese 16-Tile: "scores for patterns are simply added up".
    # (Points too: a hand's points are its tai added up, as a value recorded before ``tai`` held them.)
    "tai": (("tai", "points", "limit"), Said("tai, added up (e.g. 5tai)"), "5tai"),
    "any": (
        ("faan", "doubles", "points", "limit"),
        Said("faan, points or doubles"),
        "4faan, 40pts x 3dbl, 120points",
    ),
}

# Each count of ``UNIT_FIELDS`` as a refusal names it.
UNIT_NAMES: Final = {
    "han": Said("han"),
    "fu": Said("fu"),
    "faan": Said("faan"),
    "doubles": Said("doubles"),
    "points": Said("points"),
    "tai": Said("tai"),
    "limit": Said("a limit"),
}


def value_unit(rules: Ruleset) -> str:
    """The unit these rules count a hand in: ``han``, ``faan``, ``doubles``, ``tai`` (or ``any``
    for a points-family rule file that names none)."""
    if rules.scoring == "riichi":
        return "han"
    return "any" if rules.settling_unit == "han" else rules.settling_unit


def value_example(rules: Ruleset) -> str:
    """Values as a person types them that these rules take, comma-separated (the table page's hint)."""
    return TAKES[value_unit(rules)][2]


def unit_problem(value: HandValue, rules: Ruleset) -> Said | None:
    """Why ``value`` is not written in a unit these rules count in; None when it is."""
    unit = value_unit(rules)
    allowed, words, _ = TAKES[unit]
    for name in UNIT_FIELDS:
        if getattr(value, name) is None or name in allowed:
            continue
        return Said(
            "{rules} counts a hand in {words}, not in {what}", rules=rules.name, words=words, what=UNIT_NAMES[name]
        )
    if value.limit is not None and rules.scoring == "points" and not rules.limit:
        return Said(
            "{rules} has no limit (rule {rule} is 0): count the hand in {words}",
            rules=rules.name,
            rule="'limit'",
            words=words,
        )
    return None
