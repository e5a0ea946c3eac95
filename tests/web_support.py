"""Helpers for the web front end's tests: a store with a match and tokens, forms sent as a phone would."""

from __future__ import annotations

import asyncio
import contextlib
import html
import re
import socket
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from html.parser import HTMLParser
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.testclient import TestClient

from domain.rules import load_preset
from replay.service.common.access import TokenStore
from replay.service.recording import recording
from replay.store.application import HonbaApp

PLAYERS = ("Ann", "Ben", "Cho", "Dai")


def prepare(db: str, matches: Mapping[str, Sequence[str]], roles: Sequence[tuple[str, str | None]] = ()) -> list[str]:
    """Start the matches (key -> players) in the store; tokens for (role, match) pairs, in order."""
    app = HonbaApp.open(db)
    try:
        for key, players in matches.items():
            recording.start_match(app, key, list(players), load_preset("tenhou"))
        tokens = TokenStore(app)
        return [tokens.create(role, match) for role, match in roles]
    finally:
        app.close()


def hidden(page: str, name: str) -> str:
    """The value of the first hidden field of that name on a page."""
    found = re.search(rf'name="{name}" value="([^"]*)"', page)
    assert found, f"no field {name} on the page"
    return found.group(1)


def element_text(page: str, element_id: str) -> str:
    """The text of a page's element of that id (its tags dropped, its white space collapsed): what a
    test reads off the HTML where a browser would add nothing to it."""
    found = re.search(rf'<(\w+)[^>]*\bid="{element_id}"[^>]*>(.*?)</\1>', page, re.S)
    assert found, f"no #{element_id} on the page"
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(2))).split())


def errors(page: str) -> dict[str, str]:
    """The error messages shown next to the fields, by field."""
    return dict(re.findall(r'class="error" id="error-([a-z0-9-]+)" role="alert">([^<]*)<', page))


def send(client: TestClient, key: str, token: str, fields: Mapping[str, Any]) -> tuple[str, str]:
    """Open the table page, fill one form, see the confirm step, record: (confirm page, table page after)."""
    page = client.get(f"/matches/{key}", params={"token": token})
    assert page.status_code == 200, page.text
    form = {"csrf": client.cookies.get("honba_csrf"), "token": token, "client_key": hidden(page.text, "client_key")}
    form.update(fields)
    confirm = client.post(f"/matches/{key}/preview", data=form)
    assert confirm.status_code == 200, errors(confirm.text) or confirm.text
    recorded = client.post(f"/matches/{key}/record", data=form)
    assert recorded.status_code == 200, recorded.text
    return confirm.text, recorded.text


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class _Server(uvicorn.Server):
    """uvicorn's server, saying when it has started and stopping as soon as it is told. uvicorn's own
    looks at ``should_exit`` every 0.1 s and a caller polls ``started``: each start and stop of the
    35 tests' servers waited half a tick on average, for nothing. Where uvicorn's ``main_loop`` or
    ``startup`` change their ways, this is uvicorn's server as it is, still stopped by ``should_exit``."""

    def __init__(self, config: uvicorn.Config) -> None:
        super().__init__(config)
        self.ready = threading.Event()
        self._wake: tuple[asyncio.AbstractEventLoop, asyncio.Event] | None = None

    async def startup(self, *args: Any, **kwargs: Any) -> None:
        await super().startup(*args, **kwargs)
        self.ready.set()

    async def main_loop(self) -> None:
        # uvicorn's loop (a tick every 0.1 s: the date header, its request limit, should_exit), woken at once by stop.
        wake = asyncio.Event()
        self._wake = (asyncio.get_running_loop(), wake)
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            counter = (counter + 1) % 864000
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), 0.1)
            should_exit = await self.on_tick(counter)

    def stop(self) -> None:
        """Tell the server to stop (its lifespan's end runs), waking its loop."""
        self.should_exit = True
        if self._wake is not None:
            loop, wake = self._wake
            with contextlib.suppress(RuntimeError):  # its loop already closed: it has stopped
                loop.call_soon_threadsafe(wake.set)


@contextmanager
def serving(web: Starlette) -> Iterator[str]:
    """The app served by uvicorn in a thread on a free loopback port; its base URL. Waits (bounded) to start."""
    # A page still open on a live stream (the standings' server-sent events) would hold uvicorn's graceful
    # shutdown until the thread's join timed out (30 s of waiting, the stream polling on); after a second
    # uvicorn cancels it and still closes the app (its lifespan's end), which force_exit would skip.
    config = uvicorn.Config(
        web, host="127.0.0.1", port=free_port(), log_level="warning", access_log=False, timeout_graceful_shutdown=1
    )
    server = _Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    server.ready.wait(timeout=20)
    assert server.started, "the server did not start"
    try:
        yield f"http://127.0.0.1:{config.port}"
    finally:
        server.stop()
        thread.join(timeout=30)


