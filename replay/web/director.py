"""The director's pages: tournaments, their players, format and teams, each session's tables with
their links and QR codes, the clock, the draw.

Every page is a GET that shows everything again (a reload loses nothing: the table links are made
again from the director's token, ``replay.service.director.director.session_data``); every form posts,
then redirects to the page it changed (post, redirect, get), or shows that page again with the
refusal next to the form (400).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from domain.bounds import AFTER_SESSION, MINUTES, REVOKED, SEED, SESSION, TABLE
from domain.errors import HonbaError
from domain.rules import preset_names
from domain.said import Said
from replay.html.qr import qr_svg
from replay.html.sheet import PAPERS, render_sheet_html
from replay.html.words import N_
from replay.service.common.access import Grant
from replay.service.director import director, stages
from replay.service.recording.clock import set_session_time_limit, start_session_clock
from replay.service.tournaments import sheets
from replay.service.tournaments.sign_off import require_sign_off
from replay.service.tournaments.tournaments import create_tournament
from replay.web.site import Site, form_of, form_token, link_to, number, phones_at, query_number, see_other, site

RUN = N_("run tournaments")
# What a form of the tournament's page does: (the site, the tournament, the form's fields, the director's token).
Action = Callable[[Site, str, dict[str, Any], str], Any]


async def director_page(request: Request) -> Response:
    served = site(request)
    token = request.query_params.get("token")
    await served.call(lambda: served.need(token, Grant.may_direct, RUN))
    return await _home(request, served, token)


async def _home(
    request: Request, served: Site, token: str | None, status: int = 200, errors: Any = None, values: Any = None
) -> Response:
    await served.refreshed()
    listed = await served.call(lambda: director.tournaments_data(served.view))
    return served.page(
        request,
        "director.html",
        status,
        token=token,
        tournaments=listed,
        errors=errors or {},
        values=values or {},
        phones=phones_of(request, served),
    )


def phones_of(request: Request, served: Site) -> dict[str, Any]:
    """What the director's pages say of the address phones open: ``{"url", "reachable", "said"}``."""
    address = served.address
    return {
        "url": phones_at(request),
        "reachable": address is None or address.reachable,
        "said": address.said if address is not None else "",
    }


async def create_tournament_form(request: Request) -> Response:
    served = site(request)
    fields = await form_of(request)
    token = form_token(fields)
    await served.call(lambda: served.need(token, Grant.may_direct, RUN))
    name = str(fields.get("name", "")).strip()
    players = str(fields.get("players", "")).splitlines()
    try:
        # A name with a '/' is refused by the domain (domain.bounds.TOURNAMENT): no page could be its.
        await served.call(lambda: create_tournament(served.app, name, players))
    except HonbaError as exc:
        return await _home(request, served, token, 400, {"name": exc.said}, fields)
    return see_other(request, "director_tournament", {"token": token or ""}, name=name)


async def director_tournament(request: Request) -> Response:
    served = site(request)
    token = request.query_params.get("token")
    await served.call(lambda: served.need(token, Grant.may_direct, RUN))
    return await show_tournament(request, request.path_params["name"], str(token))


async def show_tournament(
    request: Request, name: str, token: str, status: int = 200, errors: Any = None, values: Any = None
) -> Response:
    """The tournament's page for the director (with a refusal next to its form, where ``errors`` holds one)."""
    served = site(request)
    await served.refreshed()

    def read() -> dict[str, Any]:
        data = director.tournament_data(served.app, served.view, name)
        data["next"]["seed"] = director.own_draw_seed(served.app, name, data["next"]["session"], token)
        return data

    data = await served.call(read)
    return served.page(
        request,
        "director_tournament.html",
        status,
        t=data,
        token=token,
        errors=errors or {},
        values=values or {},
        presets=preset_names(),
    )


async def _act(request: Request, field: str, action: Action, *, to_session: bool = False) -> Response:
    """A form of the tournament's page: the director's token checked, ``action`` run (it returns
    the session to show, where ``to_session``), then to the page it changed; a refusal shown next
    to the form's ``field`` on the tournament's page."""
    served = site(request)
    name = request.path_params["name"]
    fields = await form_of(request)
    token = form_token(fields)
    await served.call(lambda: served.need(token, Grant.may_direct, RUN))
    assert token is not None
    try:
        await served.refreshed()  # the seating and the warnings read the standings view
        result = await served.call(lambda: action(served, name, fields, token))
    except HonbaError as exc:
        return await show_tournament(request, name, token, 400, {field: exc.said}, fields)
    if to_session:
        return see_other(request, "director_session", {"token": token}, name=name, session=str(result))
    return see_other(request, "director_tournament", {"token": token}, fragment=field, name=name)


def _text(fields: dict[str, Any], name: str) -> str:
    return str(fields.get(name, "")).strip()


def _lines(fields: dict[str, Any], name: str) -> list[str]:
    return [line.strip() for line in str(fields.get(name, "")).splitlines() if line.strip()]


def _ticked(fields: dict[str, Any], name: str) -> bool:
    return bool(_text(fields, name))


