"""The records of imported files: a file read whole, found again by the digest of its bytes and options."""

from __future__ import annotations

from collections.abc import Sequence

from eventsourcing.persistence import IntegrityError

from replay.store.application import HonbaApp
from replay.store.identity import ImportedFile, file_record_id


def imported_file(store: HonbaApp, digest: str) -> ImportedFile | None:
    """The record of a file imported before with these bytes and options, or None
    (``replay.service.imports.batch.import_digests``)."""
    rows = store.recorder.select_events(file_record_id(digest), limit=1)
    if not rows:
        return None
    try:
        event = store.mapper.to_domain_event(rows[0])
    except Exception:  # a damaged record: the file is read again, as if never recorded
        return None
    if not isinstance(event, ImportedFile.Recorded) or event.digest != digest:
        return None
    return ImportedFile(event.digest, event.games, event.unsupported, event.warnings)


def record_imported(store: HonbaApp, records: Sequence[ImportedFile]) -> None:
    """Store the records of files whose games are all stored (one insert; one by one when some
    are there already: another import recorded the same file meanwhile)."""
    stored = [store.mapper.to_stored_event(event) for record in records for event in record.collect_events()]
    if not stored:
        return
    try:
        store.insert(stored)
    except IntegrityError:
        for row in stored:
            try:
                store.insert([row])
            except IntegrityError:
                continue
