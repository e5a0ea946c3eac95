"""A store filled once for a module and copied for each test that changes it.

Filling a store through the command line costs a command each (a start, a few wins, a tournament:
seconds a test); a test that damages rows behind honba's back, or plays on from a set position, needs
its own store but not its own filling. ``PreparedStores(fill)`` fills one store per kind (SQLite,
PostgreSQL) the first time a test asks for it; ``copy(kind, tmp_path)`` gives each test a copy of its
own: the SQLite files (the events' and the standings view's) copied beside each other, a PostgreSQL
database made from the filled one as its template (``CREATE DATABASE ... TEMPLATE``, the server's own
file copy). What the test then reads is what the filling stored, as if it had filled the store itself.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from pg_server import PostgresServer

from replay.store.standings_view import views_path

NAME = "honba.sqlite"


class PreparedStores:
    """One store per kind filled by ``fill(db)`` once (lazily), copied for each test."""

    def __init__(self, fill: Callable[[str], None], root: Path, request: pytest.FixtureRequest):
        self._fill = fill
        self._root = root
        self._request = request
        self._filled: dict[str, str] = {}

    def _server(self) -> PostgresServer:
        server: PostgresServer = self._request.getfixturevalue("postgres_server")
        return server

    def filled(self, kind: str) -> str:
        """The store of this kind filled once: a SQLite file, or the name of a PostgreSQL database."""
        if kind not in self._filled:
            if kind == "postgresql":
                url = self._server().new_database()
                self._fill(url)
                self._filled[kind] = url.rsplit("/", 1)[1]
            else:
                folder = self._root / "sqlite"
                folder.mkdir()
                self._fill(str(folder / NAME))
                self._filled[kind] = str(folder / NAME)
        return self._filled[kind]

    def copy(self, kind: str, tmp_path: Path) -> str:
        """What ``--db`` names for a copy of the filled store of this kind ("sqlite" or "postgresql")."""
        filled = self.filled(kind)
        if kind == "postgresql":
            return self._server().new_database(template=filled)
        folder = tmp_path / "store"
        folder.mkdir()
        db = str(folder / NAME)
        for source, target in ((filled, db), (views_path(filled), views_path(db))):
            if Path(source).exists():
                shutil.copyfile(source, target)
        return db
