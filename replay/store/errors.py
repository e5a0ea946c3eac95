"""What the store says went wrong: nothing stored under a key, a key taken, a save overtaken, a row changed."""

from __future__ import annotations

from domain.errors import HonbaError


class MatchNotFound(HonbaError):
    """No match is stored under that key."""


class MatchExists(HonbaError):
    """A match with that key is already stored."""


class StoreConflict(MatchExists):
    """Another process saved the match between this command's load and its save."""


class StoreError(HonbaError):
    """The store could not be opened or written."""


class DamagedMatch(HonbaError):
    """A stored match was changed behind honba's back: it cannot be read, or its chain or seal does not check."""


class TournamentNotFound(HonbaError):
    """No tournament of that name is stored."""
