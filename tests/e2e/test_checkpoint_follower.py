"""The checkpoint writer follows the notification log and must never miss a save (issue 26).

A checkpoint covers what was saved since the last one by reading the notification log after the
last notification it covered. Should a save commit with a notification id lower than one the
writer already read past, no later checkpoint would see it: the rollback of that save would go
unseen. The event library locks the events table for each insert (on PostgreSQL) so that ids
appear in the order transactions commit; SQLite has one writer at a time. Here writers in
several processes record at once while another process takes checkpoints as fast as it can:
in the end every match's last save is one a checkpoint recorded.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from honba_cli import invoke

from domain.match import match_id
from replay.store.application import HonbaApp
from replay.store.checkpoint import read_checkpoints

WRITER = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    from domain.rules import load_preset
    from domain.values import AbortiveDraw, AbortKind
    from replay.service.recording import recording
    from replay.store.application import HonbaApp
    db, name, hands, progress = sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
    store = HonbaApp.open(db)
    # Saves start once the checkpointer runs, and go on until it has taken two checkpoints beside them
    # (at most MOST hands): how fast either starts or runs does not decide whether they overlap.
    waited = time.monotonic() + 60
    while not progress.exists() and time.monotonic() < waited:
        time.sleep(0.01)
    for table in range(3):
        recording.start_match(store, f"{name}-{table}", ["Ann", "Ben", "Cho", "Dai"], load_preset("tenhou"))
    hand = 0
    while hand < hands or (int(progress.read_text() or "0") < 2 and hand < MOST):
        for table in range(3):
            recording.record(store, f"{name}-{table}", AbortiveDraw(AbortKind.FOUR_WINDS))
        hand += 1
    store.close()
    """
).replace("MOST", "400")
CHECKPOINTER = textwrap.dedent(
    """
    import os, sys, time
    from pathlib import Path
    from replay.store.application import HonbaApp
    db, stop, progress = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    store = HonbaApp.open(db)
    taken = 0
    def tell(count):
        # Written whole, then renamed: a writer reads the count or the one before, never half of it.
        progress.with_suffix(".new").write_text(str(count))
        os.replace(progress.with_suffix(".new"), progress)
    tell(taken)
    while not stop.exists():
        taken += store.checkpoint().taken
        tell(taken)
    print(taken)
    store.close()
    """
)


@pytest.mark.timeout(300)
def test_checkpoints_taken_while_writers_save_miss_no_save(store_db: str, tmp_path: pytest.TempPathFactory) -> None:
    HonbaApp.open(store_db).close()  # the tables, made before anyone races to make them
    stop = tmp_path / "stop"  # type: ignore[operator]
    progress = tmp_path / "taken"  # type: ignore[operator]
    checkpointer = subprocess.Popen(
        [sys.executable, "-c", CHECKPOINTER, store_db, str(stop), str(progress)], stdout=subprocess.PIPE, text=True
    )
    writers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, store_db, f"w{n}", "15", str(progress)], stderr=subprocess.PIPE, text=True
        )
        for n in range(4)
    ]
    for writer in writers:
        _, err = writer.communicate(timeout=240)
        assert writer.returncode == 0, err
    stop.touch()
    taken = int(checkpointer.communicate(timeout=120)[0])
    assert taken >= 2  # checkpoints were taken while the writers saved
    store = HonbaApp.open(store_db)
    try:
        # What was saved after the checkpointer's last checkpoint is covered by one more; a save it
        # skipped past would be covered by none.
        store.checkpoint()
        covered = read_checkpoints(store)
        assert covered.check.intact
        for n in range(4):
            for table in range(3):
                key = f"w{n}-{table}"
                last = store.get_match(key).version
                assert covered.streams[match_id(key)][-1][:1] == (last,), key
    finally:
        store.close()


def test_a_command_skips_its_checkpoint_while_another_process_holds_the_lock_on_either_store(
    store_db: str, tmp_path: pytest.TempPathFactory
) -> None:
    import contextlib
    from collections.abc import Iterator
    from pathlib import Path

    import psycopg

    from replay.store.checkpoint import file_lock
    from replay.store.pgstore import CHECKPOINT_LOCK

    @contextlib.contextmanager
    def held() -> Iterator[None]:
        """The checkpoint lock held by another process's connection (or file handle)."""
        if store_db.startswith("postgresql://"):
            with psycopg.connect(store_db, autocommit=True) as conn:
                assert conn.execute("SELECT pg_try_advisory_lock(%s)", (CHECKPOINT_LOCK,)).fetchone() == (True,)
                yield
            return
        path = Path(store_db)
        with file_lock(path.with_name(path.stem + ".checkpoint.lock")) as got:
            assert got
            yield

    def honba(*args: str) -> str:
        result = invoke(["--db", store_db, *args])
        assert result.exit_code == 0, result.output
        return result.stdout

    def checkpoints() -> int:
        store = HonbaApp.open(store_db)
        try:
            return read_checkpoints(store).check.events
        finally:
            store.close()

    honba("start", "m1", "--players", "Ann,Ben,Cho,Dai")
    assert checkpoints() == 1
    with held():
        honba("draw", "m1", "--ready", "Ann")
        assert checkpoints() == 1  # skipped: never waited for, never tried again
        assert "Another process is taking a checkpoint now" in honba("checkpoint")
    assert "Checkpoint 2: 1 stream saved since the one before" in honba("checkpoint")
