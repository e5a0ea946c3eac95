"""What the service says, as words (``domain.said.Said``): the sentence of every kind of hand, the
409 of a hand already taken, the refusals of a bad entry and of the sign-off, each the English the
command line always printed (its ``str()``) and, said in Japanese from the service's catalogue
(``replay/web/locale/ja/LC_MESSAGES/service.po``), as a Japanese referee writes it. Names and
notes are data: never translated, whatever they read like.

The match: Ann, Ben, Cho, Dai under Tenhou's rules, from East 1 (Ann the dealer).
"""

from __future__ import annotations

import pytest
from said_support import KEY, PLAYERS, enter, ja

from domain.draw import check_seed, drawn_seating
from domain.errors import HonbaError, MatchAlreadyEnded, RuleViolation
from domain.rules import load_preset
from domain.said import Said
from domain.stages import parse_stage
from domain.store_errors import MatchNotFound, TournamentNotFound
from domain.tournament import Tournament
from domain.values import (
    AbortiveDraw,
    AbortKind,
    DealPass,
    ExhaustiveDraw,
    HandValue,
    MatchEnd,
    Penalty,
    Win,
    WinResult,
)
from replay.input.entry import FieldError
from replay.input.fields import entry_from_fields
from replay.input.parsing import InputError
from replay.input.tiles import HandTiles, hand_tiles_from_fields
from replay.service.common.shapes import describe_fact, said_fact
from replay.service.recording.changes import change_headline, change_said
from replay.service.recording.entry import CorrectionRequest, apply_correction, apply_entry, correction_made
from replay.service.recording.recording import ForHand, HandTaken
from replay.service.recording.table import entry_preview, table_view
from replay.store.application import HonbaApp
from replay.store.tournaments import get_tournament
from replay.web.i18n import say

TENHOU = load_preset("tenhou")
ANN, BEN, CHO, DAI = range(4)


def ron(winner: int, discarder: int, value: HandValue, liable: int | None = None) -> Win:
    return Win(winner, value, discarder=discarder, liable=liable)


HANDS = [
    (
        WinResult((ron(BEN, CHO, HandValue(han=3, fu=30)),)),
        "Ben ron on Cho: 3 han 30 fu",
        "Ben ロン (Cho 放銃): 3翻30符",
    ),
    (
        WinResult((Win(CHO, HandValue(limit="mangan")),), riichi=(CHO,)),
        "Cho tsumo: mangan; riichi: Cho",
        "Cho ツモ: 満貫; 立直: Cho",
    ),
    (
        WinResult((ron(BEN, CHO, HandValue(han=3, fu=30)), ron(DAI, CHO, HandValue(han=2, fu=30)))),
        "Ben ron on Cho: 3 han 30 fu; Dai ron on Cho: 2 han 30 fu",
        "Ben ロン (Cho 放銃): 3翻30符; Dai ロン (Cho 放銃): 2翻30符",
    ),
    (
        WinResult(
            (
                ron(ANN, CHO, HandValue(han=1, fu=40)),
                ron(BEN, CHO, HandValue(limit="haneman")),
                ron(DAI, CHO, HandValue(han=4, fu=25)),
            )
        ),
        "Ann ron on Cho: 1 han 40 fu; Ben ron on Cho: haneman; Dai ron on Cho: 4 han 25 fu",
        "Ann ロン (Cho 放銃): 1翻40符; Ben ロン (Cho 放銃): 跳満; Dai ロン (Cho 放銃): 4翻25符",
    ),
    (
        WinResult((ron(BEN, CHO, HandValue(limit="yakuman", multiple=2), liable=DAI),)),
        "Ben ron on Cho: double yakuman, Dai liable",
        "Ben ロン (Cho 放銃): ダブル役満、Dai 包",
    ),
    (ExhaustiveDraw(ready=(ANN, BEN)), "exhaustive draw, ready: Ann, Ben", "流局 聴牌: Ann, Ben"),
    (
        ExhaustiveDraw(riichi=(DAI,), ready=(DAI,), nagashi=(CHO,)),
        "exhaustive draw, ready: Dai; nagashi mangan: Cho; riichi: Dai",
        "流局 聴牌: Dai; 流し満貫: Cho; 立直: Dai",
    ),
    (ExhaustiveDraw(), "exhaustive draw, ready: nobody", "流局 聴牌: なし"),
    (AbortiveDraw(AbortKind.NINE_TERMINALS), "abortive draw: nine terminals", "途中流局: 九種九牌"),
    (
        AbortiveDraw(AbortKind.FOUR_RIICHI, riichi=(ANN, BEN, CHO, DAI)),
        "abortive draw: four riichi; riichi: Ann, Ben, Cho, Dai",
        "途中流局: 四家立直; 立直: Ann, Ben, Cho, Dai",
    ),
    (
        Penalty(DAI, 8000, note="wrong tsumo"),
        "penalty (chombo) on Dai: 8000 (wrong tsumo)",
        "罰符 (チョンボ) Dai: 8000 (wrong tsumo)",
    ),
    (Penalty(ANN, 1000, kind="slow play"), "penalty (slow play) on Ann: 1000", "罰符 (slow play) Ann: 1000"),
    (DealPass(ANN, BEN, 0, 2), "deal passed to Ben", "親が Ben に移動"),
    (MatchEnd("time_up"), "match ended (time up)", "対局終了 (時間切れ)"),
    (MatchEnd("agreed"), "match ended (agreed)", "対局終了 (agreed)"),
]


