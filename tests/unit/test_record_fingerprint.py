"""A recorded fact's client-key fingerprint (what recognises a retry) is made only when a retry asks
for it (issue 36, eighteenth round; the fifteenth made it from the plain data its command made for the
event, not by encoding the fact again), and is the very fingerprint the general path makes
(``_fingerprint``), to the byte, for every kind of fact."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import hv, ron, won

from domain import codec
from domain.errors import RuleViolation
from domain.match import Match, _fingerprint
from domain.rules import load_preset
from domain.values import AbortiveDraw, ExhaustiveDraw, Penalty


def _match() -> Match:
    return Match.start("m", ["Ann", "Ben", "Cho", "Dai"], load_preset("tenhou"))


def test_a_recorded_fact_is_encoded_once_for_its_event_and_its_fingerprint(monkeypatch: pytest.MonkeyPatch) -> None:
    match = _match()
    result = won(ron(1, 0, hv(3, 40)), riichi=[1])
    expected = _fingerprint("record", result)
    encode = codec.to_data

    def once(value: Any) -> Any:
        if value is result:
            raise AssertionError("the fact was encoded again for its fingerprint")
        return encode(value)

    monkeypatch.setattr(codec, "to_data", once)
    match.record(result, client_key="k1")
    monkeypatch.undo()
    assert match.fingerprint_of("k1") == expected


def test_a_recorded_fact_s_fingerprint_is_made_only_when_a_retry_asks(monkeypatch: pytest.MonkeyPatch) -> None:
    import domain.match

    match = _match()
    made: list[str] = []
    fingerprint = domain.match._fingerprint

    def counted(command: str, payload: Any) -> str:
        made.append(command)
        return fingerprint(command, payload)

    monkeypatch.setattr(domain.match, "_fingerprint", counted)
    result = won(ron(1, 0, hv(3, 40)), riichi=[1])
    match.record(result, client_key="k1")
    match.record(AbortiveDraw(kind="four_winds"), client_key="k2")
    assert made == []  # no digest a hand: the facts kept, as the history keeps them
    version = match.version
    match.record(AbortiveDraw(kind="four_winds"), client_key="k2")  # a retry: both fingerprints made
    assert match.version == version and made == ["record", "record"]
    assert match.fingerprint_of("k3") is None


def test_each_kind_s_fingerprint_is_the_general_one_and_a_retry_is_recognised() -> None:
    match = _match()
    facts: list[tuple[str, Any]] = [
        ("win", won(ron(1, 0, hv(3, 40)), riichi=[1])),
        ("draw", ExhaustiveDraw(ready=(0, 2))),
        ("abort", AbortiveDraw(kind="four_winds")),
    ]
    for key, fact in facts:
        match.record(fact, client_key=key)
        assert match.fingerprint_of(key) == _fingerprint("record", fact)
    penalty = Penalty(seat=2, amount=12000, note="東")
    match.penalise(penalty, client_key="penalty")
    assert match.fingerprint_of("penalty") == _fingerprint("record", penalty)
    version = match.version
    match.record(facts[1][1], client_key="draw")  # the same result again: a retry, nothing new
    assert match.version == version
    with pytest.raises(RuleViolation, match="already used for a different command"):
        match.record(ExhaustiveDraw(ready=(1,)), client_key="draw")
