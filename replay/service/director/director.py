"""The director's use cases for ``honba serve``: tournaments, seatings, table links, what a page shows.

Plain data in and out; the web pages only show it. A table's link is issued from the director's
own token (``TokenStore.reissue`` with it as ``issuer``), so that every page can show it again, with its QR
code, at any time (``session_data``): nothing the director needs is only the answer to a form.
The next session is seated by one use case (``seat_next``) whatever the event: by its format's
stage (``replay.service.director.stages.next_session``: from the standings before it), or, for an event
without a format, as the director asks (fewest pairs meeting again, or at random).
"""

from __future__ import annotations

from typing import Any

import attrs

from domain.draw import commitment_of
from domain.rules import load_preset
from domain.said import Said, listed, one_of
from domain.seating import fewest_repeats_seating, met_pairs, random_seating, repeats
from domain.stages import Stage
from domain.tournament import Tournament, table_order
from projections.standings_view import read_docs, tournament_entries
from projections.views import DocumentView
from replay.input.parsing import InputError
from replay.service.common.access import TableLink, TokenStore, derived_key
from replay.service.director import draws, stages
from replay.service.recording import clock
from replay.service.recording.recording import start_match
from replay.service.tournaments.standings import summary_doc
from replay.service.tournaments.tournaments import change_tournament
from replay.store.application import HonbaApp
from replay.store.tournaments import get_tournament

SEATINGS = ("fewest-repeats", "random")
# How a session of an event without a format may be seated from the director's page.
WEB_SEATINGS = (*SEATINGS, "draw")


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
    issuer: str | None = None,
) -> tuple[list[SeatedTable], int]:
    """Seat a session of the tournament (every player who plays in it: those who withdrew before it
    left out, their substitutes in), start a match per table, attach it, and make each table's
    token (derived from the director token ``issuer`` when given, so that it can be shown again).
    Returns the tables and how many pairs meet again. The one use case behind the director's page
    and ``honba tournament seat NAME SESSION --method ...``."""
    if method not in SEATINGS:
        raise InputError(Said("the seating is {choices}, not {method}", choices=one_of(SEATINGS), method=repr(method)))
    ruleset = load_preset(rules)
    tournament = get_tournament(app, name)
    if session in tournament.sessions:
        raise InputError(Said("session {session} of {name} is already seated", session=session, name=repr(name)))
    before = [tables for number, tables in sorted(tournament.sessions.items()) if number < session]
    players = stages.seatable(tournament, session)
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
            clock.set_time_limit(app, key, tournament.time_limits[session], by="director")
        seated.append(SeatedTable(number, tuple(table), key, tokens.create("table", key, issuer=issuer)))

    def attach(tournament: Tournament) -> None:
        for table in seated:
            tournament.attach(table.match, table.players, session, table.table)

    change_tournament(app, name, attach)
    return seated, repeats(seating, met_pairs(before))


def tournaments_data(view: DocumentView) -> list[dict[str, Any]]:
    """Every tournament of the store, by name: ``[{"name", "players", "matches"}]``."""
    found = []
    for name, ref in sorted(read_docs(view, "tournament-name")):
        doc = view.get_doc("tournament", ref["id"])
        if doc is None:
            continue
        aliases = doc.get("aliases") or {}
        players = [p for p in doc.get("players") or [] if p not in aliases]
        found.append({"name": name, "players": len(players), "matches": len(tournament_entries(view, ref["id"]))})
    return found


def playing_before(view: DocumentView, tournament: Tournament, session: int) -> list[str]:
    """The matches of sessions before ``session`` that have not ended, by session and table."""
    earlier = [(s, t, k) for k, (s, t) in tournament.matches.items() if s < session]
    keys = [k for _s, _t, k in sorted(earlier, key=lambda match: table_order(*match))]
    return [k for k in keys if (summary := summary_doc(view, k)) is None or not summary.finished]


