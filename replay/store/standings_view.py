"""The stored standings view beside the event store, kept up to date from the event log.

The view (``projections.standings_view``) lives beside the event store: for SQLite
in a file of its own next to the store's (``honba.sqlite`` -> ``honba.views.sqlite``),
for PostgreSQL in tables of its own in the same database, in memory for an
in-memory store. ``catch_up`` reads the notification log from the view's last
tracked position and folds what is new, in batches, each written with its
tracking record in one transaction: interrupted at any moment, the next catch-up
resumes without counting anything twice. ``follow`` follows new events live: on
PostgreSQL with the library's ``ProjectionRunner``, on SQLite by polling the log.
"""

from __future__ import annotations

import sqlite3
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Sequence
from contextlib import closing
from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.persistence import InfrastructureFactory, Tracking
from eventsourcing.popo import POPOFactory
from eventsourcing.sqlite import SQLiteFactory

from domain.errors import HonbaError
from domain.match import Match
from domain.said import Said
from domain.store_errors import StoreError
from domain.tournament import Tournament
from projections.standings_view import (
    FORMAT,
    ReadEvent,
    StandingsProjection,
    UnreadableRow,
    ViewTooNew,
    read_doc,
    stamped,
)
from projections.views import TABLE, DocKey, DocumentView, Encoded, POPODocumentView, ViewMoved
from replay.input.json_text import no_cycle_collection
from replay.store.application import HonbaApp
from replay.store.fold_rows import FoldReader, select_rows
from replay.store.retry import OPEN_TRIES, retrying
from replay.store.settings import CREATE_RACES, sqlite_path
from replay.store.sqlite_store import lock_refused
from replay.store.views import SQLiteDocumentView

# Events folded and written to a transaction by a catch-up.
BATCH = 5000
# How long a writer of the SQLite view waits for another's lock, in seconds (SQLite's busy timeout):
# every write of the view is short, so a wait this long means it is held by something that does not
# let go (a process stopped, a backup); an import then leaves the view to the catch-up (``keep``).
VIEW_LOCK_TIMEOUT = 60
# The topics of the events the view folds (``StandingsProjection`` reads nothing else).
FOLDED_TOPICS = (f"{Match.__module__}:", f"{Tournament.__module__}:")
# A match's rows: one that cannot be read leaves its match out of the view, named.
MATCH_TOPICS = (f"{Match.__module__}:{Match.__qualname__}.",)
TOURNAMENT_CREATED = f"{Tournament.__module__}:{Tournament.Created.__qualname__}"


def views_path(db_path: str) -> str:
    """Where the SQLite view file lives, beside the event store's file."""
    path = Path(db_path)
    return str(path.with_name(path.stem + ".views" + (path.suffix or ".sqlite")))


def open_view(app: HonbaApp, notice: Callable[[str], None] | None = None) -> DocumentView:
    """The standings view for this store, created if new.

    A view whose tracking rows no longer open (the library's migration marker, ``__migration__``,
    changed behind honba's back) is derived data: its tables are dropped and made anew, saying so in
    one line to ``notice`` (stderr), and the catch-up that follows rebuilds it from the event log.
    """
    try:
        return _opened(app)
    except StoreError:
        raise
    except Exception as exc:  # the libraries raise several kinds; all mean the view cannot be opened
        if not _tracking_damaged(exc):
            raise StoreError(Said("cannot open the standings view: {why}", why=str(exc))) from None
        why = " ".join(str(exc).split())[:200]
    _discard_view(app)
    (notice or stderr_notice)(
        f"the standings view cannot be opened ({why}: its tracking rows were changed behind honba's back): "
        "rebuilding it from the event log"
    )
    try:
        return _opened(app)
    except StoreError:
        raise
    except Exception as exc:
        raise StoreError(Said("cannot open the standings view: {why}", why=str(exc))) from None


def _opened(app: HonbaApp) -> DocumentView:
    # Processes opening a new view at once race to create its tables: try again.
    return retrying(
        lambda _attempt: _open_view(app),
        conflict=Exception,
        again=lambda exc: any(race in str(exc) for race in VIEW_CREATE_RACES) and not _tracking_damaged(exc),
        tries=OPEN_TRIES,
    )


def _tracking_damaged(exc: BaseException) -> bool:
    """Whether opening the view failed on its tracking rows as stored (not on a race to create them):
    the library's migration marker set to 0 (or removed) makes it migrate a table already migrated,
    renaming it aside (``old1_tracking``) and recording the marker again, which fails on the marker's
    own row or on a table renamed aside before."""
    text = str(exc)
    marker = "tracking for __migration__" in text and not text.rstrip().endswith("__migration__ 1")
    return marker or "old1_tracking" in text or "multi-row tracking" in text


