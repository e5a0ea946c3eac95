"""The Tenhou mjlog XML importer: small logs written for these tests, then the corpus.

Every expected value below is read off the test log itself (Tenhou's ``sc``
changes, ``ten`` and ``yaku``) or follows from Tenhou's documented tags
(``../shared/corpus/FORMAT.md``); none is honba's own scoring output.
"""

from __future__ import annotations

import functools
import gzip
from pathlib import Path
from urllib.parse import unquote

import pytest
from hypothesis import given
from hypothesis import strategies as st

from domain.values import AbortiveDraw, AbortKind, ExhaustiveDraw, HandValue, Win, WinResult
from replay.formats.logmodel import LogError, LoggedGame
from replay.formats.tenhou_xml import _unquoted, read_tenhou_xml

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"

NAMES4 = 'n0="%41%6E%6E" n1="Ben" n2="%E3%81%82" n3="Dai"'  # Ann, Ben, あ, Dai
NAMES3 = 'n0="Ann" n1="Ben" n2="Cho" n3=""'
START4 = 'ten="250,250,250,250"'


def mjlog(*tags: str, go: int = 169, names: str = NAMES4, extra_go: str = "") -> bytes:
    """A whole mjlog document around the given tags."""
    body = "".join(tags)
    return (
        f'<mjloggm ver="2.3"><GO type="{go}" lobby="0"{extra_go}/><UN {names} dan="0,0,0,0" '
        f'rate="1500,1500,1500,1500" sx="M,M,M,M"/><TAIKYOKU oya="0"/>{body}</mjloggm>'
    ).encode()


def init(kyoku: int = 0, honba: int = 0, sticks: int = 0, ten: str = START4, oya: int | None = None) -> str:
    dealer = kyoku % 4 if oya is None else oya
    return f'<INIT seed="{kyoku},{honba},{sticks},1,2,33" {ten} oya="{dealer}" hai0="1,2,3"/>'


def read(data: bytes, file: str = "test.mjlog") -> LoggedGame:
    games = read_tenhou_xml(data, file=file)
    assert len(games) == 1
    return games[0]


def only_result(game: LoggedGame) -> object:
    assert len(game.hands) >= 1
    return game.hands[0].result


# A ron, a tsumo, the header of each hand.


def test_ron_translates_winner_discarder_value_and_changes() -> None:
    game = read(
        mjlog(
            init(),
            '<AGARI ba="0,0" hai="1" machi="1" ten="30,3900,0" yaku="8,1,52,2" doraHai="1" who="1" fromWho="0" '
            'sc="250,-39,250,39,250,0,250,0"/>',
            init(1, ten='ten="211,289,250,250"'),
        )
    )
    first, second = game.hands
    assert first.result == WinResult((Win(winner=1, value=HandValue(han=3, fu=30), discarder=0),))
    assert first.deltas == (-3900, 3900, 0, 0)
    assert (first.round_wind, first.hand_number, first.dealer, first.counters, first.deposit_sticks) == (0, 1, 0, 0, 0)
    assert first.scores == (25000, 25000, 25000, 25000)
    assert first.position == "INIT #1"
    assert (second.round_wind, second.hand_number, second.dealer) == (0, 2, 1)
    assert second.scores == (21100, 28900, 25000, 25000)
    assert second.result is None and second.deltas is None
    assert game.players == ("Ann", "Ben", "あ", "Dai")
    assert game.format == "tenhou-xml"
    assert game.rules.name == "tenhou"
    assert game.truncated


def test_tsumo_with_riichi_has_no_discarder_and_deltas_include_the_stick() -> None:
    game = read(
        mjlog(
            init(),
            '<REACH who="0" step="1"/><REACH who="0" ten="240,250,250,250" step="2"/>',
            # Dealer riichi pinfu tsumo, 3 han 20 fu: 1300 all, and the own stick back.
            '<AGARI ba="0,1" hai="1" machi="1" ten="20,3900,0" yaku="1,1,0,1,7,1" doraHai="1" who="0" fromWho="0" '
            'sc="240,49,250,-13,250,-13,250,-13"/>',
        )
    )
    hand = game.hands[0]
    assert hand.result == WinResult((Win(winner=0, value=HandValue(han=3, fu=20)),), riichi=(0,))
    assert hand.deltas == (3900, -1300, -1300, -1300)


