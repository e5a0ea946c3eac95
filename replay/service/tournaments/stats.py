"""Player statistics from the stored view: over a tournament (aliases resolved) or every match.

The figures per match are kept in the view (``stats/<match key>``, folded by
``projections.standings_view`` from the same events as the standings); this module reads
them and adds them up with ``projections.stats.player_stats``.
"""

from __future__ import annotations

from typing import Any

import attrs

from domain.errors import HonbaError
from domain.said import Said
from domain.store_errors import TournamentNotFound
from projections.standings_view import DocCache, damaged_of, read_docs, tournament_entries
from projections.stats import MatchStats, PlayerStats, player_stats
from projections.views import DocumentView


class PlayerNotFound(HonbaError):
    """No player of that name in the scope asked for."""


@attrs.frozen
class StatsReport:
    """The figures of every player in scope, and the cumulative points by session."""

    scope: str  # the tournament's name, or "" for every stored match
    players: tuple[PlayerStats, ...]
    sessions: tuple[int, ...]
    by_session: dict[int, dict[str, float]]
    matches: int
    in_progress: int
    # The tournament's matches the view found damaged when it folded them (key -> why).
    damaged: dict[str, Said | str] = attrs.field(factory=dict)


def stats_report(view: DocumentView, tournament: str | None = None, player: str | None = None) -> StatsReport:
    """Statistics of a tournament's players (or of everyone over every stored match), one player if named."""
    if tournament is None:
        docs = [MatchStats.from_data(data) for _key, data in read_docs(view, "stats")]
        rows = player_stats(docs)
        sessions: list[int] = []
        by_session: dict[int, dict[str, float]] = {}
    else:
        cache = DocCache(view)
        ref = cache.get("tournament-name", tournament)
        doc = None if ref is None else cache.get("tournament", ref["id"])
        if doc is None:
            raise TournamentNotFound(Said("no tournament {name} in the standings view", name=repr(tournament)))
        aliases: dict[str, str] = doc["aliases"]
        with_session: list[tuple[int, MatchStats]] = []
        for key, (session, _table) in sorted(tournament_entries(view, doc["id"]).items()):
            data = cache.get("stats", key)
            if data is not None:
                with_session.append((int(session), MatchStats.from_data(data)))
        docs = [stats for _, stats in with_session]
        registered = [p for p in doc["players"] if p not in aliases]

        def player_of(name: str) -> str:
            return aliases.get(name, name)

        rows = player_stats(docs, player_of, registered)
        sessions = sorted({session for session, _ in with_session})
        by_session = {
            session: {
                row.player: row.points
                for row in player_stats([s for n, s in with_session if n <= session], player_of, registered)
            }
            for session in sessions
        }
    if player is not None:
        rows = [row for row in rows if row.player == player]
        if not rows:
            where = (
                Said("tournament {name}", name=repr(tournament))
                if tournament is not None
                else Said("the stored matches")
            )
            raise PlayerNotFound(Said("no player {player} in {where}", player=repr(player), where=where))
    finished = sum(1 for d in docs if d.finished)
    damaged: dict[str, Said | str] = {}
    if tournament is not None:
        damaged = damaged_of(view.get_doc("standings", tournament) or {})
    return StatsReport(
        tournament or "", tuple(rows), tuple(sessions), by_session, finished, len(docs) - finished, damaged
    )


def stats_data(report: StatsReport) -> dict[str, Any]:
    """The statistics as plain data (JSON, the HTML page)."""
    return {
        "tournament": report.scope or None,
        "matches": report.matches,
        "in_progress": report.in_progress,
        "sessions": list(report.sessions),
        "by_session": {str(k): v for k, v in report.by_session.items()},
        "players": [row.figures() for row in report.players],
    }
