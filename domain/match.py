"""The Match aggregate: one match's event log and its table state.

Commands check the result against the rules and the table state *before*
anything is recorded, then record the facts. The aggregate itself decides, from
the rules, whether the deal passes and whether the match has ended, and records
those decisions as events too; nobody passes the deal by hand.

Every event body folds with ``domain.progression.evolve``, the same function
the projections use, so the table state is computed by one piece of code.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

import attrs
from eventsourcing.domain import Aggregate

from domain.amendments import (
    CorrectedStep,
    Correction,
    EndJudgement,
    correction_outcomes,
    corrects_something,
    early_end_reason,
    effective_entries,
    effective_facts,
    fold_corrected,
    is_correctable,
    is_early_end,
    judge_end,
    latest_of_its_target,
    next_step,
    resolve_corrections,
    undone_positions,
)
from domain.bounds import KEY, NAME, TEXT
from domain.clock import TIME_UP, Clock, ClockNote, check_minutes, stored_time
from domain.codec import exact_data, fact_to_data, from_data, to_data
from domain.entry_checks import EntryChecks, start_checks
from domain.errors import EntryRefused, MatchAlreadyEnded, RuleViolation, entry_at
from domain.integrity import (
    GENESIS,
    canonical,
    digest_of,
    digests_of_items,
    event_digest,
    exact_canonical,
    json_exactly,
    plain,
    plain_canonical,
    prefix_digests,
    written_as,
    written_exactly,
    written_for_event,
)
from domain.progression import (
    Fact,
    finish,
    following_fact,
    initial_state,
)
from domain.rules import Ruleset, other_values
from domain.said import Said
from domain.values import (
    AbortiveDraw,
    DealPass,
    ExhaustiveDraw,
    HandResult,
    MatchEnd,
    Penalty,
    TableState,
    WinResult,
    without_details,
)


# A server's every hand asks the id of its match (its load and seal): found once per key for the
# matches it records on at once (a SHA-1 and a UUID made each time were a twentieth of the hand's
# service call, issue 36's thirteenth round), a few hundred kept.
@functools.lru_cache(maxsize=512)
def match_id(key: str) -> UUID:
    """The deterministic id of the match with this natural key."""
    return uuid5(NAMESPACE_URL, f"honba:/matches/{key}")


class Match(Aggregate):
    """A mahjong match: players in seat order, the rules in force, and every result."""

    class Started(Aggregate.Created):
        """The match started: players in seat order (seat 0 deals first), the full rule values."""

        key: str
        players: list[str]
        rules: dict[str, Any]
        source: dict[str, Any]
        opening: dict[str, Any]
        prior: str

        def mutate(self, aggregate: Any) -> Any:
            match = super().mutate(aggregate)
            assert match is not None
            match.head = event_digest(self)
            return match

    class Recorded(Aggregate.Event):
        """A fact that changes the table; subclasses name which kind.

        ``prior`` is the digest of the event before it (the hash chain);
        ``client_key`` the key a client sent with the command, so a retry records nothing new.
        """

        fact: Any
        prior: str
        client_key: str | None

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Match)
            aggregate.history.append((self.originator_version, self.fact))
            # Scored when the table is next asked for (``corrected_steps``), once.
            aggregate.unscored.append((self.originator_version, self.fact))
            known = aggregate.pending_data.get(self.originator_version)
            if self.client_key is not None:
                aggregate.remember_fact(self.client_key, self.fact)
            # A deal passed or an end the rules decided follows the entry a person made: not one of its own.
            if self.client_key is not None or not isinstance(self.fact, _RULES_FACTS):
                aggregate.last_entry_key = self.client_key
            aggregate.head = event_digest(self, known)

    class Corrected(Aggregate.Event):
        """A referee corrected the history: amended or voided an entry, added or cancelled a penalty."""

        target: int | None
        replacement: Any
        by: str
        reason: str
        prior: str
        client_key: str | None
        # When the referee made it, where that is not when it was stored (a file imported later).
        at: str | None

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Match)
            at = self.at or self.timestamp.isoformat()
            correction = Correction(self.target, self.replacement, self.by, self.reason, at, self.originator_version)
            if self.target is None:
                aggregate.history.append((self.originator_version, self.replacement))
            aggregate.correction_log.append((self.originator_version, correction))
            aggregate.corrections = resolve_corrections(aggregate.correction_log)
            # A correction can change every later entry: the history is scored again when next asked for.
            aggregate.scored = None
            # The whole command: a retry names the same entry, replacement, referee, reason and time.
            aggregate.remember(
                self.client_key, "correct", (self.target, self.replacement, self.by, self.reason, self.at)
            )
            if self.client_key is not None:
                aggregate.client_key_targets[self.client_key] = self.target
            aggregate.last_entry_key = self.client_key
            aggregate.head = event_digest(self, aggregate.pending_data.get(self.originator_version))

    class HandWon(Recorded):
        """One or more players won the hand."""

    class HandDrawn(Recorded):
        """The hand ended in an exhaustive draw."""

    class HandAborted(Recorded):
        """The hand ended in an abortive draw."""

    class DealPassed(Recorded):
        """The deal passed to the next player, as the rules decided."""

    class PenaltyApplied(Recorded):
        """A penalty was given."""

    class ClockEvent(Aggregate.Event):
        """A fact of the match's clock (``domain.clock``): not a result, no entry of the record
        file, part of the match's chain like every event. ``prior`` and ``client_key`` as for
        ``Recorded``."""

        prior: str
        client_key: str | None

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Match)
            note = self.note()
            aggregate.clock = note.applied(aggregate.clock, self.originator_version)
            aggregate.clock_log.append((self.originator_version, note))
            aggregate.remember(self.client_key, "clock", note.fields())
            aggregate.head = event_digest(self)

        def note(self) -> ClockNote:
            """What the event says, as a value."""
            raise NotImplementedError

    class TimeLimitSet(ClockEvent):
        """The director set the match's time limit (again: it replaces the one before)."""

        minutes: int
        by: str

        def note(self) -> ClockNote:
            return ClockNote("limit", minutes=self.minutes, by=self.by)

    class ClockStarted(ClockEvent):
        """The clock started, at ``at`` (a stored time: the time given to the command, never read here)."""

        at: str
        by: str

        def note(self) -> ClockNote:
            return ClockNote("started", at=self.at, by=self.by)

    class TimeAdded(ClockEvent):
        """A director added time to the table."""

        minutes: int
        by: str
        reason: str

        def note(self) -> ClockNote:
            return ClockNote("added", minutes=self.minutes, by=self.by, reason=self.reason)

    class TimeUp(ClockEvent):
        """Time is up: the first result recorded at or after the deadline (``noticed``, the time
        given to that command) is the hand in play; the hands after time count from here."""

        deadline: str
        noticed: str

        def note(self) -> ClockNote:
            return ClockNote("up", at=self.deadline, noticed=self.noticed)

    class MatchEnded(Recorded):
        """The match ended: final scores, leftover deposits and where they went, final points."""

        final_scores: list[int]
        leftover: int
        leftover_to: int | None
        final_points: list[float]

    def __init__(
        self,
        key: str,
        players: Sequence[str],
        rules: Mapping[str, Any],
        source: Mapping[str, Any],
        opening: Mapping[str, Any],
        prior: str = GENESIS,
    ):
        self.key = key
        self.players = tuple(players)
        self.rules = stored_rules(rules)
        # The checks of an entry at this table, and the match as a refusal names it: made once per
        # match (its players and rules never change), not once per hand recorded.
        self.checks = EntryChecks(self.players, self.rules)
        self.named = Said("match {key}", key=repr(key))
        self.source = dict(source)
        self.opening = dict(opening)
        self.head = GENESIS
        # Every recorded fact at its position, the corrections made to them, and client keys seen.
        self.history: list[tuple[int, Fact]] = []
        self.corrections: dict[int, Correction] = {}
        self.correction_log: list[tuple[int, Correction]] = []
        # Each client key's command's fingerprint (``_fingerprint``), or for a recorded fact the fact
        # itself in a one-item tuple, its fingerprint made when a retry asks (``fingerprint_of``).
        self.client_keys: dict[str, str | tuple[Any]] = {}
        # The entry each client key's correction targeted, so that a retried undo finds it again.
        self.client_key_targets: dict[str, int | None] = {}
        # The client key of the last entry a person made (a result, a penalty, a correction; None
        # when it was sent without one): what an entry sent after it from the same phone names.
        self.last_entry_key: str | None = None
        # The corrected history as scored so far, each hand settled once per command: the steps
        # (None: to be folded again, after a correction), the table as played after them, the
        # entries recorded since, and the next step a command worked out before recording it.
        self.scored: list[CorrectedStep] | None = []
        self.played: TableState = opening_state(self.rules, self.opening)
        self.unscored: list[tuple[int, Fact]] = []
        self.ahead: tuple[int, Fact, CorrectedStep, TableState] | None = None
        # The clock (``domain.clock``) and its events by position, for the log and the audit.
        self.clock = Clock()
        self.clock_log: list[tuple[int, ClockNote]] = []
        # The fact (or replacement) of each event a command made that is not yet collected, with its
        # plain data (``to_data``), by position: made once for the event's digest, and what a save or
        # an import takes for its stored row and its standings documents (``pending_fact_data``).
        # Emptied as the events are collected: a match kept in memory holds no copy of its history.
        self.pending_data: dict[int, tuple[Any, Any]] = {}

    def trigger_event(self, event_class: Any, **kwargs: Any) -> None:
        """Every event names the digest of the one before it.

        The library's ``trigger_event`` in one step: the event made as the match's next, stamped by
        the event class's clock (``create_timestamp``, as the library stamps it), applied as the
        library's ``mutate`` applies it (``apply``, then the match's version and time), then kept
        pending; without the library's copies of the arguments and its look for a class topic (a
        match has none), which every event of an import paid for, nor ``mutate``'s checks that the
        event names this match and its next version (made so here: a stored event replayed into a
        match still goes through them). The library's attributes set and read as its own properties
        set and read them (``BaseAggregate``: ``_version``, ``_modified_on``, ``_pending_events``,
        ``_id``), not through five Python property calls a hand."""
        version = self._version + 1
        if issubclass(event_class, _ENTRY_EVENTS):
            kwargs.setdefault("client_key", None)
            fact = kwargs.get("fact", kwargs.get("replacement"))
            if fact is not None:
                self.pending_data[version] = (fact, to_data(fact))
        event = event_maker(event_class)(self._id, version, event_class.create_timestamp(), self.head, kwargs)
        event.apply(self)
        self._version = version
        self._modified_on = event.timestamp
        self._pending_events.append(event)

    def collect_events(self) -> Sequence[Any]:
        """The events made since the last collection (the library's), the facts' data made for them let go."""
        self.pending_data.clear()
        # The library's takes them one by one from the front of the list (``pop(0)``): the same
        # events, in order, the list left empty.
        pending = self._pending_events
        collected = list(pending)
        pending.clear()
        return collected

    def pending_fact_data(self) -> dict[int, Any]:
        """The plain data (``domain.codec.to_data``) of each pending event's fact or replacement made
        when its command made the event, by the value's ``id()`` (the pending events keep the values
        alive): what the mapper and the standings documents take instead of making it again."""
        return {id(fact): data for fact, data in self.pending_data.values()}

    @property
    def state(self) -> TableState:
        """The table now: after the corrected history, from the opening table."""
        return self.fold()

    def fold(self) -> TableState:
        """The table after the corrected history, from the opening table."""
        steps = self._steps()
        # Before the first entry the table as played is the opening table (made when the match was).
        return steps[-1].after if steps else self.played

    def corrected_steps(self) -> list[CorrectedStep]:
        """The corrected history entry by entry, the hands kept as they were played."""
        return list(self._steps())

    def steps_held(self) -> tuple[CorrectedStep, ...]:
        """``corrected_steps`` as a tuple, made in one copy of the steps held, not two (a recorded
        hand's answer takes it: issue 36, eighteenth round)."""
        return tuple(self._steps())

    def _steps(self) -> list[CorrectedStep]:
        """The steps the aggregate holds, brought up to date: folded whole after a correction,
        else only the entries recorded since (each scored on the table the last one left)."""
        if self.scored is None:
            opening = opening_state(self.rules, self.opening)
            self.scored, self.played = fold_corrected(opening, self.rules, self.history, self.corrections)
            self.unscored = []
        if self.unscored:
            # Written only when there is something to score: a read of a match scored up to date
            # changes nothing, so a saved match is kept itself while its command's caller reads it
            # (``score``, ``replay.store.application.HonbaApp.save_match``).
            for position, fact in self.unscored:
                step, self.played = self._step_of(position, fact)
                self.scored.append(step)
            self.unscored = []
        return self.scored

    def score(self) -> None:
        """Score every entry recorded so far (what the next read would): after it, reading the
        match (``state``, ``fold``, ``corrected_steps`` and the rest) changes nothing in it, until
        the next command."""
        self._steps()

    def _step_of(self, position: int, fact: Fact, *, checked: bool = False) -> tuple[CorrectedStep, TableState]:
        """The step of an entry recorded after the steps held, and the table as played after it
        (the one ``preview`` worked out, when it was this very fact; ``checked``: see ``preview``)."""
        if self.ahead is not None and self.ahead[0] == position and self.ahead[1] is fact:
            return self.ahead[2], self.ahead[3]
        steps = self.scored or []
        # Before the first entry the corrected table is the table as played, the opening table: the
        # same object, so that the first hand is scored once for both (``next_step``).
        corrected = steps[-1].after if steps else self.played
        return next_step(self.played, corrected, self.rules, position, fact, fact, checked=checked)

    def preview(self, result: HandResult, *, checked: bool = False) -> CorrectedStep:
        """The step recording this result next would make (its table before, payments and table
        after), worked out once: recording the same result object then takes it. ``checked``: the
        entry checks (``EntryChecks.hand``) have just passed the result on this match's table, as
        ``record`` checks it: it is scored without the guard for a fact changed behind honba's back
        (``domain.progression.evolve_checked``)."""
        return self._foresee(result, checked=checked)

    def _foresee(self, fact: Fact, *, checked: bool) -> CorrectedStep:
        """``preview`` of any fact (a deal pass the rules made, with ``checked``: see ``next_step``)."""
        self._steps()
        position = self._version + 1
        step, played = self._step_of(position, fact, checked=checked)
        self.ahead = (position, fact, step, played)
        return step

    def end_judgements(self) -> tuple[EndJudgement, ...]:
        """Where the corrected history judges the end of the match otherwise than it was played."""
        return judge_end(opening_state(self.rules, self.opening), self.rules, self.history, self.corrections)

    def effective_facts(self) -> list[Fact]:
        """The history as corrected (what scores and standings use)."""
        return effective_facts(self.history, self.corrections)

    def effective_entries(self) -> list[tuple[int, Fact]]:
        """The corrected history, each fact with the position of the entry it stands for."""
        return effective_entries(self.history, self.corrections)

    def remember(self, client_key: str | None, command: str, payload: Any) -> None:
        """Note a client key and what its command was, so a retry can be recognised."""
        if client_key is not None:
            self.client_keys[client_key] = _fingerprint(command, payload)

    def remember_fact(self, client_key: str, fact: Any) -> None:
        """``remember(client_key, "record", fact)``, the fingerprint made only when a retry asks for it
        (``fingerprint_of``: the same fingerprint to the byte): the fact is kept as it is (the history
        holds it already), so that a recorded hand, and every event of a match read whole, makes no
        digest no retry needs (issue 36, eighteenth round; the fifteenth made it from the fact's data
        its command had made, one orjson call and one SHA-256 a hand)."""
        self.client_keys[client_key] = (fact,)

    def fingerprint_of(self, client_key: str) -> str | None:
        """The fingerprint of the command this client key recorded (None: no command named it), made
        now for a recorded fact's (``remember_fact``); nothing in the match is changed by asking."""
        kept = self.client_keys.get(client_key)
        if kept is None or type(kept) is str:
            return kept
        return _fingerprint("record", kept[0])

    def seen(self, client_key: str | None, command: str, payload: Any) -> bool:
        """True when this client key already recorded this very command (a retry: record nothing).

        A key reused for a different command is refused, and so is a key beyond its bounds
        (``domain.bounds.KEY``: its length, one line of text).
        """
        if client_key is not None:
            KEY.check(client_key, "client key")
        if client_key is None or client_key not in self.client_keys:
            return False
        if self.fingerprint_of(client_key) != _fingerprint(command, payload):
            raise RuleViolation(Said("client key {key} was already used for a different command", key=repr(client_key)))
        return True

    @staticmethod
    def create_id(key: str, **_: Any) -> UUID:
        """Matches are found by their natural key, so a match is never stored twice."""
        return match_id(key)

    @classmethod
    def start(
        cls,
        key: str,
        players: Sequence[str],
        rules: Ruleset,
        source: Mapping[str, Any] | None = None,
        opening: TableState | None = None,
    ) -> Match:
        """Start a match: ``players`` in seat order, seat 0 the first dealer.

        ``opening`` is the table when recording starts part-way through a match
        (a log excerpt that begins at South 3, say); by default East 1 at the
        rules' start score.
        """
        names = list(start_checks(key, players, rules, opening))
        # The rules' canonical bytes written once: the match finds its ``Ruleset`` by them, and its
        # start's digest covers them (the 2 KB written and checked twice before).
        values = start_values(rules)
        return cls._create(
            cls.Started,
            id=match_id(key),
            key=key,
            players=names,
            rules=values,
            source=dict(source or {}),
            opening=to_data(opening) if opening is not None else {},
            prior=GENESIS,
        )

    # Commands.

    def record(self, result: HandResult, *, client_key: str | None = None, at: datetime | None = None) -> None:
        """Record a hand result, then the deal pass or the end it leads to.

        ``at`` is when it is recorded (the caller's clock: an import, which replays a game
        played long ago, gives none): on a match whose time is up by then, the result is the
        hand in play, or one of the hands after time, and the rules' ``hands_after_time`` may
        end the match after it. With a ``client_key`` already used for this very result,
        nothing new is recorded.
        """
        if self.seen(client_key, "record", result):
            return
        self.checks.hand(result, self.state, self.named)
        if self.clock.due(at):
            assert at is not None and self.clock.deadline is not None
            self.trigger_event(
                self.TimeUp, deadline=stored_time(self.clock.deadline), noticed=stored_time(at), client_key=None
            )
        step = self.preview(result, checked=True)
        before, after = step.before, step.after
        event_class: type[Match.Recorded]
        if isinstance(result, WinResult):
            event_class = self.HandWon
        elif isinstance(result, ExhaustiveDraw):
            event_class = self.HandDrawn
        else:
            event_class = self.HandAborted
        self.trigger_event(event_class, fact=result, client_key=client_key)
        following = following_fact(before, after, self.rules, result)
        if isinstance(following, MatchEnd):
            self._end(following.reason)
        elif self._last_hand_after_time():
            # The clock ends it: no deal pass to a hand that will not be played.
            self._end(TIME_UP)
        elif following is not None:
            # Made by the rules, from this very table: scored without the guard, as the result was.
            self._foresee(following, checked=True)
            self.trigger_event(self.DealPassed, fact=following)

    def hands_after_time(self) -> int:
        """The hands of the corrected history recorded since time was marked up (none before)."""
        marked = self.clock.time_up_at
        if marked is None:
            return 0
        hands = WinResult | ExhaustiveDraw | AbortiveDraw
        return sum(1 for position, fact in self.effective_entries() if position > marked and isinstance(fact, hands))

    def _last_hand_after_time(self) -> bool:
        return self.clock.time_up_at is not None and self.hands_after_time() > self.rules.hands_after_time

    # The clock's commands: what a director sets, starts and adds. Times are given, never read.

    def set_time_limit(self, minutes: int, *, by: str, client_key: str | None = None) -> None:
        """Set the match's time limit, in minutes (again: it replaces the one before)."""
        who = by.strip() or "director"
        NAME.check(who, "clock by")
        if type(minutes) is not int:  # said before a compiled ClockNote refuses it with a TypeError
            check_minutes(minutes, Said("a time limit"))
        if self.seen(client_key, "clock", ClockNote("limit", minutes=minutes, by=who).fields()):
            return
        self._check_open()
        self.clock.set_limit(minutes)
        self.trigger_event(self.TimeLimitSet, minutes=minutes, by=who, client_key=client_key)

    def start_clock(self, at: datetime, *, by: str, client_key: str | None = None) -> None:
        """Start the clock at ``at`` (the time the caller read: the server's)."""
        who, started = by.strip() or "director", stored_time(at)
        NAME.check(who, "clock by")
        if self.seen(client_key, "clock", ClockNote("started", at=started, by=who).fields()):
            return
        self._check_open()
        self.clock.check_start()
        self.trigger_event(self.ClockStarted, at=started, by=who, client_key=client_key)

    def add_time(self, minutes: int, *, by: str, reason: str = "", client_key: str | None = None) -> None:
        """Add time to the table's clock (after time was up, the clock runs again)."""
        who, why = by.strip() or "director", reason.strip()
        NAME.check(who, "clock by")
        TEXT.check(why, "clock reason")
        if type(minutes) is not int:  # said before a compiled ClockNote refuses it with a TypeError
            check_minutes(minutes, Said("the time added"))
        if self.seen(client_key, "clock", ClockNote("added", minutes=minutes, by=who, reason=why).fields()):
            return
        self._check_open()
        self.clock.check_add()
        check_minutes(minutes, Said("the time added"))
        self.trigger_event(self.TimeAdded, minutes=minutes, by=who, reason=why, client_key=client_key)

    def penalise(self, penalty: Penalty, *, client_key: str | None = None) -> None:
        """Record a penalty against a seat while the match is on."""
        if self.seen(client_key, "record", penalty):
            return
        self._check_open()
        self._check_penalty(penalty)
        self.trigger_event(self.PenaltyApplied, fact=penalty, client_key=client_key)

    def end(self, reason: str = "agreed", *, client_key: str | None = None) -> None:
        """End the match early (e.g. by the players' agreement or a time limit)."""
        if self.seen(client_key, "record", MatchEnd(reason.strip())):
            return
        TEXT.check(reason, "end reason")
        self._check_open()
        # The one rule of which early ends exist (also the record file's, replay/formats/record/read.py).
        self._end(early_end_reason(reason), client_key=client_key)

    # Corrections: new events that say what they replace; the original stays in the log.

    def amend(
        self,
        target: int,
        replacement: HandResult | Penalty,
        *,
        by: str,
        reason: str,
        client_key: str | None = None,
        at: str | None = None,
    ) -> None:
        """Replace the result (or penalty) recorded at position ``target`` by another.

        ``at`` is when the referee made it, where that is not now (a file imported later).
        """
        if self.seen(client_key, "correct", (target, replacement, by, reason, at)):
            return
        original = self._correctable(target, by, reason, at)
        if isinstance(original, MatchEnd):
            raise EntryRefused(
                Said(
                    "the end at {entry} is not amended: void it to reopen the match (then end it again if need be)",
                    entry=entry_at(target),
                )
            )
        if isinstance(original, Penalty) != isinstance(replacement, Penalty):
            raise RuleViolation(Said("a hand result is amended by a hand result, a penalty by a penalty"))
        if isinstance(replacement, Penalty):
            self._check_penalty(replacement)
        else:
            self._check_result(replacement, self._state_before(self._entry_of(target)))
        self.trigger_event(
            self.Corrected, target=target, replacement=replacement, by=by, reason=reason, client_key=client_key, at=at
        )

    def void(self, target: int, *, by: str, reason: str, client_key: str | None = None, at: str | None = None) -> None:
        """Void the result or penalty recorded at position ``target`` (it stays in the log); an
        early end voided reopens the match."""
        if self.seen(client_key, "correct", (target, None, by, reason, at)):
            return
        self._correctable(target, by, reason, at)
        self.trigger_event(
            self.Corrected, target=target, replacement=None, by=by, reason=reason, client_key=client_key, at=at
        )

    def add_penalty(
        self, penalty: Penalty, *, by: str, reason: str, client_key: str | None = None, at: str | None = None
    ) -> None:
        """Add a penalty as a correction: allowed at any time, also after the match ended."""
        if self.seen(client_key, "correct", (None, penalty, by, reason, at)):
            return
        self._check_referee(by, reason, at)
        self._check_penalty(penalty)
        self.trigger_event(
            self.Corrected, target=None, replacement=penalty, by=by, reason=reason, client_key=client_key, at=at
        )

    def reopen(self, *, by: str, reason: str, client_key: str | None = None, at: str | None = None) -> int:
        """Reopen a match the players ended early (agreed, a time limit): a correction that voids
        the end, with who and why; the match goes on from the table before it. Returns the end's
        position. An end the rules decided (the clock's ``time_up`` too) follows from the last
        hand: take that hand back (undo, or void it) or amend it instead."""
        if client_key is not None and client_key in self.client_key_targets:
            reopened = self.client_key_targets[client_key]
            if reopened is not None and self.seen(client_key, "correct", (reopened, None, by, reason, at)):
                return reopened
        self._check_referee(by, reason, at)
        if not self.state.finished:
            raise RuleViolation(Said("match {match} has not ended: there is nothing to reopen", match=repr(self.key)))
        ends = [p for p, _ in self.effective_entries() if isinstance(dict(self.history).get(p), MatchEnd)]
        end = dict(self.history)[ends[-1]] if ends else None
        if end is None or not is_early_end(end):
            why: str | Said = self.state.end_reason or Said("by the rules")
            if why == TIME_UP:
                # The clock's end is the rules' too (``hands_after_time``): it follows its hand.
                raise RuleViolation(
                    Said(
                        "match {match} was ended by the clock (time up, under the rules' hands after time) after "
                        "its last hand: take that hand back (undo, or void it), and the end goes with it",
                        match=repr(self.key),
                    )
                )
            raise RuleViolation(
                Said(
                    "match {match} was ended by the rules ({why}) after its last hand: take that hand back "
                    "(undo, or void it) or amend it, and the rules judge the end again",
                    match=repr(self.key),
                    why=why,
                )
            )
        self.void(ends[-1], by=by, reason=reason, client_key=client_key, at=at)
        return ends[-1]

    def undo(self, *, by: str, reason: str, client_key: str | None = None, at: str | None = None) -> int:
        """Void the last entry that still counts, at the table: a hand result, a penalty, an early
        end (the match reopened), or a correction (cancelled). A void is not taken back by undo
        (void the void to do that). Returns the position voided. A last hand taken back takes its
        deal pass and the end the rules decided with it.
        """
        if client_key is not None and client_key in self.client_key_targets:
            # A retry: the entry this key voided, if the command was the same.
            voided = self.client_key_targets[client_key]
            if voided is not None and self.seen(client_key, "correct", (voided, None, by, reason, at)):
                return voided
        target = self._last_undoable()
        self.void(target, by=by, reason=reason, client_key=client_key, at=at)
        return target

    def _last_undoable(self) -> int:
        corrections = dict(self.correction_log)
        undone = undone_positions(self.history, self.corrections)
        voided = {t for t, c in self.corrections.items() if c.replacement is None}
        candidates = [
            p for p, f in self.history if (is_correctable(f) or is_early_end(f)) and p not in voided and p not in undone
        ]
        candidates += [
            p
            for p, c in self.correction_log
            if corrects_something(p, corrections)
            and c.replacement is not None
            and latest_of_its_target(p, self.correction_log)
        ]
        if not candidates:
            raise RuleViolation(Said("there is nothing to undo in match {match}", match=repr(self.key)))
        return max(candidates)

    def _entry_of(self, target: int) -> int:
        """The entry a correction of corrections comes down to (the target itself for an entry)."""
        corrections = dict(self.correction_log)
        while corrects_something(target, corrections):
            nested = corrections[target].target
            assert nested is not None
            target = nested
        return target

    def _correctable(self, target: int, by: str, reason: str, at: str | None) -> Fact:
        self._check_referee(by, reason, at)
        entries = dict(self.history)
        corrections = dict(self.correction_log)
        if corrects_something(target, corrections):
            return self._correctable_correction(target)
        if target not in entries or not (is_correctable(entries[target]) or is_early_end(entries[target])):
            raise EntryRefused(
                Said(
                    "there is no hand result or penalty at {entry} of match {match} (nor an early end, nor a "
                    "correction; an end the rules decided follows from the last hand)",
                    entry=entry_at(target),
                    match=repr(self.key),
                )
            )
        current = self.corrections.get(target)
        if current is not None and current.replacement is None:
            # The corrections in force on a match always know their own position.
            voided_by = Said("a correction") if current.position is None else entry_at(current.position)
            raise EntryRefused(
                Said(
                    "the end at {entry} is void already (by the correction at {correction}: to take the void back, "
                    "void or amend that correction)"
                    if isinstance(entries[target], MatchEnd)
                    else "the result or penalty at {entry} is void already (by the correction at {correction}: to "
                    "take the void back, void or amend that correction)",
                    entry=entry_at(target),
                    correction=voided_by,
                )
            )
        return entries[target]

    def _correctable_correction(self, target: int) -> Fact:
        """A correction can be corrected while it counts; a void that took back the last hand
        only while nothing was recorded after it (the later hands were played on its table)."""
        if correction_outcomes(self.correction_log).get(target) is None:
            raise EntryRefused(
                Said("the correction at {entry} was cancelled: nothing to correct", entry=entry_at(target))
            )
        root = self._entry_of(target)
        if root in undone_positions(self.history, self.corrections) and any(
            p > target and not isinstance(f, DealPass | MatchEnd) for p, f in self.history
        ):
            if isinstance(dict(self.history)[root], MatchEnd):
                raise EntryRefused(
                    Said(
                        "the end at {entry} was voided (the match reopened) and hands were recorded since: its void "
                        "stands",
                        entry=entry_at(root),
                    )
                )
            raise EntryRefused(
                Said(
                    "the hand at {entry} was taken back and hands were recorded after it on that table: its void "
                    "stands (correct the later hands instead)",
                    entry=entry_at(root),
                )
            )
        return dict(self.history)[root]

    @staticmethod
    def _check_referee(by: str, reason: str, at: str | None = None) -> None:
        if not by.strip() or not reason.strip():
            raise RuleViolation(Said("a correction needs who makes it (by) and why (reason)"))
        NAME.check(by, "correction by")
        TEXT.check(reason, "correction reason")
        if at is not None:
            TEXT.check(at, "correction at")

    def state_before(self, position: int) -> TableState:
        """The table the entry at ``position`` (or the entry a correction there comes down to) was
        played on, with the scores as corrected."""
        return self._state_before(self._entry_of(position))

    def _state_before(self, target: int) -> TableState:
        """The table the entry at ``target`` was played on, with the scores as corrected."""
        for step in self.corrected_steps():
            if step.position == target:
                return step.before
        return self.state

    def _end(self, reason: str, client_key: str | None = None) -> None:
        final = finish(self.state, self.rules)
        self.trigger_event(
            self.MatchEnded,
            fact=MatchEnd(reason),
            client_key=client_key,
            final_scores=list(final.scores),
            leftover=final.leftover,
            leftover_to=final.leftover_to,
            final_points=list(final.points),
        )

    # Checks, all before anything is recorded.

    def _check_open(self) -> None:
        if self.state.finished:
            raise MatchAlreadyEnded(
                Said(
                    "{match} has ended ({why}); nothing more can be recorded",
                    match=Said("match {key}", key=repr(self.key)),
                    why=self.state.end_reason,
                )
            )

    def _check_penalty(self, penalty: Penalty) -> None:
        self.checks.penalty(penalty)

    def _check_result(self, result: HandResult, state: TableState) -> None:
        self.checks.result(result, state)


