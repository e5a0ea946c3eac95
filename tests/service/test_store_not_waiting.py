"""A call made not to wait for another process's write lock (``replay.service.common.opening.not_waiting``,
which ``honba serve`` puts around a hand recorded on its event loop): refused at once as
``StoreBusy`` while another connection holds SQLite's write lock, before anything is written, and
leaving nothing of the refused attempt behind (no row, no client key taken, nothing kept of the match
beyond what is committed), so that the same call made again once the lock is free records the hand
exactly once; a connection handed out outside it waits again as the store's busy timeout says.

Nothing is timed: the other connection lets go of its lock only after the refusal has arrived (a
call that waited would be answered after that, recorded, and the test would fail on it)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from stored_rows import write_lock_held
from web_support import prepare

from domain.store_errors import StoreBusy, StoreUnavailable
from replay.input.fields import entry_from_fields
from replay.service.common.access import TokenStore
from replay.service.common.opening import Store, not_waiting, open_store
from replay.service.recording.entry import apply_entry

KEY = "t1"
ABORT = entry_from_fields({"kind": "abort", "abort": "four_winds"})
# The store's busy timeout in these tests (s): long, so that a call that waits is seen answered
# only after the other connection let go, never by its timeout running out.
PATIENT = 600


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Store, str, str]]:
    """A SQLite store with the match ``t1``, one hand recorded on it, and a table token: (store, file, token)."""
    monkeypatch.setenv("SQLITE_LOCK_TIMEOUT", str(PATIENT))
    db = str(tmp_path / "club.sqlite")
    (token,) = prepare(db, {KEY: ("Ann", "Ben", "Cho", "Dai")}, [("table", KEY)])
    app = open_store(db)
    apply_entry(app, KEY, ABORT, client_key="h1")
    yield app, db, token
    app.close()


def released_after(other: sqlite3.Connection, done: threading.Event) -> threading.Thread:
    """A thread letting go of ``other``'s lock once ``done`` is set, or after a hang guard: a call
    that waits for the lock is answered only then."""

    def let_go() -> None:
        done.wait(timeout=60)
        other.rollback()

    thread = threading.Thread(target=let_go)
    thread.start()
    return thread


def test_a_hand_made_not_to_wait_is_refused_at_once_and_leaves_nothing_behind(store: tuple[Store, str, str]) -> None:
    app, db, token = store
    before = app.get_match(KEY).version
    kept = app.checked.get(KEY)
    assert kept is not None and kept.match.version == before
    refused = threading.Event()
    with write_lock_held(db) as other:
        guard = released_after(other, refused)
        try:
            with pytest.raises(StoreBusy) as caught, not_waiting(app):
                apply_entry(app, KEY, ABORT, client_key="h2")
            # (its lock still held: this was answered before it let go)
            assert other.in_transaction
        finally:
            refused.set()
            guard.join(timeout=60)
    # A "try again" (503 where it reaches a person), never a refusal of what was sent.
    assert isinstance(caught.value, StoreUnavailable)
    # Nothing of the refused attempt: no row, nothing kept of the match beyond what was committed,
    # the token as it was.
    assert app.get_match(KEY).version == before
    kept = app.checked.get(KEY)
    assert kept is not None and kept.match.version == before
    grant = TokenStore(app).check(token)
    assert grant is not None and grant.may_record(KEY)
    # Made again once the lock is free, with the same client key: recorded, once.
    again = apply_entry(app, KEY, ABORT, client_key="h2")
    assert again.version == app.get_match(KEY).version > before
    assert apply_entry(app, KEY, ABORT, client_key="h2").version == again.version


def test_a_refusal_after_something_was_written_is_not_busy(store: tuple[Store, str, str]) -> None:
    # StoreBusy says "run it again": only true while nothing of the block was committed. A block that
    # saved one hand and was then refused its second is an outage of the second, said as such.
    app, db, _token = store
    before = app.get_match(KEY).version
    with pytest.raises(StoreUnavailable) as caught, not_waiting(app):
        apply_entry(app, KEY, ABORT, client_key="h2")
        with write_lock_held(db):
            apply_entry(app, KEY, ABORT, client_key="h3")
    assert not isinstance(caught.value, StoreBusy)
    assert app.get_match(KEY).version == before + 1


def test_outside_it_the_connections_wait_for_the_lock_as_the_busy_timeout_says(store: tuple[Store, str, str]) -> None:
    app, db, _token = store
    datastore = app.recorder.datastore  # type: ignore[attr-defined]

    def busy_timeouts() -> set[int]:
        # Each connection the pools hand out (they take them in turn), to read and to write.
        found = set()
        for commit in (False, True) * 3:
            with datastore.get_connection(commit=commit) as connection:
                found.add(connection._sqlite_conn.execute("PRAGMA busy_timeout").fetchone()[0])
        return found

    with write_lock_held(db), pytest.raises(StoreBusy), not_waiting(app):
        assert busy_timeouts() == {0}
        apply_entry(app, KEY, ABORT, client_key="h2")
    assert busy_timeouts() == {PATIENT * 1000}


def test_on_a_store_without_a_file_lock_it_changes_nothing() -> None:
    app = open_store(":memory:")
    try:
        with not_waiting(app):
            assert list(app.list_matches()) == []
    finally:
        app.close()
