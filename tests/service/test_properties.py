"""Properties of any sequence of valid hand results (hypothesis).

(a) Folding the recorded facts with the projection gives the aggregate's own
    state, also after storing and reloading the match.
(b) Every hand's payments move points only between the players and the table:
    the players' changes plus the change of the deposits on the table sum to zero.
(c) Scores plus deposits on the table stay what the players started with.
"""

from __future__ import annotations

import functools
import itertools

from conftest import SANMA, TENHOU
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.match import Match, facts_of
from domain.rules import Ruleset, load_preset
from domain.scoring.payments import score_changes
from domain.values import (
    AbortiveDraw,
    AbortKind,
    DealPass,
    ExhaustiveDraw,
    HandResult,
    HandValue,
    MatchEnd,
    Win,
    WinResult,
)
from projections.table import steps, table_state
from replay.service.imports import storing
from replay.store.application import HonbaApp

EAST_ONLY = load_preset("tenhou-east")
KIRIAGE = TENHOU.with_overrides({"kiriage_mangan": True, "bust": False})

# Cells of the published table (see test_riichi_score_table.py) and the limits.
RON_VALUES = [HandValue(han=h, fu=f) for h in (1, 2, 3, 4) for f in (30, 40, 50, 60, 70, 80, 90, 100, 110)] + [
    HandValue(han=h, fu=25) for h in (2, 3, 4)
]
# Self-drawn: no 2 han 25 fu (seven pairs self-drawn has menzen tsumo too: 3 han at least).
TSUMO_VALUES = [v for v in RON_VALUES if (v.han, v.fu) != (2, 25)] + [HandValue(han=h, fu=20) for h in (2, 3, 4)]
LIMIT_VALUES = [HandValue(han=h) for h in (5, 6, 8, 11, 13)] + [
    HandValue(limit="yakuman"),
    HandValue(limit="yakuman", multiple=2),
    HandValue(limit="haneman"),
]

counter = itertools.count()


# The strategies hand_results draws from, built once: hypothesis checks a strategy when it is first
# drawn from (is it empty, can its values be reused), and a strategy built anew on every draw was
# checked on every draw, about a third of the correction properties' time. The draws are the same.
KINDS = st.sampled_from(["ron", "ron", "tsumo", "tsumo", "double", "draw", "draw", "abort"])
RONS = st.sampled_from(RON_VALUES * 3 + LIMIT_VALUES)
TSUMOS = st.sampled_from(TSUMO_VALUES * 3 + LIMIT_VALUES)


@functools.cache
def seat_sets(players: int, most: int) -> st.SearchStrategy[list[int]]:
    """Up to ``most`` different seats of a table of ``players``."""
    return st.lists(st.sampled_from(list(range(players))), unique=True, max_size=most)


@functools.cache
def seat_orders(players: int) -> st.SearchStrategy[list[int]]:
    """The seats of a table of ``players`` in any order."""
    return st.permutations(list(range(players)))


@functools.cache
def aborts(players: int) -> st.SearchStrategy[AbortKind]:
    """An abortive draw a table of ``players`` can have: four winds, four riichi and triple ron need four."""
    four_only = (AbortKind.TRIPLE_RON, AbortKind.FOUR_WINDS, AbortKind.FOUR_RIICHI)
    return st.sampled_from([k for k in AbortKind if k not in four_only or players == 4])


@functools.cache
def liable_or_not(seat: int) -> st.SearchStrategy[int | None]:
    """Mostly nobody liable, sometimes ``seat``."""
    return st.sampled_from([None, None, None, seat])


@st.composite
def hand_results(draw: st.DrawFn, players: int) -> HandResult:
    """Any valid hand result at a table of that many players."""
    seats = list(range(players))
    riichi = tuple(draw(seat_sets(players, players)))
    kind = draw(KINDS)
    if kind == "draw":
        # Whoever declared riichi is ready at the draw (a riichi hand cannot change).
        ready = {*riichi, *draw(seat_sets(players, players))}
        nagashi = draw(seat_sets(players, 1))
        return ExhaustiveDraw(ready=tuple(ready), riichi=riichi, nagashi=tuple(nagashi))
    if kind == "abort":
        abort = draw(aborts(players))
        return AbortiveDraw(abort, riichi=tuple(seats) if abort is AbortKind.FOUR_RIICHI else riichi)
    winner, other, third = draw(seat_orders(players))[:3]
    # Mostly table cells, sometimes a limit hand, so that matches last several hands.
    if kind == "tsumo":
        value = draw(TSUMOS)
        # Liable (pao) only for a yakuman, as riichi rules say.
        liable = draw(liable_or_not(other)) if value.limit == "yakuman" else None
        return WinResult(wins=(Win(winner, value, liable=liable),), riichi=riichi)
    if kind == "double":
        wins = (Win(winner, draw(RONS), discarder=other), Win(third, draw(RONS), discarder=other))
        return WinResult(wins=wins, riichi=riichi)
    value = draw(RONS)
    liable = draw(liable_or_not(third)) if value.limit == "yakuman" else None
    return WinResult(wins=(Win(winner, value, discarder=other, liable=liable),), riichi=riichi)


