"""The standings of a tournament as the front ends receive them: plain data, no printing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
from eventsourcing.popo import POPOFactory

from projections.standings import MatchSummary, StandingRow, tie_break_of
from projections.standings_view import DocCache, load_summary, read_doc, tournament_entries, tournament_standings
from projections.views import DocumentView
from replay.input.parsing import InputError
from replay.store.application import HonbaApp
from replay.store.errors import TournamentNotFound
from replay.store.standings_view import catch_up, follow, open_view


@attrs.frozen
class StandingsReport:
    """The standings of a tournament, and what they are made of."""

    name: str
    rows: tuple[StandingRow, ...]
    sessions: tuple[int, ...]
    by_session: dict[int, dict[str, float]]
    summaries: tuple[tuple[MatchSummary, int], ...]
    in_progress: int


def tournament_report(view: DocumentView, name: str, *, after_session: int | None = None) -> StandingsReport:
    """The standings (after a session, or all) and the cumulative points by session, from the view."""
    cache = DocCache(view)
    ref = cache.get("tournament-name", name)
    doc = None if ref is None else cache.get("tournament", ref["id"])
    if doc is None:
        raise TournamentNotFound(f"no tournament {name!r} in the standings view")
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
    for key, (session, _table) in sorted(entries.items()):
        data = cache.get("summary", key)
        if data is None or (after_session is not None and session > after_session):
            continue
        summary = load_summary(data)
        summaries.append((summary, int(session)))
        in_progress += not summary.finished
    return StandingsReport(name, tuple(rows), tuple(sessions), by_session, tuple(summaries), in_progress)


def summary_doc(view: DocumentView, match_key: str) -> MatchSummary | None:
    """The stored summary of one match."""
    data = view.get_doc("summary", match_key)
    return None if data is None else load_summary(read_doc("summary", data))


def standings_data(report: StandingsReport) -> dict[str, Any]:
    """A tournament's standings as plain data: ``honba standings --json`` and the HTML page.

    ``{"tournament", "sessions": [int], "in_progress": bool, "tie_break": str, "rows": [one
    dict per player, the fields of ``StandingRow``], "by_session": {"1": ...}, "matches":
    [{"match", "session", "players", "final_points", "finished"}]}`` (docs/standings.md).
    """
    return {
        "tournament": report.name,
        "sessions": list(report.sessions),
        "in_progress": report.in_progress,
        "tie_break": tie_break_of(s for s, _session in report.summaries),
        "rows": [attrs.asdict(row, value_serializer=_plain) for row in report.rows],
        "by_session": {str(k): v for k, v in report.by_session.items()},
        "matches": [
            {
                "match": s.key,
                "session": session,
                "players": list(s.players),
                "final_points": list(s.final_points),
                "finished": s.finished,
            }
            for s, session in report.summaries
        ],
    }


def _plain(_instance: object, _field: object, value: Any) -> Any:
    # A row's counts are tuples; the data is JSON's own shapes, so a reader never meets a tuple.
    return list(value) if isinstance(value, tuple) else value


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
