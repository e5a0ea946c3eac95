"""Immutable values of the game: hand values, hand results, payments, table state.

Seats are plain ints: 0 is the seat that dealt first (the starting East), then in
turn order. A hand result names seats, never player names, so that the same facts
can be re-scored under other rules or re-seated by an importer.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any, Literal

import attrs

from domain.said import Listed, Said

Seat = int

WIND_NAMES = ("East", "South", "West", "North")
WIND_LETTERS = ("E", "S", "W", "N")

LIMIT_NAMES = ("mangan", "haneman", "baiman", "sanbaiman", "yakuman")
LimitName = Literal["mangan", "haneman", "baiman", "sanbaiman", "yakuman"]


def _tuple_of_ints(value: object) -> tuple[int, ...]:
    if value is None or value == ():
        # (A table's penalties and a win's loser scores: nearly always none.)
        return ()
    if type(value) is tuple and _INTS.issuperset(map(type, value)):
        # A tuple of whole numbers already (a table's scores, copied to the next table): itself, its
        # items' types looked at in C, no copy made.
        return value
    # ``int`` of each by ``map``, in C (every table state folded passes here: a generator's test
    # of each value's type cost three times as much as the copy).
    return tuple(map(int, value))  # type: ignore[call-overload]


_INTS = frozenset({int})


def _scores_as_given(value: object) -> tuple[int, ...]:
    """Scores a caller states (a win's losers' own hand scores): whole numbers kept as a tuple, anything
    else kept as given for the bounds to refuse in words (``domain.bounds``): ``int`` would make 10.7 a
    score of 10 and ``True`` one of 1 without a word."""
    if value is None or value == ():
        return ()
    scores: tuple[int, ...] = tuple(value)  # type: ignore[arg-type]
    return scores


def _seat_list(value: object) -> tuple[int, ...]:
    """Seats in order, repeats kept (one entry per kong declared, say). Items that are not all whole
    numbers are kept as given, for the entry checks to refuse by their role (``EntryChecks.seat``):
    ``int`` would have made ``0.7`` seat 0 and ``True`` seat 1 without a word."""
    return tuple(value)  # type: ignore[arg-type]


def _seat_set(value: object) -> tuple[int, ...]:
    # Riichi declarations and ready hands are sets of seats: written in seat order, so that
    # two logs of one hand listing them in another order record the same fact.
    if value is None or value == () or value == []:
        return ()  # (nobody: the riichi of most hands)
    seats: tuple[int, ...] = tuple(value)  # type: ignore[arg-type]
    if _INTS.issuperset(map(type, seats)):
        return tuple(sorted(seats))
    # Not all whole numbers: kept as given (unsorted: text and numbers do not compare), for the entry
    # checks to refuse by their role; ``int`` would have made ``0.7`` seat 0 and ``True`` seat 1.
    return seats


def _optional_seat_set(value: object) -> tuple[int, ...] | None:
    # None: the record does not say (a hand entered at the table); () : it says nobody did.
    return None if value is None else _seat_set(value)


def _tuple_of_floats(value: object) -> tuple[float, ...]:
    if value is None or value == ():
        return ()
    return tuple(map(float, value))  # type: ignore[call-overload]


def _tuple_of_wins(value: object) -> tuple[Win, ...]:
    return tuple(value)  # type: ignore[arg-type]


def _tuple_of_str(value: object) -> tuple[str, ...]:
    if value is None:
        return ()
    return tuple(map(str, value))  # type: ignore[call-overload]


# A hand value counted in han and fu alone: no limit, faan, tai, points or doubles.
_NONE5 = (None, None, None, None, None)


@attrs.frozen
class HandValue:
    """What a winning hand is worth, in the unit its rule family counts in.

    Riichi uses ``han`` and ``fu`` or a ``limit`` name (``yakuman`` with a
    ``multiple`` for double yakuman and more). Other families use ``faan``,
    ``doubles`` (with ``points`` as the base tile points) or a direct ``points``
    value. ``dora`` is the part of ``han`` from dora, which counts for payment but
    not toward a minimum. Unused units stay ``None``.
    """

    han: int | None = None
    fu: int | None = None
    dora: int | None = None
    limit: LimitName | None = None
    multiple: int = 1
    faan: int | None = None
    doubles: int | None = None
    points: int | None = None
    # Taiwanese tai, added up into the hand's points (``5tai``): a unit of its own, so that rules
    # that count in faan or doubles refuse it by name (``domain.scoring.units``) rather than take
    # it as points.
    tai: int | None = None

    def describe(self, scoring: str = "riichi") -> str:
        """A short human form such as ``3 han 30 fu``, ``20 points, 1 double`` or ``double yakuman``,
        in the words of the rules' family (``scoring``): a limit hand of the points families (Hong
        Kong, the classical rules) is the ``limit``, whatever name it was entered under; riichi
        names its limits (mangan, haneman, ...). The English of ``said``."""
        han, fu = self.han, self.fu
        others = (self.limit, self.faan, self.tai, self.points, self.doubles)
        if han is not None and fu is not None and others == _NONE5:
            # ``said``'s sentence for han and fu, formed without the ``Said``: a ledger's note of
            # every riichi hand scored.
            return f"{han} han {fu} fu"
        return str(self.said(scoring))

    def said(self, scoring: str = "riichi") -> Said | Listed:
        """``describe``'s words (``domain.said``), for a front end that says them in another language."""
        if self.limit is not None and scoring == "points":
            return Said("limit")
        if self.limit == "yakuman":
            return _YAKUMAN_WORDS.get(self.multiple) or Said("{multiple}x yakuman", multiple=self.multiple)
        if self.limit is not None:
            return LIMIT_WORDS[self.limit]
        if (
            self.han is not None
            and self.fu is not None
            and self.faan is self.tai is self.points is self.doubles is None
        ):
            return Said("{han} han {fu} fu", han=self.han, fu=self.fu)
        parts: list[Said] = []
        if self.han is not None:
            parts.append(Said("{han} han", han=self.han))
        if self.fu is not None:
            parts.append(Said("{fu} fu", fu=self.fu))
        if self.faan is not None:
            parts.append(Said("{faan} faan", faan=self.faan))
        if self.tai is not None:
            parts.append(Said("{tai} tai", tai=self.tai))
        # Points before doubles, as a player says them: "20 points, 1 double".
        if self.points is not None:
            parts.append(Said("{points} point" if self.points == 1 else "{points} points", points=self.points))
        if self.doubles is not None:
            parts.append(Said("{doubles} double" if self.doubles == 1 else "{doubles} doubles", doubles=self.doubles))
        if self.points is not None and self.doubles is not None:
            return Listed(tuple(parts), ", ")
        return Listed(tuple(parts), " ", Said("no value"))


