"""The public pages of issue 27 through the web: the standings with tables in progress (provisional)
and empty states that read sensibly, what-if, ratings with each player's history, a signed result
to download and a page that checks one. The numbers are the service's (tested in test_what_if,
test_ratings, test_certificates); here, that the pages show them and refuse what they must.

The match played: Tenhou's rules, Ben rons Ann for a yakuman (32,000, the score table): Ann busts
at -7,000 and the match ends; Ben 57,000 (+27 + 20 uma + 20 oka = +67), Cho and Dai 25,000 (second
by seat order +5, third -15), Ann -7,000 (-37 - 20 = -57).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from web_support import PLAYERS, errors, prepare, refusal, send

from replay.service.director.certificates import generate_key
from replay.service.tournaments.tournaments import change_tournament
from replay.store.application import HonbaApp
from replay.web.app import create_app

YAKUMAN = {"kind": "win", "winner": "Ben", "discarder": "Ann", "limit": "yakuman"}


@pytest.fixture
def client(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db)) as web:
        web.get("/")
        yield web


def open_cup(db: str, keys: list[str]) -> list[str]:
    """Matches of PLAYERS (and of four others for t2) attached to "Open", session 1; a director's and
    each match's table tokens."""
    others = ("Eve", "Fay", "Gus", "Hal")
    tokens = prepare(
        db,
        {key: PLAYERS if i == 0 else others for i, key in enumerate(keys)},
        [("director", None), *(("table", key) for key in keys)],
    )
    app = HonbaApp.open(db)
    try:

        def attach(t: object) -> None:
            for number, key in enumerate(keys, start=1):
                t.attach(key, PLAYERS if number == 1 else others, 1, number)  # type: ignore[attr-defined]

        change_tournament(app, "Open", attach, create=True)
    finally:
        app.close()
    return tokens


def test_before_any_result_the_standings_page_ranks_nobody_and_charts_nothing(db: str, client: TestClient) -> None:
    open_cup(db, ["t1", "t2"])
    page = client.get("/tournaments/Open").text
    assert "No match has ended yet" in page and "<svg" not in page
    rows = re.findall(r'<tr data-player="[^"]+"><td class="num rank">([^<]*)</td>.*?</tr>', page)
    assert rows == ["—"] * 8
    assert "0.00" not in page and "+0.0" not in page.split('id="in-progress"')[0]


def test_the_standings_page_shows_each_table_in_progress_with_provisional_points(db: str, client: TestClient) -> None:
    _director, table, _other = open_cup(db, ["t1", "t2"])
    send(client, "t1", table, {"kind": "win", "winner": "Ben", "discarder": "Ann", "han": "3", "fu": "30"})
    page = client.get("/tournaments/Open").text
    live = page.split('id="in-progress"', 1)[1].split("</section>", 1)[0]
    assert 'badge provisional">provisional' in live
    # Ann 21,100, Ben 28,900 (3 han 30 fu: 3,900), Cho and Dai 25,000; Ben first with the oka: -1 + 20 + 20.
    card = live.split('data-match="t1"', 1)[1].split("</li>", 1)[0]
    assert '<span class="num">E2-0</span>' in card
    cells = re.findall(r'<td class="player first">(\w+)</td><td class="num">([\d,]+)</td><td class="num">(\d)</td>'
                       r'<td class="num provisional">([-+\d.]+)</td>', card)  # fmt: skip
    assert cells == [("Ann", "21,100", "4", "-29.0"), ("Ben", "28,900", "1", "+39.0"),
                     ("Cho", "25,000", "2", "+5.0"), ("Dai", "25,000", "3", "-15.0")]  # fmt: skip
    assert 'data-match="t2"' in live and "not started" in live


def test_what_if_shows_the_standings_beside_them_as_run_and_refuses_an_unknown_rule(
    db: str, client: TestClient
) -> None:
    _director, table, _other = open_cup(db, ["t1", "t2"])
    send(client, "t1", table, YAKUMAN)
    assert 'id="what-if-form"' in client.get("/tournaments/Open/what-if").text
    page = client.get("/tournaments/Open/what-if", params={"set": "uma=[30,10,-10,-30]"}).text
    # With an uma of 30 for the top Ben takes 27 + 30 + 20 = +77 instead of +67.
    ben = re.search(r'<td class="player">Ben</td><td class="num">([-+\d.]+)</td><td class="num">([-+\d.]+)</td>', page)
    assert ben is not None and ben.groups() == ("+77.0", "+67.0")
    refused = client.get("/tournaments/Open/what-if", params={"set": "nonsense=1"})
    assert refused.status_code == 400 and "nonsense" in refused.text
    # A refusal names the form's field, not the command line's option.
    broken = client.get("/tournaments/Open/what-if", params={"set": "uma=[30,10"})
    assert broken.status_code == 400 and "set &#39;uma&#39;: not a JSON list" in broken.text
    assert "--set" not in broken.text
    assert client.get("/tournaments/Nope/what-if").status_code == 404


def test_the_ratings_pages_list_everyone_and_each_players_history(db: str, client: TestClient) -> None:
    _director, table, _other = open_cup(db, ["t1", "t2"])
    send(client, "t1", table, YAKUMAN)
    page = client.get("/ratings").text
    assert re.findall(r'<td class="player"><a href="/ratings/players/(\w+)\?system=openskill">', page)[0] == "Ben"
    assert "<svg" in page
    history = client.get("/ratings/players/Ben").text
    assert "<svg" in history and history.count('<tr><td class="num">') == 1  # one match rated
    assert client.get("/ratings", params={"system": "ema"}).status_code == 200
    assert client.get("/ratings", params={"system": "elo"}).status_code == 400
    assert client.get("/ratings/players/Nobody").status_code == 400


