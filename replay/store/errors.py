"""What the event library raises when the store does not answer, as the store's modules catch it.

honba's own refusals for what is stored (``MatchNotFound``, ``StoreConflict``, ``StoreUnavailable``,
...) are the domain's (``domain/store_errors.py``): the store raises them, and says the library's
errors below as ``StoreUnavailable`` where a save fails (``HonbaApp.save_match``) and where the
service runs a front end's call (``replay.service.common.opening.store_answering``).
"""

from __future__ import annotations

from eventsourcing.persistence import InterfaceError, OperationalError, PersistenceError

# What the library raises when the store does not answer (a connection lost or refused, no connection
# free in time, a locked SQLite file), as opposed to a row it cannot take or a statement it refuses.
UNAVAILABLE = (OperationalError, InterfaceError)

# Everything the library raises of the store's (the above, and a row it cannot take, a statement refused):
# said as ``StoreError`` where the service runs a front end's command (``replay.service.common.opening``).
FAILED = PersistenceError


class NotAsChecked(Exception):
    """A one-trip save refused by the store, nothing written: the token's row or the last rows of the
    match or its seal were not as this process checked them (``HonbaPostgresRecorder.insert_checked``).
    Not a failure of the store: its caller takes today's path (the rows read, the token checked again)."""

    def __init__(self, why: str):
        super().__init__(why)
        self.why = why