def test_riichi_whose_declaration_tile_is_ronned_places_no_stick() -> None:
    game = read(
        mjlog(
            init(),
            '<REACH who="2" step="1"/>',
            '<AGARI ba="0,0" ten="30,2000,0" yaku="18,1,54,1" who="1" fromWho="2" sc="250,0,250,20,250,-20,250,0"/>',
        )
    )
    result = game.hands[0].result
    assert isinstance(result, WinResult) and result.riichi == ()
    assert game.hands[0].deltas == (0, 2000, -2000, 0)


def test_header_reads_counters_sticks_and_later_rounds() -> None:
    game = read(mjlog(init(6, honba=2, sticks=3)))
    hand = game.hands[0]
    assert (hand.round_wind, hand.hand_number, hand.dealer, hand.counters, hand.deposit_sticks) == (1, 3, 2, 2, 3)


@pytest.mark.parametrize(
    ("ten", "yaku", "value"),
    [
        ("40,8000,1", 'yaku="1,1,8,1,52,2"', HandValue(limit="mangan")),
        ("30,12000,2", 'yaku="1,1,0,1,34,3,52,1"', HandValue(limit="haneman")),
        ("30,16000,3", 'yaku="35,6,52,2"', HandValue(limit="baiman")),
        ("30,24000,4", 'yaku="35,6,52,5"', HandValue(limit="sanbaiman")),
        ("40,32000,5", 'yakuman="39"', HandValue(limit="yakuman", multiple=1)),
        ("50,64000,5", 'yakuman="39,42"', HandValue(limit="yakuman", multiple=2)),
        # A counted yakuman has han, no yakuman list: the han go to the rules.
        ("30,32000,5", 'yaku="1,1,29,2,28,2,34,3,53,5"', HandValue(han=13, fu=30)),
        ("25,6400,0", 'yaku="22,2,52,2"', HandValue(han=4, fu=25)),
    ],
)
def test_hand_values(ten: str, yaku: str, value: HandValue) -> None:
    game = read(
        mjlog(init(), f'<AGARI ba="0,0" ten="{ten}" {yaku} who="1" fromWho="3" sc="250,0,250,1,250,0,250,-1"/>')
    )
    result = game.hands[0].result
    assert isinstance(result, WinResult)
    assert result.wins[0].value == value


# Double ron, pao, draws.


def test_double_ron_is_two_wins_on_one_discard_with_changes_added_up() -> None:
    # Two honba and two sticks: the first winner (nearest the discarder) takes both,
    # the second tag's ba has 0 sticks and its sc "before" holds the first's changes.
    game = read(
        mjlog(
            init(0, honba=2, sticks=2, ten='ten="250,230,240,240"'),
            '<AGARI ba="2,2" ten="30,2000,0" yaku="8,1,54,1" who="1" fromWho="0" sc="250,-26,230,46,240,0,240,0"/>',
            '<AGARI ba="2,0" ten="30,1000,0" yaku="18,1" who="2" fromWho="0" sc="224,-10,276,0,240,10,240,0" '
            'owari="214,-29.0,276,7.0,250,-13.0,260,35.0"/>',
        )
    )
    hand = game.hands[0]
    assert hand.result == WinResult(
        (
            Win(winner=1, value=HandValue(han=2, fu=30), discarder=0),
            Win(winner=2, value=HandValue(han=1, fu=30), discarder=0),
        )
    )
    assert hand.deltas == (-3600, 4600, 1000, 0)
    assert game.final_scores == (21400, 27600, 25000, 26000)
    assert not game.truncated


