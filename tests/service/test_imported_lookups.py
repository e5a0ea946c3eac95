"""An import looks up the records of the files it meets, and hands them to its workers, many at a time
(issue 36).

Each file is recognised by the digests of its bytes (``import_digests``): ``imported_files`` reads the
records of many digests in one statement (SQLite's ``select_streams``, PostgreSQL's ``select_tails``)
and finds what ``imported_file`` finds for each digest alone, a damaged record included; an import of
a fresh store no longer sends two statements per file. The files to read go to the reading workers
``READ_CHUNK`` at a time, and are stored in the order of the archive, as one process stores them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, imported
from eventsourcing.persistence import StoredEvent

import replay.service.imports.batch as batch
from replay.service.imports.batch import LOOKUP, READ_CHUNK, _import_options, import_digests, import_paths, reading_pool
from replay.store.application import HonbaApp
from replay.store.identity import file_record_id
from replay.store.imported import imported_file, imported_files
from replay.store.sqlite_store import HonbaSQLiteRecorder

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")


def logs(count: int) -> list[Path]:
    return sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))[:count]


def fields(record: Any) -> Any:
    return None if record is None else (record.digest, record.games, record.unsupported, record.warnings)


def test_the_records_of_many_files_are_found_as_each_alone(store_db: str, tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    for path in logs(4):
        (folder / path.name).write_bytes(path.read_bytes())
    store = HonbaApp.open(store_db)
    try:
        assert import_paths(store, [folder]).stored == 4
        options = _import_options("auto", "", None)
        digests = [d for path in sorted(folder.iterdir()) for d in import_digests(path, options)]
        # A record damaged behind honba's back is read as none, by both.
        damaged = "d" * 64
        store.recorder.insert_events(
            [StoredEvent(file_record_id(damaged), 1, "replay.store.identity:ImportedFile.Recorded", b"{")]
        )
        wanted = [*digests, damaged, "0" * 64]
        alone = {digest: fields(imported_file(store, digest)) for digest in wanted}
        together = imported_files(store, wanted)
        assert {digest: fields(together.get(digest)) for digest in wanted} == alone
        # Each file is recorded under the first of its two digests.
        assert sorted(digest for digest, found in alone.items() if found) == sorted(digests[::2])
    finally:
        store.close()


def test_an_import_looks_up_the_digests_of_many_files_in_one_statement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lookups: list[int] = []
    record_reads: list[str] = []
    streams = HonbaSQLiteRecorder.select_streams
    events = HonbaSQLiteRecorder.select_events

    def counted_streams(self: HonbaSQLiteRecorder, ids: Any) -> Any:
        lookups.append(len(ids))
        return streams(self, ids)

    def counted_events(self: HonbaSQLiteRecorder, originator_id: Any, **kwargs: Any) -> Any:
        record_reads.append(str(originator_id))
        return events(self, originator_id, **kwargs)

    monkeypatch.setattr(HonbaSQLiteRecorder, "select_streams", counted_streams)
    monkeypatch.setattr(HonbaSQLiteRecorder, "select_events", counted_events)
    folder = tmp_path / "logs"
    folder.mkdir()
    files = logs(LOOKUP + 8)
    for path in files:
        (folder / path.name).write_bytes(path.read_bytes())
    store = HonbaApp.open(str(tmp_path / "store.sqlite"))
    try:
        assert import_paths(store, [folder]).stored == len(files)
        # Two statements for 40 files (two digests each), and no file's record read alone.
        assert lookups == [2 * LOOKUP, 2 * 8]
        options = _import_options("auto", "", None)
        records = {str(file_record_id(d)) for path in folder.iterdir() for d in import_digests(path, options)}
        assert not records & set(record_reads)
        # Imported again, every file is recognised in the same two statements.
        lookups.clear()
        again = import_paths(store, [folder])
        assert again.stored == 0 and again.present == len(files)
        assert lookups == [2 * LOOKUP, 2 * 8]
    finally:
        store.close()


def test_reading_workers_are_given_several_files_a_task_and_store_what_one_process_stores(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = logs(LOOKUP + 9)
    folder, before = tmp_path / "logs", tmp_path / "before"
    folder.mkdir()
    before.mkdir()
    for number, path in enumerate(files):
        (folder / path.name).write_bytes(path.read_bytes())
        if number % 3 == 1:  # a third imported before: recognised between the files read
            (before / path.name).write_bytes(path.read_bytes())
    workers, alone = tmp_path / "workers.sqlite", tmp_path / "alone.sqlite"
    for db in (workers, alone):
        imported(db, before)
    tasks: list[int] = []
    submit = batch.OnDemandPool.submit

    def counted(self: batch.OnDemandPool, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        tasks.append(len(args[0]) if fn is batch._read_files else -1)
        return submit(self, fn, *args, **kwargs)

    monkeypatch.setattr(batch.OnDemandPool, "submit", counted)
    with reading_pool(2, len(files), on_demand=True) as pool:
        run = imported(workers, folder, pool=pool, keep_games=True)
    one = imported(alone, folder, keep_games=True)
    unknown = len(files) - len(list(before.iterdir()))
    assert (run.stored, run.present) == (one.stored, one.present) == (unknown, len(files) - unknown)
    assert run.games == one.games and run.listed == one.listed
    # The files read went in tasks of sixteen (each task handed over costs the importing process's
    # pool thread a wake-up for the call and one for its result), each group of files looked up
    # together in its own tasks (its last one sent at the group's end, so that no file waits for the
    # next group's lookup): 21 files of the first 32 read, 6 of the last 9.
    expected = []
    for start in range(0, len(files), LOOKUP):
        read = sum(1 for number in range(start, min(start + LOOKUP, len(files))) if number % 3 != 1)
        expected += [READ_CHUNK] * (read // READ_CHUNK) + ([read % READ_CHUNK] if read % READ_CHUNK else [])
    assert tasks == expected == [16, 5, 6] and sum(tasks) == unknown


def test_a_copy_later_in_the_same_import_is_recognised_as_when_each_file_was_looked_up_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An excerpt (a log cut before any hand ended: its game has no identity to be found by), another
    # log, then a copy of the excerpt under a later name: all three looked up together, before the
    # excerpt is stored. Its record, written once its match is (a batch of one match), makes the copy
    # known when it comes, as a lookup of the copy alone found it; read instead, the copy's match would
    # be stored again under the copy's own key.
    excerpt = CORPUS / "mjx-project-mjx" / "tests_cpp" / "resources" / "mjlog" / "obs-draw-riichi.mjlog"
    folder = tmp_path / "logs"
    folder.mkdir()
    for name, source in (("a.mjlog", excerpt), ("b.mjlog", logs(1)[0]), ("c.mjlog", excerpt)):
        (folder / name).write_bytes(source.read_bytes())
    runs = {}
    for lookup in (LOOKUP, 1):
        monkeypatch.setattr(batch, "LOOKUP", lookup)
        runs[lookup] = imported(tmp_path / f"store-{lookup}.sqlite", folder, batch=1, keep_games=True)
    together, alone = runs[LOOKUP], runs[1]
    assert (together.stored, together.present) == (alone.stored, alone.present) == (2, 1)
    assert together.listed == alone.listed and together.games == alone.games


def test_a_copy_stored_while_it_was_in_flight_is_recognised_whatever_the_files_in_flight(tmp_path: Path) -> None:
    # An excerpt (no identity to be found by), another log, a copy of the excerpt, and enough logs for
    # reading workers. With workers the copy is looked up with the files ahead of it, before the excerpt
    # is stored: it was read and stored again under its own key (``honba import`` of ../shared/corpus
    # stored 760 games with two workers, 759 with one). Checked again as it is stored, it is known, as
    # when one process looks each file up just before storing it.
    excerpt = CORPUS / "mjx-project-mjx" / "tests_cpp" / "resources" / "mjlog" / "obs-draw-riichi.mjlog"
    folder = tmp_path / "logs"
    folder.mkdir()
    sources = [excerpt, *logs(1), excerpt, *logs(15)[1:]]
    for number, source in enumerate(sources):
        (folder / f"{number:02}.mjlog").write_bytes(source.read_bytes())
    with reading_pool(2, len(sources), on_demand=True) as pool:
        assert pool is not None
        workers = imported(tmp_path / "workers.sqlite", folder, pool=pool, batch=1, keep_games=True)
    alone = imported(tmp_path / "alone.sqlite", folder, batch=1, keep_games=True)
    assert (alone.stored, alone.present) == (len(sources) - 1, 1)
    assert (workers.stored, workers.present) == (alone.stored, alone.present)
    assert workers.games == alone.games and workers.listed == alone.listed
