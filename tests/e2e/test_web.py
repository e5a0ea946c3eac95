"""honba serve: the table page, the JSON API, who may write, live standings (both stores).

The numbers are the published riichi score table's (a non-dealer's 3 han 30 fu ron is 3,900; a
dealer's 2 han 30 fu tsumo is 1,000 from each) and the seeds' draw payments (3,000 noten
payment split between the ready and the not ready).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from honba_cli import honba, invoke, ok
from starlette.testclient import TestClient
from web_support import PLAYERS, element_text, errors, form_of_page, hidden, prepare, send, serving

from replay.service.tournaments.tournaments import change_tournament
from replay.store.application import HonbaApp
from replay.web.app import SECURITY_HEADERS, create_app

WIN_3_30 = {"kind": "win", "winner": "Ben", "discarder": "Ann", "han": "3", "fu": "30"}


@pytest.fixture
def client(store_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(store_db)) as web:
        yield web


def ledger(db: str, key: str) -> list[dict[str, Any]]:
    app = HonbaApp.open(db)
    try:
        from projections.entries import entry_numbers
        from projections.ledger import corrected_ledger
        from replay.service.common.shapes import ledger_data

        match = app.get_match(key)
        return ledger_data(match.players, corrected_ledger(match.corrected_steps()), entry_numbers(match))
    finally:
        app.close()


def test_the_confirm_step_shows_who_pays_whom_before_anything_is_recorded(store_db: str, client: TestClient) -> None:
    (token,) = prepare(store_db, {"t1": PLAYERS}, [("table", "t1")])
    page = client.get("/matches/t1", params={"token": token}).text
    form = {"csrf": client.cookies.get("honba_csrf"), "token": token, "client_key": hidden(page, "client_key")}
    confirm = client.post("/matches/t1/preview", data={**form, **WIN_3_30, "riichi": ["Ben"]})
    assert confirm.status_code == 200
    assert "Ann pays Ben 3,900" in confirm.text
    assert "Ben puts 1,000 deposit on the table" in confirm.text
    assert ledger(store_db, "t1") == []


def test_a_double_submitted_form_records_once(store_db: str, client: TestClient) -> None:
    (token,) = prepare(store_db, {"t1": PLAYERS}, [("table", "t1")])
    page = client.get("/matches/t1", params={"token": token}).text
    form = {"csrf": client.cookies.get("honba_csrf"), "token": token, "client_key": hidden(page, "client_key")}
    for _ in range(3):  # a double tap, then a reload that sends the form again
        assert client.post("/matches/t1/record", data={**form, **WIN_3_30}).status_code == 200
    entries = ledger(store_db, "t1")
    assert len(entries) == 1
    assert entries[0]["changes"] == {"Ann": -3900, "Ben": 3900, "Cho": 0, "Dai": 0}


def test_a_whole_sequence_through_the_table_page_gives_the_cli_ledger(store_db: str, client: TestClient) -> None:

    (token,) = prepare(store_db, {"web": PLAYERS, "cli": PLAYERS}, [("table", "web")])
    entries = [
        (WIN_3_30, ["win", "cli", "Ben:3/30", "--from", "Ann"]),
        (
            {"kind": "draw", "ready": ["Ann", "Cho"], "riichi": ["Cho"]},
            ["draw", "cli", "--ready", "Ann,Cho", "--riichi", "Cho"],
        ),
        ({"kind": "win", "winner": "Ben", "han": "2", "fu": "30"}, ["win", "cli", "Ben:2/30"]),
        (
            {"kind": "win", "winner": "Dai", "discarder": "Cho", "limit": "mangan"},
            ["win", "cli", "Dai:mangan", "--from", "Cho"],
        ),
        ({"kind": "abort", "abort": "four_winds"}, ["abort", "cli", "four_winds"]),
        ({"kind": "penalty", "player": "Cho"}, ["penalty", "cli", "Cho"]),
        ({"kind": "undo"}, ["undo", "cli", "--by", "table", "--reason", "undo"]),
    ]
    for fields, words in entries:
        send(client, "web", token, fields)
        result = invoke(["--db", store_db, *words])
        assert result.exit_code == 0, result.output

    def comparable(rows: list[dict[str, Any]]) -> list[Any]:
        return [(r["hand"], r["result"], r["payments"], r["scores_after"]) for r in rows]

    web_ledger, cli_ledger = ledger(store_db, "web"), ledger(store_db, "cli")
    assert len(web_ledger) >= 5
    assert comparable(web_ledger) == comparable(cli_ledger)
    # The draw passed the deal to Cho with a counter; Ben's 2 han 30 fu self-drawn win then takes 500/1,000
    # (the score table) plus 100 a player for the counter, and Cho's riichi deposit.
    tsumo = web_ledger[2]
    assert tsumo["changes"] == {"Ann": -600, "Ben": 2300 + 1000, "Cho": -1100, "Dai": -600}


def test_a_bad_entry_is_shown_next_to_its_field_in_plain_words(store_db: str, client: TestClient) -> None:
    (token,) = prepare(store_db, {"t1": PLAYERS}, [("table", "t1")])
    page = client.get("/matches/t1", params={"token": token}).text
    form = {"csrf": client.cookies.get("honba_csrf"), "token": token, "client_key": hidden(page, "client_key")}
    impossible = client.post("/matches/t1/preview", data={**form, **WIN_3_30, "han": "1", "fu": "20"})
    assert impossible.status_code == 400
    assert "20 fu" in errors(impossible.text)["value"]
    no_winner = client.post("/matches/t1/preview", data={**form, "kind": "win", "han": "3", "fu": "30"})
    assert errors(no_winner.text) == {"winner": "choose the winner"}
    same = client.post("/matches/t1/preview", data={**form, **WIN_3_30, "discarder": "Ben"})
    assert "discarder" in errors(same.text)
    bad_amount = client.post("/matches/t1/preview", data={**form, "kind": "penalty", "player": "Cho", "amount": "lots"})
    assert "whole number" in errors(bad_amount.text)["amount"]
    for response in (impossible, no_winner, same, bad_amount):
        assert "Traceback" not in response.text
    assert ledger(store_db, "t1") == []


def test_every_write_without_the_right_token_is_refused(store_db: str, client: TestClient) -> None:
    own, referee = prepare(store_db, {"t1": PLAYERS, "t2": PLAYERS}, [("table", "t1"), ("referee", None)])
    page = client.get("/matches/t2", params={"token": own}).text
    assert 'action="/matches/t2/preview"' not in page  # the other table's page is read-only for this link
    csrf = client.cookies.get("honba_csrf")
    for token in ("", own, own[:-2] + "xx", "nonsense"):
        form = {"csrf": csrf, "token": token, "client_key": "k", **WIN_3_30}
        assert client.post("/matches/t2/record", data=form).status_code == 403
        assert client.post("/matches/t2/preview", data=form).status_code == 403
        api = client.post("/api/matches/t2/entries", json=WIN_3_30, headers={"Authorization": f"Bearer {token}"})
        assert api.status_code == 403
    assert ledger(store_db, "t2") == []
    api = client.post("/api/matches/t2/entries", json=WIN_3_30, headers={"Authorization": f"Bearer {referee}"})
    assert api.status_code == 200
    assert len(ledger(store_db, "t2")) == 1


def test_a_table_link_cannot_write_to_another_match(tmp_path: Path) -> None:
    """The table page's own form, as a browser sends it, pointed at the other match: refused in words,
    and the other match's page offers that link no form."""
    db = str(tmp_path / "honba.sqlite")
    (token,) = prepare(db, {"t1": PLAYERS, "t2": PLAYERS}, [("table", "t1")])
    with TestClient(create_app(db)) as web:
        action, fields = form_of_page(web.get("/matches/t1", params={"token": token}).text, "entry")
        refused = web.post(action.replace("/t1/", "/t2/"), data={**fields, "kind": "draw"})
        assert refused.status_code == 403
        assert "may not enter results" in element_text(refused.text, "message")
        assert 'id="entry"' not in web.get("/matches/t2", params={"token": token}).text
    assert ledger(db, "t2") == []


