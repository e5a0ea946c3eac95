"""The JSON Lines record file (docs/record-format.md): reading, refusing, writing back."""

from __future__ import annotations

import json

import pytest

from domain.match import Match, facts_of
from domain.values import AbortiveDraw, AbortKind, ExhaustiveDraw, HandValue, Win, WinResult
from replay.formats.record import PenaltyLine, RecordError, build_match, export_record, parse_record, unchained

START = '{"type": "start", "key": "t1", "players": ["Ann", "Ben", "Cho", "Dai"], "rules": "tenhou"}'


def record(*lines: str, start: str = START) -> str:
    return "\n".join((start, *lines)) + "\n"


def load(text: str, name: str = "game.jsonl") -> Match:
    return build_match(parse_record(text, name=name), name=name)


def export(match: Match) -> str:
    """The export without its chain (the chain has tests of its own, in test_integrity.py)."""
    return unchained(export_record(match, facts_of(match.pending_events)))


def refusal(text: str, name: str = "game.jsonl") -> str:
    with pytest.raises(RecordError) as caught:
        load(text, name)
    return str(caught.value)


# Errors name the file and the line


def test_malformed_line_names_file_and_line() -> None:
    text = record('{"type": "draw", "ready": ["Ann"]}', '{"type": "win", "wins": [')
    assert refusal(text).startswith("game.jsonl:3: not valid JSON")


def test_result_the_rules_refuse_names_file_and_line() -> None:
    # Line 4 (after a blank line 3) is a 1 han 20 fu ron, which cannot exist.
    text = record(
        '{"type": "draw", "ready": ["Ann"]}',
        "",
        '{"type": "win", "wins": [{"winner": "Ben", "from": "Ann", "han": 1, "fu": 20}]}',
    )
    message = refusal(text)
    assert message.startswith("game.jsonl:4: ")
    assert "1 han 20 fu" in message


def test_first_line_must_start_the_match() -> None:
    assert refusal('{"type": "draw", "ready": []}\n').startswith("game.jsonl:1: the first line must be the match start")


def test_one_match_per_file() -> None:
    assert "second 'start' line" in refusal(record(START))


def test_empty_file_is_refused() -> None:
    assert "empty record file" in refusal("\n\n")


# Unknown or wrong fields are refused


@pytest.mark.parametrize(
    ("start", "line", "named"),
    [
        (START[:-1] + ', "colour": "red"}', "", "unknown field 'colour'"),
        (START, '{"type": "win", "wins": [{"winner": "Ben", "from": "Ann", "han": 1, "fu": 30}], "yaku": 2}', "'yaku'"),
        (START, '{"type": "win", "wins": [{"winner": "Ben", "han": 1, "fu": 30, "yaku": 2}]}', "'yaku'"),
        (START, '{"type": "win", "wins": [{"winner": "Ben", "han": 1, "fu": 30, "facts": {"yaku": 2}}]}', "'yaku'"),
        (START, '{"type": "draw", "ready": [], "tenpai": ["Ann"]}', "'tenpai'"),
        (START, '{"type": "abort", "kind": "four_winds", "who": "Ann"}', "'who'"),
        (START, '{"type": "penalty", "player": "Ann", "amount": 1000, "paid": "all"}', "'paid'"),
        (START, '{"type": "end", "reason": "agreed", "by": "all"}', "'by'"),
        (START[:-1] + ', "overrides": {"akadora": 3}}', "", "unknown rule 'akadora'"),
        (START[:-1] + ', "opening": {"players": 4, "scores": [1, 2, 3, 4], "honba": 2}}', "", "'honba'"),
    ],
)
def test_unknown_fields_are_refused(start: str, line: str, named: str) -> None:
    text = record(line, start=start) if line else start + "\n"
    message = refusal(text)
    assert message.startswith(f"game.jsonl:{2 if line else 1}")
    assert named in message


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ('{"type": "deal_pass", "from_dealer": 0, "to_dealer": 1, "round_wind": 0, "hand_number": 2}', "'type'"),
        ('{"type": "abort", "kind": "five_winds"}', "five_winds"),
        ('{"type": "win", "wins": []}', "non-empty 'wins'"),
        ('{"type": "penalty", "player": "Ann", "amount": "lots"}', "whole 'amount'"),
        ('{"type": "penalty", "player": "Ann", "amount": 1000, "share": "to_me"}', "to_me"),
    ],
)
def test_lines_that_are_not_a_result_are_refused(line: str, named: str) -> None:
    message = refusal(record(line))
    assert message.startswith("game.jsonl:2")
    assert named in message


