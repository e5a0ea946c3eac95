"""Ratings across events, from the stored matches: OpenSkill and an EMA-style ranking.

**OpenSkill** (the ``openskill`` package's Plackett-Luce model, Weng and Lin 2011, at its
defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300): every finished match, in the order the
store recorded them, updates its players' ratings by their places (players tied on a place
share it). A player's rating shown is the ordinal mu - 3 sigma.

**EMA-style** (MERS, mahjong-europe.org): in each event a player earns a base rank of
1000 x (n - p) / (n - 1), n the players ranked and p their place (1000 to the winner, 0 to the
last); the event weighs its MERS weight (days + 0.5 over 40 players, 1 over 80 + 0.5 for 6 to 9
countries, 1 for 10 or more + 1 when players had to qualify) times its age (in full for a year,
half in the second, not at all after); the ranking is half part A, the weighted average of the
best 5 results plus 80% of the others (rounded up), and half part B, the weighted average of
the best 4; with fewer results than 5 (part A) or 4 (part B), results of 0 of weight 1 fill in.
The EMA lists players with at least two results.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from datetime import date

import attrs

from projections.standings import MatchSummary

# OpenSkill's defaults (openskill.models.PlackettLuce).
MU = 25.0
SIGMA = 25.0 / 3


@attrs.frozen
class RatingPoint:
    """A player's rating after one match (OpenSkill) or one event (EMA)."""

    index: int
    label: str
    rating: float
    mu: float = 0.0
    sigma: float = 0.0


@attrs.frozen
class PlayerRating:
    """A player's rating now, how many matches or events it is made of, and its history."""

    rank: int
    player: str
    rating: float
    count: int
    history: tuple[RatingPoint, ...]
    mu: float = 0.0
    sigma: float = 0.0


def _ranked(found: Mapping[str, tuple[float, int, list[RatingPoint], float, float]]) -> tuple[PlayerRating, ...]:
    ordered = sorted(found.items(), key=lambda item: (-item[1][0], item[0]))
    rows = []
    for index, (player, (rating, count, history, mu, sigma)) in enumerate(ordered, start=1):
        shared = next(i for i, (_p, other) in enumerate(ordered, start=1) if other[0] == rating)
        rows.append(PlayerRating(shared if shared else index, player, rating, count, tuple(history), mu, sigma))
    return tuple(rows)


def openskill_ratings(matches: Iterable[MatchSummary]) -> tuple[PlayerRating, ...]:
    """OpenSkill (Plackett-Luce) ratings over finished matches, in the order given."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current: dict[str, tuple[float, float]] = {}
    history: dict[str, list[RatingPoint]] = {}
    counts: dict[str, int] = {}
    for index, summary in enumerate((m for m in matches if m.finished and m.final_points), start=1):
        teams = [[model.rating(*current.get(name, (MU, SIGMA)), name=name)] for name in summary.players]
        rated = model.rate(teams, ranks=[float(place) for place in summary.places])
        for name, (after,) in zip(summary.players, rated, strict=True):
            current[name] = (after.mu, after.sigma)
            counts[name] = counts.get(name, 0) + 1
            history.setdefault(name, []).append(
                RatingPoint(index, summary.key, after.mu - 3 * after.sigma, after.mu, after.sigma)
            )
    return _ranked(
        {
            name: (round(mu - 3 * sigma, 3), counts[name], history[name], mu, sigma)
            for name, (mu, sigma) in current.items()
        }
    )


@attrs.frozen
class EventResult:
    """One event as the EMA-style ranking sees it: its order (rank by player), its weight facts."""

    name: str
    ended_on: date
    ranks: Mapping[str, int]
    days: int = 1
    countries: int = 0
    qualification: bool = False


def base_rank(place: int, players: int) -> float:
    """The EMA's base rank: 1000 x (n - p) / (n - 1); 1000 alone in an event of one."""
    return 1000.0 if players < 2 else 1000.0 * (players - place) / (players - 1)


def mers_weight(event: EventResult) -> float:
    """The MERS weight of an event (mahjong-europe.org, Basics for ranking system)."""
    players = len(event.ranks)
    weight = float(min(max(event.days, 1), 3))
    weight += 1.0 if players > 80 else 0.5 if players > 40 else 0.0
    weight += 1.0 if event.countries >= 10 else 0.5 if event.countries > 5 else 0.0
    return weight + (1.0 if event.qualification else 0.0)


def age_factor(ended_on: date, as_of: date) -> float:
    """How much an event still counts: in full for a year, half in the second, not at all after."""
    days = (as_of - ended_on).days
    return 1.0 if days <= 365 else 0.5 if days <= 730 else 0.0


def _weighted(results: Sequence[tuple[float, float]], least: int) -> float:
    """The weighted average of (base rank, weight), results of 0 of weight 1 filling up to ``least``."""
    padded = [*results, *[(0.0, 1.0)] * max(0, least - len(results))]
    total = sum(weight for _rank, weight in padded)
    return sum(rank * weight for rank, weight in padded) / total if total else 0.0


def ema_ratings(
    events: Iterable[EventResult], as_of: date | None = None, *, min_results: int = 2
) -> tuple[PlayerRating, ...]:
    """The EMA-style ranking over events (the module's docstring), as of a day (default: the last
    event's); players with fewer than ``min_results`` counting results are left out."""
    ordered = sorted(events, key=lambda e: (e.ended_on, e.name))
    if not ordered:
        return ()
    day = as_of or ordered[-1].ended_on
    results: dict[str, list[tuple[float, float]]] = {}
    history: dict[str, list[RatingPoint]] = {}
    for index, event in enumerate(ordered, start=1):
        weight = mers_weight(event) * age_factor(event.ended_on, day)
        if weight <= 0:
            continue
        for player, place in event.ranks.items():
            results.setdefault(player, []).append((base_rank(place, len(event.ranks)), weight))
            history.setdefault(player, []).append(RatingPoint(index, event.name, round(_ranking(results[player]), 3)))
    found = {
        player: (round(_ranking(own), 3), len(own), history[player], 0.0, 0.0)
        for player, own in results.items()
        if len(own) >= min_results
    }
    return _ranked(found)


def _ranking(results: Sequence[tuple[float, float]]) -> float:
    best = sorted(results, key=lambda r: -r[0])
    counted = len(best) if len(best) <= 5 else 5 + math.ceil(0.8 * (len(best) - 5))
    return 0.5 * _weighted(best[:counted], 5) + 0.5 * _weighted(best[:4], 4)