@pytest.mark.parametrize(("fact", "english", "japanese"), HANDS, ids=[h[1][:30] for h in HANDS])
def test_every_kind_of_hand_is_said_once_in_english_and_in_japanese(fact: object, english: str, japanese: str) -> None:
    said = said_fact(fact, PLAYERS)  # type: ignore[arg-type]
    assert str(said) == describe_fact(fact, PLAYERS) == english  # type: ignore[arg-type]
    assert ja(said) == japanese


def test_a_name_is_data_never_translated_whatever_it_reads_like() -> None:
    players = ("mangan", "nobody", "time up", "Dai")
    said = said_fact(ExhaustiveDraw(ready=(1,)), players)
    assert ja(said) == "流局 聴牌: nobody"
    assert ja(said_fact(WinResult((Win(0, HandValue(limit="mangan")),)), players)) == "mangan ツモ: 満貫"


def test_a_word_the_pages_say_otherwise_is_the_service_s_own() -> None:
    # "points" is ポイント on a page (a column of the standings), a unit of a hand's minimum here.
    below = Said(
        "{value} is below the minimum of {needed} {unit} in force", value="20 points", needed=8, unit=Said("points")
    )
    assert ja(below) == "20 points は縛り 8 点に足りません"
    assert say(Said("points"), "ja") == "点"


def test_the_points_families_values_are_said_in_their_units() -> None:
    assert ja(HandValue(faan=4).said("points")) == "4番"
    assert ja(HandValue(limit="mangan").said("points")) == "リミット"
    assert str(HandValue(points=20, doubles=1).said("points")) == "20 points, 1 double"
    assert ja(HandValue(points=20, doubles=1).said("points")) == "20点, 1倍"


def test_the_409_says_what_was_recorded_instead_in_both_languages(club_app: HonbaApp) -> None:
    enter(club_app, kind="win", winner="Ben", discarder="Cho", value="3/30")
    with pytest.raises(HandTaken) as refused:
        enter_for = entry_from_fields({"kind": "win", "winner": "Dai", "discarder": "Ann", "value": "2/30"})
        apply_entry(club_app, KEY, enter_for, client_key=None, by="table 2", expect=ForHand(hand="E1-0"))
    exc = refused.value
    assert str(exc) == str(exc.said) == "E1-0 was already recorded from another phone: Ben ron on Cho: 3 han 30 fu"
    assert ja(exc.said) == "E1-0 は別の端末で記録済みです: Ben ロン (Cho 放銃): 3翻30符"
    assert [ja(r) for r in exc.recorded] == ["Ben ロン (Cho 放銃): 3翻30符"]
    with pytest.raises(HandTaken) as stale:
        apply_entry(club_app, KEY, enter_for, client_key=None, by="table 2", expect=ForHand(version=1))
    assert ja(stale.value.said).startswith("バージョン 1 の後に対局が変わりました(現在 ")
    assert ja(stale.value.said).endswith("E2-0): E1-0 Ben ロン (Cho 放銃): 3翻30符")


