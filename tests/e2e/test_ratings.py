"""Ratings across events (issue 27): OpenSkill's update checked by hand and against the package,
a correction to a match moves the ratings, and the EMA-style ranking against hand calculations
from the EMA's published basics (mahjong-europe.org: base rank 1000 x (n - p) / (n - 1), the MERS
weight table)."""

from __future__ import annotations

import json
import math
from datetime import date
from pathlib import Path

import pytest
from honba_cli import Honba
from openskill.models import PlackettLuce

from projections.ratings import EventResult, base_rank, ema_ratings, mers_weight


def plackett_luce(
    mus: list[float], sigmas: list[float], ranks: list[int], beta: float = 25 / 6, tau: float = 25 / 300
) -> list[tuple[float, float]]:
    """One Plackett-Luce update of single-player teams as Weng and Lin (2011, algorithm 4) give
    it, with OpenSkill's defaults (beta 25/6, tau 25/300 added to each variance first, kappa
    0.0001, gamma = sigma / c), written out here by hand."""
    variances = [s * s + tau * tau for s in sigmas]
    c = math.sqrt(sum(v + beta * beta for v in variances))
    strength = [math.exp(mu / c) for mu in mus]
    n = len(mus)
    below = [sum(strength[s] for s in range(n) if ranks[s] >= ranks[q]) for q in range(n)]
    tied = [sum(1 for s in range(n) if ranks[s] == ranks[q]) for q in range(n)]
    result = []
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            if ranks[q] <= ranks[i]:
                share = strength[i] / below[q]
                delta += share * (1 - share) / tied[q]
                omega += ((1 - share) if q == i else -share) / tied[q]
        gamma = math.sqrt(variances[i]) / c
        result.append(
            (
                mus[i] + variances[i] / c * omega,
                math.sqrt(variances[i] * max(1 - variances[i] / c**2 * gamma * delta, 0.0001)),
            )
        )
    return result


def ratings(honba: Honba, *args: str) -> dict[str, dict[str, float]]:
    data = json.loads(honba.ok("ratings", "--format", "json", *args))
    return {p["player"]: p for p in data["players"]}


@pytest.fixture
def club(tmp_path: Path) -> Honba:
    """Two club nights under WRC rules. Night 1: Ben rons Cho for a mangan: Ben 1st, Ann and Dai
    tied 2nd (30,000 each, ties split), Cho 4th. Night 2: Dai rons Ann for a mangan: Dai 1st, Ben
    and Cho tied 2nd, Ann 4th."""
    honba = Honba(tmp_path / "club.sqlite")
    for key, (winner, loser) in (("night-1", ("Ben", "Cho")), ("night-2", ("Dai", "Ann"))):
        honba.ok("start", key, "--players", "Ann,Ben,Cho,Dai", "--rules", "wrc")
        honba.ok("win", key, f"{winner}:mangan", "--from", loser)
        honba.ok("end", key, "--reason", "time limit")
    return honba


def test_an_openskill_update_is_weng_and_lins_plackett_luce_and_the_packages(club: Honba) -> None:
    # After night 1 alone (everyone from mu 25, sigma 25/3): places Ann 2, Ben 1, Cho 4, Dai 2.
    first = plackett_luce([25.0] * 4, [25 / 3] * 4, [2, 1, 4, 2])
    found = ratings(club, "--player", "Ben")
    assert found["Ben"]["count"] == 2
    history = json.loads(club.ok("ratings", "--format", "json"))["players"]
    after_one = {p["player"]: p["history"][0]["rating"] for p in history}
    for name, (mu, sigma) in zip(("Ann", "Ben", "Cho", "Dai"), first, strict=True):
        assert after_one[name] == pytest.approx(mu - 3 * sigma, abs=1e-3)
    # After night 2 (places Ann 4, Ben 2, Cho 2, Dai 1): the package itself, on the same order.
    second = plackett_luce([m for m, _ in first], [s for _, s in first], [4, 2, 2, 1])
    model = PlackettLuce()
    teams = [[model.rating(mu, sigma)] for mu, sigma in first]
    package = [(t[0].mu, t[0].sigma) for t in model.rate(teams, ranks=[4, 2, 2, 1])]
    now = ratings(club)
    for name, (mu, sigma), (pmu, psigma) in zip(("Ann", "Ben", "Cho", "Dai"), second, package, strict=True):
        assert now[name]["mu"] == pytest.approx(mu, abs=1e-6) == pytest.approx(pmu, abs=1e-6)
        assert now[name]["sigma"] == pytest.approx(sigma, abs=1e-6) == pytest.approx(psigma, abs=1e-6)


