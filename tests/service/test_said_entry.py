"""What a table phone types and the service refuses, said in both languages (issue 33): a hand by
its tiles the hand calculator cannot value (no yaku, not a winning hand), the warning when the
value tapped differs from the tiles', a double ron given by tiles, a tile field too long, a note of
two lines, a rule override that cannot be read. Each refusal's English is what the command line
and the JSON for tools always printed (its ``str()``); said in Japanese from the service's catalogue
(``replay/web/locale/ja/LC_MESSAGES/service.po``), with the data (tiles, names, numbers) as typed.

The match: Ann, Ben, Cho, Dai under Tenhou's rules, at East 1 (Ann the dealer, Ben South).
"""

from __future__ import annotations

import pytest
from said_support import KEY, ja

from domain.errors import HonbaError
from domain.rules import load_preset
from replay.formats.valuation import UnreadableHand, WinContext, read_tiles
from replay.input.entry import FieldError
from replay.input.fields import entry_from_fields
from replay.input.parsing import InputError, parse_override
from replay.input.tiles import HandTiles, hand_tiles_from_fields
from replay.service.recording.table import entry_preview, record_entry, table_view
from replay.service.recording.tiles import record_tile_win
from replay.store.application import HonbaApp

TENHOU = load_preset("tenhou")
# Ben's closed hand: a run of each suit, West's triplet, a pair of 2p. Ben sits South in the East
# round, so West is no value tile for him: the hand is complete and has no yaku.
NO_YAKU = "123m456p789s333z22p"
# All simples and pinfu (a two-sided wait on 2m): 2 han 30 fu on a discard.
PINFU_TANYAO = "234m456p678s345s22p"


def by_tiles(club_app: HonbaApp, **fields: str) -> None:
    entry = entry_from_fields({"kind": "win", "winner": "Ben", "discarder": "Cho", **fields})
    record_entry(club_app, KEY, entry, hand_tiles_from_fields(fields), client_key=None, by="table 1")


TILE_REFUSALS = [
    ({"hand": NO_YAKU, "win_tile": "1m"}, "hand", "the hand has no yaku", "役がありません"),
    (
        {"hand": "123m456p789s333z23p", "win_tile": "1m"},
        "hand",
        "the tiles are not a winning hand",
        "和了形ではありません",
    ),
    (
        {"hand": PINFU_TANYAO, "win_tile": "2m", "winner2": "Dai", "value2": "1/30"},
        "hand",
        "hand gives one winner's tiles: name one winner (record a double ron by value)",
        "手牌は和了者 1 人分の牌です: 和了者を 1 人選んでください(ダブロンは点数で記録してください)",
    ),
    ({"hand": "2" * 121 + "m", "win_tile": "2m"}, "hand", "at most 120 characters", "最大 120 文字です"),
    (
        {"hand": "123m456p789s11z8z", "win_tile": "1m"},
        "hand",
        "8z is no tile (the honours are 1z-7z)",
        "8z という牌はありません(字牌は 1z-7z)",
    ),
]


@pytest.mark.parametrize(
    ("fields", "field", "english", "japanese"), TILE_REFUSALS, ids=[r[2][:30] for r in TILE_REFUSALS]
)
def test_a_hand_by_its_tiles_is_refused_by_its_field_in_both_languages(
    club_app: HonbaApp, fields: dict[str, str], field: str, english: str, japanese: str
) -> None:
    with pytest.raises(FieldError) as refused:
        by_tiles(club_app, **fields)
    assert refused.value.field == field
    assert str(refused.value) == english
    assert ja(refused.value.said) == japanese
    assert table_view(club_app, KEY)["entries"] == []  # nothing recorded


