"""The rules in force: one immutable value with every rule value named.

Presets are TOML files shipped in ``domain/presets``; a rule file or a list of
overrides starts from a preset and changes named values. A match stores the
full rule values it started with (``Ruleset.to_dict``), never only a preset name,
so editing a preset later cannot change a recorded match.
"""

from __future__ import annotations

import functools
import operator
from collections import deque
from collections.abc import Mapping
from itertools import repeat
from typing import Any, Literal, get_args

import attrs

from domain.bounds import (
    PERCENT,
    RULES_DESCRIPTION,
    RULES_NAME,
    SETTLING_COUNT,
    UMA,
    YAKUMAN_MULTIPLE,
    OutOfBounds,
    check_all,
    shown,
)
from domain.errors import InvalidRules
from domain.said import Said

# The values a choice-valued rule may take, each written once: the type of its field (a typo in
# the code is a type error) and the values a rule file is checked against (``_choice``).
Length = Literal["east", "south", "west", "north"]
Scoring = Literal["riichi", "points"]
SettlingUnit = Literal["han", "faan", "doubles", "tai"]
LoserPayment = Literal["discarder_pays_all", "discarder_pays_alone", "each_loser"]
ExtraHandCounter = Literal["counters", "extra_hands"]
GoulashDraw = Literal["carry", "return"]
MinimumUnit = Literal["han", "faan", "doubles", "points"]
MinimumRaiseCounter = Literal["counters", "extra_hands"]
MultipleRonCounters = Literal["nearest", "each"]
LeftoverDeposits = Literal["top", "lost"]
DealPassesAfterDraw = Literal["always", "never", "unless_dealer_ready"]
UmaTies = Literal["seat_order", "split"]
PointsRounding = Literal["tenhou", "none"]
FinalPointsBy = Literal["uma", "net_score", "table_points"]
StandingsTieBreak = Literal["placement", "net_score"]
ChomboShare = Literal["to_others", "off_table", "reverse_mangan"]


