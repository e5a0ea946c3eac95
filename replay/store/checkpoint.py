"""Checkpoints: the store-wide evidence that no covered save was rolled back, written apart from the saves.

A match's own chain and seal show an event changed or removed; they cannot show the last
events of a match removed together with its last seal row (a rollback), since what is left is
a shorter history sealed as such. A checkpoint records, for every match and tournament saved
since the checkpoint before, its sealed (position, head digest), and for every game identity
and imported file's record stored since, the digest of its one event: the *leaves* it appends
to an append-only Merkle log (``replay.store.merkle``, RFC 6962's tree, as Certificate
Transparency keeps one). It states the tree head (how many leaves, the root over all of them)
and names the digest of the checkpoint before, so that the digest of the last checkpoint, the
**store head digest**, commits to every leaf of every checkpoint.

Saves never touch a shared row: a checkpoint is written after them, in batches (Trillian
sequences queued leaves into its tree the same way), by ``honba serve`` every few seconds
while something changed, by ``honba checkpoint``, and at the end of every command that wrote.
Whoever holds the checkpoint lock writes it; anyone else skips, never waiting or trying again
in a loop: the next one covers what this one would have.

``honba check`` then reads every checkpoint (``read_checkpoints``), checks their chain and tree
heads, and compares each stream's stored events with every (position, head) a checkpoint
recorded of it: a rollback of anything a checkpoint covers leaves a leaf that names events no
longer stored. What was saved after the last checkpoint is covered by nothing yet; the match's
head digest, published when it was recorded, catches a rollback of it, as the store head
digest published before catches a rollback of the last checkpoint with what it covered.

The checkpoint writer reads the saves since the last checkpoint from the notification log
(``upto``: the last notification it covered). It must never miss one: it relies on the
notification ids appearing in the order the saves commit (``replay.store.pgstore``).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

import attrs
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError
from eventsourcing.utils import get_topic

from domain.integrity import (
    GENESIS,
    ChainProblem,
    Link,
    check_chain,
    event_digest,
    read_back_digest,
    unique_problems,
)
from domain.said import Said
from replay.store.chain import store_head as chain_head
from replay.store.findings import MatchCheck
from replay.store.identity import OLD_MODULE as OLD_IDENTITY_MODULE
from replay.store.identity import GameIdentity, ImportedFile
from replay.store.merkle import append, leaf_hash, root
from replay.store.rows import Reader, unreadable
from replay.store.seal import OLD_MODULE as OLD_SEAL_MODULE
from replay.store.seal import Seal

# The id of the checkpoints' stream: one per store.
CHECKPOINTS_ID = uuid5(NAMESPACE_URL, "honba:/checkpoints")
# Notifications read by a checkpoint at a time.
BATCH = 500
# Seals whose stream a process keeps in mind between checkpoints (``HonbaApp.sealed_streams``); past
# that, forgotten and read again from the store when sealed again: a long import or server stays bounded.
SEALS_KEPT = 2_000


class Checkpoint(Aggregate):
    """The stream of checkpoints. Written directly as events (``Taken``): nothing replays them into
    an aggregate, so taking one reads only the last."""

    class Taken(Aggregate.Event):
        """A checkpoint: ``leaves`` ([stream id, position, head digest], one per stream saved since
        the checkpoint before, sorted by id) appended to the Merkle log, which then holds ``size``
        leaves with root ``root`` (``frontier``: the roots of its perfect subtrees, to append the
        next leaves to); ``upto`` the last notification covered; ``prior`` the digest of the
        checkpoint before (``""`` for the first)."""

        upto: int
        leaves: list[Any]
        size: int
        frontier: list[str]
        root: str
        prior: str


def _topics(cls: type[Any], old_module: str | None = None) -> tuple[str, ...]:
    topic = get_topic(cls)
    return (topic, f"{old_module}:{cls.__qualname__}") if old_module else (topic,)


# The rows a checkpoint covers: a seal's (a match's or tournament's sealed position and head), a
# game identity's and an imported file's record (one event each: the leaf is its digest).
SEALED_TOPICS = _topics(Seal.Sealed, OLD_SEAL_MODULE)
OPENED_TOPICS = _topics(Seal.Opened, OLD_SEAL_MODULE)
SINGLE_TOPICS = (
    *_topics(GameIdentity.Claimed, OLD_IDENTITY_MODULE),
    *_topics(ImportedFile.Recorded, OLD_IDENTITY_MODULE),
)
COVERED_TOPICS = (*SEALED_TOPICS, *OPENED_TOPICS, *SINGLE_TOPICS)


def leaf_of(stream: UUID, position: int, head: str) -> list[Any]:
    """One leaf: a stream's id, its last position and its head digest, as plain data."""
    return [str(stream), position, head]


