"""How the table moves on: counters, the deal, extra hands, the end of the match
and the final points.

Seed 003 (the Japanese counters document) is the specification of the counters
and the deal; FORMAT.md's transition table and the Tenhou logs of the corpus give
the end of the match and the final points. Every expected table below is copied
from a log's next ``INIT`` (``seed="kyoku,counters,sticks"``, ``ten=`` in units of
100) or its ``owari``.
"""

from __future__ import annotations

import attrs
import pytest
from conftest import REPO, SANMA, SOUTH, TENHOU, WEST, hv, ron, started, table, tsumo, won

from domain.entry_checks import EntryChecks
from domain.errors import DamagedFact, HonbaError
from domain.match import Match
from domain.progression import evolve, evolve_checked, final_points
from domain.rules import load_preset
from domain.values import (
    AbortiveDraw,
    AbortKind,
    ExhaustiveDraw,
    HandPenalty,
    HandResult,
    HandValue,
    TableState,
    WinFacts,
    WinResult,
    table_with,
)
from replay.formats.record import build_match, parse_record


def play(match: Match, *results: HandResult) -> TableState:
    for result in results:
        match.record(result)
    return match.state


def east(hand: int, counters: int = 0, **kw: object) -> TableState:
    return table(dealer=hand - 1, counters=counters, **kw)  # type: ignore[arg-type]


# The worked example of seed 003.


def test_the_worked_example_of_the_counters_document() -> None:
    # "It's the East round, 4th rotation with 0 counters (東4局0本場)."
    match = started(opening=east(4))
    # "The dealer (East) wins the hand. ... it's now the East round, 4th rotation with 1 counter."
    state = play(match, won(tsumo(3, hv(1, 30))))
    assert (state.round_wind, state.hand_number, state.counters, state.dealer) == (0, 4, 1, 3)
    assert state.hand_label == "E4-1"
    # "The next hand is a draw with the dealer not declaring tenpai. The player to the right
    # becomes the new dealer ... It's now the South round, 1st rotation with 2 counters."
    state = play(match, ExhaustiveDraw(ready=(1,)))
    assert (state.round_wind, state.hand_number, state.counters, state.dealer) == (SOUTH, 1, 2, 0)
    assert state.hand_label == "S1-2"
    # "Later, North wins by ron (claiming a discard), getting a bonus of 600 points from the discarder."
    before = state.scores
    state = play(match, won(ron(3, 1, hv(1, 30))))
    assert state.scores[3] - before[3] == 1000 + 600
    assert state.scores[1] - before[1] == -(1000 + 600)
    # "The dealer changes ... it's the South round, 2nd rotation with 0 counters (南2局0本場)."
    assert (state.round_wind, state.hand_number, state.counters, state.dealer) == (SOUTH, 2, 0, 1)
    assert state.hand_label == "S2-0"


def test_the_counters_example_record_file_ends_at_south_2_with_0_counters() -> None:
    path = REPO / "docs" / "examples" / "counters-seed.jsonl"
    record = parse_record(path.read_text(encoding="utf-8"), name=str(path))
    match = build_match(record, name=str(path))
    labels = []
    replay = Match.start(record.key, record.players, record.rules, {}, record.opening)
    for fact in record.facts:
        labels.append(replay.state.hand_label)
        replay.record(fact)  # type: ignore[arg-type]
    assert labels[3:] == ["E4-0", "E4-1", "S1-2"]
    assert match.state.hand_label == replay.state.hand_label == "S2-0"
    # North (Dai) gets 2 han 30 fu = 2000 and the 600 bonus from the discarder (Cho).
    assert replay.state.scores == match.state.scores


# Counters, one rule at a time (seed 003).


def test_counter_goes_up_by_one_when_the_dealer_wins() -> None:
    state = play(started(opening=east(2, counters=3)), won(ron(1, 2, hv(1, 30))))
    assert (state.dealer, state.counters) == (1, 4)


def test_counter_goes_up_by_one_on_an_exhaustive_draw_whether_or_not_the_dealer_is_ready() -> None:
    assert play(started(opening=east(2, counters=1)), ExhaustiveDraw(ready=(1,))).counters == 2
    assert play(started(opening=east(2, counters=1)), ExhaustiveDraw(ready=(0,))).counters == 2


def test_counter_goes_up_by_one_on_an_abortive_draw() -> None:
    state = play(started(opening=east(2, counters=1)), AbortiveDraw(AbortKind.NINE_TERMINALS))
    assert (state.dealer, state.counters) == (1, 2)


