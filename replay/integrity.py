"""``honba check``: is every stored match (or exported file) the history honba recorded?

The store is read row by row, below the application, so that events changed
behind honba's back are seen as they are stored: each event's digest, the
digest it names as its predecessor, and the seal saved with the match.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import attrs

from domain.integrity import GENESIS, ChainProblem, Link, check_chain, check_published, event_digest, unique_problems
from domain.match import Match
from replay.app import HonbaApp
from replay.seal import Seal


@attrs.frozen
class MatchCheck:
    """The integrity of one stored match, or of one record file."""

    name: str
    events: int
    head: str
    problems: tuple[ChainProblem, ...]
    sealed: bool = True
    # The digest of every event (or line), in order, for ``--against``; and what a check adds in words.
    digests: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    noun: str = "event"

    @property
    def intact(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        """Plain data for ``--json``."""
        return {
            "name": self.name,
            "events": self.events,
            "head": self.head,
            "intact": self.intact,
            "sealed": self.sealed,
            "problems": [attrs.asdict(p) for p in self.problems],
            "notes": list(self.notes),
        }

    def against(self, published: str) -> MatchCheck:
        """This check with a head digest published earlier compared (``--against``)."""
        problem, note = check_published(self.digests, published, noun=self.noun)
        if problem is None:
            return attrs.evolve(self, notes=(*self.notes, note))
        return attrs.evolve(self, problems=(*self.problems, problem))


def _match_ids(app: HonbaApp) -> Iterator[tuple[UUID, str]]:
    """Every match id in the store with its key, read from the rows that start matches; then
    every match whose seal is stored but whose start row is not (named by its id)."""
    found: set[UUID] = set()
    for row in _rows(app, Match.Started):
        try:
            key = str(json.loads(row.state).get("key", "?"))
        except (ValueError, UnicodeDecodeError, AttributeError):
            key = "?"
        found.add(UUID(str(row.originator_id)))
        yield UUID(str(row.originator_id)), key
    for row in _rows(app, Seal.Opened):
        try:
            opened = app.mapper.to_domain_event(row)
        except Exception:  # a seal that no longer decodes names no match
            continue
        match_id = getattr(opened, "match_id", None)
        if isinstance(match_id, UUID) and match_id not in found:
            found.add(match_id)
            yield match_id, f"match {match_id} (its start event is missing)"


def _rows(app: HonbaApp, event_class: type[Any]) -> Iterator[Any]:
    """The stored rows of one kind of event, in the order they were stored."""
    start = 1
    topic = f"{event_class.__module__}:{event_class.__qualname__}"
    while True:
        batch = app.recorder.select_notifications(start=start, limit=500, topics=[topic])
        if not batch:
            return
        yield from batch
        start = batch[-1].id + 1


def check_match(app: HonbaApp, match_id: UUID, key: str) -> MatchCheck:
    """Check one stored match's chain and seal."""
    links: list[Link] = []
    problems: list[ChainProblem] = []
    for stored in app.recorder.select_events(match_id):
        try:
            event = app.mapper.to_domain_event(stored)
            links.append(Link(stored.originator_version, event_digest(event), str(getattr(event, "prior", ""))))
        except Exception as exc:  # a row that no longer decodes is altered, whatever broke in decoding
            problems.append(ChainProblem(stored.originator_version, "altered", f"cannot be read: {exc}"))
            # Taken to follow the event before it, so that only this event is named.
            prior = links[-1].digest if links else GENESIS
            links.append(Link(stored.originator_version, f"unreadable-{stored.originator_version}", prior))
    seal = app.seal_of(match_id)
    sealed = None if seal is None else (seal.position, seal.head)
    problems += check_chain(links, sealed=sealed)
    if seal is None:
        problems.append(ChainProblem(0, "unsealed", "no seal was saved with this match"))
    head = links[-1].digest if links else GENESIS
    digests = tuple(link.digest for link in links)
    return MatchCheck(key, len(links), head, tuple(unique_problems(problems)), sealed=seal is not None, digests=digests)


def check_store(app: HonbaApp) -> list[MatchCheck]:
    """Check every match in the store."""
    return [check_match(app, match_id, key) for match_id, key in _match_ids(app)]
