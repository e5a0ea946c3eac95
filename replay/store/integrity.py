"""``honba check``: is every stored match (or exported file) the history honba recorded?

The store is read row by row, below the application, so that events changed
behind honba's back are seen as they are stored: each event's digest, the
digest it names as its predecessor, and the seal saved with the match; and,
with the store's evidence read (``replay.store.evidence``: the checkpoints, and the store
chain of a store written before them), that every save they recorded is still there.
A command that loaded a match checks the rows it loaded (``check_rows``): nothing is read twice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from domain.integrity import GENESIS, ChainProblem, Link, check_chain, event_digest, unique_problems
from domain.match import match_id
from domain.said import Said
from replay.store.errors import UNAVAILABLE
from replay.store.evidence import Evidence, against_evidence, read_evidence
from replay.store.findings import MatchCheck
from replay.store.rows import Reader, decoded, unreadable
from replay.store.seal import Seal, seal_from, seal_id

# A match's seal as read: the seal (None: none was saved), or why its rows cannot be read.
SealRead = Seal | None | str


def read_seal(reader: Reader, match_uuid: UUID) -> SealRead:
    """The seal saved with a match, None when there is none, or why it cannot be read."""
    try:
        return seal_from(reader.mapper.to_domain_event(r) for r in reader.recorder.select_events(seal_id(match_uuid)))
    except UNAVAILABLE:  # the store did not answer: nothing is known of the seal's rows
        raise
    except Exception as exc:  # a seal row that no longer decodes
        return unreadable(exc)


def read_rows(reader: Reader, match_uuid: UUID) -> tuple[list[tuple[int, Any, str]], SealRead]:
    """A match's rows (``replay.store.rows.decoded``) and its seal, read as one save left them.

    The events and the seal are two reads: a save by another process between them leaves a seal
    that names events the first read did not see (both were written in one transaction). The
    events are read once more then; a seal still ahead of them is what the check reports.
    """
    events = decoded(reader, reader.recorder.select_events(match_uuid))
    seal = read_seal(reader, match_uuid)
    last = events[-1][0] if events else 0
    if isinstance(seal, Seal) and seal.position > last:
        events = decoded(reader, reader.recorder.select_events(match_uuid))
    return events, seal


def check_match(reader: Reader, match_uuid: UUID, key: str, store: Evidence | None = None) -> MatchCheck:
    """Check one stored match's chain and seal; with the store's evidence read (``store``), also
    that its saves are all still there as the checkpoints (and the store chain) recorded them."""
    events, seal = read_rows(reader, match_uuid)
    return check_rows(key, match_uuid, events, seal, store)


def check_rows(
    key: str,
    match_uuid: UUID,
    events: Sequence[tuple[int, Any, str]],
    seal: SealRead,
    store: Evidence | None = None,
    *,
    digests: Sequence[str] | None = None,
) -> MatchCheck:
    """Check a match's rows as read (``replay.store.rows.decoded``) and its seal as read.
    ``digests``: the digest of each of these very rows, from a check of them made already
    (``MatchCheck.digests``), so that checking them again (against the evidence) hashes nothing."""
    links: list[Link] = []
    problems: list[ChainProblem] = []
    for index, (position, event, why) in enumerate(events):
        if event is not None:
            digest = event_digest(event) if digests is None else digests[index]
            links.append(Link(position, digest, str(getattr(event, "prior", ""))))
            continue
        problems.append(ChainProblem(position, "altered", Said("cannot be read: {why}", why=why)))
        # Taken to follow the event before it, so that only this event is named.
        prior = links[-1].digest if links else GENESIS
        links.append(Link(position, f"unreadable-{position}", prior))
    if isinstance(seal, str):  # the seal is altered; the chain is still checked
        problems.append(ChainProblem(0, "altered", Said("the seal cannot be read: {why}", why=seal)))
        seal = None
    elif seal is None:
        problems.append(ChainProblem(0, "unsealed", Said("no seal was saved with this match")))
    sealed = None if seal is None else (seal.position, seal.head)
    saved = store.saved(match_uuid) if store is not None else []
    found: list[ChainProblem] = []
    if saved:
        heads = {link.position: link.digest for link in links}
        found, latest = against_evidence(saved, heads, max(heads, default=0), "event")
        if latest is not None and sealed is not None and latest != sealed:
            # The events are as the checkpoints recorded them: the seal is what changed (a seal row
            # removed or edited), not an event inserted after it.
            detail = Said(
                "the seal names event {sealed}, the last checkpoint event {latest}: a seal row was removed or changed",
                sealed=sealed[0],
                latest=latest[0],
            )
            problems.append(ChainProblem(0, "altered", detail))
            sealed = latest
    in_chain = check_chain(links, sealed=sealed)
    # What the evidence adds is named only when the match's own chain and seal find nothing:
    # a change they find is named once, where they find it.
    problems += in_chain if in_chain or problems else found
    head = links[-1].digest if links else GENESIS
    digests = tuple(link.digest for link in links)
    return MatchCheck(key, len(links), head, tuple(unique_problems(problems)), sealed=seal is not None, digests=digests)


def damage_line(key: str, check: MatchCheck) -> Said | None:
    """The one line a command prints (and a page says) for a match whose check found something, as
    words: its first problem's kind, position and detail; None when it is intact or when no match
    is there at all."""
    if not check.problems or (check.events == 0 and not check.sealed):
        return None
    return damaged_said(key, check.problems[0].said())


def damaged_said(key: str, why: Said | str, *, audit: bool = False) -> Said:
    """``match 'K' is damaged in the store: WHY; see honba check K`` (``honba audit`` for what
    only the audit finds): the line every damage of a stored match is said in."""
    return Said(
        "match {match} is damaged in the store: {why}; see honba audit {key}"
        if audit
        else "match {match} is damaged in the store: {why}; see honba check {key}",
        match=repr(key),
        why=why,
        key=key,
    )


def match_damage(reader: Reader, key: str, first: MatchCheck | None = None) -> Said | None:
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
            # The evidence is read only when the match's own chain or seal finds something: it
            # tells a seal row removed from a genuine event inserted, and names a rollback.
            store = read_evidence(reader) if look else None
            check = check_match(reader, match_id(key), key, store)
        if damage_line(key, check) is None:
            return None  # intact, or no such match at all
        if check.problems == found:
            break
        found, last, check = check.problems, check, None
    final = check if check is not None else last
    assert final is not None  # the loop ran at least once
    return damage_line(key, final)
