"""The standings of a staged event: each stage's, the whole event's, and the teams'.

Each stage ranks the players who entered it by the points they carried into it (``keep``,
``halve`` or ``reset`` of their points at the end of the stage before, as the stage closed)
plus the points of the stage's own matches, by the tie-break chain of ``projections.standings``.
A closed stage names who advanced and who was cut there. The whole event ranks the players who
reached the last stage played first (by that stage), then those cut after each earlier stage
(by the stage they were cut in, the latest first).

Substitutes count as the event's format says (``domain.stages.SubstituteRule``): their results
as played, at fixed points a match, or not at all; the others at their table keep their own
results as played. A player who withdrew keeps the matches they played. Substitutes and players
who withdrew do not advance: the next ranked players do.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence

import attrs

from domain.said import Said, listed
from domain.stages import EventFormat, carried_tenths
from projections.standings import MatchSummary, StandingRow, Totals, rank, tie_break_of, totals


@attrs.frozen
class ClosedStage:
    """A stage as it closed: its final order, who advanced, the points (tenths) they carried."""

    ranking: tuple[str, ...]
    advanced: tuple[str, ...]
    carried: Mapping[str, int]


@attrs.frozen
class EventState:
    """What the standings of an event need of its tournament (``domain.tournament.Tournament``)."""

    players: tuple[str, ...]
    aliases: Mapping[str, str]
    format: EventFormat
    closed: Mapping[int, ClosedStage] = attrs.field(factory=dict)
    withdrawn: Mapping[str, int] = attrs.field(factory=dict)
    substitutes: Mapping[str, str] = attrs.field(factory=dict)
    teams: Mapping[str, str] = attrs.field(factory=dict)

    def player_of(self, name: str) -> str:
        """The player a log name stands for."""
        return self.aliases.get(name, name)

    def entrants(self) -> list[str]:
        """The event's players (not its aliases), in the order they joined."""
        return [p for p in self.players if p not in self.aliases]


@attrs.frozen
class StageRow:
    """One player's line in a stage: the standings row (points include what they carried in),
    what they carried in, what became of them (``advanced``, ``cut``, or ``""`` while the stage is
    in play or is the last), and marks (withdrew, substitute)."""

    row: StandingRow
    carried: float
    status: str
    marks: tuple[Said, ...]


@attrs.frozen
class StageStandings:
    """A stage's standings."""

    stage: int
    name: str
    sessions: tuple[int, ...]
    advance: int | None
    carry: str
    closed: bool
    started: bool
    rows: tuple[StageRow, ...]


@attrs.frozen
class OverallRow:
    """A player's place in the whole event: the last stage they reached and their line there."""

    rank: int
    player: str
    stage: str
    points: float
    marks: tuple[Said, ...]
    # Their line in that stage (points with what they carried in; matches, places and net score
    # of the stage's own matches), ranked in the whole event: what every standings view shows.
    line: StandingRow


@attrs.frozen
class TeamRow:
    """A team's line: its members, their points summed (or averaged), matches played."""

    rank: int
    team: str
    members: tuple[str, ...]
    points: float
    matches: int


@attrs.frozen
class EventStandings:
    """Every stage's standings, the whole event's, and the teams'."""

    stages: tuple[StageStandings, ...]
    overall: tuple[OverallRow, ...]
    teams: tuple[TeamRow, ...]
    # The stage being played (``stage_in_play``), None once the event is played out or while a
    # stage is played and the cut after it not made yet.
    in_play: str | None = None
    # What every view says of the stages (``stage_said``): "the final is being played", "the
    # qualification is played; the cut is next"; None once the event is played out.
    said: Said | None = None


def counted_summaries(
    summaries: Iterable[MatchSummary], state: EventState
) -> tuple[list[MatchSummary], Callable[[str], bool]]:
    """The summaries as the substitutes' rule counts them (fixed points put in), and whether a
    name's totals are left out (a substitute whose results do not count)."""
    rule = state.format.substitutes
    subs = set(state.substitutes)
    result = []
    for summary in summaries:
        if rule.counts == "fixed" and any(state.player_of(n) in subs for n in summary.players):
            points = tuple(
                rule.fixed_points if state.player_of(n) in subs else p
                for n, p in zip(summary.players, summary.final_points, strict=False)
            )
            summary = attrs.evolve(summary, final_points=points)
        result.append(summary)

    def left_out(player: str) -> bool:
        return rule.counts == "not-counted" and player in subs

    return result, left_out


