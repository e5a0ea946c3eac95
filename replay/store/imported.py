"""The records of imported files: a file read whole, found again by the digest of its bytes and options."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import IntegrityError, StoredEvent

from replay.store.application import HonbaApp
from replay.store.identity import ImportedFile, file_record_id


def imported_file(store: HonbaApp, digest: str) -> ImportedFile.Recorded | None:
    """The record of a file imported before with these bytes and options, or None
    (``replay.service.imports.batch.import_digests``)."""
    rows = store.recorder.select_events(file_record_id(digest), limit=1)
    return _record(store, rows[0], digest) if rows else None


def imported_files(store: HonbaApp, digests: Sequence[str]) -> dict[str, ImportedFile.Recorded]:
    """The records of files imported before among these digests, by digest: ``imported_file`` of
    each, read in one statement where the store can (an import looks up the digests of the next
    files at once, not two statements per file): SQLite's ``select_streams``, PostgreSQL's
    ``select_tails`` from each record's first row; one read per digest on any other store."""
    recorder = store.recorder
    ids = {file_record_id(digest): digest for digest in digests}
    streams = getattr(recorder, "select_streams", None)
    tails = getattr(recorder, "select_tails", None)
    if streams is not None:
        rows = streams(list(ids))
    elif tails is not None:
        rows = tails([(stream, 1) for stream in ids])
    else:
        found = {digest: imported_file(store, digest) for digest in ids.values()}
        return {digest: record for digest, record in found.items() if record is not None}
    first: dict[Any, StoredEvent] = {}
    for row in rows:  # each stream's rows in order: its first is what ``imported_file`` reads
        first.setdefault(row.originator_id, row)
    records: dict[str, ImportedFile.Recorded] = {}
    for stream, row in first.items():
        digest = ids.get(stream)
        if digest is None:
            continue  # a row of no stream asked for (a store that read more than it was asked)
        record = _record(store, row, digest)
        if record is not None:
            records[digest] = record
    return records


def _record(store: HonbaApp, row: StoredEvent, digest: str) -> ImportedFile.Recorded | None:
    """The record a file record's first row holds (its event: the file's digest, games, unsupported
    games and warnings), when it is the record of that digest. The event itself, not an aggregate
    made of it: a re-import finds a record for every file."""
    try:
        event = store.mapper.to_domain_event(row)
    except Exception:  # a damaged record: the file is read again, as if never recorded
        return None
    if not isinstance(event, ImportedFile.Recorded) or event.digest != digest:
        return None
    return event


def record_imported(store: HonbaApp, records: Sequence[ImportedFile.Recorded]) -> None:
    """Store the records of files whose games are all stored (``ImportedFile.recorded``: one insert;
    one by one when some are there already: another import recorded the same file meanwhile)."""
    stored = [store.mapper.to_stored_event(record) for record in records]
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
