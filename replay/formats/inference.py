"""The rules a log shows by its own numbers, for a game whose log does not state them.

A Mahjong Soul tournament or friendly room's log (tenhou.net/6 JSON from the converters) names
no rules, but its numbers show them: the first hand's scores the start, a 4 han 30 fu (or 3 han
60 fu) win paid 8,000 rather than 7,700 the room's rounding up to a mangan (kiriage), a hand
started below zero that the room plays on, the final ``sc`` the uma, the oka, the rounding of the
final points and how ties are broken. ``infer_rules`` reads those numbers and tests each
candidate rule set by asking the domain (``evolve`` settles a hand, ``final_points`` counts the
end): it never pays or counts on its own. What it finds is said in one sentence each, naming the
hands it comes from.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import attrs

from domain.errors import HonbaError
from domain.progression import evolve, final_points, ranking
from domain.rules import Ruleset
from domain.scoring.payments import score_changes
from domain.values import WIND_LETTERS, HandValue, WinResult
from replay.formats.logmodel import LoggedGame, LoggedHand

# The hands a room that rounds up pays as a mangan: 4 han 30 fu and 3 han 60 fu.
ROUNDED_UP: frozenset[tuple[int, int]] = frozenset({(4, 30), (3, 60)})


@attrs.frozen
class Inferred:
    """The rules a log's numbers show, what was found (one sentence each, naming its hands), and
    whether the final points are explained (then they are judged)."""

    rules: Ruleset
    findings: tuple[str, ...] = ()
    points_known: bool = False


def infer_rules(game: LoggedGame) -> Inferred:
    """The game's rules as its own numbers show them, starting from the rules it was read under.

    Only what the numbers decide is changed; everything else stays as read.
    """
    rules = game.rules
    findings: list[str] = []
    if not game.hands:
        return Inferred(rules)
    findings.extend(_start(game, rules))
    if game.players and len(game.players) == 3:
        findings.append("three players (the log seats three)")
    rules, kiriage = _kiriage(game, rules)
    findings.extend(kiriage)
    below = list(_below_zero(game))
    findings.extend(below)
    if not below and game.final_scores is not None and min(game.final_scores) < 0:
        # The log ends as soon as someone goes below zero: the room's bust.
        seat = game.final_scores.index(min(game.final_scores))
        last = game.hands[-1]
        score = game.final_scores[seat]
        findings.append(f"bust: the log ends as {game.players[seat]} goes below zero ({score:,} after {_label(last)})")
        rules = rules.with_overrides({"bust": True})
    rules, points, known = _points(game, rules)
    findings.extend(points)
    return Inferred(rules, tuple(findings), known)


def _label(hand: LoggedHand) -> str:
    return f"{WIND_LETTERS[hand.round_wind % 4]}{hand.hand_number}-{hand.counters}"


def _start(game: LoggedGame, rules: Ruleset) -> Iterator[str]:
    first = game.hands[0]
    opening = (first.round_wind, first.hand_number, first.counters, first.deposit_sticks) == (0, 1, 0, 0)
    if opening and len(set(first.scores)) == 1 and first.scores[0] == rules.start_score:
        yield f"start {rules.start_score:,} (the scores of {_label(first)})"


def _agrees(hand: LoggedHand, rules: Ruleset) -> bool | None:
    """Whether the domain, under these rules, pays the hand as the log recorded it (None: it cannot say)."""
    if hand.result is None or hand.deltas is None:
        return None
    state = hand.table(rules)
    try:
        _, payments = evolve(state, rules, hand.result)
    except HonbaError:
        return None
    return tuple(score_changes(payments, state.players)) == hand.deltas


def _rounded_up_candidate(value: HandValue) -> bool:
    return value.limit is None and (value.han, value.fu) in ROUNDED_UP


def _kiriage(game: LoggedGame, rules: Ruleset) -> tuple[Ruleset, list[str]]:
    """Kiriage from the 4 han 30 fu and 3 han 60 fu wins: which of the two rule sets pays them as logged."""
    rounded = rules.with_overrides({"kiriage_mangan": True})
    plain = rules.with_overrides({"kiriage_mangan": False})
    up: list[str] = []
    not_up: list[str] = []
    for hand in game.hands:
        result = hand.result
        if not isinstance(result, WinResult) or not any(_rounded_up_candidate(w.value) for w in result.wins):
            continue
        if _agrees(hand, rounded) and not _agrees(hand, plain):
            up.append(_label(hand))
        elif _agrees(hand, plain) and not _agrees(hand, rounded):
            not_up.append(_label(hand))
    if up and not not_up:
        return rounded, [f"kiriage: 4 han 30 fu and 3 han 60 fu are paid as a mangan ({', '.join(up)})"]
    if not_up and not up:
        return plain, [f"no kiriage: 4 han 30 fu and 3 han 60 fu are paid by the table ({', '.join(not_up)})"]
    if up and not_up:
        return rules, [f"kiriage not settled: rounded up in {', '.join(up)}, not in {', '.join(not_up)}"]
    return rules, []


def _below_zero(game: LoggedGame) -> Iterator[str]:
    """No bust: a hand the log plays with someone below zero."""
    for hand in game.hands[1:]:
        low = [seat for seat, score in enumerate(hand.scores) if score < 0]
        if low:
            seat = low[0]
            yield (
                f"no bust: play goes on below zero ({game.players[seat]} at {hand.scores[seat]:,} in {_label(hand)})"
            )
            return


def _points(game: LoggedGame, rules: Ruleset) -> tuple[Ruleset, list[str], bool]:
    """Uma, oka, the rounding of the final points and the tie-break, from the final ``sc``: the
    first candidate whose final points (asked of the domain) are the log's, one with a usual uma
    (falling by place, symmetric) before any other."""
    scores, points = game.final_scores, game.final_points
    if scores is None or points is None or len(scores) != rules.players:
        return rules, [], False
    found: list[Ruleset] = []
    for candidate in _point_candidates(scores, points, rules):
        try:
            ours = final_points(scores, candidate)
        except HonbaError:
            continue
        if all(abs(a - b) < 1e-6 for a, b in zip(ours, points, strict=True)):
            found.append(candidate)
            if _usual(candidate.uma):
                break
    if not found:
        return rules, ["uma and oka not found: no usual uma, oka and rounding gives the log's final points"], False
    chosen = next((c for c in found if _usual(c.uma)), found[0])
    return chosen, [_points_finding(chosen, scores)], True


def _usual(uma: tuple[int, ...]) -> bool:
    """An uma as rooms set them: falling from place to place, each place's the opposite of its mirror's."""
    falling = all(a > b for a, b in itertools.pairwise(uma))
    return falling and all(u == -v for u, v in zip(uma, reversed(uma), strict=True))


def _point_candidates(scores: tuple[int, ...], points: tuple[float, ...], rules: Ruleset) -> Iterator[Ruleset]:
    """Rule sets whose final points may be the log's: for each return score (the one that makes the
    uma symmetric, the start, the start plus 5,000) and rounding (tenths kept, Tenhou's whole
    thousands), the uma by place that the log's points leave once the scores are counted; with tied
    final scores, that uma by seat order, and its symmetric completion shared by the tied players."""
    n = rules.players
    order = ranking(scores)
    start = rules.start_score
    middle = order[1 : n - 1]
    # Any return score explains the points with some uma: the one that makes the uma symmetric, as
    # rooms' uma are, is tried first (then the start, no oka, and the start plus 5,000).
    if n == 4:
        # Second's and third's uma cancel out.
        paired = (scores[middle[0]] + scores[middle[1]]) / 1000 - (points[middle[0]] + points[middle[1]])
        symmetric = round(paired * 500)
    else:
        # Second's uma of three places is zero.
        symmetric = round((scores[middle[0]] / 1000 - points[middle[0]]) * 1000)
    ties = len(set(scores)) < len(scores)
    for back in dict.fromkeys(r for r in (symmetric, start, start + 5000, start + 10000) if 0 <= r <= 1_000_000):
        for rounding in ("none", "tenhou"):
            uma = _uma(scores, points, order, back, start, rounding)
            if uma is None:
                continue
            tried = [(uma, "seat_order" if ties else rules.uma_ties)]
            if ties:
                # Tied players sharing their places: only their places' sum shows, so the uma is
                # completed as rooms set it, each place the opposite of its mirror's.
                half = uma[: n // 2]
                mirrored = (*half, *((0,) if n % 2 else ()), *(-u for u in reversed(half)))
                tried.append((mirrored, "split"))
            for umas, tie in tried:
                overrides: dict[str, Any] = {
                    "return_score": back,
                    "oka_to_top": back != start,
                    "uma": list(umas),
                    "points_rounding": rounding,
                    "uma_floating": [],
                    "uma_ties": tie,
                }
                try:
                    yield rules.with_overrides(overrides)
                except HonbaError:
                    continue


def _uma(
    scores: tuple[int, ...], points: tuple[float, ...], order: list[int], back: int, start: int, rounding: str
) -> tuple[int, ...] | None:
    """The uma by place the log's points leave over the scores counted from ``back`` (the oka, what
    everyone paid above the start, taken off the top's); None when it is not whole numbers."""
    left = []
    for seat in order:
        if rounding == "none":
            counted = (scores[seat] - back) / 1000
        else:
            score = scores[seat]
            thousands = (score + 500) // 1000 if score >= 0 else -((-score + 500) // 1000)
            counted = thousands - back // 1000
        left.append(points[seat] - counted)
    left[0] -= len(scores) * (back - start) / 1000
    uma = tuple(round(x) for x in left)
    if any(abs(x - u) > 0.05 for x, u in zip(left, uma, strict=True)):
        return None
    return uma


def _points_finding(rules: Ruleset, scores: tuple[int, ...]) -> str:
    oka = f"oka {rules.oka // 1000} to the top (return {rules.return_score:,})" if rules.oka else "no oka"
    rounding = "tenths kept" if rules.points_rounding == "none" else "rounded to the thousand"
    text = f"uma {'/'.join(str(u) for u in rules.uma)}, {oka}, {rounding} (the final sc)"
    if len(set(scores)) < len(scores):
        text += "; ties " + ("broken by seat order" if rules.uma_ties == "seat_order" else "share their places")
    return text
