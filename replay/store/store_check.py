"""``honba check`` of the whole store: every match, tournament, game identity and imported file's
record, each against the store's evidence (the checkpoints, and the store chain of a store written
before them); every stream the evidence records of which nothing is stored any more; and every
row stored under an id spelled otherwise than honba writes it (which no reader reads)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from uuid import UUID

from domain.integrity import GENESIS, ChainProblem, Link, check_chain, event_digest, roll, unique_problems
from domain.match import Match, match_id
from domain.tournament import Tournament, tournament_id
from replay.store.checkpoint import SINGLE_TOPICS
from replay.store.evidence import Evidence, against_evidence, read_evidence
from replay.store.findings import MatchCheck
from replay.store.integrity import check_match, read_rows
from replay.store.rows import Reader, rows_of, unreadable
from replay.store.seal import OPENED_TOPICS


def _match_ids(reader: Reader, tournaments: set[UUID]) -> Iterator[tuple[UUID, str]]:
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
        if isinstance(sealed_id, UUID) and sealed_id not in found and sealed_id not in tournaments:
            found.add(sealed_id)
            yield sealed_id, f"match {sealed_id} (its start event is missing)"


def _topic(event_class: type[Any]) -> str:
    return f"{event_class.__module__}:{event_class.__qualname__}"


def _name_of(stored_id: UUID, state: bytes | None) -> str:
    """A match's name from its start row as stored: the key it shows, if that key is this match's."""
    try:
        key = json.loads(state or b"").get("key")
    except (ValueError, UnicodeDecodeError, AttributeError, TypeError):
        key = None
    if not isinstance(key, str):
        return f"match {stored_id} (its start event cannot be read)"
    if match_id(key) != stored_id:
        return f"match {stored_id} (its start event names {key!r}, another match)"
    return key


def check_tournament(reader: Reader, stream: UUID, name: str, store: Evidence) -> MatchCheck:
    """Check one stored tournament against its seal and the store's evidence. Its events carry no
    chain of their own: its seal and the checkpoints record the rolling head over them
    (``domain.integrity.roll``), at each save."""
    problems: list[ChainProblem] = []
    heads: dict[int, str] = {}
    links: list[Link] = []
    head = GENESIS
    expected = 1
    # Read as one save left them (``read_rows``): a save between the two reads is not damage.
    rows, seal = read_rows(reader, stream)
    for version, event, why in rows:
        for missing in range(expected, version):
            problems.append(ChainProblem(missing, "deleted", f"event {missing} is missing"))
        expected = version + 1
        if event is None:
            problems.append(ChainProblem(version, "altered", f"cannot be read: {why}"))
            digest = f"unreadable-{version}"
        else:
            digest = event_digest(event)
        links.append(Link(version, roll(head, digest), head))
        head = roll(head, digest)
        heads[version] = head
    notes: tuple[str, ...] = ()
    if isinstance(seal, str):
        problems.append(ChainProblem(0, "altered", f"the seal cannot be read: {seal}"))
    elif seal is not None and not problems:
        problems += check_chain(links, sealed=(seal.position, seal.head))
    saved = store.saved(stream)
    if saved and not problems:  # a gap or an unreadable row is named once, where it is
        problems += against_evidence(saved, heads, max(heads, default=0), "event")[0]
    checkpointed = [who for _position, _head, who in saved if str(who).startswith("checkpoint")]
    if seal is None and checkpointed:
        # A checkpoint recorded a save of it, and every save since checkpoints were taken is made
        # with its seal: its seal rows were removed since, as a match's missing seal is named.
        # (The store chain before checkpoints also linked tournaments saved before they had seals.)
        problems.append(ChainProblem(0, "unsealed", f"no seal is stored with it; {checkpointed[-1]} records its saves"))
    elif seal is None:
        notes = ("saved before tournaments were sealed: nothing to compare",)
    return MatchCheck(f"tournament {name}", len(heads), head, tuple(unique_problems(problems)), notes=notes)


def _tournament_ids(reader: Reader) -> Iterator[tuple[UUID, str]]:
    for row in rows_of(reader, [_topic(Tournament.Created)]):
        try:
            name = json.loads(row.state or b"").get("name")
        except (ValueError, UnicodeDecodeError, AttributeError, TypeError):
            name = None
        stored_id = UUID(str(row.originator_id))
        if not isinstance(name, str) or tournament_id(name) != stored_id:
            name = f"{stored_id} (its start event cannot be read as its own)"
        yield stored_id, name


def check_records(reader: Reader, store: Evidence) -> Iterator[tuple[UUID, MatchCheck]]:
    """Each game identity and imported file's record (one event each) against what the checkpoints
    recorded of it: the same digest. One changed (a game's identity pointed at another match) is
    ``altered``; one removed is named by the checkpoint as gone from the store."""
    for row in rows_of(reader, SINGLE_TOPICS):
        stream = UUID(str(row.originator_id))
        kind = "game identity" if "GameIdentity" in row.topic else "imported file"
        problems: list[ChainProblem] = []
        try:
            event = reader.mapper.to_domain_event(row)
            digest = event_digest(event)
            label = str(getattr(event, "fingerprint", "") or getattr(event, "digest", ""))[:16]
        except Exception as exc:  # changed behind honba's back, whatever broke in decoding
            problems.append(ChainProblem(1, "altered", f"cannot be read: {unreadable(exc)}"))
            digest, label = f"unreadable-{stream}", str(stream)
        if not problems:
            problems += against_evidence(store.saved(stream), {1: digest}, 1, "event")[0]
        yield stream, MatchCheck(f"{kind} {label}", 1, digest, tuple(problems))


def check_store(reader: Reader, store: Evidence | None = None) -> list[MatchCheck]:
    """Check every match, tournament, game identity and imported file's record in the store, each
    against the store's evidence; name every stream the evidence records of which nothing is stored
    any more, and every row stored under an id honba does not write (in another spelling). Every
    match and tournament is listed; an identity or a file's record only when it has a problem."""
    store = store if store is not None else read_evidence(reader)
    tournaments = list(_tournament_ids(reader))
    matches = list(_match_ids(reader, {stream for stream, _ in tournaments}))
    results = [check_match(reader, stream, key, store) for stream, key in matches]
    results += [check_tournament(reader, stream, name, store) for stream, name in tournaments]
    records = list(check_records(reader, store))
    # A store holds one identity per game imported: only those with a problem are listed.
    results += [check for _, check in records if not check.intact]
    seen = {stream for stream, _ in matches} | {stream for stream, _ in tournaments} | {s for s, _ in records}
    for stream in sorted(store.streams - seen, key=str):
        position, head, who = store.saved(stream)[-1]
        detail = f"{who} records {position} events saved (head {head[:16]}), none is stored"
        gone = (ChainProblem(1, "deleted", detail),)
        results.append(MatchCheck(f"{stream} (gone from the store)", 0, GENESIS, gone))
    names = {stream: name for stream, name in matches} | {s: f"tournament {n}" for s, n in tournaments}
    results += _misspelled(reader, names)
    return results


def _misspelled(reader: Reader, names: dict[UUID, str]) -> list[MatchCheck]:
    """Rows stored under an id spelled otherwise than honba writes it (on SQLite, where ids are
    text): no reader reads them (``replay.store.mapper``), and ``honba check`` names each, with the
    match or tournament whose id it spells otherwise."""
    misspelled = getattr(reader.recorder, "misspelled_rows", None)
    if misspelled is None:
        return []
    found = []
    for stored_id, version, topic in misspelled():
        try:
            meant = names.get(UUID(stored_id), "")
        except ValueError:
            meant = ""
        of = f" (the id of {meant}, spelled otherwise)" if meant else ""
        detail = f"a row ({topic}) stored under the id {stored_id!r}{of}: honba neither writes nor reads it"
        found.append(MatchCheck(f"rows under {stored_id!r}", 0, GENESIS, (ChainProblem(version, "inserted", detail),)))
    return found
