"""Properties of corrected history (hypothesis): points are conserved through any corrections.

Issue 10: "A property test applies random sequences of amendments, voids, penalties and
corrections of corrections to random valid matches, under several presets, and checks
after each step: every hand sums to zero apart from deposits; scores plus deposits on
the table equal the starting total; the audit's invariants hold; export then import
gives the same ledger."

The starting total is what the players started with, less only what the rules take
off the table: a penalty paid to nobody, and deposits lost at the end where the rules
lose leftovers (docs/audit.md, "Points after a correction").
"""

from __future__ import annotations

import itertools

from conftest import TENHOU
from hypothesis import given, settings
from hypothesis import strategies as st
from test_properties import hand_results

from domain.errors import HonbaError
from domain.match import Match
from domain.rules import Ruleset, load_preset
from domain.scoring.payments import score_changes
from domain.values import DealPass, MatchEnd, Penalty, PenaltyShare
from projections.ledger import corrected_ledger
from replay.formats.record import build_match, export_record, parse_record
from replay.service.audit.audit import build_report
from replay.store.findings import MatchCheck

PRESETS: list[Ruleset] = [
    TENHOU,
    load_preset("tenhou-sanma"),
    load_preset("tenhou-east"),
    load_preset("wrc"),
    load_preset("m-league"),
    # Leftover deposits lost at the end rather than given to the top player.
    TENHOU.with_overrides({"leftover_deposits": "lost"}),
]

counter = itertools.count()

# The strategies drawn from on every correction, built once (as test_properties' hand_results).
KINDS = st.sampled_from(["amend", "amend", "void", "penalty", "again", "of a correction", "undo"])
PENALTY_AMOUNTS = st.sampled_from([1000, 2000, 8000])
AMENDED_PENALTIES = st.sampled_from([1000, 3000])
SHARES = st.sampled_from(list(PenaltyShare))
SEATS = {players: st.integers(0, players - 1) for players in (3, 4)}


@st.composite
def corrections(draw: st.DrawFn, match: Match) -> str:
    """Apply one random correction to ``match``: amend, void, add or cancel a penalty, or
    correct a correction. Returns what was tried; a refused correction records nothing."""
    players = match.rules.players
    correctable = [p for p, fact in match.history if not isinstance(fact, DealPass | MatchEnd)]
    kind = draw(KINDS)
    by, reason = "Referee", f"step {next(counter)}"
    amendments = [p for p, c in match.correction_log if c.target is not None]
    try:
        if kind == "undo":
            match.undo(by="the recorder", reason=reason)
            return kind
        if kind == "of a correction" and amendments:
            # Amend or cancel a correction (a void cancelled is a void undone).
            target = draw(st.sampled_from(amendments))
            if draw(st.booleans()):
                match.void(target, by=by, reason=reason)
                return kind
            root = match.history[0][1]
            for position, fact in match.history:
                if position == dict(match.correction_log)[target].target:
                    root = fact
            if isinstance(root, Penalty):
                match.amend(target, Penalty(root.seat, draw(AMENDED_PENALTIES)), by=by, reason=reason)
            else:
                match.amend(target, draw(hand_results(players)), by=by, reason=reason)
            return kind
        if kind == "penalty" or not correctable:
            seat = draw(SEATS[players])
            amount = draw(PENALTY_AMOUNTS)
            share = draw(SHARES)
            match.add_penalty(Penalty(seat, amount, share=share), by=by, reason=reason)
            return "penalty"
        target = draw(st.sampled_from(correctable))
        if kind == "again":
            # A correction of a correction: the latest of several counts.
            corrected = [p for p in correctable if p in match.corrections]
            target = draw(st.sampled_from(corrected)) if corrected else target
        original = dict(match.history)[target]
        if kind == "void":
            match.void(target, by=by, reason=reason)
        elif isinstance(original, Penalty):
            match.amend(target, Penalty(original.seat, draw(AMENDED_PENALTIES)), by=by, reason=reason)
        else:
            match.amend(target, draw(hand_results(players)), by=by, reason=reason)
    except HonbaError:
        return f"{kind} refused"
    return kind


@st.composite
def corrected_matches(draw: st.DrawFn) -> Match:
    """A valid match under one of the presets, then a few corrections."""
    rules = draw(st.sampled_from(PRESETS))
    match = Match.start(f"corrected-{next(counter)}", ["Ann", "Ben", "Cho", "Dai"][: rules.players], rules)
    for _ in range(draw(st.integers(min_value=1, max_value=10))):
        if match.state.finished:
            break
        try:
            match.record(draw(hand_results(rules.players)))
        except HonbaError:
            continue
    if draw(st.booleans()) and not match.state.finished:
        match.end("agreed")
    for _ in range(draw(st.integers(min_value=1, max_value=5))):
        draw(corrections(match))
    return match


def check_conserved(match: Match) -> None:
    """Every hand sums to zero apart from deposits; scores plus deposits are the starting total
    less what the rules took off the table; the audit's invariants hold."""
    steps = match.corrected_steps()
    start = steps[0].before if steps else match.state
    in_play = sum(start.scores) + start.deposits
    for step in steps:
        if step.fact is None:
            continue
        changes = score_changes(step.payments, step.before.players)
        if isinstance(step.fact, Penalty):
            in_play -= sum(p.amount for p in step.payments if p.payee is None)
        elif isinstance(step.fact, MatchEnd):
            taken = sum(p.amount for p in step.payments if p.payer is None)
            in_play -= step.before.deposits - taken - step.after.deposits
        else:
            assert sum(changes) + (step.after.deposits - step.before.deposits) == 0
        assert sum(step.after.scores) + step.after.deposits == in_play
    assert sum(match.state.scores) + match.state.deposits == in_play
    report = build_report(match, MatchCheck(match.key, 0, "", ()))
    assert [f for f in report.findings if f.kind == "invariant"] == []


@settings(max_examples=200)
@given(corrected_matches())
def test_corrections_conserve_points_and_survive_export_and_import(match: Match) -> None:
    check_conserved(match)
    again = build_match(parse_record(export_record(match)))
    assert corrected_ledger(again.corrected_steps()) == corrected_ledger(match.corrected_steps())
    assert again.state == match.state


@settings(max_examples=200)
@given(st.data())
def test_points_are_conserved_after_every_correction(data: st.DataObject) -> None:
    rules = data.draw(st.sampled_from(PRESETS))
    match = Match.start(f"stepwise-{next(counter)}", ["Ann", "Ben", "Cho", "Dai"][: rules.players], rules)
    for _ in range(data.draw(st.integers(min_value=1, max_value=8))):
        if match.state.finished:
            break
        try:
            match.record(data.draw(hand_results(rules.players)))
        except HonbaError:
            continue
    for _ in range(data.draw(st.integers(min_value=1, max_value=6))):
        before = list(match.pending_events)
        outcome = data.draw(corrections(match))
        if outcome.endswith("refused"):
            # A refused correction records nothing.
            assert list(match.pending_events) == before
        check_conserved(match)
