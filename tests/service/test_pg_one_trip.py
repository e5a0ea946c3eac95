"""A table's hand on PostgreSQL in one round trip (issue 36, nineteenth round: ``HonbaApp.one_trip``).

A token whose row this process read before, at a match whose last rows this process wrote, is
checked against that row and the hand made on the match as saved, with no read; the insert's one
statement (``HonbaPostgresRecorder.insert_checked``) checks, under the events' table lock, that the
token's row and the match's and seal's last rows are still exactly those. When they are not, it
inserts nothing, and the hand is made again the way it was before (the token's row and the tails read
in one statement, checked, then the insert): a revoked or replaced token is refused, another
process's hand is read and applied, a changed or removed row is named as damage. Nothing is timed:
the recorder's statements are counted.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from stored_rows import execute

from domain.errors import HonbaError
from domain.match import match_id
from domain.rules import load_preset
from domain.store_errors import DamagedMatch
from domain.values import AbortiveDraw
from replay.service.common.access import TokenStore
from replay.service.recording import recording
from replay.service.recording.entry import entered
from replay.store.application import HonbaApp
from replay.store.errors import NotAsChecked
from replay.store.pgstore import HonbaPostgresRecorder
from replay.store.seal import seal_id

KEY = "trip"
PLAYERS = ("Ann", "Ben", "Cho", "Dai")
ABORT = AbortiveDraw("four_winds")


class Refused(HonbaError):
    """The token may not record here (what the JSON API answers 403)."""


@pytest.fixture
def table(postgres_url: str) -> Iterator[tuple[HonbaApp, TokenStore, str]]:
    """A match with a table token, one hand recorded through ``entered`` (the token's row read and kept)."""
    app = HonbaApp.open(postgres_url)
    recording.start_match(app, KEY, PLAYERS, load_preset("tenhou"))
    tokens = TokenStore(app)
    token = tokens.create("table", KEY)
    hand(app, tokens, token, "first")
    yield app, tokens, token
    app.close()


@pytest.fixture
def statements(table: tuple[HonbaApp, TokenStore, str], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each statement of a hand the recorder sends from here on, by kind; a one-trip insert refused
    is noted with its reason."""
    app, _tokens, _token = table
    recorder = type(app.recorder)
    seen: list[str] = []

    def counting(name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                found = method(self, *args, **kwargs)
            except NotAsChecked as refused:
                seen.append(f"{name} refused ({refused.why})")
                raise
            seen.append(name)
            return found

        return counted

    for name in ("select_tails", "select_tails_and_token", "insert_events", "insert_checked"):
        monkeypatch.setattr(recorder, name, counting(name, getattr(recorder, name)))
    return seen


def hand(app: HonbaApp, tokens: TokenStore, token: str, client_key: str | None = None) -> int:
    """A table's abortive draw as the JSON API enters it: the token checked, then the hand; its version."""

    def step() -> int:
        grant = tokens.check(token)
        if grant is None or not grant.may_record(KEY):
            raise Refused("this link may not enter results at this table")
        return recording.record(app, KEY, ABORT, client_key=client_key).version

    return entered(app, KEY, step)


def elsewhere(postgres_url: str, action: Callable[[HonbaApp], Any]) -> Any:
    """``action`` done by another process's store on the same database (its own connections, its own
    kept rows): what this process's one trip must notice."""
    other = HonbaApp.open(postgres_url)
    try:
        return action(other)
    finally:
        other.close()


def history(app: HonbaApp) -> int:
    return len(app.read(KEY).match.history)


def test_a_hand_after_the_process_s_own_save_is_one_statement(
    table: tuple[HonbaApp, TokenStore, str], statements: list[str]
) -> None:
    app, tokens, token = table
    for n in range(3):
        hand(app, tokens, token, f"again-{n}")
    assert statements == ["insert_checked"] * 3
    assert history(app) == 4
    assert app.read(KEY).damage is None


def test_a_token_revoked_by_another_process_is_refused_and_nothing_is_recorded(
    table: tuple[HonbaApp, TokenStore, str], statements: list[str], postgres_url: str
) -> None:
    app, tokens, token = table
    assert elsewhere(postgres_url, lambda other: TokenStore(other).revoke(token.split(".", 1)[0]))
    with pytest.raises(Refused):
        hand(app, tokens, token, "after-revoked")
    # The insert checked the token's row and wrote nothing; the hand made again read it: gone.
    assert statements == ["insert_checked refused (token)", "select_tails_and_token"]
    assert history(app) == 1


def test_a_table_link_issued_again_by_another_process_refuses_the_old_one(
    table: tuple[HonbaApp, TokenStore, str], statements: list[str], postgres_url: str
) -> None:
    app, tokens, token = table
    link = elsewhere(postgres_url, lambda other: TokenStore(other).reissue(KEY))
    with pytest.raises(Refused):
        hand(app, tokens, token, "old-link")
    assert statements == ["insert_checked refused (token)", "select_tails_and_token"]
    assert tokens.replaced(token) == KEY
    statements.clear()
    hand(app, tokens, link.token, "new-link")  # the new link's row is read with the tails, then one trip
    hand(app, tokens, link.token, "new-link-2")
    assert statements == ["select_tails_and_token", "insert_events", "insert_checked"]
    assert history(app) == 3


def test_another_process_s_hand_in_between_is_read_checked_and_followed(
    table: tuple[HonbaApp, TokenStore, str], statements: list[str], postgres_url: str
) -> None:
    app, tokens, token = table
    elsewhere(postgres_url, lambda other: recording.record(other, KEY, ABORT, client_key="theirs"))
    statements.clear()
    version = hand(app, tokens, token, "ours")
    # Refused for the rows (theirs after the head this process wrote), then read, checked, applied:
    # no conflict for the table to send again.
    assert statements == ["insert_checked refused (rows)", "select_tails_and_token", "insert_events"]
    assert history(app) == 3 and version == app.read(KEY).match.version
    statements.clear()
    hand(app, tokens, token, "ours-next")  # this process wrote last again: one trip
    assert statements == ["insert_checked"]


@pytest.mark.parametrize("stream", ["the match", "its seal"])
def test_a_last_row_changed_behind_the_process_s_back_is_damage_and_nothing_is_recorded(
    table: tuple[HonbaApp, TokenStore, str], statements: list[str], postgres_url: str, stream: str
) -> None:
    app, tokens, token = table
    uuid = match_id(KEY) if stream == "the match" else seal_id(match_id(KEY))
    ((position, state),) = execute(
        postgres_url,
        "SELECT originator_version, state FROM EVENTS WHERE originator_id = ? ORDER BY originator_version DESC LIMIT 1",
        uuid,
    )
    data = json.loads(bytes(state))
    if stream == "the match":
        data["fact"]["_data_"]["kind"] = "nine_terminals"
    else:
        data["position"] = data["position"] + 1
    changed = json.dumps(data).encode()
    execute(
        postgres_url,
        "UPDATE EVENTS SET state = ? WHERE originator_id = ? AND originator_version = ?",
        changed,
        uuid,
        position,
    )
    with pytest.raises(DamagedMatch, match="nothing recorded"):
        hand(app, tokens, token, "on-changed")
    assert statements[0] == "insert_checked refused (rows)"
    assert "insert_events" not in statements
    ((now,),) = execute(postgres_url, "SELECT MAX(originator_version) FROM EVENTS WHERE originator_id = ?", uuid)
    assert now == position


def test_the_last_hand_rolled_back_behind_the_process_s_back_is_refused(
    table: tuple[HonbaApp, TokenStore, str], statements: list[str], postgres_url: str
) -> None:
    app, tokens, token = table
    hand(app, tokens, token, "second")
    for uuid in (match_id(KEY), seal_id(match_id(KEY))):
        execute(
            postgres_url,
            "DELETE FROM EVENTS WHERE originator_id = ? AND originator_version = "
            "(SELECT MAX(originator_version) FROM EVENTS WHERE originator_id = ?)",
            uuid,
            uuid,
        )
    with pytest.raises(DamagedMatch, match="rolled back"):
        hand(app, tokens, token, "on-rolled-back")
    assert statements[:2] == ["insert_checked", "insert_checked refused (rows)"]
    assert "insert_events" not in statements


def test_an_answer_with_nothing_to_insert_rests_on_rows_read(
    table: tuple[HonbaApp, TokenStore, str], statements: list[str]
) -> None:
    app, tokens, token = table
    version = hand(app, tokens, token, "sent-twice")
    # The same entry sent again (its answer lost): nothing to insert, so nothing was checked by the
    # one trip; the step is made again on the rows and the token read, and answers the same.
    assert hand(app, tokens, token, "sent-twice") == version
    assert statements == ["insert_checked", "select_tails_and_token"]
    assert history(app) == 2


def test_a_save_of_the_match_by_another_thread_after_the_token_s_check_makes_the_hand_again_with_the_reads(
    table: tuple[HonbaApp, TokenStore, str], statements: list[str]
) -> None:
    app, tokens, token = table
    steps: list[str] = []

    def step() -> int:
        grant = tokens.check(token)
        assert grant is not None
        steps.append("step")
        if len(steps) == 1:
            # What was kept of the match changes under the step (as another thread's save replaces it).
            app.checked.forget(KEY)
        return recording.record(app, KEY, ABORT).version

    version = entered(app, KEY, step)
    # Nothing written by the first step (its token taken unread, its match no longer as kept); the
    # second, with nothing kept of the match, read the token's row alone and the match whole (neither
    # counted here), and inserted plainly.
    assert steps == ["step", "step"]
    assert statements == ["insert_events"]
    assert history(app) == 2 and version == app.read(KEY).match.version


def test_a_refusal_on_the_one_trip_is_answered_only_after_the_token_is_read(
    table: tuple[HonbaApp, TokenStore, str], statements: list[str]
) -> None:
    app, tokens, token = table
    token_id, secret = token.split(".", 1)
    with pytest.raises(Refused):
        hand(app, tokens, f"{token_id}.{secret}x")  # a wrong secret: refused on the kept row, then read
    assert statements == ["select_tails_and_token"]
    assert history(app) == 1


def tries_of(app: HonbaApp, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each load of the match from here on: one for each try of a command (``on_match``'s)."""
    load = app.load
    tried: list[str] = []

    def loading(key: str) -> Any:
        tried.append(key)
        return load(key)

    monkeypatch.setattr(app, "load", loading)
    return tried


def _first_checked_insert_committed_answer_lost(monkeypatch: pytest.MonkeyPatch, app: HonbaApp) -> None:
    """The first one-trip insert commits and its answer is lost (a connection dropped after the
    commit): the recorder tries it again on another, which finds its rows there already."""
    run = HonbaPostgresRecorder._run
    tries: list[int] = []

    def committed_then_lost(self: HonbaPostgresRecorder, query: bytes, params: Any) -> Any:
        found = run(self, query, params)
        tries.append(1)
        if len(tries) == 1 and b"insert_checked" in query:
            from eventsourcing.persistence import OperationalError

            raise OperationalError("the server's answer was lost")
        return found

    monkeypatch.setattr(app.recorder, "pause", 0.0)
    monkeypatch.setattr(HonbaPostgresRecorder, "_run", committed_then_lost)


def test_a_refused_try_again_after_a_lost_answer_is_a_conflict_as_the_plain_insert_s(
    table: tuple[HonbaApp, TokenStore, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, tokens, token = table
    _first_checked_insert_committed_answer_lost(monkeypatch, app)
    # The first try committed (its rows are the heads now): the try again is refused as a row there
    # already, not made again on the rows read (which would record the hand twice).
    with pytest.raises(HonbaError, match="changed in the store"):
        hand(app, tokens, token)
    monkeypatch.undo()
    assert history(app) == 2


def test_a_committed_first_try_whose_answer_was_lost_is_answered_by_the_command_s_retry_reading_it(
    table: tuple[HonbaApp, TokenStore, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    app, tokens, token = table
    _first_checked_insert_committed_answer_lost(monkeypatch, app)
    tried = tries_of(app, monkeypatch)
    # The command's retry (its client key) reads the match, finds its hand recorded, and answers it:
    # nothing written again, the hand recorded once.
    version = hand(app, tokens, token, "sent-once")
    monkeypatch.undo()
    assert tried == [KEY, KEY]
    assert history(app) == 2 and version == app.read(KEY).match.version


def test_the_one_trip_insert_is_prepared_on_every_connection_as_the_server_starts(
    table: tuple[HonbaApp, TokenStore, str],
) -> None:
    from replay.service.common.opening import ready_to_serve

    app, _tokens, _token = table
    recorder = app.recorder
    assert isinstance(recorder, HonbaPostgresRecorder)
    ready_to_serve(app)
    ((text, _formats, _params),) = recorder._trip
    pool = recorder.datastore.pool
    held = [pool.getconn() for _ in range(pool.get_stats()["pool_size"])]
    try:
        for conn in held:
            rows = conn.execute("SELECT statement FROM pg_prepared_statements", prepare=False).fetchall()
            assert text.decode() in {row["statement"] for row in rows}
    finally:
        for conn in held:
            pool.putconn(conn)


def test_on_sqlite_a_hand_reads_its_token_and_tails_as_before(tmp_path: Path) -> None:
    app = HonbaApp.open(str(tmp_path / "honba.sqlite"))
    try:
        recording.start_match(app, KEY, PLAYERS, load_preset("tenhou"))
        tokens = TokenStore(app)
        token = tokens.create("table", KEY)
        hand(app, tokens, token, "hand-0")
        read = type(app.recorder).select_tails_and_token  # type: ignore[attr-defined]
        seen: list[str] = []

        def reading(self: Any, *args: Any) -> Any:
            seen.append("select_tails_and_token")
            return read(self, *args)

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(type(app.recorder), "select_tails_and_token", reading)
            hand(app, tokens, token, "hand-1")
        assert seen == ["select_tails_and_token"]
        assert history(app) == 2
    finally:
        app.close()


def _first_checked_insert_lost_unsent(monkeypatch: pytest.MonkeyPatch, app: HonbaApp) -> None:
    """The first one-trip insert fails before it reaches the server (a connection the server dropped):
    nothing committed; the recorder tries it again on another."""
    run = HonbaPostgresRecorder._run
    failed: list[bytes] = []

    def lost_unsent(self: HonbaPostgresRecorder, query: bytes, params: Any) -> Any:
        if b"insert_checked" in query and not failed:
            failed.append(query)
            from eventsourcing.persistence import OperationalError

            raise OperationalError("server closed the connection unexpectedly")
        return run(self, query, params)

    monkeypatch.setattr(app.recorder, "pause", 0.0)
    monkeypatch.setattr(HonbaPostgresRecorder, "_run", lost_unsent)


@pytest.mark.parametrize("client_key", ["sent-again", None])
def test_a_token_revoked_elsewhere_records_nothing_when_its_first_try_is_lost(
    table: tuple[HonbaApp, TokenStore, str],
    postgres_url: str,
    monkeypatch: pytest.MonkeyPatch,
    client_key: str | None,
) -> None:
    """The first try lost before it committed, the try again refused (the token revoked meanwhile): the
    outcome is not known to the process (a try again refused is a conflict, as the plain insert's),
    so nothing more is written in that hand, neither by the command's own retry (a client key) nor by
    the hand made again; the client is told to send it again, and its next hand reads the token."""
    app, tokens, token = table
    assert elsewhere(postgres_url, lambda other: TokenStore(other).revoke(token.split(".", 1)[0]))
    _first_checked_insert_lost_unsent(monkeypatch, app)
    tried = tries_of(app, monkeypatch)
    with pytest.raises(HonbaError, match="changed in the store"):
        hand(app, tokens, token, client_key)
    monkeypatch.undo()
    # With a client key, the command tried again once: it read the match (the first try might have
    # committed), found no hand of its key, and was refused at its save; no later try could write,
    # so the client had its answer at once (it had 16 tries before: issue 36, twenty-first round).
    assert tried == ([KEY, KEY] if client_key else [KEY])
    assert history(app) == 1
    with pytest.raises(Refused):
        hand(app, tokens, token, client_key)
    assert history(app) == 1


def test_a_link_issued_again_in_this_process_is_read_at_the_old_link_s_next_hand(
    table: tuple[HonbaApp, TokenStore, str], statements: list[str]
) -> None:
    """The old link's row as this process read it is forgotten when it issues the link again: the old
    link's next hand reads its row (no one trip) and is refused."""
    app, tokens, token = table
    tokens.reissue(KEY)
    statements.clear()
    with pytest.raises(Refused):
        hand(app, tokens, token, "old-link")
    assert statements == ["select_tails_and_token"]
    assert history(app) == 1
