"""Signed results: a tournament's certificate downloaded, the director signing it from the tournament's
page, and anyone's certificate checked (``replay.service.director.certificates`` decides)."""

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
from domain.said import Said
from replay.input.parsing import InputError
from replay.service.common.access import Grant
from replay.service.director import certificates
from replay.web import i18n
from replay.web.director import RUN, show_tournament
from replay.web.site import form_of, form_token, see_other, site

# The most a key or a certificate sent may weigh (a key is a few hundred bytes; a certificate of a
# 64-table event some tens of kilobytes): both together well within the body a request may have
# (``replay.web.limits.MOST_BODY``), so that a file too large is refused by name.
MOST_KEY_BYTES = 16 * 1024
MOST_CERTIFICATE_BYTES = 512 * 1024


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
            raise InputError(Said("choose the file to send ({field})", field=field))
        return None
    data = await sent.read(most + 1)
    if len(data) > most:
        raise InputError(
            Said("the {field} file is larger than {most} KiB: not one honba made", field=field, most=most // 1024)
        )
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
        return await show_tournament(request, name, token, 400, {"certificate": exc.said})
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
        error = clipped(i18n.say(exc.said, served.language(request)))
        return served.page(request, "certificate_verify.html", 400, verdict=None, error=error)
    return served.page(request, "certificate_verify.html", verdict=verdict, error="", with_key=key is not None)


def _verify(app: Any, view: Any, sent: bytes, key: bytes | None) -> certificates.Verdict:
    data = certificates.certificate_from_bytes(sent)
    public = certificates.public_key_from_pem(key, "the public key") if key is not None else None
    return certificates.verify_certificate(data, public, app, lambda: view)


ROUTES = [
    Route("/tournaments/{name}/certificate", certificate_download),
    Route("/director/t/{name}/certificate", certify_form, methods=["POST"]),
    Route("/certificates/verify", verify_page),
    Route("/certificates/verify", verify_form, methods=["POST"]),
]
