"""Issue 11's store cases on SQLite and on PostgreSQL alike: a rollback caught by the checkpoints
(issue 26; by the store chain on a store written before them), a tournament's row removed, a
damaged match explained in one line, and the store head published and compared. Rows are
changed with plain SQL, behind honba's back."""

from __future__ import annotations

import json
import re
from pathlib import Path
from uuid import UUID

import pytest
from conftest import STORES
from honba_cli import honba, ok
from old_store import OLD_HEAD, write_old_store
from prepared_store import PreparedStores
from stored_rows import execute

from domain.match import match_id
from domain.tournament import tournament_id
from replay.store.checkpoint import CHECKPOINTS_ID
from replay.store.seal import seal_id


def last(db: str, originator: UUID) -> int:
    ((version,),) = execute(db, "SELECT MAX(originator_version) FROM EVENTS WHERE originator_id = ?", originator)
    return int(version)


def delete(db: str, originator: UUID, version: int) -> None:
    execute(db, "DELETE FROM EVENTS WHERE originator_id = ? AND originator_version = ?", originator, version)


def fill(db: str) -> None:
    """m1 (start, Ben's ron, deal pass, a penalty at 4), m2, tournament cup with both."""
    for key in ("m1", "m2"):
        ok(db, "start", key, "--players", "Ann,Ben,Cho,Dai")
        ok(db, "win", key, "Ben:3/30", "--from", "Ann")
    ok(db, "penalty", "m1", "Dai", "--amount", "1000", "--share", "off_table")
    ok(db, "tournament", "create", "cup")
    ok(db, "tournament", "attach", "cup", "m1")
    ok(db, "tournament", "attach", "cup", "m2")


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> PreparedStores:
    return PreparedStores(fill, tmp_path_factory.mktemp("prepared"), request)


@pytest.fixture(params=STORES)
def db(prepared: PreparedStores, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A copy of the filled store, on SQLite and on PostgreSQL (one test each)."""
    return prepared.copy(request.param, tmp_path)


def problems(db: str) -> dict[str, list[tuple[int, str]]]:
    data = json.loads(honba(db, "check", "--json").stdout)
    found = {r["name"]: [(p["position"], p["kind"]) for p in r["problems"]] for r in data["results"]}
    found["checkpoints"] = [(p["position"], p["kind"]) for p in data["store"]["problems"]]
    return found


def test_a_match_tail_rolled_back_with_its_seal_row_is_caught(db: str) -> None:
    m1 = match_id("m1")
    delete(db, m1, 4)
    delete(db, seal_id(m1), last(db, seal_id(m1)))
    found = problems(db)
    assert found["m1"] == [(4, "deleted")]
    assert found["m2"] == [] and found["checkpoints"] == []


def test_a_match_attached_row_removed_from_a_tournament_is_caught(db: str) -> None:
    delete(db, tournament_id("cup"), 2)
    assert problems(db)["tournament cup"] == [(2, "deleted")]


def test_a_deleted_row_is_one_line_naming_the_match_and_position(db: str) -> None:
    delete(db, match_id("m1"), 2)
    for command in (("status", "m1"), ("log", "m1"), ("audit", "m1"), ("export", "m1"), ("draw", "m1")):
        result = honba(db, *command)
        assert result.exit_code == 2, command
        (line,) = result.stderr.strip().splitlines()
        assert line.startswith("honba: match 'm1' is damaged in the store: deleted at 2"), line


def test_the_stores_last_save_rolled_back_is_caught_against_the_published_store_head(db: str) -> None:
    before = last(db, match_id("m2"))
    text = ok(db, "draw", "m2", "--ready", "Ann")
    published = re.findall(r"Store head digest: ([0-9a-f]{64})", text)[0]
    # The draw, its seal row and the checkpoint the command took of it: all removed.
    delete(db, CHECKPOINTS_ID, last(db, CHECKPOINTS_ID))
    delete(db, seal_id(match_id("m2")), last(db, seal_id(match_id("m2"))))
    for version in range(last(db, match_id("m2")), before, -1):
        delete(db, match_id("m2"), version)
    assert honba(db, "check").exit_code == 0
    assert honba(db, "check", "--against", published).exit_code == 1


def test_a_rollback_on_a_store_written_before_checkpoints_is_caught_by_its_store_chain(store_db: str) -> None:
    # The store written by honba before checkpoints (old_store.py), its rows put in as they were.
    write_old_store(store_db)
    assert "Checkpoints: 0, intact; the store chain written before checkpoints: 8 links" in ok(store_db, "check")
    m1 = match_id("m1")
    delete(store_db, m1, 4)
    delete(store_db, seal_id(m1), last(store_db, seal_id(m1)))
    found = problems(store_db)
    assert found["m1"] == [(4, "deleted")]
    assert found["m2"] == [] and found["checkpoints"] == []


def test_a_store_written_before_checkpoints_takes_new_hands_covered_by_checkpoints(store_db: str) -> None:
    write_old_store(store_db)
    before = last(store_db, match_id("m2"))
    published = re.findall(r"Store head digest: ([0-9a-f]{64})", ok(store_db, "draw", "m2", "--ready", "Ann"))[0]
    assert published == re.findall(r"Store head digest: ([0-9a-f]{64})", ok(store_db, "check"))[0]
    # The store head published before checkpoints is still found: the chain's last link.
    assert "1 checkpoints were added since" in ok(store_db, "check", "--against", OLD_HEAD)
    # The draw rolled back with its seal row: the checkpoint its command took names it.
    delete(store_db, seal_id(match_id("m2")), last(store_db, seal_id(match_id("m2"))))
    for version in range(last(store_db, match_id("m2")), before, -1):
        delete(store_db, match_id("m2"), version)
    assert problems(store_db)["m2"] == [(before + 1, "deleted")]