def test_pao_names_the_liable_player() -> None:
    game = read(
        mjlog(
            init(),
            '<AGARI ba="0,0" ten="40,32000,5" yakuman="39" who="2" fromWho="2" paoWho="0" '
            'sc="250,-320,250,0,250,320,250,0"/>',
        )
    )
    assert game.hands[0].result == WinResult(
        (Win(winner=2, value=HandValue(limit="yakuman"), discarder=None, liable=0),)
    )
    assert game.hands[0].deltas == (-32000, 0, 32000, 0)


def test_pao_on_a_ron() -> None:
    game = read(
        mjlog(
            init(),
            '<AGARI ba="0,0" ten="40,32000,5" yakuman="39" who="2" fromWho="1" paoWho="3" '
            'sc="250,0,250,-160,250,320,250,-160"/>',
        )
    )
    result = game.hands[0].result
    assert isinstance(result, WinResult)
    assert (result.wins[0].discarder, result.wins[0].liable) == (1, 3)


def test_exhaustive_draw_ready_from_shown_hands() -> None:
    game = read(
        mjlog(
            init(),
            '<REACH who="2" step="1"/><REACH who="2" ten="250,250,240,250" step="2"/>',
            '<RYUUKYOKU ba="0,1" sc="250,15,250,-15,240,15,250,-15" hai0="1,2" hai2="3,4"/>',
        )
    )
    hand = game.hands[0]
    assert hand.result == ExhaustiveDraw(ready=(0, 2), riichi=(2,))
    assert hand.deltas == (1500, -1500, 500, -1500)


def test_exhaustive_draw_ready_from_noten_payments_when_a_hand_is_not_shown() -> None:
    # Logs rebuilt from one client's view lack that client's own hand (seat 1 here).
    game = read(mjlog(init(), '<RYUUKYOKU ba="0,0" sc="250,-15,250,15,250,15,250,-15" hai2="3,4"/>'))
    assert game.hands[0].result == ExhaustiveDraw(ready=(1, 2))


def test_exhaustive_draw_all_ready_when_nothing_moves_and_hands_are_shown() -> None:
    game = read(mjlog(init(), '<RYUUKYOKU ba="0,0" sc="250,0,250,0,250,0,250,0" hai0="1" hai2="3" hai3="5"/>'))
    assert game.hands[0].result == ExhaustiveDraw(ready=(0, 1, 2, 3))


def test_exhaustive_draw_nobody_ready() -> None:
    game = read(mjlog(init(), '<RYUUKYOKU ba="0,0" sc="250,0,250,0,250,0,250,0"/>'))
    assert game.hands[0].result == ExhaustiveDraw()
    assert game.hands[0].deltas == (0, 0, 0, 0)


def test_nagashi_mangan_goes_to_the_seats_paid_in_sc() -> None:
    game = read(
        mjlog(
            init(3, ten='ten="319,140,221,320"'),
            '<REACH who="3" step="1"/><REACH who="3" ten="319,140,221,310" step="2"/>',
            '<RYUUKYOKU type="nm" ba="0,1" sc="319,-20,140,-20,221,80,310,-40" hai3="1,2"/>',
        )
    )
    hand = game.hands[0]
    assert hand.result == ExhaustiveDraw(ready=(3,), riichi=(3,), nagashi=(2,))
    assert hand.deltas == (-2000, -2000, 8000, -5000)


@pytest.mark.parametrize(
    ("kind", "abort"),
    [
        ("yao9", AbortKind.NINE_TERMINALS),
        ("reach4", AbortKind.FOUR_RIICHI),
        ("ron3", AbortKind.TRIPLE_RON),
        ("kan4", AbortKind.FOUR_KONGS),
        ("kaze4", AbortKind.FOUR_WINDS),
    ],
)
def test_abortive_draws(kind: str, abort: AbortKind) -> None:
    game = read(
        mjlog(
            init(0, honba=1),
            '<REACH who="1" step="1"/><REACH who="1" ten="250,240,250,250" step="2"/>',
            f'<RYUUKYOKU type="{kind}" ba="1,1" sc="250,0,240,0,250,0,250,0"/>',
        )
    )
    assert game.hands[0].result == AbortiveDraw(kind=abort, riichi=(1,))
    assert game.hands[0].deltas == (0, -1000, 0, 0)


