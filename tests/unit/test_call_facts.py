"""Who made an open call in a hand (``called`` of a hand result): a note of the game log, kept
without disturbing what was stored before it existed."""

from __future__ import annotations

from domain.codec import fact_from_data, fact_to_data
from domain.integrity import digest_of
from domain.match import Match, match_content
from domain.rules import load_preset
from domain.values import ExhaustiveDraw, HandValue, Win, WinResult

PLAYERS = ["Ann", "Ben", "Cho", "Dai"]


def test_a_hand_without_the_call_note_is_stored_as_before() -> None:
    # The stored form of a fact from before the note existed: no "called" key, so its digest
    # (and the hash chain of every stored match) is what it was.
    stored = {"type": "draw", "ready": [0, 2]}
    fact = fact_from_data(stored)
    assert fact.called is None
    assert fact_to_data(fact) == stored
    assert digest_of(fact_to_data(fact)) == digest_of(stored)


def test_nobody_called_is_kept_apart_from_not_known() -> None:
    shown = ExhaustiveDraw(ready=(0,), called=())
    assert fact_to_data(shown)["called"] == []
    assert fact_from_data(fact_to_data(shown)).called == ()
    assert fact_from_data(fact_to_data(ExhaustiveDraw(called=(2, 0)))).called == (0, 2)


def test_a_game_read_with_its_calls_is_the_same_match_as_before() -> None:
    """A log imported before honba kept the calls is the same match when imported again."""

    def play(called: tuple[int, ...] | None) -> Match:
        match = Match.start("m", PLAYERS, load_preset("tenhou"))
        match.record(WinResult(wins=(Win(1, HandValue(han=3, fu=30), 0),), called=called))
        match.record(ExhaustiveDraw(ready=(0, 2), called=None if called is None else ()))
        return match

    before, after = play(None), play((1, 3))
    assert match_content(before.collect_events()) == match_content(after.collect_events())
