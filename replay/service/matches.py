"""A stored match as the front ends show it: its status, its log, the list of matches.

Each use case reads the store and returns plain values (and the ``--json`` data); nothing here
prints. A read that finds the match's chain or seal broken says so in ``damage`` (the command
prints it as a warning): what is shown may not be what was recorded.
"""

from __future__ import annotations

from typing import Any

import attrs

from domain.amendments import EndJudgement
from domain.match import Match
from domain.rules import Ruleset
from domain.values import TableState
from projections.ledger import CorrectionMark, LedgerEntry, corrected_ledger, correction_marks
from replay.formats.record import (
    EntryNumbers,
    entry_numbers,
)
from replay.service.shapes import end_judgement_data, log_data, state_data
from replay.store.application import HonbaApp, MatchSummary


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
