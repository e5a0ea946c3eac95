"""A hand value's checks and the losers' payments for it, worked out once per set of rules
(``domain.scoring.memo``): the same payments and refusals as worked out every time.

Numbers: seed 003 and Tenhou's score table (4 han 30 fu on a discard: 7,700 from a non-dealer,
8,000 with kiriage mangan; 11,600 to the dealer), and the corpus's own logs for the counts.
"""

from __future__ import annotations

import gc

import attrs
import pytest
from conftest import SANMA, TENHOU, hv, ron, started, table, tsumo, won

from domain.bounds import LOSER_SCORE, OutOfBounds
from domain.errors import HonbaError
from domain.rules import load_preset, preset_names
from domain.scoring import memo, payments
from domain.scoring.checks import check_fact_bounds, check_value
from domain.scoring.memo import rules_memo
from domain.scoring.payments import hand_value_payments, settle
from domain.scoring.riichi import hand_values
from domain.values import NO_WIN_FACTS, HandValue, Reason, Win
from domain.win_facts import win_facts_problem


def _worked_out(win: payments.Win, state: payments.TableState, rules: payments.Ruleset) -> list[tuple[int, int, int]]:
    return [(p.payer, p.payee, p.amount) for p in payments._hand_value_payments(win, state, rules)]


def test_every_riichi_value_pays_from_the_memo_what_it_pays_worked_out() -> None:
    for rules in (TENHOU, SANMA, load_preset("tenhou").with_overrides({"kiriage_mangan": True})):
        for dealer in range(rules.players):
            state = table(rules, dealer=dealer)
            for self_drawn in (True, False):
                for value in hand_values(self_drawn=self_drawn):
                    win = tsumo(1, value) if self_drawn else ron(1, 2, value)
                    expected = _worked_out(win, state, rules)
                    for _ in range(2):  # worked out, then from the memo
                        paid = hand_value_payments(win, state, rules)
                        assert [(p.payer, p.payee, p.amount) for p in paid] == expected


def test_rules_that_differ_in_one_value_keep_their_own_payments() -> None:
    # 4 han 30 fu on a non-dealer's discard to a non-dealer: 7,700; with kiriage mangan 8,000.
    kiriage = TENHOU.with_overrides({"kiriage_mangan": True})
    state = table(dealer=0)
    for _ in range(2):
        assert [p.amount for p in hand_value_payments(ron(1, 2, hv(4, 30)), state, TENHOU)] == [7700]
        assert [p.amount for p in hand_value_payments(ron(1, 2, hv(4, 30)), state, kiriage)] == [8000]
    # To the dealer: 11,600 (Tenhou's table), the dealer's seat being part of what is looked up.
    assert [p.amount for p in hand_value_payments(ron(0, 2, hv(4, 30)), state, TENHOU)] == [11600]


def test_rules_under_another_description_share_a_memo_and_other_values_do_not() -> None:
    assert rules_memo(TENHOU.retitled("a log of 2009-01-01 10:00")) is rules_memo(TENHOU)
    assert rules_memo(TENHOU.with_overrides({"kiriage_mangan": True})) is not rules_memo(TENHOU)


class _Watched(HandValue):
    """A hand value that says which of its numbers are read: the memo's work on it is seen from the
    value itself, which is interpreted (``domain.values``), whether the scoring runs compiled or not."""

    __slots__ = ()
    reads: list[str] = []

    def __getattribute__(self, name: str) -> object:
        _Watched.reads.append(name)
        return super().__getattribute__(name)


def test_each_value_and_seating_is_worked_out_once() -> None:
    rules = load_preset("tenhou").with_overrides({"name": "memo-count"})  # a memo of its own
    value = _Watched(han=3, fu=30)
    state = table(rules, dealer=0)
    check_value(value, rules, self_drawn=False)
    first = [hand_value_payments(ron(1, discarder, value), state, rules) for discarder in (2, 3)]
    assert [[p.amount for p in paid] for paid in first] == [[3900], [3900]]  # 3 han 30 fu on a discard
    assert _Watched.reads  # worked out: its numbers read
    _Watched.reads.clear()
    for _ in range(4):
        check_value(value, rules, self_drawn=False)
        again = [hand_value_payments(ron(1, discarder, value), state, rules) for discarder in (2, 3)]
        # The very payments worked out the first time, and none of the value's numbers read again.
        assert all(kept is paid for kept, paid in zip(again, first, strict=True))
    assert _Watched.reads == []


def test_a_kept_riichi_stick_is_no_look_alike_seat_s() -> None:
    # ``True`` equals seat 1 as a number, but is no seat: the stick kept for seat 1 is not given for it.
    assert [p.payer for p in payments._riichi_sticks([1], TENHOU)] == [1]
    assert [type(p.payer) for p in payments._riichi_sticks([True], TENHOU)] == [bool]


