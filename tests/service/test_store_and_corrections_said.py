"""What a correction changes (before, after, the payments that move) and the refusals of a damaged
or unreachable store, as words (``domain.said``): each the English the command line and the JSON
for tools always printed (its ``str()``), and said in Japanese from the service's catalogue
(``replay/web/locale/ja/LC_MESSAGES/service.po``). Names, keys and stored data are data: never
translated.

The match: Ann, Ben, Cho, Dai under Tenhou's rules, from East 1 (Ann the dealer); 3 han 30 fu off
a non-dealer is 3,900 (the seeds' score table), a non-dealer's tsumo mangan 2,000 / 4,000.
"""

from __future__ import annotations

import pytest
from said_support import KEY, enter, ja

from domain.amendments import early_end_reason
from domain.codec import DecodeError, fact_from_data, from_data
from domain.errors import DamagedFact, RuleViolation
from domain.match import opening_state
from domain.progression import evolve
from domain.rules import load_preset
from domain.store_errors import StoreError
from domain.values import ExhaustiveDraw, HandValue, WinResult
from replay.input.entry import FieldError
from replay.input.fields import entry_from_fields
from replay.service.common.access import AccessError, TokenStore
from replay.service.recording.changes import change_data, change_headline
from replay.service.recording.entry import CorrectionRequest, apply_correction, correction_made, preview
from replay.store.application import HonbaApp
from replay.store.settings import persistence_env
from replay.web.i18n import spoken
from replay.web.site import for_hand, text_of

TENHOU = load_preset("tenhou")


def test_what_a_void_changes_is_said_line_by_line_in_both_languages(club_app: HonbaApp) -> None:
    enter(club_app, kind="win", winner="Ben", discarder="Cho", value="3/30")
    enter(club_app, kind="draw", ready=["Ann"])
    apply_correction(club_app, KEY, CorrectionRequest("void", 2, by="Rei", reason="misread"), client_key=None)
    change = correction_made(club_app, KEY, 4)
    assert (str(change.before), str(change.after)) == ("Ben ron on Cho: 3 han 30 fu", "void")
    assert (ja(change.before or ""), ja(change.after or "")) == ("Ben ロン (Cho 放銃): 3翻30符", "無効")
    (hand,) = change.hands
    assert [str(line) for line in hand.before] == ["E1-0: Ben ron on Cho: 3 han 30 fu", "Cho pays Ben 3,900"]
    assert [ja(line) for line in hand.before] == ["E1-0: Ben ロン (Cho 放銃): 3翻30符", "Cho から Ben へ 3,900"]
    assert hand.after == ()
    # The API's correction: said in the request's language; in English, the sentences it always gave.
    english = spoken(change_data(change), "en")
    assert isinstance(english, dict)
    assert english["headline"] == change_headline(change) == "entry 2 voided by entry 4"
    assert (english["before"], english["after"]) == ("Ben ron on Cho: 3 han 30 fu", "void")
    assert english["hands"] == [{"before": ["E1-0: Ben ron on Cho: 3 han 30 fu", "Cho pays Ben 3,900"], "after": []}]
    japanese = spoken(change_data(change), "ja")
    assert isinstance(japanese, dict)
    assert (japanese["headline"], japanese["before"], japanese["after"]) == (
        "記録 2 を記録 4 で無効化",
        "Ben ロン (Cho 放銃): 3翻30符",
        "無効",
    )
    assert japanese["hands"] == [
        {"before": ["E1-0: Ben ロン (Cho 放銃): 3翻30符", "Cho から Ben へ 3,900"], "after": []}
    ]
    # Numbers stay numbers, whatever the language.
    assert (
        japanese["scores_after"] == english["scores_after"] == {"Ann": 28000, "Ben": 24000, "Cho": 24000, "Dai": 24000}
    )


def test_every_kind_of_payment_line_is_said_in_both_languages(club_app: HonbaApp) -> None:
    # Two hands drawn (the counters at 2), then a riichi tsumo with the deposits of the draws' riichi.
    enter(club_app, kind="draw", ready=["Ann"], riichi=["Ann"])
    enter(club_app, kind="draw", ready=["Ann"])
    shown = preview(
        club_app, KEY, entry_from_fields({"kind": "win", "winner": "Ben", "value": "mangan", "riichi": ["Dai"]})
    )
    assert [str(line) for line in shown.lines] == [
        "E1-2: Ben tsumo: mangan; riichi: Dai",
        "Dai puts 1,000 deposit on the table",
        "Ann pays Ben 4,000 + 200 counters",
        "Cho pays Ben 2,000 + 200 counters",
        "Dai pays Ben 2,000 + 200 counters",
        "the table gives Ben 2,000 deposits",
    ]
    assert [ja(line) for line in shown.lines] == [
        "E1-2: Ben ツモ: 満貫; 立直: Dai",
        "Dai が 1,000 リーチ棒 を供託",
        "Ann から Ben へ 4,000 + 200 本場",
        "Cho から Ben へ 2,000 + 200 本場",
        "Dai から Ben へ 2,000 + 200 本場",
        "供託から Ben へ 2,000 供託",
    ]
    # An undo's confirm step opens with what it does (a capital in English, as it always read).
    (undo,) = preview(club_app, KEY, entry_from_fields({"kind": "undo"})).lines
    assert (str(undo), ja(undo)) == ("Entry 3 taken back by entry 4", "記録 3 を記録 4 で取り消し")


