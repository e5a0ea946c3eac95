"""The facts of how a win went out, in one table: what each fact is, which rules allow it, and
which facts it cannot go with.

A win states how it went out (``domain.values.WinFacts``): on the last tile, on a supplement
tile, on a robbed kong, the winning tile, the discards, the melded sets, the pre-dealt jokers...
Some cannot be true together (the first turn is never the last tile), some cannot be true under
rules without the tiles they speak of (a tile drawn for a flower where no flowers are played),
some are counts a hand cannot reach (a sixth melded set). ``check_win_facts`` refuses such a
win in one line, before anything is recorded; the Match aggregate, ``honba verify`` and every
front end reach it through ``domain.entry_checks`` (docs/rules.md, "The facts of a win").

Tiles are written ``1m``-``9m``, ``1p``-``9p``, ``1s``-``9s`` and ``1z``-``7z`` (East, South,
West, North, White, Green, Red).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from typing import Any, Final

import attrs

from domain.errors import RuleViolation
from domain.rules import Ruleset
from domain.said import Said
from domain.values import NO_WIN_FACTS, Win, WinFacts

TILE: Final = re.compile(r"[1-9][mps]|[1-7]z")
# Every tile is in the set four times (136 tiles: 34 kinds; Flowers and Seasons are not written
# here); a joker, pre-dealt or drawn, may stand for one more.
COPIES_OF_A_TILE: Final = 4
# Honba win --help: "Out on the first draw or discard, before any call" (seed 004: East goes out
# "with the dealt hand", a non-dealer "on dealer's first discard" or "on his first self-drawn tile").
FIRST_TURN: Final = Said(
    "the first turn comes before any call (a melded set is a call's), and the winner has discarded nothing yet"
)


class ImpossibleWinFacts(RuleViolation):
    """A win whose facts the rules rule out, or that contradict each other."""


def _any_rules(rules: Ruleset) -> Said | None:
    return None


def _with_flowers(rules: Ruleset) -> Said | None:
    if rules.flowers:
        return None
    return Said("{rules} plays no flowers or seasons (rule {rule})", rules=rules.name, rule="'flowers'")


def _with_predealt_jokers(rules: Ruleset) -> Said | None:
    if rules.predealt_jokers:
        return None
    return Said("{rules} deals no jokers before play (rule {rule})", rules=rules.name, rule="'predealt_jokers'")


@attrs.frozen
class Fact:
    """One row of the table: a fact of ``WinFacts`` and what limits it.

    ``words`` names the fact in a refusal; ``allowed`` says why the rules rule it out (None
    when they allow it); ``drawn`` is True for a fact of a tile the winner drew himself (no
    discarder), False for one of another player's tile (a discarder), None for either;
    ``excludes`` names the facts it cannot go with, ``because`` says why where the names do not
    (a refusal then names both and gives it); ``most`` is the largest count the rules allow
    (counts); ``tiles`` marks a tile or a list of tiles in the notation above.
    """

    name: str
    words: Said
    allowed: Callable[[Ruleset], Said | None] = _any_rules
    drawn: bool | None = None
    excludes: tuple[str, ...] = ()
    most: Callable[[Ruleset], int] | None = None
    tiles: bool = False
    because: Said | None = None


# The table. docs/rules.md ("The facts of a win") shows it as a table; a test keeps the two alike.
WIN_FACTS: Final[tuple[Fact, ...]] = (
    Fact("last_tile", Said("the last tile of the wall or the last discard"), excludes=("first_turn",)),
    Fact("supplement_tile", Said("a supplement tile"), drawn=True, excludes=("robbed_kong",)),
    Fact(
        "flower_supplement",
        Said("a tile drawn for a flower"),
        allowed=_with_flowers,
        drawn=True,
        excludes=("robbed_kong",),
    ),
    Fact(
        "robbed_kong",
        Said("a robbed kong"),
        drawn=False,
        excludes=("supplement_tile", "flower_supplement", "second_kong"),
    ),
    Fact("second_kong", Said("the supplement tile after a second kong"), drawn=True, excludes=("robbed_kong",)),
    Fact(
        "first_turn",
        Said("the first turn"),
        excludes=("last_tile", "call_before_first_draw", "discards", "melded_sets"),
        because=FIRST_TURN,
    ),
    Fact("call_before_first_draw", Said("a call before the winner's first draw"), excludes=("first_turn",)),
    Fact(
        "supplements_to_ready",
        Said("supplement tiles for flowers used to reach the calling hand"),
        allowed=_with_flowers,
    ),
    Fact("winning_tile", Said("the winning tile"), tiles=True),
    Fact("discards", Said("the discards"), tiles=True, excludes=("first_turn",)),
    Fact("melded_sets", Said("melded sets"), most=lambda rules: rules.sets_in_hand, excludes=("first_turn",)),
    Fact(
        "predealt_jokers",
        Said("pre-dealt jokers"),
        allowed=_with_predealt_jokers,
        most=lambda rules: rules.predealt_jokers,
    ),
    Fact("pung_hand", Said("a hand without chows")),
)

FACTS_BY_NAME: Final = {fact.name: fact for fact in WIN_FACTS}


def _stated(value: Any) -> bool:
    """Whether a fact is stated: a flag set, a count above zero, a tile or discards given."""
    return value is not None and value is not False and value != 0 and value != ()


def _tile_problem(fact: Fact, value: Any) -> Said | None:
    tiles = [value] if isinstance(value, str) else list(value)
    for tile in tiles:
        if not isinstance(tile, str) or TILE.fullmatch(tile) is None:
            return Said(
                "{fact}: {tile} is not a tile (write 1m-9m, 1p-9p, 1s-9s, or 1z-7z for East, South, "
                "West, North, White, Green, Red)",
                fact=fact.words,
                tile=repr(tile),
            )
    return None


def _count_problem(fact: Fact, value: Any, rules: Ruleset) -> Said | None:
    if fact.most is None:
        return None
    most = fact.most(rules)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        # The count as given (a number, or whatever a record held instead): data.
        given = str(value)
        if fact.name == "melded_sets":
            return Said(
                "{count} melded sets: a winning hand holds {sets} sets and a pair under "
                "{rules} (rule {rule}), so at most {most} melded sets",
                count=given,
                sets=rules.sets_in_hand,
                rules=rules.name,
                rule="'sets_in_hand'",
                most=most,
            )
        return Said(
            "{count} {fact}: {rules} deals at most {most} to a player",
            count=given,
            fact=fact.words,
            rules=rules.name,
            most=most,
        )
    return None


def _copies_problem(facts: WinFacts, rules: Ruleset) -> Said | None:
    """A tile shown more often among the discards and the winning tile than the set holds it."""
    tiles = [*facts.discards, *([facts.winning_tile] if facts.winning_tile else [])]
    jokers = rules.jokers + rules.predealt_jokers
    most = COPIES_OF_A_TILE + jokers
    for tile, count in Counter(tiles).items():
        if count > most:
            if jokers:
                return Said(
                    "{count} of {tile} among the discards and the winning tile: a set has four of each tile, "
                    "and {rules} has {jokers} joker(s) that may stand for one more (at most {most})",
                    count=count,
                    tile=tile,
                    rules=rules.name,
                    jokers=jokers,
                    most=most,
                )
            return Said(
                "{count} of {tile} among the discards and the winning tile: "
                "a set has four of each tile (at most {most})",
                count=count,
                tile=tile,
                most=most,
            )
    return None


def win_facts_problem(win: Win, rules: Ruleset) -> Said | None:
    """Why the facts of how this win went out cannot be, under these rules; None when they can.

    Each stated fact is checked against its row of ``WIN_FACTS`` in table order: the rules
    allow it; a drawn tile has no discarder and another player's tile has one; a count is in
    range; tiles are tiles; and no fact it excludes is stated too. Then no tile is shown more
    often, among the discards and the winning tile, than the set holds it (``COPIES_OF_A_TILE``,
    one more per joker the rules play).
    """
    facts: WinFacts = win.facts
    if facts is NO_WIN_FACTS or facts == NO_WIN_FACTS:
        # Most wins state no fact (every log's: ``Win``'s default, known by its identity before
        # its fields are compared): nothing to check, and no tile shown.
        return None
    stated = {fact.name for fact in WIN_FACTS if _stated(getattr(facts, fact.name))}
    for fact in WIN_FACTS:
        if fact.name not in stated:
            continue
        value = getattr(facts, fact.name)
        if fact.most is not None and type(value) is int and value < 0:
            # Malformed under any rules: said before what the rules allow.
            return Said("{count} {fact}: a count of {fact} cannot be negative", count=value, fact=fact.words)
        why = fact.allowed(rules)
        if why is not None:
            return Said("{fact}: {why}", fact=fact.words, why=why)
        if fact.drawn is True and not win.self_drawn:
            return Said("a win on {fact} is self-drawn: it has no discarder", fact=fact.words)
        if fact.drawn is False and win.self_drawn:
            return Said(
                "a win on {fact} is on another player's tile: name the player robbed (the discarder)", fact=fact.words
            )
        problem = _tile_problem(fact, value) if fact.tiles else _count_problem(fact, value, rules)
        if problem is not None:
            return problem
        for other in fact.excludes:
            if other in stated:
                if fact.because is not None:
                    return Said(
                        "a win on {fact} cannot state {other}: {because}",
                        fact=fact.words,
                        other=FACTS_BY_NAME[other].words,
                        because=fact.because,
                    )
                return Said("a win on {fact} is not on {other}", fact=fact.words, other=FACTS_BY_NAME[other].words)
    return _copies_problem(facts, rules)


def check_win_facts(win: Win, rules: Ruleset) -> None:
    """Refuse (``ImpossibleWinFacts``, one line) a win whose facts the rules or each other rule out."""
    problem = win_facts_problem(win, rules)
    if problem is not None:
        raise ImpossibleWinFacts(Said("impossible facts of the win: {problem}", problem=problem))
