"""Nothing outside a chain changes what anyone sees (issue 26).

Each test is an edit an attacker with write access to the store (or to an exported file) made
while ``honba check`` passed and what people see changed: every row a projection or a lookup
reads is now covered by a chain or a checkpoint, or checked against one, and a read of a damaged
store says so instead of showing something else. Rows are changed with plain SQL, behind honba's
back, on SQLite and PostgreSQL where the edit applies to both.
"""

from __future__ import annotations

import json
import re
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any
from uuid import UUID

import psycopg
import pytest
from conftest import STORES
from honba_cli import honba, ok
from prepared_store import PreparedStores
from stored_rows import execute
from typer.testing import Result

from domain.match import match_id
from domain.tournament import tournament_id

PLAYERS = "Ann,Ben,Cho,Dai"


ROW = "originator_id = ? AND originator_version = ?"


def state_of(db: str, stream: UUID, version: int) -> dict[str, Any]:
    ((state,),) = execute(db, f"SELECT state FROM EVENTS WHERE {ROW}", stream, version)
    data: dict[str, Any] = json.loads(bytes(state))
    return data


def set_state(db: str, stream: UUID, version: int, data: dict[str, Any]) -> None:
    execute(
        db,
        "UPDATE EVENTS SET state = ? WHERE originator_id = ? AND originator_version = ?",
        json.dumps(data).encode(),
        stream,
        version,
    )


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> PreparedStores:
    """The store ``fill`` makes, filled once per kind for the module (tests/prepared_store.py)."""
    return PreparedStores(fill, tmp_path_factory.mktemp("prepared"), request)


@pytest.fixture
def sqlite_db(prepared: PreparedStores, tmp_path: Path) -> str:
    """m1 (1 start, 2 Ben's ron on Ann 3/30, 3 the deal to Ben), m2 likewise, tournament cup with both."""
    return prepared.copy("sqlite", tmp_path)


