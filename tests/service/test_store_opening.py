"""What a front end takes of the store, from the service (replay/service/common/opening.py): the
store opened and handed on, whether a server's threads take turns on it, and the event library's
own errors of a store that did not answer said as the domain's ``StoreUnavailable`` (a 503 "try
again" on a page, never a refusal of what was sent, never the driver's words)."""

from __future__ import annotations

from pathlib import Path

import pytest
from eventsourcing.persistence import IntegrityError, InterfaceError, OperationalError

from domain.said import Said
from domain.store_errors import StoreError, StoreUnavailable
from replay.service.common.opening import OpenedStore, one_writer_at_a_time, open_store, store_answering, store_failures


@pytest.mark.parametrize("failure", [OperationalError("database is locked"), InterfaceError("connection lost")])
def test_a_store_that_did_not_answer_is_said_as_store_unavailable(failure: Exception) -> None:
    with pytest.raises(StoreUnavailable) as caught, store_answering():
        raise failure
    assert caught.value.__cause__ is failure
    assert isinstance(caught.value, StoreError)  # what a command that catches the store's failures sees


def test_other_failures_pass_through_as_they_are() -> None:
    # A row the store refuses is no outage: whatever catches it decides (a conflict, a bug).
    with pytest.raises(IntegrityError), store_answering():
        raise IntegrityError("UNIQUE constraint failed")
    with pytest.raises(KeyError), store_answering():
        raise KeyError("x")


def test_sqlite_and_the_store_in_memory_take_one_writer_at_a_time(tmp_path: Path) -> None:
    for db in (str(tmp_path / "club.sqlite"), ":memory:"):
        store = open_store(db)
        try:
            assert one_writer_at_a_time(store)
        finally:
            store.close()


# A command's store (``OpenedStore``, the command line's ``Shell``) and the library's errors under a command
# (``store_failures``): the front end calls neither the store's methods nor names the library's errors.


@pytest.mark.parametrize("failure", [OperationalError("database is locked"), InterfaceError("connection lost")])
def test_under_a_command_a_store_that_did_not_answer_is_store_unavailable(failure: Exception) -> None:
    with pytest.raises(StoreUnavailable) as caught, store_failures():
        raise failure
    assert caught.value.__cause__ is failure
    assert isinstance(caught.value.said, Said) and str(caught.value) == f"the store did not answer: {failure}"


def test_under_a_command_any_other_failure_of_the_store_is_a_store_error_in_one_line() -> None:
    failure = IntegrityError("UNIQUE constraint failed:\n  events.originator_id")
    with pytest.raises(StoreError) as caught, store_failures():
        raise failure
    assert not isinstance(caught.value, StoreUnavailable)  # no "try again": the store refused it
    assert caught.value.__cause__ is failure
    assert str(caught.value) == "the store failed: UNIQUE constraint failed: events.originator_id"
    with pytest.raises(KeyError), store_failures():  # not the store's: a bug, raised as it is
        raise KeyError("x")


def test_a_commands_store_is_opened_when_asked_for_checkpointed_and_closed_once(tmp_path: Path) -> None:
    from conftest import TENHOU

    from replay.service.recording.recording import start_match

    opened = OpenedStore(str(tmp_path / "club.sqlite"))
    assert opened.close() is None  # nothing opened: nothing to close
    assert not (tmp_path / "club.sqlite").exists()
    store = opened.app
    assert opened.app is store and opened.reader is store
    start_match(store, "m1", ["Ann", "Ben", "Cho", "Dai"], TENHOU, {"format": "honba"})
    assert store.wrote
    head = opened.checkpoint()
    assert len(head) == 64 and not store.wrote  # what was written is checkpointed: none left to take at close
    assert opened.close() is None
    assert opened.close() is None  # closed once: the second finds none open
    reopened = OpenedStore(str(tmp_path / "club.sqlite"))
    try:
        assert reopened.reader.wrote is False
    finally:
        reopened.close()