def next_session_data(view: DocumentView, tournament: Tournament) -> dict[str, Any]:
    """What seating the next session takes: ``{"session", "stage", "methods" (the ways it may be
    seated: the stage's own for an event with a format), "draw" (its committed draw, if any:
    ``{"commitment", "revealed"}``), "playing" (matches of earlier sessions still playing: seat
    only with a confirm), "staged", "done" (every session of the format is seated)}``."""
    fmt = tournament.event_format()
    session = max(tournament.sessions, default=0) + 1
    staged = tournament.format is not None
    last = fmt.first_session(len(fmt.stages)) + fmt.stages[-1].sessions - 1
    stage = fmt.stage_of(session)
    first = session == fmt.first_session(stage)
    if staged:
        own = fmt.stages[stage - 1].seating if first else fmt.stages[stage - 1].later
        methods: tuple[str, ...] = (own,)
    else:
        methods = WEB_SEATINGS
    draw = tournament.draws.get(session)
    return {
        "session": session,
        "stage": fmt.stages[stage - 1].name if staged else None,
        "methods": list(methods),
        "draw": None if draw is None else {"commitment": draw["commitment"], "revealed": "seed" in draw},
        "playing": playing_before(view, tournament, session),
        "staged": staged,
        "done": staged and session > last,
    }


def tournament_data(app: HonbaApp, view: DocumentView, name: str) -> dict[str, Any]:
    """A tournament as the director's page shows it:

    ``{"name", "players", "marks": {player: [words]}, "withdrawn": {player: after session},
    "substitutes": {substitute: whom they replace}, "format": null or {"stages": [{"stage",
    "name", "sessions", "advance", "carry", "seating", "later", "closed", "advanced"}],
    "substitutes", "team_points", "teams_apart"}, "teams": {team: [players]}, "sessions":
    [{"session", "tables", "matches", "playing", "time_limit"}], "next": (``next_session_data``),
    "certificate": null or {"key_id", "issued"}, "sign_off": whether the players confirm each
    match's final scores (``replay.service.tournaments.sign_off``)}``."""
    tournament = get_tournament(app, name)
    fmt = tournament.format and tournament.event_format()
    marks: dict[str, list[Said]] = {}
    for player, after in tournament.withdrawn.items():
        marks.setdefault(player, []).append(Said("withdrew after session {session}", session=after))
    for sub, replaced in tournament.substitutes.items():
        marks.setdefault(sub, []).append(Said("substitute for {player}", player=replaced))
        marks.setdefault(replaced, []).append(Said("replaced by {player}", player=sub))
    teams: dict[str, list[str]] = {}
    for player, team in sorted(tournament.teams.items()):
        teams.setdefault(team, []).append(player)
    sessions = []
    for number, tables in sorted(tournament.sessions.items()):
        keys = [key for _table, key in tournament.session_matches(number)]
        playing = [k for k in keys if (s := summary_doc(view, k)) is None or not s.finished]
        sessions.append(
            {
                "session": number,
                "tables": len(tables),
                "matches": len(keys),
                "playing": len(playing),
                "time_limit": tournament.time_limits.get(number),
            }
        )
    return {
        "name": tournament.name,
        "players": [p for p in tournament.players if p not in tournament.aliases],
        "marks": marks,
        "withdrawn": dict(tournament.withdrawn),
        "substitutes": dict(tournament.substitutes),
        "format": None if not fmt else _format_data(tournament),
        "teams": teams,
        "sessions": sessions,
        "next": next_session_data(view, tournament),
        "certificate": _certificate_data(tournament.certificate),
        "sign_off": tournament.sign_off,
    }


def _certificate_data(certificate: dict[str, Any] | None) -> dict[str, Any] | None:
    if certificate is None:
        return None
    return {"key_id": certificate["signature"].get("key_id"), "issued": certificate["certificate"].get("issued")}


