"""A statement on PostgreSQL that fails for want of a connection is tried again, as many times as the
recorder says (``replay.store.pgstore``): the library's ten, 0.2 s apart, unless a test of an outage
shortens them (tests/e2e/test_web_input.py's outage test tries twice)."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator

import pytest
from eventsourcing.persistence import OperationalError

from replay.store.application import HonbaApp
from replay.store.pgstore import HonbaPostgresRecorder


@pytest.fixture
def unreachable(postgres_url: str) -> Iterator[tuple[HonbaPostgresRecorder, list[int]]]:
    """A PostgreSQL store's recorder once every connection fails, and the list of its tries."""
    app = HonbaApp.open(postgres_url)
    recorder = app.recorder
    assert isinstance(recorder, HonbaPostgresRecorder)
    tried: list[int] = []

    @contextlib.contextmanager
    def no_connection() -> Iterator[None]:
        tried.append(1)
        raise OperationalError("connection failed: the server is gone")
        yield  # pragma: no cover

    opened = recorder.datastore.get_connection
    recorder.datastore.get_connection = no_connection  # type: ignore[assignment, method-assign]
    yield recorder, tried
    recorder.datastore.get_connection = opened  # type: ignore[method-assign]
    app.close()


def test_the_library_s_ten_tries_a_fifth_of_a_second_apart_are_the_default(
    unreachable: tuple[HonbaPostgresRecorder, list[int]],
) -> None:
    recorder, _tried = unreachable
    assert (recorder.tries, recorder.pause) == (10, 0.2)


def test_a_statement_is_tried_as_many_times_as_the_recorder_says_then_fails(
    unreachable: tuple[HonbaPostgresRecorder, list[int]],
) -> None:
    recorder, tried = unreachable
    recorder.tries, recorder.pause = 3, 0.0
    with pytest.raises(OperationalError):
        recorder.select_events(uuid.uuid4())
    assert len(tried) == 3
    tried.clear()
    with pytest.raises(OperationalError):
        recorder.select_notifications(start=None, limit=1)
    assert len(tried) == 3
    tried.clear()
    recorder.tries = 1
    with pytest.raises(OperationalError):
        recorder.select_tails([(uuid.uuid4(), 1)])
    assert len(tried) == 1
