"""Tables never hide a number behind "…": at any width, a cell too wide folds onto another line.

Run as the command runs (a pipe, ``COLUMNS`` set), on a match with long names and five-digit scores.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

COMMAND = [sys.executable, "-c", "from replay.cli import main; main()"]


def honba(db: Path, columns: int, *args: str) -> str:
    env = {**os.environ, "HONBA_DB": str(db), "COLUMNS": str(columns)}
    env.pop("PERSISTENCE_MODULE", None)
    done = subprocess.run([*COMMAND, *args], env=env, capture_output=True, text=True, timeout=120, check=True)
    return done.stdout


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("narrow") / "narrow.sqlite"
    players = "Annabelle-Longname,Benedict-Longname,Chotaro-Longname,Daisuke-Longname"
    honba(path, 200, "start", "narrow", "--players", players)
    honba(path, 200, "win", "narrow", "1:mangan", "--from", "0", "--riichi", "1")
    honba(path, 200, "penalty", "narrow", "2", "--amount", "12000")
    return path


@pytest.mark.parametrize("columns", [30, 40, 60, 80])
@pytest.mark.parametrize("command", [["status", "narrow"], ["log", "narrow"], ["list"]])
def test_no_table_cuts_a_number_short_at_a_narrow_width(db: Path, columns: int, command: list[str]) -> None:
    shown = honba(db, columns, *command)
    assert "…" not in shown
    # The tables keep to the width (a digest, one word, is the only text allowed past it).
    table_lines = [line for line in shown.splitlines() if line[:1] in "┏┃┡│└"]
    assert all(len(line) <= columns for line in table_lines)


def test_at_a_usual_width_the_scores_stand_whole(db: Path) -> None:
    scores = json.loads(honba(db, 100, "status", "narrow", "--json"))["scores"].values()
    for shown in (honba(db, 100, "log", "narrow"), honba(db, 60, "status", "narrow")):
        assert all(f"{score:,}" in shown for score in scores)
