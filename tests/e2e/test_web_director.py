"""The director's pages lose nothing (issue 25): every page is a GET that shows everything again, the
table links and QR codes included; a reissued link revokes the old one; seating while tables play
takes a confirm; withdrawals, substitutes, teams, the format and the clock from the page; every
route refuses without a director's token, and refuses bad input next to its form.

Numbers of the matches played here: Tenhou's rules (25,000 start, 30,000 return, uma +20/+10/-10/
-20, oka +20 to the top). A non-dealer's mangan ron is 8,000 and a non-dealer's yakuman ron 32,000
(the score table); at each table seat 1 rons seat 2 for a mangan (the deal passes), then seat 3 rons
seat 0 for a yakuman, which busts seat 0 (-7,000): the match ends. Final scores 57,000 (seat 3),
33,000 (seat 1), 17,000 (seat 2), -7,000 (seat 0); points (score - 30,000) / 1,000 + uma (+ oka):
seat 3 27 + 20 + 20 = +67, seat 1 3 + 10 = +13, seat 2 -13 - 10 = -23, seat 0 -37 - 20 = -57.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from typing import Any

import pytest
from staged_support import drawn
from starlette.testclient import TestClient
from web_support import errors, form_of_page, prepare, send

from replay.service.common.access import AccessError, TokenStore
from replay.service.director.director import seat_session
from replay.store.application import HonbaApp
from replay.store.tokens import TokenRows
from replay.store.tournaments import get_tournament
from replay.web.app import create_app

EIGHT = ["Ann", "Ben", "Cho", "Dai", "Eve", "Fay", "Gus", "Hal"]
# What each seat of a table played as above takes: +67, +13, -23, -57 by seat 3, 1, 2, 0.
SEAT_POINTS = (-57.0, 13.0, -23.0, 67.0)


@pytest.fixture
def client(store_db: str) -> Iterator[TestClient]:
    with TestClient(create_app(store_db)) as web:
        web.get("/")  # the CSRF cookie
        yield web


def post(client: TestClient, url: str, token: str, status: int = 200, **fields: object) -> str:
    """A form of the director's pages sent (the redirect followed): the page it leads to."""
    response = client.post(url, data={"csrf": client.cookies.get("honba_csrf"), "token": token, **fields})
    assert response.status_code == status, errors(response.text) or response.text[-2000:]
    return response.text


def links(page: str) -> list[str]:
    return re.findall(r'class="table-link" href="([^"]+)"', page)


def token_of(link: str) -> str:
    return link.split("token=")[1].replace("%2E", ".")


def key_of(link: str) -> str:
    return link.split("?")[0].rsplit("/", 1)[1]


def with_store(db: str) -> Any:
    return HonbaApp.open(db)


def seated_open(client: TestClient, db: str, players: list[str] = EIGHT) -> tuple[str, str]:
    """A director's token and the page of session 1 of "Open", seated from the director's page."""
    (director,) = prepare(db, {}, [("director", None)])
    post(client, "/director/tournaments", director, name="Open", players="\n".join(players))
    page = post(client, "/director/t/Open/sessions", director, method="random", seed="3")
    return director, page


def play(client: TestClient, link: str, players: list[str]) -> None:
    """The table's match through its link, as the module says: seat 1 rons seat 2 for a mangan, seat 3
    rons seat 0 for a yakuman (seat 0 busts: the match ends)."""
    key, token = key_of(link), token_of(link)
    send(client, key, token, {"kind": "win", "winner": players[1], "discarder": players[2], "limit": "mangan"})
    send(client, key, token, {"kind": "win", "winner": players[3], "discarder": players[0], "limit": "yakuman"})


def test_a_reload_of_a_session_page_shows_every_table_link_and_qr_code_again(store_db: str, client: TestClient) -> None:
    director, seated = seated_open(client, store_db)
    shown = links(seated)
    assert len(shown) == 2 and seated.count('aria-label="QR code of the table link"') == 2
    again = client.get("/director/t/Open/s/1", params={"token": director}).text
    assert links(again) == shown and again.count('aria-label="QR code of the table link"') == 2
    # Another browser (no cookie, nothing remembered) with the director's link sees the same.
    with TestClient(create_app(store_db)) as other:
        assert links(other.get("/director/t/Open/s/1", params={"token": director}).text) == shown
    # Each link writes to its own match.
    send(client, key_of(shown[0]), token_of(shown[0]), {"kind": "draw"})
    app = with_store(store_db)
    try:
        assert app.get_match("Open-s1-t1").state.hand_number == 2  # the exhaustive draw passed the deal
        # The store keeps hashes only: no secret of a link in the tokens' table.
        rows = TokenRows(app).table_rows("Open-s1-t1")
        assert len(rows) == 1 and token_of(shown[0]).split(".")[1] not in repr(rows)
    finally:
        app.close()


