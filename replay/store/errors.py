"""What the store says went wrong: nothing stored under a key, a key taken, a save overtaken, a row changed."""

from __future__ import annotations

from eventsourcing.persistence import InterfaceError, OperationalError

from domain.errors import HonbaError

# What the library raises when the store does not answer (a connection lost or refused, no connection
# free in time, a locked SQLite file), as opposed to a row it cannot take or a statement it refuses.
UNAVAILABLE = (OperationalError, InterfaceError)


class MatchNotFound(HonbaError):
    """No match is stored under that key."""


class MatchExists(HonbaError):
    """A match with that key is already stored."""


class StoreConflict(MatchExists):
    """Another process saved the match between this command's load and its save."""


class StoreError(HonbaError):
    """The store could not be opened or written."""


class StoreUnavailable(StoreError):
    """The store did not answer a write (a lost connection, a locked file): what became of it only the store knows."""


class DamagedMatch(HonbaError):
    """A stored match was changed behind honba's back: it cannot be read, or its chain or seal does not check."""


class TournamentNotFound(HonbaError):
    """No tournament of that name is stored."""