def _add_players(served: Site, name: str, fields: dict[str, Any], _token: str) -> None:
    create_tournament(served.app, name, _lines(fields, "players"))


def _seat(served: Site, name: str, fields: dict[str, Any], token: str) -> int:
    seed = _text(fields, "seed")
    return director.seat_next(
        served.app,
        served.view,
        served.tokens,
        name,
        token,
        rules=_text(fields, "rules") or "tenhou",
        method=_text(fields, "method") or None,
        seed=number(seed, SEED) if seed else None,
        while_playing=_ticked(fields, "while_playing"),
    )


def _commit(served: Site, name: str, fields: dict[str, Any], token: str) -> None:
    director.commit_next_draw(served.app, served.view, name, token, _text(fields, "commitment").lower() or None)


def _reveal(served: Site, name: str, fields: dict[str, Any], token: str) -> int:
    return director.reveal_next_draw(
        served.app,
        served.view,
        served.tokens,
        name,
        token,
        seed=_text(fields, "seed").lower() or None,
        rules=_text(fields, "rules") or "tenhou",
        while_playing=_ticked(fields, "while_playing"),
    )


def _format(served: Site, name: str, fields: dict[str, Any], _token: str) -> None:
    fmt = stages.event_format_of(
        _lines(fields, "stages"),
        _text(fields, "substitutes") or "as-played",
        _text(fields, "team_points") or "sum",
        _ticked(fields, "teams_apart"),
    )
    stages.declare_format(served.app, name, fmt)


def _withdraw(served: Site, name: str, fields: dict[str, Any], _token: str) -> None:
    after = number(_text(fields, "after"), AFTER_SESSION, "after")
    stages.withdraw(served.app, name, _text(fields, "player"), after, _text(fields, "reason"))


def _substitute(served: Site, name: str, fields: dict[str, Any], _token: str) -> None:
    stages.substitute(
        served.app,
        name,
        _text(fields, "substitute"),
        _text(fields, "replaces"),
        _text(fields, "reason"),
        override=bool(_text(fields, "override")),
    )


def _team(served: Site, name: str, fields: dict[str, Any], _token: str) -> None:
    stages.join_team(served.app, name, _text(fields, "team"), _lines(fields, "members"))


def _sign_off(served: Site, name: str, fields: dict[str, Any], _token: str) -> None:
    require_sign_off(served.app, name, _text(fields, "required") == "yes")


async def sign_off_form(request: Request) -> Response:
    """The director switches the sign-off on or off (``honba tournament sign-off`` on the page)."""
    return await _act(request, "sign-off", _sign_off)


async def add_players_form(request: Request) -> Response:
    return await _act(request, "players", _add_players)


async def seat_form(request: Request) -> Response:
    return await _act(request, "session", _seat, to_session=True)


async def commit_form(request: Request) -> Response:
    return await _act(request, "draw", _commit, to_session=False)


async def reveal_form(request: Request) -> Response:
    return await _act(request, "draw", _reveal, to_session=True)


async def format_form(request: Request) -> Response:
    return await _act(request, "format", _format)


async def withdraw_form(request: Request) -> Response:
    return await _act(request, "withdraw", _withdraw)


async def substitute_form(request: Request) -> Response:
    return await _act(request, "substitute", _substitute)


async def team_form(request: Request) -> Response:
    return await _act(request, "team", _team)


# A session's page: every table's link and QR code, the clock.


async def director_session(request: Request) -> Response:
    served = site(request)
    token = request.query_params.get("token")
    await served.call(lambda: served.need(token, Grant.may_direct, RUN))
    return await _session(request, served, str(token))


async def _session(
    request: Request, served: Site, token: str, status: int = 200, errors: Any = None, values: Any = None
) -> Response:
    name, session = request.path_params["name"], _session_number(request)
    await served.refreshed()
    data = await served.call(
        lambda: director.session_data(served.app, served.view, served.tokens, name, session, token)
    )
    for table in data["tables"]:
        if table["token"] is not None:
            # The key quoted whole (link_to): a link (and its QR code) is one URL a phone's camera reads.
            table["link"] = link_to(request, "table", {"token": table["token"]}, key=table["match"])
            table["qr"] = qr_svg(table["link"])
    # A refusal for a table the session does not have (a URL typed) is shown above the tables.
    shown_at = {f"table-{table['table']}" for table in data["tables"]} | {"clock"}
    errors = {field if field in shown_at else "tables": text for field, text in (errors or {}).items()}
    return served.page(
        request,
        "director_session.html",
        status,
        s=data,
        phones=phones_of(request, served),
        token=token,
        errors=errors,
        values=values or {},
        reissued=_reissued(request),
    )


def _session_number(request: Request) -> int:
    """The session of the page's address, read as every number the web reads (``site.number``)."""
    return number(request.path_params["session"], SESSION, "session")


def _table_number(request: Request) -> int:
    return number(request.path_params["table"], TABLE, "table")


