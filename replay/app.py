"""The honba application service: the event store and the commands on matches.

Storage is the ``eventsourcing`` library's: an embedded SQLite file by default
(``eventsourcing.sqlite``), a PostgreSQL database named by a
``postgresql://user:password@host:port/dbname`` URL (``eventsourcing.postgres``),
in memory for tests (``eventsourcing.popo``). The library's own settings
(``PERSISTENCE_MODULE``, ``SQLITE_DBNAME``, ``POSTGRES_*``) still work when no
database is named explicitly.

Saves are optimistic: a command that loaded a match which another process changed
before this one saved gets ``StoreConflict``. A command sent with a client key is
tried again (reloaded and re-applied), since the key makes a second try record
nothing twice; one without a key is refused, the user decides.
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import parse_qsl, unquote, urlsplit
from uuid import UUID

import attrs
from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import (
    IntegrityError,
    JSONTranscoder,
    Mapper,
    PersistenceError,
    StoredEvent,
    Transcoding,
)
from eventsourcing.utils import Environment, get_topic

from domain.codec import VALUE_CLASSES, from_data, to_data
from domain.errors import EntryRefused, HonbaError
from domain.integrity import GENESIS, digest_of, event_digest, plain, roll
from domain.match import Match, MatchContent, match_content, match_content_and_entries, match_id
from domain.progression import Fact
from domain.rules import Ruleset
from domain.values import HandResult, Penalty, TableState, without_details
from replay.seal import STORE_CHAIN_ID, Seal, StoreChain, link, seal_id
from replay.service.retry import OPEN_TRIES, TRIES, retrying

if TYPE_CHECKING:  # loaded where a game read from a log or an imported file is stored or looked up
    from replay.identity import GameIdentity, ImportedFile

DB_ENV = "HONBA_DB"
MEMORY = ":memory:"
POSTGRES = "eventsourcing.postgres"
# honba's PostgreSQL recorder (replay/store/pgstore.py), imported only when PostgreSQL is used.
POSTGRES_RECORDER = "replay.store.pgstore:HonbaPostgresRecorder"
POSTGRES_URL_FORM = "postgresql://user:password@host:port/dbname"
# Opening a new PostgreSQL store from several processes at once: their CREATE statements race.
CREATE_RACES = ("concurrently updated", "already exists", "deadlock detected")


class MatchNotFound(HonbaError):
    """No match is stored under that key."""


class MatchExists(HonbaError):
    """A match with that key is already stored."""


class StoreConflict(MatchExists):
    """Another process saved the match between this command's load and its save."""


class StoreError(HonbaError):
    """The store could not be opened or written."""


class DamagedMatch(HonbaError):
    """A stored match was changed behind honba's back: it cannot be read, or its chain or seal does not check."""


class ValueTranscoding(Transcoding):
    """Stores a domain value as its canonical plain data (``domain.codec``)."""

    def __init__(self, cls: type[Any]):
        self.type = cls
        self.name = f"honba.{cls.__name__}"

    def encode(self, obj: Any) -> Any:
        return to_data(obj)

    def decode(self, data: Any) -> Any:
        return from_data(self.type, data)


def _unreadable(key: str, why: object) -> str:
    return f"match {key!r} is damaged in the store: it cannot be read ({why}); see honba check {key}"


