"""What honba says reads as English and in the words of the rules' family (issue 25, item 8):
"1 matches still in progress", "after 1 hands" and a Hong Kong limit hand called "mangan" were
what a new user saw."""

from __future__ import annotations

from pathlib import Path

from honba_cli import Honba

from domain.values import HandValue
from replay.service.common.shapes import counted, not_counted_yet


def test_counts_take_the_number_of_their_noun() -> None:
    assert [counted(n, "hand") for n in (0, 1, 2)] == ["0 hands", "1 hand", "2 hands"]
    assert counted(1, "match") == "1 match" and counted(3, "match") == "3 matches"
    assert counted(2, "more hand") == "2 more hands"
    assert str(not_counted_yet(1)) == "1 match still in progress does not count yet"
    assert str(not_counted_yet(2)) == "2 matches still in progress do not count yet"


def test_a_match_over_after_one_hand_says_one_hand(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "w.sqlite", "w")
    honba.ok("start", "w", "--players", "Ann,Ben,Cho,Dai")
    honba.ok("win", "w", "Ben:3/30", "--from", "Ann")
    assert "Match over (time limit) after 1 hand\n" in honba.ok("end", "w", "--reason", "time limit")


def test_a_hong_kong_limit_hand_is_the_limit_not_a_mangan(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "w.sqlite", "w")
    honba.ok("start", "w", "--players", "Ann,Ben,Cho,Dai", "--rules", "hong-kong")
    honba.ok("win", "w", "Ben:limit", "--from", "Ann")
    (hand,) = honba.json("log", "w")["hands"]
    assert hand["result"] == "Ben ron on Ann: limit"
    assert "mangan" not in honba.ok("log", "w") and "mangan" not in honba.ok("audit", "w")
    # Riichi names its limits.
    assert HandValue(limit="mangan").describe("riichi") == "mangan"
    assert HandValue(limit="yakuman", multiple=2).describe("points") == "limit"


def test_the_standings_say_the_penalties_are_table_points(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "w.sqlite", "w")
    honba.ok("tournament", "create", "cup", "--players", "Ann,Ben,Cho,Dai")
    honba.ok("start", "w", "--players", "Ann,Ben,Cho,Dai", "--rules", "wrc")
    honba.ok("penalty", "w", "Dai")
    honba.ok("end", "w")
    honba.ok("tournament", "attach", "cup", "w")
    shown = honba.ok("standings", "--tournament", "cup")
    assert "penalties (table points)" in shown and "20,000" in shown
    html = honba.ok("standings", "--tournament", "cup", "--format", "html")
    assert "penalties (table points)" in html


def test_the_web_pages_and_the_api_call_a_hong_kong_limit_hand_the_limit(tmp_path: Path) -> None:
    """The table page's ledger, its confirm step, the referee's desk and the JSON API say
    "limit" for a Hong Kong limit hand, as the command does (they called it "mangan")."""
    from starlette.testclient import TestClient
    from web_support import send

    from domain.rules import load_preset
    from replay.service.common.access import TokenStore
    from replay.service.recording import recording
    from replay.store.application import HonbaApp
    from replay.web.app import create_app

    db = str(tmp_path / "hk.sqlite")
    app = HonbaApp.open(db)
    try:
        recording.start_match(app, "hk", ["Ann", "Ben", "Cho", "Dai"], load_preset("hong-kong"))
        tokens = TokenStore(app)
        table, referee = tokens.create("table", "hk"), tokens.create("referee", None)
    finally:
        app.close()
    with TestClient(create_app(db)) as client:
        limit_win = {"kind": "win", "winner": "Ben", "discarder": "Ann", "value": "limit"}
        confirm, page = send(client, "hk", table, limit_win)
        # (The entry form's value picker is not looked at here: only what is said of the hand.)
        for shown in (confirm, page):
            assert "Ben ron on Ann: limit" in shown and "on Ann: mangan" not in shown
        api = client.get("/api/matches/hk", headers={"Authorization": f"Bearer {table}"}).json()
        # The words said of the hand (the stored value keeps the domain's name for the limit).
        assert [line["result"] for line in api["ledger"]] == ["Ben ron on Ann: limit"]
        desk = client.get("/referee/m/hk", params={"token": referee}).text
        assert "Ben ron on Ann: limit" in desk and "on Ann: mangan" not in desk
        form = {"csrf": client.cookies.get("honba_csrf"), "token": referee, "action": "amend", "target": "2"}
        form |= {"kind": "win", "winner": "Cho", "discarder": "Ann", "value": "limit", "by": "Kim", "reason": "Cho won"}
        assert client.post("/referee/m/hk/correct", data=form).status_code == 200
        desk = client.get("/referee/m/hk", params={"token": referee}).text
        assert "Cho ron on Ann: limit" in desk and "on Ann: mangan" not in desk


def test_a_hong_kong_limit_hand_is_the_limit_in_the_csv_and_in_what_an_amendment_changes(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "w.sqlite", "w")
    honba.ok("start", "w", "--players", "Ann,Ben,Cho,Dai", "--rules", "hong-kong")
    honba.ok("win", "w", "Ben:limit", "--from", "Ann")
    csv_text = honba.ok("log", "w", "--format", "csv")
    assert "Ben ron on Ann: limit" in csv_text and "mangan" not in csv_text
    amended = honba.ok("amend", "w", "2", "--set", "winner=Cho", "--by", "Kim", "--reason", "Cho won it")
    assert "Ben ron on Ann: limit" in amended and "Cho ron on Ann: limit" in amended
    assert "mangan" not in amended