def sign(client: TestClient, director: str, key: Path) -> int:
    response = client.post(
        "/director/t/Open/certificate",
        data={"csrf": client.cookies.get("honba_csrf"), "token": director},
        files={"key": ("organiser.key", key.read_bytes())},
        follow_redirects=False,
    )
    return response.status_code


def check(client: TestClient, certificate: bytes, key: bytes | None = None) -> tuple[int, str]:
    files = {"certificate": ("cup.cert.json", certificate)}
    if key is not None:
        files["key"] = ("organiser.pub.pem", key)
    response = client.post("/certificates/verify", data={"csrf": client.cookies.get("honba_csrf")}, files=files)
    return response.status_code, response.text


def test_a_signed_result_is_downloaded_and_checked_and_a_changed_one_fails(
    db: str, client: TestClient, tmp_path: Path
) -> None:
    director, table = open_cup(db, ["t1"])
    generate_key(tmp_path / "organiser")
    generate_key(tmp_path / "foreign")
    public = (tmp_path / "organiser.pub.pem").read_bytes()
    assert client.get("/tournaments/Open/certificate").status_code == 404
    # Not before every match has ended; never without a director's token.
    assert sign(client, director, tmp_path / "organiser.key") == 400
    send(client, "t1", table, YAKUMAN)
    assert sign(client, table, tmp_path / "organiser.key") == 403
    assert sign(client, director, tmp_path / "organiser.key") == 303
    download = client.get("/tournaments/Open/certificate")
    assert download.headers["content-disposition"] == 'attachment; filename="Open.cert.json"'
    certificate = download.json()
    assert certificate["certificate"]["tournament"] == "Open"
    assert "signed result" in client.get("/tournaments/Open").text
    status, page = check(client, download.content, public)
    assert status == 200 and "The certificate of Open verifies" in page and "this server" in page
    changed = json.dumps({**certificate, "certificate": {**certificate["certificate"], "tournament": "Open "}})
    status, page = check(client, changed.encode(), public)
    assert "FAILED: the signature does not match the certificate" in page
    status, page = check(client, download.content, (tmp_path / "foreign.pub.pem").read_bytes())
    assert "FAILED: signed by another key" in page
    status, page = check(client, b"not json")
    assert status == 400 and "not a JSON certificate" in errors(page)["certificate"]


def test_the_certificate_forms_take_their_files_only_and_no_larger_than_their_caps(
    db: str, client: TestClient, tmp_path: Path
) -> None:
    from replay.web.certificates import MOST_CERTIFICATE_BYTES, MOST_KEY_BYTES

    director, table = open_cup(db, ["t1"])
    send(client, "t1", table, YAKUMAN)
    csrf = client.cookies.get("honba_csrf")
    generate_key(tmp_path / "organiser")
    key = (tmp_path / "organiser.key").read_bytes()
    # A key file larger than a key is refused by name, as is a second file the form does not take.
    big = {"key": ("organiser.key", key + b"#" * MOST_KEY_BYTES)}
    refused = client.post("/director/t/Open/certificate", data={"csrf": csrf, "token": director}, files=big)
    assert refused.status_code == 400 and "the key file is larger than 16 KiB" in errors(refused.text)["certificate"]
    two = {"key": ("organiser.key", key), "other": ("x.txt", b"x")}
    refused = client.post("/director/t/Open/certificate", data={"csrf": csrf, "token": director}, files=two)
    assert refused.status_code == 400 and refusal(refused).startswith("the form cannot be read: Too many files")
    assert client.get("/tournaments/Open/certificate").status_code == 404  # nothing signed
    # A certificate over its cap, well within the body a request may have: refused by name.
    status, page = check(client, b" " * (MOST_CERTIFICATE_BYTES + 1))
    assert status == 400 and "the certificate file is larger than 512 KiB" in errors(page)["certificate"]


def test_the_private_key_is_never_kept_or_shown(db: str, client: TestClient, tmp_path: Path) -> None:
    director, table = open_cup(db, ["t1"])
    send(client, "t1", table, YAKUMAN)
    generate_key(tmp_path / "organiser")
    key = (tmp_path / "organiser.key").read_bytes()
    body = b"".join(line for line in key.splitlines() if not line.startswith(b"-----"))
    assert sign(client, director, tmp_path / "organiser.key") == 303
    page = client.get("/director/t/Open", params={"token": director}).text
    assert body.decode() not in page and "download the certificate" in page
    stored = Path(db).read_bytes() + Path(db.replace(".sqlite", ".views.sqlite")).read_bytes()
    assert body not in stored


def test_the_live_section_is_rendered_once_per_move_of_the_store_however_many_watch(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from replay.web import standings
    from replay.web.site import Site

    _director, table = open_cup(db, ["t1"])
    served = Site(db)
    try:
        renders: list[object] = []
        real = standings.standings_context
        monkeypatch.setattr(standings, "standings_context", lambda *a: renders.append(a) or real(*a))
        sections = standings.LiveSections()
        position = served.refresh_view()
        watched = {sections.render(served, "Open", None, position) for _watcher in range(5)}
        assert len(renders) == 1 and len(watched) == 1
        with TestClient(create_app(db)) as client:
            client.get("/")
            send(client, "t1", table, YAKUMAN)
        moved = served.refresh_view()
        assert moved > position
        after = sections.render(served, "Open", None, moved)
        assert len(renders) == 2 and after not in watched and "in progress" not in after
    finally:
        served.app.close()
