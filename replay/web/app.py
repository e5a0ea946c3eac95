"""The web front end of ``honba serve``: pages for the tables, the public and the referee, and a JSON API.

Presentation only: every decision (what a hand pays, whether an entry is valid, who may
write) is made by the service (``replay.service.entry``, ``replay.service.access``,
``replay.tournaments``) and the domain below it; this module reads requests, calls
them, and renders their plain data through Jinja2 templates, which escape every value.

Writes need a token (``honba token create``): pages take it from the table link's
``?token=`` and send it back in a hidden field; the JSON API takes it as
``Authorization: Bearer TOKEN``. Forms also carry a CSRF token that must match the
``honba_csrf`` cookie (double submit), and each form carries a client key, so a double
tap, a reload or a retry records once.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import secrets
import threading
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import attrs
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from domain.errors import HonbaError, WinnerIsDiscarder
from domain.rules import preset_names
from domain.values import WIND_NAMES, AbortKind
from projections.ledger import corrected_ledger
from replay.app import HonbaApp, MatchNotFound, StoreConflict
from replay.formats.record import entry_numbers
from replay.service.access import Grant, TokenStore
from replay.service.director import corrections_data, create_tournament, seat_session, tournament_data
from replay.service.entry import Entry, FieldError, apply_correction, apply_entry, payment_lines, preview
from replay.service.shapes import ledger_data, seat_wind, state_data
from replay.service.standings import standings_data
from replay.tournaments import TournamentNotFound, catch_up, open_view, tournament_report

HERE = Path(__file__).parent
CSRF_COOKIE = "honba_csrf"
# How often the live standings look at the store's notification log (another server process may have written).
POLL_SECONDS = 0.5
# Polls between two keep-alive comments on a quiet standings stream (15 seconds).
KEEPALIVE = 30
LIMITS = ("mangan", "haneman", "baiman", "sanbaiman", "yakuman")
FU = (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110)
# Headers on every page: no framing, no referrer to other sites (table links carry their token; a form post
# still names its origin, which the CSRF check reads), scripts only our own.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; frame-ancestors 'none'",
    "Referrer-Policy": "same-origin",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}

T = TypeVar("T")


class Forbidden(Exception):
    """A write without the right token (403)."""


class Served:
    """What the server holds for its life: the store, its tokens, the standings view."""

    def __init__(self, db: str | None):
        self.app = HonbaApp.open(db)
        self.tokens = TokenStore(self.app)
        self.view = open_view(self.app)
        sqlite = self.app.env.get("PERSISTENCE_MODULE") != "eventsourcing.postgres"
        # SQLite takes one writer at a time: the server's threads take turns (other processes are
        # handled by the store's optimistic saves and the client keys).
        self._lock: threading.Lock | None = threading.Lock() if sqlite else None
        self._view_lock = threading.Lock()
        self.position = 0

    def run(self, call: Callable[[], T]) -> T:
        if self._lock is None:
            return call()
        with self._lock:
            return call()

    def refresh_view(self) -> int:
        """Fold what is new in the notification log into the standings view (written by any process)."""
        with self._view_lock:
            self.run(lambda: catch_up(self.app, self.view))
            self.position = self.view.max_tracking_id(self.app.name) or 0
            return self.position


def _templates() -> Environment:
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["points"] = lambda v: f"{v:,}" if isinstance(v, int) else v
    env.filters["signed"] = lambda v: f"{v:+,}" if isinstance(v, int) else v
    return env


def create_app(db: str | None) -> Starlette:
    """The ASGI application over the store named by ``db`` (see ``replay.app.persistence_env``)."""
    served = Served(db)
    templates = _templates()

    def page(request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        csrf = request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(24)
        html = templates.get_template(template).render(csrf=csrf, **context)
        response = HTMLResponse(html, status_code=status)
        response.set_cookie(CSRF_COOKIE, csrf, httponly=True, samesite="strict", path="/")
        return response

    async def call(fn: Callable[[], T]) -> T:
        return await run_in_threadpool(served.run, fn)

    async def form_of(request: Request) -> dict[str, Any]:
        """The form's fields (lists for the repeated ones), after the CSRF check."""
        form = await request.form()
        fields: dict[str, Any] = {}
        for name in form:
            values = [str(v) for v in form.getlist(name)]
            fields[name] = values if name in ("riichi", "ready", "nagashi") else values[-1]
        cookie = request.cookies.get(CSRF_COOKIE, "")
        sent = str(fields.get("csrf", ""))
        if not cookie or not hmac.compare_digest(cookie, sent) or not _same_origin(request):
            raise Forbidden("this form was not sent from this site's page (reload the page and try again)")
        return fields

    def grant_of(token: str | None) -> Grant | None:
        return served.tokens.check(token)

    def bearer(request: Request) -> str | None:
        header = request.headers.get("authorization", "")
        return header[7:].strip() if header.lower().startswith("bearer ") else None

    def table_context(key: str, token: str | None) -> dict[str, Any]:
        match = served.app.get_match(key)
        players = match.players
        state = match.state
        entries = corrected_ledger(match.corrected_steps())
        grant = grant_of(token)
        writable = grant is not None and grant.may_record(key) and not state.finished
        seats = [
            {"seat": i, "name": p, "wind": seat_wind(i, state), "score": s, "dealer": i == state.dealer}
            for i, (p, s) in enumerate(zip(players, state.scores, strict=True))
        ]
        return {
            "key": key,
            "players": list(players),
            "state": state_data(players, state, match.rules),
            "seats": seats,
            "round": WIND_NAMES[state.round_wind % 4],
            "ledger": ledger_data(players, entries, entry_numbers(match)),
            "lines": [payment_lines(e, players) for e in entries],
            "head": match.head,
            "rules": match.rules.name,
            "writable": writable,
            "token": token if writable else None,
            "limits": LIMITS,
            "fu": FU,
            "aborts": [k.value for k in AbortKind],
            "client_key": str(uuid.uuid4()),
        }

    async def index(request: Request) -> Response:
        matches = await call(lambda: list(served.app.list_matches()))
        return page(request, "index.html", matches=[m for m in matches if not m.damaged])

    async def table_page(request: Request) -> Response:
        key = request.path_params["key"]
        token = request.query_params.get("token")
        context = await call(lambda: table_context(key, token))
        return page(request, "table.html", **context, errors={}, values={}, open="win")

    def _check_write(key: str, token: str | None, entry: Entry) -> Grant:
        grant = grant_of(token)
        if grant is None or not grant.may_record(key):
            raise Forbidden("this link may not enter results at this table")
        return grant

    async def preview_form(request: Request) -> Response:
        key = request.path_params["key"]
        fields = await form_of(request)
        token = str(fields.get("token", "")) or None
        entry = Entry.from_fields(fields)
        await call(lambda: _check_write(key, token, entry))
        try:
            shown = await call(lambda: preview(served.app, key, entry))
        except HonbaError as exc:
            context = await call(lambda: table_context(key, token))
            field = _field_for(exc, entry.kind)
            context["client_key"] = str(fields.get("client_key") or context["client_key"])
            return page(
                request, "table.html", status=400, **context, errors={field: str(exc)}, values=fields, open=entry.kind
            )
        return page(
            request,
            "confirm.html",
            key=key,
            token=token,
            preview=shown,
            fields=entry.fields(),
            client_key=str(fields.get("client_key") or uuid.uuid4()),
        )

    async def record_form(request: Request) -> Response:
        key = request.path_params["key"]
        fields = await form_of(request)
        token = str(fields.get("token", "")) or None
        entry = Entry.from_fields(fields)
        grant = await call(lambda: _check_write(key, token, entry))
        client_key = str(fields.get("client_key", "")) or None
        try:
            await call(lambda: apply_entry(served.app, key, entry, client_key=client_key, by=f"table {grant.token_id}"))
        except HonbaError as exc:
            context = await call(lambda: table_context(key, token))
            field = _field_for(exc, entry.kind)
            return page(
                request, "table.html", status=400, **context, errors={field: str(exc)}, values=fields, open=entry.kind
            )
        # Post, redirect, get: a reload of the page after recording asks for nothing again.
        target = request.url_for("table", key=key).include_query_params(token=token or "")
        return RedirectResponse(str(target), status_code=303)

    async def match_json(request: Request) -> Response:
        key = request.path_params["key"]

        def data() -> dict[str, Any]:
            context = table_context(key, None)
            return {
                "match": key,
                "rules": context["rules"],
                "players": context["players"],
                **context["state"],
                "ledger": context["ledger"],
                "head": context["head"],
            }

        return JSONResponse(await call(data))

    async def json_body(request: Request) -> dict[str, Any]:
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            raise HonbaError("send the entry as JSON (Content-Type: application/json)")
        try:
            body = json.loads(await request.body())
        except (ValueError, UnicodeDecodeError):
            raise HonbaError("the request body is not JSON") from None
        if not isinstance(body, dict):
            raise HonbaError("the request body is a JSON object of the entry's fields")
        return body

    async def preview_json(request: Request) -> Response:
        key = request.path_params["key"]
        body = await json_body(request)
        entry = Entry.from_fields(body)
        await call(lambda: _check_write(key, bearer(request), entry))
        shown = await call(lambda: preview(served.app, key, entry))
        return JSONResponse({"match": key, "lines": list(shown.lines), "scores_after": shown.scores_after})

    async def record_json(request: Request) -> Response:
        key = request.path_params["key"]
        body = await json_body(request)
        entry = Entry.from_fields(body)
        grant = await call(lambda: _check_write(key, bearer(request), entry))
        client_key = str(body.get("client_key") or "") or None

        def run() -> dict[str, Any]:
            match = apply_entry(served.app, key, entry, client_key=client_key, by=f"table {grant.token_id}")
            return {"match": key, **state_data(match.players, match.state, match.rules), "head": match.head}

        return JSONResponse(await call(run))

    def standings_context(name: str, after: int | None) -> dict[str, Any]:
        from replay.html.pages import standings_chart_svg

        data = standings_data(tournament_report(served.view, name, after_session=after))
        return {"data": data, "chart": standings_chart_svg(data), "after": after}

    def _after(request: Request) -> int | None:
        text = request.query_params.get("after", "")
        if not text:
            return None
        if not text.isdigit():
            raise HonbaError(f"?after= takes a session number, not {text!r}")
        return int(text)

    async def standings_page(request: Request) -> Response:
        name = request.path_params["name"]
        after = _after(request)
        await run_in_threadpool(served.refresh_view)
        context = await call(lambda: standings_context(name, after))
        return page(request, "standings.html", name=name, **context)

    async def find_tournament(request: Request) -> Response:
        name = request.query_params.get("name", "").strip()
        if not name:
            raise HonbaError("name the tournament")
        return RedirectResponse(str(request.url_for("standings", name=name)), status_code=303)

    async def standings_json(request: Request) -> Response:
        name = request.path_params["name"]
        after = _after(request)
        await run_in_threadpool(served.refresh_view)
        return JSONResponse(
            await call(lambda: standings_data(tournament_report(served.view, name, after_session=after)))
        )

    async def standings_events(request: Request) -> Response:
        """Server-sent events: the standings section again whenever the store has moved on."""
        name = request.path_params["name"]
        after = _after(request)
        fragment = templates.get_template("standings_section.html")

        async def stream() -> AsyncIterator[str]:
            seen = -1
            last = ""
            quiet = 0
            while not await request.is_disconnected():
                position = await run_in_threadpool(served.refresh_view)
                if position != seen:
                    seen = position
                    context = await call(lambda: standings_context(name, after))
                    html = fragment.render(name=name, **context)
                    if html != last:
                        last = html
                        quiet = 0
                        yield "event: standings\ndata: " + json.dumps({"html": html, "position": position}) + "\n\n"
                quiet += 1
                if quiet % KEEPALIVE == 0:
                    # A comment now and then keeps proxies from closing a quiet stream and tells a gone client.
                    yield ": still here\n\n"
                await asyncio.sleep(POLL_SECONDS)

        headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    # The director and the referee.

    def need(token: str | None, allowed: Callable[[Grant], bool], what: str) -> Grant:
        grant = grant_of(token)
        if grant is None or not allowed(grant):
            raise Forbidden(f"this link may not {what}")
        return grant

    async def director_page(request: Request) -> Response:
        token = request.query_params.get("token")
        await call(lambda: need(token, Grant.may_direct, "run tournaments"))
        return page(request, "director.html", token=token, errors={}, values={})

    async def create_tournament_form(request: Request) -> Response:
        fields = await form_of(request)
        token = str(fields.get("token", "")) or None
        await call(lambda: need(token, Grant.may_direct, "run tournaments"))
        name = str(fields.get("name", "")).strip()
        players = str(fields.get("players", "")).splitlines()
        try:
            await call(lambda: create_tournament(served.app, name, players))
        except HonbaError as exc:
            return page(request, "director.html", 400, token=token, errors={"name": str(exc)}, values=fields)
        return _to_tournament(request, name, token)

    def _to_tournament(request: Request, name: str, token: str | None) -> Response:
        target = request.url_for("director_tournament", name=name).include_query_params(token=token or "")
        return RedirectResponse(str(target), status_code=303)

    async def director_tournament(request: Request) -> Response:
        name = request.path_params["name"]
        token = request.query_params.get("token")
        await call(lambda: need(token, Grant.may_direct, "run tournaments"))
        data = await call(lambda: tournament_data(served.app, name))
        return page(request, "director_tournament.html", t=data, token=token, errors={}, presets=preset_names())

    async def add_players_form(request: Request) -> Response:
        name = request.path_params["name"]
        fields = await form_of(request)
        token = str(fields.get("token", "")) or None
        await call(lambda: need(token, Grant.may_direct, "run tournaments"))
        await call(lambda: create_tournament(served.app, name, str(fields.get("players", "")).splitlines()))
        return _to_tournament(request, name, token)

    async def seat_form(request: Request) -> Response:
        name = request.path_params["name"]
        fields = await form_of(request)
        token = str(fields.get("token", "")) or None
        await call(lambda: need(token, Grant.may_direct, "run tournaments"))
        session_text, seed_text = str(fields.get("session", "")), str(fields.get("seed", "")).strip()
        try:
            if not session_text.isdigit() or (seed_text and not seed_text.isdigit()):
                raise HonbaError("the session and the seed are whole numbers")
            session = int(session_text)
            tables, met = await call(
                lambda: seat_session(
                    served.app,
                    served.tokens,
                    name,
                    session,
                    method=str(fields.get("method", "fewest-repeats")),
                    rules=str(fields.get("rules", "tenhou")),
                    seed=int(seed_text) if seed_text else None,
                )
            )
        except HonbaError as exc:
            data = await call(lambda: tournament_data(served.app, name))
            return page(
                request,
                "director_tournament.html",
                400,
                t=data,
                token=token,
                errors={"session": str(exc)},
                presets=preset_names(),
            )
        shown = []
        for table in tables:
            link = str(request.url_for("table", key=table.match).include_query_params(token=table.token))
            shown.append({**attrs.asdict(table), "link": link, "qr": qr_svg(link)})
        return page(request, "seated.html", name=name, session=session, tables=shown, repeats=met, token=token)

    async def referee_page(request: Request) -> Response:
        token = request.query_params.get("token")
        await call(lambda: need(token, Grant.may_correct, "correct matches"))

        def rows() -> list[dict[str, Any]]:
            found = []
            for summary in served.app.list_matches():
                if summary.damaged:
                    continue
                count = len(served.app.get_match(summary.key).correction_log)
                found.append({"key": summary.key, "players": summary.players, "corrections": count})
            return found

        return page(request, "referee.html", matches=await call(rows), token=token)

    def referee_context(key: str) -> dict[str, Any]:
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
        key = request.path_params["key"]
        token = request.query_params.get("token")
        await call(lambda: need(token, Grant.may_correct, "correct matches"))
        context = await call(lambda: referee_context(key))
        return page(request, "referee_match.html", token=token, errors={}, **context)

    async def correct_form(request: Request) -> Response:
        key = request.path_params["key"]
        fields = await form_of(request)
        token = str(fields.get("token", "")) or None
        await call(lambda: need(token, Grant.may_correct, "correct matches"))
        action = str(fields.get("action", ""))
        target_text = str(fields.get("target", ""))
        entry = Entry.from_fields({**fields, "kind": "penalty"} if action == "penalty" else fields)
        try:
            if target_text and not target_text.isdigit():
                raise FieldError("target", "choose the entry by its number")
            await call(
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
            context = await call(lambda: referee_context(key))
            field = exc.field if isinstance(exc, FieldError) else "action"
            return page(request, "referee_match.html", 400, token=token, errors={field: str(exc)}, **context)
        target = request.url_for("referee_match", key=key).include_query_params(token=token or "")
        return RedirectResponse(str(target), status_code=303)

    async def audit_page(request: Request) -> Response:
        key = request.path_params["key"]

        def render() -> str:
            from replay.audit import build_report, report_data
            from replay.html.pages import render_audit_html
            from replay.integrity import check_match, read_store_chain

            match = served.app.get_match(key)
            integrity = check_match(served.app, match.id, key, read_store_chain(served.app))
            return render_audit_html(report_data(build_report(match, integrity)))

        return HTMLResponse(await call(render))

    async def not_found(request: Request, exc: Exception) -> Response:
        return _error(request, 404, "No such page.")

    async def refused(request: Request, exc: Exception) -> Response:
        return _error(request, 403, str(exc) or "Not allowed.")

    async def honba_error(request: Request, exc: Exception) -> Response:
        status = 404 if isinstance(exc, MatchNotFound | TournamentNotFound) else 400
        if isinstance(exc, StoreConflict):
            status = 409  # other tables kept saving at the same moment: the same request again records once
        return _error(request, status, str(exc))

    async def internal(request: Request, exc: Exception) -> Response:
        # Never the exception's text: it may name the database or its password.
        return _error(request, 500, "Something went wrong on the server; nothing was recorded by this request.")

    def _error(request: Request, status: int, message: str) -> Response:
        if request.url.path.startswith("/api/"):
            return JSONResponse({"error": message}, status_code=status)
        return page(request, "error.html", status=status, status_code=status, message=message)

    routes = [
        Route("/", index),
        Route("/matches/{key:path}/preview", preview_form, methods=["POST"]),
        Route("/matches/{key:path}/record", record_form, methods=["POST"]),
        Route("/matches/{key:path}/audit", audit_page),
        Route("/matches/{key:path}", table_page, name="table"),
        Route("/tournaments/{name}/events", standings_events),
        Route("/tournaments", find_tournament),
        Route("/tournaments/{name}", standings_page, name="standings"),
        Route("/director", director_page),
        Route("/director/tournaments", create_tournament_form, methods=["POST"]),
        Route("/director/t/{name}/players", add_players_form, methods=["POST"]),
        Route("/director/t/{name}/sessions", seat_form, methods=["POST"]),
        Route("/director/t/{name}", director_tournament, name="director_tournament"),
        Route("/referee", referee_page),
        Route("/referee/m/{key:path}/correct", correct_form, methods=["POST"]),
        Route("/referee/m/{key:path}", referee_match, name="referee_match"),
        Route("/api/matches/{key:path}/preview", preview_json, methods=["POST"]),
        Route("/api/matches/{key:path}/entries", record_json, methods=["POST"]),
        Route("/api/matches/{key:path}", match_json),
        Route("/api/tournaments/{name}/standings", standings_json),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    handlers: Mapping[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        404: not_found,
        Forbidden: refused,
        HonbaError: honba_error,
        Exception: internal,
    }

    @contextlib.asynccontextmanager
    async def lifespan(_web: Starlette) -> AsyncIterator[None]:
        yield
        served.app.close()

    web = Starlette(routes=routes, exception_handlers=dict(handlers), lifespan=lifespan)
    web.state.served = served
    web.add_middleware(_SecurityHeaders)
    return web


class _SecurityHeaders:
    """Adds ``SECURITY_HEADERS`` to every response."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, partial(sending))


def _same_origin(request: Request) -> bool:
    """A form post's Origin (when the browser sends one) is this server's own."""
    origin = request.headers.get("origin")
    if origin is None or origin == "null":
        return origin is None
    host = request.headers.get("host", "")
    return origin.split("://", 1)[-1] == host


def qr_svg(text: str) -> str:
    """A QR code of ``text`` as an inline ``<svg>`` (qrcode's SVG path image: no Pillow needed)."""
    import qrcode
    import qrcode.image.svg

    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathImage, box_size=8)
    svg: str = image.to_string(encoding="unicode")
    return svg.replace("<svg ", '<svg role="img" aria-label="QR code of the table link" ', 1)


def _field_for(exc: HonbaError, kind: str) -> str:
    """Where a refusal is shown: next to the field it names; a rule's refusal of a win on the
    winner's own discard next to the discarder, any other next to the win's value, else by the
    form's button."""
    if isinstance(exc, FieldError):
        return exc.field
    if isinstance(exc, WinnerIsDiscarder):
        return "discarder"
    return "value" if kind == "win" else kind