def test_the_table_s_history_undo_and_confirm_step_are_words(club_app: HonbaApp) -> None:
    enter(club_app, kind="win", winner="Ben", discarder="Cho", value="3/30")
    enter(club_app, kind="draw", ready=["Ann"])
    view = table_view(club_app, KEY)
    assert str(view["undo"]["text"]) == "entry 3 (E2-0): exhaustive draw, ready: Ann"
    assert ja(view["undo"]["text"]) == "記録 3 (E2-0): 流局 聴牌: Ann"
    enter(club_app, kind="undo")
    rows = table_view(club_app, KEY)["entries"]
    assert [ja(r["result"]) for r in rows] == ["Ben ロン (Cho 放銃): 3翻30符", "流局 聴牌: Ann", "記録 3 を取り消し"]
    assert ja(rows[1]["note"]) == "記録 4 で取り消し"
    assert ja(rows[2]["note"]) == "table 1: 取り消し"
    shown = entry_preview(club_app, KEY, entry_from_fields({"kind": "win", "winner": "Dai", "value": "mangan"}))
    assert str(shown["entries"][0]["title"]) == "E2-0: Dai tsumo: mangan"
    assert ja(shown["entries"][0]["title"]) == "E2-0: Dai ツモ: 満貫"


REFUSALS = [
    ({"kind": "win"}, "choose the winner", "和了者を選んでください"),
    (
        {"kind": "win", "winner": "Ben", "discarder": "Cho", "value": "1/20"},
        "1 han 20 fu does not exist: 20 fu is pinfu tsumo, at least 2 han",
        "1翻20符はありません: 20符は平和ツモで、2翻以上です",
    ),
    (
        {"kind": "win", "winner": "Ben", "discarder": "Ben", "value": "3/30"},
        "Ben cannot win on their own discard: a self-drawn win has no discarder",
        "Ben は自分の捨て牌で和了できません: ツモに放銃者はいません",
    ),
    (
        {"kind": "win", "winner": "Eve", "value": "3/30"},
        "'Eve' is not a player at this table (Ann, Ben, Cho, Dai)",
        "'Eve' はこの卓の選手ではありません(Ann, Ben, Cho, Dai)",
    ),
    (
        {"kind": "win", "winner": "Ben", "value": "three"},
        "cannot read the hand value 'three': write e.g. 3/30 (3 han 30 fu), 6han, mangan, 2xyakuman, "
        "4faan, 5tai, 120points, 40pts x 3dbl or limit",
        "点数 'three' が読めません: 3/30 (3翻30符)、6han、mangan、2xyakuman、4faan、5tai、120points、"
        "40pts x 3dbl、limit のように入力してください",
    ),
    (
        {"kind": "draw", "riichi": ["Cho"], "ready": ["Ann"]},
        "Cho declared riichi, so Cho was ready at the draw: name Cho among the ready players too"
        " (a riichi that was not ready is a chombo: record it as a penalty)",
        "Cho は立直しているので流局時は聴牌です: Cho を聴牌者にも入れてください"
        "(聴牌していない立直はチョンボです。罰符として記録してください)",
    ),
    (
        {"kind": "abort", "abort": "four_riichi", "riichi": ["Ann", "Ben"]},
        "four riichi is an abortive draw only when all four players declared riichi (declared: Ann, Ben);"
        " name them all with --riichi",
        "四家立直は 4 人全員が立直したときだけです(立直: Ann, Ben)。全員を立直者に指定してください",
    ),
    (
        {"kind": "penalty", "player": "Dai", "amount": "1000"},
        "a penalty of 1,000 shared by the 3 others is no whole number of 100-point sticks each: 900 or 1,200",
        "罰符 1,000 点を他の 3 人で分けると 100 点棒で払えません: 900 または 1,200",
    ),
    (
        {"kind": "end"},
        "say why the match ends early (agreed, time limit)",
        "途中で終わる理由を書いてください(合意、時間切れ)",
    ),
]


@pytest.mark.parametrize(("fields", "english", "japanese"), REFUSALS, ids=[r[1][:30] for r in REFUSALS])
def test_a_table_phone_s_refusals_are_said_in_both_languages(
    club_app: HonbaApp, fields: dict[str, object], english: str, japanese: str
) -> None:
    with pytest.raises(HonbaError) as refused:
        enter(club_app, **fields)
    assert str(refused.value) == english
    assert ja(refused.value.said) == japanese
    assert table_view(club_app, KEY)["entries"] == []  # nothing recorded