def event_maker(event_class: Any) -> Callable[..., Any]:
    """What makes an event of this class of a match (``Match.trigger_event``), called with its
    ``originator_id``, ``originator_version``, ``timestamp`` and ``prior``, then a dict of its other
    fields by name: the event as the class itself makes it (the library's events are frozen
    dataclasses), the same attributes in the same order and the same ``__post_init__`` check, its
    attributes set in one step rather than one ``object.__setattr__`` call each (half the cost of
    the event, which every hand of an import makes once or twice). Fields other than the class's
    (one missing, one unknown) go to the class itself, which refuses them as it always has."""
    maker = _MAKERS.get(event_class)
    if maker is None:
        maker = _MAKERS[event_class] = _event_maker(event_class)
    return maker


# The makers of the event classes made so far (``event_maker``).
_MAKERS: dict[type, Callable[..., Any]] = {}
# The fields every event of a match has, given to its maker by name.
_OWN_FIELDS = ("originator_id", "originator_version", "timestamp", "prior")


def _event_maker(event_class: type) -> Callable[..., Any]:
    fields = dataclasses.fields(event_class)
    names = [field.name for field in fields]
    others = [name for name in names if name not in _OWN_FIELDS]
    by_class = (
        "    return cls(originator_id=originator_id, originator_version=originator_version,"
        " timestamp=timestamp, prior=prior, **fields)"
    )
    lines = ["def make(originator_id, originator_version, timestamp, prior, fields):"]
    plain = all(
        f.init and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING for f in fields
    )
    # The ``__init__`` dataclasses wrote for the class (its code compiled from text), not one written
    # by hand that could change a value it is given: only that one is the dict made here.
    init = next(vars(klass)["__init__"] for klass in event_class.__mro__ if "__init__" in vars(klass))
    init_code = getattr(init, "__code__", None)
    generated = init_code is not None and init_code.co_filename == "<string>"
    if not plain or not generated or not set(_OWN_FIELDS) <= set(names):
        # (A field with a default, one set after ``__init__``, or an ``__init__`` of its own: the class
        # makes it, as the library does.)
        lines.append(by_class)
    else:
        # Written out once from the dataclass's own field names (identifiers): the dict in ``__init__``'s
        # order, which is the order the store's mapper reads the attributes in.
        values = ", ".join(f"{name!r}: {name if name in _OWN_FIELDS else f'fields[{name!r}]'}" for name in names)
        lines += [
            f"    if len(fields) != {len(others)} or not fields.keys() <= known:",
            f"    {by_class}",
            "    event = new(cls)",
            f"    set_dict(event, '__dict__', {{{values}}})",
        ]
        if hasattr(event_class, "__post_init__"):
            lines.append("    event.__post_init__()")
        lines.append("    return event")
    scope: dict[str, Any] = {
        "new": object.__new__,
        "set_dict": object.__setattr__,
        "cls": event_class,
        "known": frozenset(others),
    }
    exec(compile("\n".join(lines), f"<event maker of {event_class.__qualname__}>", "exec"), scope)
    maker: Callable[..., Any] = scope["make"]
    return maker


