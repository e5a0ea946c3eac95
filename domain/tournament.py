"""The Tournament aggregate: players, aliases, sessions with their tables, and which matches count.

Results live in the matches, never here: tables record their matches in parallel
without touching the tournament, which only says which matches belong to it, in
which session and at which table, and who is who (a person may play under several
log names: aliases).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.domain import Aggregate

from domain.bounds import KEY, NAME, SESSION, TABLE, TEXT, TOURNAMENT, shown
from domain.errors import RuleViolation


def tournament_id(name: str) -> UUID:
    """The deterministic id of the tournament with this name."""
    return uuid5(NAMESPACE_URL, f"honba:/tournaments/{name}")


class Tournament(Aggregate):
    """A tournament: its players, their aliases, its sessions and the matches played in it."""

    class Created(Aggregate.Created):
        """A tournament was created."""

        name: str
        players: list[str]

    class PlayerRegistered(Aggregate.Event):
        """A player joined the tournament."""

        player: str

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Tournament)
            aggregate.players.append(self.player)

    class AliasDeclared(Aggregate.Event):
        """A log name is declared to be a player (one person, several names)."""

        alias: str
        player: str

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Tournament)
            aggregate.aliases[self.alias] = self.player

    class AliasWithdrawn(Aggregate.Event):
        """An alias declared by mistake is withdrawn (the name stands for itself again)."""

        alias: str
        reason: str

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Tournament)
            aggregate.aliases.pop(self.alias, None)

    class SessionPlanned(Aggregate.Event):
        """A session (round) with its tables, each a list of player names in seat order."""

        session: int
        tables: list[list[str]]

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Tournament)
            aggregate.sessions[self.session] = [list(t) for t in self.tables]

    class MatchAttached(Aggregate.Event):
        """A match counts for the tournament, played in a session at a table."""

        match_key: str
        session: int
        table: int | None

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Tournament)
            aggregate.matches[self.match_key] = (self.session, self.table)
            aggregate.detached.pop(self.match_key, None)

    class MatchDetached(Aggregate.Event):
        """A match attached by mistake no longer counts."""

        match_key: str
        reason: str

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Tournament)
            aggregate.matches.pop(self.match_key, None)
            aggregate.detached[self.match_key] = self.reason

    def __init__(self, name: str, players: Sequence[str]):
        self.name = name
        self.players: list[str] = list(players)
        self.aliases: dict[str, str] = {}
        self.sessions: dict[int, list[list[str]]] = {}
        self.matches: dict[str, tuple[int, int | None]] = {}
        # Matches detached and not attached again, with why: an import leaves them out.
        self.detached: dict[str, str] = {}

    @staticmethod
    def create_id(name: str, **_: Any) -> UUID:
        """Tournaments are found by name."""
        return tournament_id(name)

    @classmethod
    def create(cls, name: str, players: Sequence[str] = ()) -> Tournament:
        """A new tournament."""
        if not name.strip():
            raise RuleViolation("a tournament needs a name")
        TOURNAMENT.check(name)
        names = [p.strip() for p in players]
        for name_ in names:
            NAME.check(name_)
        if any(not n for n in names) or len(set(names)) != len(names):
            raise RuleViolation("player names must be present and different from each other")
        return cls._create(cls.Created, id=tournament_id(name), name=name, players=names)

    def player_of(self, name: str) -> str:
        """The tournament player a log name stands for (itself when it is no alias)."""
        return self.aliases.get(name, name)

    def register(self, player: str) -> None:
        """Add a player; nothing happens for one already registered."""
        player = player.strip()
        if not player:
            raise RuleViolation("a player needs a name")
        NAME.check(player)
        if player not in self.players and player not in self.aliases:
            self.trigger_event(self.PlayerRegistered, player=player)

    def declare_alias(self, alias: str, player: str) -> None:
        """Say that ``alias`` (a name in logs) is ``player``."""
        NAME.check(alias, "alias")
        NAME.check(player)
        if alias == player:
            raise RuleViolation("an alias must differ from the player's name")
        if player not in self.players:
            raise RuleViolation(f"{player!r} is not a player of {self.name!r}")
        if self.aliases.get(alias) == player:
            return
        # One step from a log name to its player: no chains, which standings would not follow.
        if player in self.aliases:
            real = self.aliases[player]
            raise RuleViolation(f"{player!r} is itself an alias of {real!r}: declare {alias!r} an alias of {real!r}")
        if alias in self.aliases.values():
            others = sorted(a for a, p in self.aliases.items() if p == alias)
            raise RuleViolation(f"{alias!r} has aliases of its own ({', '.join(others)}): withdraw them first")
        self.trigger_event(self.AliasDeclared, alias=alias, player=player)

    def withdraw_alias(self, alias: str, reason: str) -> None:
        """Undo an alias declared by mistake."""
        if alias not in self.aliases:
            raise RuleViolation(f"{shown(alias)} is no alias in {self.name!r}")
        if not reason.strip():
            raise RuleViolation("say why the alias is withdrawn")
        TEXT.check(reason, "reason")
        self.trigger_event(self.AliasWithdrawn, alias=alias, reason=reason)

    def plan_session(self, session: int, tables: Sequence[Sequence[str]]) -> None:
        """Record a session's seating."""
        if session < 1:
            raise RuleViolation("sessions are numbered from 1")
        SESSION.check(session)
        if len(tables) > TABLE.high:
            raise RuleViolation(f"{len(tables)} tables: at most {TABLE.high} in a session")
        for table in tables:
            for name in table:
                NAME.check(name)
                if self.player_of(name) not in self.players:
                    raise RuleViolation(f"{name!r} is not a player of {self.name!r}")
        self.trigger_event(self.SessionPlanned, session=session, tables=[list(t) for t in tables])

    def attach(self, match_key: str, players: Sequence[str], session: int = 1, table: int | None = None) -> None:
        """Count a match for the tournament; its players are registered if new."""
        if session < 1:
            raise RuleViolation("sessions are numbered from 1")
        SESSION.check(session)
        if table is not None:
            TABLE.check(table)
        KEY.check(match_key, "match key")
        if self.matches.get(match_key) == (session, table):
            return
        for name in players:
            if self.player_of(name) not in self.players:
                self.register(name)
        self.trigger_event(self.MatchAttached, match_key=match_key, session=session, table=table)

    def detach(self, match_key: str, reason: str) -> None:
        """Stop counting a match attached by mistake."""
        if match_key not in self.matches:
            raise RuleViolation(f"match {shown(match_key)} is not in {self.name!r}")
        if not reason.strip():
            raise RuleViolation("say why the match is detached")
        TEXT.check(reason, "reason")
        self.trigger_event(self.MatchDetached, match_key=match_key, reason=reason)
