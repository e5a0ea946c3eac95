"""Storing matches built in memory (a record file, a log's games): whole, once, never rewriting history.

An import is idempotent: a match already stored with the same players, rules, results and
corrections stores nothing; one stored under that key with other contents is a conflict,
refused (history is not rewritten by an import); the same game read from a log under another
key (another file's name) is stored once, under the key it was stored as first; a stored
excerpt of a game (the same first hands, fewer) is completed with the hands it lacks.
``prepare`` encodes a match and its seal in a worker process; ``store_prepared`` stores a
batch of them in one transaction, and match by match when some are there already.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final
from uuid import UUID

import attrs
from eventsourcing.persistence import Mapper, StoredEvent

from domain.codec import fact_to_data, to_data
from domain.integrity import digest_of, plain
from domain.match import Match, MatchContent, match_content, match_content_and_entries, match_id, results_so_far
from domain.store_errors import MatchExists
from domain.values import without_details
from projections.standings_view import match_documents
from projections.views import DocumentView, Encoded, encoded
from replay.service.recording.recording import on_match
from replay.store.application import HonbaApp
from replay.store.errors import UNAVAILABLE
from replay.store.identity import GameIdentity, game_fingerprint, identity_id
from replay.store.mapper import HonbaMapper
from replay.store.retry import retrying
from replay.store.rows import Row, event_of, row_of
from replay.store.seal import new_seal_events, seal_id
from replay.store.standings_view import keep
from replay.store.streams import (
    DamagedRow,
    RowsTaken,
    holds_stream,
    read_identity,
    rows_inserted_at,
    stream_events,
)


@attrs.frozen
class Prepared:
    """A match built in memory and encoded for the store, with its seal: what a bulk import stores.

    ``rows`` are the match's events and its seal's, as the store's table holds them; ``content``
    is what tells the same match from another of the same key (``domain.match.match_content``).
    Plain data, so it crosses from a worker process to the one that stores.
    """

    key: str
    players: tuple[str, ...]
    id: UUID
    # Its rows as the table holds them: plain tuples, unpickled without a call (``records``: as events).
    rows: tuple[Row, ...]
    content: MatchContent
    # The match's last position and head digest (what its seal records).
    position: int = 0
    head: str = ""
    # A game read from a log: the digest of its content (``replay.store.identity``), whose identity is
    # stored with it so that the same game from another file is stored once; None otherwise.
    fingerprint: str | None = None
    # The match's documents in the standings view (``projections.standings_view.match_documents``),
    # worked out by the worker that built it; written by the storing process when the view stands
    # right before the batch (``replay.store.standings_view.keep``). None: left to the catch-up.
    documents: Encoded | None = None

    @property
    def records(self) -> tuple[StoredEvent, ...]:
        """Its rows as the encoded events they hold (the rare paths: a match stored one by one)."""
        return tuple(event_of(row) for row in self.rows)


@attrs.frozen
class AlreadyStoredAs:
    """An import found the same game stored under another key (another file's name, its log id)."""

    key: str


def prepare(match: Match, mapper: Mapper[UUID], *, from_log: bool = False, view: bool = False) -> Prepared:
    """Encode a new match's events and those of its seal (last position and head digest).

    ``from_log``: a game read from a log, stored with its identity (``replay.store.identity``) so
    that another file holding the same game stores nothing (when it has a hand result). ``view``:
    with its standings view documents, from the steps the match scored. Takes the match's pending
    events: the match is then as if saved.
    """
    pending = list(match.pending_events)
    documents = None
    # Each fact's plain data (``domain.codec.to_data``), made once, when the command made its event
    # (for its digest), for the stored row, the view's documents and the match's content, by the
    # fact's id() (the pending events keep the facts alive).
    known = match.pending_fact_data()
    if view and pending and isinstance(pending[0], Match.Started):
        fact_data: list[dict[str, Any] | None] = []
        for event in pending:
            fact = _fact_of(event)
            if fact is None:
                fact_data.append(None)
                continue
            data = known.get(id(fact))
            if data is None:
                data = known[id(fact)] = to_data(fact)
            fact_data.append(fact_to_data(fact, data))
        scored = (match.state, match.effective_facts(), match.corrected_steps())
        # As their text: encoded here, in the reading worker, the storing process neither unpickles
        # the data nor encodes it again. The pending events of a match from its start are a new
        # match's by construction (``from_start``).
        documents = {
            key: None if data is None else encoded(data)
            for key, data in match_documents(
                pending, match.head, scored, fact_data, match.rules, from_start=True
            ).items()
        }
    # The content alone: each entry's own digest serves only the rare game whose key holds another
    # recording of it (``_complete_excerpt``), which works them out from the rows then.
    content, _ = match_content_and_entries(pending, known=known, entries_too=False)
    events: list[Any] = [*match.collect_events(), *new_seal_events(match.id, match.version, match.head)]
    fingerprint = None
    if from_log and any(isinstance(event, HAND_EVENTS) for event in pending):
        # A game with at least one result: its players and opening alone (an excerpt cut
        # before any hand ended) say too little to tell one game from another.
        fingerprint = game_fingerprint(content.players, content.results)
        events.extend(GameIdentity.claim_events(fingerprint, match.key))
    spelled: dict[UUID, str] = {}
    if known and isinstance(mapper, HonbaMapper):
        rows = tuple(mapper.rows_known(events, known, spelled))
    else:
        rows = tuple(row_of(mapper.to_stored_event(event), spelled) for event in events)
    return Prepared(
        match.key,
        match.players,
        match.id,
        rows,
        content,
        match.version,
        match.head,
        fingerprint,
        documents,
    )


def _fact_of(event: Any) -> Any:
    """The fact a match's event records (a correction's replacement), or None."""
    if isinstance(event, Match.Recorded):
        return event.fact
    if isinstance(event, Match.Corrected):
        return event.replacement
    return None


# The events of a hand result: what an excerpt lacks is recorded again as results.
HAND_EVENTS: Final = (Match.HandWon, Match.HandDrawn, Match.HandAborted)


def _entry_digest(event: Any) -> str:
    """The digest of one entry of a match's history (as ``match_content`` counts it); '' for other events."""
    if isinstance(event, Match.Started):
        return digest_of(["opening", plain(event.opening)])
    if isinstance(event, Match.Recorded):
        return digest_of(["fact", plain(without_details(event.fact))])
    if isinstance(event, Match.Corrected):
        return digest_of(["correction", plain([event.target, event.replacement, event.by, event.reason, event.at])])
    return ""


def store_whole(store: HonbaApp, match: Match) -> bool:
    """Store a match built in memory, all its events at once.

    Returns False, storing nothing, when the same match (same key, players, rules and
    results) is stored already: imports are idempotent and never half-store a match.
    A stored match with that key but other contents is a conflict, refused with
    ``MatchExists``: history is not rewritten by importing a changed file.
    """
    if not match.pending_events:
        return False  # this very match object was stored before: nothing new to store
    (outcome,) = store_prepared(store, [prepare(match, store.mapper)])
    if isinstance(outcome, MatchExists):
        raise outcome
    return outcome is True


def store_prepared(
    store: HonbaApp, batch: Sequence[Prepared], view: DocumentView | None = None
) -> list[bool | MatchExists | AlreadyStoredAs]:
    """Store matches prepared in memory (``prepare``), all of them in one transaction.

    For each, in order: True when stored (or a stored excerpt of it completed), False when
    the same match was stored already, ``AlreadyStoredAs`` when the same game read from a
    log is stored under another key, or the ``MatchExists`` conflict when a match with
    that key is stored with other contents (nothing of it is stored, and the others are).
    Each match is stored whole with its seal or not at all.

    A batch shares no row with the saves of other matches (tables recording meanwhile never
    make it fail). When it meets rows already there (a match, its seal or its game's identity:
    stored before, or by another process at the same moment), those matches are stored one by
    one, each as its own case, and the rest of the batch again in one transaction.

    With the store's standings ``view``, the matches' documents are written into it as each insert
    stores them (``replay.store.standings_view.keep``: where the view stood right before the
    insert); else they are left to the next catch-up.
    """
    outcomes: dict[int, bool | MatchExists | AlreadyStoredAs] = {}
    pending = list(range(len(batch)))
    while pending:
        positions = rows_inserted_at(store, [row for index in pending for row in batch[index].rows])
        if positions is None:
            present = [index for index in pending if _any_stored(store, batch[index])]
            # Nothing found there: rows another process stored and removed meanwhile; one by one.
            for index in present or pending:
                outcomes[index] = _store_one(store, batch[index], view)
            pending = [index for index in pending if index not in outcomes]
            continue
        _keep(store, view, positions, [batch[index] for index in pending])
        outcomes.update(dict.fromkeys(pending, True))
        break
    return [outcomes[index] for index in range(len(batch))]


def _keep(store: HonbaApp, view: DocumentView | None, positions: Sequence[int], stored: Sequence[Prepared]) -> None:
    """The standings view kept current with matches just stored whole at these positions, when each
    came with its documents (``replay.store.standings_view.keep`` decides whether they may be written)."""
    documents = [prepared.documents for prepared in stored]
    if view is not None and all(one is not None for one in documents):
        keep(store, view, positions, [one for one in documents if one is not None])


def _any_stored(store: HonbaApp, prepared: Prepared) -> bool:
    """Whether any stream a prepared match would start is there already (the match, its seal, its
    game's identity)."""
    streams = {UUID(row[0]) for row in prepared.rows}
    return any(holds_stream(store, stream) for stream in streams)


def _store_one(
    store: HonbaApp, prepared: Prepared, view: DocumentView | None = None
) -> bool | MatchExists | AlreadyStoredAs:
    def once(_attempt: int) -> bool | MatchExists | AlreadyStoredAs:
        same = _same_as_stored(store, prepared)
        if isinstance(same, MatchExists):
            completed = _complete_excerpt(store, prepared)
            if completed is not None:
                return completed
        if same is not False:
            return same if isinstance(same, MatchExists) else False
        owner = _identity_owner(store, prepared)
        if isinstance(owner, MatchExists):
            return owner
        if owner is not None:
            return AlreadyStoredAs(owner)
        positions = rows_inserted_at(store, prepared.rows)
        if positions is None:
            # Stored by another process since the look above, or another save took this game's
            # identity (then this match is still absent: try again, and the next look finds the
            # identity's owner), or only a stray seal is.
            same = _same_as_stored(store, prepared)
            if same is not False:
                return same if isinstance(same, MatchExists) else False
            raise RowsTaken(prepared.key)
        _keep(store, view, positions, [prepared])
        return True

    try:
        # Tried again unless a stray seal of this match is what is in the way.
        return retrying(once, conflict=RowsTaken, again=lambda _conflict: not holds_stream(store, seal_id(prepared.id)))
    except RowsTaken:
        return MatchExists(f"match {prepared.key!r} changed in the store while it was imported; try again")


def _identity_owner(store: HonbaApp, prepared: Prepared) -> str | MatchExists | None:
    """The key of the match that holds the same game, stored under another key; else None.

    The identity is a lookup outside every match's chain: it is believed only when the match it
    names holds the game (the same players, and this game's results at some point of its history,
    before later hands or corrections). One that names another match was changed behind honba's
    back: the game is refused (a conflict, nothing stored or attached), and ``honba check`` names it.
    """
    if prepared.fingerprint is None:
        return None
    try:
        identity = read_identity(store, prepared.fingerprint)
    except DamagedRow as damaged:
        return MatchExists(
            f"the store's record of the game {prepared.key!r} is damaged ({damaged.why}); see honba check"
        )
    if identity is None or identity.key == prepared.key:
        return None
    try:
        players, results = results_so_far(stream_events(store, match_id(identity.key)))
    except UNAVAILABLE:
        raise
    except Exception:  # the match it names cannot be read: it does not hold the game as far as honba can tell
        players, results = (), []
    if not any(game_fingerprint(players, digest) == prepared.fingerprint for digest in results):
        return MatchExists(
            f"the store's record of the game {prepared.key!r} names the match {identity.key!r}, which does not "
            "hold it: it was changed behind honba's back; nothing stored; see honba check"
        )
    return identity.key


def _complete_excerpt(store: HonbaApp, prepared: Prepared) -> bool | None:
    """For a game read from a log whose key holds another recording of it: True when the
    stored match was an excerpt of this game (same players, rules, opening and first
    results, fewer of them), now completed with the results it lacked; False when this
    game is an excerpt of the stored match (nothing to store); None otherwise.

    Nothing stored is erased: the missing hands are recorded on the stored match.
    """
    if prepared.fingerprint is None:
        return None
    stored = stream_events(store, prepared.id)
    content = match_content(stored)
    if content.players != prepared.content.players or content.rules != prepared.content.rules:
        return None
    entries = [d for d in map(_entry_digest, stored) if d]
    new = _entries_of(store, prepared)
    if len(entries) >= len(new):
        return False if entries[: len(new)] == new else None
    if new[: len(entries)] != entries:
        return None
    recorded = sum(isinstance(event, HAND_EVENTS) for event in stored)
    missing = _facts_of(store, prepared)[recorded:]

    def complete(match: Match) -> None:
        for fact in missing:
            match.record(fact)

    on_match(store, prepared.key, complete)
    # Its identity too, unless another save stored it meanwhile.
    identity = identity_id(prepared.fingerprint).hex
    rows_inserted_at(store, [row for row in prepared.rows if row[0] == identity])
    return True


def _entries_of(store: HonbaApp, prepared: Prepared) -> list[str]:
    """The digest of each entry (opening, facts, corrections) of a prepared match, in order, from its
    events decoded from its records as the store reads them: what a stored excerpt of the same game
    (the same entries, fewer) is compared by. Worked out here, for the rare game whose key holds
    another recording, not by the worker for every match it prepares (a hash per entry)."""
    events = (
        store.mapper.to_domain_event(record) for record in prepared.records if record.originator_id == prepared.id
    )
    return [digest for digest in map(_entry_digest, events) if digest]


def _facts_of(store: HonbaApp, prepared: Prepared) -> list[Any]:
    """The hand results of a prepared match, in order, decoded from its records as the store reads them."""
    events = (
        store.mapper.to_domain_event(record) for record in prepared.records if record.originator_id == prepared.id
    )
    return [event.fact for event in events if isinstance(event, HAND_EVENTS)]


def _same_as_stored(store: HonbaApp, prepared: Prepared) -> bool | MatchExists:
    """False when no match with that key is stored; True when the same one is; else the conflict."""
    stored = stream_events(store, prepared.id)
    if not stored:
        return False
    differs = match_content(stored).differs_in(prepared.content)
    if differs is None:
        return True
    if differs == "results" and match_content(stored, when_stored=True).results == prepared.content.results:
        return True  # its own export: a correction recorded through honba written with the time it was stored
    return MatchExists(
        f"a match {prepared.key!r} is stored with other {differs}; it is not replaced "
        "(record a correction on the stored match instead)"
    )