# The facts the rules decide (a deal passed, an end), which follow an entry a person made.
_RULES_FACTS = (DealPass, MatchEnd)
# The events an entry or a clock's command makes, each with its client key (``Match.trigger_event``).
_ENTRY_EVENTS: tuple[type[Any], ...] = (Match.Recorded, Match.Corrected, Match.ClockEvent)


def _fingerprint(command: str, payload: Any) -> str:
    return digest_of({"command": command, "payload": _payload_data(payload)})


def _payload_data(payload: Any) -> Any:
    if isinstance(payload, tuple):
        return [_payload_data(p) for p in payload]
    if payload is None or isinstance(payload, int | str):
        return payload
    return fact_to_data(payload)


def opening_state(rules: Ruleset, opening: Mapping[str, Any]) -> TableState:
    """The table when recording started: East 1 by default, or the stored opening."""
    if not opening:
        return initial_state(rules)
    state: TableState = from_data(TableState, dict(opening))
    return attrs.evolve(state, counters_shown=rules.has_counters)


@attrs.frozen
class MatchContent:
    """What makes two recordings of a match the same match: its players, its rules, and its
    opening, facts and corrections in order; not when it was stored nor where it was read from."""

    players: tuple[str, ...]
    rules: str
    results: str

    def differs_in(self, other: MatchContent) -> str | None:
        """``players``, ``rules`` or ``results``: the first part that differs; None when the same."""
        if self.players != other.players:
            return "players"
        if self.rules != other.rules:
            return "rules"
        return "results" if self.results != other.results else None


