"""What a command is refused for what is (or is not) stored: a match or tournament not found, a
key taken, a save overtaken by another, a match changed behind honba's back, a store that cannot be
opened or written or did not answer.

The store raises them (``replay/store``), the use cases raise and catch them, and the front ends
catch them to choose an exit code or a status: one address for each, here, which every layer
imports. What the event library itself raises when the store does not answer stays with the
store (``replay.store.errors.UNAVAILABLE``), which says it as ``StoreUnavailable``.
"""

from __future__ import annotations

from domain.errors import HonbaError


class MatchNotFound(HonbaError):
    """No match is stored under that key."""


class MatchExists(HonbaError):
    """A match with that key is already stored."""


class StoreConflict(MatchExists):
    """Another process saved the match between this command's load and its save."""


class FinalConflict(StoreConflict):
    """A conflict no retry within the same command can change (a save after a one-trip insert whose
    outcome the store did not tell, ``HonbaApp.one_trip``): answered at once; the client sends the
    command again."""


class StoreError(HonbaError):
    """The store could not be opened or written."""


class StoreUnavailable(StoreError):
    """The store did not answer (a lost connection, a locked file): what became of a write in
    flight only the store knows."""


class StoreBusy(StoreUnavailable):
    """Another process held the store's write lock, and the call was made not to wait for it
    (``honba serve``'s event loop): refused at once, before anything was written, so it may be run
    again where waiting stalls nothing else."""


class DamagedMatch(HonbaError):
    """A stored match was changed behind honba's back: it cannot be read, or its chain or seal does not check."""


class TournamentNotFound(HonbaError):
    """No tournament of that name is stored."""
