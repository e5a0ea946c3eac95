"""Corrections of a match's history: amend or void a hand, add or cancel a penalty.

A correction never edits what was recorded; it is a new fact that says which
earlier entry it replaces (by the entry's position in the match's event log),
who made it and why. ``effective_facts`` gives the history that projections,
scores and standings use: corrected entries replaced, voided ones left out,
deal passes kept as they were played.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from domain.clock import TIME_UP
from domain.errors import RuleViolation
from domain.progression import Fact, deal_passes, evolve, evolve_checked, match_end_reason
from domain.rules import Ruleset
from domain.said import Said
from domain.values import (
    AbortiveDraw,
    DealPass,
    ExhaustiveDraw,
    MatchEnd,
    Payment,
    Penalty,
    TableState,
    WinResult,
)

# The ends the rules decide; any other reason (agreed, a time limit) is the players' own and stands.
AUTOMATIC_ENDS = frozenset({"complete", "bust", "dealer_stop"})
# The ends a hand led to, taken back with it when it is undone: the rules' and the clock's
# (``domain.clock``; written in a record file, unlike the rules', since the file has no clock).
ENDS_OF_THEIR_HAND = AUTOMATIC_ENDS | {TIME_UP}


def early_end_reason(reason: object) -> str:
    """The reason of an end written by hand, refused when the rules alone decide it.

    ``complete``, ``bust`` and ``dealer_stop`` ends are never written (the rules
    find them again on load), so an early end under one of those names would be
    lost on export.
    """
    text = str(reason).strip() if isinstance(reason, str) else ""
    if not text:
        raise RuleViolation(Said("an early end needs a reason, e.g. agreed or time limit"))
    if text in AUTOMATIC_ENDS:
        raise RuleViolation(
            Said("the rules decide a {reason} end by themselves; give an early end another reason", reason=repr(text))
        )
    return text


@attrs.frozen
class Correction:
    """A referee's correction: ``target`` is the position of the corrected entry (None when a
    penalty is added), ``replacement`` the new fact (None voids the entry)."""

    target: int | None
    replacement: Fact | None
    by: str
    reason: str
    at: str = ""
    # The correction's own position in the match's log (None where it is not known).
    position: int | None = None

    @property
    def kind(self) -> str:
        """``amended``, ``voided``, ``penalty added`` or ``penalty cancelled``."""
        if self.target is None:
            return "penalty added"
        if self.replacement is None:
            return "voided"
        return "amended"


def resolve_corrections(log: Sequence[tuple[int, Correction]]) -> dict[int, Correction]:
    """The correction in force for each corrected entry, corrections of corrections applied.

    ``log`` holds every correction at its own position, in order. A correction targets an
    entry (a hand result or penalty, also a penalty added by a correction) or another
    correction. A correction of a correction amends it (its target gets the new
    replacement) or, with no replacement, cancels it (its target is as if it had never
    been made: a void undone). The latest correction of a target that still counts wins.
    Entries none of whose corrections count are left out (they stand as recorded).
    """
    at_position = dict(log)
    targeting = _targeting(log)
    outcome = correction_outcomes(log)
    resolved: dict[int, Correction] = {}
    for target, positions in targeting.items():
        if corrects_something(target, at_position):
            continue
        for position in reversed(positions):
            counted = outcome[position]
            if counted is not None:
                resolved[target] = counted
                break
    return resolved


def _targeting(log: Sequence[tuple[int, Correction]]) -> dict[int, list[int]]:
    """For each target, the positions of the corrections of it, in order."""
    targeting: dict[int, list[int]] = {}
    for position, correction in log:
        if correction.target is not None:
            targeting.setdefault(correction.target, []).append(position)
    return targeting


def correction_outcomes(log: Sequence[tuple[int, Correction]]) -> dict[int, Correction | None]:
    """What each correction comes to once corrected in turn: None when it was cancelled, else
    the correction with the replacement in force (a later amendment of it, or its own)."""
    targeting = _targeting(log)
    outcome: dict[int, Correction | None] = {}
    # The latest first: a correction only targets earlier ones.
    for position, correction in reversed(log):
        effective: Correction | None = correction
        for later in reversed(targeting.get(position, [])):
            counted = outcome[later]
            if counted is not None:
                replacement = counted.replacement
                effective = None if replacement is None else attrs.evolve(correction, replacement=replacement)
                break
        outcome[position] = effective
    return outcome


def latest_of_its_target(position: int, log: Sequence[tuple[int, Correction]]) -> bool:
    """Whether the correction at ``position`` still counts and no later one of the same target does."""
    outcome = correction_outcomes(log)
    if outcome.get(position) is None:
        return False
    target = dict(log)[position].target
    counting = [p for p, c in log if c.target == target and outcome[p] is not None]
    return target is not None and max(counting) == position


def corrects_something(target: int, at_position: Mapping[int, Correction]) -> bool:
    """Whether ``target`` is the position of a correction of an entry (not a penalty it added)."""
    correction = at_position.get(target)
    return correction is not None and correction.target is not None


def undone_positions(history: Sequence[tuple[int, Fact]], corrections: Mapping[int, Correction]) -> frozenset[int]:
    """Hands taken back at the table: voided while still the last hand, with what followed them;
    and the early ends voided (the match reopened).

    A hand voided before any later hand was recorded (``honba undo``, or a void of the last
    hand) is taken back whole: the deal pass and the end the rules decided after it are void
    too, and the table is again the table before it. A hand voided after later hands were
    played keeps its deal pass (the later hands stay as played). An early end voided is taken
    back the same way: nothing can have been played after it before it was voided, so the match
    goes on from the table before it, as played and as corrected.
    """
    hands = [p for p, fact in history if isinstance(fact, WinResult | ExhaustiveDraw | AbortiveDraw)]
    facts = dict(history)
    positions = [p for p, _ in history]
    undone: set[int] = {
        target for target, c in corrections.items() if c.replacement is None and is_early_end(facts.get(target))
    }
    voids = sorted(
        (c.position, target)
        for target, c in corrections.items()
        if c.replacement is None
        and c.position is not None
        and isinstance(facts.get(target), WinResult | ExhaustiveDraw | AbortiveDraw)
    )
    # In the order they were made: a hand is the last while every later hand was taken back before.
    for made_at, target in voids:
        if any(target < p < made_at and p not in undone for p in hands):
            continue
        undone.add(target)
        for position in positions[positions.index(target) + 1 :]:
            fact = facts[position]
            if isinstance(fact, DealPass) or (isinstance(fact, MatchEnd) and fact.reason in ENDS_OF_THEIR_HAND):
                undone.add(position)
            elif not isinstance(fact, Penalty):  # a penalty recorded in between does not stop it
                break
    return frozenset(undone)


def effective_entries(
    history: Sequence[tuple[int, Fact]], corrections: Mapping[int, Correction]
) -> list[tuple[int, Fact]]:
    """The history as corrected, each fact with the position of the entry it stands for:
    replaced entries, voided ones dropped, the end kept last.

    ``history`` holds each entry's position and fact in recorded order (penalties added
    by a correction included at the correction's own position); ``corrections`` the
    latest correction of each corrected position.
    """
    if not corrections:
        # No correction (nearly every match): nothing taken back nor replaced; only the end is moved
        # last, where a penalty was recorded after it.
        kept = [entry for entry in history if not isinstance(entry[1], MatchEnd)]
        return kept if len(kept) == len(history) else kept + [e for e in history if isinstance(e[1], MatchEnd)]
    entries: list[tuple[int, Fact]] = []
    end: list[tuple[int, Fact]] = []
    undone = undone_positions(history, corrections)
    for position, fact in history:
        if position in undone:
            continue
        correction = corrections.get(position)
        if correction is not None:
            if correction.replacement is None:
                continue
            fact = correction.replacement
        (end if isinstance(fact, MatchEnd) else entries).append((position, fact))
    # A penalty added after the match ended still counts toward its final scores.
    return entries + end


def effective_facts(history: Sequence[tuple[int, Fact]], corrections: Mapping[int, Correction]) -> list[Fact]:
    """The facts of ``effective_entries``, without their positions."""
    return [fact for _, fact in effective_entries(history, corrections)]


@attrs.frozen
class CorrectedStep:
    """One entry of the corrected history: the table it was scored on, the fact in force
    (None for a voided entry), its payments and the table after it."""

    position: int
    before: TableState
    fact: Fact | None
    payments: tuple[Payment, ...]
    after: TableState


def corrected_steps(
    opening: TableState, rules: Ruleset, history: Sequence[tuple[int, Fact]], corrections: Mapping[int, Correction]
) -> list[CorrectedStep]:
    """Fold the corrected history, keeping the hands that were played as they were played.

    Two timelines run side by side: the table as it was played (the recorded facts) and
    the points under the corrections. Every entry is scored on the table as played (its
    dealer, round and counters) carrying the corrected scores, penalties and deposits, so
    a correction changes what was paid, never which hands were played or at what table.

    Points are conserved: deposits follow the corrected history, never the played one.
    Riichi sticks that a voided or amended win collected stay on the table and go to the
    next winner of the corrected history, or at the end where the rules send leftover
    deposits; sticks placed in a voided hand were never placed. Where the corrected
    result would have led to another table, the audit shows it.
    """
    return fold_corrected(opening, rules, history, corrections)[0]


def fold_corrected(
    opening: TableState, rules: Ruleset, history: Sequence[tuple[int, Fact]], corrections: Mapping[int, Correction]
) -> tuple[list[CorrectedStep], TableState]:
    """``corrected_steps``, and the table as played after them (where ``next_step`` goes on)."""
    played = opening
    steps: list[CorrectedStep] = []
    undone = undone_positions(history, corrections)
    # The end that stands comes last (a penalty added after it counts toward its final scores);
    # an end taken back (the match reopened) stays where it was, a step that changes nothing.
    ordered = [e for e in history if not isinstance(e[1], MatchEnd) or e[0] in undone] + [
        e for e in history if isinstance(e[1], MatchEnd) and e[0] not in undone
    ]
    for position, fact in ordered:
        corrected = steps[-1].after if steps else opening
        if position in undone:
            # Taken back at the table: as if never played, the table as before it.
            table = _on_played(played, corrected)
            steps.append(CorrectedStep(position, table, None, (), table))
            continue
        correction = corrections.get(position)
        step, played = next_step(
            played, corrected, rules, position, fact, fact if correction is None else correction.replacement
        )
        steps.append(step)
    return steps, played


def _on_played(played: TableState, corrected: TableState) -> TableState:
    """The table as played carrying the corrected scores, penalties and deposits."""
    if corrected is played:
        # No correction has touched the match so far: the two timelines are one table (the
        # common case, and a rebuild of the view replays every match: no copy made).
        return played
    return attrs.evolve(played, scores=corrected.scores, penalties=corrected.penalties, deposits=corrected.deposits)


# The facts a command's ``checked`` step may be (``next_step``).
_CHECKED = (WinResult, ExhaustiveDraw, AbortiveDraw, DealPass)


def next_step(
    played: TableState,
    corrected: TableState,
    rules: Ruleset,
    position: int,
    fact: Fact,
    effective: Fact | None,
    *,
    checked: bool = False,
) -> tuple[CorrectedStep, TableState]:
    """One entry of the corrected history (``fact`` as recorded, ``effective`` the fact in force,
    None when voided) after the table as played and the corrected table so far; the step, and
    the table as played after it.

    Where the corrected table is the table as played and the fact stands as recorded (a match
    without corrections), the one evolution serves both timelines: each hand is settled once.
    ``checked``: ``fact`` is a hand result the entry checks (``EntryChecks.hand``) have just passed
    on this match's table (the Match's command scoring what it records), or the deal pass the rules
    made after it (``following_fact``): ``evolve_checked``, its guard against a stored fact changed
    behind honba's back not run on it.
    """
    table = _on_played(played, corrected)
    if effective is None:
        step = CorrectedStep(position, table, None, (), table)
    else:
        if checked and effective is fact and isinstance(fact, _CHECKED):
            after, payments = evolve_checked(table, rules, fact)
        else:
            after, payments = evolve(table, rules, effective)
        step = CorrectedStep(position, table, effective, payments, after)
        # The same object in a match without corrections: the identity first (an attrs comparison
        # of every field of the table costs ten times as much, once per entry of every fold).
        if effective is fact and (table is played or table == played):
            return step, after
    played_after, _ = evolve(played, rules, fact)
    return step, played_after


def _ended_words(reason: str | None) -> str:
    """An end reason in a judgement's words (at module level: mypyc compiles no function nested in an
    attrs class's method)."""
    return "went on" if reason is None else f"ended ({reason.replace('_', ' ')})"


