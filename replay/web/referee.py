"""The referee's desk: every match with its corrections; one match's corrections and entries, and correcting it."""

from __future__ import annotations

import uuid
from typing import Any

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from domain.errors import HonbaError
from projections.ledger import corrected_ledger
from replay.formats.record import entry_numbers
from replay.service.access import Grant
from replay.service.director import corrections_data
from replay.service.entry import Entry, FieldError, apply_correction
from replay.service.shapes import ledger_data
from replay.web.site import Site, form_of, form_token, site

CORRECT = "correct matches"


async def referee_page(request: Request) -> Response:
    served = site(request)
    token = request.query_params.get("token")
    await served.call(lambda: served.need(token, Grant.may_correct, CORRECT))

    def rows() -> list[dict[str, Any]]:
        found = []
        for summary in served.app.list_matches():
            if summary.damaged:
                continue
            count = len(served.app.get_match(summary.key).correction_log)
            found.append({"key": summary.key, "players": summary.players, "corrections": count})
        return found

    return served.page(request, "referee.html", matches=await served.call(rows), token=token)


def referee_context(served: Site, key: str) -> dict[str, Any]:
    """What the desk shows of the match ``key``: its corrections and its numbered entries."""
    match = served.app.get_match(key)
    return {
        "key": key,
        "players": list(match.players),
        "corrections": corrections_data(served.app, key),
        "entries": [
            e
            for e in ledger_data(match.players, corrected_ledger(match.corrected_steps()), entry_numbers(match))
            if e["entry"] is not None  # a deal pass or an end the rules decided has no number
        ],
        "client_key": str(uuid.uuid4()),
    }


async def referee_match(request: Request) -> Response:
    served = site(request)
    key = request.path_params["key"]
    token = request.query_params.get("token")
    await served.call(lambda: served.need(token, Grant.may_correct, CORRECT))
    context = await served.call(lambda: referee_context(served, key))
    return served.page(request, "referee_match.html", token=token, errors={}, **context)


async def correct_form(request: Request) -> Response:
    served = site(request)
    key = request.path_params["key"]
    fields = await form_of(request)
    token = form_token(fields)
    await served.call(lambda: served.need(token, Grant.may_correct, CORRECT))
    action = str(fields.get("action", ""))
    target_text = str(fields.get("target", ""))
    entry = Entry.from_fields({**fields, "kind": "penalty"} if action == "penalty" else fields)
    try:
        if target_text and not target_text.isdigit():
            raise FieldError("target", "choose the entry by its number")
        await served.call(
            lambda: apply_correction(
                served.app,
                key,
                action,
                target=int(target_text) if target_text else None,
                entry=entry if entry.kind else None,
                by=str(fields.get("by", "")),
                reason=str(fields.get("reason", "")),
                client_key=str(fields.get("client_key", "")) or None,
            )
        )
    except HonbaError as exc:
        context = await served.call(lambda: referee_context(served, key))
        field = exc.field if isinstance(exc, FieldError) else "action"
        return served.page(request, "referee_match.html", 400, token=token, errors={field: str(exc)}, **context)
    target = request.url_for("referee_match", key=key).include_query_params(token=token or "")
    return RedirectResponse(str(target), status_code=303)


ROUTES = [
    Route("/referee", referee_page),
    Route("/referee/m/{key:path}/correct", correct_form, methods=["POST"]),
    Route("/referee/m/{key:path}", referee_match, name="referee_match"),
]