def test_a_field_s_bounds_and_the_sign_off_s_refusals_are_words() -> None:
    with pytest.raises(FieldError) as unread:
        entry_from_fields({"kind": "win", "winner": "Ben", "han": "x"})
    assert str(unread.value) == "han: 'x' is not a whole number (digits 0-9, with a sign)"
    assert ja(unread.value.said) == "han: 'x' は整数ではありません(数字 0-9、符号付き)"
    cup = Tournament.create("Cup", PLAYERS)
    cup.require_sign_off(True)
    with pytest.raises(RuleViolation) as unknown:
        cup.sign("m1", PLAYERS, "Ann", agreed=True, scores=(25000,) * 4)
    assert ja(unknown.value.said) == "対局 'm1' は 'Cup' にありません"


def test_nothing_more_is_recorded_after_the_end_in_either_language(club_app: HonbaApp) -> None:
    enter(club_app, kind="end", reason="agreed")
    with pytest.raises(MatchAlreadyEnded) as ended:
        enter(club_app, kind="win", winner="Ben", value="mangan")
    assert str(ended.value) == "match 'club-1' has ended (agreed); nothing more can be recorded"
    assert ja(ended.value.said) == "対局 'club-1' は終了しています (agreed)。これ以上記録できません"


def test_the_tiles_refusals_name_their_field_in_both_languages() -> None:
    with pytest.raises(FieldError) as short:
        hand_tiles_from_fields({"hand": "123m456p", "win_tile": "1m"})
    assert short.value.field == "hand"
    assert str(short.value) == (
        "a winning hand has 14 tiles (a kong counts 3), the winning tile among them; these are 6 with the calls"
    )
    assert ja(short.value.said) == "和了形は和了牌を含めて 14 枚です(槓は 3 枚と数えます)。副露と合わせて 6 枚です"
    with pytest.raises(FieldError) as missing:
        hand_tiles_from_fields({"hand": "234m456p678s345s22p", "win_tile": "9m"})
    assert missing.value.field == "win_tile"
    assert str(missing.value) == "9m is not among the tiles of hand"
    assert ja(missing.value.said) == "9m が手牌にありません"
    # The command line's reader still names its options.
    with pytest.raises(InputError) as typed:
        HandTiles.from_text("234m456p678s345s22p", "9m", [])
    assert str(typed.value) == "--win-tile: 9m is not among the tiles of --hand"


def correct(club_app: HonbaApp, **asked: object) -> None:
    request = CorrectionRequest(**{"by": "Rei", "reason": "misread", **asked})  # type: ignore[arg-type]
    apply_correction(club_app, KEY, request, client_key=None)


def test_a_correction_s_refusals_name_the_entries_by_number_in_both_languages(club_app: HonbaApp) -> None:
    enter(club_app, kind="win", winner="Ben", discarder="Cho", value="3/30")
    enter(club_app, kind="draw", ready=["Ann"])
    correct(club_app, action="void", target=2)  # the correction is entry 4
    with pytest.raises(RuleViolation) as void:
        correct(club_app, action="void", target=2)
    assert str(void.value) == (
        "the result or penalty at entry 2 is void already (by the correction at entry 4: "
        "to take the void back, void or amend that correction)"
    )
    assert ja(void.value.said) == (
        "記録 2 の結果または罰符はすでに無効です(記録 4 の訂正による。"
        "無効を取り消すには、その訂正を無効にするか訂正してください)"
    )
    with pytest.raises(FieldError) as nowhere:
        correct(club_app, action="void", target=9)
    assert str(nowhere.value).startswith("there is no entry 9 in match 'club-1': its entries are numbered 2 to 4 (")
    assert ja(nowhere.value.said).startswith("対局 'club-1' に記録 9 はありません: 記録の番号は 2 から 4 までです(")
    with pytest.raises(FieldError) as unchanged:
        correct(club_app, action="amend", target=3, changes={"ready": "Ann"})
    assert str(unchanged.value) == "entry 3 already stands so: the correction changes nothing"
    assert ja(unchanged.value.said) == "記録 3 はすでにその内容です: この訂正では何も変わりません"
    with pytest.raises(FieldError) as who:
        correct(club_app, action="void", target=3, by="")
    assert (str(who.value), ja(who.value.said)) == ("say who makes the correction", "訂正者を入力してください")