@attrs.frozen
class EndJudgement:
    """Where the corrected history judges the end of the match otherwise than it was played.

    ``hand`` is the label of the hand (``S4-1``) after which it differs; ``position`` the
    entry's position; ``as_played`` the reason the match ended there as played (None: it
    went on), ``corrected`` the reason under the corrected history (None: it would go on);
    ``voided`` when that hand is now void.
    """

    hand: str
    position: int
    as_played: str | None
    corrected: str | None
    voided: bool = False

    def describe(self) -> str:
        """The judgement in words, for the audit and the status."""
        if self.voided:
            return (
                f"as played the match ended here ({(self.as_played or '').replace('_', ' ')}) after a hand that is "
                "now void; under the corrected history the match would have gone on. No hand is invented: the match "
                "stays ended, with the final scores and points of the corrected history."
            )
        if self.as_played is None:
            return (
                f"as played the match went on; under the corrected history it would have "
                f"{_ended_words(self.corrected)} after this hand. The later hands stay as played."
            )
        if self.corrected is None:
            return (
                f"as played the match {_ended_words(self.as_played)} after this hand; under the corrected history it "
                "would have gone on. No hand is invented: the match stays ended, with the final scores and "
                "points of the corrected history."
            )
        return (
            f"as played the match {_ended_words(self.as_played)} after this hand; under the corrected history it "
            f"{_ended_words(self.corrected)}."
        )


