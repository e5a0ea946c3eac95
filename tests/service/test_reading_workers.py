"""What an import's processes spend besides reading and storing (issue 36, eleventh round).

The reading workers start with the Tenhou reader imported and the presets read (their fork server
loads them, once, before it forks them: each worker paid for them at its first file), and with what
they were forked with frozen out of the cycle collector's way; an import runs with the importing
process's heap frozen, given back to the collector when it ends, and with the collector paused while
a file is read and while a batch is stored (as ``honba verify`` pauses it for a file).
"""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS

import replay.service.imports.batch as batch
from domain.codec import VALUE_CLASSES
from domain.match import Match
from replay.service.imports.batch import import_paths
from replay.store.application import HonbaApp

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")

# Asked of a worker before it is given any file (``eval`` of a line: a function of the test module
# itself would have to be importable by the worker).
SCRIPT = """
from replay.service.imports.batch import reading_pool

with reading_pool(2, 100) as pool:
    assert pool is not None
    print(pool.submit(eval, "sorted(__import__('sys').modules)").result())
    print(pool.submit(eval, "__import__('gc').get_freeze_count()").result())
    print(pool.submit(eval, "__import__('domain.rules').rules._read_preset.cache_info().currsize").result())
    print(pool.submit(eval, "len(__import__('domain.codec').codec._ENCODERS)").result())
"""


@pytest.mark.timeout(120)  # a hang guard (workers that never start), not a speed test
def test_a_reading_worker_starts_with_the_tenhou_reader_loaded_and_its_heap_frozen() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    modules, frozen, presets, encoders = done.stdout.splitlines()
    assert "'replay.formats.tenhou_xml'" in modules and "'replay.formats.tenhou_xml_tiles'" in modules
    # A Tenhou archive never loads the other formats' readers (the mjai one loads a library).
    assert "'replay.formats.mjai'" not in modules
    assert int(frozen) > 10_000  # honba's modules, classes and functions, out of the collector's way
    assert int(presets) == len(list((Path(batch.__file__).parents[3] / "domain" / "presets").glob("*.toml")))
    # The encoders of the domain's values written and compiled once, by the fork server, not by each worker.
    assert int(encoders) == len(VALUE_CLASSES)


def test_an_import_freezes_the_heap_while_it_runs_and_pauses_the_collector_for_each_file(
    store_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seen where the import meets the interpreted aggregate and store: each match's events collected
    as it is prepared (``Match.collect_events``), each batch's rows inserted (``HonbaApp.insert_rows``).
    A spy on ``batch.prepare`` or ``batch.store_prepared`` is not reached from a compiled import,
    which calls them directly."""
    files = sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))[:3]
    seen: list[tuple[str, bool, int]] = []
    collect_events, insert_rows = Match.collect_events, HonbaApp.insert_rows

    def preparing(*args: Any, **kwargs: Any) -> Any:
        seen.append(("prepare", gc.isenabled(), gc.get_freeze_count()))
        return collect_events(*args, **kwargs)

    def storing(*args: Any, **kwargs: Any) -> Any:
        seen.append(("store", gc.isenabled(), gc.get_freeze_count()))
        return insert_rows(*args, **kwargs)

    monkeypatch.setattr(Match, "collect_events", preparing)
    monkeypatch.setattr(HonbaApp, "insert_rows", storing)
    store = HonbaApp.open(store_db)
    try:
        assert gc.get_freeze_count() == 0 and gc.isenabled()
        assert import_paths(store, files).stored == 3
        # Given back whole: nothing stays frozen, the collector runs again.
        assert gc.get_freeze_count() == 0 and gc.isenabled()
    finally:
        store.close()
    assert [step for step, _, _ in seen] == ["prepare", "prepare", "prepare", "store"]
    assert all(not enabled and frozen > 0 for _, enabled, frozen in seen), seen
