"""``honba demo``: a short sample match recorded in a fresh store, to look at."""

from __future__ import annotations

import tempfile
from pathlib import Path

import attrs

from domain.rules import Ruleset
from domain.values import TableState
from projections.entries import EntryNumbers, entry_numbers
from projections.ledger import LedgerEntry, corrected_ledger
from replay.formats.record import build_match, parse_record
from replay.service.imports.storing import store_whole
from replay.store.application import HonbaApp

# The sample match: package data of ``replay`` (pyproject), three folders up.
DEMO_RECORD = Path(__file__).parents[2] / "demo.jsonl"


@attrs.frozen
class Demo:
    """``honba demo``: where the sample match is stored, whether it was stored now, and its ledger and table."""

    db: str
    stored: bool
    key: str
    players: tuple[str, ...]
    rules: Ruleset
    entries: tuple[LedgerEntry, ...]
    numbers: EntryNumbers
    state: TableState


def record_demo(db: str | None) -> Demo:
    """Record the sample match in ``db`` (a fresh SQLite file in a new temporary folder when none is named)."""
    if db is None:
        db = str(Path(tempfile.mkdtemp(prefix="honba-demo-")) / "demo.sqlite")
    store = HonbaApp.open(db)
    try:
        record = parse_record(DEMO_RECORD.read_text(encoding="utf-8"), name="demo")
        stored = store_whole(store, build_match(record, name="demo"))
        match = store.get_match(record.key)
        entries = tuple(corrected_ledger(match.corrected_steps()))
        return Demo(db, stored, record.key, match.players, match.rules, entries, entry_numbers(match), match.fold())
    finally:
        store.close()
