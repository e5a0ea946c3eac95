"""An import beside live tables (issue 26): it shares no row with their saves, so it never fails
because tables are recording; a batch that meets a match already there stores that match on its
own and the rest of the batch again in one transaction; no game is refused for contention.

On main, every save also linked one store-wide chain: an import's batch and a table's hand
raced for the chain's next link, the loser slept and tried again, and after eight tries a game
was refused ("changed in the store while it was imported; try again").
"""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, TENHOU, hv, ron, won
from eventsourcing.persistence import StoredEvent

from domain.match import Match
from replay.service.audit.checks import check_targets
from replay.service.imports.batch import import_paths
from replay.service.imports.storing import prepare, store_prepared
from replay.service.recording import recording
from replay.store.application import HonbaApp
from replay.store.rows import Row
from replay.store.sqlite_store import HonbaSQLiteRecorder

PLAYERS = ["Ann", "Ben", "Cho", "Dai"]
SOURCE = CORPUS / "tenhou-wire-2018"
INSERTS: list[int] = []


class CountingInserts(HonbaSQLiteRecorder):
    """honba's SQLite recorder, noting how many rows each insert was given."""

    def insert_events(self, stored_events: list[StoredEvent], **kwargs: Any) -> Any:
        INSERTS.append(len(stored_events))
        return super().insert_events(stored_events, **kwargs)

    def insert_rows(self, rows: Sequence[Row]) -> Sequence[int]:
        INSERTS.append(len(rows))
        return super().insert_rows(rows)


def a_match(key: str) -> Match:
    match = Match.start(key, PLAYERS, TENHOU, {"entered": "test"})
    match.record(won(ron(1, 0, hv(3, 30))))
    return match


def test_a_batch_meeting_a_stored_match_stores_it_alone_and_the_rest_in_one_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("APPLICATION_RECORDER_TOPIC", f"{__name__}:{CountingInserts.__name__}")
    store = HonbaApp.open(str(tmp_path / "store.sqlite"))
    try:
        # A table stored g3 first (the same match); g5's key holds another match.
        assert store_prepared(store, [prepare(a_match("g3"), store.mapper)]) == [True]
        recording.start_match(store, "g5", ["Eve", "Fay", "Gus", "Hal"], TENHOU)
        batch = [prepare(a_match(f"g{n}"), store.mapper) for n in range(1, 8)]
        rows = sum(len(p.rows) for p in batch)
        INSERTS.clear()
        outcomes = store_prepared(store, batch)
        assert outcomes[:2] == [True, True] and outcomes[2] is False and outcomes[5:] == [True, True]
        assert "stored with other players" in str(outcomes[4])
        # The whole batch once (refused), then the five others in one transaction: nothing one by one.
        assert [rows, rows - len(batch[2].rows) - len(batch[4].rows)] == INSERTS
        assert [m.key for m in store.list_matches()] == ["g3", "g5", "g1", "g2", "g4", "g6", "g7"]
    finally:
        store.close()


TABLES = textwrap.dedent(
    """
    import json, sys, time
    from domain.rules import load_preset
    from domain.values import AbortiveDraw, AbortKind
    from replay.service.recording import recording
    from replay.store.application import HonbaApp
    db, tables, go = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    store = HonbaApp.open(db)
    for n in range(tables):
        recording.start_match(store, f"table-{n}", ["Ann", "Ben", "Cho", "Dai"], load_preset("tenhou"))
    open(go, "w").close()
    hands = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        for n in range(tables):
            recording.record(store, f"table-{n}", AbortiveDraw(AbortKind.FOUR_WINDS), client_key=f"{n}-{hands}")
        hands += 1
        try:
            open(go + ".stop").close()
            break
        except FileNotFoundError:
            pass
    store.checkpoint()
    print(json.dumps({"hands": hands * tables}))
    """
)


@pytest.mark.timeout(300)
def test_an_import_while_tables_record_refuses_no_game_and_loses_no_hand(store_db: str, tmp_path: Path) -> None:
    """The tables record in a process of their own, as fast as they can; the import (the service's
    ``import_paths``, as ``honba import`` calls it) and the check run in this process, beside it."""
    logs = sorted(SOURCE.glob("*.mjlog"))[:120]
    if len(logs) < 120:
        pytest.skip(f"the shared corpus {SOURCE} is not here")
    archive = tmp_path / "archive"
    archive.mkdir()
    for log in logs:
        (archive / log.name).write_bytes(log.read_bytes())
    go = tmp_path / "go"
    tables = subprocess.Popen(
        [sys.executable, "-c", TABLES, store_db, "4", str(go)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        # Up to two minutes for the tables' process to start (a hang guard: beside other work its
        # imports and first matches have taken far longer than when alone).
        for _ in range(2400):
            if go.exists() or tables.poll() is not None:
                break
            time.sleep(0.05)
        assert go.exists(), tables.communicate()
        # Small batches: many transactions, each meeting the tables' saves.
        store = HonbaApp.open(store_db)
        try:
            imported = import_paths(store, [archive], batch=5)
        finally:
            store.close()
    finally:
        (tmp_path / "go.stop").touch()
        out, err = tables.communicate(timeout=120)
    assert tables.returncode == 0, err
    assert (imported.stored, imported.present, imported.unsupported, imported.unreadable, imported.conflicts) == (
        120,
        0,
        (),
        (),
        (),
    )
    recorded = json.loads(out)["hands"]
    store = HonbaApp.open(store_db)
    try:
        stored = sum(len(store.get_match(f"table-{n}").history) for n in range(4))
        assert stored == recorded  # every hand the tables sent is stored, once
        # What ``honba check`` checks: every match and the checkpoints, intact.
        checked = check_targets(lambda: store, [])
        assert len(checked.checks) == 124 and checked.store is not None
        assert checked.intact, [c for c in checked.checks if not c.intact] or checked.store
    finally:
        store.close()


def test_a_prepared_match_crosses_processes_as_plain_rows_stored_as_its_events_are(tmp_path: Path) -> None:
    # Issue 36, tenth round: a reading worker hands its matches over pickled; their rows are plain
    # tuples (no StoredEvent rebuilt per event in the storing process), inserted as they are.
    stores = [HonbaApp.open(str(tmp_path / f"{name}.sqlite")) for name in ("rows", "events")]
    try:
        prepared = pickle.loads(pickle.dumps(prepare(a_match("g1"), stores[0].mapper)))
        assert b"StoredEvent" not in pickle.dumps(prepared)
        assert store_prepared(stores[0], [prepared]) == [True]
        stores[1].insert(prepared.records)  # the same events through the library's insert
        tables = []
        for store in stores:
            with store.recorder.datastore.transaction(commit=False) as c:  # type: ignore[attr-defined]
                c.execute("SELECT rowid, * FROM stored_events ORDER BY rowid")
                tables.append([tuple(row) for row in c.fetchall()])
        assert tables[0] == tables[1] and len(tables[0]) == len(prepared.rows) > 2  # the match's and its seal's
        assert [m.key for m in stores[0].list_matches()] == ["g1"]
    finally:
        for store in stores:
            store.close()
