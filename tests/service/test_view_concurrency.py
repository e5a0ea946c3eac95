"""The stored view shared by processes: catch-ups (``honba standings``, ``honba views update``) and
followers (``honba views follow``) started and killed at any time, while matches are recorded and
logs imported, never fail a command and end with the view a fresh rebuild gives. SQLite and
PostgreSQL, real processes.

Issue 14: "Four ``honba standings`` run at once on a stale view: three exit 2 with 'the store
failed: Failed to record tracking for honba 1422'"; "``honba views follow`` on PostgreSQL crashes
when a catch-up or a bulk import runs beside it". Every write of the view is now a compare-and-set
on its position (``DocumentView.put_docs``): a writer that finds the view moved folds again from
where it stands.
"""

from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import view_worker
from conftest import CORPUS
from test_views import dump

from projections.views import POPODocumentView
from replay.store.application import HonbaApp
from replay.store.standings_view import catch_up, open_view

HONBA = str(Path(sys.executable).with_name("honba"))
WORKER = str(Path(__file__).parents[1] / "view_worker.py")
LOGS = sorted((CORPUS / "tsubakisakura-mjlog2json" / "data").glob("*.xml"))[:3]


def start(*command: str) -> subprocess.Popen[str]:
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finished(process: subprocess.Popen[str], timeout: float = 180) -> tuple[int, str, str]:
    stdout, stderr = process.communicate(timeout=timeout)
    return process.returncode, stdout, stderr


def seeded(db: str, matches: int, prefix: str = "early") -> None:
    """A store with matches of the tournament "cup" that no view has seen yet: recorded in this process, before
    any other starts (the worker's ``record`` as a process of its own is for recording beside the others)."""
    assert view_worker.main(["record", db, prefix, str(matches)]) == 0


def assert_view_is_a_fresh_rebuild(db: str) -> None:
    app = HonbaApp.open(db)
    try:
        view = open_view(app)
        assert view.max_tracking_id(app.name) == app.recorder.max_notification_id()
        rebuilt = POPODocumentView()
        catch_up(app, rebuilt)
        assert dump(view) == dump(rebuilt)
    finally:
        app.close()


def test_standings_run_at_once_on_a_stale_view_all_succeed(store_db: str) -> None:
    seeded(store_db, 2)
    app = HonbaApp.open(store_db)
    catch_up(app, open_view(app))  # the view exists ...
    app.close()
    seeded(store_db, 10, prefix="more")  # ... and is stale
    runs = [start(HONBA, "--db", store_db, "standings", "--tournament", "cup", "--format", "json") for _ in range(4)]
    results = [finished(p) for p in runs]
    for code, _stdout, stderr in results:
        assert code == 0, stderr
        assert "Failed to record tracking" not in stderr
    tables = [json.loads(stdout)["rows"] for _, stdout, _ in results]
    assert all(table == tables[0] for table in tables)
    assert [row["matches"] for row in tables[0]] == [12, 12, 12, 12]
    assert_view_is_a_fresh_rebuild(store_db)


@pytest.mark.timeout(300)  # a hang guard (followers that never follow), not a speed test
def test_catch_ups_and_followers_started_and_killed_at_any_time_end_as_a_fresh_rebuild(store_db: str) -> None:
    rng = random.Random(14)
    seeded(store_db, 6)
    recorder = start(sys.executable, WORKER, "record", store_db, "late", "10")
    importer = start(HONBA, "--db", store_db, "import", *map(str, LOGS), "--tournament", "cup") if LOGS else None
    followers = [start(HONBA, "--db", store_db, "views", "follow", "--seconds", "300") for _ in range(2)]
    catch_ups = [start(sys.executable, WORKER, "catchup", store_db, str(rng.choice((3, 7, 50)))) for _ in range(4)]
    catch_ups += [start(HONBA, "--db", store_db, "standings", "--tournament", "cup") for _ in range(2)]
    # Killed at a moment of their work: one follower and two catch-ups.
    victims = [followers[0], catch_ups[0], catch_ups[4]]
    for victim in victims:
        time.sleep(rng.uniform(0.2, 1.5))
        victim.send_signal(signal.SIGKILL)
    # Started again while the others go on.
    catch_ups.append(start(sys.executable, WORKER, "catchup", store_db, "5"))
    followers.append(start(HONBA, "--db", store_db, "views", "follow", "--seconds", "300"))

    for process in [recorder, *([importer] if importer else []), *catch_ups]:
        code, _stdout, stderr = finished(process)
        if process in victims and code == -signal.SIGKILL:
            continue  # killed in the middle of its work
        # Not a victim, or a victim that had finished its work before the signal reached it.
        assert code == 0, stderr
        assert "Traceback" not in stderr and "Failed" not in stderr, stderr

    # The live followers bring the view up to the last event by themselves.
    app = HonbaApp.open(store_db)
    try:
        view = open_view(app)
        last = app.recorder.max_notification_id()
        while (view.max_tracking_id(app.name) or 0) < (last or 0):
            for follower in followers[1:]:
                assert follower.poll() is None, follower.communicate()[1]
            time.sleep(0.1)
    finally:
        app.close()
    for follower in followers[1:]:
        # Stopped once it follows (its first line), as a person would press Ctrl-C on it.
        assert follower.stdout is not None
        assert "Following new events" in follower.stdout.readline()
        follower.send_signal(signal.SIGINT)
        code, _stdout, stderr = finished(follower, timeout=60)
        assert "Traceback" not in stderr and "Failed" not in stderr, stderr
    followers[0].communicate()
    assert_view_is_a_fresh_rebuild(store_db)


@pytest.mark.timeout(300)  # a hang guard (a follower that never polls), not a speed test
@pytest.mark.parametrize("store_db", ["sqlite"], indirect=True)
def test_on_sqlite_a_follower_polls_the_log(store_db: str) -> None:
    seeded(store_db, 1)
    follower = start(HONBA, "--db", store_db, "views", "follow", "--seconds", "120")
    try:
        seeded(store_db, 2, prefix="live")  # while the follower follows
        app = HonbaApp.open(store_db)
        try:
            view = open_view(app)
            # Up to the last event recorded (live-1's summary is there from its first events on, before
            # its end and its attachment to the cup count in the standings).
            last = app.recorder.max_notification_id() or 0
            while (view.max_tracking_id(app.name) or 0) < last:
                assert follower.poll() is None, follower.communicate()[1]
                time.sleep(0.1)
            assert view.get_doc("summary", "live-1") is not None
            standings = view.get_doc("standings", "cup")
            assert standings is not None
            assert [row["matches"] for row in standings["rows"]] == [3, 3, 3, 3]
        finally:
            app.close()
    finally:
        follower.send_signal(signal.SIGINT)
        follower.communicate(timeout=60)


def test_opening_the_view_refused_at_once_for_a_write_between_its_read_and_write_is_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A catch-up opening the SQLite view failed "cannot open the standings view: database is
    # locked" while an import kept the view: SQLite refuses a transaction at once, without waiting
    # for the lock, when another process commits between its read and its write.
    import sqlite3

    import replay.store.standings_view as standings_view

    app = HonbaApp.open(str(tmp_path / "honba.sqlite"))
    real = standings_view._open_view
    refusals = [sqlite3.OperationalError("database is locked")]

    def racing(opened: HonbaApp) -> object:
        if refusals:
            raise refusals.pop()
        return real(opened)

    monkeypatch.setattr(standings_view, "_open_view", racing)
    try:
        view = open_view(app)
        assert refusals == []
        assert catch_up(app, view) == 0
    finally:
        app.close()
