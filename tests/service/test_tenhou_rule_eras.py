"""Tenhou's rules through the years: each change placed between two known points, with its source.

The boundaries are those of ``replay/formats/tenhou_rules.py`` (sources there and in
docs/replay.md): east-only uma 10/5 seen up to 2009-07-31 and 20/10 from 2009-08-27 (the
logs' own owari); the last dealer's ready-hand stop from 2010-06-01 07:00 (Tenhou's blog,
blog.tenhou.net/article/38215017.html; terralian/fastmaj); final points rounded to the thousand
in logs through 2022-01-13, kept in tenths by 2022-01-31 (issue 23's logs). Log ids carry the
hour (Japan time), and the boundaries are hours where the logs give them. Real games of the
corpus are read under other dates (their file name is their id): the date alone decides the
rules, so the same log agrees under one era and disagrees under the other.
"""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path

import pytest
from conftest import CORPUS

from replay.formats.logmodel import LoggedGame
from replay.formats.tenhou_json import read_tenhou_json
from replay.formats.tenhou_rules import Dating, dating, rules_for
from replay.formats.tenhou_xml import read_tenhou_xml
from replay.service.imports.verify import GameReport, verify_game

TSUBAKI = CORPUS / "tsubakisakura-mjlog2json" / "data"
LEDENEL = CORPUS / "ledenel-auto-white-reimu" / "tests"


def corpus_file(folder: Path, name: str) -> bytes:
    found = sorted(folder.rglob(name)) if folder.is_dir() else []
    if not found:
        pytest.skip(f"{name} is not in the shared corpus here")
    return found[0].read_bytes()


def redated(data: bytes, day: str, rest: str, hour: str = "00") -> LoggedGame:
    """The log read as if its id (its file name) were of another day (and hour, Japan time)."""
    games = read_tenhou_xml(data, file=f"{day}{hour}gm-{rest}.xml")
    assert len(games) == 1
    return games[0]


def fields(report: GameReport) -> set[str]:
    return {d.field for d in report.disagreements}


# East-only uma: 10/5 up to 2009-07-31, 20/10 from 2009-08-27.


def test_east_only_uma_is_10_5_up_to_the_end_of_july_2009() -> None:
    # fastmaj's 2009073112gm-0061-0000-cad1a977 (12:00) pays 10/5; 2009082713gm-00e1 (13:00) 20/10.
    assert rules_for(4, True, Dating.at(datetime(2009, 7, 31, 12))).rules.uma == (10, 5, -5, -10)


def test_east_only_uma_is_20_10_from_the_end_of_august_2009() -> None:
    assert rules_for(4, True, Dating.at(datetime(2009, 8, 27, 13))).rules.uma == (20, 10, -10, -20)


def test_a_log_dated_only_by_its_day_is_placed_by_every_hour_of_that_day() -> None:
    # On 2009-07-31 the last 10/5 log seen is of 12:00: a log of that day at an unknown hour
    # may be later, so its final points are not judged.
    rules = rules_for(4, True, Dating.on(date(2009, 7, 31)))
    assert not rules.points_judged and any("2009-07-31 12:00" in n for n in rules.notes)


def test_hanchan_uma_stayed_20_10() -> None:
    assert rules_for(4, False, Dating.on(date(2009, 3, 1))).rules.uma == (20, 10, -10, -20)


def test_a_real_east_only_game_of_october_2009_pays_20_10_and_not_10_5() -> None:
    # 2009100718gm-00e1 (Ledenel's tests, GO type 225): Tenhou paid it 20/10.
    data = corpus_file(LEDENEL, "2009100718gm-00e1-0000-470654d3.xml")
    assert verify_game(redated(data, "20091007", "00e1-0000-470654d3")).disagreements == ()
    assert "final points" in fields(verify_game(redated(data, "20090731", "00e1-0000-470654d3")))


def test_an_east_only_game_between_the_two_uma_points_says_so_and_leaves_the_points_unjudged() -> None:
    data = corpus_file(LEDENEL, "2009100718gm-00e1-0000-470654d3.xml")
    game = redated(data, "20090810", "00e1-0000-470654d3")
    assert not game.points_judged
    assert any("east-only uma" in n and "2009-07-31" in n and "2009-08-27" in n for n in game.notes)
    report = verify_game(game)
    assert report.disagreements == ()
    assert report.notes == game.notes


