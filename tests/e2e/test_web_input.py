"""Bad input on the web (issue 24): whatever a user or a client sends gets a 4xx with one plain
sentence naming what is wrong, or works; never a 500, never a traceback, nothing stored on a refusal.

Each test is a request that answered 500 (or a misleading answer) before: Unicode digits and
5000-digit numbers, a `/` or markup in a tournament's name, a live stream of an unknown
tournament, redirects that named the client's `Host`.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pg_server import PostgresServer, started_or_skipped
from starlette.testclient import TestClient
from web_support import PLAYERS, prepare, refusal

from replay.service.tournaments.tournaments import create_tournament
from replay.store.application import HonbaApp
from replay.store.checkpoint import CHECKPOINTS_ID
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
    ("address", "fields", "says"),
    [
        ("/director/t/Open/sessions", {"seed": "³"}, "seed: '³' is not a whole number"),
        ("/director/t/Open/sessions", {"seed": "9" * 5000}, "seed: '999"),
        # The session's and the table's numbers in a path, read as the forms' (site.number).
        ("/director/t/Open/s/²/clock", {"action": "start"}, "session: '²' is not a whole number"),
        ("/director/t/Open/s/" + "9" * 5000 + "/clock", {"action": "start"}, "session: '999"),
        ("/director/t/Open/s/0/clock", {"action": "start"}, "session: 0 is out of range"),
        ("/director/t/Open/s/1/t/٣/time", {"minutes": "5"}, "table: '٣' is not a whole number"),
        ("/director/t/Open/s/1/t/" + "9" * 5000 + "/link", {}, "table: '999"),
        ("/director/t/Open/withdraw", {"player": "Ann", "after": "²"}, "after: '²' is not a whole number"),
    ],
)
def test_a_session_a_table_and_a_seed_are_whole_numbers_in_range(
    client: TestClient, db: str, tokens: dict[str, str], address: str, fields: dict[str, str], says: str
) -> None:
    form = {"csrf": csrf(client), "token": tokens["director"], **fields}
    answer = client.post(address, data=form)
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


# Names: a `/` cannot be in a tournament's web address; markup is text, shown escaped.


def test_a_tournament_named_with_a_slash_is_refused_before_anything_is_stored(
    client: TestClient, db: str, tokens: dict[str, str]
) -> None:
    before = tournaments(db)
    for name in ("<i>t</i>", "a/b"):
        form = {"csrf": csrf(client), "token": tokens["director"], "name": name, "players": "Ann\nBen\nCho\nDai"}
        answer = client.post("/director/tournaments", data=form)
        assert answer.status_code == 400
        assert refusal(answer) == f"tournament name: {name!r} holds '/': " + (
            "a tournament's name is the end of its web address (/tournaments/NAME)"
        )
    assert tournaments(db) == before


def test_a_tournament_named_in_markup_is_its_name_shown_as_text(client: TestClient, tokens: dict[str, str]) -> None:
    name = '<b onmouseover="x()">Cup?#%'
    form = {"csrf": csrf(client), "token": tokens["director"], "name": name, "players": "Ann\nBen\nCho\nDai"}
    made = client.post("/director/tournaments", data=form)
    assert made.status_code == 303
    assert made.headers["location"] == (
        "/director/t/%3Cb%20onmouseover%3D%22x%28%29%22%3ECup%3F%23%25?token=" + tokens["director"]
    )
    page = client.get(made.headers["location"])
    assert page.status_code == 200
    assert "&lt;b onmouseover=&#34;x()&#34;&gt;Cup?#%" in page.text and "<b " not in page.text
    found = client.get("/tournaments", params={"name": name})
    assert found.status_code == 303
    assert found.headers["location"] == "/tournaments/%3Cb%20onmouseover%3D%22x%28%29%22%3ECup%3F%23%25"


@pytest.mark.parametrize("name", ["<script>alert(1)</script>", "a/b"])
def test_finding_a_tournament_by_a_name_it_cannot_have_says_why(client: TestClient, name: str) -> None:
    answer = client.get("/tournaments", params={"name": name})
    assert answer.status_code == 400
    assert refusal(answer).startswith(f"tournament name: {name!r} holds '/'")
    assert "<script>" not in answer.text


# Redirects name no host: the client's `Host` header is the client's to choose.


def test_every_redirect_is_relative_whatever_host_the_client_names(client: TestClient, tokens: dict[str, str]) -> None:
    evil = {"host": "evil.example"}
    table = {"csrf": csrf(client), "token": tokens["table"], "kind": "abort", "abort": "four_winds"}
    recorded = client.post("/matches/t1/record", data=table, headers=evil)
    assert recorded.status_code == 303
    assert recorded.headers["location"] == f"/matches/t1?token={tokens['table']}"
    desk = {"csrf": csrf(client), "token": tokens["referee"], "action": "void", "target": "2", "by": "Eve"}
    voided = client.post("/referee/m/t1/correct", data={**desk, "reason": "wrong table"}, headers=evil)
    assert voided.status_code == 303
    # The desk shows what the correction (entry 3, voiding entry 2) did: its number rides along.
    assert voided.headers["location"] == f"/referee/m/t1?token={tokens['referee']}&done=3"
    director = {"csrf": csrf(client), "token": tokens["director"], "name": "Open", "players": "Eve"}
    added = client.post("/director/tournaments", data=director, headers=evil)
    assert added.status_code == 303 and added.headers["location"] == f"/director/t/Open?token={tokens['director']}"
    players = client.post("/director/t/Open/players", data=director, headers=evil)
    assert players.status_code == 303
    assert players.headers["location"] == f"/director/t/Open?token={tokens['director']}#players"
    # A session seated, its clock, a table's link reissued: back to the session's page, by its path.
    four = {**director, "name": "Four", "players": "Ann\nBen\nCho\nDai"}
    assert client.post("/director/tournaments", data=four, headers=evil).status_code == 303
    seated = client.post("/director/t/Four/sessions", data={**four, "method": "random"}, headers=evil)
    session = f"/director/t/Four/s/1?token={tokens['director']}"
    assert seated.status_code == 303 and seated.headers["location"] == session
    clock = client.post("/director/t/Four/s/1/clock", data={**four, "action": "limit", "minutes": "60"}, headers=evil)
    assert clock.status_code == 303 and clock.headers["location"] == session + "#clock"
    link = client.post("/director/t/Four/s/1/t/1/link", data=four, headers=evil)
    assert link.status_code == 303 and link.headers["location"] == session + "&reissued=1&revoked=1#table-1"
    # The table's link the director's phone shows (and its QR code) is the one URL a table opens:
    # whole, with the host the director's page was asked by.
    page = client.get(session, headers={"host": "cup.example:8000"}).text
    assert 'href="http://cup.example:8000/matches/Four-s1-t1?token=' in page
    found = client.get("/tournaments", params={"name": "Open"}, headers=evil)
    assert found.status_code == 303 and found.headers["location"] == "/tournaments/Open"


def test_an_address_typed_with_a_slash_at_its_end_is_sent_on_relatively(
    client: TestClient, tokens: dict[str, str]
) -> None:
    # Starlette's own slash redirect answered /director/?token=T with http://evil.example/director?token=T.
    evil = {"host": "evil.example"}
    director = tokens["director"]
    for typed, bare in (
        (f"/director/?token={director}", f"/director?token={director}"),
        ("/tournaments/Open/", "/tournaments/Open"),
        (f"/api/matches/t1/?token={tokens['table']}", f"/api/matches/t1?token={tokens['table']}"),
        ("/matches/t1//", "/matches/t1"),
    ):
        answer = client.get(typed, headers=evil, follow_redirects=False)
        assert (answer.status_code, answer.headers["location"]) == (307, bare)
    # A form sent to such an address is not sent on (a browser would send its body along): no page.
    sent = client.post("/director/tournaments/", data={"csrf": csrf(client), "token": director, "name": "X"})
    assert sent.status_code == 404 and "location" not in sent.headers


def test_the_live_stream_of_an_unknown_tournament_is_a_404_in_plain_words(client: TestClient) -> None:
    answer = client.get("/tournaments/Nope/events")
    assert answer.status_code == 404
    assert refusal(answer) == "no tournament 'Nope' in the standings view"


# Size limits: a body larger than honba reads is refused before it is read whole (413).


def entries(db: str) -> int:
    """The events stored, but the signed checkpoints: the server takes one every few seconds of what
    was saved before (issue 26), whatever request it is answering, so a test slowed past them (a
    loaded machine) counted one more."""
    import sqlite3

    with sqlite3.connect(db) as conn:
        (count,) = conn.execute(
            "SELECT count(*) FROM stored_events WHERE originator_id NOT IN (?, ?)",
            (CHECKPOINTS_ID.hex, str(CHECKPOINTS_ID)),
        ).fetchone()
    return int(count)


def test_a_request_body_over_the_limit_is_a_413_and_nothing_is_stored(
    client: TestClient, db: str, tokens: dict[str, str]
) -> None:
    from replay.web.limits import MOST_BODY

    before = entries(db)
    bearer = {"authorization": f"Bearer {tokens['table']}"}
    # The five 10 MB notes: one is refused before it is read.
    note = {"kind": "penalty", "player": "Ann", "amount": 1000, "note": "x" * 10_000_000}
    api = client.post("/api/matches/t1/entries", json=note, headers=bearer)
    assert api.status_code == 413
    assert api.json() == {"error": "the request is larger than honba reads (at most 1,024 KiB): nothing was recorded"}
    players = "\n".join(f"Player {n}" for n in range(200_000))
    form = {"csrf": csrf(client), "token": tokens["director"], "name": "Big", "players": players}
    page = client.post("/director/tournaments", data=form)
    assert page.status_code == 413 and refusal(page).startswith("the request is larger than honba reads")

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
        yield b'{"kind": "undo", "note": "'
        for _ in range(MOST_BODY // 65536 + 1):
            yield b"x" * 65536
        yield b'"}'

    chunked = client.post(
        "/api/matches/t1/entries", content=chunks(), headers={**bearer, "content-type": "application/json"}
    )
    assert chunked.status_code == 413
    assert entries(db) == before


def test_a_body_up_to_the_limit_is_read(client: TestClient, tokens: dict[str, str]) -> None:
    from replay.web.limits import MOST_BODY

    body = b'{"kind": "win", "winner": "Ben", "discarder": "Ann", "value": "3/30"}'
    padded = body[:-1] + b" " * (MOST_BODY - len(body)) + b"}"
    assert len(padded) == MOST_BODY
    headers = {"authorization": f"Bearer {tokens['table']}", "content-type": "application/json"}
    answer = client.post("/api/matches/t1/preview", content=padded, headers=headers)
    assert answer.status_code == 200 and "Ann pays Ben 3,900" in answer.json()["lines"]
    over = client.post("/api/matches/t1/preview", content=padded + b" ", headers=headers)
    assert over.status_code == 413


def test_a_form_with_a_file_is_refused_unread(client: TestClient, tokens: dict[str, str]) -> None:
    form = {"csrf": csrf(client), "token": tokens["table"], "kind": "undo"}
    answer = client.post("/matches/t1/preview", data=form, files={"note": ("note.txt", b"hello")})
    assert answer.status_code == 400
    assert refusal(answer).startswith("the form cannot be read: ")


def test_a_method_an_address_does_not_take_is_refused_in_the_sites_words(client: TestClient) -> None:
    page = client.delete("/matches/t1")
    assert page.status_code == 405 and refusal(page) == "this address does not take a DELETE request"
    api = client.put("/api/matches/t1/entries", json={})
    assert api.status_code == 405 and api.json() == {"error": "this address does not take a PUT request"}


def test_a_correction_sent_with_an_object_for_its_text_is_refused_not_stored_as_text(
    client: TestClient, db: str, tokens: dict[str, str]
) -> None:
    bearer = {"authorization": f"Bearer {tokens['table']}"}
    assert client.post("/api/matches/t1/entries", json={"kind": "abort", "abort": "four_winds"}, headers=bearer)
    before = entries(db)
    referee = {"authorization": f"Bearer {tokens['referee']}"}
    for field, value in (("by", {"name": "Eve"}), ("reason", ["a", "b"]), ("action", 1), ("client_key", [1])):
        sent = {"action": "void", "target": 2, "by": "Eve", "reason": "wrong table", field: value}
        answer = client.post("/api/matches/t1/corrections", json=sent, headers=referee)
        assert answer.status_code == 400
        assert answer.json()["field"] == field and answer.json()["error"].endswith("is not text")
    assert entries(db) == before


# An outage: the store does not answer. honba cannot know what became of a write in flight.

UNAVAILABLE = "the store is unavailable, nothing changed as far as honba knows — try again"


@pytest.fixture
def own_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server of this test's own, which it stops and starts again."""
    server = started_or_skipped()
    yield server
    server.stop()


