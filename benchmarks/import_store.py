"""Import into SQLite and into PostgreSQL (events/s) against a plain executemany of the same records.

    python benchmarks/import_store.py [--repeat N] [--stream N] [--no-postgres]

The 633 real Tenhou logs of ``../shared/corpus/tenhou-wire-2018`` are built into matches
N times over (3 by default, each round under other game ids) and encoded for the store
(``replay.app.prepare``: the match's events and its seal's, as the store keeps them).

- Store: honba's storing of those records (``HonbaApp.store_prepared``, what ``honba
  import`` does with what its workers read: 100 matches to a transaction, each whole with
  its seal, present matches told from conflicts) against inserting the very same rows with
  plain ``sqlite3`` / ``psycopg`` ``executemany`` into a copy of the same table, in
  transactions of the same size. Target: honba within 2x the time of the plain insert.
- End to end: ``honba import`` of the corpus directory (files read, parsed, scored and
  encoded by one worker process per core, stored here), events/s, for the record.
- Memory: the peak of the storing process importing a directory of 1,000 and of N (10,000
  by default) logs (copies of the corpus under new game ids): it must not grow with the
  size of the archive.

PostgreSQL runs on a temporary server started like the tests' (``tests/pg_server.py``);
without one it is skipped, saying why.
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path

import attrs
from machine import corpus_files, max_rss_mib, mib, peak_python_memory, print_machine, timed, verdict

from replay.app import HonbaApp, Prepared, mapper_for, prepare
from replay.batch import BATCH, import_paths, jobs_default, reading_pool
from replay.formats.detect import read_log
from replay.importing import match_from_log

Row = tuple[str, int, str, bytes]


def build(files: list[Path], repeat: int, app: HonbaApp) -> list[Prepared]:
    mapper = mapper_for(app.mapper_settings())
    prepared = []
    for round_ in range(repeat):
        for path in files:
            for game in read_log(path):
                game = attrs.evolve(game, game_id=f"{game.game_id}-{round_}")
                prepared.append(prepare(match_from_log(game), mapper))
    return prepared


def batches(prepared: Sequence[Prepared]) -> Iterator[Sequence[Prepared]]:
    for start in range(0, len(prepared), BATCH):
        yield prepared[start : start + BATCH]


def honba_store(app: HonbaApp, prepared: Sequence[Prepared]) -> None:
    for batch in batches(prepared):
        outcomes = app.store_prepared(batch)
        assert all(outcome is True for outcome in outcomes)


def rows_of(batch: Sequence[Prepared], hex_ids: bool) -> list[Row] | list[tuple[object, int, str, bytes]]:
    return [
        (r.originator_id.hex if hex_ids else r.originator_id, r.originator_version, r.topic, r.state)
        for p in batch
        for r in p.records
    ]


def report(name: str, events: int, seconds: float, baseline: float) -> bool:
    ratio = seconds / baseline
    print(f"  honba store:  {seconds:6.2f} s  {events / seconds:9.0f} events/s")
    print(f"  plain insert: {baseline:6.2f} s  {events / baseline:9.0f} events/s")
    print(f"  {name}: honba time / plain time = {ratio:.2f} (target <= 2: {verdict(ratio <= 2)})")
    return ratio <= 2


def end_to_end(db: str, folder: Path) -> None:
    app = HonbaApp.open(db)
    try:
        with reading_pool(jobs_default(), 1000) as pool:
            seconds, run = timed(lambda: import_paths(app, [folder], pool=pool))
        events = app.recorder.max_notification_id() or 0
    finally:
        app.close()
    assert run.stored and not run.unreadable
    print(
        f"  end to end (honba import of {run.files} files, {jobs_default()} reading processes): {seconds:.2f} s, "
        f"{run.stored / seconds:.0f} games/s, {events / seconds:.0f} events/s"
    )


ROUNDS = 3  # each store is timed this many times, each time into a fresh one; the best counts


def sqlite_round(prepared: list[Prepared], events: int, work: Path, round_: int) -> tuple[float, float]:
    db = work / f"honba-{round_}.sqlite"
    app = HonbaApp.open(str(db))
    try:
        seconds, _ = timed(lambda: honba_store(app, prepared))
        assert app.recorder.max_notification_id() == events
    finally:
        app.close()
    with sqlite3.connect(db) as source:
        ddl = [row[0] for row in source.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL")]
    plain = sqlite3.connect(work / f"plain-{round_}.sqlite", isolation_level=None)
    plain.execute("PRAGMA journal_mode=WAL")
    for statement in ddl:
        plain.execute(statement)
    insert = "INSERT INTO stored_events (originator_id, originator_version, topic, state) VALUES (?, ?, ?, ?)"

    def plain_insert() -> None:
        for batch in batches(prepared):
            plain.execute("BEGIN")
            plain.executemany(insert, rows_of(batch, hex_ids=True))
            plain.execute("COMMIT")

    baseline, _ = timed(plain_insert)
    plain.close()
    return seconds, baseline


def sqlite_part(prepared: list[Prepared], events: int, work: Path) -> None:
    print("SQLite (a file, WAL):")
    rounds = [sqlite_round(prepared, events, work, n) for n in range(ROUNDS)]
    report("SQLite", events, min(r[0] for r in rounds), min(r[1] for r in rounds))
    end_to_end(str(work / "end-to-end.sqlite"), corpus_files()[0].parent)


def postgres_round(prepared: list[Prepared], events: int, url: str) -> tuple[float, float]:
    import psycopg

    app = HonbaApp.open(url)
    try:
        seconds, _ = timed(lambda: honba_store(app, prepared))
        assert app.recorder.max_notification_id() == events
    finally:
        app.close()
    with psycopg.connect(url) as conn:
        # The same table, columns, keys and indexes as honba's.
        conn.execute("CREATE TABLE plain_events (LIKE honba_events INCLUDING ALL)")
        conn.commit()
        columns = "originator_id, originator_version, topic, state"
        insert = f"INSERT INTO plain_events ({columns}) VALUES (%s, %s, %s, %s)"

        def plain_insert() -> None:
            for batch in batches(prepared):
                with conn.transaction(), conn.cursor() as cursor:
                    cursor.executemany(insert, rows_of(batch, hex_ids=False))

        baseline, _ = timed(plain_insert)
    return seconds, baseline


def postgres_part(prepared: list[Prepared], events: int) -> None:
    from pg_server import PostgresServer, ServerUnavailable

    print("PostgreSQL (a local server, fsync off as in the tests):")
    server: PostgresServer | None = None
    try:
        server = PostgresServer()
        server.start()
    except ServerUnavailable as exc:
        print(f"  skipped: no PostgreSQL server could be started: {exc}")
        if server is not None:
            server.stop()
        return
    try:
        rounds = [postgres_round(prepared, events, server.new_database()) for _ in range(ROUNDS)]
        report("PostgreSQL", events, min(r[0] for r in rounds), min(r[1] for r in rounds))
        end_to_end(server.new_database(), corpus_files()[0].parent)
    finally:
        server.stop()


def archive(folder: Path, count: int) -> Path:
    """A directory of ``count`` logs: the corpus's, copied under new game ids (in 100-file folders)."""
    files = corpus_files()
    for n in range(count):
        source = files[n % len(files)]
        date = source.name[:10]
        part = folder / f"{n // 100:04d}"
        part.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, part / f"{date}gm-0009-0000-{n:08x}.mjlog")
    return folder