@pytest.mark.parametrize("preset", [name for name in preset_names() if load_preset(name).scoring == "riichi"])
def test_a_refusal_is_said_every_time_and_a_passed_value_lets_no_look_alike_through(preset: str) -> None:
    rules = load_preset(preset)
    check_value(hv(1, 30), rules, self_drawn=False)
    for _ in range(2):
        # ``True`` equals 1 as a number, but is no han count: refused after 1 han 30 fu passed.
        with pytest.raises(HonbaError):
            check_value(HandValue(han=True, fu=30), rules, self_drawn=False)
        # 1 han 20 fu does not exist (``domain.scoring.riichi``): said each time it is given.
        with pytest.raises(HonbaError):
            check_value(hv(1, 20), rules, self_drawn=False)


def test_counters_and_sticks_from_the_memo_are_the_seeds_amounts() -> None:
    # Seed 003: 300 per counter on a discard, from the discarder; 100 per counter from each payer
    # on a self-drawn win. Each count asked twice, in turn: the memo keeps them apart.
    for _ in range(2):
        for counters in (1, 2, 3):
            state = table(dealer=0, counters=counters)
            ron_paid = settle(won(ron(3, 1, hv(1, 30)), riichi=(2,)), state, TENHOU).payments
            assert [(p.payer, p.payee, p.amount) for p in ron_paid if p.reason is Reason.COUNTERS] == [
                (1, 3, 300 * counters)
            ]
            tsumo_paid = settle(won(tsumo(3, hv(1, 30))), state, TENHOU).payments
            assert sorted((p.payer, p.amount) for p in tsumo_paid if p.reason is Reason.COUNTERS) == [
                (0, 100 * counters),
                (1, 100 * counters),
                (2, 100 * counters),
            ]
            # The stick seat 2 placed: 1,000 to the table, then the deposits to the winner.
            assert [(p.payer, p.payee, p.amount) for p in ron_paid if p.reason is Reason.RIICHI_STICK] == [
                (2, None, 1000)
            ]
            assert [(p.payer, p.payee, p.amount) for p in ron_paid if p.reason is Reason.DEPOSITS] == [(None, 3, 1000)]


def test_a_win_that_states_no_fact_is_known_by_identity_and_its_loser_scores_still_bounded() -> None:
    # Every log's win states no fact: ``Win``'s default is the value the checks know at once.
    win = ron(1, 2, hv(3, 30))
    assert win.facts is NO_WIN_FACTS
    assert win_facts_problem(win, TENHOU) is None
    too_high = Win(winner=1, value=hv(3, 30), discarder=2, loser_scores=(0, 0, LOSER_SCORE.high + 1, 0))
    assert too_high.facts is NO_WIN_FACTS
    with pytest.raises(OutOfBounds):
        check_fact_bounds(too_high)


def test_the_first_hand_is_scored_on_the_opening_table_itself() -> None:
    # Before the first entry the table as played and the corrected table are the opening table:
    # one object (not made again each time the table is asked for), so that the first hand is
    # scored once for both timelines. The first hand's numbers: seed 003's 1 han 30 fu ron, 1,000.
    match = started()
    opening = match.state
    assert match.state is opening
    match.record(won(ron(1, 2, hv(1, 30))))
    first = match.corrected_steps()[0]
    assert first.before is opening
    assert match.state.scores == (25000, 26000, 24000, 25000)


def test_rules_let_go_leave_no_entry_behind() -> None:
    # A server loads thousands of matches, each with its rules object: the memo is found by the
    # object while it lives, and its entry goes with it (the memo itself stays with the values).
    kept = len(memo._BY_OBJECT)
    rules = TENHOU.retitled("a log of 2009-01-01 11:00")
    found = rules_memo(rules)
    assert len(memo._BY_OBJECT) == kept + 1
    del rules
    gc.collect()
    assert len(memo._BY_OBJECT) == kept
    assert rules_memo(TENHOU.retitled("a log of 2009-01-01 12:00")) is found


def test_a_hand_values_key_tells_apart_values_differing_in_any_one_field() -> None:
    # Every field of HandValue is in the key: a field added later cannot share a memo entry unseen.
    base = HandValue()
    for field in attrs.fields(HandValue):
        other = attrs.evolve(base, **{field.name: 7})
        assert memo.value_key(other) != memo.value_key(base), field.name


def test_a_hand_values_key_is_kept_by_the_value_itself() -> None:
    # A log reader makes each value once and its wins share it: the checks and the payments of each
    # win ask its key, worked out once per value object (issue 36, twenty-first round).
    value = HandValue(han=3, fu=30)
    first = memo.value_key(value)
    assert memo.value_key(value) is first
    # An equal value made apart has its own, equal key; a count of True is still no count of 1.
    assert memo.value_key(HandValue(han=3, fu=30)) == first
    assert memo.value_key(HandValue(han=True, fu=30)) != memo.value_key(HandValue(han=1, fu=30))
    # At most VALUES_KEPT kept, then all let go at once: the key is worked out again, the same.
    for han in range(memo.VALUES_KEPT + 1):
        memo.value_key(HandValue(han=han, fu=40))
    assert len(memo._KEYS) <= memo.VALUES_KEPT
    assert memo.value_key(value) == first
