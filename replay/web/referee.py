"""The referee's desk: every match with its corrections; one match's corrections and entries, and correcting
it (amend, void, add a penalty, end early, reopen), each through a confirm step that shows what it changes,
and after it is stored, what it did."""

from __future__ import annotations

import contextlib
import uuid
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from domain.bounds import ENTRY
from domain.errors import HonbaError
from domain.values import AbortKind, PenaltyShare
from replay.html.words import N_
from replay.service.common.access import Grant
from replay.service.recording.changes import change_headline
from replay.service.recording.entry import (
    FLAG_KEYS,
    MAX_WINNERS,
    VALUE_FIELDS,
    CorrectionRequest,
    FieldError,
    apply_correction,
    correction_made,
    correction_preview,
    entry_fields,
    entry_from_fields,
    slot,
)
from replay.service.recording.matches import corrections_summary, referee_data
from replay.service.tournaments.sign_off import disputes, sign_scores
from replay.service.tournaments.standings import read_view
from replay.web.site import Site, form_of, form_token, number, query_number, see_other, site
from replay.web.table import LIMITS

CORRECT = N_("correct matches")


async def referee_page(request: Request) -> Response:
    served = site(request)
    token = request.query_params.get("token")
    await served.call(lambda: served.need(token, Grant.may_correct, CORRECT))

    rows = await served.call(lambda: corrections_summary(served.app))
    await served.refreshed()
    flagged = await served.call(
        lambda: read_view(served.app, lambda view: disputes(served.app, view), view=served.view)
    )
    return served.page(request, "referee.html", matches=rows, token=token, disputes=flagged)


async def referee_sign_form(request: Request) -> Response:
    """The referee confirms a match's final scores (a dispute settled, or a table that did not sign)."""
    served = site(request)
    key = request.path_params["key"]
    fields = await form_of(request)
    token = form_token(fields)
    await served.call(lambda: served.need(token, Grant.may_correct, CORRECT))
    await served.refreshed()
    await served.call(
        lambda: read_view(
            served.app, lambda view: sign_scores(served.app, view, key, None, agreed=True), view=served.view
        )
    )
    return see_other(request, "referee", {"token": token or ""})


def referee_context(served: Site, key: str, amend: int | None = None) -> dict[str, Any]:
    """What the desk shows of the match ``key`` (``replay.service.recording.matches.referee_data``): its
    corrections and its numbered entries; with ``amend``, the entry numbered so as it stands, to
    fill the amendment's form with."""
    data = referee_data(served.app, key, amend)
    if amend is not None:
        data["values"] = {**data["values"], "action": "amend"}
    return {
        **data,
        "amend": amend,
        "limits": LIMITS,
        "aborts": [k.value for k in AbortKind],
        "flags": FLAG_KEYS,
        "shares": [s.value for s in PenaltyShare],
        "value_fields": VALUE_FIELDS,
        "slots": [slot(i) for i in range(MAX_WINNERS)],
        "client_key": str(uuid.uuid4()),
    }


async def referee_match(request: Request) -> Response:
    served = site(request)
    key = request.path_params["key"]
    token = request.query_params.get("token")
    await served.call(lambda: served.need(token, Grant.may_correct, CORRECT))
    amend = query_number(request, "amend", ENTRY)
    done = query_number(request, "done", ENTRY)
    context = await served.call(lambda: referee_context(served, key, amend))
    # After a correction is stored (post, redirect, get): what it did, worked out again from the store.
    change = await served.call(lambda: correction_made(served.app, key, done)) if done is not None else None
    headline = change_headline(change) if change is not None else ""
    return served.page(
        request, "referee_match.html", token=token, errors={}, done=change, done_headline=headline, **context
    )


def desk_request(fields: dict[str, Any]) -> CorrectionRequest:
    """The correction a desk form asks for: an amendment carries the whole entry (its form is
    filled with the entry as it stands), a penalty the penalty added; a void names its entry; a
    reopening and an early end only who and why."""
    action = str(fields.get("action", ""))
    target = str(fields.get("target", "")).strip()
    entry = None
    if action == "amend":
        entry = entry_from_fields(fields)
    elif action == "penalty":
        entry = entry_from_fields({**fields, "kind": "penalty"})
    return CorrectionRequest(
        action,
        number(target, ENTRY, "target") if target else None,
        entry=entry,
        by=str(fields.get("by", "")),
        reason=str(fields.get("reason", "")),
    )


def request_fields(request: CorrectionRequest) -> dict[str, Any]:
    """The fields a confirm step sends back: the correction as read (the entry's fields written out)."""
    fields: dict[str, Any] = {"action": request.action, "by": request.by, "reason": request.reason}
    if request.target is not None:
        fields["target"] = str(request.target)
    if request.entry is not None:
        fields.update(entry_fields(request.entry))
    return fields


async def _refused(
    request: Request, served: Site, key: str, token: str | None, fields: dict[str, Any], exc: HonbaError
) -> Response:
    amend = None
    if fields.get("action") == "amend":
        with contextlib.suppress(HonbaError):
            amend = number(str(fields.get("target", "")), ENTRY, "target")
    context = await served.call(lambda: referee_context(served, key))
    context.update(amend=amend, values=fields)
    # Next to its field in the action's form; by the actions when no such form is shown (no entry to amend).
    shown = fields.get("action") in ("void", "penalty") or amend is not None
    field = exc.field if isinstance(exc, FieldError) and shown else "action"
    return served.page(request, "referee_match.html", 400, token=token, errors={field: exc.said}, **context)


async def correct_preview(request: Request) -> Response:
    """The confirm step of a correction: the entry before and after, the payments and scores that
    change; nothing is stored until it is confirmed."""
    served = site(request)
    key = request.path_params["key"]
    fields = await form_of(request)
    token = form_token(fields)
    await served.call(lambda: served.need(token, Grant.may_correct, CORRECT))
    try:
        asked = desk_request(fields)
        shown = await served.call(lambda: correction_preview(served.app, key, asked))
    except HonbaError as exc:
        return await _refused(request, served, key, token, fields, exc)
    return served.page(
        request,
        "correct_confirm.html",
        key=key,
        token=token,
        shown=shown,
        headline=f"To record: {change_headline(shown)}.",
        fields=request_fields(asked),
        client_key=str(fields.get("client_key") or uuid.uuid4()),
    )


async def correct_form(request: Request) -> Response:
    served = site(request)
    key = request.path_params["key"]
    fields = await form_of(request)
    token = form_token(fields)
    await served.call(lambda: served.need(token, Grant.may_correct, CORRECT))
    client_key = str(fields.get("client_key", "")) or None
    try:
        asked = desk_request(fields)
        done = await served.call(lambda: apply_correction(served.app, key, asked, client_key=client_key))
    except HonbaError as exc:
        return await _refused(request, served, key, token, fields, exc)
    assert done.change is not None  # a correction says what it did
    shown = done.change.correction if done.change.correction is not None else done.change.entry
    return see_other(request, "referee_match", {"token": token or "", "done": str(shown)}, key=key)


ROUTES = [
    Route("/referee", referee_page, name="referee"),
    Route("/referee/m/{key}/sign", referee_sign_form, methods=["POST"]),
    Route("/referee/m/{key}/correct/preview", correct_preview, methods=["POST"]),
    Route("/referee/m/{key}/correct", correct_form, methods=["POST"]),
    Route("/referee/m/{key}", referee_match, name="referee_match"),
]
