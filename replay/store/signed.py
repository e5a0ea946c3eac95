"""Signed checkpoints kept in the store: the notes the organiser signed, and witnesses' cosignatures.

A signed checkpoint (``replay.formats.note``: C2SP's tlog-checkpoint in a signed note) states a
tree head of the checkpoints' Merkle log (``replay.store.checkpoint``) under the organiser's
Ed25519 key; it is what is published, and what a match's receipt and a consistency proof are
checked against. They are kept as events of one stream, one per size signed (``Signed``), and
the witnesses' cosignatures of them as they arrive (``Cosigned``): nothing replays them into an
aggregate, and no checkpoint covers them (they are statements about the log, not in it).
"""

from __future__ import annotations

from typing import Any
from uuid import NAMESPACE_URL, uuid5

import attrs
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from domain.said import Said
from domain.store_errors import StoreConflict
from replay.store.rows import Reader

SIGNED_ID = uuid5(NAMESPACE_URL, "honba:/signed-checkpoints")


class SignedCheckpoints(Aggregate):
    """The stream of signed checkpoints and their cosignatures."""

    class Signed(Aggregate.Event):
        """The organiser signed the checkpoint of ``size`` leaves: ``note`` the signed note as written,
        ``vkey`` the verifier key it was signed with."""

        size: int
        note: str
        vkey: str

    class Cosigned(Aggregate.Event):
        """A witness cosigned the checkpoint of ``size`` leaves: ``line`` its signature line."""

        size: int
        line: str


@attrs.frozen
class Kept:
    """The signed checkpoints as stored: each size's note, and the cosignature lines for each size."""

    notes: dict[int, str]
    vkeys: dict[int, str]
    cosignatures: dict[int, tuple[str, ...]]
    version: int
    # The size of the checkpoint signed last (a store rolled back and signed again signs a smaller one).
    latest: int | None = None


def kept(reader: Reader) -> Kept:
    """Every signed checkpoint and cosignature stored (a row that cannot be read is passed over:
    a note is checked by its signature wherever it is used)."""
    notes: dict[int, str] = {}
    vkeys: dict[int, str] = {}
    cosignatures: dict[int, list[str]] = {}
    version = 0
    latest: int | None = None
    for stored in reader.recorder.select_events(SIGNED_ID):
        version = stored.originator_version
        try:
            event = reader.mapper.to_domain_event(stored)
        except Exception:  # changed behind honba's back: its signature would not verify either
            continue
        if isinstance(event, SignedCheckpoints.Signed):
            if int(event.size) not in notes:
                notes[int(event.size)], vkeys[int(event.size)] = str(event.note), str(event.vkey)
            latest = int(event.size)
        elif isinstance(event, SignedCheckpoints.Cosigned):
            lines = cosignatures.setdefault(int(event.size), [])
            if event.line not in lines:
                lines.append(str(event.line))
    return Kept(notes, vkeys, {size: tuple(lines) for size, lines in cosignatures.items()}, version, latest)


def _append(app: Any, version: int, cls: type[Aggregate.Event], **fields: Any) -> None:
    event = cls(originator_id=SIGNED_ID, originator_version=version + 1, timestamp=cls.create_timestamp(), **fields)
    try:
        app.recorder.insert_events([app.mapper.to_stored_event(event)])
    except IntegrityError:
        raise StoreConflict(
            Said("another process signed or cosigned a checkpoint at the same moment; try again")
        ) from None


def keep_signed(app: Any, size: int, note: str, vkey: str) -> None:
    """Keep the organiser's signed checkpoint of ``size`` leaves, now the latest (the first note kept
    for a size stays)."""
    now = kept(app)
    if now.latest != size:  # a size signed before, signed again after others: the latest again, its note the first
        _append(app, now.version, SignedCheckpoints.Signed, size=size, note=note, vkey=vkey)


def keep_cosignature(app: Any, size: int, line: str) -> None:
    """Keep a witness's cosignature line of the checkpoint of ``size`` leaves (once)."""
    now = kept(app)
    if line not in now.cosignatures.get(size, ()):
        _append(app, now.version, SignedCheckpoints.Cosigned, size=size, line=line)
