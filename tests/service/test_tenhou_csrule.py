"""A Tenhou private lobby's rules (``GO csrule``), decoded field by field and scored by.

The decoding follows the public programs that read and write ``csrule`` (a JavaScript
``parseTenhouRules`` with its defaults, a TypeScript ``ruleSetToTenhouConfig``; see
replay/formats/tenhou_csrule.py). The real lobby game of the corpus, ``newattr2023.xml``,
pins what it uses: 30,000 start and return, uma 15/5, tied players splitting the uma and
final points in tenths (its owari: 29,300 -10.7, 30,700 +10.7 twice each). The other
fields are pinned with lobby strings written here from those programs.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import CORPUS

from replay.formats.logmodel import LogError
from replay.formats.tenhou_csrule import decode_csrule
from replay.formats.tenhou_xml import read_tenhou_xml
from replay.service.imports.verify import verify_game

NEWATTR = CORPUS / "dnovikoff-tenhou" / "log" / "test_data" / "newattr2023.xml"
EAST_ONLY = 0x101  # newattr2023.xml's GO type: four players, east-only
HANCHAN = 0x109
SANMA = 0x119


def csrule(flags0: int = 0, flags1: int = 0, **fields: int) -> str:
    """A 45-field csrule: the flag words, then ``f<N>=value`` for field N; the rest empty."""
    values = [f"{flags0:08X}", f"{flags1:08X}"] + [""] * 43
    for name, value in fields.items():
        values[int(name[1:])] = str(value)
    return ",".join(values)


def decoded(text: str, go_type: int = EAST_ONLY) -> dict[str, Any]:
    lobby = decode_csrule(text, go_type)
    assert lobby.unsupported is None, lobby.unsupported
    return lobby.overrides


# The corpus's real lobby game.


def test_the_real_lobby_game_is_scored_under_its_own_rules_and_agrees_with_the_log() -> None:
    if not NEWATTR.is_file():
        pytest.skip("newattr2023.xml is not in the shared corpus here")
    (game,) = read_tenhou_xml(NEWATTR.read_bytes(), file=NEWATTR.name)
    assert game.unsupported is None
    rules = game.rules
    assert (rules.start_score, rules.return_score) == (30000, 30000)
    assert rules.uma == (15, 5, -5, -15)
    assert rules.uma_ties == "split"
    assert rules.points_rounding == "none"
    assert rules.length == "east"
    report = verify_game(game)
    assert report.disagreements == ()
    assert report.hands == report.hands_agreeing == 4
    assert game.final_points == (-10.7, 10.7, -10.7, 10.7)


# Numbers.


def test_field_4_is_the_starting_points() -> None:
    assert decoded(csrule(f4=27000))["start_score"] == 27000


def test_field_5_is_the_score_that_ends_the_extension() -> None:
    assert decoded(csrule(f5=35000))["target_score"] == 35000
    assert decoded(csrule(f5=30000))["target_score"] == 0  # the return points: nothing apart


def test_field_6_is_the_return_points() -> None:
    assert decoded(csrule(f6=31000))["return_score"] == 31000


def test_empty_fields_take_the_defaults_four_players() -> None:
    rules = decoded(csrule())
    assert (rules["start_score"], rules["return_score"], rules["riichi_deposit"]) == (25000, 30000, 1000)
    assert rules["extra_hand_bonus"] == 100
    assert rules["noten_pool"] == 3000
    assert rules["uma"] == [20, 10, -10, -20]


def test_empty_fields_take_the_defaults_three_players() -> None:
    rules = decoded(csrule(), SANMA)
    assert (rules["start_score"], rules["return_score"]) == (35000, 40000)
    assert rules["noten_pool"] == 2000
    assert rules["uma"] == [20, 0, -20]


def test_field_10_is_the_riichi_stick() -> None:
    assert decoded(csrule(f10=2000))["riichi_deposit"] == 2000


def test_field_11_is_the_counter_from_each_payer() -> None:
    assert decoded(csrule(f11=300))["extra_hand_bonus"] == 300


def test_fields_16_to_18_are_what_each_not_ready_player_pays() -> None:
    assert decoded(csrule(f16=2000, f17=3000, f18=6000))["noten_pool"] == 6000


def test_not_ready_payments_that_are_no_one_pool_are_refused() -> None:
    lobby = decode_csrule(csrule(f16=1000, f17=1000, f18=1000), EAST_ONLY)
    assert lobby.unsupported is not None and "fields 16-18" in lobby.unsupported


def test_fields_21_to_35_are_the_uma_rows_top_takes_minus_their_sum() -> None:
    rows = {f"f{21 + i}": v for i, v in enumerate([5, -5, -15] * 5)}
    assert decoded(csrule(**rows))["uma"] == [15, 5, -5, -15]


def test_uma_rows_that_differ_are_refused() -> None:
    rows = {f"f{21 + i}": v for i, v in enumerate([5, -5, -15] * 4 + [10, -10, -20])}
    lobby = decode_csrule(csrule(**rows), EAST_ONLY)
    assert lobby.unsupported is not None and "uma by rows" in lobby.unsupported


def test_field_7_auto_win_points_is_refused_when_set() -> None:
    lobby = decode_csrule(csrule(f7=50000), EAST_ONLY)
    assert lobby.unsupported is not None and "field 7" in lobby.unsupported


# Flag words.


@pytest.mark.parametrize(
    ("flags0", "rule", "value"),
    [
        (0x1, "nagashi_mangan", False),
        (0x2, "kiriage_mangan", True),
        (0x4, "bust", False),
        (0x2000, "multiple_ron", 1),
        (0x1000, "multiple_ron", 3),
        (0x100 | 0x200 | 0x400 | 0x800, "abortive_draws", False),
        (0x4000, "dealer_stop_on_win", False),
        (0x8000, "dealer_stop_on_ready", False),
        (0x10000, "deal_passes_after_dealer_win", True),
        (0x20000, "deal_passes_after_draw", "always"),
        (0x40000, "points_rounding", "tenhou"),
        (0x0, "points_rounding", "none"),
        (0x200000, "extension_winds", 0),
    ],
)
def test_flag_word_0(flags0: int, rule: str, value: Any) -> None:
    assert decoded(csrule(flags0))[rule] == value


def test_flag_word_0_tsumo_split_is_no_tsumo_loss_for_three_players() -> None:
    assert decoded(csrule(0x800000), SANMA)["tsumo_loss"] is False


def test_flag_word_0_two_winds_per_round_is_refused() -> None:
    lobby = decode_csrule(csrule(0x100000), EAST_ONLY)
    assert lobby.unsupported is not None and "two winds per round" in lobby.unsupported


def test_flag_word_0_bits_no_source_decodes_are_noted() -> None:
    lobby = decode_csrule(csrule(0x4000000), EAST_ONLY)
    assert lobby.unsupported is None
    assert any("0x4000000" in n for n in lobby.notes)


@pytest.mark.parametrize(
    ("flags1", "rule", "value"),
    [
        (0x2, "uma_ties", "split"),
        (0x4, "leftover_deposits", "lost"),
        (0x10, "settling_table", [[5, 100], [6, 150], [8, 200], [11, 300]]),
    ],
)
def test_flag_word_1(flags1: int, rule: str, value: Any) -> None:
    assert decoded(csrule(0, flags1))[rule] == value


def test_flags_that_change_only_a_hand_value_need_no_rule() -> None:
    # Dora, ippatsu, double-wind fu: the log states every hand's value.
    lobby = decode_csrule(csrule(0x10 | 0x20 | 0x40 | 0x80 | 0x80000, 0x1), EAST_ONLY)
    assert lobby.unsupported is None
    assert "no ippatsu" in lobby.decoded


# Scored under the lobby's rules.


def lobby_log(rule: str, agari: str) -> bytes:
    return (
        f'<mjloggm ver="2.3"><GO type="{HANCHAN}" lobby="7" csrule="{rule}"/>'
        '<UN n0="Ann" n1="Ben" n2="Cho" n3="Dai"/><TAIKYOKU oya="0"/>'
        '<INIT seed="0,0,0,1,2,33" ten="300,300,300,300" oya="0" hai0="1,2,3"/>'
        f"{agari}</mjloggm>"
    ).encode()


def test_a_lobby_game_is_paid_with_the_lobbys_start_points() -> None:
    # 30,000 start (field 4): the game opens at East 1 with 30,000 each, a standard start there.
    agari = '<AGARI ba="0,0" ten="30,1000,0" yaku="8,1" who="1" fromWho="0" sc="300,-10,300,10,300,0,300,0"/>'
    (game,) = read_tenhou_xml(lobby_log(csrule(f4=30000, f6=30000), agari), file="lobby.xml")
    assert game.unsupported is None
    assert verify_game(game).disagreements == ()


def test_a_malformed_csrule_is_an_error_naming_the_go_tag() -> None:
    with pytest.raises(LogError, match=r"<GO>.*not hexadecimal"):
        read_tenhou_xml(lobby_log("XYZ," + ",".join([""] * 44), ""), file="lobby.xml")


def test_a_lobby_game_pays_the_lobbys_counter_value() -> None:
    # Field 11: 300 from each payer per counter, so a ron at 1 counter pays 1,000 + 900.
    header = '<INIT seed="0,1,0,1,2,33" ten="300,300,300,300" oya="0" hai0="1,2,3"/>'
    agari = '<AGARI ba="1,0" ten="30,1000,0" yaku="8,1" who="1" fromWho="0" sc="300,-19,300,19,300,0,300,0"/>'
    with_counter = lobby_log(csrule(f4=30000, f6=30000, f11=300), "").replace(
        b'<INIT seed="0,0,0,1,2,33" ten="300,300,300,300" oya="0" hai0="1,2,3"/>', (header + agari).encode()
    )
    (game,) = read_tenhou_xml(with_counter, file="lobby.xml")
    assert game.rules.extra_hand_bonus == 300
    assert verify_game(game).disagreements == ()
    (default,) = read_tenhou_xml(with_counter.replace(b",300,,,,,", b",,,,,,", 1), file="lobby.xml")
    assert default.rules.extra_hand_bonus == 100
    assert "score changes" in {d.field for d in verify_game(default).disagreements}