def judge_end(
    opening: TableState, rules: Ruleset, history: Sequence[tuple[int, Fact]], corrections: Mapping[int, Correction]
) -> tuple[EndJudgement, ...]:
    """Re-judge the end of the match on the corrected history, hand by hand.

    Each hand of the corrected history is asked again whether the match ends after it
    (bust, the last hand, the dealer stopping on top), on the table it was played on with
    the corrected scores and deposits. Where the answer differs from what was played, one
    judgement says so. An end the players decided (agreed, a time limit) is not re-judged.
    """
    ends_after = _played_ends(history, undone_positions(history, corrections))
    judgements: list[EndJudgement] = []
    for step in corrected_steps(opening, rules, history, corrections):
        played_end = ends_after.get(step.position)
        if isinstance(step.fact, WinResult | ExhaustiveDraw | AbortiveDraw):
            passes = deal_passes(step.fact, step.before, rules)
            corrected_end = match_end_reason(step.before, step.after, rules, step.fact, passes)
            if played_end is not None and played_end not in AUTOMATIC_ENDS:
                # The players ended it themselves: that stands whatever the scores.
                continue
            if corrected_end != played_end:
                judgements.append(EndJudgement(step.before.hand_label, step.position, played_end, corrected_end))
                if corrected_end is not None:
                    # The corrected history ends here: the hands after it would not have been played.
                    break
        elif step.fact is None and played_end in AUTOMATIC_ENDS:
            judgements.append(EndJudgement(step.before.hand_label, step.position, played_end, None, voided=True))
    return tuple(judgements)


