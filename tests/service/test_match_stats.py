"""One match's figures (``projections.stats.match_stats``) where several of them meet in one hand:
a double ron under Tenhou's rules (seed 000's payments; the counters and deposits to the winner
nearest the discarder, as ``domain/presets/tenhou.toml`` says), after an exhaustive draw the dealer
keeps the deal on. A deal-in is counted once however many win on it, its value summed over them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import hv, ron

from domain.rules import load_preset
from domain.values import ExhaustiveDraw, WinResult
from projections.standings import summarize
from projections.stats import COUNTS, MatchStats, match_stats
from replay.service.recording import recording
from replay.store.application import HonbaApp

NAMES = ["Ann", "Ben", "Cho", "Dai"]


@pytest.fixture
def stats() -> Iterator[MatchStats]:
    app = HonbaApp.open(":memory:")
    rules = load_preset("tenhou")
    recording.start_match(app, "double", NAMES, rules)
    # East 1: an exhaustive draw, Ann (the dealer) alone ready: she keeps the deal, one counter.
    recording.record(app, "double", ExhaustiveDraw(ready=(0,)))
    # East 1, 1 counter: Cho (riichi) 1 han 30 fu and Dai 2 han 30 fu, both off Ben's discard:
    # 1,000 and 2,000 for the hands; Cho, nearest after Ben, takes the 300 of the counter and her
    # own riichi stick.
    recording.record(app, "double", WinResult(wins=(ron(2, 1, hv(1, 30)), ron(3, 1, hv(2, 30))), riichi=(2,)))
    match = app.get_match("double")
    summary = summarize(match.key, NAMES, match.rules, match.state, match.effective_facts())
    yield match_stats(
        match.key,
        NAMES,
        match.rules,
        match.corrected_steps(),
        summary.places,
        summary.final_points,
        summary.final_scores,
        summary.finished,
    )
    app.close()


def test_a_double_ron_is_one_deal_in_of_both_hands_values(stats: MatchStats) -> None:
    ann, ben, cho, dai = stats.counts
    assert all(list(seat) == list(COUNTS) for seat in stats.counts)  # every figure, in order
    assert [seat["hands"] for seat in stats.counts] == [2, 2, 2, 2]
    assert (ben["deal_ins"], ben["deal_in_value"]) == (1, 3000)
    assert (cho["wins"], cho["win_value"], cho["counters_won"], cho["deposits_won"]) == (1, 1000, 300, 1000)
    assert (dai["wins"], dai["win_value"], dai["counters_won"], dai["deposits_won"]) == (1, 2000, 0, 0)
    assert (cho["self_drawn"], dai["self_drawn"], cho["riichi"], dai["riichi"]) == (0, 0, 1, 0)
    assert (ann["dealer_hands"], ann["dealer_kept"], ann["exhaustive_draws"], ann["ready_at_draw"]) == (2, 1, 1, 1)
    # The draw's 3,000 of no-ready payments to Ann; Ben pays 1,300 and 2,000; Cho's stick back.
    assert stats.net_scores == (3000, -4300, 300, 1000)
