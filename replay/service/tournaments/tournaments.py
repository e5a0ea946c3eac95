"""Tournaments: create one (again: nothing new), its players and aliases, the matches that count, its sessions.

Each use case loads the tournament, changes it with the domain's commands and saves it with
its seal; when another process changed it in between, the change is applied
again to the tournament as it now is (``change_tournament``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs

from domain.store_errors import StoreError, TournamentNotFound
from domain.tournament import Tournament
from replay.store.application import HonbaApp
from replay.store.retry import retrying
from replay.store.tournaments import get_tournament, save_tournament


@attrs.frozen
class TournamentCreated:
    """A tournament as ``create_tournament`` left it: its players, whether it is new, who joined now."""

    name: str
    players: tuple[str, ...]
    new: bool
    added: tuple[str, ...]


@attrs.frozen
class TournamentShown:
    """What ``honba tournament show`` prints: players, aliases, the matches that count (key ->
    session, table), those detached (key -> why), each session's time limit (session -> minutes),
    each session's seating (session -> its tables' players), and who comes and goes: who withdrew
    after which session, who substitutes for whom, and each player's team."""

    name: str
    players: tuple[str, ...]
    aliases: dict[str, str]
    matches: dict[str, tuple[int, int | None]]
    detached: dict[str, str]
    time_limits: dict[int, int]
    sessions: dict[int, list[list[str]]] = attrs.field(factory=dict)
    withdrawn: dict[str, int] = attrs.field(factory=dict)
    substitutes: dict[str, str] = attrs.field(factory=dict)
    teams: dict[str, str] = attrs.field(factory=dict)


def change_tournament(
    store: HonbaApp, name: str, change: Callable[[Tournament], None], *, create: bool = False
) -> Tournament:
    """Apply a change to a tournament (created first when asked) and save it."""

    def once(_attempt: int) -> Tournament:
        try:
            tournament = get_tournament(store, name)
        except TournamentNotFound:
            if not create:
                raise
            tournament = Tournament.create(name)
        change(tournament)
        if tournament.pending_events:
            save_tournament(store, tournament)
        return tournament

    # Another process changed (or created) the tournament since it was loaded: apply the change
    # again to the tournament as it now is.
    return retrying(
        once, give_up=lambda _conflict: StoreError(f"tournament {name!r} kept changing in the store; try again")
    )


def create_tournament(store: HonbaApp, name: str, players: Sequence[str] = ()) -> TournamentCreated:
    """Create a tournament with its players; for one that exists, add the players it lacks (the
    same command twice stores nothing new). Blank names are left out; a new tournament's
    players must differ from each other (``domain.tournament.Tournament.create``)."""
    name = name.strip()
    names = [p.strip() for p in players if p.strip()]
    before: list[str] = []

    def once(_attempt: int) -> tuple[Tournament, bool]:
        try:
            tournament = get_tournament(store, name)
        except TournamentNotFound:
            tournament = Tournament.create(name, names)
            new = True
        else:
            before[:] = tournament.players
            for player in names:
                tournament.register(player)
            new = False
        if tournament.pending_events:
            save_tournament(store, tournament)
        return tournament, new

    tournament, new = retrying(
        once, give_up=lambda _conflict: StoreError(f"tournament {name!r} kept changing in the store; try again")
    )
    added = tuple(p for p in tournament.players if new or p not in before)
    return TournamentCreated(tournament.name, tuple(tournament.players), new, added)


def holds_tournament(store: HonbaApp, name: str) -> bool:
    """Whether the store holds a tournament of that name (what a certificate is checked against)."""
    try:
        get_tournament(store, name)
    except TournamentNotFound:
        return False
    return True


def check_tournament(store: HonbaApp, name: str) -> None:
    """Refuse (``TournamentNotFound``: a 404 on a page) a tournament the store does not hold."""
    get_tournament(store, name)


def show_tournament(store: HonbaApp, name: str) -> TournamentShown:
    """A tournament's players (their teams, withdrawals, substitutes), aliases, sessions' seating
    and time limits, and matches."""
    tournament = get_tournament(store, name)
    return TournamentShown(
        tournament.name,
        tuple(tournament.players),
        dict(tournament.aliases),
        dict(tournament.matches),
        dict(tournament.detached),
        dict(tournament.time_limits),
        {session: [list(t) for t in tables] for session, tables in tournament.sessions.items()},
        dict(tournament.withdrawn),
        dict(tournament.substitutes),
        dict(tournament.teams),
    )


def declare_alias(store: HonbaApp, name: str, alias: str, player: str) -> None:
    """Say that a log name is a player of the tournament (one person, several names)."""
    change_tournament(store, name, lambda t: t.declare_alias(alias, player))


def withdraw_alias(store: HonbaApp, name: str, alias: str, reason: str) -> None:
    """Withdraw an alias declared by mistake: the name counts for itself again."""
    change_tournament(store, name, lambda t: t.withdraw_alias(alias, reason))


def attach_match(store: HonbaApp, name: str, match: str, session: int = 1, table: int | None = None) -> None:
    """Count a stored match for the tournament, in a session (and at a table)."""
    players = store.get_match(match).players
    change_tournament(store, name, lambda t: t.attach(match, players, session, table))


def detach_match(store: HonbaApp, name: str, match: str, reason: str) -> None:
    """Stop counting a match attached by mistake."""
    change_tournament(store, name, lambda t: t.detach(match, reason))


def plan_session(store: HonbaApp, name: str, session: int, tables: Sequence[Sequence[str]]) -> None:
    """Record a session's seating: each table's players in seat order."""
    change_tournament(store, name, lambda t: t.plan_session(session, tables))


def attach_all(
    store: HonbaApp, name: str, matches: Sequence[tuple[str, Sequence[str]]], session: int
) -> tuple[str, ...]:
    """Attach matches (key, players) to a tournament, creating it when new.

    A match detached from the tournament (``honba tournament detach``) is left out, so
    importing the same files again does not undo the fix; ``honba tournament attach``
    counts it again. Returns the keys left out.
    """
    left_out: list[str] = []

    def change(tournament: Tournament) -> None:
        left_out.clear()
        for key, players in matches:
            if key in tournament.detached:
                left_out.append(key)
            else:
                tournament.attach(key, players, session)

    change_tournament(store, name, change, create=True)
    return tuple(left_out)
