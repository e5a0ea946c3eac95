"""The standings of a tournament as the front ends receive them: plain data, no printing.

Beside the ranked rows (finished matches only), every table still playing is given with the
hand it is at, its scores and the points each player would take if it ended now, marked
provisional; they move with every hand recorded (the stored view's match summaries are
folded again on each of a match's events). A finished match's points come taken apart
(score, uma and oka, penalty) for the table page (``match_result_data``).
"""

from __future__ import annotations

from typing import Any

import attrs

from domain.match import Match
from domain.progression import finish, points_by_seat
from projections.standings import MatchSummary, summarize, tie_break_of
from replay.tournaments import StandingsReport


def standings_data(report: StandingsReport) -> dict[str, Any]:
    """A tournament's standings as plain data: ``honba standings --json`` and the HTML page.

    ``{"tournament", "sessions": [int], "in_progress": int, "finished": int, "tie_break": str,
    "rows": [one dict per player, the fields of ``StandingRow``: ``rank`` and ``average_place``
    null for a player without a finished match], "by_session": {"1": ...}, "matches": [{"match",
    "session", "table", "players", "final_points", "finished", "hand", "scores",
    "provisional_points", "provisional"}], "tables_in_progress": [{"match", "session", "table",
    "hand", "hands_played", "provisional": true, "seats": [{"player", "score", "place",
    "points"}]}]}`` (docs/standings.md).
    """
    matches = [_match_data(s, session, report.tables.get(s.key)) for s, session in report.summaries]
    return {
        "tournament": report.name,
        "sessions": list(report.sessions),
        "in_progress": report.in_progress,
        "finished": sum(1 for s, _session in report.summaries if s.finished),
        "tie_break": tie_break_of(s for s, _session in report.summaries),
        "rows": [attrs.asdict(row, value_serializer=_plain) for row in report.rows],
        "by_session": {str(k): v for k, v in report.by_session.items()},
        "matches": matches,
        "tables_in_progress": [
            _table_data(s, session, report.tables.get(s.key)) for s, session in report.summaries if not s.finished
        ],
    }


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
        "provisional_points": list(summary.provisional_points) if not summary.finished else None,
        "provisional": not summary.finished,
    }


def _table_data(summary: MatchSummary, session: int, table: int | None) -> dict[str, Any]:
    """A table still playing: its hand, scores, places and provisional points, seat by seat."""
    points = summary.provisional_points
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
                "place": summary.places[seat],
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