def _choice(choices: Any) -> Any:
    allowed: tuple[str, ...] = get_args(choices)

    def check(_inst: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if value not in allowed:
            raise InvalidRules(
                Said(
                    "rule {rule}: {value} is not one of {choices}",
                    rule=repr(attribute.name),
                    value=shown(value),
                    choices=", ".join(allowed),
                )
            )

    return check


# The most times a yakuman counts (a sextuple yakuman): the rules may cap it lower, never higher.
MAX_YAKUMAN_MULTIPLE = YAKUMAN_MULTIPLE.high


def _between(low: int, high: int) -> Any:
    def check(_inst: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InvalidRules(
                Said(
                    "rule {rule}: {value} is out of range ({low} to {high})",
                    rule=repr(attribute.name),
                    value=shown(value),
                    low=low,
                    high=high,
                )
            )

    return check


def _flag(_inst: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, bool):
        raise InvalidRules(
            Said("rule {rule}: {value} is not true or false", rule=repr(attribute.name), value=shown(value))
        )


SPECIAL_HANDS = (
    "heavenly_hand",
    "earthly_hand",
    "moon_from_the_bottom_of_the_sea",
    "plum_blossom_on_the_roof",
    "scratching_a_carrying_pole",
    "kong_on_kong",
    "thirteen_discarded_orphans",
    "dealer_consecutive_wins",
)


def _table(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(tuple(row) if isinstance(row, list | tuple) else row for row in value)
    return value


def _table_check(_inst: object, attribute: attrs.Attribute[Any], value: object) -> None:
    rows = value if isinstance(value, tuple) else None
    ok = rows is not None and all(
        isinstance(r, tuple) and len(r) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in r)
        for r in rows
    )
    if not ok or rows is None:
        raise InvalidRules(
            Said(
                "rule {rule}: {value} is not a list of [value, percent] pairs",
                rule=repr(attribute.name),
                value=shown(value),
            )
        )
    if [r[0] for r in rows] != sorted({r[0] for r in rows}) or any(r[1] <= 0 for r in rows):
        raise InvalidRules(
            Said("rule {rule}: rows must have rising values and positive percents", rule=repr(attribute.name))
        )


def _names(value: Any) -> Any:
    return tuple(value) if isinstance(value, list | tuple) else value


def _special_check(_inst: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, tuple) or not all(isinstance(v, str) for v in value):
        raise InvalidRules(
            Said(
                "rule {rule}: {value} is not a list of special hand names",
                rule=repr(attribute.name),
                value=shown(value),
            )
        )
    unknown = [v for v in value if v not in SPECIAL_HANDS]
    if unknown:
        raise InvalidRules(
            Said("rule {rule}: unknown special hand {name}", rule=repr(attribute.name), name=repr(unknown[0]))
        )


def _table_points_check(_inst: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, tuple) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise InvalidRules(_not_whole_numbers(attribute.name, value))
    if list(value) != sorted(value, reverse=True):
        raise InvalidRules(
            Said(
                "rule {rule}: {values} must not rise from first place to last",
                rule=repr(attribute.name),
                values=str(list(value)),
            )
        )


def _uma(_inst: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, tuple) or not all(isinstance(v, int) for v in value):
        raise InvalidRules(_not_whole_numbers(attribute.name, value))


def _uma_rows(_inst: object, attribute: attrs.Attribute[Any], value: object) -> None:
    # Each row's length and sum are checked against the players (``__attrs_post_init__``); here
    # that there are rows to count and numbers in them to add at all.
    rows = value if isinstance(value, tuple) else None
    if rows is None or not all(
        all(isinstance(v, int) and not isinstance(v, bool) for v in row) for row in rows if isinstance(row, tuple)
    ):
        raise InvalidRules(
            Said(
                "rule {rule}: {value} is not a list of rows of whole numbers",
                rule=repr(attribute.name),
                value=shown(value),
            )
        )


def _not_whole_numbers(rule: str, value: object) -> Said:
    return Said("rule {rule}: {value} is not a list of whole numbers", rule=repr(rule), value=shown(value))


@attrs.frozen
class Ruleset:
    """Every rule value of a match. Points are in table points (a riichi stick is 1000)."""

    name: str = "custom"
    description: str = ""
    players: int = attrs.field(default=4, validator=_between(3, 4))
    start_score: int = attrs.field(default=25000, validator=_between(0, 1_000_000))
    # The score final points are counted against, and by default the target that ends the match.
    return_score: int = attrs.field(default=30000, validator=_between(0, 1_000_000))
    # The score someone must reach for the match to end after its last scheduled hand, where it
    # is not the return score (Mahjong Soul counts points from 25,000 but plays on to 30,000);
    # 0 = the return score.
    target_score: int = attrs.field(default=0, validator=_between(0, 1_000_000))
    # The last scheduled round: "east" (east-only), "south" (hanchan), or "west"/"north" for the
    # classical game of four rounds (16 hands or more).
    length: Length = attrs.field(default="south", validator=_choice(Length))
    # Winds the match may extend into while nobody has reached the return score.
    extension_winds: int = attrs.field(default=1, validator=_between(0, 3))
    # In the extension every hand is sudden death: the first hand that leaves someone at the
    # return score ends the match, even on a dealer's extra hand. Without it, extension hands
    # end like the last hand (the deal passes, or the dealer stops on top).
    extension_sudden_death: bool = attrs.field(default=True, validator=_flag)
    bust: bool = attrs.field(default=True, validator=_flag)
    dealer_stop_on_win: bool = attrs.field(default=True, validator=_flag)
    dealer_stop_on_ready: bool = attrs.field(default=False, validator=_flag)
    # When a session's time is up (``domain.clock``): the hand in play is finished, then this many
    # more hands are played, and the match ends (MahjongPantheon's ending policies: "end after
    # hand" is 0, "one more hand" 1). Only where a time limit is set.
    hands_after_time: int = attrs.field(default=0, validator=_between(0, 16))

    # How a hand's value becomes a score. "riichi": han and fu (fu x 2^(2+han)) below the
    # settling table, base points paid in shares; "points": basic points doubled per double
    # (or 2^faan), cut to the limit, paid as the winner's score.
    scoring: Scoring = attrs.field(default="riichi", validator=_choice(Scoring))
    # Limit points: the mangan base (2000) in riichi, the traditional 500 in classical rules,
    # the laak (16) in Hong Kong; 0 = no limit.
    limit: int = attrs.field(default=2000, validator=_between(0, 1_000_000))
    # Settling table rows (value, percent of the limit): a hand reaching a row's value scores
    # that percent of the limit. Riichi's mangan table is (5,100) (6,150) (8,200) (11,300) (13,400).
    settling_table: tuple[tuple[int, int], ...] = attrs.field(
        default=((5, 100), (6, 150), (8, 200), (11, 300), (13, 400)), converter=_table, validator=_table_check
    )
    settling_unit: SettlingUnit = attrs.field(default="han", validator=_choice(SettlingUnit))
    kiriage_mangan: bool = attrs.field(default=False, validator=_flag)
    max_yakuman_multiple: int = attrs.field(default=MAX_YAKUMAN_MULTIPLE, validator=_between(1, MAX_YAKUMAN_MULTIPLE))
    # Points family: the score of a hand with no faan/doubles, and its rounding.
    score_base: int = attrs.field(default=1, validator=_between(1, 100_000))
    round_score_to: int = attrs.field(default=1, validator=_between(1, 1000))
    # Riichi rounds each payment up to 100.
    round_payments_to: int = attrs.field(default=100, validator=_between(1, 1000))

    # Who pays. On a discard: the discarder pays for all losers, only his own share, or
    # every loser pays as on a self-drawn win. East (the dealer) pays and receives double.
    loser_payment: LoserPayment = attrs.field(default="discarder_pays_all", validator=_choice(LoserPayment))
    east_double: bool = attrs.field(default=True, validator=_flag)
    # Payment doubles of the Chinese Modern scheme (Hong Kong): on a self-drawn win each loser
    # pays double; on a discard the discarder's own share is double. Like East's double they
    # apply to the hand's value only, never to bonuses or penalties.
    self_drawn_pays_double: bool = attrs.field(default=False, validator=_flag)
    discarder_pays_double: bool = attrs.field(default=False, validator=_flag)
    # The discarder's own share in percent (Wilmington Advanced: the sole loser "pays 50% more
    # on the loss", 150); like the doubles, on the hand's value only.
    discarder_pays_percent: int = attrs.field(default=100, validator=_between(100, 1000))
    # Classical rules: losers also settle the differences of their own hand scores.
    losers_settle: bool = attrs.field(default=False, validator=_flag)
    # American Modern: the limit cuts the difference of two losers' scores, not each score.
    limit_on_loser_difference: bool = attrs.field(default=False, validator=_flag)
    tsumo_loss: bool = attrs.field(default=False, validator=_flag)
    # Three-player riichi: a discarder pays the full four-player value.
    three_player_ron_as_four: bool = attrs.field(default=True, validator=_flag)

    # Bonus for dealer's extra hands (seed 000); riichi's counters are this bonus, 100 per
    # counter from each loser. It counts Japanese counters or the extra hands of the dealer.
    extra_hand_bonus_enabled: bool = attrs.field(default=True, validator=_flag)
    extra_hand_bonus: int = attrs.field(default=100, validator=_between(1, 2000))
    extra_hand_counter: ExtraHandCounter = attrs.field(default="counters", validator=_choice(ExtraHandCounter))
    # The two boxes of seed 000's options: "Pay to any winner" (not only a dealer winner) and
    # "Paid by East and only if non-East wins self-drawn or on East's discard" (Taiwanese: East
    # alone pays a non-East winner, just for himself; nothing on a non-East's discard unless
    # "any winner" is also on, when that winner is paid by the paying method).
    extra_hand_bonus_any_winner: bool = attrs.field(default=True, validator=_flag)
    extra_hand_bonus_from_east: bool = attrs.field(default=False, validator=_flag)
    # Dealer bonus (seed 001).
    dealer_bonus_enabled: bool = attrs.field(default=False, validator=_flag)
    dealer_bonus: int = attrs.field(default=1, validator=_between(1, 2000))
    dealer_bonus_from_east: bool = attrs.field(default=False, validator=_flag)

    # The kitty (seed 002; American rules): each player stakes this at the start of every deal;
    # a winner with a pung hand (no chows) collects every stake so far; 0 = no kitty.
    kitty_stake: int = attrs.field(default=0, validator=_between(0, 100_000))
    # Goulash: after a draw the next deal is a Goulash deal, each player stakes this in its pool
    # and its winner collects it; when the Goulash deal is drawn too, the pool is carried into the
    # next one or the stakes are returned. 0 = no Goulash.
    goulash_stake: int = attrs.field(default=0, validator=_between(0, 100_000))
    goulash_draw: GoulashDraw = attrs.field(default="carry", validator=_choice(GoulashDraw))

    # Minimum value of a win, raised by one from the given count of counters or extra hands.
    minimum: int = attrs.field(default=1, validator=_between(0, 100_000))
    minimum_unit: MinimumUnit = attrs.field(default="han", validator=_choice(MinimumUnit))
    minimum_raise_from: int = attrs.field(default=0, validator=_between(0, 100))
    minimum_raise_counter: MinimumRaiseCounter = attrs.field(default="counters", validator=_choice(MinimumRaiseCounter))

    # Special hands by the way of going out (seed 004), scored as this percent of the limit.
    special_hands: tuple[str, ...] = attrs.field(default=(), converter=_names, validator=_special_check)
    special_hand_percent: int = attrs.field(default=400, validator=_between(1, 10_000))
    heavenly_no_supplements: bool = attrs.field(default=False, validator=_flag)
    earthly_extended: bool = attrs.field(default=False, validator=_flag)
    earthly_narrowed: bool = attrs.field(default=False, validator=_flag)
    earthly_no_supplements: bool = attrs.field(default=False, validator=_flag)
    plum_blossom_flower_supplement: bool = attrs.field(default=False, validator=_flag)
    orphans_jokers_as_discards: bool = attrs.field(default=False, validator=_flag)
    consecutive_wins: int = attrs.field(default=9, validator=_between(2, 100))
    consecutive_wins_allow_draws: bool = attrs.field(default=False, validator=_flag)
    consecutive_wins_pass_deal: bool = attrs.field(default=True, validator=_flag)

    # The tiles in play, which bound what a win's facts may state (``domain/win_facts.py``):
    # Flowers and Seasons (144 tiles; without them no tile is drawn for a flower); the jokers
    # dealt to each player before play (seed 004, Thirteen Discarded Orphans: "there may be 1
    # or 2"; 0 = none); the sets of a winning hand besides its pair (4; 5 in Taiwanese 16-tile).
    flowers: bool = attrs.field(default=False, validator=_flag)
    predealt_jokers: int = attrs.field(default=0, validator=_between(0, 2))
    # Jokers in the set drawn like any tile (American Modern: 4); a discarded one takes a tile's
    # value (seed 004: ordinary jokers are used "when a player actually discards them, assigning
    # them the required tile values"), so a win's discards may show a tile a fifth time.
    jokers: int = attrs.field(default=0, validator=_between(0, 8))
    sets_in_hand: int = attrs.field(default=4, validator=_between(4, 5))

    # Deposits.
    riichi_deposit: int = attrs.field(default=1000, validator=_between(0, 100000))
    multiple_ron: int = attrs.field(default=2, validator=_between(1, 3))
    # With several winners on one discard: the extra-hand bonus to each winner as if alone
    # (seed 000), or only to the winner nearest the discarder, who also takes the deposits
    # (Tenhou; its presets say so).
    multiple_ron_counters: MultipleRonCounters = attrs.field(default="each", validator=_choice(MultipleRonCounters))
    leftover_deposits: LeftoverDeposits = attrs.field(default="top", validator=_choice(LeftoverDeposits))

    # Draws.
    noten_pool: int = attrs.field(default=3000, validator=_between(0, 100000))
    nagashi_mangan: bool = attrs.field(default=True, validator=_flag)
    abortive_draws: bool = attrs.field(default=True, validator=_flag)

    # Progression: when the deal passes.
    deal_passes_after_dealer_win: bool = attrs.field(default=False, validator=_flag)
    deal_passes_after_draw: DealPassesAfterDraw = attrs.field(
        default="unless_dealer_ready", validator=_choice(DealPassesAfterDraw)
    )
    deal_passes_after_abortive_draw: bool = attrs.field(default=False, validator=_flag)

    # Final points.
    uma: tuple[int, ...] = attrs.field(default=(20, 10, -10, -20), converter=_names, validator=_uma)
    oka_to_top: bool = attrs.field(default=True, validator=_flag)
    # Tied players: ranked by seat order from the first dealer (Tenhou), or sharing the uma and
    # oka of the places they hold (WRC, M-League).
    uma_ties: UmaTies = attrs.field(default="seat_order", validator=_choice(UmaTies))
    # Floating uma: one row of uma by place for each count of players ending below the start
    # score (1, 2, 3 sinkers), as some leagues play; empty = the fixed uma above.
    uma_floating: tuple[tuple[int, ...], ...] = attrs.field(default=(), converter=_table, validator=_uma_rows)
    # Penalties counted off the final points after uma (WRC, EMA), not off the table score.
    penalties_after_uma: bool = attrs.field(default=False, validator=_flag)
    # "tenhou": final scores rounded to the thousand, half away from zero, the top takes
    # the remainder; "none": tenths kept.
    points_rounding: PointsRounding = attrs.field(default="tenhou", validator=_choice(PointsRounding))
    # What a match's final points are, the points standings add up: "uma" as above (riichi);
    # "net_score", the final score less the start score (the points families, whose tournaments
    # add up the scores); "table_points", the table points of the place below, tied players
    # sharing those of the places they hold (Chinese Official / MCR: 4-2-1-0).
    final_points_by: FinalPointsBy = attrs.field(default="uma", validator=_choice(FinalPointsBy))
    table_points: tuple[int, ...] = attrs.field(default=(), converter=_names, validator=_table_points_check)
    # What breaks a tie in points in the standings first: "placement" (average place, then first
    # places, then net score: riichi) or "net_score" (then average place and first places).
    standings_tie_break: StandingsTieBreak = attrs.field(default="placement", validator=_choice(StandingsTieBreak))

    # Penalties.
    chombo_amount: int = attrs.field(default=8000, validator=_between(0, 100000))
    # How a penalty is paid: shared by the others, paid as a reverse mangan (riichi chombo),
    # or taken off the offender's score only.
    chombo_share: ChomboShare = attrs.field(default="to_others", validator=_choice(ChomboShare))

    def __attrs_post_init__(self) -> None:
        if len(self.uma) != self.players:
            raise InvalidRules(
                Said(
                    "rule {rule}: {count} values for {players} players",
                    rule="'uma'",
                    count=len(self.uma),
                    players=self.players,
                )
            )
        if sum(self.uma) != 0:
            raise InvalidRules(
                Said("rule {rule}: {values} does not sum to zero", rule="'uma'", values=str(list(self.uma)))
            )
        for row in self.uma_floating:
            if not isinstance(row, tuple) or len(row) != self.players or sum(row) != 0:
                raise InvalidRules(
                    Said(
                        "rule {rule}: each row needs {players} whole numbers summing to zero, not {row}",
                        rule="'uma_floating'",
                        players=self.players,
                        row=shown(row),
                    )
                )
        if self.final_points_by == "table_points" and len(self.table_points) != self.players:
            raise InvalidRules(
                Said(
                    "rule {rule}: {players} values needed, one per place, for table points",
                    rule="'table_points'",
                    players=self.players,
                )
            )
        if self.final_points_by == "table_points" and self.penalties_after_uma:
            # Table points are whole places: a penalty in score points has nothing to come off.
            raise InvalidRules(
                Said("rule {rule}: not with table points (penalties come off the score)", rule="'penalties_after_uma'")
            )
        if len(self.uma_floating) > self.players - 1:
            raise InvalidRules(
                Said(
                    "rule {rule}: at most {rows} rows (1 to {rows} sinkers)",
                    rule="'uma_floating'",
                    rows=self.players - 1,
                )
            )
        if self.minimum_raise_from and self.minimum_unit == "points":
            # Seed 000: the raise on the 5th extra hand "is available only when minimum points have
            # been specified using the doubles, han or faan unit"; raising points by one means nothing.
            raise InvalidRules(
                Said(
                    "rule {rule}: raising the minimum by one is available only for a minimum in "
                    "doubles, han or faan, not in points",
                    rule="'minimum_raise_from'",
                )
            )

    @property
    def target(self) -> int:
        """The score that ends the match after its last scheduled hand."""
        return self.target_score or self.return_score

    @property
    def oka(self) -> int:
        """The bonus to the top player: what everyone paid above the start score."""
        return (self.return_score - self.start_score) * self.players if self.oka_to_top else 0

    @property
    def has_counters(self) -> bool:
        """Whether Japanese counters mean anything under these rules (a bonus or a minimum counts them)."""
        bonus = self.extra_hand_bonus_enabled and self.extra_hand_counter == "counters"
        raise_ = self.minimum_raise_from > 0 and self.minimum_raise_counter == "counters"
        return bonus or raise_

    def to_dict(self) -> dict[str, Any]:
        """Every rule value as plain data (tuples as lists), for events and files."""
        # Every match started records its rules: the fields read one by one where each is a plain
        # value or one of the five written below (what ``attrs.asdict`` gives then, about half its
        # cost); ``attrs.asdict`` itself for any other value (a tuple of a rule added later).
        # The values read and paired with their names in C (``attrgetter``, ``zip``), the types of all
        # but the five looked at in C too: a Python step per rule (82 of them) was most of its cost.
        plain = self.plainly_written()
        data = dict(zip(_RULE_NAMES, _RULE_VALUES(self), strict=True)) if plain else attrs.asdict(self)
        return self._with_lists(data)

    def plainly_written(self) -> bool:
        """Whether every value but the five ``to_dict`` writes as lists is a plain value (text, a
        number, true or false, None), which it writes as it is."""
        return _PLAIN.issuperset(map(type, _SCALAR_VALUES(self)))

    def to_dict_as(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """``to_dict()`` of these rules, from ``values``: ``to_dict()`` of rules whose every value but
        the description is these rules' very own object and all ``plainly_written`` (rules
        ``retitled`` from the same rules, as a log's reader names each log's rules with its date).
        The values copied (each plain: text, a number, true or false, None) under these rules'
        description, each list made again from these rules' own values: no list is shared by two
        matches' events. The same dict, its keys in the same order, as ``to_dict`` makes."""
        data = dict(values)
        data["description"] = self.description
        return self._with_lists(data)

    def _with_lists(self, data: dict[str, Any]) -> dict[str, Any]:
        data["uma"] = list(self.uma)
        data["settling_table"] = [list(row) for row in self.settling_table]
        data["uma_floating"] = [list(row) for row in self.uma_floating]
        data["table_points"] = list(self.table_points)
        data["special_hands"] = list(self.special_hands)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str = "rules") -> Ruleset:
        """Build from plain data; unknown keys are refused with the key named."""
        known = {f.name for f in attrs.fields(cls)}
        try:
            data = renamed(data)
        except InvalidRules as exc:
            raise InvalidRules(_from(source, exc.said)) from None
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidRules(Said("{source}: unknown rule {rule}", source=source, rule=repr(unknown[0])))
        values = dict(data)
        try:
            return cls(**values)
        except InvalidRules as exc:
            raise InvalidRules(_from(source, exc.said)) from None
        except TypeError as exc:
            # Python's own words on a value of the wrong type no check above names: quoted as they are.
            raise InvalidRules(_from(source, str(exc))) from None

    @classmethod
    def from_stored(cls, data: Mapping[str, Any]) -> Ruleset:
        """Rules as a stored match recorded them, with rule names since renamed brought up to date.

        A stored snapshot is history: it is read, never refused, so older names are mapped
        to what they mean now.
        """
        values = dict(data)
        if "counter_per_payer" in values:
            # Riichi's counters became the extra-hand bonus of the seeds.
            per_payer = values.pop("counter_per_payer")
            values.setdefault("extra_hand_bonus_enabled", per_payer > 0)
            values.setdefault("extra_hand_bonus", per_payer or 100)
        if values.pop("counted_yakuman", True) is False:
            # Without counted yakuman, 13 han stayed a sanbaiman: the table has no 400% row.
            table = values.get("settling_table", cls().settling_table)
            values["settling_table"] = [list(row) for row in table if row[1] < 400]
        return cls.from_dict(values, source="stored rules")

    def with_overrides(self, overrides: Mapping[str, Any], *, source: str = "overrides") -> Ruleset:
        """A copy with some values changed, checked like a rule file."""
        merged = self.to_dict()
        try:
            overrides = renamed(overrides)
        except InvalidRules as exc:
            raise InvalidRules(_from(source, exc.said)) from None
        unknown = sorted(set(overrides) - set(merged))
        if unknown:
            raise InvalidRules(Said("{source}: unknown rule {rule}", source=source, rule=shown(unknown[0])))
        merged.update(overrides)
        return entered(Ruleset.from_dict(merged, source=source), source)

    def described(self, description: str, *, source: str = "overrides") -> Ruleset:
        """A copy with another description, checked as ``with_overrides`` checks one: the same
        rules as ``with_overrides({"description": description})`` of rules already entered, without
        taking every other value apart and checking it again (a log's rules are these rules named
        with the log's own date, once per log)."""
        try:
            RULES_DESCRIPTION.check(description, "rule 'description'")
        except OutOfBounds as exc:
            raise InvalidRules(_from(source, exc.said)) from None
        return self.retitled(description)

    def retitled(self, description: str) -> Ruleset:
        """A copy with another description and every other value as it is, unchecked: what
        ``Ruleset.from_stored`` builds of these rules' stored values under that description (a stored
        match's rules are history, read as they are; the description is no other rule's concern)."""
        # Every other value was checked when these rules were made and stays as it is: a copy with
        # the one field set (each field set as attrs' own ``__setstate__`` sets a frozen instance's,
        # without ``copy.copy``'s state dictionary: a quarter of its time), not ``attrs.evolve``,
        # whose ``__init__`` converts and checks all 82 values again.
        cls = type(self)
        copied = object.__new__(cls)
        if cls is Ruleset:
            # Each field set in C (``map`` of ``object.__setattr__``, drained by a ``deque`` that keeps
            # nothing): a Python step per field (82 of them) was most of its cost, once or twice per log.
            values = list(_RULE_VALUES(self))
            values[_DESCRIPTION_AT] = description
            deque(map(object.__setattr__, repeat(copied), _RULE_NAMES, values), maxlen=0)
            return copied
        for field in attrs.fields(cls):
            name = field.name
            object.__setattr__(copied, name, description if name == "description" else getattr(self, name))
        return copied


def entered(rules: Ruleset, source: str) -> Ruleset:
    """Rules given now (a rule file, ``--set``, a record file's or a log's rules) within the bounds new
    rules are held to (``domain.bounds``): a name and a description of one line, uma, table points and
    settling-table rows of sensible sizes. A stored match's rules are history, read as they are
    (``from_stored``), so these are not the constructor's checks."""
    try:
        RULES_NAME.check(rules.name, "rule 'name'")
        RULES_DESCRIPTION.check(rules.description, "rule 'description'")
        check_all(rules.uma, UMA, "rule 'uma'")
        for row in rules.uma_floating:
            check_all(row, UMA, "rule 'uma_floating'")
        check_all(rules.table_points, UMA, "rule 'table_points'")
        for count, percent in rules.settling_table:
            SETTLING_COUNT.check(count, "rule 'settling_table'")
            PERCENT.check(percent, "rule 'settling_table'")
    except OutOfBounds as exc:
        raise InvalidRules(_from(source, exc.said)) from None
    return rules


def _from(source: str, refusal: Said | str) -> Said:
    """A refusal of rules said with where they came from (a rule file, a preset, ``--set``): the
    source is data, a name, and the refusal words of its own."""
    return Said("{source}: {refusal}", source=source, refusal=refusal)


# ``Ruleset.to_dict``: the rules' field names in order, the plain values' types, and the fields it
# writes as lists itself.
_RULE_NAMES = tuple(field.name for field in attrs.fields(Ruleset))
_PLAIN = frozenset({str, int, float, bool, type(None)})
_LISTS = frozenset({"uma", "settling_table", "uma_floating", "table_points", "special_hands"})
# Every rule's value, and those of all but the five written as lists, read in field order in C.
_RULE_VALUES = operator.attrgetter(*_RULE_NAMES)
_SCALAR_VALUES = operator.attrgetter(*(name for name in _RULE_NAMES if name not in _LISTS))
_DESCRIPTION_AT = _RULE_NAMES.index("description")
# Every rule's value but the description, in field order (``other_values``).
_OTHER_VALUES = operator.attrgetter(*(name for name in _RULE_NAMES if name != "description"))


def other_values(rules: Ruleset) -> tuple[Any, ...]:
    """Every value of the rules but their description, in field order: the values a log's rules share
    with the rules they were named from (``Ruleset.retitled``), the very same objects."""
    values: tuple[Any, ...] = _OTHER_VALUES(rules)
    return values


# The one setting ``extra_hand_bonus_to`` became seed 000's two boxes: what each old value meant.
_BONUS_TO = {
    "any_winner": {"extra_hand_bonus_any_winner": True, "extra_hand_bonus_from_east": False},
    "dealer_only": {"extra_hand_bonus_any_winner": False, "extra_hand_bonus_from_east": False},
    "east_pays_non_east": {"extra_hand_bonus_any_winner": False, "extra_hand_bonus_from_east": True},
}


def renamed(data: Mapping[str, Any]) -> dict[str, Any]:
    """Rule values with names honba has since replaced brought up to date.

    Stored matches and record files written before a rule was split still read as they
    meant: ``extra_hand_bonus_to`` becomes the two boxes of seed 000.
    """
    values = dict(data)
    if "extra_hand_bonus_to" in values:
        old = values.pop("extra_hand_bonus_to")
        if old not in _BONUS_TO:
            raise InvalidRules(
                Said(
                    "rule {rule}: {value} is not one of {choices}",
                    rule="'extra_hand_bonus_to'",
                    value=repr(old),
                    choices=", ".join(_BONUS_TO),
                )
            )
        for key, value in _BONUS_TO[old].items():
            values.setdefault(key, value)
    return values


def rules_diff(a: Ruleset, b: Ruleset) -> list[tuple[str, Any, Any]]:
    """The rule values that differ between two rulesets, in declaration order."""
    left, right = a.to_dict(), b.to_dict()
    return [(key, left[key], right[key]) for key in left if left[key] != right[key]]


def preset_names() -> list[str]:
    """Names of the presets shipped with honba."""
    return list(_preset_names())


# The presets shipped are package data: listed once per process, like each is read once (below).
@functools.cache
def _preset_names() -> tuple[str, ...]:
    # Imported here, as tomllib below: a recording command reads the rules stored with its match,
    # never a preset file, and need not load them.
    from importlib import resources

    folder = resources.files("domain") / "presets"
    return tuple(sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml")))


def load_preset(name: str) -> Ruleset:
    """The preset of that name, e.g. ``tenhou`` or ``tenhou-sanma``."""
    if name not in _preset_names():
        raise InvalidRules(
            Said("unknown rules preset {name} (known: {known})", name=repr(name), known=", ".join(_preset_names()))
        )
    return _read_preset(name)


# A preset is package data that never changes while honba runs, and a Ruleset is a frozen value:
# each preset is read and checked once per process (a bulk import asks for it for every game).
@functools.cache
def _read_preset(name: str) -> Ruleset:
    from importlib import resources

    text = (resources.files("domain") / "presets" / f"{name}.toml").read_text(encoding="utf-8")
    return parse_rule_text(text, source=f"preset {name}")


def parse_rule_text(text: str, *, source: str) -> Ruleset:
    """A ruleset from TOML text: ``base = "preset"`` (optional) then rule values.

    A ``[sources]`` table, if present, is documentation and is not a rule.
    """
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        # The parser's own words on where the text breaks (line and column): quoted as they are.
        raise InvalidRules(Said("{source}: not valid TOML: {problem}", source=source, problem=str(exc))) from None
    except ValueError:  # an integer longer than Python reads (tomllib lets int() refuse it)
        raise InvalidRules(Said("{source}: not valid TOML: a number too long to read", source=source)) from None
    except RecursionError:  # arrays or tables nested deeper than the parser's stack
        raise InvalidRules(Said("{source}: not valid TOML: nested too deep", source=source)) from None
    data.pop("sources", None)
    base = data.pop("base", None)
    if base is not None:
        if not isinstance(base, str):
            raise InvalidRules(Said("{source}: {key} must name a preset", source=source, key="'base'"))
        return load_preset(base).with_overrides(data, source=source)
    return entered(Ruleset.from_dict(data, source=source), source)


DEFAULT_PRESET = "tenhou"
