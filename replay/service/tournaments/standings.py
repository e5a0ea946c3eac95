"""The standings of a tournament as the front ends receive them: plain data, no printing.

Beside the ranked rows (finished matches only), every table still playing is given with the
hand it is at, its scores and the points each player would take if it ended now, marked
provisional; they move with every hand recorded (the stored view's match summaries are
folded again on each of a match's events). A finished match's points come taken apart
(score, uma and oka, penalty) for the table page (``match_result_data``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import attrs
from eventsourcing.persistence import PersistenceError
from eventsourcing.popo import POPOFactory

from domain.errors import HonbaError
from domain.match import Match
from domain.progression import finish, points_by_seat
from domain.said import Said
from domain.store_errors import TournamentNotFound
from domain.tournament import table_order
from projections.standings import MatchSummary, StandingRow, summarize, tie_break_of
from projections.standings_view import (
    DocCache,
    ViewDamaged,
    damaged_of,
    load_summary,
    read_doc,
    tournament_entries,
    tournament_standings,
)
from projections.views import DocumentView
from replay.input.parsing import InputError
from replay.service.audit.damage import tournament_damage
from replay.store.application import HonbaApp
from replay.store.rows import unreadable
from replay.store.standings_view import catch_up, follow, open_view, rebuild

T = TypeVar("T")


@attrs.frozen
class StandingsReport:
    """The standings of a tournament, and what they are made of; ``damaged``: its matches the view
    found damaged when it folded them (key -> why)."""

    name: str
    rows: tuple[StandingRow, ...]
    sessions: tuple[int, ...]
    by_session: dict[int, dict[str, float]]
    summaries: tuple[tuple[MatchSummary, int], ...]
    in_progress: int
    damaged: dict[str, Said | str] = attrs.field(factory=dict)
    # The table each match was played at, where the tournament says.
    tables: dict[str, int | None] = attrs.field(factory=dict)
    # A staged event's: the stage whose line each row is (the last the player reached), and the
    # stage being played (None once the last stage is played out, or while the cut after a played
    # stage is not made yet), and what every view says of the stages (``projections.staged.stage_said``).
    stages: dict[str, str] = attrs.field(factory=dict)
    in_play: str | None = None
    said: Said | None = None


def tournament_report(
    view: DocumentView, name: str, *, after_session: int | None = None, matches: bool = True
) -> StandingsReport:
    """The standings (after a session, or all) and the cumulative points by session, from the view.

    Without ``matches`` (and ``after_session``), only the standings themselves: read from the
    tournament's standings document, in a time that does not grow with the tournament, when no
    table is still playing (the tables in progress are read from their matches' summaries)."""
    cache = DocCache(view)
    ref = cache.get("tournament-name", name)
    doc = None if ref is None else cache.get("tournament", ref["id"])
    if doc is None:
        raise TournamentNotFound(Said("no tournament {name} in the standings view", name=repr(name)))
    stored = cache.get("standings", name) or {}
    damaged = damaged_of(stored)
    playing = int((cache.get("totals", doc["id"]) or {}).get("in_progress", 0))
    if not matches and after_session is None and "rows" in stored and not playing:
        ranked = tuple(StandingRow(**{**row, "place_counts": tuple(row["place_counts"])}) for row in stored["rows"])
        return StandingsReport(name, ranked, (), {}, (), 0, damaged)
    entries = tournament_entries(view, doc["id"])
    rows = tournament_standings(cache, doc, after_session=after_session, entries=entries)
    sessions = sorted({int(session) for session, _ in entries.values()})
    if after_session is not None:
        sessions = [s for s in sessions if s <= after_session]
    by_session: dict[int, dict[str, float]] = {}
    for session in sessions:
        cumulative = tournament_standings(cache, doc, after_session=session, entries=entries)
        by_session[session] = {row.player: row.points for row in cumulative}
    summaries = []
    in_progress = 0
    tables = {key: table for key, (_session, table) in entries.items()}
    by_table = sorted(entries.items(), key=lambda entry: table_order(entry[1][0], entry[1][1], entry[0]))
    for key, (session, _table) in by_table:
        data = cache.get("summary", key)
        if data is None or (after_session is not None and session > after_session):
            continue
        summary = load_summary(data)
        summaries.append((summary, int(session)))
        in_progress += not summary.finished
    return StandingsReport(
        name, tuple(rows), tuple(sessions), by_session, tuple(summaries), in_progress, damaged=damaged, tables=tables
    )


def summary_doc(view: DocumentView, match_key: str) -> MatchSummary | None:
    """The stored summary of one match."""
    data = view.get_doc("summary", match_key)
    return None if data is None else load_summary(read_doc("summary", data))


def standings_data(
    report: StandingsReport, unconfirmed: Sequence[dict[str, Any]] = (), *, words: bool = False
) -> dict[str, Any]:
    """A tournament's standings as plain data: ``honba standings --json`` and the HTML page.

    ``{"tournament", "sessions": [int], "in_progress": int, "finished": int, "tie_break": str,
    "rows": [one dict per player, the fields of ``StandingRow``: ``rank`` and ``average_place``
    null for a player without a finished match; in a staged event ``stage``, the stage the line
    is of], "stage_in_play": the stage a staged event is playing (null: none, one stage, or a stage
    played whose cut is next), "stage_said": the one sentence every view says of the stages ("the
    final is being played", "the qualification is played; the cut is next"; null: nothing to say),
    "by_session": {"1": ...}, "damaged": {match key: why the view found it damaged}, "matches":
    [{"match", "session", "table", "players", "final_points", "finished", "hand", "scores",
    "provisional_points", "provisional"}],
    "tables_in_progress": [{"match", "session", "table", "hand", "hands_played", "provisional":
    true, "seats": [{"player", "score", "place", "points"}]}], "unconfirmed": the finished matches
    whose final scores the players have not confirmed yet, in an event with a sign-off
    (``replay.service.tournaments.sign_off.unconfirmed``: ``[{"match", "status", "players", "referee"...}]``,
    empty otherwise)}`` (docs/standings.md); a table that
    has not played a hand has no place and no points (null). ``stage_said`` is its English, or
    with ``words`` the words themselves (``domain.said.Said``: for a page, which says them in its language).
    """
    matches = [_match_data(s, session, report.tables.get(s.key)) for s, session in report.summaries]
    return {
        "tournament": report.name,
        "sessions": list(report.sessions),
        "in_progress": report.in_progress,
        "finished": sum(1 for s, _session in report.summaries if s.finished),
        "tie_break": tie_break_of(s for s, _session in report.summaries),
        "rows": [_row_data(row, report.stages) for row in report.rows],
        "stage_in_play": report.in_play,
        "stage_said": report.said if words or report.said is None else str(report.said),
        "by_session": {str(k): v for k, v in report.by_session.items()},
        "damaged": dict(report.damaged),
        "matches": matches,
        "tables_in_progress": [
            _table_data(s, session, report.tables.get(s.key)) for s, session in report.summaries if not s.finished
        ],
        "unconfirmed": list(unconfirmed),
    }


def _row_data(row: StandingRow, stages: dict[str, str]) -> dict[str, Any]:
    """A row as plain data, with the stage it is the line of in a staged event."""
    data = attrs.asdict(row, value_serializer=_plain)
    if stages:
        data["stage"] = stages.get(row.player)
    return data


def _match_data(summary: MatchSummary, session: int, table: int | None) -> dict[str, Any]:
    return {
        "match": summary.key,
        "session": session,
        "table": table,
        "players": list(summary.players),
        "final_points": list(summary.final_points),
        "finished": summary.finished,
        "hand": summary.hand or None,
        "scores": list(summary.final_scores),
        # None before a hand is played, as for the tables in progress (``_table_data``).
        "provisional_points": list(summary.provisional_points) if not summary.finished and summary.hands else None,
        "provisional": not summary.finished,
    }


def _table_data(summary: MatchSummary, session: int, table: int | None) -> dict[str, Any]:
    """A table still playing: its hand, scores, places and provisional points, seat by seat; a table
    that has not played a hand has neither places nor points yet (equal scores would rank it by
    seat: +35/+5/-15/-25 that nobody has earned)."""
    started = summary.hands > 0
    points = summary.provisional_points if started else ()
    return {
        "match": summary.key,
        "session": session,
        "table": table,
        "hand": summary.hand or None,
        "hands_played": summary.hands,
        "provisional": True,
        "seats": [
            {
                "player": name,
                "score": summary.final_scores[seat],
                "place": summary.places[seat] if started else None,
                # Unknown (null) for a summary written before honba kept them, until the next hand.
                "points": points[seat] if points else None,
            }
            for seat, name in enumerate(summary.players)
        ],
    }


def match_result_data(match: Match) -> dict[str, Any]:
    """A match's final points taken apart, for the table page once it has ended (provisional
    while it is on: the points it would give if it ended now):

    ``{"match", "finished", "provisional", "end_reason", "seats": [{"player", "score" (the final
    score, leftover deposits included), "place", "score_points" (the score against the return
    score, in thousands), "uma" (uma and oka of the place), "penalty" (taken off after uma),
    "points"}]}``; uma and oka are the rules' (``domain.progression.points_by_seat``).
    """
    state = match.state
    scores = state.scores if state.finished else finish(state, match.rules).scores
    parts = points_by_seat(scores, match.rules, state.penalties)
    # Places as the standings count them (tied players share a place where the rules split the uma).
    places = summarize(match.key, match.players, match.rules, attrs.evolve(state, scores=scores), ()).places
    return {
        "match": match.key,
        "finished": state.finished,
        "provisional": not state.finished,
        "end_reason": state.end_reason or None,
        "seats": [
            {
                "player": name,
                "score": scores[seat],
                "place": places[seat],
                "score_points": parts[seat].score,
                "uma": parts[seat].uma,
                "penalty": parts[seat].penalty,
                "points": parts[seat].points,
            }
            for seat, name in enumerate(match.players)
        ],
    }


def _plain(_instance: object, _field: object, value: Any) -> Any:
    # A row's counts are tuples; the data is JSON's own shapes, so a reader never meets a tuple.
    return list(value) if isinstance(value, tuple) else value


def read_view(
    store: HonbaApp,
    read: Callable[[DocumentView], T],
    *,
    view: DocumentView | None = None,
    tick: Callable[[int], None] | None = None,
) -> T:
    """What ``read`` finds in the standings view, brought up to date first (``tick`` told of the
    events folded so far). A view whose documents cannot be read (changed behind honba's back: not
    JSON, not the shape honba writes, a document another refers to gone) is rebuilt from the event
    log, saying so in one line, and read again: it is derived data."""
    view = view if view is not None else open_view(store)
    try:
        catch_up(store, view, tick=tick)
        return read(view)
    except ViewDamaged as exc:
        why = str(exc)
    except (HonbaError, PersistenceError, OSError):
        raise
    except Exception as exc:  # a document changed behind honba's back, whatever broke in reading it
        why = unreadable(exc)
    rebuild(store, view, why=why)
    return read(view)


def view_position(store: HonbaApp, view: DocumentView) -> int:
    """How far into ``store``'s notification log the standings ``view`` has folded (0: nothing yet)."""
    return view.max_tracking_id(store.name) or 0


def caught_up_view(store: HonbaApp, tick: Callable[[int], None] | None = None) -> DocumentView:
    """The stored standings view, brought up to date first (``tick`` told of the events folded so far)."""
    view = open_view(store)
    catch_up(store, view, tick=tick)
    return view


def update_view(store: HonbaApp, tick: Callable[[int], None] | None = None) -> int:
    """Fold every event the standings view has not seen yet; how many were folded."""
    return catch_up(store, open_view(store), tick=tick)


def follow_view(store: HonbaApp, seconds: float | None = None, *, started: Callable[[], None] = lambda: None) -> None:
    """Follow new events live into the standings view (``replay.store.standings_view.follow``) for
    ``seconds`` (or until interrupted); ``started`` is called once following begins. An in-memory
    store is refused: it ends with the command."""
    if isinstance(store.factory, POPOFactory):
        raise InputError("live following needs a store on disk or a server: an in-memory store ends with the command")
    env = {k: str(v) for k, v in store.env.items()}
    started()
    follow(env, stop_after=seconds)


def checked_report(store: HonbaApp, view: DocumentView, name: str, report: StandingsReport) -> StandingsReport:
    """A tournament's standings (``report``) with every match of the tournament checked in the store
    as ``honba check`` and ``honba audit`` check it (``replay.service.audit.damage.tournament_damage``): a
    match changed after the view folded it, rolled back behind a checkpoint or given a hand after
    its end is named in ``damaged`` beside what the view saw when it folded it."""
    ref = DocCache(view).get("tournament-name", name)
    keys = sorted(tournament_entries(view, ref["id"])) if ref is not None else []
    found = tournament_damage(store, keys)
    if not found:
        return report
    return attrs.evolve(report, damaged={**found, **report.damaged})
