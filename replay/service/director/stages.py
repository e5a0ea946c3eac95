"""Staged events, players who come and go, and teams: the use cases, plain values in and out.

The rules are the domain's (``domain.stages``, ``domain.seating``, ``domain.tournament``) and the
standings' (``projections.staged``); these functions read the tournament and its matches from the
store and the standings view, apply a change, and return what happened as values or plain data.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

import attrs

from domain.bounds import SUBSTITUTE_POINTS, decimal_number, shown
from domain.errors import RuleViolation
from domain.rules import Ruleset
from domain.said import Said
from domain.seating import fewest_repeats_seating, rank_seating, separate_teams, snake_seating, team_clashes
from domain.stages import SUBSTITUTE_PRESETS, EventFormat, SubstituteRule, parse_stage
from domain.tournament import Tournament
from projections.staged import (
    ClosedStage,
    EventStandings,
    EventState,
    StageStandings,
    advancing,
    event_standings,
    stage_standings,
)
from projections.standings import MatchSummary, StandingRow
from projections.standings_view import DocCache
from projections.views import DocumentView
from replay.input.parsing import InputError
from replay.service.recording import clock, recording
from replay.service.tournaments.standings import StandingsReport, checked_report, tournament_report
from replay.service.tournaments.tournaments import change_tournament
from replay.store.application import HonbaApp
from replay.store.tournaments import get_tournament


def event_state(tournament: Tournament) -> EventState:
    """What the standings of a staged event need of its tournament."""
    return EventState(
        players=tuple(tournament.players),
        aliases=dict(tournament.aliases),
        format=tournament.event_format(),
        closed={
            stage: ClosedStage(tuple(c["ranking"]), tuple(c["advanced"]), dict(c["carried"]))
            for stage, c in tournament.closed_stages.items()
        },
        withdrawn=dict(tournament.withdrawn),
        substitutes=dict(tournament.substitutes),
        teams=dict(tournament.teams),
    )


def event_matches(view: DocumentView, name: str) -> list[tuple[MatchSummary, int]]:
    """The tournament's matches (summary, session) from the standings view."""
    return list(tournament_report(view, name).summaries)


def standings_of_event(app: HonbaApp, view: DocumentView, name: str) -> EventStandings:
    """Every stage's standings, the whole event's and the teams'."""
    return event_standings(event_state(get_tournament(app, name)), event_matches(view, name))


def is_staged(view: DocumentView, name: str) -> bool:
    """Whether a tournament's standings are a staged event's (a format declared, a player withdrawn,
    a substitute seated, a team), as the view's tournament document says."""
    cache = DocCache(view)
    ref = cache.get("tournament-name", name)
    doc = None if ref is None else cache.get("tournament", ref["id"])
    return bool(doc is not None and doc.get("staged"))


def event_report(
    app: HonbaApp, view: DocumentView, name: str, *, after_session: int | None = None, matches: bool = True
) -> StandingsReport:
    """The standings of a tournament as every view shows them (``honba standings`` in each format,
    the API, the public page, the what-if as run, the certificate): one read model of the event.

    A tournament of one stage with nobody come or gone is its matches added up (read from the
    view's one standings document where it can be); a staged event's rows are the whole event's
    order (``projections.staged``: cuts kept, halved or reset, the last stage reached first,
    substitutes as the format counts them), each player's line that of the last stage they
    reached, and its points by session the event's after each session. ``after_session``: as the
    event stood after it (a stage counts as closed once the next stage's first session is after it).
    Every match of the tournament is checked in the store as ``honba check`` and ``honba audit``
    check it: one damaged is named in ``damaged`` (``replay.service.tournaments.standings.checked_report``).
    """
    report = _event_report(app, view, name, after_session=after_session, matches=matches)
    return checked_report(app, view, name, report)


def _event_report(
    app: HonbaApp, view: DocumentView, name: str, *, after_session: int | None, matches: bool
) -> StandingsReport:
    if not is_staged(view, name):
        return tournament_report(view, name, after_session=after_session, matches=matches)
    report = tournament_report(view, name, after_session=after_session)
    tournament = get_tournament(app, name)
    state = event_state(tournament)
    played = list(report.summaries)

    def overall(upto: int | None) -> tuple[StandingRow, ...]:
        seen = state
        if upto is not None:
            fmt = state.format
            closed = {k: c for k, c in state.closed.items() if k < len(fmt.stages) and fmt.first_session(k + 1) <= upto}
            seen = attrs.evolve(state, closed=closed)
        upto_matches = [(s, n) for s, n in played if upto is None or n <= upto]
        return tuple(o.line for o in event_standings(seen, upto_matches).overall)

    rows = overall(after_session)
    by_session = {n: {row.player: row.points for row in overall(n)} for n in report.sessions}
    standings = event_standings(state, played)
    reached = {o.player: o.stage for o in standings.overall}
    now = after_session is None
    in_play, said = (standings.in_play, standings.said) if now else (None, None)
    return attrs.evolve(report, rows=rows, by_session=by_session, stages=reached, in_play=in_play, said=said)


