"""Reading the store's rows below the application: what the checks and the store chain read through.

A row changed behind honba's back may fail to decode in any way; ``unreadable`` says why in
one line, and every reader names the row it could not read instead of failing.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, Mapper, Notification, StoredEvent


class Reader(Protocol):
    """The store as the checks read it: the recorder's rows and the mapper that decodes them
    (``replay.store.application.HonbaApp`` is one)."""

    @property
    def recorder(self) -> ApplicationRecorder: ...

    @property
    def mapper(self) -> Mapper[UUID]: ...


# An encoded event as the store's table holds it: its stream's id (32 hex digits, as the store spells
# ids), its position, topic and state. An import's reading workers hand their matches' rows over as
# these plain tuples: a tuple of text, a number and bytes is unpickled without a call, where a
# ``StoredEvent`` is an object with its dict of attributes rebuilt (issue 36, tenth round).
Row = tuple[str, int, str, bytes]


def row_of(record: StoredEvent, spelled: dict[UUID, str] | None = None) -> Row:
    """An encoded event as its row (its id a ``UUID``: every honba stream's). ``spelled``: the ids
    spelled so far, so that a stream's rows share one string (pickled once, then by reference)."""
    stream = record.originator_id
    assert isinstance(stream, UUID), stream
    return (spelled_id(stream, spelled), record.originator_version, record.topic, record.state)


def spelled_id(stream: UUID, spelled: dict[UUID, str] | None) -> str:
    """A stream's id as the table spells it, the string already made for it where ``spelled`` has one."""
    if spelled is None:
        return stream.hex
    hex_id = spelled.get(stream)
    if hex_id is None:
        hex_id = spelled[stream] = stream.hex
    return hex_id


def event_of(row: Row) -> StoredEvent:
    """A row as the encoded event it holds (``row_of`` undone)."""
    return StoredEvent(originator_id=UUID(row[0]), originator_version=row[1], topic=row[2], state=row[3])


def unreadable(exc: BaseException) -> str:
    """Why a row could not be read, in one line of at most 200 characters."""
    return " ".join(str(exc).split())[:200] or type(exc).__name__


def rows_of(reader: Reader, topics: Sequence[str]) -> Iterator[Notification]:
    """The stored rows of these topics, in the order they were stored."""
    start = 1
    while True:
        batch = reader.recorder.select_notifications(start=start, limit=500, topics=list(topics))
        if not batch:
            return
        yield from batch
        start = batch[-1].id + 1


def decoded(reader: Reader, rows: Sequence[Any]) -> list[tuple[int, Any, str]]:
    """Each stored row's position and its event, or (position, None, why) for a row that cannot be read."""
    found: list[tuple[int, Any, str]] = []
    for row in rows:
        try:
            found.append((row.originator_version, reader.mapper.to_domain_event(row), ""))
        except Exception as exc:  # a row changed behind honba's back, whatever broke in decoding
            found.append((row.originator_version, None, unreadable(exc)))
    return found
