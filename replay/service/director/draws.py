"""A seating draw nobody can rig (``domain.draw``): commit, reveal, verify.

The director commits to a seed before registration closes (``commit_draw``: the commitment is
stored, the seed goes to a file only the director keeps), reveals it after (``reveal_draw``: the
seed is stored with the players it drew over and the seating it gave, and the session is seated
so), and anyone recomputes it (``verify_draw`` from the store, ``recompute_draw`` from the
published seed and players alone).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from domain.draw import commitment_of, draw_terms, drawn_seating, seating_of, terms_digest
from domain.rules import Ruleset
from domain.said import Said
from domain.seating import separate_teams
from domain.tournament import Tournament
from replay.input.parsing import InputError
from replay.service.director.stages import seatable, start_matches
from replay.service.tournaments.tournaments import change_tournament
from replay.store.application import HonbaApp
from replay.store.tournaments import get_tournament


@attrs.frozen
class Commitment:
    """A committed draw: the commitment published, and the seed when honba drew it (for the
    director's file, never for the store until it is revealed)."""

    session: int
    commitment: str
    seed: str | None
    # What the draw depends on, fixed with the commitment, and their digest (published beside it).
    terms: dict[str, Any] = attrs.field(factory=dict)
    terms_digest: str = ""


def commit_draw(
    app: HonbaApp, name: str, session: int, commitment: str | None = None, *, size: int | None = None
) -> Commitment:
    """Commit to a session's draw: a new random seed (32 bytes from the system's secure source)
    and its commitment, or a commitment the director made elsewhere; with the draw's terms fixed
    (``domain.draw.draw_terms``: who is seated in the session now, their teams where the event keeps
    team-mates apart, ``size`` players a table, or None: as the reveal's rules seat), stored with
    the commitment."""
    seed = None
    if commitment is None:
        seed = secrets.token_hex(32)
        commitment = commitment_of(seed)
    published = commitment
    made: dict[str, Any] = {}

    def commit(t: Tournament) -> None:
        made.clear()
        made.update(terms_now(t, session, size))
        t.commit_draw(session, published, made)

    change_tournament(app, name, commit)
    terms = get_tournament(app, name).draws.get(session, {}).get("terms") or made
    return Commitment(session, published, seed, dict(terms), terms_digest(terms))


def terms_now(tournament: Tournament, session: int, size: int | None) -> dict[str, Any]:
    """The terms a draw of this session would have now: who is seated in it, their teams."""
    teams_apart = tournament.event_format().keep_teams_apart
    return draw_terms(seatable(tournament, session), tournament.teams, teams_apart=teams_apart, size=size)


@attrs.frozen
class RevealedDraw:
    """A revealed draw: the players drawn over, the tables it gave, the matches started."""

    session: int
    players: tuple[str, ...]
    tables: tuple[tuple[str, ...], ...]
    matches: tuple[str, ...]


def reveal_draw(
    app: HonbaApp, name: str, session: int, seed: str, rules: Ruleset, *, start: bool = True
) -> RevealedDraw:
    """Reveal the seed of a committed draw: the session is seated as the seed draws its players
    (team-mates then kept apart where the event says so), and its matches started when ``start``."""
    tournament = get_tournament(app, name)
    terms = tournament.draws.get(session, {}).get("terms")
    if terms is None:  # a draw committed before its terms were fixed with it: drawn over who is seatable now
        terms = terms_now(tournament, session, rules.players)
    if terms.get("size") not in (None, rules.players):
        raise InputError(
            Said(
                "the draw of session {session} was committed for tables of {size}; these rules seat {players}",
                session=session,
                size=terms["size"],
                players=rules.players,
            )
        )
    players = list(terms["players"])
    if sorted(seatable(tournament, session)) != players:
        raise InputError(
            Said(
                "the players of session {session} are no longer those its draw was committed over "
                "(a withdrawal or a substitute since): the draw cannot be revealed as committed",
                session=session,
            )
        )
    tables = seating_of(seed, terms, rules.players)

    def reveal(t: Tournament) -> None:
        t.reveal_draw(session, seed, players, tables)

    change_tournament(app, name, reveal)
    keys = start_matches(app, name, session, tables, rules) if start else ()
    return RevealedDraw(session, tuple(players), tuple(tuple(t) for t in tables), keys)


def recompute_draw(
    seed: str, players: Sequence[str], size: int = 4, team_of: Mapping[str, str] | None = None
) -> list[list[str]]:
    """The seating a seed draws from these players (team-mates kept apart when ``team_of`` gives
    their teams), as anyone can recompute it from the published values."""
    return seating_of(seed, draw_terms(players, team_of or {}, teams_apart=bool(team_of), size=size))


@attrs.frozen
class DrawCheck:
    """What ``verify_draw`` found: the commitment, the seed, the tables drawn, and what is wrong."""

    session: int
    commitment: str
    seed: str
    tables: tuple[tuple[str, ...], ...]
    problems: tuple[str, ...]
    # The terms fixed with the commitment and their digest (empty for a draw committed without them).
    terms: dict[str, Any] = attrs.field(factory=dict)
    terms_digest: str = ""


def verify_draw(app: HonbaApp, name: str, session: int) -> DrawCheck:
    """Recompute a session's draw from the stored commitment, seed and players: the seed must be
    the one committed, and the seating it draws the one revealed and the one the session has."""
    tournament = get_tournament(app, name)
    draw = tournament.draws.get(session)
    if draw is None:
        raise InputError(Said("no draw of session {session} in {name}", session=session, name=repr(name)))
    if "seed" not in draw:
        raise InputError(
            Said(
                "the draw of session {session} of {name} is committed but not revealed yet",
                session=session,
                name=repr(name),
            )
        )
    problems = []
    if commitment_of(draw["seed"]) != draw["commitment"]:
        problems.append("the seed's digest is not the commitment published before the draw")
    stored = [list(t) for t in draw["tables"]]
    terms = draw.get("terms")
    if terms is not None:
        # Recomputed from the terms fixed with the commitment: exactly the seating the reveal made.
        drawn = seating_of(draw["seed"], terms, len(stored[0]) if stored else 4)
        if sorted(draw["players"]) != list(terms["players"]):
            problems.append("the draw was revealed over other players than those fixed with its commitment")
        candidates = [drawn]
    else:
        size = len(stored[0]) if stored else 4
        plain = drawn_seating(draw["seed"], draw["players"], size)
        apart = separate_teams(plain, tournament.teams)
        drawn = stored if stored in (plain, apart) else plain
        candidates = [plain, apart]
    if stored not in candidates:
        problems.append("the seed draws another seating than the one revealed")
    if tournament.sessions.get(session) != stored:
        problems.append(f"session {session} is seated otherwise than the draw")
    return DrawCheck(
        session,
        draw["commitment"],
        draw["seed"],
        tuple(tuple(t) for t in drawn),
        tuple(problems),
        dict(terms or {}),
        terms_digest(terms) if terms is not None else "",
    )


def draws_data(app: HonbaApp, name: str) -> list[dict[str, Any]]:
    """Every draw of a tournament as the public sees it: the commitment published before the draw
    and, once revealed, the seed, the players drawn over and whether it checks (``verify_draw``):
    ``[{"session", "commitment", "seed", "players", "revealed", "problems"}]``."""
    tournament = get_tournament(app, name)
    found = []
    for session, draw in sorted(tournament.draws.items()):
        revealed = "seed" in draw
        problems = list(verify_draw(app, name, session).problems) if revealed else []
        found.append(
            {
                "session": session,
                "commitment": draw["commitment"],
                "seed": draw.get("seed"),
                "players": list(draw.get("players", [])),
                "revealed": revealed,
                "problems": problems,
                "terms_digest": terms_digest(draw["terms"]) if "terms" in draw else None,
            }
        )
    return found
