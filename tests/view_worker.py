"""A process that works on the stored view beside others (run by tests/service/test_view_concurrency.py).

python view_worker.py catchup DB BATCH
    Bring the standings view up to date in batches of BATCH events (small batches make
    many writes, so that the processes interleave). Prints {"folded": N}.
python view_worker.py record DB PREFIX COUNT
    Record COUNT short matches PREFIX-0 ... and attach each to the tournament "cup", a few
    milliseconds apart, so that new events keep arriving while the others work.
"""

from __future__ import annotations

import json
import random
import sys
import time

from domain.rules import load_preset
from domain.values import ExhaustiveDraw, HandValue, Win, WinResult
from replay.service.recording import recording
from replay.service.tournaments.tournaments import attach_all
from replay.store.application import HonbaApp
from replay.store.standings_view import catch_up, open_view

NAMES = ["Ann", "Ben", "Cho", "Dai"]


def record_match(app: HonbaApp, key: str, session: int) -> None:
    """A short match: a ron, a draw, a self-drawn win, then ended; attached to the cup."""
    recording.start_match(app, key, NAMES, load_preset("tenhou"))
    recording.record(app, key, WinResult(wins=(Win(winner=1, discarder=0, value=HandValue(han=3, fu=30)),)))
    recording.record(app, key, ExhaustiveDraw(ready=(2,)))
    recording.record(app, key, WinResult(wins=(Win(winner=3, discarder=None, value=HandValue(han=2, fu=30)),)))
    recording.end(app, key, "time limit")
    attach_all(app, "cup", [(key, NAMES)], session)


def main(argv: list[str]) -> int:
    mode, db = argv[:2]
    app = HonbaApp.open(db)
    try:
        if mode == "catchup":
            folded = catch_up(app, open_view(app), batch=int(argv[2]))
            print(json.dumps({"folded": folded}))
            return 0
        prefix, count = argv[2], int(argv[3])
        for i in range(count):
            record_match(app, f"{prefix}-{i}", 1 + i % 3)
            time.sleep(random.uniform(0, 0.02))
        print(json.dumps({"recorded": count}))
        return 0
    finally:
        app.close()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