def _discard_view(app: HonbaApp) -> None:
    """Drop the view's tables, so that opening it makes them anew."""
    if isinstance(app.factory, SQLiteFactory):
        with closing(sqlite3.connect(views_path(_sqlite_db(app)), timeout=60)) as connection, connection:
            for table in ("tracking", "old1_tracking", TABLE):
                connection.execute(f"DROP TABLE IF EXISTS {table}")
        return
    from eventsourcing.postgres import PostgresFactory

    from replay.store.postgres_views import discard_view

    if isinstance(app.factory, PostgresFactory):
        discard_view(app.factory.datastore)


def _sqlite_db(app: HonbaApp) -> str:
    """The event store's SQLite file."""
    env = dict(app.env)
    return sqlite_path(str(env.get("SQLITE_DBNAME") or env.get(f"{app.name.upper()}_SQLITE_DBNAME") or ""))


def _open_view(app: HonbaApp) -> DocumentView:
    factory = app.factory
    if isinstance(factory, POPOFactory):
        view = getattr(app, "_honba_memory_view", None)
        if view is None:
            view = POPODocumentView()
            app._honba_memory_view = view  # type: ignore[attr-defined]
        return view
    if isinstance(factory, SQLiteFactory):
        # Writers of the view queue for its write lock (every write is short); wait for them.
        env = {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": views_path(_sqlite_db(app)),
            "SQLITE_LOCK_TIMEOUT": str(VIEW_LOCK_TIMEOUT),
        }
        sqlite_factory = InfrastructureFactory.construct(env=env)
        assert isinstance(sqlite_factory, SQLiteFactory)
        sqlite_view = sqlite_factory.tracking_recorder(SQLiteDocumentView)
        assert isinstance(sqlite_view, SQLiteDocumentView)
        return sqlite_view
    # PostgreSQL's modules (psycopg) are loaded only when PostgreSQL is the store.
    from eventsourcing.postgres import PostgresFactory

    from replay.store.postgres_views import PostgresDocumentView

    if isinstance(factory, PostgresFactory):
        return factory.tracking_recorder(PostgresDocumentView)
    raise StoreError(Said("no standings view for the store {kind}", kind=type(factory).__name__))


# Processes creating the view's tables at once race to create them (and to record the library's
# migration marker); the tables then exist, and opening again succeeds. On SQLite, opening reads the
# marker and then writes in one transaction: a write committed between the two by another process
# (since the import keeps the view, one at every batch) makes SQLite refuse at once, without waiting
# for the lock ("database is locked"); opened again, it reads the view as it stands now.
VIEW_CREATE_RACES = (
    *CREATE_RACES,
    "Failed to record tracking for __migration__",
    "duplicate key value",
    "database is locked",
)


def stderr_notice(message: str) -> None:
    """One line on stderr: what a front end shows of work it did not ask for (a view rebuilt)."""
    print(f"honba: {message}", file=sys.stderr, flush=True)


def ensure_format(app: HonbaApp, view: DocumentView, notice: Callable[[str], None] = stderr_notice) -> None:
    """Empty a view whose documents cannot be what its tracked position says, saying so in one
    line: the catch-up that follows rebuilds it from the event log (a view is derived data). That
    is a view an older honba laid out otherwise, one whose tracked position was changed behind
    honba's back (set back, or to nothing, while its documents stand further on: folding again on
    top of them would count events twice), and one whose marker cannot be read. A view laid out
    by a newer honba is refused instead (this one would read it wrong, and rebuilding it would
    undo the newer one's work)."""
    while True:
        position = view.max_tracking_id(app.name) or 0
        try:
            found = view.get_doc("view", "format")
            marker = None if found is None else read_doc("view", found)
        except ViewTooNew:
            raise
        except Exception:  # the marker was changed behind honba's back: whatever it says is not believed
            marker = {"version": "unreadable"}
        if marker is None and not position:
            return  # a new view
        version = None if marker is None else marker.get("version")
        at = None if marker is None else marker.get("position")
        if version == FORMAT and at == position:
            return
        if isinstance(version, int) and version > FORMAT:
            raise StoreError(
                Said(
                    "the standings view was laid out by a newer honba (layout {version}, this honba reads {reads}): "
                    "use that honba, or delete the view to rebuild it",
                    version=version,
                    reads=FORMAT,
                )
            )
        try:
            view.reset(app.name, expected=position)
        except ViewMoved:
            continue  # another writer moved the view meanwhile: look at it again
        if version == FORMAT:
            why = f"its tracked position ({position}) is not where its documents stand ({at})"
            why += ": changed behind honba's back"
        elif version == "unreadable":
            why = "its layout marker cannot be read: changed behind honba's back"
        else:
            why = f"it was laid out by an older honba (layout {version or 'unmarked'}, now {FORMAT})"
        notice(f"the standings view cannot be used as it is ({why}): rebuilding it from the event log")
        return