def match_content(events: Iterable[Any], *, when_stored: bool = False) -> MatchContent:
    """The content of a match from its events (in order, the first its start), stored or new.

    ``when_stored``: a correction without a time of its own (recorded through honba: it was made
    when it was stored) counts with the time it was stored, as its export writes it."""
    return match_content_and_entries(events, when_stored=when_stored)[0]


def match_content_and_entries(
    events: Iterable[Any],
    *,
    when_stored: bool = False,
    known: Mapping[int, Any] | None = None,
    entries_too: bool = True,
) -> tuple[MatchContent, list[str]]:
    """The content of a match and the digest of each entry it counts (opening, facts,
    corrections), each entry's plain data made once for both (``when_stored``: see ``match_content``;
    ``known``: each fact's plain data made already, by its ``id()``, as ``Match.pending_fact_data``;
    ``entries_too``: False, the content alone, no entry hashed on its own: an empty list in their place)."""
    players: tuple[str, ...] = ()
    rules = ""
    entries: list[Any] = []
    # Whether each entry is data orjson writes as the canonical encoder does, known without a scan of
    # its bytes (a fact of a class whose field types hold no float: ``exact_data``), or None.
    exact: list[bool | None] = []
    for event in events:
        if isinstance(event, Match.Started):
            players = tuple(event.players)
            rules = rules_digest(event.rules)
            entries.append(["opening", plain(event.opening)])
            exact.append(None)
        elif isinstance(event, Match.Recorded):
            data = None if known is None else known.get(id(event.fact))
            entries.append(
                ["fact", plain(without_details(event.fact)) if data is None else content_data(event.fact, data)]
            )
            exact.append(exact_data(type(event.fact)) or None)
        elif isinstance(event, Match.Corrected):
            at = (event.at or event.timestamp.isoformat()) if when_stored else event.at
            correction = [event.target, event.replacement, event.by, event.reason, at]
            entries.append(["correction", plain(correction)])
            exact.append(None)
    results, digests = digests_of_items(entries, exact, each=entries_too)
    return MatchContent(players, rules, results), digests


