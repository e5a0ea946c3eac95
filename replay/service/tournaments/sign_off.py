"""The sign-off: the players confirm a match's final scores at the table (WRC rules 2015, §8.2).

Optional per event: a tournament whose format has it (``require_sign_off``, ``honba tournament
sign-off NAME``) counts a finished match as unconfirmed until each of its players confirmed the
final scores on the table's phone, or the table's referee did (``sign_scores``); a player who
disputes them says what, and the dispute is listed on the referee's desk (``disputes``), whose
confirmation settles it. What is said is recorded in the Tournament aggregate
(``Tournament.ScoresSigned``), which decides where each match stands (``Tournament.sign_off_of``).
"""

from __future__ import annotations

from typing import Any

from domain.errors import HonbaError, RuleViolation
from domain.said import Said
from domain.tournament import Signature, Tournament
from projections.standings import MatchSummary
from projections.standings_view import load_summary, read_doc, read_docs
from projections.views import DocumentView
from replay.service.tournaments.tournaments import change_tournament
from replay.store.application import HonbaApp
from replay.store.tournaments import get_tournament

__all__ = ["disputes", "require_sign_off", "sign_off_data", "sign_scores", "unconfirmed"]


def require_sign_off(app: HonbaApp, name: str, required: bool = True) -> None:
    """Have the tournament's players confirm each match's final scores (or stop having them)."""
    change_tournament(app, name, lambda tournament: tournament.require_sign_off(required))


def tournament_of(view: DocumentView, key: str) -> str | None:
    """The tournament the match counts for (the first by name, when several), or None."""
    attached = view.get_doc("attached", key) or {"tournaments": []}
    names: list[str] = attached["tournaments"]
    return names[0] if names else None


def _summary(view: DocumentView, key: str) -> MatchSummary | None:
    data = view.get_doc("summary", key)
    return load_summary(read_doc("summary", data)) if data is not None else None


def sign_scores(
    app: HonbaApp, view: DocumentView, key: str, player: str | None, *, agreed: bool, note: str = ""
) -> dict[str, Any]:
    """``player`` (a player of the match; None: the table's referee) confirms the finished match's
    final scores as they stand now, or disputes them saying what; where its sign-off then stands
    (``sign_off_data``). A correction that changes the scores later asks everyone again. The view
    is caught up by the caller (it says which tournament the match counts for and whether it ended)."""
    name = tournament_of(view, key)
    if name is None:
        raise HonbaError(Said("match {key} counts for no tournament: there is no sign-off to make", key=repr(key)))
    match = app.get_match(key)
    if not match.state.finished:
        raise RuleViolation(Said("the match has not ended: its final scores are confirmed once it has"))
    scores = match.state.scores
    change_tournament(app, name, lambda t: t.sign(key, match.players, player, agreed=agreed, scores=scores, note=note))
    data = sign_off_data(app, view, key)
    assert data is not None  # the tournament took the signature: it has a sign-off
    return data


def sign_off_data(app: HonbaApp, view: DocumentView, key: str) -> dict[str, Any] | None:
    """Where the sign-off of a match stands, as the table page shows it: ``{"tournament", "status"
    (``confirmed``, ``disputed``, ``unconfirmed``), "players": [{"player", "said" (``confirmed``,
    ``disputed`` or None), "note"}], "referee": ``confirmed``/None}``; None when the match counts
    for no tournament, or for one without a sign-off."""
    name = tournament_of(view, key)
    if name is None:
        return None
    tournament = get_tournament(app, name)
    summary = _summary(view, key)
    if summary is not None:
        players, scores = list(summary.players), list(summary.final_scores)
    else:
        match = app.get_match(key)
        players, scores = list(match.players), list(match.state.scores)
    status = tournament.sign_off_of(key, players, scores)
    if status is None:
        return None
    return _data(tournament, key, players, scores, status)


def _data(tournament: Tournament, key: str, players: list[str], scores: list[int], status: str) -> dict[str, Any]:
    said, referee = tournament.signatures_of(key, scores)

    def word(signature: Signature | None) -> str | None:
        if signature is None:
            return None
        return "confirmed" if signature.agreed else "disputed"

    return {
        "tournament": tournament.name,
        "match": key,
        "status": status,
        "players": [
            {"player": p, "said": word(said.get(p)), "note": said[p].note if p in said else ""} for p in players
        ],
        "referee": word(referee),
    }


def unconfirmed(app: HonbaApp, view: DocumentView, name: str) -> list[dict[str, Any]]:
    """The tournament's finished matches whose final scores are not confirmed yet, by key:
    ``[{"match", "status" (``unconfirmed`` or ``disputed``), "players"...}]`` (``sign_off_data``'s);
    empty for a tournament without a sign-off."""
    tournament = get_tournament(app, name)
    if not tournament.sign_off:
        return []
    found = []
    for key in sorted(tournament.matches):
        summary = _summary(view, key)
        if summary is None or not summary.finished:
            continue
        status = tournament.sign_off_of(key, summary.players, summary.final_scores)
        if status != "confirmed" and status is not None:
            found.append(_data(tournament, key, list(summary.players), list(summary.final_scores), status))
    return found


def disputes(app: HonbaApp, view: DocumentView) -> list[dict[str, Any]]:
    """Every disputed match of every tournament with a sign-off, for the referee's desk:
    ``sign_off_data``'s, each player's note saying what they dispute."""
    found = []
    for name, _ref in sorted(read_docs(view, "tournament-name")):
        found += [m for m in unconfirmed(app, view, name) if m["status"] == "disputed"]
    return found
