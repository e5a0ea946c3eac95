"""What one front end can do, the others can: issue 22, "Seen" 4, case by case (docs/parity.md).

- "No front end but the CLI can end a match (time limit)": the table page (through its confirm
  step), the referee's desk, the director's page (through the desk) and the JSON API end one early.
- "An ended match cannot be reopened": the desk and the API reopen it, a correction with who and why
  (the command line's ``honba reopen``, ``undo`` and ``void``: tests/e2e/test_reopen.py).
- "The director cannot show a table's link again": the session's page shows each again, and reissues
  one with a QR code; ``honba token reissue`` does from the command line; the old link stops writing.
- "The CLI cannot seat a session (only the web seats, with fewest repeats)": ``honba tournament seat
  NAME SESSION --method`` seats through the same use case as the director's page.
- "The web asks to 'add or withdraw' players but nothing withdraws": the director's page withdraws
  a player and seats a substitute (issue 27's use cases); the next session seats them accordingly.
- (``honba tournament seat`` and ``attach`` refusing a player twice, at two tables, or a match of
  other players: tests/e2e/test_event_players.py::
  test_a_session_seats_each_player_once_and_a_match_plays_at_its_own_table, done before this change.)
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from honba_cli import Honba
from starlette.testclient import TestClient
from web_support import PLAYERS, errors, hidden, prepare, send

from replay.store.application import HonbaApp
from replay.store.tournaments import get_tournament
from replay.web.app import create_app

EIGHT = ["Ann", "Ben", "Cho", "Dai", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def client(store_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(store_db)) as web:
        yield web


def post(client: TestClient, url: str, token: str, status: int = 200, **fields: object) -> str:
    response = client.post(url, data={"csrf": client.cookies.get("honba_csrf"), "token": token, **fields})
    assert response.status_code == status, response.text
    return response.text


def state(db: str, key: str) -> tuple[bool, dict[str, int]]:
    app = HonbaApp.open(db)
    try:
        match = app.get_match(key)
        return match.state.finished, dict(zip(match.players, match.state.scores, strict=True))
    finally:
        app.close()


# Ending early and reopening.


def test_the_table_page_ends_a_match_early_through_its_confirm_step(store_db: str, client: TestClient) -> None:
    (table,) = prepare(store_db, {"t1": PLAYERS}, [("table", "t1")])
    send(client, "t1", table, {"kind": "win", "winner": "Ben", "discarder": "Ann", "han": "3", "fu": "30"})
    page = client.get("/matches/t1", params={"token": table}).text
    assert 'id="end-entry"' in page
    # Without a reason the confirm step says what is missing, next to the field.
    form = {"csrf": client.cookies.get("honba_csrf"), "token": table, "client_key": hidden(page, "client_key")}
    missing = client.post("/matches/t1/preview", data={**form, "kind": "end", "reason": ""})
    assert missing.status_code == 400 and "reason" in errors(missing.text)
    confirm, after = send(client, "t1", table, {"kind": "end", "reason": "time limit"})
    # The confirm step says the end once, in words, and the final scores (3 han 30 fu off Ann: 3,900).
    assert "Recording this ends the match (time limit)." in confirm and "The match end" not in confirm
    assert "Ann 21,100" in confirm and "Ben 28,900" in confirm
    assert state(store_db, "t1") == (True, {"Ann": 21100, "Ben": 28900, "Cho": 25000, "Dai": 25000})
    assert "finished" in after and 'id="end-entry"' not in after


def test_the_api_ends_a_match_early_and_a_referee_reopens_it(store_db: str, client: TestClient) -> None:
    table, referee = prepare(store_db, {"t1": PLAYERS}, [("table", "t1"), ("referee", None)])
    as_table = {"Authorization": f"Bearer {table}"}
    as_referee = {"Authorization": f"Bearer {referee}"}
    client.post("/api/matches/t1/entries", json={"kind": "win", "winner": "Ben", "value": "3/30"}, headers=as_table)
    shown = client.post("/api/matches/t1/preview", json={"kind": "end", "reason": "time limit"}, headers=as_table)
    assert shown.status_code == 200 and shown.json()["change"]["headline"] == "the match ended as entry 3"
    assert not state(store_db, "t1")[0]  # a preview stores nothing
    ended = client.post(
        "/api/matches/t1/entries", json={"kind": "end", "reason": "time limit", "client_key": "e1"}, headers=as_table
    )
    assert ended.status_code == 200 and ended.json()["finished"]
    # Ben's tsumo of 3 han 30 fu: 1,000 from each non-dealer, 2,000 from the dealer (the score table).
    assert ended.json()["change"]["scores_after"] == {"Ann": 23000, "Ben": 29000, "Cho": 24000, "Dai": 24000}
    # A table cannot reopen (a correction); a referee can, saying who and why.
    body = {"action": "reopen", "by": "Eve", "reason": "they play on", "client_key": "r1"}
    assert client.post("/api/matches/t1/corrections", json=body, headers=as_table).status_code == 403
    no_reason = client.post("/api/matches/t1/corrections", json={**body, "reason": ""}, headers=as_referee)
    assert no_reason.status_code == 400 and no_reason.json()["field"] == "reason"
    # The correction's confirm step on the API, as docs/web.md gives it: what it would do, nothing stored.
    shown = client.post("/api/matches/t1/corrections/preview", json=body, headers=as_referee)
    assert shown.status_code == 200, shown.text
    assert shown.json()["correction"]["headline"] == "the match reopened: its end, entry 3, voided by entry 4"
    assert state(store_db, "t1")[0]
    reopened = client.post("/api/matches/t1/corrections", json=body, headers=as_referee)
    assert reopened.status_code == 200, reopened.text
    correction = reopened.json()["correction"]
    assert correction["headline"] == "the match reopened: its end, entry 3, voided by entry 4"
    assert (correction["entry"], correction["before"], correction["after"]) == (3, "match ended (time limit)", "void")
    assert not reopened.json()["finished"]
    # The referee ends it again through the corrections' API as well.
    end = {"action": "end", "reason": "agreed", "client_key": "e2"}
    again = client.post("/api/matches/t1/corrections", json=end, headers=as_referee)
    assert again.status_code == 200 and again.json()["finished"]
    assert again.json()["correction"]["headline"] == "the match ended as entry 5"


def test_the_referee_ends_and_reopens_at_the_desk_and_the_desk_says_what_it_did(
    store_db: str, client: TestClient
) -> None:
    table, referee = prepare(store_db, {"t1": PLAYERS}, [("table", "t1"), ("referee", None)])
    send(client, "t1", table, {"kind": "win", "winner": "Ben", "discarder": "Ann", "han": "3", "fu": "30"})
    desk = client.get("/referee/m/t1", params={"token": referee}).text
    assert 'id="end-form"' in desk and 'id="reopen-form"' not in desk
    confirm = post(client, "/referee/m/t1/correct/preview", referee, action="end", reason="time limit")
    assert "To record: the match ended as entry 3." in confirm
    assert not state(store_db, "t1")[0]
    done = post(client, "/referee/m/t1/correct", referee, action="end", reason="time limit", client_key="k1")
    assert "Recorded: the match ended as entry 3." in done and "The match has ended (time limit)" in done
    assert 'id="reopen-form"' in done and 'id="end-form"' not in done
    confirm = post(client, "/referee/m/t1/correct/preview", referee, action="reopen", by="Kim", reason="on again")
    assert "To record: the match reopened: its end, entry 3, voided by entry 4." in confirm
    done = post(client, "/referee/m/t1/correct", referee, action="reopen", by="Kim", reason="on again", client_key="k2")
    assert "Recorded: the match reopened: its end, entry 3, voided by entry 4." in done
    assert not state(store_db, "t1")[0]


def test_the_desk_says_which_entry_a_void_touched_what_it_was_and_the_scores_after(
    store_db: str, client: TestClient
) -> None:
    table, referee = prepare(store_db, {"t1": PLAYERS}, [("table", "t1"), ("referee", None)])
    send(client, "t1", table, {"kind": "win", "winner": "Ben", "discarder": "Ann", "han": "3", "fu": "30"})
    done = post(
        client, "/referee/m/t1/correct", referee, action="void", target="2", by="Kim", reason="x", client_key="v"
    )
    assert "Recorded: entry 2 voided by entry 3." in done
    found = dict(re.findall(r'<td id="correction-(before|after)">([^<]*)</td>', done))
    assert found == {"before": "Ben ron on Ann: 3 han 30 fu", "after": "void"}
    assert re.search(r"<td>Ann</td><td class=\"num\">21,100</td><td class=\"num\">25,000</td>", done)


def test_the_director_ends_a_table_early_through_the_desk(store_db: str, client: TestClient) -> None:
    (director,) = prepare(store_db, {}, [("director", None)])
    client.get("/director", params={"token": director})
    post(client, "/director/tournaments", director, name="Cup", players="\n".join(EIGHT))
    post(client, "/director/t/Cup/sessions", director, method="random", seed="1")
    page = client.get("/director/t/Cup/s/1", params={"token": director}).text
    # Each table of the session's page has its form to end its match early, going to the desk's confirm step.
    assert page.count('class="inline end-form"') == 2 and 'action="/referee/m/Cup-s1-t1/correct/preview"' in page
    confirm = post(client, "/referee/m/Cup-s1-t1/correct/preview", director, action="end", reason="time limit")
    assert "To record: the match ended as entry 2." in confirm
    post(client, "/referee/m/Cup-s1-t1/correct", director, action="end", reason="time limit", client_key="d1")
    assert state(store_db, "Cup-s1-t1")[0]
    # An ended table offers no end form any more.
    page = client.get("/director/t/Cup/s/1", params={"token": director}).text
    assert page.count('class="inline end-form"') == 1 and "Cup-s1-t1/correct/preview" not in page


# A table's link issued again.


def _link(page: str, match: str) -> str:
    return re.findall(rf'class="table-link" href="[^"]*{match}\?token=([^"]+)"', page)[0].replace("%2E", ".")


def test_the_director_issues_a_table_link_again_and_the_old_one_stops_writing(
    store_db: str, client: TestClient
) -> None:
    (director,) = prepare(store_db, {}, [("director", None)])
    client.get("/director", params={"token": director})
    post(client, "/director/tournaments", director, name="Cup", players="\n".join(EIGHT))
    seated = post(client, "/director/t/Cup/sessions", director, method="random", seed="1")
    old = _link(seated, "Cup-s1-t1")
    issued = post(client, "/director/t/Cup/s/1/t/1/link", director)
    new = _link(issued, "Cup-s1-t1")
    assert new != old and "<svg" in issued
    assert "Table 1's link reissued: 1 revoked" in issued
    refused = client.post(
        "/matches/Cup-s1-t1/preview",
        data={"csrf": client.cookies.get("honba_csrf"), "token": old, "kind": "draw", "client_key": "x"},
    )
    assert refused.status_code == 403
    # The old link is told it was issued again (not "may not enter results"), on the page and to its script.
    said = "this table's link was issued again: this one no longer enters results (ask the director for the new link)"
    assert said in html.unescape(refused.text)
    page = client.get("/matches/Cup-s1-t1", params={"token": old}).text
    assert 'id="replaced"' in page and 'id="entry"' not in page
    checked = client.post(
        "/matches/Cup-s1-t1/check",
        data={"csrf": client.cookies.get("honba_csrf"), "token": old, "kind": "draw"},
        headers={"accept": "application/json"},
    )
    assert checked.status_code == 403 and checked.json() == {"error": said}
    # Another table's link, or a made-up one, is not told so.
    other = client.get("/matches/Cup-s1-t1", params={"token": _link(seated, "Cup-s1-t2")}).text
    assert 'id="replaced"' not in other
    send(client, "Cup-s1-t1", new, {"kind": "draw"})
    # The other table's link still writes; a table the session does not have gets no link.
    send(client, "Cup-s1-t2", _link(seated, "Cup-s1-t2"), {"kind": "draw"})
    stranger = post(client, "/director/t/Cup/s/1/t/9/link", director, status=400)
    assert "has no match at table 9" in errors(stranger)["tables"]


def test_honba_token_reissue_revokes_the_table_s_earlier_links(tmp_path: Path) -> None:
    db = tmp_path / "honba.sqlite"
    cli = Honba(db)
    cli.ok("start", "t1", "--players", "Ann,Ben,Cho,Dai")
    first = cli.ok("token", "create", "--role", "table", "--match", "t1").splitlines()[0]
    said = cli.ok("token", "reissue", "--match", "t1")
    new = said.splitlines()[0]
    assert f"table link: /matches/t1?token={new}" in said and "revoked 1 earlier table link of t1" in said
    app = HonbaApp.open(str(db))
    try:
        from replay.service.common.access import TokenStore

        tokens = TokenStore(app)
        assert tokens.check(first) is None and tokens.check(new) is not None
    finally:
        app.close()
    assert "no match 'nowhere'" in cli.refused("token", "reissue", "--match", "nowhere")


# Seating from the command line, through the director's use case.


def test_the_command_line_seats_a_session_as_the_director_s_page_does(tmp_path: Path) -> None:
    cli = Honba(tmp_path / "cli.sqlite")
    cli.ok("tournament", "create", "Cup", "--players", ",".join(EIGHT))
    said = cli.ok("tournament", "seat", "Cup", "1", "--method", "random", "--seed", "5")
    assert "Session 1 of 'Cup' seated (random): 2 tables" in said
    assert len(re.findall(r"table link: /matches/Cup-s1-t\d\?token=\S+", said)) == 2
    # The director's page, on a store of its own, with the same seed: the same seating.
    web_db = str(tmp_path / "web.sqlite")
    (director,) = prepare(web_db, {}, [("director", None)])
    with TestClient(create_app(web_db)) as client:
        client.get("/director", params={"token": director})
        post(client, "/director/tournaments", director, name="Cup", players="\n".join(EIGHT))
        post(client, "/director/t/Cup/sessions", director, method="random", seed="5")
    seatings = []
    for db in (str(tmp_path / "cli.sqlite"), web_db):
        app = HonbaApp.open(db)
        try:
            tournament = get_tournament(app, "Cup")
            seatings.append(tournament.sessions[1])
            assert set(tournament.matches) == {"Cup-s1-t1", "Cup-s1-t2"}
        finally:
            app.close()
    assert seatings[0] == seatings[1]
    # The second session keeps players of a first-session table apart (fewest repeats, the default).
    cli.ok("tournament", "seat", "Cup", "2")
    app = HonbaApp.open(str(tmp_path / "cli.sqlite"))
    try:
        first, second = get_tournament(app, "Cup").sessions[1], get_tournament(app, "Cup").sessions[2]
        assert all(sorted(t) not in [sorted(u) for u in first] for t in second)
    finally:
        app.close()
    assert "not both" in cli.refused("tournament", "seat", "Cup", "3", "Ann,Ben,Cho,Dai", "--method", "random")


# Withdrawing a player and seating a substitute from the web.


def test_the_director_withdraws_a_player_and_seats_a_substitute(store_db: str, client: TestClient) -> None:
    (director,) = prepare(store_db, {}, [("director", None)])
    client.get("/director", params={"token": director})
    post(client, "/director/tournaments", director, name="Cup", players="\n".join(EIGHT))
    page = post(client, "/director/t/Cup/withdraw", director, player="Hal", after="0", reason="ill")
    assert 'Hal <span class="muted">(withdrew after session 0)</span>' in page
    # Seven players left: the page says what the seating lacks, and seats nobody.
    short = post(client, "/director/t/Cup/sessions", director, status=400, method="random")
    assert errors(short)["session"] == "7 players do not fill tables of 4: add 1 or withdraw 3 (or seat substitutes)"
    page = post(client, "/director/t/Cup/substitute", director, substitute="Ivy", replaces="Hal", reason="for Hal")
    assert 'Ivy <span class="muted">(substitute for Hal)</span>' in page
    refused = post(client, "/director/t/Cup/withdraw", director, status=400, player="Hal", after="0", reason="again")
    assert "withdrew already" in errors(refused)["withdraw"]
    post(client, "/director/t/Cup/sessions", director, method="random", seed="2")
    app = HonbaApp.open(store_db)
    try:
        seated = [p for table in get_tournament(app, "Cup").sessions[1] for p in table]
    finally:
        app.close()
    assert "Hal" not in seated and "Ivy" in seated and len(seated) == 8


NOT_NUMBERS = ["²", "9" * 5000, "٣", "-1", "9" * 30]


@pytest.mark.parametrize("text", NOT_NUMBERS)
def test_the_director_s_forms_read_their_numbers_as_the_command_line_does(
    store_db: str, client: TestClient, text: str
) -> None:
    # The one number reader (domain.bounds.whole_number): ASCII digits, in SEED's, AFTER_SESSION's and
    # MINUTES's bounds, as `honba tournament seat`, `withdraw` and `clock` read them; a refusal names
    # the field, next to its form, and stores nothing.
    (director,) = prepare(store_db, {}, [("director", None)])
    client.get("/director", params={"token": director})
    post(client, "/director/tournaments", director, name="Cup", players="\n".join(EIGHT))
    refused = post(client, "/director/t/Cup/sessions", director, status=400, method="random", seed=text)
    assert errors(refused)["session"].startswith("seed:")
    refused = post(client, "/director/t/Cup/withdraw", director, status=400, player="Hal", after=text, reason="ill")
    assert errors(refused)["withdraw"].startswith("after:")
    app = HonbaApp.open(store_db)
    try:
        assert get_tournament(app, "Cup").sessions == {} and get_tournament(app, "Cup").withdrawn == {}
    finally:
        app.close()
    post(client, "/director/t/Cup/sessions", director, method="random", seed="1")
    refused = post(client, "/director/t/Cup/s/1/clock", director, status=400, action="limit", minutes=text)
    assert errors(refused)["clock"].startswith("minutes:")
    refused = post(client, "/director/t/Cup/s/1/t/1/time", director, status=400, minutes=text, reason="late")
    assert errors(refused)["table-1"].startswith("minutes:")
    app = HonbaApp.open(store_db)
    try:
        assert get_tournament(app, "Cup").time_limits == {}
    finally:
        app.close()
