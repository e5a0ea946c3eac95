"""The store's refusals, as the front ends catch them: a match or tournament not found, a match
changed behind honba's back, a save that met another, a store that cannot be reached. The front
ends import them from here (the service), never from ``replay.store``."""

from __future__ import annotations

from replay.store.errors import (
    UNAVAILABLE,
    DamagedMatch,
    MatchExists,
    MatchNotFound,
    StoreConflict,
    StoreError,
    StoreUnavailable,
    TournamentNotFound,
)

__all__ = [
    "UNAVAILABLE",
    "DamagedMatch",
    "MatchExists",
    "MatchNotFound",
    "StoreConflict",
    "StoreError",
    "StoreUnavailable",
    "TournamentNotFound",
]
