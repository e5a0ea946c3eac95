"""Issue 32 (trust under attack, round three), on SQLite and PostgreSQL alike: what belongs to a
tournament is not read from the notification log's order, a tournament's removed seal is named,
a view whose tracking rows were damaged is rebuilt, ``certificate verify`` checks the record it
certifies, and a committed draw cannot be replaced. Rows are changed with plain SQL, behind
honba's back (the helpers of test_outside_the_chain)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from conftest import STORES
from prepared_store import PreparedStores
from test_outside_the_chain import ROW, drop_view, execute, fill, honba, ok

from domain.match import match_id
from domain.tournament import tournament_id
from replay.store.seal import seal_id


def filled(db: str) -> None:
    """The store of test_outside_the_chain's ``fill``, both matches ended (both count for the cup)."""
    fill(db)
    for key in ("m1", "m2"):
        ok(db, "end", key)


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> PreparedStores:
    return PreparedStores(filled, tmp_path_factory.mktemp("prepared"), request)


@pytest.fixture(params=STORES)
def db(prepared: PreparedStores, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A copy of the filled store, on SQLite and on PostgreSQL (one test each)."""
    return prepared.copy(request.param, tmp_path)


def move_to_the_end(db: str, stream: object, version: int) -> None:
    """A row moved behind every other row of the notification log (a later notification id)."""
    if db.startswith("postgresql://"):
        execute(
            db,
            f"UPDATE EVENTS SET notification_id = (SELECT max(notification_id) + 1 FROM EVENTS) WHERE {ROW}",
            stream,
            version,
        )
    else:
        execute(db, f"UPDATE EVENTS SET rowid = (SELECT max(rowid) + 1 FROM EVENTS) WHERE {ROW}", stream, version)


def test_a_tournament_created_row_moved_later_in_the_log_still_counts_its_matches(db: str) -> None:
    before = ok(db, "standings", "--tournament", "cup", "--format", "json")
    assert [row["matches"] for row in json.loads(before)["rows"]] == [2, 2, 2, 2]
    move_to_the_end(db, tournament_id("cup"), 1)
    assert honba(db, "check").exit_code == 0  # every chain and seal holds: only the log's order moved
    drop_view(db)
    result = honba(db, "standings", "--tournament", "cup", "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == json.loads(before)


def test_a_tournament_whose_every_seal_row_was_removed_is_named_unsealed(db: str) -> None:
    execute(db, "DELETE FROM EVENTS WHERE originator_id = ?", seal_id(tournament_id("cup")))
    checked = honba(db, "check", "--json")
    assert checked.exit_code == 1, checked.output
    (cup,) = [r for r in json.loads(checked.stdout)["results"] if r["name"] == "tournament cup"]
    assert [(p["position"], p["kind"]) for p in cup["problems"]] == [(0, "unsealed")]
    assert "unsealed" in honba(db, "check").stdout


def set_tracking(db: str, application: str, position: object) -> None:
    """A tracking row of the standings view set behind honba's back (SQLite: the view's own file)."""
    if db.startswith("postgresql://"):
        with psycopg.connect(db) as connection:
            connection.execute(
                "UPDATE honba_view_tracking SET notification_id = %s WHERE application_name = %s",
                (position, application),
            )
        return
    import sqlite3
    from contextlib import closing

    from test_outside_the_chain import view_file

    with closing(sqlite3.connect(view_file(db))) as connection, connection:
        connection.execute(
            "UPDATE tracking SET notification_id = ? WHERE application_name = ?", (position, application)
        )


@pytest.mark.parametrize("position", [0, None])
def test_a_view_whose_migration_tracking_row_was_set_to_0_is_rebuilt_and_serve_starts(
    db: str, position: int | None
) -> None:
    from starlette.testclient import TestClient

    from replay.web.app import create_app

    before = {
        command: ok(db, *command)
        for command in (("standings", "--tournament", "cup"), ("stats", "--tournament", "cup"))
    }
    for command, shown in before.items():
        set_tracking(db, "__migration__", position)
        result = honba(db, *command)
        assert result.exit_code == 0, result.output
        assert "the standings view cannot be opened" in result.stderr
        assert "rebuilding it from the event log" in result.stderr
        assert result.stdout == shown
        assert "standings view" not in honba(db, *command).stderr  # rebuilt once: opened as it is from then on
    set_tracking(db, "__migration__", position)
    with TestClient(create_app(db), raise_server_exceptions=False) as client:
        answer = client.get("/tournaments/cup")
    assert answer.status_code == 200 and "Ann" in answer.text


def test_certificate_verify_checks_every_certified_matchs_chain_not_only_its_head(db: str, tmp_path: Path) -> None:
    from test_outside_the_chain import damage_the_win

    ok(db, "certificate", "keygen", str(tmp_path / "organiser"))
    path = tmp_path / "cup.cert.json"
    ok(db, "certificate", "sign", "cup", "--key", str(tmp_path / "organiser.key"), "-o", str(path))
    verify = ("certificate", "verify", str(path), "--key", str(tmp_path / "organiser.pub.pem"))
    assert "verifies: the signature and this store's record" in ok(db, *verify)
    damage_the_win(db, "han")  # 3 han made 4 in m1's stored win: its head (the last event's) stays as certified
    result = honba(db, *verify)
    assert result.exit_code == 1, result.output
    assert "FAILED: match 'm1' is damaged in the store: altered at 2" in result.stdout
    assert "m2" not in result.stdout


# A committed draw: its terms fixed with it, its seating not replaced.

EIGHT = "Ann,Ben,Cho,Dai,Eve,Fay,Gus,Hal"


def teams_cup(db: str) -> None:
    ok(db, "tournament", "create", "teams", "--players", EIGHT)
    ok(db, "tournament", "format", "teams", "--stage", "all:2", "--teams-apart")
    for team, players in (("Red", ("Ann", "Ben", "Cho", "Dai")), ("Blue", ("Eve", "Fay", "Gus", "Hal"))):
        ok(db, "tournament", "team", "teams", team, *players)


def seating(text: str) -> list[list[str]]:
    return [line.split(": ", 1)[1].split(", ") for line in text.splitlines() if line.startswith("table ")]


def stored_sessions(db: str, name: str) -> dict[int, list[list[str]]]:
    from replay.store.application import HonbaApp
    from replay.store.tournaments import get_tournament

    app = HonbaApp.open(db)
    try:
        return dict(get_tournament(app, name).sessions)
    finally:
        app.close()


def refused(db: str, *args: str) -> str:
    result = honba(db, *args)
    assert result.exit_code == 2, result.output
    (line,) = result.stderr.strip().splitlines()
    return line


def test_a_draw_with_team_mates_apart_verifies_as_played_from_the_store_and_from_published_values(
    db: str, tmp_path: Path
) -> None:
    from domain.draw import commitment_of

    teams_cup(db)
    seed = "5e" * 32
    committed = ok(db, "tournament", "commit-draw", "teams", "1", "--commitment", commitment_of(seed), "--size", "4")
    assert "Terms digest: " in committed and "--teams Ann=Red,Ben=Red" in committed
    # The terms are fixed until the reveal: nobody registered, no team joined, no seating by hand.
    assert "is committed" in refused(db, "tournament", "create", "teams", "--players", "Ivy")
    assert "is committed" in refused(db, "tournament", "team", "teams", "Blue", "Ann")
    assert "is committed" in refused(db, "tournament", "seat", "teams", "1", "Ann,Ben,Cho,Dai", "Eve,Fay,Gus,Hal")
    revealed = seating(
        ok(db, "tournament", "reveal-draw", "teams", "1", "--seed", seed, "--no-start", "--rules", "wrc")
    )
    played = stored_sessions(db, "teams")[1]
    assert revealed == played
    # Team-mates were moved apart: no table seats two of one team.
    team = {p: "Red" if p in "Ann Ben Cho Dai" else "Blue" for p in EIGHT.split(",")}
    assert all(len({team[p] for p in table}) == 2 for table in played)
    verified = ok(db, "tournament", "verify-draw", "teams", "1")
    assert seating(verified) == played and "checks" in verified
    terms = re.search(r"--players (\S+); --teams (\S+); --size 4", verified)
    assert terms is not None
    alone = ok(
        db,
        "tournament",
        "verify-draw",
        "--seed",
        seed,
        "--players",
        terms[1],
        "--teams",
        terms[2],
        "--commitment",
        commitment_of(seed),
    )
    assert seating(alone) == played
    # A drawn session is not seated again, and the draw's players stay as committed.
    assert "is revealed" in refused(db, "tournament", "seat", "teams", "1", "Ann,Ben,Cho,Dai", "Eve,Fay,Gus,Hal")


# Read-only checks: check, audit and export need no write, so they work on a full disk.


def test_the_store_opened_for_check_audit_and_export_refuses_every_write(db: str) -> None:
    from domain.match import Match
    from domain.rules import load_preset
    from replay.store.application import HonbaApp

    app = HonbaApp.open(db, read_only=True)
    try:
        assert app.get_match("m1").key == "m1"  # it reads
        with pytest.raises(Exception, match=r"(?i)read-?only"):
            app.save_match(Match.start("m3", ["Ann", "Ben", "Cho", "Dai"], load_preset("tenhou")))
    finally:
        app.close()
    assert [summary.key for summary in HonbaApp.open(db).list_matches()] == ["m1", "m2"]


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A small file system of its own (tmpfs), to be filled: root and mount(8) needed, else skipped."""
    import shutil
    import subprocess

    mount = tmp_path / "disk"
    mount.mkdir()
    if (
        shutil.which("mount") is None
        or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)], capture_output=True
        ).returncode
    ):
        pytest.skip("cannot mount a small tmpfs here (not root, or no mount)")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def test_check_audit_and_export_work_on_a_full_disk(full_disk: Path) -> None:
    db = str(full_disk / "club.sqlite")
    ok(db, "start", "m1", "--players", "Ann,Ben,Cho,Dai")
    ok(db, "win", "m1", "Ben:3/30", "--from", "Ann")
    for left in full_disk.glob("club.sqlite-*"):
        left.unlink()  # the store closed: nothing in its write-ahead log
    import os

    filler = os.open(full_disk / "filler", os.O_WRONLY | os.O_CREAT)
    try:
        while os.write(filler, b"\0" * 4096):
            pass
    except OSError:
        pass  # the disk is full
    finally:
        os.close(filler)
    assert "1 checked, 0 with problems" in ok(db, "check")
    assert "Integrity: intact" in ok(db, "audit", "m1")
    assert '"key": "m1"' in ok(db, "export", "m1")


