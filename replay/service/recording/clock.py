"""The clock of tables and sessions: what a director sets, starts and adds, and the time left.

The rules of the clock are the domain's (``domain.clock``, ``Match`` and its
``hands_after_time``); this module reads the server's clock (``recording.server_time``, once
per use case, here, so that no phone's clock, no front end and no event body ever decides) and
hands the time to the match. Each command on a match loads it once and saves what it records
with the match's seal, like any other of its events (``recording.on_match``), so that the
checkpoints cover the clock too. A session's time limit is the tournament's
(``Tournament.set_time_limit``) and is set on every table's match of the session, seated before
or after (``replay.service.director.director``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from domain.clock import TIME_UP, hands_left
from domain.match import Match
from domain.said import Said
from replay.input.parsing import InputError
from replay.service.recording.recording import on_match, server_time
from replay.service.tournaments.tournaments import change_tournament
from replay.store.application import HonbaApp
from replay.store.tournaments import get_tournament


def set_time_limit(
    app: HonbaApp, key: str, minutes: int, *, by: str = "director", client_key: str | None = None
) -> dict[str, Any]:
    """Set one match's time limit, in minutes; its clock after (``clock_data``)."""
    match, _ = on_match(app, key, lambda m: m.set_time_limit(minutes, by=by, client_key=client_key), client_key)
    return clock_data(match, server_time())


def start_clock(
    app: HonbaApp, key: str, *, at: datetime | None = None, by: str = "director", client_key: str | None = None
) -> dict[str, Any]:
    """Start one match's clock now, by the server's clock (``at``: a test's or a session's time
    given instead); its clock after (``clock_data``)."""
    when = at if at is not None else server_time()
    match, _ = on_match(app, key, lambda m: m.start_clock(when, by=by, client_key=client_key), client_key)
    return clock_data(match, when)


def add_time(
    app: HonbaApp,
    key: str,
    minutes: int,
    *,
    by: str = "director",
    reason: str = "",
    client_key: str | None = None,
) -> dict[str, Any]:
    """Add time to one table's clock; its clock after (``clock_data``)."""
    match, _ = on_match(
        app, key, lambda m: m.add_time(minutes, by=by, reason=reason, client_key=client_key), client_key
    )
    return clock_data(match, server_time())


def set_session_time_limit(app: HonbaApp, name: str, session: int, minutes: int, *, by: str = "director") -> list[str]:
    """Set a session's time limit in the tournament and on the match of each of its tables
    seated so far (a table seated later gets it when seated); the keys of those matches."""
    tournament = change_tournament(app, name, lambda t: t.set_time_limit(session, minutes))
    keys = [key for _table, key in tournament.session_matches(session)]
    for key in keys:
        if not app.get_match(key).state.finished:
            set_time_limit(app, key, minutes, by=by)
    return keys


def start_session_clock(
    app: HonbaApp, name: str, session: int, *, at: datetime | None = None, by: str = "director"
) -> list[str]:
    """Start the clock of every table of a session at one time (now, by the server's clock; ``at``
    a test's time given instead); the keys started."""
    tournament = get_tournament(app, name)
    keys = [key for _table, key in tournament.session_matches(session)]
    if not keys:
        raise InputError(
            Said("session {session} of {name} has no matches attached yet", session=session, name=repr(name))
        )
    when = at if at is not None else server_time()
    started = []
    for key in keys:
        match = app.get_match(key)
        if match.state.finished or match.clock.started is not None:
            continue
        if match.clock.limit is None:
            raise InputError(
                Said(
                    "match {match} has no time limit: set the session's limit first (honba clock set)", match=repr(key)
                )
            )
        start_clock(app, key, at=when, by=by)
        started.append(key)
    return started


def match_clock(app: HonbaApp, key: str) -> dict[str, Any]:
    """A stored match's clock now, by the server's clock (``clock_data``)."""
    return clock_data(app.get_match(key), server_time())


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


def _words(match: Match, remaining: Any, left: int | None) -> Said:
    # Words: the table page and the session page say them in their language; the command line
    # prints their English.
    clock, state = match.clock, match.state
    if state.finished:
        return Said("ended on time") if state.end_reason == TIME_UP else Said("the match has ended")
    if clock.limit is None:
        return Said("no time limit")
    if clock.started is None:
        return Said(
            "time limit {count} minute, not started" if clock.limit == 1 else "time limit {count} minutes, not started",
            count=clock.limit,
        )
    if left is not None:
        more = left - 1
        if more <= 0:
            return Said("time is up: this hand is the last")
        return Said(
            "time is up: this hand and {count} more hand"
            if more == 1
            else "time is up: this hand and {count} more hands",
            count=more,
        )
    seconds = int(remaining.total_seconds())
    return Said("{clock} left", clock=f"{seconds // 60}:{seconds % 60:02d}")


def session_clocks(app: HonbaApp, name: str, session: int, now: datetime | None = None) -> list[dict[str, Any]]:
    """The clock of every table of a session at ``now`` (by default the server's time now), with
    each table's number (``table``)."""
    tournament = get_tournament(app, name)
    now = now if now is not None else server_time()
    return [
        {"table": table, **clock_data(app.get_match(key), now)} for table, key in tournament.session_matches(session)
    ]
