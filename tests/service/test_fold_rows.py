"""The fold near the read (issue 36): a rebuild of the standings view reads its rows as a plain read
does (``replay.store.fold_rows.FoldReader``) and gives what the mapper and ``event_digest`` give,
event for event; the view it builds in batches equals the one kept event by event through the
mapper; a damaged row is caught by it as before (a chain broken, a row that cannot be read).

On real matches: Tenhou logs of the shared corpus, imported and attached to a tournament.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from conftest import CORPUS

from domain.codec import to_data
from domain.integrity import canonical, event_content, event_digest, exact_digest
from domain.match import match_id
from domain.values import AbortiveDraw, DealPass, ExhaustiveDraw, MatchEnd, Penalty, TableState, WinResult
from projections.views import DocumentView, POPODocumentView
from replay.service.imports.batch import import_paths
from replay.service.tournaments.standings import tournament_report
from replay.service.tournaments.tournaments import attach_all
from replay.store.application import HonbaApp
from replay.store.fold_rows import FLOATLESS, FoldReader
from replay.store.standings_view import FOLDED_TOPICS, catch_up

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")

WIRE = sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))
KINDS = ("match", "summary", "tournament", "attached", "standings", "stats", "totals", "entry", "damaged", "view")
SAMPLE = 12


@pytest.fixture(scope="module")
def corpus_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite store of a sample of the corpus's Tenhou logs, every game attached to ``cup``."""
    folder = tmp_path_factory.mktemp("logs")
    for source in WIRE[:SAMPLE]:
        (folder / source.name).write_bytes(source.read_bytes())
    db = tmp_path_factory.mktemp("store") / "store.sqlite"
    app = HonbaApp.open(str(db))
    try:
        run = import_paths(app, [folder], keep_games=True)
        assert run.stored == SAMPLE
        attach_all(app, "cup", list(run.games), session=1)
    finally:
        app.close()
    return db


def copy_of(db: Path, tmp_path: Path) -> HonbaApp:
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(db.read_bytes())
    return HonbaApp.open(str(copy))


def rows(app: HonbaApp) -> list[Any]:
    return list(app.recorder.select_notifications(start=0, limit=100_000, inclusive_of_start=False))


def event_by_event(app: HonbaApp) -> POPODocumentView:
    """The view folded one event at a time, each row read through the store's mapper (as before the
    fold near the read; a row the mapper cannot read becomes the view's ``UnreadableRow`` as always)."""
    view = POPODocumentView()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(FoldReader, "read", lambda _self, _row: None)
        catch_up(app, view, batch=1)
    return view


def dump(view: DocumentView) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    return {kind: view.docs(kind) for kind in KINDS}


def test_every_row_reads_as_the_mapper_reads_it_with_the_same_digest(corpus_store: Path, tmp_path: Path) -> None:
    app = copy_of(corpus_store, tmp_path)
    reader = FoldReader(app.mapper)
    assert reader.usable
    folded = [row for row in rows(app) if row.topic.startswith(FOLDED_TOPICS)]
    assert len(folded) > 20 * SAMPLE
    for row in folded:
        found = reader.read(row)
        assert found is not None, row  # no honest row of the corpus goes the slow way
        by_mapper = app.mapper.to_domain_event(row)
        assert type(found.event) is type(by_mapper)
        assert vars(found.event) == vars(by_mapper)
        assert found.digest == event_digest(by_mapper)
    app.close()


def test_the_batch_fold_gives_the_standings_of_the_event_by_event_fold(corpus_store: Path, tmp_path: Path) -> None:
    app = copy_of(corpus_store, tmp_path)
    batch = POPODocumentView()
    assert catch_up(app, batch) == len(rows(app))
    kept = event_by_event(app)
    assert dump(batch) == dump(kept)
    report = tournament_report(batch, "cup")
    assert sum(row.matches for row in report.rows) == 4 * SAMPLE and not report.damaged
    app.close()


def stored_state(app: HonbaApp, stream: Any, version: int) -> dict[str, Any]:
    (row,) = app.recorder.select_events(stream, gt=version - 1, lte=version)
    data: dict[str, Any] = json.loads(row.state)
    return data


def replace_state(app: HonbaApp, stream: Any, version: int, state: bytes) -> None:
    datastore = app.recorder.datastore  # type: ignore[attr-defined]
    with datastore.transaction(commit=True) as cursor:
        cursor.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (state, stream.hex, version),
        )


def assert_both_folds_find_the_chain_broken(app: HonbaApp, key: str) -> None:
    """The batch fold and the fold of one event at a time give the same documents, and both name
    the match's chain broken."""
    batch = POPODocumentView()
    catch_up(app, batch)
    assert dump(batch) == dump(event_by_event(app))
    damaged = tournament_report(batch, "cup").damaged
    assert key in damaged and "chain is broken" in str(damaged[key])


def test_a_changed_row_breaks_the_chain_in_the_batch_fold_as_event_by_event(corpus_store: Path, tmp_path: Path) -> None:
    app = copy_of(corpus_store, tmp_path)
    key = next(iter(app.list_matches())).key
    stream = match_id(key)
    data = stored_state(app, stream, 2)
    data["fact"]["_data_"]["wins"][0]["winner"] = (data["fact"]["_data_"]["wins"][0]["winner"] + 1) % 4
    data["fact"]["_data_"]["wins"][0].pop("discarder", None)  # a self-drawn win now: the row still reads
    replace_state(app, stream, 2, json.dumps(data, ensure_ascii=False).encode())
    assert_both_folds_find_the_chain_broken(app, key)
    app.close()


