"""What one process last checked of the matches it records on: a save's cost independent of the match's length.

A command loads the match it records on (``HonbaApp.load``) and refuses it unless its chain and
seal check. Checked whole, that is every event read, decoded and hashed again at every hand: a
hand cost more the longer the match (issue 36). A process that has checked a match (loaded it
whole, or saved it) keeps here what it found: the last position and head digest it checked, the
seal as it read or wrote it, and the aggregate as of that position (a private copy, never handed
out). The next load of that match reads only the rows from that position on (``tail_rows``: the
last checked event and seal row again, and any after them), checks them against what is kept,
and applies the new events to a copy of the kept aggregate (``after``).

What such a check sees, and what it does not (docs/audit.md, "What a command checks before it
records"): every row another process saved since (each names the digest before it, from the head
kept here), the seal (its last row, which must name the chain's new end), and the last event and
seal row checked before (a change or removal of either is seen). A row before those, changed
behind honba's back between two saves of a long-running process, is not read: the new events
still name the digest this process checked (never the changed row's), and the seal the next save
writes covers that head, so ``honba check`` (and the checkpoints) name the change where it is;
every read for a person (the status, the audit, the check) reads the match whole.

Whatever does not match what is kept (a row changed, missing, unreadable, a seal that does not
name the chain's end, a save caught half-way between two reads) is not judged here: the caller
forgets the entry and loads the match whole, whose check names the damage as it always did.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime
from typing import Any, TypeVar
from uuid import UUID

import attrs
from eventsourcing.persistence import Notification

from domain.integrity import event_digest
from domain.match import Match, match_id
from replay.store.rows import Reader, decoded
from replay.store.seal import Seal, seal_id

A = TypeVar("A")

# How many matches one process keeps: a server records on its open tables' matches (a few hundred
# at most at once); a match not kept is loaded whole once, then kept again.
KEPT = 512


# The containers ``detached`` copies (subclasses too: their own ``copy``).
_COPIED = (list, dict, set)
# Classes whose values ``detached`` shares without asking further (immutable, no container's subclass).
_SHARED = frozenset({str, int, bool, float, tuple, bytes, type(None), UUID, datetime})

# The library's aggregate's attributes (``BaseAggregate.__base_init__``): its one container is its
# pending events.
_BASE = ("_id", "_version", "_created_on", "_modified_on")
# A match's and a seal's attributes, as their ``__init__`` sets them (``domain.match.Match``,
# ``replay.store.seal.Seal``), after the library's: first those that hold a list, a dict or a set
# (``scored`` is None after a correction), then those that hold values shared safely (text, numbers,
# tuples, frozen values, ids, times). ``tests/service/test_checked_loads.py`` checks them against
# matches and seals in every state the tests make.
_MATCH_CONTAINERS = (
    "_pending_events",
    "source",
    "opening",
    "history",
    "corrections",
    "correction_log",
    "client_keys",
    "client_key_targets",
    "scored",
    "unscored",
    "clock_log",
    "pending_data",
)
_MATCH_SHARED = ("key", "players", "rules", "checks", "named", "head", "last_entry_key", "played", "ahead", "clock")
_SEAL_SHARED = ("match_id", "position", "head")
# By class: how many attributes an instance holds, and those ``detached`` copies.
_LAYOUTS: dict[type, tuple[int, tuple[str, ...]]] = {
    Match: (len(_BASE) + len(_MATCH_CONTAINERS) + len(_MATCH_SHARED), _MATCH_CONTAINERS),
    Seal: (len(_BASE) + 1 + len(_SEAL_SHARED), ("_pending_events",)),
}


def detached(aggregate: A) -> A:
    """A copy of an aggregate that shares no list, dict or set with it (its values are frozen
    attrs values, tuples and strings, shared safely): a command on the copy changes nothing kept,
    in the time of a few list copies rather than a deep copy's.

    Made as ``copy.copy`` makes an object without a ``__copy__`` (a new instance of its class, its
    attributes set), without the copy module's reduce protocol: four of these a hand were a
    tenth of the service call's instructions (issue 36, thirteenth round). A match or a seal holding
    exactly the attributes its class sets (``_LAYOUTS``) has its containers copied by name, its other
    values shared without asking each what it is: a match's 26 values asked one by one were half the
    copy's instructions (issue 36, nineteenth round); anything else is asked value by value."""
    cls = type(aggregate)
    twin = cls.__new__(cls)
    state = vars(twin)
    state.update(vars(aggregate))
    layout = _LAYOUTS.get(cls)
    if layout is not None and len(state) == layout[0]:
        for name in layout[1]:
            value = state[name]
            if value is not None:
                state[name] = value.copy()
        return twin
    for name, value in state.items():
        # Most values are text, numbers, tuples and frozen values: their exact class answers
        # before ``isinstance`` walks a class's bases for each of the three containers.
        if type(value) not in _SHARED and isinstance(value, _COPIED):
            state[name] = value.copy()
    return twin


