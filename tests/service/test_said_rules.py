"""The rules' refusals as words (``domain.said.Said``): a preset or rule file's values, the checks of
an entry against the rules (a match's start, its seats, a penalty's share, the special hands, the
facts of a win) and a damaged store's facts, each the English the command line always printed
(its ``str()``) and, said in Japanese from the service's catalogue
(``replay/web/locale/ja/LC_MESSAGES/service.po``), with its data as it was given: a rule's option
name, a preset's or a file's name, a tile, a quoted value are never translated.

The table phone's entries go through the service (``apply_entry``) as the table page sends them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from domain.entry_checks import EntryChecks
from domain.errors import DamagedFact, HonbaError, InvalidRules, UnknownSeat
from domain.match import Match
from domain.progression import evolve
from domain.rules import Ruleset, load_preset
from domain.said import Said
from domain.scoring.checks import check_value
from domain.values import HandValue, Penalty, Win, WinResult
from replay.input.fields import entry_from_fields
from replay.service.common.rules import resolve_rules
from replay.service.recording import recording
from replay.service.recording.entry import apply_entry
from replay.service.recording.table import table_view
from replay.store.application import HonbaApp
from replay.web.i18n import say

TENHOU = load_preset("tenhou")
# Chinese Classical with the special hands of seed 004 played (as tests/unit/test_special_hands.py).
CLASSICAL = load_preset("chinese-classical").with_overrides(
    {"special_hands": ["heavenly_hand", "earthly_hand"], "special_hand_percent": 100, "losers_settle": False}
)
PLAYERS = ["Ann", "Ben", "Cho", "Dai"]


def ja(value: Said | str) -> str:
    return say(value, "ja")


@pytest.fixture
def app() -> Iterator[HonbaApp]:
    application = HonbaApp.open(":memory:")
    recording.start_match(application, "club-1", PLAYERS, TENHOU, {"format": "honba"})
    recording.start_match(application, "classical-1", PLAYERS, CLASSICAL, {"format": "honba"})
    recording.start_match(application, "wrc-1", PLAYERS, load_preset("wrc"), {"format": "honba"})
    yield application
    application.close()


REFUSED_ENTRIES = [
    (
        "club-1",
        {"kind": "win", "winner": "Ben", "value": "3/30", "facts": ["flower_supplement"]},
        "impossible facts of the win: a tile drawn for a flower: tenhou plays no flowers or seasons (rule 'flowers')",
        "あり得ない和了の状況です: 花牌の補充牌: tenhou に花牌・季節牌はありません(ルール 'flowers')",
    ),
    (
        "club-1",
        {"kind": "win", "winner": "Ben", "value": "mangan", "melded": "5"},
        "impossible facts of the win: 5 melded sets: a winning hand holds 4 sets and a pair under tenhou "
        "(rule 'sets_in_hand'), so at most 4 melded sets",
        "あり得ない和了の状況です: 副露した面子 5: tenhou の和了形は 4 面子と雀頭なので(ルール 'sets_in_hand')、"
        "副露した面子は 4 までです",
    ),
    (
        "club-1",
        {"kind": "win", "winner": "Ben", "value": "yakuman", "special": ["heavenly_hand"]},
        "heavenly hand is not played under tenhou",
        "tenhou に天和はありません",
    ),
    (
        "classical-1",
        {"kind": "win", "winner": "Ben", "value": "10points", "special": ["heavenly_hand"], "facts": ["first_turn"]},
        "heavenly hand does not hold: only the dealer (East) can go out on the dealt hand",
        "天和は成立しません: 配牌で和了できるのは親(東家)だけです",
    ),
    (
        "classical-1",
        {"kind": "win", "winner": "Ben", "value": "4faan"},
        "chinese-classical counts a hand in points and doubles (e.g. 40pts x 3dbl), not in faan",
        "chinese-classical では手を点と倍(例: 40pts x 3dbl)で数えます(番ではありません)",
    ),
    (
        "wrc-1",
        {"kind": "penalty", "player": "Dai", "amount": "1200", "share": "to_others"},
        "share to_others: under these rules a penalty is taken off the player's final points after uma and nobody"
        " receives it (penalties_after_uma); give share off_table or leave it out",
        "配分 to_others: このルールでは罰符はウマの後の最終ポイントから引かれ、誰も受け取りません"
        "(penalties_after_uma)。配分は off_table にするか、指定しないでください",
    ),
]


@pytest.mark.parametrize(
    ("key", "fields", "english", "japanese"), REFUSED_ENTRIES, ids=[r[2][:40] for r in REFUSED_ENTRIES]
)
def test_an_entry_the_rules_refuse_is_said_in_both_languages(
    app: HonbaApp, key: str, fields: dict[str, object], english: str, japanese: str
) -> None:
    with pytest.raises(HonbaError) as refused:
        apply_entry(app, key, entry_from_fields(fields), client_key=None, by="table 1")
    assert str(refused.value) == english
    assert ja(refused.value.said) == japanese
    assert table_view(app, key)["entries"] == []  # nothing recorded


def test_a_match_the_rules_cannot_start_is_said_in_both_languages(app: HonbaApp) -> None:
    with pytest.raises(HonbaError) as three:
        recording.start_match(app, "club-2", PLAYERS[:3], TENHOU, {"format": "honba"})
    assert str(three.value) == "rules 'tenhou' are for 4 players, got 3"
    assert ja(three.value.said) == "ルール 'tenhou' は 4 人用です(3 人が指定されました)"
    with pytest.raises(HonbaError) as keyless:
        recording.start_match(app, " ", PLAYERS, TENHOU, {"format": "honba"})
    assert (str(keyless.value), ja(keyless.value.said)) == ("a match needs a key", "対局にはキーが必要です")


def test_a_seat_is_named_by_its_role_in_words() -> None:
    table = Match.start("m", tuple(PLAYERS), TENHOU).state
    with pytest.raises(UnknownSeat) as refused:
        EntryChecks(tuple(PLAYERS), TENHOU).result(WinResult((Win(7, HandValue(han=1, fu=30), discarder=0),)), table)
    assert str(refused.value) == "winner: there is no seat 7 at a 4-player table"
    assert ja(refused.value.said) == "和了者: 4 人の卓に席 7 はありません"


def test_a_count_of_a_points_hand_is_named_in_its_unit() -> None:
    said = {}
    for preset, value in (("hong-kong", HandValue(faan=-1)), ("taiwanese", HandValue(tai=-1))):
        with pytest.raises(HonbaError) as refused:
            check_value(value, load_preset(preset), self_drawn=False)
        said[str(refused.value)] = ja(refused.value.said)
    assert said == {
        "faan cannot be negative (-1)": "番は負にできません(-1)",
        "tai cannot be negative (-1)": "台は負にできません(-1)",
    }


def test_a_preset_that_is_none_of_honba_s_is_said_with_the_presets_as_they_are() -> None:
    # What the director's seating form and the what-if page send: a preset's name, never a file.
    with pytest.raises(InvalidRules) as refused:
        resolve_rules("nonsense", files=False)
    assert str(refused.value).startswith("unknown rules preset 'nonsense' (known: american-modern, chinese-classical, ")
    assert ja(refused.value.said).startswith(
        "不明なルールのプリセット 'nonsense'(あるのは: american-modern, chinese-classical, "
    )


OVERRIDES = [
    (
        {"uma": [30, 10, -10, -20]},
        "what-if: rule 'uma': [30, 10, -10, -20] does not sum to zero",
        "what-if: ルール 'uma': [30, 10, -10, -20] の合計が 0 ではありません",
    ),
    (
        {"chombo_share": "halves"},
        "what-if: rule 'chombo_share': 'halves' is not one of to_others, off_table, reverse_mangan",
        "what-if: ルール 'chombo_share': 'halves' は to_others, off_table, reverse_mangan のいずれでもありません",
    ),
    (
        {"players": 5},
        "what-if: rule 'players': 5 is out of range (3 to 4)",
        "what-if: ルール 'players': 5 は範囲外です(3〜4)",
    ),
    ({"nonsense": 1}, "what-if: unknown rule 'nonsense'", "what-if: 不明なルール 'nonsense'"),
]


@pytest.mark.parametrize(("changes", "english", "japanese"), OVERRIDES, ids=[o[1][9:40] for o in OVERRIDES])
def test_a_rule_changed_to_a_value_it_cannot_take_is_said_with_its_option_name_as_data(
    changes: dict[str, object], english: str, japanese: str
) -> None:
    with pytest.raises(InvalidRules) as refused:
        TENHOU.with_overrides(changes, source="what-if")
    assert str(refused.value) == english
    assert ja(refused.value.said) == japanese


def test_floating_uma_that_is_no_rows_of_numbers_is_refused_by_the_rule_s_name() -> None:
    # Python's own words on the type ("'int' object is not iterable") were the refusal before.
    for value in (5, [["a", "b", "c", "d"]]):
        with pytest.raises(InvalidRules) as refused:
            Ruleset.from_dict({"uma_floating": value})
        assert str(refused.value).startswith("rules: rule 'uma_floating': ")
        assert str(refused.value).endswith(" is not a list of rows of whole numbers")
        assert ja(refused.value.said).endswith(" は整数の行のリストではありません")
    # A row of the wrong length is still the post-check's, which names the players.
    with pytest.raises(InvalidRules) as short:
        Ruleset.from_dict({"uma_floating": [[10, -10]]})
    assert (
        str(short.value) == "rules: rule 'uma_floating': each row needs 4 whole numbers summing to zero, not (10, -10)"
    )


def test_a_rule_file_s_refusals_name_the_file_in_both_languages(tmp_path: Path) -> None:
    rules = tmp_path / "club.toml"
    rules.write_text('base = "tenhou"\nstart_score = -1\n', encoding="utf-8")
    with pytest.raises(InvalidRules) as refused:
        resolve_rules(str(rules))
    assert str(refused.value) == f"{rules}: rule 'start_score': -1 is out of range (0 to 1000000)"
    assert ja(refused.value.said) == f"{rules}: ルール 'start_score': -1 は範囲外です(0〜1000000)"
    rules.write_bytes(b'base = "tenhou"\nname = "\xff"\n')
    with pytest.raises(InvalidRules) as undecoded:
        resolve_rules(str(rules))
    assert str(undecoded.value) == f"{rules}: the rule file is not UTF-8 text (byte 24)"
    assert ja(undecoded.value.said) == f"{rules}: ルールファイルが UTF-8 のテキストではありません(バイト 24)"


def test_a_damaged_fact_is_said_in_both_languages() -> None:
    table = Match.start("m", tuple(PLAYERS), TENHOU).state
    with pytest.raises(DamagedFact) as damaged:
        evolve(table, TENHOU, Penalty(0, -5))
    assert str(damaged.value) == "a recorded Penalty has an amount of -5"
    assert ja(damaged.value.said) == "記録された Penalty が不正です: 点数が -5 です"
