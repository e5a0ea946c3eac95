"""The seal of a match: its last position and head digest, saved in the same transaction as the match.

A hash chain shows an event altered, moved or removed from the middle of a
match's log; the seal also shows events removed from, or added to, the end
behind honba's back.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate
from eventsourcing.utils import get_topic, register_topic

# Where these classes lived before: stores written then name them so in every event.
OLD_MODULE = "replay.seal"


# Asked at every hand's load and save, as ``match_id`` is: found once per match for a few hundred.
@functools.lru_cache(maxsize=512)
def seal_id(match_id: UUID) -> UUID:
    """The id of the seal of the match with that id."""
    return uuid5(match_id, "seal")


class Seal(Aggregate):
    """The last position and head digest honba saved for one match."""

    class Opened(Aggregate.Created):
        """The seal of a match was made."""

        match_id: UUID

    class Sealed(Aggregate.Event):
        """The match was saved up to ``position`` with head digest ``head``."""

        position: int
        head: str

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Seal)
            aggregate.position = self.position
            aggregate.head = self.head

    def __init__(self, match_id: UUID):
        self.match_id = match_id
        self.position = 0
        self.head = ""

    @staticmethod
    def create_id(match_id: UUID, **_: Any) -> UUID:
        """One seal per match, found from the match's id."""
        return seal_id(match_id)

    @classmethod
    def open(cls, match_id: UUID) -> Seal:
        """A new seal for a match."""
        return cls._create(cls.Opened, id=seal_id(match_id), match_id=match_id)

    def seal(self, position: int, head: str) -> None:
        """Record the match's last position and head digest.

        The library's ``trigger_event`` in one step, as ``Match.trigger_event`` makes a match's: the
        event made as the seal's next, stamped by its class's clock (``create_timestamp``, as the
        library stamps it), applied, the seal's version and time set as ``mutate`` sets them, then
        kept pending; without the library's copy of the arguments, its look for a class topic (a seal
        has none) and ``mutate``'s checks that the event names this seal and its next version (made
        so here). Every recorded hand seals its match once (issue 36, eighteenth round)."""
        if (position, head) != (self.position, self.head):
            # (keyword arguments the library's dataclass transform does not declare to a type checker)
            sealed: Any = self.Sealed
            # The library's attributes set and read as its properties do (``Match.trigger_event``).
            version = self._version + 1
            event = sealed(
                originator_id=self._id,
                originator_version=version,
                timestamp=sealed.create_timestamp(),
                position=position,
                head=head,
            )
            event.apply(self)
            self._version = version
            self._modified_on = event.timestamp
            self._pending_events.append(event)


# The topic a seal's first event names its aggregate by (``Aggregate._create`` writes ``get_topic``'s).
_SEAL_TOPIC = get_topic(Seal)


def new_seal_events(match_id: UUID, position: int, head: str) -> list[Any]:
    """The events of a new seal for a match saved up to ``position`` with head digest ``head``: what
    ``Seal.open(match_id)`` then ``seal(position, head)`` record, the same events (each stamped by its
    class's clock, as the library stamps it), made as the library makes them but without a ``Seal``:
    an import seals every match it stores, and the library's ``_create`` (its look for a class topic,
    its copies of the arguments, the aggregate it builds and mutates) cost more than the events."""
    sealed_id = seal_id(match_id)
    # The event classes as the library makes them (``_create``, ``trigger_event``: with keyword
    # arguments its dataclass transform does not declare to a type checker).
    opened: Any = Seal.Opened
    sealed: Any = Seal.Sealed
    events: list[Any] = [
        opened(
            originator_topic=_SEAL_TOPIC,
            originator_id=sealed_id,
            originator_version=Seal.INITIAL_VERSION,
            timestamp=opened.create_timestamp(),
            match_id=match_id,
        )
    ]
    if (position, head) != (0, ""):  # what ``seal`` records nothing for: the seal as opened
        events.append(
            sealed(
                originator_id=sealed_id,
                originator_version=Seal.INITIAL_VERSION + 1,
                timestamp=sealed.create_timestamp(),
                position=position,
                head=head,
            )
        )
    return events


for _moved in (Seal, Seal.Opened, Seal.Sealed):
    register_topic(f"{OLD_MODULE}:{_moved.__qualname__}", _moved)

# The topics a seal's first event is stored under: this module's, and the one before it moved.
OPENED_TOPICS = (get_topic(Seal.Opened), f"{OLD_MODULE}:{Seal.Opened.__qualname__}")


def seal_from(events: Iterable[Any]) -> Seal | None:
    """The seal its stored events make (none when there are none)."""
    seal: Seal | None = None
    for event in events:
        seal = event.mutate(seal)
    return seal