def substitute_rule(text: str, field: str = "substitutes") -> SubstituteRule:
    """How substitutes count, as typed: ``ema``, ``as-played``, ``not-counted`` or ``fixed:POINTS``;
    ``field`` names where it was typed in an error (``--substitutes`` on the command line)."""
    text = text.strip()
    if text in SUBSTITUTE_PRESETS:
        return SUBSTITUTE_PRESETS[text]
    kind, _, value = text.partition(":")
    if kind == "fixed" and value:
        # The one number reader: ASCII digits, a length cap, the points' bounds (no nan, no 1e308).
        return SubstituteRule("fixed", decimal_number(value, SUBSTITUTE_POINTS, f"{field} fixed"))
    raise InputError(
        Said(
            "{field} is ema, as-played, not-counted or fixed:POINTS (fixed:-30), not {value}",
            field=field,
            value=shown(text),
        )
    )


def event_format_of(
    stages: Sequence[str],
    substitutes: str = "as-played",
    team_points: str = "sum",
    teams_apart: bool = False,
    substitutes_field: str = "substitutes",
) -> EventFormat:
    """An event's format from its stages as typed (``NAME:SESSIONS[:key=value,...]``, in order) and
    its rules for substitutes and teams; checked (``EventFormat.check``)."""
    typed = [text.strip() for text in stages if text.strip()]
    parsed = tuple(parse_stage(text, first=index == 0) for index, text in enumerate(typed))
    return EventFormat(parsed, substitute_rule(substitutes, substitutes_field), team_points, teams_apart).check()


def declare_format(app: HonbaApp, name: str, event_format: EventFormat) -> Tournament:
    """Declare (or change, before a stage closes) how the event is played."""
    return change_tournament(app, name, lambda t: t.declare_format(event_format))


def withdraw(app: HonbaApp, name: str, player: str, after_session: int, reason: str) -> Tournament:
    """A player leaves after a session; their matches stay."""
    return change_tournament(app, name, lambda t: t.withdraw(player, after_session, reason))


def substitute(
    app: HonbaApp, name: str, substitute_name: str, replaces: str, reason: str, *, override: bool = False
) -> Tournament:
    """A substitute joins to fill the seat of a player who withdrew (or, with the director's
    ``override``, recorded in the event, of one who has not)."""
    return change_tournament(
        app, name, lambda t: t.seat_substitute(substitute_name, replaces, reason, override=override)
    )


def join_team(app: HonbaApp, name: str, team: str, players: Sequence[str]) -> Tournament:
    """Put players in a team."""

    def change(tournament: Tournament) -> None:
        for player in players:
            tournament.join_team(player, team)

    return change_tournament(app, name, change)


def seatable(tournament: Tournament, session: int) -> list[str]:
    """Who is seated in a session: the stage's entrants (everyone for the first stage, those who
    advanced for a later one) less those who withdrew before it, with the substitutes standing in
    for those who withdrew."""
    fmt = tournament.event_format()
    stage = fmt.stage_of(session)
    players = [p for p in tournament.players if p not in tournament.aliases]
    if stage > 1:
        closed = tournament.closed_stages.get(stage - 1)
        entrants = list(closed["advanced"]) if closed is not None else []
    else:
        entrants = [p for p in players if p not in tournament.substitutes]
    gone = {p for p, after in tournament.withdrawn.items() if after < session}
    staying = [p for p in entrants if p not in gone]
    standing_in = [s for s, replaced in tournament.substitutes.items() if replaced in gone and s not in gone]
    if stage > 1:
        standing_in = [s for s in standing_in if tournament.substitutes[s] in entrants]
    return staying + standing_in


@attrs.frozen
class SeatedSession:
    """A session seated: its number, stage, how it was seated, its tables and their matches (when
    started), the stage closed on the way (its number, who advanced), team-mates left together."""

    session: int
    stage: int
    stage_name: str
    method: str
    tables: tuple[tuple[str, ...], ...]
    matches: tuple[str, ...]
    closed_stage: int | None
    advanced: tuple[str, ...]
    team_clashes: int