def _format_data(tournament: Tournament) -> dict[str, Any]:
    fmt = tournament.event_format()
    rule = fmt.substitutes
    substitutes = f"fixed:{rule.fixed_points:g}" if rule.counts == "fixed" else rule.counts
    return {
        "stages": [
            {
                "stage": index,
                "name": stage.name,
                "sessions": list(fmt.sessions_of(index)),
                "advance": stage.advance,
                "carry": stage.carry,
                "seating": stage.seating,
                "later": stage.later,
                "closed": index in tournament.closed_stages,
                "advanced": list(tournament.closed_stages.get(index, {}).get("advanced", [])),
                "text": stage_text(stage),
            }
            for index, stage in enumerate(fmt.stages, start=1)
        ],
        "substitutes": substitutes,
        "team_points": fmt.team_points,
        "teams_apart": fmt.keep_teams_apart,
    }


def stage_text(stage: Stage) -> str:
    """A stage as it is typed (``domain.stages.parse_stage`` reads it back)."""
    keys = [f"advance={stage.advance}"] if stage.advance is not None else []
    keys += [f"carry={stage.carry}", f"seating={stage.seating}", f"later={stage.later}"]
    return f"{stage.name}:{stage.sessions}:{','.join(keys)}"


def session_data(
    app: HonbaApp, view: DocumentView, tokens: TokenStore, name: str, session: int, issuer: str
) -> dict[str, Any]:
    """A seated session for the director: each table's players, match, where it stands, its clock
    and its link (the table token ``issuer`` issued, made again; null where another token or the
    command line made it: reissue it to show it).

    ``{"tournament", "session", "time_limit", "tables": [{"table", "players", "match", "finished",
    "hand", "token", "clock"}]}``."""
    tournament = get_tournament(app, name)
    if session not in tournament.sessions:
        raise InputError(Said("session {session} of {name} is not seated", session=session, name=repr(name)))
    by_table = {table: key for table, key in tournament.session_matches(session) if table is not None}
    clocks = {c["table"]: c for c in clock.session_clocks(app, name, session)}
    tables = []
    for number, players in enumerate(tournament.sessions[session], start=1):
        key = by_table.get(number)
        summary = None if key is None else summary_doc(view, key)
        tables.append(
            {
                "table": number,
                "players": list(players),
                "match": key,
                "finished": bool(summary and summary.finished),
                "hand": summary.hand if summary and not summary.finished else None,
                "token": None if key is None else tokens.table_link(issuer, key),
                "clock": clocks.get(number),
            }
        )
    return {
        "tournament": name,
        "session": session,
        "time_limit": tournament.time_limits.get(session),
        "tables": tables,
    }


def table_match(app: HonbaApp, name: str, session: int, table: int) -> str:
    """The match played at a table of a session."""
    key = dict(get_tournament(app, name).session_matches(session)).get(table)
    if key is None:
        raise InputError(
            Said(
                "session {session} of {name} has no match at table {table}",
                session=session,
                name=repr(name),
                table=table,
            )
        )
    return key


def reissue_table_link(
    app: HonbaApp, tokens: TokenStore, name: str, session: int, table: int, issuer: str
) -> TableLink:
    """A new link for a table of a session, from the director's token ``issuer`` (shown again by
    ``session_data``): every earlier table token of its match revoked (a phone lost, a link shown
    to the wrong table). ``honba token reissue`` does the same from the command line."""
    return tokens.reissue(table_match(app, name, session, table), issuer=issuer)


def add_table_time(app: HonbaApp, name: str, session: int, table: int, minutes: int, reason: str) -> dict[str, Any]:
    """Add time to one table's clock (``replay.service.recording.clock.add_time``); its clock after."""
    return clock.add_time(app, table_match(app, name, session, table), minutes, by="director", reason=reason)


