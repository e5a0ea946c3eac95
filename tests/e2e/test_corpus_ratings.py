"""Issue 27, done when: ratings over the corpus's 633-game Tenhou archive computed by both systems.

The archive (tenhou-wire-2018) is imported one tournament a day (its log ids begin with the
day). The expected ratings are computed here from the raw logs alone, not from honba: names from
each log's ``UN`` tag, final scores and points from its ``owari`` (FORMAT.md), places by score
with ties by seat from the first dealer (as Tenhou places them); OpenSkill by the package itself
over the games in the order they were imported; the EMA-style ranking from each day's order (the
standings' documented chain: points, average place, first places, net score) by the EMA's
published basics. Skipped when the corpus is absent.
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from honba_cli import invoke
from openskill.models import PlackettLuce

WIRE = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "tenhou-wire-2018"
pytestmark = pytest.mark.skipif(not WIRE.is_dir(), reason="../shared/corpus/tenhou-wire-2018 is not present")


class Game:
    def __init__(self, path: Path):
        text = path.read_text(encoding="utf-8")
        self.key = path.stem
        un = re.search(r"<UN ([^>]*)>", text)
        assert un is not None
        attributes = dict(re.findall(r'(\w+)="([^"]*)"', un.group(1)))
        self.names = [unquote(attributes[f"n{seat}"]) for seat in range(4)]
        values = re.findall(r'owari="([^"]*)"', text)[-1].split(",")
        self.scores = [int(values[2 * seat]) * 100 for seat in range(4)]
        self.tenths = [round(float(values[2 * seat + 1]) * 10) for seat in range(4)]
        order = sorted(range(4), key=lambda seat: (-self.scores[seat], seat))
        self.places = [order.index(seat) + 1 for seat in range(4)]


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[Game]]:
    files = sorted(WIRE.glob("*.mjlog"))
    assert len(files) == 633
    db = str(tmp_path_factory.mktemp("wire") / "honba.sqlite")
    by_day: dict[str, list[Path]] = defaultdict(list)
    for file in files:
        by_day[file.name[:8]].append(file)
    for day, paths in sorted(by_day.items()):
        result = invoke(["--db", db, "import", *map(str, paths), "--tournament", f"wire-{day}"])
        assert result.exit_code == 0, result.output
    return db, [Game(f) for f in files]


def ratings(db: str, *args: str) -> dict[str, dict[str, Any]]:
    result = invoke(["--db", db, "ratings", "--format", "json", *args])
    assert result.exit_code == 0, result.output
    return {p["player"]: p for p in json.loads(result.stdout)["players"]}


def test_openskill_over_the_archive_is_the_packages_own(archive: tuple[str, list[Game]]) -> None:
    db, games = archive
    model = PlackettLuce()
    current: dict[str, Any] = {}
    for game in games:
        teams = [[current.get(name) or model.rating(name=name)] for name in game.names]
        for name, (after,) in zip(game.names, model.rate(teams, ranks=game.places), strict=True):
            current[name] = after
    found = ratings(db, "--system", "openskill")
    assert set(found) == set(current)
    for name, rating in current.items():
        assert found[name]["mu"] == pytest.approx(rating.mu, abs=1e-5), name
        assert found[name]["sigma"] == pytest.approx(rating.sigma, abs=1e-5), name
    assert sum(p["count"] for p in found.values()) == 4 * 633


def test_the_ema_ranking_over_the_archive_is_the_published_basics(archive: tuple[str, list[Game]]) -> None:
    db, games = archive
    days: dict[str, list[Game]] = defaultdict(list)
    for game in games:
        days[game.key[:8]].append(game)
    results: dict[str, list[tuple[float, float]]] = defaultdict(list)
    for day_games in days.values():
        totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])  # tenths, matches, places, firsts, net
        for game in day_games:
            for seat, name in enumerate(game.names):
                line = totals[name]
                line[0] += game.tenths[seat]
                line[1] += 1
                line[2] += game.places[seat]
                line[3] += game.places[seat] == 1
                line[4] += game.scores[seat] - 25000

        def key(line: list[int]) -> tuple[float, ...]:
            return (-line[0], line[2] / line[1], -line[3], -line[4])

        ordered = sorted(totals.items(), key=lambda item: (key(item[1]), item[0]))
        n = len(ordered)
        # MERS weight of a one-day event: 1, + 0.5 over 40 players, 1 over 80; a month old: in full.
        weight = 1 + (1.0 if n > 80 else 0.5 if n > 40 else 0.0)
        for name, line in ordered:
            place = 1 + sum(1 for _other, o in ordered if key(o) < key(line))
            results[name].append((1000 * (n - place) / (n - 1), weight))

    def weighted(best: list[tuple[float, float]], least: int) -> float:
        padded = best + [(0.0, 1.0)] * max(0, least - len(best))
        return sum(r * w for r, w in padded) / sum(w for _r, w in padded)

    found = ratings(db, "--system", "ema", "--min-results", "1")
    assert set(found) == set(results)
    for name, own in results.items():
        best = sorted(own, key=lambda r: -r[0])
        counted = len(best) if len(best) <= 5 else 5 + math.ceil(0.8 * (len(best) - 5))
        expected = 0.5 * weighted(best[:counted], 5) + 0.5 * weighted(best[:4], 4)
        assert found[name]["rating"] == pytest.approx(expected, abs=2e-3), name
        assert found[name]["count"] == len(own)
