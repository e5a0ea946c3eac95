"""A store written by honba before checkpoints (main at d35bc5b, with the store-wide chain of saves).

``data/store-chain-d35bc5b.jsonl`` holds its rows in the order they were stored, each as that honba
wrote it (id, position, topic, state); ``write_old_store`` puts them into a new store, SQLite or
PostgreSQL, in that order. It was made with that honba's commands:

    honba start m1 --players Ann,Ben,Cho,Dai
    honba win m1 Ben:3/30 --from Ann
    honba penalty m1 Dai --amount 1000 --share off_table
    honba start m2 --players Ann,Ben,Cho,Dai
    honba win m2 Ben:3/30 --from Ann
    honba tournament create cup --players Ann,Ben,Cho,Dai
    honba tournament attach cup m1
    honba tournament attach cup m2

so that ``m1`` is 1 start, 2 Ben's ron on Ann, 3 deal to Ben, 4 a penalty on Dai; ``m2`` 1 start,
2 a win, 3 the deal passing; tournament ``cup`` 1 created, 2 m1 attached, 3 m2 attached; and the
store chain 8 links, one per save, its head ``OLD_HEAD``.
"""

from __future__ import annotations

import json
from pathlib import Path
from uuid import UUID

from eventsourcing.persistence import StoredEvent

from replay.store.application import HonbaApp

ROWS = Path(__file__).with_name("data") / "store-chain-d35bc5b.jsonl"
OLD_HEAD = "1bcb26421b99c3da9b7dcdb11b32f5b057ea404111b905fb637039cc8b5e3b1a"


def write_old_store(db: str) -> None:
    """The store written before checkpoints, row by row as it was stored, into ``db``."""
    rows = [json.loads(line) for line in ROWS.read_text(encoding="utf-8").splitlines()]
    store = HonbaApp.open(db)
    try:
        store.recorder.insert_events(
            [
                StoredEvent(UUID(row["originator_id"]), row["originator_version"], row["topic"], row["state"].encode())
                for row in rows
            ]
        )
    finally:
        store.close()
