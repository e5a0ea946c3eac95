"""Editing a store's rows behind honba's back: what the tamper and damage tests do to a copy.

Each test gets its own copy of a store written once per module (``copy_store``), then deletes or
rewrites rows with plain SQL as an attacker (or a failing disk) would, and asks honba what it finds.
"""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any
from uuid import UUID

import psycopg


def copy_store(pristine: Path, tmp_path: Path) -> Path:
    """A test's own copy of a store the module wrote once: edits never reach another test."""
    path = tmp_path / "honba.sqlite"
    shutil.copy(pristine, path)
    return path


@contextmanager
def write_lock_held(path: Path | str) -> Iterator[sqlite3.Connection]:
    """Another connection to the store's file, as another process's (an import, another server, a
    command), holding its write lock (``BEGIN IMMEDIATE``) until the block ends or the test lets go
    of it (``rollback``; from another thread too)."""
    with closing(sqlite3.connect(path, isolation_level=None, check_same_thread=False)) as other:
        other.execute("BEGIN IMMEDIATE")
        try:
            yield other
        finally:
            if other.in_transaction:
                other.rollback()


@contextmanager
def sql(path: Path) -> Iterator[sqlite3.Connection]:
    """A plain connection to the store's file, committed when the block ends."""
    with closing(sqlite3.connect(path)) as connection:
        yield connection
        connection.commit()


def delete_row(db: Path, originator: str, version: int) -> None:
    """Delete one stored event (a stream's id in hex, its version); exactly one row must go."""
    with sql(db) as c:
        gone = c.execute(
            "DELETE FROM stored_events WHERE originator_id = ? AND originator_version = ?", (originator, version)
        ).rowcount
    assert gone == 1


def last_version(db: Path, originator: str) -> int:
    """The last version stored for a stream (0 when it has none)."""
    with sql(db) as c:
        (version,) = c.execute(
            "SELECT MAX(originator_version) FROM stored_events WHERE originator_id = ?", (originator,)
        ).fetchone()
    return int(version or 0)


def execute(db: str, statement: str, *args: Any) -> list[Any]:
    """One statement on the events table (``EVENTS``) of a SQLite file or a PostgreSQL URL, with ids
    as each store keeps them (a uuid on PostgreSQL, its hex in SQLite)."""
    if db.startswith("postgresql://"):
        with psycopg.connect(db) as connection:
            cursor = connection.execute(statement.replace("EVENTS", "honba_events").replace("?", "%s"), args)
            return list(cursor.fetchall()) if cursor.description else []
    hexed = tuple(a.hex if isinstance(a, UUID) else a for a in args)
    with closing(sqlite3.connect(db)) as connection:
        cursor = connection.execute(statement.replace("EVENTS", "stored_events"), hexed)
        rows = list(cursor.fetchall())
        connection.commit()
        return rows
