"""A hand's statements on PostgreSQL send plain parameters, an import's large batches arrays (``replay.store.pgstore``).

psycopg dumps a list by looking for its elements' type in Python at every call; a hand's save and
load sent six lists. A few rows now go as one parameter per value, each kind of statement made once
per row count; a large batch keeps the arrays' one statement. Either way the same rows are stored,
under the same lock, their notification ids returned in the order given; a tail read gives every
stream's rows from its position on. Nothing is timed: the parameters sent are looked at.
"""

from __future__ import annotations

import uuid
from typing import Any

import psycopg
import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent

from domain.rules import load_preset
from domain.values import AbortiveDraw
from replay.service.recording import recording
from replay.store.application import HonbaApp
from replay.store.pgstore import FEW, HonbaPostgresRecorder

PLAYERS = ("Ann", "Ben", "Cho", "Dai")


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, Any]]:
    """Every statement psycopg's cursors or the recorder's prepared path (``_rows``) execute from
    here on, with its parameters."""
    seen: list[tuple[str, Any]] = []
    execute = psycopg.Cursor.execute
    prepared = HonbaPostgresRecorder._rows

    def noting(self: psycopg.Cursor[Any], query: Any, params: Any = None, **kwargs: Any) -> Any:
        text = query.decode() if isinstance(query, bytes) else query if isinstance(query, str) else repr(query)
        seen.append((text, params))
        return execute(self, query, params, **kwargs)

    def noting_prepared(self: HonbaPostgresRecorder, conn: Any, query: bytes, params: Any) -> Any:
        seen.append((query.decode(), params))
        return prepared(self, conn, query, params)

    monkeypatch.setattr(psycopg.Cursor, "execute", noting)
    monkeypatch.setattr(HonbaPostgresRecorder, "_rows", noting_prepared)
    return seen


def rows(count: int, version: int = 1) -> list[StoredEvent]:
    return [
        StoredEvent(uuid.uuid4(), version + n % 2, f"topic-{n}", f"state {n} \x00\xff".encode("latin-1"))
        for n in range(count)
    ]


def test_a_hand_recorded_sends_no_list_as_a_parameter(
    pg_opened: tuple[HonbaApp, HonbaPostgresRecorder], sent: list[tuple[str, Any]]
) -> None:
    app, _recorder = pg_opened
    recording.start_match(app, "m", PLAYERS, load_preset("tenhou"))
    recording.record(app, "m", AbortiveDraw("four_winds"))
    recording.record(app, "m", AbortiveDraw("four_winds"))
    ours = [(text, params) for text, params in sent if "honba_events" in text]
    assert any("honba_events_insert" in text for text, _params in ours)
    assert any("VALUES" in text for text, _params in ours)  # the tails' read
    for text, params in ours:
        assert not any(isinstance(value, list) for value in params or ()), text


@pytest.mark.parametrize("count", [1, 2, FEW, FEW + 1, 40])
def test_few_rows_and_many_store_the_same_and_return_their_ids_in_order(
    pg_opened: tuple[HonbaApp, HonbaPostgresRecorder], sent: list[tuple[str, Any]], count: int
) -> None:
    _app, recorder = pg_opened
    given = rows(count)
    ids = recorder.insert_events(given)
    assert ids is not None and len(ids) == count and list(ids) == sorted(ids)
    (_text, params), *_ = [(t, p) for t, p in sent if "honba_events_insert" in t]
    assert any(isinstance(value, list) for value in params) == (count > FEW)
    stored = recorder.select_notifications(start=ids[0], limit=count)
    assert [(n.id, n.originator_id, n.originator_version, n.topic, n.state) for n in stored] == [
        (i, e.originator_id, e.originator_version, e.topic, e.state) for i, e in zip(ids, given, strict=True)
    ]
    # A row there already: nothing of the batch is inserted, whatever its size.
    fresh = rows(max(1, count - 1))
    with pytest.raises(IntegrityError):
        recorder.insert_events([*fresh, given[-1]])
    assert recorder.select_events(fresh[0].originator_id) == []


def test_tails_read_every_stream_from_its_position_on(pg_opened: tuple[HonbaApp, HonbaPostgresRecorder]) -> None:
    _app, recorder = pg_opened
    first, second, third = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    made = [StoredEvent(stream, v, "t", b"x%d" % v) for stream in (first, second, third) for v in range(1, 5)]
    recorder.insert_events(made)
    got = recorder.select_tails([(first, 3), (second, 1)])
    assert [(e.originator_id, e.originator_version) for e in got] == sorted(
        [(first, 3), (first, 4), (second, 1), (second, 2), (second, 3), (second, 4)], key=lambda p: (str(p[0]), p[1])
    )
    assert recorder.select_tails([(third, 9)]) == []
    assert recorder.select_tails([]) == []
