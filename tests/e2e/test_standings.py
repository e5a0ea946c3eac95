"""Standings: final points under every uma/oka preset, ties, penalties, corrections, the tie-break
chain, the standings after a session, and the published formats.

Every expected number is worked out here by hand from the published rules the presets cite
(../shared/reference/rules-and-peers.md), never copied from honba's output:

- Tenhou: 25,000 start, 30,000 return, uma +20/+10/-10/-20 and the oka of 20 to the top; each
  final score rounded to the thousand, half away from zero, the top taking whatever makes the
  sum zero; ties by seat order (Tenhou's own ``owari`` in ../shared/corpus shows all three:
  43,500 / 40,500 / 10,500 / 5,500 became +52 / +21 / -29 / -44, not +54 for the top).
- WRC: 30,000 start and return, no oka, uma +15/+5/-5/-15, points to the tenth, tied players
  average their uma, penalties come off the overall score after uma.
- EMA: as WRC (2016 edition), with double ron and the counters paid to each winner.
- M-League: 25,000/30,000, uma +30/+10/-10/-30 and the oka of 20 (43,000 first = 63,
  36,800 second = 16.8), tied players split, chombo 20,000 points after uma.
- JPML-style floating uma: 30,000 start and return, no oka, uma by the number of players
  ending below 30,000: one +8/+3/+1/-12, two +8/+4/-4/-8, three +12/-1/-3/-8.
- Tenhou three-player: 35,000 start, 40,000 return, uma +20/0/-20, oka (40-35) x 3 = 15.
- Mahjong Soul three-player: points from 35,000, no oka, uma +15/0/-15, tenths.

Matches are played from their last hand (an opening table at South 4, or South 3 in three-player)
so that one hand, worked out from the score table, decides the final scores; the points of a
3 han 30 fu ron are 3,900, 2 han 30 fu 2,000, 1 han 30 fu 1,000, 4 han 30 fu 7,700.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from conftest import SOUTH, hv, ron
from honba_cli import Honba, invoke, ok
from playwright_support import rendered

from domain.match import Match
from domain.rules import Ruleset, load_preset
from domain.values import HandResult, Penalty, TableState, WinResult
from projections.entries import entry_numbers
from projections.standings import MatchSummary, StandingRow, Totals, rank
from replay.html.pages import render_standings_html
from replay.input.entry import entry_of
from replay.service.recording import recording
from replay.service.recording.entry import CorrectionRequest, apply_correction
from replay.service.tournaments.standings import StandingsReport, tournament_report
from replay.service.tournaments.tournaments import attach_all
from replay.store.application import HonbaApp
from replay.store.standings_view import catch_up, open_view

TENHOU = load_preset("tenhou")
WRC = load_preset("wrc")
EMA = load_preset("ema")
MLEAGUE = load_preset("m-league")
FLOATING = load_preset("jpml-floating-uma")
SANMA = load_preset("tenhou-sanma")
SOUL_SANMA = load_preset("mahjongsoul-sanma")

NAMES = ("Ann", "Ben", "Cho", "Dai")
ANN, BEN, CHO, DAI = 0, 1, 2, 3

Step = HandResult | Penalty | str


@pytest.fixture
def app() -> Iterator[HonbaApp]:
    application = HonbaApp.open(":memory:")
    yield application
    application.close()


def last_hand(rules: Ruleset, scores: Sequence[int], *, counters: int = 0) -> TableState:
    """The table at the last scheduled hand (South 4; South 3 in three-player), the last seat dealing."""
    n = rules.players
    return TableState(players=n, scores=tuple(scores), round_wind=SOUTH, hand_number=n, dealer=n - 1, counters=counters)


def play(
    app: HonbaApp,
    key: str,
    rules: Ruleset,
    opening: TableState,
    *steps: Step,
    players: Sequence[str] = NAMES,
    tournament: str | None = None,
    session: int = 1,
) -> Match:
    """Start a match at the opening table, record the steps (results, penalties, or an early end's
    reason), attach it to the tournament if one is named."""
    names = list(players)[: rules.players]
    recording.start_match(app, key, names, rules, {}, opening)
    for step in steps:
        if isinstance(step, str):
            recording.end(app, key, step)
        elif isinstance(step, Penalty):
            recording.penalise(app, key, step)
        else:
            recording.record(app, key, step)
    match = app.get_match(key)
    if tournament is not None:
        attach_all(app, tournament, [(key, names)], session)
    return match


def won(*wins: object) -> WinResult:
    return WinResult(wins=wins)


def report(app: HonbaApp, name: str, after: int | None = None) -> StandingsReport:
    view = open_view(app)
    catch_up(app, view)
    return tournament_report(view, name, after_session=after)


def points_of(rep: StandingsReport) -> dict[str, float]:
    return {row.player: row.points for row in rep.rows}


def row_of(rep: StandingsReport, player: str) -> StandingRow:
    return next(row for row in rep.rows if row.player == player)


def summary_of(rep: StandingsReport, key: str) -> MatchSummary:
    return next(s for s, _ in rep.summaries if s.key == key)


# Tenhou: rounding to the thousand, the top takes the remainder, ties by seat order.


def test_tenhou_rounds_half_away_from_zero_and_the_top_takes_the_remainder(app: HonbaApp) -> None:
    # South 4, Dai deals. Ben rons Dai for 3 han 30 fu (3,900): Ben 26,600 -> 30,500, Dai 16,500 -> 12,600.
    match = play(
        app,
        "t-round",
        TENHOU,
        last_hand(TENHOU, (40_400, 26_600, 16_500, 16_500)),
        won(ron(BEN, DAI, hv(3, 30))),
        tournament="cup",
    )
    assert match.state.finished and match.state.scores == (40_400, 30_500, 16_500, 12_600)
    # Ben 2nd: 30.5 -> 31, 31 - 30 + 10 = +11. Cho 3rd: 16.5 -> 17, 17 - 30 - 10 = -23.
    # Dai 4th: 12.6 -> 13, 13 - 30 - 20 = -37. Ann 1st: -(11 - 23 - 37) = +49, one less than
    # her own 40 - 30 + 20 + 20 = 50: the rounding up of the others falls to the top.
    rep = report(app, "cup")
    assert summary_of(rep, "t-round").final_points == (49.0, 11.0, -23.0, -37.0)
    assert points_of(rep) == {"Ann": 49.0, "Ben": 11.0, "Cho": -23.0, "Dai": -37.0}
    assert [row.player for row in rep.rows] == ["Ann", "Ben", "Cho", "Dai"]
    # Net score is the final score less the start of 25,000.
    assert [row.net_score for row in rep.rows] == [15_400, 5_500, -8_500, -12_400]


def test_tenhou_ties_go_by_seat_order_and_m_league_splits_them(app: HonbaApp) -> None:
    # Ann rons Dai for 2 han 30 fu (2,000) in the last hand: 36,000 / 27,000 / 27,000 / 10,000.
    opening = (34_000, 27_000, 27_000, 12_000)
    play(app, "tie-tenhou", TENHOU, last_hand(TENHOU, opening), won(ron(ANN, DAI, hv(2, 30))), tournament="tenhou")
    play(app, "tie-mleague", MLEAGUE, last_hand(MLEAGUE, opening), won(ron(ANN, DAI, hv(2, 30))), tournament="ml")

    tenhou = summary_of(report(app, "tenhou"), "tie-tenhou")
    assert tenhou.final_scores == (36_000, 27_000, 27_000, 10_000)
    # Ben sits before Cho: Ben 2nd 27 - 30 + 10 = +7, Cho 3rd 27 - 30 - 10 = -13,
    # Dai 10 - 30 - 20 = -40, Ann 36 - 30 + 20 + 20 = +46.
    assert tenhou.final_points == (46.0, 7.0, -13.0, -40.0)
    assert tenhou.places == (1, 2, 3, 4)

    mleague = summary_of(report(app, "ml"), "tie-mleague")
    # Ben and Cho share the uma of 2nd and 3rd: (10 - 10) / 2 = 0, so both -3 + 0 = -3.0.
    # Ann 6 + 30 + 20 = +56.0, Dai -20 - 30 = -50.0. Both are second.
    assert mleague.final_points == (56.0, -3.0, -3.0, -50.0)
    assert mleague.places == (1, 2, 2, 4)


def test_tenhou_a_chombo_before_uma_changes_the_places(app: HonbaApp) -> None:
    # Ben's chombo is paid as a reverse mangan: 4,000 to the dealer Dai, 2,000 to Ann and Cho.
    # Then Ann rons Ben for 1,000 in the last hand.
    play(
        app,
        "t-chombo",
        TENHOU,
        last_hand(TENHOU, (31_000, 30_000, 20_000, 19_000)),
        Penalty(BEN, 8_000, "chombo", "reverse_mangan"),
        won(ron(ANN, BEN, hv(1, 30))),
        tournament="cup",
    )
    rep = report(app, "cup")
    summary = summary_of(rep, "t-chombo")
    # 31,000 + 2,000 + 1,000; 30,000 - 8,000 - 1,000; 20,000 + 2,000; 19,000 + 4,000.
    assert summary.final_scores == (34_000, 21_000, 22_000, 23_000)
    # Ben, second without the chombo, is last: Dai 23 - 30 + 10 = +3, Cho 22 - 30 - 10 = -18,
    # Ben 21 - 30 - 20 = -29, Ann +44.
    assert summary.places == (1, 4, 3, 2)
    assert summary.final_points == (44.0, -29.0, -18.0, 3.0)
    assert row_of(rep, "Ben").penalties == 8_000
    assert row_of(rep, "Ben").place_counts == (0, 0, 0, 1)


# WRC and EMA: no oka, tenths, tied players average their uma, penalties after uma.


def test_wrc_splits_ties_and_takes_a_chombo_off_after_uma(app: HonbaApp) -> None:
    # Ben's chombo (20,000 points, off the overall score); then Cho rons Dai for 1,000:
    # 41,300 / 30,000 / 30,000 / 18,700.
    play(
        app,
        "wrc-1",
        WRC,
        last_hand(WRC, (41_300, 30_000, 29_000, 19_700)),
        Penalty(BEN, 20_000, "chombo", "off_table"),
        won(ron(CHO, DAI, hv(1, 30))),
        tournament="wrc",
    )
    rep = report(app, "wrc")
    summary = summary_of(rep, "wrc-1")
    # The table score is untouched by the chombo; Ben and Cho tie at 30,000.
    assert summary.final_scores == (41_300, 30_000, 30_000, 18_700)
    # Ann 11.3 + 15 = 26.3; Ben and Cho 0 + (5 - 5) / 2 = 0, Ben then -20 for the chombo;
    # Dai -11.3 - 15 = -26.3.
    assert summary.final_points == (26.3, -20.0, 0.0, -26.3)
    assert summary.places == (1, 2, 2, 4)
    assert summary.penalties == (0, 20_000, 0, 0)
    assert points_of(rep) == {"Ann": 26.3, "Ben": -20.0, "Cho": 0.0, "Dai": -26.3}
    # Cho ahead of Ben on points; both counted second.
    assert [row.player for row in rep.rows] == ["Ann", "Cho", "Ben", "Dai"]
    assert row_of(rep, "Ben").place_counts == row_of(rep, "Cho").place_counts == (0, 1, 0, 0)


def test_ema_double_ron_pays_the_counters_to_each_winner(app: HonbaApp) -> None:
    # South 4 with one counter: Dai deals into Ann (2 han 30 fu, 2,000) and Ben (1 han 30 fu,
    # 1,000); each winner gets the 300 of the counter. 32,300 / 31,300 / 30,000 / 26,400.
    play(
        app,
        "ema-1",
        EMA,
        last_hand(EMA, (30_000,) * 4, counters=1),
        won(ron(ANN, DAI, hv(2, 30)), ron(BEN, DAI, hv(1, 30))),
        tournament="ema",
    )
    summary = summary_of(report(app, "ema"), "ema-1")
    assert summary.final_scores == (32_300, 31_300, 30_000, 26_400)
    # 2.3 + 15 = 17.3; 1.3 + 5 = 6.3; 0 - 5 = -5.0; -3.6 - 15 = -18.6.
    assert summary.final_points == (17.3, 6.3, -5.0, -18.6)


def test_ema_a_four_way_tie_shares_all_the_uma(app: HonbaApp) -> None:
    # Stopped by the time limit before any hand: everyone at 30,000 shares (15 + 5 - 5 - 15) / 4 = 0.
    play(app, "ema-0", EMA, TableState(players=4, scores=(30_000,) * 4), "time limit", tournament="ema")
    summary = summary_of(report(app, "ema"), "ema-0")
    assert summary.final_points == (0.0, 0.0, 0.0, 0.0)
    assert summary.places == (1, 1, 1, 1)


# M-League: uma 30/10 with the oka of 20, tenths, split ties, chombo 20,000 after uma.


def test_m_league_points_as_the_league_publishes_them(app: HonbaApp) -> None:
    # Ben rons Cho for 3,900 in the last hand: 43,000 / 36,800 / 12,100 / 8,100.
    play(
        app,
        "ml-1",
        MLEAGUE,
        last_hand(MLEAGUE, (43_000, 32_900, 16_000, 8_100)),
        won(ron(BEN, CHO, hv(3, 30))),
        tournament="ml",
    )
    summary = summary_of(report(app, "ml"), "ml-1")
    # 13 + 30 + 20 = 63.0 and 6.8 + 10 = 16.8 (the league's own examples); -17.9 - 10 = -27.9;
    # -21.9 - 30 = -51.9.
    assert summary.final_points == (63.0, 16.8, -27.9, -51.9)


def test_m_league_tied_tops_split_uma_and_oka_and_the_chombo_comes_after(app: HonbaApp) -> None:
    # Dai's chombo (20,000 after uma), then Ben rons Cho for 3,900: 35,000 / 35,000 / 20,000 / 10,000.
    play(
        app,
        "ml-2",
        MLEAGUE,
        last_hand(MLEAGUE, (35_000, 31_100, 23_900, 10_000)),
        Penalty(DAI, 20_000, "chombo", "off_table"),
        won(ron(BEN, CHO, hv(3, 30))),
        tournament="ml",
    )
    rep = report(app, "ml")
    summary = summary_of(rep, "ml-2")
    assert summary.final_scores == (35_000, 35_000, 20_000, 10_000)
    # Ann and Ben share first and second: (30 + 20 + 10) / 2 = 30, so 5 + 30 = 35.0 each.
    # Cho -10 - 10 = -20.0; Dai -20 - 30 = -50.0, less 20 for the chombo = -70.0.
    assert summary.final_points == (35.0, 35.0, -20.0, -70.0)
    assert summary.places == (1, 1, 3, 4)
    dai = row_of(rep, "Dai")
    assert (dai.points, dai.penalties, dai.net_score) == (-70.0, 20_000, -15_000)
    # Equal on points, average place, first places and net score: Ann and Ben share the rank.
    assert [(row.rank, row.player) for row in rep.rows] == [(1, "Ann"), (1, "Ben"), (3, "Cho"), (4, "Dai")]


# Floating uma: by how many players end below 30,000.


FLOATING_MATCHES = (
    # scores (Ann, Ben, Cho, Dai), session, points worked out by hand
    ((34_000, 32_000, 31_000, 23_000), 1, (4 + 8, 2 + 3, 1 + 1, -7 - 12)),  # one below: +8/+3/+1/-12
    ((40_000, 35_000, 25_000, 20_000), 1, (10 + 8, 5 + 4, -5 - 4, -10 - 8)),  # two below: +8/+4/-4/-8
    ((48_000, 25_000, 24_000, 23_000), 2, (18 + 12, -5 - 1, -6 - 3, -7 - 8)),  # three below: +12/-1/-3/-8
    # Exactly 30,000 is not below: one below. Ben and Cho tie, Ben (seat 1) second.
    ((40_000, 30_000, 30_000, 20_000), 3, (10 + 8, 0 + 3, 0 + 1, -10 - 12)),
)


@pytest.fixture
def league(app: HonbaApp) -> HonbaApp:
    """Four matches under floating uma, each stopped by the time limit, over three sessions."""
    for index, (scores, session, _) in enumerate(FLOATING_MATCHES, start=1):
        opening = TableState(players=4, scores=scores, round_wind=SOUTH, hand_number=2, dealer=1)
        play(app, f"fl-{index}", FLOATING, opening, "time limit", tournament="league", session=session)
    return app


def test_floating_uma_by_the_number_of_players_below_the_start(league: HonbaApp) -> None:
    rep = report(league, "league")
    for index, (_, _, expected) in enumerate(FLOATING_MATCHES, start=1):
        assert summary_of(rep, f"fl-{index}").final_points == tuple(float(p) for p in expected)
    # 12 + 18 + 30 + 18; 5 + 9 - 6 + 3; 2 - 9 - 9 + 1; -19 - 18 - 15 - 22.
    assert points_of(rep) == {"Ann": 78.0, "Ben": 11.0, "Cho": -15.0, "Dai": -74.0}


def test_cumulative_points_by_session_and_standings_after_a_session(league: HonbaApp) -> None:
    rep = report(league, "league")
    assert rep.sessions == (1, 2, 3)
    assert rep.by_session == {
        1: {"Ann": 30.0, "Ben": 14.0, "Cho": -7.0, "Dai": -37.0},
        2: {"Ann": 60.0, "Ben": 8.0, "Cho": -16.0, "Dai": -52.0},
        3: {"Ann": 78.0, "Ben": 11.0, "Cho": -15.0, "Dai": -74.0},
    }
    after_two = report(league, "league", after=2)
    assert after_two.sessions == (1, 2)
    assert points_of(after_two) == {"Ann": 60.0, "Ben": 8.0, "Cho": -16.0, "Dai": -52.0}
    assert sorted(s.key for s, _ in after_two.summaries) == ["fl-1", "fl-2", "fl-3"]
    assert {row.player: row.matches for row in after_two.rows} == {"Ann": 3, "Ben": 3, "Cho": 3, "Dai": 3}
    after_one = report(league, "league", after=1)
    assert points_of(after_one) == {"Ann": 30.0, "Ben": 14.0, "Cho": -7.0, "Dai": -37.0}


# Three players.


def test_tenhou_sanma_uma_20_0_minus_20_with_an_oka_of_15(app: HonbaApp) -> None:
    # South 3, Cho deals. Ben rons Cho for 3,900: 50,200 / 36,500 / 18,300.
    play(
        app,
        "sanma-1",
        SANMA,
        last_hand(SANMA, (50_200, 32_600, 22_200)),
        won(ron(BEN, CHO, hv(3, 30))),
        tournament="sanma",
    )
    # Ann rons Cho for 2,000: 45,000 / 30,000 / 30,000, Ben and Cho tied (Ben sits first).
    play(
        app,
        "sanma-2",
        SANMA,
        last_hand(SANMA, (43_000, 30_000, 32_000)),
        won(ron(ANN, CHO, hv(2, 30))),
        tournament="sanma",
    )
    rep = report(app, "sanma")
    # Ben 36.5 -> 37, 37 - 40 + 0 = -3; Cho 18.3 -> 18, 18 - 40 - 20 = -42; Ann 50 - 40 + 20 + 15 = +45.
    assert summary_of(rep, "sanma-1").final_points == (45.0, -3.0, -42.0)
    # Ben 30 - 40 + 0 = -10; Cho 30 - 40 - 20 = -30; Ann 45 - 40 + 20 + 15 = +40.
    assert summary_of(rep, "sanma-2").final_points == (40.0, -10.0, -30.0)
    assert summary_of(rep, "sanma-2").places == (1, 2, 3)
    assert points_of(rep) == {"Ann": 85.0, "Ben": -13.0, "Cho": -72.0}
    assert row_of(rep, "Ann").place_counts == (2, 0, 0, 0)
    assert row_of(rep, "Cho").average_place == 3.0


def test_mahjong_soul_sanma_counts_from_the_start_in_tenths(app: HonbaApp) -> None:
    play(app, "soul-1", SOUL_SANMA, TableState(players=3, scores=(59_000, 25_800, 20_200)), "time limit")
    attach_all(app, "soul", [("soul-1", ["Ann", "Ben", "Cho"])], 1)
    # 59 - 35 + 15 = 39.0; 25.8 - 35 + 0 = -9.2; 20.2 - 35 - 15 = -29.8.
    assert summary_of(report(app, "soul"), "soul-1").final_points == (39.0, -9.2, -29.8)


# Corrections: the standings follow an amended or voided hand, and a penalty added later.


def test_the_standings_follow_an_amended_and_a_voided_hand(app: HonbaApp) -> None:
    # Ben rons Cho for 3 han 30 fu (3,900): 32,500 / 32,400 / 17,100 / 18,000.
    match = play(
        app,
        "t-amend",
        TENHOU,
        last_hand(TENHOU, (32_500, 28_500, 21_000, 18_000)),
        won(ron(BEN, CHO, hv(3, 30))),
        tournament="cup",
    )
    entry = 2  # the match's one hand: line 2 of its record file
    assert entry_numbers(match).number(match.history[0][0]) == entry
    # Ann 32.5 -> 33 would be +43 by herself; the others: Ben 32 - 30 + 10 = +12,
    # Dai 18 - 30 - 10 = -22, Cho 17.1 -> 17, 17 - 30 - 20 = -33; Ann -(12 - 22 - 33) = +43.
    assert points_of(report(app, "cup")) == {"Ann": 43.0, "Ben": 12.0, "Cho": -33.0, "Dai": -22.0}

    # The referee finds the hand was 4 han 30 fu (7,700): 32,500 / 36,200 / 13,300 / 18,000.
    amended = entry_of(won(ron(BEN, CHO, hv(4, 30))), NAMES)
    amend = CorrectionRequest("amend", entry, entry=amended, by="referee", reason="a dora was missed")
    apply_correction(app, "t-amend", amend, client_key=None)
    rep = report(app, "cup")
    assert summary_of(rep, "t-amend").final_scores == (32_500, 36_200, 13_300, 18_000)
    # Ann 2nd 32.5 -> 33, 33 - 30 + 10 = +13; Dai -22; Cho 13.3 -> 13, 13 - 30 - 20 = -37;
    # Ben -(13 - 22 - 37) = +46 (36 - 30 + 40 = 46).
    assert points_of(rep) == {"Ann": 13.0, "Ben": 46.0, "Cho": -37.0, "Dai": -22.0}
    assert [row.player for row in rep.rows] == ["Ben", "Ann", "Dai", "Cho"]

    # Then voided: still the last hand, it is taken back whole with the end the rules decided
    # after it (docs/audit.md), as the match itself says: the match is again at South 4 with the
    # opening scores, not finished, and counts for nobody until it ends.
    void = CorrectionRequest("void", entry, by="referee", reason="the hand was played after time")
    apply_correction(app, "t-amend", void, client_key=None)
    rep = report(app, "cup")
    summary = summary_of(rep, "t-amend")
    assert not summary.finished and not app.get_match("t-amend").state.finished
    assert summary.final_scores == (32_500, 28_500, 21_000, 18_000)
    assert points_of(rep) == {"Ann": 0.0, "Ben": 0.0, "Cho": 0.0, "Dai": 0.0}


def test_a_penalty_added_after_the_end_counts_after_uma(app: HonbaApp) -> None:
    play(
        app,
        "wrc-late",
        WRC,
        last_hand(WRC, (41_300, 30_000, 29_000, 19_700)),
        won(ron(CHO, DAI, hv(1, 30))),
        tournament="wrc",
    )
    # 26.3 / 0.0 / 0.0 / -26.3 (Ben and Cho tied), then a referee adds Ann's chombo after the end.
    assert points_of(report(app, "wrc")) == {"Ann": 26.3, "Ben": 0.0, "Cho": 0.0, "Dai": -26.3}
    chombo = entry_of(Penalty(ANN, 20_000, "chombo", "off_table"), NAMES)
    apply_correction(
        app,
        "wrc-late",
        CorrectionRequest("penalty", entry=chombo, by="referee", reason="false riichi"),
        client_key=None,
    )
    rep = report(app, "wrc")
    assert points_of(rep) == {"Ann": 6.3, "Ben": 0.0, "Cho": 0.0, "Dai": -26.3}
    assert row_of(rep, "Ann").penalties == 20_000
    assert summary_of(rep, "wrc-late").final_scores == (41_300, 30_000, 30_000, 18_700)


def test_a_match_in_progress_does_not_count_yet(app: HonbaApp) -> None:
    play(app, "open", TENHOU, TableState(players=4, scores=(25_000,) * 4), won(ron(ANN, BEN, hv(3, 30))))
    attach_all(app, "cup", [("open", NAMES)], 1)
    rep = report(app, "cup")
    assert rep.in_progress == 1
    assert {row.player: (row.points, row.matches) for row in rep.rows} == {p: (0.0, 0) for p in NAMES}


# The tie-break chain of projections/standings.py, one step at a time.


def totals(points: float, places: Sequence[int], net: int) -> Totals:
    counts = [0, 0, 0, 0]
    for place in places:
        counts[place - 1] += 1
    return Totals(points, net, len(places), sum(places), tuple(counts))


def order(by_player: dict[str, Totals]) -> list[tuple[int, str]]:
    return [(row.rank, row.player) for row in rank(by_player)]


def test_tie_break_1_placement_points() -> None:
    # Zed has the better average place, more first places and the better net score: points decide.
    assert order({"Zed": totals(10.0, [1, 1], 30_000), "Amy": totals(10.1, [4, 4], -30_000)}) == [
        (1, "Amy"),
        (2, "Zed"),
    ]


def test_tie_break_2_average_placement() -> None:
    # Equal points; Zed averages 2.0, Amy 2.5 (and has more first places and net score).
    assert order({"Amy": totals(5.0, [1, 4], 9_000), "Zed": totals(5.0, [2, 2], 1_000)}) == [(1, "Zed"), (2, "Amy")]


def test_tie_break_3_first_places() -> None:
    # Equal points and average (2.5): Zed has two first places, Amy one (and the better net score).
    assert order({"Amy": totals(0.0, [1, 2, 3, 4], 9_000), "Zed": totals(0.0, [1, 1, 4, 4], 1_000)}) == [
        (1, "Zed"),
        (2, "Amy"),
    ]


def test_tie_break_4_net_score() -> None:
    assert order({"Amy": totals(0.0, [1, 4], 1_000), "Zed": totals(0.0, [1, 4], 2_000)}) == [(1, "Zed"), (2, "Amy")]


def test_tie_break_5_equal_on_everything_shares_the_rank_listed_by_name() -> None:
    ranked = order(
        {
            "Zed": totals(0.0, [2, 3], 0),
            "Amy": totals(0.0, [2, 3], 0),
            "Kim": totals(1.0, [1, 4], 0),
            "Bob": totals(-1.0, [2, 3], 0),
        }
    )
    assert ranked == [(1, "Kim"), (2, "Amy"), (2, "Zed"), (4, "Bob")]


def test_a_registered_player_without_a_finished_match_comes_after_everyone_who_has_one_unranked() -> None:
    # No points to rank by yet: not above a player who played and lost 50 points, and no rank
    # of their own (issue 25: "—", never a rank or an average place of 0).
    assert order({"Amy": Totals(), "Zed": totals(-50.0, [4], -25_000)}) == [(1, "Zed"), (None, "Amy")]
    assert order({"Amy": Totals(), "Zed": totals(0.0, [2, 3], 0)}) == [(1, "Zed"), (None, "Amy")]
    (unplayed,) = [row for row in rank({"Amy": Totals(), "Zed": totals(0.0, [2], 0)}) if row.player == "Amy"]
    assert unplayed.average_place is None


def test_the_tie_break_chain_from_played_matches(app: HonbaApp) -> None:
    # Two Tenhou matches stopped by the time limit, each worked out by hand.
    # A: Ann 40,000, Ben 30,000, Cho 20,000, Dai 10,000 -> +50, +10, -20, -40.
    # B: Ben 40,000, Ann 30,000, Dai 20,000, Cho 10,000 -> Ben +50, Ann +10, Dai -20, Cho -40.
    # Ann and Ben: 60 points, average 1.5, one first place, net 20,000 each: they share the rank.
    # Cho and Dai: -60, average 3.5, no first place, net -20,000: they share the rank too.
    play(app, "A", TENHOU, TableState(players=4, scores=(40_000, 30_000, 20_000, 10_000)), "time limit")
    play(
        app,
        "B",
        TENHOU,
        TableState(players=4, scores=(40_000, 30_000, 20_000, 10_000)),
        "time limit",
        players=("Ben", "Ann", "Dai", "Cho"),
    )
    attach_all(app, "pair", [("A", NAMES), ("B", ("Ben", "Ann", "Dai", "Cho"))], 1)
    rep = report(app, "pair")
    assert [(row.rank, row.player, row.points) for row in rep.rows] == [
        (1, "Ann", 60.0),
        (1, "Ben", 60.0),
        (3, "Cho", -60.0),
        (3, "Dai", -60.0),
    ]


# The published formats, through the command line on a SQLite store.


@pytest.fixture
def league_db(tmp_path: Path) -> str:
    db = str(tmp_path / "league.sqlite")
    application = HonbaApp.open(db)
    try:
        for index, (scores, session, _) in enumerate(FLOATING_MATCHES, start=1):
            opening = TableState(players=4, scores=scores, round_wind=SOUTH, hand_number=2, dealer=1)
            play(application, f"fl-{index}", FLOATING, opening, "time limit", tournament="league", session=session)
    finally:
        application.close()
    return db


def test_standings_as_a_table(league_db: str) -> None:
    text = ok(league_db, "standings", "--tournament", "league")
    lines = [line for line in text.splitlines() if any(name in line for name in NAMES)]
    assert [next(name for name in NAMES if name in line) for line in lines] == ["Ann", "Ben", "Cho", "Dai"]
    assert "+78.0" in lines[0] and "-74.0" in lines[3]
    after = ok(league_db, "standings", "--tournament", "league", "--after", "1")
    assert "after session 1" in after and "+30.0" in after and "+78.0" not in after


def test_standings_as_csv(league_db: str, tmp_path: Path) -> None:
    out = tmp_path / "standings.csv"
    ok(league_db, "standings", "--tournament", "league", "--format", "csv", "-o", str(out))
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    # Net scores: Ann 34 + 40 + 48 + 40 - 4 x 30 = +42,000; Ben 32 + 35 + 25 + 30 - 120 = +2,000;
    # Cho 31 + 25 + 24 + 30 - 120 = -10,000; Dai 23 + 20 + 23 + 20 - 120 = -34,000.
    assert [
        (r["rank"], r["player"], r["points"], r["net_score"], r["matches"], r["average_place"], r["first"], r["fourth"])
        for r in rows
    ] == [
        ("1", "Ann", "78.0", "42000", "4", "1.0", "4", "0"),
        ("2", "Ben", "11.0", "2000", "4", "2.0", "0", "0"),
        ("3", "Cho", "-15.0", "-10000", "4", "3.0", "0", "0"),
        ("4", "Dai", "-74.0", "-34000", "4", "4.0", "0", "4"),
    ]
    after = ok(league_db, "standings", "--tournament", "league", "--after", "2", "--format", "csv")
    assert [r["points"] for r in csv.DictReader(io.StringIO(after))] == ["60.0", "8.0", "-16.0", "-52.0"]


def test_standings_as_json(league_db: str) -> None:
    data = json.loads(ok(league_db, "standings", "--tournament", "league", "--format", "json"))
    assert data["tournament"] == "league" and data["sessions"] == [1, 2, 3]
    assert [(r["player"], r["points"], r["place_counts"]) for r in data["rows"]] == [
        ("Ann", 78.0, [4, 0, 0, 0]),
        ("Ben", 11.0, [0, 4, 0, 0]),
        ("Cho", -15.0, [0, 0, 4, 0]),
        ("Dai", -74.0, [0, 0, 0, 4]),
    ]
    assert data["by_session"]["2"] == {"Ann": 60.0, "Ben": 8.0, "Cho": -16.0, "Dai": -52.0}
    matches = {m["match"]: m for m in data["matches"]}
    assert matches["fl-3"]["session"] == 2 and matches["fl-3"]["final_points"] == [30.0, -6.0, -9.0, -15.0]
    after = json.loads(ok(league_db, "standings", "--tournament", "league", "--after", "1", "--format", "json"))
    assert after["sessions"] == [1] and sorted(m["match"] for m in after["matches"]) == ["fl-1", "fl-2"]


def test_an_unknown_tournament_or_format_is_refused(league_db: str) -> None:
    result = invoke(["--db", league_db, "standings", "--tournament", "nope"])
    assert result.exit_code == 2 and "no tournament 'nope'" in result.output
    result = invoke(["--db", league_db, "standings", "--tournament", "league", "--format", "pdf"])
    assert result.exit_code == 2 and "--format" in result.output


@pytest.fixture
def standings_page(league_db: str, tmp_path: Path) -> Path:
    page = tmp_path / "standings.html"
    ok(league_db, "standings", "--tournament", "league", "--format", "html", "-o", str(page))
    return page


def test_the_html_page_holds_the_table_and_the_chart(standings_page: Path) -> None:
    page = standings_page.read_text(encoding="utf-8")
    assert "<title>Standings of league - honba</title>" in page
    # The public page's report: the standings in a table, the matches listed under it.
    assert page.count("<table") == 1 and '<section id="matches-section">' in page
    assert '<td class="num">+78.0</td>' in page and '<td class="num">-74.0</td>' in page
    assert "<svg" in page and 'aria-label="Points by session"' in page
    for label in ("session 1", "session 2", "session 3", "Ann", "Dai"):
        assert label in page
    assert "<script" not in page.lower()


def test_the_html_page_renders_in_headless_chromium(browser: Any, standings_page: Path, tmp_path: Path) -> None:
    url = standings_page.resolve().as_uri()
    png = tmp_path / "standings.png"
    dom = rendered(browser, url, 1280, 1400, png)
    assert '<table class="ledger standings">' in dom and "+78.0" in dom
    assert "<svg" in dom and "</svg>" in dom
    # matplotlib is imported by this test alone: 2.7 s of CPU at module level, paid by every test process.
    from matplotlib.image import imread

    pixels = imread(png)
    assert pixels.shape[:2] == (1400, 1280)
    colours = {tuple(p) for p in pixels[::4, ::4, :3].reshape(-1, 3).round(2).tolist()}
    assert len(colours) > 20  # text, table rules and the players' lines: not blank
    assert (pixels[:, :, :3] > 0.98).all(axis=2).mean() < 0.97


def test_the_table_goes_to_a_file_too(league_db: str, tmp_path: Path) -> None:
    out = tmp_path / "standings.txt"
    assert "wrote" in ok(league_db, "standings", "--tournament", "league", "-o", str(out))
    text = out.read_text(encoding="utf-8")
    assert "Standings of league" in text and "+78.0" in text and "\x1b[" not in text
    result = invoke(
        ["--db", league_db, "standings", "--tournament", "league", "-o", str(tmp_path / "no" / "such" / "f")]
    )
    assert result.exit_code == 2 and "No such file" in result.output


def test_the_page_shows_every_name_as_text() -> None:
    data = {
        "tournament": "<i>cup</i>",
        "sessions": [1],
        "in_progress": 0,
        "rows": [
            {"rank": 1, "player": "_nobody", "points": 5.0, "place_counts": [1, 0, 0, 0]},
            {"rank": 2, "player": "<b>Eve</b> $x$", "points": -5.0, "place_counts": [0, 1, 0, 0]},
        ],
        "by_session": {"1": {"_nobody": 5.0, "<b>Eve</b> $x$": -5.0}},
        "matches": [],
    }
    page = render_standings_html(data)
    assert "<b>" not in page and "<i>" not in page
    assert "&lt;b&gt;Eve&lt;/b&gt; $x$" in page and "&lt;i&gt;cup&lt;/i&gt;" in page
    # In the chart's legend too, a name starting with "_" included (matplotlib skips such labels
    # unless they are given with their lines).
    chart = page[page.index("<svg") : page.index("</svg>")]
    assert "_nobody" in chart and "&lt;b&gt;Eve&lt;/b&gt; $x$" in chart


def test_a_player_who_has_not_played_shows_no_points_on_the_command_line_as_on_the_page(tmp_path: Path) -> None:
    # "+0.0" read as a score of zero; the web's standings show a dash (nothing played yet).
    from honba_cli import Honba

    honba = Honba(tmp_path / "s.sqlite")
    honba.ok("tournament", "create", "cup", "--players", "Ann,Ben,Cho,Dai,Eve")
    honba.ok("start", "m1", "--players", "Ann,Ben,Cho,Dai")
    honba.ok("win", "m1", "Ben:mangan", "--from", "Cho")
    honba.ok("end", "m1", "--reason", "time limit")
    honba.ok("tournament", "attach", "cup", "m1")
    rows = {
        cells[2]: cells[1:-1]
        for line in honba.ok("standings", "--tournament", "cup").splitlines()
        if (cells := [c.strip() for c in line.split("│")]) and len(cells) > 3
    }
    assert rows["Eve"][:5] == ["—", "Eve", "—", "—", "0"]
    # Tenhou's rules (25,000 start, 30,000 return, uma +20/+10, oka +20 to the top): Ben's 33,000 is
    # +3.0 + 20 + 20 = +43.0.
    assert rows["Ben"][2] == "+43.0"


def test_honba_standings_shows_the_tables_in_progress_marked_provisional(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "s.sqlite")
    honba.ok("start", "t1", "--players", ",".join(NAMES))
    honba.ok("tournament", "create", "cup", "--players", ",".join(NAMES))
    honba.ok("tournament", "attach", "cup", "t1", "--session", "1", "--table", "1")
    honba.ok("win", "t1", "Ben:3/30", "--from", "Ann")
    text = honba.ok("standings", "--tournament", "cup")
    assert "Tables in progress (provisional" in text
    assert "E2-0" in text and "+39.0" in text and "-29.0" in text
    assert "1 match still in progress does not count yet" in text
    shown = json.loads(honba.ok("standings", "--tournament", "cup", "--format", "json"))
    assert shown["tables_in_progress"][0]["provisional"] is True
    assert [row["rank"] for row in shown["rows"]] == [None] * 4
    assert "—" in text and "0.00" not in text
