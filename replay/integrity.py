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
from domain.match import Match, match_id
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
    """Every match id in the store with its name, read from the rows that start matches; then
    every match whose seal is stored but whose start row is not (named by its id).

    A match is named by its key when its start row still shows one that is this match's
    (the id is derived from the key); otherwise by its id, saying what the row shows.
    """
    found: set[UUID] = set()
    for row in _rows(app, Match.Started):
        stored_id = UUID(str(row.originator_id))
        found.add(stored_id)
        yield stored_id, _name_of(stored_id, row.state)
    for row in _rows(app, Seal.Opened):
        try:
            opened = app.mapper.to_domain_event(row)
        except Exception:  # a seal that no longer decodes names no match
            continue
        sealed_id = getattr(opened, "match_id", None)
        if isinstance(sealed_id, UUID) and sealed_id not in found:
            found.add(sealed_id)
            yield sealed_id, f"match {sealed_id} (its start event is missing)"


def _name_of(stored_id: UUID, state: bytes) -> str:
    """A match's name from its start row as stored: the key it shows, if that key is this match's."""
    try:
        key = json.loads(state).get("key")
    except (ValueError, UnicodeDecodeError, AttributeError):
        key = None
    if not isinstance(key, str):
        return f"match {stored_id} (its start event cannot be read)"
    if match_id(key) != stored_id:
        return f"match {stored_id} (its start event names {key!r}, another match)"
    return key


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


def check_match(app: HonbaApp, match_uuid: UUID, key: str) -> MatchCheck:
    """Check one stored match's chain and seal."""
    links: list[Link] = []
    problems: list[ChainProblem] = []
    for stored in app.recorder.select_events(match_uuid):
        try:
            event = app.mapper.to_domain_event(stored)
            links.append(Link(stored.originator_version, event_digest(event), str(getattr(event, "prior", ""))))
        except Exception as exc:  # a row that no longer decodes is altered, whatever broke in decoding
            why = " ".join(str(exc).split())[:200] or type(exc).__name__
            problems.append(ChainProblem(stored.originator_version, "altered", f"cannot be read: {why}"))
            # Taken to follow the event before it, so that only this event is named.
            prior = links[-1].digest if links else GENESIS
            links.append(Link(stored.originator_version, f"unreadable-{stored.originator_version}", prior))
    try:
        seal = app.seal_of(match_uuid)
    except Exception as exc:  # a seal row that no longer decodes: the seal is altered, the chain still checked
        seal = None
        why = " ".join(str(exc).split())[:200] or type(exc).__name__
        problems.append(ChainProblem(0, "altered", f"the seal cannot be read: {why}"))
    else:
        if seal is None:
            problems.append(ChainProblem(0, "unsealed", "no seal was saved with this match"))
    sealed = None if seal is None else (seal.position, seal.head)
    problems += check_chain(links, sealed=sealed)
    head = links[-1].digest if links else GENESIS
    digests = tuple(link.digest for link in links)
    return MatchCheck(key, len(links), head, tuple(unique_problems(problems)), sealed=seal is not None, digests=digests)


def check_store(app: HonbaApp) -> list[MatchCheck]:
    """Check every match in the store."""
    return [check_match(app, match_id, key) for match_id, key in _match_ids(app)]
