"""The event store honba opens: the eventsourcing application, its settings, and reading and writing matches.

What lives here is the store and nothing else: which database (``replay.store.settings``), how
domain values are encoded (``replay.store.transcoding``), a match read (``get_match``, and
``load`` for a command: the match and its seal read once and checked on the rows read; read
again by the same process, only the rows saved since, ``replay.store.checked``), a
match saved with its seal in one transaction (``save_match``: no row shared with other saves),
the bulk insert of an import, and the checkpoints taken after saves (``checkpoint``,
``replay.store.checkpoint``). Tournaments (``replay.store.tournaments``) and the records of
imported files (``replay.store.imported``) are read and written beside it, in modules of their
own: a recording command loads neither.
The use cases on top (recording, correcting, importing, ...) are ``replay.service``'s.

Saves are optimistic: a save of a match that another process changed since it was loaded
raises ``StoreConflict``; ``replay.service.recording.recording`` decides whether to try again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any, TypeVar
from uuid import UUID

import attrs
from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent, project_aggregate
from eventsourcing.domain import BaseAggregate
from eventsourcing.persistence import (
    InfrastructureFactory,
    IntegrityError,
    JSONTranscoder,
    Mapper,
    Notification,
    PersistenceError,
    Recording,
    StoredEvent,
)
from eventsourcing.utils import Environment, get_topic

from domain.codec import VALUE_CLASSES
from domain.errors import DamagedFact
from domain.match import Match, match_id
from domain.said import Listed, Said
from domain.store_errors import (
    DamagedMatch,
    FinalConflict,
    MatchNotFound,
    StoreConflict,
    StoreError,
    StoreUnavailable,
)
from replay.store.checked import Checked, CheckedMatches, Written, WrittenRow, after, detached, wanted_tails
from replay.store.checkpoint import Taken, store_head, take_checkpoint, thread_lock
from replay.store.errors import UNAVAILABLE, NotAsChecked
from replay.store.findings import MatchCheck
from replay.store.integrity import check_rows, match_damage, read_rows
from replay.store.mapper import HonbaMapper
from replay.store.retry import OPEN_TRIES, retrying
from replay.store.rows import Row, event_of, unreadable
from replay.store.seal import Seal, seal_id
from replay.store.settings import (
    APP_NAME,
    CREATE_RACES,
    POSTGRES,
    POSTGRES_RECORDER,
    SQLITE,
    SQLITE_RECORDER,
    check_postgres,
    persistence_env,
    read_only_env,
    sqlite_path,
    sqlite_uri,
    store_name,
)
from replay.store.transcoding import ValueTranscoding

# What decides how events are encoded: the same settings give the same stored bytes.
_MAPPER_SETTINGS = ("MAPPER_TOPIC", "TRANSCODER_TOPIC", "CIPHER_TOPIC", "CIPHER_KEY", "COMPRESSOR_TOPIC")


def _unreadable(key: str, why: object) -> Said:
    """A match that cannot be read, and why (words, or what the library raised: data)."""
    return Said(
        "match {match} is damaged in the store: it cannot be read ({why}); see honba check {key}",
        match=repr(key),
        why=why if isinstance(why, Said | Listed) else str(why),
        key=key,
    )


@attrs.frozen
class MatchSummary:
    """What ``honba list`` shows of a stored match."""

    key: str
    players: tuple[str, ...]
    rules: str
    source: Mapping[str, Any]
    # What is wrong with the stored start event, when it cannot be read as this match's (words).
    damaged: Said | str = ""


@attrs.frozen
class Loaded:
    """A match loaded for a command, with the seal saved with it (none for a store written before seals)."""

    match: Match
    seal: Seal | None


@attrs.frozen
class Shown:
    """A match read to be shown: with its seal, and the one line naming its damage (None: intact)."""

    match: Match
    seal: Seal | None
    damage: Said | None
    # The check of the rows this read read (``check_rows``), so that a reader that checks them
    # again against the checkpoints (the pages: ``replay.service.audit.damage``) neither reads nor
    # hashes them a second time; with the rows as read (the events, the seal).
    check: MatchCheck | None = attrs.field(default=None, eq=False, repr=False)
    rows: tuple[list[tuple[int, Any, str]], Any] | None = attrs.field(default=None, eq=False, repr=False)


T = TypeVar("T")


class _Trip:
    """One ``HonbaApp.one_trip`` block on one thread: whether its token's check took the row this
    process read before (``used``), what the next load of its match takes unread (``deferred``: the
    entry checked, the token table, the token's id and row), what the save's insert checks
    (``expect``: the token table, the token, the streams' last rows), and whether that insert was sent."""

    __slots__ = ("deferred", "expect", "sent", "unknown", "used")

    def __init__(self) -> None:
        self.used = False
        self.sent = False
        # Whether that insert failed with its outcome not known (a try again refused, no answer).
        self.unknown = False
        self.deferred: tuple[Checked, str, tuple[str, tuple[str, str | None, str, str]]] | None = None
        self.expect: tuple[str, tuple[str, tuple[str, str | None, str, str]], list[StoredEvent]] | None = None


class _AfterUnknown(IntegrityError):
    """A save refused in a ``one_trip`` block after its insert's outcome was not known: no save of
    that block may write, so no retry of its command can change the refusal."""


class _Collected(ProcessingEvent[UUID]):
    """The library's collection of what a save stores, an aggregate's pending events found without
    its ``runtime_checkable`` protocols: ``isinstance`` against one walks the protocol's members
    every call (20 to 36 us here), and the library asks two of them for each object saved, four a
    recorded hand (a match and its seal): about 5 % of its CPU in the server (issue 36, sixth round).
    An aggregate (``eventsourcing.domain.BaseAggregate``, as honba's all are) is no domain event
    and collects its events; anything else goes through the library's checks as before."""

    def __init__(self, tracking: Any = None, *, by_id: bool = True) -> None:
        super().__init__(tracking)
        # The plain data of each collected match event's fact, made by its command already
        # (``Match.pending_fact_data``, taken before its collection lets it go), by the fact's ``id()``:
        # what the save's mapper writes instead of making it again (``HonbaApp._record``).
        self.known: dict[int, Any] = {}
        # Whether the aggregates are kept by id (``aggregates``), which only the library's
        # repository cache and snapshots read (``HonbaApp.save``): a ``UUID``'s hash is a Python
        # function, asked twice a recorded hand for neither.
        self._by_id = by_id

    def collect_events(self, *objs: Any, **kwargs: Any) -> None:
        others = []
        for obj in objs:
            # A match and a seal known by their exact class, before ``isinstance`` asks the ABC's
            # Python ``__instancecheck__``.
            kind = type(obj)
            if kind is Match or kind is Seal or isinstance(obj, BaseAggregate):
                if kind is Match and obj.pending_data:
                    self.known.update(obj.pending_fact_data())
                self.events.extend(obj.collect_events())
                if self._by_id:
                    self.aggregates[obj.id] = obj
            elif obj is not None:
                others.append(obj)
        if others or kwargs:  # (nothing else: the library's would find nothing to do)
            super().collect_events(*others, **kwargs)


class _Ahead:
    """``HonbaApp.reading_ahead``'s block: this thread's match key set for its reads, and what they
    read let go at its end (a class of its own: a generator's context manager, its frames and its
    ``StopIteration``, cost a hand as much as the few lines it runs)."""

    __slots__ = ("_key", "_local", "_trip")

    def __init__(self, local: threading.local, key: str, trip: _Trip | None = None) -> None:
        self._local, self._key, self._trip = local, key, trip

    def __enter__(self) -> None:
        self._local.key, self._local.tails, self._local.trip = self._key, None, self._trip

    def __exit__(self, *_exc: object) -> None:
        self._local.key, self._local.tails, self._local.trip = None, None, None


class HonbaApp(Application[UUID]):
    """The event store: matches, their seals, tournaments, checkpoints, the records of imported files."""

    name = APP_NAME
    is_snapshotting_enabled = False

    def __init__(self, env: Mapping[str, str] | None = None, *, read_only: bool = False):
        # Whether this process saved anything (a command that wrote takes a checkpoint at its end).
        self.wrote = False
        # A store opened only to read (``open(..., read_only=True)``): its connections refuse writes.
        self.read_only = read_only
        # Which stream each seal seals, as checkpoints found it (kept: a server takes many).
        self.sealed_streams: dict[UUID, UUID] = {}
        self._checkpoint_lock = threading.Lock()
        # What this process last checked of the matches it records on: a load reads only the rows
        # after it (``replay.store.checked``), so that a hand costs the same at any point of a match.
        self.checked = CheckedMatches()
        # This thread's ``reading_ahead``: the match key whose tails a token's read brings along,
        # and the tails so read, until a load takes them.
        self._ahead = threading.local()
        super().__init__(env=env)

    def reading_ahead(self, key: str) -> AbstractContextManager[None]:
        """A token checked and a command on the match ``key`` on this thread, their reads in one
        statement: inside, a token's row read on PostgreSQL or SQLite (``token_with_tails``) brings
        along the tails this process's next load of that match reads (``replay.store.checked``),
        and that load (the first inside) takes them instead of reading them (issue 36, fourteenth
        round: a recorded hand's three statements on PostgreSQL two). Read in one statement, they
        are one snapshot as before, a moment earlier: a save by another process in between is a
        conflict at this save as it was (a retry reads again). Nothing read ahead outlives the
        block. A store without that read (in memory: its tokens are not in it) reads apart."""
        if not hasattr(self.recorder, "select_tails_and_token"):
            return nullcontext()
        return _Ahead(self._ahead, key)

    def one_trip(self, key: str, step: Callable[[], T]) -> T:
        """``step()`` (a table's hand at the match ``key``: its token checked, the entry applied) in
        one round trip to the store where it can be: ``reading_ahead``'s block, in which a token whose
        row this process read before, at a match whose last rows this process wrote, is checked
        against that row and the hand made on the match as this process saved it, with no read;
        the hand's insert then checks in the same statement that the token's row and the match's
        and seal's last rows are still exactly those (``HonbaPostgresRecorder.insert_checked``). When
        they are not (a token revoked or replaced, another process's save, a row changed or removed),
        nothing is written, and ``step`` runs again as in ``reading_ahead`` (the rows read, the
        token and the match checked on them), whose outcome is the answer; so does a step that ends
        without that insert having been sent (a refusal, a retry recording nothing): no answer rests
        on rows not read or checked by a statement of its own. A store without that insert (SQLite,
        memory), or a match or token not known yet, takes ``reading_ahead``'s path at once."""
        if getattr(self.recorder, "checked_tokens", None) is None:
            with self.reading_ahead(key):
                return step()
        trip = _Trip()
        with _Ahead(self._ahead, key, trip):
            # Made again only where a row taken unread decided it and nothing may have been written
            # (a refusal of ``insert_checked``, ``NotAsChecked``, writes nothing).
            try:
                result = step()
            except Exception:
                if not trip.used or trip.sent:
                    raise
            else:
                if not trip.used or trip.sent:
                    return result
        with _Ahead(self._ahead, key):
            return step()

    def token_with_tails(
        self, tokens: str, token_id: str, known: tuple[str, str | None, str, str] | None = None
    ) -> tuple[bool, tuple[str, str | None, str, str] | None]:
        """Inside ``reading_ahead`` for a match this process checked, on a store that reads both in
        one statement: (True, the row of token ``token_id`` in the table ``tokens``, or None), its
        match's tails kept for the load. Else (False, None): the caller reads the row alone.
        Inside ``one_trip``, ``known`` (the row as this process last read it) at a match whose last
        rows this process wrote: (True, ``known``), nothing read; the hand's insert checks both."""
        key = getattr(self._ahead, "key", None)
        reads = getattr(self.recorder, "select_tails_and_token", None)
        if key is None or reads is None:
            return False, None
        checked = self.checked.get(key)
        if checked is None:
            return False, None
        trip = self._ahead.trip
        one_trip = trip is not None and known is not None and getattr(self.recorder, "checked_tokens", None) == tokens
        if one_trip and checked.rows is not None:
            trip.used = True
            trip.deferred = (checked, tokens, (token_id, known))
            return True, known
        wanted = wanted_tails(match_id(key), checked)
        rows, token = reads(wanted, tokens, token_id)
        self._ahead.tails = (wanted, rows)
        return True, token

    def construct_env(self, name: str, env: Mapping[str, str] | None = None) -> Environment:
        """The library's settings; on PostgreSQL and SQLite, honba's recorders unless another is named."""
        environment = super().construct_env(name, env)
        recorders = {POSTGRES: POSTGRES_RECORDER, SQLITE: SQLITE_RECORDER}
        ours = recorders.get(environment.get("PERSISTENCE_MODULE", ""))
        if ours is not None and not environment.get("APPLICATION_RECORDER_TOPIC"):
            environment[f"{self.name.upper()}_APPLICATION_RECORDER_TOPIC"] = ours
        return environment

    def construct_factory(self, env: Environment) -> InfrastructureFactory:
        """The library's factory; opened read-only, a PostgreSQL store's sessions are made read-only
        before its pool connects (``default_transaction_read_only``: every write refused)."""
        factory = super().construct_factory(env)
        pool = getattr(getattr(factory, "datastore", None), "pool", None)
        if self.read_only and pool is not None and isinstance(getattr(pool, "kwargs", None), dict):
            pool.kwargs["options"] = "-c default_transaction_read_only=on"
        return factory

    def construct_mapper(self) -> Mapper[UUID]:
        """honba's mapper (only honba's own events, under ids as the store writes them), unless
        ``MAPPER_TOPIC`` names another."""
        if self.env.get("MAPPER_TOPIC"):
            return super().construct_mapper()
        return self.factory.mapper(transcoder=self.construct_transcoder(), mapper_class=HonbaMapper)

    @classmethod
    def open(cls, db: str | None = None, *, read_only: bool = False) -> HonbaApp:
        """Open the store named by ``db`` (a path, ``:memory:`` or a PostgreSQL URL), see ``persistence_env``;
        ``read_only``: to read only, on connections that refuse writes (``read_only_env``), so that a
        check works where nothing can be written (a full disk)."""
        env = persistence_env(db)
        check_postgres(env)
        if read_only:
            env = read_only_env(env)
        try:
            # Processes opening a new PostgreSQL store at once race to create its tables: try again.
            app = retrying(
                lambda _attempt: cls(env=env, read_only=read_only),
                conflict=Exception,
                again=lambda exc: any(race in str(exc) for race in CREATE_RACES),
                tries=OPEN_TRIES,
            )
            return app._readable() if read_only else app
        except Exception as exc:  # the library raises several kinds; all mean the same to a user
            reason = " ".join(str(exc).split()) or type(exc).__name__
            raise StoreError(
                Said(
                    "cannot open the store {store}: {why}",
                    store=store_name(db or env.get("POSTGRES_DBNAME")),
                    why=reason,
                )
            ) from None

    def _readable(self) -> HonbaApp:
        """This store opened to read only, once it was seen to read; or the same SQLite file opened as
        immutable, when it cannot be read otherwise and its write-ahead log holds nothing.

        Reading a SQLite file in WAL mode makes SQLite write its shared-memory index beside it (the
        ``-shm`` file), which a full disk refuses ("disk I/O error"). With nothing in the log, the
        file itself is the whole store: read as immutable, it needs no index (honba check on a full
        disk). With something in the log, the error stands: the file alone is not the whole store.
        """
        try:
            self.recorder.max_notification_id()
            return self
        except Exception:
            name = str(self.env.get("SQLITE_DBNAME") or "")
            path = sqlite_path(name)
            log = Path(path + "-wal")
            if not name.startswith("file:") or (log.exists() and log.stat().st_size):
                raise
        self.close()
        env = {**dict(self.env), "SQLITE_DBNAME": sqlite_uri(path, "mode=ro&immutable=1")}
        for key in [k for k in env if k.endswith("_SQLITE_DBNAME")]:
            del env[key]
        app = type(self)(env=env, read_only=True)
        app.recorder.max_notification_id()
        return app

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        super().register_transcodings(transcoder)
        for cls in VALUE_CLASSES:
            transcoder.register(ValueTranscoding(cls))

    # Matches read.

    def get_match(self, key: str) -> Match:
        """The stored match with that key; ``DamagedMatch`` when its stored events cannot make it."""
        try:
            match: Match = self.repository.get(match_id(key))
        except AggregateNotFoundError:
            raise MatchNotFound(Said("no match {match} in the store", match=repr(key))) from None
        except UNAVAILABLE:  # the store did not answer: nothing is known of the match's rows
            raise
        except Exception as exc:  # a row deleted, undecodable, of an unknown kind: whatever broke in reading
            raise DamagedMatch(self.damage(key) or _unreadable(key, unreadable(exc))) from None
        if not isinstance(match, Match) or match.key != key:
            # Another match's events stored under this key's id.
            raise DamagedMatch(self.damage(key) or _unreadable(key, Said("its start event names another match")))
        return self._folded(key, match)

    def _folded(self, key: str, match: Match, check: Any = None) -> Match:
        """The match with its corrected history scored (which every reader asks for), or
        ``DamagedMatch`` when a stored fact cannot be scored (a seat the table does not have)."""
        try:
            match.fold()
        except DamagedFact as exc:
            raise DamagedMatch(match_damage(self, key, check) or _unreadable(key, exc.said)) from None
        return match

    def load(self, key: str) -> Loaded:
        """The stored match with that key and its seal, for a command to record on: read once (its
        events, its seal), and refused with ``DamagedMatch`` unless its chain and seal check on the
        rows read, so that a command never extends (and reseals) a changed history.

        A match this process checked before (loaded or saved) is not read whole again: only its
        rows from the last checked position on, checked against the head and seal kept
        (``replay.store.checked``, which says what such a check does not see); anything that does
        not match is loaded and checked whole, as the first time."""
        checked = self.checked.get(key)
        trip = getattr(self._ahead, "trip", None) if getattr(self._ahead, "key", None) == key else None
        if trip is not None and trip.deferred is not None:
            deferred, trip.deferred = trip.deferred, None
            if deferred[0] is not checked or checked is None or checked.rows is None:
                # Another thread of this process saved the match since the token's check: made again
                # with the reads (nothing written yet; the token taken unread is checked by no statement).
                raise NotAsChecked("rows")
            # ``one_trip``: the match as this process saved it, its last rows checked by the insert.
            stream = match_id(key)
            heads = [
                StoredEvent(uuid, row.originator_version, row.topic, row.state)
                for uuid, row in zip((stream, seal_id(stream)), checked.rows, strict=True)
            ]
            trip.expect = (deferred[1], deferred[2], heads)
            return Loaded(self._folded(key, detached(checked.match)), detached(checked.seal))
        if checked is not None:
            # The tails a token's read brought along (``reading_ahead``), taken once: a retry reads again.
            ahead = getattr(self._ahead, "tails", None) if getattr(self._ahead, "key", None) == key else None
            self._ahead.tails = None
            found = after(self, key, match_id(key), checked, ahead)
            if found is not None:
                match, seal = found
                if (match.version, seal.version) != (checked.wanted[0][1], checked.wanted[1][1]):
                    # Rows another process saved since: kept as checked. With none (this process
                    # saved last, a table's every hand), what is kept is this very state already,
                    # and its copies are not made again (issue 36: a third of a hand's copies).
                    self.checked.keep(match, seal)
                return Loaded(self._folded(key, match), seal)
        shown = self.read(key)
        if shown.damage is not None:
            raise DamagedMatch(Said("{damage}; nothing recorded", damage=shown.damage))
        if checked is not None and shown.match.version < checked.match.version:
            # Events this process checked (or saved) are gone with the seal row that named them: a
            # rollback the match's own chain cannot show. What is kept stays, so that every later
            # command here refuses too; ``honba check`` names it against the checkpoints.
            raise DamagedMatch(
                Said(
                    "match {match} is damaged in the store: rolled back (this process checked it up to event "
                    "{checked}, it now ends at event {now}); see honba check {key}; nothing recorded",
                    match=repr(key),
                    checked=checked.match.version,
                    now=shown.match.version,
                    key=key,
                )
            )
        if shown.seal is not None:
            self.checked.keep(shown.match, shown.seal, replace=True)
        return Loaded(shown.match, shown.seal)

    def read(self, key: str) -> Shown:
        """The stored match with that key as it is shown, read once (its events, its seal), with the
        one line naming what its chain or seal shows changed (``damage``; None when intact).
        ``DamagedMatch`` when its rows cannot make a match at all."""
        stream = match_id(key)
        events, seal = read_rows(self, stream)
        if not events:
            raise MatchNotFound(Said("no match {match} in the store", match=repr(key)))
        check = check_rows(key, stream, events, seal)
        try:
            match = project_aggregate(None, [event for _position, event, _why in events])
        except Exception as exc:  # a row unreadable, of an unknown kind, out of order: whatever broke
            raise DamagedMatch(match_damage(self, key, check) or _unreadable(key, unreadable(exc))) from None
        if not isinstance(match, Match) or match.key != key:
            damage = match_damage(self, key, check)
            raise DamagedMatch(damage or _unreadable(key, Said("its start event names another match")))
        damage = match_damage(self, key, check) if check.problems else None
        shown_seal = seal if isinstance(seal, Seal) else None
        return Shown(self._folded(key, match, check), shown_seal, damage, check=check, rows=(events, seal))

    def damage(self, key: str) -> Said | None:
        """One line naming what is wrong with a stored match (``replay.store.integrity.match_damage``)."""
        return match_damage(self, key)

    def has_match(self, key: str) -> bool:
        """Whether a match with that key is stored."""
        return match_id(key) in self.repository

    def list_matches(self) -> Iterator[MatchSummary]:
        """Every stored match, in the order they were started."""
        topic = get_topic(Match.Started)
        start = 1
        while True:
            batch = self.recorder.select_notifications(start=start, limit=500, topics=[topic])
            if not batch:
                return
            for notification in batch:
                yield self._summary(notification)
            start = batch[-1].id + 1

    def _summary(self, row: Any) -> MatchSummary:
        """A match's summary from its stored start row; a row that cannot be read as this match's
        start gives a summary named by the match's id that says so (``damaged``)."""
        stored_id = UUID(str(row.originator_id))
        try:
            event = self.mapper.to_domain_event(row)
        except Exception as exc:  # whatever broke in decoding: the row was changed behind honba's back
            return MatchSummary(
                str(stored_id), (), "?", {}, damaged=Said("its start event cannot be read ({why})", why=unreadable(exc))
            )
        if not isinstance(event, Match.Started) or match_id(event.key) != stored_id:
            named = getattr(event, "key", "?")
            damaged = Said("its start event names {named}, another match", named=repr(named))
            return MatchSummary(str(stored_id), (), "?", {}, damaged=damaged)
        return MatchSummary(event.key, tuple(event.players), str(event.rules.get("name", "?")), event.source)

    def seal_of(self, match_id: UUID) -> Seal | None:
        """The seal saved with a match, if there is one."""
        try:
            seal: Seal = self.repository.get(seal_id(match_id))
        except AggregateNotFoundError:
            return None
        return seal

    def store_head(self) -> str:
        """The store head digest: the last checkpoint's (``replay.store.checkpoint.store_head``)."""
        return store_head(self)

    # Matches saved.

    def save(self, *objs: Any, **kwargs: Any) -> Any:
        """The library's save (aggregates' new events in one transaction), noting that this process wrote.

        The library's own ``save`` step by step (eventsourcing 9.5, ``Application.save``), with the
        aggregates' events collected by ``_Collected``: the same events, recordings and
        notifications."""
        self.wrote = True
        processing = _Collected(by_id=bool(self.repository.cache) or bool(self.snapshots))
        processing.collect_events(*objs, **kwargs)
        recordings = self._record(processing)
        self._take_snapshots(processing)
        self._notify(recordings)
        self.notify(processing.events)  # the library's deprecated hook, as its save calls it
        return recordings

    def _record(self, processing_event: ProcessingEvent[UUID]) -> list[Recording[UUID]]:
        """The library's ``_record`` (eventsourcing 9.5: ``EventStore.put``, then the repository's
        cache), each event's row written by ``HonbaMapper.to_stored_event_known`` with the facts'
        plain data its command made already (``_Collected.known``): a recorded hand's fact was made
        into data a second time for its row (issue 36, eighteenth round). The same rows, the same
        recordings; a mapper other than honba's goes the library's way."""
        mapper = self.mapper
        known = getattr(processing_event, "known", None)
        trip = getattr(self._ahead, "trip", None)
        expect = None if trip is None else trip.expect
        if trip is not None and expect is None and trip.used:
            if not trip.sent:
                # A token taken unread, and a save its one-trip insert would not check (whatever the
                # save holds): nothing written; ``one_trip`` makes the hand again with the reads.
                raise NotAsChecked("token")
            if trip.unknown:
                # After a one-trip insert whose outcome is not known: a conflict, as a plain insert's
                # try again refused is (nothing written; the client sends it again). Final: every
                # later save of this trip meets this refusal (``save_match`` says ``FinalConflict``).
                raise _AfterUnknown("a hand after a one-trip insert of unknown outcome: not written")
        if expect is None and (not known or not isinstance(mapper, HonbaMapper)):
            return super()._record(processing_event)
        domain_events = processing_event.events
        if known and isinstance(mapper, HonbaMapper):
            stored_events = [mapper.to_stored_event_known(event, known) for event in domain_events]
        else:
            stored_events = [mapper.to_stored_event(event) for event in domain_events]
        if trip is not None and expect is not None:
            # ``one_trip``: the rows inserted only if the token's and the heads' rows are as checked.
            trip.expect, trip.sent = None, True
            insert_checked = self.recorder.insert_checked  # type: ignore[attr-defined]  # (one_trip: PostgreSQL's)
            try:
                notification_ids: Sequence[int] | None = insert_checked(stored_events, *expect)
            except NotAsChecked:
                trip.sent = False  # refused: nothing written
                raise
            except BaseException:
                # An outcome not known: a try again refused (raised as a conflict: the first try may
                # have committed) or no answer at all. Not made again on the rows read (that would
                # record the hand twice where the first try committed), and no later save of this trip
                # writes (the guard above): its token, taken unread, was never checked by a statement
                # that wrote (a revoked or replaced link's first try may have failed, its try again
                # refused). A command sent again by its client key finds a committed first try.
                trip.unknown = True
                raise
        else:
            notification_ids = self.recorder.insert_events(
                stored_events, tracking=processing_event.tracking, **processing_event.saved_kwargs
            )
        recordings = []
        if notification_ids:
            assert len(notification_ids) == len(stored_events)
            for event, stored, notification_id in zip(domain_events, stored_events, notification_ids, strict=True):
                notification = Notification(
                    originator_id=stored.originator_id,
                    originator_version=stored.originator_version,
                    topic=stored.topic,
                    state=stored.state,
                    id=notification_id,
                )
                recordings.append(Recording(event, notification))
        if self.repository.cache and not self.repository.fastforward:
            for aggregate_id, aggregate in processing_event.aggregates.items():
                self.repository.cache.put(aggregate_id, aggregate)
        return recordings

    def save_match(self, match: Match, seal: Seal | None = None, *, read_only_after: bool = False) -> None:
        """Save a match's new events with its seal, in one transaction: nothing else, no row shared
        with saves of other matches (``checkpoint`` covers it later).

        ``seal``: the one loaded with the match (``load``); a new match gets its first, and a match
        loaded otherwise has its seal read here. ``StoreConflict`` when another process saved the
        match since it was loaded. Saved, the seal is the store's (kept as checked, not copied: a
        command's caller drops it with the match it loaded); not to be changed or saved again.
        ``read_only_after``: the caller only reads the match from now on (``on_match``, whose callers
        turn it into their answer): it is kept itself, scored up to date, not a copy.
        """
        if seal is None:
            new = match.version == len(match.pending_events)
            seal = (None if new else self.seal_of(match.id)) or Seal.open(match.id)
        seal.seal(match.version, match.head)
        try:
            recordings = self.save(match, seal)
        except IntegrityError as exc:
            conflict = FinalConflict if isinstance(exc, _AfterUnknown) else StoreConflict
            raise conflict(
                Said("match {match} changed in the store while this command ran; try again", match=repr(match.key))
            ) from None
        except PersistenceError as exc:
            failed = StoreUnavailable if isinstance(exc, UNAVAILABLE) else StoreError
            raise failed(
                Said("cannot save match {match}: {why}", match=repr(match.key), why=" ".join(str(exc).split()))
            ) from None
        # What this process wrote is what it checks the next load's rows against: the match and
        # seal, and their last rows' bytes as written (the next load compares them, no decoding).
        # The seal kept as it is: no one holds it after the save (``on_match`` drops what it loaded;
        # the next load hands out a copy), one copy of four a hand fewer (issue 36, fourteenth round).
        # With ``read_only_after``, the match kept as it is too (issue 36, fifteenth round): scored
        # now, before anyone else can see it, its caller's reads write nothing in it, so another
        # thread's load copies it safely while they read; a command is only ever run on a copy.
        if read_only_after:
            match.score()
        self.checked.keep(
            match,
            seal,
            rows=_last_rows(recordings, match.id, seal.id),
            seal_given=True,
            match_given=read_only_after,
        )

    # Checkpoints.

    def checkpoint(self) -> Taken:
        """Take a checkpoint of what was saved since the last one, unless another process holds
        the checkpoint lock (``replay.store.checkpoint.take_checkpoint``)."""
        return take_checkpoint(self)

    def not_waiting(self) -> AbstractContextManager[None]:
        """This thread's calls refused at once (``StoreBusy``, nothing written) rather than waiting
        when another process holds the store's write lock: SQLite's recorder's (``replay.store.
        sqlite_store.HonbaSQLiteDatastore.not_waiting``); on a store whose writers do not lock each
        other out (PostgreSQL, whose saves wait for their table lock in the database, not here; the
        store in memory), a block that changes nothing."""
        held = getattr(self.recorder, "not_waiting", None)
        return held() if held is not None else nullcontext()

    def checkpoint_lock(self) -> AbstractContextManager[bool]:
        """The store's checkpoint try-lock: the recorder's (a file beside a SQLite store, an advisory
        lock on PostgreSQL), or this process's for a store in memory."""
        held = getattr(self.recorder, "checkpoint_lock", None)
        return held() if held is not None else thread_lock(self._checkpoint_lock)

    # Bulk writes: an import's matches, already encoded (``replay.service.imports.storing``).

    def insert(self, records: Sequence[StoredEvent]) -> Sequence[int]:
        """Insert encoded events in one transaction; their notification ids (positions in the log),
        as the recorder gives them; ``IntegrityError`` when any is there already."""
        return self._inserting(lambda: self.recorder.insert_events(list(records)) or ())

    def insert_rows(self, rows: Sequence[Row]) -> Sequence[int]:
        """``insert`` of rows as the table holds them (``replay.store.rows.Row``): SQLite's recorder
        writes them as they are; any other store is given them as the encoded events they hold."""
        inserting = getattr(self.recorder, "insert_rows", None)
        if inserting is None:
            return self.insert([event_of(row) for row in rows])
        return self._inserting(lambda: inserting(rows))

    def _inserting(self, insert: Callable[[], Sequence[int]]) -> Sequence[int]:
        """``insert()``, this process noted as having written; a store's failure said as honba's
        (``StoreUnavailable`` where the store did not answer), ``IntegrityError`` as it is."""
        self.wrote = True
        try:
            inserted: Sequence[int] = insert()
            return inserted
        except IntegrityError:
            raise
        except PersistenceError as exc:
            failed = StoreUnavailable if isinstance(exc, UNAVAILABLE) else StoreError
            raise failed(f"cannot store: {' '.join(str(exc).split())}") from None

    def mapper_settings(self) -> dict[str, str]:
        """The settings that make this store's mapper (cipher, compressor, transcoder), for ``mapper_for``."""
        return {key: value for key, value in self.env.items() if key.endswith(_MAPPER_SETTINGS)}


_MAPPERS: dict[tuple[tuple[str, str], ...], Mapper[UUID]] = {}


def mapper_for(settings: Mapping[str, str]) -> Mapper[UUID]:
    """A mapper like that of a store with these settings (``HonbaApp.mapper_settings``), made
    once per process: worker processes encode events without opening the store."""
    key = tuple(sorted(settings.items()))
    if key not in _MAPPERS:
        popo = "eventsourcing.popo"
        memory = {"PERSISTENCE_MODULE": popo, f"{HonbaApp.name.upper()}_PERSISTENCE_MODULE": popo}
        _MAPPERS[key] = HonbaApp(env={**settings, **memory}).mapper
    return _MAPPERS[key]


def _last_rows(recordings: Sequence[Any], match_uuid: UUID, seal_uuid: UUID) -> tuple[Written, Written] | None:
    """The last row a save wrote of the match and of its seal (the library's recordings: each
    event's row as inserted, in order), or None when it wrote none of either: the notifications
    themselves, their states bytes as the rows hold them (two frozen values less a hand)."""
    match_row = seal_row = None
    for recording in recordings:
        # A row's id is its event's, the very object the aggregate holds: ``is`` answers before
        # ``UUID``'s own ``__eq__`` and ``__hash__`` (Python functions) are asked.
        row = recording.notification
        stream = row.originator_id
        if stream is match_uuid:
            match_row = row
        elif stream is seal_uuid:
            seal_row = row
        elif stream == match_uuid:
            match_row = row
        elif stream == seal_uuid:
            seal_row = row
    if match_row is None or seal_row is None:
        return None
    return _as_written(match_row), _as_written(seal_row)


def _as_written(row: Any) -> Written:
    """A notification of a row as written: itself where it is the library's and its state bytes, else
    its position, topic and state's bytes."""
    if type(row) is Notification and type(row.state) is bytes:
        written: Written = row
        return written
    return WrittenRow(row.originator_version, row.topic, bytes(row.state))
