"""Bad input on the web (issue 24): whatever a user or a client sends gets a 4xx with one plain
sentence naming what is wrong, or works; never a 500, never a traceback, nothing stored on a refusal.

Each test is a request that answered 500 (or a misleading answer) before: Unicode digits and
5000-digit numbers, a `/` or markup in a tournament's name, a live stream of an unknown
tournament, redirects that named the client's `Host`.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from web_support import PLAYERS, prepare, refusal

from replay.service.tournaments import create_tournament
from replay.store.application import HonbaApp
from replay.web.app import create_app


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "store" / "honba.sqlite")


@pytest.fixture
def tokens(db: str) -> dict[str, str]:
    table, director, referee = prepare(db, {"t1": PLAYERS}, [("table", "t1"), ("director", None), ("referee", None)])
    app = HonbaApp.open(db)
    try:
        create_tournament(app, "Open", ["Ann", "Ben", "Cho", "Dai"])
    finally:
        app.close()
    return {"table": table, "director": director, "referee": referee}


@pytest.fixture
def client(db: str, tokens: dict[str, str]) -> Iterator[TestClient]:
    with TestClient(create_app(db), raise_server_exceptions=False, follow_redirects=False) as web:
        web.get("/")  # the CSRF cookie
        yield web


def csrf(client: TestClient) -> str:
    return str(client.cookies.get("honba_csrf"))


def tournaments(db: str) -> list[str]:
    import sqlite3

    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT topic FROM stored_events WHERE topic LIKE '%Tournament%Created%'").fetchall()
    return [r[0] for r in rows]


# Numbers: ASCII digits only, a length cap, the field's range; a 400 naming the field.


@pytest.mark.parametrize("after", ["²", "٣", "9" * 5000, "-1", "0", "1.5"])
@pytest.mark.parametrize("path", ["/tournaments/Open", "/api/tournaments/Open/standings", "/tournaments/Open/events"])
def test_a_session_number_in_the_query_is_ascii_digits_in_range(client: TestClient, path: str, after: str) -> None:
    answer = client.get(path, params={"after": after})
    assert answer.status_code == 400
    assert refusal(answer).startswith("after: ")


@pytest.mark.parametrize(
    ("fields", "says"),
    [
        ({"session": "²"}, "session: '²' is not a whole number"),
        ({"session": "9" * 5000}, "session: '999"),
        ({"session": "0"}, "session: 0 is out of range"),
        ({"session": "1", "seed": "³"}, "seed: '³' is not a whole number"),
        ({"session": "1", "seed": "9" * 5000}, "seed: '999"),
    ],
)
def test_a_session_and_a_seed_are_whole_numbers_in_range(
    client: TestClient, db: str, tokens: dict[str, str], fields: dict[str, str], says: str
) -> None:
    form = {"csrf": csrf(client), "token": tokens["director"], **fields}
    answer = client.post("/director/t/Open/sessions", data=form)
    assert answer.status_code == 400
    assert refusal(answer).startswith(says)
    app = HonbaApp.open(db)
    try:
        assert [m.key for m in app.list_matches()] == ["t1"]  # no table was started
    finally:
        app.close()


@pytest.mark.parametrize("number", ["²", "9" * 5000, "0"])
def test_an_entry_number_is_ascii_digits_in_range(client: TestClient, tokens: dict[str, str], number: str) -> None:
    assert client.get(f"/api/matches/t1/entries/{number}").status_code == 400
    desk = client.get("/referee/m/t1", params={"token": tokens["referee"], "amend": number})
    assert desk.status_code == 400 and refusal(desk).startswith("amend: ")
    form = {"csrf": csrf(client), "token": tokens["referee"], "action": "void", "target": number, "by": "Eve"}
    void = client.post("/referee/m/t1/correct/preview", data=form)
    assert void.status_code == 400 and refusal(void).startswith("target: ")