def _played_ends(history: Sequence[tuple[int, Fact]], undone: frozenset[int]) -> dict[int, str]:
    """The position of the hand after which the match ended as played, with the end's reason."""
    ends: dict[int, str] = {}
    last_hand: int | None = None
    for position, fact in history:
        if position in undone:
            continue
        if isinstance(fact, WinResult | ExhaustiveDraw | AbortiveDraw):
            last_hand = position
        elif isinstance(fact, MatchEnd) and last_hand is not None:
            ends[last_hand] = fact.reason
    return ends


def is_correctable(fact: Fact) -> bool:
    """Hand results and penalties can be corrected; deal passes and the end follow from them."""
    return not isinstance(fact, DealPass | MatchEnd)


def is_early_end(fact: Fact | None) -> bool:
    """An end a person gave (``honba end``, the table's, the desk's, the director's, the API's:
    agreed, a time limit called): an entry of its own, which a void takes back (the match
    reopened). The ends the rules decide, and the clock's (``time_up``, a rule of the ruleset:
    ``hands_after_time``), follow from the last hand: taking that hand back takes them back
    (``ENDS_OF_THEIR_HAND``)."""
    return isinstance(fact, MatchEnd) and fact.reason not in ENDS_OF_THEIR_HAND


def fact_in_force(
    position: int, history: Sequence[tuple[int, Fact]], log: Sequence[tuple[int, Correction]]
) -> Fact | None:
    """The result or penalty that stands at ``position`` (an entry, or a correction of one): what a
    correction of it starts from. An entry stands as recorded, or as its correction in force
    replaced it; a correction as it (or a later correction of it) put its entry, and a void in
    force as its entry stood before the void. None where nothing stands to be corrected (a deal
    pass, an end, an entry voided, a correction cancelled, no entry at all)."""
    at_position = dict(log)
    if corrects_something(position, at_position):
        outcome = correction_outcomes(log).get(position)
        if outcome is None:
            return None
        if outcome.replacement is not None:
            return outcome.replacement
        root = position
        while corrects_something(root, at_position):
            target = at_position[root].target
            assert target is not None
            root = target
        return _standing(root, history, [(p, c) for p, c in log if p < position])
    return _standing(position, history, log)


def _standing(position: int, history: Sequence[tuple[int, Fact]], log: Sequence[tuple[int, Correction]]) -> Fact | None:
    fact = dict(history).get(position)
    if fact is None or not is_correctable(fact):
        return None
    current = resolve_corrections(log).get(position)
    return fact if current is None else current.replacement