def test_counter_goes_back_to_zero_when_only_non_dealers_win() -> None:
    assert play(started(opening=east(2, counters=3)), won(tsumo(0, hv(1, 30)))).counters == 0
    double_ron = won(ron(0, 3, hv(1, 30)), ron(2, 3, hv(1, 30)))
    assert play(started(opening=east(2, counters=3)), double_ron).counters == 0


def test_counter_goes_up_when_the_dealer_is_one_of_the_double_ron_winners() -> None:
    # Tenhou 2019103023gm-00a9-0000-f90e0fe9: the double ron of East 4 with the dealer (seat 3)
    # among the winners is followed by INIT seed="3,1,0": East 4, 1 counter.
    double_ron = won(ron(3, 2, hv(4, 30)), ron(1, 2, hv(6, 30)), riichi=[2])
    state = play(started(opening=east(4, scores=(21000, 20000, 35000, 24000))), double_ron)
    assert (state.hand_label, state.dealer, state.scores) == ("E4-1", 3, (21000, 32000, 10400, 36600))


def test_dealer_keeps_the_deal_as_the_farther_of_two_double_ron_winners() -> None:
    # FORMAT.md: the dealer keeps the seat when "the dealer is one of the double-ron winners".
    double_ron = won(ron(2, 1, hv(1, 30)), ron(0, 1, hv(1, 30)))
    state = play(started(opening=east(1, counters=1, deposits=1000)), double_ron)
    assert (state.hand_label, state.dealer) == ("E1-2", 0)
    # Seat 2 plays right after the discarder: it takes the counters and the deposit.
    assert state.scores == (25000 + 1500, 25000 - 1500 - 1000 - 300, 25000 + 1000 + 300 + 1000, 25000)


def test_nagashi_mangan_counts_as_a_draw_for_the_counters_and_the_deal() -> None:
    # Tenhou 2018020706gm-0089-0000-4c0c2f05: East 4 with 4 counters, nagashi mangan with the
    # dealer ready; the next INIT is seed="3,5,2": East 4, 5 counters, 2 sticks.
    scores = (22500, 17400, 24000, 36100)
    state = play(
        started(opening=east(4, counters=4, scores=scores)),
        ExhaustiveDraw(ready=(1, 3), riichi=(1, 3), nagashi=(2,)),
    )
    assert (state.hand_label, state.deposits, state.scores) == ("E4-5", 2000, (20500, 14400, 32000, 31100))


# The deal.


def test_dealer_keeps_the_deal_after_a_dealer_win() -> None:
    state = play(started(opening=east(3)), won(tsumo(2, hv(2, 30))))
    assert (state.dealer, state.hand_label) == (2, "E3-1")


def test_dealer_keeps_the_deal_after_an_abortive_draw() -> None:
    for kind in AbortKind:
        # Four riichi is an abortive draw only with all four riichi declared.
        riichi = (0, 1, 2, 3) if kind is AbortKind.FOUR_RIICHI else ()
        state = play(started(opening=east(3)), AbortiveDraw(kind, riichi=riichi))
        assert (state.dealer, state.hand_label) == (2, "E3-1")


def test_dealer_keeps_the_deal_after_an_exhaustive_draw_only_when_ready() -> None:
    assert play(started(opening=east(3)), ExhaustiveDraw(ready=(2, 0))).hand_label == "E3-1"
    state = play(started(opening=east(3)), ExhaustiveDraw(ready=(0, 1, 3)))
    assert (state.dealer, state.hand_label) == (3, "E4-1")


def test_deal_passes_after_a_non_dealer_win() -> None:
    state = play(started(opening=east(3)), won(ron(3, 2, hv(1, 30))))
    assert (state.dealer, state.hand_label) == (3, "E4-0")


def test_after_north_deals_the_next_round_begins_with_east_dealing() -> None:
    state = play(started(opening=east(4)), won(ron(0, 1, hv(1, 30))))
    assert (state.round_wind, state.hand_number, state.dealer) == (SOUTH, 1, 0)


def test_three_players_have_three_hands_a_round() -> None:
    # Tenhou sanma has no East 4 (FORMAT.md: the header goes [2,0,0] -> [4,0,0]).
    state = play(started(SANMA, table(SANMA, dealer=2)), won(ron(0, 1, hv(1, 30))))
    assert (state.round_wind, state.hand_number, state.dealer) == (SOUTH, 1, 0)