# The limits' names as words (a catalogue translates each: 満貫, 跳満, ...).
LIMIT_WORDS: dict[str, Said] = {
    "mangan": Said("mangan"),
    "haneman": Said("haneman"),
    "baiman": Said("baiman"),
    "sanbaiman": Said("sanbaiman"),
    "yakuman": Said("yakuman"),
}
_YAKUMAN_WORDS = {1: Said("yakuman"), 2: Said("double yakuman"), 3: Said("triple yakuman")}


@attrs.frozen
class HandPenalty:
    """A penalty attached to a hand: ``payer`` pays the winner ``amount`` for this hand.

    Like the bonuses it is paid after the limit and the payment doubles (seed 002), never
    doubled nor cut.
    """

    payer: Seat
    amount: int
    note: str = ""


def _tuple_of_penalties(value: object) -> tuple[HandPenalty, ...]:
    if value is None:
        return ()
    return tuple(value)  # type: ignore[arg-type]


@attrs.frozen
class WinFacts:
    """How a win went out: the facts special hands are checked against.

    ``last_tile``: the last tile of the wall or the last discard; ``supplement_tile``:
    drawn after a kong; ``flower_supplement``: drawn for a flower or season;
    ``robbed_kong``; ``second_kong``: after the second kong of one turn;
    ``first_turn``: on the winner's first draw or the dealer's first discard;
    ``call_before_first_draw``: someone declared a chow, pung or kong before the winner's
    first draw; ``supplements_to_ready``: supplement tiles for flowers or seasons were used
    to reach the calling hand (not only on the winning tile); ``winning_tile``
    and ``discards`` in ``1m``..``7z`` notation; ``special_hands`` are the special
    hands the winner claims (for example ``heavenly_hand``): the rules decide
    whether the facts support them. ``penalties`` are paid to the winner for this hand.
    """

    last_tile: bool = False
    supplement_tile: bool = False
    flower_supplement: bool = False
    robbed_kong: bool = False
    second_kong: bool = False
    first_turn: bool = False
    call_before_first_draw: bool = False
    supplements_to_ready: bool = False
    winning_tile: str | None = None
    discards: tuple[str, ...] = attrs.field(default=(), converter=_tuple_of_str)
    melded_sets: int = 0
    predealt_jokers: int = 0
    # A hand without chows (a "pung hand"): it collects the kitty where the rules play one.
    pung_hand: bool = False
    special_hands: tuple[str, ...] = attrs.field(default=(), converter=_tuple_of_str)
    penalties: tuple[HandPenalty, ...] = attrs.field(default=(), converter=_tuple_of_penalties)