def test_a_form_from_another_site_is_refused(store_db: str, client: TestClient) -> None:
    (token,) = prepare(store_db, {"t1": PLAYERS}, [("table", "t1")])
    page = client.get("/matches/t1", params={"token": token}).text
    form = {"token": token, "client_key": hidden(page, "client_key"), **WIN_3_30}
    # No CSRF token (a cross-site form cannot read the cookie), a wrong one, the right one from another origin.
    assert client.post("/matches/t1/record", data=form).status_code == 403
    assert client.post("/matches/t1/record", data={**form, "csrf": "guess"}).status_code == 403
    crossed = client.post(
        "/matches/t1/record",
        data={**form, "csrf": client.cookies.get("honba_csrf")},
        headers={"Origin": "https://evil.example"},
    )
    assert crossed.status_code == 403
    assert ledger(store_db, "t1") == []


def test_a_player_called_script_shows_as_text(store_db: str, client: TestClient) -> None:
    name = "<script>alert(1)</script>"
    (token,) = prepare(store_db, {"t1": ("Ann", "Ben", name, "Dai")}, [("table", "t1")])
    confirm, after = send(client, "t1", token, {"kind": "win", "winner": name, "discarder": "Ann", "limit": "mangan"})
    for page in (confirm, after, client.get("/").text):
        assert name not in page
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_undo_is_a_correction_never_an_erase(store_db: str, client: TestClient) -> None:
    (token,) = prepare(store_db, {"t1": PLAYERS}, [("table", "t1")])
    send(client, "t1", token, WIN_3_30)
    send(client, "t1", token, {"kind": "undo"})
    assert ledger(store_db, "t1") == []  # the hand no longer counts...
    app = HonbaApp.open(store_db)
    try:
        match = app.get_match("t1")
        # ...but it stays in the log, voided by a correction that says who and why.
        assert [type(f).__name__ for _, f in match.history] == ["WinResult", "DealPass"]
        assert len(match.corrections) == 1
        assert match.state.scores == (25000, 25000, 25000, 25000)
    finally:
        app.close()


