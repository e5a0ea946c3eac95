"""Ratings across events (``projections.ratings``) from the stored matches, as plain data.

The inputs are the stored matches as their corrected histories end (the standings view's
summaries), so a correction to a match moves the ratings. OpenSkill rates every finished match
(or those of the tournaments named) in the order the store recorded their starts; the
EMA-style ranking rates every tournament by its final order, dated by its declared end
(``honba tournament ranking-facts``) or else the day its last match was started.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any

from domain.said import Said, one_of
from projections.ratings import EventResult, PlayerRating, ema_ratings, openskill_ratings
from projections.standings import MatchSummary
from projections.standings_view import load_summary, read_docs
from projections.views import DocumentView
from replay.input.parsing import InputError
from replay.service.director.stages import standings_of_event
from replay.service.tournaments.standings import tournament_report
from replay.store.application import HonbaApp
from replay.store.streams import started_in_order
from replay.store.tournaments import get_tournament

SYSTEMS = ("openskill", "ema")


def _summaries(view: DocumentView) -> dict[str, MatchSummary]:
    return {key: load_summary(data) for key, data in read_docs(view, "summary")}


def openskill_report(
    app: HonbaApp, view: DocumentView, tournaments: Sequence[str] = ()
) -> tuple[tuple[PlayerRating, ...], int]:
    """OpenSkill ratings over the stored matches (or the named tournaments'), and how many counted."""
    summaries = _summaries(view)
    wanted: set[str] | None = None
    if tournaments:
        wanted = set()
        for name in tournaments:
            wanted.update(s.key for s, _session in tournament_report(view, name).summaries)
    ordered = [
        summaries[key]
        for key, _when in started_in_order(app)
        if key in summaries and (wanted is None or key in wanted) and summaries[key].finished
    ]
    return openskill_ratings(ordered), len(ordered)


def tournament_events(app: HonbaApp, view: DocumentView, tournaments: Sequence[str] = ()) -> list[EventResult]:
    """Each tournament (or the named ones) as the EMA-style ranking sees it: its final order over the
    players who finished a match in it, its day and weight facts."""
    names = list(tournaments) or sorted(key for key, _data in read_docs(view, "tournament-name"))
    started = dict(started_in_order(app))
    events = []
    for name in names:
        report = tournament_report(view, name)
        played = {n for s, _session in report.summaries if s.finished for n in s.players}
        if not played:
            continue
        tournament = get_tournament(app, name)
        played = {tournament.player_of(n) for n in played}
        ranks = {row.player: row.rank for row in standings_of_event(app, view, name).overall if row.player in played}
        facts = tournament.ranking_facts
        if facts:
            ended = date.fromisoformat(facts["ended_on"])
        else:
            last = max(started.get(s.key, datetime.now(UTC)) for s, _session in report.summaries)
            ended = last.date()
        # The ranks of a subset are renumbered 1..n as the EMA ranks an event's participants.
        order = sorted(ranks.items(), key=lambda item: (item[1], item[0]))
        renumbered = {p: 1 + sum(1 for _q, r in order if r < rank) for p, rank in order}
        events.append(
            EventResult(
                name,
                ended,
                renumbered,
                days=int(facts.get("days", 1)),
                countries=int(facts.get("countries", 0)),
                qualification=bool(facts.get("qualification", False)),
            )
        )
    return events


def ratings_data(
    app: HonbaApp,
    view: DocumentView,
    system: str,
    *,
    tournaments: Sequence[str] = (),
    as_of: date | None = None,
    min_results: int = 2,
    player: str | None = None,
) -> dict[str, Any]:
    """Ratings as plain data (``honba ratings --format json``): ``{"system", "counted" (matches or
    events), "players": [{"rank", "player", "rating", "count", "mu", "sigma", "history":
    [{"index", "label", "rating"}]}]}``."""
    if system not in SYSTEMS:
        raise InputError(Said("--system is {choices}, not {value}", choices=one_of(SYSTEMS), value=repr(system)))
    if system == "openskill":
        rows, counted = openskill_report(app, view, tournaments)
    else:
        events = tournament_events(app, view, tournaments)
        rows, counted = ema_ratings(events, as_of, min_results=min_results), len(events)
    if player is not None:
        rows = tuple(r for r in rows if r.player == player)
        if not rows:
            raise InputError(Said("no rating for {player}", player=repr(player)))
    return {
        "system": system,
        "counted": counted,
        "players": [
            {
                "rank": r.rank,
                "player": r.player,
                "rating": r.rating,
                "count": r.count,
                "mu": round(r.mu, 6),
                "sigma": round(r.sigma, 6),
                "history": [{"index": h.index, "label": h.label, "rating": round(h.rating, 3)} for h in r.history],
            }
            for r in rows
        ],
    }