def test_a_correction_to_a_match_moves_the_ratings(club: Honba) -> None:
    before = ratings(club)
    # Night 2's win was Dai's off Ben, not off Ann: now Dai 1st, Ann and Cho tied 2nd, Ben 4th.
    club.ok("amend", "night-2", "2", "win", "Dai:mangan", "--from", "Ben", "--by", "referee", "--reason", "off Ben")
    after = ratings(club)
    assert after["Ben"]["rating"] < before["Ben"]["rating"] and after["Ann"]["rating"] > before["Ann"]["rating"]
    first = plackett_luce([25.0] * 4, [25 / 3] * 4, [2, 1, 4, 2])
    second = plackett_luce([m for m, _ in first], [s for _, s in first], [2, 4, 2, 1])
    for name, (mu, _sigma) in zip(("Ann", "Ben", "Cho", "Dai"), second, strict=True):
        assert after[name]["mu"] == pytest.approx(mu, abs=1e-6)


def test_the_ema_base_rank_and_mers_weight_are_the_published_ones() -> None:
    # mahjong-europe.org: number 75 of 100 gets 252 (252.5 written without its fraction); the winner
    # 1000, the last 0.
    assert math.floor(base_rank(75, 100)) == 252 and base_rank(1, 100) == 1000 and base_rank(100, 100) == 0
    # 3 days, 90 players, 12 countries, qualification: 3 + 1 + 1 + 1.
    assert mers_weight(EventResult("x", date(2026, 1, 1), {f"p{i}": i for i in range(90)}, 3, 12, True)) == 6
    # 2 days, 45 players, 7 countries: 2 + 0.5 + 0.5.
    assert mers_weight(EventResult("y", date(2026, 1, 1), {f"p{i}": i for i in range(45)}, 2, 7)) == 3


def test_the_ema_ranking_weighs_the_best_results_by_weight_and_age() -> None:
    # E1 (2026-06-01, two days, weight 2): Ann 1, Ben 2, Cho 3, Dai 4, Eve 5 of 5.
    # E2 (2025-03-01: 457 days before, half weight: 0.5): Ben 1, Ann 2, Cho 3 of 3.
    # E3 (2024-01-01, over two years before): counts no more.
    events = [
        EventResult("E1", date(2026, 6, 1), {"Ann": 1, "Ben": 2, "Cho": 3, "Dai": 4, "Eve": 5}, days=2),
        EventResult("E2", date(2025, 3, 1), {"Ben": 1, "Ann": 2, "Cho": 3}),
        EventResult("E3", date(2024, 1, 1), {"Dai": 1, "Eve": 2, "Ann": 3, "Cho": 4}),
    ]
    found = {r.player: r.rating for r in ema_ratings(events)}
    # Ann: 1000 (weight 2), 500 (0.5). Part A: (2000 + 250) / (2.5 + 3 missing results of weight 1);
    # part B, the best 4: 2250 / (2.5 + 2). Half each.
    assert found["Ann"] == pytest.approx(0.5 * 2250 / 5.5 + 0.5 * 2250 / 4.5, abs=1e-3)
    # Ben: 1000 (0.5) and 750 (2).
    assert found["Ben"] == pytest.approx(0.5 * 2000 / 5.5 + 0.5 * 2000 / 4.5, abs=1e-3)
    # Cho: 500 (2) and 0 (0.5).
    assert found["Cho"] == pytest.approx(0.5 * 1000 / 5.5 + 0.5 * 1000 / 4.5, abs=1e-3)
    # Dai and Eve have one counting result: the EMA lists a player from two.
    assert set(found) == {"Ann", "Ben", "Cho"}
    dai = {r.player: r.rating for r in ema_ratings(events, min_results=1)}["Dai"]
    assert dai == pytest.approx(0.5 * 500 / 6 + 0.5 * 500 / 5, abs=1e-3)


def test_beyond_five_results_the_ema_counts_the_best_five_and_80_percent_of_the_others() -> None:
    # Ten events of 10 players, Ann placing 1st to 10th: base ranks 1000 x (10 - p) / 9, weight 1.
    # Part A counts 5 + ceil(0.8 x 5) = 9 best: (1000 / 9) x (9 + 8 + ... + 1) / 9 = 5000 / 9;
    # part B the best 4: (1000 / 9) x (9 + 8 + 7 + 6) / 4 = 7500 / 9. (All ten would give 500 in part A.)
    events = [
        EventResult(
            f"E{place}", date(2026, 1, place), {"Ann": place, **{f"x{i}": i for i in range(1, 11) if i != place}}
        )
        for place in range(1, 11)
    ]
    found = {r.player: r.rating for r in ema_ratings(events)}
    assert found["Ann"] == pytest.approx(0.5 * 5000 / 9 + 0.5 * 7500 / 9, abs=1e-3)