def test_riichi_deposits_carry_over_draws_and_go_to_the_next_winner() -> None:
    match = started(opening=east(1))
    state = play(match, ExhaustiveDraw(ready=(1,), riichi=(1,)), AbortiveDraw(AbortKind.FOUR_WINDS, riichi=(2,)))
    assert (state.deposits, state.hand_label) == (2000, "E2-2")
    state = play(match, won(ron(3, 0, hv(1, 30))))
    assert state.deposits == 0
    # Seat 3 paid 1000 noten, then wins 1000 for the hand, 600 for 2 counters, 2000 of deposits.
    assert state.scores[3] == 25000 - 1000 + 1000 + 600 + 2000


# Extra hands and the dealer's streak.


def test_extra_hands_count_every_hand_the_dealer_keeps_the_deal() -> None:
    # Seed 000: "Dealer's extra hand is played whenever the deal does not pass".
    match = started()
    state = play(
        match,
        won(tsumo(0, hv(1, 30))),
        ExhaustiveDraw(ready=(0,)),
        AbortiveDraw(AbortKind.FOUR_RIICHI, riichi=(0, 1, 2, 3)),
    )
    assert (state.extra_hands, state.dealer_streak, state.counters) == (3, 4, 3)
    state = play(match, won(ron(1, 0, hv(1, 30))))
    assert (state.dealer, state.extra_hands, state.dealer_streak) == (1, 0, 1)


def test_consecutive_dealer_wins_are_broken_by_a_draw_but_wins_this_deal_are_not() -> None:
    # Seed 004, "Dealer's consecutive wins": "possible re-deals after a draw will reset the
    # winning counter"; rules-and-peers: the win counter is separate from the counter sticks.
    match = started()
    state = play(match, won(tsumo(0, hv(1, 30))), won(ron(0, 2, hv(1, 30))))
    assert (state.consecutive_dealer_wins, state.dealer_wins_this_deal) == (2, 2)
    state = play(match, ExhaustiveDraw(ready=(0,)))
    assert (state.consecutive_dealer_wins, state.dealer_wins_this_deal, state.counters) == (0, 2, 3)
    state = play(match, won(tsumo(0, hv(1, 30))))
    assert (state.consecutive_dealer_wins, state.dealer_wins_this_deal, state.counters) == (1, 3, 4)


def test_a_new_dealer_starts_with_no_streak() -> None:
    match = started()
    state = play(match, won(tsumo(0, hv(1, 30))), won(tsumo(2, hv(1, 30))))
    assert (state.dealer, state.consecutive_dealer_wins, state.dealer_wins_this_deal, state.extra_hands) == (1, 0, 0, 0)


def test_the_match_ending_on_a_passing_deal_resets_the_extra_hands_the_dealer_kept() -> None:
    # The dealer kept the deal twice (a win, a ready draw), then a non-dealer's bust ends it.
    match = started()
    state = play(match, won(tsumo(0, hv(1, 30))), ExhaustiveDraw(ready=(0,)))
    assert (state.extra_hands, state.dealer_streak) == (2, 3)
    state = play(match, won(ron(2, 3, hv(limit="yakuman"))))
    assert state.finished and state.end_reason == "bust"
    assert (state.dealer, state.extra_hands, state.dealer_streak, state.consecutive_dealer_wins) == (0, 0, 1, 0)


# The end of the match (Tenhou hanchan: preset tenhou).


def south(hand: int, counters: int = 0, deposits: int = 0, *, scores: tuple[int, ...]) -> TableState:
    return table(
        dealer=hand - 1, counters=counters, deposits=deposits, round_wind=SOUTH, hand_number=hand, scores=scores
    )


def test_hanchan_ends_after_south_4_when_someone_has_30000() -> None:
    # Tenhou mjx 2020052700gm-00a9-0000-75a4695c South 4: seat 0 tsumo 2 han 30 fu and
    # seat 2 with 30400 on top: owari="245,-15.0,293,9.0,304,40.0,158,-34.0".
    match = started(opening=south(4, scores=(22500, 29800, 30900, 16800)))
    state = play(match, won(tsumo(0, hv(2, 30))))
    assert state.finished and state.end_reason == "complete"
    assert state.scores == (24500, 29300, 30400, 15800)
    assert state.final_points == (-15, 9, 40, -34)


