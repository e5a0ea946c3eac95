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
from domain.said import Said
from domain.scoring.units import value_example
from domain.store_errors import DamagedMatch
from domain.values import WIND_NAMES, TableState
from projections.entries import EntryNumbers, entry_numbers
from projections.ledger import CorrectionMark, LedgerEntry, corrected_ledger, correction_marks
from replay.service.audit.damage import match_damage_lines
from replay.service.audit.digests import match_digest
from replay.service.common.shapes import (
    clock_entries,
    end_judgement_data,
    ledger_data,
    log_data,
    said_fact,
    seat_wind,
    state_data,
)
from replay.service.recording.changes import payment_lines
from replay.service.recording.entry import entry_fields, stored_entry
from replay.store.application import HonbaApp, MatchSummary, Shown


def status_data(key: str, match: Match) -> dict[str, Any]:
    """``honba status --json``: ``{"match": key, the table state (``state_data``), "end_rejudged":
    [{"hand", "entry", ...}: where a correction makes the rules judge the match's end otherwise],
    "clock": the clock at the server's time now (``replay.service.recording.clock.clock_data``), or null}``."""
    data = {"match": key, **state_data(match.players, match.fold(), match.rules)}
    numbers = entry_numbers(match)
    data["end_rejudged"] = [end_judgement_data(j, numbers) for j in match.end_judgements()]
    data["clock"] = None
    if match.clock.limit is not None:
        # Only a match on the clock loads it (the recording commands stay light).
        from replay.service.recording.clock import clock_data
        from replay.service.recording.recording import server_time

        data["clock"] = clock_data(match, server_time())
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
    damage: Said | None
    # Every line of what ``honba check`` and ``honba audit`` find (``replay.service.audit.damage``), as
    # words (``--json`` gives their English).
    damage_lines: tuple[Said, ...] = ()


def match_status(store: HonbaApp, key: str) -> MatchStatus:
    """The status of a stored match, with what is wrong with it (``match_damage_lines``; in the
    ``--json`` data as ``damage``, a list of lines)."""
    match = store.get_match(key)
    # Computed before the damage is looked for: a match too damaged to fold fails in one line, not two.
    data = status_data(key, match)
    judgements = match.end_judgements()
    lines = match_damage_lines(store, key, match)
    data["damage"] = list(lines)
    damage = lines[0] if lines else None
    return MatchStatus(
        key, match.players, match.rules, match.fold(), judgements, match.head, store.store_head(), data, damage, lines
    )


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


@attrs.frozen
class LogShown:
    """``honba log``: the match's players and rules, its log, the ``--json`` data, and the damage found."""

    key: str
    players: tuple[str, ...]
    rules: Ruleset
    log: MatchLog
    data: dict[str, Any]
    damage: Said | None


def read_log(store: HonbaApp, key: str) -> LogShown:
    """The log of a stored match."""
    match = store.get_match(key)
    history = match_log(match)  # before the damage is looked for, as in match_status
    data = log_json(key, match, history)
    return LogShown(key, match.players, match.rules, history, data, store.damage(key))


def stored_matches(store: HonbaApp) -> list[MatchSummary]:
    """Every stored match, in the order they were started (a damaged start row says so): the one
    listing ``honba list`` and the matches page show, a damaged match flagged by both."""
    return list(store.list_matches())


def damage_refusal(store: HonbaApp, key: str) -> DamagedMatch | None:
    """What to say of a command that failed on a stored match otherwise than by a refusal: the one
    line naming how the match was changed behind honba's back (``DamagedMatch``), or None when its
    chain and seal check (the failure is then a bug)."""
    damage = store.damage(key)
    return None if damage is None else DamagedMatch(damage)


def table_data(store: HonbaApp, key: str) -> dict[str, Any]:
    """What a table's page and the API show of a match: its players and seats (wind, score,
    the dealer), the table state (``state_data``), the ledger with each entry's payments in
    words, the head digest (``digest``: what it is the digest of, ``replay.service.audit.digests``), the
    rules' name and the special hands they play, whether it is finished, and ``damaged``: the one
    line naming what its chain or seal shows changed (what is shown may not be what was
    recorded), or None."""
    return shown_table_data(store, key, store.read(key))


def shown_table_data(store: HonbaApp, key: str, shown: Shown, *, ledger: bool = True) -> dict[str, Any]:
    """``table_data`` of a match read already (``HonbaApp.read``), with what is wrong with it
    (``replay.service.audit.damage.match_damage_lines``); ``ledger`` as ``match_table_data``'s."""
    lines = match_damage_lines(store, key, shown.match, shown=shown)
    data = match_table_data(key, shown.match, shown.damage or (lines[0] if lines else None), ledger=ledger)
    data["damage"] = list(lines)
    return data


