"""What building a match does once rather than per hand or per event (issue 36, eleventh round).

A match makes its entry checks and its name in a refusal once (its players and rules never change);
its command applies each event it makes as the library's ``mutate`` applies it, without the checks
that the event names this match and its next version (true of every event it makes; a stored event
replayed still goes through them); rules stored under another description are retitled once per
description from the other values, never read back from their bytes; and the import asks the table
once per hand, naming the hand only in a refusal.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import hv, ron, started, won
from eventsourcing.domain import CanMutateAggregate

import domain.match as match_module
from domain import integrity
from domain.errors import RuleViolation
from domain.integrity import canonical, digest_of, plain, plain_canonical, written_exactly
from domain.match import Match, rules_digest, stored_rules
from domain.rules import Ruleset, load_preset, other_values
from domain.values import DealPass, Penalty, TableState
from replay.formats.logmodel import LogError, LoggedGame, LoggedHand
from replay.service.imports.importing import match_from_log


def test_a_match_makes_its_entry_checks_and_its_name_once(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[Any] = []
    checks = match_module.EntryChecks

    def counted(*args: Any) -> Any:
        made.append(args)
        return checks(*args)

    monkeypatch.setattr(match_module, "EntryChecks", counted)
    match = started()
    for _ in range(3):
        match.record(won(ron(1, 2, hv(3, 30))))
    assert len(made) == 1
    # A refusal still names the match.
    match.end("agreed")
    with pytest.raises(RuleViolation, match="match 'test-match' has ended"):
        match.record(won(ron(1, 2, hv(3, 30))))


def test_a_command_applies_its_events_without_the_library_s_mutate(monkeypatch: pytest.MonkeyPatch) -> None:
    mutated: list[Any] = []
    mutate = CanMutateAggregate.mutate

    def counted(self: Any, aggregate: Any) -> Any:
        mutated.append(self)
        return mutate(self, aggregate)

    match = started()
    monkeypatch.setattr(CanMutateAggregate, "mutate", counted)
    match.record(won(ron(1, 2, hv(3, 30))))
    match.record(won(ron(0, 2, hv(3, 30))))
    assert mutated == []
    events = match.pending_events
    # As the library's mutate leaves it: the last event's version and time.
    assert match.version == events[-1].originator_version == len(events)
    assert match.modified_on == events[-1].timestamp
    # The same events replayed one by one through the library's mutate give the same match.
    replayed = None
    for event in events:
        replayed = event.mutate(replayed)
    assert isinstance(replayed, Match)
    assert replayed.version == match.version and replayed.head == match.head
    assert replayed.fold() == match.fold()
    assert len(mutated) == len(events) - 1  # the start's own mutate is its class's, not counted


def test_rules_under_another_description_are_retitled_once_per_description_never_read_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    match_module._RULES.clear()
    match_module._undescribed_rules.cache_clear()
    values = load_preset("tenhou").to_dict()
    days = [f"Tenhou, played on 2018-02-0{day}" for day in (1, 2, 1, 2, 3)]
    expected = [Ruleset.from_stored({**values, "description": day}) for day in days]
    stored_rules({**values, "description": "first"})  # the other values built once, from their bytes
    retitled: list[str] = []
    read_back: list[Any] = []
    original, loads = Ruleset.retitled, match_module.json.loads

    def counted(self: Ruleset, description: str) -> Ruleset:
        retitled.append(description)
        return original(self, description)

    def counted_loads(text: Any) -> Any:
        read_back.append(text)
        return loads(text)

    monkeypatch.setattr(Ruleset, "retitled", counted)
    monkeypatch.setattr(match_module.json, "loads", counted_loads)
    built = [stored_rules({**values, "description": day}) for day in days]
    assert retitled == [days[0], days[1], days[4]]
    assert read_back == []  # each description's values are not read back from their bytes
    assert built[0] is built[2] and built[1] is built[3]
    assert built == expected
    assert match_module._undescribed_rules.cache_info().misses == 1


def test_the_digest_of_rules_under_another_description_is_put_together_without_encoding_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A Tenhou log's rules name its hour (325 descriptions among the corpus's 633 games): their
    digest (``rules_digest``, each match's content) is the other values' canonical bytes, worked out
    once, with each description's text in its place; the same digest as the rules encoded whole."""
    match_module._RULES.clear()
    match_module._RETITLED.clear()
    match_module._rules_digest.cache_clear()
    match_module._described_frame.cache_clear()
    values = load_preset("tenhou").to_dict()
    days = [f"Tenhou, played on 2018-02-0{day}" for day in (1, 2, 3)] + ['東 "quoted" \\ \u2028 \x01']
    expected = [digest_of(plain(Ruleset.from_stored({**values, "description": day}).to_dict())) for day in days]
    stored = [{**values, "description": day} for day in days]
    for one in stored:
        stored_rules(one)  # as each match is built
    encoded: list[str] = []
    original = Ruleset.to_dict

    def counted(self: Ruleset) -> dict[str, Any]:
        encoded.append(self.description)
        return original(self)

    monkeypatch.setattr(Ruleset, "to_dict", counted)
    assert [rules_digest(one) for one in stored] == expected
    assert len(encoded) == 1  # the other values' rules once, none of the four retitled


