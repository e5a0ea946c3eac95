"""The paper score sheet of a session: one page per table, kept at the table as the fallback.

Plain data for ``replay.html.sheet`` (the page that is printed): each table's players in seat
order with their seat winds and starting scores, the rules' name, the match, and how many empty
rows a match of these rules needs. The columns are the ones ``honba audit --against`` reads back
(``hand``, then each player's name exactly as the match has it; docs/audit.md): a sheet filled in
at the table and typed back as a CSV is compared with the history as played (``--as-played``).
"""

from __future__ import annotations

from typing import Any

from domain.match import opening_state
from domain.rules import Ruleset
from domain.said import Said
from domain.values import WIND_NAMES
from replay.input.parsing import InputError
from replay.store.application import HonbaApp
from replay.store.tournaments import get_tournament

# The hands of the scheduled rounds, by the rules' last round.
SCHEDULED_HANDS = {"east": 4, "south": 8, "west": 12, "north": 16}
# Rows beyond the scheduled hands (a dealer's extra hands, draws, penalties), and the most that
# still print on one A4 or Letter page with the header and the QR code.
SPARE_ROWS = 4
MOST_ROWS = 24


def sheet_rows(rules: Ruleset) -> int:
    """Empty rows for a match of ``rules``: twice its scheduled hands (every hand repeated once
    by the dealer's extra hands or a draw) and a few more, at most one page's worth."""
    hands = SCHEDULED_HANDS.get(rules.length, 8)
    return min(MOST_ROWS, 2 * hands + SPARE_ROWS)


def sheet_data(app: HonbaApp, name: str, session: int) -> dict[str, Any]:
    """A seated session's score sheets, one a table.

    ``{"tournament", "session", "tables": [{"table", "match", "rules", "rows", "columns",
    "seats": [{"wind", "player", "start"}]}]}``; a table without a match has its players in
    seat order and no rules (its sheet is still printed)."""
    tournament = get_tournament(app, name)
    by_table = {table: key for table, key in tournament.session_matches(session) if table is not None}
    # A session seated (its tables in order), or one whose matches were attached at their tables.
    planned = {number: list(players) for number, players in enumerate(tournament.sessions.get(session, ()), 1)}
    if not planned and not by_table:
        raise InputError(Said("session {session} of {name} is not seated", session=session, name=repr(name)))
    tables = []
    for number in sorted(planned.keys() | by_table.keys()):
        key, seated = by_table.get(number), planned.get(number, [])
        match = None if key is None else app.get_match(key)
        players = list(match.players) if match is not None else list(seated)
        if match is not None:
            state = opening_state(match.rules, match.opening)
            # Seat winds from the opening's dealer (East 1 by default: seat 0 is East).
            winds = [WIND_NAMES[(seat - state.dealer) % len(players)] for seat in range(len(players))]
            starts: list[int | None] = list(state.scores)
            rules: str | None = match.rules.name
            rows = sheet_rows(match.rules)
        else:
            winds = list(WIND_NAMES[: len(players)])
            starts, rules, rows = [None] * len(players), None, 2 * SCHEDULED_HANDS["south"] + SPARE_ROWS
        tables.append(
            {
                "table": number,
                "match": key,
                "rules": rules,
                "rows": rows,
                # The header ``honba audit --against`` reads: the hand, then the players as named.
                "columns": ["hand", *players],
                "seats": [
                    {"wind": wind, "player": player, "start": start}
                    for wind, player, start in zip(winds, players, starts, strict=True)
                ],
            }
        )
    return {"tournament": name, "session": session, "tables": tables}