def test_four_riichi_abort_keeps_all_four_sticks() -> None:
    reaches = "".join(f'<REACH who="{s}" step="1"/><REACH who="{s}" step="2"/>' for s in (0, 1, 2, 3))
    game = read(mjlog(init(), reaches, '<RYUUKYOKU type="reach4" ba="0,4" sc="240,0,240,0,240,0,240,0"/>'))
    assert game.hands[0].result == AbortiveDraw(kind=AbortKind.FOUR_RIICHI, riichi=(0, 1, 2, 3))
    assert game.hands[0].deltas == (-1000, -1000, -1000, -1000)


# The end of a game.


def test_bust_ends_the_game_with_owari() -> None:
    game = read(
        mjlog(
            init(5, ten='ten="250,40,350,360"'),
            '<AGARI ba="0,0" ten="30,7700,0" yaku="1,1,8,1,52,2" who="0" fromWho="1" '
            'sc="250,77,40,-77,350,0,360,0" owari="327,3.0,-37,-57.0,350,15.0,360,39.0"/>',
        )
    )
    assert game.hands[0].deltas == (7700, -7700, 0, 0)
    assert game.final_scores == (32700, -3700, 35000, 36000)
    assert game.final_points == (3.0, -57.0, 15.0, 39.0)
    assert not game.truncated


def test_game_without_owari_is_truncated_and_an_open_hand_has_no_result() -> None:
    game = read(
        mjlog(
            init(),
            '<AGARI ba="0,0" ten="30,1000,0" yaku="18,1" who="2" fromWho="0" sc="250,-10,250,0,250,10,250,0"/>',
            init(1, ten='ten="240,250,260,250"'),
            '<REACH who="3" step="1"/><REACH who="3" step="2"/>',
        )
    )
    assert game.truncated
    assert game.final_scores is None and game.final_points is None
    assert [h.result is None for h in game.hands] == [False, True]
    assert game.hands[1].deltas is None


# Three players, east-only games, special rules.


def test_three_player_game() -> None:
    game = read(
        mjlog(
            init(2, ten='ten="350,350,350,0"'),
            '<AGARI ba="0,0" ten="30,3900,0" yaku="8,1,52,2" who="2" fromWho="0" sc="350,-39,350,0,350,39,0,0"/>',
            init(4, ten='ten="311,350,389,0"'),
            go=185,
            names=NAMES3,
        )
    )
    assert game.players == ("Ann", "Ben", "Cho")
    assert game.rules.players == 3 and game.rules.name == "tenhou-sanma" and game.rules.length == "south"
    first, second = game.hands
    assert first.scores == (35000, 35000, 35000)
    assert (first.round_wind, first.hand_number, first.dealer) == (0, 3, 2)
    assert first.deltas == (-3900, 0, 3900)
    # East 4 does not exist in sanma: index 4 is South 1.
    assert (second.round_wind, second.hand_number, second.dealer) == (1, 1, 0)


def test_three_player_east_only() -> None:
    game = read(mjlog(init(0, ten='ten="350,350,350,0"'), go=0x10 | 0xA1 | 0x40, names=NAMES3))
    assert game.rules.players == 3 and game.rules.length == "east"
    assert game.unsupported is None


@pytest.mark.parametrize(("go", "name"), [(169, "tenhou"), (9, "tenhou"), (137, "tenhou"), (225, "tenhou-east")])
def test_standard_go_types(go: int, name: str) -> None:
    game = read(mjlog(init(), go=go))
    assert game.rules.name == name
    assert game.unsupported is None