@attrs.frozen
class Last:
    """The last checkpoint as the next one needs it: its number, digest, coverage and tree."""

    number: int = 0
    digest: str = GENESIS
    upto: int = 0
    size: int = 0
    frontier: tuple[str, ...] = ()


def last_checkpoint(reader: Reader) -> Last:
    """The last checkpoint stored (an empty one before the first); ``CheckpointDamaged`` when it
    cannot be read (``honba check`` names it)."""
    rows = reader.recorder.select_events(CHECKPOINTS_ID, desc=True, limit=1)
    if not rows:
        return Last()
    try:
        event = reader.mapper.to_domain_event(rows[0])
        assert isinstance(event, Checkpoint.Taken)
        return Last(rows[0].originator_version, event_digest(event), event.upto, event.size, tuple(event.frontier))
    except Exception as exc:  # changed behind honba's back, whatever broke in decoding
        raise CheckpointDamaged(
            f"the last checkpoint ({rows[0].originator_version}) cannot be read: {unreadable(exc)}; see honba check"
        ) from None


class CheckpointDamaged(Exception):
    """The last checkpoint cannot be read: no checkpoint is taken after it (``honba check`` says why)."""


def store_head(reader: Reader) -> str:
    """The store head digest: the digest of the last checkpoint (``""`` before the first, or when it
    cannot be read); a store whose saves were linked by the store chain before checkpoints, and
    that has none yet, has its chain's head."""
    try:
        last = last_checkpoint(reader)
    except CheckpointDamaged:
        return GENESIS
    return last.digest if last.number else chain_head(reader)


def _covered_rows(reader: Reader, upto: int) -> Iterator[Any]:
    start = upto
    while True:
        batch = reader.recorder.select_notifications(
            start=start, limit=BATCH, topics=list(COVERED_TOPICS), inclusive_of_start=False
        )
        yield from batch
        if len(batch) < BATCH:
            return
        start = batch[-1].id


def pending_leaves(reader: Reader, upto: int, streams_of: dict[UUID, UUID]) -> tuple[list[list[Any]], int]:
    """The leaves saved since notification ``upto``, one per stream (its last), sorted by id, and the
    last notification read. ``streams_of`` maps a seal's id to the stream it seals: the seals opened
    before ``upto`` that were looked up in the store (added here).

    A seal opened since ``upto`` is found by its first row, read here; it is not kept in ``streams_of``:
    an import opens and seals each match in one save and never seals it again, so keeping every seal
    it opened grew a long import's process by one entry per match (with the checkpoint's own rows,
    several MiB at ten times the corpus, issue 36). A seal sealed again later (a server's next hand)
    is looked up once then (``_sealed_stream``) and kept from there on."""
    latest: dict[UUID, tuple[int, str]] = {}
    sealed: list[tuple[UUID, int, str]] = []
    opened: dict[UUID, UUID] = {}
    last = upto
    for row in _covered_rows(reader, upto):
        last = row.id
        try:
            event = reader.mapper.to_domain_event(row)
        except Exception:  # a row that cannot be read is covered by nothing: honba check names it
            continue
        if isinstance(event, Seal.Opened):
            opened[event.originator_id] = event.match_id
        elif isinstance(event, Seal.Sealed):
            sealed.append((event.originator_id, event.position, event.head))
        elif isinstance(event, GameIdentity.Claimed | ImportedFile.Recorded):
            latest[event.originator_id] = (1, read_back_digest(event))
    for seal, position, head in sealed:
        stream = opened.get(seal) or streams_of.get(seal)
        if stream is None:
            stream = _sealed_stream(reader, seal)
            if stream is None:
                continue  # a seal whose first row is gone: honba check names it
            streams_of[seal] = stream
        if position >= latest.get(stream, (0, ""))[0]:
            latest[stream] = (position, head)
    leaves = [leaf_of(stream, position, head) for stream, (position, head) in latest.items()]
    return sorted(leaves, key=lambda leaf: str(leaf[0])), last


