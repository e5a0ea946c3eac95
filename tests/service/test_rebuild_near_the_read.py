"""The standings view rebuilt from events near the read (issue 36, thirteenth round): a catch-up reads
a batch's rows on SQLite by one statement of its own (``replay.store.fold_rows.select_rows``, each
aggregate's id converted once), and folds each match the batch holds from its start at once
(``projections.standings_view._fold_new_matches``, the function an import's new match is folded by),
not event by event.

Every test compares, document by document, the view this rebuild folds with the view the fold before
it folds from the same store (the library's ``select_notifications`` and every event through
``apply_event``): on real matches of the shared corpus, with corrections, an excerpt completed, a
match's chain broken by a changed row, a row that cannot be read, a fact no table can hold, matches cut
across batches, and one more event after the view (the incremental catch-up).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, TENHOU, compiled, hv, ron, won
from view_documents import corpus_file, documents

import projections.standings_view as fold
import replay.store.standings_view as store_view
from domain.integrity import event_digest
from domain.match import match_id
from projections.standings_view import DocCache
from projections.views import POPODocumentView
from replay.service.imports.batch import import_paths
from replay.service.recording import recording
from replay.service.tournaments.standings import tournament_report
from replay.service.tournaments.tournaments import attach_all
from replay.store.application import HonbaApp
from replay.store.fold_rows import FoldReader, FoldRow, select_rows
from replay.store.standings_view import FOLDED_TOPICS, catch_up, close_view, open_view

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")

WIRE = sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))
FULL = "2011020401gm-00a9-0000-f6eff225"
PLAYERS = ["Ann", "Ben", "Cho", "Dai"]


def library_rows(recorder: Any, start: int, limit: int, stop: int | None, topics: tuple[str, ...]) -> Any:
    """A batch's rows as the fold before this round read them: the recorder's ``select_notifications``."""
    notifications = recorder.select_notifications(start=start, limit=limit, stop=stop, inclusive_of_start=False)
    if not notifications:
        return None
    return notifications[-1].id, len(notifications), [n for n in notifications if n.topic.startswith(topics)]


def folded_before(app: HonbaApp) -> dict[tuple[str, str], Any]:
    """The documents the fold before this round makes of the whole log, in a fresh view: the library's
    rows, read one at a time, so that every event of every match is folded alone (a match's start
    alone is a match from its start: ``apply_event``'s document). A spy that made ``_fold_new_matches``
    fold nothing is not reached from a compiled ``process_batch``, which calls it directly."""
    view = POPODocumentView()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(store_view, "select_rows", library_rows)
        catch_up(app, view, batch=1)
    return documents(view)


def rebuilt(app: HonbaApp, *, batch: int = store_view.BATCH) -> dict[tuple[str, str], Any]:
    """The documents this round's rebuild makes of the whole log in a fresh SQLite view (the store's
    own views file, emptied first)."""
    view = open_view(app)
    try:
        view.reset(app.name, expected=view.max_tracking_id(app.name) or 0)
        catch_up(app, view, batch=batch)
        return documents(view)
    finally:
        close_view(view)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How many events went through ``_apply_match_event`` one by one, and how many batches were read
    through the library's ``select_notifications``."""
    calls = {"event by event": 0, "library select": 0}
    one_by_one = fold._apply_match_event

    def spied(cache: DocCache, event: Any) -> None:
        calls["event by event"] += 1
        one_by_one(cache, event)

    monkeypatch.setattr(fold, "_apply_match_event", spied)
    return calls


def store_of(tmp_path: Path, paths: list[Path], *, tournament: str | None = "cup") -> HonbaApp:
    app = HonbaApp.open(str(tmp_path / "store.sqlite"))
    run = import_paths(app, paths, keep_games=True)
    assert run.stored
    if tournament is not None:
        attach_all(app, tournament, list(run.games), session=1)
    return app


@pytest.fixture
def corpus_app(tmp_path: Path) -> Iterator[HonbaApp]:
    """Real matches of several of the corpus's formats (Tenhou XML, mjx's, mjai's) in a SQLite store,
    every game attached to ``cup``."""
    paths = [*WIRE[:24], corpus_file("encdec-chanta.mjlog")]
    paths += sorted((CORPUS / "equim-chan-mjai-reviewer").rglob("*.json"))[:3]
    app = store_of(tmp_path, paths)
    yield app
    app.close()


def test_the_corpus_rebuilt_near_the_read_is_the_view_the_fold_before_made(corpus_app: HonbaApp) -> None:
    before = folded_before(corpus_app)
    assert rebuilt(corpus_app) == before
    report = tournament_report(open_view(corpus_app), "cup")
    assert report.rows and not report.damaged
    assert sum(1 for kind, _key in before if kind == "match") >= 25


