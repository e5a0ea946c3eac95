"""What the bulk import asks of the store's rows, in the event library's terms kept here: encoded
events inserted whole or not at all (``insert_whole``: False when a row is already there), whether
a stream has rows, a stream's events, a game's identity read (``read_identity``), and the matches
in the order they were started (``started_in_order``, for the ratings)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.persistence import IntegrityError, StoredEvent

from domain.match import Match
from replay.store.application import HonbaApp
from replay.store.errors import UNAVAILABLE
from replay.store.identity import GameIdentity, identity_id
from replay.store.rows import Row, unreadable

_STARTED = f"{Match.__module__}:{Match.Started.__qualname__}"


class RowsTaken(Exception):
    """Rows a bulk insert meant to write were written by another save meanwhile."""


class DamagedRow(Exception):
    """A row that no longer decodes as what honba wrote; ``why`` says how."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why


def insert_whole(store: HonbaApp, records: Sequence[StoredEvent]) -> bool:
    """Insert encoded events in one transaction: True, or False (nothing inserted) when a row one of
    them would write is already there (another stream's position taken)."""
    return inserted_at(store, records) is not None


def inserted_at(store: HonbaApp, records: Sequence[StoredEvent]) -> Sequence[int] | None:
    """``insert_whole``, giving the rows' positions in the notification log (as the recorder gives
    them), or None when nothing was inserted (a row one of them would write is already there)."""
    try:
        return store.insert(list(records))
    except IntegrityError:
        return None


def rows_inserted_at(store: HonbaApp, rows: Sequence[Row]) -> Sequence[int] | None:
    """``inserted_at`` of rows as the table holds them (``replay.store.rows.Row``)."""
    try:
        return store.insert_rows(rows)
    except IntegrityError:
        return None


def holds_stream(store: HonbaApp, stream: UUID | str) -> bool:
    """Whether the stream has any stored event."""
    return bool(store.recorder.select_events(stream, limit=1))


def stream_events(store: HonbaApp, stream: UUID) -> list[Any]:
    """A stream's stored events, decoded (none: an empty list)."""
    return list(store.events.get(stream))


def read_identity(store: HonbaApp, fingerprint: str) -> GameIdentity | None:
    """The identity of a game read from a log, or None where none is stored; ``DamagedRow`` for one
    that no longer decodes; a store that does not answer raises as it does."""
    try:
        identity: GameIdentity = store.repository.get(identity_id(fingerprint))
    except AggregateNotFoundError:
        return None
    except UNAVAILABLE:  # the store did not answer: nothing is known of the identity's rows
        raise
    except Exception as exc:  # an identity row that no longer decodes
        raise DamagedRow(unreadable(exc)) from None
    return identity


def started_in_order(app: HonbaApp) -> list[tuple[str, datetime]]:
    """Every stored match's key and start time, in the order the store recorded them (its start
    events read from the notification log in batches)."""
    found: list[tuple[str, datetime]] = []
    position = 0
    while True:
        batch = app.recorder.select_notifications(
            start=position, limit=5000, topics=[_STARTED], inclusive_of_start=False
        )
        if not batch:
            return found
        for notification in batch:
            try:
                event = app.mapper.to_domain_event(notification)
            except Exception:  # a start row changed behind honba's back: its match has no summary to rate
                continue  # (the standings view names it; honba check says more)
            found.append((str(event.key), event.timestamp))  # type: ignore[attr-defined]
        position = batch[-1].id