# The facts of a win that states none: every win a log records (the default of ``Win.facts``, one
# value, so that the entry checks know it by its identity).
NO_WIN_FACTS = WinFacts()


@attrs.frozen
class Yaku:
    """One yaku of a win as a log named it: its name (Tenhou's, in Japanese), its han (13 for
    a yakuman, counted once), and Tenhou's id for it when it has one (``tenhou_id``)."""

    name: str
    han: int
    tenhou_id: int | None = None


def _tuple_of_yaku(value: object) -> tuple[Yaku, ...]:
    return tuple(value) if isinstance(value, list | tuple) else value  # type: ignore[return-value]


@attrs.frozen
class WinDetails:
    """What a game log said about a win beyond what it paid: the yaku with their han, the dora
    counted (``dora``, red fives ``red``, ``ura`` dora, North tiles ``kita``), the fu (for a hand
    below the limits), the winning tile (``1m``..``7z``) and the calls the winner made (``calls``,
    e.g. ``chi 3m4m5m from seat 0``). Kept for the ledger and statistics; never used to pay."""

    yaku: tuple[Yaku, ...] = attrs.field(default=(), converter=_tuple_of_yaku)
    fu: int | None = None
    dora: int = 0
    red: int = 0
    ura: int = 0
    kita: int = 0
    winning_tile: str | None = None
    calls: tuple[str, ...] = attrs.field(default=(), converter=_tuple_of_str)


@attrs.frozen
class Win:
    """One winner's part of a hand: seat, value, and who dealt in.

    ``discarder`` is ``None`` for a self-drawn win. ``liable`` names a player
    held responsible (pao) for the hand. ``loser_scores`` holds each seat's own
    hand score where the rules make losers settle among themselves. ``details`` is what
    a game log said about the win (yaku, dora, fu, ...): it is kept, never paid by, and
    two wins that differ only in it are the same win.
    """

    winner: Seat
    value: HandValue
    discarder: Seat | None = None
    liable: Seat | None = None
    facts: WinFacts = NO_WIN_FACTS
    loser_scores: tuple[int, ...] = attrs.field(default=(), converter=_scores_as_given)
    details: WinDetails | None = attrs.field(default=None, eq=False)

    @property
    def self_drawn(self) -> bool:
        """True when the winner drew the winning tile."""
        return self.discarder is None


class AbortKind(StrEnum):
    """The kinds of abortive draw."""

    NINE_TERMINALS = "nine_terminals"
    FOUR_WINDS = "four_winds"
    FOUR_RIICHI = "four_riichi"
    FOUR_KONGS = "four_kongs"
    TRIPLE_RON = "triple_ron"
    OTHER = "other"


# The abortive draws by name, as words (``nine terminals``): what a hand was, a refusal.
ABORT_NAMES = {
    AbortKind.NINE_TERMINALS: Said("nine terminals"),
    AbortKind.FOUR_WINDS: Said("four winds"),
    AbortKind.FOUR_RIICHI: Said("four riichi"),
    AbortKind.FOUR_KONGS: Said("four kongs"),
    AbortKind.TRIPLE_RON: Said("triple ron"),
    AbortKind.OTHER: Said("other"),
}


@attrs.frozen
class WinResult:
    """A hand that ended in one or more wins (several only on one discard)."""

    wins: tuple[Win, ...] = attrs.field(converter=_tuple_of_wins)
    riichi: tuple[Seat, ...] = attrs.field(default=(), converter=_seat_set)

    # Who made an open call (chi, pon, open kong) in the hand, where a game log shows it: None
    # when the record does not say (every hand entered at the table). A note of the log like
    # ``Win.details`` (and like it left out of comparisons: two recordings of one hand are the
    # same result whether or not their log showed the calls), counted by the statistics, never paid by.
    called: tuple[Seat, ...] | None = attrs.field(default=None, converter=_optional_seat_set, eq=False)