def test_reopening_and_ending_early_are_refused_in_both_languages(club_app: HonbaApp) -> None:
    with pytest.raises(RuleViolation) as not_ended:
        apply_correction(club_app, KEY, CorrectionRequest("reopen", None, by="Rei", reason="on again"), client_key=None)
    assert str(not_ended.value) == "match 'club-1' has not ended: there is nothing to reopen"
    assert ja(not_ended.value.said) == "対局 'club-1' はまだ終わっていません: 再開するものはありません"
    with pytest.raises(RuleViolation) as by_the_rules:
        early_end_reason("bust")
    assert str(by_the_rules.value) == "the rules decide a 'bust' end by themselves; give an early end another reason"
    assert ja(by_the_rules.value.said) == "'bust' の終了はルールが判定します: 途中終了には別の理由を書いてください"


def test_a_stored_fact_changed_behind_honba_s_back_is_said_in_both_languages() -> None:
    with pytest.raises(DecodeError) as unknown:
        from_data(HandValue, {"han": 3, "yaku": 1})
    assert str(unknown.value) == "HandValue: unknown field 'yaku'"
    assert ja(unknown.value.said) == "HandValue: 不明なフィールド 'yaku'"
    with pytest.raises(DecodeError) as typed:
        from_data(HandValue, {"han": "3"})
    assert str(typed.value) == "HandValue.han: expected a whole number, got '3'"
    assert ja(typed.value.said) == "HandValue.han: 整数のはずが '3' です"
    with pytest.raises(DecodeError) as untagged:
        fact_from_data({"type": "nothing"})
    assert str(untagged.value).startswith("fact: 'type' must be one of ")
    assert ja(untagged.value.said).startswith("fact: 'type' は ")
    state = opening_state(TENHOU, None)
    with pytest.raises(DamagedFact) as seat:
        evolve(state, TENHOU, ExhaustiveDraw(ready=(7,)))
    assert str(seat.value) == "a recorded ExhaustiveDraw names seat 7; the table has 4"
    assert ja(seat.value.said) == "記録された ExhaustiveDraw に席 7 があります。卓は 4 人です"
    with pytest.raises(DamagedFact) as nobody:
        evolve(state, TENHOU, WinResult(()))
    assert str(nobody.value) == "a recorded WinResult has no winner"
    assert ja(nobody.value.said) == "記録された WinResult が不正です: 和了者がいません"


def test_a_store_that_cannot_be_opened_or_a_token_refused_is_said_in_both_languages(club_app: HonbaApp) -> None:
    form = "postgresql://user:password@host:port/dbname"
    with pytest.raises(StoreError) as kind:
        persistence_env("mysql://honba@db/honba")
    assert str(kind.value) == (
        f"unknown kind of store mysql://honba@db/honba: give a SQLite file, :memory: or a PostgreSQL URL ({form})"
    )
    assert ja(kind.value.said) == (
        "不明な種類の記録 mysql://honba@db/honba: SQLite ファイル、:memory:、"
        f"または PostgreSQL の URL({form})を指定してください"
    )
    with pytest.raises(StoreError) as nameless:
        persistence_env("postgresql://honba@db/")
    assert str(nameless.value) == f"bad store URL postgresql://honba@db/: no database name (expected {form})"
    assert ja(nameless.value.said) == (
        f"記録の URL postgresql://honba@db/ が正しくありません: データベース名がありません({form} の形にしてください)"
    )
    with pytest.raises(AccessError) as role:
        TokenStore(club_app).create("king")
    assert str(role.value) == "the role is one of director, referee, table, not 'king'"
    assert ja(role.value.said) == "役割は director, referee, table のいずれかです('king' ではありません)"


def test_what_the_site_reads_of_a_request_is_refused_in_both_languages() -> None:
    with pytest.raises(FieldError) as hand:
        for_hand("E2-0 after the break", "", None)
    assert str(hand.value) == "'E2-0 after the break' is not a hand (a hand is named as the table shows it, e.g. E2-0)"
    assert ja(hand.value.said) == "'E2-0 after the break' は局ではありません(局は卓の表示どおりに書きます。例: E2-0)"
    with pytest.raises(FieldError) as text:
        text_of({"by": 3}, "by")
    assert (str(text.value), ja(text.value.said)) == ("by: 3 is not text", "by: 3 は文字列ではありません")