# The streams and positions a tails' read asks for: ((the match, its last checked position), (its
# seal, the last seal row read)).
Wanted = tuple[tuple[UUID, int], tuple[UUID, int]]


@attrs.frozen
class WrittenRow:
    """A stored row as written: its position, topic and state's bytes. A row read back with all
    three the same decodes to the very event written (the same bytes through the same mapper).
    A save keeps the library's own notification of each row where its state is bytes (the same
    three attributes: ``Written``), one of these otherwise."""

    originator_version: int
    topic: str
    state: bytes


# A row as a save wrote it: a ``WrittenRow``, or the library's notification of it (its state bytes).
Written = WrittenRow | Notification


def same_row(written: Written, row: Any) -> bool:
    """Whether a row read (``StoredEvent`` or ``Notification``) is the one written, byte for byte."""
    return bool(
        row.originator_version == written.originator_version
        and row.topic == written.topic
        and row.state == written.state
    )


@attrs.frozen
class Checked:
    """A match as one process last checked it: its aggregate (as of ``match.version``, head
    ``match.head``) and its seal (as of ``seal.version``, naming ``seal.position``, ``seal.head``).
    Both are private: copies (``detached``), or the very match and seal a save wrote, which their
    caller only reads from then on (``HonbaApp.save_match``). ``rows``: the match's last row and its seal's last row
    as this process wrote them (``Written``), when it saved both last; None otherwise (``after``
    decodes and digests them again). ``wanted``: what the next tails' read asks for (``wanted_tails``:
    the match's id and version, its seal's id and version), made once when kept rather than asked of
    the aggregates (the library's ``version`` a property, the seal's id a lookup by ``UUID``, whose
    hash is a Python function) twice a hand."""

    match: Match
    seal: Seal
    rows: tuple[Written, Written] | None
    wanted: Wanted


class CheckedMatches:
    """The matches one process checked, by key: at most ``KEPT``, the least recently used forgotten
    first. Thread-safe (a server records on many tables at once); entries are never changed in place."""

    def __init__(self, kept: int = KEPT):
        self._kept = kept
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, Checked] = OrderedDict()

    def get(self, key: str) -> Checked | None:
        """What was last checked of the match with that key, if this process keeps it."""
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def keep(
        self,
        match: Match,
        seal: Seal,
        *,
        replace: bool = False,
        rows: tuple[Written, Written] | None = None,
        seal_given: bool = False,
        match_given: bool = False,
    ) -> None:
        """Keep copies of a match and its seal as just checked (or saved): unless what is kept of it
        is already later (another thread of this process saved it since) and ``replace`` is not
        asked (a match checked whole, after what was kept no longer matched). ``rows``: the match's
        and the seal's last rows as just written (a save's). ``seal_given``: the seal is kept itself,
        not a copy (a save's, whose caller holds it no longer: ``HonbaApp.save_match``). ``match_given``:
        the match is kept itself, not a copy (a save's whose caller only reads it from now on, and
        scored up to date, so that its reads change nothing in it: ``Match.score``)."""
        version, seal_version = match.version, seal.version
        if seal.position != version or seal.head != match.head:
            return  # a seal that does not name this very match's end is not a check's result
        if rows is not None and (rows[0].originator_version, rows[1].originator_version) != (version, seal_version):
            rows = None  # not this very match's and seal's last rows
        match_uuid = match_id(match.key)
        wanted = ((match_uuid, version), (seal_id(match_uuid), seal_version))
        checked = Checked(
            match if match_given else detached(match), seal if seal_given else detached(seal), rows, wanted
        )
        with self._lock:
            kept = self._entries.get(match.key)
            if kept is not None and kept.wanted[0][1] > version and not replace:
                return
            self._entries[match.key] = checked
            self._entries.move_to_end(match.key)
            while len(self._entries) > self._kept:
                self._entries.popitem(last=False)

    def forget(self, key: str) -> None:
        """Forget a match (what was kept no longer matches the store: it is loaded whole next)."""
        with self._lock:
            self._entries.pop(key, None)


def wanted_tails(match_uuid: UUID, checked: Checked) -> Wanted:
    """What ``tail_rows`` reads for ``checked``: the match's rows from its last checked position on,
    its seal's from the last seal row read."""
    wanted = checked.wanted
    if wanted[0][0] is match_uuid:  # the id ``match_id`` keeps: the one ``keep`` found
        return wanted
    return ((match_uuid, wanted[0][1]), (seal_id(match_uuid), wanted[1][1]))


