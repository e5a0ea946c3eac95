"""The store as the front ends open it: ``HonbaApp`` (opened by ``HonbaApp.open(db)`` and handed to
every use case), where the store is when ``--db`` is not given (``DB_ENV``, ``default_db_path``),
its name as a person reads it (``store_name``), and the standings view over it
(``open_standings_view``). The front ends take them from here, never from ``replay.store``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay.store.application import HonbaApp
from replay.store.settings import DB_ENV, default_db_path, store_name

if TYPE_CHECKING:
    from projections.views import DocumentView

__all__ = ["DB_ENV", "HonbaApp", "default_db_path", "open_standings_view", "store_name"]


def open_standings_view(app: HonbaApp) -> DocumentView:
    """The standings view of the store ``app`` opened (``replay.store.standings_view.open_view``)."""
    # Loaded where a view is opened (``honba serve``): a recording command opens none.
    from replay.store.standings_view import open_view

    return open_view(app)