@pytest.mark.skipif(
    compiled(fold),
    reason="a compiled fold calls _apply_match_event directly: which fold took an event is seen by no spy, "
    "and the documents are the same either way (the corpus rebuilt is the view the fold before made)",
)
def test_each_match_of_the_corpus_is_folded_from_its_start_at_once(
    corpus_app: HonbaApp, counted: dict[str, int]
) -> None:
    """No event of a match goes through the event-by-event fold: seen only where the fold is interpreted."""
    rebuilt(corpus_app)
    assert counted["event by event"] == 0
    folded_before(corpus_app)  # (the spy is reached: each event alone)
    assert counted["event by event"] > 0


@pytest.mark.parametrize("batch", [2, 7, 40])  # (one a batch is the fold before itself)
def test_matches_cut_across_batches_are_folded_as_before(corpus_app: HonbaApp, batch: int) -> None:
    # A match begun in one batch goes on event by event in the next (its document read from the view).
    assert rebuilt(corpus_app, batch=batch) == folded_before(corpus_app)


def test_a_batch_is_read_as_the_library_reads_it(corpus_app: HonbaApp) -> None:
    recorder = corpus_app.recorder
    last = recorder.max_notification_id()
    assert last is not None
    for start, limit, stop in [(0, 10**6, None), (0, 50, None), (37, 100, 90), (last - 3, 10, None), (last, 10, None)]:
        ours = select_rows(recorder, start, limit, stop, FOLDED_TOPICS)
        theirs = library_rows(recorder, start, limit, stop, FOLDED_TOPICS)
        if theirs is None:
            assert ours is None
            continue
        assert ours is not None and ours[:2] == theirs[:2]
        assert all(type(row) is FoldRow for row in ours[2])
        fields = ("id", "originator_id", "originator_version", "topic", "state")
        assert [tuple(getattr(row, name) for name in fields) for row in ours[2]] == [
            tuple(getattr(row, name) for name in fields) for row in theirs[2]
        ]
        # One id object for each aggregate's rows: its text made once, its key found by identity.
        by_stream: dict[Any, set[int]] = {}
        for row in ours[2]:
            by_stream.setdefault(row.originator_id, set()).add(id(row.originator_id))
        assert all(len(ids) == 1 for ids in by_stream.values())


def test_a_sqlite_rebuild_reads_its_batches_by_its_own_statement(
    corpus_app: HonbaApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refused(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("a batch read through the library's select_notifications")

    monkeypatch.setattr(type(corpus_app.recorder), "select_notifications", refused)
    view = POPODocumentView()
    assert catch_up(corpus_app, view) == corpus_app.recorder.max_notification_id()


def test_corrections_and_an_excerpt_completed_are_folded_as_before(tmp_path: Path) -> None:
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
        {"type": "correction", "target": 2, "replacement": None, "by": "Eve (referee)", "reason": "void"},
        {"type": "end", "reason": "agreed"},
    ]
    record.write_text("".join(json.dumps(line) + "\n" for line in lines))
    app = store_of(tmp_path, [record, corpus_file(f"{FULL}-no-round-end.mjlog"), *WIRE[:2]], tournament=None)
    # The full game completes its excerpt: its missing hands appended to the stored match, after other rows.
    run = import_paths(app, [WIRE[2], corpus_file(f"{FULL}.mjlog")], keep_games=True)
    assert run.stored == 2
    attach_all(app, "cup", [("club-1", tuple(PLAYERS))], session=1)
    before = folded_before(app)
    assert rebuilt(app) == before
    assert before[("match", str(match_id("club-1")))]["corrections"]
    assert before[("summary", FULL)]["finished"]
    app.close()


def stored_state(app: HonbaApp, stream: Any, version: int) -> dict[str, Any]:
    (row,) = app.recorder.select_events(stream, gt=version - 1, lte=version)
    data: dict[str, Any] = json.loads(row.state)
    return data


def replace_state(app: HonbaApp, stream: Any, version: int, data: dict[str, Any]) -> None:
    datastore = app.recorder.datastore  # type: ignore[attr-defined]
    with datastore.transaction(commit=True) as cursor:
        cursor.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (json.dumps(data, ensure_ascii=False).encode(), stream.hex, version),
        )


def damaged(app: HonbaApp) -> dict[str, str]:
    view = open_view(app)
    try:
        return {key: str(why) for key, why in tournament_report(view, "cup").damaged.items()}
    finally:
        close_view(view)


def test_a_changed_row_is_caught_and_reported_as_before(corpus_app: HonbaApp) -> None:
    keys = [summary.key for summary in corpus_app.list_matches()]
    # A fact changed behind honba's back in the middle of one match (the next event's chain names the
    # row as it was), and the last row of another (nothing after it in its match to name it).
    middle, last = match_id(keys[0]), match_id(keys[1])
    data = stored_state(corpus_app, middle, 2)
    win = data["fact"]["_data_"]["wins"][0]
    win["winner"], win["discarder"] = (win["winner"] + 1) % 4, None
    replace_state(corpus_app, middle, 2, data)
    as_stored = corpus_app.get_match(keys[1])
    data = stored_state(corpus_app, last, as_stored.version)
    data["final_points"][0] += 1.0
    replace_state(corpus_app, last, as_stored.version, data)
    before = folded_before(corpus_app)
    assert rebuilt(corpus_app) == before
    found = damaged(corpus_app)
    assert "chain is broken" in found[keys[0]] and "event 2 does not match" in found[keys[0]]
    # The last row changed: the head the fold keeps is not the match's as stored (a seal, or the next
    # event recorded, names it), as before.
    assert before[("match", str(last))]["head"] != as_stored.head


