"""The clock of a match: a time limit set by the director, started at the table, time added.

Pure values and rules, no clock read: every time is passed in (``now``, ``at``) by whoever
asks, so that a match replayed from its events decides exactly as it did when recorded.

A match on the clock runs until its deadline (the start plus the limit plus any time added).
The rules say what happens then (``Ruleset.hands_after_time``): the hand in play is finished,
and then that many more hands are played; the match ends by itself after the last of them.
The hand in play when time ran out is the first result recorded at or after the deadline: the
table learns that time is up when it next records a result, and the match marks the moment
(``TimeUp``) so that which hands came after it is a fact of its log, never a guess from the
times things were stored.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import attrs

from domain.bounds import MINUTES
from domain.errors import RuleViolation
from domain.said import Said

# What a director may set or add, in minutes (``domain.bounds.MINUTES``: a day's play at most).
MOST_MINUTES = MINUTES.high
# Why a match ended by the clock (``MatchEnd.reason``): an end the clock decided, taken back with
# its hand when that hand is undone, never re-judged by the rules (it is no end of theirs).
TIME_UP = "time_up"


def parse_time(text: str) -> datetime:
    """A stored time (ISO 8601 with its offset) as an aware datetime."""
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ValueError(f"a time without its offset from UTC: {text!r}")
    return moment


def stored_time(moment: datetime) -> str:
    """An aware time as the clock's events store it: ISO 8601 in UTC, to the second."""
    if moment.tzinfo is None:
        raise RuleViolation(Said("a time for the clock must say its offset from UTC"))
    return moment.astimezone(UTC).replace(microsecond=0).isoformat()


def check_minutes(minutes: object, what: Said) -> int:
    """Minutes a director gives (``what``: what they are, ``a time limit``): a whole number from 1 to a day."""
    # ``object``, not ``int``: compiled by mypyc, a function refuses a parameter of another type with a
    # TypeError before its body runs and takes ``True`` as 1; this one says what is wrong with any value.
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not MINUTES.low <= minutes <= MINUTES.high:
        raise RuleViolation(
            Said(
                "{what} is a whole number of minutes from 1 to {most}, not {minutes}",
                what=what,
                most=MOST_MINUTES,
                minutes=repr(minutes),
            )
        )
    return minutes


@attrs.frozen
class Clock:
    """A match's clock as its events left it.

    ``limit`` (minutes) is the time limit set, ``started`` when the clock started (stored
    time), ``added`` the minutes added since, ``time_up_at`` the position of the match's
    ``TimeUp`` event (the hands recorded after it are the hands after time).
    """

    limit: int | None = None
    started: str | None = None
    added: int = 0
    time_up_at: int | None = None

    @property
    def deadline(self) -> datetime | None:
        """When time is up: the start plus the limit plus the time added; None before the start."""
        if self.limit is None or self.started is None:
            return None
        return parse_time(self.started) + timedelta(minutes=self.limit + self.added)

    def remaining(self, now: datetime) -> timedelta | None:
        """The time left at ``now`` (never below zero); None when the clock is not running."""
        deadline = self.deadline
        if deadline is None:
            return None
        return max(deadline - now, timedelta(0))

    def is_up(self, now: datetime) -> bool:
        """Whether the deadline has passed at ``now``."""
        deadline = self.deadline
        return deadline is not None and now >= deadline

    def due(self, at: datetime | None) -> bool:
        """Whether a result recorded at ``at`` is the first one after time (the match then marks it)."""
        return at is not None and self.time_up_at is None and self.is_up(at)

    def set_limit(self, minutes: object) -> Clock:
        """The clock with this limit (a limit set again replaces the one before; ``check_minutes``
        refuses what is not a whole number of minutes)."""
        return attrs.evolve(self, limit=check_minutes(minutes, Said("a time limit")))

    def start(self, at: str) -> Clock:
        """The clock started at ``at``."""
        return attrs.evolve(self, started=at)

    def add(self, minutes: int) -> Clock:
        """The clock with time added: once time was up, it runs again, and the hands recorded
        meanwhile no longer count as hands after time."""
        return attrs.evolve(self, added=self.added + minutes, time_up_at=None)

    def mark_up(self, position: int) -> Clock:
        """Time is up, marked at ``position``."""
        return attrs.evolve(self, time_up_at=position)

    def check_start(self) -> None:
        """A clock starts once, after its limit is set."""
        if self.limit is None:
            raise RuleViolation(Said("set the time limit before starting the clock"))
        if self.started is not None:
            raise RuleViolation(Said("the clock was started already, at {started}", started=self.started))

    def check_add(self) -> None:
        """Time is added to a running clock."""
        if self.started is None:
            raise RuleViolation(Said("the clock has not started: set the time limit instead"))


def hands_left(clock: Clock, rules_hands_after: int, played_after: int, now: datetime) -> int | None:
    """Hands still to play under the time rule (the one in play included), at ``now``; None
    while time is not up. ``played_after`` counts the hands recorded since time was marked up."""
    if clock.time_up_at is not None:
        return max(rules_hands_after + 1 - played_after, 0)
    if clock.is_up(now):
        return rules_hands_after + 1
    return None


@attrs.frozen
class ClockNote:
    """One event of a match's clock as a value: ``kind`` is ``limit`` (``minutes`` set), ``started``
    (``at``), ``added`` (``minutes``, with a ``reason``) or ``up`` (the deadline ``at``, ``noticed``
    when the next result was recorded); ``by`` who did it."""

    kind: str
    minutes: int | None = None
    at: str | None = None
    by: str = ""
    reason: str = ""
    noticed: str | None = None

    def fields(self) -> tuple[str | int | None, ...]:
        """Plain fields, for telling a retried command from another."""
        return (self.kind, self.minutes, self.at, self.by.strip(), self.reason.strip(), self.noticed)

    def applied(self, clock: Clock, position: int) -> Clock:
        """The clock after this event (at ``position`` of the match's log)."""
        if self.kind == "limit":
            assert self.minutes is not None
            return attrs.evolve(clock, limit=self.minutes)
        if self.kind == "started":
            assert self.at is not None
            return clock.start(self.at)
        if self.kind == "added":
            assert self.minutes is not None
            return clock.add(self.minutes)
        return clock.mark_up(position)

    def describe(self) -> str:
        """The event in words, for the log and the audit."""
        by = f" by {self.by}" if self.by else ""
        if self.kind == "limit":
            return f"time limit set to {self.minutes} minutes{by}"
        if self.kind == "started":
            return f"clock started at {self.at}{by}"
        if self.kind == "added":
            why = f": {self.reason}" if self.reason else ""
            return f"{self.minutes} minutes added{by}{why}"
        return f"time up at {self.at} (the next result was recorded at {self.noticed})"
