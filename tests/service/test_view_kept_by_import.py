"""The standings view kept current by an import (issue 36): the reading worker works out each match's
view documents from the steps its ``Match`` scored (``projections.standings_view.match_documents``),
and the storing process writes them right after the insert, with the position of the insert's last
row, when the view stood right before it (``replay.store.standings_view.keep``).

Every test compares the view such an import leaves with the view a fresh catch-up folds from the
same store, document by document (a fresh view in memory, folding every row of the log): the same
documents, whatever the import met. Where the import could not keep the view (a table recorded
meanwhile, an excerpt completed, a process killed before the write), the next catch-up folds what
it left, and nothing is counted twice.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from uuid import uuid4

import pytest
from conftest import CORPUS, TENHOU, hv, ron, won
from eventsourcing.persistence import Tracking
from stored_rows import write_lock_held
from view_documents import KINDS, corpus_file, documents

import replay.service.imports.storing as storing
import replay.store.standings_view as standings_view
from domain.integrity import json_exactly
from domain.match import Match
from domain.rules import load_preset
from projections.standings_view import DocCache, _stamped_text, apply_event, match_documents, rules_ref, stamped
from projections.views import POPODocumentView, encoded
from replay.formats.detect import read_log
from replay.service.imports.batch import import_paths, reading_pool
from replay.service.imports.importing import match_from_log
from replay.service.imports.storing import prepare, store_prepared
from replay.service.recording import recording
from replay.service.tournaments.tournaments import attach_all
from replay.store.application import HonbaApp
from replay.store.standings_view import catch_up, close_view, keep, open_view, views_path

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")

TENHOU_LOGS = sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))
MJX = CORPUS / "mjx-project-mjx"
FULL = "2011020401gm-00a9-0000-f6eff225"
PLAYERS = ["Ann", "Ben", "Cho", "Dai"]


def folded_afresh(app: HonbaApp) -> dict[tuple[str, str], Any]:
    """The documents a catch-up folds from the whole log into a view that never saw it."""
    fresh = POPODocumentView()
    catch_up(app, fresh, notice=refuse_notice)
    return documents(fresh)


def refuse_notice(message: str) -> None:
    raise AssertionError(f"the view was rebuilt: {message}")


def without_position(docs: dict[tuple[str, str], Any]) -> dict[tuple[str, str], Any]:
    return {key: data for key, data in docs.items() if key != ("view", "format")}


def last_folded_row(app: HonbaApp) -> int:
    """The position of the log's last row the view folds (a match's or a tournament's)."""
    rows = app.recorder.select_notifications(start=0, limit=10**9, inclusive_of_start=False)
    return max(row.id for row in rows if row.topic.startswith(("domain.match:", "domain.tournament:")))


@pytest.fixture
def app() -> Iterator[HonbaApp]:
    store = HonbaApp.open(":memory:")
    yield store
    store.close()


