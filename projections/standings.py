"""Standings: fold the summaries of many matches into a ranked table per player.

A match summary is what a tournament needs of one match: who sat where, the final
scores and points, places and penalties, under the match's own rules and its
corrected history. Standings add them up per player (aliases resolved), rank the
players and break ties by a documented chain:

1. placement points (final points with uma and oka), higher first;
2. average placement, lower first;
3. number of first places, more first;
4. net score (final table scores less the start, summed), higher first;
5. name, alphabetically (equal on everything above shares the rank).

Players without a finished match yet come after everyone who has one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import attrs

from domain.progression import Fact, ranking
from domain.rules import Ruleset
from domain.values import Penalty, TableState


@attrs.frozen
class MatchSummary:
    """One match as standings see it: seat-ordered names, results and whether it has ended."""

    key: str
    players: tuple[str, ...]
    rules: str
    finished: bool
    start_score: int
    final_scores: tuple[int, ...]
    final_points: tuple[float, ...]
    places: tuple[int, ...]
    penalties: tuple[int, ...]
    hands: int


def summarize(
    key: str, players: Sequence[str], rules: Ruleset, state: TableState, facts: Iterable[Fact]
) -> MatchSummary:
    """The summary of a match from its table state and its corrected facts.

    Places follow the final scores; equal scores are placed by seat order, or, where the
    rules split the uma of tied players, share the best place they hold (two players tied
    for second are both second: the uma they share is the one of second and third).
    """
    order = ranking(state.scores)
    places = [0] * len(players)
    for place, seat in enumerate(order, start=1):
        places[seat] = place
    if rules.uma_ties == "split":
        for seat, score in enumerate(state.scores):
            places[seat] = 1 + sum(1 for other in state.scores if other > score)
    penalties = [0] * len(players)
    for fact in facts:
        if isinstance(fact, Penalty):
            penalties[fact.seat] += fact.amount
    return MatchSummary(
        key=key,
        players=tuple(players),
        rules=rules.name,
        finished=state.finished,
        start_score=rules.start_score,
        final_scores=state.scores,
        final_points=state.final_points,
        places=tuple(places),
        penalties=tuple(penalties),
        hands=state.hands_played,
    )


@attrs.frozen
class StandingRow:
    """One player's line of the standings."""

    rank: int
    player: str
    points: float
    net_score: int
    matches: int
    average_place: float
    place_counts: tuple[int, ...]
    penalties: int


@attrs.frozen
class Totals:
    """What one player has gathered so far (before ranking)."""

    points: float = 0.0
    net_score: int = 0
    matches: int = 0
    place_sum: int = 0
    place_counts: tuple[int, ...] = (0, 0, 0, 0)
    penalties: int = 0

    def add(self, summary: MatchSummary, seat: int) -> Totals:
        counts = list(self.place_counts)
        counts[summary.places[seat] - 1] += 1
        return Totals(
            points=round(self.points + summary.final_points[seat], 1),
            net_score=self.net_score + summary.final_scores[seat] - summary.start_score,
            matches=self.matches + 1,
            place_sum=self.place_sum + summary.places[seat],
            place_counts=tuple(counts),
            penalties=self.penalties + summary.penalties[seat],
        )


def totals(
    summaries: Iterable[MatchSummary], player_of: Callable[[str], str], players: Sequence[str] = ()
) -> dict[str, Totals]:
    """Every player's totals over the finished matches (unfinished ones do not count yet)."""
    result: dict[str, Totals] = {p: Totals() for p in players}
    for summary in summaries:
        if not summary.finished or not summary.final_points:
            continue
        for seat, name in enumerate(summary.players):
            player = player_of(name)
            result[player] = result.get(player, Totals()).add(summary, seat)
    return result


def _key(player: str, t: Totals) -> tuple[bool, float, float, int, int]:
    # A player with no finished match yet has no points to rank by: after everyone who has one.
    average = t.place_sum / t.matches if t.matches else float("inf")
    return (t.matches == 0, -t.points, average, -t.place_counts[0], -t.net_score)


def rank(by_player: dict[str, Totals]) -> list[StandingRow]:
    """The standings: players ranked by the tie-break chain of this module."""
    ordered = sorted(by_player.items(), key=lambda item: (*_key(*item), item[0]))
    rows: list[StandingRow] = []
    previous: tuple[bool, float, float, int, int] | None = None
    current_rank = 0
    for index, (player, t) in enumerate(ordered, start=1):
        key = _key(player, t)
        if key != previous:
            current_rank = index
        previous = key
        average = round(t.place_sum / t.matches, 2) if t.matches else 0.0
        rows.append(
            StandingRow(current_rank, player, t.points, t.net_score, t.matches, average, t.place_counts, t.penalties)
        )
    return rows


def standings(
    summaries: Iterable[MatchSummary], player_of: Callable[[str], str], players: Sequence[str] = ()
) -> list[StandingRow]:
    """Totals, then ranks."""
    return rank(totals(summaries, player_of, players))
