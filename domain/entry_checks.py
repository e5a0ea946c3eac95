"""What a hand result or a penalty must satisfy before it is recorded: seats, riichi, the kind
of a draw, the win's own checks (``domain.scoring.checks``), against the players and the rules.

One place for these checks: the Match aggregate runs them before it records anything, and
``honba verify`` runs them while it folds the table with ``domain.progression`` alone.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import Any, Final

from domain.bounds import (
    COUNTERS,
    DEPOSITS,
    HANDS_PLAYED,
    MATCH_KEY,
    NAME,
    PENALTY_AMOUNT,
    SCORE,
    STREAK,
    TEXT,
    check_all,
    shown,
)
from domain.errors import MatchAlreadyEnded, RuleViolation, UnknownSeat, WinnerIsDiscarder, WinnersOnSeveralDiscards
from domain.rules import Ruleset
from domain.said import Listed, Said
from domain.scoring.checks import check_win
from domain.values import (
    ABORT_NAMES,
    AbortiveDraw,
    AbortKind,
    ExhaustiveDraw,
    HandResult,
    HandValue,
    Penalty,
    PenaltyShare,
    Seat,
    TableState,
    Win,
    WinResult,
)

# Where a player named twice is named (``EntryChecks.once``): said once, not for every hand checked.
AMONG_RIICHI = Said("among the riichi declared (a player declares riichi once in a hand)")
AMONG_READY = Said("among the ready players")
AMONG_NAGASHI = Said("among the nagashi mangan claims")
# The roles a seat of a hand result is checked in (``EntryChecks.seat``), said once too.
RIICHI_SEAT = Said("riichi")
READY_SEAT = Said("ready or nagashi")
WINNER_SEAT = Said("winner")
DISCARDER_SEAT = Said("discarder")
LIABLE_SEAT = Said("liable player")
KONG_SEAT = Said("kong declarer")
CALLER_SEAT = Said("open call")
PAYER_SEAT = Said("hand penalty payer")
# The roles of the two sets ``_sets`` reads together.
_RIICHI_CALLED_ROLES = (RIICHI_SEAT, CALLER_SEAT)
_READY_ROLES = (READY_SEAT, READY_SEAT)


def start_checks(
    key: str, players: Sequence[str], rules: Ruleset, opening: TableState | None = None
) -> tuple[str, ...]:
    """The players' names (stripped) of a match that can start; ``RuleViolation`` when it cannot:
    no key, not the rules' number of players, a name missing or twice, a key or name beyond its
    bounds (``domain.bounds``: its length, one line of text), an opening table for another number of
    players or with counts beyond theirs."""
    if not key.strip():
        raise RuleViolation(Said("a match needs a key"))
    MATCH_KEY.check(key)
    if len(players) != rules.players:
        raise RuleViolation(
            Said(
                "rules {rules} are for {players} players, got {count}",
                rules=repr(rules.name),
                players=rules.players,
                count=len(players),
            )
        )
    names = tuple(p.strip() for p in players)
    for seat, name in enumerate(names, start=1):
        NAME.check(name, f"player {seat}'s name")
    if any(not n for n in names) or len(set(names)) != len(names):
        raise RuleViolation(Said("player names must be present and different from each other"))
    if opening is not None:
        if opening.players != rules.players or len(opening.scores) != rules.players:
            raise RuleViolation(Said("the opening table does not have the rules' number of players"))
        opening_checks(opening)
    return names


def opening_checks(opening: TableState) -> None:
    """An opening table's seats, scores and counts within their bounds (``domain.bounds``)."""
    # The counts as the caller gave them (``attrgetter``: ``Any``): declared ``int``, compiled code
    # would read them as machine integers, and ``True`` would pass as 1 (interpreted, the bounds refuse it).
    dealer, round_wind, hand_number, counters, deposits, hands_played = _OPENING_NUMBERS(opening)
    if type(dealer) is not int or not 0 <= dealer < opening.players:
        raise UnknownSeat(_no_seat(Said("opening dealer"), dealer, opening.players))
    # Whole numbers first (``1.0`` and ``True`` are no hand and no round, in either build).
    whole = type(round_wind) is int and type(hand_number) is int
    if not whole or not 0 <= round_wind <= 3 or not 1 <= hand_number <= opening.players:
        raise RuleViolation(
            Said(
                "opening table: there is no hand {hand} of round {round}",
                hand=hand_number if type(hand_number) is int else shown(hand_number),
                round=round_wind if type(round_wind) is int else shown(round_wind),
            )
        )
    check_all(opening.scores, SCORE, "opening score")
    COUNTERS.check(counters, "opening counters")
    DEPOSITS.check(deposits, "opening deposits")
    for name in ("extra_hands", "consecutive_dealer_wins", "dealer_wins_this_deal"):
        STREAK.check(getattr(opening, name), f"opening {name.replace('_', ' ')}")
    HANDS_PLAYED.check(hands_played, "opening hands played")
    check_all(opening.penalties, SCORE, "opening penalties")


