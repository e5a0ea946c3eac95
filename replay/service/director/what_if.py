"""A tournament's standings under other rules, side by side with the standings as run.

Every counted match is folded again from its corrected history (``projections.standings_view.
match_state``, the domain's folds) under the other rules: another preset or rule file, or the
match's own rules with values changed (uma, oka, ties, penalties after uma), optionally without
its penalties; the standings are then ranked by the tie-break chain asked for. One match's
what-if is ``honba audit --rules``; this is the whole event's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.codec import fact_from_data
from domain.match import match_id
from domain.rules import Ruleset
from domain.said import Said, one_of
from domain.values import Penalty
from projections.staged import replayed_event
from projections.standings import MatchSummary, summarize
from projections.standings_view import DocCache, match_state
from projections.views import DocumentView
from replay.input.parsing import InputError
from replay.service.director.stages import event_report, event_state
from replay.store.application import HonbaApp
from replay.store.tournaments import get_tournament

TIE_BREAKS = ("placement", "net_score")


def what_if_data(
    app: HonbaApp,
    view: DocumentView,
    name: str,
    *,
    rules: Ruleset | None = None,
    overrides: Mapping[str, Any] | None = None,
    tie_break: str | None = None,
    without_penalties: bool = False,
) -> dict[str, Any]:
    """The standings as run and under the other rules: ``{"tournament", "changes": {what was asked},
    "rows": [{"player", "rank", "points", "what_if_rank", "what_if_points", "difference"}]}``,
    in the what-if order. As run: the event's standings (``replay.service.director.stages.event_report``);
    what if: the whole format replayed on the matches scored again (``projections.staged.
    replayed_event``: each cut made again on the standings under the other rules)."""
    if tie_break is not None and tie_break not in TIE_BREAKS:
        raise InputError(
            Said("--tie-break is {choices}, not {value}", choices=one_of(TIE_BREAKS), value=repr(tie_break))
        )
    if rules is None and not overrides and tie_break is None and not without_penalties:
        raise InputError(Said("say what to change: --rules, --set, --tie-break or --without-penalties"))
    report = event_report(app, view, name)
    cache = DocCache(view)
    other: list[tuple[MatchSummary, int]] = []
    for summary, session in report.summaries:
        doc = cache.get("match", str(match_id(summary.key)))
        if doc is None:
            continue
        base = rules or cache.rules(doc["rules"])
        changed = base.with_overrides(overrides, source="what-if") if overrides else base
        if without_penalties:
            doc = {**doc, "history": [[p, d] for p, d in doc["history"] if not isinstance(fact_from_data(d), Penalty)]}
        state, facts, _steps = match_state(doc, changed)
        other.append((summarize(summary.key, summary.players, changed, state, facts), session))
    before = report.rows
    after = [o.line for o in replayed_event(event_state(get_tournament(app, name)), other, tie_break).overall]
    was = {row.player: row for row in before}
    return {
        "tournament": name,
        "changes": {
            "rules": None if rules is None else rules.name,
            "set": dict(overrides or {}),
            "tie_break": tie_break,
            "without_penalties": without_penalties,
        },
        "rows": [
            {
                "player": row.player,
                "rank": was[row.player].rank,
                "points": was[row.player].points,
                "what_if_rank": row.rank,
                "what_if_points": row.points,
                "difference": round(row.points - was[row.player].points, 1),
            }
            for row in after
        ],
    }
