"""Many files at once: verify or import every game of every log, one bad file never stopping the rest."""

from __future__ import annotations

import gc
import hashlib
import itertools
import multiprocessing
import os
import select
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import attrs

from domain.amendments import CorrectedStep
from domain.errors import HonbaError
from domain.integrity import digest_of, plain, written_all
from domain.rules import Ruleset
from domain.store_errors import MatchExists
from projections.views import DocumentView
from replay.formats.detect import detect_format, expand_paths, read_games, read_log
from replay.formats.logmodel import LogError, LoggedGame
from replay.formats.record import build_match, parse_record
from replay.formats.source import decoded_text, read_source, utf8_text
from replay.input.files import FileTooLarge, read_capped
from replay.input.json_text import no_cycle_collection
from replay.service.imports.importing import match_from_log
from replay.service.imports.imports import Share, import_files
from replay.service.imports.storing import AlreadyStoredAs, Prepared, prepare, store_prepared
from replay.service.imports.verify import GameReport, verify_game, with_inferred_rules, with_rules
from replay.store.application import HonbaApp, mapper_for
from replay.store.identity import ImportedFile
from replay.store.imported import imported_files, record_imported
from replay.store.standings_view import close_view, kept_view

Tick = Callable[[str], None]
# Matches stored in one transaction by an import.
BATCH = 100
# Tasks in flight per worker process (``verify``'s ``_in_order``).
AHEAD = 4
# Files whose digests an import looks up in the store at once (``imported_files``): a file looked up
# alone cost two statements (its two digests), 1,266 for the benchmark's 633 logs.
LOOKUP = 32
# Files a reading worker is given as one task: each task handed over (a submit, two pickles, the
# pool's queue, its threads woken for the call and for the result) cost this process about 0.4 ms
# of CPU, the worker some more. Sixteen: with two a task the importing process's pool thread took
# 0.23 to 0.26 CPU s for the 633 logs, with sixteen 0.07 to 0.08 (issue 36, twelfth round).
READ_CHUNK = 16
# Files an import reads ahead of the one being stored, per worker process: two tasks each (one being
# read, one waiting); what a file stores does not depend on it (``_import_all``'s ``take_next``).
READ_AHEAD = 2 * READ_CHUNK
# Files a worker verifies as one task: a Tenhou log is verified in about a millisecond, and handing
# one over to a worker alone (submit, pickles, the pool's queue and thread) took this process 0.2 ms
# of CPU, on the same two cores as the workers.
VERIFY_CHUNK = 8
# Fewer files than this are read in this process: starting workers would cost more.
PARALLEL_FROM = 16
# Hex digits of a file's SHA-256 in the key of a game whose log names no id: 48 bits, so that two
# different files of one name do not meet in any archive honba is given.
CONTENT_KEY_DIGITS = 12
# Games an import lists one by one (beyond that, only the counts).
LISTED = 50
# Matches an import stores between two checkpoints: each checkpoint then holds a bounded number of
# leaves (one at the command's end would hold one per game of the archive, and the memory with it).
CHECKPOINT_EVERY = 1000


@attrs.frozen
class Unreadable:
    """A file (or one game of it) that could not be read, and why.

    ``reason`` leaves out the file name that ``file`` gives; ``message`` is the whole
    sentence as the error said it, file and position included.
    """

    file: str
    reason: str
    message: str = ""


@attrs.frozen
class VerifyRun:
    """Everything ``honba verify`` found."""

    files: int
    reports: tuple[GameReport, ...]
    unreadable: tuple[Unreadable, ...]

    @property
    def hands(self) -> int:
        return sum(r.hands for r in self.reports)

    @property
    def hands_agreeing(self) -> int:
        return sum(r.hands_agreeing for r in self.reports)

    @property
    def exit_code(self) -> int:
        """``honba verify``'s exit code: 2 when an input could not be read, else 1 when anything
        disagrees with its log, else 0."""
        if self.unreadable:
            return 2
        return 1 if any(r.disagreements for r in self.reports) else 0

    def as_dict(self) -> dict[str, Any]:
        """The JSON object ``honba verify --json`` prints."""
        return {
            "files": self.files,
            "games": len(self.reports),
            "hands": self.hands,
            "hands_agreeing": self.hands_agreeing,
            "disagreements": [d.as_dict() for r in self.reports for d in r.disagreements],
            "unsupported": [
                {"file": r.file, "game": r.game, "reason": r.unsupported} for r in self.reports if r.unsupported
            ],
            "unreadable": [{"file": u.file, "reason": u.reason} for u in self.unreadable],
            "notes": [{"file": r.file, "game": r.game, "note": n} for r in self.reports for n in r.notes],
        }


