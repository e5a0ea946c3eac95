"""``honba check``: is every stored match (or exported file) the history honba recorded?

The store is read row by row, below the application, so that events changed
behind honba's back are seen as they are stored: each event's digest, the
digest it names as its predecessor, and the seal saved with the match.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any
from uuid import UUID

import attrs

from domain.integrity import (
    GENESIS,
    ChainProblem,
    Link,
    check_chain,
    check_published,
    event_digest,
    roll,
    unique_problems,
)
from domain.match import Match, match_id
from replay.seal import STORE_CHAIN_ID, Seal, StoreChain

if TYPE_CHECKING:  # the application calls these checks (HonbaApp.damage); they only read through it
    from replay.app import HonbaApp


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


@attrs.frozen
class StoreLinks:
    """The store chain as read: its own check, and each stream's links (position, head) in order."""

    check: MatchCheck
    streams: Mapping[UUID, tuple[tuple[int, str], ...]]


def read_store_chain(app: HonbaApp) -> StoreLinks:
    """Read and check the store-wide chain of saves (``replay.seal.StoreChain``).

    Its links must follow each other without gaps, each naming the digest of the one before;
    a store written before the chain existed has none (and nothing is compared).
    """
    links: list[Link] = []
    problems: list[ChainProblem] = []
    streams: dict[UUID, list[tuple[int, str]]] = {}
    for stored in app.recorder.select_events(STORE_CHAIN_ID):
        version = stored.originator_version
        try:
            event = app.mapper.to_domain_event(stored)
            assert isinstance(event, StoreChain.Linked)
        except Exception as exc:  # a link that no longer decodes is altered, whatever broke in decoding
            why = " ".join(str(exc).split())[:200] or type(exc).__name__
            problems.append(ChainProblem(version, "altered", f"link {version} cannot be read: {why}"))
            links.append(Link(version, f"unreadable-{version}", links[-1].digest if links else GENESIS))
            continue
        links.append(Link(version, event_digest(event), event.prior))
        streams.setdefault(event.stream, []).append((event.position, event.head))
    problems += check_chain(links, noun="link")
    head = links[-1].digest if links else GENESIS
    digests = tuple(link.digest for link in links)
    check = MatchCheck("store chain", len(links), head, tuple(unique_problems(problems)), digests=digests, noun="link")
    return StoreLinks(check, {stream: tuple(saved) for stream, saved in streams.items()})


def _against_store_chain(
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


def check_match(app: HonbaApp, match_uuid: UUID, key: str, store: StoreLinks | None = None) -> MatchCheck:
    """Check one stored match's chain and seal; with the store chain read (``store``), also
    that its saves are all still there as the store chain recorded them."""
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
    saved = store.streams.get(match_uuid, ()) if store is not None else ()
    found: list[ChainProblem] = []
    if saved:
        heads = {link.position: link.digest for link in links}
        found, latest = _against_store_chain(saved, heads, max(heads, default=0), "event")
        if latest is not None and sealed is not None and latest != sealed:
            # The events are as the store chain recorded them: the seal is what changed (a seal row
            # removed or edited), not an event inserted after it.
            detail = (
                f"the seal names event {sealed[0]}, the store chain event {latest[0]}: "
                "a seal row was removed or changed"
            )
            problems.append(ChainProblem(0, "altered", detail))
            sealed = latest
    in_chain = check_chain(links, sealed=sealed)
    # What the store chain adds is named only when the match's own chain and seal find nothing:
    # a change they find is named once, where they find it.
    problems += in_chain if in_chain or problems else found
    head = links[-1].digest if links else GENESIS
    digests = tuple(link.digest for link in links)
    return MatchCheck(key, len(links), head, tuple(unique_problems(problems)), sealed=seal is not None, digests=digests)


def check_tournament(app: HonbaApp, stream: UUID, name: str, store: StoreLinks) -> MatchCheck:
    """Check one stored tournament against the store chain (its events carry no chain of their
    own: each save's link records the rolling head over them, ``domain.integrity.roll``)."""
    problems: list[ChainProblem] = []
    heads: dict[int, str] = {}
    head = GENESIS
    expected = 1
    for stored in app.recorder.select_events(stream):
        version = stored.originator_version
        for missing in range(expected, version):
            problems.append(ChainProblem(missing, "deleted", f"event {missing} is missing"))
        expected = version + 1
        try:
            digest = event_digest(app.mapper.to_domain_event(stored))
        except Exception as exc:  # a row that no longer decodes is altered, whatever broke in decoding
            why = " ".join(str(exc).split())[:200] or type(exc).__name__
            problems.append(ChainProblem(version, "altered", f"cannot be read: {why}"))
            digest = f"unreadable-{version}"
        head = roll(head, digest)
        heads[version] = head
    saved = store.streams.get(stream, ())
    notes: tuple[str, ...] = ()
    if saved and not problems:  # a gap or an unreadable row is named once, where it is
        problems += _against_store_chain(saved, heads, max(heads, default=0), "event")[0]
    else:
        notes = ("saved before the store chain existed: nothing to compare",)
    problems = unique_problems(problems)
    return MatchCheck(f"tournament {name}", len(heads), head, tuple(problems), notes=notes)


def _tournament_ids(app: HonbaApp) -> Iterator[tuple[UUID, str]]:
    # Only a check of the whole store reads tournaments: a recording command, which checks its
    # match before it records, does not pay for the Tournament aggregate's classes.
    from domain.tournament import Tournament, tournament_id

    for row in _rows(app, Tournament.Created):
        try:
            name = json.loads(row.state).get("name")
        except (ValueError, UnicodeDecodeError, AttributeError):
            name = None
        stored_id = UUID(str(row.originator_id))
        if not isinstance(name, str) or tournament_id(name) != stored_id:
            name = f"{stored_id} (its start event cannot be read as its own)"
        yield stored_id, name


def check_store(app: HonbaApp, store: StoreLinks | None = None) -> list[MatchCheck]:
    """Check every match and tournament in the store, each against the store chain; and name
    every stream the store chain records of which nothing is stored any more."""
    store = store if store is not None else read_store_chain(app)
    matches = list(_match_ids(app))
    tournaments = list(_tournament_ids(app))
    results = [check_match(app, stream, key, store) for stream, key in matches]
    results += [check_tournament(app, stream, name, store) for stream, name in tournaments]
    seen = {stream for stream, _ in matches} | {stream for stream, _ in tournaments}
    for stream, saved in store.streams.items():
        if stream not in seen:
            position, head = saved[-1]
            detail = f"the store chain records {position} events saved (head {head[:16]}), none is stored"
            gone = (ChainProblem(1, "deleted", detail),)
            results.append(MatchCheck(f"{stream} (gone from the store)", 0, GENESIS, gone))
    return results
