"""The table's pages: the stored matches, a table with its one entry form, the confirm step,
recording, the clock, the audit page.

The table page is one form over the one entry model (``replay.service.recording.entry``): its fields are the
entry's names, so the page, the JSON API and the command line stay one model. Without scripts it
is a plain form with a confirm page; ``static/table.js`` shows the confirm step on the page itself
(``/check``, the same reading and the same preview, as JSON) and counts the clock down from the
server's ``remaining_seconds``. What the page offers and what it says (the values that exist,
what an entry pays, what undo takes back, the clock) is the service's (``replay.service.recording.table``).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import Route

from domain.bounds import clipped
from domain.errors import HonbaError
from domain.values import LIMIT_NAMES, AbortKind, PenaltyShare
from replay.html.pages import render_audit_html
from replay.input.tiles import TILE_FIELDS, TILE_FLAGS, HandTiles, hand_tiles_from_fields
from replay.service.audit.audit import report_data
from replay.service.audit.checks import audit_match
from replay.service.recording.clock import match_clock
from replay.service.recording.entry import FLAG_KEYS, Entry, entry_fields, entry_from_fields
from replay.service.recording.matches import stored_matches
from replay.service.recording.recording import ForHand, HandTaken, Recorded, hand_now
from replay.service.recording.table import entry_preview, record_entry, table_view
from replay.service.tournaments.sign_off import sign_off_data, sign_scores
from replay.service.tournaments.standings import read_view
from replay.web import i18n
from replay.web.site import (
    HERE,
    REPLACED_LINK,
    Site,
    field_for,
    for_hand,
    form_of,
    form_token,
    see_other,
    site,
)

# The riichi limits by name (the referee's desk offers them).
LIMITS = LIMIT_NAMES


def table_context(served: Site, key: str, token: str | None, *, ledger: bool = False) -> dict[str, Any]:
    """What the table page shows of the match ``key``; its form when ``token`` may record there;
    with ``ledger``, the ledger as the JSON API gives it besides (``table_view``)."""
    data = table_view(served.app, key, ledger=ledger)
    grant = served.grant(token)
    writable = grant is not None and grant.may_record(key) and not data["finished"]
    # A finished match of an event with a sign-off: where it stands, and the players' form on the table's link.
    sign_off = (
        read_view(served.app, lambda view: sign_off_data(served.app, view, key), view=served.view)
        if data["finished"]
        else None
    )
    signs = sign_off is not None and grant is not None and grant.may_record(key)
    choices = data["choices"]
    return {
        **data,
        # The table's old link, opened again after the director issued a new one: it says so.
        "replaced": REPLACED_LINK if grant is None and served.tokens.replaced(token) == key else None,
        "base": "/matches/" + quote(key, safe=""),
        # The values a button says (a value typed that one of them says is shown on the button).
        "choice_values": {c["value"] for row in choices["rows"] for c in row["choices"]}
        | {c["value"] for c in choices["limits"]},
        "writable": writable,
        "token": token if writable or signs else None,
        "sign_off": sign_off,
        "signs": signs,
        "aborts": [k.value for k in AbortKind],
        "flags": FLAG_KEYS,
        "shares": [s.value for s in PenaltyShare],
        "client_key": str(uuid.uuid4()),
    }


def form_for_hand(fields: Mapping[str, Any]) -> ForHand | None:
    """The hand a form's entry was entered for: its hidden ``expect`` (the hand the page showed),
    or ``after`` (the client key of the entry the page's script sent just before it, kept while
    the phone was offline); None when it names neither (a form of an older page)."""
    return for_hand(_text(fields, "expect"), _text(fields, "after"), None, "expect")


def _text(fields: Mapping[str, Any], name: str) -> str:
    value = fields.get(name)
    return value if isinstance(value, str) else ""


def read_entry(fields: Mapping[str, Any]) -> tuple[Entry, HandTiles | None]:
    """The entry a form describes, and the winning hand's tiles where they are given."""
    entry = entry_from_fields(fields)
    return entry, hand_tiles_from_fields(fields) if entry.kind == "win" else None