def tail_rows(
    reader: Reader, match_uuid: UUID, checked: Checked, ahead: tuple[Wanted, list[Any]] | None = None
) -> tuple[list[Any], list[Any]]:
    """The match's rows from its last checked position on, and its seal's from the last seal row
    read: one statement on PostgreSQL and SQLite (``select_tails``: one snapshot of both streams),
    two reads on a recorder without it (a save caught between them is seen as a mismatch, and the
    match is loaded whole). ``ahead``: those rows read already, with the positions they were read
    from (``HonbaApp.reading_ahead``: with the token's row), used when they are the ones wanted
    now (nothing else of this process checked the match since), else read again."""
    wanted = wanted_tails(match_uuid, checked)
    stream_seal = wanted[1][0]
    if ahead is not None and ahead[0] == wanted:
        return _streams(ahead[1], match_uuid, stream_seal)
    tails = getattr(reader.recorder, "select_tails", None)
    if tails is not None:
        return _streams(tails(wanted), match_uuid, stream_seal)
    events = list(reader.recorder.select_events(match_uuid, gt=checked.match.version - 1))
    seals = list(reader.recorder.select_events(stream_seal, gt=checked.seal.version - 1))
    return events, seals


def _streams(rows: list[Any], match_uuid: UUID, seal_uuid: UUID) -> tuple[list[Any], list[Any]]:
    """The rows of the match's stream and those of its seal's, in order. A row read names its stream
    by an id of its own (equal, not the same object): compared by their numbers where both are
    exactly ``UUID`` (what ``UUID.__eq__``, a Python function, compares), else by ``==``."""
    match_number, seal_number = match_uuid.int, seal_uuid.int
    match_rows, seal_rows = [], []
    for row in rows:
        stream = row.originator_id
        if type(stream) is UUID:
            if stream.int == match_number:
                match_rows.append(row)
            elif stream.int == seal_number:
                seal_rows.append(row)
        elif stream == match_uuid:
            match_rows.append(row)
        elif stream == seal_uuid:
            seal_rows.append(row)
    return match_rows, seal_rows


def _seal_says(event: Any) -> tuple[int, str] | None:
    """What a seal row says of its match: the position and head it sealed (none yet when opened)."""
    if isinstance(event, Seal.Sealed):
        return (event.position, event.head)
    if isinstance(event, Seal.Opened):
        return (0, "")
    return None


def after(
    reader: Reader, key: str, match_uuid: UUID, checked: Checked, ahead: tuple[Wanted, list[Any]] | None = None
) -> tuple[Match, Seal] | None:
    """The match and its seal as stored now, from what was checked and the rows saved since, each
    checked against the chain and the seal; None when anything does not match what is kept (the
    caller then loads the match whole, and its check names what changed). ``ahead``: the tails
    read already (``tail_rows``)."""
    match_rows, seal_rows = tail_rows(reader, match_uuid, checked, ahead)
    kept, sealed = checked.match, checked.seal
    written = checked.rows
    if (
        written is not None
        and len(match_rows) == 1
        and len(seal_rows) == 1
        and same_row(written[0], match_rows[0])
        and same_row(written[1], seal_rows[0])
    ):
        # Nothing saved since this process's own save (a table's every hand), and its last two rows
        # still the very bytes it wrote: they decode to the events it wrote, whose digest is the
        # head kept and whose seal names it, as the checks below would find again at the cost of
        # decoding and hashing both (issue 36, thirteenth round: a sixth of the service call).
        return detached(kept), detached(sealed)
    events = decoded(reader, match_rows)
    seals = decoded(reader, seal_rows)
    # The last event and seal row checked are still there, as they were.
    if not events or events[0][0] != kept.version or events[0][1] is None:
        return None
    if event_digest(events[0][1]) != kept.head:
        return None
    if not seals or seals[0][0] != sealed.version or _seal_says(seals[0][1]) != (sealed.position, sealed.head):
        return None
    # The rows saved since: each names the digest of the one before, from the head kept.
    head = kept.head
    new_events = []
    for _position, event, _why in events[1:]:
        if event is None or str(getattr(event, "prior", "")) != head:
            return None
        head = event_digest(event)
        new_events.append(event)
    match, seal = detached(kept), detached(sealed)
    try:
        # ``mutate`` refuses an event out of sequence, or of another aggregate.
        for event in new_events:
            match = event.mutate(match)
        for _position, seal_event, _why in seals[1:]:
            if seal_event is None:
                return None
            seal = seal_event.mutate(seal)
    except Exception:  # a row that decodes but does not apply: whatever it is, the whole check names it
        return None
    # The seal names the chain's end: nothing removed from the end, nothing added behind the seal.
    if not isinstance(match, Match) or match.key != key or (seal.position, seal.head) != (match.version, head):
        return None
    return match, seal