def _sealed_stream(reader: Reader, seal: UUID) -> UUID | None:
    rows = reader.recorder.select_events(seal, limit=1)
    try:
        opened = reader.mapper.to_domain_event(rows[0]) if rows else None
    except Exception:  # a seal's first row that cannot be read
        return None
    return opened.match_id if isinstance(opened, Seal.Opened) else None


def checkpoint_event(last: Last, leaves: Sequence[list[Any]], upto: int) -> Checkpoint.Taken:
    """The checkpoint after ``last`` appending ``leaves``, covering notifications up to ``upto``."""
    frontier, size = append(last.frontier, last.size, (leaf_hash(leaf) for leaf in leaves))
    fields: dict[str, Any] = {
        "originator_id": CHECKPOINTS_ID,
        "originator_version": last.number + 1,
        "timestamp": Checkpoint.Taken.create_timestamp(),
        "upto": upto,
        "leaves": [list(leaf) for leaf in leaves],
        "size": size,
        "frontier": frontier,
        "root": root(frontier),
        "prior": last.digest,
    }
    return Checkpoint.Taken(**fields)


@attrs.frozen
class Taken:
    """What ``take_checkpoint`` did: the last checkpoint's number and the store head digest after
    it; ``leaves`` how many the checkpoint taken now appended, or ``skipped`` why none was taken
    (``nothing new``, ``locked``: another process is taking one, ``damaged``: the last cannot be read)."""

    number: int
    head: str
    leaves: int = 0
    skipped: str = ""

    @property
    def taken(self) -> bool:
        """Whether a checkpoint was taken now."""
        return not self.skipped


def take_checkpoint(app: Any) -> Taken:
    """Take a checkpoint of everything saved since the last one, unless nothing was, or another
    process holds the checkpoint lock (then skip: never wait, never try again in a loop).

    ``app``: the store (``HonbaApp``), whose ``checkpoint_lock`` and seal-to-stream map it uses.
    """
    with app.checkpoint_lock() as held:
        try:
            last = last_checkpoint(app)
        except CheckpointDamaged:
            return Taken(0, GENESIS, skipped="damaged")
        if not held:
            return Taken(last.number, last.digest, skipped="locked")
        if len(app.sealed_streams) > SEALS_KEPT:
            app.sealed_streams.clear()
        leaves, upto = pending_leaves(app, last.upto, app.sealed_streams)
        if not leaves:
            return Taken(last.number, last.digest, skipped="nothing new")
        event = checkpoint_event(last, leaves, upto)
        try:
            app.recorder.insert_events([app.mapper.to_stored_event(event)])
        except IntegrityError:  # another process took this checkpoint without holding the lock
            return Taken(last.number, last.digest, skipped="locked")
        return Taken(event.originator_version, event_digest(event), len(leaves))


def something_to_cover(reader: Reader, upto: int) -> bool:
    """Whether anything a checkpoint covers was saved after notification ``upto``."""
    return bool(
        reader.recorder.select_notifications(start=upto, limit=1, topics=list(COVERED_TOPICS), inclusive_of_start=False)
    )


# The checkpoint lock: a try-lock, held while a checkpoint is read and written.


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[bool]:
    """A try-lock on a file beside a SQLite store: True when this process holds it."""
    try:
        handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield True  # a read-only directory: the checkpoint's own insert still decides who wins
        return
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
    finally:
        os.close(handle)


