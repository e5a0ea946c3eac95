"""The store as a front end holds it, through the service: opened (``open_store``, or a command's
``OpenedStore``), checkpointed and closed (``take_checkpoint``, ``close_store``), the standings
view over it (``open_standings_view``), what a front end says of it (``store_shown``,
``unnamed_store``, ``data_folder``), whether its callers take turns (``one_writer_at_a_time``),
and the library's errors said as the domain's (``store_answering``: "the store did not answer" as
``StoreUnavailable``; ``store_failures``: any failure of the store as ``StoreError``). A front end
passes the store it opened to the use cases, calls none of its methods, never names its class, and
reaches nothing of ``replay.store`` nor of the event library itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from domain.bounds import clipped
from domain.codec import write_encoders
from domain.said import Said
from domain.store_errors import MatchNotFound, StoreError, StoreUnavailable
from replay.store.application import HonbaApp
from replay.store.errors import FAILED, UNAVAILABLE
from replay.store.mapper import find_checks
from replay.store.settings import DB_ENV, POSTGRES, default_db_path, store_name
from replay.store.tokens import TABLE as TOKENS
from replay.store.tokens import TokenRows

if TYPE_CHECKING:
    from projections.views import DocumentView

# The token id and match key ``ready_to_serve`` reads: no token's (an id is hex digits), and a key
# that, were a match so named, is only read.
NO_TOKEN = "not-a-token"
NO_MATCH = "honba-ready-to-serve"

# The store every use case takes, as a front end holds it: opened with ``open_store``, handed on.
Store: TypeAlias = HonbaApp


def open_store(db: str | None, *, read_only: bool = False) -> Store:
    """The store ``db`` names (a SQLite file, ``:memory:``, a PostgreSQL URL; none: ``HONBA_DB``,
    else the default file), opened; ``read_only``: its connections refuse writes and need none."""
    return HonbaApp.open(db, read_only=read_only)


def ready_to_serve(app: Store, connections: int = 0) -> None:
    """What a server's first recorded hands did once for the whole process, done as it starts, before
    it takes a request (issue 36, eighteenth round): the domain's encoders written and the mapper's
    checks found for every class; and on PostgreSQL a hand's statements prepared on every connection
    of the pool, now and as it opens more (``prepare_hands``), and the reads a table's first hand
    makes (a token's row, a match and its seal, read whole) made once, of a token and a match that
    are not there, so that the driver's first statements of each kind are behind it. No row is written.
    ``connections``: how many calls the server makes at once (its hand threads): the pool opens as
    many connections now, not at the first hands."""
    write_encoders()
    find_checks()
    prepare = getattr(app.recorder, "prepare_hands", None)
    if prepare is None:
        # SQLite, memory: the first reads are left to the first hands (measured on PostgreSQL only;
        # on SQLite a read may have to wait for another process's write lock).
        return
    # A store that does not answer now (an outage as the server starts): the server starts all the
    # same, as it did, and its first hands do the rest as they come.
    with suppress(*UNAVAILABLE):
        tokens = TokenRows(app)  # (its table made, if this store has none yet: a hand's read names it)
        prepare(TOKENS, connections)
        tokens.row(NO_TOKEN)
        with suppress(MatchNotFound):
            app.read(NO_MATCH)


def take_checkpoint(app: Store) -> str:
    """Take a checkpoint of what this process saved in ``app``, now (skipped when another process
    holds the checkpoint lock: its next checkpoint covers it); the store head digest after it."""
    taken = app.checkpoint()
    app.wrote = False
    return taken.head


def close_store(app: Store) -> None:
    """Close ``app``: a PostgreSQL store's connections, a SQLite file's."""
    app.close()


class OpenedStore:
    """The store a command works on, as the service hands it to a front end: opened when first asked
    for (``app``; ``reader`` to read only), then checkpointed and closed through the service
    (``checkpoint``, ``close``). The front end passes ``app`` on to the use cases."""

    def __init__(self, db: str | None) -> None:
        self.db = db
        self._app: Store | None = None

    @property
    def app(self) -> Store:
        """The store ``db`` names, opened the first time it is asked for."""
        if self._app is None:
            self._app = open_store(self.db)
        return self._app

    @property
    def reader(self) -> Store:
        """The store opened to read only (``honba check``, ``audit``, ``export``): its connections
        refuse writes and need none, so that they work on a full disk."""
        if self._app is None:
            self._app = open_store(self.db, read_only=True)
        return self._app

    def checkpoint(self) -> str:
        """A checkpoint of what this command saved, now (``take_checkpoint``): the head digest after it."""
        return take_checkpoint(self.app)

    def close(self) -> str | None:
        """Close the store if it was opened, with a checkpoint first when the command wrote and took
        none since. What was saved is stored whatever becomes of that checkpoint (the next one covers
        it): its failure is not the command's, and is returned as one line for a warning (else None)."""
        if self._app is None:
            return None
        app, self._app = self._app, None
        try:
            if app.wrote:
                take_checkpoint(app)
            return None
        except Exception as exc:
            # Besides honba's and the library's errors, the driver's own: a Ctrl-C inside a save leaves
            # SQLite's connection in its transaction ("cannot start a transaction within a transaction"),
            # rolled back on close.
            return clipped(" ".join(str(exc).split()) or type(exc).__name__)
        finally:
            close_store(app)


def open_standings_view(app: Store) -> DocumentView:
    """The standings view of the store ``app`` (``replay.store.standings_view.open_view``)."""
    # Loaded where a view is opened (``honba serve``): a recording command opens none.
    from replay.store.standings_view import open_view

    return open_view(app)


def store_shown(db: str | None) -> str:
    """The store ``db`` names as a message shows it (the one a command works on when ``db`` is
    None), a password masked."""
    return store_name(db)


def unnamed_store() -> str:
    """Where the store is when a command names none, as its help says it (``$HONBA_DB or <file>``)."""
    return f"${DB_ENV} or {default_db_path()}"


def data_folder() -> Path:
    """The folder honba keeps its files in unless told otherwise (the default store's)."""
    return default_db_path().parent


def one_writer_at_a_time(app: Store) -> bool:
    """Whether the store takes one writer at a time (SQLite, and the store in memory: every store but
    PostgreSQL), so that a server's threads take turns on it."""
    return app.env.get("PERSISTENCE_MODULE") != POSTGRES


def not_waiting(app: Store) -> AbstractContextManager[None]:
    """Run a block whose calls to ``app`` are refused at once, not kept waiting, when another
    process holds the store's write lock (SQLite): ``StoreBusy`` when refused so before anything
    was written (the block may be run again where a wait stalls nothing else). For a call made on
    ``honba serve``'s event loop, which serves every other request while it does not return."""
    return app.not_waiting()


@contextmanager
def store_answering() -> Iterator[None]:
    """Run the block; when the store does not answer under it (a lost connection, a locked file:
    the event library's own errors, on a read as on a write), raise ``StoreUnavailable``, which a
    front end answers as "try again" and never as a refusal of what was sent."""
    try:
        yield
    except UNAVAILABLE as exc:
        why = " ".join(str(exc).split()) or type(exc).__name__
        raise StoreUnavailable(Said("the store did not answer: {why}", why=why)) from exc


@contextmanager
def store_failures() -> Iterator[None]:
    """Run the block (a command's); whatever the event library raises of the store under it is
    raised as the domain's store error, one line: ``StoreUnavailable`` when the store did not answer
    (as ``store_answering``), ``StoreError`` for any other failure of the store (a row it could not
    take, a statement it refused)."""
    try:
        with store_answering():
            yield
    except FAILED as exc:
        why = " ".join(str(exc).split()) or type(exc).__name__
        raise StoreError(Said("the store failed: {why}", why=why)) from exc
