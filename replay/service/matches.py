"""A stored match as the front ends show it: its status, its log, the list of matches, an export.

Each use case reads the store and returns plain values (and the ``--json`` data); nothing here
prints. A read that finds the match's chain or seal broken says so in ``damage`` (the command
prints it as a warning): what is shown may not be what was recorded. Export refuses a damaged
match unless forced, and then writes the damage into the file.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import attrs

from domain.amendments import EndJudgement
from domain.match import Match
from domain.rules import Ruleset
from domain.values import TableState
from projections.ledger import CorrectionMark, LedgerEntry, corrected_ledger, correction_marks
from replay.formats.record import (
    EntryNumbers,
    build_match,
    entry_numbers,
    export_record,
    parse_record,
    unchained,
)
from replay.formats.tenhou_json_out import export_tenhou_json
from replay.input.parsing import InputError
from replay.service.shapes import end_judgement_data, log_data, state_data
from replay.service.storing import store_whole
from replay.store.application import HonbaApp, MatchSummary
from replay.store.errors import DamagedMatch

EXPORT_FORMATS = ("record", "tenhou-json")
# The sample match of ``honba demo``: package data of ``replay`` (pyproject), two folders up.
DEMO_RECORD = Path(__file__).parent.parent / "demo.jsonl"


def status_data(key: str, match: Match) -> dict[str, Any]:
    """``honba status --json``: ``{"match": key, the table state (``state_data``), "end_rejudged":
    [{"hand", "entry", ...}: where a correction makes the rules judge the match's end otherwise]}``."""
    data = {"match": key, **state_data(match.players, match.fold(), match.rules)}
    numbers = entry_numbers(match)
    data["end_rejudged"] = [end_judgement_data(j, numbers) for j in match.end_judgements()]
    return data


@attrs.frozen
class MatchStatus:
    """``honba status``: the table after the corrected history, where corrections judge the end
    otherwise, the digests to publish, the ``--json`` data, and the damage found (or None)."""

    key: str
    players: tuple[str, ...]
    rules: Ruleset
    state: TableState
    judgements: tuple[EndJudgement, ...]
    head: str
    store_head: str
    data: dict[str, Any]
    damage: str | None


def match_status(store: HonbaApp, key: str) -> MatchStatus:
    """The status of a stored match."""
    match = store.get_match(key)
    # Computed before the damage is looked for: a match too damaged to fold fails in one line, not two.
    data = status_data(key, match)
    judgements = match.end_judgements()
    damage = store.damage(key)
    return MatchStatus(
        key, match.players, match.rules, match.fold(), judgements, match.head, store.store_head(), data, damage
    )


@attrs.frozen
class MatchLog:
    """The ledger of a match's corrected history, what each correction did, and each entry's
    number (its line in the exported record file: the one number a user sees)."""

    entries: tuple[LedgerEntry, ...]
    marks: dict[int, CorrectionMark]
    numbers: EntryNumbers


def match_log(match: Match) -> MatchLog:
    """The log of a match: its corrected history entry by entry, with the corrections marked."""
    steps = match.corrected_steps()
    return MatchLog(
        tuple(corrected_ledger(steps)),
        correction_marks(match.history, match.corrections, steps),
        entry_numbers(match),
    )


def log_json(key: str, match: Match, log: MatchLog) -> dict[str, Any]:
    """``honba log --json``: ``{"match": key, the log (``log_data``: "hands", "voided", ...)}``."""
    return {"match": key, **log_data(match.players, list(log.entries), log.marks, log.numbers)}


@attrs.frozen
class LogShown:
    """``honba log``: the match's players and rules, its log, the ``--json`` data, and the damage found."""

    key: str
    players: tuple[str, ...]
    rules: Ruleset
    log: MatchLog
    data: dict[str, Any]
    damage: str | None


def read_log(store: HonbaApp, key: str) -> LogShown:
    """The log of a stored match."""
    match = store.get_match(key)
    history = match_log(match)  # before the damage is looked for, as in match_status
    data = log_json(key, match, history)
    return LogShown(key, match.players, match.rules, history, data, store.damage(key))


def stored_matches(store: HonbaApp) -> list[MatchSummary]:
    """Every stored match, in the order they were started (a damaged start row says so)."""
    return list(store.list_matches())


def export_match(store: HonbaApp, key: str, *, fmt: str = "record", plain: bool = False, force: bool = False) -> str:
    """A stored match as a record file (with its chain, or ``plain`` without) or a tenhou.net/6
    JSON log (``fmt="tenhou-json"``).

    A match whose chain or seal does not check in the store is refused: a fresh chain over it
    would launder the damage. ``force`` writes it anyway as a record file with the damage in
    its seal line, which ``honba check`` reports and ``honba import`` refuses.
    """
    if fmt not in EXPORT_FORMATS:
        raise InputError(f"--format must be record or tenhou-json, not {fmt!r}")
    match = store.get_match(key)
    damage = store.damage(key)
    if damage is not None and not force:
        raise DamagedMatch(f"{damage}; not exported (--force writes it with the damage recorded)")
    if damage is not None and (plain or fmt != "record"):
        raise InputError("a damaged match is exported as a record file with its damage recorded: leave out --plain")
    if fmt == "tenhou-json":
        return export_tenhou_json(match)
    text = export_record(match, damage=damage)
    return unchained(text) if plain else text


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