def _marks(player: str, state: EventState) -> tuple[Said, ...]:
    marks = []
    if player in state.withdrawn:
        marks.append(Said("withdrew after session {session}", session=state.withdrawn[player]))
    if player in state.substitutes:
        marks.append(Said("substitute for {player}", player=state.substitutes[player]))
    replaced = sorted(s for s, p in state.substitutes.items() if p == player)
    if replaced:
        marks.append(Said("replaced by {player}", player=listed(replaced)))
    return tuple(marks)


def stage_standings(
    state: EventState, matches: Sequence[tuple[MatchSummary, int]], stage: int, tie_break: str | None = None
) -> StageStandings:
    """The standings of one stage (1-based) from the event's matches (summary, session), ranked by
    the chain of the matches' rules (or ``tie_break``'s)."""
    fmt = state.format
    spec = fmt.stages[stage - 1]
    sessions = fmt.sessions_of(stage)
    in_stage = [s for s, session in matches if session in sessions]
    counted, left_out = counted_summaries(in_stage, state)
    if stage == 1:
        entrants = state.entrants()
        carried: Mapping[str, int] = {}
    else:
        before = state.closed.get(stage - 1)
        entrants = list(before.advanced) if before is not None else []
        carried = before.carried if before is not None else {}
    found = totals(counted, state.player_of, entrants)
    if stage > 1:
        # Only those who entered the stage (and substitutes who played in it) are ranked in it.
        found = {p: t for p, t in found.items() if p in entrants or p in state.substitutes}
    by_player = {
        p: attrs.evolve(t, points=round(t.points + carried.get(p, 0) / 10, 1))
        for p, t in found.items()
        if not left_out(p)
    }
    rows = rank(by_player, tie_break or tie_break_of(counted))
    closed = state.closed.get(stage)
    advanced = set(closed.advanced) if closed is not None else set()
    stage_rows = tuple(
        StageRow(
            row=row,
            carried=carried.get(row.player, 0) / 10,
            status=("advanced" if row.player in advanced else "cut") if closed is not None else "",
            marks=_marks(row.player, state),
        )
        for row in rows
    )
    started = bool(in_stage) or (stage == 1) or (stage - 1) in state.closed
    return StageStandings(
        stage=stage,
        name=spec.name,
        sessions=tuple(sessions),
        advance=spec.advance,
        carry=spec.carry,
        closed=closed is not None,
        started=started,
        rows=stage_rows,
    )


def advancing(standings: StageStandings, state: EventState) -> tuple[list[str], dict[str, int]]:
    """Who goes on from a stage as it stands now (the top ``advance`` of its order, passing over
    substitutes and players who withdrew), and the points (tenths) each carries into the next
    stage by that stage's rule."""
    fmt = state.format
    if standings.advance is None:
        return [], {}
    going = [
        r.row.player
        for r in standings.rows
        if r.row.player not in state.withdrawn and r.row.player not in state.substitutes
    ][: standings.advance]
    carry = fmt.stages[standings.stage].carry
    points = {r.row.player: round(r.row.points * 10) for r in standings.rows}
    return going, {p: carried_tenths(points[p], carry) for p in going}


def event_standings(
    state: EventState, matches: Sequence[tuple[MatchSummary, int]], tie_break: str | None = None
) -> EventStandings:
    """Every stage's standings, the whole event's order and the teams' standings."""
    stages = tuple(stage_standings(state, matches, k, tie_break) for k in range(1, len(state.format.stages) + 1))
    in_play = stage_in_play(state, stages, matches)
    overall = overall_order(stages)
    said = stage_said(state, stages, matches)
    return EventStandings(stages, overall, team_standings(state, overall, matches), in_play, said)


def replayed_event(
    state: EventState, matches: Sequence[tuple[MatchSummary, int]], tie_break: str | None = None
) -> EventStandings:
    """The event's standings with every stage that closed closed again on these matches (the same
    matches scored under other rules: the what-if of the whole format): who advances, and with
    what points, is decided by these standings, not by the ones the event closed with."""
    closed: dict[int, ClosedStage] = {}
    for stage in sorted(state.closed):
        seen = attrs.evolve(state, closed=dict(closed))
        standings = stage_standings(seen, matches, stage, tie_break)
        going, carried = advancing(standings, seen)
        closed[stage] = ClosedStage(tuple(r.row.player for r in standings.rows), tuple(going), carried)
    return event_standings(attrs.evolve(state, closed=closed), matches, tie_break)


