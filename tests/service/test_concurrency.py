"""Two processes recording on the same match at once, on SQLite and on PostgreSQL.

Issue 7: "Two processes recording the same match at once: one wins, the other gets
a clear conflict (and the CLI retries where that is safe); no event is lost or
duplicated. Tested with real processes on SQLite and PostgreSQL."

Saves are optimistic: a process that loaded a match another process has saved since
is refused by the store (a stored event already holds that position). A command
with a client key (``--key``) is then applied again to the match as it now is; one
without is refused with a message to try again. ``tests/race_worker.py`` holds two
processes between their load and their save, so that the race happens every time.
Stored events are counted in the store's own table (each save of a match also saves
its seal: two rows, and nothing shared with other saves; the checkpoints a command takes
at its end are counted apart).
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import psycopg
import pytest

from domain.match import Match, match_id
from domain.rules import load_preset
from domain.store_errors import StoreConflict
from domain.values import AbortiveDraw, AbortKind
from replay.service.recording import recording
from replay.store import retry as retry_module
from replay.store.application import HonbaApp
from replay.store.chain import STORE_CHAIN_ID
from replay.store.checkpoint import CHECKPOINTS_ID
from replay.store.retry import TRIES
from replay.store.seal import Seal
from replay.store.store_check import check_store

WORKER = Path(__file__).parents[1] / "race_worker.py"
HONBA = str(Path(sys.executable).with_name("honba"))
KEY = "club-race"
CONFLICT = f"match {KEY!r} changed in the store while this command ran; try again"


def rows(db: str) -> list[tuple[str, int]]:
    """Every stored event of the match and its seal as (originator id, version), read from the
    table itself (the checkpoints are counted apart)."""
    return [row for row in every_row(db) if row[0] != CHECKPOINTS_ID.hex]


def links(db: str) -> int:
    """How many links of a store-wide chain of saves the store holds: none, saves share no row."""
    return sum(1 for o, _ in every_row(db) if o == STORE_CHAIN_ID.hex)


def every_row(db: str) -> list[tuple[str, int]]:
    """Every stored event as (originator id, version)."""
    if db.startswith("postgresql://"):
        with psycopg.connect(db) as conn:
            found = conn.execute("SELECT originator_id, originator_version FROM honba_events").fetchall()
        return [(str(o).replace("-", ""), int(v)) for o, v in found]
    with closing(sqlite3.connect(db)) as conn:
        return [
            (str(o), int(v)) for o, v in conn.execute("SELECT originator_id, originator_version FROM stored_events")
        ]


def match_versions(db: str) -> list[int]:
    return sorted(v for o, v in rows(db) if o == match_id(KEY).hex)


@pytest.fixture
def race_db(store_db: str) -> str:
    """A store holding one started match (its start event, its seal's two)."""
    store = HonbaApp.open(store_db)
    try:
        recording.start_match(store, KEY, ["Ann", "Ben", "Cho", "Dai"], load_preset("tenhou"))
    finally:
        store.close()
    assert len(rows(store_db)) == 3
    assert links(store_db) == 0
    return store_db


def workers(*commands: list[str], timeout: float = 120) -> list[subprocess.CompletedProcess[str]]:
    """Start every command at once; wait for all of them."""
    running = [subprocess.Popen(c, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for c in commands]
    done = []
    for command, process in zip(commands, running, strict=True):
        stdout, stderr = process.communicate(timeout=timeout)
        done.append(subprocess.CompletedProcess(command, process.returncode, stdout, stderr))
    return done


def race(db: str, tmp_path: Path, *client_keys: str) -> list[dict[str, Any]]:
    """One abortive draw from each of two worker processes, saved at the same moment."""
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    runs = workers(
        *([sys.executable, str(WORKER), "once", db, KEY, k, str(barrier), str(len(client_keys))] for k in client_keys)
    )
    for run in runs:
        assert run.returncode in (0, 3), run.stderr
        assert "Traceback" not in run.stderr
    return [json.loads(run.stdout) for run in runs]


def final(db: str) -> tuple[dict[str, Any], list[Any]]:
    store = HonbaApp.open(db)
    try:
        match = store.get_match(KEY)
        facts = {"version": match.version, "keys": set(match.client_keys), "counters": match.state.counters}
        return facts, [c for c in check_store(store) if not c.intact]
    finally:
        store.close()


def test_without_keys_one_process_wins_and_the_other_gets_a_clear_conflict(race_db: str, tmp_path: Path) -> None:
    results = race(race_db, tmp_path, "-", "-")
    assert sorted(r["result"] for r in results) == ["conflict", "recorded"]
    (refused,) = [r for r in results if r["result"] == "conflict"]
    assert refused["message"] == CONFLICT
    # The winner's draw and its seal, nothing of the loser's.
    assert len(rows(race_db)) == 3 + 2
    assert links(race_db) == 0
    assert match_versions(race_db) == [1, 2]
    facts, broken = final(race_db)
    assert (facts["version"], facts["counters"], broken) == (2, 1, [])


def test_with_keys_the_loser_retries_and_both_results_are_recorded_once(race_db: str, tmp_path: Path) -> None:
    results = race(race_db, tmp_path, "tablet-a-1", "tablet-b-1")
    assert [r["result"] for r in results] == ["recorded", "recorded"]
    assert sorted(r["conflicts"] for r in results) == [0, 1]  # one lost the race, tried again, and saved
    assert len(rows(race_db)) == 3 + 4
    assert links(race_db) == 0
    assert match_versions(race_db) == [1, 2, 3]
    facts, broken = final(race_db)
    assert facts == {"version": 3, "keys": {"tablet-a-1", "tablet-b-1"}, "counters": 2}
    assert broken == []


def test_the_same_keyed_command_sent_by_two_processes_is_recorded_once(race_db: str, tmp_path: Path) -> None:
    # A tablet whose first send seemed lost sends again from another process: the retry of the
    # loser finds the command already recorded under its key and records nothing.
    results = race(race_db, tmp_path, "tablet-a-1", "tablet-a-1")
    assert [r["result"] for r in results] == ["recorded", "recorded"]
    assert len(rows(race_db)) == 3 + 2
    facts, broken = final(race_db)
    assert facts == {"version": 2, "keys": {"tablet-a-1"}, "counters": 1}
    assert broken == []


def test_two_processes_recording_many_keyed_commands_lose_and_duplicate_nothing(race_db: str, tmp_path: Path) -> None:
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    count = 15
    runs = workers(
        *([sys.executable, str(WORKER), "many", race_db, KEY, tablet, str(count), str(barrier), "2"] for tablet in "ab")
    )
    for run in runs:
        assert run.returncode == 0, run.stderr
        assert json.loads(run.stdout)["recorded"] == count
    assert len(rows(race_db)) == 3 + 2 * 2 * count
    assert match_versions(race_db) == list(range(1, 2 * count + 2))
    facts, broken = final(race_db)
    assert facts["keys"] == {f"{t}-{i}" for t in "ab" for i in range(count)}
    assert (facts["version"], facts["counters"], broken) == (2 * count + 1, 2 * count, [])


def test_honba_commands_sent_at_once_with_keys_are_all_recorded_once(race_db: str) -> None:
    runs = workers(*([HONBA, "--db", race_db, "abort", KEY, "four_winds", "--key", f"t{i}"] for i in range(4)))
    for run in runs:
        assert run.returncode == 0, run.stderr
    assert len(rows(race_db)) == 3 + 2 * 4
    facts, broken = final(race_db)
    assert facts == {"version": 5, "keys": {"t0", "t1", "t2", "t3"}, "counters": 4}
    assert broken == []


def test_honba_commands_sent_at_once_without_keys_are_recorded_or_refused_in_one_line(race_db: str) -> None:
    runs = workers(*([HONBA, "--db", race_db, "abort", KEY, "four_winds"] for _ in range(4)))
    recorded = [run for run in runs if run.returncode == 0]
    for run in runs:
        if run.returncode != 0:
            assert run.returncode == 2
            assert run.stderr.strip() == f"honba: {CONFLICT}"
    assert recorded
    assert len(rows(race_db)) == 3 + 2 * len(recorded)
    facts, broken = final(race_db)
    assert (facts["version"], facts["counters"], broken) == (1 + len(recorded), len(recorded), [])


def test_a_keyed_command_is_tried_a_bounded_number_of_times_and_one_without_a_key_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    saves: list[int] = []

    class AlwaysBeaten(HonbaApp):
        name = HonbaApp.name

        def save_match(self, match: Match, seal: Seal | None = None, *, read_only_after: bool = False) -> None:
            if saves or match.version > 1:
                saves.append(match.version)
                raise StoreConflict(CONFLICT)
            super().save_match(match, seal, read_only_after=read_only_after)

    pauses: list[float] = []
    monkeypatch.setattr(retry_module.time, "sleep", pauses.append)
    store = AlwaysBeaten.open(":memory:")
    recording.start_match(store, KEY, ["Ann", "Ben", "Cho", "Dai"], load_preset("tenhou"))
    with pytest.raises(StoreConflict, match=f"tried {TRIES} times"):
        recording.record(store, KEY, AbortiveDraw(AbortKind.FOUR_WINDS), client_key="t1")
    # Tried again at once after the first conflict, after a short bounded jitter from the second on.
    assert len(saves) == TRIES and len(pauses) == TRIES - 2
    assert all(0 <= pause <= retry_module.JITTER for pause in pauses)
    saves.clear()
    with pytest.raises(StoreConflict, match=r"try again$"):
        recording.record(store, KEY, AbortiveDraw(AbortKind.FOUR_WINDS))
    assert len(saves) == 1
    assert store.get_match(KEY).version == 1