def test_a_row_that_cannot_be_read_and_a_fact_no_table_holds_are_reported_as_before(corpus_app: HonbaApp) -> None:
    keys = [summary.key for summary in corpus_app.list_matches()]
    unreadable, unscorable = match_id(keys[0]), match_id(keys[1])
    data = stored_state(corpus_app, unreadable, 3)
    data["prior"] = 7  # a number where the chain's digest is text: the mapper refuses the row
    replace_state(corpus_app, unreadable, 3, data)
    data = stored_state(corpus_app, unscorable, 2)
    data["fact"]["_data_"]["wins"][0]["winner"] = 9  # a seat the table does not have
    replace_state(corpus_app, unscorable, 2, data)
    before = folded_before(corpus_app)
    assert rebuilt(corpus_app) == before
    found = damaged(corpus_app)
    assert "cannot be read" in found[keys[0]] and "'prior'" in found[keys[0]]
    assert "cannot be scored" in found[keys[1]] and "seat 9" in found[keys[1]]


def test_one_more_event_after_the_rebuilt_view_is_folded_as_before(tmp_path: Path) -> None:
    app = store_of(tmp_path, WIRE[:3], tournament=None)
    recording.start_match(app, "live", PLAYERS, TENHOU)
    recording.record(app, "live", won(ron(1, 0, hv(3, 30))))
    attach_all(app, "cup", [("live", tuple(PLAYERS))], session=1)
    view = open_view(app)
    try:
        catch_up(app, view)
        recording.record(app, "live", won(ron(2, 0, hv(3, 30))))
        assert 0 < catch_up(app, view) <= 3  # the hand's events and its seal's, not the log again
        assert documents(view) == folded_before(app)
        history = documents(view)[("match", str(match_id("live")))]["history"]
        assert len(history) == len(app.get_match("live").history) >= 2
    finally:
        close_view(view)
    app.close()


def test_a_match_s_rule_values_met_again_take_the_same_reference() -> None:
    _rules_refs()


@pytest.mark.skipif(
    compiled(fold),
    reason="a compiled fold calls _same_types directly: the walk is seen by no spy, and the references are "
    "the same either way (a match's rule values met again take the same reference)",
)
def test_a_match_s_rule_values_met_again_are_not_walked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    walked: list[Any] = []
    same_types = fold._same_types
    monkeypatch.setattr(fold, "_same_types", lambda a, b: walked.append(a) or same_types(a, b))
    _rules_refs()
    assert walked == []


def _rules_refs() -> None:
    cache = DocCache(POPODocumentView())
    values = {"name": "tenhou", "start_score": 25000, "uma": [15, 5, -5, -15], "oka": 0.0}
    first = cache.rules_ref(values)
    # Equal values of other objects, and values equal in Python but not in their JSON.
    assert cache.rules_ref(json.loads(json.dumps(values))) == first
    assert cache.rules_ref({**values, "oka": 0}) != first
    assert cache.rules_ref({**values, "start_score": 25000.0}) != first


@pytest.mark.parametrize(
    "written",
    [
        "2026-11-30T03:09:39.473648+00:00",  # as honba writes it: taken as it is
        "2026-11-30T03:09:39.000001+00:00",
        "2026-11-30T03:09:39.000000+00:00",  # microseconds of 0: isoformat leaves them out
        "2026-11-30T03:09:39+00:00",
        "2026-11-30T03:09:39.473648+09:00",
        "2026-11-30T03:09:39.473648Z",
        "2026-11-30 03:09:39.473648+00:00",
    ],
)
def test_a_row_s_time_is_hashed_as_its_event_s_time_is_however_it_is_spelled(
    corpus_app: HonbaApp, written: str
) -> None:
    (row,) = [
        row
        for row in select_rows(corpus_app.recorder, 0, 10**6, None, FOLDED_TOPICS)[2]  # type: ignore[index]
        if row.topic.endswith("Match.HandWon")
    ][:1]
    data = json.loads(row.state)
    data["timestamp"]["_data_"] = written
    state = json.dumps(data, ensure_ascii=False).encode()
    changed = FoldRow(row.id, row.originator_id, row.originator_version, row.topic, state)
    found = FoldReader(corpus_app.mapper).read(changed)
    assert found is not None
    assert found.digest == event_digest(corpus_app.mapper.to_domain_event(changed))
