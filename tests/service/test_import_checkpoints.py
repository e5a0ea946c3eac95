"""A long import takes a checkpoint every ``CHECKPOINT_EVERY`` matches it stores (issue 36): one
checkpoint at the command's end would hold a leaf for every game of the archive, and the importing
process's memory would grow with the archive while it is taken."""

from __future__ import annotations

from pathlib import Path
from uuid import UUID

import pytest
from conftest import CORPUS

from replay.service.imports import batch
from replay.service.imports.batch import import_paths
from replay.store.application import HonbaApp
from replay.store.checkpoint import CHECKPOINTS_ID, read_checkpoints
from replay.store.seal import seal_id

WIRE = sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))
pytestmark = pytest.mark.skipif(not WIRE, reason="../shared/corpus is not present")


def test_an_import_takes_a_checkpoint_every_so_many_matches_and_the_last_covers_the_rest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch, "CHECKPOINT_EVERY", 4)
    folder = tmp_path / "logs"
    folder.mkdir()
    for source in WIRE[:10]:
        (folder / source.name).write_bytes(source.read_bytes())
    app = HonbaApp.open(str(tmp_path / "store.sqlite"))
    try:
        run = import_paths(app, [folder], batch=2)
        assert run.stored == 10
        # Taken during the import, after 4 and 8 matches: each covers only what was stored since the last.
        during = [app.mapper.to_domain_event(row) for row in app.recorder.select_events(CHECKPOINTS_ID)]
        assert len(during) == 2
        assert [sum(1 for leaf in event.leaves if is_match(app, UUID(leaf[0]))) for event in during] == [4, 4]
        # The command's own checkpoint at its end covers the last two; every checkpoint checks clean.
        assert app.checkpoint().taken
        checked = read_checkpoints(app)
        assert checked.check.problems == () and checked.check.events == 3
        assert sum(1 for stream in checked.streams if is_match(app, stream)) == 10
    finally:
        app.close()


def is_match(app: HonbaApp, stream: UUID) -> bool:
    """Whether a leaf's stream is a match (it has a seal), not a game identity or a file's record."""
    return bool(app.recorder.select_events(seal_id(stream), limit=1))
