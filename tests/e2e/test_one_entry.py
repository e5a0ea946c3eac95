"""One entry model under every front end (issue 22, "Seen" 1 and 2): the command line, the table
page, the referee's desk, the JSON API and the record file read a result the same way, and a
correction changes only what the referee changed.

Scores are Tenhou's score table (seed 002): a non-dealer's 3 han 30 fu ron is 3,900, 2 han 30 fu
2,000, a mangan 8,000; a riichi stick is 1,000; noten payments 3,000 split among the ready.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from honba_cli import Honba
from starlette.testclient import TestClient
from web_support import errors, form_of_page

from domain.match import Match
from domain.values import ExhaustiveDraw, HandValue, Win, WinFacts, WinResult
from replay.formats.record import RecordError, build_match, parse_record
from replay.service.common.access import TokenStore
from replay.store.application import HonbaApp
from replay.web.app import create_app

PLAYERS = "Ann,Ben,Cho,Dai"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "honba.sqlite"


@pytest.fixture
def honba(db: Path) -> Honba:
    return Honba(db, "m")


@pytest.fixture
def web(db: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(db))) as client:
        yield client


def token(db: Path, role: str, match: str | None = None) -> str:
    app = HonbaApp.open(str(db))
    try:
        return TokenStore(app).create(role, match)
    finally:
        app.close()


def stored(db: Path, key: str = "m") -> Match:
    app = HonbaApp.open(str(db))
    try:
        return app.get_match(key)
    finally:
        app.close()


def standing(db: Path, key: str = "m") -> list[Any]:
    """The facts in force, hands and penalties (deal passes and the end left out)."""
    return [s.fact for s in stored(db, key).corrected_steps() if s.fact is not None and hasattr(s.fact, "riichi")]


def desk_amend(web: TestClient, referee: str, number: int, changes: dict[str, Any]) -> tuple[str, str]:
    """Open the desk's amendment of entry ``number``, change ``changes`` as a referee would in the
    form it shows, see the confirm step, confirm: (confirm page, page after)."""
    desk = web.get("/referee/m/m", params={"token": referee, "amend": str(number)})
    assert desk.status_code == 200, desk.text
    action, fields = form_of_page(desk.text, "amend-form")
    fields.update({"by": "Referee Kim", "reason": "the sheet says so", **changes})
    confirm = web.post(action, data=fields)
    assert confirm.status_code == 200, errors(confirm.text) or confirm.text
    action, confirmed = form_of_page(confirm.text, "confirm-form")
    after = web.post(action, data=confirmed)
    assert after.status_code == 200, after.text
    return confirm.text, after.text


# Seen 1: the referee's desk.


def test_the_desk_amends_one_winner_and_keeps_the_other_winner_and_the_riichi(
    honba: Honba, db: Path, web: TestClient
) -> None:
    honba.ok("start", "m", "--players", PLAYERS)
    honba.ok("win", "m", "Ann:2/30", "Cho:mangan", "--from", "Ben", "--riichi", "Cho")
    referee = token(db, "referee")
    desk_amend(web, referee, 2, {"value": "3/30"})
    ann = Win(0, HandValue(han=3, fu=30), discarder=1)
    cho = Win(2, HandValue(limit="mangan"), discarder=1)
    assert standing(db) == [WinResult((ann, cho), riichi=(2,))]
    # Ann deals: Ben pays her 5,800 (a dealer's 3 han 30 fu) and Cho 8,000; Cho's stick goes to the
    # table and back to Cho, the winner first after Ben.
    assert honba.scores() == {"Ann": 30800, "Ben": 11200, "Cho": 33000, "Dai": 25000}


def test_amending_a_draw_only_to_add_a_ready_player_keeps_its_riichi(honba: Honba, db: Path, web: TestClient) -> None:
    honba.ok("start", "m", "--players", PLAYERS)
    honba.ok("draw", "m", "--ready", "Cho", "--riichi", "Cho")
    referee = token(db, "referee")
    desk_amend(web, referee, 2, {"ready": ["Cho", "Dai"]})
    assert standing(db) == [ExhaustiveDraw(ready=(2, 3), riichi=(2,))]
    # Noten payments: 1,500 from each of Ann and Ben; Cho's stick stays on the table.
    assert honba.scores() == {"Ann": 23500, "Ben": 23500, "Cho": 25500, "Dai": 26500}


def test_the_desk_shows_the_correction_before_anything_is_stored(honba: Honba, db: Path, web: TestClient) -> None:
    honba.ok("start", "m", "--players", PLAYERS)
    honba.ok("win", "m", "Ann:2/30", "Cho:mangan", "--from", "Ben", "--riichi", "Cho")
    referee = token(db, "referee")
    desk = web.get("/referee/m/m", params={"token": referee, "amend": "2"}).text
    action, fields = form_of_page(desk, "amend-form")
    fields.update({"by": "Referee Kim", "reason": "the sheet", "value": "3/30"})
    confirm = web.post(action, data=fields)
    assert confirm.status_code == 200
    assert stored(db).correction_log == []  # nothing stored at the confirm step
    page = confirm.text
    assert "Ann ron on Ben: 2 han 30 fu; Cho ron on Ben: mangan; riichi: Cho" in page
    assert "Ann ron on Ben: 3 han 30 fu; Cho ron on Ben: mangan; riichi: Cho" in page
    # Ann deals: a dealer's 2 han 30 fu ron is 2,900, 3 han 30 fu 5,800.
    assert "Ben pays Ann 2,900" in page and "Ben pays Ann 5,800" in page
    # The scores that change: Ann 27,900 -> 30,800, Ben 14,100 -> 11,200.
    assert "27,900" in page and "30,800" in page and "14,100" in page and "11,200" in page


def test_the_desk_carries_riichi_and_three_winners(tmp_path: Path, db: Path, web: TestClient) -> None:
    honba = Honba(db, "m")
    honba.ok("start", "m", "--players", PLAYERS, "--rules", "ema")
    honba.ok("win", "m", "Ann:mangan", "Cho:mangan", "--from", "Ben")
    referee = token(db, "referee")
    desk_amend(web, referee, 2, {"winner3": "Dai", "value3": "1/30", "riichi": ["Dai"]})
    wins = (
        Win(0, HandValue(limit="mangan"), discarder=1),
        Win(2, HandValue(limit="mangan"), discarder=1),
        Win(3, HandValue(han=1, fu=30), discarder=1),
    )
    assert standing(db) == [WinResult(wins, riichi=(3,))]


def test_the_cli_and_the_api_amend_only_the_fields_given(honba: Honba, db: Path, web: TestClient) -> None:
    honba.ok("start", "m", "--players", PLAYERS)
    honba.ok("win", "m", "Ann:2/30", "Cho:mangan", "--from", "Ben", "--riichi", "Cho")
    honba.ok("draw", "m", "--ready", "Cho", "--riichi", "Cho")
    said = honba.ok("amend", "m", "2", "--set", "value=3/30", "--by", "Kim", "--reason", "sheet")
    assert "Before: Ann ron on Ben: 2 han 30 fu; Cho ron on Ben: mangan; riichi: Cho" in said
    assert "After:  Ann ron on Ben: 3 han 30 fu; Cho ron on Ben: mangan; riichi: Cho" in said
    assert "value: 2/30 -> 3/30" in said
    referee = token(db, "referee")
    headers = {"Authorization": f"Bearer {referee}"}
    body = {"action": "amend", "target": 3, "set": {"ready": ["Cho", "Dai"]}, "by": "Kim", "reason": "sheet"}
    answer = web.post("/api/matches/m/corrections", json=body, headers=headers)
    assert answer.status_code == 200, answer.text
    assert answer.json()["correction"]["fields"] == [{"field": "ready", "before": "Cho", "after": "Cho, Dai"}]
    ann = Win(0, HandValue(han=3, fu=30), discarder=1)
    cho = Win(2, HandValue(limit="mangan"), discarder=1)
    assert standing(db) == [WinResult((ann, cho), riichi=(2,)), ExhaustiveDraw(ready=(2, 3), riichi=(2,))]
    # What the API and the desk start from: the entry as it stands, field by field.
    entry = web.get("/api/matches/m/entries/3").json()
    assert entry["fields"] == {"kind": "draw", "ready": ["Cho", "Dai"], "riichi": ["Cho"]}


def test_a_correction_that_names_no_field_of_the_entry_or_changes_nothing_is_refused(
    honba: Honba, db: Path, web: TestClient
) -> None:
    # A field the entry does not read was dropped with nothing said, and the correction stored with
    # the entry as it stood: a line of the record for good that says nothing.
    honba.ok("start", "m", "--players", PLAYERS)
    honba.ok("win", "m", "Ann:2/30", "--from", "Ben")
    before = honba.events("m")
    assert honba.refused("amend", "m", "2", "--set", "bogus=1", "--by", "Kim", "--reason", "r") == (
        "honba: a win entry has no field 'bogus'"
    )
    assert "facts=last_tile" in honba.refused("amend", "m", "2", "--set", "last_tile=yes", "--by", "K", "--reason", "r")
    assert honba.refused("amend", "m", "2", "--set", "value=2/30", "--by", "Kim", "--reason", "r") == (
        "honba: entry 2 already stands so: the correction changes nothing"
    )
    headers = {"Authorization": f"Bearer {token(db, 'referee')}"}
    for changes, field in (({"<x>": "1"}, "<x>"), ({"value": "2/30"}, "target")):
        body = {"action": "amend", "target": 2, "set": changes, "by": "Kim", "reason": "r", "client_key": "k"}
        answer = web.post("/api/matches/m/corrections", json=body, headers=headers)
        assert (answer.status_code, answer.json()["field"]) == (400, field), answer.text
    assert honba.events("m") == before


# Seen 2: one reading of a result, whatever the front end.


def _record_refusal(line: dict[str, Any]) -> str:
    start = {"type": "start", "key": "m", "players": PLAYERS.split(","), "rules": "tenhou"}
    text = json.dumps(start) + "\n" + json.dumps(line) + "\n"
    with pytest.raises(RecordError) as refused:
        build_match(parse_record(text, name="r.jsonl"), name="r.jsonl")
    return str(refused.value)


@pytest.mark.parametrize(("option", "field"), [("--ready", "ready"), ("--riichi", "riichi"), ("--nagashi", "nagashi")])
def test_a_player_named_twice_at_a_draw_is_refused_by_every_front_end(
    honba: Honba, db: Path, web: TestClient, option: str, field: str
) -> None:
    honba.ok("start", "m", "--players", PLAYERS)
    cli = honba.refused("draw", "m", option, "Ann,Ann", *(["--ready", "Ann"] if field != "ready" else []))
    assert "Ann is named twice" in cli
    line = {"type": "draw", "ready": ["Ann"], field: ["Ann", "Ann"]}
    assert "Ann is named twice" in _record_refusal(line)
    table = token(db, "table", "m")
    api = web.post(
        "/api/matches/m/entries",
        json={"kind": "draw", "ready": ["Ann"], field: ["Ann", "Ann"]},
        headers={"Authorization": f"Bearer {table}"},
    )
    assert api.status_code == 400 and "Ann is named twice" in api.json()["error"]
    assert standing(db) == []


def test_the_table_page_enters_dora_special_hands_last_tile_facts_and_three_winners(
    honba: Honba, db: Path, web: TestClient
) -> None:
    honba.ok("start", "m", "--players", PLAYERS, "--rules", "ema")
    table = token(db, "table", "m")
    page = web.get("/matches/m", params={"token": table}).text
    _action, fields = form_of_page(page, "entry")
    fields.update(
        {
            "winner": "Ann",
            "discarder": "Ben",
            "han": "4",
            "fu": "30",
            "dora": "2",
            "facts": ["last_tile"],
            "tile": "5p",
            "winner2": "Cho",
            "limit2": "mangan",
            "winner3": "Dai",
            "value3": "1/30",
        }
    )
    confirm = web.post("/matches/m/preview", data=fields)
    assert confirm.status_code == 200, errors(confirm.text)
    _action, confirmed = form_of_page(confirm.text, "confirm-form")
    assert web.post("/matches/m/record", data=confirmed).status_code == 200
    (result,) = standing(db)
    assert [w.winner for w in result.wins] == [0, 2, 3]
    assert result.wins[0].value == HandValue(han=4, fu=30, dora=2)
    assert result.wins[0].facts.last_tile and result.wins[0].facts.winning_tile == "5p"
    # The same through the command line gives the same fact.
    honba.ok("start", "c", "--players", PLAYERS, "--rules", "ema")
    honba.ok(
        "win", "c", "Ann:4/30", "Cho:mangan", "Dai:1/30", "--from", "Ben",
        "--dora", "Ann:2", "--fact", "Ann:last_tile", "--tile", "Ann:5p",
    )  # fmt: skip
    assert standing(db, "c") == [result]


def test_the_api_enters_a_special_hand_and_four_kong_declarers(honba: Honba, db: Path, web: TestClient) -> None:
    honba.ok("start", "m", "--players", PLAYERS, "--rules", "japanese-modern")
    honba.ok("start", "c", "--players", PLAYERS, "--rules", "japanese-modern")
    table = token(db, "table", "m")
    headers = {"Authorization": f"Bearer {table}"}
    kongs = {"kind": "abort", "abort": "four_kongs", "kongs": ["Ann", "Ben", "Ann", "Cho"]}
    one_player = {**kongs, "kongs": ["Ann", "Ann", "Ann", "Ann"]}
    refused = web.post("/api/matches/m/entries", json=one_player, headers=headers)
    assert refused.status_code == 400 and "do not abort the hand" in refused.json()["error"]
    assert "do not abort the hand" in honba.refused("abort", "c", "four_kongs", "--kongs", "Ann,Ann,Ann,Ann")
    assert web.post("/api/matches/m/entries", json=kongs, headers=headers).status_code == 200
    honba.ok("abort", "c", "four_kongs", "--kongs", "Ann,Ben,Ann,Cho")
    assert standing(db, "m") == standing(db, "c") and standing(db, "m")[0].kongs == (0, 1, 0, 2)
    # The dealer (Ann) out on the dealt hand: a heavenly hand, claimed with no value of its own.
    heavenly = {"kind": "win", "winner": "Ann", "facts": ["first_turn"], "special": "heavenly_hand"}
    assert web.post("/api/matches/m/entries", json=heavenly, headers=headers).status_code == 200
    honba.ok("win", "c", "Ann:", "--first-turn", "--special", "heavenly_hand")
    assert standing(db, "m") == standing(db, "c")
    result = standing(db, "m")[-1]
    assert result.wins[0].facts.special_hands == ("heavenly_hand",) and result.wins[0].facts.first_turn
    # An earthly hand is a non-dealer's (Ann still deals): refused from both in the same words.
    earthly = {"kind": "win", "winner": "Ann", "facts": ["first_turn"], "special": "earthly_hand"}
    api = web.post("/api/matches/m/entries", json=earthly, headers=headers)
    cli = honba.refused("win", "c", "Ann:", "--first-turn", "--special", "earthly_hand")
    assert api.status_code == 400 and "an earthly hand is a non-dealer's hand" in api.json()["error"]
    assert api.json()["error"] in cli


def test_clearing_a_second_winner_takes_that_winner_and_keeps_the_rest(honba: Honba, db: Path) -> None:
    honba.ok("start", "m", "--players", PLAYERS)
    honba.ok("win", "m", "Ann:2/30", "Cho:mangan", "--from", "Ben", "--riichi", "Cho", "--last-tile")
    said = honba.ok("amend", "m", "2", "--set", "winner2=", "--by", "Kim", "--reason", "Cho's win was a misread")
    assert "winner2: Cho -> -" in said
    ann = Win(0, HandValue(han=2, fu=30), discarder=1, facts=WinFacts(last_tile=True))
    assert standing(db) == [WinResult((ann,), riichi=(2,))]


def test_an_undo_says_the_same_at_its_confirm_step_and_once_recorded(honba: Honba, db: Path, web: TestClient) -> None:
    # Entry 3 (a referee's amendment of entry 2) is the last that counts: the table's undo takes
    # back entry 3, and says so before and after, on the page, the API and the command line alike.
    honba.ok("start", "m", "--players", PLAYERS)
    honba.ok("win", "m", "Ann:2/30", "--from", "Ben")
    honba.ok("amend", "m", "2", "--set", "value=3/30", "--by", "Kim", "--reason", "sheet")
    headers = {"Authorization": f"Bearer {token(db, 'table', 'm')}"}
    shown = web.post("/api/matches/m/preview", json={"kind": "undo"}, headers=headers)
    assert shown.status_code == 200, shown.text
    done = web.post("/api/matches/m/entries", json={"kind": "undo", "client_key": "u"}, headers=headers)
    assert done.status_code == 200, done.text
    headline = "entry 3 (a correction of entry 2) cancelled by entry 4"
    assert shown.json()["change"]["headline"] == done.json()["change"]["headline"] == headline
    assert shown.json()["change"]["entry"] == done.json()["change"]["entry"]


def test_a_form_field_of_one_value_sent_twice_with_different_values_is_refused_by_name(
    honba: Honba, db: Path, web: TestClient
) -> None:
    """Two winners typed into one ``winner`` field (a hand-made form, a page's stale copy) are not
    read as the last of them: which winner was meant is the table's to say, not the server's guess."""
    honba.ok("start", "m", "--players", PLAYERS)
    table = token(db, "table", "m")
    page = web.get("/matches/m", params={"token": table}).text
    _action, fields = form_of_page(page, "entry")
    fields.update({"kind": "win", "winner": ["Ann", "Cho"], "discarder": "Ben", "value": "3/30"})
    refused = web.post("/matches/m/preview", data=fields)
    assert refused.status_code == 400
    said = html.unescape(re.search(r'id="message">([^<]*)<', refused.text)[1])  # type: ignore[index]
    assert said == "'winner' was sent 2 times with different values ('Ann, Cho'): this field takes one value"
    assert standing(db) == []
    # The same value twice says one thing: read as it.
    fields["winner"] = ["Ann", "Ann"]
    confirm = web.post("/matches/m/preview", data=fields)
    assert confirm.status_code == 200, errors(confirm.text)
