"""A verify pauses the cycle collector for each file it reads and replays (issue 36, seventh round:
the collections every 700 containers found nothing to free, 1 % of an mjai verify's instructions),
and leaves it as it found it, after a file that reads and after one that does not."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS

from replay.service.imports import batch

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")

MJAI = CORPUS / "equim-chan-mjai-reviewer" / "convlog" / "tests" / "testdata" / "ryukyoku.json"


def test_a_file_is_read_and_replayed_with_the_collector_paused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    seen: list[tuple[str, bool]] = []
    read_log, verify_game = batch.read_log, batch.verify_game

    def reading(*args: Any, **kwargs: Any) -> Any:
        seen.append(("read", gc.isenabled()))
        return read_log(*args, **kwargs)

    def replaying(*args: Any, **kwargs: Any) -> Any:
        seen.append(("replay", gc.isenabled()))
        return verify_game(*args, **kwargs)

    monkeypatch.setattr(batch, "read_log", reading)
    monkeypatch.setattr(batch, "verify_game", replaying)
    assert gc.isenabled()
    done = batch.verify_file(MJAI)
    assert done.unreadable is None and done.reports
    assert seen[0] == ("read", False)
    assert ("replay", False) in seen and all(not enabled for _what, enabled in seen)
    assert gc.isenabled()
    # A file that cannot be read leaves the collector on all the same.
    bad = tmp_path / "bad.mjson"
    bad.write_text('{"type": "start_game"}\n{"type": \n', encoding="utf-8")
    assert batch.verify_file(bad).unreadable is not None
    assert gc.isenabled()