def rebuild(app: HonbaApp, view: DocumentView, notice: Callable[[str], None] = stderr_notice, why: str = "") -> int:
    """Empty the view and fold the whole log into it again (``why`` it is, in one line); how many
    events were folded. For a view whose documents cannot be read (changed behind honba's back)."""
    while True:
        try:
            view.reset(app.name, expected=view.max_tracking_id(app.name) or 0)
        except ViewMoved:
            continue
        break
    notice(f"the standings view cannot be read ({why}): rebuilding it from the event log")
    return catch_up(app, view, notice=notice)


def catch_up(
    app: HonbaApp,
    view: DocumentView,
    *,
    batch: int = BATCH,
    tick: Callable[[int], None] | None = None,
    notice: Callable[[str], None] = stderr_notice,
    stop: int | None = None,
) -> int:
    """Fold every event the view has not seen yet (up to the position ``stop``, when given); returns
    how many were folded.

    A view an older honba laid out is first emptied and rebuilt, with one line to ``notice``.
    """
    ensure_format(app, view, notice)
    projection = StandingsProjection(view=view)
    # The summaries read or computed are kept from batch to batch (a tournament's standings
    # are computed again after each) while every write of this catch-up finds the view where
    # the previous one left it; once another writer has moved it, they are read afresh.
    projection.summaries = {}
    # A match whose events the log gives out of the order of their positions is read whole.
    projection.reread = lambda stream: [_decoded(app, row) for row in app.recorder.select_events(stream)]
    position = view.max_tracking_id(app.name) or 0
    folded = 0
    reader = FoldReader(app.mapper)
    while True:
        try:
            # A batch makes hundreds of thousands of small objects and no cycle: the collector's
            # passes over them found nothing, a sixth of a rebuild (docs/performance.md).
            with no_cycle_collection():
                done = _fold_batch(app, reader, projection, position, batch, stop)
        except ViewMoved:
            # Another catch-up or a follower wrote the view since this batch began: what it read
            # may be stale, so nothing of it was written. Go on from where the view stands now.
            projection.summaries = {}
            position = view.max_tracking_id(app.name) or 0
            continue
        if done is None:
            return folded
        position, count = done
        folded += count
        if tick is not None:
            tick(folded)


def _fold_batch(
    app: HonbaApp, reader: FoldReader, projection: StandingsProjection, position: int, batch: int, stop: int | None
) -> tuple[int, int] | None:
    """Fold the next batch of the log after ``position`` into the view: the position it is written at
    and how many rows it held; None when there are none.

    Run with the collector paused (``no_cycle_collection``), rows read too: they are thousands of
    objects. Everything the batch made is let go as this returns, before the collector is back, so
    that it does not come back to find them all still counted (a pass over every object of the batch,
    a tenth of a rebuild's CPU when the batch was let go after it: docs/performance.md)."""
    if stop is not None and position >= stop:
        return None
    # Only the matches' and tournaments' events change the view: the seals and the
    # store chain (a third of the log) are not decoded at all.
    found = select_rows(app.recorder, position, batch, stop, FOLDED_TOPICS)
    if found is None:
        return None
    last, count, rows = found
    events, read = _read_batch(app, reader, rows)
    projection.process_batch(events, Tracking(app.name, last), expected=position, read=read)
    return last, count


def kept_view(app: HonbaApp) -> DocumentView | None:
    """The standings view an import keeps current (``keep``), or None when it cannot be opened as it
    is: an import never mends nor rebuilds it (the next catch-up does, saying so), and stores all
    the same."""
    try:
        return _opened(app)
    except Exception:  # whatever keeps it from opening, the catch-up meets again and says
        return None


def close_view(view: DocumentView) -> None:
    """Let go of a view's connections where they are its own (SQLite's file beside the store's; on
    PostgreSQL and in memory the view shares the store's)."""
    if isinstance(view, SQLiteDocumentView):
        view.datastore.close()