def seat_next(
    app: HonbaApp,
    view: DocumentView,
    tokens: TokenStore,
    name: str,
    issuer: str,
    *,
    rules: str = "tenhou",
    method: str | None = None,
    seed: int | None = None,
    while_playing: bool = False,
) -> int:
    """Seat the next session and start its tables, each with a link from the director's token
    ``issuer``; the session's number. An event with a format seats it by its stage's rule, from the
    standings before it (``replay.service.director.stages.next_session``); one without, as ``method`` says.
    While tables of an earlier session are still playing, only with ``while_playing`` (the
    director's confirm) and only where the seating does not come from the standings."""
    ruleset = load_preset(rules)
    tournament = get_tournament(app, name)
    upcoming = next_session_data(view, tournament)
    if upcoming["done"]:
        raise InputError(Said("every session of {name}'s format is seated", name=repr(name)))
    chosen = method or upcoming["methods"][0]
    if chosen == "draw" or upcoming["methods"] == ["draw"]:
        raise InputError(
            Said("session {session} is seated by a draw: commit to it, then reveal it", session=upcoming["session"])
        )
    if chosen not in upcoming["methods"]:
        raise InputError(
            Said(
                "session {session} is seated by {methods}",
                session=upcoming["session"],
                methods=one_of(upcoming["methods"]),
            )
        )
    if upcoming["staged"]:
        seated = stages.next_session(app, view, name, ruleset)
        for key in seated.matches:
            tokens.reissue(key, issuer=issuer)
        return seated.session
    _check_playing(upcoming, while_playing)
    seat_session(app, tokens, name, upcoming["session"], method=chosen, rules=rules, seed=seed, issuer=issuer)
    return int(upcoming["session"])


def _check_playing(upcoming: dict[str, Any], while_playing: bool) -> None:
    """Tables of an earlier session still playing: the next is seated only on the director's
    confirm, and never where its seating comes from the standings (an event with a format)."""
    playing = upcoming["playing"]
    if not playing:
        return
    tables = Said(
        "{count} table of an earlier session" if len(playing) == 1 else "{count} tables of an earlier session",
        count=len(playing),
    )
    if upcoming["staged"]:
        raise InputError(
            Said(
                "{tables} still playing ({matches}): the standings are not final",
                tables=tables,
                matches=listed(playing),
            )
        )
    if not while_playing:
        raise InputError(
            Said(
                "{tables} still playing ({matches}): confirm to seat session {session} anyway",
                tables=tables,
                matches=listed(playing),
                session=upcoming["session"],
            )
        )


def draw_seed(issuer: str, name: str, session: int) -> str:
    """The seed of a session's draw that honba makes from the director's token (64 hexadecimal
    digits): never stored before it is revealed, made again from the director's token to reveal it."""
    return derived_key(issuer, "draw", name, str(session)).hex()


def own_draw_seed(app: HonbaApp, name: str, session: int, issuer: str) -> str | None:
    """The seed of a session's committed draw when honba made it from this director's token (to be
    kept by the director until the draw); None for a commitment made elsewhere, or none."""
    draw = get_tournament(app, name).draws.get(session)
    seed = draw_seed(issuer, name, session)
    return seed if draw is not None and draw["commitment"] == commitment_of(seed) else None


def commit_next_draw(app: HonbaApp, view: DocumentView, name: str, issuer: str, commitment: str | None) -> str:
    """Commit to the draw of the next session: to a commitment made elsewhere, or to the seed
    honba makes from the director's token (``draw_seed``). The commitment published."""
    session = next_session_data(view, get_tournament(app, name))["session"]
    if commitment is None:
        commitment = commitment_of(draw_seed(issuer, name, session))
    return draws.commit_draw(app, name, session, commitment).commitment


def reveal_next_draw(
    app: HonbaApp,
    view: DocumentView,
    tokens: TokenStore,
    name: str,
    issuer: str,
    *,
    seed: str | None = None,
    rules: str = "tenhou",
    while_playing: bool = False,
) -> int:
    """Reveal the next session's committed draw (the seed given, or the one honba made from the
    director's token), seat the session so and start its tables with their links; its number.
    While tables of an earlier session play, as ``seat_next``."""
    tournament = get_tournament(app, name)
    upcoming = next_session_data(view, tournament)
    session = int(upcoming["session"])
    if upcoming["draw"] is None:
        raise InputError(Said("no draw of session {session} is committed: commit to it first", session=session))
    _check_playing(upcoming, while_playing)
    revealed = draws.reveal_draw(app, name, session, seed or draw_seed(issuer, name, session), load_preset(rules))
    for key in revealed.matches:
        tokens.reissue(key, issuer=issuer)
    return session
