"""The clock of tables and sessions: what a director sets, starts and adds, and the time left.

The rules of the clock are the domain's (``domain.clock``, ``Match`` and its
``hands_after_time``); this module reads the server's clock (once per use case, here, so
that no phone's clock and no event body ever decides) and hands the time to the match.
A session's time limit is the tournament's (``Tournament.set_time_limit``) and is set on
every table's match of the session, seated before or after (``replay.service.director``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from domain.clock import TIME_UP, hands_left
from domain.match import Match
from replay.app import HonbaApp
from replay.parsing import InputError
from replay.service.shapes import counted
from replay.tournaments import change_tournament, get_tournament


def server_time() -> datetime:
    """The time now, by the server's clock (UTC): the one clock every table's time is read from."""
    return datetime.now(UTC)


def set_time_limit(
    app: HonbaApp, key: str, minutes: int, *, by: str = "director", client_key: str | None = None
) -> Match:
    """Set one match's time limit, in minutes."""
    return app.set_time_limit(key, minutes, by=by, client_key=client_key)


def start_clock(
    app: HonbaApp, key: str, *, at: datetime | None = None, by: str = "director", client_key: str | None = None
) -> Match:
    """Start one match's clock, at ``at`` (default: now, by the server's clock)."""
    return app.start_clock(key, at=at or server_time(), by=by, client_key=client_key)


def add_time(
    app: HonbaApp,
    key: str,
    minutes: int,
    *,
    by: str = "director",
    reason: str = "",
    client_key: str | None = None,
) -> Match:
    """Add time to one table's clock."""
    return app.add_time(key, minutes, by=by, reason=reason, client_key=client_key)


def set_session_time_limit(app: HonbaApp, name: str, session: int, minutes: int, *, by: str = "director") -> list[str]:
    """Set a session's time limit in the tournament and on the match of each of its tables
    seated so far (a table seated later gets it when seated); the keys of those matches."""
    tournament = change_tournament(app, name, lambda t: t.set_time_limit(session, minutes))
    keys = [key for _table, key in tournament.session_matches(session)]
    for key in keys:
        if not app.get_match(key).state.finished:
            app.set_time_limit(key, minutes, by=by)
    return keys


def start_session_clock(
    app: HonbaApp, name: str, session: int, *, at: datetime | None = None, by: str = "director"
) -> list[str]:
    """Start the clock of every table of a session at one time (default: now); the keys started."""
    tournament = get_tournament(app, name)
    keys = [key for _table, key in tournament.session_matches(session)]
    if not keys:
        raise InputError(f"session {session} of {name!r} has no matches attached yet")
    when = at or server_time()
    started = []
    for key in keys:
        match = app.get_match(key)
        if match.state.finished or match.clock.started is not None:
            continue
        if match.clock.limit is None:
            raise InputError(f"match {key!r} has no time limit: set the session's limit first (honba clock set)")
        app.start_clock(key, at=when, by=by)
        started.append(key)
    return started


def clock_data(match: Match, now: datetime) -> dict[str, Any]:
    """A match's clock at ``now`` (the server's time), for the table page and ``honba clock show``:

    ``{"match", "limit_minutes", "added_minutes", "started_at", "deadline", "now" (ISO 8601, UTC),
    "remaining_seconds" (whole seconds left, never below 0; null before the start), "running",
    "time_up", "hands_after_time" (the rule), "hands_left" (under the rule, the hand in play
    included; null while time is not up), "finished", "ended_on_time", "text" (one line in
    words), "events": [{"position", "kind", "text"}]}``.
    """
    clock = match.clock
    state = match.state
    deadline = clock.deadline
    remaining = clock.remaining(now)
    up = clock.is_up(now) or clock.time_up_at is not None
    left = None if state.finished else hands_left(clock, match.rules.hands_after_time, match.hands_after_time(), now)
    return {
        "match": match.key,
        "limit_minutes": clock.limit,
        "added_minutes": clock.added,
        "started_at": clock.started,
        "deadline": None if deadline is None else deadline.isoformat(),
        "now": now.astimezone(UTC).replace(microsecond=0).isoformat(),
        "remaining_seconds": None if remaining is None else int(remaining.total_seconds()),
        "running": deadline is not None and not up and not state.finished,
        "time_up": up,
        "hands_after_time": match.rules.hands_after_time,
        "hands_left": left,
        "finished": state.finished,
        "ended_on_time": state.finished and state.end_reason == TIME_UP,
        "text": _words(match, remaining, left),
        "events": [{"position": p, "kind": note.kind, "text": note.describe()} for p, note in match.clock_log],
    }


def _words(match: Match, remaining: Any, left: int | None) -> str:
    clock, state = match.clock, match.state
    if state.finished:
        return "ended on time" if state.end_reason == TIME_UP else "the match has ended"
    if clock.limit is None:
        return "no time limit"
    if clock.started is None:
        return f"time limit {counted(clock.limit, 'minute')}, not started"
    if left is not None:
        more = left - 1
        return (
            "time is up: this hand is the last"
            if more <= 0
            else f"time is up: this hand and {counted(more, 'more hand')}"
        )
    seconds = int(remaining.total_seconds())
    return f"{seconds // 60}:{seconds % 60:02d} left"


def session_clocks(app: HonbaApp, name: str, session: int, now: datetime) -> list[dict[str, Any]]:
    """The clock of every table of a session at ``now``, with each table's number (``table``)."""
    tournament = get_tournament(app, name)
    return [
        {"table": table, **clock_data(app.get_match(key), now)} for table, key in tournament.session_matches(session)
    ]
