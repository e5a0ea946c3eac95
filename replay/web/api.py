"""The JSON API: a match's state and ledger, an entry's preview, recording an entry, a tournament's standings.

Writes take the token as ``Authorization: Bearer TOKEN``; errors answer as ``{"error": ...}``
(``replay.web.site.Site.error``).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from replay.service.entry import Entry, apply_entry, preview
from replay.service.shapes import state_data
from replay.service.standings import standings_data
from replay.tournaments import tournament_report
from replay.web.site import bearer, json_body, site
from replay.web.standings import after_of
from replay.web.table import table_context


async def match_json(request: Request) -> Response:
    served = site(request)
    key = request.path_params["key"]

    def data() -> dict[str, Any]:
        context = table_context(served, key, None)
        return {
            "match": key,
            "rules": context["rules"],
            "players": context["players"],
            **context["state"],
            "ledger": context["ledger"],
            "head": context["head"],
        }

    return JSONResponse(await served.call(data))


async def preview_json(request: Request) -> Response:
    served = site(request)
    key = request.path_params["key"]
    body = await json_body(request)
    entry = Entry.from_fields(body)
    await served.call(lambda: served.may_record(key, bearer(request)))
    shown = await served.call(lambda: preview(served.app, key, entry))
    return JSONResponse({"match": key, "lines": list(shown.lines), "scores_after": shown.scores_after})


async def record_json(request: Request) -> Response:
    served = site(request)
    key = request.path_params["key"]
    body = await json_body(request)
    entry = Entry.from_fields(body)
    grant = await served.call(lambda: served.may_record(key, bearer(request)))
    client_key = str(body.get("client_key") or "") or None

    def run() -> dict[str, Any]:
        match = apply_entry(served.app, key, entry, client_key=client_key, by=f"table {grant.token_id}")
        return {"match": key, **state_data(match.players, match.state, match.rules), "head": match.head}

    return JSONResponse(await served.call(run))


async def standings_json(request: Request) -> Response:
    served = site(request)
    name = request.path_params["name"]
    after = after_of(request)
    await served.refreshed()
    return JSONResponse(
        await served.call(lambda: standings_data(tournament_report(served.view, name, after_session=after)))
    )


ROUTES = [
    Route("/api/matches/{key:path}/preview", preview_json, methods=["POST"]),
    Route("/api/matches/{key:path}/entries", record_json, methods=["POST"]),
    Route("/api/matches/{key:path}", match_json),
    Route("/api/tournaments/{name}/standings", standings_json),
]
