"""Stored view documents carry their schema: a view written by an older honba (documents without
a newer field) is read with the field's default, and one written by a newer honba is refused in
one line, never a crash."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from honba_cli import Honba, ok

from projections.standings_view import DOC_SCHEMA, SCHEMA_KEY
from replay.store.standings_view import views_path

PLAYERS = "Ann,Ben,Cho,Dai"


def league(tmp_path: Path) -> Path:
    db = tmp_path / "club.sqlite"
    ok(db, "tournament", "create", "cup", "--players", PLAYERS)
    ok(db, "start", "m1", "--players", PLAYERS)
    ok(db, "win", "m1", "Ben:3/30", "--from", "Ann")
    ok(db, "end", "m1")
    ok(db, "tournament", "attach", "cup", "m1", "--session", "1")
    ok(db, "stats", "--tournament", "cup")  # builds the view
    return db


def rewrite_stats(db: Path, change: object) -> None:
    """Change the stored stats document of m1 in the views file, as another honba would have written it."""
    with sqlite3.connect(views_path(str(db))) as conn:
        (text,) = conn.execute("SELECT data FROM honba_view_docs WHERE kind = 'stats' AND key = 'm1'").fetchone()
        data = json.loads(text)
        assert callable(change)
        change(data)
        conn.execute("UPDATE honba_view_docs SET data = ? WHERE kind = 'stats' AND key = 'm1'", (json.dumps(data),))


def test_every_stored_document_carries_its_schema(tmp_path: Path) -> None:
    db = league(tmp_path)
    with sqlite3.connect(views_path(str(db))) as conn:
        rows = conn.execute("SELECT kind, data FROM honba_view_docs").fetchall()
    assert {kind for kind, _ in rows} >= {"match", "summary", "stats", "standings", "totals", "entry"}
    for kind, text in rows:
        assert json.loads(text)[SCHEMA_KEY] == DOC_SCHEMA.get(kind, 1), kind


def test_a_document_of_an_older_shape_is_read_with_the_new_fields_defaults(tmp_path: Path) -> None:
    db = league(tmp_path)

    def older(data: dict[str, object]) -> None:
        # The shape before the call counts existed (issue 14's first statistics): no schema, no counts.
        del data[SCHEMA_KEY]
        for counts in data["counts"]:  # type: ignore[attr-defined]
            del counts["called"], counts["call_hands"]

    rewrite_stats(db, older)
    rows = json.loads(ok(db, "stats", "--tournament", "cup", "--format", "json"))["players"]
    ben = next(row for row in rows if row["player"] == "Ben")
    assert (ben["wins"], ben["win_value"]) == (1, 3900)  # 3 han 30 fu off a non-dealer (seeds' table)
    assert (ben["called"], ben["call_hands"], ben["call_rate"]) == (0, 0, None)
    assert "—" in ok(db, "stats", "--tournament", "cup")


def test_a_document_of_a_newer_schema_is_refused_in_one_line(tmp_path: Path) -> None:
    db = league(tmp_path)
    rewrite_stats(db, lambda data: data.update({SCHEMA_KEY: 99}))
    result = Honba(db)("stats", "--tournament", "cup")
    assert result.exit_code == 2
    assert "newer than this honba" in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1, result.output


def test_a_summary_written_before_provisional_points_reads_as_unknown_until_the_next_hand(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite"
    ok(db, "tournament", "create", "cup", "--players", PLAYERS)
    ok(db, "start", "m1", "--players", PLAYERS)
    ok(db, "tournament", "attach", "cup", "m1", "--session", "1")
    ok(db, "win", "m1", "Ben:3/30", "--from", "Ann")
    ok(db, "standings", "--tournament", "cup")  # builds the view
    with sqlite3.connect(views_path(str(db))) as conn:
        (text,) = conn.execute("SELECT data FROM honba_view_docs WHERE kind = 'summary' AND key = 'm1'").fetchone()
        data = json.loads(text)
        # The shape before issue 25: no schema, no hand, no provisional points.
        del data[SCHEMA_KEY], data["hand"], data["provisional_points"]
        conn.execute("UPDATE honba_view_docs SET data = ? WHERE kind = 'summary' AND key = 'm1'", (json.dumps(data),))
    (table,) = json.loads(ok(db, "standings", "--tournament", "cup", "--format", "json"))["tables_in_progress"]
    assert table["hand"] is None and [seat["points"] for seat in table["seats"]] == [None] * 4
    ok(db, "win", "m1", "Cho:1/30", "--from", "Dai")  # the next hand writes it again, whole
    (table,) = json.loads(ok(db, "standings", "--tournament", "cup", "--format", "json"))["tables_in_progress"]
    assert table["hand"] == "E3-0" and None not in [seat["points"] for seat in table["seats"]]
