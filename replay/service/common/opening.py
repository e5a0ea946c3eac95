"""The store as a front end holds it, through the service: opened (``open_store``), the standings
view over it (``open_standings_view``), what a front end says of it (``store_shown``,
``unnamed_store``, ``data_folder``), whether its callers take turns (``one_writer_at_a_time``),
and the library's "the store did not answer" said as ``StoreUnavailable`` around a call
(``store_answering``). A front end passes the store it opened to the use cases and reaches
nothing of ``replay.store`` itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeAlias

from domain.said import Said
from domain.store_errors import StoreUnavailable
from replay.store.application import HonbaApp
from replay.store.errors import UNAVAILABLE
from replay.store.settings import DB_ENV, POSTGRES, default_db_path, store_name

if TYPE_CHECKING:
    from projections.views import DocumentView

# The store every use case takes, as a front end holds it: opened with ``open_store``, handed on.
Store: TypeAlias = HonbaApp


def open_store(db: str | None, *, read_only: bool = False) -> Store:
    """The store ``db`` names (a SQLite file, ``:memory:``, a PostgreSQL URL; none: ``HONBA_DB``,
    else the default file), opened; ``read_only``: its connections refuse writes and need none."""
    return HonbaApp.open(db, read_only=read_only)


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