# What check and audit find, shown where people look: status, the table and referee's pages, the
# API's "damage" field, the standings; all from replay.service.audit.damage.


def rolled_back(db: str) -> None:
    """m1's ending rolled back with its seal row, after a checkpoint covered it."""
    from replay.store.seal import seal_id as sealed

    m1 = match_id("m1")
    execute(db, f"DELETE FROM EVENTS WHERE {ROW}", m1, last(db, m1))
    execute(db, f"DELETE FROM EVENTS WHERE {ROW}", sealed(m1), last(db, sealed(m1)))


def last(db: str, stream: object) -> int:
    ((version,),) = execute(db, "SELECT MAX(originator_version) FROM EVENTS WHERE originator_id = ?", stream)
    return int(version)


def forged_after_the_end(db: str) -> None:
    """A hand appended to m1 after its end, its chain, seal and checkpoint extended as honba would."""
    from domain.values import HandValue, Win, WinResult
    from replay.store.application import HonbaApp

    store = HonbaApp.open(db)
    try:
        loaded = store.load("m1")
        loaded.match.trigger_event(
            loaded.match.HandWon, fact=WinResult((Win(1, HandValue(han=13, limit="yakuman"), 0),))
        )
        store.save_match(loaded.match, loaded.seal)
        store.checkpoint()
    finally:
        store.close()