@contextlib.contextmanager
def thread_lock(lock: threading.Lock) -> Iterator[bool]:
    """A try-lock in this process (an in-memory store)."""
    held = lock.acquire(blocking=False)
    try:
        yield held
    finally:
        if held:
            lock.release()


# What ``honba check`` reads: every checkpoint, checked, and what they say of each stream.


@attrs.frozen
class Checkpoints:
    """The checkpoints as read: their own check, and each stream's leaves in order, each as
    (position, head, the number of the checkpoint that recorded it)."""

    check: MatchCheck
    streams: Mapping[UUID, tuple[tuple[int, str, int], ...]]
    upto: int = 0


def read_checkpoints(reader: Reader) -> Checkpoints:
    """Read and check every checkpoint: each names the digest of the one before, follows it
    without a gap, and states the tree head its leaves make when appended to the one before."""
    links: list[Link] = []
    problems: list[ChainProblem] = []
    streams: dict[UUID, list[tuple[int, str, int]]] = {}
    frontier: tuple[str, ...] = ()
    size = 0
    upto = 0
    for stored in reader.recorder.select_events(CHECKPOINTS_ID):
        number = stored.originator_version
        try:
            event = reader.mapper.to_domain_event(stored)
            assert isinstance(event, Checkpoint.Taken)
            leaves = [(UUID(str(leaf[0])), int(leaf[1]), str(leaf[2])) for leaf in event.leaves]
        except Exception as exc:  # whatever broke in decoding: the row was changed behind honba's back
            problems.append(
                ChainProblem(
                    number,
                    "altered",
                    Said("checkpoint {number} cannot be read: {why}", number=number, why=unreadable(exc)),
                )
            )
            links.append(Link(number, f"unreadable-{number}", links[-1].digest if links else GENESIS))
            frontier, size = (), -1  # the tree before the next is unknown: its own head is taken as stated
            continue
        links.append(Link(number, event_digest(event), event.prior))
        # After a gap (a checkpoint removed, named by the chain), its tree head is taken as stated.
        before = links[-2].position if len(links) > 1 else 0
        follows = before == number - 1
        if size >= 0 and follows:
            expected, grown = append(frontier, size, (leaf_hash(leaf_of(*leaf)) for leaf in leaves))
            if (tuple(expected), grown, root(expected)) != (tuple(event.frontier), event.size, event.root):
                detail = Said(
                    "its tree head does not follow from checkpoint {number}'s and its own leaves", number=number - 1
                )
                problems.append(ChainProblem(number, "altered", detail))
        frontier, size, upto = tuple(event.frontier), event.size, event.upto
        for stream, position, head in leaves:
            streams.setdefault(stream, []).append((position, head, number))
    problems += check_chain(links, noun="checkpoint")
    head = links[-1].digest if links else GENESIS
    digests = tuple(link.digest for link in links)
    check = MatchCheck(
        "checkpoints", len(links), head, tuple(unique_problems(problems)), digests=digests, noun="checkpoint"
    )
    return Checkpoints(check, {stream: tuple(leaves) for stream, leaves in streams.items()}, upto)


def leaf_log(reader: Reader) -> list[list[Any]]:
    """Every leaf of the Merkle log in the order the checkpoints appended them ([stream id,
    position, head digest] each): what an inclusion or consistency proof is computed from. A
    checkpoint that cannot be read ends the log there (``honba check`` names it)."""
    leaves: list[list[Any]] = []
    for stored in reader.recorder.select_events(CHECKPOINTS_ID):
        try:
            event = reader.mapper.to_domain_event(stored)
            assert isinstance(event, Checkpoint.Taken)
            leaves += [leaf_of(UUID(str(leaf[0])), int(leaf[1]), str(leaf[2])) for leaf in event.leaves]
        except Exception:  # whatever broke in decoding: the proofs stop where the log is unreadable
            break
    return leaves
