"""A bulk import killed part-way by a real signal, then run again: every game stored exactly once.

Issue 7: "It is resumable and idempotent: killed at any moment and run again, it ends
with every game stored exactly once and no match half-stored." A real ``honba import``
process (reading with worker processes, storing 10 matches to a transaction) is started
on a directory of sixty real Tenhou logs copied from the shared corpus; once the
store holds some but not all of them (the test polls the store's own table) it gets
SIGKILL, or SIGINT (Ctrl-C). The store then holds whole matches only; a second run
stores the rest and says how many were already present; the rows are exactly those of
a clean import (each match's events 1..n and its seal, nothing twice), and
``honba check`` finds every match intact. On SQLite and on PostgreSQL (the server the
tests start). Skipped when the corpus is absent. The run again and the check run in this
process: the process and its signal are the first run's; what the second is checked for is the
store it leaves.
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import zlib
from collections import Counter
from collections.abc import Iterator
from contextlib import closing, suppress
from pathlib import Path

import honba_cli
import psycopg
import pytest
from conftest import CORPUS
from fuzz_samples import xml_log
from typer.testing import Result

from replay.service.imports import storing
from replay.service.imports.batch import import_paths, read_for_import
from replay.store.application import HonbaApp
from replay.store.chain import STORE_CHAIN_ID
from replay.store.checkpoint import CHECKPOINTS_ID

# Enough games for six batches of 10 (one stored, the rest still to come when the signal arrives) and for
# more than fifty (past fifty, only the counts are printed); each test imports them two or three times.
# (120 games in batches of 20 read twice as many for the same six batches.)
GAMES = 60
BATCH = 10
SOURCE = CORPUS / "tenhou-wire-2018"
HONBA = Path(sys.executable).with_name("honba")
COMMAND = [str(HONBA)] if HONBA.is_file() else [sys.executable, "-c", "from replay.cli import main; main()"]
STARTED = "domain.match:Match.Started"
COMPRESSOR = "eventsourcing.compressor:ZlibCompressor"

Rows = Counter[tuple[str, int, str]]


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory of GAMES logs in three subdirectories (copies: the corpus is only read)."""
    files = sorted(SOURCE.glob("*.mjlog"))[:GAMES]
    if len(files) < GAMES:
        pytest.skip(f"the shared corpus {SOURCE} is not here (or holds fewer than {GAMES} logs)")
    folder = tmp_path_factory.mktemp("archive")
    for index, file in enumerate(files):
        part = folder / f"part-{index // (GAMES // 3)}"
        part.mkdir(exist_ok=True)
        shutil.copyfile(file, part / file.name)
    return folder


@pytest.fixture(scope="module")
def clean_rows(archive: Path) -> Rows:
    """The rows a clean import stores: (originator, version, topic), each once."""
    app = HonbaApp.open(":memory:")
    try:
        run = import_paths(app, [archive])
        assert (run.stored, run.unreadable, run.conflicts) == (GAMES, (), ())
        found: Rows = Counter()
        for notification in app.recorder.select_notifications(start=1, limit=100_000):
            if notification.originator_id != CHECKPOINTS_ID:
                found[(notification.originator_id.hex, notification.originator_version, notification.topic)] += 1
    finally:
        app.close()
    return found


def stored_rows(db: str) -> Rows:
    """Every row of the store's own events table as (originator, version, topic), but the
    checkpoints (a command takes one at its end: how many depends on when it was stopped)."""
    if db.startswith("postgresql://"):
        with psycopg.connect(db) as conn:
            found = conn.execute("SELECT originator_id, originator_version, topic FROM honba_events").fetchall()
        rows = Counter((o.hex, int(v), str(t)) for o, v, t in found)
    else:
        with closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True)) as conn:
            read = conn.execute("SELECT originator_id, originator_version, topic FROM stored_events").fetchall()
        rows = Counter((str(o), int(v), str(t)) for o, v, t in read)
    return Counter({row: count for row, count in rows.items() if row[0] != CHECKPOINTS_ID.hex})


def stored_matches(db: str) -> int:
    """How many matches the store holds now (0 while its tables do not exist yet)."""
    with StoreWatch(db) as watch:
        return watch.matches()