def test_reissuing_a_table_link_revokes_the_old_one_and_shows_the_new(store_db: str, client: TestClient) -> None:
    director, seated = seated_open(client, store_db)
    old = links(seated)
    page = post(client, "/director/t/Open/s/1/t/1/link", director)
    new = links(page)
    assert new[1] == old[1] and new[0] != old[0] and key_of(new[0]) == key_of(old[0]) == "Open-s1-t1"
    assert page.count('aria-label="QR code of the table link"') == 2
    refused = client.post(
        "/matches/Open-s1-t1/record",
        data={"csrf": client.cookies.get("honba_csrf"), "token": token_of(old[0]), "kind": "draw", "client_key": "x"},
    )
    assert refused.status_code == 403
    send(client, "Open-s1-t1", token_of(new[0]), {"kind": "draw"})
    assert links(client.get("/director/t/Open/s/1", params={"token": director}).text) == new


def test_a_link_made_elsewhere_is_shown_once_the_director_makes_it_again(store_db: str, client: TestClient) -> None:
    (director, other) = prepare(store_db, {}, [("director", None), ("director", None)])
    app = with_store(store_db)
    try:
        from replay.service.tournaments.tournaments import create_tournament

        create_tournament(app, "Cup", EIGHT[:4])
        # Seated by the service without a director's token (as the command line's token create does).
        (table,), _ = seat_session(app, TokenStore(app), "Cup", 1, seed=1)
    finally:
        app.close()
    page = client.get("/director/t/Cup/s/1", params={"token": director}).text
    assert links(page) == [] and "made elsewhere" in page
    page = post(client, "/director/t/Cup/s/1/t/1/link", director)
    (made,) = links(page)
    # The link made before is revoked; another director's link does not show this one.
    assert client.get(f"/matches/{table.match}", params={"token": table.token}).text.count("win-form") == 0
    assert links(client.get("/director/t/Cup/s/1", params={"token": other}).text) == []
    send(client, table.match, token_of(made), {"kind": "draw"})


def test_only_a_directors_token_issues_a_table_link_it_can_show_again(store_db: str) -> None:
    # The one reissue use case (TokenStore.reissue: `honba token reissue` and the session's page):
    # with a director's token as issuer the link is made again from it; a referee's is refused.
    (director, referee) = prepare(store_db, {"m1": EIGHT[:4]}, [("director", None), ("referee", None)])
    app = with_store(store_db)
    try:
        tokens = TokenStore(app)
        plain = tokens.reissue("m1")
        assert tokens.table_link(director, "m1") is None and plain.revoked == 0
        issued = tokens.reissue("m1", issuer=director)
        assert issued.revoked == 1 and tokens.check(plain.token) is None
        assert tokens.table_link(director, "m1") == issued.token and tokens.table_link(referee, "m1") is None
        with pytest.raises(AccessError, match="only a director's token"):
            tokens.reissue("m1", issuer=referee)
        assert tokens.check(issued.token) is not None
    finally:
        app.close()


def test_the_director_lists_every_tournament(store_db: str, client: TestClient) -> None:
    (director,) = prepare(store_db, {}, [("director", None)])
    assert "No tournament yet" in client.get("/director", params={"token": director}).text
    post(client, "/director/tournaments", director, name="Spring <b>cup", players="Ann\nBen")
    post(client, "/director/tournaments", director, name="Autumn", players="Cho")
    page = client.get("/director", params={"token": director}).text
    listed = re.findall(r'<li><a href="/director/t/([^?"]+)\?token=', page)
    assert listed == ["Autumn", "Spring%20%3Cb%3Ecup"]
    assert "Spring &lt;b&gt;cup" in page and "2 players" in page
    # A name a path cannot hold is refused (by the domain's bound, as on the command line), next to its field.
    refused = post(client, "/director/tournaments", director, 400, name="a/b", players="Ann")
    assert "holds &#39;/&#39;: a tournament&#39;s name is the end of its web address" in errors(refused)["name"]


