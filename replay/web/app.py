"""The web front end of ``honba serve``: pages for the tables, the public and the referee, and a JSON API.

Presentation only: every decision (what a hand pays, whether an entry is valid, who may
write) is made by the service (``replay.service.recording.entry``, ``replay.service.common.access``,
``replay.service.tournaments.tournaments``) and the domain below it; the route modules read requests, call
them, and render their plain data through Jinja2 templates, which escape every value.
This module assembles them: ``table`` (the table's pages), ``standings`` (and what-if),
``director``, ``ratings``, ``certificates`` (signed results), ``referee`` and ``api``, over what
they share in ``site``, with ``limits``'s cap on every request body.

Writes need a token (``honba token create``): pages take it from the table link's
``?token=`` and send it back in a hidden field; the JSON API takes it as
``Authorization: Bearer TOKEN``. Forms also carry a CSRF token that must match the
``honba_csrf`` cookie (double submit), and each form carries a client key, so a double
tap, a reload or a retry records once.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from typing import Any
from urllib.parse import quote

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles

from domain.errors import HonbaError
from domain.store_errors import DamagedMatch, MatchNotFound, StoreConflict, StoreUnavailable, TournamentNotFound
from replay.service.audit.witnesses import witness_keys
from replay.service.director.address import Address
from replay.service.recording.entry import FieldError
from replay.service.recording.recording import HandTaken
from replay.web import api, certificates, checkpoints, director, ratings, referee, standings, table
from replay.web.limits import TooLarge, body_limited
from replay.web.site import HERE, Forbidden, Site, Unavailable, site

# Headers on every page: no framing, no referrer to other sites (table links carry their token; a form post
# still names its origin, which the CSRF check reads), scripts only our own.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; frame-ancestors 'none'",
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}

# The same, as the ASGI messages carry them: encoded once, not at every answer.
_SECURITY_HEADER_BYTES = tuple((name.lower().encode(), value.encode()) for name, value in SECURITY_HEADERS.items())


async def not_found(request: Request, exc: Exception) -> Response:
    """No such page; an address typed with a slash at its end (``/director/``) is sent to the one
    without, by a relative ``Location`` (Starlette's own slash redirect, turned off in ``create_app``,
    builds an absolute one from the client's ``Host``, and a table's token goes with the query)."""
    path = request.url.path
    if request.method in ("GET", "HEAD") and len(path) > 1 and path.endswith("/"):
        # One leading slash whatever was sent: "//evil.example/" must not become "//evil.example".
        bare = "/" + quote(path.strip("/"), safe="/")
        query = request.url.query
        return RedirectResponse(bare + (f"?{query}" if query else ""), status_code=307)
    served = site(request)
    # The site's own words in the request's language (the service's refusals are said by the service).
    return served.error(request, 404, served.words(request).gettext("No such page."))


async def http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own refusals (a method the address does not take, a form it cannot read) in the site's words."""
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:
        return await not_found(request, exc)
    served = site(request)
    words = served.words(request)
    if exc.status_code == 405:
        message = words.gettext("this address does not take a %(method)s request") % {"method": request.method}
    else:
        message = exc.detail if exc.status_code < 500 else words.gettext("Something went wrong on the server.")
    return served.error(request, exc.status_code, message, headers=exc.headers)


async def too_large(request: Request, exc: Exception) -> Response:
    return site(request).error(request, 413, str(exc))


async def refused(request: Request, exc: Exception) -> Response:
    served = site(request)
    words = served.words(request)
    said = exc.said(words) if isinstance(exc, Forbidden) else str(exc)
    return served.error(request, 403, said or words.gettext("Not allowed."))


async def honba_error(request: Request, exc: Exception) -> Response:
    status = 404 if isinstance(exc, MatchNotFound | TournamentNotFound) else 400
    if isinstance(exc, StoreConflict):
        status = 409  # other tables kept saving at the same moment: the same request again records once
    if isinstance(exc, HandTaken):
        status = 409  # entered for a hand another phone recorded: the message says what stands there
    if isinstance(exc, DamagedMatch):
        status = 409  # the stored match cannot be what it shows: the page names the damage (see honba check)
    field = exc.field if isinstance(exc, FieldError) else None
    said = exc.said if isinstance(exc, HonbaError) else str(exc)
    return site(request).error(request, status, said, field)


