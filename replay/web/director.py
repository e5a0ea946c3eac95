"""The director's pages: create a tournament, add players, seat a session (each table's link and QR code)."""

from __future__ import annotations

import attrs
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from domain.bounds import SEATING_SEED, SESSION
from domain.errors import HonbaError
from domain.rules import preset_names
from replay.service.access import Grant
from replay.service.director import seat_session, tournament_data
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
    session_text, seed_text = str(fields.get("session", "")), str(fields.get("seed", "")).strip()
    try:
        session = number(session_text, SESSION)
        seed = number(seed_text, SEATING_SEED) if seed_text else None
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
    Route("/director/t/{name}", director_tournament, name="director_tournament"),
]