def test_the_tournament_page_is_titled_by_its_name_and_shows_the_signed_result_once(
    store_db: str, client: TestClient
) -> None:
    director, _seated = seated_open(client, store_db)
    page = client.get("/director/t/Open", params={"token": director}).text
    assert "<title>Open - director - honba</title>" in page
    assert page.count('id="certificate"') == page.count('id="certificate-form"') == 1


def test_seating_while_tables_play_warns_and_takes_a_confirm(store_db: str, client: TestClient) -> None:
    director, _seated = seated_open(client, store_db)
    page = client.get("/director/t/Open", params={"token": director}).text
    assert 'id="still-playing"' in page and "Open-s1-t1, Open-s1-t2" in page
    assert 'name="while_playing" value="yes" required' in page
    refused = post(client, "/director/t/Open/sessions", director, 400, method="random")
    assert "confirm to seat session 2 anyway" in errors(refused)["session"]
    app = with_store(store_db)
    try:
        assert 2 not in get_tournament(app, "Open").sessions
    finally:
        app.close()
    seated = post(client, "/director/t/Open/sessions", director, method="random", while_playing="yes")
    assert len(links(seated)) == 2 and "Session 2 of Open" in seated


def test_tables_are_listed_by_session_then_table_number(store_db: str, client: TestClient) -> None:
    players = [f"P{n:02d}" for n in range(44)]  # 11 tables: "Table 10" must not come before "Table 2"
    director, _seated = seated_open(client, store_db, players)
    page = client.get("/director/t/Open", params={"token": director}).text
    warning = re.search(r'id="still-playing">.*?</strong> ([^.]*)\.', page)
    assert warning is not None
    assert warning.group(1).split(", ") == [f"Open-s1-t{n}" for n in range(1, 12)]
    standings = client.get("/tournaments/Open").text
    assert re.findall(r"<h3>Table (\d+) ", standings) == [str(n) for n in range(1, 12)]


def test_a_staged_event_never_seats_from_standings_that_are_not_final(store_db: str, client: TestClient) -> None:
    (director,) = prepare(store_db, {}, [("director", None)])
    post(client, "/director/tournaments", director, name="Cup", players="\n".join(EIGHT))
    post(client, "/director/t/Cup/format", director, stages="league:2:seating=fewest-repeats,later=swiss")
    post(client, "/director/t/Cup/sessions", director)
    page = client.get("/director/t/Cup", params={"token": director}).text
    assert "seated from the standings: seat it once they have ended" in page and 'id="seat-form"' not in page
    refused = post(client, "/director/t/Cup/sessions", director, 400, while_playing="yes")
    assert "the standings are not final" in errors(refused)["session"]


def play_session_one(client: TestClient, store_db: str, seated: str) -> list[list[str]]:
    """Every table of session 1 of "Open" played through its link (the page ``seated`` shows); its tables."""
    app = with_store(store_db)
    try:
        tables = get_tournament(app, "Open").sessions[1]
    finally:
        app.close()
    for link, players in zip(links(seated), tables, strict=True):
        play(client, link, players)
    return tables


def test_withdraw_and_substitute_from_the_page(store_db: str, client: TestClient) -> None:
    director, seated = seated_open(client, store_db)
    play_session_one(client, store_db, seated)
    post(client, "/director/t/Open/withdraw", director, player="Dai", after="1", reason="fell ill")
    post(client, "/director/t/Open/substitute", director, substitute="Sub", replaces="Dai", reason="stands in")
    page = client.get("/director/t/Open", params={"token": director}).text
    assert 'Dai <span class="muted">(withdrew after session 1)</span>' in page
    assert 'Sub <span class="muted">(substitute for Dai)</span>' in page
    standings = client.get("/tournaments/Open").text
    assert "withdrew after session 1" in standings and "substitute for Dai" in standings
    post(client, "/director/t/Open/sessions", director, method="random", seed="5")
    app = with_store(store_db)
    try:
        seated_two = [p for t in get_tournament(app, "Open").sessions[2] for p in t]
    finally:
        app.close()
    assert "Sub" in seated_two and "Dai" not in seated_two
    # The domain's refusal, next to its form: Dai withdrew already.
    again = post(client, "/director/t/Open/withdraw", director, 400, player="Dai", after="2", reason="x")
    assert "withdrew already" in errors(again)["withdraw"]


