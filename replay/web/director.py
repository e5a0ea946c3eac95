"""The director's pages: create a tournament, add players, withdraw a player and seat a substitute, seat a
session (each table's link and QR code), issue a table's link again. Ending a table's match early goes
through the referee's desk (its confirm step), which a director's token opens."""

from __future__ import annotations

import attrs
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from domain.bounds import AFTER_SESSION, SEED, SESSION
from domain.errors import HonbaError
from domain.rules import preset_names
from replay.service.access import Grant
from replay.service.director import seat_session, table_link, tournament_data
from replay.service.stages import substitute, withdraw
from replay.service.tournaments import create_tournament
from replay.web.site import form_of, form_token, link_to, number, see_other, site

RUN = "run tournaments"


async def director_page(request: Request) -> Response:
    served = site(request)
    token = request.query_params.get("token")
    await served.call(lambda: served.need(token, Grant.may_direct, RUN))
    return served.page(request, "director.html", token=token, errors={}, values={})


async def create_tournament_form(request: Request) -> Response:
    served = site(request)
    fields = await form_of(request)
    token = form_token(fields)
    await served.call(lambda: served.need(token, Grant.may_direct, RUN))
    name = str(fields.get("name", "")).strip()
    players = str(fields.get("players", "")).splitlines()
    try:
        await served.call(lambda: create_tournament(served.app, name, players))
    except HonbaError as exc:
        return served.page(request, "director.html", 400, token=token, errors={"name": str(exc)}, values=fields)
    return _to_tournament(request, name, token)


def _to_tournament(request: Request, name: str, token: str | None) -> Response:
    return see_other(request, "director_tournament", {"token": token or ""}, name=name)


async def director_tournament(request: Request) -> Response:
    served = site(request)
    name = request.path_params["name"]
    token = request.query_params.get("token")
    await served.call(lambda: served.need(token, Grant.may_direct, RUN))
    data = await served.call(lambda: tournament_data(served.app, name))
    return served.page(request, "director_tournament.html", t=data, token=token, errors={}, presets=preset_names())


async def add_players_form(request: Request) -> Response:
    served = site(request)
    name = request.path_params["name"]
    fields = await form_of(request)
    token = form_token(fields)
    await served.call(lambda: served.need(token, Grant.may_direct, RUN))
    await served.call(lambda: create_tournament(served.app, name, str(fields.get("players", "")).splitlines()))
    return _to_tournament(request, name, token)


async def seat_form(request: Request) -> Response:
    served = site(request)
    name = request.path_params["name"]
    fields = await form_of(request)
    token = form_token(fields)
    await served.call(lambda: served.need(token, Grant.may_direct, RUN))
    seed_text = str(fields.get("seed", "")).strip()
    try:
        session = number(str(fields.get("session", "")), SESSION)
        seed = number(seed_text, SEED) if seed_text else None
        tables, met = await served.call(
            lambda: seat_session(
                served.app,
                served.tokens,
                name,
                session,
                method=str(fields.get("method", "fewest-repeats")),
                rules=str(fields.get("rules", "tenhou")),
                seed=seed,
            )
        )
    except HonbaError as exc:
        data = await served.call(lambda: tournament_data(served.app, name))
        errors = {"session": str(exc)}
        return served.page(
            request, "director_tournament.html", 400, t=data, token=token, errors=errors, presets=preset_names()
        )
    shown = []
    for table in tables:
        link = link_to(request, "table", {"token": table.token}, key=table.match)
        shown.append({**attrs.asdict(table), "link": link, "qr": qr_svg(link)})
    return served.page(request, "seated.html", name=name, session=session, tables=shown, repeats=met, token=token)


async def _tournament_refused(request: Request, name: str, token: str | None, field: str, exc: HonbaError) -> Response:
    served = site(request)
    data = await served.call(lambda: tournament_data(served.app, name))
    return served.page(
        request,
        "director_tournament.html",
        400,
        t=data,
        token=token,
        errors={field: str(exc)},
        presets=preset_names(),
    )


async def withdraw_form(request: Request) -> Response:
    """A player leaves after a session (their matches stay; they are seated no more)."""
    served = site(request)
    name = request.path_params["name"]
    fields = await form_of(request)
    token = form_token(fields)
    await served.call(lambda: served.need(token, Grant.may_direct, RUN))
    player, reason = str(fields.get("player", "")), str(fields.get("reason", ""))
    try:
        after = number(str(fields.get("after", "")), AFTER_SESSION, "after")
        await served.call(lambda: withdraw(served.app, name, player, after, reason))
    except HonbaError as exc:
        return await _tournament_refused(request, name, token, "withdraw", exc)
    return _to_tournament(request, name, token)


async def substitute_form(request: Request) -> Response:
    """A substitute fills a player's seat from the next session seated."""
    served = site(request)
    name = request.path_params["name"]
    fields = await form_of(request)
    token = form_token(fields)
    await served.call(lambda: served.need(token, Grant.may_direct, RUN))
    sub, replaces = str(fields.get("substitute", "")), str(fields.get("replaces", ""))
    reason = str(fields.get("reason", ""))
    try:
        await served.call(lambda: substitute(served.app, name, sub, replaces, reason))
    except HonbaError as exc:
        return await _tournament_refused(request, name, token, "substitute", exc)
    return _to_tournament(request, name, token)


async def link_form(request: Request) -> Response:
    """A table's link issued again (with its QR code): a new token, the old one revoked."""
    served = site(request)
    name = request.path_params["name"]
    fields = await form_of(request)
    token = form_token(fields)
    await served.call(lambda: served.need(token, Grant.may_direct, RUN))
    match = str(fields.get("match", ""))
    try:
        issued = await served.call(lambda: table_link(served.app, served.tokens, name, match))
    except HonbaError as exc:
        return await _tournament_refused(request, name, token, "link", exc)
    link = link_to(request, "table", {"token": issued.token}, key=issued.match)
    return served.page(
        request,
        "table_link.html",
        name=name,
        match=issued.match,
        link=link,
        qr=qr_svg(link),
        revoked=issued.revoked,
        token=token,
    )


def qr_svg(text: str) -> str:
    """A QR code of ``text`` as an inline ``<svg>`` (qrcode's SVG path image: no Pillow needed)."""
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=8)
    svg: str = image.to_string(encoding="unicode")
    return svg.replace("<svg ", '<svg role="img" aria-label="QR code of the table link" ', 1)


ROUTES = [
    Route("/director", director_page),
    Route("/director/tournaments", create_tournament_form, methods=["POST"]),
    Route("/director/t/{name}/players", add_players_form, methods=["POST"]),
    Route("/director/t/{name}/sessions", seat_form, methods=["POST"]),
    Route("/director/t/{name}/withdraw", withdraw_form, methods=["POST"]),
    Route("/director/t/{name}/substitute", substitute_form, methods=["POST"]),
    Route("/director/t/{name}/link", link_form, methods=["POST"]),
    Route("/director/t/{name}", director_tournament, name="director_tournament"),
]
