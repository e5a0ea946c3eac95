"""The honba application service: the event store and the commands on matches.

Storage is the ``eventsourcing`` library's: an embedded SQLite file by default
(``eventsourcing.sqlite``), in memory for tests (``eventsourcing.popo``). The
library's own settings (``PERSISTENCE_MODULE``, ``SQLITE_DBNAME``,
``POSTGRES_*``) still work when no database is named explicitly.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any
from uuid import UUID

import attrs
from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError, JSONTranscoder, Transcoding
from eventsourcing.utils import get_topic

from domain.codec import VALUE_CLASSES, from_data, to_data
from domain.errors import HonbaError
from domain.match import Match, match_id
from domain.progression import Fact
from domain.rules import Ruleset
from domain.values import HandResult, Penalty, TableState
from replay.formats.record import early_end_reason
from replay.seal import Seal, seal_id

DB_ENV = "HONBA_DB"
MEMORY = ":memory:"


class MatchNotFound(HonbaError):
    """No match is stored under that key."""


class MatchExists(HonbaError):
    """A match with that key is already stored."""


class StoreError(HonbaError):
    """The store could not be opened or written."""


class ValueTranscoding(Transcoding):
    """Stores a domain value as its canonical plain data (``domain.codec``)."""

    def __init__(self, cls: type[Any]):
        self.type = cls
        self.name = f"honba.{cls.__name__}"

    def encode(self, obj: Any) -> Any:
        return to_data(obj)

    def decode(self, data: Any) -> Any:
        return from_data(self.type, data)


def default_db_path() -> Path:
    """Where the SQLite file lives unless ``--db`` or ``HONBA_DB`` says otherwise."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "honba" / "honba.sqlite"


def persistence_env(db: str | None) -> dict[str, str]:
    """The library settings for a database named by path, ``:memory:`` or nothing.

    With nothing named, ``HONBA_DB`` is used; failing that, the library's own
    ``PERSISTENCE_MODULE`` settings if set; failing that, the default SQLite file.
    """
    db = db or os.environ.get(DB_ENV)
    if db is None and os.environ.get("PERSISTENCE_MODULE"):
        return {}
    if db == MEMORY:
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    path = Path(db) if db else default_db_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)}


@attrs.frozen
class MatchSummary:
    """What ``honba list`` shows of a stored match."""

    key: str
    players: tuple[str, ...]
    rules: str
    source: Mapping[str, Any]