def content_data(fact: Any, data: Mapping[str, Any]) -> dict[str, Any]:
    """``plain(without_details(fact))`` from the fact's plain data (``to_data(fact)``, made already):
    that data without what ``without_details`` leaves out (each win's ``details``, ``called``; a
    field at its default is not written), tagged with its class as ``plain`` tags it."""
    if isinstance(fact, WinResult | ExhaustiveDraw | AbortiveDraw):
        # Copied and the one key taken out, in C (a comprehension's step per key cost about as much
        # as the rest of the content): the same keys in the same order, less that one.
        found = dict(data)
        found.pop("called", None)
        if isinstance(fact, WinResult):
            wins = found["wins"] = [dict(win) for win in data["wins"]]
            for win in wins:
                win.pop("details", None)
        found["__type__"] = type(fact).__name__
        return found
    return {**data, "__type__": type(fact).__name__}


def results_so_far(events: Iterable[Any]) -> tuple[tuple[str, ...], list[str]]:
    """The players of a match and ``MatchContent.results`` of its history cut after each entry
    (opening, facts, corrections): what the match held at every point of its history, as a game
    read from a log (an excerpt, or the whole game before later corrections) would give it."""
    players: tuple[str, ...] = ()
    entries: list[Any] = []
    for event in events:
        if isinstance(event, Match.Started):
            players = tuple(event.players)
            entries.append(["opening", plain(event.opening)])
        elif isinstance(event, Match.Recorded):
            entries.append(["fact", plain(without_details(event.fact))])
        elif isinstance(event, Match.Corrected):
            entries.append(["correction", plain([event.target, event.replacement, event.by, event.reason, event.at])])
    return players, prefix_digests(entries)


