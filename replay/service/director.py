"""The director's and the referee's use cases for ``honba serve``: tournaments, seatings, table links,
the corrections of a match. Plain data in and out; the web pages only show it."""

from __future__ import annotations

from typing import Any

import attrs

from domain.rules import load_preset
from domain.seating import fewest_repeats_seating, met_pairs, random_seating, repeats
from domain.tournament import Tournament
from replay.input.parsing import InputError
from replay.service.access import TableLink, TokenStore
from replay.service.clock import set_time_limit
from replay.service.recording import start_match
from replay.service.stages import seatable
from replay.service.tournaments import change_tournament
from replay.store.application import HonbaApp
from replay.store.tournaments import get_tournament

SEATINGS = ("fewest-repeats", "random")


@attrs.frozen
class SeatedTable:
    """One table of a session: its number, players in seat order, its match, and its table token
    (shown once: the store keeps only its hash)."""

    table: int
    players: tuple[str, ...]
    match: str
    token: str


def match_key(tournament: str, session: int, table: int) -> str:
    """The key of a session's table's match."""
    return f"{tournament}-s{session}-t{table}"


def seat_session(
    app: HonbaApp,
    tokens: TokenStore,
    name: str,
    session: int,
    *,
    method: str = "fewest-repeats",
    rules: str = "tenhou",
    seed: int | None = None,
) -> tuple[list[SeatedTable], int]:
    """Seat a session of the tournament (every player who plays in it: those who withdrew before it
    left out, their substitutes in), start a match per table, attach it, and make each table's
    token. Returns the tables and how many pairs meet again. The one use case behind the director's
    page and ``honba tournament seat NAME SESSION --method ...``."""
    if method not in SEATINGS:
        raise InputError(f"the seating is {' or '.join(SEATINGS)}, not {method!r}")
    ruleset = load_preset(rules)
    tournament = get_tournament(app, name)
    if session in tournament.sessions:
        raise InputError(f"session {session} of {name!r} is already seated")
    before = [tables for number, tables in sorted(tournament.sessions.items()) if number < session]
    players = seatable(tournament, session)
    if method == "random":
        seating = random_seating(players, ruleset.players, seed=seed)
    else:
        seating = fewest_repeats_seating(players, before, ruleset.players, seed=seed)
    change_tournament(app, name, lambda t: t.plan_session(session, seating))
    seated: list[SeatedTable] = []
    for number, table in enumerate(seating, start=1):
        key = match_key(name, session, number)
        start_match(app, key, table, ruleset, {"format": "honba", "entered": "serve", "tournament": name})
        if session in tournament.time_limits:
            # The session's time limit, set before its seating, goes on every table's clock.
            set_time_limit(app, key, tournament.time_limits[session], by="director")
        seated.append(SeatedTable(number, tuple(table), key, tokens.create("table", key)))

    def attach(tournament: Tournament) -> None:
        for table in seated:
            tournament.attach(table.match, table.players, session, table.table)

    change_tournament(app, name, attach)
    return seated, repeats(seating, met_pairs(before))


def table_link(app: HonbaApp, tokens: TokenStore, name: str, match: str) -> TableLink:
    """A table's link issued again for a match of the tournament: a new table token, every earlier
    one revoked (a phone lost, a link shown to the wrong table)."""
    tournament = get_tournament(app, name)
    if match not in tournament.matches:
        raise InputError(f"match {match!r} is not a table of {name!r}")
    return tokens.reissue(match)


def tournament_data(app: HonbaApp, name: str) -> dict[str, Any]:
    """A tournament's players (who withdrew, after which session, and the substitutes), sessions
    (tables in seat order) and matches, for the director's page."""
    tournament = get_tournament(app, name)
    matches = {(s, t): key for key, (s, t) in tournament.matches.items()}
    return {
        "name": tournament.name,
        "players": list(tournament.players),
        "withdrawn": dict(tournament.withdrawn),
        "substitutes": dict(tournament.substitutes),
        "sessions": {
            number: [
                {"table": i, "players": list(table), "match": matches.get((number, i))}
                for i, table in enumerate(tables, start=1)
            ]
            for number, tables in sorted(tournament.sessions.items())
        },
        "next_session": max(tournament.sessions, default=0) + 1,
    }
