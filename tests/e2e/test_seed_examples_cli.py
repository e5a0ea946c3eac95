"""The seeds' examples through the command line: what it adds to the rules the unit tests check
(tests/unit/test_seed_examples.py, test_seed_options.py): an example record file imported and its
ledger shown, a hand penalty typed on the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from honba_cli import Honba, ok
from test_seed_examples import EXAMPLES, SEED_LINES
from test_seed_options import PLAYERS


@pytest.mark.parametrize("name", sorted(SEED_LINES))
def test_example_record_file_shows_the_seeds_numbers(name: str, tmp_path: Path) -> None:
    db = tmp_path / "examples.sqlite"
    ok(db, "import", str(EXAMPLES / name))
    key = json.loads((EXAMPLES / name).read_text(encoding="utf-8").splitlines()[0])["key"]
    payments = [
        (p["payer"], p["payee"], p["amount"], p["reason"])
        for hand in json.loads(ok(db, "log", key, "--json"))["hands"]
        for p in hand["payments"]
    ]
    for line in SEED_LINES[name]:
        assert line in payments


def test_a_hand_penalty_from_the_command_line(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "honba.sqlite", "m")
    honba.ok("start", "m", "--players", ",".join(PLAYERS), "--rules", "japanese-transitional")
    honba.ok("win", "m", "East:2000points", "--from", "West", "--penalty", "South:100")
    assert honba.scores() == {"East": 17100, "South": 7900, "West": -1000, "North": 8000}