def rules_digest(stored: Mapping[str, Any]) -> str:
    """The digest of a match's rules as they read now (``Ruleset.from_stored``): a match stored
    before a rule was renamed or added is the same match when its record file is imported again.

    Worked out once per set of rule values (an import starts thousands of matches under a
    handful of rulesets): the stored values' canonical bytes find it.
    """
    return _rules_digest(own_size(plain_canonical(stored)))


@functools.lru_cache(maxsize=256)
def _rules_digest(stored: bytes) -> str:
    retitled = _RETITLED.get(stored)
    if retitled is not None:
        # Rules built as others retitled (``_rules_of``): their canonical bytes are the others' with
        # this description's text in its place, worked out once per set of other values.
        prefix, suffix = _described_frame(retitled[0])
        if prefix:
            return hashlib.sha256(prefix + exact_canonical(retitled[1]) + suffix).hexdigest()
    rules = _RULES.get(stored)
    return digest_of(plain((rules if rules is not None else stored_rules(json.loads(stored))).to_dict()))


# The place of the description in the canonical bytes of rules built from the other values: text no
# rule value is likely to hold (where one does, the mark is not found once, and the digest is worked
# out from the rules whole).
_DESCRIPTION_MARK = "\0honba: the description goes here\0"


@functools.lru_cache(maxsize=64)
def _described_frame(rest: bytes) -> tuple[bytes, bytes]:
    """The canonical bytes of ``Ruleset.to_dict`` of the rules these values (all but the description)
    build, before and after the description's text; empty when the mark is not found once."""
    data = plain(_undescribed_rules(rest).to_dict())
    data["description"] = _DESCRIPTION_MARK
    parts = canonical(data).split(canonical(_DESCRIPTION_MARK))
    return (parts[0], parts[1]) if len(parts) == 2 else (b"", b"")