def test_hanchan_goes_into_west_when_nobody_has_30000_after_south_4() -> None:
    # Tenhou 2018012018gm-0009-0000-1a60c833: South 4 ends 28200/19400/22600/29800 and the
    # next INIT is seed="8,0,0" (West 1).
    match = started(opening=south(4, scores=(29200, 14400, 24600, 31800)))
    state = play(match, won(tsumo(1, hv(3, 30)), riichi=[2, 1]))
    assert not state.finished
    assert (state.round_wind, state.hand_number, state.dealer) == (WEST, 1, 0)
    assert state.scores == (28200, 19400, 22600, 29800)


def test_in_west_the_match_ends_once_someone_has_30000() -> None:
    # Same game: West 1 leaves nobody at 30000 (INIT seed="9,0,0"); in West 2 seat 0 reaches
    # 30200: owari="302,41.0,223,-18.0,182,-32.0,293,9.0".
    opening = table(dealer=0, round_wind=WEST, hand_number=1, scores=(28200, 19400, 22600, 29800))
    match = started(opening=opening)
    state = play(match, won(ron(1, 2, hv(3, 30)), riichi=[1]))
    assert not state.finished and state.hand_label == "W2-0"
    state = play(match, won(tsumo(0, hv(2, 30)), riichi=[0]))
    assert state.finished and state.end_reason == "complete"
    assert state.scores == (30200, 22300, 18200, 29300)
    assert state.final_points == (41, -18, -32, 9)


def test_the_extension_ends_after_west_4_whatever_the_scores() -> None:
    # The preset extends into one wind only (extension_winds = 1).
    opening = table(dealer=3, round_wind=WEST, hand_number=4, scores=(25000, 25000, 25000, 25000))
    state = play(started(opening=opening), won(ron(0, 1, hv(1, 30))))
    assert state.finished and state.end_reason == "complete"


def test_east_only_game_ends_after_east_4_when_someone_has_30000() -> None:
    # dnovikoff-tenhou shuffle.xml (GO type 161, east-only) East 4: seat 1 declares riichi and
    # wins a mangan from seat 3; the game ends with 36900/25300/32200/5600 (owari).
    rules = load_preset("tenhou-east")
    opening = table(rules, dealer=3, scores=(36900, 17300, 32200, 13600))
    state = play(started(rules, opening), won(ron(1, 3, hv(5, 30)), riichi=[1]))
    assert state.finished and state.end_reason == "complete"
    assert state.scores == (36900, 25300, 32200, 5600)


def test_east_only_game_goes_into_south_when_nobody_has_30000() -> None:
    rules = load_preset("tenhou-east")
    opening = table(rules, dealer=3, scores=(26000, 25000, 25000, 24000))
    state = play(started(rules, opening), won(ron(1, 3, hv(1, 30))))
    assert not state.finished
    assert (state.round_wind, state.hand_number, state.dealer) == (SOUTH, 1, 0)


def test_dealer_win_when_top_in_the_last_hand_ends_the_match() -> None:
    # Tenhou 2018012016gm-0009-0000-6535cdac South 4, 2 counters: the dealer (seat 3) wins
    # 3 han 30 fu (5800 + 600) and is top with 37800:
    # owari="79,-42.0,184,-22.0,359,16.0,378,48.0".
    match = started(opening=south(4, counters=2, scores=(7900, 24800, 35900, 31400)))
    state = play(match, won(ron(3, 1, hv(3, 30))))
    assert state.finished and state.end_reason == "dealer_stop"
    assert state.scores == (7900, 18400, 35900, 37800)
    assert state.final_points == (-42, -22, 16, 48)


def test_dealer_win_in_the_last_hand_plays_on_when_the_dealer_is_not_top() -> None:
    # Same game, South 4 with 1 counter: the dealer (riichi) wins 2 han 40 fu from seat 1
    # and has 31400 against seat 2's 35900; the next INIT is seed="7,2,0".
    match = started(opening=south(4, counters=1, scores=(7900, 29000, 35900, 27200)))
    state = play(match, won(ron(3, 1, hv(2, 40)), riichi=[3]))
    assert not state.finished
    assert (state.hand_label, state.scores) == ("S4-2", (7900, 24800, 35900, 31400))


