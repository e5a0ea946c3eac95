"""A view laid out by an older honba is derived data: the next command empties it and rebuilds it
from the event log by itself, saying so in one line on stderr (issue 14), on SQLite and on
PostgreSQL; one laid out by a newer honba is refused in one line; emptying a view is a
compare-and-set like every write of it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import hv, ron
from eventsourcing.persistence import Tracking
from honba_cli import honba
from test_views import NAMES, TENHOU, won

from projections.standings_view import FORMAT
from projections.views import DocumentView, POPODocumentView, ViewMoved
from replay.service.recording import recording
from replay.service.tournaments.tournaments import attach_all
from replay.store.application import HonbaApp
from replay.store.standings_view import catch_up, open_view


def one_match_cup(db: str, layout: int | None) -> None:
    """A store with one finished match in the tournament "cup" (Ben 3 han 30 fu ron off Ann), and a
    views file up to date with its log as a honba of that layout (None: before layouts were marked)
    would have left it, its documents in a shape this honba does not read."""
    app = HonbaApp.open(db)
    try:
        recording.start_match(app, "m1", NAMES, TENHOU)
        recording.record(app, "m1", won(ron(1, 0, hv(3, 30))))
        recording.end(app, "m1", "time limit")
        attach_all(app, "cup", [("m1", NAMES)], 1)
        view = open_view(app)
        old: dict[tuple[str, str], dict[str, Any] | None] = {
            ("tournament-name", "cup"): {"id": "old-id"},
            ("tournament", "old-id"): {"id": "old-id", "name": "cup", "players": ["Zed"], "aliases": {}},
            ("summary", "ghost"): {"key": "ghost", "a layout": "long gone"},
            ("standings", "cup"): {"rows": [{"player": "Zed", "points": 99.9}]},
        }
        if layout is not None:
            old[("view", "format")] = {"version": layout}
        view.put_docs(old, Tracking(app.name, app.recorder.max_notification_id() or 0))
    finally:
        app.close()


@pytest.mark.parametrize("layout", [FORMAT - 1, None])
def test_a_view_an_older_honba_laid_out_is_rebuilt_with_a_one_line_notice(store_db: str, layout: int | None) -> None:
    one_match_cup(store_db, layout)
    result = honba(store_db, "stats", "--tournament", "cup", "--format", "json")
    assert result.exit_code == 0, result.output
    notice = result.stderr.strip().splitlines()
    assert len(notice) == 1 and "older honba" in notice[0] and "rebuilding" in notice[0], result.stderr
    ben = next(row for row in json.loads(result.stdout)["players"] if row["player"] == "Ben")
    assert (ben["wins"], ben["win_value"]) == (1, 3900)  # 3 han 30 fu off a non-dealer (seeds' table)

    again = honba(store_db, "standings", "--tournament", "cup", "--format", "json")
    assert again.exit_code == 0, again.output
    assert again.stderr.strip() == ""  # rebuilt once: no notice the next time
    rows = json.loads(again.stdout)["rows"]
    assert sorted(row["player"] for row in rows) == sorted(NAMES)
    assert [row["matches"] for row in rows] == [1, 1, 1, 1]

    app = HonbaApp.open(store_db)
    try:
        view = open_view(app)
        assert view.get_doc("summary", "ghost") is None
        assert view.get_doc("tournament", "old-id") is None
        marker = view.get_doc("view", "format")
        assert marker is not None and marker["version"] == FORMAT
    finally:
        app.close()


def test_a_view_a_newer_honba_laid_out_is_refused_in_one_line(store_db: str) -> None:
    one_match_cup(store_db, FORMAT + 1)
    result = honba(store_db, "standings", "--tournament", "cup")
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "newer honba" in lines[0], result.stderr
    assert "Traceback" not in result.output


def views(tmp_path: Path) -> list[tuple[DocumentView, HonbaApp | None]]:
    app = HonbaApp.open(str(tmp_path / "club.sqlite"))
    return [(POPODocumentView(), None), (open_view(app), app)]


def test_emptying_a_view_that_moved_on_meanwhile_changes_nothing(tmp_path: Path) -> None:
    for view, app in views(tmp_path):
        try:
            view.put_docs({("standings", "cup"): {"rows": []}}, Tracking("honba", 7))
            with pytest.raises(ViewMoved):
                view.reset("honba", expected=5)  # read before another writer moved the view to 7
            assert view.max_tracking_id("honba") == 7
            assert view.get_doc("standings", "cup") == {"rows": []}
            view.reset("honba", expected=7)
            assert view.max_tracking_id("honba") is None
            assert view.get_doc("standings", "cup") is None
        finally:
            if app is not None:
                app.close()


def test_the_rule_values_are_stored_once_for_every_match_played_under_them() -> None:
    app = HonbaApp.open(":memory:")
    try:
        for key in ("m1", "m2", "m3"):
            recording.start_match(app, key, NAMES, TENHOU)
            recording.record(app, key, won(ron(1, 0, hv(3, 30))))
        view = POPODocumentView()
        catch_up(app, view)
        rules = view.docs("rules")
        assert len(rules) == 1
        ref, values = rules[0]
        values.pop("_schema")
        assert values == TENHOU.to_dict()
        for key in ("m1", "m2", "m3"):
            summary = view.get_doc("summary", key)
            assert summary is not None and summary["final_scores"] == [21100, 28900, 25000, 25000]
        assert {doc["rules"] for _, doc in view.docs("match")} == {ref}
    finally:
        app.close()
