"""A recorded hand's token row read in the statement that reads its match's tails (issue 36, fourteenth round).

Inside ``HonbaApp.reading_ahead`` (a table's hand where it takes no one trip: the token checked, then the
entry applied), a token's row
on SQLite or PostgreSQL comes with the tails the match's next load reads,
and that load takes them: one statement fewer a hand. The token's check is the one it was: an
unknown, wrong, revoked or replaced token is refused as before. Tails read ahead are used once, only
for the positions they were read from, and never outside the block; a save by another process in
between is a conflict, and the retry reads again. Nothing is timed: reads are counted.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from domain.rules import load_preset
from domain.values import AbortiveDraw
from replay.service.common.access import TokenStore
from replay.service.recording import recording
from replay.store.application import HonbaApp

KEY = "ahead"
PLAYERS = ("Ann", "Ben", "Cho", "Dai")
ABORT = AbortiveDraw("four_winds")


@pytest.fixture
def opened(store_db: str) -> Iterator[tuple[HonbaApp, TokenStore, str]]:
    """A match with one hand recorded by this process, and a table token for it."""
    app = HonbaApp.open(store_db)
    recording.start_match(app, KEY, PLAYERS, load_preset("tenhou"))
    recording.record(app, KEY, ABORT, client_key="first")
    tokens = TokenStore(app)
    yield app, tokens, tokens.create("table", KEY)
    app.close()


@pytest.fixture
def reads(opened: tuple[HonbaApp, TokenStore, str], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Each read of a tail or a token's row the store's recorder makes from here on."""
    app, _tokens, _token = opened
    recorder = type(app.recorder)
    seen: list[str] = []
    tails, both = recorder.select_tails, recorder.select_tails_and_token  # type: ignore[attr-defined]

    def reading_tails(self: Any, streams: Any) -> Any:
        seen.append("tails")
        return tails(self, streams)

    def reading_both(self: Any, streams: Any, table: str, token_id: str) -> Any:
        seen.append("tails+token")
        return both(self, streams, table, token_id)

    monkeypatch.setattr(recorder, "select_tails", reading_tails)
    monkeypatch.setattr(recorder, "select_tails_and_token", reading_both)
    return seen


def test_a_hand_entered_reads_its_token_and_tails_in_one_statement(
    opened: tuple[HonbaApp, TokenStore, str], reads: list[str]
) -> None:
    app, tokens, token = opened
    with app.reading_ahead(KEY):
        grant = tokens.check(token)
        assert grant is not None and grant.may_record(KEY)
        recorded = recording.record(app, KEY, ABORT, client_key="second")
    assert reads == ["tails+token"]
    assert recorded.version == app.get_match(KEY).version and len(app.get_match(KEY).history) == 2
    # Outside the block, each read alone, as before.
    reads.clear()
    assert tokens.check(token) is not None
    recording.record(app, KEY, ABORT, client_key="third")
    assert reads == ["tails"]
    assert len(app.load(KEY).match.history) == 3


def test_a_token_unknown_wrong_revoked_or_replaced_is_refused_inside_as_outside(
    opened: tuple[HonbaApp, TokenStore, str], reads: list[str]
) -> None:
    app, tokens, token = opened
    token_id, secret = token.split(".", 1)
    director = tokens.create("director", None)
    for inside in (False, True):
        with app.reading_ahead(KEY) if inside else contextlib.nullcontext():
            assert tokens.check(f"{'0' * len(token_id)}.{secret}") is None  # no such token
            assert tokens.check(f"{token_id}.{secret}x") is None  # its secret wrong
            grant = tokens.check(director)
            assert grant is not None and grant.role == "director"
    assert "tails+token" in reads
    link = tokens.reissue(KEY)
    with app.reading_ahead(KEY):
        assert tokens.check(token) is None
        assert tokens.replaced(token) == KEY
        assert tokens.check(link.token) is not None
    assert tokens.revoke(link.token.split(".", 1)[0])
    with app.reading_ahead(KEY):
        assert tokens.check(link.token) is None
        # What a refused token read ahead is not kept past the block, and the match loads as stored.
    assert len(app.load(KEY).match.history) == 1


def test_tails_read_ahead_serve_one_load_of_the_positions_they_were_read_from(
    opened: tuple[HonbaApp, TokenStore, str], reads: list[str]
) -> None:
    app, tokens, token = opened
    with app.reading_ahead(KEY):
        assert tokens.check(token) is not None
        recording.record(app, KEY, ABORT, client_key="second")
        # The second load in the block reads its own tails (this process saved since: other positions).
        recording.record(app, KEY, ABORT, client_key="third")
    assert reads == ["tails+token", "tails"]
    reads.clear()
    with app.reading_ahead(KEY):
        assert tokens.check(token) is not None
        # Read ahead for one match, not taken by another's load.
        recording.start_match(app, "other", PLAYERS, load_preset("tenhou"))
        recording.record(app, "other", ABORT, client_key="other")
        recording.record(app, KEY, ABORT, client_key="fourth")
    assert reads.count("tails+token") == 1
    assert [len(app.load(k).match.history) for k in (KEY, "other")] == [4, 1]


def test_a_hand_another_process_saved_after_the_token_was_read_is_a_conflict_then_read_again(
    opened: tuple[HonbaApp, TokenStore, str], store_db: str, reads: list[str]
) -> None:
    app, tokens, token = opened
    other = HonbaApp.open(store_db)
    try:
        with app.reading_ahead(KEY):
            assert tokens.check(token) is not None
            recording.record(other, KEY, ABORT, client_key="theirs")
            # The tails read ahead end before their hand: this save conflicts, its retry reads again.
            recording.record(app, KEY, ABORT, client_key="ours")
    finally:
        other.close()
    assert reads[0] == "tails+token" and "tails" in reads[1:]
    history = app.load(KEY).match.history
    assert len(history) == 3
