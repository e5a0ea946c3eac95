"""The table's pages: the stored matches, a table with its forms, the confirm step, recording, the audit page."""

from __future__ import annotations

import uuid
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from domain.errors import HonbaError
from domain.values import AbortKind, PenaltyShare
from replay.html.pages import render_audit_html
from replay.service.audit import report_data
from replay.service.checks import audit_match
from replay.service.entry import FLAG_KEYS, apply_entry, entry_fields, entry_from_fields, preview
from replay.service.matches import table_data
from replay.web.site import Site, field_for, form_of, form_token, see_other, site

LIMITS = ("mangan", "haneman", "baiman", "sanbaiman", "yakuman")
FU = (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110)


def table_context(served: Site, key: str, token: str | None) -> dict[str, Any]:
    """What the table page shows of the match ``key``; its forms when ``token`` may record there."""
    data = table_data(served.app, key)
    grant = served.grant(token)
    writable = grant is not None and grant.may_record(key) and not data["finished"]
    return {
        **data,
        "writable": writable,
        "token": token if writable else None,
        "limits": LIMITS,
        "fu": FU,
        "aborts": [k.value for k in AbortKind],
        "flags": FLAG_KEYS,
        "shares": [s.value for s in PenaltyShare],
        "client_key": str(uuid.uuid4()),
    }


async def index(request: Request) -> Response:
    served = site(request)
    matches = await served.call(lambda: list(served.app.list_matches()))
    return served.page(request, "index.html", matches=[m for m in matches if not m.damaged])


async def table_page(request: Request) -> Response:
    served = site(request)
    key = request.path_params["key"]
    token = request.query_params.get("token")
    context = await served.call(lambda: table_context(served, key, token))
    return served.page(request, "table.html", **context, errors={}, values={}, open="win")


async def preview_form(request: Request) -> Response:
    served = site(request)
    key = request.path_params["key"]
    fields = await form_of(request)
    token = form_token(fields)
    await served.call(lambda: served.may_record(key, token))
    kind = str(fields.get("kind", ""))
    try:
        entry = entry_from_fields(fields)
        shown = await served.call(lambda: preview(served.app, key, entry))
    except HonbaError as exc:
        context = await served.call(lambda: table_context(served, key, token))
        context["client_key"] = str(fields.get("client_key") or context["client_key"])
        errors = {field_for(exc, kind): str(exc)}
        return served.page(request, "table.html", 400, **context, errors=errors, values=fields, open=kind)
    return served.page(
        request,
        "confirm.html",
        key=key,
        token=token,
        preview=shown,
        fields=entry_fields(entry),
        client_key=str(fields.get("client_key") or uuid.uuid4()),
    )


async def record_form(request: Request) -> Response:
    served = site(request)
    key = request.path_params["key"]
    fields = await form_of(request)
    token = form_token(fields)
    grant = await served.call(lambda: served.may_record(key, token))
    client_key = str(fields.get("client_key", "")) or None
    kind = str(fields.get("kind", ""))
    try:
        entry = entry_from_fields(fields)
        await served.call(
            lambda: apply_entry(served.app, key, entry, client_key=client_key, by=f"table {grant.token_id}")
        )
    except HonbaError as exc:
        context = await served.call(lambda: table_context(served, key, token))
        errors = {field_for(exc, kind): str(exc)}
        return served.page(request, "table.html", 400, **context, errors=errors, values=fields, open=kind)
    # Post, redirect, get: a reload of the page after recording asks for nothing again.
    return see_other(request, "table", {"token": token or ""}, key=key)


async def audit_page(request: Request) -> Response:
    served = site(request)
    key = request.path_params["key"]
    return HTMLResponse(await served.call(lambda: render_audit_html(report_data(audit_match(served.app, key)))))


ROUTES = [
    Route("/", index),
    Route("/matches/{key:path}/preview", preview_form, methods=["POST"]),
    Route("/matches/{key:path}/record", record_form, methods=["POST"]),
    Route("/matches/{key:path}/audit", audit_page),
    Route("/matches/{key:path}", table_page, name="table"),
]
