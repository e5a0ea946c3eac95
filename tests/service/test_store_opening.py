"""What a front end takes of the store, from the service (replay/service/common/opening.py): the
store opened and handed on, whether a server's threads take turns on it, and the event library's
own errors of a store that did not answer said as the domain's ``StoreUnavailable`` (a 503 "try
again" on a page, never a refusal of what was sent, never the driver's words)."""

from __future__ import annotations

from pathlib import Path

import pytest
from eventsourcing.persistence import IntegrityError, InterfaceError, OperationalError

from domain.store_errors import StoreError, StoreUnavailable
from replay.service.common.opening import one_writer_at_a_time, open_store, store_answering


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
