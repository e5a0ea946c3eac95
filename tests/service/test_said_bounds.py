"""The last refusals a page can show, said in both languages (issue 33): a number's field named in
the page's language (翻, 回戦, 選手名: each bound's name is words), a name a web address cannot
hold, a field a JSON entry does not have or of the wrong kind, what-if rules for another number
of players. The English (``str()``) is what the command line and the JSON for tools print."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from conftest import TENHOU, started

from domain.bounds import HAN, NAME, TOURNAMENT, OutOfBounds
from domain.errors import HonbaError
from domain.rules import load_preset
from domain.values import HandValue
from replay.input.entry import FieldError, check_kinds, expect_keys
from replay.input.fields import refuse_unread
from replay.service.audit.audit import build_report
from replay.service.recording.clock import clock_data
from replay.store.findings import MatchCheck
from replay.web.i18n import say

CLOCK_START = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)


def refusal(action: object) -> HonbaError:
    assert callable(action)
    with pytest.raises(HonbaError) as caught:
        action()
    return caught.value


def test_a_number_out_of_range_names_its_field_in_the_pages_language() -> None:
    exc = refusal(lambda: HAN.check(120))
    assert isinstance(exc, OutOfBounds) and exc.field == "han"
    assert str(exc) == "han: 120 is out of range (0 to 99)"
    assert say(exc.said, "ja") == "翻: 120 は範囲外です(0 から 99)"


def test_a_name_too_long_names_the_field_in_japanese_and_quotes_the_name_as_typed() -> None:
    exc = refusal(lambda: NAME.check("A" * 65))
    assert str(exc).startswith("player name: 65 characters, at most 64")
    assert say(exc.said, "ja").startswith("選手名: ")
    assert "'AAAA" in say(exc.said, "ja")


def test_a_tournament_name_with_a_slash_says_why_in_japanese() -> None:
    exc = refusal(lambda: TOURNAMENT.check("spring/open"))
    assert str(exc) == (
        "tournament name: 'spring/open' holds '/': "
        "a tournament's name is the end of its web address (/tournaments/NAME)"
    )
    assert say(exc.said, "ja") == (
        "大会名: 'spring/open' に '/' が含まれています: 大会名はウェブアドレスの末尾です (/tournaments/NAME)"
    )


def test_a_field_the_entry_does_not_have_is_refused_in_japanese() -> None:
    exc = refusal(lambda: expect_keys({"winner": 1, "hna": 2}, ("winner", "han"), "wins[0]"))
    assert isinstance(exc, FieldError) and exc.field == "wins[0]"
    assert str(exc) == "unknown field 'hna'"
    assert say(exc.said, "ja") == "不明な項目 'hna' です"


def test_a_field_of_the_wrong_kind_says_the_kind_in_japanese() -> None:
    exc = refusal(lambda: check_kinds(HandValue, {"han": "three"}, "wins[0].value"))
    assert isinstance(exc, FieldError) and exc.field == "wins[0].value.han"
    assert str(exc).startswith("'three' is not a whole number (at most ")
    assert say(exc.said, "ja").startswith("'three' は整数(正負とも ")


def test_what_if_rules_for_three_players_on_a_four_player_match_are_refused_in_japanese() -> None:
    match = started(TENHOU)
    three = load_preset("tenhou-sanma")
    exc = refusal(lambda: build_report(match, MatchCheck(match.key, 0, "", ()), other_rules=three))
    assert str(exc) == "the rules 'tenhou-sanma' are for 3 players, the match has 4"
    assert say(exc.said, "ja") == "ルール 'tenhou-sanma' は 3 人用ですが、この対局は 4 人です"


def test_a_tables_clock_is_said_in_the_pages_language() -> None:
    wrc = load_preset("wrc")
    match = started(wrc)
    assert str(clock_data(match, CLOCK_START)["text"]) == "no time limit"
    assert say(clock_data(match, CLOCK_START)["text"], "ja") == "時間制限なし"
    match.set_time_limit(50, by="director")
    assert say(clock_data(match, CLOCK_START)["text"], "ja") == "制限時間 50 分、未開始"
    match.start_clock(CLOCK_START, by="director")
    running = clock_data(match, CLOCK_START + timedelta(seconds=65))["text"]
    assert str(running) == "48:55 left"
    assert say(running, "ja") == "残り 48:55"


@pytest.mark.parametrize(
    ("kind", "english"),
    [
        ("win", "a win entry has no field 'bogus'"),
        ("undo", "an undo entry has no field 'bogus'"),
        ("abort", "an abort entry has no field 'bogus'"),
        ("end", "an end entry has no field 'bogus'"),
    ],
)
def test_a_field_an_entry_does_not_read_is_named_with_the_kind_s_own_article(kind: str, english: str) -> None:
    exc = refusal(lambda: refuse_unread({"kind": kind, "bogus": "1"}, kind, also=("kind",)))
    assert isinstance(exc, FieldError) and exc.field == "bogus"
    assert str(exc) == english
    assert say(exc.said, "ja") == f"{kind} の記録に 'bogus' という欄はありません"
