"""What every page of ``honba serve`` shares: the store the server holds, the templates, the checks of a request.

A route module reads its request, calls the service through ``Site.call`` (one thread of the
server's pool, taking turns on SQLite; a table's recorded hand through ``Site.call_here``, on the
event loop itself on a free SQLite store), and renders plain data with ``Site.page``; the checks
here (the CSRF double submit, the token's grant, a JSON body) raise ``Forbidden`` or a
``HonbaError`` that ``replay.web.app``'s handlers turn into a 403 or a 4xx page.
"""

from __future__ import annotations

import hmac
import json
import secrets
import threading
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote, urlencode

from jinja2 import BytecodeCache, ChoiceLoader, Environment, FileSystemLoader, select_autoescape
from jinja2.bccache import Bucket
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from domain.bounds import KEY, NAME, TEXT, TOURNAMENT, Bound, clipped, shown
from domain.errors import HonbaError, WinnerIsDiscarder, WinnersOnSeveralDiscards
from domain.said import Listed, Said
from domain.store_errors import StoreBusy, StoreUnavailable
from replay.html.templating import TEMPLATES as REPORT_TEMPLATES
from replay.html.templating import add_filters
from replay.html.words import N_, Words, when
from replay.input.json_text import load_json_bytes
from replay.service.audit.checkpoints import checkpoints_kept
from replay.service.audit.witnesses import WitnessKeys
from replay.service.common.access import Grant, TokenStore
from replay.service.common.opening import (
    close_store,
    not_waiting,
    one_writer_at_a_time,
    open_standings_view,
    open_store,
    ready_to_serve,
    store_answering,
)
from replay.service.common.shapes import end_reason_said
from replay.service.director.address import Address
from replay.service.recording.entry import VALUE_FIELDS, FieldError, is_list_field, whole_number
from replay.service.recording.recording import ForHand
from replay.service.tournaments.standings import read_view, view_position
from replay.web import i18n
from replay.web.hand_threads import HandThreads
from replay.web.limits import DEEPEST_JSON, MOST_FIELDS

HERE = Path(__file__).parent
CSRF_COOKIE = "honba_csrf"

T = TypeVar("T")


class Forbidden(Exception):
    """A write without the right token (403). Its message is the catalogue's (``N_``-marked, with its
    ``%(name)s`` places), said in the request's language where it is shown (``said``); ``str`` of it
    is the English."""

    def __init__(self, message: str, **values: str) -> None:
        super().__init__(message % values)
        self.message = message
        self.values = values

    def said(self, words: Words) -> str:
        """The refusal in the language of ``words`` (its values too, where the catalogue has them)."""
        return words.gettext(self.message) % {name: words.gettext(value) for name, value in self.values.items()}


# What the old link of a table says once the director has issued the table's link again.
REPLACED_LINK = N_(
    "this table's link was issued again: this one no longer enters results (ask the director for the new link)"
)


class Unavailable(Exception):
    """The store did not answer (``StoreUnavailable``): a 503 whatever the page, never a refusal of
    what was sent (a form's ``except HonbaError`` would have shown the driver's words as a 400)."""