def damage_pages(db: str) -> dict[str, tuple[int, str]]:
    from starlette.testclient import TestClient
    from test_outside_the_chain import referee_token

    from replay.web.app import create_app

    referee = referee_token(db)
    found = {}
    with TestClient(create_app(db), raise_server_exceptions=False) as client:
        for url in ("/matches/m1", "/api/matches/m1", f"/referee/m/m1?token={referee}", "/tournaments/cup"):
            answer = client.get(url)
            found[url.split("?")[0]] = (answer.status_code, answer.text)
        found["/api/tournaments/cup/standings"] = (200, client.get("/api/tournaments/cup/standings").text)
    return found


@pytest.mark.parametrize("edit", ["rolled back", "after the end"])
def test_what_check_and_audit_find_is_shown_on_status_the_pages_the_api_and_the_standings(db: str, edit: str) -> None:
    ok(db, "standings", "--tournament", "cup")  # the view folded m1 before the change
    (rolled_back if edit == "rolled back" else forged_after_the_end)(db)
    said = "deleted at" if edit == "rolled back" else "after the match ended"
    status = honba(db, "status", "m1")
    assert status.exit_code == 0 and "honba: warning: match 'm1' is damaged in the store" in status.stderr
    assert said in status.stderr
    assert said in " ".join(json.loads(ok(db, "status", "m1", "--json"))["damage"])
    assert honba(db, "status", "m2").stderr.strip() == ""
    found = damage_pages(db)
    for url in ("/matches/m1", "/referee/m/m1"):
        code, text = found[url]
        assert code == 200 and 'id="damaged"' in text and said in text, (url, code, text[:300])
    code, text = found["/api/matches/m1"]
    assert code == 200 and said in " ".join(json.loads(text)["damage"])
    assert "m1" in json.loads(found["/api/tournaments/cup/standings"][1])["damaged"]
    assert "Match m1 is damaged" in found["/tournaments/cup"][1]
    standings = honba(db, "standings", "--tournament", "cup")
    assert "honba: warning: match 'm1' is damaged in the store" in standings.stderr and said in standings.stderr
    assert "'m2'" not in standings.stderr