@st.composite
def played_matches(draw: st.DrawFn) -> Match:
    """A match under one of the presets with up to 30 valid results, until it ends."""
    rules: Ruleset = draw(st.sampled_from([TENHOU, SANMA, EAST_ONLY, KIRIAGE]))
    names = ["Ann", "Ben", "Cho", "Dai"][: rules.players]
    match = Match.start(f"prop-{next(counter)}", names, rules)
    for _ in range(draw(st.integers(min_value=1, max_value=30))):
        if match.state.finished:
            break
        match.record(draw(hand_results(rules.players)))
    return match


PROPERTY_SETTINGS = settings(max_examples=60)


@PROPERTY_SETTINGS
@given(played_matches())
def test_folding_the_facts_gives_the_aggregate_state(match: Match) -> None:
    facts = facts_of(match.pending_events)
    assert table_state(match.rules, facts) == match.state


@settings(max_examples=25)
@given(played_matches())
def test_a_stored_and_reloaded_match_folds_to_the_same_state(match: Match) -> None:
    expected = match.state
    app = HonbaApp.open(":memory:")
    assert storing.store_whole(app, match)
    stored = app.get_match(match.key)
    facts = stored.effective_facts()
    assert table_state(stored.rules, facts) == expected
    assert app.get_match(match.key).state == expected
    assert not storing.store_whole(app, match)


@PROPERTY_SETTINGS
@given(played_matches())
def test_every_hand_moves_points_only_between_players_and_the_table(match: Match) -> None:
    for step in steps(match.rules, facts_of(match.pending_events)):
        changes = score_changes(step.payments, step.before.players)
        assert all(p.amount >= 0 for p in step.payments)
        assert sum(changes) + (step.after.deposits - step.before.deposits) == 0
        between_players = [p for p in step.payments if p.payer is not None and p.payee is not None]
        assert sum(score_changes(between_players, step.before.players)) == 0
        assert step.after.scores == tuple(s + c for s, c in zip(step.before.scores, changes, strict=True))


@PROPERTY_SETTINGS
@given(played_matches())
def test_scores_and_deposits_on_the_table_stay_constant(match: Match) -> None:
    total = match.rules.start_score * match.rules.players
    for step in steps(match.rules, facts_of(match.pending_events)):
        assert sum(step.after.scores) + step.after.deposits == total
        if isinstance(step.fact, MatchEnd):
            # The top player takes any deposits left: nothing stays on the table.
            assert step.after.deposits == 0


@PROPERTY_SETTINGS
@given(played_matches())
def test_final_points_sum_to_zero(match: Match) -> None:
    if match.state.finished:
        assert round(sum(match.state.final_points), 6) == 0
        assert len(match.state.final_points) == match.rules.players


@PROPERTY_SETTINGS
@given(played_matches())
def test_the_counters_follow_the_results(match: Match) -> None:
    # Seed 003: +1 on a dealer win or any draw, 0 when only non-dealers win; the deal
    # stays after a dealer win or an abortive draw, and after an exhaustive draw when ready.
    facts = facts_of(match.pending_events)
    for step, following in itertools.zip_longest(steps(match.rules, facts), facts[1:]):
        fact = step.fact
        if isinstance(fact, WinResult):
            dealer_won = any(w.winner == step.before.dealer for w in fact.wins)
            assert step.after.counters == (step.before.counters + 1 if dealer_won else 0)
            keeps = dealer_won
        elif isinstance(fact, ExhaustiveDraw | AbortiveDraw):
            assert step.after.counters == step.before.counters + 1
            keeps = isinstance(fact, AbortiveDraw) or step.before.dealer in fact.ready
        else:
            continue
        if not isinstance(following, MatchEnd | None):
            assert isinstance(following, DealPass) != keeps