@attrs.frozen
class FileVerified:
    """One file verified: a report for each of its games, or why it could not be read."""

    file: str
    reports: tuple[GameReport, ...] = ()
    unreadable: Unreadable | None = None


def verify_file(path: Path, fmt: str = "auto", rules: Ruleset | None = None) -> FileVerified:
    """Read one file and verify each of its games (in a worker process of the pool, or here).

    The cycle collector is paused for the file: reading and replaying a log make tens of thousands
    of short-lived containers (the events read as JSON, the hands, the tables) and hardly a cycle, so
    the collections every 700 of them started found nothing to free (5 % of an mjai verify); what a
    file leaves in a cycle is collected once the collector is back, after the file.
    """
    with no_cycle_collection():
        try:
            games = read_log(path, fmt)
        except HonbaError as exc:
            return FileVerified(str(path), (), Unreadable(str(path), _reason(exc, path), _message(exc, path)))
        return FileVerified(str(path), tuple(verify_game(ruled(g, rules)) for g in games))


def ruled(game: LoggedGame, rules: Ruleset | None) -> LoggedGame:
    """A game under the rules ``verify`` and ``import`` score it by: its log's, else the rules given
    (``--rules``), else those its own numbers show."""
    return with_rules(game, rules) if rules is not None else with_inferred_rules(game)


def verify_paths(
    paths: list[Path],
    fmt: str = "auto",
    tick: Tick | None = None,
    rules: Ruleset | None = None,
    *,
    pool: Executor | None = None,
) -> VerifyRun:
    """Verify every game of every log file under the paths; ``rules`` score the games whose
    log does not state its rules (a Mahjong Soul friendly or tournament room).

    With a ``pool`` (``reading_pool``) the files are verified in its worker processes, a few
    ahead of the one being collected; the reports come in file order either way.
    """
    files = expand_paths(paths)
    reports: list[GameReport] = []
    unreadable: list[Unreadable] = []
    for done in _in_order(pool, files, verify_file, fmt, rules, chunk=VERIFY_CHUNK):
        reports.extend(done.reports)
        if done.unreadable is not None:
            unreadable.append(done.unreadable)
        if tick is not None:
            tick(done.file)
    return VerifyRun(len(files), tuple(reports), tuple(unreadable))


R = TypeVar("R")


def _in_order(
    pool: Executor | None, files: Iterable[Path], work: Callable[..., R], *args: Any, chunk: int = 1
) -> Iterator[R]:
    """``work(path, *args)`` for each file, in file order: here, or in the pool's workers with
    ``AHEAD`` tasks per worker in flight (never the whole list: an archive of any size streams).
    ``chunk``: files given to a worker as one task (``_each``), where a file's work is so short
    that handing it over alone (a submit, two pickles, the pool's queue and thread) would cost
    this process a fifth of what it costs the worker."""
    if pool is None:
        for path in files:
            yield work(path, *args)
        return
    ahead: deque[Future[list[R]]] = deque()
    limit = AHEAD * jobs_default()
    group: list[Path] = []
    for path in files:
        group.append(path)
        if len(group) < chunk:
            continue
        ahead.append(pool.submit(_each, work, group, *args))
        group = []
        if len(ahead) >= limit:
            yield from ahead.popleft().result()
    if group:
        ahead.append(pool.submit(_each, work, group, *args))
    while ahead:
        yield from ahead.popleft().result()