# The last dealer's ready-hand stop, from June 2010.

# An east-only game from its last hand: the dealer (seat 3, 40,000, top) alone is ready at an
# exhaustive draw (3,000 from the others), then wins the extra hand by a self-draw of 1 han
# 30 fu (500 from each, 100 more each for the counter) and, top, ends it (agari-yame). Final
# points, Tenhou's rounding: 18,400 -> 18,000: -12, with uma +10/-10/-20 by seat order.
PLAYED_ON = (
    b'<mjloggm ver="2.3"><GO type="161" lobby="0"/><UN n0="Ann" n1="Ben" n2="Cho" n3="Dai" dan="0,0,0,0" '
    b'rate="1500,1500,1500,1500" sx="M,M,M,M"/><TAIKYOKU oya="0"/>'
    b'<INIT seed="3,0,0,1,2,33" ten="200,200,200,400" oya="3" hai0="1,2,3"/>'
    b'<RYUUKYOKU ba="0,0" sc="200,-10,200,-10,200,-10,400,30" hai3="1,2"/>'
    b'<INIT seed="3,1,0,1,2,33" ten="190,190,190,430" oya="3" hai0="1,2,3"/>'
    b'<AGARI ba="1,0" ten="30,1500,0" yaku="0,1" who="3" fromWho="3" sc="190,-6,190,-6,190,-6,430,18" '
    b'owari="184,-2.0,184,-22.0,184,-32.0,448,56.0"/></mjloggm>'
)


def test_before_june_2010_a_ready_last_dealer_on_top_plays_on() -> None:
    game = redated(PLAYED_ON, "20100531", "00a1-0000-00000000")
    assert not game.rules.dealer_stop_on_ready
    assert verify_game(game).disagreements == ()


def test_from_june_2010_a_ready_last_dealer_on_top_ends_the_game() -> None:
    game = redated(PLAYED_ON, "20100602", "00a1-0000-00000000")
    assert game.rules.dealer_stop_on_ready
    assert "match end" in fields(verify_game(game))


def test_at_six_on_the_day_of_the_change_a_ready_last_dealer_on_top_still_plays_on() -> None:
    # Log ids carry the hour (Japan time). terralian/fastmaj's TenhouRuleTimelineHandler switches
    # at 2010-06-01 07:00 (tenhou-rules-history.md), and its test log 2010060106gm-00a9-0000-30d6de3b,
    # a hanchan of that day at 06:00, plays South 4 on twice with the ready dealer on top.
    game = redated(PLAYED_ON, "20100601", "00a1-0000-00000000", hour="06")
    assert not game.rules.dealer_stop_on_ready
    report = verify_game(game)
    assert report.disagreements == () and report.notes == ()


def test_from_seven_on_the_day_of_the_change_the_ready_hand_stop_holds() -> None:
    game = redated(PLAYED_ON, "20100601", "00a1-0000-00000000", hour="07")
    assert game.rules.dealer_stop_on_ready
    report = verify_game(game)
    # No note of the rules' era; the hand the log plays past that end is counted (issue 34).
    assert "match end" in fields(report)
    assert report.notes == ("1 logged hand(s) not replayed after the match ended (dealer_stop): E4-1",)


# Final points: rounded to the thousand in logs through 2022-01-13, tenths by 2022-01-31 (issue 23).


def test_final_points_are_rounded_through_january_13_2022() -> None:
    assert rules_for(4, False, Dating.on(date(2022, 1, 13))).rules.points_rounding == "tenhou"


def test_final_points_keep_tenths_from_january_31_2022() -> None:
    assert rules_for(4, False, Dating.on(date(2022, 1, 31))).rules.points_rounding == "none"


def test_a_real_2023_game_dated_january_31_2022_is_judged_in_tenths() -> None:
    data = corpus_file(TSUBAKI, "2023053016gm-0029-0000-e54b3b98.xml")
    report = verify_game(redated(data, "20220131", "0029-0000-e54b3b98"))
    assert report.disagreements == () and report.notes == ()
    assert "final points" in fields(verify_game(redated(data, "20220113", "0029-0000-e54b3b98")))