def back(client: TestClient, path: str) -> Any:
    """The JSON of ``path`` once the store answers again: a connection the pool held through the
    outage may fail once more (503, "try again"), as a client that follows ``Retry-After`` sees.
    The connection pool reconnects with a growing pause (psycopg_pool's backoff: up to 16 s after an
    outage): until then the answer is the same 503, which says to try again."""
    deadline = time.monotonic() + 60  # a generous bound, only to catch a server that never comes back
    answer = client.get(path)
    while answer.status_code == 503 and time.monotonic() < deadline:
        assert answer.json() == {"error": UNAVAILABLE}
        time.sleep(0.5)
        answer = client.get(path)
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_a_postgresql_outage_is_a_503_that_claims_nothing(own_postgres: PostgresServer) -> None:
    # A second's wait for a connection, tried twice (the product tries ten times, 0.2 s apart: a
    # dozen seconds a request, half a minute of this test), so that the outage shows soon.
    db = own_postgres.new_database() + "?connect_timeout=1"
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    web = create_app(db)
    served = web.state.served
    assert served.app.recorder.tries == 10
    served.app.recorder.tries = 2
    saving = served.app.save_match

    def save_in_an_outage(*args: Any, **kwargs: Any) -> str:
        own_postgres.halt()  # the server goes away between reading the match and saving the hand
        return str(saving(*args, **kwargs))

    served.app.save_match = save_in_an_outage
    with TestClient(web, raise_server_exceptions=False) as client:
        bearer = {"authorization": f"Bearer {token}"}
        win = {"kind": "win", "winner": "Ben", "discarder": "Ann", "value": "3/30", "client_key": "k1"}
        write = client.post("/api/matches/t1/entries", json=win, headers=bearer)
        assert write.status_code == 503 and write.json() == {"error": UNAVAILABLE}
        page = client.get("/matches/t1")
        assert page.status_code == 503 and refusal(page) == UNAVAILABLE
        assert "Traceback" not in page.text and "127.0.0.1" not in page.text
        own_postgres.resume()
        served.app.save_match = saving
        assert back(client, "/api/matches/t1")["ledger"] == []  # nothing was stored
        again = client.post("/api/matches/t1/entries", json=win, headers=bearer)
        assert again.status_code == 200
        assert len(client.get("/api/matches/t1").json()["ledger"]) == 1


