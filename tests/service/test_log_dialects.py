"""Dialects of the formats honba reads, as real tools write them (issue 34).

- Mahjong Soul's converters to tenhou.net/6 JSON write romaji names (the RONAME column of the
  downloaders' word table): ``Ryuukyoku`` for 流局, ``Mangan 8000点``, ``Haneman 3000-6000点``,
  ``Mangan 4000点∀``, the abortive draws ``Kyuushu Kyuuhai``..., and in English ``Exhaustive Draw``,
  ``Counted Yakuman``. One such string made the whole game unreadable.
- akochan's mjai ``hora`` carries the raw fu (38), which a table rounds up to 40.

The tenhou.net/6 forms of the corpus (``満貫8000点``, ``30符4飜7700点``, ``跳満3000-6000点``) are
read as before (tests/unit/test_tenhou_json.py); the romaji game is tests/tournament_log.py's.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from test_mjai import kyoku, read, whole
from tournament_log import HANDS, tournament_bytes, tournament_game

from domain.values import AbortiveDraw, AbortKind, ExhaustiveDraw, HandValue, WinResult
from replay.formats.logmodel import LogError
from replay.formats.mjai import rounded_fu
from replay.formats.tenhou_json import read_tenhou_json
from replay.service.imports.importing import match_from_log
from replay.service.imports.verify import verify_game


def one_hand(result: list[Any], scores: list[int] | None = None) -> bytes:
    """The tournament game cut to its first hand, with this result."""
    hand = [*HANDS[0][:16], result]
    if scores is not None:
        hand[1] = scores
    return json.dumps(tournament_game(log=[hand], sc=None), ensure_ascii=False).encode()


def first_result(result: list[Any]) -> Any:
    (game,) = read_tenhou_json(one_hand(result), file="t.json")
    return game.hands[0].result


@pytest.mark.parametrize(
    ("value", "yaku", "expected"),
    [
        ("Mangan 8000点", ["断幺九(1飜)", "ドラ(4飜)"], HandValue(limit="mangan")),
        ("Mangan 2000-4000点", ["断幺九(1飜)", "ドラ(4飜)"], HandValue(limit="mangan")),
        ("Mangan 4000点∀", ["断幺九(1飜)", "ドラ(4飜)"], HandValue(limit="mangan")),
        ("Haneman 3000-6000点", ["断幺九(1飜)", "ドラ(5飜)"], HandValue(limit="haneman")),
        ("Baiman 16000点", ["断幺九(1飜)", "ドラ(7飜)"], HandValue(limit="baiman")),
        ("Sanbaiman 6000-12000点", ["断幺九(1飜)", "ドラ(10飜)"], HandValue(limit="sanbaiman")),
        ("Yakuman 16000点∀", ["大三元(役満)"], HandValue(limit="yakuman", multiple=1)),
        # Counted: the han decide under the rules, as 数え役満 does.
        ("Kazoe Yakuman 32000点", ["断幺九(1飜)", "ドラ(12飜)"], HandValue(han=13)),
        ("Counted Yakuman 32000点", ["断幺九(1飜)", "ドラ(12飜)"], HandValue(han=13)),
        ("Kiriage Mangan 8000点", ["断幺九(1飜)", "ドラ(3飜)"], HandValue(limit="mangan")),
        ("切り上げ満貫8000点", ["断幺九(1飜)", "ドラ(3飜)"], HandValue(limit="mangan")),
        ("Rounded Mangan 8000点", ["断幺九(1飜)", "ドラ(3飜)"], HandValue(limit="mangan")),
        # SHOWFU in the converter puts the fu and han before a limit; English spells them out.
        ("30符5飜Mangan 8000点", ["断幺九(1飜)", "ドラ(4飜)"], HandValue(limit="mangan")),
        ("30Fu4Han7700Points", ["断幺九(1飜)", "ドラ(3飜)"], HandValue(han=4, fu=30)),
    ],
)
def test_the_converters_romaji_and_english_values_are_read(value: str, yaku: list[str], expected: HandValue) -> None:
    result = first_result(["和了", [-8000, 8000, 0, 0], [1, 0, 1, value, *yaku]])
    assert isinstance(result, WinResult)
    assert result.wins[0].value == expected


@pytest.mark.parametrize("name", ["Ryuukyoku", "Exhaustive Draw", "流局"])
def test_the_exhaustive_draw_in_every_spelling(name: str) -> None:
    result = first_result([name, [1500, -1500, 1500, -1500]])
    assert result == ExhaustiveDraw(ready=(0, 2), riichi=())


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("Kyuushu Kyuuhai", AbortKind.NINE_TERMINALS),
        ("Nine Terminal Abortion", AbortKind.NINE_TERMINALS),
        ("Suufon Renda", AbortKind.FOUR_WINDS),
        ("Suucha Riichi", AbortKind.FOUR_RIICHI),
        ("Suukaikan", AbortKind.FOUR_KONGS),
        ("四開槓", AbortKind.FOUR_KONGS),
        ("Sanchahou", AbortKind.TRIPLE_RON),
    ],
)
def test_the_abortive_draws_in_romaji(name: str, kind: AbortKind) -> None:
    result = first_result([name])
    assert isinstance(result, AbortiveDraw) and result.kind is kind


def test_nagashi_mangan_in_romaji() -> None:
    result = first_result(["Nagashi Mangan", [12000, -4000, -4000, -4000]])
    assert isinstance(result, ExhaustiveDraw) and result.nagashi == (0,)


def test_a_result_name_not_known_is_one_line_naming_the_field_and_value() -> None:
    with pytest.raises(LogError) as caught:
        read_tenhou_json(one_hand(["Chombo", [0, 0, 0, 0]]), file="t.json")
    assert caught.value.where == "t.json, log[0][16][0]"
    assert "unknown result name 'Chombo'" in caught.value.message
    assert "\n" not in str(caught.value)


def test_a_hand_value_not_known_names_the_field_and_value() -> None:
    with pytest.raises(LogError) as caught:
        read_tenhou_json(one_hand(["和了", [0, 8000, -8000, 0], [1, 2, 1, "Manganu 8000点"]]), file="t.json")
    assert caught.value.where == "t.json, log[0][16][2][3]"
    assert "'Manganu 8000点'" in caught.value.message


def test_the_whole_romaji_tournament_game_is_read() -> None:
    (game,) = read_tenhou_json(tournament_bytes(), file="tournament.json")
    assert game.unsupported is None
    assert len(game.hands) == 7
    assert isinstance(game.hands[3].result, ExhaustiveDraw)
    assert game.final_scores == (44400, 18100, 28400, 9100)


# Never a silent hand.


def test_a_game_without_stated_rules_is_replayed_to_the_end_of_its_log() -> None:
    # Dai is below zero after E3-1 (-2,900): Mahjong Soul's ranked rules would end the match
    # there, and honba dropped E4-0 and E4-1 without a word. The room played on.
    (game,) = read_tenhou_json(tournament_bytes(), file="tournament.json")
    assert not game.rules_stated
    report = verify_game(game)
    assert report.hands == 7
    assert not any("not replayed" in note for note in report.notes)
    # The end is not judged (no "match end" row), the hands are.
    assert not any(d.field == "match end" for d in report.disagreements)


def test_a_hand_not_replayed_is_counted_in_a_note() -> None:
    # A result the rules refuse (a 130 fu hand) stops the replay: its row says why, the hands
    # after it are counted.
    document = tournament_game()
    document["log"][1][16][2][3] = "130符1飜2000-3900点"
    (game,) = read_tenhou_json(json.dumps(document, ensure_ascii=False).encode(), file="t.json")
    report = verify_game(game)
    assert report.hands == 1
    assert any(d.hand == "E1-1" and d.field == "result" for d in report.disagreements)
    assert "5 logged hand(s) not replayed after a result honba refused: E2-0, E3-0, E3-1, E4-0, E4-1" in report.notes


def test_hands_after_one_without_a_result_are_counted_in_a_note() -> None:
    document = tournament_game()
    document["log"][3][16] = []  # E3-0 cut before its result
    (game,) = read_tenhou_json(json.dumps(document, ensure_ascii=False).encode(), file="t.json")
    report = verify_game(game)
    assert report.hands == 3
    assert "3 logged hand(s) not replayed after E3-0, which the log gives no result: E3-1, E4-0, E4-1" in report.notes


# akochan's raw fu.


@pytest.mark.parametrize(("raw", "table"), [(38, 40), (22, 30), (40, 40), (20, 20), (25, 25), (102, 110)])
def test_raw_fu_round_up_to_the_ten(raw: int, table: int) -> None:
    assert rounded_fu(raw) == table


def test_an_akochan_win_with_raw_fu_is_read_and_agrees() -> None:
    # 2 han 38 fu: a 40 fu hand, 2,600 on a ron (it was refused: "38 fu: fu are 20, 25 or ...").
    game = read(
        whole(
            kyoku(),
            {"type": "hora", "actor": 1, "target": 2, "fan": 2, "fu": 38, "deltas": [0, 2600, -2600, 0]},
            {"type": "end_kyoku"},
        )
    )
    result = game.hands[0].result
    assert isinstance(result, WinResult) and result.wins[0].value == HandValue(han=2, fu=40)
    assert verify_game(game).disagreements == ()


def test_a_refused_win_is_named_by_its_own_line_on_import() -> None:
    # The hand starts on line 2; its win, refused, is on line 5.
    game = read(
        whole(
            kyoku(),
            {"type": "tsumo", "actor": 0, "pai": "1m"},
            {"type": "dahai", "actor": 0, "pai": "1m", "tsumogiri": True},
            {"type": "hora", "actor": 1, "target": 0, "fan": 1, "fu": 130, "deltas": [-4200, 4200, 0, 0]},
            {"type": "end_kyoku"},
        )
    )
    with pytest.raises(LogError) as caught:
        match_from_log(game)
    assert caught.value.where == "test.jsonl, line 5"
    assert "130 fu" in caught.value.message
