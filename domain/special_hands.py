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
from domain.said import Said
from domain.values import TableState, Win

ORPHANS = frozenset({"1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z", "7z"})


class InvalidSpecialHand(RuleViolation):
    """A special hand claimed on facts that do not support it."""


# Each special hand (``domain.rules.SPECIAL_HANDS``) as a refusal names it: its name in words.
HAND_WORDS = {
    "heavenly_hand": Said("heavenly hand"),
    "earthly_hand": Said("earthly hand"),
    "moon_from_the_bottom_of_the_sea": Said("moon from the bottom of the sea"),
    "plum_blossom_on_the_roof": Said("plum blossom on the roof"),
    "scratching_a_carrying_pole": Said("scratching a carrying pole"),
    "kong_on_kong": Said("kong on kong"),
    "thirteen_discarded_orphans": Said("thirteen discarded orphans"),
    "dealer_consecutive_wins": Said("dealer consecutive wins"),
}


def _on_a_supplement(win: Win) -> bool:
    """Whether the winning tile is a supplement tile: after a kong, for a flower, or after a second
    kong (Plum Blossom and Kong on Kong count that one as a supplement too)."""
    return win.facts.supplement_tile or win.facts.flower_supplement or win.facts.second_kong


def heavenly_hand(win: Win, state: TableState, rules: Ruleset) -> Said | None:
    """East goes out on the dealt hand (seed 004: "after supplement tiles, if any").

    With "No supplements" (seed 004: "a player must go out immediately on the dealt hand --
    going out on a supplement tile after declaring a concealed Kong or melding Flowers and
    Seasons does not qualify"), no supplement tile may be drawn at all: not the winning tile,
    and none for flowers on the way to the calling hand.
    """
    if win.winner != state.dealer:
        return Said("only the dealer (East) can go out on the dealt hand")
    if not (win.self_drawn and win.facts.first_turn):
        return Said("the dealer must go out self-drawn on the first turn")
    if rules.heavenly_no_supplements and (_on_a_supplement(win) or win.facts.supplements_to_ready):
        return Said("the dealer must go out on the dealt hand itself: no supplement tiles under these rules")
    return None


def earthly_hand(win: Win, state: TableState, rules: Ruleset) -> Said | None:
    """A non-dealer goes out on the dealer's first discard (or, by option, on his own first draw).

    Seed 004: the extended interpretation covers "non-dealer goes out on his first self-drawn
    tile before any Chows, Pungs or Kongs have been declared" -- a supplement tile after the
    winner's own kong, or a melded set of his, comes after a declaration.
    """
    if win.winner == state.dealer:
        return Said("an earthly hand is a non-dealer's hand")
    if not win.facts.first_turn:
        return Said("it must be the first turn, before any call")
    if rules.earthly_no_supplements and (_on_a_supplement(win) or win.facts.supplements_to_ready):
        return Said("no supplement tiles may be used to reach the calling hand under these rules")
    on_first_discard = win.discarder == state.dealer
    on_first_draw = win.self_drawn
    # A call or a melded set never goes with the first turn (``domain.win_facts``, checked first);
    # the winner's own kong, concealed, is a declaration all the same.
    if on_first_draw and (win.facts.supplement_tile or win.facts.second_kong):
        return Said(
            "going out on one's first self-drawn tile counts only before any chow, pung or kong is declared "
            "(a supplement tile after one's own kong comes after a declaration)"
        )
    if rules.earthly_narrowed:
        if not on_first_draw:
            return Said("under these rules it is going out on one's own first self-drawn tile")
        return None
    if on_first_discard or (rules.earthly_extended and on_first_draw):
        return None
    if on_first_draw:
        return Said("going out on one's first self-drawn tile counts only with the extended interpretation")
    return Said("the winning tile must be the dealer's first discard")


def _tile_check(tile: str, name: str) -> Callable[[Win], Said | None]:
    def check(win: Win) -> Said | None:
        if win.facts.winning_tile != tile:
            got = win.facts.winning_tile or Said("none recorded")
            return Said(
                "the winning tile must be {tile} for {hand} (got {got})", tile=tile, hand=HAND_WORDS[name], got=got
            )
        return None

    return check


def moon_from_the_bottom_of_the_sea(win: Win, state: TableState, rules: Ruleset) -> Said | None:
    """Going out on the last tile of the wall or the last discard, that tile being Dot 1."""
    if not win.facts.last_tile:
        return Said("the winning tile must be the last tile of the wall or the last discard")
    return _tile_check("1p", "moon_from_the_bottom_of_the_sea")(win)


def plum_blossom_on_the_roof(win: Win, state: TableState, rules: Ruleset) -> Said | None:
    """Going out on a supplement tile, that tile being Dot 5."""
    supplement = (
        win.facts.supplement_tile
        or win.facts.second_kong
        or (rules.plum_blossom_flower_supplement and win.facts.flower_supplement)
    )
    if not supplement:
        return Said("the winning tile must be a supplement tile (for a kong, or a flower where the rules allow)")
    return _tile_check("5p", "plum_blossom_on_the_roof")(win)


def scratching_a_carrying_pole(win: Win, state: TableState, rules: Ruleset) -> Said | None:
    """Going out on a robbed kong, that tile being Bamboo 2."""
    if not win.facts.robbed_kong:
        return Said("the winning tile must be robbed from a kong")
    return _tile_check("2s", "scratching_a_carrying_pole")(win)