def streaming_part(work: Path, largest: int) -> None:
    print("Memory while importing a directory (SQLite; the storing process; each worker reads one file at a time):")
    peaks = []
    for count in (1000, largest):
        folder = archive(work / f"archive-{count}", count)
        app = HonbaApp.open(str(work / f"stream-{count}.sqlite"))
        try:
            with reading_pool(jobs_default(), count) as pool:
                seconds, run = timed(lambda: import_paths(app, [folder], pool=pool))  # noqa: B023
        finally:
            app.close()
        assert run.stored == count, run
        # Peak memory in a fresh import of its own: tracemalloc slows Python down several times.
        app = HonbaApp.open(str(work / f"stream-{count}-again.sqlite"))
        try:
            with reading_pool(jobs_default(), count) as pool, peak_python_memory() as peak:
                again = import_paths(app, [folder], pool=pool)
        finally:
            app.close()
        assert again.stored == count
        peaks.append(peak[0])
        print(f"  {count:6d} games: {seconds:6.1f} s, {count / seconds:.0f} games/s; peak {mib(peak[0])}")
        shutil.rmtree(folder)
    growth = peaks[1] / peaks[0]
    print(
        f"  peak at {largest} / peak at 1000 = {growth:.2f} "
        f"(memory does not grow with the archive: {verdict(growth < 1.5)})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="build the corpus this many times over")
    parser.add_argument("--stream", type=int, default=10_000, help="games in the large directory streamed")
    parser.add_argument("--no-postgres", action="store_true", help="leave PostgreSQL out")
    args = parser.parse_args()
    print_machine()
    work = Path(tempfile.mkdtemp(prefix="honba-bench-"))
    try:
        memory = HonbaApp.open(":memory:")
        build_seconds, prepared = timed(lambda: build(corpus_files(), args.repeat, memory))
        memory.close()
        events = sum(len(p.records) for p in prepared)
        print(
            f"input: {len(prepared)} matches, {events} events (with seals); built and encoded in one process "
            f"in {build_seconds:.2f} s ({events / build_seconds:.0f} events/s)"
        )
        sqlite_part(prepared, events, work)
        if not args.no_postgres:
            postgres_part(prepared, events)
        prepared.clear()
        streaming_part(work, args.stream)
        print(f"process peak RSS {max_rss_mib():.0f} MiB (the records built above are held in memory)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