def start_values(rules: Ruleset) -> dict[str, Any]:
    """``rules.to_dict()``, its canonical bytes written for the match's start (``written_for_event``).

    A log's rules are the rules of its room named with the log's date (a Tenhou log: its hour; 79
    descriptions among the first 150 logs of the corpus), every other value the very object of the
    rules they were named from (``Ruleset.retitled``). Their values and bytes are those of the first
    rules of the same other values started, with this description's in its place (the keys sorted:
    the description's member is where it was), found by those values and their identity (the same
    objects: equal values of another type are no match): neither ``to_dict`` nor the 2 KB written
    and scanned again, about 230,000 instructions of every match's start (issue 36, twenty-first
    round). Rules of any other values, or whose description orjson would not write as the standard
    encoder does, are written whole."""
    others = other_values(rules)
    try:
        frame = _FRAMES.get(others)
    except TypeError:  # (a value that is no key: rules made otherwise than by the rules' own checks)
        frame = None
    if frame is not None and all(map(operator.is_, others, frame[0])):
        description = json_exactly(rules.description)
        if description is not None:
            values = rules.to_dict_as(frame[1])
            written = frame[2] + description + frame[3]
            written_as(values, written)
            if frame[4] is not None and type(rules) is Ruleset:
                _keep_rules(written, rules, frame[4])
            return values
    values = rules.to_dict()
    written_for_event(values)
    if frame is None:
        _keep_frame(rules, others, values)
    return values


