"""Stored views: documents keyed by kind and key, written with a tracking record in one transaction.

A view is an ``eventsourcing`` tracking recorder: every write of view documents
also records the position of the last event it took into account, in the same
transaction, so each event counts exactly once (writing a position again raises
``IntegrityError`` and changes nothing). This module holds the protocol
(``DocumentView``, ``ViewMoved``) and the one in memory, which the projection and
its tests need; the SQLite and PostgreSQL views, which speak SQL, are the store's
(``replay/store/views.py``, ``replay/store/postgres_views.py``).
"""

from __future__ import annotations

import json
import threading
from abc import abstractmethod
from collections.abc import Iterable, Mapping
from typing import Any

from eventsourcing.persistence import IntegrityError, Tracking, TrackingRecorder
from eventsourcing.popo import POPOTrackingRecorder

from domain.integrity import exact_canonical, json_exactly


class ViewMoved(IntegrityError):
    """Another writer moved the view on since this one read its position: fold again from there."""


def moved(tracking: Tracking, expected: int | None) -> ViewMoved:
    """The error a compare-and-set write raises when the view is no longer where its writer read it."""
    return ViewMoved(
        f"the view is no longer at {expected or 0} (writing {tracking.notification_id} for {tracking.application_name})"
    )


DocKey = tuple[str, str]
# Documents to write: each as data, as its text (``encoded``: worked out where it was computed, an
# import's reading worker, so that the process that writes it neither carries nor encodes the data),
# or None to delete it.
Changes = Mapping[DocKey, dict[str, Any] | str | None]
# Documents as their text (``encoded``), or None to delete.
Encoded = Mapping[DocKey, str | None]


def encoded(data: dict[str, Any] | str) -> str:
    """A document's text as every view stores it: its canonical JSON (``domain.integrity.canonical``:
    sorted keys, no spaces, UTF-8), written by ``orjson`` where that gives the same text
    (``exact_canonical``); text given already (``Changes``) as it is.

    Compact since the standings view's layout 8 (``projections.standings_view.FORMAT``): the standard
    encoder with its default separators cost an import about a third of the time it spends on the
    view's documents. Readers parse the text (``json.loads``) and never compare it."""
    if isinstance(data, str):
        return data
    # Not kept among the bytes found clean (``json_exactly``'s ``kept``): a document is written once, and
    # hashing it to be kept, for nothing, pushed out what is looked up again (a match's rules).
    found = json_exactly(data, kept=False)
    return (found if found is not None else exact_canonical(data)).decode("utf-8")


TABLE = "honba_view_docs"


class DocumentView(TrackingRecorder):
    """A tracking recorder that also holds JSON documents by (kind, key)."""

    @abstractmethod
    def get_doc(self, kind: str, key: str) -> dict[str, Any] | None:
        """The document, or None."""

    def get_docs(self, keys: Iterable[DocKey]) -> dict[DocKey, dict[str, Any] | None]:
        """Many documents at once (None for each one absent); a view may read them in one go."""
        return {key: self.get_doc(*key) for key in keys}

    @abstractmethod
    def docs(self, kind: str, prefix: str = "") -> list[tuple[str, dict[str, Any]]]:
        """Every document of a kind (whose key starts with ``prefix``), by key."""

    @abstractmethod
    def put_docs(self, changes: Changes, tracking: Tracking, *, expected: int | None = None) -> None:
        """Write (or delete, for None) documents and the tracking record in one transaction.

        With ``expected`` (the position the writer read, 0 for none), the write is a
        compare-and-set: it happens only if the view still stands at that position, and
        otherwise raises ``ViewMoved`` and changes nothing. Every writer of the view writes
        this way, so what a writer read stays what the view held until its write: any
        number of catch-ups and followers share one view without counting an event twice.
        """

    @abstractmethod
    def reset(self, application_name: str, *, expected: int) -> None:
        """Delete every document and the application's tracked position, in one transaction.

        A compare-and-set like ``put_docs``: only if the view still stands at ``expected``,
        else ``ViewMoved`` and nothing changes (another writer rebuilt it meanwhile). The next
        catch-up then folds the whole log again: the view is derived data.
        """


class POPODocumentView(POPOTrackingRecorder, DocumentView):
    """Documents in memory (tests, ``--db :memory:``)."""

    def __init__(self) -> None:
        super().__init__()
        self._docs: dict[DocKey, str] = {}
        self._docs_lock = threading.Lock()

    def get_doc(self, kind: str, key: str) -> dict[str, Any] | None:
        with self._docs_lock:
            text = self._docs.get((kind, key))
        return None if text is None else dict(json.loads(text))

    def docs(self, kind: str, prefix: str = "") -> list[tuple[str, dict[str, Any]]]:
        with self._docs_lock:
            items = [(k, v) for (d, k), v in self._docs.items() if d == kind and k.startswith(prefix)]
        return [(k, json.loads(v)) for k, v in sorted(items)]

    def put_docs(self, changes: Changes, tracking: Tracking, *, expected: int | None = None) -> None:
        with self._database_lock, self._docs_lock:
            if expected is not None and (self._max_tracking_ids[tracking.application_name] or 0) != expected:
                raise moved(tracking, expected)
            self._assert_tracking_uniqueness(tracking)
            for key, data in changes.items():
                if data is None:
                    self._docs.pop(key, None)
                else:
                    self._docs[key] = encoded(data)
            self._insert_tracking(tracking)

    def reset(self, application_name: str, *, expected: int) -> None:
        with self._database_lock, self._docs_lock:
            if (self._max_tracking_ids.get(application_name) or 0) != expected:
                raise moved(Tracking(application_name, 0), expected)
            self._docs.clear()
            self._max_tracking_ids.pop(application_name, None)


__all__ = [
    "Changes",
    "DocumentView",
    "Encoded",
    "IntegrityError",
    "POPODocumentView",
    "ViewMoved",
]
