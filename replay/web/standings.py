"""The public standings: the page, finding a tournament by name, the live stream of server-sent events,
and the whole event's standings under other rules beside them as run (what-if)."""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import AsyncIterator
from functools import partial
from typing import Any

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from domain.bounds import SESSION, TOURNAMENT, clipped
from domain.errors import HonbaError
from domain.rules import preset_names
from domain.said import Said
from domain.store_errors import TournamentNotFound
from replay.html.pages import needs_section, standings_chart_note, standings_chart_svg
from replay.input.parsing import parse_override
from replay.service.common.rules import resolve_rules
from replay.service.director.certificates import is_certified
from replay.service.director.draws import draws_data
from replay.service.director.standings_page import standings_page_data
from replay.service.director.what_if import TIE_BREAKS, what_if_data
from replay.service.tournaments.sign_off import unconfirmed
from replay.service.tournaments.standings import read_view
from replay.service.tournaments.tournaments import check_tournament
from replay.web import i18n
from replay.web.site import Site, query_number, see_other, site

# How often the live standings look at the store's notification log (another server process may have written).
POLL_SECONDS = 0.5
# Polls between two keep-alive comments on a quiet standings stream (15 seconds).
KEEPALIVE = 30


def standings_context(served: Site, name: str, after: int | None, language: str = i18n.DEFAULT) -> dict[str, Any]:
    """The standings of tournament ``name`` (as they stood after session ``after``), the stages'
    and teams' results, what each player needs, and the chart: the live part of the page, in ``language``."""
    words = i18n.translations(language)
    # Read through ``read_view``: a view changed behind honba's back is rebuilt, never a 500.
    page = read_view(served.app, lambda view: standings_page_data(served.app, view, name, after), view=served.view)
    data = page["standings"]
    needs = needs_section({"needs": page["needs"]}, words) if page["needs"] else ""
    chart = {"chart": standings_chart_svg(data, words), "chart_note": standings_chart_note(data, words)}
    return {"data": data, "results": page["results"], "needs_html": needs, **chart}


def after_of(request: Request) -> int | None:
    """The ``?after=`` session number, or none."""
    return query_number(request, "after", SESSION)


async def standings_page(request: Request) -> Response:
    served = site(request)
    name = request.path_params["name"]
    after = after_of(request)
    await served.refreshed()

    def read() -> dict[str, Any]:
        draws = draws_data(served.app, name)
        context = {
            **standings_context(served, name, after, served.language(request)),
            "draws": draws,
            "certified": is_certified(served.app, name),
        }
        # The finished matches the players have not confirmed yet (an event with a sign-off).
        context["unconfirmed"] = unconfirmed(served.app, served.view, name)
        return context

    context = await served.call(read)
    return served.page(request, "standings.html", name=name, after=after, **context)


async def find_tournament(request: Request) -> Response:
    name = request.query_params.get("name", "").strip()
    if not name:
        raise HonbaError(Said("name the tournament"))
    return see_other(request, "standings", name=TOURNAMENT.check(name))


class LiveSections:
    """The live section of each standings page as last rendered, with the position of the store it
    was rendered at: however many watch a tournament, it is rendered once each time the store moves."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._rendered: dict[tuple[str, int | None, str], tuple[int, str]] = {}

    def render(self, served: Site, name: str, after: int | None, position: int, language: str = "en") -> str:
        with self._lock:  # one render at a time: the others wait for it rather than render it again
            held = self._rendered.get((name, after, language))
            if held is not None and held[0] == position:
                return held[1]
            context = standings_context(served, name, after, language)
            section = served.languages[language].get_template("standings_section.html")
            html = section.render(name=name, **context)
            self._rendered[(name, after, language)] = (position, html)
            return html


def live_sections(request: Request) -> LiveSections:
    """The application's ``LiveSections`` (made with the first stream)."""
    state = request.app.state
    if not hasattr(state, "live_sections"):
        state.live_sections = LiveSections()
    held: LiveSections = state.live_sections
    return held


async def standings_events(request: Request) -> Response:
    """Server-sent events: the standings section again whenever the store has moved on."""
    served = site(request)
    name = request.path_params["name"]
    after = after_of(request)
    sections = live_sections(request)
    # An unknown tournament is a 404 before the stream starts: once it has, no status can be sent.
    # (Rendered into the shared sections, so the stream's first event costs nothing more.)
    position = await served.refreshed()
    await served.call(partial(sections.render, served, name, after, position, served.language(request)))

    async def stream() -> AsyncIterator[str]:
        seen = -1
        last = ""
        quiet = 0
        while not await request.is_disconnected():
            position = await served.refreshed()
            if position != seen:
                seen = position
                html = await served.call(
                    partial(sections.render, served, name, after, position, served.language(request))
                )
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


async def what_if_page(request: Request) -> Response:
    """The whole event's standings under other rules, beside them as run (nothing asked: the form)."""
    served = site(request)
    name = request.path_params["name"]
    query = request.query_params
    asked = {k: query.get(k, "").strip() for k in ("rules", "set", "tie_break", "without_penalties")}
    await served.refreshed()

    def run() -> dict[str, Any] | None:
        check_tournament(served.app, name)  # 404 for no such tournament, asked or not
        if not any(asked.values()):
            return None
        overrides = dict(parse_override(line, "set") for line in asked["set"].splitlines() if line.strip())
        return what_if_data(
            served.app,
            served.view,
            name,
            rules=resolve_rules(asked["rules"], files=False) if asked["rules"] else None,
            overrides=overrides,
            tie_break=asked["tie_break"] or None,
            without_penalties=bool(asked["without_penalties"]),
        )

    try:
        data, error = await served.call(run), ""
    except TournamentNotFound:
        raise
    except HonbaError as exc:
        # One line, as every refusal (Site.page clips a form's), in the page's language.
        data, error = None, clipped(i18n.say(exc.said, served.language(request)))
    status = 400 if error else 200
    context = {"name": name, "data": data, "asked": asked, "error": error, "presets": preset_names()}
    return served.page(request, "what_if.html", status, tie_breaks=TIE_BREAKS, **context)


ROUTES = [
    Route("/tournaments/{name}/what-if", what_if_page),
    Route("/tournaments/{name}/events", standings_events),
    Route("/tournaments", find_tournament),
    Route("/tournaments/{name}", standings_page, name="standings"),
]