def tile_fields(fields: Mapping[str, Any]) -> dict[str, str]:
    """The tile fields a form sent, to send them again from the confirm page."""
    names = (*TILE_FIELDS, *TILE_FLAGS)
    return {name: str(fields[name]) for name in names if isinstance(fields.get(name), str) and fields[name]}


async def index(request: Request) -> Response:
    served = site(request)
    # The one listing ``honba list`` prints: a match whose start row is damaged is listed, flagged.
    matches = await served.call(lambda: stored_matches(served.app))
    return served.page(request, "index.html", matches=matches)


async def table_page(request: Request) -> Response:
    served = site(request)
    key = request.path_params["key"]
    token = request.query_params.get("token")
    context = await served.call(lambda: table_context(served, key, token))
    return served.page(request, "table.html", **context, errors={}, values={})


async def refused(
    request: Request, served: Site, key: str, fields: dict[str, Any], exc: HonbaError, token: str | None
) -> Response:
    """The table page again, the form as it was sent, the refusal next to its field (400)."""
    context = await served.call(lambda: table_context(served, key, token))
    context["client_key"] = str(fields.get("client_key") or context["client_key"])
    errors = {field_for(exc, str(fields.get("kind", ""))): exc.said}
    return served.page(request, "table.html", 400, **context, errors=errors, values=fields)


async def previewed(
    served: Site, key: str, fields: Mapping[str, Any]
) -> tuple[Entry, HandTiles | None, dict[str, Any]]:
    """The entry a form describes, its tiles, and the service's preview of it: what the confirm page
    and the page script's check both show (the token's grant is checked before, apart from the
    form's refusals)."""
    entry, tiles = read_entry(fields)
    expect = form_for_hand(fields)
    return entry, tiles, await served.call(lambda: entry_preview(served.app, key, entry, tiles, expect))


async def preview_form(request: Request) -> Response:
    served = site(request)
    key = request.path_params["key"]
    fields = await form_of(request)
    token = form_token(fields)
    await served.call(lambda: served.may_record(key, token))
    try:
        entry, tiles, shown = await previewed(served, key, fields)
    except HandTaken as exc:
        return await taken(request, served, key, exc, token, wants_json=False)
    except HonbaError as exc:
        return await refused(request, served, key, fields, exc, token)
    sent = {**entry_fields(entry), **(tile_fields(fields) if tiles is not None else {})}
    # The hand it was entered for goes on to the confirm page's form, as tapped.
    sent.update({name: _text(fields, name) for name in ("expect", "after") if _text(fields, name)})
    client_key = str(fields.get("client_key") or uuid.uuid4())
    return served.page(request, "confirm.html", key=key, token=token, preview=shown, fields=sent, client_key=client_key)


async def check_form(request: Request) -> Response:
    """The confirm step as JSON, for the page's script: ``entry_preview``'s data and the clock, or
    ``{"error", "field"}`` (400)."""
    served = site(request)
    key = request.path_params["key"]
    fields = await form_of(request)
    token = form_token(fields)
    await served.call(lambda: served.may_record(key, token))
    try:
        _, _, shown = await previewed(served, key, fields)
    except HandTaken as exc:
        return await taken(request, served, key, exc, token, wants_json=True)
    except HonbaError as exc:
        return refused_json(request, served, exc, fields)
    clock = await served.call(lambda: match_clock(served.app, key))
    # What the service said (a hand, its title) in the page's language.
    return served.json(request, {**shown, "clock": clock})


def refused_json(request: Request, served: Site, exc: HonbaError, fields: Mapping[str, Any]) -> Response:
    """A refusal for the page's script (400): ``{"error" (in the page's language), "field"}``."""
    error = clipped(i18n.say(exc.said, served.language(request)))
    return served.json(request, {"error": error, "field": field_for(exc, str(fields.get("kind", "")))}, 400)