def test_dealer_ready_and_top_in_the_last_hand_ends_the_match_on_tenhou() -> None:
    # Tenhou 2018020503gm-0089-0000-bca3bee1 South 4: exhaustive draw, seats 1 and 3 (the
    # dealer) ready, the dealer top with 49100: the game ends there,
    # owari="15,-48.0,309,11.0,185,-21.0,491,58.0". (Six such ends in tenhou-wire-2018.)
    match = started(opening=south(4, scores=(3000, 29400, 20000, 47600)))
    state = play(match, ExhaustiveDraw(ready=(1, 3)))
    assert state.finished and state.end_reason == "dealer_stop"
    assert state.final_points == (-48, 11, -21, 58)


def test_a_score_below_zero_ends_the_match() -> None:
    # Tenhou 2018012320gm-0009-0000-6669b4cd South 3 with 1 counter: seat 1 tsumo 4 han 30 fu
    # (2000/3900 + 100 each) leaves seat 0 at -2100:
    # owari="-21,-52.0,738,83.0,198,0.0,85,-31.0".
    opening = table(dealer=2, counters=1, round_wind=SOUTH, hand_number=3, scores=(0, 65600, 23800, 10600))
    state = play(started(opening=opening), won(tsumo(1, hv(4, 30))))
    assert state.finished and state.end_reason == "bust"
    assert state.scores == (-2100, 73800, 19800, 8500)
    assert state.final_points == (-52, 83, 0, -31)


def test_a_score_of_exactly_zero_does_not_end_the_match() -> None:
    # Same game, South 2 with 3 counters: seat 0 declares riichi with its last 1000 and
    # seat 3 wins; the next INIT is seed="6,0,0" with ten="0,685,209,106".
    opening = table(dealer=1, counters=3, round_wind=SOUTH, hand_number=2, scores=(1000, 69500, 23800, 5700))
    state = play(started(opening=opening), won(ron(3, 2, hv(2, 30)), riichi=[0, 1]))
    assert not state.finished
    assert (state.hand_label, state.scores) == ("S3-0", (0, 68500, 20900, 10600))


def test_three_player_bust_ends_the_match() -> None:
    # sanma2.xml East 3: seats 2 and 1 declare riichi, seat 1 wins a baiman from seat 2,
    # who goes to -5500: owari="274,-13.0,831,79.0,-55,-66.0".
    opening = table(SANMA, dealer=2, scores=(27400, 66100, 11500))
    state = play(started(SANMA, opening), won(ron(1, 2, hv(8, 40)), riichi=[2, 1]))
    assert state.finished and state.end_reason == "bust"
    assert state.scores == (27400, 83100, -5500)
    assert state.final_points == (-13, 79, -66)


def test_leftover_deposits_go_to_the_top_player() -> None:
    # Tenhou 2018011712gm-0009-0000-84f0883b South 4: seat 1 declares riichi, exhaustive draw
    # with only seat 1 ready; the match ends with 1 stick left, which goes to seat 3 (top):
    # owari="236,-16.0,250,5.0,110,-39.0,404,50.0".
    match = started(opening=south(4, scores=(24600, 23000, 12000, 40400)))
    state = play(match, ExhaustiveDraw(ready=(1,), riichi=(1,)))
    assert state.finished and state.end_reason == "complete"
    assert (state.scores, state.deposits) == ((23600, 25000, 11000, 40400), 0)
    assert state.final_points == (-16, 5, -39, 50)
    ended = match.pending_events[-1]
    assert isinstance(ended, Match.MatchEnded)
    assert (ended.leftover, ended.leftover_to) == (1000, 3)


def test_no_result_is_recorded_after_the_automatic_end() -> None:
    match = started(opening=south(4, scores=(22500, 29800, 30900, 16800)))
    play(match, won(tsumo(0, hv(2, 30))))
    assert isinstance(match.pending_events[-1], Match.MatchEnded)
    assert sum(isinstance(e, Match.MatchEnded) for e in match.pending_events) == 1


# Final points: each final score rounded to the thousand (half away from zero), minus the
# 30,000 return, plus uma 20/10/-10/-20; the top takes what makes the sum zero.