# Players by name or seat number


def test_players_by_name_or_seat_number_give_the_same_facts() -> None:
    by_name = record(
        '{"type": "win", "wins": [{"winner": "Ben", "from": "Ann", "han": 3, "fu": 30}], "riichi": ["Ben"]}',
        '{"type": "draw", "ready": ["Cho", "Dai"]}',
    )
    by_seat = record(
        '{"type": "win", "wins": [{"winner": 1, "from": 0, "han": 3, "fu": 30}], "riichi": [1]}',
        '{"type": "draw", "ready": [2, 3]}',
    )
    assert parse_record(by_name).facts == parse_record(by_seat).facts
    assert parse_record(by_seat).facts[0] == WinResult((Win(1, HandValue(han=3, fu=30), discarder=0),), riichi=(1,))


@pytest.mark.parametrize("who", ['"Eve"', "4", "-1", "true"])
def test_a_player_not_at_the_table_is_refused(who: str) -> None:
    message = refusal(record(f'{{"type": "win", "wins": [{{"winner": {who}, "han": 2, "fu": 30}}]}}'))
    assert message.startswith("game.jsonl:2.wins[0].winner")


# What the file holds and what it leaves to the rules


def test_every_result_kind_is_read_into_domain_facts() -> None:
    facts = parse_record(
        record(
            '{"type": "draw", "ready": ["Ann"], "riichi": ["Ann"], "nagashi": ["Ann"]}',
            '{"type": "abort", "kind": "nine_terminals"}',
            '{"type": "penalty", "player": "Dai", "amount": 12000, "kind": "chombo", "share": "off_table"}',
        )
    ).facts
    assert facts == (
        ExhaustiveDraw(ready=(0,), riichi=(0,), nagashi=(0,)),
        AbortiveDraw(AbortKind.NINE_TERMINALS),
        # A penalty is read as written; the rules fill in what it leaves out at its table.
        PenaltyLine(3, 12000, "chombo", "off_table", ""),
    )


def test_deal_passes_and_the_automatic_end_are_not_written() -> None:
    # Ben's yakuman off the dealer Ann: 32,000 from 25,000 leaves Ann below zero, which ends the match.
    text = record('{"type": "win", "wins": [{"winner": "Ben", "from": "Ann", "limit": "yakuman"}]}')
    match = load(text)
    assert match.state.finished
    assert match.state.end_reason == "bust"
    assert export(match) == text
    assert load(export(match)).state == match.state


def test_an_early_end_under_a_reason_the_rules_decide_is_refused() -> None:
    message = refusal(record('{"type": "end", "reason": "bust"}'))
    assert message.startswith("game.jsonl:2: ")
    assert "bust" in message


def test_riichi_and_deposits_are_replayed_from_the_rules() -> None:
    text = record(
        '{"type": "draw", "ready": ["Ann"], "riichi": ["Ann"]}',
        '{"type": "win", "wins": [{"winner": "Ben", "from": "Cho", "han": 1, "fu": 30}]}',
    )
    # The draw: Ann ready alone, 1000 from each other player, her stick on the table; she keeps the deal.
    # Then Ben's 1 han 30 fu (1000) + 1 counter (300) from Cho, and the 1000 stick.
    assert load(text).state.scores == (27000, 26300, 22700, 24000)


# Round trips: export writes back what import read