def test_the_confirm_step_says_the_tiles_value_and_warning_in_both_languages(club_app: HonbaApp) -> None:
    # The table tapped mangan; the tiles (2m the dora: 1m its indicator) give pinfu, all simples
    # and a dora: 3 han 30 fu. The value tapped is recorded, with the warning.
    fields = {"hand": PINFU_TANYAO, "win_tile": "2m", "dora_indicators": "1m"}
    entry = entry_from_fields({"kind": "win", "winner": "Ben", "discarder": "Cho", "value": "mangan"})
    tiles = entry_preview(club_app, KEY, entry, hand_tiles_from_fields(fields))["tiles"]
    assert str(tiles["warning"]) == (
        "the tiles give 3 han 30 fu (平和 1, 断幺九 1; dora 1), not mangan as typed: mangan is recorded"
    )
    assert (
        ja(tiles["warning"])
        == "牌姿では 3翻30符 (平和 1, 断幺九 1; ドラ 1) で、入力された 満貫 と違います: 満貫 を記録します"
    )
    assert (str(tiles["tiles_value"]), ja(tiles["tiles_value"])) == ("3 han 30 fu", "3翻30符")
    assert (str(tiles["value"]), ja(tiles["value"])) == ("mangan", "満貫")


def test_the_command_line_still_names_its_option(club_app: HonbaApp) -> None:
    tiles = HandTiles.from_text(PINFU_TANYAO, "2m")
    double = entry_from_fields({"kind": "win", "winner": "Ben", "discarder": "Cho", "winner2": "Dai", "value2": "1/30"})
    with pytest.raises(InputError) as two:
        record_tile_win(club_app, KEY, double, tiles)
    assert str(two.value) == "--hand gives one winner's tiles: name one winner (record a double ron by value)"
    with pytest.raises(InputError) as draw:
        record_tile_win(club_app, KEY, entry_from_fields({"kind": "draw"}), tiles)
    assert str(draw.value) == "--hand gives the tiles of a win"


def test_the_hand_calculator_s_own_refusals_are_words() -> None:
    def context(concealed: str, win_tile: str) -> WinContext:
        return WinContext(
            concealed=tuple(concealed.split()),
            melds=(),
            win_tile=win_tile,
            self_drawn=False,
            seat_wind=1,
            round_wind=0,
            dora_markers=(),
            ura_markers=(),
        )

    hand = "1m 2m 3m 4p 5p 6p 7s 8s 9s W W W 2p 2p"
    with pytest.raises(UnreadableHand) as no_yaku:
        read_tiles(context(hand, "1m"))
    assert (str(no_yaku.value), ja(no_yaku.value.said)) == ("the hand has no yaku", "役がありません")
    with pytest.raises(UnreadableHand) as no_tile:
        read_tiles(context(hand, "0x"))
    assert (str(no_tile.value), ja(no_tile.value.said)) == ("'0x' is no tile", "'0x' という牌はありません")
    with pytest.raises(UnreadableHand) as missing:
        read_tiles(context(hand, "9m"))
    assert str(missing.value) == "the winning tile 9m is not among the hand's tiles"
    assert ja(missing.value.said) == "和了牌 9m が手牌にありません"
    with pytest.raises(UnreadableHand) as fifth:
        read_tiles(context("1m 1m 1m 1m 1m 2m 3m 4p 5p 6p 7s 8s 9s 2p", "2p"))
    assert str(fifth.value) == "'1m' is no tile, or there are more than four of it"
    assert ja(fifth.value.said) == "'1m' という牌はないか、5 枚以上あります"


def test_a_note_of_two_lines_is_refused_in_both_languages(club_app: HonbaApp) -> None:
    with pytest.raises(HonbaError) as refused:
        entry_from_fields({"kind": "penalty", "player": "Dai", "amount": "1000", "note": "slow\nplay"})
    assert str(refused.value) == "note: 'slow\\nplay' holds the control character U+000A: it must be one line of text"
    assert ja(refused.value.said) == "note: 'slow\\nplay' に制御文字 U+000A があります: 1 行の文字で入力してください"


def test_a_rule_override_that_cannot_be_read_is_refused_in_both_languages() -> None:
    with pytest.raises(InputError) as bare:
        parse_override("uma")
    assert str(bare.value) == "a rule override is key=value, not 'uma'"
    assert ja(bare.value.said) == "ルールの変更は key=value の形です('uma' ではありません)"
    with pytest.raises(InputError) as broken:
        parse_override("uma=[30,10", "set")
    assert str(broken.value).startswith("set 'uma': not a JSON list or object (")
    assert ja(broken.value.said).startswith("set 'uma': JSON のリストまたはオブジェクトではありません(")