# Rows between the view's position and a batch kept by an import that the check reads at most: a view
# further behind than that is left to the catch-up (the rows of a batch's own files and checkpoint
# lie between two batches of one import, a few hundred at most).
GAP = 2000


# The views an import left to the catch-up when a write of it could not get its lock (``keep``):
# not tried again by that import (each try would wait the lock's timeout again), said once.
_LEFT: weakref.WeakSet[DocumentView] = weakref.WeakSet()


def keep(
    app: HonbaApp,
    view: DocumentView,
    positions: Sequence[int],
    documents: Iterable[Encoded],
    *,
    notice: Callable[[str], None] = stderr_notice,
) -> bool:
    """``kept``, unless a write of the view cannot get its lock: the view is derived data, so the
    import goes on without it, saying so once (``notice``: one line on stderr), and leaves it to the
    next catch-up (``honba standings``, ``honba serve``: they fold what it lacks) for the rest of
    that import (the view it opened: ``kept_view``); False then. SQLite's view waits for its lock
    ``VIEW_LOCK_TIMEOUT`` seconds, then refuses; a write refused so wrote nothing (each of a
    catch-up's batches and the documents with their position are one transaction each)."""
    if view in _LEFT:
        return False
    try:
        return kept(app, view, positions, documents)
    except Exception as exc:
        if not lock_refused(exc):
            raise
    _LEFT.add(view)
    notice(
        f"the standings view is locked by another process (waited {VIEW_LOCK_TIMEOUT} s): this import goes on "
        "without it, and the next honba standings (or honba serve) folds what it stores"
    )
    return False


def kept(
    app: HonbaApp, view: DocumentView, positions: Sequence[int], documents: Iterable[Encoded], *, fold_gap: bool = True
) -> bool:
    """Write the documents of matches an import just stored (``projections.standings_view.
    match_documents``, one mapping a match) into the view, with the position of the batch's last
    row, so that the first standings after an import fold nothing of them; True when written.

    Written only where a catch-up would write the very same documents: when ``positions`` (the
    notification ids of the batch's rows, one insert's) follow each other; the view's tracked
    position and its layout marker agree (``view/format``, this honba's layout) and stand before
    the batch; the rows between them and the batch's first are none the view folds, or a few
    (``GAP``) that a catch-up up to the batch folds first (a table recorded meanwhile, an excerpt
    of a game completed, a match stored by another process: ``fold_gap``); and the view holds
    nothing yet of these matches (a tournament's attachment of a key before its match was stored,
    say). Else nothing is written and the next catch-up folds the batch with the rest, in order.
    The write is a compare-and-set on the view's position (``DocumentView.put_docs``): a catch-up
    or another import that moved the view meanwhile wins, and this batch is left to the catch-up.
    A process killed before this write leaves the view before the batch: the catch-up folds it.
    """
    if not positions:
        return False
    first, last = min(positions), max(positions)
    if last - first + 1 != len(positions):
        return False
    position = view.max_tracking_id(app.name) or 0
    if position >= first:
        return False
    marker = view.get_doc("view", "format")
    if marker is None:
        if position:
            return False  # a marker removed behind honba's back: the catch-up rebuilds the view
    elif marker.get("version") != FORMAT or marker.get("position") != position:
        return False  # another layout, or a position changed behind honba's back: the catch-up's to mend
    if first - 1 > position:
        # The rows between, as the catch-up selects them (``select_rows``): how many, and those it folds,
        # the others (the files' records of the batch before, seals) not made into events or ids.
        between = select_rows(app.recorder, position, GAP, first - 1, FOLDED_TOPICS)
        if between is not None and between[1] >= GAP:
            return False
        if between is not None and between[2]:
            if not fold_gap:
                return False
            try:
                catch_up(app, view, stop=first - 1)
            except HonbaError:  # a damaged row or document: the catch-up after the import meets it again, and says
                return False
            return kept(app, view, positions, documents, fold_gap=False)
    changes: dict[DocKey, dict[str, Any] | str | None] = {}
    for one in documents:
        changes.update(one)
    # What the fold of a new match reads of the view besides its own documents: all must be absent.
    wanted: set[DocKey] = set()
    for kind, key in changes:
        if kind == "match":
            wanted |= {("match", key), ("unreadable", key)}
        elif kind == "summary":
            wanted |= {(other, key) for other in ("summary", "stats", "attached", "damaged")}
    if any(data is not None for data in view.get_docs(sorted(wanted)).values()):
        return False
    changes[("view", "format")] = stamped("view", {"version": FORMAT, "position": last})
    try:
        view.put_docs(changes, Tracking(app.name, last), expected=position)
    except ViewMoved:
        return False
    return True


