"""The sign-off (issue 33) where the front ends add to it: ``honba standings`` and the standings
JSON (the command's and the API's) naming the matches not yet confirmed, and the director's
switch on the tournament's page. The rule itself: tests/service/test_sign_off.py."""

from __future__ import annotations

import json
from pathlib import Path

from honba_cli import Honba
from starlette.testclient import TestClient
from web_support import hidden, prepare

from replay.service.tournaments.tournaments import create_tournament
from replay.store.application import HonbaApp
from replay.store.tournaments import get_tournament
from replay.web.app import create_app

PLAYERS = ["Ann", "Ben", "Cho", "Dai"]


def test_honba_standings_names_the_matches_not_yet_confirmed(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "h.sqlite", "cup-1")
    honba.ok("start", "cup-1", "--players", ",".join(PLAYERS))
    honba.ok("tournament", "create", "Cup", "--players", ",".join(PLAYERS))
    honba.ok("tournament", "attach", "Cup", "cup-1")
    honba.ok("tournament", "sign-off", "Cup")
    honba.ok("end", "cup-1", "--reason", "time limit")
    shown = honba("standings", "--tournament", "Cup")
    assert shown.exit_code == 0
    assert "honba: match 'cup-1': final scores unconfirmed" in shown.stderr
    listed = json.loads(honba.ok("standings", "--tournament", "Cup", "--format", "json"))["unconfirmed"]
    assert [(m["match"], m["status"]) for m in listed] == [("cup-1", "unconfirmed")]
    with TestClient(create_app(str(tmp_path / "h.sqlite"))) as client:
        api = client.get("/api/tournaments/Cup/standings").json()["unconfirmed"]
    assert [(m["match"], m["status"]) for m in api] == [("cup-1", "unconfirmed")]
    honba.ok("tournament", "sign-off", "Cup", "--off")
    assert "final scores" not in honba("standings", "--tournament", "Cup").stderr


def test_the_director_switches_the_sign_off_on_and_off_from_the_tournament_s_page(tmp_path: Path) -> None:
    db = str(tmp_path / "h.sqlite")
    (director,) = prepare(db, {"cup-1": PLAYERS}, [("director", None)])
    app = HonbaApp.open(db)
    try:
        create_tournament(app, "Cup", PLAYERS)
    finally:
        app.close()
    with TestClient(create_app(db)) as client:
        page = client.get("/director/t/Cup", params={"token": director}).text
        assert "The sign-off is off" in page
        form = {"csrf": client.cookies["honba_csrf"], "token": director, "required": hidden(page, "required")}
        client.post("/director/t/Cup/sign-off", data=form)
        page = client.get("/director/t/Cup", params={"token": director}).text
        assert "The sign-off is on." in page and hidden(page, "required") == "no"
        assert sign_off_of(db)
        client.post("/director/t/Cup/sign-off", data={**form, "required": "no"})
    assert not sign_off_of(db)


def sign_off_of(db: str) -> bool:
    app = HonbaApp.open(db)
    try:
        return get_tournament(app, "Cup").sign_off
    finally:
        app.close()