_OPENING_NUMBERS = operator.attrgetter("dealer", "round_wind", "hand_number", "counters", "deposits", "hands_played")
_AMOUNT = operator.attrgetter("amount")
# A hand result's seats as the caller gave them (``EntryChecks.seat_kinds``).
_WIN_SEATS = operator.attrgetter("winner", "discarder", "liable")
_WINS = operator.attrgetter("wins")
_RIICHI_CALLED = operator.attrgetter("riichi", "called")
_READY_NAGASHI = operator.attrgetter("ready", "nagashi")
_KONGS = operator.attrgetter("kongs")
_PENALTIES = operator.attrgetter("facts.penalties")
_PAYER = operator.attrgetter("payer")
_SEAT = operator.attrgetter("seat")
_INTS = frozenset({int})


def _seat_kinds(checks: EntryChecks, result: HandResult) -> None:
    """Refuse a seat of a hand result that is no whole number (``EntryChecks.seat``'s refusal, by its
    role), before any other check reads one: each read as the caller gave it (``attrgetter``: ``Any``).
    Declared ``int``, a seat of another type is a ``TypeError`` where code compiled by mypyc reads it,
    and ``True`` passes there as 1; in the pure build a float indexes no list. A function of the module:
    every hand of an import passes here, and compiled code calls it directly (as a method of
    ``EntryChecks`` when it was an attrs class, looked up by name: about 11,000 instructions a hand)."""
    _sets(checks, _RIICHI_CALLED(result), _RIICHI_CALLED_ROLES)
    if isinstance(result, WinResult):
        for win in _WINS(result):
            winner, discarder, liable = _WIN_SEATS(win)
            if type(winner) is not int:
                checks.seat(winner, WINNER_SEAT)
            if discarder is not None and type(discarder) is not int:
                checks.seat(discarder, DISCARDER_SEAT)
            if liable is not None and type(liable) is not int:
                checks.seat(liable, LIABLE_SEAT)
            penalties = _PENALTIES(win)
            if penalties:
                _whole(checks, map(_PAYER, penalties), PAYER_SEAT)
    elif isinstance(result, ExhaustiveDraw):
        _sets(checks, _READY_NAGASHI(result), _READY_ROLES)
    elif isinstance(result, AbortiveDraw):
        kongs = _KONGS(result)
        if kongs:
            _whole(checks, kongs, KONG_SEAT)


def _sets(checks: EntryChecks, sets: Any, roles: tuple[Said, Said]) -> None:
    # Two sets of seats of a result read together (its riichi and calls, its ready and nagashi): most
    # are empty, and an empty one is not looked at.
    first, second = sets
    if first:
        _whole(checks, first, roles[0])
    if second:
        _whole(checks, second, roles[1])


def _whole(checks: EntryChecks, seats: Any, role: Said) -> None:
    seats = tuple(seats)
    # The types looked at in C first: every seat of nearly every hand is an ``int``.
    if not _INTS.issuperset(map(type, seats)):
        for seat in seats:
            if type(seat) is not int:
                checks.seat(seat, role)


def stick_unit(rules: Ruleset) -> int:
    """The smallest amount a score moves by: a 100-point stick under riichi rules, a point in the
    points families (where a penalty shared by the others leaves its remainder to the first after
    the offender, ``settle_penalty``)."""
    return 100 if rules.scoring == "riichi" else 1


def liability_possible(rules: Ruleset, value: HandValue | None) -> bool:
    """Whether the rules can make a third player liable (pao) for a win of this value (``None``: a
    value not known yet): only riichi rules, and only for a yakuman (``EntryChecks.liability``)."""
    return rules.scoring == "riichi" and (value is None or value.limit == "yakuman")


# The kinds of hand result (a tuple made once: ``A | B`` makes a union at each check).
_HAND_RESULTS = (WinResult, ExhaustiveDraw, AbortiveDraw)

