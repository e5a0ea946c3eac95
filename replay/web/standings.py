"""The public standings: the page, finding a tournament by name, and the live stream of server-sent events."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from domain.bounds import SESSION, TOURNAMENT
from domain.errors import HonbaError
from replay.html.pages import standings_chart_svg
from replay.service.standings import standings_data, tournament_report
from replay.web.site import Site, query_number, see_other, site

# How often the live standings look at the store's notification log (another server process may have written).
POLL_SECONDS = 0.5
# Polls between two keep-alive comments on a quiet standings stream (15 seconds).
KEEPALIVE = 30


def standings_context(served: Site, name: str, after: int | None) -> dict[str, Any]:
    """The standings of tournament ``name`` (as they stood after session ``after``) and their chart."""
    data = standings_data(tournament_report(served.view, name, after_session=after))
    return {"data": data, "chart": standings_chart_svg(data), "after": after}


def after_of(request: Request) -> int | None:
    """The ``?after=`` session number, or none."""
    return query_number(request, "after", SESSION)


async def standings_page(request: Request) -> Response:
    served = site(request)
    name = request.path_params["name"]
    after = after_of(request)
    await served.refreshed()
    context = await served.call(lambda: standings_context(served, name, after))
    return served.page(request, "standings.html", name=name, **context)


async def find_tournament(request: Request) -> Response:
    name = request.query_params.get("name", "").strip()
    if not name:
        raise HonbaError("name the tournament")
    return see_other(request, "standings", name=TOURNAMENT.check(name))


async def standings_events(request: Request) -> Response:
    """Server-sent events: the standings section again whenever the store has moved on."""
    served = site(request)
    name = request.path_params["name"]
    after = after_of(request)
    fragment = served.templates.get_template("standings_section.html")
    # An unknown tournament is a 404 before the stream starts: once it has, no status can be sent.
    await served.refreshed()
    await served.call(lambda: standings_context(served, name, after))

    async def stream() -> AsyncIterator[str]:
        seen = -1
        last = ""
        quiet = 0
        while not await request.is_disconnected():
            position = await served.refreshed()
            if position != seen:
                seen = position
                context = await served.call(lambda: standings_context(served, name, after))
                html = fragment.render(name=name, **context)
                if html != last:
                    last = html
                    quiet = 0
                    yield "event: standings\ndata: " + json.dumps({"html": html, "position": position}) + "\n\n"
            quiet += 1
            if quiet % KEEPALIVE == 0:
                # A comment now and then keeps proxies from closing a quiet stream and tells a gone client.
                yield ": still here\n\n"
            await asyncio.sleep(POLL_SECONDS)

    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)


ROUTES = [
    Route("/tournaments/{name}/events", standings_events),
    Route("/tournaments", find_tournament),
    Route("/tournaments/{name}", standings_page, name="standings"),
]
