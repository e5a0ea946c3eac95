"""Player statistics: what each player did in the hands of each match, added up over many matches.

A pure fold over a match's corrected steps (``domain.amendments.corrected_steps``): every
figure comes from the recorded facts and the payments the rules made of them, never from a
log's own figures. Recorded matches give what they hold (wins, discarders, riichi, ready
hands); imported logs the same and more: per-yaku counts come from what the log said about each win
(``Win.details.yaku``, by Tenhou's names), and are empty for wins entered by hand.

Counted per seat in a match (all additive, so that a player's totals are sums):

- ``hands``: hands played (wins, exhaustive and abortive draws);
- ``wins``, ``self_drawn``: hands won, and of them self-drawn;
- ``deal_ins``: hands in which the player's discard was won on (a double ron counts once);
- ``riichi``: hands with a riichi declared;
- ``win_value``: the hand value paid to the player on wins (hand value and liability
  payments: no counters, deposits or bonuses), ``deal_in_value``: the hand value the player
  paid on deal-ins;
- ``exhaustive_draws``, ``ready_at_draw``: exhaustive draws played, and ready at them;
- ``dealer_hands``, ``dealer_kept``: hands as dealer, and of them the ones after which the
  rules keep the deal with the dealer (a win or ready hand as dealer, ...);
- ``counters_won``, ``deposits_won``: points taken as counters (honba) and as deposits;
- ``called``, ``call_hands``: hands in which the player made an open call (chi, pon, open
  kong), and the hands whose calls the record shows (``called`` of the hand result, from a
  game log; a hand entered at the table says nothing of calls, so it counts in neither).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from domain.amendments import CorrectedStep
from domain.progression import deal_passes
from domain.rules import Ruleset
from domain.values import AbortiveDraw, ExhaustiveDraw, Reason, WinResult

COUNTS = (
    "hands",
    "wins",
    "self_drawn",
    "deal_ins",
    "riichi",
    "win_value",
    "deal_in_value",
    "exhaustive_draws",
    "ready_at_draw",
    "dealer_hands",
    "dealer_kept",
    "counters_won",
    "deposits_won",
    "called",
    "call_hands",
)
HAND_VALUE = (Reason.HAND, Reason.LIABILITY)


@attrs.frozen
class MatchStats:
    """One match's figures per seat (seat order), with its result."""

    key: str
    players: tuple[str, ...]
    finished: bool
    places: tuple[int, ...]
    final_points: tuple[float, ...]
    net_scores: tuple[int, ...]
    counts: tuple[dict[str, int], ...]
    yaku: tuple[dict[str, int], ...]

    def to_data(self) -> dict[str, Any]:
        """Plain data for the stored view."""
        return {
            "key": self.key,
            "players": list(self.players),
            "finished": self.finished,
            "places": list(self.places),
            "final_points": list(self.final_points),
            "net_scores": list(self.net_scores),
            "counts": [dict(c) for c in self.counts],
            "yaku": [dict(y) for y in self.yaku],
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> MatchStats:
        """Back from the stored view."""
        return cls(
            key=data["key"],
            players=tuple(data["players"]),
            finished=data["finished"],
            places=tuple(data["places"]),
            final_points=tuple(data["final_points"]),
            net_scores=tuple(data["net_scores"]),
            # A document written before a count existed lacks it: nothing was counted there.
            counts=tuple({**dict.fromkeys(COUNTS, 0), **c} for c in data["counts"]),
            yaku=tuple(dict(y) for y in data["yaku"]),
        )


# The facts that are hands played: the only steps the figures count.
_HANDS = (WinResult, ExhaustiveDraw, AbortiveDraw)


def match_stats(
    key: str,
    players: Sequence[str],
    rules: Ruleset,
    steps: Sequence[CorrectedStep],
    places: Sequence[int],
    final_points: Sequence[float],
    final_scores: Sequence[int],
    finished: bool,
) -> MatchStats:
    """The figures of one match, from its corrected steps and its summary's result.

    Counted in a list per figure (by seat), and the figures every seat shares (hands, exhaustive
    draws, hands whose calls the record shows) once a hand, made into each seat's counts at the
    end: an import computes this for every match it stores (the standings view's documents), and
    a dictionary update per seat and figure cost it about twice as much."""
    n = len(players)
    hands = exhaustive_draws = call_hands = 0
    wins, self_drawn, deal_ins, riichi = [0] * n, [0] * n, [0] * n, [0] * n
    win_value, deal_in_value, ready_at_draw = [0] * n, [0] * n, [0] * n
    dealer_hands, dealer_kept, counters_won, deposits_won, called = [0] * n, [0] * n, [0] * n, [0] * n, [0] * n
    yaku: list[dict[str, int]] = [{} for _ in range(n)]
    for step in steps:
        fact = step.fact
        if not isinstance(fact, _HANDS):
            continue
        hands += 1
        before = step.before
        dealer = before.dealer
        dealer_hands[dealer] += 1
        if not deal_passes(fact, before, rules):
            dealer_kept[dealer] += 1
        for seat in fact.riichi:
            riichi[seat] += 1
        if fact.called is not None:
            call_hands += 1
            for seat in fact.called:
                called[seat] += 1
        if isinstance(fact, ExhaustiveDraw):
            exhaustive_draws += 1
            for seat in fact.ready:
                ready_at_draw[seat] += 1
        if isinstance(fact, WinResult):
            winners: set[int] = set()
            # The seats whose discard was won on: a double ron is one deal-in.
            discarders: set[int] = set()
            for win in fact.wins:
                winner = win.winner
                winners.add(winner)
                wins[winner] += 1
                if win.discarder is None:
                    self_drawn[winner] += 1
                else:
                    discarders.add(win.discarder)
                # The yaku a game log named for this win (``Win.details``, by Tenhou's names); none
                # for a win entered by hand, whose value is all the record holds.
                if win.details is not None:
                    named = yaku[winner]
                    for one in win.details.yaku:
                        named[one.name] = named.get(one.name, 0) + 1
            for seat in discarders:
                deal_ins[seat] += 1
            for payment in step.payments:
                reason = payment.reason
                if reason in HAND_VALUE:
                    if payment.payer in discarders:
                        deal_in_value[payment.payer] += payment.amount
                    if payment.payee in winners:
                        win_value[payment.payee] += payment.amount
                elif payment.payee in winners:
                    if reason == Reason.COUNTERS:
                        counters_won[payment.payee] += payment.amount
                    elif reason == Reason.DEPOSITS:
                        deposits_won[payment.payee] += payment.amount
    counts = tuple(
        {
            "hands": hands,
            "wins": wins[seat],
            "self_drawn": self_drawn[seat],
            "deal_ins": deal_ins[seat],
            "riichi": riichi[seat],
            "win_value": win_value[seat],
            "deal_in_value": deal_in_value[seat],
            "exhaustive_draws": exhaustive_draws,
            "ready_at_draw": ready_at_draw[seat],
            "dealer_hands": dealer_hands[seat],
            "dealer_kept": dealer_kept[seat],
            "counters_won": counters_won[seat],
            "deposits_won": deposits_won[seat],
            "called": called[seat],
            "call_hands": call_hands,
        }
        for seat in range(n)
    )
    return MatchStats(
        key=key,
        players=tuple(players),
        finished=finished,
        places=tuple(places),
        final_points=tuple(final_points),
        net_scores=tuple(score - rules.start_score for score in final_scores),
        counts=counts,
        yaku=tuple(yaku),
    )


@attrs.frozen
class PlayerStats:
    """One player's figures over many matches: totals and the rates made of them."""

    player: str
    matches: int
    place_counts: tuple[int, ...]
    points: float
    net_score: int
    counts: dict[str, int]
    yaku: dict[str, int]

    @property
    def average_place(self) -> float:
        return (
            round(sum(p * c for p, c in enumerate(self.place_counts, start=1)) / self.matches, 2)
            if self.matches
            else 0.0
        )

    def rate(self, part: str, whole: str) -> float:
        """A share of two counts, 0 when there is nothing to share."""
        return round(self.counts[part] / self.counts[whole], 4) if self.counts[whole] else 0.0

    def average(self, total: str, count: str) -> float:
        """A total per count, to a tenth (0 when there is nothing to count)."""
        return round(self.counts[total] / self.counts[count], 1) if self.counts[count] else 0.0

    def figures(self) -> dict[str, Any]:
        """Every figure by name, for tables, files and pages."""
        place_rates = [round(c / self.matches, 4) if self.matches else 0.0 for c in self.place_counts]
        return {
            "player": self.player,
            "matches": self.matches,
            "place_counts": list(self.place_counts),
            "place_rates": place_rates,
            "average_place": self.average_place,
            "points": self.points,
            "net_score": self.net_score,
            **self.counts,
            "win_rate": self.rate("wins", "hands"),
            "self_drawn_share": self.rate("self_drawn", "wins"),
            "deal_in_rate": self.rate("deal_ins", "hands"),
            "riichi_rate": self.rate("riichi", "hands"),
            # Only over the hands whose calls a log showed; None (shown "—") when there were none.
            "call_rate": self.rate("called", "call_hands") if self.counts["call_hands"] else None,
            "average_win": self.average("win_value", "wins"),
            "average_deal_in": self.average("deal_in_value", "deal_ins"),
            "ready_at_draw_rate": self.rate("ready_at_draw", "exhaustive_draws"),
            "dealer_keep_rate": self.rate("dealer_kept", "dealer_hands"),
            "yaku": dict(sorted(self.yaku.items(), key=lambda item: (-item[1], item[0]))),
        }


def player_stats(
    matches: Iterable[MatchStats], player_of: Callable[[str], str] = lambda name: name, players: Sequence[str] = ()
) -> list[PlayerStats]:
    """Every player's figures over the finished matches (unfinished ones do not count yet),
    by name; ``player_of`` resolves aliases, ``players`` lists those with no match yet too."""
    places: dict[str, list[int]] = {p: [0, 0, 0, 0] for p in players}
    totals: dict[str, dict[str, int]] = {p: dict.fromkeys(COUNTS, 0) for p in players}
    yaku: dict[str, dict[str, int]] = {p: {} for p in players}
    points: dict[str, float] = dict.fromkeys(players, 0.0)
    net: dict[str, int] = dict.fromkeys(players, 0)
    matches_of: dict[str, int] = dict.fromkeys(players, 0)
    for match in matches:
        if not match.finished or not match.final_points:
            continue
        for seat, name in enumerate(match.players):
            player = player_of(name)
            if player not in totals:
                places[player], totals[player], yaku[player] = [0, 0, 0, 0], dict.fromkeys(COUNTS, 0), {}
                points[player], net[player], matches_of[player] = 0.0, 0, 0
            matches_of[player] += 1
            places[player][match.places[seat] - 1] += 1
            points[player] = round(points[player] + match.final_points[seat], 1)
            net[player] += match.net_scores[seat]
            for name_, value in match.counts[seat].items():
                totals[player][name_] = totals[player].get(name_, 0) + value
            for name_, value in match.yaku[seat].items():
                yaku[player][name_] = yaku[player].get(name_, 0) + value
    return [
        PlayerStats(p, matches_of[p], tuple(places[p]), points[p], net[p], totals[p], yaku[p]) for p in sorted(totals)
    ]