@pytest.mark.parametrize(
    ("scores", "points"),
    [
        # FORMAT.md, 2019103023gm-00a9-0000-f90e0fe9: sc = [85300,96,31400,-9,-55100,-105,38400,18].
        ((85300, 31400, -55100, 38400), (96, -9, -105, 18)),
        # 2018012320gm-0009-0000-6669b4cd: 8500 rounds to 9, -2100 to -2.
        ((-2100, 73800, 19800, 8500), (-52, 83, 0, -31)),
        # 2020052700gm-00a9-0000-75a4695c: 24500 rounds to 25.
        ((24500, 29300, 30400, 15800), (-15, 9, 40, -34)),
        # Equal scores: the seat nearer the first dealer ranks higher (tenhou-wire-2018).
        # 2018021211gm-0089-0000-7c4a3c8d: seats 2 and 3 tie for the top.
        ((28900, 3300, 33900, 33900), (-11, -47, 44, 14)),
        # 2018012315gm-0009-0000-b59a9899: seats 0 and 3 tie for the last place.
        ((10400, 32100, 47100, 10400), (-30, 12, 58, -40)),
        # 2018020917gm-0089-0000-4b772ec3: seats 2 and 3 tie for second.
        ((-5000, 61000, 22000, 22000), (-55, 71, 2, -18)),
    ],
)
def test_final_points_follow_tenhou(scores: tuple[int, ...], points: tuple[int, ...]) -> None:
    assert final_points(scores, TENHOU) == points


def test_three_player_final_points_follow_tenhou() -> None:
    # sanma2.xml owari="274,-13.0,831,79.0,-55,-66.0": return 40,000, uma 20/0/-20; -5500 rounds to -6.
    assert final_points((27400, 83100, -5500), SANMA) == (-13, 79, -66)
    # double_nukidora.json sc = [31900,-8,47200,42,25900,-34].
    assert final_points((31900, 47200, 25900), SANMA) == (-8, 42, -34)


# Whole games from the corpus, hand by hand: after each hand, the next INIT header.


def test_the_tenhou_game_of_format_md_is_replayed_to_its_final_points() -> None:
    # tsubakisakura-mjlog2json/data/2019103023gm-00a9-0000-f90e0fe9.xml
    match = started()
    steps: list[tuple[HandResult, str, int, tuple[int, ...]]] = [
        (won(tsumo(2, hv(4, 40))), "E2-0", 0, (21000, 23000, 33000, 23000)),
        (won(ron(2, 3, hv(1, 30)), riichi=[1]), "E3-0", 0, (21000, 22000, 35000, 22000)),
        (won(ron(3, 1, hv(1, 30)), riichi=[1]), "E4-0", 0, (21000, 20000, 35000, 24000)),
        (won(ron(3, 2, hv(4, 30)), ron(1, 2, hv(6, 30)), riichi=[2]), "E4-1", 0, (21000, 32000, 10400, 36600)),
        (won(tsumo(3, hv(1, 30))), "E4-2", 0, (20400, 31400, 9800, 38400)),
        (AbortiveDraw(AbortKind.NINE_TERMINALS), "E4-3", 0, (20400, 31400, 9800, 38400)),
    ]
    for result, label, deposits, scores in steps:
        state = play(match, result)
        assert (state.hand_label, state.deposits, state.scores) == (label, deposits, scores)
    state = play(match, won(tsumo(0, hv(limit="yakuman", multiple=2), liable=2)))
    assert state.finished and state.end_reason == "bust"
    assert state.scores == (85300, 31400, -55100, 38400)
    assert state.final_points == (96, -9, -105, 18)


def test_a_whole_tenhou_hanchan_is_replayed_to_its_final_points() -> None:
    # mjx-project-mjx/tests_py/resources/mjlog/2020052700gm-00a9-0000-75a4695c.mjlog
    match = started()
    steps: list[tuple[HandResult, str, int, tuple[int, ...]]] = [
        (ExhaustiveDraw(ready=(3,)), "E2-1", 0, (24000, 24000, 24000, 28000)),
        (ExhaustiveDraw(ready=(1, 2), riichi=(1,)), "E2-2", 1000, (22500, 24500, 25500, 26500)),
        (won(ron(2, 1, hv(5, 30)), ron(3, 1, hv(1, 40)), riichi=[1]), "E3-0", 0, (22500, 13600, 36100, 27800)),
        (won(tsumo(0, hv(1, 30))), "E4-0", 0, (23600, 13300, 35600, 27500)),
        (won(tsumo(1, hv(6, 50)), riichi=[3]), "S1-0", 0, (20600, 26300, 32600, 20500)),
        (ExhaustiveDraw(ready=(1,), riichi=(1,)), "S2-1", 1000, (19600, 28300, 31600, 19500)),
        (won(ron(0, 3, hv(2, 30))), "S3-0", 0, (22900, 28300, 31600, 17200)),
        (won(tsumo(1, hv(1, 40))), "S4-0", 0, (22500, 29800, 30900, 16800)),
    ]
    for result, label, deposits, scores in steps:
        state = play(match, result)
        assert (state.hand_label, state.deposits, state.scores) == (label, deposits, scores)
    state = play(match, won(tsumo(0, hv(2, 30))))
    assert state.finished and state.end_reason == "complete"
    assert state.scores == (24500, 29300, 30400, 15800)
    assert state.final_points == (-15, 9, 40, -34)


