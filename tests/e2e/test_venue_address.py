"""Phones on the venue's network reach the server (issue 33): the address phones open is the public
URL (``--public-url``, ``HONBA_PUBLIC_URL``) or made from where the server listens, never the
``Host`` a request names; on loopback the server says phones cannot reach it and what to use; the
director's pages show the address; ``honba tournament seat`` prints whole links with it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from honba_cli import Honba
from starlette.testclient import TestClient
from web_support import prepare

from replay.input.parsing import InputError
from replay.service.director.address import PUBLIC_URL_ENV, served_address
from replay.web.app import create_app

VENUE = "http://192.168.1.20:8000"


def test_on_loopback_the_server_says_phones_cannot_reach_it_and_what_to_use() -> None:
    address = served_address("127.0.0.1", 8000, None, {})
    assert not address.reachable
    assert address.url == "http://127.0.0.1:8000"
    assert str(address.said).startswith("phones cannot reach 127.0.0.1 (this machine only): serve with --host 0.0.0.0")
    assert "--public-url" in str(address.said) and PUBLIC_URL_ENV in str(address.said)


def test_the_public_url_given_comes_first_then_the_environment_s() -> None:
    given = served_address("0.0.0.0", 8000, "https://honba.example.org/", {PUBLIC_URL_ENV: VENUE})
    assert (given.url, given.reachable) == ("https://honba.example.org", True)
    from_env = served_address("0.0.0.0", 8000, None, {PUBLIC_URL_ENV: VENUE + "/"})
    assert from_env.url == VENUE
    assert str(from_env.said) == f"phones open {VENUE}/"


def test_a_server_on_one_address_is_reached_there() -> None:
    address = served_address("192.168.1.20", 8000, None, {})
    assert (address.url, address.reachable) == (VENUE, True)


@pytest.mark.parametrize("bad", ["ftp://example.org", "192.168.1.20:8000", "http://x.org/?t=1", "http://x.org:99999"])
def test_a_public_url_that_is_not_one_is_refused_in_a_line(bad: str) -> None:
    with pytest.raises(InputError, match="--public-url"):
        served_address("0.0.0.0", 8000, bad, {})


def test_serve_refuses_a_bad_public_url_in_one_line(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "h.sqlite")
    assert honba.refused("serve", "--public-url", "192.168.1.20:8000").startswith("honba: --public-url '192.168")


def test_table_links_start_with_the_public_url_never_the_request_s_host(tmp_path: Path) -> None:
    db = str(tmp_path / "h.sqlite")
    (director,) = prepare(db, {}, [("director", None)])
    with TestClient(create_app(db, served_address("0.0.0.0", 8000, VENUE, {}))) as client:
        client.get("/")
        # The director opened the server as 127.0.0.1 (on its own machine), or a client named a host.
        headers = {"Host": "127.0.0.1:8000"}
        home = client.get("/director", params={"token": director}, headers=headers)
        assert f"Phones open this server at <code>{VENUE}/</code>" in home.text
        form = {"csrf": client.cookies.get("honba_csrf"), "token": director}
        client.post("/director/tournaments", data={**form, "name": "Open", "players": "Ann\nBen\nCho\nDai"})
        page = client.post("/director/t/Open/sessions", data={**form, "method": "random", "seed": "3"}, headers=headers)
        (link,) = re.findall(r'class="table-link" href="([^"]+)"', page.text)
        assert link.startswith(VENUE + "/matches/")
        assert "127.0.0.1" not in link


def test_on_loopback_the_director_s_page_says_phones_cannot_reach_it(tmp_path: Path) -> None:
    db = str(tmp_path / "h.sqlite")
    (director,) = prepare(db, {}, [("director", None)])
    with TestClient(create_app(db, served_address("127.0.0.1", 8000, None, {}))) as client:
        home = client.get("/director", params={"token": director})
        assert "Phones cannot reach it: phones cannot reach 127.0.0.1" in home.text


def test_seat_prints_whole_links_with_the_public_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    honba = Honba(tmp_path / "h.sqlite")
    honba.ok("tournament", "create", "cup", "--players", "Ann,Ben,Cho,Dai")
    monkeypatch.setenv(PUBLIC_URL_ENV, VENUE + "/")
    printed = honba.ok("tournament", "seat", "cup", "1", "--seed", "1")
    assert re.search(rf"table 1, table link: {re.escape(VENUE)}/matches/\S+\?token=\S+", printed), printed
    monkeypatch.delenv(PUBLIC_URL_ENV)
    honba.ok("tournament", "create", "cup2", "--players", "Ann,Ben,Cho,Dai")
    printed = honba.ok("tournament", "seat", "cup2", "1", "--public-url", "https://honba.example.org")
    assert re.search(r"table link: https://honba\.example\.org/matches/", printed), printed