class StoreWatch:
    """How many matches a store holds, asked again and again on one connection while another process
    imports (a new connection for each look cost the server a backend's start at every poll)."""

    def __init__(self, db: str):
        self.db = db
        self.connection: sqlite3.Connection | psycopg.Connection[tuple[int]] | None = None

    def matches(self) -> int:
        """The count now (0 while the store or its tables do not exist yet)."""
        try:
            if self.db.startswith("postgresql://"):
                if self.connection is None:
                    self.connection = psycopg.connect(self.db, autocommit=True)
                assert isinstance(self.connection, psycopg.Connection)
                query = "SELECT count(*) FROM honba_events WHERE topic = %s"
                row = self.connection.execute(query, (STARTED,)).fetchone()
            else:
                if self.connection is None:
                    self.connection = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)
                assert isinstance(self.connection, sqlite3.Connection)
                query = "SELECT count(*) FROM stored_events WHERE topic = ?"
                row = self.connection.execute(query, (STARTED,)).fetchone()
        except sqlite3.OperationalError:  # no file yet (connecting), or no table yet
            return 0
        except psycopg.errors.UndefinedTable:
            return 0
        return int(row[0]) if row else 0

    def __enter__(self) -> StoreWatch:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.connection is not None:
            self.connection.close()


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The environment of the honba processes: no store named but by --db."""
    environ = {k: v for k, v in os.environ.items() if k != "HONBA_DB" and "PERSISTENCE_MODULE" not in k}
    return {**environ, "XDG_DATA_HOME": str(tmp_path / "xdg")}


@pytest.fixture
def groups() -> Iterator[list[int]]:
    """The process groups started; whatever is left of them is killed at the end."""
    started: list[int] = []
    yield started
    for group in started:
        with suppress(ProcessLookupError):
            os.killpg(group, signal.SIGKILL)


def group_running(group: int) -> bool:
    """Whether a process of the process group still runs. A process that ended but was not reaped yet
    (a zombie) has ended: under a subreaper that reaps only when its own command ends
    (``benchmarks/cpu_of.py``), the killed importer's workers stay zombies, and ``killpg(group, 0)``
    still finds them."""
    if not Path("/proc/self/stat").exists():  # no /proc (not Linux): any process of the group, zombies too
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return False
        return True
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with suppress(OSError):
            # "pid (command name) state ppid pgrp ...": the name may hold spaces and parentheses.
            state, _ppid, pgrp = stat.read_text().rpartition(")")[2].split()[:3]
            if int(pgrp) == group and state != "Z":
                return True
    return False


def honba_here(db: str, *args: str, env: dict[str, str]) -> Result:
    """``honba --db DB ARGS`` in this process (``tests/honba_cli.py``), in the environment ``env`` gives the
    processes: for a command whose process is not what is checked (an import run again, ``honba check``),
    without an interpreter's start and its imports (about 0.6 CPU-seconds a command)."""
    unset: dict[str, str | None] = {name: None for name in os.environ if name not in env}
    return honba_cli.honba(db, *args, env={**unset, **env})


def whole_matches_only(rows: Rows, clean: Rows) -> int:
    """Check that every match in ``rows`` is whole (its events and its seal's exactly as a clean
    import stores them, each once); returns how many matches there are."""
    assert all(count == 1 for count in rows.values()), "a row stored twice"
    assert set(rows) <= set(clean)
    by_originator: dict[str, set[tuple[int, str]]] = {}
    for originator, version, topic in clean:
        by_originator.setdefault(originator, set()).add((version, topic))
    # No row is shared between saves (issue 26): no store-wide chain of saves.
    assert not any(o == STORE_CHAIN_ID.hex for o, _, _ in rows)
    present = {originator for originator, _, _ in rows}
    for originator in present:
        mine = {(version, topic) for o, version, topic in rows if o == originator}
        assert mine == by_originator[originator], f"{originator} is half-stored"
    matches = sum(1 for _, _, topic in rows if topic == STARTED)
    seals = sum(1 for _, _, topic in rows if topic == "replay.store.seal:Seal.Opened")
    assert matches == seals, "a match stored without its seal, or a seal without its match"
    return matches


