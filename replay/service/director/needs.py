"""What each player needs (``projections.needs``), from the tournament and its stored matches."""

from __future__ import annotations

from typing import Any

from domain.match import match_id
from domain.rules import Ruleset
from domain.said import Said
from projections.needs import PlayerNeed, hand_needs, session_needs
from projections.staged import stage_standings
from projections.standings import Totals
from projections.standings_view import DocCache, match_state
from projections.views import DocumentView
from replay.input.parsing import InputError
from replay.service.director.stages import event_matches, event_state
from replay.store.application import HonbaApp
from replay.store.tournaments import get_tournament


def needs_data(app: HonbaApp, view: DocumentView, name: str, top: int | None = None) -> dict[str, Any]:
    """In the last session of the current stage (seated; the tables that have ended counted in the
    standings, their players' places settled), each player's needs to finish in the top N (the
    stage's ``advance``, or 1 for the last stage; ``top`` to ask for another N); for a match
    of that session in progress, the hands that would do it now.

    ``{"tournament", "stage", "session", "top", "players": [{"player", "rank", "points", "table",
    "places": [{"place", "status" (certain, possible, impossible, or tied at the cut),
    "beat_at_least", "note" (how a tie at the cut goes), "conditions": [{"rival", "rival_place",
    "relation", "points_margin", "score_margin"}]}]}], "hands": [{"match", "player", "discarder",
    "value"}]}``."""
    tournament = get_tournament(app, name)
    fmt = tournament.event_format()
    if not tournament.sessions:
        raise InputError(Said("no session of {name} is seated yet", name=repr(name)))
    stage = fmt.stage_of(max(tournament.sessions))
    last = fmt.sessions_of(stage)[-1] if tournament.format is not None else max(tournament.sessions)
    if last not in tournament.sessions:
        raise InputError(
            Said("seat session {session}, the last of the stage, first (honba tournament next)", session=last)
        )
    target = top or fmt.stages[stage - 1].advance or 1
    state = event_state(tournament)
    matches = event_matches(view, name)
    # The standings as they stand now: a table of the last session that has ended is counted, and
    # its players' places are settled (every table ended: the answer is the standings after it).
    standing = stage_standings(state, matches, stage)
    rows = [r.row for r in standing.rows]
    ended = {
        state.player_of(player): summary.places[seat]
        for summary, session in matches
        if session == last and summary.finished
        for seat, player in enumerate(summary.players)
    }
    # Where the top N go on, who withdrew and the substitutes are passed over (``advancing``).
    out = set(state.withdrawn) | set(state.substitutes) if fmt.stages[stage - 1].advance is not None else set()
    cache = DocCache(view)
    keys = sorted(k for k, (session, _t) in tournament.matches.items() if session == last)
    rules = _rules_of(cache, keys)
    needs = session_needs(rows, tournament.sessions[last], rules, target, ended=ended, out=out)
    hands = []
    now = {r.row.player: _totals(r.row) for r in standing.rows}
    for summary, session in matches:
        if session != last or summary.finished:
            continue
        doc = cache.get("match", str(match_id(summary.key)))
        if doc is None:
            continue
        own_rules = cache.rules(doc["rules"])
        table_state, _facts, _steps = match_state(doc, own_rules)
        for need in hand_needs(summary.key, summary.players, own_rules, table_state, now, target):
            hands.append(
                {"match": summary.key, "player": need.player, "discarder": need.discarder, "value": need.value}
            )
    return {
        "tournament": name,
        "stage": fmt.stages[stage - 1].name,
        "session": last,
        "top": target,
        "players": [_need_data(n) for n in needs],
        "hands": hands,
    }


def _rules_of(cache: DocCache, keys: list[str]) -> Ruleset:
    for key in keys:
        doc = cache.get("match", str(match_id(key)))
        if doc is not None:
            return cache.rules(doc["rules"])
    raise InputError(Said("no match of the last session is started: its rules are not known yet"))


def _totals(row: Any) -> Totals:
    return Totals(
        points=row.points,
        net_score=row.net_score,
        matches=row.matches,
        # No average place before a finished match: no places to add up either.
        place_sum=round((row.average_place or 0) * row.matches),
        place_counts=tuple(row.place_counts),
        penalties=row.penalties,
    )


def _need_data(need: PlayerNeed) -> dict[str, Any]:
    return {
        "player": need.player,
        "rank": need.rank,
        "points": need.points,
        "table": need.table,
        "places": [
            {
                "place": p.place,
                "status": p.status,
                "beat_at_least": p.beat_at_least,
                "note": p.note,
                "conditions": [
                    {
                        "rival": c.rival,
                        "rival_place": c.rival_place,
                        "relation": c.relation,
                        "points_margin": c.points_margin,
                        "score_margin": c.score_margin,
                    }
                    for c in p.conditions
                ],
            }
            for p in need.places
        ],
    }
