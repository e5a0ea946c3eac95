"""The stored standings view: rebuilt from scratch it equals the one maintained event by event,
and interrupted mid-way it resumes without counting anything twice; in memory, on SQLite (a
file beside the store's) and on PostgreSQL, where the library's ProjectionRunner follows new
events live (``replay.store.standings_view.follow``).

Issue 6: "A view rebuilt from scratch equals the one maintained event by event (a test), and a
view interrupted mid-way resumes without counting anything twice." Tracking records make each
event count once: a position written again raises IntegrityError and changes nothing.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import SOUTH, hv, ron, tsumo
from eventsourcing.persistence import InfrastructureFactory, IntegrityError, Tracking
from eventsourcing.sqlite import SQLiteFactory

from domain.rules import load_preset
from domain.tournament import Tournament
from domain.values import ExhaustiveDraw, Penalty, TableState, WinResult
from projections.standings_view import StandingsProjection
from projections.views import DocumentView, POPODocumentView
from replay.input.entry import entry_of
from replay.service.recording import recording
from replay.service.recording.entry import CorrectionRequest, apply_correction
from replay.service.tournaments.standings import tournament_report
from replay.service.tournaments.tournaments import attach_all, change_tournament
from replay.store.application import HonbaApp
from replay.store.settings import persistence_env
from replay.store.standings_view import catch_up, follow, open_view, views_path
from replay.store.views import SQLiteDocumentView

TENHOU = load_preset("tenhou")
WRC = load_preset("wrc")
NAMES = ["Ann", "Ben", "Cho", "Dai"]
KINDS = (
    "match",
    "summary",
    "tournament",
    "tournament-name",
    "attached",
    "standings",
    "stats",
    "totals",
    "entry",
    "view",
)

Command = Callable[[HonbaApp], Any]


def won(*wins: Any, riichi: tuple[int, ...] = ()) -> WinResult:
    return WinResult(wins=wins, riichi=riichi)


def south4(scores: tuple[int, ...]) -> TableState:
    return TableState(players=4, scores=scores, round_wind=SOUTH, hand_number=4, dealer=3)


# Every kind of event the view folds: matches started, hands won and drawn, deal passes,
# penalties, ends, corrections (amend, void, penalty added), and every tournament event.
COMMANDS: list[Command] = [
    lambda a: a.save(Tournament.create("cup", ["Ann", "Ben"])),
    lambda a: recording.start_match(a, "m1", NAMES, TENHOU),
    lambda a: recording.record(a, "m1", won(ron(1, 0, hv(3, 30)), riichi=(1,))),
    lambda a: recording.record(a, "m1", ExhaustiveDraw(ready=(1, 2))),
    lambda a: recording.penalise(a, "m1", Penalty(2, 8000, "chombo", "reverse_mangan")),
    lambda a: attach_all(a, "cup", [("m1", NAMES)], 1),
    lambda a: recording.record(a, "m1", won(tsumo(2, hv(2, 30)))),
    lambda a: recording.end(a, "m1", "time limit"),
    lambda a: recording.start_match(
        a, "m2", ["Ann", "Annie", "Cho", "Dai"], WRC, {}, south4((41_300, 30_000, 29_000, 19_700))
    ),
    lambda a: attach_all(a, "cup", [("m2", ["Ann", "Annie", "Cho", "Dai"])], 2),
    lambda a: change_tournament(a, "cup", lambda t: t.declare_alias("Annie", "Ben")),
    lambda a: recording.record(a, "m2", won(ron(2, 3, hv(1, 30)))),
    lambda a: apply_correction(
        a,
        "m1",
        CorrectionRequest(
            "amend",
            2,
            entry=entry_of(won(ron(1, 0, hv(4, 30)), riichi=(1,)), NAMES),
            by="referee",
            reason="a dora missed",
        ),
        client_key=None,
    ),
    lambda a: change_tournament(a, "cup", lambda t: t.withdraw_alias("Annie", "by mistake")),
    lambda a: apply_correction(
        a,
        "m2",
        CorrectionRequest(
            "penalty",
            entry=entry_of(Penalty(0, 20_000, "chombo", "off_table"), ["Ann", "Annie", "Cho", "Dai"]),
            by="referee",
            reason="false win",
        ),
        client_key=None,
    ),
    lambda a: change_tournament(a, "cup", lambda t: t.declare_alias("Annie", "Ben")),
    # entry 3: after a deal pass
    lambda a: apply_correction(
        a, "m1", CorrectionRequest("void", 3, by="referee", reason="the draw was not played"), client_key=None
    ),
    lambda a: recording.start_match(a, "m3", NAMES, TENHOU, {}, south4((30_000, 30_000, 20_000, 20_000))),
    lambda a: attach_all(a, "cup", [("m3", NAMES)], 3),
    lambda a: recording.record(a, "m3", won(ron(0, 2, hv(2, 30)))),
    lambda a: change_tournament(a, "cup", lambda t: t.detach("m3", "played at the wrong table")),
    lambda a: change_tournament(a, "cup", lambda t: t.plan_session(4, [NAMES])),
]


def dump(view: DocumentView) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    return {kind: view.docs(kind) for kind in KINDS}


def run_all(app: HonbaApp, after: Callable[[], None] | None = None) -> None:
    for command in COMMANDS:
        command(app)
        if after is not None:
            after()


def last_position(app: HonbaApp) -> int:
    return app.recorder.max_notification_id() or 0


class Store:
    """An application and fresh views for one kind of store."""

    def __init__(self, kind: str, tmp_path: Path):
        self.kind = kind
        self.tmp_path = tmp_path
        self.db = ":memory:" if kind == "memory" else str(tmp_path / "honba.sqlite")
        self.app = HonbaApp.open(self.db)
        self.count = 0

    def new_view(self) -> DocumentView:
        """A view of its own, empty."""
        if self.kind == "memory":
            return POPODocumentView()
        self.count += 1
        env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(self.tmp_path / f"v{self.count}.db")}
        factory = InfrastructureFactory.construct(env=env)
        assert isinstance(factory, SQLiteFactory)
        view = factory.tracking_recorder(SQLiteDocumentView)
        assert isinstance(view, SQLiteDocumentView)
        return view


@pytest.fixture(params=["memory", "sqlite"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    s = Store(request.param, tmp_path)
    yield s
    s.app.close()


def process_new(app: HonbaApp, view: DocumentView) -> None:
    """Feed ``process_event`` every notification the view has not tracked, one at a time."""
    projection = StandingsProjection(view=view)
    start = view.max_tracking_id(app.name) or 0
    for n in app.recorder.select_notifications(start=start, limit=10_000, inclusive_of_start=False):
        projection.process_event(app.mapper.to_domain_event(n), Tracking(app.name, n.id))


def test_a_view_rebuilt_from_scratch_equals_the_one_kept_event_by_event(store: Store) -> None:
    app = store.app
    by_command = store.new_view()
    by_event = store.new_view()

    def keep_up() -> None:
        catch_up(app, by_command)
        process_new(app, by_event)

    run_all(app, keep_up)
    rebuilt = store.new_view()
    assert catch_up(app, rebuilt) == last_position(app)
    assert dump(rebuilt) == dump(by_command) == dump(by_event)
    for view in (rebuilt, by_command, by_event):
        assert view.max_tracking_id(app.name) == last_position(app)
    # Not empty: the standings are there, with the alias, the corrections and the detach followed.
    rows = {row.player: row for row in tournament_report(rebuilt, "cup").rows}
    assert set(rows) == {"Ann", "Ben", "Cho", "Dai"}
    assert rows["Ben"].matches == 2 and rows["Ann"].penalties == 20_000


def test_a_view_interrupted_after_a_batch_resumes_without_counting_twice(store: Store) -> None:
    app = store.app
    run_all(app)
    clean = store.new_view()
    catch_up(app, clean)

    view = store.new_view()
    positions = [n.id for n in app.recorder.select_notifications(start=1, limit=10_000)]

    def stop(_folded: int) -> None:
        raise KeyboardInterrupt  # the user stops it after the first batch

    with pytest.raises(KeyboardInterrupt):
        catch_up(app, view, batch=5, tick=stop)
    assert view.max_tracking_id(app.name) == positions[4]
    assert catch_up(app, view, batch=5) == len(positions) - 5
    assert dump(view) == dump(clean)
    assert catch_up(app, view) == 0  # nothing left: nothing folded again
    assert dump(view) == dump(clean)


def test_a_batch_that_fails_writes_nothing_and_the_next_catch_up_does_it(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = store.app
    run_all(app)
    clean = store.new_view()
    catch_up(app, clean)

    view = store.new_view()
    original = StandingsProjection.process_batch
    calls: list[int] = []

    def failing_once(self: StandingsProjection, events: Any, tracking: Tracking, **kwargs: Any) -> None:
        calls.append(tracking.notification_id)
        if len(calls) == 3:
            # Half the batch folded in memory, then it fails before anything is written.
            events = list(events)
            original_apply = self.view.put_docs

            def broken(changes: Any, tracking: Tracking, **kwargs: Any) -> None:
                raise RuntimeError("disk full")

            self.view.put_docs = broken  # type: ignore[method-assign]
            try:
                original(self, events[: len(events) // 2], tracking, **kwargs)
            finally:
                self.view.put_docs = original_apply  # type: ignore[method-assign]
        original(self, events, tracking, **kwargs)

    monkeypatch.setattr(StandingsProjection, "process_batch", failing_once)
    with pytest.raises(RuntimeError, match="disk full"):
        catch_up(app, view, batch=4)
    assert view.max_tracking_id(app.name) == calls[1]
    # What is stored is exactly the first two batches.
    two_batches = store.new_view()
    catch_up_to(app, two_batches, calls[1])
    assert dump(view) == dump(two_batches)
    monkeypatch.setattr(StandingsProjection, "process_batch", original)
    assert catch_up(app, view, batch=4) == last_position_count(app) - 8
    assert dump(view) == dump(clean)


def last_position_count(app: HonbaApp) -> int:
    return len(app.recorder.select_notifications(start=1, limit=10_000))


def catch_up_to(app: HonbaApp, view: DocumentView, position: int) -> None:
    """Fold the notifications up to a position, in one batch."""
    notifications = app.recorder.select_notifications(start=1, limit=10_000, stop=position)
    StandingsProjection(view=view).process_batch(
        [app.mapper.to_domain_event(n) for n in notifications], Tracking(app.name, position)
    )


def test_processing_a_position_again_changes_nothing(store: Store) -> None:
    app = store.app
    run_all(app)
    view = store.new_view()
    catch_up(app, view)
    before = dump(view)
    projection = StandingsProjection(view=view)
    notifications = app.recorder.select_notifications(start=1, limit=10_000)
    for n in (notifications[2], notifications[-1]):  # a hand won long ago, and the last event
        # A follower handed an event a catch-up has already counted leaves it (no error).
        projection.process_event(app.mapper.to_domain_event(n), Tracking(app.name, n.id))
    # A batch written without a position to compare with is refused by the tracking record.
    with pytest.raises(IntegrityError):
        projection.process_batch([app.mapper.to_domain_event(n) for n in notifications], Tracking(app.name, 3))
    assert dump(view) == before
    assert view.max_tracking_id(app.name) == last_position(app)


def test_on_sqlite_the_view_is_a_file_beside_the_store(tmp_path: Path) -> None:
    db = tmp_path / "club" / "honba.sqlite"
    db.parent.mkdir()
    app = HonbaApp.open(str(db))
    run_all(app)
    view = open_view(app)
    catch_up(app, view)
    assert Path(views_path(str(db))) == tmp_path / "club" / "honba.views.sqlite"
    assert (tmp_path / "club" / "honba.views.sqlite").is_file()
    # Opened again (another command), it is the same view: nothing to fold.
    again = open_view(app)
    assert catch_up(app, again) == 0
    assert dump(again) == dump(view)
    app.close()


# PostgreSQL: a real server (tests/pg_server.py); the library's ProjectionRunner follows live.


def wait_for(check: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("the view did not catch up in time")
        time.sleep(0.05)


class Follower:
    """``follow`` in a thread of its own, stopped at the end; its error, if any, kept."""

    def __init__(self, url: str):
        self.stop = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(persistence_env(url),), daemon=True)

    def _run(self, env: dict[str, str]) -> None:
        try:
            follow(env, stop_after=120, stop=self.stop)
        except BaseException as exc:
            self.error = exc

    def __enter__(self) -> Follower:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join(timeout=30)
        assert not self.thread.is_alive()


def test_on_postgresql_the_runner_follows_new_events_live(postgres_url: str) -> None:
    app = HonbaApp.open(postgres_url)
    try:
        # Part of the history is folded by a catch-up first (honba standings does that) ...
        for command in COMMANDS[:8]:
            command(app)
        view = open_view(app)
        catch_up(app, view)
        seen = view.max_tracking_id(app.name)
        assert seen == last_position(app)
        # ... then the runner follows from there: each new command shows up in the view.
        with Follower(postgres_url) as follower:
            for command in COMMANDS[8:]:
                command(app)
                target = last_position(app)
                wait_for(lambda t=target: (view.max_tracking_id(app.name) or 0) >= t or follower.error is not None)
                assert follower.error is None, follower.error
            # A match recorded now: the standings show it without any catch-up.
            recording.start_match(app, "live", NAMES, TENHOU, {}, south4((40_400, 26_600, 16_500, 16_500)))
            attach_all(app, "cup", [("live", NAMES)], 5)
            recording.record(app, "live", won(ron(1, 3, hv(3, 30))))
            wait_for(lambda: bool((view.get_doc("summary", "live") or {}).get("finished")))
            # Tenhou: 40,400 / 30,500 / 16,500 / 12,600 -> +49 / +11 / -23 / -37 (worked out in test_standings).
            summary = view.get_doc("summary", "live")
            assert summary is not None and summary["final_points"] == [49.0, 11.0, -23.0, -37.0]
            wait_for(lambda: (view.max_tracking_id(app.name) or 0) >= last_position(app))
        assert follower.error is None
        # Followed live, it equals a view rebuilt from scratch.
        rebuilt = POPODocumentView()
        catch_up(app, rebuilt)
        assert dump(view) == dump(rebuilt)
    finally:
        app.close()


def test_on_postgresql_a_runner_that_fails_resumes_without_counting_twice(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = HonbaApp.open(postgres_url)
    try:
        view = open_view(app)
        original = StandingsProjection.process_event
        failed = threading.Event()

        def failing_once(self: StandingsProjection, event: Any, tracking: Tracking) -> None:
            if tracking.notification_id == 6 and not failed.is_set():
                failed.set()
                raise RuntimeError("the view's connection dropped")
            original(self, event, tracking)

        monkeypatch.setattr(StandingsProjection, "process_event", failing_once)
        with Follower(postgres_url) as follower:
            run_all(app)
            wait_for(lambda: follower.error is not None)
        assert isinstance(follower.error, RuntimeError)
        before = [n.id for n in app.recorder.select_notifications(start=1, limit=10_000) if n.id < 6]
        assert view.max_tracking_id(app.name) == before[-1]  # everything before the failure, nothing after
        with Follower(postgres_url) as follower:
            wait_for(lambda: (view.max_tracking_id(app.name) or 0) >= last_position(app))
        assert follower.error is None
        rebuilt = POPODocumentView()
        catch_up(app, rebuilt)
        assert dump(view) == dump(rebuilt)
    finally:
        app.close()
