"""Public pages beyond one tournament's standings: the whole event under other rules (what-if),
ratings across events with each player's history, and signed results (download, verify; the
director signs from the tournament's page).

Each route reads its request, calls one use case of ``replay.service`` and renders what it
returns; the charts are ``replay.html``'s.
"""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.datastructures import UploadFile
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from domain.bounds import clipped
from domain.errors import HonbaError
from domain.rules import preset_names
from replay.html.ratings import ratings_chart_svg
from replay.input.parsing import InputError, parse_override
from replay.service.common.access import Grant
from replay.service.common.errors import TournamentNotFound
from replay.service.common.rules import resolve_rules
from replay.service.director import certificates
from replay.service.director.ratings import SYSTEMS, ratings_data
from replay.service.director.what_if import TIE_BREAKS, what_if_data
from replay.service.tournaments.tournaments import check_tournament, holds_tournament
from replay.web.director import RUN, show_tournament
from replay.web.site import form_of, form_token, see_other, site

# The most a key or a certificate sent may weigh (a key is a few hundred bytes; a certificate of a
# 64-table event some tens of kilobytes): both together well within the body a request may have
# (``replay.web.limits.MOST_BODY``), so that a file too large is refused by name.
MOST_KEY_BYTES = 16 * 1024
MOST_CERTIFICATE_BYTES = 512 * 1024


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
        data, error = None, clipped(str(exc))  # one line, as every refusal (Site.page clips a form's)
    status = 400 if error else 200
    context = {"name": name, "data": data, "asked": asked, "error": error, "presets": preset_names()}
    return served.page(request, "what_if.html", status, tie_breaks=TIE_BREAKS, **context)


def _system(request: Request) -> str:
    system = request.query_params.get("system", "openskill")
    if system not in SYSTEMS:
        raise InputError(f"?system= is {' or '.join(SYSTEMS)}, not {system!r}")
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


async def certificate_download(request: Request) -> Response:
    """The organiser's signed certificate of a tournament's result, as its JSON file."""
    served = site(request)
    name = request.path_params["name"]
    certificate = await served.call(lambda: certificates.stored_certificate(served.app, name))
    if certificate is None:
        return served.error(request, 404, f"{name!r} has no signed result yet")
    filename = re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") or "tournament"
    headers = {"Content-Disposition": f'attachment; filename="{filename}.cert.json"'}
    body = json.dumps(certificate, ensure_ascii=False, indent=2) + "\n"
    return Response(body, media_type="application/json", headers=headers)


async def _upload(request: Request, field: str, most: int, *, required: bool = True) -> bytes | None:
    """A file sent with a form (after ``form_of``'s checks, which read the form once), at most ``most`` bytes."""
    sent = (await request.form()).get(field)
    if not isinstance(sent, UploadFile) or not sent.filename:
        if required:
            raise InputError(f"choose the file to send ({field})")
        return None
    data = await sent.read(most + 1)
    if len(data) > most:
        raise InputError(f"the {field} file is larger than {most // 1024} KiB: not one honba made")
    return data


async def certify_form(request: Request) -> Response:
    """The director signs the tournament's result with the organiser's key (sent, used, kept nowhere)."""
    served = site(request)
    name = request.path_params["name"]
    fields = await form_of(request, files=1)
    token = form_token(fields)
    await served.call(lambda: served.need(token, Grant.may_direct, RUN))
    assert token is not None
    try:
        key = await _upload(request, "key", MOST_KEY_BYTES)
        assert key is not None
        await served.refreshed()
        await served.call(lambda: certificates.certify_tournament(served.app, served.view, name, key))
    except HonbaError as exc:
        return await show_tournament(request, name, token, 400, {"certificate": str(exc)})
    return see_other(request, "director_tournament", {"token": token}, fragment="certificate", name=name)


async def verify_page(request: Request) -> Response:
    return site(request).page(request, "certificate_verify.html", verdict=None, error="")


async def verify_form(request: Request) -> Response:
    """A certificate sent checked: its signature (with the organiser's public key, when sent) and,
    when this store holds the tournament, everything it certifies against the store."""
    served = site(request)
    await form_of(request, files=2)
    try:
        sent = await _upload(request, "certificate", MOST_CERTIFICATE_BYTES)
        key = await _upload(request, "key", MOST_KEY_BYTES, required=False)
        assert sent is not None
        await served.refreshed()
        verdict = await served.call(lambda: _verify(served.app, served.view, sent, key))
    except HonbaError as exc:
        return served.page(request, "certificate_verify.html", 400, verdict=None, error=clipped(str(exc)))
    return served.page(request, "certificate_verify.html", verdict=verdict, error="", with_key=key is not None)


def _verify(app: Any, view: Any, sent: bytes, key: bytes | None) -> certificates.Verdict:
    data = certificates.certificate_from_bytes(sent)
    public = certificates.public_key_from_pem(key, "the public key") if key is not None else None
    if not holds_tournament(app, str(data["certificate"].get("tournament", ""))):
        return certificates.verify_certificate(data, public)
    return certificates.verify_certificate(data, public, app, view)


ROUTES = [
    Route("/tournaments/{name}/what-if", what_if_page),
    Route("/tournaments/{name}/certificate", certificate_download),
    Route("/director/t/{name}/certificate", certify_form, methods=["POST"]),
    Route("/certificates/verify", verify_page),
    Route("/certificates/verify", verify_form, methods=["POST"]),
    Route("/ratings", ratings_page),
    Route("/ratings/players/{player}", rating_history_page),
]