def default_db_path() -> Path:
    """Where the SQLite file lives unless ``--db`` or ``HONBA_DB`` says otherwise."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "honba" / "honba.sqlite"


def persistence_env(db: str | None) -> dict[str, str]:
    """The library settings for a database named by path, ``:memory:``, PostgreSQL URL or nothing.

    With nothing named, ``HONBA_DB`` is used; failing that, the library's own
    ``PERSISTENCE_MODULE`` settings if set; failing that, the default SQLite file.
    """
    db = db or os.environ.get(DB_ENV)
    if db is None and os.environ.get("PERSISTENCE_MODULE"):
        return {}
    if db == MEMORY:
        return {"PERSISTENCE_MODULE": "eventsourcing.popo"}
    if db is not None and _URL.match(db):
        return postgres_env(db)
    path = Path(db) if db else default_db_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)}


_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
# URL query parameters and the library settings they become.
_URL_PARAMETERS = {
    "schema": "POSTGRES_SCHEMA",
    "connect_timeout": "POSTGRES_CONNECT_TIMEOUT",
    "pool_size": "POSTGRES_POOL_SIZE",
    "lock_timeout": "POSTGRES_LOCK_TIMEOUT",
}


def postgres_env(url: str) -> dict[str, str]:
    """The library settings for ``postgresql://user:password@host:port/dbname[?schema=...]``.

    User, password and database name may be percent-encoded; ``host=/dir`` in the query
    names a unix socket directory. Without a user, the login name is used (as libpq does);
    without a host, localhost; without a port, 5432. A URL of another kind, without a
    database name, with a bad port or with an unknown parameter is refused with ``StoreError``.
    """
    shown = redact(url)

    def bad(why: str) -> StoreError:
        return StoreError(f"bad store URL {shown}: {why} (expected {POSTGRES_URL_FORM})")

    unencoded = "a password with '/', '#' or '?' must be percent-encoded (%2F, %23, %3F)"
    try:
        parts = urlsplit(url)
        if "@" in parts.path + parts.query + parts.fragment:
            # The password ran into the path, query or fragment: the parser's own words would quote it.
            raise bad(unencoded)
        port = parts.port
    except ValueError as exc:  # the port, read after the last '@' of the address: no password in it
        raise bad(str(exc)) from None
    if parts.scheme.lower() not in ("postgresql", "postgres"):
        raise StoreError(
            f"unknown kind of store {shown}: give a SQLite file, {MEMORY} or a PostgreSQL URL ({POSTGRES_URL_FORM})"
        )
    dbname = unquote(parts.path.removeprefix("/"))
    if not dbname or "/" in dbname:
        raise bad("no database name" if not dbname else f"database name {dbname!r} has a '/'")
    if parts.fragment:
        raise bad("it has a '#' part")
    env = {
        "PERSISTENCE_MODULE": POSTGRES,
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": parts.hostname or "localhost",
        "POSTGRES_PORT": str(port or 5432),
        "POSTGRES_USER": unquote(parts.username) if parts.username else _login_name(),
        "POSTGRES_PASSWORD": unquote(parts.password) if parts.password else "",
        "POSTGRES_CONNECT_TIMEOUT": "10",
    }
    for name, value in parse_qsl(parts.query, keep_blank_values=True):
        if name == "host" and value:
            env["POSTGRES_HOST"] = value
        elif name == "port":
            if not value.isdigit():
                raise bad(f"port must be a whole number, not {value!r}")
            env["POSTGRES_PORT"] = value
        elif name in _URL_PARAMETERS:
            if name != "schema" and not value.isdigit():
                raise bad(f"{name} must be a whole number, not {value!r}")
            env[_URL_PARAMETERS[name]] = value
        else:
            known = ", ".join(["host", "port", *_URL_PARAMETERS])
            raise bad(f"unknown parameter {name!r} (known: {known})")
    return env


def _login_name() -> str:
    import getpass  # PostgreSQL's default user only: not loaded by a command on a SQLite store

    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no USER variable and no password-file entry
        return "postgres"


def redact(db: str) -> str:
    """A store's name as shown in messages: a URL's password is replaced by ***.

    The password is whatever stands between the first ``:`` after the scheme and the last ``@``,
    however the URL parses: a password with an unencoded ``/``, ``#`` or ``?`` makes the URL
    parse otherwise (part of it read as the path, the query or the fragment), and must not be
    shown either. A URL whose user part cannot be told apart is masked whole.
    """
    found = _URL.match(db)
    if not found:
        return db
    scheme, rest = db[: found.end()], db[found.end() :]
    if "@" not in rest:
        return db if ":" not in rest.split("/", 1)[0] or _plain_host(rest) else f"{scheme}***"
    userinfo, after = rest.rsplit("@", 1)
    if ":" not in userinfo:
        return db if "/" not in userinfo else f"{scheme}***@{after}"
    user = userinfo.split(":", 1)[0]
    if "/" in user or "?" in user or "#" in user:
        return f"{scheme}***@{after}"
    return f"{scheme}{user}:***@{after}"


def _plain_host(rest: str) -> bool:
    """Whether the part after the scheme starts with ``host:port`` (a colon that is no password's)."""
    host = rest.split("/", 1)[0].split("?", 1)[0]
    return bool(re.fullmatch(r"[^:@]*:\d*", host))


def _check_postgres(env: Mapping[str, str]) -> None:
    """Connect once to the PostgreSQL server the settings name, so that a wrong address, user,
    password or database gives the server's own reason at once (the library's connection pool
    would wait out its timeout and say only that it got no connection)."""
    settings = Environment(HonbaApp.name, {**os.environ, **env})
    if settings.get("PERSISTENCE_MODULE") != POSTGRES or settings.get("POSTGRES_GET_PASSWORD_TOPIC"):
        return
    import psycopg

    names = ("DBNAME", "HOST", "PORT", "USER", "PASSWORD")
    dbname, host, port, user, password = (settings.get(f"POSTGRES_{name}") for name in names)
    if dbname is None or host is None or user is None or password is None:
        return  # the library names the missing setting
    timeout = settings.get("POSTGRES_CONNECT_TIMEOUT") or "10"
    where = f"{host}:{port or 5432}"
    try:
        psycopg.connect(
            dbname=dbname,
            host=host,
            port=port or "5432",
            user=user,
            password=password,
            connect_timeout=int(timeout) if timeout.isdigit() else 10,
        ).close()
    except psycopg.Error as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise StoreError(
            f"cannot connect to PostgreSQL at {where} (database {dbname!r}, user {user!r}): {reason}"
        ) from None


# What decides how events are encoded: the same settings give the same stored bytes.
_MAPPER_SETTINGS = ("MAPPER_TOPIC", "TRANSCODER_TOPIC", "CIPHER_TOPIC", "CIPHER_KEY", "COMPRESSOR_TOPIC")


@attrs.frozen
class Prepared:
    """A match built in memory and encoded for the store, with its seal: what a bulk import stores.

    ``records`` are the match's events and its seal's, as the store keeps them; ``content``
    is what tells the same match from another of the same key (``domain.match.match_content``).
    Plain data, so it crosses from a worker process to the one that stores.
    """

    key: str
    players: tuple[str, ...]
    id: UUID
    records: tuple[StoredEvent, ...]
    content: MatchContent
    # The match's last position and head digest, for its link in the store chain.
    position: int = 0
    head: str = ""
    # A game read from a log: the digest of its content (``replay.identity``), whose identity is
    # stored with it so that the same game from another file is stored once; None otherwise.
    fingerprint: str | None = None
    # The digest of each entry (opening, facts) and the facts, in order: a stored excerpt of
    # this game (the same entries, fewer) is completed with the facts it lacks.
    entries: tuple[str, ...] = ()
    facts: tuple[Any, ...] = ()


@attrs.frozen
class AlreadyStoredAs:
    """An import found the same game stored under another key (another file's name, its log id)."""

    key: str


def prepare(match: Match, mapper: Mapper[UUID], *, from_log: bool = False) -> Prepared:
    """Encode a new match's events and those of its seal (last position and head digest).

    ``from_log``: a game read from a log, stored with its identity (``replay.identity``) so
    that another file holding the same game stores nothing (when it has a hand result). Takes the match's pending
    events: the match is then as if saved.
    """
    pending = list(match.pending_events)
    content, entries = match_content_and_entries(pending)
    seal = Seal.open(match.id)
    seal.seal(match.version, match.head)
    events: list[Any] = [*match.collect_events(), *seal.collect_events()]
    fingerprint = None
    if from_log and any(isinstance(event, HAND_EVENTS) for event in pending):
        # A game with at least one result: its players and opening alone (an excerpt cut
        # before any hand ended) say too little to tell one game from another.
        # The identities of games read from logs: an import's, never a recording command's.
        from replay.identity import GameIdentity, game_fingerprint

        fingerprint = game_fingerprint(content.players, content.results)
        events.extend(GameIdentity.claim(fingerprint, match.key).collect_events())
    records = tuple(mapper.to_stored_event(event) for event in events)
    facts = tuple(event.fact for event in pending if isinstance(event, HAND_EVENTS))
    return Prepared(
        match.key,
        match.players,
        match.id,
        records,
        content,
        match.version,
        match.head,
        fingerprint,
        tuple(entries),
        facts,
    )


# The events of a hand result: what an excerpt lacks is recorded again as results.
HAND_EVENTS: Final = (Match.HandWon, Match.HandDrawn, Match.HandAborted)


def _entry_digest(event: Any) -> str:
    """The digest of one entry of a match's history (as ``match_content`` counts it); '' for other events."""
    if isinstance(event, Match.Started):
        return digest_of(["opening", plain(event.opening)])
    if isinstance(event, Match.Recorded):
        return digest_of(["fact", plain(without_details(event.fact))])
    if isinstance(event, Match.Corrected):
        return digest_of(["correction", plain([event.target, event.replacement, event.by, event.reason, event.at])])
    return ""


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


@attrs.frozen
class MatchSummary:
    """What ``honba list`` shows of a stored match."""

    key: str
    players: tuple[str, ...]
    rules: str
    source: Mapping[str, Any]
    # What is wrong with the stored start event, when it cannot be read as this match's.
    damaged: str = ""


class HonbaApp(Application[UUID]):
    """Stores matches as event streams and runs the commands on them."""

    name = "honba"
    is_snapshotting_enabled = False

    def construct_env(self, name: str, env: Mapping[str, str] | None = None) -> Environment:
        """The library's settings; on PostgreSQL, honba's leaner recorder unless another is named."""
        environment = super().construct_env(name, env)
        if environment.get("PERSISTENCE_MODULE") == POSTGRES and not environment.get("APPLICATION_RECORDER_TOPIC"):
            environment[f"{self.name.upper()}_APPLICATION_RECORDER_TOPIC"] = POSTGRES_RECORDER
        return environment

    @classmethod
    def open(cls, db: str | None = None) -> HonbaApp:
        """Open the store named by ``db`` (a path, ``:memory:`` or a PostgreSQL URL), see ``persistence_env``."""
        env = persistence_env(db)
        _check_postgres(env)
        try:
            # Processes opening a new PostgreSQL store at once race to create its tables: try again.
            return retrying(
                lambda _attempt: cls(env=env),
                conflict=Exception,
                again=lambda exc: any(race in str(exc) for race in CREATE_RACES),
                tries=OPEN_TRIES,
            )
        except Exception as exc:  # the library raises several kinds; all mean the same to a user
            reason = " ".join(str(exc).split()) or type(exc).__name__
            named = db or os.environ.get(DB_ENV) or env.get("POSTGRES_DBNAME") or str(default_db_path())
            raise StoreError(f"cannot open the store {redact(named)}: {reason}") from None

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        super().register_transcodings(transcoder)
        for cls in VALUE_CLASSES:
            transcoder.register(ValueTranscoding(cls))

    # Queries.

    def get_match(self, key: str) -> Match:
        """The stored match with that key; ``DamagedMatch`` when its stored events cannot make it."""
        try:
            match: Match = self.repository.get(match_id(key))
        except AggregateNotFoundError:
            raise MatchNotFound(f"no match {key!r} in the store") from None
        except Exception as exc:  # a row deleted, undecodable, of an unknown kind: whatever broke in reading
            why = " ".join(str(exc).split())[:200] or type(exc).__name__
            raise DamagedMatch(self.damage(key) or _unreadable(key, why)) from None
        if not isinstance(match, Match) or match.key != key:
            # Another match's events stored under this key's id.
            raise DamagedMatch(self.damage(key) or _unreadable(key, "its start event names another match"))
        return match

    def damage(self, key: str) -> str | None:
        """One line naming what is wrong with a stored match (position, kind) and pointing at
        ``honba check``; None when its chain and seal check.

        A check that reads the events and then the seal can catch another process between the
        two (its new events read, its seal not yet, or the other way round): a problem is named
        only when a second check finds it too.
        """
        from replay.integrity import check_match, read_store_chain  # they read the store through this application

        found = None
        for look in range(3):
            # The store chain is read only when the match's own chain or seal finds something: it
            # tells a seal row removed from a genuine event inserted, and names a rollback.
            store = read_store_chain(self) if look else None
            check = check_match(self, match_id(key), key, store)
            problems = check.problems
            if not problems or (check.events == 0 and not check.sealed):
                return None  # intact, or no such match at all
            if problems == found:
                break
            found = problems
        first = found[0] if found else problems[0]
        where = f" at {first.position}" if first.position else ""
        return f"match {key!r} is damaged in the store: {first.kind}{where} ({first.detail}); see honba check {key}"

    def sound_match(self, key: str) -> Match:
        """The stored match with that key, refused with ``DamagedMatch`` unless its chain and seal
        check: what a command records on, so that it never extends (and reseals) a changed history."""
        match = self.get_match(key)
        damage = self.damage(key)
        if damage is not None:
            raise DamagedMatch(f"{damage}; nothing recorded")
        return match

    def has_match(self, key: str) -> bool:
        """Whether a match with that key is stored."""
        return match_id(key) in self.repository

    def facts(self, key: str) -> tuple[Match, list[Fact]]:
        """The match and its history as corrected (what scores and standings use), in order."""
        match = self.get_match(key)
        return match, match.effective_facts()

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
            why = " ".join(str(exc).split())[:200] or type(exc).__name__
            return MatchSummary(str(stored_id), (), "?", {}, damaged=f"its start event cannot be read ({why})")
        if not isinstance(event, Match.Started) or match_id(event.key) != stored_id:
            named = getattr(event, "key", "?")
            return MatchSummary(str(stored_id), (), "?", {}, damaged=f"its start event names {named!r}, another match")
        return MatchSummary(event.key, tuple(event.players), str(event.rules.get("name", "?")), event.source)

    # Commands.

    def start_match(
        self,
        key: str,
        players: Sequence[str],
        rules: Ruleset,
        source: Mapping[str, Any] | None = None,
        opening: TableState | None = None,
        *,
        client_key: str | None = None,
    ) -> Match:
        """Start and store a new match; a key already in use is refused, except for a retry
        (``client_key`` given) of the very same start, which answers with the stored match."""
        already = MatchExists(f"a match {key!r} is already stored")
        if client_key is not None:
            # Kept with the match, so that only a retry of this very start answers with it.
            source = {**(source or {}), "client_key": client_key}
        match = Match.start(key, players, rules, source, opening)
        if self.has_match(key):
            return self._same_start(match, client_key, already)
        try:
            self._save(match)
        except StoreConflict:
            # Started by another process since the check above.
            return self._same_start(match, client_key, already)
        return match

    def _same_start(self, match: Match, client_key: str | None, already: MatchExists) -> Match:
        stored = self.get_match(match.key)
        same = (stored.players, stored.rules, stored.source) == (match.players, match.rules, match.source)
        if client_key is not None and same:
            return stored
        raise already

    def record(
        self, key: str, result: HandResult, *, client_key: str | None = None, at: datetime | None = None
    ) -> Match:
        """Record a hand result on a stored match (a retry with the same client key records nothing).

        ``at`` is when it is recorded, for the match's clock (``domain.clock``): by default the
        time now, read here, outside the match, which decides from the time it is given.
        """
        when = at if at is not None else datetime.now(UTC)
        return self._command(key, lambda match: match.record(result, client_key=client_key, at=when), client_key)

    def set_time_limit(self, key: str, minutes: int, *, by: str, client_key: str | None = None) -> Match:
        """Set a stored match's time limit (``Match.set_time_limit``)."""
        return self._command(key, lambda match: match.set_time_limit(minutes, by=by, client_key=client_key), client_key)

    def start_clock(self, key: str, *, at: datetime, by: str, client_key: str | None = None) -> Match:
        """Start a stored match's clock at ``at`` (``Match.start_clock``)."""
        return self._command(key, lambda match: match.start_clock(at, by=by, client_key=client_key), client_key)

    def add_time(self, key: str, minutes: int, *, by: str, reason: str, client_key: str | None = None) -> Match:
        """Add time to a stored match's clock (``Match.add_time``)."""
        return self._command(
            key, lambda match: match.add_time(minutes, by=by, reason=reason, client_key=client_key), client_key
        )

    def penalise(self, key: str, penalty: Penalty, *, client_key: str | None = None) -> Match:
        """Record a penalty on a stored match."""
        return self._command(key, lambda match: match.penalise(penalty, client_key=client_key), client_key)

    def end(self, key: str, reason: str, *, client_key: str | None = None) -> Match:
        """End a stored match early; ``reason`` may not be one the rules decide (complete, bust, dealer_stop)."""
        return self._command(key, lambda match: match.end(reason, client_key=client_key), client_key)

    # Corrections name entries by the number a user sees (``honba log``, the record file's lines,
    # ``replay.formats.record.entry_numbers``); the Match aggregate is given positions.

    def amend(
        self,
        key: str,
        entry: int,
        replacement: HandResult | Penalty,
        *,
        by: str,
        reason: str,
        client_key: str | None = None,
    ) -> Match:
        """Replace the result, penalty or correction numbered ``entry`` (as ``honba log`` and the
        exported record file number it) of a stored match: a correction."""
        return self._command(
            key,
            lambda match: _on_entry(
                match,
                entry,
                lambda position: match.amend(position, replacement, by=by, reason=reason, client_key=client_key),
            ),
            client_key,
        )

    def void(self, key: str, entry: int, *, by: str, reason: str, client_key: str | None = None) -> Match:
        """Void the result or penalty numbered ``entry`` of a stored match, or cancel the correction
        numbered so (a correction)."""
        return self._command(
            key,
            lambda match: _on_entry(
                match, entry, lambda position: match.void(position, by=by, reason=reason, client_key=client_key)
            ),
            client_key,
        )

    def undo(self, key: str, *, by: str, reason: str, client_key: str | None = None) -> tuple[Match, int]:
        """Void the last entry that still counts (a correction by the recorder); the match and the
        number of the entry voided."""
        voided: list[int] = []
        match = self._command(
            key, lambda match: voided.append(match.undo(by=by, reason=reason, client_key=client_key)), client_key
        )
        from replay.formats.record import entry_numbers  # not loaded by the recording commands

        number = entry_numbers(match).number(voided[-1])
        assert number is not None  # undo voids a result, a penalty or a correction: each has its line
        return match, number

    def table_before(self, key: str, entry: int) -> TableState:
        """The table the entry numbered ``entry`` was played on, with the scores as corrected (for
        a correction, the table of the entry it comes down to)."""
        match = self.get_match(key)
        from replay.formats.record import entry_numbers  # not loaded by the recording commands

        return match.state_before(entry_numbers(match).position(entry))

    def add_penalty(self, key: str, penalty: Penalty, *, by: str, reason: str, client_key: str | None = None) -> Match:
        """Add a penalty as a correction, also after the match ended."""
        return self._command(
            key, lambda match: match.add_penalty(penalty, by=by, reason=reason, client_key=client_key), client_key
        )

    def _command(self, key: str, command: Callable[[Match], None], client_key: str | None = None) -> Match:
        """Load the match, apply the command, save what it records.

        When another process saved the match in between (``StoreConflict``), a command with a
        client key is applied again to the match as it now is, up to ``TRIES`` times with a short,
        growing, jittered pause: the key makes the retry safe (if the other process recorded this
        very command, the retry records nothing). A command without a key is not retried.
        """

        def once(_attempt: int) -> Match:
            match = self.sound_match(key)
            command(match)
            if match.pending_events:
                self._save(match)
            return match

        return retrying(
            once,
            conflict=StoreConflict,
            again=lambda _conflict: client_key is not None,
            give_up=lambda conflict: StoreConflict(f"{conflict} (tried {TRIES} times)"),
        )

    def store_whole(self, match: Match) -> bool:
        """Store a match built in memory, all its events at once.

        Returns False, storing nothing, when the same match (same key, players, rules and
        results) is stored already: imports are idempotent and never half-store a match.
        A stored match with that key but other contents is a conflict, refused with
        ``MatchExists``: history is not rewritten by importing a changed file.
        """
        if not match.pending_events:
            return False  # this very match object was stored before: nothing new to store
        (outcome,) = self.store_prepared([prepare(match, self.mapper)])
        if isinstance(outcome, MatchExists):
            raise outcome
        return outcome is True

    def store_prepared(self, batch: Sequence[Prepared]) -> list[bool | MatchExists | AlreadyStoredAs]:
        """Store matches prepared in memory (``prepare``), all of them in one transaction.

        For each, in order: True when stored (or a stored excerpt of it completed), False when
        the same match was stored already, ``AlreadyStoredAs`` when the same game read from a
        log is stored under another key, or the ``MatchExists`` conflict when a match with
        that key is stored with other contents (nothing of it is stored, and the others are). Each match is stored whole
        with its seal or not at all. When some are present, the batch is stored match by match.
        """
        if not batch:
            return []
        links = self._links([(prepared.id, prepared.position, prepared.head) for prepared in batch])
        try:
            self._insert([record for prepared in batch for record in prepared.records] + links)
        except IntegrityError:
            return [self._store_one(prepared) for prepared in batch]
        return [True] * len(batch)

    def _store_one(self, prepared: Prepared) -> bool | MatchExists | AlreadyStoredAs:
        def once(_attempt: int) -> bool | MatchExists | AlreadyStoredAs:
            same = self._same_as_stored(prepared)
            if isinstance(same, MatchExists):
                completed = self._complete_excerpt(prepared)
                if completed is not None:
                    return completed
            if same is not False:
                return same if isinstance(same, MatchExists) else False
            owner = self._identity_owner(prepared)
            if owner is not None:
                return AlreadyStoredAs(owner)
            try:
                self._insert([*prepared.records, *self._links([(prepared.id, prepared.position, prepared.head)])])
            except IntegrityError:
                # Stored by another process since the look above, or another save took the store
                # chain's next link or this game's identity (then this match is still absent: try
                # again, and the next look finds the identity's owner), or only a stray seal is.
                same = self._same_as_stored(prepared)
                if same is not False:
                    return same if isinstance(same, MatchExists) else False
                raise
            return True

        try:
            # Tried again unless a stray seal of this match is what is in the way.
            return retrying(
                once, again=lambda _conflict: not self.recorder.select_events(seal_id(prepared.id), limit=1)
            )
        except IntegrityError:
            return MatchExists(f"match {prepared.key!r} changed in the store while it was imported; try again")

    def _identity_owner(self, prepared: Prepared) -> str | None:
        """The key of the match that holds the same game, stored under another key; else None."""
        if prepared.fingerprint is None:
            return None
        from replay.identity import identity_id

        try:
            identity: GameIdentity = self.repository.get(identity_id(prepared.fingerprint))
        except AggregateNotFoundError:
            return None
        return identity.key if identity.key != prepared.key else None

    def _complete_excerpt(self, prepared: Prepared) -> bool | None:
        """For a game read from a log whose key holds another recording of it: True when the
        stored match was an excerpt of this game (same players, rules, opening and first
        results, fewer of them), now completed with the results it lacked; False when this
        game is an excerpt of the stored match (nothing to store); None otherwise.

        Nothing stored is erased: the missing hands are recorded on the stored match.
        """
        if prepared.fingerprint is None:
            return None
        stored = list(self.events.get(prepared.id))
        content = match_content(stored)
        if content.players != prepared.content.players or content.rules != prepared.content.rules:
            return None
        entries = [d for d in map(_entry_digest, stored) if d]
        if len(entries) >= len(prepared.entries):
            return False if entries[: len(prepared.entries)] == list(prepared.entries) else None
        if list(prepared.entries[: len(entries)]) != entries:
            return None
        recorded = sum(isinstance(event, HAND_EVENTS) for event in stored)
        missing = prepared.facts[recorded:]

        def complete(match: Match) -> None:
            for fact in missing:
                match.record(fact)

        self._command(prepared.key, complete)
        from replay.identity import identity_id

        with contextlib.suppress(IntegrityError):
            self._insert([r for r in prepared.records if r.originator_id == identity_id(prepared.fingerprint)])
        return True

    def _same_as_stored(self, prepared: Prepared) -> bool | MatchExists:
        """False when no match with that key is stored; True when the same one is; else the conflict."""
        stored = list(self.events.get(prepared.id))
        if not stored:
            return False
        differs = match_content(stored).differs_in(prepared.content)
        if differs is None:
            return True
        return MatchExists(
            f"a match {prepared.key!r} is stored with other {differs}; it is not replaced "
            "(record a correction on the stored match instead)"
        )

    def _insert(self, records: Sequence[StoredEvent]) -> None:
        try:
            self.recorder.insert_events(list(records))
        except IntegrityError:
            raise
        except PersistenceError as exc:
            raise StoreError(f"cannot store: {' '.join(str(exc).split())}") from None

    def imported_file(self, digest: str) -> ImportedFile | None:
        """The record of a file imported before with these bytes and options (``import_digest``), or None."""
        from replay.identity import ImportedFile, file_record_id

        rows = self.recorder.select_events(file_record_id(digest), limit=1)
        if not rows:
            return None
        try:
            event = self.mapper.to_domain_event(rows[0])
        except Exception:  # a damaged record: the file is read again, as if never recorded
            return None
        if not isinstance(event, ImportedFile.Recorded) or event.digest != digest:
            return None
        return ImportedFile(event.digest, event.games, event.unsupported, event.warnings)

    def record_imported(self, records: Sequence[ImportedFile]) -> None:
        """Store the records of files whose games are all stored (one insert; one by one when some
        are there already: another import recorded the same file meanwhile)."""
        stored = [self.mapper.to_stored_event(event) for record in records for event in record.collect_events()]
        if not stored:
            return
        try:
            self._insert(stored)
        except IntegrityError:
            for row in stored:
                with contextlib.suppress(IntegrityError):
                    self._insert([row])

    def mapper_settings(self) -> dict[str, str]:
        """The settings that make this store's mapper (cipher, compressor, transcoder), for ``mapper_for``."""
        return {key: value for key, value in self.env.items() if key.endswith(_MAPPER_SETTINGS)}

    def seal_of(self, match_id: UUID) -> Seal | None:
        """The seal saved with a match, if there is one."""
        try:
            seal: Seal = self.repository.get(seal_id(match_id))
        except AggregateNotFoundError:
            return None
        return seal

    def _save(self, match: Match) -> None:
        # The seal and the store chain's link go into the same transaction as the match's new events.
        seal = self.seal_of(match.id) or Seal.open(match.id)
        seal.seal(match.version, match.head)
        conflict = StoreConflict(f"match {match.key!r} changed in the store while this command ran; try again")
        try:
            self.save_linked(match, (match.id, match.version, match.head), seal)
        except IntegrityError:
            raise conflict from None
        except PersistenceError as exc:
            raise StoreError(f"cannot save match {match.key!r}: {' '.join(str(exc).split())}") from None

    def save_tournament(self, tournament: Any) -> None:
        """Save a tournament's new events with the store chain's link. Its events carry no chain
        of their own: the link records the rolling head over all of them (``domain.integrity.roll``),
        so that ``honba check`` sees any of them changed, removed or rolled back."""
        head = GENESIS
        for stored in self.recorder.select_events(tournament.id):
            try:
                head = roll(head, event_digest(self.mapper.to_domain_event(stored)))
            except Exception as exc:  # a row changed behind honba's back
                why = " ".join(str(exc).split())[:200] or type(exc).__name__
                raise StoreError(
                    f"the tournament is damaged in the store at event {stored.originator_version}: "
                    f"it cannot be read ({why}); nothing recorded; see honba check"
                ) from None
        for event in tournament.pending_events:
            head = roll(head, event_digest(event))
        self.save_linked(tournament, (tournament.id, tournament.version, head))

    def save_linked(self, aggregate: Any, stream: tuple[UUID, int, str], *others: Any) -> None:
        """Save an aggregate's new events (and those of ``others``, its seal) with the store
        chain's next link for ``stream`` (its id, last position, head digest), in one transaction.

        Another save may take the chain's next link first: when the aggregate itself is still as
        it was loaded, its events are saved again with the link after that one; when it changed,
        ``IntegrityError`` (the caller's conflict).
        """
        loaded = aggregate.version - len(aggregate.pending_events)
        events = [*aggregate.collect_events(), *(e for other in others for e in other.collect_events())]

        def still_as_loaded(_conflict: BaseException) -> bool:
            latest = self.recorder.select_events(aggregate.id, desc=True, limit=1)
            return bool((latest[0].originator_version if latest else 0) == loaded)

        retrying(lambda _attempt: self.save(*events, *self._link_events([stream])), again=still_as_loaded)

    def store_head(self) -> str:
        """The digest of the store chain's last link (``""`` before the first save, or when it cannot be read)."""
        last = self.recorder.select_events(STORE_CHAIN_ID, desc=True, limit=1)
        try:
            return event_digest(self.mapper.to_domain_event(last[0])) if last else GENESIS
        except Exception:  # a damaged last link: honba check names it
            return GENESIS

    def _links(self, streams: Sequence[tuple[UUID, int, str]]) -> list[StoredEvent]:
        """The store chain's next links, one per (stream id, last position, head digest), encoded."""
        return [self.mapper.to_stored_event(event) for event in self._link_events(streams)]

    def _link_events(self, streams: Sequence[tuple[UUID, int, str]]) -> list[StoreChain.Linked]:
        """The store chain's next links, one per (stream id, last position, head digest)."""
        last = self.recorder.select_events(STORE_CHAIN_ID, desc=True, limit=1)
        version, prior = 0, GENESIS
        if last:
            version = last[0].originator_version
            try:
                prior = event_digest(self.mapper.to_domain_event(last[0]))
            except Exception as exc:  # the last link was changed behind honba's back
                why = " ".join(str(exc).split())[:200] or type(exc).__name__
                raise StoreError(
                    f"the store chain is damaged at link {version}: it cannot be read ({why}); "
                    "nothing recorded; see honba check"
                ) from None
        events = []
        for offset, (stream, position, head) in enumerate(streams, start=1):
            new = link(version + offset, stream, position, head, prior)
            prior = event_digest(new)
            events.append(new)
        return events


def _on_entry(match: Match, entry: int, correct: Callable[[int], None]) -> None:
    """Apply a correction to the entry numbered ``entry``: the number translated to the
    aggregate's position, and a refusal that names entries named by their numbers."""
    from replay.formats.record import entry_numbers  # not loaded by the recording commands

    numbers = entry_numbers(match)
    try:
        correct(numbers.position(entry))
    except EntryRefused as refused:
        raise refused.renamed(numbers.name) from None
