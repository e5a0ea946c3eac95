"""honba serve for the director and the referee: tournaments, seatings, table links, corrections, audit."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from honba_cli import ok
from starlette.testclient import TestClient
from web_support import PLAYERS, element_text, errors, form_of_page, prepare, send

from domain.bounds import NAME, TEXT, TOURNAMENT
from projections.ledger import corrected_ledger
from replay.store.application import HonbaApp
from replay.store.tournaments import get_tournament
from replay.web.app import create_app

EIGHT = ["Ann", "Ben", "Cho", "Dai", "Eve", "Fay", "Gus", "<b>Hal</b>"]


@pytest.fixture
def client(store_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(store_db)) as web:
        yield web


def post(client: TestClient, url: str, token: str, **fields: object) -> str:
    response = client.post(url, data={"csrf": client.cookies.get("honba_csrf"), "token": token, **fields})
    assert response.status_code == 200, response.text
    return response.text


def test_the_director_seats_a_session_with_table_links_that_write_to_their_own_match(
    store_db: str, client: TestClient
) -> None:
    (director,) = prepare(store_db, {}, [("director", None)])
    assert client.get("/director", params={"token": director}).status_code == 200
    page = post(client, "/director/tournaments", director, name="Open", players="\n".join(EIGHT))
    assert "&lt;b&gt;Hal&lt;/b&gt;" in page and "<b>Hal</b>" not in page
    seated = post(client, "/director/t/Open/sessions", director, session="1", method="fewest-repeats", seed="3")
    links = re.findall(r'class="table-link" href="([^"]+)"', seated)
    assert len(links) == 2 and seated.count("<svg") == 2  # a link and a QR code per table
    app = HonbaApp.open(store_db)
    try:
        tournament = get_tournament(app, "Open")
        assert sorted(p for t in tournament.sessions[1] for p in t) == sorted(EIGHT)
        assert set(tournament.matches) == {"Open-s1-t1", "Open-s1-t2"}
    finally:
        app.close()
    own = links[0].split("token=")[1].replace("%2E", ".")
    send(client, "Open-s1-t1", own, {"kind": "draw"})
    refused = client.post(
        "/matches/Open-s1-t2/record",
        data={"csrf": client.cookies.get("honba_csrf"), "token": own, "kind": "draw", "client_key": "x"},
    )
    assert refused.status_code == 403
    # The second session keeps the players of a table apart where it can: 8 players at 2 tables must meet
    # again, but no four of one table sit together twice. Both tables still play: seated on a confirm only.
    fields = {"csrf": client.cookies.get("honba_csrf"), "token": director, "method": "fewest-repeats", "seed": "1"}
    warned = client.post("/director/t/Open/sessions", data=fields)
    assert warned.status_code == 400
    assert "confirm to seat session 2 anyway" in errors(warned.text)["session"]
    post(client, "/director/t/Open/sessions", director, method="fewest-repeats", seed="1", while_playing="yes")
    app = HonbaApp.open(store_db)
    try:
        first, second = get_tournament(app, "Open").sessions[1], get_tournament(app, "Open").sessions[2]
        assert all(sorted(t) not in [sorted(u) for u in first] for t in second)
    finally:
        app.close()


def test_only_the_director_runs_tournaments(store_db: str, client: TestClient) -> None:
    table, referee = prepare(store_db, {"t1": PLAYERS}, [("table", "t1"), ("referee", None)])
    for token in ("", table, referee):
        assert client.get("/director", params={"token": token}).status_code == 403
        client.get("/")
        response = client.post(
            "/director/tournaments", data={"csrf": client.cookies.get("honba_csrf"), "token": token, "name": "X"}
        )
        assert response.status_code == 403


def test_the_referee_voids_amends_and_adds_a_penalty_with_who_and_why(store_db: str, client: TestClient) -> None:
    table, referee = prepare(store_db, {"t1": PLAYERS}, [("table", "t1"), ("referee", None)])
    send(client, "t1", table, {"kind": "win", "winner": "Ben", "discarder": "Ann", "han": "3", "fu": "30"})
    send(client, "t1", table, {"kind": "draw", "ready": ["Ann"]})
    assert client.get("/referee", params={"token": table}).status_code == 403
    desk = client.get("/referee/m/t1", params={"token": referee}).text
    positions = [int(p) for p in re.findall(r'<option value="(\d+)">#', desk)]
    # The desk names entries by the numbers honba log shows (lines of the exported file; 1 is the start).
    assert positions == [2, 3]
    url = "/referee/m/t1/correct"
    # Without who or why, nothing is recorded, and the page says what is missing next to the field.
    missing = client.post(
        url, data={"csrf": client.cookies.get("honba_csrf"), "token": referee, "action": "void", "target": positions[1]}
    )
    assert missing.status_code == 400 and "by" in errors(missing.text)
    post(client, url, referee, action="amend", target=positions[0], kind="win", winner="Ben", discarder="Ann",
         value="4/30", by="Referee Kim", reason="the sheet says 4 han", client_key="c1")  # fmt: skip
    post(client, url, referee, action="void", target=positions[1], by="Referee Kim", reason="misdeal", client_key="c2")
    post(client, url, referee, action="penalty", player="Dai", amount="900", by="Referee Kim", reason="late",
         client_key="c3")  # fmt: skip
    desk = client.get("/referee/m/t1", params={"token": referee}).text
    assert desk.count("Referee Kim") == 3 and "the sheet says 4 han" in desk
    app = HonbaApp.open(store_db)
    try:
        match = app.get_match("t1")
        entries = corrected_ledger(match.corrected_steps())
        # 4 han 30 fu by a non-dealer off a discard: 7,700 (the score table); the draw voided; Dai's
        # 900 (shared by three: whole sticks each).
        assert [e.deltas for e in entries if e.kind != "void"][:1] == [(-7700, 7700, 0, 0)]
        assert [e.kind for e in entries].count("penalty") == 1
        assert len(match.correction_log) == 3
    finally:
        app.close()
    audit = client.get("/matches/t1/audit")
    assert audit.status_code == 200 and "Referee Kim" in audit.text


def test_a_session_under_three_player_rules_seats_tables_of_three(store_db: str, client: TestClient) -> None:
    (director,) = prepare(store_db, {}, [("director", None)])
    client.get("/")
    post(client, "/director/tournaments", director, name="Sanma", players="\n".join(EIGHT[:6]))
    page = client.get("/director/t/Sanma", params={"token": director}).text
    assert "<option selected>tenhou</option>" in page and "<option>tenhou-sanma</option>" in page
    post(client, "/director/t/Sanma/sessions", director, session="1", method="random", rules="tenhou-sanma", seed="5")
    app = HonbaApp.open(store_db)
    try:
        tables = get_tournament(app, "Sanma").sessions[1]
        assert [len(t) for t in tables] == [3, 3]
        assert app.get_match("Sanma-s1-t1").rules.players == 3
    finally:
        app.close()
    refused = client.post(
        "/director/t/Sanma/sessions",
        data={"csrf": client.cookies.get("honba_csrf"), "token": director, "session": "2", "rules": "nonsense"},
    )
    assert refused.status_code == 400 and "unknown rules preset" in errors(refused.text)["session"]


def test_every_text_field_hints_the_length_the_domain_takes(store_db: str, client: TestClient) -> None:
    # A maxlength longer than the domain's bound lets a referee type a reason that is then refused;
    # a shorter one cuts off what would have been taken.
    table, referee, director = prepare(
        store_db, {"t1": PLAYERS}, [("table", "t1"), ("referee", None), ("director", None)]
    )
    client.get("/director", params={"token": director})  # the form's cookie
    post(client, "/director/tournaments", director, name="Open", players="\n".join(EIGHT))
    pages = [
        client.get("/referee/m/t1", params={"token": referee}).text,
        client.get("/matches/t1", params={"token": table}).text,
        client.get("/director", params={"token": director}).text,
        client.get("/director/t/Open", params={"token": director}).text,
    ]
    bounds = {"by": NAME, "substitute": NAME, "team": NAME, "reason": TEXT, "note": TEXT, "name": TOURNAMENT}
    seen = set()
    for page in pages:
        for field, longest in re.findall(r'<input name="([a-z_]+)"[^>]*?maxlength="([^"]*)"', page):
            if field in bounds:
                assert longest == str(bounds[field].longest), (field, longest)
                seen.add(field)
    assert seen == set(bounds)


def test_the_referee_amends_one_field_and_the_rest_stays(tmp_path: Path) -> None:
    """The desk's amendment: the form holds the entry as it stands (both winners, the riichi), the
    referee changes Ann's value, the confirm step shows before and after, and only that value changes
    (issue 22: Cho's mangan and riichi stayed). The desk's pages are plain forms without a script:
    each is sent as a browser sends it, what the page holds with what the referee typed."""
    db = str(tmp_path / "honba.sqlite")
    (referee,) = prepare(db, {"t1": PLAYERS}, [("referee", None)])
    ok(db, "win", "t1", "Ann:2/30", "Cho:mangan", "--from", "Ben", "--riichi", "Cho")
    with TestClient(create_app(db)) as client:
        desk = client.get("/referee/m/t1", params={"token": referee}).text
        amend_link = re.search(r'<a class="amend-link" href="([^"]+)"', desk)
        assert amend_link, desk
        action, fields = form_of_page(client.get(html.unescape(amend_link.group(1))).text, "amend-form")
        assert (fields["winner2"], fields["value2"], fields["riichi"]) == ("Cho", "mangan", "Cho")
        fields.update(value="3/30", by="Referee Kim", reason="the sheet says 3 han")
        confirm = client.post(action, data=fields)
        assert confirm.status_code == 200, errors(confirm.text)
        assert "Ann ron on Ben: 2 han 30 fu" in element_text(confirm.text, "correction-before")
        after = element_text(confirm.text, "correction-after")
        assert "Ann ron on Ben: 3 han 30 fu; Cho ron on Ben: mangan; riichi: Cho" in after
        action, fields = form_of_page(confirm.text, "confirm-form")
        recorded = client.post(action, data=fields)
        assert recorded.status_code == 200 and 'id="corrections"' in recorded.text
    (hand,) = json.loads(ok(db, "log", "t1", "--json"))["hands"]
    # Ann deals: 5,800 for her 3 han 30 fu, 8,000 for Cho's mangan, Cho's stick back to Cho.
    assert hand["changes"] == {"Ann": 5800, "Ben": -13800, "Cho": 8000, "Dai": 0}