class HonbaApp(Application[UUID]):
    """Stores matches as event streams and runs the commands on them."""

    name = "honba"
    is_snapshotting_enabled = False

    @classmethod
    def open(cls, db: str | None = None) -> HonbaApp:
        """Open the store named by ``db`` (a path or ``:memory:``), see ``persistence_env``."""
        try:
            return cls(env=persistence_env(db))
        except Exception as exc:  # the library raises several kinds; all mean the same to a user
            raise StoreError(f"cannot open the store {db or default_db_path()}: {exc}") from None

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        super().register_transcodings(transcoder)
        for cls in VALUE_CLASSES:
            transcoder.register(ValueTranscoding(cls))

    # Queries.

    def get_match(self, key: str) -> Match:
        """The stored match with that key."""
        try:
            match: Match = self.repository.get(match_id(key))
        except AggregateNotFoundError:
            raise MatchNotFound(f"no match {key!r} in the store") from None
        assert isinstance(match, Match)
        return match

    def has_match(self, key: str) -> bool:
        """Whether a match with that key is stored."""
        return match_id(key) in self.repository

    def facts(self, key: str) -> tuple[Match, list[Fact]]:
        """The match and its history as corrected (what scores and standings use), in order."""
        match = self.get_match(key)
        return match, match.effective_facts()

    def list_matches(self) -> Iterator[MatchSummary]:
        """Every stored match, in the order they were started."""
        topic = get_topic(Match.Started)
        start = 1
        while True:
            batch = self.recorder.select_notifications(start=start, limit=500, topics=[topic])
            if not batch:
                return
            for notification in batch:
                event = self.mapper.to_domain_event(notification)
                assert isinstance(event, Match.Started)
                yield MatchSummary(event.key, tuple(event.players), str(event.rules.get("name", "?")), event.source)
            start = batch[-1].id + 1

    # Commands.

    def start_match(
        self,
        key: str,
        players: Sequence[str],
        rules: Ruleset,
        source: Mapping[str, Any] | None = None,
        opening: TableState | None = None,
    ) -> Match:
        """Start and store a new match; a key already in use is refused."""
        if self.has_match(key):
            raise MatchExists(f"a match {key!r} is already stored")
        match = Match.start(key, players, rules, source, opening)
        self._save(match)
        return match

    def record(self, key: str, result: HandResult, *, client_key: str | None = None) -> Match:
        """Record a hand result on a stored match (a retry with the same client key records nothing)."""
        return self._command(key, lambda match: match.record(result, client_key=client_key))

    def penalise(self, key: str, penalty: Penalty, *, client_key: str | None = None) -> Match:
        """Record a penalty on a stored match."""
        return self._command(key, lambda match: match.penalise(penalty, client_key=client_key))

    def end(self, key: str, reason: str, *, client_key: str | None = None) -> Match:
        """End a stored match early; ``reason`` may not be one the rules decide (complete, bust, dealer_stop)."""
        return self._command(key, lambda match: match.end(early_end_reason(reason), client_key=client_key))

    def amend(
        self,
        key: str,
        target: int,
        replacement: HandResult | Penalty,
        *,
        by: str,
        reason: str,
        client_key: str | None = None,
    ) -> Match:
        """Replace the result or penalty at position ``target`` of a stored match (a correction)."""
        return self._command(
            key, lambda match: match.amend(target, replacement, by=by, reason=reason, client_key=client_key)
        )

    def void(self, key: str, target: int, *, by: str, reason: str, client_key: str | None = None) -> Match:
        """Void the result or penalty at position ``target`` of a stored match (a correction)."""
        return self._command(key, lambda match: match.void(target, by=by, reason=reason, client_key=client_key))

    def add_penalty(self, key: str, penalty: Penalty, *, by: str, reason: str, client_key: str | None = None) -> Match:
        """Add a penalty as a correction, also after the match ended."""
        return self._command(key, lambda match: match.add_penalty(penalty, by=by, reason=reason, client_key=client_key))

    def _command(self, key: str, command: Callable[[Match], None]) -> Match:
        match = self.get_match(key)
        command(match)
        if match.pending_events:
            self._save(match)
        return match

    def store_whole(self, match: Match) -> bool:
        """Store a match built in memory, all its events at once.

        Returns False, storing nothing, when the same match (same key, players, rules and
        results) is stored already: imports are idempotent and never half-store a match.
        A stored match with that key but other contents is a conflict, refused with
        ``MatchExists``: history is not rewritten by importing a changed file.
        """
        if match.id in self.repository:
            self._check_same(match)
            return False
        try:
            self._save(match)
        except MatchExists:
            self._check_same(match)
            return False
        return True

    def _check_same(self, match: Match) -> None:
        stored = self.get_match(match.key)
        if not match.pending_events and stored.version == match.version:
            return  # this very match object was stored before
        stored_log = ([f for _, f in stored.history], [c for _, c in stored.correction_log])
        new_log = ([f for _, f in match.history], [c for _, c in match.correction_log])
        if (stored.players, stored.rules, stored_log) != (match.players, match.rules, new_log):
            differs = "players" if stored.players != match.players else "rules"
            if stored.players == match.players and stored.rules == match.rules:
                differs = "results"
            raise MatchExists(
                f"a match {match.key!r} is stored with other {differs}; it is not replaced "
                "(record a correction on the stored match instead)"
            )

    def seal_of(self, match_id: UUID) -> Seal | None:
        """The seal saved with a match, if there is one."""
        try:
            seal: Seal = self.repository.get(seal_id(match_id))
        except AggregateNotFoundError:
            return None
        return seal

    def _save(self, match: Match) -> None:
        # The seal goes into the same transaction as the match's new events.
        seal = self.seal_of(match.id) or Seal.open(match.id)
        seal.seal(match.version, match.head)
        try:
            self.save(match, seal)
        except IntegrityError:
            raise MatchExists(f"match {match.key!r} changed in the store while this command ran; try again") from None
