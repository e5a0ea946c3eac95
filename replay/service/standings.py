"""The standings of a tournament as the front ends receive them: plain data, no printing."""

from __future__ import annotations

from typing import Any

import attrs

from projections.standings import tie_break_of
from replay.tournaments import StandingsReport


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
