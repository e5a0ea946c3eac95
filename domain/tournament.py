"""The Tournament aggregate: players, aliases, sessions with their tables, and which matches count.

Results live in the matches, never here: tables record their matches in parallel
without touching the tournament, which only says which matches belong to it, in
which session and at which table, and who is who (a person may play under several
log names: aliases).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from typing import Any
from uuid import NAMESPACE_URL, UUID, uuid5

import attrs
from eventsourcing.domain import Aggregate

from domain.bounds import (
    AFTER_SESSION,
    COUNTRIES,
    EVENT_DAYS,
    EVENT_PLAYERS,
    KEY,
    NAME,
    SESSION,
    TABLE,
    TABLE_SIZE,
    TEXT,
    TOURNAMENT,
    OutOfBounds,
    shown,
)
from domain.clock import check_minutes
from domain.draw import check_commitment, commitment_of
from domain.errors import RuleViolation
from domain.said import Said, listed
from domain.stages import EventFormat, single_stage

# The name the referee's signature was stored under before it had a flag of its own (ScoresSigned.referee).
REFEREE = "referee"


@attrs.frozen
class Signature:
    """What one player (or the referee) said of a match's final scores: ``agreed`` or not, the
    ``note`` of a dispute, and the ``scores`` they were shown (None: signed before honba kept them)."""

    agreed: bool
    note: str
    scores: tuple[int, ...] | None


def table_order(session: int, table: int | None, key: str) -> tuple[int, bool, int, str]:
    """Where a match is listed: by session, then table number (table 2 before table 10; a match
    attached without a table after the session's tables), then key."""
    return (session, table is None, table or 0, key)


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

    class SessionTimeLimitSet(Aggregate.Event):
        """The director set a session's time limit, in minutes: every table of the session plays
        under it (each match holds it on its own clock, ``domain.clock``)."""

        session: int
        minutes: int

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Tournament)
            aggregate.time_limits[self.session] = self.minutes

    class FormatDeclared(Aggregate.Event):
        """The event's format: its stages, how substitutes count, how teams are ranked
        (``domain.stages.EventFormat`` as plain data)."""

        format: dict[str, Any]

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Tournament)
            aggregate.format = dict(self.format)

    class StageClosed(Aggregate.Event):
        """A stage ended: its final order, who goes on to the next stage, and the points (in
        tenths) each of them carries into it. Kept as it was announced: a later correction of a
        match of the stage does not change who was cut."""

        stage: int
        ranking: list[str]
        advanced: list[str]
        carried: dict[str, int]

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Tournament)
            aggregate.closed_stages[self.stage] = {
                "ranking": list(self.ranking),
                "advanced": list(self.advanced),
                "carried": dict(self.carried),
            }

    class PlayerWithdrawn(Aggregate.Event):
        """A player left after a session: their matches stay, they are seated no more."""

        player: str
        after_session: int
        reason: str

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Tournament)
            aggregate.withdrawn[self.player] = self.after_session

    class SubstituteSeated(Aggregate.Event):
        """A substitute joined to fill the seat of a player (their results count as the event's
        format says of substitutes)."""

        substitute: str
        replaces: str
        reason: str
        # The director seated them for a player who had not withdrawn, saying so (events stored
        # before the rule have no such field: every substitute then replaced a player who withdrew).
        override: bool = False

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Tournament)
            aggregate.substitutes[self.substitute] = self.replaces
            if self.override:
                aggregate.substitute_overrides[self.substitute] = self.reason
            if self.substitute not in aggregate.players:
                aggregate.players.append(self.substitute)

    class TeamJoined(Aggregate.Event):
        """A player belongs to a team."""

        player: str
        team: str

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Tournament)
            aggregate.teams[self.player] = self.team

    class DrawCommitted(Aggregate.Event):
        """The director published the digest of a random seed before a session's draw
        (``domain.draw``); the seed itself is revealed later."""

        session: int
        commitment: str

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Tournament)
            aggregate.draws[self.session] = {"commitment": self.commitment}

    class DrawTermsFixed(Aggregate.Event):
        """What a committed draw depends on, fixed with its commitment (``domain.draw.draw_terms``):
        the players it draws over, their teams, how it seats them (the seed's shuffle, team-mates
        apart or not) and the size of a table. Stored in the tournament's stream (its seal and the
        checkpoints cover it): the reveal draws over these terms, and ``verify-draw`` recomputes the
        seating from them and the seed alone."""

        session: int
        terms: dict[str, Any]

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Tournament)
            aggregate.draws[self.session] = {**aggregate.draws.get(self.session, {}), "terms": dict(self.terms)}

    class DrawRevealed(Aggregate.Event):
        """The seed of a committed draw, the players it was drawn over and the seating it gave."""

        session: int
        seed: str
        players: list[str]
        tables: list[list[str]]

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Tournament)
            aggregate.draws[self.session] = {
                **aggregate.draws.get(self.session, {}),
                "seed": self.seed,
                "players": list(self.players),
                "tables": [list(t) for t in self.tables],
            }

    class RankingFactsDeclared(Aggregate.Event):
        """What a ranking across events needs to know of this one (the EMA's MERS weight): the
        day it ended (ISO date), how many days it lasted, how many countries played, whether
        players had to qualify."""

        ended_on: str
        days: int
        countries: int
        qualification: bool

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Tournament)
            aggregate.ranking_facts = {
                "ended_on": self.ended_on,
                "days": self.days,
                "countries": self.countries,
                "qualification": self.qualification,
            }

    class ResultCertified(Aggregate.Event):
        """The organiser's signed certificate of the result (``replay.service.director.certificates``),
        kept so that anyone may download it; a later one replaces it."""

        certificate: dict[str, Any]

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Tournament)
            aggregate.certificate = dict(self.certificate)

    class SignOffRequired(Aggregate.Event):
        """Whether the event's format has the players confirm each match's final scores at the
        table (the WRC rules' sign-off) before it counts as confirmed in the standings."""

        required: bool

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Tournament)
            aggregate.sign_off = self.required

    class ScoresSigned(Aggregate.Event):
        """A player of a match (``player``), or the table's referee (``referee``: a flag, so that no
        player's name can pass for it), confirmed its final scores (``agreed``) or disputed them,
        saying what (``note``); ``scores`` the final scores they were shown, seat by seat: a
        correction that changes them later asks again. Events stored before these two fields
        read as a referee's when the player was called ``referee``, and as of the scores now."""

        match_key: str
        player: str
        agreed: bool
        note: str
        # No defaults: an event stored before them has neither, and reads as said above.
        referee: bool
        scores: list[int]

        def apply(self, aggregate: Aggregate) -> None:
            assert isinstance(aggregate, Tournament)
            referee = getattr(self, "referee", self.player == REFEREE)
            scores = getattr(self, "scores", None)
            said = Signature(self.agreed, self.note, tuple(scores) if scores is not None else None)
            if referee:
                aggregate.referee_signatures[self.match_key] = said
            else:
                aggregate.signatures.setdefault(self.match_key, {})[self.player] = said

    def __init__(self, name: str, players: Sequence[str]):
        self.name = name
        self.players: list[str] = list(players)
        self.aliases: dict[str, str] = {}
        self.sessions: dict[int, list[list[str]]] = {}
        self.matches: dict[str, tuple[int, int | None]] = {}
        # Matches detached and not attached again, with why: an import leaves them out.
        self.detached: dict[str, str] = {}
        # Each session's time limit, in minutes, where the director set one.
        self.time_limits: dict[int, int] = {}
        # Staged events, players who come and go, teams, draws (domain.stages, domain.draw).
        self.format: dict[str, Any] | None = None
        self.closed_stages: dict[int, dict[str, Any]] = {}
        self.withdrawn: dict[str, int] = {}
        # Substitutes seated by the director's override for a player who had not withdrawn: why.
        self.substitute_overrides: dict[str, str] = {}
        self.substitutes: dict[str, str] = {}
        self.teams: dict[str, str] = {}
        self.draws: dict[int, dict[str, Any]] = {}
        self.ranking_facts: dict[str, Any] = {}
        self.certificate: dict[str, Any] | None = None
        # The sign-off: whether the format has it, and what each player (or the referee) said of each match.
        self.sign_off = False
        self.signatures: dict[str, dict[str, Signature]] = {}
        self.referee_signatures: dict[str, Signature] = {}

    @staticmethod
    def create_id(name: str, **_: Any) -> UUID:
        """Tournaments are found by name."""
        return tournament_id(name)

    @classmethod
    def create(cls, name: str, players: Sequence[str] = ()) -> Tournament:
        """A new tournament."""
        if not name.strip():
            raise RuleViolation(Said("a tournament needs a name"))
        TOURNAMENT.check(name)
        names = [p.strip() for p in players]
        if len(names) > EVENT_PLAYERS:
            # More than a session can seat (a thousand tables): a list pasted by mistake.
            raise OutOfBounds(
                Said("players"),
                Said(
                    "{count:,} listed, at most {most:,} (a thousand tables of four)",
                    count=len(names),
                    most=EVENT_PLAYERS,
                ),
            )
        for name_ in names:
            NAME.check(name_)
        if any(not n for n in names) or len(set(names)) != len(names):
            raise RuleViolation(Said("player names must be present and different from each other"))
        return cls._create(cls.Created, id=tournament_id(name), name=name, players=names)

    def player_of(self, name: str) -> str:
        """The tournament player a log name stands for (itself when it is no alias)."""
        return self.aliases.get(name, name)

    def register(self, player: str) -> None:
        """Add a player; nothing happens for one already registered."""
        player = player.strip()
        if not player:
            raise RuleViolation(Said("a player needs a name"))
        NAME.check(player)
        if player not in self.players and player not in self.aliases:
            self._terms_fixed(Said("registering {player}", player=repr(player)))
            self.trigger_event(self.PlayerRegistered, player=player)

    def declare_alias(self, alias: str, player: str) -> None:
        """Say that ``alias`` (a name in logs) is ``player``."""
        NAME.check(alias, "alias")
        NAME.check(player)
        if alias == player:
            raise RuleViolation(Said("an alias must differ from the player's name"))
        if player not in self.players:
            raise RuleViolation(Said("{player} is not a player of {name}", player=repr(player), name=repr(self.name)))
        if self.aliases.get(alias) == player:
            return
        # One step from a log name to its player: no chains, which standings would not follow.
        if player in self.aliases:
            real = self.aliases[player]
            raise RuleViolation(
                Said(
                    "{player} is itself an alias of {real}: declare {alias} an alias of {real}",
                    player=repr(player),
                    real=repr(real),
                    alias=repr(alias),
                )
            )
        if alias in self.aliases.values():
            others = sorted(a for a, p in self.aliases.items() if p == alias)
            raise RuleViolation(
                Said(
                    "{alias} has aliases of its own ({others}): withdraw them first",
                    alias=repr(alias),
                    others=listed(others),
                )
            )
        self.trigger_event(self.AliasDeclared, alias=alias, player=player)

    def withdraw_alias(self, alias: str, reason: str) -> None:
        """Undo an alias declared by mistake."""
        if alias not in self.aliases:
            raise RuleViolation(Said("{alias} is no alias in {name}", alias=shown(alias), name=repr(self.name)))
        if not reason.strip():
            raise RuleViolation(Said("say why the alias is withdrawn"))
        TEXT.check(reason, "reason")
        self.trigger_event(self.AliasWithdrawn, alias=alias, reason=reason)

    def plan_session(self, session: int, tables: Sequence[Sequence[str]]) -> None:
        """Record a session's seating: every name a player, nobody at two tables (or twice at one),
        nobody who withdrew before it; tables of three or four, all of one size. A session seated
        again replaces its seating only while no match counts for it (once one does, its table was
        played as seated: detach the matches first). A session whose draw is committed is seated by
        its draw alone (``reveal_draw``): seating it otherwise, before the reveal or after, is refused."""
        if session in self.draws:
            raise RuleViolation(
                Said(
                    "the draw of session {session} of {name} is revealed: it is seated as drawn; a committed draw is "
                    "not seated otherwise"
                    if "seed" in self.draws[session]
                    else "the draw of session {session} of {name} is committed: reveal it; a committed draw is not "
                    "seated otherwise",
                    session=session,
                    name=repr(self.name),
                )
            )
        self._plan_session(session, tables)

    def _plan_session(self, session: int, tables: Sequence[Sequence[str]]) -> None:
        if session < 1:
            raise RuleViolation(Said("sessions are numbered from 1"))
        SESSION.check(session)
        if not tables:
            raise RuleViolation(Said("session {session} needs at least one table", session=session))
        if len(tables) > TABLE.high:
            raise RuleViolation(Said("{count} tables: at most {most} in a session", count=len(tables), most=TABLE.high))
        for number, table in enumerate(tables, start=1):
            TABLE_SIZE.check(len(table), f"players at table {number}")
        if len({len(t) for t in tables}) > 1:
            sizes = ", ".join(str(len(t)) for t in tables)
            raise RuleViolation(
                Said(
                    "session {session}'s tables seat {sizes} players: one size for every table",
                    session=session,
                    sizes=sizes,
                )
            )
        played = sorted(key for key, (number, _table) in self.matches.items() if number == session)
        if session in self.sessions and played:
            raise RuleViolation(
                Said(
                    "session {session} of {name} is already seated and played ({played}): "
                    "detach its matches to seat it again",
                    session=session,
                    name=repr(self.name),
                    played=listed(played),
                )
            )
        seated: set[str] = set()
        for table in tables:
            for name in table:
                NAME.check(name)
                player = self.player_of(name)
                if player not in self.players:
                    raise RuleViolation(
                        Said("{player} is not a player of {name}", player=repr(name), name=repr(self.name))
                    )
                if player in seated:
                    raise RuleViolation(
                        Said(
                            "{player} is seated twice in session {session}: once a session, one table",
                            player=repr(player),
                            session=session,
                        )
                    )
                seated.add(player)
                if player in self.withdrawn and self.withdrawn[player] < session:
                    raise RuleViolation(
                        Said(
                            "{player} withdrew after session {after}: not seated in session {session}",
                            player=repr(player),
                            after=self.withdrawn[player],
                            session=session,
                        )
                    )
        self.trigger_event(self.SessionPlanned, session=session, tables=[list(t) for t in tables])

    def _check_seats(self, match_key: str, players: Sequence[str], session: int, table: int | None) -> None:
        """A match attached to a seated session plays where that session seated its players (a
        session's several matches at one table, imported logs say, are each checked so)."""
        mine = {self.player_of(p) for p in players}
        seating = self.sessions.get(session)
        if seating is not None and table is not None:
            if not 1 <= table <= len(seating):
                raise RuleViolation(
                    Said(
                        "session {session} of {name} has no table {table} ({count} seated)",
                        session=session,
                        name=repr(self.name),
                        table=table,
                        count=len(seating),
                    )
                )
            seated = {self.player_of(p) for p in seating[table - 1]}
            if mine != seated:
                raise RuleViolation(
                    Said(
                        "match {match} is played by {players}, but table {table} of session {session} seats {seated}",
                        match=repr(match_key),
                        players=listed(sorted(mine)),
                        table=table,
                        session=session,
                        seated=listed(sorted(seated)),
                    )
                )
        elif seating is not None and not any(mine == {self.player_of(p) for p in t} for t in seating):
            raise RuleViolation(
                Said(
                    "match {match} is played by {players}, who do not sit at one table of session {session}",
                    match=repr(match_key),
                    players=listed(sorted(mine)),
                    session=session,
                )
            )

    def attach(self, match_key: str, players: Sequence[str], session: int = 1, table: int | None = None) -> None:
        """Count a match for the tournament; its players are registered if new."""
        if session < 1:
            raise RuleViolation(Said("sessions are numbered from 1"))
        SESSION.check(session)
        if table is not None:
            TABLE.check(table)
        KEY.check(match_key, "match key")
        if self.matches.get(match_key) == (session, table):
            return
        self._check_seats(match_key, players, session, table)
        for name in players:
            if self.player_of(name) not in self.players:
                self.register(name)
        self.trigger_event(self.MatchAttached, match_key=match_key, session=session, table=table)

    def detach(self, match_key: str, reason: str) -> None:
        """Stop counting a match attached by mistake."""
        if match_key not in self.matches:
            raise RuleViolation(Said("match {match} is not in {name}", match=shown(match_key), name=repr(self.name)))
        if not reason.strip():
            raise RuleViolation(Said("say why the match is detached"))
        TEXT.check(reason, "reason")
        self.trigger_event(self.MatchDetached, match_key=match_key, reason=reason)

    def require_sign_off(self, required: bool) -> None:
        """Have the players confirm each match's final scores (or stop having them); nothing
        happens when it is so already."""
        if self.sign_off != required:
            self.trigger_event(self.SignOffRequired, required=required)

    def sign(
        self,
        match_key: str,
        players: Sequence[str],
        player: str | None,
        *,
        agreed: bool,
        scores: Sequence[int],
        note: str = "",
    ) -> None:
        """``player`` (one of the match's ``players``; None: the table's referee) confirms the
        match's final ``scores`` as shown to them, or disputes them saying what; said again of
        the same scores, nothing new is recorded."""
        if not self.sign_off:
            raise RuleViolation(Said("{name} has no sign-off: its matches count as entered", name=repr(self.name)))
        if match_key not in self.matches:
            raise RuleViolation(Said("match {match} is not in {name}", match=shown(match_key), name=repr(self.name)))
        if player is not None and player not in players:
            raise RuleViolation(Said("{player} did not play {match}", player=shown(player), match=shown(match_key)))
        note = note.strip()
        TEXT.check(note, "note")
        if not agreed and not note:
            raise RuleViolation(Said("say what is disputed (the referee reads it)"))
        said = Signature(agreed, note, tuple(scores))
        before = (
            self.referee_signatures.get(match_key) if player is None else self.signatures.get(match_key, {}).get(player)
        )
        if before == said:
            return
        self.trigger_event(
            self.ScoresSigned,
            match_key=match_key,
            player=player or "",
            agreed=agreed,
            note=note,
            referee=player is None,
            scores=list(scores),
        )

    def signatures_of(self, match_key: str, scores: Sequence[int]) -> tuple[dict[str, Signature], Signature | None]:
        """What each player, and the referee, said of a match's final ``scores`` as they are now:
        what was said of other scores (before a correction changed them) no longer stands."""

        def current(said: Signature | None) -> bool:
            return said is not None and (said.scores is None or said.scores == tuple(scores))

        players = {p: s for p, s in self.signatures.get(match_key, {}).items() if current(s)}
        referee = self.referee_signatures.get(match_key)
        return players, referee if current(referee) else None

    def sign_off_of(self, match_key: str, players: Sequence[str], scores: Sequence[int]) -> str | None:
        """Where a finished match's sign-off stands, of its final ``scores`` now: ``confirmed``
        (every player confirmed them, or the referee did: the referee's word settles a dispute),
        ``disputed`` (a player's last word disputes them), ``unconfirmed``; None when the format
        has no sign-off."""
        if not self.sign_off:
            return None
        said, referee = self.signatures_of(match_key, scores)
        if referee is not None and referee.agreed:
            return "confirmed"
        if any(not s.agreed for s in said.values()):
            return "disputed"
        if all(p in said and said[p].agreed for p in players):
            return "confirmed"
        return "unconfirmed"

    def set_time_limit(self, session: int, minutes: int) -> None:
        """Set a session's time limit (its tables' matches get it on their clocks)."""
        if session < 1:
            raise RuleViolation(Said("sessions are numbered from 1"))
        SESSION.check(session)
        check_minutes(minutes, Said("a time limit"))
        if self.time_limits.get(session) != minutes:
            self.trigger_event(self.SessionTimeLimitSet, session=session, minutes=minutes)

    def session_matches(self, session: int) -> list[tuple[int | None, str]]:
        """The matches attached to a session, by table (then key)."""
        found = [(table, key) for key, (number, table) in self.matches.items() if number == session]
        return sorted(found, key=lambda item: table_order(session, *item))

    # Staged events, players who come and go, teams, draws.

    def declare_format(self, event_format: EventFormat) -> None:
        """Say how the event is played: its stages, substitutes and teams (before its second stage starts)."""
        event_format.check()
        if self.closed_stages:
            raise RuleViolation(
                Said("{name} has closed a stage already: its format is kept as it was played", name=repr(self.name))
            )
        data = event_format.to_data()
        if data != self.format:
            self.trigger_event(self.FormatDeclared, format=data)

    def event_format(self) -> EventFormat:
        """The declared format, or one stage of every session there is."""
        if self.format is not None:
            return EventFormat.from_data(self.format)
        return single_stage(max([*self.sessions, *(s for s, _t in self.matches.values())], default=1))

    def close_stage(self, stage: int, ranking: Sequence[str], advanced: Sequence[str], carried: dict[str, int]) -> None:
        """Record the end of a stage: its order, who goes on, the points (tenths) they carry."""
        stages = self.event_format().stages
        if not 1 <= stage < len(stages):
            raise RuleViolation(
                Said("{name} has no stage {stage} with one after it", name=repr(self.name), stage=stage)
            )
        if stage in self.closed_stages:
            raise RuleViolation(
                Said(
                    "stage {stage} ({stage_name}) of {name} is closed already",
                    stage=stage,
                    stage_name=stages[stage - 1].name,
                    name=repr(self.name),
                )
            )
        if stage > 1 and stage - 1 not in self.closed_stages:
            raise RuleViolation(
                Said("stage {stage} of {name} is not closed yet", stage=stage - 1, name=repr(self.name))
            )
        if set(carried) != set(advanced) or not set(advanced) <= set(ranking):
            raise RuleViolation(Said("those who advance are ranked, and each carries points"))
        self.trigger_event(
            self.StageClosed, stage=stage, ranking=list(ranking), advanced=list(advanced), carried=dict(carried)
        )

    def withdraw(self, player: str, after_session: int, reason: str) -> None:
        """A player leaves after ``after_session`` (0: before the first); their matches stay."""
        if player not in self.players:
            raise RuleViolation(Said("{player} is not a player of {name}", player=shown(player), name=repr(self.name)))
        if after_session < 0:
            raise RuleViolation(Said("a player withdraws after a session (0: before the first)"))
        AFTER_SESSION.check(after_session)
        if not reason.strip():
            raise RuleViolation(Said("say why the player withdraws"))
        TEXT.check(reason, "reason")
        if player in self.withdrawn:
            raise RuleViolation(
                Said(
                    "{player} withdrew already (after session {session})",
                    player=repr(player),
                    session=self.withdrawn[player],
                )
            )
        later = sorted(s for s, tables in self.sessions.items() if s > after_session for t in tables if player in t)
        if later:
            raise RuleViolation(
                Said(
                    "{player} is seated in session {session}: withdraw after it, or seat the session again",
                    player=repr(player),
                    session=later[0],
                )
            )
        self.trigger_event(self.PlayerWithdrawn, player=player, after_session=after_session, reason=reason)

    def seat_substitute(self, substitute: str, replaces: str, reason: str, *, override: bool = False) -> None:
        """A substitute joins to fill ``replaces``'s seat: a player who withdrew, or, with the
        director's ``override`` (recorded in the event, with its reason), one who has not."""
        substitute = substitute.strip()
        if not substitute:
            raise RuleViolation(Said("a substitute needs a name"))
        NAME.check(substitute, "substitute's name")
        if replaces not in self.players or replaces in self.substitutes:
            raise RuleViolation(
                Said(
                    "{player} is not a player of {name} a substitute could replace",
                    player=shown(replaces),
                    name=repr(self.name),
                )
            )
        if substitute in self.players or substitute in self.aliases:
            raise RuleViolation(
                Said(
                    "{player} plays in {name} already: a substitute is somebody new",
                    player=repr(substitute),
                    name=repr(self.name),
                )
            )
        if not reason.strip():
            raise RuleViolation(Said("say why a substitute plays"))
        TEXT.check(reason, "reason")
        if replaces not in self.withdrawn and not override:
            # Else the player plays on and the substitute is a 17th entry beside them.
            raise RuleViolation(
                Said(
                    "{player} has not withdrawn from {name}: withdraw them first"
                    " (or seat the substitute with the director's override)",
                    player=repr(replaces),
                    name=repr(self.name),
                )
            )
        self.trigger_event(
            self.SubstituteSeated, substitute=substitute, replaces=replaces, reason=reason, override=override
        )

    def join_team(self, player: str, team: str) -> None:
        """Put a player in a team (or move them to another)."""
        team = team.strip()
        if player not in self.players:
            raise RuleViolation(Said("{player} is not a player of {name}", player=shown(player), name=repr(self.name)))
        if not team:
            raise RuleViolation(Said("a team needs a name"))
        NAME.check(team, "team name")
        if self.teams.get(player) != team:
            self._terms_fixed(Said("putting {player} in a team", player=repr(player)))
            self.trigger_event(self.TeamJoined, player=player, team=team)

    def committed_draw(self) -> int | None:
        """A session whose draw is committed and not revealed yet (the first), or None: its terms
        (who is drawn, their teams) are fixed until it is revealed."""
        pending = sorted(s for s, draw in self.draws.items() if "seed" not in draw)
        return pending[0] if pending else None

    def _terms_fixed(self, what: Said) -> None:
        """Refuse a change of what a committed draw depends on (``what``: the change) until it is revealed."""
        session = self.committed_draw()
        if session is not None:
            raise RuleViolation(
                Said(
                    "the draw of session {session} of {name} is committed: {what} would change what it "
                    "draws over; reveal it first",
                    session=session,
                    name=repr(self.name),
                    what=what,
                )
            )

    def commit_draw(self, session: int, commitment: str, terms: Mapping[str, Any] | None = None) -> None:
        """Publish the commitment of a session's draw (before it is drawn), with the draw's terms
        (``domain.draw.draw_terms``: the players, their teams, the method, the table's size), fixed
        from then on: nobody is registered, joins a team or is seated in that session otherwise
        until the draw is revealed, and the reveal draws over these terms."""
        SESSION.check(session)
        check_commitment(commitment)
        if session in self.sessions:
            raise RuleViolation(
                Said("session {session} of {name} is seated already", session=session, name=repr(self.name))
            )
        if "seed" in self.draws.get(session, {}):
            raise RuleViolation(Said("the draw of session {session} was revealed already", session=session))
        if self.draws.get(session, {}).get("commitment") not in (None, commitment):
            raise RuleViolation(
                Said(
                    "session {session} of {name} has a commitment already: it stands",
                    session=session,
                    name=repr(self.name),
                )
            )
        if session not in self.draws:
            self.trigger_event(self.DrawCommitted, session=session, commitment=commitment)
            if terms is not None:
                self.trigger_event(self.DrawTermsFixed, session=session, terms=dict(terms))

    def reveal_draw(self, session: int, seed: str, players: Sequence[str], tables: Sequence[Sequence[str]]) -> None:
        """Reveal a committed draw's seed, with the players it drew and the seating it gave, and seat
        the session so."""
        SESSION.check(session)
        committed = self.draws.get(session, {}).get("commitment")
        if committed is None:
            raise RuleViolation(
                Said("no draw of session {session} was committed: commit before the draw", session=session)
            )
        if "seed" in self.draws[session]:
            raise RuleViolation(Said("the draw of session {session} was revealed already", session=session))
        if commitment_of(seed) != committed:
            raise RuleViolation(
                Said("that seed is not the one committed for session {session}: its digest differs", session=session)
            )
        terms = self.draws[session].get("terms")
        if terms is not None and sorted(players) != sorted(terms["players"]):
            raise RuleViolation(
                Said("the draw of session {session} draws over the players fixed with its commitment", session=session)
            )
        self._plan_session(session, tables)
        self.trigger_event(
            self.DrawRevealed, session=session, seed=seed, players=list(players), tables=[list(t) for t in tables]
        )

    def certify(self, certificate: dict[str, Any]) -> None:
        """Keep the organiser's signed certificate of this tournament's result (checked by the
        service before: its signature; here: that it is of this tournament)."""
        body = certificate.get("certificate")
        if not isinstance(body, dict) or body.get("tournament") != self.name:
            raise RuleViolation(Said("that certificate is not of {name}", name=repr(self.name)))
        if certificate != self.certificate:
            self.trigger_event(self.ResultCertified, certificate=dict(certificate))

    def declare_ranking_facts(self, ended_on: str, days: int, countries: int, qualification: bool) -> None:
        """What a ranking across events weighs this event by (the EMA's MERS weight)."""
        try:
            date.fromisoformat(ended_on)
        except ValueError:
            raise RuleViolation(
                Said("the day the event ended is a date like 2026-11-21, not {value}", value=shown(ended_on))
            ) from None
        EVENT_DAYS.check(days)
        COUNTRIES.check(countries)
        self.trigger_event(
            self.RankingFactsDeclared, ended_on=ended_on, days=days, countries=countries, qualification=qualification
        )
