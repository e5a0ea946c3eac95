"""``honba check``: is every stored match (or exported file) the history honba recorded?

The store is read row by row, below the application, so that events changed
behind honba's back are seen as they are stored: each event's digest, the
digest it names as its predecessor, and the seal saved with the match; and,
with the store chain read (``replay.store.chain``), that every save is still there.
A command that loaded a match checks the rows it loaded (``check_rows``): nothing is read twice.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any
from uuid import UUID

from domain.integrity import GENESIS, ChainProblem, Link, check_chain, event_digest, roll, unique_problems
from domain.match import Match, match_id
from domain.tournament import Tournament, tournament_id
from replay.store.chain import StoreLinks, against_store_chain, read_store_chain
from replay.store.findings import MatchCheck
from replay.store.rows import Reader, decoded, rows_of, unreadable
from replay.store.seal import OPENED_TOPICS, Seal, seal_from, seal_id

# A match's seal as read: the seal (None: none was saved), or why its rows cannot be read.
SealRead = Seal | None | str


def read_seal(reader: Reader, match_uuid: UUID) -> SealRead:
    """The seal saved with a match, None when there is none, or why it cannot be read."""
    try:
        return seal_from(reader.mapper.to_domain_event(r) for r in reader.recorder.select_events(seal_id(match_uuid)))
    except Exception as exc:  # a seal row that no longer decodes
        return unreadable(exc)


def check_match(reader: Reader, match_uuid: UUID, key: str, store: StoreLinks | None = None) -> MatchCheck:
    """Check one stored match's chain and seal; with the store chain read (``store``), also
    that its saves are all still there as the store chain recorded them."""
    events = decoded(reader, reader.recorder.select_events(match_uuid))
    return check_rows(key, match_uuid, events, read_seal(reader, match_uuid), store)


def check_rows(
    key: str, match_uuid: UUID, events: Sequence[tuple[int, Any, str]], seal: SealRead, store: StoreLinks | None = None
) -> MatchCheck:
    """Check a match's rows as read (``replay.store.rows.decoded``) and its seal as read."""
    links: list[Link] = []
    problems: list[ChainProblem] = []
    for position, event, why in events:
        if event is not None:
            links.append(Link(position, event_digest(event), str(getattr(event, "prior", ""))))
            continue
        problems.append(ChainProblem(position, "altered", f"cannot be read: {why}"))
        # Taken to follow the event before it, so that only this event is named.
        prior = links[-1].digest if links else GENESIS
        links.append(Link(position, f"unreadable-{position}", prior))
    if isinstance(seal, str):  # the seal is altered; the chain is still checked
        problems.append(ChainProblem(0, "altered", f"the seal cannot be read: {seal}"))
        seal = None
    elif seal is None:
        problems.append(ChainProblem(0, "unsealed", "no seal was saved with this match"))
    sealed = None if seal is None else (seal.position, seal.head)
    saved = store.streams.get(match_uuid, ()) if store is not None else ()
    found: list[ChainProblem] = []
    if saved:
        heads = {link.position: link.digest for link in links}
        found, latest = against_store_chain(saved, heads, max(heads, default=0), "event")
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


def damage_line(key: str, check: MatchCheck) -> str | None:
    """The one line a command prints for a match whose check found something; None when it is intact
    or when no match is there at all."""
    if not check.problems or (check.events == 0 and not check.sealed):
        return None
    first = check.problems[0]
    where = f" at {first.position}" if first.position else ""
    return f"match {key!r} is damaged in the store: {first.kind}{where} ({first.detail}); see honba check {key}"


def match_damage(reader: Reader, key: str, first: MatchCheck | None = None) -> str | None:
    """One line naming what is wrong with a stored match (position, kind) and pointing at
    ``honba check``; None when its chain and seal check.

    A check that reads the events and then the seal can catch another process between the
    two (its new events read, its seal not yet, or the other way round): a problem is named
    only when a second check finds it too. ``first``: a check of rows already read.
    """
    found = None
    check, last = first, first
    for look in range(3):
        if check is None:
            # The store chain is read only when the match's own chain or seal finds something: it
            # tells a seal row removed from a genuine event inserted, and names a rollback.
            store = read_store_chain(reader) if look else None
            check = check_match(reader, match_id(key), key, store)
        if damage_line(key, check) is None:
            return None  # intact, or no such match at all
        if check.problems == found:
            break
        found, last, check = check.problems, check, None
    final = check if check is not None else last
    assert final is not None  # the loop ran at least once
    return damage_line(key, final)