# JSON: its depth capped before it is parsed.


@pytest.mark.parametrize(
    ("sent", "field"),
    [
        ({"note": ["x", "y"]}, "note"),  # stored "y"
        ({"han": [3], "fu": "30"}, "han"),  # read as 3
        ({"riichi": [["Ben"]]}, "riichi"),  # counted as Ben
    ],
)
def test_a_json_list_for_a_field_of_one_value_is_refused_by_its_name(
    client: TestClient, tokens: dict[str, str], db: str, sent: dict[str, Any], field: str
) -> None:
    headers = {"authorization": f"Bearer {tokens['table']}"}
    body = {"kind": "win", "winner": "Ben", "discarder": "Ann", "value": "3/30", "client_key": "l"}
    if "han" in sent:
        del body["value"]
    if "note" in sent:
        body = {"kind": "penalty", "player": "Dai", "amount": "1000", "client_key": "l"}
    answer = client.post("/api/matches/t1/entries", json={**body, **sent}, headers=headers)
    assert answer.status_code == 400, answer.text
    assert answer.json()["field"] == field
    assert client.get("/api/matches/t1").json()["ledger"] == []


@pytest.mark.parametrize(
    ("sent", "field"),
    [
        ({"kind": "win", "winner": "Ben", "discarder": "Ann", "value": "3/30", "nots": "x"}, "nots"),
        ({"kind": "draw", "ready": ["Ann"], "winner": "Ben"}, "winner"),  # a draw has no winner
        ({"kind": "win", "winner": "Ben", "value": "mangan", "last_tile": True}, "last_tile"),  # facts=last_tile
    ],
)
def test_an_api_entry_with_a_member_it_does_not_read_is_refused_by_its_name(
    client: TestClient, tokens: dict[str, str], sent: dict[str, Any], field: str
) -> None:
    # Dropped with nothing said, a client's typo recorded another hand than the one it meant.
    headers = {"authorization": f"Bearer {tokens['table']}"}
    for address in ("/api/matches/t1/preview", "/api/matches/t1/entries"):
        answer = client.post(address, json={**sent, "client_key": "u"}, headers=headers)
        assert answer.status_code == 400, answer.text
        assert answer.json()["field"] == field
    assert client.get("/api/matches/t1").json()["ledger"] == []