@pytest.mark.parametrize(
    ("go", "extra_go", "ten", "reason"),
    [
        (553, "", START4, "chip"),
        (1569, "", START4, "chip"),
        (2113, "", 'ten="10,10,10,10"', "special rule set"),
        (257, ' csrule="00000000,00000000,,,,,,50000' + "," * 37 + '"', START4, "private lobby"),
        (169, "", 'ten="300,300,300,300"', "starts at"),
    ],
)
def test_special_rules_are_reported_unsupported(go: int, extra_go: str, ten: str, reason: str) -> None:
    game = read(mjlog(init(ten=ten), go=go, extra_go=extra_go))
    assert game.unsupported is not None and reason in game.unsupported


# Tenhou's rules as of the log's date (replay/formats/tenhou_rules.py): chosen from the date or
# the wall format, never from how the game turned out.


def test_logs_after_2020_keep_the_hundreds_of_final_points_as_tenths() -> None:
    data = mjlog(init())
    assert read(data, file="2023053016gm-0029-0000-e54b3b98.mjlog").rules.points_rounding == "none"
    assert read(data, file="2019103023gm-00a9-0000-f90e0fe9.mjlog").rules.points_rounding == "tenhou"


def test_early_2009_east_only_games_pay_uma_10_5() -> None:
    early = init().replace("/>", ' shuffle="mt19937ar,1"/>')
    assert read(mjlog(early, go=161)).rules.uma == (10, 5, -5, -10)
    assert read(mjlog(init(), go=225), file="2009100718gm-00e1-0000-470654d3.xml").rules.uma == (20, 10, -10, -20)
    # Hanchan kept 20/10 then too.
    assert read(mjlog(early, go=169)).rules.uma == (20, 10, -10, -20)


def test_early_2009_games_have_no_ready_hand_stop() -> None:
    early = init().replace("/>", ' shuffle="mt19937ar,1"/>')
    assert not read(mjlog(early)).rules.dealer_stop_on_ready
    assert not read(mjlog(init()), file="2009022022gm-00a9-0000-cd94aac8.mjlog").rules.dealer_stop_on_ready
    assert read(mjlog(init()), file="2018012321gm-0009-0000-40bb4a3d.mjlog").rules.dealer_stop_on_ready


# Input forms and malformed input.


def test_gzip_input_reads_the_same() -> None:
    data = mjlog(init(), '<RYUUKYOKU type="yao9" ba="0,0" sc="250,0,250,0,250,0,250,0"/>')
    assert read_tenhou_xml(gzip.compress(data), file="x.mjlog") == read_tenhou_xml(data, file="x.mjlog")


def test_game_id_from_the_file_name() -> None:
    game = read(mjlog(init()), file="logs/2019103023gm-00a9-0000-f90e0fe9&tw=2.mjlog")
    assert game.game_id == "2019103023gm-00a9-0000-f90e0fe9"
    assert read(mjlog(init()), file="logs/bug5.xml").game_id == "bug5"


BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<mjloggm ver="2.3"><GO type="169"/><UN n0="&lol3;"/></mjloggm>"""

EXTERNAL_ENTITY = b"""<?xml version="1.0"?>
<!DOCTYPE x [<!ENTITY ext SYSTEM "file:///etc/passwd">]>
<mjloggm ver="2.3"><GO type="169"/><UN n0="&ext;"/></mjloggm>"""


@pytest.mark.parametrize(
    ("data", "where", "says"),
    [
        (b'<mjloggm ver="2.3"><GO type="169"/><INIT seed="0,0,0"', "line 1", "not well-formed"),
        (b"\x00\x01garbage", "line 1", "not well-formed"),
        (BILLION_LAUGHS, "bad.mjlog", "refused"),
        (EXTERNAL_ENTITY, "bad.mjlog", "refused"),
        (b"<html><body/></html>", "bad.mjlog", "not a Tenhou mjlog"),
        (b"\x1f\x8b\x08\x00broken", "bad.mjlog", "gzip"),
        (b'<mjloggm ver="2.3"><INIT seed="0,0,0" ten="250,250,250,250" oya="0"/></mjloggm>', "INIT #1", "GO"),
        (mjlog('<INIT seed="0,0,0,1,2,3" oya="0"/>'), "INIT #1", "'ten'"),
        (mjlog('<INIT seed="0,x,0" ten="250,250,250,250" oya="0"/>'), "INIT #1", "whole numbers"),
        (mjlog('<INIT seed="1,0,0" ten="250,250,250,250" oya="0"/>'), "INIT #1", "dealer"),
        (mjlog('<INIT seed="0,0,0" ten="250,250" oya="0"/>'), "INIT #1", "at least 4"),
        (mjlog(init(), '<AGARI ba="0,0" ten="30,1000,0" yaku="18,1" who="1" fromWho="0"/>'), "INIT #1 <AGARI>", "sc"),
        (mjlog(init(), '<AGARI ten="30,1000,0" yaku="18,1" who="7" fromWho="0" sc="0,0,0,0,0,0,0,0"/>'), "", "who=7"),
        (mjlog(init(), '<AGARI ten="30,1000,0" who="1" fromWho="0" sc="0,0,0,0,0,0,0,0"/>'), "<AGARI>", "yaku"),
        (mjlog(init(), '<AGARI ten="30,1000,9" yaku="1,1" who="1" fromWho="0" sc="0,0,0,0,0,0,0,0"/>'), "", "limit"),
        (mjlog('<AGARI ten="30,1000,0" yaku="18,1" who="1" fromWho="0" sc="0,0,0,0,0,0,0,0"/>'), "AGARI", "no INIT"),
        (mjlog(init(), '<RYUUKYOKU type="weird" ba="0,0" sc="0,0,0,0,0,0,0,0"/>'), "RYUUKYOKU", "unknown draw"),
        (
            mjlog(init(), '<RYUUKYOKU ba="0,0" sc="0,0,0,0,0,0,0,0"/>', '<REACH who="1" step="2"/>'),
            "INIT #1 <REACH>",
            "after the hand had ended",
        ),
        (
            mjlog(
                init(),
                '<AGARI ten="30,1000,0" yaku="18,1" who="1" fromWho="0" sc="0,0,0,0,0,0,0,0"/>',
                '<AGARI ten="30,1000,0" yaku="18,1" who="2" fromWho="3" sc="0,0,0,0,0,0,0,0"/>',
            ),
            "<AGARI>",
            "same discard",
        ),
        (
            mjlog(
                init(),
                '<RYUUKYOKU ba="0,0" sc="0,0,0,0,0,0,0,0" owari="250,0,250,0,250,0,250,0"/>',
                init(1),
            ),
            "INIT #2",
            "after the game's end",
        ),
    ],
)
def test_malformed_input_raises_log_error_naming_file_and_position(data: bytes, where: str, says: str) -> None:
    with pytest.raises(LogError) as caught:
        read_tenhou_xml(data, file="bad.mjlog")
    assert caught.value.where.startswith("bad.mjlog")
    assert where in caught.value.where
    assert says in caught.value.message


# The corpus of real Tenhou logs.

needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")


def corpus_xml_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    return sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.suffix in (".xml", ".xml_", ".mjlog"))


@functools.cache
def read_corpus(path: Path) -> list[LoggedGame]:
    return read_tenhou_xml(path.read_bytes(), file=str(path.relative_to(CORPUS)))


@needs_corpus
def test_every_corpus_log_reads_and_its_hands_chain() -> None:
    files = corpus_xml_files()
    assert len(files) > 700
    broken: list[str] = []
    hands = 0
    for path in files:
        for game in read_corpus(path):
            for hand, following in zip(game.hands, game.hands[1:], strict=False):
                hands += 1
                if hand.deltas is None:
                    broken.append(f"{game.file} {hand.position}: no result before the next hand")
                elif tuple(s + d for s, d in zip(hand.scores, hand.deltas, strict=True)) != following.scores:
                    broken.append(f"{game.file} {hand.position}: {hand.scores} + {hand.deltas} != {following.scores}")
    assert hands > 6800
    assert broken == []


@needs_corpus
def test_corpus_final_scores_are_the_last_hand_plus_leftover_sticks() -> None:
    # FORMAT.md: sticks still on the table at the end go to the top player.
    broken: list[str] = []
    for path in corpus_xml_files():
        for game in read_corpus(path):
            if game.final_scores is None or game.unsupported:
                continue
            last = game.hands[-1]
            assert last.deltas is not None and last.result is not None
            leftover = 0 if isinstance(last.result, WinResult) else last.deposit_sticks + len(last.result.riichi)
            end = sum(last.scores) + sum(last.deltas) + 1000 * leftover
            if end != sum(game.final_scores):
                broken.append(f"{game.file}: {end} != {sum(game.final_scores)}")
    assert broken == []


@needs_corpus
def test_corpus_special_rules_and_excerpts_are_flagged() -> None:
    unsupported: set[str] = set()
    truncated: set[str] = set()
    for path in corpus_xml_files():
        for game in read_corpus(path):
            if game.unsupported:
                unsupported.add(path.name)
            if game.truncated:
                truncated.add(path.name)
    assert unsupported == {"ratio.xml", "ratio1.xml_", "chip.xml_", "sanma.xml"}
    assert "2011020401gm-00a9-0000-f6eff225-no-game-end.mjlog" in truncated
    assert "2011020401gm-00a9-0000-f6eff225-no-round-end.mjlog" in truncated
    assert "upd-bef-nm.mjlog" in truncated
    assert "2011020401gm-00a9-0000-f6eff225.mjlog" not in truncated
    # The rest are the mjx excerpts, cut before the game's end.
    assert all(name.startswith(("upd-", "obs-", "encdec-", "2011020401gm")) for name in truncated)


@needs_corpus
def test_corpus_game_in_both_formats_matches_tenhous_json_export() -> None:
    # T of FORMAT.md: the double ron of kyoku [3,0,0] and the pao yakuman of the last one.
    path = CORPUS / "tsubakisakura-mjlog2json/data/2019103023gm-00a9-0000-f90e0fe9.xml"
    (game,) = read_corpus(path)
    assert game.final_scores == (85300, 31400, -55100, 38400)
    assert game.final_points == (96.0, -9.0, -105.0, 18.0)
    doubles = [h for h in game.hands if isinstance(h.result, WinResult) and len(h.result.wins) == 2]
    assert [(h.round_wind, h.hand_number, h.counters) for h in doubles] == [(0, 4, 0)]
    # JSON [0,0,-11600,12600] + [0,12000,-12000,0], and the stick seat 2 placed in the hand
    # (JSON leaves sticks out; seat 3, the first winner, took it).
    assert doubles[0].deltas == (0, 12000, -24600, 12600)
    last = game.hands[-1].result
    assert isinstance(last, WinResult) and last.wins[0].liable == 2


@given(st.binary(max_size=24), st.booleans(), st.text(max_size=6))
def test_a_players_name_is_decoded_as_unquote_decodes_it(name: bytes, lower: bool, other: str) -> None:
    # Tenhou percent-encodes every byte of a name (UTF-8, or not: a byte that is none is replaced);
    # such a name is decoded from its hex digits, any other by ``unquote``: the same text either way.
    encoded = "".join(f"%{byte:02x}" if lower else f"%{byte:02X}" for byte in name)
    _unquoted.cache_clear()
    for text in (encoded, encoded + other, other + encoded, encoded[:-1], "%" + encoded):
        assert _unquoted(text) == unquote(text)


def test_a_logs_hour_is_named_as_strftime_names_it() -> None:
    # The hour a log's description and notes name, formatted without strftime (once per log).
    from datetime import datetime, timedelta

    from replay.formats.tenhou_rules import _hour

    start = datetime(2006, 1, 1)
    moments = [start + timedelta(hours=37 * step) for step in range(3000)]
    moments += [datetime(999, 5, 6, 7), datetime(1, 1, 1), datetime(9999, 12, 31, 23)]
    assert [_hour(moment) for moment in moments] == [moment.strftime("%Y-%m-%d %H:00") for moment in moments]
