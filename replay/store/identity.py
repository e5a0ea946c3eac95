"""A game's identity: which stored match holds a game read from a log, whatever file it came from.

The same game can reach an import under two file names (a copy renamed, a test file
named after what it tests) and under two formats. Its key (the log id, or the file's
name) then differs, but its content does not: the players in seat order, the table it
opens at and every result. One ``GameIdentity`` per content, stored in the same
transaction as the match, makes the store hold each game once: a second copy finds the
identity taken and is reported as already stored, under the key it was stored as.
"""

from __future__ import annotations

from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate
from eventsourcing.utils import get_topic, register_topic

from domain.integrity import digest_of


def game_fingerprint(players: tuple[str, ...], results: str) -> str:
    """The digest of a game's content: its players and its results (``MatchContent.results``)."""
    return digest_of({"players": list(players), "results": results})


def identity_id(fingerprint: str) -> UUID:
    """The id of the identity of the game with that fingerprint."""
    return uuid5(NAMESPACE_URL, f"honba:/games/{fingerprint}")


class GameIdentity(Aggregate):
    """The key of the match that holds one game's content."""

    class Claimed(Aggregate.Created):
        """A game's content was stored as the match ``key``."""

        fingerprint: str
        key: str

    def __init__(self, fingerprint: str, key: str):
        self.fingerprint = fingerprint
        self.key = key

    @staticmethod
    def create_id(fingerprint: str, **_: Any) -> UUID:
        """One identity per game content."""
        return identity_id(fingerprint)

    @classmethod
    def claim(cls, fingerprint: str, key: str) -> GameIdentity:
        """The identity of a game stored as ``key``."""
        return cls._create(cls.Claimed, id=identity_id(fingerprint), fingerprint=fingerprint, key=key)

    @classmethod
    def claim_events(cls, fingerprint: str, key: str) -> list[Any]:
        """The events ``claim(fingerprint, key)`` records (its one event, stamped by its class's clock
        as the library stamps it), made without the aggregate: an import claims every game it stores,
        and the library's ``_create`` costs more than the event."""
        # The event class as ``_create`` makes it (keyword arguments its dataclass transform does not
        # declare to a type checker).
        claimed: Any = cls.Claimed
        return [
            claimed(
                originator_topic=_IDENTITY_TOPIC,
                originator_id=identity_id(fingerprint),
                originator_version=cls.INITIAL_VERSION,
                timestamp=claimed.create_timestamp(),
                fingerprint=fingerprint,
                key=key,
            )
        ]


# The topic an identity's event names its aggregate by (``Aggregate._create`` writes ``get_topic``'s).
_IDENTITY_TOPIC = get_topic(GameIdentity)


def file_record_id(digest: str) -> UUID:
    """The id of the record of an imported file (``replay.service.imports.batch.import_digests``)."""
    return uuid5(NAMESPACE_URL, f"honba:/files/{digest}")


class ImportedFile(Aggregate):
    """A file an import read whole: what it gave, so that the same bytes imported again (with the
    same options) are recognised by their digest without being read, parsed or replayed.

    Stored after every match the file gave is in the store (a file recorded is a file whose
    games are all stored); a changed file has another digest and is read again.
    """

    class Recorded(Aggregate.Created):
        """The file with that digest gave these games ([key as stored, [players], key as read]:
        the keys differ for a game stored before from another file), these unsupported games
        and these warnings (each without the file's name)."""

        digest: str
        games: list[Any]
        unsupported: list[str]
        warnings: list[str]

    def __init__(self, digest: str, games: list[Any], unsupported: list[str], warnings: list[str]):
        self.digest = digest
        self.games = games
        self.unsupported = unsupported
        self.warnings = warnings

    @staticmethod
    def create_id(digest: str, **_: Any) -> UUID:
        """One record per file content and import options."""
        return file_record_id(digest)

    @classmethod
    def record(cls, digest: str, games: list[Any], unsupported: list[str], warnings: list[str]) -> ImportedFile:
        """The record of a file read whole."""
        return cls._create(
            cls.Recorded,
            id=file_record_id(digest),
            digest=digest,
            games=games,
            unsupported=unsupported,
            warnings=warnings,
        )

    @classmethod
    def recorded(
        cls, digest: str, games: list[Any], unsupported: list[str], warnings: list[str]
    ) -> ImportedFile.Recorded:
        """The event ``record(...)`` records (stamped by its class's clock as the library stamps it),
        made without the aggregate: an import records every file it reads whole, and reads every
        record it finds as this event (``replay.store.imported``); the library's ``_create`` (its
        checks, its copies of the arguments, the aggregate mutated) cost more than the event."""
        # The event class as ``_create`` makes it (keyword arguments its dataclass transform does not
        # declare to a type checker).
        made: Any = cls.Recorded
        event: ImportedFile.Recorded = made(
            originator_topic=_FILE_TOPIC,
            originator_id=file_record_id(digest),
            originator_version=cls.INITIAL_VERSION,
            timestamp=made.create_timestamp(),
            digest=digest,
            games=games,
            unsupported=unsupported,
            warnings=warnings,
        )
        return event


# The topic a file record's event names its aggregate by (``Aggregate._create`` writes ``get_topic``'s).
_FILE_TOPIC = get_topic(ImportedFile)


# Where these classes lived before: stores written then name them so in every event.
OLD_MODULE = "replay.identity"
for _moved in (GameIdentity, GameIdentity.Claimed, ImportedFile, ImportedFile.Recorded):
    register_topic(f"{OLD_MODULE}:{_moved.__qualname__}", _moved)
