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
from domain.values import Penalty
from projections.standings import MatchSummary, rank, summarize, tie_break_of, totals
from projections.standings_view import DocCache, match_state
from projections.views import DocumentView
from replay.input.parsing import InputError
from replay.service.standings import tournament_report

TIE_BREAKS = ("placement", "net_score")


def what_if_data(
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
    in the what-if order."""
    if tie_break is not None and tie_break not in TIE_BREAKS:
        raise InputError(f"--tie-break is {' or '.join(TIE_BREAKS)}, not {tie_break!r}")
    if rules is None and not overrides and tie_break is None and not without_penalties:
        raise InputError("say what to change: --rules, --set, --tie-break or --without-penalties")
    report = tournament_report(view, name)
    cache = DocCache(view)
    tournament = cache.get("tournament", cache.get("tournament-name", name)["id"])  # type: ignore[index]
    assert tournament is not None
    aliases: dict[str, str] = tournament["aliases"]
    players = [p for p in tournament["players"] if p not in aliases]

    def player_of(log_name: str) -> str:
        return aliases.get(log_name, log_name)

    as_run = [s for s, _session in report.summaries]
    other: list[MatchSummary] = []
    for summary in as_run:
        doc = cache.get("match", str(match_id(summary.key)))
        if doc is None:
            continue
        base = rules or cache.rules(doc["rules"])
        changed = base.with_overrides(overrides, source="what-if") if overrides else base
        if without_penalties:
            doc = {**doc, "history": [[p, d] for p, d in doc["history"] if not isinstance(fact_from_data(d), Penalty)]}
        state, facts, _steps = match_state(doc, changed)
        other.append(summarize(summary.key, summary.players, changed, state, facts))
    before = rank(totals(as_run, player_of, players), tie_break_of(as_run))
    after = rank(totals(other, player_of, players), tie_break or tie_break_of(other))
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