def test_a_json_body_nested_deeper_than_honba_reads_is_refused_before_it_is_parsed(
    client: TestClient, tokens: dict[str, str]
) -> None:
    from replay.web.limits import DEEPEST_JSON

    headers = {"authorization": f"Bearer {tokens['table']}", "content-type": "application/json"}
    deep = client.post("/api/matches/t1/preview", content="[" * 100_000 + "]" * 100_000, headers=headers)
    assert deep.status_code == 400
    assert deep.json() == {
        "error": f"the request body is not JSON: nested more than {DEEPEST_JSON} deep (line 1, column 17)"
    }
    inside = '{"kind": "win", "winner": ' + "[" * (DEEPEST_JSON - 1) + "]" * (DEEPEST_JSON - 1) + "}"
    read = client.post("/api/matches/t1/preview", content=inside, headers=headers)
    assert read.status_code == 400 and read.json()["field"] == "winner"  # parsed, then refused by its field
    for text, says in (
        (b"\xff\xfe{}", "the request body is not JSON: it is not UTF-8 text"),
        (b'{"kind": "penalty", "amount": 1' + b"0" * 5000 + b"}", "the request body is not JSON: a number too long"),
        (b'{"kind": "win", "winner": "\\ud800"}', "the request body is not JSON: an escaped lone surrogate"),
        (b"[1, 2]", "the request body is a JSON object of the entry's fields"),
    ):
        answer = client.post("/api/matches/t1/preview", content=text, headers=headers)
        assert answer.status_code == 400 and answer.json()["error"].startswith(says)