def _keep_frame(rules: Ruleset, others: tuple[Any, ...], values: dict[str, Any]) -> None:
    """Keep what ``start_values`` puts together the values and bytes of rules of these other values from."""
    written = written_exactly(values)
    description = json_exactly(rules.description)
    if written is None or description is None or not rules.plainly_written():
        return
    member = _DESCRIPTION_MEMBER + description
    if written.count(member) != 1:
        return
    at = written.index(member)
    # Whether the rules a match finds by these values (``stored_rules``: the other values read back
    # from their bytes, retitled) are these rules' values themselves, each of the same type, nested
    # values too: then a match of rules of the same other values finds the very rules it was given.
    rest = _without_description(written, rules.description) if type(rules) is Ruleset else None
    if rest is not None and not _alike(other_values(_undescribed_rules(rest)), others):
        rest = None
    try:
        if len(_FRAMES) >= _FRAMES_KEPT:
            _FRAMES.clear()
        _FRAMES[others] = (
            others,
            dict(values),
            written[: at + len(_DESCRIPTION_MEMBER)],
            written[at + len(member) :],
            rest,
        )
    except TypeError:  # (a value that is no key: see ``start_values``)
        pass


def _alike(ours: Any, theirs: Any) -> bool:
    """Equal values of the same types, item by item in tuples (``True`` equals 1, and is no 1)."""
    if type(ours) is not type(theirs):
        return False
    if type(ours) is tuple:
        return len(ours) == len(theirs) and all(map(_alike, ours, theirs))
    return bool(ours == theirs)


def _keep_rules(key: bytes, rules: Ruleset, rest: bytes) -> None:
    """The match of rule values of these canonical bytes (``key``) finds these rules (``stored_rules``),
    whose other values are those of the rules read back from ``rest`` (``_keep_frame``), each of the
    same type: what it would build (those rules retitled: 82 values copied, about 110,000 instructions
    for each log's date), given. ``rules_digest`` finds the values' parts as ``_rules_of`` leaves them."""
    if key not in _RULES:
        if len(_RULES) >= _RULES_KEPT:
            _RULES.clear()
            _RETITLED.clear()
        _RULES[key] = rules
        _RETITLED[key] = (rest, rules.description)


# By the values of every rule but the description (``other_values``): those values, the plain data of
# rules of them (``to_dict``), its canonical bytes before and after the description's text, and the
# canonical bytes of the other values where the rules read back from them are these values (``_alike``),
# else None. A few sets of rules among an import's logs; all let go at once past this many.
_FRAMES: dict[tuple[Any, ...], tuple[tuple[Any, ...], dict[str, Any], bytes, bytes, bytes | None]] = {}
_FRAMES_KEPT = 64
# A description's member of canonical rule values, up to its text (a key: unescaped quotes).
_DESCRIPTION_MEMBER = b'"description":'


def stored_rules(stored: Mapping[str, Any]) -> Ruleset:
    """``Ruleset.from_stored`` of a match's rule values, built once per set of values (rules are
    frozen: the matches of an import, a handful of rulesets, share them), found by the values'
    canonical bytes."""
    key = plain_canonical(stored)
    rules = _RULES.get(key)
    if rules is None:
        key = own_size(key)
        rules = _rules_of(stored, key)
        if len(_RULES) >= _RULES_KEPT:
            _RULES.clear()
            _RETITLED.clear()
        _RULES[key] = rules
    return rules


def own_size(data: bytes) -> bytes:
    """The same bytes in an object of their own size, to be kept as a key: orjson's bytes hold the
    buffer they were written in (2 KB of a match's rule values about 8 KB of memory, 32 KB reserved).
    An import's reading worker keeps up to 256 sets of rule values in each of ``_RULES`` and
    ``_rules_digest`` (a Tenhou log's rules are named with its hour: 325 among the corpus's 633
    games), filled at ten times the corpus and half at once: its peak grew with the archive by their
    buffers (issue 36). A copy costs a few hundred nanoseconds, once per match at most."""
    return bytes(memoryview(data))


# The rules built, by their values' canonical bytes: enough for an import's rule sets (a Tenhou log's
# are named with its hour: 325 descriptions among the corpus's 633 games), all let go at once.
_RULES: dict[bytes, Ruleset] = {}
_RULES_KEPT = 256
# Of those, the rules built as others retitled (``_rules_of``): the canonical bytes of the other values
# and the description, by the values' canonical bytes (``rules_digest`` puts their digest together).
_RETITLED: dict[bytes, tuple[bytes, str]] = {}


def _rules_of(stored: Mapping[str, Any], key: bytes) -> Ruleset:
    # A log's rules are named with its date (a Tenhou log: its hour): the same values under another
    # description are built once, then retitled (``Ruleset.retitled``: what ``from_stored`` builds, the
    # description being no other rule's concern), from the values as given (their bytes are not read
    # back first). Values under a name since replaced are built whole (``from_stored`` renames them),
    # from the values as they read back from their bytes.
    description = stored.get("description")
    if type(description) is str and stored.keys() <= _RULE_FIELDS:
        rest = _without_description(key, description)
        if rest is None:
            rest = plain_canonical({name: value for name, value in stored.items() if name != "description"})
        _RETITLED[key] = (rest, description)
        return _undescribed_rules(rest).retitled(description)
    return Ruleset.from_stored(json.loads(key))


def _without_description(key: bytes, description: str) -> bytes | None:
    """The canonical bytes of rule values without their description, cut from the values' own
    (``key``): keys sorted, so taking one member out leaves the others' bytes as they are. None when
    the member is not found once (a quote inside text is escaped: ``"description":`` unescaped is a
    key, and the only one when found once): the caller writes the other values."""
    member = b'"description":' + exact_canonical(description)
    if key.count(member) != 1:
        return None
    if (b"," + member) in key:
        return key.replace(b"," + member, b"", 1)
    if (member + b",") in key:
        return key.replace(member + b",", b"", 1)
    return None


@functools.lru_cache(maxsize=64)
def _undescribed_rules(stored: bytes) -> Ruleset:
    return Ruleset.from_stored(json.loads(stored))


# The names of the rules as they are now (a stored value under any other name is renamed or refused).
_RULE_FIELDS = frozenset(field.name for field in attrs.fields(Ruleset))


def facts_of(events: Sequence[Any]) -> list[Fact]:
    """The recorded facts of a match's events, in order (the creation event has none)."""
    return [e.fact for e in events if isinstance(e, Match.Recorded)]


__all__ = [
    "DealPass",
    "Match",
    "MatchContent",
    "facts_of",
    "match_content",
    "match_content_and_entries",
    "match_id",
    "results_so_far",
    "rules_digest",
]