def _each(work: Callable[..., R], paths: list[Path], *args: Any) -> list[R]:
    """``work(path, *args)`` of each path in turn (a worker's task of ``_in_order``)."""
    return [work(path, *args) for path in paths]


@attrs.frozen
class ImportRun:
    """What ``honba import`` did: how many games it stored and found already present, and
    each game unsupported, file unreadable and game in conflict with a stored one.

    It holds no list of every game (an archive of any size streams): ``listed`` keeps the
    first ``LISTED + 1`` games stored or present, as (key, stored), for a short report;
    ``games`` every game stored or present with its players in seat order, in the order read
    (what ``--tournament`` attaches), only when asked for.
    """

    files: int = 0
    stored: int = 0
    present: int = 0
    unsupported: tuple[Unreadable, ...] = ()
    unreadable: tuple[Unreadable, ...] = ()
    conflicts: tuple[Unreadable, ...] = ()
    listed: tuple[tuple[str, bool], ...] = ()
    games: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # What ``honba verify`` would flag in the games read, one line each (file, game, hand, field).
    warnings: tuple[str, ...] = ()
    # Games found stored under another key (the same game from another file): (file, key, stored key).
    duplicates: tuple[tuple[str, str, str], ...] = ()


@attrs.frozen
class FileRead:
    """One file read for import: its games built and encoded, or why it could not be read."""

    file: str
    matches: tuple[Prepared, ...] = ()
    unsupported: tuple[Unreadable, ...] = ()
    unreadable: Unreadable | None = None
    warnings: tuple[str, ...] = ()
    # The digest of the file's bytes and the import's options (``import_digests``); None: not recorded.
    digest: str | None = None
    # A file recognised by its digest, not read: the games it gave when it was imported.
    known: ImportedFile.Recorded | None = None


def read_for_import(
    path: Path, fmt: str, settings: dict[str, str], key_prefix: str = "", rules: Ruleset | None = None
) -> FileRead:
    """Read one file and build each of its games as a match, encoded for the store whose
    mapper ``settings`` are given; a file with any game the rules refuse gives no match.
    ``key_prefix`` goes before the key of every game read from a log; ``rules`` are those of
    the games whose log does not state its rules (see ``verify_paths``).

    Runs in a worker process of the pool (or in this one): everything but the storing.
    """
    unsupported: list[Unreadable] = []
    warnings: list[str] = []
    # The cycle collector paused for the file, as ``verify_file`` pauses it: reading, building and
    # encoding a log make tens of thousands of containers and no cycle to speak of, and the
    # collections they started (every 700) found nothing to free.
    with no_cycle_collection():
        try:
            mapper = mapper_for(settings)
            built, from_log = _matches_in(path, fmt, unsupported, key_prefix, warnings, rules)
            matches = tuple(prepare(match, mapper, from_log=from_log, view=True) for match in built)
        except HonbaError as exc:
            problem = Unreadable(str(path), _reason(exc, path), _message(exc, path))
            return FileRead(str(path), (), tuple(unsupported), problem)
    return FileRead(str(path), matches, tuple(unsupported), None, tuple(warnings))