class _Compiled(BytecodeCache):
    """The templates' compiled code, kept for the process: every ``Site`` (a server, each test's
    application) and each language's environment compiles a template once between them, not once
    each (all the templates of both languages: about 0.9 CPU-seconds). Jinja keys a template by its
    name and file and checks the source's digest before using what is held, so a template changed
    on disk is compiled again. Sound because every environment that uses it is made by
    ``_templates`` with the same settings: they differ only in values looked up when a page renders
    (the translations, the filters, ``finalize``), never in the code compiled."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        with self._lock:
            held = self._held.get(bucket.key)
        if held is not None:
            bucket.bytecode_from_string(held)

    def dump_bytecode(self, bucket: Bucket) -> None:
        with self._lock:
            self._held[bucket.key] = bucket.bytecode_to_string()


COMPILED = _Compiled()


def _templates(language: str = i18n.DEFAULT) -> Environment:
    """The templates in one language (``replay.web.i18n``): one environment a language, so that
    no request's language is ever another's (an environment's translations are its own)."""
    env = Environment(
        # The reports' templates (the standings) are the HTML exports' too: one template per report.
        loader=ChoiceLoader([FileSystemLoader(HERE / "templates"), FileSystemLoader(REPORT_TEMPLATES)]),
        autoescape=select_autoescape(default=True, default_for_string=True),
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
        bytecode_cache=COMPILED,
        # What the service said as words (``domain.said.Said``: a hand, a refusal) is said in the
        # page's language wherever a template shows it; the English is its ``str()``.
        finalize=lambda value: i18n.said_here(value, language),
    )
    add_filters(env)
    env.install_gettext_translations(i18n.translations(language), newstyle=True)  # type: ignore[attr-defined]
    env.globals["lang"] = language
    env.globals["language_names"] = i18n.NAMES
    env.filters["points"] = lambda v: i18n.number(v, language)
    env.filters["end_reason"] = lambda reason: i18n.say(end_reason_said(reason), language)
    # Words given to a gettext text's placeholder (``_("... %(why)s", why=x | say)``), in the page's language.
    env.filters["say"] = lambda value: i18n.said_here(value, language)
    # A moment the service gives (ISO 8601) as the language writes it.
    env.filters["when"] = lambda v: when(str(v), language)
    # The reports link their matches to the table pages this server serves (an export does not).
    env.globals["links"] = True
    # A field that holds several items, shown in one text box: its items between commas.
    # The longest text the domain takes (domain.bounds), as the forms' maxlength: a hint that agrees.
    env.globals["longest"] = {"name": NAME.longest, "text": TEXT.longest, "tournament": TOURNAMENT.longest}
    env.filters["listed"] = lambda v: ",".join(str(i) for i in v) if isinstance(v, list | tuple) else (v or "")
    return env


def language_switch(request: Request) -> dict[str, str]:
    """The page's own address in each language (its query kept, a table link's token too;
    relative, never built from the request's Host), by language code."""
    query = [(k, v) for k, v in request.query_params.multi_items() if k != "lang"]
    return {language: request.url.path + "?" + urlencode([*query, ("lang", language)]) for language in i18n.LANGUAGES}


class Site:
    """What the server holds for its life: the store, its tokens, the standings view, the templates."""

    def __init__(self, db: str | None, address: Address | None = None):
        self.app = open_store(db)
        # Where phones open this server (``replay.service.director.address``): every table link starts with it.
        self.address = address
        self.tokens = TokenStore(self.app)
        self.view = open_standings_view(self.app)
        self.languages = {language: _templates(language) for language in i18n.LANGUAGES}
        self.templates = self.languages[i18n.DEFAULT]
        # SQLite takes one writer at a time: the server's threads take turns (other processes are
        # handled by the store's optimistic saves and the client keys).
        self._lock: threading.Lock | None = threading.Lock() if one_writer_at_a_time(self.app) else None
        self._view_lock = threading.Lock()
        # Whether the store answered the last call made on the event loop (``call_here``).
        self._answered = True
        self.position = 0
        self._stop_checkpoints: Callable[[], None] | None = None
        # Where a table's recorded hand runs on PostgreSQL (``call_here``): threads of its own, handed
        # each hand with less work than the thread pool's general hand-over (``replay.web.hand_threads``).
        self.hand_threads = HandThreads()
        # The witnesses whose cosignatures of signed checkpoints are kept (``honba serve --witness``).
        self.witnesses: WitnessKeys = ()

    def ready(self) -> None:
        """What the first requests would do once for the whole server, done as it starts
        (``ready_to_serve``): a hand's statements prepared on the store's connections, its first reads made."""
        ready_to_serve(self.app, self.hand_threads.most)

    def start_checkpoints(self) -> None:
        """Take a checkpoint of what was saved every few seconds while something is (the server's
        life: ``replay.service.audit.checkpoints.checkpoints_kept``)."""
        if self._stop_checkpoints is None:
            self._stop_checkpoints = checkpoints_kept(self.app, run=self.run)

    def stop_checkpoints(self) -> None:
        """Stop taking checkpoints, after a last one of what was saved since."""
        if self._stop_checkpoints is not None:
            self._stop_checkpoints()
            self._stop_checkpoints = None

    def close(self) -> None:
        """Close the store the site serves (the server stops), after the hands under way."""
        self.hand_threads.close()
        close_store(self.app)

    def run(self, call: Callable[[], T]) -> T:
        """``call`` run, taking turns with the server's other threads on SQLite; a store that did not
        answer raised as ``Unavailable``."""
        if self._lock is None:
            return _answering(call)
        with self._lock:
            return _answering(call)

    async def call(self, fn: Callable[[], T]) -> T:
        """``fn`` run in the server's thread pool, taking turns with the others on SQLite."""
        return await run_in_threadpool(self.run, fn)

    async def call_here(self, fn: Callable[[], T]) -> T:
        """``fn`` run on the event loop itself, not in the thread pool, on a store that takes one call
        at a time (SQLite) when no other thread of the server has it; else as ``call`` runs it.

        For the call a table makes every hand (the JSON API's recorded hand: the token's check, the
        load and the save, about 1 ms of CPU). A turn of the thread pool costs more than half that
        again (two threads woken, the interpreter lock handed over twice), and gains nothing where
        the server's threads take turns on the store anyway (``run``). While ``fn`` runs the loop
        serves nothing else: the stall is the call's own work, a few statements on a local file
        and its commit's wait for the disk (20 tables at once: 1.36x the hands a second of the
        pool, with slower runs where the disk is slow). It never waits for a lock: the store held by
        another thread (a page's read, the checkpoint, a first build of the standings view) sends the
        call to the pool rather than waiting on the loop, and so does another process's write (an
        import, another server, a command on the same file): on the loop the call is made not to
        wait (``not_waiting``), SQLite refuses it at once before anything is written (``StoreBusy``),
        and it is made again in the pool, which waits as the store's busy timeout says while the loop
        serves the rest (static files, live streams' keep-alives; what needs the store waits its turn
        in the pool behind it, as it would behind any write). ``fn`` must be one that
        may so be run twice: a refused attempt leaves nothing behind (a save's rows, a client key,
        what the store keeps of a match are the committed save's only). A store that did not answer
        is answered 503, and every call is made in the thread pool until one is answered again.

        On PostgreSQL the call is made in a thread: its statements' round trips would hold the loop,
        and the server's other tables, for each wait for the database. Measured (issue 36, sixth
        round, ``docs/performance.md``): on the loop, 40 tables back to back made 0.4 to 0.5x the
        hands a second of the pool at load 4 to 7, where each wait is a time slice. The thread is
        one of the site's ``hand_threads``, not the thread pool's: the same call in a thread, handed
        over for about a tenth of the instructions, at most ``hand_threads.MOST`` at once (seventeenth round)."""
        if self._lock is None:
            return await self.hand_threads.run(self.run, fn)
        if not self._answered:
            # The store did not answer the last call made here: the pool's until it does.
            answer = await self.call(fn)
            self._answered = True
            return answer
        if not self._lock.acquire(blocking=False):
            return await self.call(fn)
        try:
            return self._here(fn)
        except StoreBusy:
            pass  # another process's write holds the store: the pool's call waits for it, not the loop
        finally:
            self._lock.release()
        return await self.call(fn)

    def _here(self, fn: Callable[[], T]) -> T:
        try:
            with not_waiting(self.app):
                return _answering(fn)
        except Unavailable:
            self._answered = False
            raise

    def refresh_view(self) -> int:
        """Fold what is new in the notification log into the standings view (written by any process)."""
        with self._view_lock:
            # A view that cannot be read is rebuilt (``read_view``): derived data, never a 500.
            self.run(lambda: read_view(self.app, lambda _view: None, view=self.view))
            self.position = view_position(self.app, self.view)
            return self.position

    async def refreshed(self) -> int:
        """``refresh_view`` in the thread pool: the view's position after it."""
        return await run_in_threadpool(self.refresh_view)

    def json(
        self, request: Request, data: object, status: int = 200, headers: Mapping[str, str] | None = None
    ) -> Response:
        """A JSON answer (the API's, a page script's): what the service gave as words said in the
        request's language (English unless it asks for another), everything else as it is; the
        bytes and headers of Starlette's ``JSONResponse`` (``i18n.json_spoken``)."""
        return JSONAnswer(i18n.json_spoken(data, lambda: self.language(request)), status, headers)

    def page(self, request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        """The template rendered (every value escaped), with the CSRF cookie its forms send back."""
        csrf = request.cookies.get(CSRF_COOKIE) or secrets.token_urlsafe(24)
        language = self.language(request)
        if context.get("errors"):
            # A refusal next to its field is one line, however much of the input it quotes; what the
            # service said as words, in the page's language.
            context["errors"] = {field: clipped(i18n.say(said, language)) for field, said in context["errors"].items()}
        page = self.languages[language].get_template(template)
        context.setdefault("switch", language_switch(request))
        html = page.render(csrf=csrf, **context)
        # A refusal whose field this page has no place for is shown at the top: none goes unsaid.
        unshown = [said for field, said in (context.get("errors") or {}).items() if f'id="error-{field}"' not in html]
        if unshown:
            html = page.render(csrf=csrf, unshown=unshown, **context)
        response = HTMLResponse(html, status_code=status)
        response.set_cookie(CSRF_COOKIE, csrf, httponly=True, samesite="strict", path="/")
        if request.query_params.get("lang") in i18n.LANGUAGES:
            # The switch's choice is kept for the pages opened after (a year; not a secret).
            response.set_cookie(i18n.COOKIE, language, max_age=365 * 24 * 3600, samesite="lax", path="/")
        return response

    def words(self, request: Request) -> Words:
        """The catalogue of the request's language: the page's own words said in it."""
        return i18n.translations(self.language(request))

    @staticmethod
    def language(request: Request) -> str:
        """The request's language (``replay.web.i18n.chosen``: ``?lang=``, the cookie, the browser's)."""
        return i18n.chosen(
            request.query_params.get("lang"), request.cookies.get(i18n.COOKIE), request.headers.get("accept-language")
        )

    def grant(self, token: str | None) -> Grant | None:
        return self.tokens.check(token)

    def need(self, token: str | None, allowed: Callable[[Grant], bool], what: str) -> Grant:
        """The token's grant, when it allows this; else ``Forbidden`` saying what it may not do."""
        grant = self.grant(token)
        if grant is None or not allowed(grant):
            raise Forbidden(N_("this link may not %(what)s"), what=what)
        return grant

    def may_record(self, key: str, token: str | None) -> Grant:
        """The grant of a token that may enter results at the match ``key``; a table link issued
        again since is told so (``REPLACED_LINK``), any other gets a plain refusal."""
        grant = self.grant(token)
        if grant is None or not grant.may_record(key):
            replaced = self.tokens.replaced(token) == key
            raise Forbidden(REPLACED_LINK if replaced else N_("this link may not enter results at this table"))
        return grant

    def error(
        self,
        request: Request,
        status: int,
        said: Said | Listed | str,
        field: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Response:
        """An error as JSON on the API (with the ``field`` it is in, where it names one), as a page
        elsewhere; what the service said as words (a ``HonbaError``'s ``said``) in the request's language."""
        message = clipped(i18n.say(said, self.language(request)))
        # The API, and a page's script asking for JSON (the table page's /check): the refusal as JSON.
        if request.url.path.startswith("/api/") or "application/json" in request.headers.get("accept", ""):
            body = {"error": message} if field is None else {"error": message, "field": field}
            return JSONResponse(body, status_code=status, headers=headers)
        response = self.page(request, "error.html", status=status, status_code=status, message=message)
        response.headers.update(headers or {})
        return response


class JSONAnswer(Response):
    """Starlette's ``Response`` of JSON bytes (``media_type`` ``application/json``): the same status,
    body and headers, but made without ``Response.__init__``'s look at what it was given and the
    general ``init_headers`` where neither the status nor the headers need them: the headers given,
    then the body's length, then its type (about 6,000 instructions of a recorded hand; issue 36,
    nineteenth round). A status without a body's length, or headers that give the length or the
    type, are made by ``init_headers`` itself."""

    media_type = JSONResponse.media_type

    def __init__(self, body: bytes, status_code: int = 200, headers: Mapping[str, str] | None = None) -> None:
        self.status_code = status_code
        self.background = None
        self.body = body
        if (
            status_code < 200
            or status_code in (204, 304)
            or (headers and not _OWN_HEADERS.isdisjoint(map(str.lower, headers)))
        ):
            self.init_headers(headers)
            return
        raw = (
            [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers.items()]
            if headers
            else []
        )
        raw.append((b"content-length", str(len(body)).encode("latin-1")))
        raw.append(_JSON_TYPE)
        self.raw_headers = raw


# The headers ``init_headers`` makes of a body itself, unless given; a JSON answer's type as it writes it.
_OWN_HEADERS = frozenset({"content-length", "content-type"})
_JSON_TYPE = (b"content-type", b"application/json")


class Answered:
    """A route's endpoint as an ASGI application: ``respond(request)``'s response sent. Starlette runs
    a function endpoint inside a request and a handling of exceptions of its own, a second of each (the
    application's exception middleware made the first): about 12,000 instructions of a recorded hand
    (issue 36, nineteenth round). Here what ``respond`` raises is answered by that middleware, by the
    same handlers (``replay.web.app``), for the same request."""

    def __init__(self, respond: Callable[[Request], Awaitable[Response]]) -> None:
        self.respond = respond

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        response = await self.respond(Request(scope, receive, send))
        await response(scope, receive, send)


def _answering(call: Callable[[], T]) -> T:
    """``call`` run; a store that did not answer raised as ``Unavailable``."""
    try:
        # What the store's library raises when it does not answer, as the service says it.
        with store_answering():
            return call()
    except StoreUnavailable as exc:
        raise Unavailable from exc


def site(request: Request) -> Site:
    """The ``Site`` of the application serving this request."""
    held: Site = request.app.state.served
    return held


def address(request: Request, route: str, query: Mapping[str, str] | None = None, **params: str) -> str:
    """The path of a named route (``table``, ``standings``, ...) with its parameters percent-encoded
    whole (a key or a name may hold ``?``, ``#``, ``%`` or ``/``) and the query: no scheme, no host."""
    path = request.app.url_path_for(route, **{name: quote(value, safe="") for name, value in params.items()})
    return str(path) + (f"?{urlencode(query)}" if query else "")


def phones_at(request: Request) -> str:
    """The address phones open this server at: the server's public URL (``honba serve``'s
    ``--public-url``, ``HONBA_PUBLIC_URL``, or made from where it listens), never the ``Host`` a
    request names; only an application made without one (embedded, tests) falls back to that."""
    served = site(request)
    if served.address is not None and served.address.url is not None:
        return served.address.url
    return str(request.base_url).rstrip("/")


def link_to(request: Request, route: str, query: Mapping[str, str] | None = None, **params: str) -> str:
    """``address`` after the address phones open the server at (``phones_at``): a table's link, shown
    to the director who seats the tables (for their phones to open)."""
    return phones_at(request) + address(request, route, query, **params)


def see_other(
    request: Request, route: str, query: Mapping[str, str] | None = None, *, fragment: str = "", **params: str
) -> Response:
    """Post, redirect, get: a 303 to a named route (at its ``#fragment``, where one is given: the form
    that was sent). Its ``Location`` is relative (``address``): never built from the request's
    ``Host``, which the client chooses (a table link's token goes with it)."""
    target = address(request, route, query, **params) + (f"#{quote(fragment, safe='')}" if fragment else "")
    return RedirectResponse(target, status_code=303)


async def form_of(request: Request, files: int = 0) -> dict[str, Any]:
    """The form's fields (lists for the repeated ones), after the CSRF check; at most ``files`` files
    (a certificate and its key: ``replay.web.certificates``), which are left out of the fields."""
    try:
        # Only a form that sends files takes them: elsewhere a file is refused, not read.
        form = await request.form(max_files=files, max_fields=MOST_FIELDS)
    except HTTPException as exc:
        raise HonbaError(Said("the form cannot be read: {why}", why=str(exc.detail))) from None
    fields: dict[str, Any] = {}
    # A field of one value sent with two different values (two winners in one ``winner`` field) is
    # refused by name. The hand value is the exception: without scripts the table page sends the
    # value typed and then the button tapped, and the button, sent last, counts (``table.html``).
    twice: dict[str, list[str]] = {}
    for name in form:
        values = [v for v in form.getlist(name) if isinstance(v, str)]
        if not values:
            continue  # a file (``UploadFile``): read by the route that takes it
        # Fields sent once per ticked box or per item (riichi, facts2, penalties): kept as lists.
        fields[name] = values if is_list_field(name) else values[-1]
        if not is_list_field(name) and name.rstrip("23") != "value" and len({v.strip() for v in values} - {""}) > 1:
            twice[name] = values
    cookie = request.cookies.get(CSRF_COOKIE, "")
    sent = str(fields.get("csrf", ""))
    # Compared as bytes: ``compare_digest`` refuses text that is not ASCII (a forged field may be anything).
    if not cookie or not hmac.compare_digest(cookie.encode(), sent.encode()) or not _same_origin(request):
        raise Forbidden(N_("this form was not sent from this site's page (reload the page and try again)"))
    for name, values in twice.items():
        # Two winners in one ``winner`` field: taking the last would record a guess at what was meant.
        raise FieldError(
            name,
            Said(
                "{name} was sent {count} times with different values ({values}): this field takes one value",
                name=shown(name),
                count=len(values),
                values=shown(", ".join(values)),
            ),
        )
    return fields


def number(raw: Any, bound: Bound, field: str | None = None) -> int:
    """A number a page or a client sent (a query string's, a form's, a path's, a JSON body's), in
    its field's range: text read by the domain's one reader of numbers (``domain.bounds.whole_number``:
    ASCII digits 0-9 only, a length cap), a JSON number as it is. A ``FieldError`` (400) names the field."""
    return whole_number(field or bound.field, raw, low=bound.low, high=bound.high)


def query_number(request: Request, name: str, bound: Bound) -> int | None:
    """The query string's ``?name=``, read as ``number`` under that name; None when it is not given or blank."""
    text = request.query_params.get(name, "")
    return number(text, bound, name) if text.strip() else None


def text_of(body: Mapping[str, Any], name: str) -> str:
    """A JSON body's text field, ``""`` when it is missing or null; anything but text (a number, a
    list, an object) is refused naming the field, never stored as its ``repr``."""
    value = body.get(name)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise FieldError(name, Said("{name}: {value} is not text", name=name, value=shown(value)))
    return value


# The longest hand label an entry names (``S4-12``; ``end``): anything longer names no hand.
LONGEST_HAND = 16


def for_hand(hand: str, after: str, if_match: str | None, field: str = "hand") -> ForHand | None:
    """The hand a request's entry was entered for (``replay.service.recording.recording.ForHand``): the hand's
    label (a form's ``expect``, the API's ``hand``), the client key of the entry sent just before it
    (``after``), the match's version as an ``If-Match`` header (``"12"``, ``W/"12"``; ``*`` matches
    any). None when it names none; a label too long (refused as ``field``), or an ``If-Match`` not
    a version, is refused."""
    if len(hand) > LONGEST_HAND:
        raise FieldError(
            field, Said("{hand} is not a hand (a hand is named as the table shows it, e.g. E2-0)", hand=shown(hand))
        )
    if len(after) > KEY.longest:
        raise FieldError("after", Said("a client key is at most {most} characters", most=KEY.longest))
    version = None
    tag = (if_match or "").strip()
    if tag and tag != "*":
        digits = tag.removeprefix("W/").strip('"')
        if not (digits.isascii() and digits.isdigit()) or len(digits) > 9:
            raise FieldError(
                "If-Match", Said("If-Match: {tag} is not a version this server gave (its ETag)", tag=shown(tag))
            )
        version = int(digits)
    if not (hand or after or version is not None):
        return None
    return ForHand(hand=hand or None, version=version, after=after or None)


def form_token(fields: dict[str, Any]) -> str | None:
    """The token a page's form sends back in its hidden field."""
    return str(fields.get("token", "")) or None


def header(request: Request, name: str) -> str | None:
    """A request's header (``name`` in lower case, as ASGI gives the names): the value
    ``request.headers.get(name)`` gives, the first sent, read from the request's scope without the
    ``Headers`` object Starlette makes for a request (its making and a lookup through ``Mapping.get``:
    about 3,000 instructions a header of a recorded hand, a missing one's ``KeyError`` more; issue 36,
    nineteenth round). For a POST's route: its scope's headers are a list by then, where the server
    gave another iterable (``replay.web.limits.body_limited``, in the application's middleware)."""
    wanted = name.encode("latin-1")
    sent: list[tuple[bytes, bytes]] = request.scope["headers"]
    for key, value in sent:
        if key == wanted:
            return value.decode("latin-1")
    return None


def bearer(request: Request) -> str | None:
    """The API's token: ``Authorization: Bearer TOKEN``."""
    sent = header(request, "authorization") or ""
    return sent[7:].strip() if sent.lower().startswith("bearer ") else None


async def body_of(request: Request) -> bytes:
    """The request's body, read whole: ``Request.body()``'s bytes, without its stream's generator
    (a request's body comes in one message: the generator, its closing and the checks around it
    were 11,000 instructions of a recorded hand; issue 36, nineteenth round). Kept as
    ``Request.body()`` keeps it, which gives it again; a client gone before it all came is
    ``ClientDisconnect``, as there."""
    if hasattr(request, "_body"):
        return request._body
    chunks = []
    while True:
        message = await request.receive()
        if message["type"] == "http.request":
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        elif message["type"] == "http.disconnect":
            request._is_disconnected = True
            raise ClientDisconnect()
    request._stream_consumed = True
    request._body = body = chunks[0] if len(chunks) == 1 else b"".join(chunks)
    return body


async def json_body(request: Request) -> dict[str, Any]:
    """The API request's JSON object; a ``HonbaError`` (400) for anything else."""
    if (header(request, "content-type") or "").split(";")[0].strip() != "application/json":
        raise HonbaError(Said("send the entry as JSON (Content-Type: application/json)"))
    try:
        # Its depth checked before Python's parser reads it (it recurses a level per nesting); orjson,
        # which reads a flat object first, stops at its own cap (1,024 levels) without recursing.
        body = load_json_bytes(await body_of(request), deepest=DEEPEST_JSON)
    except UnicodeDecodeError:
        raise HonbaError(Said("the request body is not JSON: it is not UTF-8 text")) from None
    except json.JSONDecodeError as exc:
        # (the parser's own words on what it could not read: data, as it gives them)
        raise HonbaError(
            Said(
                "the request body is not JSON: {why} (line {line}, column {column})",
                why=exc.msg,
                line=exc.lineno,
                column=exc.colno,
            )
        ) from None
    if not isinstance(body, dict):
        raise HonbaError(Said("the request body is a JSON object of the entry's fields"))
    return body


def _same_origin(request: Request) -> bool:
    """A form post's Origin (when the browser sends one) is this server's own."""
    origin = request.headers.get("origin")
    if origin is None or origin == "null":
        return origin is None
    host = request.headers.get("host", "")
    return origin.split("://", 1)[-1] == host


def field_for(exc: HonbaError, kind: str) -> str:
    """Where a refusal is shown: next to the field it names; a rule's refusal of a win on the
    winner's own discard next to the discarder, any other next to the win's value, else by the
    form's button."""
    if isinstance(exc, FieldError):
        # A winner's value given field by field (han, fu2, ...) is refused where that winner's value is shown.
        base, suffix = exc.field.rstrip("23"), exc.field[len(exc.field.rstrip("23")) :]
        return f"value{suffix}" if base in VALUE_FIELDS else exc.field
    if isinstance(exc, WinnerIsDiscarder | WinnersOnSeveralDiscards):
        return "discarder"
    return "value" if kind == "win" else kind