def test_a_whole_three_player_game_is_replayed_to_its_final_points() -> None:
    # dnovikoff-tenhou/log/test_data/sanma2.xml (GO type 185, 三鳳南)
    match = started(SANMA)
    steps: list[tuple[HandResult, str, int, tuple[int, ...]]] = [
        (won(tsumo(1, hv(5, 30)), riichi=[1]), "E2-0", 0, (31000, 41000, 33000)),
        (won(ron(1, 2, hv(5, 40)), riichi=[2]), "E2-1", 0, (31000, 54000, 20000)),
        (ExhaustiveDraw(ready=(1,), riichi=(1,)), "E2-2", 1000, (30000, 55000, 19000)),
        (won(tsumo(1, hv(6, 30))), "E2-3", 0, (23800, 68400, 12800)),
        (won(tsumo(0, hv(3, 30))), "E3-0", 0, (27400, 66100, 11500)),
    ]
    for result, label, deposits, scores in steps:
        state = play(match, result)
        assert (state.hand_label, state.deposits, state.scores) == (label, deposits, scores)
    state = play(match, won(ron(1, 2, hv(8, 40)), riichi=[2, 1]))
    assert state.finished and state.end_reason == "bust"
    assert state.scores == (27400, 83100, -5500)
    assert state.final_points == (-13, 79, -66)


def test_a_whole_three_player_hanchan_with_draws_and_an_abort_is_replayed() -> None:
    # hidacow-mjai-reviewer3p/convlog/tests/testdata/double_nukidora.json (三鳳南喰赤)
    match = started(SANMA)
    steps: list[tuple[HandResult, str, int, tuple[int, ...]]] = [
        (won(ron(0, 2, hv(limit="mangan"))), "E1-1", 0, (47000, 35000, 23000)),
        (ExhaustiveDraw(ready=(0, 1), riichi=(1,)), "E1-2", 1000, (48000, 35000, 21000)),
        (won(tsumo(2, hv(2, 30))), "E2-0", 0, (46800, 34300, 23900)),
        (won(ron(1, 0, hv(limit="mangan")), riichi=[1]), "E2-1", 0, (34800, 46300, 23900)),
        (won(ron(2, 1, hv(3, 30))), "E3-0", 0, (34800, 42200, 28000)),
        (won(ron(1, 2, hv(limit="mangan")), riichi=[1]), "S1-0", 0, (34800, 50200, 20000)),
        (won(ron(1, 2, hv(1, 40))), "S2-0", 0, (34800, 51500, 18700)),
        (ExhaustiveDraw(ready=(1,)), "S2-1", 0, (33800, 53500, 17700)),
        (ExhaustiveDraw(ready=(2,), riichi=(2,)), "S3-2", 1000, (32800, 52500, 18700)),
        (won(tsumo(2, hv(4, 30)), riichi=[2]), "S3-3", 0, (28700, 48400, 27900)),
        (AbortiveDraw(AbortKind.NINE_TERMINALS), "S3-4", 0, (28700, 48400, 27900)),
    ]
    for result, label, deposits, scores in steps:
        state = play(match, result)
        assert (state.hand_label, state.deposits, state.scores) == (label, deposits, scores)
    state = play(match, won(tsumo(0, hv(3, 25))))
    assert state.finished and state.end_reason == "complete"
    assert state.scores == (31900, 47200, 25900)
    assert state.final_points == (-8, 42, -34)


# A table copied as ``attrs.evolve`` copies it (``table_with`` calls ``__init__`` positionally).