def jobs_default() -> int:
    """How many processes read files by default: one per core this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@contextmanager
def reading_pool(jobs: int, files: int, *, on_demand: bool = False) -> Iterator[Executor | None]:
    """Worker processes that read files for ``import_paths`` and ``verify_paths``; None (read
    here) for one job or few files.

    The workers start at once, or with ``on_demand`` at the first file given to them (an
    import reads no file that the store recognises by its digest: re-importing an archive
    starts no worker). They are forked from a fork server, a fresh interpreter, not from this
    process: they carry neither this process's command line (a ``--db`` URL with its password)
    into the process list, nor its store connections and threads; what they need (the store's
    encoding settings, never its address or password) comes with each task. Each worker
    ignores Ctrl-C (this process handles it) and ends when this process is gone, even killed
    without a chance to stop them.
    """
    if jobs < 2 or files < PARALLEL_FROM:
        yield None
        return
    pool = OnDemandPool(lambda: _start_pool(jobs, files))
    try:
        if not on_demand:
            pool.start()
        yield pool
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _start_pool(jobs: int, files: int) -> ProcessPoolExecutor:
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if "forkserver" in methods:
        # The workers start with the readers imported and the presets read (``preload``).
        context.set_forkserver_preload(["replay.service.imports.preload"])
    pool = ProcessPoolExecutor(
        max_workers=min(jobs, files), mp_context=context, initializer=_worker_start, initargs=(os.getpid(),)
    )
    try:
        pool.submit(os.getpid).result()  # start the workers now
    except BaseException:
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    return pool


P = ParamSpec("P")


class OnDemandPool(Executor):
    """A pool of reading workers started when first needed (``start``, or the first task)."""

    def __init__(self, start: Callable[[], ProcessPoolExecutor]):
        self._start = start
        self._pool: ProcessPoolExecutor | None = None

    @property
    def started(self) -> bool:
        """Whether the workers were started."""
        return self._pool is not None

    def start(self) -> ProcessPoolExecutor:
        """The workers, started now unless they run already."""
        if self._pool is None:
            self._pool = self._start()
        return self._pool

    def submit(self, fn: Callable[P, R], /, *args: P.args, **kwargs: P.kwargs) -> Future[R]:
        """Run ``fn`` in a worker, starting the workers first when none runs yet."""
        return self.start().submit(fn, *args, **kwargs)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop the workers, if they were ever started."""
        if self._pool is not None:
            self._pool.shutdown(wait=wait, cancel_futures=cancel_futures)


