"""The stored standings are kept incrementally: a tournament's running totals change by what one
match adds, changes or takes back, so that bringing the view up to date after one more match
costs the work of that match, not of the tournament (issue 14), and the standings they give
are those the summaries of every counted match give.
"""

from __future__ import annotations

from typing import Any

import attrs
from conftest import hv, ron
from eventsourcing.persistence import Tracking
from test_views import COMMANDS, NAMES, TENHOU, won

from projections.standings_view import DocCache, tournament_standings
from projections.views import Changes, POPODocumentView
from replay.service.recording import recording
from replay.service.tournaments.tournaments import attach_all
from replay.store.application import HonbaApp
from replay.store.standings_view import catch_up


class CountingView(POPODocumentView):
    """An in-memory view that counts the documents read from it."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    def get_doc(self, kind: str, key: str) -> dict[str, Any] | None:
        self.reads += 1
        return super().get_doc(kind, key)

    def put_docs(self, changes: Changes, tracking: Tracking, *, expected: int | None = None) -> None:
        super().put_docs(changes, tracking, expected=expected)


def stored_rows(view: POPODocumentView, name: str) -> list[dict[str, Any]]:
    doc = view.get_doc("standings", name)
    assert doc is not None
    rows: list[dict[str, Any]] = doc["rows"]
    return rows


def recomputed_rows(view: POPODocumentView, name: str) -> list[dict[str, Any]]:
    """The standings from the summaries of every counted match (projections.standings.standings)."""
    cache = DocCache(view)
    ref = cache.get("tournament-name", name)
    assert ref is not None
    tournament = cache.get("tournament", ref["id"])
    assert tournament is not None
    rows = [attrs.asdict(row) for row in tournament_standings(cache, tournament)]
    return [{**row, "place_counts": list(row["place_counts"])} for row in rows]


def test_the_running_totals_give_the_standings_of_every_counted_match() -> None:
    app = HonbaApp.open(":memory:")
    try:
        view = POPODocumentView()
        # Event by event: matches counted, amended, voided, penalised, aliased, detached.
        for command in COMMANDS:
            command(app)
            catch_up(app, view)
            assert stored_rows(view, "cup") == recomputed_rows(view, "cup")
        assert any(row["matches"] for row in stored_rows(view, "cup"))
    finally:
        app.close()


def play(app: HonbaApp, key: str) -> None:
    recording.start_match(app, key, NAMES, TENHOU)
    recording.record(app, key, won(ron(1, 0, hv(3, 30))))
    recording.end(app, key, "time limit")
    attach_all(app, "big", [(key, NAMES)], 1)


def reads_for_one_more_match(matches: int) -> int:
    """Documents read to bring the view up to date after one match more than ``matches``."""
    app = HonbaApp.open(":memory:")
    try:
        for n in range(matches):
            play(app, f"m{n}")
        view = CountingView()
        catch_up(app, view)
        play(app, "one-more")
        view.reads = 0
        catch_up(app, view)
        reads = view.reads
        assert stored_rows(view, "big") == recomputed_rows(view, "big")
        assert stored_rows(view, "big")[0]["matches"] == matches + 1
        return reads
    finally:
        app.close()


def test_an_update_after_one_more_match_reads_what_that_match_needs_not_the_tournament() -> None:
    small, large = reads_for_one_more_match(5), reads_for_one_more_match(40)
    assert small == large
    assert large < 20
