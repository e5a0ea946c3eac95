"""The store an import of ``../shared/corpus`` writes, as one digest: to compare two trees byte for byte.

    python -P benchmarks/store_dump.py [--corpus DIR]      (once with each tree first on PYTHONPATH)

Imports the whole corpus (every folder, every format) into a fresh SQLite store with the event
clock frozen (every event's time the same instant, so that two runs write the same rows), then
prints each table's row count and the SHA-256 of its rows in order (every column, ordered by all
of them), and one digest over all the tables. Two trees that print the same last line wrote the
same store: the same ids, positions, topics and state bytes, hence the same digests and seals.
(Used for issue 36's sixth round: each event written by ``orjson`` gives main's store.)
"""

from __future__ import annotations

import argparse
import hashlib
import sqlite3
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import eventsourcing.domain as library

# ``python -P`` leaves this script's folder off the path: its helpers are found there all the same.
sys.path.append(str(Path(__file__).resolve().parent))

from machine import REPO

FROZEN = datetime(2026, 1, 2, 3, 4, 5, 123456, tzinfo=UTC)


def freeze_the_clock() -> None:
    """Every event created from now on in this process is stamped ``FROZEN`` (its reading
    workers would be forked from a fresh interpreter: the import here reads in this process)."""
    for cls in list(vars(library).values()):
        if isinstance(cls, type) and "create_timestamp" in vars(cls):
            cls.create_timestamp = staticmethod(lambda: FROZEN)  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # Resolved: the path of each file is stored with its match, the same for two checkouts.
    parser.add_argument("--corpus", type=Path, default=(REPO.parent / "shared" / "corpus").resolve())
    args = parser.parse_args()
    freeze_the_clock()
    from replay.service.imports.batch import import_paths
    from replay.store.application import HonbaApp

    db = Path(tempfile.mkdtemp(prefix="store-dump-")) / "store.sqlite"
    app = HonbaApp.open(str(db))
    try:
        run = import_paths(app, [args.corpus], pool=None)
    finally:
        app.close()
    print(f"imported {args.corpus}: {run.stored} stored, {run.present} present, {len(run.unreadable)} unreadable")
    every = hashlib.sha256()
    with sqlite3.connect(db) as connection:
        tables = [name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in sorted(tables):
            columns = [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
            digest, count = hashlib.sha256(), 0
            for row in connection.execute(f"SELECT * FROM {table} ORDER BY {', '.join(columns)}"):
                digest.update(repr(row).encode())
                count += 1
            print(f"  {table}: {count} rows, sha256 {digest.hexdigest()}")
            every.update(digest.digest())
    print(f"every table: sha256 {every.hexdigest()}")


if __name__ == "__main__":
    main()
