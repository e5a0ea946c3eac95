"""Several machines importing shares of one archive into one store (issue 36), as processes here:
``honba import --share K/N`` run at the same moment by N processes on one PostgreSQL (and one SQLite
file) stores every game exactly once, as one import of the whole does; each share run again stores
nothing. The split itself, and a share resumed, are checked at the service
(``tests/service/test_import_shares.py``). The check and the shares run again after the processes run in
this process: one at a time, they are the store's checks, not the processes'."""

from __future__ import annotations

import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from conftest import CORPUS
from test_bulk_import import COMMAND, Rows, env, honba_here, stored_rows, whole_matches_only

from replay.service.imports.batch import import_paths
from replay.store.application import HonbaApp
from replay.store.checkpoint import CHECKPOINTS_ID

__all__ = ["env"]  # the fixture, shared with the bulk import's tests

GAMES = 45
SHARES = 3


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    files = sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))[:GAMES]
    if len(files) < GAMES:
        pytest.skip("the shared corpus is not here")
    folder = tmp_path_factory.mktemp("archive")
    for file in files:
        shutil.copyfile(file, folder / file.name)
    return folder


@pytest.fixture(scope="module")
def clean_rows(archive: Path) -> Rows:
    app = HonbaApp.open(":memory:")
    try:
        assert import_paths(app, [archive]).stored == GAMES
        found: Rows = Counter()
        for row in app.recorder.select_notifications(start=1, limit=100_000):
            if row.originator_id != CHECKPOINTS_ID:
                found[(row.originator_id.hex, row.originator_version, row.topic)] += 1
    finally:
        app.close()
    return found


# A hang guard, not a speed test.
@pytest.mark.timeout(300)
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_shares_imported_at_once_by_several_processes_store_every_game_once(
    kind: str, archive: Path, clean_rows: Rows, env: dict[str, str], tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    db = str(tmp_path / "shares.sqlite") if kind == "sqlite" else str(request.getfixturevalue("postgres_url"))
    # The store's tables made once before the shares start, as a cluster's operator would.
    HonbaApp.open(db).close()
    processes = [
        subprocess.Popen(
            [*COMMAND, "--db", db, "import", str(archive), "--share", f"{k}/{SHARES}", "--jobs", "1", "--batch", "4"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for k in range(1, SHARES + 1)
    ]
    outputs = [process.communicate(timeout=240) for process in processes]
    stored = 0
    for process, (stdout, stderr) in zip(processes, outputs, strict=True):
        assert process.returncode == 0, stderr
        summary = stdout.strip().splitlines()[-1]
        assert summary.endswith("already present, 0 unsupported, 0 unreadable, 0 conflicts"), stdout
        assert summary.split(" stored")[0].isdigit()
        stored += int(summary.split(" stored")[0])
    assert stored == GAMES
    assert whole_matches_only(stored_rows(db), clean_rows) == GAMES
    assert stored_rows(db) == clean_rows
    checked = honba_here(db, "check", env=env)
    assert checked.exit_code == 0, checked.stdout
    # Each share run again: nothing stored, its games found present.
    again = [honba_here(db, "import", str(archive), "--share", f"{k}/{SHARES}", env=env) for k in range(1, SHARES + 1)]
    assert all(run.exit_code == 0 and "\n0 stored, " in run.stdout for run in again), [r.stdout for r in again]
    assert stored_rows(db) == clean_rows