def test_teams_from_the_page_and_their_standings(store_db: str, client: TestClient) -> None:
    director, seated = seated_open(client, store_db)
    post(client, "/director/t/Open/teams", director, team="North", members="Ann\nBen")
    post(client, "/director/t/Open/teams", director, team="South", members="Cho\nDai")
    tables = play_session_one(client, store_db, seated)
    points = {p: SEAT_POINTS[seat] for table in tables for seat, p in enumerate(table)}
    page = client.get("/tournaments/Open").text
    teams = dict(re.findall(r'<td class="player">(North|South)</td><td class="num">([-+0-9.]+)</td>', page))
    assert float(teams["North"]) == points["Ann"] + points["Ben"]
    assert float(teams["South"]) == points["Cho"] + points["Dai"]


def test_the_session_clock_from_the_page(store_db: str, client: TestClient) -> None:
    director, _seated = seated_open(client, store_db)
    post(client, "/director/t/Open/s/1/clock", director, action="limit", minutes="60")
    page = post(client, "/director/t/Open/s/1/clock", director, action="start")
    assert 'id="time-limit">60 minutes' in page and "left" in page
    post(client, "/director/t/Open/s/1/t/2/time", director, minutes="5", reason="a long dispute")
    app = with_store(store_db)
    try:
        one, two = app.get_match("Open-s1-t1").clock, app.get_match("Open-s1-t2").clock
    finally:
        app.close()
    assert (one.limit, one.added, two.limit, two.added) == (60, 0, 60, 5)
    assert one.started is not None and one.started == two.started


def test_bad_input_is_refused_next_to_its_form(store_db: str, client: TestClient) -> None:
    director, _seated = seated_open(client, store_db)
    page = post(client, "/director/t/Open/s/1/clock", director, 400, action="limit", minutes="sixty")
    assert "minutes" in errors(page)["clock"]
    page = post(client, "/director/t/Open/s/1/clock", director, 400, action="limit", minutes="100000")
    # Read in MINUTES's bound, as `honba clock set` reads it.
    assert errors(page)["clock"] == "minutes: 100000 is out of range (1 to 1,440)"
    page = post(client, "/director/t/Open/withdraw", director, 400, player="Ann", after="-1", reason="x")
    assert "error-withdraw" in page
    page = post(client, "/director/t/Open/format", director, 400, stages="final")
    assert "NAME:SESSIONS" in errors(page)["format"]
    page = post(client, "/director/t/Open/draw/reveal", director, 400, seed="00")
    assert "no draw of session 2 is committed" in errors(page)["draw"]
    page = post(client, "/director/t/Open/draw/commit", director, 400, commitment="not hex")
    assert "64 hexadecimal digits" in errors(page)["draw"]
    # Names and reasons are bounded as everywhere (one line, domain.bounds): nothing stored.
    page = post(client, "/director/t/Open/teams", director, 400, team="T" * 500, members="Ann")
    assert "team" in errors(page)["team"]
    page = post(
        client, "/director/t/Open/substitute", director, 400, substitute="Sub\x1b[2J", replaces="Ann", reason="x"
    )
    assert "control character" in errors(page)["substitute"]
    page = post(client, "/director/t/Open/withdraw", director, 400, player="Ann", after="1", reason="x" * 5000)
    assert "reason" in errors(page)["withdraw"]
    app = with_store(store_db)
    try:
        tournament = get_tournament(app, "Open")
        assert (tournament.teams, tournament.substitutes, tournament.withdrawn) == ({}, {}, {})
    finally:
        app.close()
    assert client.get("/director/t/Open/s/9", params={"token": director}).status_code == 400
    assert client.get("/director/t/Nope", params={"token": director}).status_code == 404
    # A session's or a table's number in the path is read as every number the web reads (site.number).
    for bad in ("x", "\u00b2", "\u0663", "9" * 5000, "0"):
        refused = client.get(f"/director/t/Open/s/{bad}", params={"token": director})
        assert refused.status_code == 400 and "session: " in refused.text, bad
        refused = client.post(f"/director/t/Open/s/1/t/{bad}/time", data={"minutes": "5"})
        assert refused.status_code == 400 and "table: " in refused.text, bad


