"""Helpers for the web front end's tests: a store with a match and tokens, forms sent as a phone would."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.testclient import TestClient

from domain.rules import load_preset
from replay.service import recording
from replay.service.access import TokenStore
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


def errors(page: str) -> dict[str, str]:
    """The error messages shown next to the fields, by field."""
    return dict(re.findall(r'class="error" id="error-([a-z0-9]+)" role="alert">([^<]*)<', page))


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


@contextmanager
def serving(web: Starlette) -> Iterator[str]:
    """The app served by uvicorn in a thread on a free loopback port; its base URL. Waits (bounded) to start."""
    config = uvicorn.Config(web, host="127.0.0.1", port=free_port(), log_level="warning", access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(400):  # at most about 20 seconds
        if server.started:
            break
        time.sleep(0.05)
    assert server.started, "the server did not start"
    try:
        yield f"http://127.0.0.1:{config.port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