def _read_batch(app: HonbaApp, reader: FoldReader, notifications: Sequence[Any]) -> tuple[list[Any], list[ReadEvent]]:
    """The events of a batch's rows the view folds (``select_rows``), each read as a plain read would
    (``FoldReader``), with its digest; a row that reader does not take is read through the mapper
    (``_decoded``), which names what is wrong with it."""
    events: list[Any] = []
    read: list[ReadEvent] = []
    for notification in notifications:
        found = reader.read(notification)
        if found is None:
            events.append(_decoded(app, notification))
        else:
            events.append(found.event)
            read.append(found)
    return events, read


def _decoded(app: HonbaApp, notification: Any) -> Any:
    """A stored event; a match's row that cannot be read as the view's ``UnreadableRow`` (the view
    leaves that match out and names it); any other row that cannot be read, the one line that says
    the store is damaged where it is."""
    try:
        return app.mapper.to_domain_event(notification)
    except Exception as exc:  # a row changed behind honba's back, whatever broke in decoding
        why = " ".join(str(exc).split())[:200] or type(exc).__name__
        if isinstance(notification.originator_id, UUID) and not _of_a_tournament(app, notification):
            return UnreadableRow(notification.originator_id, notification.originator_version, why)
        raise StoreError(
            Said(
                "the store is damaged: the event at position {position} of {aggregate} cannot be read ({why}); "
                "see honba check",
                position=notification.originator_version,
                aggregate=str(notification.originator_id),
                why=why,
            )
        ) from None


def _of_a_tournament(app: HonbaApp, notification: Any) -> bool:
    """Whether a row that cannot be read is a tournament's (its stream starts as a tournament does),
    which the view cannot leave out as it leaves out a match (every standings of it would be wrong)."""
    if str(notification.topic).startswith(MATCH_TOPICS):
        return False
    first = app.recorder.select_events(notification.originator_id, limit=1)
    return bool(first) and str(first[0].topic) == TOURNAMENT_CREATED


# How often a follower on SQLite looks at the notification log for new events, in seconds.
POLL = 0.5


def follow(
    app_env: dict[str, Any],
    *,
    stop_after: float | None = None,
    stop: threading.Event | None = None,
    poll: float = POLL,
) -> None:
    """Follow new events live into the standings view, until stopped.

    On PostgreSQL the library's ``ProjectionRunner`` is told of new events as they are
    stored; on SQLite (and in memory) the follower polls the notification log every
    ``poll`` seconds and catches up. Runs until ``stop_after`` seconds have passed, ``stop``
    is set, or the projection fails (its error is raised here). It starts from the view's
    last tracked position and writes like every catch-up (a compare-and-set on that
    position), so any number of followers and catch-ups share the view: each event counts once.
    """
    deadline = None if stop_after is None else time.monotonic() + stop_after

    def stopped() -> bool:
        return (stop is not None and stop.is_set()) or (deadline is not None and time.monotonic() >= deadline)

    if app_env.get("PERSISTENCE_MODULE") != "eventsourcing.postgres":
        app = HonbaApp(env=app_env)
        try:
            view = open_view(app)
            while True:
                catch_up(app, view)
                if stopped():
                    return
                left = poll if deadline is None else min(poll, max(0.0, deadline - time.monotonic()))
                if stop is not None:
                    stop.wait(left)
                else:
                    time.sleep(left)
        finally:
            app.close()

    from eventsourcing.projection import ProjectionRunner

    from replay.store.postgres_views import PostgresDocumentView

    app = HonbaApp(env=app_env)
    try:
        # A view an older honba laid out is emptied here; the runner then folds the log from its start.
        ensure_format(app, open_view(app))
    finally:
        app.close()

    with ProjectionRunner(
        application_class=HonbaApp,
        projection_class=StandingsProjection,
        view_class=PostgresDocumentView,
        env=app_env,
    ) as runner:
        while not runner.is_interrupted.is_set() and not stopped():
            remaining = None if deadline is None else deadline - time.monotonic()
            # Wake now and then to look at ``stop``; an error of the projection is raised here.
            runner.run_forever(timeout=0.2 if remaining is None or stop is not None else max(remaining, 0.0))
