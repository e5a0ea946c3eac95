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

Where every counted match's rules rank by score (``standings_tie_break = "net_score"``: the
points families, Chinese Official table points), net score comes straight after points.

Players without a finished match yet come after everyone who has one, without a rank.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import attrs

from domain.progression import Fact, finish, ranking
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
    # The rules' first tie-break after points in the standings ("placement" or "net_score").
    tie_break: str = "placement"
    # A match in progress: the hand it is at (``S2-1``), and the points each seat would take if
    # it ended now (``domain.progression.finish``: leftover deposits to the top where the rules
    # say, uma and oka): provisional, never counted in the standings; empty once it has ended.
    hand: str = ""
    provisional_points: tuple[float, ...] = ()


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
    if rules.uma_ties == "split" or rules.final_points_by == "table_points":
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
        tie_break=rules.standings_tie_break,
        hand=state.hand_label,
        provisional_points=() if state.finished else finish(state, rules).points,
    )


@attrs.frozen
class StandingRow:
    """One player's line of the standings; a player without a finished match has no rank and
    no average place yet (None: shown as "—", never as a rank or a place 0)."""

    rank: int | None
    player: str
    points: float
    net_score: int
    matches: int
    average_place: float | None
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


def _key(t: Totals, tie_break: str) -> tuple[bool, float, float, float, float]:
    # A player with no finished match yet has no points to rank by: after everyone who has one.
    average = t.place_sum / t.matches if t.matches else float("inf")
    if tie_break == "net_score":
        return (t.matches == 0, -t.points, -t.net_score, average, -t.place_counts[0])
    return (t.matches == 0, -t.points, average, -t.place_counts[0], -t.net_score)


def tie_break_of(summaries: Iterable[MatchSummary]) -> str:
    """The tie-break chain of a tournament: net score first where every counted match's rules
    say so (the points families), the placement chain otherwise (riichi, or mixed rules)."""
    chains = {s.tie_break for s in summaries if s.finished and s.final_points}
    return "net_score" if chains == {"net_score"} else "placement"


def rank(by_player: dict[str, Totals], tie_break: str = "placement") -> list[StandingRow]:
    """The standings: players ranked by the tie-break chain of this module (``tie_break``:
    ``placement``, or ``net_score`` for net score straight after points)."""
    ordered = sorted(by_player.items(), key=lambda item: (*_key(item[1], tie_break), item[0]))
    rows: list[StandingRow] = []
    previous: tuple[bool, float, float, float, float] | None = None
    current_rank = 0
    for index, (player, t) in enumerate(ordered, start=1):
        key = _key(t, tie_break)
        if key != previous:
            current_rank = index
        previous = key
        played = t.matches > 0
        average = round(t.place_sum / t.matches, 2) if played else None
        rows.append(
            StandingRow(
                current_rank if played else None,
                player,
                t.points,
                t.net_score,
                t.matches,
                average,
                t.place_counts,
                t.penalties,
            )
        )
    return rows


def standings(
    summaries: Iterable[MatchSummary], player_of: Callable[[str], str], players: Sequence[str] = ()
) -> list[StandingRow]:
    """Totals, then ranks (by the tie-break chain the matches' rules ask for)."""
    counted = list(summaries)
    return rank(totals(counted, player_of, players), tie_break_of(counted))