async def record_form(request: Request) -> Response:
    served = site(request)
    key = request.path_params["key"]
    fields = await form_of(request)
    token = form_token(fields)
    grant = await served.call(lambda: served.may_record(key, token))
    client_key = str(fields.get("client_key", "")) or None
    wants_json = "application/json" in request.headers.get("accept", "")
    try:
        entry, tiles = read_entry(fields)
        expect = form_for_hand(fields)
        by = f"table {grant.token_id}"
        done = await served.call(
            lambda: record_entry(served.app, key, entry, tiles, client_key=client_key, by=by, expect=expect)
        )
    except HandTaken as exc:
        return await taken(request, served, key, exc, token, wants_json)
    except HonbaError as exc:
        if wants_json:
            return refused_json(request, served, exc, fields)
        return await refused(request, served, key, fields, exc, token)
    if wants_json:
        # The page's script (an entry sent from its queue): the hand the table is at now.
        return served.json(request, {"match": key, "hand": hand_now_of(done), "version": done.version})
    # Post, redirect, get: a reload of the page after recording asks for nothing again.
    return see_other(request, "table", {"token": token or ""}, key=key)


def hand_now_of(done: Recorded) -> str:
    """The hand the table is at after an entry (``end`` once the match has ended)."""
    return hand_now(done.state)


async def taken(
    request: Request, served: Site, key: str, exc: HandTaken, token: str | None, wants_json: bool
) -> Response:
    """An entry for a hand already taken (409): as JSON for the page's script, ``{"error", "field":
    "expect", "hand" (the table's now), "recorded"}``; else the table page as it now stands, the
    refusal at its top (what was recorded instead), for the table to see."""
    if wants_json:
        body = {"error": exc.said, "field": "expect", "hand": exc.hand, "recorded": list(exc.recorded)}
        return served.json(request, body, 409)
    context = await served.call(lambda: table_context(served, key, token))
    return served.page(request, "table.html", 409, **context, errors={}, values={}, taken=exc.said)


async def sign_form(request: Request) -> Response:
    """A player confirms the finished match's final scores (``agreed=yes``) or disputes them
    (``agreed=no``, with a ``note``): the sign-off (``replay.service.tournaments.sign_off``); then the table page."""
    served = site(request)
    key = request.path_params["key"]
    fields = await form_of(request)
    token = form_token(fields)
    await served.call(lambda: served.may_record(key, token))
    player = _text(fields, "player")
    agreed = _text(fields, "agreed") != "no"
    # Only a player of the match signs here (the referee's signature is a flag the desk sets, never
    # a name), so a player called "referee" signs for themselves.
    try:
        await served.refreshed()
        await served.call(
            lambda: read_view(
                served.app,
                lambda view: sign_scores(served.app, view, key, player, agreed=agreed, note=_text(fields, "note")),
                view=served.view,
            )
        )
    except HonbaError as exc:
        context = await served.call(lambda: table_context(served, key, token))
        return served.page(request, "table.html", 400, **context, errors={"sign": exc.said}, values={})
    return see_other(request, "table", {"token": token or ""}, fragment="sign-off", key=key)


async def clock_json(request: Request) -> Response:
    """A match's clock now, by the server's time (``clock_data``): what the page counts down from."""
    served = site(request)
    key = request.path_params["key"]
    return served.json(request, await served.call(lambda: match_clock(served.app, key)))


async def audit_page(request: Request) -> Response:
    served = site(request)
    key = request.path_params["key"]
    language = served.language(request)
    return HTMLResponse(
        await served.call(lambda: render_audit_html(report_data(audit_match(served.app, key)), language))
    )


async def service_worker(_request: Request) -> Response:
    """The table page's service worker (``static/sw.js``), served at the site's root so that its
    scope covers the table pages: they open again without a connection (on HTTPS or localhost)."""
    return FileResponse(HERE / "static" / "sw.js", media_type="text/javascript", headers={"Cache-Control": "no-cache"})


ROUTES = [
    Route("/", index),
    Route("/sw.js", service_worker),
    Route("/matches/{key}/preview", preview_form, methods=["POST"]),
    Route("/matches/{key}/check", check_form, methods=["POST"]),
    Route("/matches/{key}/record", record_form, methods=["POST"]),
    Route("/matches/{key}/clock", clock_json),
    Route("/matches/{key}/sign", sign_form, methods=["POST"]),
    Route("/matches/{key}/audit", audit_page),
    Route("/matches/{key}", table_page, name="table"),
]