def match_table_data(key: str, match: Match, damaged: Said | None = None, *, ledger: bool = True) -> dict[str, Any]:
    """``table_data`` of a match already loaded (``damaged``: the line ``HonbaApp.read`` gave, or None);
    without ``ledger``, without its ``ledger`` and ``lines`` (the table page lists the entries its
    own way, ``replay.service.recording.table.ledger_rows``: made for every entry, they were a third of it)."""
    players = match.players
    state = match.state
    seats = [
        {"seat": i, "name": p, "wind": seat_wind(i, state), "score": s, "dealer": i == state.dealer}
        for i, (p, s) in enumerate(zip(players, state.scores, strict=True))
    ]
    data: dict[str, Any] = {
        "key": key,
        "players": list(players),
        "state": state_data(players, state, match.rules),
        "seats": seats,
        "round": WIND_NAMES[state.round_wind % 4],
        "head": match.head,
        "digest": attrs.asdict(match_digest(key, match.head)),
        "rules": match.rules.name,
        "special_hands": list(match.rules.special_hands),
        "finished": state.finished,
        "damaged": damaged,
    }
    if ledger:
        entries = corrected_ledger(match.corrected_steps())
        data["ledger"] = ledger_data(players, entries, entry_numbers(match), match.rules.scoring)
        data["lines"] = [payment_lines(e, players, match.rules.scoring) for e in entries]
    return data


def corrections_summary(store: HonbaApp) -> list[dict[str, Any]]:
    """Every stored match that can be read, with its number of corrections (the referee's desk); a
    match whose rows cannot make it is listed with the one line that says so (``damaged``, its
    corrections unknown): one damaged match never takes the list down."""
    found: list[dict[str, Any]] = []
    for summary in store.list_matches():
        if summary.damaged:
            continue
        try:
            count: int | None = len(store.get_match(summary.key).correction_log)
            damaged: Said | str | None = None
        except DamagedMatch as exc:
            count, damaged = None, exc.said
        found.append({"key": summary.key, "players": summary.players, "corrections": count, "damaged": damaged})
    return found


def referee_data(store: HonbaApp, key: str, amend: int | None = None) -> dict[str, Any]:
    """What the referee's desk shows of a match: its corrections and its numbered entries (a deal
    pass or an end the rules decided has no number, so none to correct), whether it has ended (and
    why); with ``amend``, the text fields of the entry numbered so as it stands (``values``), which
    its amendment starts from; ``value_example``: values typed that the match's rules take
    (``domain.scoring.units``); ``damaged`` as ``table_data``'s."""
    shown = store.read(key)
    match = shown.match
    lines = match_damage_lines(store, key, match)
    numbers = entry_numbers(match)
    ledger_entries = corrected_ledger(match.corrected_steps())
    ledger = ledger_data(match.players, ledger_entries, numbers, match.rules.scoring)
    for line, entry in zip(ledger, ledger_entries, strict=True):
        # What each entry was as words, for the page to say in its language (its English is the same).
        line["result"] = said_fact(entry.fact, match.players, match.rules.scoring)
    values = {} if amend is None else {**entry_fields(stored_entry(match, amend)), "target": str(amend)}
    state = match.state
    return {
        "key": key,
        "players": list(match.players),
        "corrections": corrections_data(match, numbers),
        "entries": [e for e in ledger if e["entry"] is not None],
        "values": values,
        "finished": state.finished,
        "end_reason": state.end_reason,
        "value_example": value_example(match.rules),
        "damaged": shown.damage or (lines[0] if lines else None),
        "damage": list(lines),
    }


def corrections_data(match: Match, numbers: EntryNumbers) -> list[dict[str, Any]]:
    """Every correction of a match, in order: its entry number, the number of the entry it
    corrects (None for an added penalty), what it put there, who made it and why."""
    facts = dict(match.history)
    scoring = match.rules.scoring
    rows = []
    for position, correction in match.correction_log:
        target = correction.target
        rows.append(
            {
                "entry": numbers.number(position),
                "target": numbers.number(target),
                "was": said_fact(facts[target], match.players, scoring) if target in facts else None,
                "now": Said("void")
                if correction.replacement is None
                else said_fact(correction.replacement, match.players, scoring),
                "by": correction.by,
                "reason": Said("undo") if correction.reason == "undo" else correction.reason,
                "at": correction.at,
            }
        )
    return rows
