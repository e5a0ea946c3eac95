"""An import's warnings take the steps its ``Match`` scored (``verify_game(game, played)``): the same
report as ``honba verify`` scoring each hand again, and each hand taken from those steps, not scored
twice (issue 36: a reading worker's job)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CORPUS, instances_made

import replay.service.imports.verify as verify
from domain.values import TableState
from replay.formats.detect import read_games
from replay.formats.source import read_source
from replay.service.imports.importing import match_from_log

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")

# Tenhou's own logs (every hand agrees), and the two converted excerpts the corpus README says carry
# a flaw a verifier reports (a score change that leaves out a deposit, a riichi stick that reaches nobody).
FLAWED = (
    "hidacow-mjai-reviewer3p/convlog/tests/testdata/kokushi_peinuki.json",
    "equim-chan-mjai-reviewer/convlog/tests/testdata/confusing_nakis_1.json",
)


def _files() -> list[Path]:
    return [*sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))[:12], *(CORPUS / name for name in FLAWED)]


def test_the_played_steps_give_the_report_of_hands_scored_again(monkeypatch: pytest.MonkeyPatch) -> None:
    games = [game for path in _files() for game in read_games(read_source(path), file=str(path), tiles=True)]
    played = [match_from_log(game).corrected_steps() for game in games]
    again = [verify.verify_game(game) for game in games]
    assert sum(len(report.disagreements) for report in again) >= 2  # the flawed excerpts' disagreements
    assert sum(report.hands for report in again) > 100

    # With the Match's steps no hand is scored again: each is taken from its step. Seen by the tables
    # made (``TableState``, an interpreted attrs class, whose ``__init__`` every scoring of a hand
    # reaches, compiled or not): for Tenhou's logs one per game, its opening; for an excerpt the
    # verifier takes off the Match's path at its flaw, fewer than scoring its hands makes. A spy on
    # ``verify.evolve`` is not reached from a compiled ``verify_game``, which calls it directly.
    made = instances_made(monkeypatch, TableState)
    taken = []
    for game, steps in zip(games, played, strict=True):
        made.clear()
        taken.append(verify.verify_game(game, steps))
        from_steps = len(made)
        made.clear()
        verify.verify_game(game)
        assert from_steps < len(made), game.file  # scored: tables made hand by hand
        assert from_steps == 1 or game.file.endswith(FLAWED), game.file
    assert taken == again
