"""The store-wide chain of saves that stores written before checkpoints hold: read and checked, never written.

Until checkpoints took its place (``replay.store.checkpoint``), every save of a match or
tournament added a link to one store-wide chain in the same transaction: which stream, up to
which position, with which head digest, and the digest of the link before. That made every
writer of the store queue behind every other. A store written then keeps its links; ``honba
check`` still reads them (``read_store_chain``) and compares what they recorded of each stream
with what is stored (``replay.store.evidence``), so a rollback of a save they linked is still
caught, and a store head digest published then (``store_head``: the last link's) is still found.
"""

from __future__ import annotations

from collections.abc import Mapping
from uuid import NAMESPACE_URL, UUID, uuid5

import attrs
from eventsourcing.domain import Aggregate
from eventsourcing.utils import register_topic

from domain.integrity import GENESIS, ChainProblem, Link, check_chain, event_digest, unique_problems
from domain.said import Said
from replay.store.findings import MatchCheck
from replay.store.rows import Reader, unreadable

# The id of the store-wide chain: one per store.
STORE_CHAIN_ID = uuid5(NAMESPACE_URL, "honba:/store-chain")
# Where the chain's classes lived before: stores written then name them so in every link.
OLD_MODULE = "replay.seal"


class StoreChain(Aggregate):
    """The store-wide chain of saves, each link naming the digest of the one before it.

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


for _moved in (StoreChain, StoreChain.Linked):
    register_topic(f"{OLD_MODULE}:{_moved.__qualname__}", _moved)


def store_head(reader: Reader) -> str:
    """The digest of the store chain's last link (``""`` before the first save, or when it cannot be read)."""
    last = reader.recorder.select_events(STORE_CHAIN_ID, desc=True, limit=1)
    try:
        return event_digest(reader.mapper.to_domain_event(last[0])) if last else GENESIS
    except Exception:  # a damaged last link: honba check names it
        return GENESIS


@attrs.frozen
class StoreLinks:
    """The store chain as read: its own check, and each stream's links (position, head) in order."""

    check: MatchCheck
    streams: Mapping[UUID, tuple[tuple[int, str], ...]]


def read_store_chain(reader: Reader) -> StoreLinks:
    """Read and check the store-wide chain of saves.

    Its links must follow each other without gaps, each naming the digest of the one before;
    a store written before the chain existed has none (and nothing is compared).
    """
    links: list[Link] = []
    problems: list[ChainProblem] = []
    streams: dict[UUID, list[tuple[int, str]]] = {}
    for stored in reader.recorder.select_events(STORE_CHAIN_ID):
        version = stored.originator_version
        try:
            event = reader.mapper.to_domain_event(stored)
            assert isinstance(event, StoreChain.Linked)
        except Exception as exc:  # a link that no longer decodes is altered, whatever broke in decoding
            problems.append(
                ChainProblem(
                    version, "altered", Said("link {number} cannot be read: {why}", number=version, why=unreadable(exc))
                )
            )
            links.append(Link(version, f"unreadable-{version}", links[-1].digest if links else GENESIS))
            continue
        links.append(Link(version, event_digest(event), event.prior))
        streams.setdefault(event.stream, []).append((event.position, event.head))
    problems += check_chain(links, noun="link")
    head = links[-1].digest if links else GENESIS
    digests = tuple(link.digest for link in links)
    check = MatchCheck("store chain", len(links), head, tuple(unique_problems(problems)), digests=digests, noun="link")
    return StoreLinks(check, {stream: tuple(saved) for stream, saved in streams.items()})