def test_a_real_2019_game_agrees_rounded_and_disagrees_in_tenths() -> None:
    # 2019103023gm-00a9: owari 96.0, -9.0, -105.0, 18.0 from 85,300 / 31,400 / -55,100 / 38,400.
    data = corpus_file(TSUBAKI, "2019103023gm-00a9-0000-f90e0fe9.xml")
    assert verify_game(redated(data, "20211001", "00a9-0000-f90e0fe9")).disagreements == ()
    assert "final points" in fields(verify_game(redated(data, "20220630", "00a9-0000-f90e0fe9")))


def test_a_real_2023_game_agrees_in_tenths_and_disagrees_rounded() -> None:
    # 2023053016gm-0029: owari 63.8, -23.9, 9.3, -49.2.
    data = corpus_file(TSUBAKI, "2023053016gm-0029-0000-e54b3b98.xml")
    assert verify_game(redated(data, "20230530", "0029-0000-e54b3b98")).disagreements == ()
    assert "final points" in fields(verify_game(redated(data, "20211001", "0029-0000-e54b3b98")))


def test_a_game_between_january_13_and_31_2022_leaves_its_final_points_unjudged_and_says_so() -> None:
    # A 2019 game (whole numbers) dated inside the window: not judged, whichever way it rounds.
    data = corpus_file(TSUBAKI, "2019103023gm-00a9-0000-f90e0fe9.xml")
    report = verify_game(redated(data, "20220120", "00a9-0000-f90e0fe9"))
    assert report.disagreements == ()
    assert any("final points rounding" in n and "2022-01-13" in n and "2022-01-31" in n for n in report.notes)
    assert any("not judged" in n for n in report.notes)


# Logs without a date: dated by their format where it can, else every change is noted.


def test_the_wall_seed_in_init_dates_a_log_before_august_2009() -> None:
    when = dating(None, wall_seed_in_init=True)
    rules = rules_for(4, True, when)
    assert rules.rules.uma == (10, 5, -5, -10)
    assert not rules.rules.dealer_stop_on_ready
    assert rules.notes == ()


def test_final_points_written_as_whole_numbers_date_a_log_before_march_2010() -> None:
    rules = rules_for(4, False, dating(None, points_format="whole"))
    assert not rules.rules.dealer_stop_on_ready
    assert rules.rules.points_rounding == "tenhou"
    assert rules.notes == ()


def test_an_undated_log_whose_final_points_carry_a_tenth_is_of_the_tenths_era() -> None:
    rules = rules_for(4, False, dating(None, points_format="tenths"))
    assert rules.rules.points_rounding == "none" and rules.rules.dealer_stop_on_ready
    assert rules.points_judged and rules.notes == ()


def test_a_real_undated_game_in_tenths_is_judged_by_its_own_final_points() -> None:
    # 2023053016gm-0029 under a file name that is no log id: owari 63.8, -23.9, 9.3, -49.2.
    data = corpus_file(TSUBAKI, "2023053016gm-0029-0000-e54b3b98.xml")
    (game,) = read_tenhou_xml(data, file="a-game-in-tenths.xml")
    assert game.points_judged and game.rules.points_rounding == "none"
    report = verify_game(game)
    assert report.disagreements == () and report.notes == ()


def test_a_real_undated_json_game_in_tenths_is_judged_by_its_own_final_points() -> None:
    document = json.loads(corpus_file(TSUBAKI, "2023053016gm-0029-0000-e54b3b98.json"))
    del document["ref"]
    (game,) = read_tenhou_json(json.dumps(document).encode(), file="a-game-in-tenths.json")
    assert game.points_judged and game.rules.points_rounding == "none"
    assert verify_game(game).disagreements == ()


def test_an_undated_log_with_decimal_points_is_noted_and_its_points_unjudged() -> None:
    rules = rules_for(4, False, dating(None, points_format="decimal"))
    assert not rules.points_judged
    assert any("final points rounding" in n for n in rules.notes)
    assert any("ready-hand stop assumed" in n for n in rules.notes)


def test_an_undated_excerpt_without_final_points_gets_no_note_about_final_points() -> None:
    rules = rules_for(4, False, Dating(), final_points=False)
    assert rules.points_judged
    assert not any("final points" in n for n in rules.notes)