# What ``EntryChecks.hand`` calls a match it is not told the key of (the verifier's fold).
_THE_MATCH = Said("the match")


def _no_seat(role: Said, seat: object, players: int) -> Said:
    """The refusal of a seat a table of ``players`` does not have, ``role`` naming what it was given as."""
    # A seat that is no whole number (the domain's API takes any object) quoted as a refusal quotes it.
    said = seat if type(seat) is int else shown(seat)
    return Said("{role}: there is no seat {seat} at a {players}-player table", role=role, seat=said, players=players)


class EntryChecks:
    """The checks of an entry at a table of these players (in seat order) under these rules.

    A plain class, its two fields final, not an attrs class: compiled by mypyc it is then a native
    class, whose methods call each other directly; an attrs class's methods are looked up by name at
    every call, about 1,500 instructions each, some ten a hand (issue 36, twenty-fourth round)."""

    def __init__(self, players: tuple[str, ...], rules: Ruleset) -> None:
        self.players: Final = players
        self.rules: Final = rules

    def __reduce__(self) -> tuple[type[EntryChecks], tuple[tuple[str, ...], Ruleset]]:
        # Copied and pickled by its fields (a Match is deep-copied from the application's cache): a
        # native class is made by its ``__init__``, which wants them.
        return EntryChecks, (self.players, self.rules)

    def __eq__(self, other: object) -> bool:
        return type(other) is EntryChecks and (self.players, self.rules) == (other.players, other.rules)

    def __hash__(self) -> int:
        return hash((self.players, self.rules))

    def __repr__(self) -> str:
        return f"EntryChecks(players={self.players!r}, rules={self.rules!r})"

    def seat(self, seat: Any, role: Said) -> None:
        """Refuse a seat the table does not have (``role`` names it in the message): a whole number
        from 0, asked its type as the caller gave it (``True`` or ``1.0`` is no seat, in either build)."""
        if type(seat) is not int or not 0 <= seat < self.rules.players:
            raise UnknownSeat(_no_seat(role, seat, self.rules.players))

    def riichi(self, riichi: Sequence[Seat]) -> None:
        """Refuse riichi by a seat the table does not have, or declared twice."""
        for seat in riichi:
            self.seat(seat, RIICHI_SEAT)
        self.once(riichi, AMONG_RIICHI)

    def once(self, seats: Sequence[Seat], where: Said) -> None:
        """Refuse a player named twice in a set of players (each player is ready, declares riichi,
        claims a nagashi once): a repeat would be paid twice."""
        if len(seats) < 2 or len(set(seats)) == len(seats):
            return
        repeated = sorted({seat for seat in seats if seats.count(seat) > 1})
        if repeated:
            seat = repeated[0]
            name = self.players[seat] if 0 <= seat < len(self.players) else Said("seat {seat}", seat=seat)
            raise RuleViolation(Said("{name} is named twice {where}", name=name, where=where))

    def hand(self, result: HandResult, state: TableState, match: Said = _THE_MATCH) -> None:
        """Refuse a hand result the Match would not record at ``state``: on a match that has ended
        (``match`` names it in the message), or one the result's checks refuse. The one check of a
        hand, for the Match's ``record`` and the verifier's fold alike."""
        if state.finished:
            raise MatchAlreadyEnded(
                Said("{match} has ended ({why}); nothing more can be recorded", match=match, why=state.end_reason)
            )
        self.result(result, state)

    def liability(self, win: Win) -> None:
        """Refuse a liable player (pao) on a hand the rules make nobody liable for. Riichi rules
        make a player liable only for a yakuman they fed (Big Three Dragons, Big Four Winds, where
        played Four Kongs: Tenhou's rules, the WRC's). The points families (Hong Kong, the Chinese,
        Japanese classical and transitional, Taiwanese, American, Wilmington) have no liability of
        a third player in their rules: Hong Kong's "responsibility" is the discarder's, their
        payment scheme (``loser_payment``, rules.md), so a liable player is refused by the rules' name."""
        if self.rules.scoring != "riichi":
            raise RuleViolation(
                Said(
                    "liability (pao) is not in the {rules} rules: only riichi rules make a player liable"
                    " (for a yakuman they fed); a discarder's responsibility is the rules' payment scheme",
                    rules=self.rules.name,
                )
            )
        if win.value.limit != "yakuman":
            raise RuleViolation(
                Said("liability (pao) is only for a yakuman under these rules, not {value}", value=win.value.said())
            )

    def penalty(self, penalty: Penalty) -> None:
        """Refuse a penalty against no seat, of no positive amount or more than a table holds, or
        whose kind or note is not one line of text of their length (``domain.bounds``)."""
        self.seat(_SEAT(penalty), Said("penalised seat"))
        # The amount as the caller gave it (``attrgetter``: ``Any``): declared ``int``, compiled code
        # would read it as a machine integer, and ``True`` would pass as 1.
        amount = _AMOUNT(penalty)
        if type(amount) is int and amount <= 0:
            raise RuleViolation(Said("a penalty must be a positive amount, not {amount}", amount=amount))
        PENALTY_AMOUNT.check(amount)
        TEXT.check(penalty.kind, "penalty kind")
        TEXT.check(penalty.note, "penalty note")
        self.penalty_share(penalty)
        self.penalty_in_sticks(penalty)

    def penalty_share(self, penalty: Penalty) -> None:
        """Refuse a share the rules cannot pay: where penalties are taken off the final points after
        uma (``penalties_after_uma``: WRC, M-League), the penalty leaves the player and nobody
        receives it, so a share to the others (or a reverse mangan) would be dropped in silence."""
        if self.rules.penalties_after_uma and penalty.share is not PenaltyShare.OFF_TABLE:
            raise RuleViolation(
                Said(
                    "share {share}: under these rules a penalty is taken off the player's final points after uma"
                    " and nobody receives it ({rule}); give share off_table or leave it out",
                    share=penalty.share.value,
                    rule="penalties_after_uma",
                )
            )

    def penalty_in_sticks(self, penalty: Penalty) -> None:
        """Refuse a penalty that no sticks of the rules can pay: under riichi rules scores move in
        100-point sticks, so an amount off the score (or the final points) is a whole number of
        them, and one shared by the others a whole number of them each (4,000 among three would
        be 1,334/1,333/1,333, scores no stick can pay). A reverse mangan's amounts are the rules'."""
        unit = stick_unit(self.rules)
        if penalty.share is PenaltyShare.REVERSE_MANGAN or self.rules.scoring != "riichi":
            # The points families count in points: any whole amount is paid as it is.
            return
        shared = penalty.share is PenaltyShare.TO_OTHERS and not self.rules.penalties_after_uma
        step = unit * (len(self.players) - 1) if shared else unit
        if penalty.amount % step == 0:
            return
        lower, higher = penalty.amount // step * step, (penalty.amount // step + 1) * step
        payable = Said("{lower:,} or {higher:,}", lower=lower, higher=higher) if lower else f"{higher:,}"
        if shared:
            raise RuleViolation(
                Said(
                    "a penalty of {amount:,} shared by the {others} others is no whole"
                    " number of {unit:,}-point sticks each: {payable}",
                    amount=penalty.amount,
                    others=len(self.players) - 1,
                    unit=unit,
                    payable=payable,
                )
            )
        raise RuleViolation(
            Said(
                "a penalty of {amount:,} is no whole number of {unit:,}-point sticks: {payable}",
                amount=penalty.amount,
                unit=unit,
                payable=payable,
            )
        )

    def result(self, result: HandResult, state: TableState) -> None:
        """Refuse (``RuleViolation``) a hand result that cannot be recorded on this table."""
        if not isinstance(result, _HAND_RESULTS):
            raise RuleViolation(Said("not a hand result: {kind}", kind=type(result).__name__))
        _seat_kinds(self, result)
        self.riichi(result.riichi)
        if result.called:
            # A note of the log, never paid by, but counted by seat in the statistics: a seat the
            # table does not have would fail their fold.
            for seat in result.called:
                self.seat(seat, CALLER_SEAT)
        if isinstance(result, WinResult):
            self.win(result, state)
        elif isinstance(result, ExhaustiveDraw):
            for seat in (*result.ready, *result.nagashi):
                self.seat(seat, READY_SEAT)
            self.once(result.ready, AMONG_READY)
            self.once(result.nagashi, AMONG_NAGASHI)
            not_ready = [seat for seat in result.riichi if seat not in result.ready]
            if not_ready and not result.nagashi:
                # A riichi hand cannot change, so it is still ready at the draw; a riichi that was
                # not ready is a chombo, recorded as a penalty, not as a draw. At a nagashi mangan
                # nobody shows a ready hand (Tenhou pays the nagashi instead of noten payments).
                name = self.players[not_ready[0]]
                raise RuleViolation(
                    Said(
                        "{name} declared riichi, so {name} was ready at the draw: name {name} among the ready players "
                        "too (a riichi that was not ready is a chombo: record it as a penalty)",
                        name=name,
                    )
                )
            if result.nagashi and not self.rules.nagashi_mangan:
                raise RuleViolation(Said("nagashi mangan is not played under these rules"))
        elif isinstance(result, AbortiveDraw):
            if not self.rules.abortive_draws:
                raise RuleViolation(Said("abortive draws are not played under these rules"))
            if result.kind is AbortKind.TRIPLE_RON and self.rules.multiple_ron >= 3:
                raise RuleViolation(Said("triple ron is a win under these rules, not an abortive draw"))
            self.abort(result)

    def abort(self, result: AbortiveDraw) -> None:
        """The kind of an abortive draw against the players and the riichi declared.

        Four winds, four riichi and triple ron need four players; four riichi needs every
        player's riichi declared in the hand. Four kongs is an abortive draw when four kongs
        were declared by more than one player (four by one player play on: that player may
        still win with four kongs); where the record names who declared the kongs, that is
        checked, else the kind is taken as stated.
        """
        kind = ABORT_NAMES[result.kind]
        four_only = (AbortKind.FOUR_WINDS, AbortKind.FOUR_RIICHI, AbortKind.TRIPLE_RON)
        if result.kind in four_only and self.rules.players != 4:
            raise RuleViolation(
                Said("{kind} needs four players; this match has {players}", kind=kind, players=self.rules.players)
            )
        for seat in result.kongs:
            self.seat(seat, KONG_SEAT)
        if len(result.kongs) > 4:
            raise RuleViolation(Said("a hand has at most four kongs, not {count}", count=len(result.kongs)))
        if result.kind is AbortKind.FOUR_KONGS and result.kongs:
            if len(result.kongs) != 4:
                raise RuleViolation(
                    Said(
                        "four kongs is an abortive draw only after the fourth kong; {count} were declared",
                        count=len(result.kongs),
                    )
                )
            if len(set(result.kongs)) == 1:
                raise RuleViolation(
                    Said(
                        "four kongs all declared by {player} do not abort the hand: "
                        "it plays on (only kongs by more than one player do)",
                        player=self.players[result.kongs[0]],
                    )
                )
        if result.kind is AbortKind.FOUR_RIICHI and len(result.riichi) != self.rules.players:
            declared = Listed(tuple(self.players[s] for s in result.riichi), ", ", Said("nobody"))
            raise RuleViolation(
                Said(
                    "four riichi is an abortive draw only when all four players declared riichi "
                    "(declared: {declared}); name them all with --riichi",
                    declared=declared,
                )
            )

    def win(self, result: WinResult, state: TableState) -> None:
        """Refuse a win without a winner, a winner on their own discard, winners on different
        discards or more than the rules allow, or a hand value the rules refuse."""
        wins = result.wins
        if not wins:
            raise RuleViolation(Said("a win needs at least one winner"))
        if len(wins) > 1:
            # (One winner, nearly every hand, can neither win twice nor on several discards.)
            winners = [w.winner for w in wins]
            if len(set(winners)) != len(winners):
                raise RuleViolation(Said("the same player cannot win twice in one hand"))
            # Before each hand's own checks: a second winner on no discard is a slip of the discarder.
            discarders = {w.discarder for w in wins}
            if None in discarders or len(discarders) != 1:
                raise WinnersOnSeveralDiscards(Said("several winners are possible only on one and the same discard"))
        for win in wins:
            self.seat(win.winner, WINNER_SEAT)
            if win.discarder is not None:
                self.seat(win.discarder, DISCARDER_SEAT)
                if win.discarder == win.winner:
                    raise WinnerIsDiscarder(
                        Said(
                            "{player} cannot win on their own discard: a self-drawn win has no discarder",
                            player=self.players[win.winner],
                        )
                    )
            if win.liable is not None:
                self.seat(win.liable, LIABLE_SEAT)
                if win.liable == win.winner:
                    raise RuleViolation(Said("a winner cannot be liable (pao) for their own hand"))
                self.liability(win)
            check_win(win, state, self.rules, self.rules.players)
        if len(wins) > self.rules.multiple_ron:
            raise RuleViolation(
                Said(
                    "{count} winners on one discard: these rules allow at most "
                    "{most} (record an abortive draw or the first winner)",
                    count=len(wins),
                    most=self.rules.multiple_ron,
                )
            )