def test_a_refused_form_comes_back_with_what_was_typed(store_db: str, client: TestClient) -> None:
    director, _seated = seated_open(client, store_db)
    typed: list[tuple[str, str, str, dict[str, str]]] = [
        # (the form's route, its id, the error's field, what was typed: each refused)
        (
            "sessions",
            "seat-form",
            "session",
            {"method": "random", "seed": "9" * 40, "rules": "ema", "while_playing": "yes"},
        ),
        ("players", "players-form", "players", {"players": "Zed\n" + "Y" * 500}),
        ("withdraw", "withdraw-form", "withdraw", {"player": "Cho", "after": "-1", "reason": "fell ill"}),
        ("substitute", "substitute-form", "substitute", {"substitute": "Sub", "replaces": "Cho", "reason": "x" * 5000}),
        ("teams", "team-form", "team", {"team": "T" * 500, "members": "Ann\nBen"}),
        ("draw/commit", "commit-form", "draw", {"commitment": "not hex"}),
        ("format", "format-form", "format", {"stages": "final", "substitutes": "ema", "team_points": "average"}),
        ("format", "format-form", "format", {"stages": "a:1\nb:x", "teams_apart": "yes"}),
        ("s/1/clock", "limit-form", "clock", {"action": "limit", "minutes": "sixty"}),
    ]
    for route, form, field, fields in typed:
        page = post(client, f"/director/t/Open/{route}", director, 400, **fields)
        assert field in errors(page), (route, errors(page))
        _action, shown = form_of_page(page, form)
        assert {name: shown.get(name) for name in fields} == fields, form
        # The other forms come back as they were: what one form typed is not put into another.
        if "/" not in route:
            other = "withdraw-form" if form != "withdraw-form" else "substitute-form"
            assert form_of_page(page, other)[1]["reason"] == ""
    fields = {"minutes": "5000", "reason": "a long dispute"}
    page = post(client, "/director/t/Open/s/1/t/2/time", director, 400, **fields)
    assert "table-2" in errors(page)
    _action, shown = form_of_page(page, "add-time-2")
    assert {name: shown.get(name) for name in fields} == fields
    # A seed committed elsewhere, then a seed that is not it: the reveal form keeps the seed and the rules.
    commitment = hashlib.sha256(bytes.fromhex("ab" * 32)).hexdigest()
    post(client, "/director/t/Open/draw/commit", director, commitment=commitment)
    fields = {"seed": "cd" * 32, "rules": "ema", "while_playing": "yes"}
    page = post(client, "/director/t/Open/draw/reveal", director, 400, **fields)
    assert "draw" in errors(page)
    assert {name: form_of_page(page, "reveal-form")[1].get(name) for name in fields} == fields


def test_every_director_route_refuses_without_a_directors_token(store_db: str, client: TestClient) -> None:
    director, seated = seated_open(client, store_db)
    (referee,) = prepare(store_db, {}, [("referee", None)])
    table = token_of(links(seated)[0])
    gets = ["/director", "/director/t/Open", "/director/t/Open/s/1"]
    posts = [
        "/director/tournaments",
        "/director/t/Open/players",
        "/director/t/Open/sessions",
        "/director/t/Open/draw/commit",
        "/director/t/Open/draw/reveal",
        "/director/t/Open/format",
        "/director/t/Open/withdraw",
        "/director/t/Open/substitute",
        "/director/t/Open/teams",
        "/director/t/Open/certificate",
        "/director/t/Open/s/1/clock",
        "/director/t/Open/s/1/t/1/time",
        "/director/t/Open/s/1/t/1/link",
    ]
    app = with_store(store_db)
    try:
        version = get_tournament(app, "Open").version
    finally:
        app.close()
    for token in ("", table, referee, director + "x"):
        for url in gets:
            assert client.get(url, params={"token": token}).status_code == 403, url
        for url in posts:
            fields = {"csrf": client.cookies.get("honba_csrf"), "token": token, "name": "X", "players": "Zed",
                      "minutes": "5", "action": "limit", "team": "T", "members": "Ann", "stages": "a:1"}  # fmt: skip
            assert client.post(url, data=fields).status_code == 403, url
    # Without the form's CSRF token, the director's own token is refused too.
    assert client.post("/director/t/Open/players", data={"token": director, "players": "Zed"}).status_code == 403
    app = with_store(store_db)
    try:
        assert get_tournament(app, "Open").version == version
        assert app.get_match("Open-s1-t1").clock.limit is None
    finally:
        app.close()


