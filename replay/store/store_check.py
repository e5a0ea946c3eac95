"""``honba check`` of the whole store: every match and tournament, each against the store chain,
and every stream the store chain records of which nothing is stored any more."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from uuid import UUID

from domain.integrity import GENESIS, ChainProblem, event_digest, roll, unique_problems
from domain.match import Match, match_id
from domain.tournament import Tournament, tournament_id
from replay.store.chain import StoreLinks, against_store_chain, read_store_chain
from replay.store.findings import MatchCheck
from replay.store.integrity import check_match
from replay.store.rows import Reader, decoded, rows_of
from replay.store.seal import OPENED_TOPICS


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
