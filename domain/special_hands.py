"""Special hands by the way of going out (seed 004): a claim is checked against the facts.

A win records how it went out (``WinFacts``); a claimed special hand holds only
when those facts, the rules' options and the table state (the dealer's
consecutive wins) support it. A claim that does not hold is refused with the
reason; a valid one is scored as the rules' special-hand limit.

Tiles are written ``1m``-``9m``, ``1p``-``9p`` (dots), ``1s``-``9s`` (bamboo) and
``1z``-``7z`` (East, South, West, North, White, Green, Red).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from domain.errors import RuleViolation
from domain.rules import Ruleset
from domain.values import TableState, Win

ORPHANS = frozenset({"1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"})


class InvalidSpecialHand(RuleViolation):
    """A special hand claimed on facts that do not support it."""


def _no_supplements(win: Win) -> bool:
    return not (win.facts.supplement_tile or win.facts.flower_supplement)


def heavenly_hand(win: Win, state: TableState, rules: Ruleset) -> str | None:
    """East goes out on the dealt hand."""
    if win.winner != state.dealer:
        return "only the dealer (East) can go out on the dealt hand"
    if not (win.self_drawn and win.facts.first_turn):
        return "the dealer must go out self-drawn on the first turn"
    if rules.heavenly_no_supplements and not _no_supplements(win):
        return "no supplement tiles are allowed under these rules"
    return None


def earthly_hand(win: Win, state: TableState, rules: Ruleset) -> str | None:
    """A non-dealer goes out on the dealer's first discard (or, by option, on his own first draw)."""
    if win.winner == state.dealer:
        return "an earthly hand is a non-dealer's hand"
    if not win.facts.first_turn:
        return "it must be the first turn, before any call"
    if rules.earthly_no_supplements and (not _no_supplements(win) or win.facts.supplements_to_ready):
        return "no supplement tiles may be used to reach the calling hand under these rules"
    on_first_discard = win.discarder == state.dealer
    on_first_draw = win.self_drawn
    if on_first_draw and win.facts.call_before_first_draw:
        return "going out on one's first self-drawn tile counts only before any chow, pung or kong is declared"
    if rules.earthly_narrowed:
        if not on_first_draw:
            return "under these rules it is going out on one's own first self-drawn tile"
        return None
    if on_first_discard or (rules.earthly_extended and on_first_draw):
        return None
    if on_first_draw:
        return "going out on one's first self-drawn tile counts only with the extended interpretation"
    return "the winning tile must be the dealer's first discard"


def _tile_check(tile: str, name: str) -> Callable[[Win], str | None]:
    def check(win: Win) -> str | None:
        if win.facts.winning_tile != tile:
            return f"the winning tile must be {tile} for {name} (got {win.facts.winning_tile or 'none recorded'})"
        return None

    return check


def moon_from_the_bottom_of_the_sea(win: Win, state: TableState, rules: Ruleset) -> str | None:
    """Going out on the last tile of the wall or the last discard, that tile being Dot 1."""
    if not win.facts.last_tile:
        return "the winning tile must be the last tile of the wall or the last discard"
    return _tile_check("1p", "moon from the bottom of the sea")(win)


def plum_blossom_on_the_roof(win: Win, state: TableState, rules: Ruleset) -> str | None:
    """Going out on a supplement tile, that tile being Dot 5."""
    supplement = (
        win.facts.supplement_tile
        or win.facts.second_kong
        or (rules.plum_blossom_flower_supplement and win.facts.flower_supplement)
    )
    if not supplement:
        return "the winning tile must be a supplement tile (for a kong, or a flower where the rules allow)"
    return _tile_check("5p", "plum blossom on the roof")(win)


def scratching_a_carrying_pole(win: Win, state: TableState, rules: Ruleset) -> str | None:
    """Going out on a robbed kong, that tile being Bamboo 2."""
    if not win.facts.robbed_kong:
        return "the winning tile must be robbed from a kong"
    return _tile_check("2s", "scratching a carrying pole")(win)


def kong_on_kong(win: Win, state: TableState, rules: Ruleset) -> str | None:
    """Going out on the supplement tile after the second kong of the same turn.

    ``second_kong`` is that very fact (record-format.md: "won on the supplement tile after
    a second kong"), so it is enough on its own.
    """
    if not win.facts.second_kong:
        return "the winning tile must be the supplement tile after a second kong in the same turn"
    return None