def overall_order(stages: Sequence[StageStandings]) -> tuple[OverallRow, ...]:
    """The whole event: those in the last stage reached first, then those cut after each stage
    before it, the latest first; ranks shared as the stage shares them."""
    reached = [s for s in stages if s.started and s.rows]
    rows: list[OverallRow] = []
    placed: set[str] = set()
    for stage in reversed(reached):
        group = [r for r in stage.rows if r.row.player not in placed]
        offset = len(rows)
        for r in group:
            better = sum(1 for o in group if _rank_order(o.row.rank) < _rank_order(r.row.rank))
            rank = offset + 1 + better
            # The line keeps "no rank yet" for a player without a finished match in the stage.
            line = r.row if r.row.rank is None else attrs.evolve(r.row, rank=rank)
            rows.append(OverallRow(rank, r.row.player, stage.name, r.row.points, r.marks, line))
        placed.update(r.row.player for r in group)
    return tuple(rows)


def _rank_order(rank: int | None) -> float:
    """A stage rank to order by: a player without a finished match in the stage (no rank) after
    every ranked one, tied with the others without."""
    return math.inf if rank is None else rank


def team_standings(
    state: EventState, overall: Sequence[OverallRow], matches: Sequence[tuple[MatchSummary, int]]
) -> tuple[TeamRow, ...]:
    """Each team's members' lines in the whole event (``overall``: the last stage each reached, with
    what they carried into it: cuts, halving and finals as the format says; substitutes as their rule
    counts them), summed or averaged as the format says; ranked by points, then by name. Matches
    are those each member played over the whole event."""
    if not state.teams:
        return ()
    counted, left_out = counted_summaries((s for s, _session in matches), state)
    played = totals(counted, state.player_of, state.entrants())
    line = {o.player: o.points for o in overall}
    members: dict[str, list[str]] = {}
    for player, team in state.teams.items():
        members.setdefault(team, []).append(player)
    lines = []
    for team, names in members.items():
        counted_names = [n for n in names if not left_out(n)]
        points = sum(line.get(n, 0.0) for n in counted_names)
        if state.format.team_points == "average" and counted_names:
            points /= len(counted_names)
        count = sum(played.get(n, Totals()).matches for n in names)
        lines.append((round(points, 1), team, tuple(sorted(names)), count))
    lines.sort(key=lambda line: (-line[0], line[1]))
    result = []
    for points, team, members_of_team, count in lines:
        shared = next(i for i, other in enumerate(lines, start=1) if other[0] == points)
        result.append(TeamRow(shared, team, members_of_team, points, count))
    return tuple(result)


def _stage_played(stage: StageStandings, matches: Sequence[tuple[MatchSummary, int]]) -> bool:
    """Every session of a stage seated and every match of it ended."""
    sessions = set(stage.sessions)
    seated = {n for _s, n in matches if n in sessions}
    return seated == sessions and all(s.finished for s, n in matches if n in sessions)


def stage_in_play(
    state: EventState, stages: Sequence[StageStandings], matches: Sequence[tuple[MatchSummary, int]]
) -> str | None:
    """The stage being played: the last one started that has not closed, unless every session of
    it is seated and its matches have ended (the last stage: the event is played out; an earlier
    one: it is played and the cut is next, ``stage_said``)."""
    started = [s for s in stages if s.started and not s.closed]
    if not started:
        return None
    stage = started[-1]
    return None if _stage_played(stage, matches) else stage.name


def stage_said(
    state: EventState, stages: Sequence[StageStandings], matches: Sequence[tuple[MatchSummary, int]]
) -> Said | None:
    """The one sentence every view says of the stages: "the final is being played" while a stage
    is; "the qualification is played; the cut is next" once every match of a stage before the last
    has ended and the next stage is not seated yet (the cut is made when it is: until then the
    lines are the stage's, and who goes on is not recorded); None once the event is played out."""
    playing = stage_in_play(state, stages, matches)
    if playing is not None:
        return Said("the {stage} is being played", stage=playing)
    started = [s for s in stages if s.started and not s.closed]
    if not started or started[-1].stage >= len(state.format.stages):
        return None
    stage = started[-1]
    if stage.advance is not None:
        return Said("the {stage} is played; the cut is next", stage=stage.name)
    return Said("the {stage} is played; the {next} is next", stage=stage.name, next=stages[stage.stage].name)