def test_a_row_that_cannot_be_read_is_left_out_named_in_the_batch_fold_as_event_by_event(
    corpus_store: Path, tmp_path: Path
) -> None:
    app = copy_of(corpus_store, tmp_path)
    key = list(app.list_matches())[1].key
    stream = match_id(key)
    data = stored_state(app, stream, 3)
    data["prior"] = 7  # a number where the chain's digest is text: the mapper refuses the row
    replace_state(app, stream, 3, json.dumps(data, ensure_ascii=False).encode())
    reader = FoldReader(app.mapper)
    (row,) = [r for r in rows(app) if r.originator_id == stream and r.originator_version == 3]
    assert reader.read(row) is None  # read through the mapper, which names what is wrong
    batch = POPODocumentView()
    catch_up(app, batch)
    assert dump(batch) == dump(event_by_event(app))
    damaged = tournament_report(batch, "cup").damaged
    assert key in damaged and "cannot be read" in str(damaged[key]) and "'prior'" in str(damaged[key])
    app.close()


@pytest.mark.parametrize(
    "change",
    [
        # A typed value below the top level: the library's decoder would build it, a plain read would not.
        lambda data: data["fact"]["_data_"].update(extra={"_type_": "honba.HandValue", "_data_": {"han": 1}}),
        # A mark whose name is not text (a list: no name to look up; found by tests/e2e/test_fuzz_damage.py).
        lambda data: data["fact"].update(_type_=["honba.HandValue"]),
        # An escaped character (here spelling the mark's underscore): the bytes no longer show the mark.
        None,
    ],
)
def test_rows_a_plain_read_might_read_otherwise_go_through_the_mapper(
    corpus_store: Path, tmp_path: Path, change: Any
) -> None:
    app = copy_of(corpus_store, tmp_path)
    key = next(iter(app.list_matches())).key
    stream = match_id(key)
    data = stored_state(app, stream, 2)
    if change is not None:
        change(data)
        state = json.dumps(data, ensure_ascii=False).encode()
    else:
        state = json.dumps(data, ensure_ascii=False).replace('"_type_"', '"\\u005ftype_"', 1).encode()
    replace_state(app, stream, 2, state)
    (row,) = [r for r in rows(app) if r.originator_id == stream and r.originator_version == 2]
    assert FoldReader(app.mapper).read(row) is None
    batch = POPODocumentView()
    catch_up(app, batch)
    assert dump(batch) == dump(event_by_event(app))
    app.close()


@pytest.mark.parametrize("number", [0.00001, 2.5e-05, float("nan"), float("inf"), float("-inf")])
def test_a_float_orjson_writes_otherwise_is_hashed_as_the_canonical_json_writes_it(
    corpus_store: Path, tmp_path: Path, number: float
) -> None:
    """``orjson`` hashes a row only when it writes each of the row's floats as the canonical JSON does:
    these it writes otherwise (``0.00001`` for ``1e-05``, ``null`` for a NaN or an infinity)."""
    app = copy_of(corpus_store, tmp_path)
    key = next(iter(app.list_matches())).key
    stream = match_id(key)
    data = stored_state(app, stream, 1)  # the match's start: its source is free-form plain data
    data["source"]["weight"] = number
    replace_state(app, stream, 1, json.dumps(data, ensure_ascii=False).encode())
    (row,) = [r for r in rows(app) if r.originator_id == stream and r.originator_version == 1]
    by_mapper = app.mapper.to_domain_event(row)
    content = event_content(by_mapper)
    # Without the check the digest would differ from the chain's: orjson writes this float otherwise.
    assert orjson.dumps(content, option=orjson.OPT_SORT_KEYS) != canonical(content)
    assert exact_digest(content, exact=True) != event_digest(by_mapper)
    found = FoldReader(app.mapper).read(row)
    assert found is not None and found.digest == event_digest(by_mapper)
    # The start's digest changed, so the next event no longer names it: both folds say so alike.
    assert_both_folds_find_the_chain_broken(app, key)
    app.close()


def test_orjson_hashes_every_honest_corpus_row_as_the_canonical_json(corpus_store: Path, tmp_path: Path) -> None:
    """The fast encoder is taken for the corpus's rows (their floats, a match's final points, are written
    alike), with the same digests."""
    app = copy_of(corpus_store, tmp_path)
    reader = FoldReader(app.mapper)
    taken = 0
    for row in rows(app):
        if row.topic.startswith(FOLDED_TOPICS):
            content = event_content(app.mapper.to_domain_event(row))
            fast = orjson.dumps(content, option=orjson.OPT_SORT_KEYS)
            assert fast == canonical(content)
            found = reader.read(row)
            assert found is not None and found.digest == hashlib.sha256(fast).hexdigest()
            taken += reader.inexact == 0
    assert taken == len([row for row in rows(app) if row.topic.startswith(FOLDED_TOPICS)])
    app.close()


def test_a_value_that_may_hold_a_float_is_never_hashed_by_orjson() -> None:
    """A table state's final points are floats made by its converter, whatever the row said: its
    class is not among those ``FoldReader`` hashes with orjson; a fact's are."""
    assert TableState not in FLOATLESS
    assert {WinResult, ExhaustiveDraw, AbortiveDraw, Penalty, DealPass, MatchEnd} <= FLOATLESS
    # Whole numbers in, floats out: a row's JSON would show no float for the check to count.
    state = TableState(players=4, scores=(25000, 25000, 25000, 25000), final_points=(10, 0, -3, -7))
    assert all(type(points) is float for points in to_data(state)["final_points"])