def thirteen_discarded_orphans(win: Win, state: TableState, rules: Ruleset) -> str | None:
    """The first 13 discards are 13 orphans (or 12 and a pair of one), and the 14th tile completes it."""
    if win.facts.melded_sets:
        return "the player may not have melded sets"
    jokers = win.facts.predealt_jokers if rules.orphans_jokers_as_discards else 0
    needed = 13 - jokers
    discards = list(win.facts.discards[:needed])
    if len(discards) < needed:
        return f"{needed} discards are needed, {len(win.facts.discards)} recorded"
    if len(win.facts.discards) > needed:
        # Seed 004: "The hand must always be declared Out (and before the 14th discard)".
        return f"it must be declared before discard {needed + 1}; {len(win.facts.discards)} discards are recorded"
    if any(t not in ORPHANS for t in discards):
        return "every counted discard must be an orphan (terminal or honour)"
    kinds = Counter(discards)
    if any(n > 2 for n in kinds.values()) or sum(1 for n in kinds.values() if n == 2) > 1:
        return "the discards may repeat one orphan once at most"
    tile = win.facts.winning_tile
    if tile is None or tile not in ORPHANS:
        return "the winning tile must be an orphan"
    paired = any(n == 2 for n in kinds.values())
    if paired and (tile in kinds or len(kinds) + jokers < 12):
        return "with a pair among the discards the winning tile must be the missing orphan"
    if not paired and tile not in kinds and len(kinds) + jokers < 13:
        return "the winning tile must match one of the discarded orphans"
    return None


def dealer_consecutive_wins(win: Win, state: TableState, rules: Ruleset) -> str | None:
    """The dealer wins the set number of deals in a row (draws in between only where allowed)."""
    if win.winner != state.dealer:
        return "only the dealer scores consecutive wins"
    before = state.dealer_wins_this_deal if rules.consecutive_wins_allow_draws else state.consecutive_dealer_wins
    if before + 1 < rules.consecutive_wins:
        kind = "wins while holding the deal" if rules.consecutive_wins_allow_draws else "wins in a row"
        return f"this would be the dealer's win {before + 1}; {rules.consecutive_wins} {kind} are needed" + (
            "" if rules.consecutive_wins_allow_draws else " (a draw in between breaks the run)"
        )
    return None


# The names of the special hands are the rules' (``domain.rules.SPECIAL_HANDS``, what a rule file may
# list); each check is the function of the same name, so the list is written once.
CHECKS: dict[str, Callable[[Win, TableState, Ruleset], str | None]] = {
    check.__name__: check
    for check in (
        heavenly_hand,
        earthly_hand,
        moon_from_the_bottom_of_the_sea,
        plum_blossom_on_the_roof,
        scratching_a_carrying_pole,
        kong_on_kong,
        thirteen_discarded_orphans,
        dealer_consecutive_wins,
    )
}


def contradiction(win: Win) -> str | None:
    """Why the facts of how a win went out contradict each other, or None.

    A supplement tile (for a kong, a flower, or after a second kong) is drawn by the winner,
    so a win on it is self-drawn; a robbed kong's tile is another player's, so a win on it
    is not self-drawn and not on a supplement tile.
    """
    facts = win.facts
    drawn = [
        name
        for name, fact in (
            ("a supplement tile", facts.supplement_tile),
            ("a tile drawn for a flower", facts.flower_supplement),
            ("the supplement tile after a second kong", facts.second_kong),
        )
        if fact
    ]
    if drawn and not win.self_drawn:
        return f"a win on {drawn[0]} is self-drawn: it has no discarder"
    if facts.robbed_kong and win.self_drawn:
        return "a win on a robbed kong is on another player's tile: name the player robbed (the discarder)"
    if facts.robbed_kong and drawn:
        return f"a win on a robbed kong is not on {drawn[0]}"
    return None


def check_facts(win: Win) -> None:
    """Refuse a win whose facts contradict each other, with the reason."""
    reason = contradiction(win)
    if reason is not None:
        raise InvalidSpecialHand(f"contradictory facts: {reason}")


def check_special_hands(win: Win, state: TableState, rules: Ruleset) -> None:
    """Refuse a claimed special hand that the rules do not play or the facts do not support."""
    for name in win.facts.special_hands:
        if name not in CHECKS:
            raise InvalidSpecialHand(f"unknown special hand {name!r}")
        if name not in rules.special_hands:
            raise InvalidSpecialHand(f"{name.replace('_', ' ')} is not played under {rules.name}")
        reason = CHECKS[name](win, state, rules)
        if reason is not None:
            raise InvalidSpecialHand(f"{name.replace('_', ' ')} does not hold: {reason}")


def passes_deal_after(win: Win, rules: Ruleset) -> bool:
    """Whether this win makes the deal pass although the dealer won (consecutive wins, pass deal)."""
    return "dealer_consecutive_wins" in win.facts.special_hands and rules.consecutive_wins_pass_deal