def test_a_table_copied_with_any_field_changed_is_the_state_attrs_evolve_makes() -> None:
    state = TableState(players=4, scores=(25000, 24000, 26000, 25000), dealer=2, counters=1, deposits=1000)
    changed = {
        "players": 3,
        "scores": [1, 2, 3, 4],  # converted, as ``__init__`` converts it
        "round_wind": 1,
        "hand_number": 3,
        "dealer": 1,
        "counters": 4,
        "deposits": 2000,
        "extra_hands": 2,
        "consecutive_dealer_wins": 1,
        "dealer_wins_this_deal": 1,
        "hands_played": 9,
        "finished": True,
        "end_reason": "bust",
        "final_points": [1, 2.5, -3, 0],
        "penalties": [0, 8000, 0, 0],
        "kitty_pending": 1,
        "goulash_pending": 2,
        "goulash_deal": True,
        "counters_shown": False,
    }
    assert set(changed) == {field.name for field in attrs.fields(TableState)}
    for name, value in changed.items():
        assert table_with(state, **{name: value}) == attrs.evolve(state, **{name: value}), name
    assert table_with(state) == state
    with pytest.raises(TypeError):
        table_with(state, dealr=1)


def test_a_hand_value_described_says_what_its_words_say() -> None:
    for value in (
        HandValue(han=3, fu=30),
        HandValue(han=13, fu=40),
        HandValue(han=2, fu=30, dora=1),
        HandValue(limit="mangan"),
        HandValue(limit="yakuman", multiple=2),
        HandValue(han=2, fu=30, points=3),
        HandValue(points=20, doubles=1),
        HandValue(faan=3),
    ):
        assert value.describe() == str(value.said()), value
        assert value.describe("points") == str(value.said("points")), value


# A result the entry checks pass is folded without ``evolve``'s guard (``evolve_checked``, as
# ``honba verify`` folds it): every fact the guard refuses, the checks refuse too.

DAMAGED: list[HandResult] = [
    won(ron(5, 0, hv(1, 30))),
    won(ron(1, 7, hv(1, 30))),
    won(ron(1, 0, hv(limit="yakuman"), liable=6)),
    won(tsumo(1, hv(1, 30)), riichi=(9,)),
    won(tsumo(1, hv(-1, 30))),
    won(tsumo(1, hv(2, -10))),
    won(tsumo(1, HandValue(han=2, fu=30, dora=-1))),
    won(tsumo(1, hv(limit="yakuman", multiple=0))),
    won(tsumo(1, HandValue(points=-5))),
    won(tsumo(1, HandValue(faan=-1))),
    won(attrs.evolve(tsumo(1, hv(1, 30)), facts=WinFacts(penalties=(HandPenalty(9, 1000),)))),
    WinResult(()),
    ExhaustiveDraw(ready=(8,)),
    ExhaustiveDraw(ready=(0,), riichi=(5,)),
    ExhaustiveDraw(nagashi=(6,)),
    AbortiveDraw(AbortKind.FOUR_KONGS, kongs=(0, 1, 2, 9)),
    AbortiveDraw(AbortKind.NINE_TERMINALS, riichi=(4,)),
]


@pytest.mark.parametrize("result", DAMAGED, ids=range(len(DAMAGED)))
def test_every_fact_evolve_guards_against_is_refused_by_the_entry_checks(result: HandResult) -> None:
    state = table()
    with pytest.raises(DamagedFact):
        evolve(state, TENHOU, result)
    with pytest.raises(HonbaError):
        EntryChecks(("A", "B", "C", "D"), TENHOU).hand(result, state)


def test_a_result_the_checks_pass_folds_as_evolve_folds_it() -> None:
    state = table(dealer=1, counters=2, deposits=1000)
    for result in (
        won(ron(1, 0, hv(3, 30)), riichi=(1,)),
        won(tsumo(2, hv(limit="mangan"))),
        ExhaustiveDraw(ready=(0, 1)),
    ):
        EntryChecks(("A", "B", "C", "D"), TENHOU).hand(result, state)
        assert evolve_checked(state, TENHOU, result) == evolve(state, TENHOU, result)


def test_a_table_s_scores_of_whole_numbers_are_kept_as_given_any_others_converted() -> None:
    scores = (25000, 24000, 26000, 25000)
    assert TableState(players=4, scores=scores).scores is scores
    # Anything else is converted as before: a list, a tuple holding a bool or a float, an int's subclass.
    assert TableState(players=4, scores=[1, 2, 3, 4]).scores == (1, 2, 3, 4)
    odd = TableState(players=4, scores=(True, 2.0, 3, 4)).scores
    assert odd == (1, 2, 3, 4) and [type(score) for score in odd] == [int] * 4