@attrs.frozen
class ExhaustiveDraw:
    """A hand that ran out of tiles: who was ready, who claims nagashi mangan."""

    ready: tuple[Seat, ...] = attrs.field(default=(), converter=_seat_set)
    riichi: tuple[Seat, ...] = attrs.field(default=(), converter=_seat_set)
    nagashi: tuple[Seat, ...] = attrs.field(default=(), converter=_seat_set)

    # Who made an open call (chi, pon, open kong) in the hand, where a game log shows it: None
    # when the record does not say (every hand entered at the table). A note of the log like
    # ``Win.details`` (and like it left out of comparisons: two recordings of one hand are the
    # same result whether or not their log showed the calls), counted by the statistics, never paid by.
    called: tuple[Seat, ...] | None = attrs.field(default=None, converter=_optional_seat_set, eq=False)


@attrs.frozen
class AbortiveDraw:
    """A hand stopped before its end by an abortive condition.

    ``kongs``: who declared each kong of the hand, in order (a seat once per kong), where the
    record states it; a four-kongs draw is checked against it. Empty when not stated.
    """

    kind: AbortKind = attrs.field(converter=AbortKind)
    riichi: tuple[Seat, ...] = attrs.field(default=(), converter=_seat_set)
    kongs: tuple[Seat, ...] = attrs.field(default=(), converter=_seat_list)

    # Who made an open call (chi, pon, open kong) in the hand, where a game log shows it: None
    # when the record does not say (every hand entered at the table). A note of the log like
    # ``Win.details`` (and like it left out of comparisons: two recordings of one hand are the
    # same result whether or not their log showed the calls), counted by the statistics, never paid by.
    called: tuple[Seat, ...] | None = attrs.field(default=None, converter=_optional_seat_set, eq=False)


HandResult = WinResult | ExhaustiveDraw | AbortiveDraw


class PenaltyShare(StrEnum):
    """Where a penalty's points go."""

    TO_OTHERS = "to_others"  # shared equally by the other players
    OFF_TABLE = "off_table"  # removed from the offender's score, paid to nobody
    REVERSE_MANGAN = "reverse_mangan"  # paid as a mangan self-drawn win paid to everyone else


@attrs.frozen
class Penalty:
    """A penalty (chombo and the like) against one seat."""

    seat: Seat
    amount: int
    kind: str = "chombo"
    share: PenaltyShare = attrs.field(default=PenaltyShare.TO_OTHERS, converter=PenaltyShare)
    note: str = ""


@attrs.frozen
class DealPass:
    """The deal moving from one dealer to the next, with the new round and hand."""

    from_dealer: Seat
    to_dealer: Seat
    round_wind: int
    hand_number: int


@attrs.frozen
class MatchEnd:
    """Why the match ended: ``complete``, ``bust``, ``dealer_stop`` or ``agreed``."""

    reason: str = "complete"


class Reason(StrEnum):
    """Why a payment was made: each line of a ledger names one."""

    HAND = "hand value"
    LIABILITY = "liability (pao)"
    COUNTERS = "counters"
    EXTRA_HAND_BONUS = "extra-hand bonus"
    DEALER_BONUS = "dealer bonus"
    LOSER_SETTLEMENT = "loser settlement"
    KITTY = "kitty"
    GOULASH = "Goulash bonus"
    RIICHI_STICK = "riichi deposit placed"
    DEPOSITS = "deposits taken"
    NOTEN = "noten payment"
    NAGASHI = "nagashi mangan"
    PENALTY = "penalty"
    LEFTOVER = "leftover deposits"


def _reason(value: str) -> Reason:
    # A payment is nearly always made with a ``Reason`` already: kept as it is, without the
    # enumeration's look-up (a stored ledger's text goes through it).
    return value if type(value) is Reason else Reason(value)


@attrs.frozen
class Payment:
    """One transfer of points. ``None`` as payer or payee means the table.

    Riichi sticks go from a player to the table and later from the table to a
    winner; a penalty paid to nobody goes to the table and never comes back.
    """

    payer: Seat | None
    payee: Seat | None
    amount: int
    reason: Reason = attrs.field(converter=_reason)
    note: str = ""