def _match_ids(reader: Reader) -> Iterator[tuple[UUID, str]]:
    """Every match id in the store with its name, read from the rows that start matches; then
    every match whose seal is stored but whose start row is not (named by its id).

    A match is named by its key when its start row still shows one that is this match's
    (the id is derived from the key); otherwise by its id, saying what the row shows.
    """
    found: set[UUID] = set()
    for row in rows_of(reader, [_topic(Match.Started)]):
        stored_id = UUID(str(row.originator_id))
        found.add(stored_id)
        yield stored_id, _name_of(stored_id, row.state)
    for row in rows_of(reader, OPENED_TOPICS):
        try:
            opened = reader.mapper.to_domain_event(row)
        except Exception:  # a seal that no longer decodes names no match
            continue
        sealed_id = getattr(opened, "match_id", None)
        if isinstance(sealed_id, UUID) and sealed_id not in found:
            found.add(sealed_id)
            yield sealed_id, f"match {sealed_id} (its start event is missing)"


def _topic(event_class: type[Any]) -> str:
    return f"{event_class.__module__}:{event_class.__qualname__}"


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


def check_tournament(reader: Reader, stream: UUID, name: str, store: StoreLinks) -> MatchCheck:
    """Check one stored tournament against the store chain (its events carry no chain of their
    own: each save's link records the rolling head over them, ``domain.integrity.roll``)."""
    problems: list[ChainProblem] = []
    heads: dict[int, str] = {}
    head = GENESIS
    expected = 1
    for version, event, why in decoded(reader, reader.recorder.select_events(stream)):
        for missing in range(expected, version):
            problems.append(ChainProblem(missing, "deleted", f"event {missing} is missing"))
        expected = version + 1
        if event is None:
            problems.append(ChainProblem(version, "altered", f"cannot be read: {why}"))
            digest = f"unreadable-{version}"
        else:
            digest = event_digest(event)
        head = roll(head, digest)
        heads[version] = head
    saved = store.streams.get(stream, ())
    notes: tuple[str, ...] = ()
    if saved and not problems:  # a gap or an unreadable row is named once, where it is
        problems += against_store_chain(saved, heads, max(heads, default=0), "event")[0]
    else:
        notes = ("saved before the store chain existed: nothing to compare",)
    problems = unique_problems(problems)
    return MatchCheck(f"tournament {name}", len(heads), head, tuple(problems), notes=notes)


def _tournament_ids(reader: Reader) -> Iterator[tuple[UUID, str]]:
    for row in rows_of(reader, [_topic(Tournament.Created)]):
        try:
            name = json.loads(row.state).get("name")
        except (ValueError, UnicodeDecodeError, AttributeError):
            name = None
        stored_id = UUID(str(row.originator_id))
        if not isinstance(name, str) or tournament_id(name) != stored_id:
            name = f"{stored_id} (its start event cannot be read as its own)"
        yield stored_id, name


def check_store(reader: Reader, store: StoreLinks | None = None) -> list[MatchCheck]:
    """Check every match and tournament in the store, each against the store chain; and name
    every stream the store chain records of which nothing is stored any more."""
    store = store if store is not None else read_store_chain(reader)
    matches = list(_match_ids(reader))
    tournaments = list(_tournament_ids(reader))
    results = [check_match(reader, stream, key, store) for stream, key in matches]
    results += [check_tournament(reader, stream, name, store) for stream, name in tournaments]
    seen = {stream for stream, _ in matches} | {stream for stream, _ in tournaments}
    for stream, saved in store.streams.items():
        if stream not in seen:
            position, head = saved[-1]
            detail = f"the store chain records {position} events saved (head {head[:16]}), none is stored"
            gone = (ChainProblem(1, "deleted", detail),)
            results.append(MatchCheck(f"{stream} (gone from the store)", 0, GENESIS, gone))
    return results
