"""A stored match as ``honba status`` and ``honba log`` show it: the table, the ledger, the log.

The command line prints these (or their ``--json``); nothing here prints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from domain.match import Match
from projections.ledger import CorrectionMark, LedgerEntry, corrected_ledger, correction_marks
from replay.service.shapes import clock_entries, end_judgement_data, log_data, state_data

if TYPE_CHECKING:
    from replay.formats.record import EntryNumbers


def status_data(key: str, match: Match) -> dict[str, Any]:
    """``honba status --json``: ``{"match": key, the table state (``state_data``), "end_rejudged":
    [{"hand", "entry", ...}: where a correction makes the rules judge the match's end otherwise],
    "clock": the clock at the server's time now (``replay.service.clock.clock_data``), or null}``."""
    from replay.formats.record import entry_numbers  # not loaded by the recording commands

    data = {"match": key, **state_data(match.players, match.fold(), match.rules)}
    numbers = entry_numbers(match)
    data["end_rejudged"] = [end_judgement_data(j, numbers) for j in match.end_judgements()]
    data["clock"] = None
    if match.clock.limit is not None:
        # Only a match on the clock loads it (the recording commands stay light).
        from replay.service.clock import clock_data, server_time

        data["clock"] = clock_data(match, server_time())
    return data


@attrs.frozen
class MatchLog:
    """The ledger of a match's corrected history, what each correction did, and each entry's
    number (its line in the exported record file: the one number a user sees)."""

    entries: tuple[LedgerEntry, ...]
    marks: dict[int, CorrectionMark]
    numbers: EntryNumbers
    # The clock's events (``shapes.clock_entries``), each shown where it happened.
    clock: tuple[dict[str, Any], ...] = ()


def match_log(match: Match) -> MatchLog:
    """The log of a match: its corrected history entry by entry, with the corrections marked."""
    from replay.formats.record import entry_numbers  # not loaded by the recording commands

    steps = match.corrected_steps()
    numbers = entry_numbers(match)
    return MatchLog(
        tuple(corrected_ledger(steps)),
        correction_marks(match.history, match.corrections, steps),
        numbers,
        tuple(clock_entries(match, numbers)),
    )


def log_json(key: str, match: Match, log: MatchLog) -> dict[str, Any]:
    """``honba log --json``: ``{"match": key, the log (``log_data``: "hands", "voided", ...), "clock":
    the clock's events (``clock_entries``)}``."""
    data = log_data(match.players, list(log.entries), log.marks, log.numbers, match.rules.scoring)
    return {"match": key, **data, "clock": list(log.clock)}
