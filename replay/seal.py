"""The seal of a match: its last position and head digest, saved in the same transaction as the match.

A hash chain shows an event altered, moved or removed from the middle of a
match's log; the seal also shows events removed from, or added to, the end
behind honba's back.
"""

from __future__ import annotations

from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate


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
        """Record the match's last position and head digest."""
        if (position, head) != (self.position, self.head):
            self.trigger_event(self.Sealed, position=position, head=head)


# The id of the store-wide chain: one per store.
STORE_CHAIN_ID = uuid5(NAMESPACE_URL, "honba:/store-chain")


class StoreChain(Aggregate):
    """The store-wide chain of saves: one link per save of a match or tournament, in the order
    they were saved, each naming the digest of the link before it.

    A match's own chain and seal show an event changed or removed; they cannot show the last
    events of a match removed together with its last seal row (a rollback), since what is left
    is a shorter history sealed as such. The store chain was written in the same transactions:
    its links name each save's position and head, so such a rollback leaves a link that names
    events no longer stored, or, when the link is removed too, a gap in the store chain. Only
    a rollback of the store's very last saves, links included, leaves nothing behind; the store
    head digest (``honba check`` prints it) published elsewhere catches that.

    The links are written directly as events of this id (``link``): nothing replays them into
    an aggregate, so a save reads only the last link, however long the chain.
    """

    class Linked(Aggregate.Event):
        """A save: ``stream`` (a match's or tournament's id) stored up to ``position`` with
        head digest ``head``; ``prior`` is the digest of the link before (``""`` for the first)."""

        stream: UUID
        position: int
        head: str
        prior: str


def link(version: int, stream: UUID, position: int, head: str, prior: str) -> StoreChain.Linked:
    """The store chain's link at ``version``."""
    fields: dict[str, Any] = {
        "originator_id": STORE_CHAIN_ID,
        "originator_version": version,
        "timestamp": StoreChain.Linked.create_timestamp(),
        "stream": stream,
        "position": position,
        "head": head,
        "prior": prior,
    }
    return StoreChain.Linked(**fields)