@attrs.frozen
class TableState:
    """The state of the table between hands: what players argue about.

    ``counters`` is the Japanese counter (honba): up on a dealer win or any draw,
    back to zero when only non-dealers win. ``extra_hands`` counts the hands
    played since the current dealer took the deal (it resets when the deal
    passes). ``dealer_streak`` is the number of hands held by the current dealer,
    the current one included. ``consecutive_dealer_wins`` counts the dealer's
    wins in a row, broken by any other result; ``dealer_wins_this_deal`` counts
    them while the dealer keeps the deal, draws in between allowed.
    """

    players: int
    scores: tuple[int, ...] = attrs.field(converter=_tuple_of_ints)
    round_wind: int = 0
    hand_number: int = 1
    dealer: Seat = 0
    counters: int = 0
    deposits: int = 0
    extra_hands: int = 0
    consecutive_dealer_wins: int = 0
    dealer_wins_this_deal: int = 0
    hands_played: int = 0
    finished: bool = False
    end_reason: str = ""
    final_points: tuple[float, ...] = attrs.field(default=(), converter=_tuple_of_floats)
    # Penalties counted off the final points after uma, by seat (where the rules say so).
    penalties: tuple[int, ...] = attrs.field(default=(), converter=_tuple_of_ints)
    # Stakes each player has placed and not yet lost: the kitty, and the pool of a Goulash deal.
    # They are pending (not taken off the scores) until a winner collects them.
    kitty_pending: int = 0
    goulash_pending: int = 0
    goulash_deal: bool = False
    # Whether the hand's name carries the counters: not in rules that have none (classical
    # rules), where "E1-5" would show a count nothing uses.
    counters_shown: bool = True

    @property
    def dealer_streak(self) -> int:
        """Hands held by the current dealer, the coming one included."""
        return self.extra_hands + 1

    @property
    def hand_label(self) -> str:
        """The hand in Tenhou's short form, e.g. ``S2-1`` for South 2 with 1 counter (``S2`` without counters)."""
        hand = f"{WIND_LETTERS[self.round_wind % 4]}{self.hand_number}"
        return f"{hand}-{self.counters}" if self.counters_shown else hand

    @property
    def hand_name(self) -> str:
        """The hand in words, e.g. ``South 2, 1 counter``."""
        plural = "" if self.counters == 1 else "s"
        hand = f"{WIND_NAMES[self.round_wind % 4]} {self.hand_number}"
        return f"{hand}, {self.counters} counter{plural}" if self.counters_shown else hand


# A table state's fields, in ``__init__``'s order.
_TABLE_FIELDS: tuple[str, ...] = tuple(field.name for field in attrs.fields(TableState))


def _table_copier() -> Callable[..., TableState]:
    """``table_with``: a function ``(state, **changes)`` that calls ``TableState`` with every field
    positionally, the changed ones given, the others the state's own. Written out once from the
    class's fields (every hand of every fold copies a table two or three times): a third of the
    time of making a dictionary of the twenty fields and calling with keywords, and no field can
    be left out."""
    same = object()
    source = (
        f"def table_with(state, *, {', '.join(f'{name}=same' for name in _TABLE_FIELDS)}):\n"
        f"    return TableState({', '.join(f'state.{name} if {name} is same else {name}' for name in _TABLE_FIELDS)})\n"
    )
    scope: dict[str, Any] = {"TableState": TableState, "same": same}
    # The source is made above from the class's own field names.
    exec(source, scope)
    copier: Callable[..., TableState] = scope["table_with"]
    copier.__doc__ = """``attrs.evolve(state, **changes)`` for a table state: the same new state, through the
    same ``__init__`` (its converters and checks); a name that is not a field is a ``TypeError``."""
    return copier


table_with = _table_copier()


def with_notes_of(before: object, after: HandResult) -> HandResult:
    """An amended result with what the log said of the hand it amends kept: each winner's
    ``details`` while that player still wins (unless the amendment brings its own, from the
    tiles typed), and who ``called`` (unless the amendment says). A correction changes what the
    referee changed; the log's notes on the hand are not among the fields a referee corrects."""
    if not isinstance(before, WinResult | ExhaustiveDraw | AbortiveDraw):
        return after
    if isinstance(before, WinResult) and isinstance(after, WinResult):
        said = {w.winner: w.details for w in before.wins if w.details is not None}
        wins = tuple(
            attrs.evolve(w, details=said[w.winner]) if w.details is None and w.winner in said else w for w in after.wins
        )
        after = attrs.evolve(after, wins=wins)
    if after.called is None and before.called is not None:
        after = attrs.evolve(after, called=before.called)
    return after


def without_details(fact: object) -> object:
    """A recorded fact without what logs said about it (``Win.details``, who ``called``): what
    tells one recording of a match from another is its results, not the log's notes on them (a
    log imported before honba kept such a note is the same match when imported again)."""
    if isinstance(fact, WinResult) and any(w.details is not None for w in fact.wins):
        # One copy for both (every fact of a match is compared when it is stored).
        return attrs.evolve(fact, wins=tuple(attrs.evolve(w, details=None) for w in fact.wins), called=None)
    if isinstance(fact, WinResult | ExhaustiveDraw | AbortiveDraw) and fact.called is not None:
        return attrs.evolve(fact, called=None)
    return fact
