"""The store-wide chain of saves: one link per save of a match or tournament, written in the same transaction.

Everything about the chain lives here, so that another way of showing a rollback (checkpoints)
can take its place: the ``StoreChain`` links and their stream id, the next links of a save
(``next_links``), the store head digest (``store_head``), and the chain read and checked
(``read_store_chain``) with what its links say of one stream's stored events
(``against_store_chain``).

A match's own chain and seal show an event changed or removed; they cannot show the last
events of a match removed together with its last seal row (a rollback), since what is left
is a shorter history sealed as such. The store chain was written in the same transactions:
its links name each save's position and head, so such a rollback leaves a link that names
events no longer stored, or, when the link is removed too, a gap in the store chain. Only
a rollback of the store's very last saves, links included, leaves nothing behind; the store
head digest (``honba check`` prints it) published elsewhere catches that.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

import attrs
from eventsourcing.domain import Aggregate
from eventsourcing.utils import register_topic

from domain.integrity import GENESIS, ChainProblem, Link, check_chain, event_digest, unique_problems
from replay.store.errors import StoreError
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


def next_links(reader: Reader, streams: Sequence[tuple[UUID, int, str]]) -> list[StoreChain.Linked]:
    """The store chain's next links, one per save (stream id, last position, head digest), after
    the last link stored (the one row this reads)."""
    last = reader.recorder.select_events(STORE_CHAIN_ID, desc=True, limit=1)
    version, prior = 0, GENESIS
    if last:
        version = last[0].originator_version
        try:
            prior = event_digest(reader.mapper.to_domain_event(last[0]))
        except Exception as exc:  # the last link was changed behind honba's back
            raise StoreError(
                f"the store chain is damaged at link {version}: it cannot be read ({unreadable(exc)}); "
                "nothing recorded; see honba check"
            ) from None
    links = []
    for offset, (stream, position, head) in enumerate(streams, start=1):
        new = link(version + offset, stream, position, head, prior)
        prior = event_digest(new)
        links.append(new)
    return links


def head_after(links: Sequence[StoreChain.Linked]) -> str:
    """The store head digest once ``links`` are stored: the digest of the last of them."""
    return event_digest(links[-1]) if links else GENESIS


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
            problems.append(ChainProblem(version, "altered", f"link {version} cannot be read: {unreadable(exc)}"))
            links.append(Link(version, f"unreadable-{version}", links[-1].digest if links else GENESIS))
            continue
        links.append(Link(version, event_digest(event), event.prior))
        streams.setdefault(event.stream, []).append((event.position, event.head))
    problems += check_chain(links, noun="link")
    head = links[-1].digest if links else GENESIS
    digests = tuple(link.digest for link in links)
    check = MatchCheck("store chain", len(links), head, tuple(unique_problems(problems)), digests=digests, noun="link")
    return StoreLinks(check, {stream: tuple(saved) for stream, saved in streams.items()})


def against_store_chain(
    saved: Sequence[tuple[int, str]], heads: Mapping[int, str], last: int, noun: str
) -> tuple[list[ChainProblem], tuple[int, str] | None]:
    """What the store chain's links for one stream say of its stored events: each link's
    position must be stored with the head it recorded. Returns the problems and, when the
    stored events agree with the stream's last link, that link (position, head)."""
    problems: list[ChainProblem] = []
    rolled_back = [(p, h) for p, h in saved if p > last]
    if rolled_back:
        position, head = max(rolled_back)
        detail = (
            f"the store chain records {noun} {position} (head {head[:16]}) but the stored {noun}s end at {last}: "
            f"the last were removed (rolled back)"
        )
        problems.append(ChainProblem(last + 1, "deleted", detail))
    for position, head in saved:
        if position <= last and heads.get(position) != head:
            detail = f"{noun} {position} no longer matches what the store chain recorded when it was saved"
            problems.append(ChainProblem(position, "altered", detail))
    latest = saved[-1] if saved else None
    if latest is not None and not problems and latest[0] == last:
        return problems, latest
    if latest is not None and not problems and latest[0] < last:
        detail = f"{_noun(noun)} the store chain does not include: saved after its last link (at {latest[0]})"
        problems.append(ChainProblem(latest[0] + 1, "inserted", detail))
    return problems, None


def _noun(noun: str) -> str:
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"