# What PostgreSQL's text cannot hold (a NUL) is looked up as nothing, on both stores alike.


def test_a_nul_in_a_token_or_a_tournaments_name_finds_nothing_on_either_store(store_db: str) -> None:
    (token,) = prepare(store_db, {"t1": PLAYERS}, [("table", "t1")])
    with TestClient(create_app(store_db), raise_server_exceptions=False) as client:
        page = client.get("/matches/t1", params={"token": "ab\x00c.secret"})
        assert page.status_code == 200 and 'name="kind"' not in page.text  # read only: no token
        nul = token[:4] + "\x00" + token[4:]
        api = client.post("/api/matches/t1/entries", json={"kind": "undo"}, headers={"authorization": f"Bearer {nul}"})
        assert api.status_code == 403
        for path in ("/tournaments/a%00b", "/api/tournaments/a%00b/standings", "/tournaments/a%00b/events"):
            answer = client.get(path)
            assert answer.status_code == 404 and refusal(answer).startswith("no tournament 'a\\x00b' in the ")


# A refusal is always shown: next to its field where the page has one, else at the top of the page.


def test_every_refusal_of_a_form_is_shown_on_the_page(client: TestClient, tokens: dict[str, str]) -> None:
    from web_support import errors

    form = {"csrf": csrf(client), "token": tokens["table"], "client_key": "k"}
    han = {**form, "kind": "win", "winner": "Ben", "discarder": "Ann", "han": "9" * 30, "fu": "30"}
    answer = client.post("/matches/t1/preview", data=han)
    assert answer.status_code == 400
    assert errors(answer.text) == {
        "value": "han: &#39;999999999999999999999999999999&#39; is too long for a number (at most 20 characters)"
    }
    nagashi = {**form, "kind": "draw", "nagashi": "Nobody"}
    answer = client.post("/matches/t1/preview", data=nagashi)
    assert answer.status_code == 400
    # The thumbs page shows every refusal in its one message area, above the buttons.
    shown = errors(answer.text)
    said = "&#39;Nobody&#39; is not a player at this table"
    assert any(message.startswith(said) for message in shown.values()), shown