def test_the_json_api_records_once_per_client_key(store_db: str, client: TestClient) -> None:
    (token,) = prepare(store_db, {"t1": PLAYERS}, [("table", "t1")])
    headers = {"Authorization": f"Bearer {token}"}
    preview = client.post("/api/matches/t1/preview", json=WIN_3_30, headers=headers).json()
    assert "Ann pays Ben 3,900" in preview["lines"]
    draw = {"kind": "draw", "ready": ["Ann"], "client_key": "phone-1"}
    for _ in range(2):
        answer = client.post("/api/matches/t1/entries", json=draw, headers=headers)
        assert answer.status_code == 200
    shown = client.get("/api/matches/t1").json()
    assert len(shown["ledger"]) == 1
    # One ready player of four takes 3,000 from the three not ready (1,000 each): the seeds' noten payment.
    assert shown["ledger"][0]["changes"] == {"Ann": 3000, "Ben": -1000, "Cho": -1000, "Dai": -1000}
    bad = client.post("/api/matches/t1/entries", json={"kind": "win", "winner": "Nobody"}, headers=headers)
    assert bad.status_code == 400 and "error" in bad.json()


def test_an_error_page_reveals_no_database_url_or_password(store_db: str) -> None:
    web = create_app(store_db)

    def broken(*_args: Any, **_kwargs: Any) -> None:
        raise RuntimeError(f"connection to {store_db} failed")

    web.state.served.app.list_matches = broken
    with TestClient(web, raise_server_exceptions=False) as client:
        page = client.get("/")
        assert page.status_code == 500
        assert store_db not in page.text and "Traceback" not in page.text
        # Answered outside the guard middleware (Starlette's server-error layer is the outermost):
        # the security headers all the same, once each.
        for header, value in SECURITY_HEADERS.items():
            assert page.headers.get_list(header) == [value], header
        if "@" in store_db:
            password = store_db.split("://", 1)[1].split("@", 1)[0].split(":", 1)[1]
            assert password not in page.text
        missing = client.get("/api/matches/nope")
        assert missing.status_code == 404 and store_db not in missing.text


def attach(db: str, tournament: str, keys: list[str]) -> None:
    app = HonbaApp.open(db)
    try:

        def change(t: Any) -> None:
            for number, key in enumerate(keys, start=1):
                t.attach(key, PLAYERS, 1, number)

        change_tournament(app, tournament, change, create=True)
    finally:
        app.close()


def honba_command() -> list[str]:
    return [str(Path(sys.executable).with_name("honba"))]