async def unavailable(request: Request, exc: Exception) -> Response:
    # The store did not answer (a lost connection, a locked file): whatever it did with a write in
    # flight, only it knows; the same request again (with its client key) records once.
    served = site(request)
    message = served.words(request).gettext(
        "the store is unavailable, nothing changed as far as honba knows — try again"
    )
    return served.error(request, 503, message, headers={"Retry-After": "5"})


async def internal(request: Request, exc: Exception) -> Response:
    # Never the exception's text: it may name the database or its password. Nor "nothing was
    # recorded": the server cannot know where it went wrong (after a save, the entry stands).
    served = site(request)
    message = served.words(request).gettext(
        "Something went wrong on the server; reload the page to see what was recorded before sending again."
    )
    # Sent by Starlette's server-error layer, outside the guard that adds the security headers to
    # every other answer: given here.
    return served.error(request, 500, message, headers=SECURITY_HEADERS)


def create_app(db: str | None, address: Address | None = None, *, witnesses: Sequence[str] = ()) -> Starlette:
    """The ASGI application over the store named by ``db`` (see ``replay.store.application.persistence_env``);
    ``address``, where phones open it (``replay.service.director.address.served_address``), starts every table link;
    ``witnesses``: the verifier keys of the witnesses whose cosignatures it keeps (``honba serve --witness``)."""
    keys = witness_keys(witnesses)
    served = Site(db, address)
    served.witnesses = keys
    # The JSON API first: a table's every hand is matched against the routes in order (a regular
    # expression each), and no other route's path takes an address under /api/matches or
    # /api/tournaments (tests/e2e/test_one_read_one_write.py), so the order changes no answer;
    # the API's hand was matched after 47 others (issue 36: 25 us of each hand).
    routes: list[BaseRoute] = [
        *api.ROUTES,
        *checkpoints.ROUTES,
        *table.ROUTES,
        *standings.ROUTES,
        *director.ROUTES,
        *ratings.ROUTES,
        *certificates.ROUTES,
        *referee.ROUTES,
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    handlers: Mapping[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        404: not_found,
        HTTPException: http_error,
        TooLarge: too_large,
        Forbidden: refused,
        StoreUnavailable: unavailable,
        Unavailable: unavailable,
        HonbaError: honba_error,
        Exception: internal,
    }

    @contextlib.asynccontextmanager
    async def lifespan(_web: Starlette) -> AsyncIterator[None]:
        # Before the server listens (uvicorn runs this first): the first tables' hands find it done.
        served.ready()
        served.start_checkpoints()
        # The thread pool's first turn imports the event loop's backend of anyio (lazily, 20 to 30 ms
        # of CPU) and starts a worker thread: taken here, as the server starts, not in the first hand
        # a table sends (issue 36: 0.3 to 0.5 ms of hands 1-60's CPU per hand on PostgreSQL).
        await run_in_threadpool(lambda: None)
        yield
        served.stop_checkpoints()
        served.close()

    web = Starlette(routes=routes, exception_handlers=dict(handlers), lifespan=lifespan)
    # Starlette would answer "/director/" with a redirect to http://<the client's Host>/director.
    web.router.redirect_slashes = False
    web.state.served = served
    web.add_middleware(_Guarded)
    return web


class _Guarded:
    """Every request's body capped (``replay.web.limits.body_limited``: a 413 past ``MOST_BODY``), and
    ``SECURITY_HEADERS`` added to every response. One middleware for both: each layer between the
    server and a route is a call on every request and on every message of its answer (one layer, not
    two: 3,700 instructions of a recorded hand; issue 36, nineteenth round)."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *_SECURITY_HEADER_BYTES]}
            await send(message)

        await self.app(scope, body_limited(scope, receive), sending)