# A hang guard (an import that never stores, workers that never end), not a speed test.
@pytest.mark.timeout(300)
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT], ids=["SIGKILL", "SIGINT"])
@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_an_import_killed_part_way_is_completed_by_running_it_again(
    kind: str,
    sig: signal.Signals,
    archive: Path,
    clean_rows: Rows,
    env: dict[str, str],
    groups: list[int],
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> None:
    db = str(tmp_path / "bulk.sqlite") if kind == "sqlite" else str(request.getfixturevalue("postgres_url"))
    args = ["import", str(archive), "--batch", str(BATCH), "--jobs", "2"]
    process = subprocess.Popen(
        [*COMMAND, "--db", db, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )
    groups.append(process.pid)
    with StoreWatch(db) as watch:
        while watch.matches() == 0:
            assert process.poll() is None, f"the import ended before it could be interrupted: {process.communicate()}"
            time.sleep(0.005)
    process.send_signal(sig)  # to the importing process only, not its workers
    _, stderr = process.communicate(timeout=60)
    if sig == signal.SIGKILL:
        assert process.returncode == -signal.SIGKILL
    else:
        assert process.returncode == 130, stderr
        assert "interrupted" in stderr and "run the same command again" in stderr
        assert "Traceback" not in stderr
    # The workers end with the process that started them, even one killed outright.
    while group_running(process.pid):
        time.sleep(0.05)

    before = whole_matches_only(stored_rows(db), clean_rows)
    assert 0 < before < GAMES

    # Run again (here, not as a process: what is checked is the store it completes) and checked.
    again = honba_here(db, *args, env=env)
    assert again.exit_code == 0, again.stderr
    assert f"{GAMES - before} stored, {before} already present, 0 unsupported, 0 unreadable, 0 conflicts" in (
        again.stdout
    )
    assert stored_rows(db) == clean_rows
    checked = honba_here(db, "check", env=env)
    assert checked.exit_code == 0, checked.stdout
    assert f"{GAMES} checked, 0 with problems" in checked.stdout


def test_an_archive_imported_again_stores_nothing_new(
    archive: Path, clean_rows: Rows, env: dict[str, str], tmp_path: Path
) -> None:
    db = str(tmp_path / "twice.sqlite")
    first = honba_here(db, "import", str(archive), env=env)
    assert first.exit_code == 0, first.stderr
    assert f"{GAMES} stored, 0 already present" in first.stdout
    # Past fifty games, only the counts are printed.
    assert "match '" not in first.stdout
    second = honba_here(db, "import", str(archive), "--jobs", "1", env=env)
    assert second.exit_code == 0, second.stderr
    assert f"0 stored, {GAMES} already present" in second.stdout
    assert stored_rows(db) == clean_rows


def test_a_game_stored_with_other_contents_is_a_conflict_and_the_rest_are_stored(
    archive: Path, env: dict[str, str], tmp_path: Path
) -> None:
    """Read by workers, stored in one batch: a duplicate file is already present, a key taken
    by another match is a conflict named on stderr (exit 2), and every other game is stored."""
    folder = tmp_path / "some"
    folder.mkdir()
    logs = sorted(archive.rglob("*.mjlog"))[:20]
    for log in logs:
        shutil.copyfile(log, folder / log.name)
    shutil.copyfile(logs[3], folder / f"copy-of-{logs[3].name}")
    db = str(tmp_path / "conflict.sqlite")
    taken = logs[5].stem
    assert honba_here(db, "start", taken, "--players", "Ann,Ben,Cho,Dai", env=env).exit_code == 0
    result = honba_here(db, "import", str(folder), "--jobs", "2", env=env)
    assert result.exit_code == 2, result.stderr
    assert "19 stored, 1 already present, 0 unsupported, 0 unreadable, 1 conflict" in result.stdout
    problems = [line for line in result.stderr.splitlines() if line.startswith("honba:")]
    assert problems == [
        f"honba: {folder / logs[5].name}: a match {taken!r} is stored with other players; it is not replaced "
        "(record a correction on the stored match instead)"
    ]
    assert stored_matches(db) == 20
    assert honba_here(db, "check", env=env).exit_code == 0


def test_the_records_read_apart_from_the_store_are_encoded_as_the_store_encodes(tmp_path: Path) -> None:
    """Worker processes encode with a mapper made from the store's settings (here a compressor):
    what they prepare is stored as the store itself would store it, and reads back."""
    (tmp_path / "game.mjlog").write_bytes(xml_log())
    app = HonbaApp(env={"PERSISTENCE_MODULE": "eventsourcing.popo", "COMPRESSOR_TOPIC": COMPRESSOR})
    try:
        assert app.mapper_settings() == {"COMPRESSOR_TOPIC": COMPRESSOR}
        read = read_for_import(tmp_path / "game.mjlog", "auto", app.mapper_settings())
        assert read.unreadable is None and len(read.matches) == 1
        prepared = read.matches[0]
        assert all(zlib.decompress(record.state) for record in prepared.records)
        assert storing.store_prepared(app, [prepared]) == [True]
        stored = app.get_match(prepared.key)
        assert stored.version == sum(1 for r in prepared.records if r.originator_id == stored.id)
        assert storing.store_prepared(app, [prepared]) == [False]
    finally:
        app.close()