def next_session(
    app: HonbaApp, view: DocumentView, name: str, rules: Ruleset | None, *, start: bool = True
) -> SeatedSession:
    """Seat the event's next session by its stage's rule, from the standings before it; close the
    stage before it first when it is the first session of a stage (the cut is recorded); start
    and attach a match per table under ``rules`` when ``start``.

    A session seated by a draw is seated by ``replay.service.director.draws.reveal_draw`` instead.
    """
    tournament = get_tournament(app, name)
    fmt = tournament.event_format()
    session = max(tournament.sessions, default=0) + 1
    last = fmt.first_session(len(fmt.stages)) + fmt.stages[-1].sessions - 1
    if tournament.format is not None and session > last:
        raise InputError(Said("every session of {name}'s format is seated ({last})", name=repr(name), last=last))
    stage = fmt.stage_of(session)
    first = session == fmt.first_session(stage)
    method = fmt.stages[stage - 1].seating if first else fmt.stages[stage - 1].later
    if method == "draw":
        raise InputError(
            Said(
                "session {session} of {name} is seated by a draw: honba tournament commit-draw, then reveal-draw",
                session=session,
                name=repr(name),
            )
        )
    matches = event_matches(view, name)
    check_played(tournament, matches, session)
    closed_now: int | None = None
    advanced: tuple[str, ...] = ()
    if first and stage > 1 and stage - 1 not in tournament.closed_stages:
        closed_now, advanced = stage - 1, tuple(close_stage(app, name, stage - 1, matches))
        tournament = get_tournament(app, name)
    size = rules.players if rules is not None else 4
    players = seatable(tournament, session)
    seating = seat(tournament, matches, session, players, method, size)
    if fmt.keep_teams_apart and tournament.teams:
        seating = separate_teams(seating, tournament.teams)
    change_tournament(app, name, lambda t: t.plan_session(session, seating))
    keys = start_matches(app, name, session, seating, rules) if start and rules is not None else ()
    return SeatedSession(
        session,
        stage,
        fmt.stages[stage - 1].name,
        method,
        tuple(tuple(t) for t in seating),
        keys,
        closed_now,
        advanced,
        team_clashes(seating, tournament.teams),
    )


def check_played(tournament: Tournament, matches: Sequence[tuple[MatchSummary, int]], session: int) -> None:
    """Every table of the sessions before ``session`` has its match attached and finished: the
    standings the next seating comes from are final."""
    finished = {s.key for s, _session in matches if s.finished}
    for number, tables in sorted(tournament.sessions.items()):
        if number >= session:
            continue
        at = {table for key, (s, table) in tournament.matches.items() if s == number}
        missing = [i for i in range(1, len(tables) + 1) if i not in at]
        if missing:
            raise InputError(
                Said(
                    "session {session} of {name} has no match attached at table {table}",
                    session=number,
                    name=repr(tournament.name),
                    table=missing[0],
                )
            )
        playing = sorted(key for key, (s, _t) in tournament.matches.items() if s == number and key not in finished)
        if playing:
            raise InputError(
                Said(
                    "match {match} of session {session} has not ended: the standings are not final",
                    match=repr(playing[0]),
                    session=number,
                )
            )


def close_stage(app: HonbaApp, name: str, stage: int, matches: Sequence[tuple[MatchSummary, int]]) -> list[str]:
    """Record the end of a stage as its standings stand now: who advances, with what points."""
    tournament = get_tournament(app, name)
    standings = stage_standings(event_state(tournament), matches, stage)
    going, carried = advancing(standings, event_state(tournament))
    if len(going) < (standings.advance or 0):
        raise RuleViolation(
            Said(
                "stage {stage} has {count} players to advance, not {advance}",
                stage=repr(standings.name),
                count=len(going),
                advance=str(standings.advance),
            )
        )
    ranking = [r.row.player for r in standings.rows]
    change_tournament(app, name, lambda t: t.close_stage(stage, ranking, going, carried))
    return going