def test_a_locked_sqlite_store_is_a_503_on_every_form_not_the_drivers_words(
    db: str, tokens: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another process holds the file's write lock (a backup, a long import) past the wait for it. The
    # forms answered 400 with "cannot save match 't1': database is locked" (on PostgreSQL, psycopg's
    # words, which may name the host), as if what was sent were wrong.
    import sqlite3

    monkeypatch.setenv("SQLITE_LOCK_TIMEOUT", "1")  # a second's wait for the lock, not the default's
    holder = sqlite3.connect(db, timeout=0)
    with TestClient(create_app(db), raise_server_exceptions=False, follow_redirects=False) as client:
        client.get("/")  # the CSRF cookie
        table = {"csrf": csrf(client), "token": tokens["table"], "kind": "abort", "abort": "four_winds"}
        table["client_key"] = "a"
        desk = {"csrf": csrf(client), "token": tokens["referee"], "action": "penalty", "player": "Dai"}
        desk |= {"amount": "900", "by": "Eve", "reason": "late", "client_key": "p"}
        forms = (("/matches/t1/record", table), ("/referee/m/t1/correct", desk))
        try:
            holder.execute("BEGIN EXCLUSIVE")
            for address, form in forms:
                answer = client.post(address, data=form)
                assert answer.status_code == 503, (address, answer.text)
                assert refusal(answer) == UNAVAILABLE and "locked" not in answer.text
        finally:
            holder.rollback()
            holder.close()
        # The same forms sent again once the lock is gone record each once.
        for address, form in forms:
            assert client.post(address, data=form).status_code == 303


def test_a_desk_correction_refused_keeps_what_the_referee_typed_in_its_own_form(
    client: TestClient, tokens: dict[str, str]
) -> None:
    # A penalty refused for its points came back with the form empty: the referee typed their
    # name, the player and the reason again. Each correction form now comes back as it was sent.
    from web_support import errors, form_of_page

    sent = {"action": "penalty", "player": "Dai", "amount": "12x", "penalty_kind": "chombo", "share": "off_table"}
    sent |= {"note": "wrong wait", "by": "Eve", "reason": "false win"}
    form = {"csrf": csrf(client), "token": tokens["referee"], "client_key": "p", **sent}
    answer = client.post("/referee/m/t1/correct/preview", data=form)
    assert answer.status_code == 400
    assert set(errors(answer.text)) == {"amount"}
    _, shown = form_of_page(answer.text, "penalty-form")
    assert {name: shown[name] for name in sent} == sent
    # The other forms are not filled with the penalty's words.
    _, void = form_of_page(answer.text, "void-form")
    assert void["by"] == void["reason"] == ""
