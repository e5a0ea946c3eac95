"""A stored row read as one of honba's own events, and as nothing else.

The library finds an event's class from the topic stored with it (``module:Class``) and imports
that module: a row whose topic was changed to ``this:s`` makes every reader import Python's
``this`` (and print the Zen of Python). ``HonbaMapper`` reads a row only under a topic of honba's
own list (``EVENT_CLASSES``: every event class of its aggregates, under its topic and the topic
it had before it moved), and a created event only for one of honba's aggregates; anything else
is a row that cannot be read, which every reader names.

It also refuses a row stored under an id spelled otherwise than the store writes ids (SQLite
keeps them as text; ``replay.store.sqlite_store`` hands such a row over with its id as the text
it found): the projections fold events by id, and ``honba check`` reads a stream by its exact
text, so a row under ``ABC...`` instead of ``abc...`` would otherwise count for the match while no
check ever saw it.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from eventsourcing.domain import Aggregate
from eventsourcing.persistence import Mapper, StoredEvent
from eventsourcing.utils import get_topic

from domain.match import Match
from domain.tournament import Tournament
from replay.store import chain, checkpoint, identity, seal, signed

# honba's aggregates, with the module each lived in before it moved (its old topics stay readable).
AGGREGATES: tuple[tuple[type[Aggregate], str | None], ...] = (
    (Match, None),
    (Tournament, None),
    (seal.Seal, seal.OLD_MODULE),
    (chain.StoreChain, chain.OLD_MODULE),
    (identity.GameIdentity, identity.OLD_MODULE),
    (identity.ImportedFile, identity.OLD_MODULE),
    (checkpoint.Checkpoint, None),
    (signed.SignedCheckpoints, None),
)


def _topics(cls: type[Any], old_module: str | None) -> list[str]:
    topics = [get_topic(cls)]
    if old_module is not None:
        topics.append(f"{old_module}:{cls.__qualname__}")
    return topics


def _event_classes() -> dict[str, type[Any]]:
    found: dict[str, type[Any]] = {}
    for aggregate, old_module in AGGREGATES:
        for value in vars(aggregate).values():
            if isinstance(value, type) and issubclass(value, Aggregate.Event):
                for topic in _topics(value, old_module):
                    found[topic] = value
    return found


# Every topic a stored honba event may carry, and its class.
EVENT_CLASSES: dict[str, type[Any]] = _event_classes()
# Every topic a created event may name as its aggregate's (``originator_topic``).
AGGREGATE_TOPICS: frozenset[str] = frozenset(
    topic for aggregate, old_module in AGGREGATES for topic in _topics(aggregate, old_module)
)


class ForeignRow(ValueError):
    """A stored row that is none of honba's events (an unknown topic), or under an id honba does not write."""


class HonbaMapper(Mapper[UUID]):
    """The library's mapper, reading only honba's own events under the ids as the store writes them."""

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        topic = stored_event.topic
        if topic not in EVENT_CLASSES:
            raise ForeignRow(f"its topic {str(topic)[:80]!r} is not one of honba's events")
        if not isinstance(stored_event.originator_id, UUID):
            spelled = str(stored_event.originator_id)[:80]
            raise ForeignRow(f"it is stored under the id {spelled!r}, spelled otherwise than honba writes ids")
        event = super().to_domain_event(stored_event)
        created = vars(event).get("originator_topic")
        if created is not None and created not in AGGREGATE_TOPICS:
            raise ForeignRow(f"it names {str(created)[:80]!r}, none of honba's aggregates")
        return event
