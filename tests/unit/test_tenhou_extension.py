"""Tenhou's extension round (the West, or South in an east-only game, played while nobody has
reached 30,000 after the last scheduled hand): it ends at the first hand that leaves someone at
30,000 -- except that a dealer who keeps the deal without being top plays on ("a dealer repeat
goes first").

Sources (the preset's ``[sources]`` and docs/replay.md): hagurin-tenhou.com (category
22819511), on Tenhou's West round: "西場では基本、局終了時に30000点を超えた人が出現した時点で
終局する ... ただし、西場でも流局時に親がテンパイ、かつ親がトップ目でない場合は、親以外が30000点
以上になっても1本場が始まる" (in the West the game basically ends when a hand leaves someone above
30,000; but when at a draw the dealer is ready and not top, the next hand starts even though a
non-dealer has reached 30,000); ../shared/reference/tenhou-rules-history.md ("a dealer repeat
goes first"); issue 23: in an east-only phoenix game an exhaustive draw in the extension left a
non-dealer above 30,000 while the ready dealer was last, and Tenhou's log went on with the same
dealer. The shared corpus's 42 extension hands (20 logs) agree under either reading: none of
them has a dealer keeping the deal with someone else at 30,000.
"""

from __future__ import annotations

import json

import pytest
from conftest import CORPUS, hv, ron, started, table, tsumo, won

from domain.rules import load_preset
from domain.values import ExhaustiveDraw, HandResult, TableState
from replay.formats.detect import read_log
from replay.formats.record import build_match, parse_record
from replay.service.imports.verify import verify_game

TENHOU_EAST = load_preset("tenhou-east")
SOUTH = 1


def test_the_tenhou_presets_play_on_when_the_dealer_keeps_the_deal_in_the_extension() -> None:
    for name in ("tenhou", "tenhou-east", "tenhou-sanma"):
        assert not load_preset(name).extension_sudden_death, name


def extension(scores: tuple[int, ...], dealer: int = 0) -> TableState:
    """South ``dealer + 1`` of an east-only game: its extension."""
    return table(TENHOU_EAST, dealer=dealer, round_wind=SOUTH, hand_number=dealer + 1, scores=scores)


def test_a_ready_dealer_not_on_top_plays_on_though_a_non_dealer_reached_30000() -> None:
    # South 1, Ann dealing and last: Ann and Ben ready, Cho and Dai pay 1,500 each (3,000 pool).
    match = started(TENHOU_EAST, opening=extension((21000, 28500, 25500, 25000)))
    match.record(ExhaustiveDraw(ready=(0, 1)))
    state = match.state
    assert state.scores == (22500, 30000, 24000, 23500)
    assert not state.finished
    assert (state.round_wind, state.hand_number, state.dealer, state.counters) == (SOUTH, 1, 0, 1)


def test_a_dealer_win_not_on_top_plays_on_though_a_non_dealer_has_30000() -> None:
    # Ann wins 1 han 30 fu as dealer, 500 from each (Tenhou's table): Ben stays top at 31,000.
    match = started(TENHOU_EAST, opening=extension((21000, 31000, 24000, 24000)))
    match.record(won(tsumo(0, hv(1, 30))))
    assert not match.state.finished
    assert (match.state.dealer, match.state.counters) == (0, 1)


def test_the_deal_passing_with_someone_at_30000_ends_the_extension() -> None:
    # Ben wins 1 han 30 fu (1,000) off Cho and reaches 30,000.
    match = started(TENHOU_EAST, opening=extension((21000, 29000, 25000, 25000)))
    match.record(won(ron(1, 2, hv(1, 30))))
    assert match.state.finished and match.state.end_reason == "complete"


def test_a_ready_dealer_on_top_at_30000_stops_the_extension() -> None:
    match = started(TENHOU_EAST, opening=extension((29000, 27000, 22000, 22000)))
    match.record(ExhaustiveDraw(ready=(0,)))
    assert match.state.finished and match.state.end_reason == "dealer_stop"


# The situation of issue 23, as a record file: an east-only game in its extension (South 1).
RECORD = [
    {
        "type": "start",
        "key": "east-extension",
        "players": ["Ann", "Ben", "Cho", "Dai"],
        "rules": "tenhou-east",
        "opening": {"players": 4, "scores": [21000, 28500, 25500, 25000], "round_wind": 1, "dealer": 0},
    },
    {"type": "draw", "ready": ["Ann", "Ben"]},
    {"type": "win", "wins": [{"winner": "Ben", "from": "Cho", "han": 1, "fu": 30}]},
]


def test_the_record_file_of_the_extension_draw_goes_on_and_ends_on_the_next_pass() -> None:
    text = "".join(json.dumps(line) + "\n" for line in RECORD)
    match = build_match(parse_record(text, name="extension.jsonl"), name="extension.jsonl")
    hands = [step.before.hand_label for step in match.corrected_steps() if isinstance(step.fact, HandResult)]
    # The draw leaves Ben at 30,000 and Ann, the ready dealer, last: South 1 again, 1 counter.
    assert hands == ["S1-0", "S1-1"]
    state = match.state
    assert state.end_reason == "complete"
    # Ben's 1,000 and the counter's 300 off Cho; Tenhou's final points (tenhou-rules-history.md:
    # each score rounded to the thousand, an exact 500 away from zero, minus 30, plus uma 20/10;
    # the top takes the rest): Dai 24 - 30 + 10, Cho 23 - 30 - 10, Ann 23 - 30 - 20.
    assert state.scores == (22500, 31300, 22700, 23500)
    assert state.final_points == (-27.0, 40.0, -17.0, 4.0)


def test_every_extension_hand_of_the_shared_corpus_agrees() -> None:
    if not CORPUS.is_dir():
        pytest.skip("the shared corpus is not here")
    checked = 0
    for path in sorted(CORPUS.rglob("*")):
        if path.suffix not in (".xml", ".mjlog", ".json") or "hidacow" in str(path) or "equim" in str(path):
            continue
        for game in read_log(path):
            if game.unsupported:
                continue
            last = {"east": 0, "south": 1}[game.rules.length]
            extension_hands = [h for h in game.hands if h.round_wind > last]
            if not extension_hands:
                continue
            report = verify_game(game)
            labels = {f"{'ESWN'[h.round_wind]}{h.hand_number}-{h.counters}" for h in extension_hands}
            assert not [d for d in report.disagreements if d.hand in labels], path
            checked += len(extension_hands)
    assert checked == 42