@pytest.mark.parametrize("description", ["Tenhou, played on 2018-02-01", '"description":"x"', "", '東 \\ "q"'])
def test_the_other_rule_values_bytes_are_cut_from_the_values_own(
    description: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rules under a new description: the other values' canonical bytes (what their ``Ruleset`` is
    built once from) are the values' own without the description's member, not written again."""
    values = {**load_preset("tenhou").to_dict(), "description": description}
    key = plain_canonical(values)
    rest = plain_canonical({name: value for name, value in values.items() if name != "description"})
    assert match_module._without_description(key, description) == rest
    match_module._RULES.clear()
    written: list[Any] = []
    original = match_module.plain_canonical

    def counted(value: Any) -> bytes:
        written.append(value)
        return original(value)

    monkeypatch.setattr(match_module, "plain_canonical", counted)
    assert stored_rules(values) == Ruleset.from_stored(values)
    assert written == [values]  # the values' key, and nothing else written
    assert match_module._RETITLED[key] == (rest, description)


def test_rule_values_whose_description_member_is_not_found_once_are_written_again() -> None:
    values = {**load_preset("tenhou").to_dict(), "description": "d"}
    key = plain_canonical(values)
    assert match_module._without_description(key + key, "d") is None
    assert match_module._without_description(key, "another") is None


def _game(results: list[Any]) -> LoggedGame:
    rules = load_preset("tenhou")
    hands = tuple(
        LoggedHand(
            round_wind=0,
            hand_number=1,
            dealer=0,
            counters=n,
            deposit_sticks=0,
            scores=(25000,) * 4,
            result=result,
            position=f"hand {n + 1}",
        )
        for n, result in enumerate(results)
    )
    return LoggedGame(
        file="log.xml", game_id="g1", format="tenhou-xml", players=("A", "B", "C", "D"), rules=rules, hands=hands
    )


def test_an_import_names_the_hand_only_when_it_refuses_one(monkeypatch: pytest.MonkeyPatch) -> None:
    labels: list[str] = []
    label = TableState.hand_label

    def counted(self: TableState) -> str:
        labels.append(label.fget(self))  # type: ignore[attr-defined]
        return labels[-1]

    monkeypatch.setattr(TableState, "hand_label", property(counted))
    match_from_log(_game([won(ron(0, 2, hv(3, 30))), won(ron(0, 2, hv(3, 30)))]))
    assert labels == []
    with pytest.raises(LogError, match=r"hand E1-1: "):
        match_from_log(_game([won(ron(0, 2, hv(3, 30))), won(ron(0, 0, hv(3, 30)))]))
    assert labels == ["E1-1"]


def test_the_history_without_corrections_is_in_force_as_recorded_with_the_end_moved_last() -> None:
    """``effective_entries`` of a match no referee corrected (its every import): each entry as it
    was recorded, in order; a penalty recorded after the end counts before it, as with corrections."""
    from domain.amendments import Correction, effective_entries, effective_facts
    from domain.values import ExhaustiveDraw, MatchEnd, Penalty

    draw, end, penalty = ExhaustiveDraw(ready=(1,)), MatchEnd("agreed"), Penalty(seat=2, amount=1200)
    assert effective_entries([(1, draw), (2, end)], {}) == [(1, draw), (2, end)]
    assert effective_entries([(1, draw), (2, end), (3, penalty)], {}) == [(1, draw), (3, penalty), (2, end)]
    assert effective_facts([(1, draw), (2, end), (3, penalty)], {}) == [draw, penalty, end]
    # The same as the general path gives where a correction changes nothing of these entries.
    other = {9: Correction(9, Penalty(seat=1, amount=1200), "ref", "why", "2026-01-01T00:00:00", 10)}
    history = [(1, draw), (2, end), (3, penalty)]
    assert effective_entries(history, {}) == effective_entries(history, other)


def test_a_command_makes_each_event_as_its_class_makes_it() -> None:
    # Issue 36, twenty-first round: the attributes set in one step, not one object.__setattr__ each.
    match = started()
    match.set_time_limit(90, by="director")
    match.record(won(ron(1, 2, hv(3, 30))))
    match.penalise(Penalty(2, 1200))
    match.void(3, by="referee", reason="typed twice")
    match.end("agreed")
    events = match.pending_events[1:]
    kinds = {type(event) for event in events}
    assert {Match.TimeLimitSet, Match.HandWon, Match.PenaltyApplied, Match.Corrected, Match.MatchEnded} <= kinds
    for event in events:
        made = type(event)(**vars(event))
        # The same attributes in the same order (the store's mapper reads them in order), equal.
        assert list(vars(event).items()) == list(vars(made).items())
        assert event == made


def test_an_event_maker_keeps_its_class_s_checks() -> None:
    make = match_module.event_maker(Match.DealPassed)
    when = Match.DealPassed.create_timestamp()
    fact = DealPass(0, 1, 0, 2)
    event = make(match_module.match_id("m"), 3, when, "prior", {"fact": fact, "client_key": None})
    assert type(event) is Match.DealPassed and event.fact is fact and event.prior == "prior"
    # The library's own check of the id, and a field missing or unknown refused by the class itself.
    with pytest.raises(TypeError, match="non-UUID originator_id"):
        make("m", 3, when, "prior", {"fact": fact, "client_key": None})
    with pytest.raises(TypeError, match="client_key"):
        make(match_module.match_id("m"), 3, when, "prior", {"fact": fact})
    with pytest.raises(TypeError, match="reason"):
        make(match_module.match_id("m"), 3, when, "prior", {"fact": fact, "reason": "x"})


def test_an_event_maker_leaves_a_class_with_an_init_of_its_own_to_the_class() -> None:
    # An ``__init__`` written by hand may change what it is given: only the one dataclasses wrote is
    # replaced by the maker's one step (the review of the twenty-first round).
    class Normalised(Match.DealPassed):
        def __init__(self, **fields: Any) -> None:
            super().__init__(**{**fields, "client_key": "normalised"})

    make = match_module.event_maker(Normalised)
    when = Match.DealPassed.create_timestamp()
    event = make(match_module.match_id("m"), 3, when, "prior", {"fact": DealPass(0, 1, 0, 2), "client_key": None})
    assert type(event) is Normalised and event.client_key == "normalised"


@pytest.mark.parametrize(
    "description",
    ["a log of 2018-01-02 03:00", '東南 "quoted" \\ 1e+5 1.5 null', 'with "description":"x" inside', ""],
)
def test_a_start_s_rule_values_and_bytes_are_the_first_rules_with_this_description(description: str) -> None:
    # Issue 36, twenty-first round: a log's rules are its room's named with its date; the values and
    # canonical bytes of the first rules of the same other values are taken, this description put in.
    match_module._FRAMES.clear()
    room = load_preset("tenhou")
    first = match_module.start_values(room.retitled("a log of 2018-01-01 00:00"))
    assert len(match_module._FRAMES) == 1
    rules = room.retitled(description)
    values = match_module.start_values(rules)
    expected = rules.to_dict()
    assert list(values.items()) == list(expected.items())
    # The bytes its event's digest and row take: what writing the whole values gives, found exact.
    assert written_exactly(values) == integrity.json_exactly(expected) == canonical(expected)
    # No list shared with another match's values.
    assert all(values[name] is not first[name] for name, value in values.items() if type(value) is list)
    # The match finds the rules the stored values read back as: these very rules, of the same types.
    match = Match.start("m", ["a", "b", "c", "d"], rules)
    stored = match.pending_events[0].rules
    read_back = Ruleset.from_stored(json.loads(canonical(stored)))
    assert match.rules == read_back and match_module._alike(other_values(match.rules), other_values(read_back))
    assert match.rules.description == read_back.description == description
    assert rules_digest(stored) == digest_of(plain(read_back.to_dict()))


def test_values_alike_are_equal_and_of_the_same_types_nested_too() -> None:
    assert match_module._alike((1, (2, "a"), None), (1, (2, "a"), None))
    assert not match_module._alike((True,), (1,))
    assert not match_module._alike(((1, 2),), ((1.0, 2),))
    assert not match_module._alike((1, 2), (1, 2, 3))


def test_rules_of_equal_values_in_other_objects_are_written_whole() -> None:
    match_module._FRAMES.clear()
    room = load_preset("tenhou")
    match_module.start_values(room)
    # The same values, other objects (a rule file read again): not the frame's, written whole.
    again = Ruleset.from_dict(room.to_dict())
    writes: list[Any] = []
    original = match_module.written_for_event

    def counted(value: Any) -> None:
        writes.append(value)
        original(value)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(match_module, "written_for_event", counted)
        values = match_module.start_values(again)
        assert writes == [values]
        # And with the frame's own objects, nothing written again.
        match_module.start_values(room.retitled("another hour"))
        assert writes == [values]
    assert values == again.to_dict()