class _Form(HTMLParser):
    """The fields a browser sends for one form of a page: text and hidden inputs, ticked boxes,
    each select's chosen option (its first when none is), each textarea's text, in page order."""

    def __init__(self, form_id: str):
        super().__init__(convert_charrefs=True)
        self.form_id = form_id
        self.inside = False
        self.action = ""
        self.fields: list[tuple[str, str]] = []
        # Every field the form has, sent or not (a box left unticked is not sent).
        self.names: set[str] = set()
        self._select: str | None = None
        self._options: list[tuple[str, bool]] = []
        self._option_text = False
        self._textarea: str | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = found.get("id") == self.form_id
            if self.inside:
                self.action = found.get("action", "")
            return
        if not self.inside:
            return
        if tag in ("input", "select") and "name" in found:
            self.names.add(found["name"])
        if tag == "input" and "name" in found:
            kind = found.get("type", "text")
            if kind in ("checkbox", "radio") and "checked" not in found:
                return
            self.fields.append((found["name"], found.get("value", "on" if kind == "checkbox" else "")))
        elif tag == "select":
            self._select, self._options = found.get("name"), []
        elif tag == "textarea" and "name" in found:
            self.names.add(found["name"])
            self._textarea, self._text = found["name"], ""
        elif tag == "option" and self._select is not None:
            self._options.append((found.get("value", ""), "selected" in found))
            self._option_text = "value" not in found

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text += data
        # An option without a value sends its text.
        if self._select is not None and self._options and self._option_text:
            value, chosen = self._options[-1]
            self._options[-1] = (value + data.strip(), chosen)

    def handle_endtag(self, tag: str) -> None:
        if tag == "option":
            self._option_text = False
        elif tag == "textarea" and self._textarea is not None:
            # A browser drops the one newline that may follow the opening tag.
            text = self._text[1:] if self._text.startswith("\n") else self._text
            self.fields.append((self._textarea, text.replace("\r\n", "\n")))
            self._textarea = None
        elif tag == "select" and self._select is not None:
            if self.inside and self._options:
                chosen = [v for v, c in self._options if c] or [self._options[0][0]]
                self.fields.append((self._select, chosen[0]))
            self._select = None
        elif tag == "form":
            self.inside = False


def table_form(client: Any, token: str, key: str = "t1") -> dict[str, str]:
    """What the table page's entry form sends besides the entry (its CSRF cookie, the table link's
    token, the page's client key and the hand it shows), read off the page as a phone opens it."""
    page = client.get(f"/matches/{key}", params={"token": token}).text
    return {
        "csrf": client.cookies["honba_csrf"],
        "token": token,
        "client_key": hidden(page, "client_key"),
        "expect": hidden(page, "expect"),
    }


def form_of_page(page: str, form_id: str) -> tuple[str, dict[str, Any]]:
    """A page's form as a browser would send it untouched: its action and fields (a list where a
    name comes more than once)."""
    parser = _Form(form_id)
    parser.feed(page)
    assert parser.action, f"no form {form_id} on the page"
    fields: dict[str, Any] = {}
    for name, value in parser.fields:
        if name in fields:
            fields[name] = [*fields[name], value] if isinstance(fields[name], list) else [fields[name], value]
        else:
            fields[name] = value
    return parser.action, fields


def form_field_names(page: str, form_id: str) -> set[str]:
    """Every field name a page's form has (ticked or not)."""
    parser = _Form(form_id)
    parser.feed(page)
    return parser.names


def refusal(response: Any) -> str:
    """The one sentence a refused request answers: the JSON API's ``error``, an error page's
    message, the line of text a signed checkpoint's route answers, or the error shown next to a
    form's field (the first of them)."""
    if response.headers.get("content-type", "").startswith("application/json"):
        said = response.json().get("error")
        assert isinstance(said, str), response.text
        return said
    if response.headers.get("content-type", "").startswith("text/plain"):
        return str(response.text).removesuffix("\n")  # a signed checkpoint's routes: one line of text
    found = re.search(r'class="error" id="(?:message|error-[a-z0-9_-]+)" role="alert">([^<]*)<', response.text)
    found = found or re.search(r'class="error" id="message">([^<]*)<', response.text)
    assert found, f"no error on the page: {response.text[:500]}"
    return html.unescape(found.group(1))


# Sixteen players of an event the browser tests run (names of several lengths and scripts of Europe and
# Asia, one long double-barrelled name that must wrap on a phone).
SIXTEEN = [
    "Aiko Tanaka",
    "Bram de Vries",
    "Chiara Rossi",
    "Dmitri Volkov",
    "Eun-ji Park",
    "Farid Haddad",
    "Greta Lindqvist",
    "Hiroshi Sato",
    "Ines Duarte",
    "Jonas Weber",
    "Kaito Mori",
    "Lena Nowak",
    "Maximiliane Wolkenstein-Oberhausen",
    "Nils Eriksen",
    "Oona Virtanen",
    "Pablo Ortega",
]