def table_rows(page: str, table_id: str) -> list[list[str]]:
    """The cells' text of a table of a page, row by row."""
    body = page.split(f'id="{table_id}"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.DOTALL)
    cell = re.compile(r"<td[^>]*>(.*?)</td>", re.DOTALL)
    cells = [[re.sub(r"<[^>]+>", "", c).strip() for c in cell.findall(r)] for r in rows]
    return [row for row in cells if row]  # the header's row has no <td>


def test_a_small_staged_event_runs_from_the_director_page(store_db: str, client: TestClient) -> None:
    """Eight players: a qualification of one session seated by a committed draw, the top 4 to a final
    table seated 1-4 by rank, points kept. Every step from the director's page; the tables play through
    their links; each seating and the standings checked against a calculation of this test's own."""
    (director,) = prepare(store_db, {}, [("director", None)])
    post(client, "/director/tournaments", director, name="Cup", players="\n".join(EIGHT))
    post(client, "/director/t/Cup/format", director, stages="qualification:1:advance=4\nfinal:1")
    page = client.get("/director/t/Cup", params={"token": director}).text
    assert 'id="commit-form"' in page and 'id="seat-form"' not in page
    page = post(client, "/director/t/Cup/draw/commit", director)
    commitment = re.search(r'id="commitment">([0-9a-f]{64})<', page).group(1)  # type: ignore[union-attr]
    seed = re.search(r'id="seed">([0-9a-f]{64})<', page).group(1)  # type: ignore[union-attr]
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest() == commitment
    # The public sees the commitment before the draw, never the seed.
    public = client.get("/tournaments/Cup").text
    assert commitment in public and seed not in public and "published before the draw" in public
    seated = post(client, "/director/t/Cup/draw/reveal", director, rules="tenhou")
    app = with_store(store_db)
    try:
        qualification = get_tournament(app, "Cup").sessions[1]
    finally:
        app.close()
    assert qualification == drawn(seed, EIGHT)
    assert "the seed is the one committed and draws this session" in client.get("/tournaments/Cup").text
    for link, players in zip(links(seated), qualification, strict=True):
        play(client, link, players)
    points = {p: SEAT_POINTS[seat] for table in qualification for seat, p in enumerate(table)}
    # Equal points come with equal places, first places and net scores here: the name decides.
    order = sorted(EIGHT, key=lambda p: (-points[p], p))
    seated = post(client, "/director/t/Cup/sessions", director, rules="tenhou")
    app = with_store(store_db)
    try:
        final = get_tournament(app, "Cup").sessions[2]
    finally:
        app.close()
    assert final == [order[:4]]  # the final table seats ranks 1 to 4 in seat order
    public = client.get("/tournaments/Cup").text
    statuses = {row[1]: row[4] for row in table_rows(public, "stage-1")}  # rank, player, points, matches, status
    assert statuses == {p: "advanced" if p in order[:4] else "cut" for p in EIGHT}
    assert '<section id="needs">' in public  # the final table is the last session: what each needs
    play(client, links(seated)[0], final[0])
    total = {p: points[p] + SEAT_POINTS[seat] for seat, p in enumerate(final[0])}
    # The final ranks by its points; two tied at +80 are parted by the better place in the final.
    place = {p: (4, 2, 3, 1)[seat] for seat, p in enumerate(final[0])}
    ranked = sorted(final[0], key=lambda p: (-total[p], place[p]))
    # Those cut follow, by their qualification: players tied on every tie-break share a rank (the
    # name only orders the list).
    cut = order[4:]
    cut_rank = {p: 5 + sum(points[q] > points[p] for q in cut) for p in cut}
    overall = table_rows(client.get("/tournaments/Cup").text, "overall")
    assert [(r[0], r[1], r[2], float(r[3])) for r in overall] == [
        *((str(i), p, "final", total[p]) for i, p in enumerate(ranked, start=1)),
        *((str(cut_rank[p]), p, "qualification", points[p]) for p in cut),
    ]