FULL = (
    "\n".join(
        [
            json.dumps(
                {
                    "type": "start",
                    "key": "full-1",
                    "players": ["Ann", "Ben", "Cho", "Dai"],
                    "rules": "tenhou",
                    "overrides": {"kiriage_mangan": True, "uma": [30, 10, -10, -30]},
                    "source": {"format": "honba", "event": "club night"},
                    "opening": {
                        "players": 4,
                        "scores": [30000, 20000, 25000, 25000],
                        "hand_number": 2,
                        "dealer": 1,
                        "counters": 1,
                        "deposits": 1000,
                    },
                }
            ),
            '{"type": "win", "wins": [{"winner": "Cho", "from": "Ann", "han": 3, "fu": 30}, '
            '{"winner": "Dai", "from": "Ann", "limit": "mangan"}], "riichi": ["Dai"]}',
            '{"type": "win", "wins": [{"winner": "Ann", "from": "Ben", "limit": "yakuman", "pao": "Cho", '
            '"facts": {"winning_tile": "7z"}}]}',
            '{"type": "draw", "ready": ["Ben"], "nagashi": ["Ben"]}',
            '{"type": "abort", "kind": "four_riichi", "riichi": ["Ann", "Ben", "Cho", "Dai"]}',
            '{"type": "penalty", "player": "Dai", "amount": 12000, "kind": "chombo", "share": "off_table", '
            '"note": "wrong tile"}',
            '{"type": "win", "wins": [{"winner": "Ben", "han": 4, "fu": 30, "dora": 2, "facts": {"last_tile": true}, '
            '"loser_scores": [0, 0, 0, 0]}]}',
            '{"type": "end", "reason": "time limit"}',
        ]
    )
    + "\n"
)


def test_round_trip_of_every_fact_kind() -> None:
    match = load(FULL)
    assert export(match) == FULL
    again = load(export(match))
    assert again.state == match.state
    assert again.rules == match.rules
    assert again.state.finished and again.state.end_reason == "time limit"


def test_round_trip_keeps_what_each_fact_means() -> None:
    match = load(FULL)
    facts = facts_of(match.pending_events)
    double_ron = facts[0]
    assert isinstance(double_ron, WinResult)
    assert [(w.winner, w.discarder) for w in double_ron.wins] == [(2, 0), (3, 0)]
    pao = facts[2]
    assert isinstance(pao, WinResult)
    assert pao.wins[0].liable == 2
    assert match.rules.kiriage_mangan is True
    assert match.rules.uma == (30, 10, -10, -30)
    # The opening table: East 2 with 1 counter and a stick on the table, Ben dealing.
    first_state = build_match(parse_record(FULL.splitlines()[0] + "\n")).state
    assert (first_state.hand_label, first_state.dealer, first_state.deposits) == ("E2-1", 1, 1000)


def test_export_writes_the_canonical_spelling() -> None:
    handwritten = record(
        '{"wins":[{"han":3,"fu":30,"from":0,"winner":1}],"type":"win","riichi":[1]}',
        '{"type": "draw"}',
        start='{"players":["Ann","Ben","Cho","Dai"],"type":"start","key":"t1"}',
    )
    assert export(load(handwritten)) == record(
        '{"type": "win", "wins": [{"winner": "Ben", "from": "Ann", "han": 3, "fu": 30}], "riichi": ["Ben"]}',
        '{"type": "draw", "ready": []}',
    )


def test_three_player_record_round_trips() -> None:
    start = '{"type": "start", "key": "s1", "players": ["Ann", "Ben", "Cho"], "rules": "tenhou-sanma"}'
    text = record(
        '{"type": "win", "wins": [{"winner": "Ben", "han": 2, "fu": 30}]}',
        '{"type": "draw", "ready": ["Ann", "Cho"]}',
        start=start,
    )
    match = load(text)
    assert export(match) == text
    # Tsumo loss: Ben's 2 han 30 fu tsumo (base 480) takes 1000 from the dealer Ann and 500 from Cho only.
    # Then the draw, Ben dealing and not ready: the 2000 pool, 1000 from Ben to each of Ann and Cho.
    assert match.state.scores == (35000 - 1000 + 1000, 35000 + 1500 - 2000, 35000 - 500 + 1000)
