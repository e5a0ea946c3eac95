"""honba verify folds the table with domain.progression (no Match, no events, no hash chain),
with a worker pool when asked, and says the same, hand for hand, in the same order."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, instances_made
from honba_cli import invoke

from domain.match import Match
from replay.formats.detect import read_log
from replay.service.imports.batch import reading_pool, verify_paths
from replay.service.imports.verify import verify_game

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")

WIRE = CORPUS / "tenhou-wire-2018"


def test_verify_replays_a_real_game_without_building_a_match(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: Any, **__: Any) -> None:
        raise AssertionError("verify built a Match")

    monkeypatch.setattr(Match, "start", refuse)
    monkeypatch.setattr(Match, "record", refuse)
    path = sorted(WIRE.glob("*.mjlog"))[0]
    (game,) = read_log(path)
    report = verify_game(game)
    # Each INIT tag of the log opens one hand; Tenhou's own scores agree with honba's on every one.
    hands = len(re.findall(rb"<INIT ", path.read_bytes()))
    assert report.hands == hands > 0
    assert report.hands_agreeing == hands
    assert report.disagreements == ()


def test_verify_with_workers_reports_the_same_games_in_file_order(tmp_path: Path) -> None:
    files = sorted(WIRE.glob("*.mjlog"))[:24]
    for path in files:
        (tmp_path / path.name).symlink_to(path)
    (tmp_path / "zz-broken.mjlog").write_bytes(b"<mjloggm><GO type='169'/>")
    alone = verify_paths([tmp_path])
    with reading_pool(2, len(files) + 1) as pool:
        assert pool is not None
        pooled = verify_paths([tmp_path], pool=pool)
    assert pooled == alone
    assert [r.file for r in pooled.reports] == [str(tmp_path / p.name) for p in files]
    assert [u.file for u in pooled.unreadable] == [str(tmp_path / "zz-broken.mjlog")]


def test_verify_jobs_on_the_command_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HONBA_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    for path in sorted(WIRE.glob("*.mjlog"))[:20]:
        (tmp_path / path.name).symlink_to(path)
    refused = invoke(["verify", str(tmp_path), "--jobs", "0"])
    # A number out of the option's range is refused as it is read (domain.bounds; replay/cli/params.py).
    assert refused.exit_code == 2 and "Invalid value for '--jobs'" in refused.output
    one = invoke(["verify", str(tmp_path), "--json", "--jobs", "1"])
    two = invoke(["verify", str(tmp_path), "--json", "--jobs", "2"])
    assert one.exit_code == two.exit_code == 0, two.output
    assert json.loads(two.stdout) == json.loads(one.stdout)
    assert json.loads(one.stdout)["games"] == 20


def test_an_import_compares_with_the_steps_its_match_scored_without_scoring_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from domain.values import TableState
    from replay.service.imports.importing import match_from_log

    path = sorted(WIRE.glob("*.mjlog"))[1]
    (game,) = read_log(path)
    played = match_from_log(game).corrected_steps()
    # Seen by the tables made (``TableState``, an interpreted attrs class, whose ``__init__`` scoring a
    # hand reaches, compiled or not): a spy on verify's ``evolve`` is not reached from a compiled
    # ``verify_game``, which calls it directly.
    made = instances_made(monkeypatch, TableState)
    alone = verify_game(game)
    assert alone.hands == len(re.findall(rb"<INIT ", path.read_bytes())) > 0
    assert len(made) > alone.hands  # each hand scored: its tables made
    made.clear()
    assert verify_game(game, played) == alone
    assert len(made) == 1  # the opening table alone: no hand scored again