def test_live_standings_move_when_the_command_line_records(
    store_db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prepare(store_db, {"t1": PLAYERS})
    attach(store_db, "Open", ["t1"])
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    with (
        serving(create_app(store_db)) as base,
        httpx.Client(base_url=base, timeout=30) as http,
        http.stream("GET", "/tournaments/Open/events") as events,
    ):
        lines = events.iter_lines()
        first = _next_standings(lines)
        assert "in progress" in first["html"]
        # The command line records a yakuman that busts Ann: the match ends, the server learns of it from
        # the store's notification log. (The command runs in this process, for its start's second of CPU,
        # on a store connection of its own, as another process's would be: the server is not told.)
        ok(store_db, "win", "t1", "Ben:yakuman", "--from", "Ann")
        moved = _next_standings(lines)
        assert moved["position"] > first["position"]
        assert "Ben" in moved["html"] and "No finished match yet" not in moved["html"]


def _next_standings(lines: Iterator[str]) -> dict[str, Any]:
    """The next standings event of the stream (the client's read timeout bounds the wait)."""
    event = ""
    for line in lines:
        if line.startswith("event: "):
            event = line[7:]
        elif line.startswith("data: ") and event == "standings":
            data: dict[str, Any] = json.loads(line[6:])
            return data
    raise AssertionError("the stream ended")


def test_the_standings_page_and_json_show_the_tournament(store_db: str, client: TestClient) -> None:
    prepare(store_db, {"t1": PLAYERS})
    attach(store_db, "Open", ["t1"])
    page = client.get("/tournaments/Open")
    assert page.status_code == 200 and 'id="live"' in page.text
    data = client.get("/api/tournaments/Open/standings").json()
    assert data["tournament"] == "Open" and data["matches"][0]["match"] == "t1"
    assert client.get("/tournaments/Nope").status_code == 404
    found = client.get("/tournaments", params={"name": "Open"}, follow_redirects=False)  # the form on /
    assert found.status_code == 303 and found.headers["location"].endswith("/tournaments/Open")


def test_token_create_shows_the_token_once_and_stores_only_a_salted_hash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    db = str(tmp_path / "honba.sqlite")
    prepare(db, {"t1": PLAYERS})
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    # The command in this process (tests/honba_cli.py: a traceback fails the test); the console script's
    # own start is test_serve_answers_and_never_shows_the_password's.
    token = ok(db, "token", "create", "--role", "table", "--match", "t1").split()[0]
    token_id, secret = token.split(".", 1)
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT token_id, role, match_key, salt, digest FROM honba_access_tokens").fetchall()
    assert [(r[0], r[1], r[2]) for r in rows] == [(token_id, "table", "t1")]
    assert secret not in repr(rows)
    refused = honba(db, "token", "create", "--role", "table")
    assert refused.exit_code == 2 and "name it (--match KEY)" in refused.stderr
    assert "Traceback" not in refused.stderr
    ok(db, "token", "revoke", token_id)
    app = HonbaApp.open(db)
    try:
        from replay.service.common.access import TokenStore

        assert TokenStore(app).check(token) is None
    finally:
        app.close()


def test_serve_answers_and_never_shows_the_password(store_db: str, tmp_path: Path) -> None:
    from web_support import free_port

    prepare(store_db, {"t1": PLAYERS})
    port = free_port()
    # The store named in the environment, so that the password is in no process list either.
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg"), "HONBA_DB": store_db}
    env.pop("HONBA_PUBLIC_URL", None)
    server = subprocess.Popen(
        [*honba_command(), "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert server.stdout is not None
        banner = server.stdout.readline()  # printed before the server starts listening
        assert f":{port}/" in banner
        # uvicorn[standard]'s C parser and loop, honba's dependencies, and the banner says so.
        assert banner.rstrip().endswith(f":{port}/ (httptools, uvloop)"), banner
        # On loopback (the default) it says at start that phones cannot reach it, and what to use.
        said = server.stdout.readline()
        assert said.startswith(
            "honba serve: phones cannot reach 127.0.0.1 (this machine only): serve with --host 0.0.0.0"
        )
        if "@" in store_db:
            password = store_db.split("://", 1)[1].split("@", 1)[0].split(":", 1)[1]
            assert password not in banner
        for _ in range(200):  # bounded: at most about 20 seconds to start listening
            try:
                answer = httpx.get(f"http://127.0.0.1:{port}/matches/t1", timeout=5)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        else:
            raise AssertionError("honba serve did not answer")
        assert answer.status_code == 200 and "Ann" in answer.text
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_a_player_called_script_shows_as_text_in_the_standings_and_its_chart(store_db: str, client: TestClient) -> None:
    name = "<script>alert(1)</script>"
    players = ("Ann", "Ben", name, "Dai")
    (token,) = prepare(store_db, {"t1": players}, [("table", "t1")])
    app = HonbaApp.open(store_db)
    try:
        change_tournament(app, "Open", lambda t: t.attach("t1", players, 1, 1), create=True)
    finally:
        app.close()
    # A yakuman off Ann busts her: the match ends and counts, with a chart of the session.
    send(client, "t1", token, {"kind": "win", "winner": name, "discarder": "Ann", "limit": "yakuman"})
    page = client.get("/tournaments/Open").text
    assert "<svg" in page
    assert name not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_two_winners_on_one_discard_are_each_paid_by_the_discarder(store_db: str, client: TestClient) -> None:
    (token,) = prepare(store_db, {"t1": PLAYERS}, [("table", "t1")])
    fields = {**WIN_3_30, "winner2": "Cho", "han2": "2", "fu2": "30", "riichi": ["Cho"]}
    confirm, _after = send(client, "t1", token, fields)
    # Non-dealers' rons off the dealer's discard: 3 han 30 fu is 3,900, 2 han 30 fu is 2,000 (the score table).
    assert "Ann pays Ben 3,900" in confirm and "Ann pays Cho 2,000" in confirm
    assert ledger(store_db, "t1")[0]["changes"]["Ann"] == -5900
    page = client.get("/matches/t1", params={"token": token}).text
    form = {"csrf": client.cookies.get("honba_csrf"), "token": token, "client_key": hidden(page, "client_key")}
    self_drawn = client.post("/matches/t1/preview", data={**form, **WIN_3_30, "discarder": "", "winner2": "Cho"})
    assert "only on one and the same discard" in errors(self_drawn.text)["discarder"]
