"""Replay a logged game through the domain and compare, hand by hand, with the log.

For every hand: the log's header (dealer, round and hand, counters, deposits,
start scores) against honba's table state, then the hand's score changes; at
the end, the final scores and the final points. The domain does all the scoring
and progression: the table is folded with ``domain.progression`` (``evolve``,
``after_result``: the deal pass or end a result leads to), the very transition the Match
aggregate folds its events with, after the Match's own check of a hand (``EntryChecks.hand``);
no aggregate, events or hash chain are built, since nothing is stored. This module only compares.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import attrs

from domain.amendments import CorrectedStep
from domain.codec import to_data
from domain.entry_checks import EntryChecks, start_checks
from domain.errors import HonbaError
from domain.match import opening_state
from domain.progression import after_result, end_match, evolve, evolve_checked
from domain.rules import Ruleset
from domain.scoring.payments import score_changes
from domain.values import WIND_LETTERS, DealPass, HandResult, MatchEnd, Payment, TableState
from replay.formats.inference import infer_rules
from replay.formats.logmodel import LoggedGame, LoggedHand
from replay.service.imports.importing import opening_for


@attrs.frozen
class Disagreement:
    """One field where the log and honba differ."""

    file: str
    game: str
    hand: str
    field: str
    log: Any
    honba: Any

    def as_dict(self) -> dict[str, Any]:
        """Plain data for ``--json``."""
        return attrs.asdict(self)


@attrs.frozen
class GameReport:
    """The outcome of verifying one game."""

    file: str
    game: str
    hands: int = 0
    hands_agreeing: int = 0
    disagreements: tuple[Disagreement, ...] = ()
    unsupported: str | None = None
    truncated: bool = False
    # Hands whose value the log did not state, by where honba took it from ("tiles", "payment").
    value_sources: tuple[tuple[str, int], ...] = ()
    # What the reader could not settle about the rules (see ``LoggedGame.notes``).
    notes: tuple[str, ...] = ()


def hand_label(hand: LoggedHand) -> str:
    """The hand as the log names it, e.g. ``S2-1``."""
    return f"{WIND_LETTERS[hand.round_wind % 4]}{hand.hand_number}-{hand.counters}"


def _header_fields(hand: LoggedHand, state: TableState, deposit: int) -> Iterator[tuple[str, Any, Any]]:
    yield "dealer", hand.dealer, state.dealer
    yield (
        "round",
        (WIND_LETTERS[hand.round_wind % 4], hand.hand_number),
        (
            WIND_LETTERS[state.round_wind % 4],
            state.hand_number,
        ),
    )
    yield "counters", hand.counters, state.counters
    yield "deposits", hand.deposit_sticks * deposit, state.deposits
    yield "scores", list(hand.scores), list(state.scores)


def with_rules(game: LoggedGame, rules: Ruleset) -> LoggedGame:
    """A game whose log does not state its rules, to be scored under the rules the user gives.

    The log still does not say how long the game was: its end is settled where the log ends.
    """
    if game.rules_stated or game.unsupported is not None:
        return game
    note = f"rules not stated in the log: scored under the rules given ({rules.name})"
    return attrs.evolve(game, rules=rules, rules_stated=True, points_judged=True, length_known=False, notes=(note,))


def with_inferred_rules(game: LoggedGame) -> LoggedGame:
    """A game whose log does not state its rules, under the rules its own numbers show
    (``replay.formats.inference``): what was inferred, and from which hands, becomes its notes.

    The end of the match stays where the log ends it (the log does not say when the room stops);
    the final points are judged when the uma and oka found explain them.
    """
    if game.rules_stated or game.unsupported is not None or not game.hands:
        return game
    inferred = infer_rules(game)
    if not inferred.findings:
        return game
    judged = "the final points are judged under them" if inferred.points_known else "the final points are not judged"
    notes = (
        f"rules not stated in the log: inferred from its numbers (--rules decides instead); the match ends "
        f"where the log ends, {judged}",
        *(f"inferred: {finding}" for finding in inferred.findings),
    )
    return attrs.evolve(game, rules=inferred.rules, points_judged=inferred.points_known, notes=notes)


def verify_game(game: LoggedGame, played: Sequence[CorrectedStep] = ()) -> GameReport:
    """Replay one logged game and list every disagreement with the log.

    A hand agrees when its score changes and the table it leads to (the next
    header, or the end of the match) agree with the log. ``played``: the steps a Match
    built from this very game scored (``Match.corrected_steps``: an import has them), taken
    instead of scoring each hand again; a step that is not of the hand being compared is
    not taken.
    """
    base = GameReport(game.file, game.game_id, truncated=game.truncated, notes=game.notes)
    if game.unsupported is not None:
        return attrs.evolve(base, unsupported=game.unsupported)
    if not game.hands:
        return base
    found: list[Disagreement] = []

    def differ(hand: str | LoggedHand, field: str, log: Any, honba: Any) -> None:
        # The hand named by its label, made here: only a hand that disagrees is named.
        label = hand if isinstance(hand, str) else hand_label(hand)
        found.append(Disagreement(game.file, game.game_id, label, field, log, honba))

    try:
        table = _Table(game, opening_for(game), played)
    except HonbaError as exc:
        return attrs.evolve(base, unsupported=f"cannot start the match: {exc}")
    _compare_header(game.hands[0], table.state, "start", game.rules.riichi_deposit, differ)

    checked = agreeing = 0
    refused = False
    hands, deposit, stated = game.hands, game.rules.riichi_deposit, game.rules_stated
    stopped_at: str | None = None  # a hand the log gives no result, where the replay stops
    for index, hand in enumerate(hands):
        if hand.result is None:
            stopped_at = hand_label(hand)
            break
        label = hand  # named (``hand_label``) where it disagrees
        if table.state.finished:
            if game.rules_stated:
                differ(label, "match end", "continues", f"ended ({table.state.end_reason})")
            break
        already = len(found)
        state = table.state
        try:
            # Scored first, checked when recorded, as the Match does (``preview``, then ``record``):
            # a result the rules refuse shows its score changes beside the refusal.
            after, payments = table.score(hand.result)
        except HonbaError as exc:
            differ(label, "result", "recorded", f"refused: {exc}")
            refused = True
            break
        if hand.deltas is not None:
            ours = score_changes(payments, state.players)
            if ours != tuple(hand.deltas):
                differ(label, "score changes", list(hand.deltas), list(ours))
        try:
            table.record(hand.result, after)
        except HonbaError as exc:
            differ(label, "result", "recorded", f"refused: {exc}")
            refused = True
            break
        checked += 1
        if index + 1 < len(hands):
            following = hands[index + 1]
            if table.state.finished:
                if stated:
                    differ(label, "match end", "continues", f"ended ({table.state.end_reason})")
            else:
                _compare_header(following, table.state, "next", deposit, differ, label)
        else:
            _check_end(game, table.state, label, differ)
        agreeing += len(found) == already
    notes = game.notes
    # The refused hand has its row; the hands after it, or after the match's end, are counted here.
    unplayed = [hand for hand in game.hands[checked + refused :] if hand.result is not None]
    if unplayed:
        # Never a silent hand: what was logged and not replayed is counted, with why.
        if refused:
            why = "after a result honba refused"
        elif stopped_at is not None:
            why = f"after {stopped_at}, which the log gives no result"
        else:
            why = f"after the match ended ({table.state.end_reason})"
        notes = (
            *notes,
            f"{len(unplayed)} logged hand(s) not replayed {why}: "
            f"{', '.join(hand_label(hand) for hand in unplayed[:8])}{', ...' if len(unplayed) > 8 else ''}",
        )
    sources: dict[str, int] = {}
    for hand in game.hands:
        if hand.result is not None and hand.value_source != "log":
            sources[hand.value_source] = sources.get(hand.value_source, 0) + 1
    return GameReport(
        game.file,
        game.game_id,
        hands=checked,
        hands_agreeing=agreeing,
        disagreements=tuple(found),
        truncated=game.truncated,
        value_sources=tuple(sorted(sources.items())),
        notes=notes,
    )


class _Table:
    """A game's table, folded hand by hand as the Match records them: the same checks
    (``EntryChecks``), the hand's payments and table from ``evolve``, then the deal pass or
    the end it leads to (``following_fact``), folded the same way."""

    def __init__(self, game: LoggedGame, opening: TableState | None, played: Sequence[CorrectedStep] = ()):
        self.rules = game.rules
        self.checks = EntryChecks(start_checks(game.game_id, game.players, game.rules, opening), game.rules)
        self.state = opening_state(game.rules, to_data(opening) if opening is not None else {})
        self.played = played
        self.next = 0  # the step of ``played`` the next hand would take
        self.checked: HandResult | None = None  # a result ``score`` checked at the table as it is

    def score(self, result: HandResult) -> tuple[TableState, tuple[Payment, ...]]:
        """The table after a hand result (before its deal pass or end) and its payments."""
        step = self._played_step(result) if self.played else None
        if step is not None:
            return step.after, step.payments
        try:
            # The Match's check of a hand (``record`` needs it passed), run once: a result it
            # passes is scored without ``evolve``'s guard, whose seats and values it has checked.
            self.checks.hand(result, self.state)
        except HonbaError:
            # Scored as the Match previews it, so that its score changes show beside the refusal
            # ``record`` gives (or ``evolve``'s own, for a fact no table can hold).
            return evolve(self.state, self.rules, result)
        self.checked = result
        return evolve_checked(self.state, self.rules, result)

    def _played_step(self, result: HandResult) -> CorrectedStep | None:
        """The step the Match scored for this very result on this very table, if there is one."""
        if not self.played or self.next >= len(self.played):
            return None
        step = self.played[self.next]
        # The very table object the Match's fold handed on (nine hands in ten: ``record`` keeps the
        # step's ``after``, the next step's ``before``) is equal without comparing its fields (attrs'
        # ``==`` compares them all, every time).
        before = step.before
        return step if step.fact is result and (before is self.state or before == self.state) else None

    def record(self, result: HandResult, after: TableState) -> None:
        """Record a hand result scored by ``score``: checked, then the table moves on to ``after``
        and the deal pass or end it leads to, as the Match records it."""
        before = self.state
        if self.played and self._played_step(result) is not None:
            # The Match recorded this very result on this very table under the game's rules, after
            # the same checks (``EntryChecks``), and the deal pass or end it led to as its next step.
            self.next += 1
            if self.next < len(self.played) and isinstance(self.played[self.next].fact, DealPass | MatchEnd):
                after = self.played[self.next].after
                self.next += 1
            self.state = after
            return
        # Off the Match's path: the Match's own check and fold (``EntryChecks.hand``, ``after_result``);
        # the check already passed when ``score`` scored this very result on this very table.
        if self.checked is not result:
            self.checks.hand(result, before)
        self.checked = None
        self.played = ()
        self.state = after_result(before, after, self.rules, result)


def _compare_header(
    hand: LoggedHand,
    state: TableState,
    prefix: str,
    deposit: int,
    differ: Any,
    label: str | LoggedHand | None = None,
) -> None:
    if (
        hand.dealer == state.dealer
        and hand.hand_number == state.hand_number
        and hand.round_wind % 4 == state.round_wind % 4
        and hand.counters == state.counters
        and hand.deposit_sticks * deposit == state.deposits
        and hand.scores == state.scores  # (a list of scores: compared field by field below)
    ):
        # Every field of ``_header_fields`` agrees (nearly every hand of every log): nothing to list.
        return
    for field, log_value, our_value in _header_fields(hand, state, deposit):
        if log_value != our_value:
            differ(hand_label(hand) if label is None else label, f"{prefix} {field}", log_value, our_value)


def _check_end(game: LoggedGame, state: TableState, label: str | LoggedHand, differ: Any) -> None:
    if not state.finished and not game.length_known and game.final_scores is not None:
        # The log does not say how long the game was: settle the end where the log ends it.
        state = end_match(state, game.rules, MatchEnd("complete"))
    if game.final_scores is None:
        if not game.truncated and not state.finished and game.length_known and game.rules_stated:
            differ(label, "match end", "ended", "continues")
        return
    if not state.finished:
        differ(label, "match end", "ended", "continues")
        return
    if list(state.scores) != list(game.final_scores):
        differ(label, "final scores", list(game.final_scores), list(state.scores))
    if game.final_points is not None and game.points_judged:
        ours = [float(p) for p in state.final_points]
        if ours != [float(p) for p in game.final_points]:
            differ(label, "final points", list(game.final_points), ours)