@pytest.fixture
def kept(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Whether each write the import tried (``keep``) was made, in order."""
    made: list[bool] = []

    def spied(*args: Any, **kwargs: Any) -> bool:
        written = keep(*args, **kwargs)
        made.append(written)
        return written

    monkeypatch.setattr(storing, "keep", spied)
    return made


def a_match(key: str) -> Match:
    match = Match.start(key, PLAYERS, TENHOU, {"entered": "test"})
    match.record(won(ron(1, 0, hv(3, 30))))
    return match


def test_a_whole_import_leaves_the_documents_a_fresh_catch_up_folds(app: HonbaApp, kept: list[bool]) -> None:
    run = import_paths(app, TENHOU_LOGS[:24], batch=5, keep_games=True)
    assert run.stored == 24 and kept == [True] * 5
    view = open_view(app)
    # The import wrote the view itself, up to its last match's rows: nothing of them is left to fold.
    assert view.max_tracking_id(app.name) >= last_folded_row(app)
    afresh = folded_afresh(app)
    assert sum(kind == "summary" for kind, _ in afresh) == 24
    assert without_position(documents(view)) == without_position(afresh)
    # The tournament they are attached to is folded by the next catch-up, from the kept summaries.
    attach_all(app, "cup", run.games, session=1)
    catch_up(app, view, notice=refuse_notice)
    afresh = folded_afresh(app)
    assert documents(view) == afresh
    assert afresh[("standings", "cup")]["rows"] and afresh[("totals", str(afresh[("tournament-name", "cup")]["id"]))]


def test_one_process_and_two_workers_keep_the_same_view(tmp_path: Path) -> None:
    # Two reading workers (the pool starts at 16 files): the documents cross from the workers.
    logs = TENHOU_LOGS[:20]
    views = []
    for jobs in (1, 2):
        db = tmp_path / f"jobs{jobs}.sqlite"
        store = HonbaApp.open(str(db))
        try:
            with reading_pool(jobs, len(logs)) as pool:
                assert (pool is None) == (jobs == 1)
                run = import_paths(store, logs, pool=pool, batch=8, keep_games=True)
            assert run.stored == 20
            view = open_view(store)
            try:
                assert view.max_tracking_id(store.name) >= last_folded_row(store)
                kept_docs = documents(view)
                assert without_position(kept_docs) == without_position(folded_afresh(store))
                attach_all(store, "cup", run.games, session=1)
                catch_up(store, view, notice=refuse_notice)
                assert documents(view) == folded_afresh(store)
                # The summaries and statistics (the events' times, and so the digests, differ between two stores).
                views.append({key: data for key, data in documents(view).items() if key[0] in ("summary", "stats")})
            finally:
                close_view(view)
        finally:
            store.close()
        # The view's file holds no kind of document these tests do not compare.
        with sqlite3.connect(views_path(str(db))) as connection:
            assert {kind for (kind,) in connection.execute("SELECT DISTINCT kind FROM honba_view_docs")} <= set(KINDS)
    assert views[0] == views[1]


def test_a_batch_stored_one_match_at_a_time_after_a_conflict_keeps_the_view(app: HonbaApp, kept: list[bool]) -> None:
    # g3 stored before (the same match), g5's key holding another match: the batch meets them,
    # stores its other matches one by one and the rest again in one transaction.
    assert store_prepared(app, [prepare(a_match("g3"), app.mapper, view=True)], open_view(app)) == [True]
    recording.start_match(app, "g5", ["Eve", "Fay", "Gus", "Hal"], TENHOU)
    catch_up(app, open_view(app), notice=refuse_notice)
    batch = [prepare(a_match(f"g{n}"), app.mapper, view=True) for n in range(1, 8)]
    outcomes = store_prepared(app, batch, open_view(app))
    assert outcomes[2] is False and not isinstance(outcomes[4], bool)
    assert [outcome is True for n, outcome in enumerate(outcomes) if n not in (2, 4)] == [True] * 5
    assert all(kept)
    view = open_view(app)
    assert view.max_tracking_id(app.name) >= last_folded_row(app)
    assert without_position(documents(view)) == without_position(folded_afresh(app))
    catch_up(app, view, notice=refuse_notice)
    assert documents(view) == folded_afresh(app)


def test_an_excerpt_completed_is_folded_before_the_batch_is_kept(app: HonbaApp, kept: list[bool]) -> None:
    excerpt = corpus_file(f"{FULL}-no-round-end.mjlog")
    full = corpus_file(f"{FULL}.mjlog")
    assert import_paths(app, [excerpt]).stored == 1
    # The full game completes its excerpt: its missing hands recorded on the stored match, as a
    # table records them (not an insert of the import's own), among the batch's other matches. The
    # rows of the completion are folded (a catch-up up to the rest of the batch), then the rest kept.
    run = import_paths(app, [*TENHOU_LOGS[:2], full, *TENHOU_LOGS[2:4]], batch=10)
    assert run.stored == 5 and kept == [True, True]
    view = open_view(app)
    assert view.max_tracking_id(app.name) >= last_folded_row(app)
    afresh = folded_afresh(app)
    assert without_position(documents(view)) == without_position(afresh)
    assert afresh[("summary", FULL)]["finished"]


def test_a_game_already_stored_under_another_key_keeps_the_view(app: HonbaApp, kept: list[bool]) -> None:
    # encdec-chanta.mjlog is mjx's copy of 2020080212gm-00a9-0000-82c7d512.mjlog: stored once.
    copy = corpus_file("encdec-chanta.mjlog")
    dated = corpus_file("2020080212gm-00a9-0000-82c7d512.mjlog")
    run = import_paths(app, [copy, *TENHOU_LOGS[:2], dated, *TENHOU_LOGS[2:4]], batch=10)
    assert run.stored == 5 and len(run.duplicates) == 1
    assert kept and all(kept)
    view = open_view(app)
    assert view.max_tracking_id(app.name) >= last_folded_row(app)
    assert without_position(documents(view)) == without_position(folded_afresh(app))


def test_a_table_recorded_between_two_batches_is_folded_once(app: HonbaApp, kept: list[bool]) -> None:
    recording.start_match(app, "live", PLAYERS, TENHOU)
    catch_up(app, open_view(app), notice=refuse_notice)
    import_paths(app, TENHOU_LOGS[:4])
    # A hand recorded at a table between two batches: the view does not stand right before the
    # next batch. The hand is folded first (a catch-up up to the batch), then the batch kept.
    recording.record(app, "live", won(ron(1, 0, hv(3, 30))))
    import_paths(app, TENHOU_LOGS[4:8])
    view = open_view(app)
    assert view.max_tracking_id(app.name) >= last_folded_row(app)
    assert without_position(documents(view)) == without_position(folded_afresh(app))
    # A catch-up folded the hand meanwhile (a follower): the next batch is kept as it comes.
    recording.record(app, "live", won(ron(2, 0, hv(3, 30))))
    catch_up(app, view, notice=refuse_notice)
    import_paths(app, TENHOU_LOGS[8:12])
    assert kept == [True, True, True]
    catch_up(app, view, notice=refuse_notice)
    afresh = folded_afresh(app)
    assert documents(view) == afresh
    # Each hand counted once: the view's history of the match is the aggregate's.
    assert len(afresh[("match", live_id(app))]["history"]) == len(app.get_match("live").history) == 4


def test_a_view_far_behind_is_left_to_the_catch_up(
    app: HonbaApp, kept: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    import_paths(app, TENHOU_LOGS[:4])
    view = open_view(app)
    behind = view.max_tracking_id(app.name)
    # More rows the view folds between it and the next batch than an import folds on its way:
    # nothing written, the view stays where it was, and the catch-up folds them all in order.
    monkeypatch.setattr(standings_view, "GAP", 3)
    recording.start_match(app, "live", PLAYERS, TENHOU)
    for winner in (1, 2, 3):
        recording.record(app, "live", won(ron(winner, 0, hv(3, 30))))
    import_paths(app, TENHOU_LOGS[4:8])
    assert kept == [True, False]
    assert view.max_tracking_id(app.name) == behind
    catch_up(app, view, notice=refuse_notice)
    assert documents(view) == folded_afresh(app)


def live_id(app: HonbaApp) -> str:
    return str(app.get_match("live").id)


def test_a_view_whose_tracked_position_was_changed_is_not_written_and_is_rebuilt(tmp_path: Path) -> None:
    db = tmp_path / "honba.sqlite"
    store = HonbaApp.open(str(db))
    try:
        import_paths(store, TENHOU_LOGS[:4])
        view = open_view(store)
        position = view.max_tracking_id(store.name)
        assert position is not None and position >= last_folded_row(store)
        # The tracked position set back behind honba's back: it no longer agrees with the layout
        # marker (``view/format``), so the import writes nothing at the wrong position...
        with sqlite3.connect(views_path(str(db))) as connection:
            connection.execute("UPDATE tracking SET notification_id = ?", (position - 3,))
        made: list[bool] = []
        original = storing.keep

        def spied(*args: Any) -> bool:
            made.append(original(*args))
            return made[-1]

        storing.keep = spied  # type: ignore[assignment]
        try:
            import_paths(store, TENHOU_LOGS[4:8])
        finally:
            storing.keep = original  # type: ignore[assignment]
        assert made == [False]
        assert view.max_tracking_id(store.name) == position - 3
        # ... and the catch-up that follows rebuilds the view from the log, saying so.
        said: list[str] = []
        catch_up(store, view, notice=said.append)
        assert said and "not where its documents stand" in said[0]
        assert documents(view) == folded_afresh(store)
        close_view(view)
    finally:
        store.close()


def test_keep_refuses_what_a_catch_up_would_not_write(app: HonbaApp) -> None:
    view = open_view(app)
    prepared = [prepare(a_match(f"k{n}"), app.mapper, view=True) for n in range(3)]
    docs = [p.documents for p in prepared]
    own = [one for one in docs if one is not None]
    assert len(own) == 3
    positions = list(app.insert([record for p in prepared for record in p.records]))
    # Positions that do not follow each other: not one insert's.
    assert not keep(app, view, [*positions[:-1], positions[-1] + 5], own)
    assert view.max_tracking_id(app.name) is None
    assert keep(app, view, positions, own)
    assert view.max_tracking_id(app.name) == positions[-1]
    # Written once: the same batch again finds the view past it.
    assert not keep(app, view, positions, own)
    assert documents(view) == folded_afresh(app)


def test_a_match_attached_before_it_was_stored_is_left_to_the_catch_up(app: HonbaApp, kept: list[bool]) -> None:
    # A tournament names k1 before its match is stored: the fold of k1 counts it into the
    # tournament's totals, which the documents worked out in the worker know nothing of.
    attach_all(app, "cup", [("k1", tuple(PLAYERS))], session=1)
    view = open_view(app)
    catch_up(app, view, notice=refuse_notice)
    assert documents(view)[("attached", "k1")]["tournaments"] == ["cup"]
    assert store_prepared(app, [prepare(a_match("k1"), app.mapper, view=True)], view) == [True]
    assert kept == [False]
    catch_up(app, view, notice=refuse_notice)
    afresh = folded_afresh(app)
    assert documents(view) == afresh
    totals = afresh[("totals", str(afresh[("tournament-name", "cup")]["id"]))]
    assert totals.get("in_progress") == 1


def test_a_process_killed_between_the_insert_and_the_view_write_is_completed_by_the_catch_up(tmp_path: Path) -> None:
    db = tmp_path / "honba.sqlite"
    logs = tmp_path / "logs"
    logs.mkdir()
    for log in TENHOU_LOGS[:9]:
        shutil.copy(log, logs / log.name)
    # The import's process killed (SIGKILL) as it is about to write the view of its second batch:
    # that batch is stored, the view stands after the first.
    script = textwrap.dedent(
        f"""
        import os, signal
        from pathlib import Path
        import replay.service.imports.storing as storing
        from replay.service.imports.batch import import_paths
        from replay.store.application import HonbaApp

        original, calls = storing.keep, []

        def dying(*args):
            calls.append(1)
            if len(calls) == 2:
                os.kill(os.getpid(), signal.SIGKILL)
            return original(*args)

        storing.keep = dying
        import_paths(HonbaApp.open({str(db)!r}), [Path({str(logs)!r})], batch=3)
        """
    )
    run = subprocess.run([sys.executable, "-c", script], env=os.environ.copy(), capture_output=True, text=True)
    assert run.returncode == -signal.SIGKILL, run.stderr
    store = HonbaApp.open(str(db))
    try:
        assert len(list(store.list_matches())) == 6
        view = open_view(store)
        assert view.max_tracking_id(store.name) < last_folded_row(store)
        catch_up(store, view, notice=refuse_notice)
        assert documents(view) == folded_afresh(store)
        assert sum(kind == "summary" for kind, _ in documents(view)) == 6
        close_view(view)
    finally:
        store.close()


def test_a_record_file_with_corrections_keeps_the_view(app: HonbaApp, tmp_path: Path, kept: list[bool]) -> None:
    record = tmp_path / "club-1.jsonl"
    lines = [
        {"type": "start", "key": "club-1", "players": PLAYERS, "rules": "tenhou"},
        {"type": "win", "wins": [{"winner": "Ben", "from": "Ann", "han": 3, "fu": 30}], "riichi": ["Ben"]},
        {"type": "draw", "ready": ["Cho", "Dai"]},
        {"type": "penalty", "player": "Dai", "amount": 12000, "kind": "chombo", "share": "to_others"},
        {
            "type": "correction",
            "target": 3,
            "replacement": {"type": "draw", "ready": ["Ann"]},
            "by": "Eve (referee)",
            "reason": "misread",
            "at": "2026-11-21T22:55:24+00:00",
        },
        {"type": "end", "reason": "agreed"},
    ]
    record.write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert import_paths(app, [record]).stored == 1
    assert kept == [True]
    view = open_view(app)
    afresh = folded_afresh(app)
    assert without_position(documents(view)) == without_position(afresh)
    assert afresh[("match", str(app.get_match("club-1").id))]["corrections"]


def test_postgresql_keeps_the_view_as_a_fresh_catch_up_folds_it(postgres_url: str) -> None:
    store = HonbaApp.open(postgres_url)
    try:
        run = import_paths(store, TENHOU_LOGS[:12], batch=5, keep_games=True)
        assert run.stored == 12
        view = open_view(store)
        assert view.max_tracking_id(store.name) >= last_folded_row(store)
        assert without_position(documents(view)) == without_position(folded_afresh(store))
        attach_all(store, "cup", run.games, session=1)
        catch_up(store, view, notice=refuse_notice)
        assert documents(view) == folded_afresh(store)
    finally:
        store.close()


def test_postgresql_reads_a_batch_of_documents_in_one_statement(postgres_url: str) -> None:
    store = HonbaApp.open(postgres_url)
    try:
        import_paths(store, TENHOU_LOGS[:3])
        view = open_view(store)
        stored = [key for key in documents(view) if key[0] in ("match", "summary", "stats")]
        asked = [*stored, ("summary", "absent"), ("summary", "a\x00b")]
        one_by_one = {key: view.get_doc(*key) for key in asked}

        def refused(kind: str, key: str) -> None:
            raise AssertionError("asked one document at a time")

        view.get_doc = refused  # type: ignore[assignment,method-assign]
        assert view.get_docs(asked) == one_by_one
        assert sum(data is not None for data in one_by_one.values()) == 9
    finally:
        store.close()


def test_postgresql_writes_a_batch_of_documents_in_two_statements(postgres_url: str) -> None:
    store = HonbaApp.open(postgres_url)
    try:
        view = open_view(store)
        sent: list[str] = []
        original = view.datastore.transaction  # type: ignore[attr-defined]

        class Counted:
            """The cursor, each statement it is given noted (``executemany`` once for all its rows)."""

            def __init__(self, cursor: Any) -> None:
                self.cursor = cursor

            def execute(self, *args: Any, **kwargs: Any) -> Any:
                sent.append("execute")
                return self.cursor.execute(*args, **kwargs)

            def executemany(self, *args: Any, **kwargs: Any) -> Any:
                sent.append("executemany")
                return self.cursor.executemany(*args, **kwargs)

            def __getattr__(self, name: str) -> Any:
                return getattr(self.cursor, name)

        @contextmanager
        def counted(commit: bool = False) -> Iterator[Counted]:
            with original(commit=commit) as cursor:
                yield Counted(cursor)

        view.datastore.transaction = counted  # type: ignore[attr-defined]
        changes: dict[tuple[str, str], dict[str, Any] | str | None] = {
            ("summary", f"m{n}"): {"key": f"m{n}", "n": n} for n in range(40)
        }
        changes |= {("stats", f"m{n}"): None for n in range(10)}
        changes[("rules", "r")] = '{"name": "r"}'
        view.put_docs(changes, Tracking(store.name, 7), expected=0)
        # The tracked position's compare-and-set, the deletions, the writes.
        assert sent == ["execute", "executemany", "executemany"]
        view.datastore.transaction = original  # type: ignore[attr-defined]
        assert view.get_doc("summary", "m39") == {"key": "m39", "n": 39}
        assert view.get_doc("rules", "r") == {"name": "r"}
        assert view.max_tracking_id(store.name) == 7
    finally:
        store.close()


def test_rule_values_equal_in_python_but_not_in_json_get_their_own_reference() -> None:
    """Values Python calls equal (``True == 1``) but whose JSON differs are another set of rules, with a
    reference of their own, in one batch too (``DocCache`` remembers the references it met by
    comparing values)."""
    (started,) = Match.start("m", ["a", "b", "c", "d"], load_preset("tenhou")).pending_events
    base = dict(started.rules)
    flag = next(key for key, value in base.items() if value is True)
    as_int = {**base, flag: 1}
    assert as_int == base
    assert rules_ref(as_int) != rules_ref(base)
    cache = DocCache(POPODocumentView())
    ids = []
    for values in (base, as_int, base):
        event = dataclasses.replace(started, rules=values, originator_id=uuid4())
        apply_event(cache, event)
        ids.append(str(event.originator_id))
    refs = [cache.get("match", one)["rules"] for one in ids]  # type: ignore[index]
    assert refs == [rules_ref(base), rules_ref(as_int), rules_ref(base)]
    for values, ref in zip((base, as_int), refs, strict=False):
        assert json.dumps(cache.get("rules", ref)) == json.dumps(values)


def test_a_view_locked_by_another_process_is_left_to_the_catch_up_and_the_import_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The view is derived data: an import whose write of it cannot get its lock (another process
    # holds the view's file: a catch-up, a server's view, a backup) stores every game all the same,
    # says so once, and leaves the view where it stood for the next catch-up. It failed, after its
    # first batch's events were stored, once the view's lock timeout (60 s) ran out.
    db = tmp_path / "honba.sqlite"
    store = HonbaApp.open(str(db))
    try:
        import_paths(store, TENHOU_LOGS[:4], batch=2)
        view = open_view(store)
        before = view.max_tracking_id(store.name)
        close_view(view)
        capsys.readouterr()
        # A second's wait for the view's lock, not 60 (SQLite's busy timeout takes whole seconds).
        monkeypatch.setattr(standings_view, "VIEW_LOCK_TIMEOUT", 1)
        with write_lock_held(views_path(str(db))):
            run = import_paths(store, TENHOU_LOGS[4:12], batch=2)
        said = capsys.readouterr().err.splitlines()
        assert run.stored == 8
        # Every game stored, whole (the chain and seal of each check).
        assert sum(1 for _ in store.list_matches()) == 12
        assert all(store.read(key).damage is None for key in run.games)
        # Said once for the four batches, in one line, no traceback.
        assert len(said) == 1 and "standings view" in said[0] and "Traceback" not in said[0], said
        view = open_view(store)
        assert view.max_tracking_id(store.name) == before
        # The next standings read folds what the view lacks: the documents a fresh catch-up folds.
        catch_up(store, view, notice=refuse_notice)
        assert documents(view) == folded_afresh(store)
        close_view(view)
    finally:
        store.close()


def test_a_new_match_s_rules_document_is_the_text_its_catch_up_would_write() -> None:
    """``match_documents`` gives a new match's rules document as text made from the bytes its
    reference was made of: the very text ``encoded`` writes for that document as a catch-up puts it."""
    for path in TENHOU_LOGS[:4]:
        for game in read_log(path):
            match = match_from_log(game)
            events = list(match.pending_events)
            scored = (match.state, match.effective_facts(), match.corrected_steps())
            docs = match_documents(events, match.head, scored, rules=match.rules)
            (key,) = [key for key in docs if key[0] == "rules"]
            assert docs[key] == encoded(stamped("rules", events[0].rules))
    # Data whose keys do not all sort after the schema's, or that names it, or has none: left to ``encoded``.
    for values in ({"A": 1, "b": 2}, {"_schema": 3, "b": 2}, {}):
        written = json_exactly(values)
        assert written is not None
        assert _stamped_text(stamped("rules", values) or {}, written) is None
    values = {"b": [1, {"c": None}], "a": "東"}
    assert _stamped_text(stamped("rules", values) or {}, json_exactly(values) or b"") == encoded(
        stamped("rules", values) or {}
    )