def _worker_start(parent: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # What the worker was forked with (the fork server's modules: its readers, the store's mapper)
    # lives as long as it does: out of the cycle collector's way, its full collections go over what
    # the worker made, not every function and class of honba (nor copy the pages they share with
    # the fork server as they mark them).
    gc.freeze()
    threading.Thread(target=_watch_parent, args=(parent,), name="honba-parent-watch", daemon=True).start()


def _watch_parent(parent: int) -> None:
    # A worker whose honba process was killed (SIGKILL) would wait forever for work: end it.
    # Its parent is the fork server (which waits for its workers to end), so the honba process
    # is watched by its id: gone, or dead and not yet reaped (a zombie). Where Linux gives a process
    # descriptor (``pidfd_open``), the thread sleeps until it reads as ended (a zombie's does), never
    # waking the worker meanwhile; elsewhere it looks five times a second.
    try:
        ended = os.pidfd_open(parent)
    except (AttributeError, OSError):  # not on Linux 5.3 or later, or the process is gone already
        pass
    else:
        select.select([ended], [], [])
        os._exit(0)
    while _alive(parent):
        time.sleep(0.2)
    os._exit(0)


def _alive(pid: int) -> bool:
    """Whether the process is running (not gone, not a zombie)."""
    if not Path("/proc/self/stat").exists():  # no /proc here: whether the id is still taken
        try:
            os.kill(pid, 0)
        except (ProcessLookupError, PermissionError):
            return False
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[0] not in ("Z", "X")


class _Storer:
    """Stores the games read, ``batch`` matches to a transaction, and keeps the counts."""

    def __init__(self, app: HonbaApp, batch: int, keep_games: bool):
        self.app = app
        self.batch = batch
        self.keep_games = keep_games
        self.files = self.stored = self.present = 0
        self.unsupported: list[Unreadable] = []
        self.unreadable: list[Unreadable] = []
        self.conflicts: list[Unreadable] = []
        self.listed: list[tuple[str, bool]] = []
        self.games: dict[str, tuple[str, ...]] = {}
        self.pending: list[tuple[str, Prepared]] = []
        self.warnings: list[str] = []
        self.duplicates: list[tuple[str, str, str]] = []
        # Files read whole, waiting for their games to be stored before they are recorded.
        self.reads: list[FileRead] = []
        self.file_games: dict[str, list[Any]] = {}
        self.unrecorded: set[str] = set()
        # The files this import recorded, by digest, each with its place in the order they were recorded
        # (``written``): those since the lookup of the oldest file in flight (``forget_before``).
        self.recorded: dict[str, tuple[int, ImportedFile.Recorded]] = {}
        self.written = 0
        self.since_checkpoint = 0
        # The store's standings view, kept current batch by batch (opened at the first batch stored;
        # None: it cannot be opened here, and the next catch-up folds what this import stores).
        self.view: DocumentView | None = None
        self.view_opened = False

    def known(self, digest: str, found: dict[str, ImportedFile.Recorded]) -> ImportedFile.Recorded | None:
        """The record of a file with this digest: looked up (``found``), or recorded since."""
        looked_up = found.get(digest)
        if looked_up is not None:
            return looked_up
        entry = self.recorded.get(digest)
        return None if entry is None else entry[1]

    def recorded_since(self, digest: str | None, mark: int) -> ImportedFile.Recorded | None:
        """The record of a file with this digest that this import wrote after ``mark`` (``written`` when
        the file was looked up), or None."""
        entry = self.recorded.get(digest) if digest is not None else None
        return entry[1] if entry is not None and entry[0] >= mark else None

    def forget_before(self, mark: int) -> None:
        """Drop the records written before ``mark``: the store held them when every file in flight was
        looked up (the lookup found them there)."""
        while self.recorded:
            digest, (place, _) = next(iter(self.recorded.items()))
            if place >= mark:
                return
            del self.recorded[digest]

    def take(self, read: FileRead) -> None:
        self.files += 1
        if read.known is not None:
            self._take_known(read.file, read.known)
            return
        self.warnings.extend(read.warnings)
        self.unsupported.extend(read.unsupported)
        if read.unreadable is not None:
            self.unreadable.append(read.unreadable)
        recorded = read.digest is not None and read.unreadable is None
        if recorded:
            self.file_games.setdefault(read.file, [])
        for prepared in read.matches:
            self.pending.append((read.file, prepared))
            if len(self.pending) >= self.batch:
                self.flush()
        if recorded:
            # Recorded at the next flush, once every game of the file is in the store.
            self.reads.append(read)
            if not self.pending:
                self.flush()

    def _take_known(self, file: str, known: ImportedFile.Recorded) -> None:
        """A file whose bytes were imported before: its games are present, as they were stored."""
        name = Path(file)
        for reason in known.unsupported:
            self.unsupported.append(Unreadable(file, reason, f"{name}: unsupported: {reason}"))
        self.warnings.extend(f"{name}: {line}" for line in known.warnings)
        for key, players, read_as in known.games:
            if read_as != key:
                # The same game as one another file gave: said again, as the first import said it.
                self.duplicates.append((file, read_as, key))
            self.present += 1
            if len(self.listed) <= LISTED:
                self.listed.append((key, False))
            if self.keep_games:
                self.games.setdefault(key, tuple(players))

    def flush(self) -> None:
        if self.pending and not self.view_opened:
            self.view, self.view_opened = kept_view(self.app), True
        batch = [prepared for _, prepared in self.pending]
        # The collector paused as for a file read (``read_for_import``): a batch's rows, documents and
        # statements are containers by the ten thousand and no cycle.
        with no_cycle_collection():
            outcomes = store_prepared(self.app, batch, self.view) if self.pending else []
        for (file, prepared), outcome in zip(self.pending, outcomes, strict=True):
            if isinstance(outcome, MatchExists):
                path = Path(file)
                self.conflicts.append(Unreadable(file, _reason(outcome, path), _message(outcome, path)))
                self.unrecorded.add(file)
                continue
            key = prepared.key
            if isinstance(outcome, AlreadyStoredAs):
                # The same game from another file: counted once, as the match it is stored as.
                self.duplicates.append((file, prepared.key, outcome.key))
                key, outcome = outcome.key, False
            if outcome:
                self.stored += 1
                self.since_checkpoint += 1
            else:
                self.present += 1
            if len(self.listed) <= LISTED:
                self.listed.append((key, outcome))
            if self.keep_games:
                self.games.setdefault(key, prepared.players)
            if file in self.file_games:
                self.file_games[file].append([key, list(prepared.players), prepared.key])
        self.pending.clear()
        self._record_files()
        written_all()  # every event made here is stored: their texts are not written again
        if self.since_checkpoint >= CHECKPOINT_EVERY:
            # Skipped when another process holds the checkpoint lock: its next checkpoint covers these.
            self.app.checkpoint()
            self.since_checkpoint = 0

    def _record_files(self) -> None:
        """Record the files taken whole whose games are all stored now (a file in conflict with
        the store is not recorded: the next import reads it again and names the conflict)."""
        records = []
        for read in self.reads:
            games = self.file_games.pop(read.file, [])
            if read.file in self.unrecorded or read.digest is None:
                self.unrecorded.discard(read.file)
                continue
            prefix = f"{read.file}: "
            records.append(
                ImportedFile.recorded(
                    read.digest,
                    games,
                    [u.reason for u in read.unsupported],
                    [w[len(prefix) :] if w.startswith(prefix) else w for w in read.warnings],
                )
            )
        self.reads.clear()
        record_imported(self.app, records)
        for record in records:
            # Moved to the end if there (kept in the order written, for ``forget_before``).
            self.recorded.pop(record.digest, None)
            self.recorded[record.digest] = (self.written, record)
            self.written += 1

    def run(self) -> ImportRun:
        return ImportRun(
            self.files,
            self.stored,
            self.present,
            tuple(self.unsupported),
            tuple(self.unreadable),
            tuple(self.conflicts),
            tuple(self.listed),
            tuple(self.games.items()),
            tuple(self.warnings),
            tuple(self.duplicates),
        )


def import_paths(
    app: HonbaApp,
    paths: list[Path],
    fmt: str = "auto",
    tick: Tick | None = None,
    *,
    pool: Executor | None = None,
    batch: int = BATCH,
    keep_games: bool = False,
    key_prefix: str = "",
    rules: Ruleset | None = None,
    share: Share | None = None,
) -> ImportRun:
    """Store every game of every file (record files or logs), each game whole or not at all;
    with a ``share``, of the files in that share only (``honba import --share K/N``).

    Files are read in the ``pool``'s worker processes when there is one (``reading_pool``),
    a few ahead of the one being stored, and in this process otherwise; either way the games
    are stored here in the order read, ``batch`` matches to a transaction. Killed at any
    moment, the store holds whole matches only; run again, it stores the rest.
    """
    with _heap_frozen():
        return _import_all(app, paths, fmt, tick, pool, batch, keep_games, key_prefix, rules, share)


@contextmanager
def _heap_frozen() -> Iterator[None]:
    """What this process holds before an import (its modules, the store, a server's matches) out of
    the cycle collector's way while the import runs (``gc.freeze``), given back to it after: the
    import's full collections go over what the import made, not over everything honba loaded (with
    ``--jobs 1``, a full collection took 0.03 s of CPU each)."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _import_all(
    app: HonbaApp,
    paths: list[Path],
    fmt: str,
    tick: Tick | None,
    pool: Executor | None,
    batch: int,
    keep_games: bool,
    key_prefix: str,
    rules: Ruleset | None,
    share: Share | None,
) -> ImportRun:
    storer = _Storer(app, batch, keep_games)
    settings = app.mapper_settings()
    files = import_files(paths, fmt, share)

    # Each file in flight with ``storer.written`` when it was looked up (its mark).
    ahead: deque[tuple[FileRead | tuple[_Task, int], int]] = deque()

    def take_next() -> None:
        item, mark = ahead.popleft()
        read = _done(item)
        if read.known is None:
            # Known if this import recorded its bytes between its lookup and now (a copy of a file
            # stored since): as a file looked up just before it is stored, the import stores the
            # same whatever the number of files in flight (``--jobs``, ``READ_CHUNK``).
            known = storer.recorded_since(read.digest, mark)
            if known is not None:
                read = FileRead(read.file, digest=read.digest, known=known)
        storer.take(read)
        if tick is not None:
            tick(read.file)

    options = _import_options(fmt, key_prefix, rules)

    limit = READ_AHEAD * jobs_default() if pool is not None else 1
    files = iter(files)
    while group := list(itertools.islice(files, LOOKUP)):
        # The digests of the next files looked up at once: one statement, not two per file. What
        # this import records from now on is seen as well (``_Storer.recorded``), here and when each
        # file is stored (``take_next``): each file is known or not as the store stands when it is
        # stored, as when each was looked up alone just before.
        digests = [import_digests(path, options) for path in group]
        found = imported_files(app, [d for file_digests in digests for d in file_digests])
        storer.forget_before(ahead[0][1] if ahead else storer.written)
        task: _Task | None = None
        for path, file_digests in zip(group, digests, strict=True):
            digest = file_digests[0] if file_digests else None
            # Recognised by its content before it is parsed (under any name), or by its content and
            # name as honba recorded files before (an archive imported before this one recognised).
            known = next(filter(None, (storer.known(d, found) for d in file_digests)), None)
            if known is not None:
                ahead.append((FileRead(str(path), digest=digest, known=known), storer.written))
            elif pool is None:
                read = attrs.evolve(read_for_import(path, fmt, settings, key_prefix, rules), digest=digest)
                ahead.append((read, storer.written))
            else:
                if task is None or task.sent:
                    task = _Task(pool, (fmt, settings, key_prefix, rules))
                ahead.append(((task, task.add(digest, path)), storer.written))
                if len(task.files) == READ_CHUNK:
                    task.send()
            if len(ahead) >= limit:
                take_next()
        if task is not None:
            task.send()  # the group's last files: read while the group before them is stored
    while ahead:
        take_next()
    try:
        storer.flush()
    finally:
        if storer.view is not None:
            close_view(storer.view)
    return storer.run()


def _import_options(fmt: str, key_prefix: str, rules: Ruleset | None) -> str:
    """What besides its bytes decides what a file imports as."""
    given = digest_of(plain(rules.to_dict())) if rules is not None else None
    return digest_of({"format": fmt, "key_prefix": key_prefix, "rules": given})


def import_digests(path: Path, options: str) -> tuple[str, ...]:
    """The digests a file imported before is recorded under: of its bytes (as stored on disk) and
    the import's options, and (as honba recorded files before) of its bytes, name and options;
    none when the file cannot be read (the reader then says why).

    The content alone recognises a copy under another name: its games are the same games,
    which the store holds once (``replay.store.identity``) under the keys they were stored as,
    whatever the name gives the copy's games (a log without an id in it: mjai, an editor
    excerpt). A file is recorded under the first.
    """
    try:
        data = read_capped(path)
    except (OSError, FileTooLarge):
        return ()
    content = hashlib.sha256(data)
    named = content.copy()
    content.update(f"\0{options}".encode())
    named.update(f"\0{path.name}\0{options}".encode("utf-8", "surrogateescape"))
    return content.hexdigest(), named.hexdigest()


def _read_recorded(
    digest: str | None, path: Path, fmt: str, settings: dict[str, str], key_prefix: str, rules: Ruleset | None
) -> FileRead:
    return attrs.evolve(read_for_import(path, fmt, settings, key_prefix, rules), digest=digest)


class _Task:
    """Files a reading worker reads as one task (``_read_files``), in the order given: sent when it
    holds ``READ_CHUNK`` files, at the end of a group of files looked up together, or when one of its
    files is wanted first."""

    def __init__(self, pool: Executor, options: tuple[str, dict[str, str], str, Ruleset | None]):
        self.pool = pool
        self.options = options
        self.files: list[tuple[str | None, Path]] = []
        self.future: Future[list[FileRead]] | None = None

    @property
    def sent(self) -> bool:
        """Whether it went to a worker (no file can be added then)."""
        return self.future is not None

    def add(self, digest: str | None, path: Path) -> int:
        """A file more (its digest and path); its place in the task's results."""
        self.files.append((digest, path))
        return len(self.files) - 1

    def send(self) -> None:
        """To a worker, unless it went already."""
        if self.future is None:
            self.future = self.pool.submit(_read_files, self.files, *self.options)

    def result(self, index: int) -> FileRead:
        """What the worker read of the file at that place (the task sent first where it was not)."""
        self.send()
        assert self.future is not None
        return self.future.result()[index]