def seat(
    tournament: Tournament,
    matches: Sequence[tuple[MatchSummary, int]],
    session: int,
    players: Sequence[str],
    method: str,
    size: int,
) -> list[list[str]]:
    """The seating of a session by a stage's method, from the standings before it."""
    if method == "fewest-repeats":
        before = [tables for number, tables in sorted(tournament.sessions.items()) if number < session]
        # A seed made from the event and session: the same seating if asked again.
        seed = int.from_bytes(hashlib.sha256(f"{tournament.name}/{session}".encode()).digest()[:8], "big")
        return fewest_repeats_seating(players, before, size, seed=seed)
    order = standing_order(tournament, matches, session, players)
    return snake_seating(order, size) if method == "snake" else rank_seating(order, size)


def standing_order(
    tournament: Tournament, matches: Sequence[tuple[MatchSummary, int]], session: int, players: Sequence[str]
) -> list[str]:
    """The players in the order of the standings before ``session``: for a stage's first session,
    the order the stage before closed in; else the stage's own standings so far. Substitutes the
    standings do not rank come last, by name."""
    fmt = tournament.event_format()
    stage = fmt.stage_of(session)
    if session == fmt.first_session(stage) and stage > 1:
        ranked = list(tournament.closed_stages[stage - 1]["ranking"])
    else:
        earlier = [(s, n) for s, n in matches if n < session]
        standings: StageStandings = stage_standings(event_state(tournament), earlier, stage)
        ranked = [r.row.player for r in standings.rows]
    wanted = set(players)
    order = [p for p in ranked if p in wanted]
    return order + sorted(wanted - set(order))


def start_matches(
    app: HonbaApp, name: str, session: int, seating: Sequence[Sequence[str]], rules: Ruleset
) -> tuple[str, ...]:
    """Start a match per table (key ``<event>-s<session>-t<table>``) and attach it; a time limit
    set for the session before goes on every table's clock."""
    limit = get_tournament(app, name).time_limits.get(session)
    keys = []
    for number, table in enumerate(seating, start=1):
        key = f"{name}-s{session}-t{number}"
        recording.start_match(app, key, table, rules, {"format": "honba", "entered": "cli", "tournament": name})
        if limit is not None:
            clock.set_time_limit(app, key, limit, by="director")
        keys.append(key)

    def attach(tournament: Tournament) -> None:
        for number, (key, table) in enumerate(zip(keys, seating, strict=True), start=1):
            tournament.attach(key, table, session, number)

    change_tournament(app, name, attach)
    return tuple(keys)


def results_data(standings: EventStandings, *, words: bool = False) -> dict[str, Any]:
    """A staged event's standings as plain data (``honba tournament results --format json``):
    ``{"stages": [{"stage", "name", "sessions", "advance", "carry", "closed", "started", "rows":
    [{"rank", "player", "carried", "points", "matches", "average_place", "place_counts",
    "net_score", "penalties", "status", "marks"}]}], "overall": [{"rank", "player", "stage",
    "points", "marks"}], "teams": [{"rank", "team", "members", "points", "matches"}], "stage_in_play": the stage being
    played, as the standings say it (null once the event is played out, or while a stage is played
    and its cut is next), "stage_said": the sentence every view says of the stages}``. The marks and
    the sentence are their English, or with ``words`` the words themselves (``domain.said.Said``:
    for a page, which says them in its language)."""
    return {
        "stages": [
            {
                "stage": s.stage,
                "name": s.name,
                "sessions": list(s.sessions),
                "advance": s.advance,
                "carry": s.carry,
                "closed": s.closed,
                "started": s.started,
                "rows": [
                    {
                        "rank": r.row.rank,
                        "player": r.row.player,
                        "carried": r.carried,
                        "points": r.row.points,
                        "matches": r.row.matches,
                        "average_place": r.row.average_place,
                        "place_counts": list(r.row.place_counts),
                        "net_score": r.row.net_score,
                        "penalties": r.row.penalties,
                        "status": r.status,
                        "marks": _said(r.marks, words),
                    }
                    for r in s.rows
                ],
            }
            for s in standings.stages
        ],
        "overall": [
            {"rank": o.rank, "player": o.player, "stage": o.stage, "points": o.points, "marks": _said(o.marks, words)}
            for o in standings.overall
        ],
        "stage_in_play": standings.in_play,
        "stage_said": standings.said if words or standings.said is None else str(standings.said),
        "teams": [
            {"rank": t.rank, "team": t.team, "members": list(t.members), "points": t.points, "matches": t.matches}
            for t in standings.teams
        ],
    }


def _said(marks: Sequence[Said], words: bool) -> list[Any]:
    """Marks as words (for a page that says them in its language) or as their English (plain data)."""
    return list(marks) if words else [str(m) for m in marks]