def kong_on_kong(win: Win, state: TableState, rules: Ruleset) -> Said | None:
    """Going out on the supplement tile after the second kong of the same turn.

    ``second_kong`` is that very fact (record-format.md: "won on the supplement tile after
    a second kong"), so it is enough on its own.
    """
    if not win.facts.second_kong:
        return Said("the winning tile must be the supplement tile after a second kong in the same turn")
    return None


def thirteen_discarded_orphans(win: Win, state: TableState, rules: Ruleset) -> Said | None:
    """The first 13 discards are 13 orphans (or 12 and a pair of one), and the 14th tile completes it.

    Seed 004: "Player's first 13 discards consist of either a) 13 orphans (unique Dragons, Winds
    and terminals), or b) 12 orphans + any other discard matching one of the 12"; the hand "must
    always be declared Out (and before the 14th discard)". With pre-dealt jokers as discards,
    "each joker that is pre-dealt in player's hand ... decreases the number of required orphan
    discards by one": a joker lowers how many discards are needed, never the deadline, so a hand
    that holds without the option holds with it. The jokers' values are "specified in a way that
    results in having 13 orphans and 14th tile composing a pair with any of these 13": the
    discards and the winning tile, with the jokers filling what is missing, must make the 13
    orphans and a pair.
    """
    if win.facts.melded_sets:
        return Said("the player may not have melded sets")
    jokers = win.facts.predealt_jokers if rules.orphans_jokers_as_discards else 0
    discards = list(win.facts.discards)
    needed = 13 - jokers
    if len(discards) < needed:
        count = len(discards)
        if not jokers:
            return Said("{needed} discards are needed, {count} recorded", needed=needed, count=count)
        if jokers == 1:
            return Said(
                "{needed} discards are needed ({jokers} pre-dealt joker counted as discards), {count} recorded",
                needed=needed,
                jokers=jokers,
                count=count,
            )
        return Said(
            "{needed} discards are needed ({jokers} pre-dealt jokers counted as discards), {count} recorded",
            needed=needed,
            jokers=jokers,
            count=count,
        )
    if len(discards) > 13:
        # Seed 004: "The hand must always be declared Out (and before the 14th discard)".
        return Said("it must be declared before discard 14; {count} discards are recorded", count=len(discards))
    if any(t not in ORPHANS for t in discards):
        return Said("every counted discard must be an orphan (terminal or honour)")
    kinds = Counter(discards)
    if any(n > 2 for n in kinds.values()) or sum(1 for n in kinds.values() if n == 2) > 1:
        return Said("the discards may repeat one orphan once at most")
    tile = win.facts.winning_tile
    if tile is None or tile not in ORPHANS:
        return Said("the winning tile must be an orphan")
    # With the winning tile the discards must still be orphans at most twice each, one of them
    # twice at most: the jokers then fill in the orphans missing (or the pair's second tile).
    held = kinds + Counter([tile])
    if any(n > 2 for n in held.values()) or sum(1 for n in held.values() if n == 2) > 1:
        return Said("with a pair among the discards the winning tile must be a missing orphan")
    return None


def dealer_consecutive_wins(win: Win, state: TableState, rules: Ruleset) -> Said | None:
    """The dealer wins the set number of deals in a row (draws in between only where allowed)."""
    if win.winner != state.dealer:
        return Said("only the dealer scores consecutive wins")
    before = state.dealer_wins_this_deal if rules.consecutive_wins_allow_draws else state.consecutive_dealer_wins
    if before + 1 < rules.consecutive_wins:
        if rules.consecutive_wins_allow_draws:
            return Said(
                "this would be the dealer's win {win}; {needed} wins while holding the deal are needed",
                win=before + 1,
                needed=rules.consecutive_wins,
            )
        return Said(
            "this would be the dealer's win {win}; {needed} wins in a row are needed "
            "(a draw in between breaks the run)",
            win=before + 1,
            needed=rules.consecutive_wins,
        )
    return None


# The names of the special hands are the rules' (``domain.rules.SPECIAL_HANDS``, what a rule file may
# list); each check is the function of the same name, so the list is written once.
CHECKS: dict[str, Callable[[Win, TableState, Ruleset], Said | None]] = {
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


def check_special_hands(win: Win, state: TableState, rules: Ruleset) -> None:
    """Refuse a claimed special hand that the rules do not play or the facts do not support."""
    for name in win.facts.special_hands:
        if name not in CHECKS:
            raise InvalidSpecialHand(Said("unknown special hand {name}", name=repr(name)))
        if name not in rules.special_hands:
            raise InvalidSpecialHand(
                Said("{hand} is not played under {rules}", hand=HAND_WORDS[name], rules=rules.name)
            )
        reason = CHECKS[name](win, state, rules)
        if reason is not None:
            raise InvalidSpecialHand(Said("{hand} does not hold: {reason}", hand=HAND_WORDS[name], reason=reason))


def passes_deal_after(win: Win, rules: Ruleset) -> bool:
    """Whether this win makes the deal pass although the dealer won (consecutive wins, pass deal)."""
    return "dealer_consecutive_wins" in win.facts.special_hands and rules.consecutive_wins_pass_deal