@pytest.fixture(params=STORES)
def db(prepared: PreparedStores, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """``sqlite_db``'s store, on SQLite and on PostgreSQL (one test each)."""
    return prepared.copy(request.param, tmp_path)


def fill(db: str) -> None:
    for key in ("m1", "m2"):
        ok(db, "start", key, "--players", PLAYERS)
        ok(db, "win", key, "Ben:3/30", "--from", "Ann")
    ok(db, "tournament", "create", "cup", "--players", PLAYERS)
    ok(db, "tournament", "attach", "cup", "m1")
    ok(db, "tournament", "attach", "cup", "m2")


def standings(db: str) -> Result:
    return honba(db, "standings", "--tournament", "cup", "--format", "json")


def copy_row(db: str, stream: UUID, version: int, spelled: str, new_version: int, data: dict[str, Any]) -> None:
    """A row inserted under another spelling of an id (SQLite keeps ids as text)."""
    ((topic,),) = execute(db, f"SELECT topic FROM EVENTS WHERE {ROW}", stream, version)
    with closing(sqlite3.connect(db)) as connection, connection:
        connection.execute(
            "INSERT INTO stored_events VALUES (?, ?, ?, ?)", (spelled, new_version, topic, json.dumps(data).encode())
        )


# SQLite ids spelled another way.


def test_a_row_under_the_upper_case_spelling_of_a_matchs_id_is_named_by_check_and_never_read(sqlite_db: str) -> None:
    before = json.loads(ok(sqlite_db, "standings", "--tournament", "cup", "--format", "json"))
    m1 = match_id("m1")
    # A penalty appended to m1 under its id in upper case, with m1's chain's next prior.
    ok(sqlite_db, "penalty", "m2", "Dai", "--amount", "8000", "--share", "off_table")
    penalty = state_of(sqlite_db, match_id("m2"), 4)
    penalty["prior"] = state_of(sqlite_db, m1, 3)["prior"]
    copy_row(sqlite_db, match_id("m2"), 4, m1.hex.upper(), 4, penalty)
    checked = honba(sqlite_db, "check")
    assert checked.exit_code == 1
    assert m1.hex.upper() in checked.stdout and "(the id of m1, spelled otherwise)" in checked.stdout
    # The view never folds it as m1's: it names the row instead of moving anyone's points.
    result = standings(sqlite_db)
    if result.exit_code == 0:
        assert json.loads(result.stdout) == before
    else:
        assert result.exit_code == 2 and "spelled otherwise" in result.stderr
    assert "Traceback" not in result.output


def test_a_detach_under_the_dashed_spelling_of_a_tournaments_id_is_named_by_check_and_never_read(
    sqlite_db: str,
) -> None:
    cup = tournament_id("cup")
    attached = state_of(sqlite_db, cup, 3)
    detach = {
        "timestamp": attached["timestamp"],
        "match_key": "m2",
        "reason": "forged",
    }
    with closing(sqlite3.connect(sqlite_db)) as connection, connection:
        connection.execute(
            "INSERT INTO stored_events VALUES (?, ?, ?, ?)",
            (str(cup), 4, "domain.tournament:Tournament.MatchDetached", json.dumps(detach).encode()),
        )
    checked = honba(sqlite_db, "check")
    assert checked.exit_code == 1 and str(cup) in checked.stdout
    result = standings(sqlite_db)
    assert result.exit_code == 2 and "spelled otherwise" in result.stderr, result.output
    assert "Traceback" not in result.output


# A topic of honba's own list only.


def test_a_stored_topic_naming_another_module_is_never_imported(db: str) -> None:
    execute(db, f"UPDATE EVENTS SET topic = ? WHERE {ROW}", "this:s", match_id("m1"), 2)
    checked = honba(db, "check", "--json")
    assert checked.exit_code == 1
    assert "Beautiful is better than ugly" not in checked.output  # Python's ``this`` never ran
    data = json.loads(checked.stdout)
    (m1,) = [r for r in data["results"] if r["name"] == "m1"]
    assert any("is not one of honba's events" in p["detail"] for p in m1["problems"])
    status = honba(db, "status", "m1")
    assert status.exit_code == 2 and "Beautiful" not in status.output


# A hand after the end.


def test_audit_flags_a_hand_appended_after_the_match_ended_with_its_chain_and_seal(tmp_path: Path) -> None:
    from domain.values import HandValue, Win, WinResult
    from replay.store.application import HonbaApp

    db = str(tmp_path / "ended.sqlite")
    ok(db, "start", "m1", "--players", PLAYERS)
    ok(db, "win", "m1", "Ben:3/30", "--from", "Ann")
    published = re.findall(r"Match head digest: ([0-9a-f]{64})", ok(db, "end", "m1"))[0]
    # A hand forged after MatchEnded the way honba would have written it: its prior, the seal moved on.
    store = HonbaApp.open(db)
    try:
        loaded = store.load("m1")
        match = loaded.match
        assert match.state.finished
        match.trigger_event(
            match.HandWon,
            fact=WinResult((Win(1, HandValue(han=13, limit="yakuman"), 0),)),
        )
        store.save_match(match, loaded.seal)
    finally:
        store.close()
    assert honba(db, "check", "m1").exit_code == 0  # the chain and seal were extended as honba would
    assert "1 events were added since" in ok(db, "check", "m1", "--against", published)
    audited = honba(db, "audit", "m1")
    assert audited.exit_code == 1
    assert "after the match ended" in audited.stdout


# An export's damage note inside what the file's digest covers.


def test_the_damage_note_of_a_forced_export_cannot_be_removed_unseen(sqlite_db: str, tmp_path: Path) -> None:
    data = state_of(sqlite_db, match_id("m1"), 2)
    data["fact"]["_data_"]["wins"][0]["value"]["han"] = 4
    set_state(sqlite_db, match_id("m1"), 2, data)
    path = tmp_path / "m1.jsonl"
    ok(sqlite_db, "export", "m1", "--force", "-o", str(path))
    lines = path.read_text(encoding="utf-8").splitlines()
    assert sum('"damaged"' in line for line in lines) == 1
    # The note taken out of whichever line holds it.
    cleaned = []
    for line in lines:
        row = json.loads(line)
        row.pop("damaged", None)
        cleaned.append(json.dumps(row, ensure_ascii=False, separators=(",", ":")))
    laundered = tmp_path / "laundered.jsonl"
    laundered.write_text("\n".join(cleaned) + "\n", encoding="utf-8")
    checked = honba(sqlite_db, "check", str(laundered))
    assert checked.exit_code == 1
    imported = honba(str(tmp_path / "other.sqlite"), "import", str(laundered))
    assert imported.exit_code == 2


# A corrected match re-imported from its own export.


def test_a_corrected_match_is_found_in_its_own_export(sqlite_db: str, tmp_path: Path) -> None:
    ok(sqlite_db, "amend", "m1", "2", "win", "Ben:4/30", "--from", "Ann", "--by", "Eve", "--reason", "4 han")
    path = tmp_path / "m1.jsonl"
    ok(sqlite_db, "export", "m1", "-o", str(path))
    again = honba(sqlite_db, "import", str(path))
    assert again.exit_code == 0, again.output
    assert "0 stored, 1 already present" in again.stdout
    # And into another store, then from that one's export back again: the same match each time.
    other = str(tmp_path / "other.sqlite")
    ok(other, "import", str(path))
    second = tmp_path / "m1-again.jsonl"
    ok(other, "export", "m1", "-o", str(second))
    assert "0 stored, 1 already present" in ok(sqlite_db, "import", str(second))


# Game identities: which stored match holds a game read from a log.

DATED = "2020080212gm-00a9-0000-82c7d512"


def corpus_file(name: str) -> Path:
    from conftest import CORPUS

    found = sorted(CORPUS.rglob(name)) if CORPUS.is_dir() else []
    if not found:
        pytest.skip(f"{name} is not in the shared corpus here")
    return found[0]


def identity_row(db: str, key: str) -> tuple[UUID, dict[str, Any]]:
    claimed = "replay.store.identity:GameIdentity.Claimed"
    rows = execute(db, "SELECT originator_id, state FROM EVENTS WHERE topic = ?", claimed)
    for stream, state in rows:
        data = json.loads(bytes(state))
        if data["key"] == key:
            return (stream if isinstance(stream, UUID) else UUID(stream)), data
    raise AssertionError(f"no identity names {key}")


@pytest.fixture
def imported(store_db: str, tmp_path: Path) -> str:
    """One game of the corpus imported from its dated file, and another match, ``other``."""
    ok(store_db, "import", str(corpus_file(f"{DATED}.mjlog")))
    ok(store_db, "start", "other", "--players", PLAYERS)
    ok(store_db, "tournament", "create", "cup")
    return store_db


def test_a_game_identity_pointed_at_another_match_never_attaches_that_match(imported: str, tmp_path: Path) -> None:
    stream, data = identity_row(imported, DATED)
    data["key"] = "other"
    set_state(imported, stream, 1, data)
    # mjx's copy of the same game under another name (a line break added: other bytes, so that it
    # is read, not recognised as a file imported before), imported into the tournament.
    copy = tmp_path / "encdec-chanta.mjlog"
    copy.write_bytes(corpus_file("encdec-chanta.mjlog").read_bytes() + b"\n")
    result = honba(imported, "import", str(copy), "--tournament", "cup")
    assert result.exit_code == 2, result.output
    assert "names the match 'other', which does not hold it" in result.stderr
    assert "other" not in ok(imported, "tournament", "show", "cup")
    checked = honba(imported, "check")
    assert checked.exit_code == 1 and "game identity" in checked.stdout


def test_a_game_identity_deleted_is_named_by_check(imported: str) -> None:
    stream, _ = identity_row(imported, DATED)
    execute(imported, "DELETE FROM EVENTS WHERE originator_id = ?", stream)
    checked = honba(imported, "check", "--json")
    assert checked.exit_code == 1
    gone = [r for r in json.loads(checked.stdout)["results"] if r["name"] == f"{stream} (gone from the store)"]
    assert gone and gone[0]["problems"][0]["kind"] == "deleted"


# Damaged stores: every read says so, never a traceback or an HTTP 500.


def test_a_row_whose_state_is_null_is_named_by_check(db: str) -> None:
    execute(db, f"UPDATE EVENTS SET state = NULL WHERE {ROW}", match_id("m1"), 2)
    checked = honba(db, "check", "--json")
    assert checked.exit_code == 1, checked.output
    (m1,) = [r for r in json.loads(checked.stdout)["results"] if r["name"] == "m1"]
    assert [(p["position"], p["kind"]) for p in m1["problems"]] == [(2, "altered")]
    execute(db, f"UPDATE EVENTS SET state = NULL WHERE {ROW}", match_id("m2"), 1)
    checked = honba(db, "check", "--json")
    assert checked.exit_code == 1, checked.output
    assert any(str(match_id("m2")) in r["name"] for r in json.loads(checked.stdout)["results"])


PAGES = ("/matches/m1", "/api/matches/m1", "/matches/m1/audit", "/tournaments/cup", "/api/tournaments/cup/standings")


def damage_the_win(db: str, change: str) -> None:
    """m1's win changed behind honba's back: a winner seat the table does not have, a han of 3.0, or 4 han."""
    data = state_of(db, match_id("m1"), 2)
    win = data["fact"]["_data_"]["wins"][0]
    if change == "seat":
        win["winner"] = 7
    elif change == "float":
        win["value"]["han"] = 3.0
    else:
        win["value"]["han"] = 4
    set_state(db, match_id("m1"), 2, data)


def pages(db: str, referee: str) -> dict[str, tuple[int, str]]:
    from starlette.testclient import TestClient

    from replay.web.app import create_app

    found = {}
    with TestClient(create_app(db), raise_server_exceptions=False) as client:
        for url in (*PAGES, f"/referee/m/m1?token={referee}"):
            answer = client.get(url)
            found[url.split("?")[0]] = (answer.status_code, answer.text)
    return found


def referee_token(db: str) -> str:
    from replay.service.common.access import TokenStore
    from replay.store.application import HonbaApp

    store = HonbaApp.open(db)
    try:
        return TokenStore(store).create("referee", None)
    finally:
        store.close()


@pytest.mark.parametrize("change", ["seat", "float"])
def test_a_fact_no_table_can_hold_gives_no_traceback_and_no_500_anywhere(db: str, change: str) -> None:
    referee = referee_token(db)
    damage_the_win(db, change)
    for url, (status, text) in pages(db, referee).items():
        assert status != 500, (url, text[:300])
        if url in ("/matches/m1", "/api/matches/m1", "/matches/m1/audit", "/referee/m/m1"):
            assert status == 409 and "damaged in the store" in text, (url, status, text[:300])
    for command in (("standings", "--tournament", "cup"), ("stats", "--tournament", "cup")):
        result = honba(db, *command)
        assert "Traceback" not in result.output
        # The match is left out and named (a seat out of range), or the row is named unreadable.
        assert "m1" in result.stderr or str(match_id("m1")) in result.stderr, (command, result.output)
    for command in (("status", "m1"), ("log", "m1"), ("audit", "m1"), ("export", "m1")):
        result = honba(db, *command)
        assert result.exit_code == 2 and "damaged in the store" in result.stderr, command


def test_a_damaged_match_is_shown_with_a_warning_on_its_pages_in_the_api_and_in_the_standings(db: str) -> None:
    referee = referee_token(db)
    damage_the_win(db, "han")  # 3 han made 4: it still scores, and its chain shows the change
    found = pages(db, referee)
    for url in ("/matches/m1", "/referee/m/m1"):
        status, text = found[url]
        assert status == 200 and 'id="damaged"' in text and "altered at 2" in text, url
    status, text = found["/api/matches/m1"]
    assert status == 200 and "altered at 2" in json.loads(text)["damaged"]
    standing = json.loads(found["/api/tournaments/cup/standings"][1])
    assert "chain is broken" in standing["damaged"]["m1"]
    status, page = found["/tournaments/cup"]
    assert status == 200 and 'class="error damaged" role="alert">Match m1 is damaged in the store' in page
    assert "Match m2 is damaged" not in page
    result = honba(db, "standings", "--tournament", "cup")
    assert result.exit_code == 0
    assert "honba: warning: match 'm1' is damaged in the store" in result.stderr
    intact = json.loads(honba(db, "standings", "--tournament", "cup", "--format", "json").stdout)
    assert "m2" not in intact["damaged"]


def view_file(db: str) -> str:
    from replay.store.standings_view import views_path

    return views_path(db)


STANDINGS = ("standings", "--tournament", "cup")
STATS = ("stats", "--tournament", "cup")


def test_garbage_view_documents_are_rebuilt_not_a_traceback(sqlite_db: str) -> None:
    before = {command: ok(sqlite_db, *command) for command in (STANDINGS, STATS)}
    for command in (STANDINGS, STATS):
        for garbage in ("garbage{", '{"rows": 5}', "[]"):
            with closing(sqlite3.connect(view_file(sqlite_db))) as connection, connection:
                connection.execute("UPDATE honba_view_docs SET data = ?", (garbage,))
            result = honba(sqlite_db, *command)
            assert result.exit_code == 0, result.output
            assert "rebuilding it from the event log" in result.stderr
            assert result.stdout == before[command]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("position", [0, 3, None])
def test_a_view_whose_tracked_position_was_set_back_is_rebuilt(sqlite_db: str, position: int | None) -> None:
    before = ok(sqlite_db, "standings", "--tournament", "cup", "--format", "json")
    with closing(sqlite3.connect(view_file(sqlite_db))) as connection, connection:
        if position is None:
            connection.execute("DELETE FROM tracking WHERE application_name = 'honba'")
        else:
            connection.execute("UPDATE tracking SET notification_id = ? WHERE application_name = 'honba'", (position,))
    result = honba(sqlite_db, "standings", "--tournament", "cup", "--format", "json")
    assert result.exit_code == 0, result.output
    assert "rebuilding it from the event log" in result.stderr
    assert result.stdout == before


# Notification order is not trusted for what a match holds.


def drop_view(db: str) -> None:
    """The standings view deleted: the next command rebuilds it from the whole log."""
    if db.startswith("postgresql://"):
        with psycopg.connect(db) as connection:
            connection.execute("DELETE FROM honba_view_docs")
            connection.execute("DELETE FROM honba_view_tracking WHERE application_name = 'honba'")
        return
    Path(view_file(db)).unlink()


def test_a_match_start_moved_later_in_the_log_still_counts_in_a_rebuilt_view(db: str) -> None:
    for key in ("m1", "m2"):
        ok(db, "end", key)  # both count for the cup
    before = ok(db, "standings", "--tournament", "cup", "--format", "json")
    assert [row["matches"] for row in json.loads(before)["rows"]] == [2, 2, 2, 2]
    # m1's start row moved behind every other row of the log (a later notification id).
    if db.startswith("postgresql://"):
        execute(
            db,
            f"UPDATE EVENTS SET notification_id = (SELECT max(notification_id) + 1 FROM EVENTS) WHERE {ROW}",
            match_id("m1"),
            1,
        )
    else:
        execute(db, f"UPDATE EVENTS SET rowid = (SELECT max(rowid) + 1 FROM EVENTS) WHERE {ROW}", match_id("m1"), 1)
    assert honba(db, "check").exit_code == 0  # every chain and seal still holds: only the log's order moved
    drop_view(db)
    result = honba(db, "standings", "--tournament", "cup", "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == json.loads(before)
