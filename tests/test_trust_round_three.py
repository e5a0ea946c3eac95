"""Issue 32 (trust under attack, round three), on SQLite and PostgreSQL alike: what belongs to a
tournament is not read from the notification log's order, a tournament's removed seal is named,
a view whose tracking rows were damaged is rebuilt, ``certificate verify`` checks the record it
certifies, and a committed draw cannot be replaced. Rows are changed with plain SQL, behind
honba's back (the helpers of test_outside_the_chain)."""

from __future__ import annotations

import json

import psycopg
import pytest
from test_outside_the_chain import ROW, drop_view, execute, fill, honba, ok

from domain.tournament import tournament_id
from replay.store.seal import seal_id


@pytest.fixture
def db(store_db: str) -> str:
    fill(store_db)
    for key in ("m1", "m2"):
        ok(store_db, "end", key)  # both count for the cup
    return store_db


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
