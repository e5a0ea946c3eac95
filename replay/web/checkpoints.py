"""Signed checkpoints served: the latest and earlier ones, witnesses' cosignatures taken, the
consistency proof between two sizes, and a match's receipt (``replay.service.audit.proofs``).

The notes and the cosignatures are plain text (``text/plain``): what a witness or a client reads;
their refusals are one line of text too. The consistency proof is JSON, under ``/api/``.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from domain.bounds import TREE_SIZE
from domain.errors import HonbaError
from domain.store_errors import MatchNotFound
from replay.service.audit.proofs import CheckpointNotSigned, ProofFailed, consistency, match_receipt, published_note
from replay.service.audit.witnesses import WitnessUnknown, accept_cosignature, cosignature_line
from replay.web.site import number, query_number, site

NOTE_TYPE = "text/plain; charset=utf-8"


def _refusal(exc: HonbaError) -> Response:
    status = (
        404 if isinstance(exc, CheckpointNotSigned | MatchNotFound) else 403 if isinstance(exc, WitnessUnknown) else 400
    )
    return PlainTextResponse(" ".join(str(exc).split())[:300] + "\n", status_code=status)


async def latest_note(request: Request) -> Response:
    served = site(request)
    try:
        note = await served.call(lambda: published_note(served.app))
    except HonbaError as exc:
        return _refusal(exc)
    return PlainTextResponse(note, media_type=NOTE_TYPE, headers={"Cache-Control": "no-cache"})


async def note_of_size(request: Request) -> Response:
    served = site(request)
    try:
        size = number(request.path_params["size"], TREE_SIZE)
        note = await served.call(lambda: published_note(served.app, size))
    except HonbaError as exc:
        return _refusal(exc)
    return PlainTextResponse(note, media_type=NOTE_TYPE)


async def cosignature(request: Request) -> Response:
    """A witness posts its cosignature line (text) of the checkpoint of that size: kept only from a
    witness key the organiser configured (``honba serve --witness``) and only when it verifies."""
    served = site(request)
    body = await request.body()
    try:
        size = number(request.path_params["size"], TREE_SIZE)
        line = cosignature_line(body)
        name = await served.call(lambda: accept_cosignature(served.app, size, line, served.witnesses))
    except HonbaError as exc:
        return _refusal(exc)
    return PlainTextResponse(f"cosignature of {name} kept for the checkpoint of {size} leaves\n", status_code=201)


async def consistency_json(request: Request) -> Response:
    served = site(request)
    old = query_number(request, "old", TREE_SIZE)
    new = query_number(request, "new", TREE_SIZE)
    if old is None or new is None:
        return served.error(request, 400, "give the two tree sizes: ?old=N&new=M")
    proof = await served.call(lambda: consistency(served.app, old, new))
    return JSONResponse({"old": old, "new": new, "proof": proof})


async def receipt_json(request: Request) -> Response:
    """A match's receipt, to download (``honba proof check`` verifies it)."""
    served = site(request)
    key = request.path_params["key"]
    try:
        receipt: dict[str, Any] = await served.call(lambda: match_receipt(served.app, key))
    except ProofFailed as exc:  # not in a signed checkpoint yet, or the store's check of it fails
        return served.error(request, 409, str(exc))
    filename = "".join(c if c.isalnum() or c in "-_." else "_" for c in key)[:80] or "match"
    return JSONResponse(receipt, headers={"Content-Disposition": f'attachment; filename="{filename}.receipt.json"'})


ROUTES = [
    Route("/checkpoints/latest", latest_note),
    Route("/checkpoints/{size}", note_of_size),
    Route("/checkpoints/{size}/cosignatures", cosignature, methods=["POST"]),
    Route("/api/checkpoints/consistency", consistency_json),
    Route("/matches/{key}/receipt", receipt_json, name="receipt"),
]