def _read_files(
    files: list[tuple[str | None, Path]], fmt: str, settings: dict[str, str], key_prefix: str, rules: Ruleset | None
) -> list[FileRead]:
    """``_read_recorded`` of each file of a task in turn (in a reading worker)."""
    return [_read_recorded(digest, path, fmt, settings, key_prefix, rules) for digest, path in files]


def _done(item: FileRead | tuple[_Task, int]) -> FileRead:
    return item if isinstance(item, FileRead) else item[0].result(item[1])


def _matches_in(
    path: Path,
    fmt: str,
    unsupported: list[Unreadable],
    key_prefix: str = "",
    warnings: list[str] | None = None,
    rules: Ruleset | None = None,
) -> tuple[list[Any], bool]:
    """All matches of a file, built in memory first so that a bad file stores nothing, and
    whether they were read from a log (not a record file). Each game read from a log is
    also verified: what ``honba verify`` would flag in it goes to ``warnings``."""
    name = str(path)
    # The file is read once: the record check and the log reader both take these bytes.
    data = read_source(path)
    if fmt == "record" or (fmt == "auto" and detect_format(utf8_text(data)) == "record"):
        try:
            text = decoded_text(data)
        except UnicodeDecodeError as exc:
            raise LogError(name, f"not UTF-8 text (byte {exc.start})") from None
        return [build_match(parse_record(text, name=name), name=name)], False
    matches = []
    content: str | None = None
    for game in read_games(data, file=name, fmt=fmt, tiles=True):
        if not game.id_in_log:
            # The key comes from the log's own identity: a file without an id is known by its
            # content (two different chankan.json in two folders are two games).
            content = content or hashlib.sha256(data).hexdigest()[:CONTENT_KEY_DIGITS]
            game = attrs.evolve(game, game_id=f"{game.game_id}-{content}")
        if key_prefix:
            game = attrs.evolve(game, game_id=f"{key_prefix}{game.game_id}")
        game = ruled(game, rules)
        if game.unsupported:
            reason = f"{game.game_id}: {game.unsupported}"
            unsupported.append(Unreadable(name, reason, f"{name}: unsupported: {reason}"))
            continue
        try:
            match = match_from_log(game)
        except LogError:
            raise
        except HonbaError as exc:
            raise LogError(name, f"game {game.game_id}: {exc}") from None
        matches.append(match)
        if warnings is not None:
            # The steps the match scored serve the comparison: each hand is scored once.
            warnings.extend(_warnings(name, game, match.corrected_steps()))
    seen: set[str] = set()
    for match in matches:
        if match.key in seen:
            raise LogError(name, f"two games with the same id {match.key!r}: none of the file is stored")
        seen.add(match.key)
    return matches, True


def _warnings(name: str, game: LoggedGame, played: Sequence[CorrectedStep] = ()) -> list[str]:
    """What ``honba verify`` would flag in a game being imported, one line each."""
    report = verify_game(game, played)
    lines = [
        _one_line(f"{name}: game {d.game}, {d.hand}: {d.field}: the log has {d.log}, honba {d.honba}")
        for d in report.disagreements
    ]
    if not game.rules_stated:
        lines.extend(_one_line(f"{name}: game {game.game_id}: {note}") for note in game.notes)
    return lines


def _message(exc: HonbaError, path: Path) -> str:
    """The error message on one line, naming the file when the error itself does not (a store conflict)."""
    text = _one_line(str(exc))
    return text if text.startswith(str(path)) else f"{path}: {text}"


def _one_line(text: str) -> str:
    # A game id or name read from a file may hold a line break: the report keeps one line per file.
    return text.replace("\r", "\\r").replace("\n", "\\n")


def _reason(exc: HonbaError, path: Path) -> str:
    """The error message without the file name the report already shows."""
    text = _one_line(str(exc))
    for prefix in (f"{path}: ", f"{path}, ", f"{path}:"):
        if text.startswith(prefix):
            return text[len(prefix) :]
    return text