def _reissued(request: Request) -> dict[str, int] | None:
    """What the last reissue did, from the query its form redirected with (numbers only: the
    page says it in its own words): ``{"table", "revoked"}``, or None."""
    table, revoked = query_number(request, "reissued", TABLE), query_number(request, "revoked", REVOKED)
    if table is None or revoked is None:
        return None
    return {"table": table, "revoked": revoked}


async def _session_act(
    request: Request, field: str, action: Callable[[Site, dict[str, Any], str], dict[str, str] | None]
) -> Response:
    """A form of a session's page, as ``_act``: back to the session's page (with what ``action``
    returns as its query, to say what it did)."""
    served = site(request)
    fields = await form_of(request)
    token = form_token(fields)
    await served.call(lambda: served.need(token, Grant.may_direct, RUN))
    assert token is not None
    try:
        said = await served.call(lambda: action(served, fields, token))
    except HonbaError as exc:
        return await _session(request, served, token, 400, {field: exc.said}, fields)
    name, session = request.path_params["name"], str(_session_number(request))
    return see_other(
        request, "director_session", {"token": token, **(said or {})}, fragment=field, name=name, session=session
    )


async def clock_form(request: Request) -> Response:
    name, session = request.path_params["name"], _session_number(request)

    def run(served: Site, fields: dict[str, Any], _token: str) -> None:
        if _text(fields, "action") == "start":
            start_session_clock(served.app, name, session)
        else:
            minutes = number(_text(fields, "minutes"), MINUTES)
            set_session_time_limit(served.app, name, session, minutes)

    return await _session_act(request, "clock", run)


async def add_time_form(request: Request) -> Response:
    name, session, table = request.path_params["name"], _session_number(request), _table_number(request)

    def run(served: Site, fields: dict[str, Any], _token: str) -> None:
        minutes = number(_text(fields, "minutes"), MINUTES)
        director.add_table_time(served.app, name, session, table, minutes, _text(fields, "reason"))

    return await _session_act(request, f"table-{table}", run)


async def reissue_form(request: Request) -> Response:
    name, session, table = request.path_params["name"], _session_number(request), _table_number(request)

    def run(served: Site, _fields: dict[str, Any], token: str) -> dict[str, str]:
        issued = director.reissue_table_link(served.app, served.tokens, name, session, table, token)
        return {"reissued": str(table), "revoked": str(issued.revoked)}

    return await _session_act(request, f"table-{table}", run)


async def sheet_page(request: Request) -> Response:
    """The session's score sheets to print (``replay.html.sheet``), each table's QR code its table
    link (made again from the director's token, as on the session's page); ``?paper=letter``."""
    served = site(request)
    token = request.query_params.get("token")
    await served.call(lambda: served.need(token, Grant.may_direct, RUN))
    name, session = request.path_params["name"], _session_number(request)
    paper = request.query_params.get("paper", "a4")
    if paper not in PAPERS:
        raise HonbaError(Said("paper: {paper} is not one of {papers}", paper=repr(paper), papers=", ".join(PAPERS)))

    def read() -> tuple[dict[str, Any], dict[int, str]]:
        data = sheets.sheet_data(served.app, name, session)
        tokens = {t["table"]: served.tokens.table_link(str(token), t["match"]) for t in data["tables"] if t["match"]}
        links = {
            number: link_to(request, "table", {"token": issued}, key=data["tables"][number - 1]["match"])
            for number, issued in tokens.items()
            if issued is not None
        }
        return data, links

    data, links = await served.call(read)
    return HTMLResponse(render_sheet_html(data, links, paper, served.language(request)))


ROUTES = [
    Route("/director", director_page),
    Route("/director/tournaments", create_tournament_form, methods=["POST"]),
    Route("/director/t/{name}/players", add_players_form, methods=["POST"]),
    Route("/director/t/{name}/sessions", seat_form, methods=["POST"]),
    Route("/director/t/{name}/draw/commit", commit_form, methods=["POST"]),
    Route("/director/t/{name}/draw/reveal", reveal_form, methods=["POST"]),
    Route("/director/t/{name}/format", format_form, methods=["POST"]),
    Route("/director/t/{name}/withdraw", withdraw_form, methods=["POST"]),
    Route("/director/t/{name}/substitute", substitute_form, methods=["POST"]),
    Route("/director/t/{name}/teams", team_form, methods=["POST"]),
    Route("/director/t/{name}/sign-off", sign_off_form, methods=["POST"]),
    # The session's and the table's numbers are read by ``site.number`` (a path's "²" or 5000 digits: a 400).
    Route("/director/t/{name}/s/{session}/clock", clock_form, methods=["POST"]),
    Route("/director/t/{name}/s/{session}/t/{table}/time", add_time_form, methods=["POST"]),
    Route("/director/t/{name}/s/{session}/t/{table}/link", reissue_form, methods=["POST"]),
    Route("/director/t/{name}/s/{session}/sheet", sheet_page),
    Route("/director/t/{name}/s/{session}", director_session, name="director_session"),
    Route("/director/t/{name}", director_tournament, name="director_tournament"),
]
