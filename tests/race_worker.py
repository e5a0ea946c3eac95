"""A process that records on a match at the same moment as others (run by tests/service/test_concurrency.py).

    python race_worker.py once DB KEY CLIENT_KEY BARRIER N
        Load the match, apply one abortive draw (four winds), wait until N workers are
        ready to save, then save: exactly one of them saves first. CLIENT_KEY "-" means
        none. Prints one JSON line: {"result": "recorded"} or {"result": "conflict",
        "message": ...} (exit 3).
    python race_worker.py many DB KEY PREFIX COUNT BARRIER N
        Wait until N workers have started, then record COUNT abortive draws with the
        client keys PREFIX-0 ..., a few milliseconds apart. Prints {"recorded": COUNT,
        "conflicts": how many saves another process beat}.

The barrier is a directory: each worker writes a file there and waits for N files.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from pathlib import Path

from domain.match import Match
from domain.store_errors import StoreConflict
from domain.values import AbortiveDraw, AbortKind
from replay.service.recording import recording
from replay.store.application import HonbaApp
from replay.store.seal import Seal

FOUR_WINDS = AbortiveDraw(AbortKind.FOUR_WINDS)


def barrier(directory: Path, parties: int, name: str) -> None:
    """Arrive, then wait (30 s at most) until ``parties`` workers have arrived."""
    (directory / f"{name}-{os.getpid()}").touch()
    deadline = time.monotonic() + 30
    while sum(1 for p in directory.iterdir() if p.name.startswith(f"{name}-")) < parties:
        if time.monotonic() > deadline:
            raise SystemExit(f"barrier {name}: timed out")
        time.sleep(0.005)


class RacingApp(HonbaApp):
    """Waits at the barrier before its first save; counts the saves another process beat."""

    name = HonbaApp.name  # the library names an application's tables after it: the same tables as honba's

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.hold: tuple[Path, int] | None = None
        self.conflicts = 0

    def save_match(self, match: Match, seal: Seal | None = None, *, read_only_after: bool = False) -> str:
        if self.hold is not None:
            directory, parties = self.hold
            self.hold = None
            barrier(directory, parties, "save")
        try:
            return super().save_match(match, seal, read_only_after=read_only_after)
        except StoreConflict:
            self.conflicts += 1
            raise


def main(argv: list[str]) -> int:
    mode, db, key = argv[:3]
    app = RacingApp.open(db)
    assert isinstance(app, RacingApp)
    try:
        if mode == "once":
            client_key, directory, parties = argv[3], Path(argv[4]), int(argv[5])
            app.hold = (directory, parties)
            try:
                recording.record(app, key, FOUR_WINDS, client_key=None if client_key == "-" else client_key)
            except StoreConflict as exc:
                print(json.dumps({"result": "conflict", "message": str(exc), "conflicts": app.conflicts}))
                return 3
            print(json.dumps({"result": "recorded", "conflicts": app.conflicts}))
            return 0
        prefix, count, directory, parties = argv[3], int(argv[4]), Path(argv[5]), int(argv[6])
        barrier(directory, parties, "start")
        for i in range(count):
            recording.record(app, key, FOUR_WINDS, client_key=f"{prefix}-{i}")
            time.sleep(random.uniform(0, 0.01))  # a tablet's pace, so that the two interleave
        print(json.dumps({"recorded": count, "conflicts": app.conflicts}))
        return 0
    finally:
        app.close()


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
