"""Ratings across tournaments, and one player's history: pages over the service's ratings
(``replay.service.director.ratings``), the charts ``replay.html``'s."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from domain.said import Said
from replay.html.ratings import ratings_chart_svg
from replay.input.parsing import InputError
from replay.service.director.ratings import SYSTEMS, ratings_data
from replay.web.site import site


def _system(request: Request) -> str:
    system = request.query_params.get("system", "openskill")
    if system not in SYSTEMS:
        raise InputError(Said("?system= is {systems}, not {system}", systems=" or ".join(SYSTEMS), system=repr(system)))
    return system


async def ratings_page(request: Request) -> Response:
    served = site(request)
    system = _system(request)
    await served.refreshed()
    data = await served.call(lambda: ratings_data(served.app, served.view, system))
    chart = ratings_chart_svg(data["players"], system, words=served.words(request))
    return served.page(request, "ratings.html", data=data, chart=chart, systems=SYSTEMS)


async def rating_history_page(request: Request) -> Response:
    served = site(request)
    system = _system(request)
    player = request.path_params["player"]
    await served.refreshed()
    data = await served.call(lambda: ratings_data(served.app, served.view, system, player=player))
    chart = ratings_chart_svg(data["players"], system, 1, served.words(request))
    return served.page(request, "rating_history.html", data=data, row=data["players"][0], chart=chart)


ROUTES = [
    Route("/ratings", ratings_page),
    Route("/ratings/players/{player}", rating_history_page),
]
