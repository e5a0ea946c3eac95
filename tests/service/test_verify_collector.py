"""A verify pauses the cycle collector for each file it reads and replays (issue 36, seventh round:
the collections every 700 containers found nothing to free, 1 % of an mjai verify's instructions),
and leaves it as it found it, after a file that reads and after one that does not."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS

import replay.formats.tenhou_json as tenhou_json
from replay.service.imports import batch

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")

MJAI = CORPUS / "equim-chan-mjai-reviewer" / "convlog" / "tests" / "testdata" / "ryukyoku.json"


def test_a_file_is_read_and_replayed_with_the_collector_paused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Seen by the collector itself: with a collection due at every container made (``gc.set_threshold(1)``),
    none starts from the moment the format's reader is given the file (``tenhou_json.read``: the file
    is tenhou.net/6 JSON; the registry's reader is looked up by name for each file) until its games
    are replayed and verified, but as the collector comes back. A spy on ``batch.read_log`` or
    ``verify_game`` is not reached from a compiled ``verify_file``, which calls them directly."""
    phase = ["before"]
    seen: list[bool] = []
    read = tenhou_json.read

    def reading(*args: Any, **kwargs: Any) -> Any:
        seen.append(gc.isenabled())
        phase[0] = "read and replayed"
        return read(*args, **kwargs)

    def collecting(started: str, _info: dict[str, int]) -> None:
        if started == "start":
            collections.append(phase[0])

    collections: list[str] = []
    monkeypatch.setattr(tenhou_json, "read", reading)
    assert gc.isenabled()
    threshold = gc.get_threshold()
    gc.callbacks.append(collecting)
    gc.set_threshold(1)
    try:
        done = batch.verify_file(MJAI)
    finally:
        gc.set_threshold(*threshold)
        gc.callbacks.remove(collecting)
    assert done.unreadable is None and done.reports
    assert seen == [False]
    # Collections start at this threshold (before the read); two as the collector comes back, before
    # ``verify_file`` returns. Unpaused, the read and the replay started 142.
    assert "before" in collections and collections.count("read and replayed") <= 2, collections
    assert gc.isenabled()
    # A file that cannot be read leaves the collector on all the same.
    bad = tmp_path / "bad.mjson"
    bad.write_text('{"type": "start_game"}\n{"type": \n', encoding="utf-8")
    assert batch.verify_file(bad).unreadable is not None
    assert gc.isenabled()
