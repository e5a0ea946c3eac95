"""A store changed behind honba's back is explained in one line, never a traceback (issue 11, cases 4, 8, 9).

Every command on a damaged match names the match, the position and what is wrong, and
points at ``honba check``; ``status`` and ``log`` warn when what they show may not be
what was recorded; recording on a damaged match is refused (a new event would seal the
changed history); ``export`` refuses to write a fresh chain over it; ``check`` reports
every match of the store even when some rows cannot be decoded.

The store holds two matches recorded command by command: ``m1`` (positions 1 start,
2 Ben's ron on Ann, 3 deal to Ben, 4 the draw, Ann ready: the deal passes at 5) and
``m2``. Rows are changed with ``sqlite3`` on ``stored_events``, never through honba.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

import pytest
from honba_cli import honba, ok
from starlette.testclient import TestClient
from stored_rows import copy_store, sql
from typer.testing import Result

from domain.match import match_id
from replay.store.seal import seal_id
from replay.web.app import create_app

PLAYERS = "Ann,Ben,Cho,Dai"


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("damaged") / "pristine.sqlite"
    for key in ("m1", "m2"):
        ok(path, "start", key, "--players", PLAYERS)
        ok(path, "win", key, "Ben:3/30", "--from", "Ann")
        ok(path, "draw", key, "--ready", "Ann")
    return path


@pytest.fixture
def db(pristine: Path, tmp_path: Path) -> Path:
    return copy_store(pristine, tmp_path)


def where(key: str, version: int) -> tuple[str, int]:
    return match_id(key).hex, version


def set_state(path: Path, key: str, version: int, state: bytes) -> None:
    with sql(path) as c:
        c.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (state, *where(key, version)),
        )


def state_of(path: Path, key: str, version: int) -> bytes:
    with sql(path) as c:
        row = c.execute(
            "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?", where(key, version)
        ).fetchone()
    return bytes(row[0])


def one_line(result: Result) -> str:
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    return lines[0]


COMMANDS = [
    ("status", "m1"),
    ("log", "m1"),
    ("audit", "m1"),
    ("export", "m1"),
    ("win", "m1", "Cho:mangan", "--from", "Dai"),
    ("draw", "m1"),
    ("penalty", "m1", "Dai"),
    ("end", "m1"),
]


def deleted_row(db: Path) -> None:
    with sql(db) as c:
        c.execute("DELETE FROM stored_events WHERE originator_id = ? AND originator_version = ?", where("m1", 3))


def garbage_bytes(db: Path) -> None:
    set_state(db, "m1", 3, b"\xff\xfe not json")


def unknown_topic(db: Path) -> None:
    with sql(db) as c:
        c.execute(
            "UPDATE stored_events SET topic = 'nowhere:Nothing' WHERE originator_id = ? AND originator_version = ?",
            where("m1", 3),
        )


def bad_seat(db: Path) -> None:
    data = json.loads(state_of(db, "m1", 2))
    data["fact"]["_data_"]["wins"][0]["winner"] = 7
    set_state(db, "m1", 2, json.dumps(data).encode())


@pytest.mark.parametrize(
    ("tamper", "position"),
    [(deleted_row, 3), (garbage_bytes, 3), (unknown_topic, 3), (bad_seat, 2)],
    ids=["deleted-row", "garbage-bytes", "unknown-topic", "bad-seat"],
)
def test_every_command_on_a_damaged_match_names_it_and_the_position_in_one_line(
    db: Path, tamper: object, position: int
) -> None:
    assert callable(tamper)
    tamper(db)
    for command in COMMANDS:
        result = honba(db, *command)
        assert result.exit_code != 0, (command, result.output)
        line = one_line(result)
        assert line.startswith("honba: match 'm1' is damaged in the store"), (command, line)
        assert f"at {position}" in line and "see honba check m1" in line, (command, line)
    checked = honba(db, "check")
    assert checked.exit_code == 1
    assert "2 checked, 1 with problems" in checked.stdout


def test_status_and_log_show_a_decodable_alteration_with_a_warning_line(db: Path) -> None:
    data = json.loads(state_of(db, "m1", 2))
    data["fact"]["_data_"]["wins"][0]["value"]["han"] = 4
    set_state(db, "m1", 2, json.dumps(data).encode())
    for command in ("status", "log"):
        result = honba(db, command, "m1")
        assert result.exit_code == 0
        assert "warning: match 'm1' is damaged in the store: altered at 2" in one_line(result)
    assert "Integrity: BROKEN" in honba(db, "audit", "m1").stdout


def test_recording_on_a_damaged_match_is_refused_and_records_nothing(db: Path) -> None:
    set_state(db, "m1", 4, state_of(db, "m1", 4).replace(b'"ready":[0]', b'"ready":[0,1]'))
    result = honba(db, "win", "m1", "Cho:mangan", "--from", "Dai")
    assert result.exit_code == 2
    assert "nothing recorded" in one_line(result)
    with sql(db) as c:
        query = "SELECT COUNT(*) FROM stored_events WHERE originator_id = ?"
        (count,) = c.execute(query, (match_id("m1").hex,)).fetchone()
    assert count == 5


def test_export_refuses_a_damaged_match_and_force_records_the_damage_in_the_file(db: Path, tmp_path: Path) -> None:
    set_state(db, "m1", 4, state_of(db, "m1", 4).replace(b'"ready":[0]', b'"ready":[0,1]'))
    path = tmp_path / "m1.jsonl"
    refused = honba(db, "export", "m1", "-o", str(path))
    assert refused.exit_code == 2
    assert "not exported" in one_line(refused)
    assert not path.exists()
    assert honba(db, "export", "m1", "--plain").exit_code == 2
    ok(db, "export", "m1", "--force", "-o", str(path))
    checked = honba(db, "check", str(path))
    assert checked.exit_code == 1
    assert "damaged" in checked.stdout
    imported = honba(tmp_path / "other.sqlite", "import", str(path))
    assert imported.exit_code == 2
    assert "chain is broken" in imported.stderr


def test_an_undecodable_seal_row_does_not_stop_the_check_of_the_other_matches(db: Path) -> None:
    with sql(db) as c:
        c.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = 2",
            (b"\x00garbage", seal_id(match_id("m1")).hex),
        )
    result = honba(db, "check", "--json")
    assert result.exit_code == 1
    found = {r["name"]: r for r in json.loads(result.stdout)["results"]}
    assert found["m2"]["intact"]
    assert any("the seal cannot be read" in p["detail"] for p in found["m1"]["problems"])


def test_an_undecodable_start_row_is_listed_and_checked_by_the_match_id(db: Path) -> None:
    set_state(db, "m1", 1, b"{not json")
    listed = honba(db, "list")
    assert listed.exit_code == 0
    assert "m2" in listed.stdout
    assert str(match_id("m1")) in one_line(listed)
    checked = json.loads(honba(db, "check", "--json").stdout)
    names = [r["name"] for r in checked["results"]]
    assert "m2" in names and any(str(match_id("m1")) in name for name in names)


def test_the_matches_page_lists_a_damaged_match_flagged_as_honba_list_does(db: Path) -> None:
    set_state(db, "m1", 1, b"{not json")
    with TestClient(create_app(str(db))) as web:
        page = web.get("/")
    assert page.status_code == 200
    # One listing for both front ends: m2 as always, m1 by its id, flagged, not hidden.
    assert 'href="/matches/m2"' in page.text
    (flagged,) = [line for line in page.text.splitlines() if str(match_id("m1")) in line]
    assert "damaged in the store" in flagged and "href" not in flagged


def test_a_match_whose_events_were_copied_over_another_is_not_shown_under_the_other_key(db: Path) -> None:
    with sql(db) as c:
        c.execute("DELETE FROM stored_events WHERE originator_id = ?", (match_id("m2").hex,))
        c.execute(
            "INSERT INTO stored_events SELECT ?, originator_version, topic, state FROM stored_events "
            "WHERE originator_id = ?",
            (match_id("m2").hex, match_id("m1").hex),
        )
    result = honba(db, "status", "m2")
    assert result.exit_code == 2
    assert one_line(result).startswith("honba: match 'm2' is damaged in the store")
    names = [r["name"] for r in json.loads(honba(db, "check", "--json").stdout)["results"]]
    assert names.count("m1") == 1
    assert f"match {match_id('m2')} (its start event names 'm1', another match)" in names


def test_a_damaged_match_s_line_is_said_in_japanese_on_its_page_and_in_the_api(db: Path) -> None:
    data = json.loads(state_of(db, "m1", 2))
    data["fact"]["_data_"]["wins"][0]["value"]["han"] = 4
    set_state(db, "m1", 2, json.dumps(data).encode())
    english = (
        "match 'm1' is damaged in the store: altered at 2 "
        "(its content no longer matches what event 3 recorded of it); see honba check m1"
    )
    japanese = (
        "対局 'm1' の記録が破損しています: 位置 2 で改変(内容が、イベント 3 に記録されたものと一致しません)。"
        "honba check m1 を参照してください"
    )
    with TestClient(create_app(str(db))) as web:
        api_en = web.get("/api/matches/m1")  # before ``?lang=ja`` sets the language's cookie
        page = web.get("/matches/m1?lang=ja")
        api_ja = web.get("/api/matches/m1?lang=ja")
    assert page.status_code == 200
    (alert,) = [line for line in page.text.splitlines() if 'id="damaged"' in line]
    assert japanese in html.unescape(alert) and "damaged in the store" not in alert
    # The API in the language asked for; the English, as it always was, by default.
    assert (api_ja.json()["damaged"], api_ja.json()["damage"]) == (japanese, [japanese])
    assert (api_en.json()["damaged"], api_en.json()["damage"]) == (english, [english])
