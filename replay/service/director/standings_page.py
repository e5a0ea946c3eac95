"""What the public standings page of a tournament shows, as plain data: the standings with the
tables in progress, each stage's results and the teams' (for an event with stages, players who
came and went, or teams), and, while the last session seated is being played, what each player
needs. Each part is its own use case's (``replay.service.tournaments.standings``, ``stages``, ``needs``);
this module only says which parts a page has.
"""

from __future__ import annotations

from typing import Any

from projections.views import DocumentView
from replay.input.parsing import InputError
from replay.service.director.needs import needs_data
from replay.service.director.stages import event_report, results_data, standings_of_event
from replay.service.tournaments.standings import standings_data
from replay.store.application import HonbaApp
from replay.store.tournaments import get_tournament


def standings_page_data(app: HonbaApp, view: DocumentView, name: str, after: int | None = None) -> dict[str, Any]:
    """``{"standings": (``standings_data``), "results": (``results_data``) or null, "needs":
    (``needs_data``) or null}``. ``after``: the standings as they stood after that session (then
    neither results nor needs, which are of the event as it stands)."""
    # The page says the stages' sentence and the players' marks in its language: their words.
    standings = standings_data(event_report(app, view, name, after_session=after), words=True)
    if after is not None:
        return {"standings": standings, "results": None, "needs": None}
    tournament = get_tournament(app, name)
    staged = tournament.format is not None or tournament.teams or tournament.withdrawn or tournament.substitutes
    results = results_data(standings_of_event(app, view, name), words=True) if staged else None
    needs = _needs(app, view, name, standings) if tournament.sessions else None
    return {"standings": standings, "results": results, "needs": needs}


def _needs(app: HonbaApp, view: DocumentView, name: str, standings: dict[str, Any]) -> dict[str, Any] | None:
    """What each player needs, while the last session of the stage has a table that has not ended."""
    try:
        needs = needs_data(app, view, name)
    except InputError:
        return None  # not before the last session of a stage (not seated yet, its rules not known)
    playing = [m for m in standings["matches"] if m["session"] == needs["session"] and not m["finished"]]
    return needs if playing else None