def test_what_a_correction_changed_is_said_in_both_languages(club_app: HonbaApp) -> None:
    enter(club_app, kind="win", winner="Ben", discarder="Cho", value="3/30")
    enter(club_app, kind="draw", ready=["Ann"])
    correct(club_app, action="void", target=2)
    voided = change_said(correction_made(club_app, KEY, 4))
    assert str(voided) == change_headline(correction_made(club_app, KEY, 4)) == "entry 2 voided by entry 4"
    assert ja(voided) == "記録 2 を記録 4 で無効化"
    cancel = apply_correction(club_app, KEY, CorrectionRequest("void", 4, by="Rei", reason="no"), client_key=None)
    assert cancel.change is not None
    cancelled = change_said(cancel.change)
    assert str(cancelled) == "entry 4 (a correction of entry 2) cancelled by entry 5"
    assert ja(cancelled) == "記録 4(記録 2 の訂正)を記録 5 で取り消し"
    correct(club_app, action="penalty", entry=entry_from_fields({"kind": "penalty", "player": "Dai", "amount": "3000"}))
    added = change_said(correction_made(club_app, KEY, 6))
    assert (str(added), ja(added)) == ("penalty added as entry 6", "記録 6 として罰符を追加")


def test_a_match_or_tournament_not_in_the_store_is_said_in_both_languages(club_app: HonbaApp) -> None:
    with pytest.raises(MatchNotFound) as match:
        club_app.get_match("club-9")
    assert str(match.value) == "no match 'club-9' in the store"
    assert ja(match.value.said) == "対局 'club-9' は保存されていません"
    with pytest.raises(TournamentNotFound) as tournament:
        get_tournament(club_app, "Open")
    assert str(tournament.value) == "no tournament 'Open' in the store (honba tournament create)"
    assert ja(tournament.value.said) == "大会 'Open' は保存されていません(honba tournament create で作成します)"


def test_the_draw_s_refusals_are_said_in_both_languages() -> None:
    with pytest.raises(RuleViolation) as seed:
        check_seed("xyz")
    assert str(seed.value) == "a seed is 64 hexadecimal digits (0-9, a-f)"
    assert ja(seed.value.said) == "シードは 64 桁の 16 進数(0-9、a-f)です"
    with pytest.raises(RuleViolation) as short:
        drawn_seating("ab" * 32, ["Ann", "Ben", "Cho", "Dai", "Eve"])
    assert str(short.value) == "5 players do not fill tables of 4"
    assert ja(short.value.said) == "5 人では 4 人の卓を埋められません"
    with pytest.raises(RuleViolation) as twice:
        drawn_seating("ab" * 32, ["Ann", "Ben", "Cho", "Ann"])
    assert ja(twice.value.said) == "抽選は各選手 1 回です: 同じ選手が 2 回書かれています"


def test_the_stages_refusals_are_said_in_both_languages() -> None:
    with pytest.raises(RuleViolation) as form:
        parse_stage("heats")
    assert str(form.value) == "a stage is NAME:SESSIONS[:key=value,...], not 'heats'"
    assert ja(form.value.said) == "ステージは NAME:SESSIONS[:key=value,...] の形です('heats' ではありません)"
    with pytest.raises(RuleViolation) as key:
        parse_stage("final:2:cut=4", first=False)
    assert str(key.value) == "stage 'final': 'cut=4' is none of advance=, carry=, seating=, later="
    assert ja(key.value.said) == "ステージ 'final': 'cut=4' は advance=、carry=、seating=、later= のどれでもありません"


def test_a_substitute_s_refusals_are_said_in_both_languages() -> None:
    event = Tournament.create("Open", ["Ann", "Ben"])
    with pytest.raises(RuleViolation) as again:
        event.seat_substitute("Ben", "Ann", "ill")
    assert str(again.value) == "'Ben' plays in 'Open' already: a substitute is somebody new"
    assert ja(again.value.said) == "'Ben' はすでに 'Open' に出場しています: 補欠は新しい選手です"
