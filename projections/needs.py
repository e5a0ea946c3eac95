"""What each player needs: before the last session of a stage (or a final table), the placements
and point margins with which they finish in the top N; at a final table in progress, the hands
that would do it now.

**Before the last session.** A player's total after it is their points now (``P``) plus the
session's points (``f``: the score against the return, uma and oka of their place, as the rules
say). Player i ends ahead of player j exactly when ``f_i - f_j > P_j - P_i`` (on equality the
tie-break chain decides). For each place k that i may take at their table:

- a rival at i's table who takes place l: ``f_i - f_j`` is the score difference (in thousands)
  plus the difference of the two places' uma and oka, and the score difference is at least 0
  when i places above j, at most 0 below. So i stays ahead of j for sure (``behind``) when i is
  above j and the places' uma alone covers the gap; j stays ahead for sure (``ahead``) when j is
  above i and the uma does not cover it; else i needs a score margin over j (``score_margin``:
  finish more than that many points above j; negative: no more than that below j), exact where
  the rules do not round scores (WRC, EMA) and to the rounding otherwise;
- a rival at another table, or one who does not play, can end ahead or behind whatever i does:
  i needs more than ``P_j - P_i`` session points more than them (``points_margin``).

A place is ``certain`` when, however the rivals at i's table are placed, fewer than N players can
end ahead of i; ``impossible`` when, however they are placed, at least N end ahead for sure;
else ``possible``, and i must end ahead of enough of the rivals named (``beat_at_least``). The
scores are not bounded (a score may go below zero), so a rival at another table is never ahead
or behind for sure.

**Tables that have ended.** The standings are those of now: a table of the last session that
has ended is counted in them, and each of its players has the one place they took, settled
against everyone whose session is over (the standings order them) and open to those still playing
(any of them may pass); once every table has ended, the answer is the standings after the session.
Players who cannot take a place in the top N (who withdrew, substitutes, at a cut) are no rivals.
Players whose session is over and who are equal on the whole tie-break chain (a shared rank) across
the line are ``tied`` at the cut, neither ``certain``: at most N players are ever certain of N
places; the note says how the tie goes (by name, as the standings and the recorded cut order
them, unless the director decides otherwise).

**At a final table in progress.** For each player and each way the next hand may be won (their
self-drawn win, or a win on each other player's discard), the least riichi hand value (from 1 han
30 fu to a yakuman) that puts them in the top N if the match ended after that hand.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection, Mapping, Sequence

import attrs

from domain.errors import HonbaError
from domain.progression import end_match, evolve
from domain.rules import Ruleset
from domain.values import HandValue, MatchEnd, TableState, Win, WinResult
from projections.standings import StandingRow, Totals, rank, summarize


@attrs.frozen
class RivalCondition:
    """What player i needs against one rival at a given place: ``relation`` is ``behind`` (the rival
    ends behind for sure), ``ahead`` (ahead for sure) or ``margin``; ``rival_place`` is the rival's
    place at i's table (0: another table, or not playing)."""

    rival: str
    rival_place: int
    relation: str
    points_margin: float
    score_margin: int | None = None


@attrs.frozen
class PlaceNeed:
    """What placing ``place`` at their table means for a player: ``certain``, ``possible`` or
    ``impossible`` to finish in the top N, or ``tied`` at the cut (their session over, equal with
    others on the whole tie-break chain across the line), and what against whom."""

    place: int
    status: str
    beat_at_least: int
    conditions: tuple[RivalCondition, ...]
    # For ``tied``: who they are tied with at the cut and how the tie is resolved.
    note: str = ""


@attrs.frozen
class PlayerNeed:
    """A player's needs: their rank and points now, their table, and each place's need."""

    player: str
    # None for a player without a finished match yet (no rank before one).
    rank: int | None
    points: float
    table: int
    places: tuple[PlaceNeed, ...]


def place_bonus(rules: Ruleset, place: int) -> float:
    """The uma (and oka, to the top) of a place, in points, as the rules' fixed uma gives it."""
    return rules.uma[place - 1] + (rules.oka / 1000 if place == 1 else 0.0)


def session_needs(
    standings: Sequence[StandingRow],
    tables: Sequence[Sequence[str]],
    rules: Ruleset,
    top: int,
    *,
    ended: Mapping[str, int] | None = None,
    out: Collection[str] = (),
) -> tuple[PlayerNeed, ...]:
    """Each seated player's needs in the last session (the module's docstring).

    ``standings``: as they stand now, the tables of the session that have ended counted in them;
    ``ended``: the place each player at such a table took (their session is played: their one
    place is settled against those who no longer play, and open to those who still do);
    ``out``: players who cannot take a place in the top N (who withdrew, substitutes, where the
    top N go on to another stage): no rival to anyone, every place impossible for them."""
    ended = ended or {}
    points = {row.player: round(row.points * 10) for row in standings if row.player not in out}
    ranks = {row.player: row.rank for row in standings}
    table_of = {p: t for t, table in enumerate(tables, start=1) for p in table}
    playing = [p for p in table_of if p not in ended and p not in out]
    size = rules.players
    needs = []
    # Those without a rank yet (no finished match) after every ranked player.
    order = {p: math.inf if r is None else r for p, r in ranks.items()}
    for player, table_no in sorted(table_of.items(), key=lambda item: (order.get(item[0], 0), item[0])):
        if player in out or player in ended:
            settled = _settled(player, ended.get(player), size, order, points, playing, top, out)
            needs.append(PlayerNeed(player, ranks.get(player), _points_of(standings, player), table_no, settled))
            continue
        mates = [p for p in tables[table_no - 1] if p != player and p not in out]
        others = [p for p in points if p != player and p not in mates]
        places = []
        for k in range(1, size + 1):
            conditions: list[RivalCondition] = []
            for rival in others:
                gap = (points[rival] - points.get(player, 0)) / 10
                conditions.append(RivalCondition(rival, 0, "margin", gap))
            # Per rival at the table, per place it may take.
            by_mate: dict[str, dict[int, RivalCondition]] = {}
            for mate in mates:
                gap = (points.get(mate, 0) - points.get(player, 0)) / 10
                for place in (p for p in range(1, size + 1) if p != k):
                    uma = place_bonus(rules, k) - place_bonus(rules, place)
                    needed = round((gap - uma) * 1000)
                    if k < place and needed < 0:
                        relation = "behind"
                    elif k > place and needed >= 0:
                        relation = "ahead"
                    else:
                        relation = "margin"
                    by_mate.setdefault(mate, {})[place] = RivalCondition(mate, place, relation, gap, needed)
            # However the others at the table are placed: the most and fewest who can or must end ahead.
            free = [p for p in range(1, size + 1) if p != k]
            most, fewest = 0, len(mates)
            for assignment in itertools.permutations(free, len(mates)):
                chosen = [by_mate[m][p] for m, p in zip(mates, assignment, strict=True)]
                most = max(most, sum(1 for c in chosen if c.relation != "behind"))
                fewest = min(fewest, sum(1 for c in chosen if c.relation == "ahead"))
            can_pass = most + len(others)
            if can_pass < top:
                status = "certain"
            elif fewest >= top:
                status = "impossible"
            else:
                status = "possible"
            for mate in mates:
                conditions.extend(by_mate[mate][p] for p in sorted(by_mate[mate]))
            places.append(PlaceNeed(k, status, max(0, can_pass - (top - 1)), tuple(conditions)))
        needs.append(PlayerNeed(player, ranks.get(player), points.get(player, 0) / 10, table_no, tuple(places)))
    return tuple(needs)


def _points_of(standings: Sequence[StandingRow], player: str) -> float:
    return next((row.points for row in standings if row.player == player), 0.0)


def _settled(
    player: str,
    place: int | None,
    size: int,
    order: Mapping[str, float],
    points: Mapping[str, int],
    playing: Sequence[str],
    top: int,
    out: Collection[str],
) -> tuple[PlaceNeed, ...]:
    """The place a player whose session is over took (every place for one who is ``out``): where
    they finish is settled against everyone else whose session is over (the standings order them
    now) and open to those still playing (whose scores are not bounded: any of them may pass)."""
    places = range(1, size + 1) if place is None else (place,)
    if player in out:
        return tuple(PlaceNeed(k, "impossible", 0, ()) for k in places)
    mine = order.get(player, math.inf)
    over = [p for p in points if p != player and p not in playing]
    ahead = sum(1 for p in over if order.get(p, math.inf) < mine)
    # Equal on the whole chain (a shared rank): either may end above the other, so neither is
    # certain while the line falls among them (at most N certain for N places).
    tied = sorted(p for p in over if order.get(p, math.inf) == mine and mine != math.inf)
    can_pass = ahead + len(tied) + sum(1 for p in playing if p != player)
    note = ""
    if can_pass < top:
        status = "certain"
    elif ahead >= top:
        status = "impossible"
    elif not playing and tied:
        status = "tied"
        first = sorted([player, *tied])
        note = (
            f"tied at the cut with {', '.join(tied)} on the whole tie-break chain: the standings, and the cut"
            f" recorded from them, go on by name ({', '.join(first)}) unless the director decides otherwise"
        )
    else:
        status = "possible"
    return tuple(PlaceNeed(k, status, max(0, can_pass - (top - 1)), (), note) for k in places)


# Riichi hand values from the smallest up, by what a non-dealer's ron is paid (1,000 to 32,000).
LADDER: tuple[HandValue, ...] = (
    HandValue(han=1, fu=30),
    HandValue(han=1, fu=40),
    HandValue(han=1, fu=50),
    HandValue(han=2, fu=30),
    HandValue(han=2, fu=40),
    HandValue(han=2, fu=50),
    HandValue(han=3, fu=30),
    HandValue(han=3, fu=40),
    HandValue(han=3, fu=50),
    HandValue(han=3, fu=60),
    HandValue(limit="mangan"),
    HandValue(limit="haneman"),
    HandValue(limit="baiman"),
    HandValue(limit="sanbaiman"),
    HandValue(limit="yakuman"),
)


@attrs.frozen
class HandNeed:
    """The least hand that puts a player in the top N now: by self-draw (``discarder`` None) or on
    a discard; ``value`` None when no hand on the ladder does."""

    player: str
    discarder: str | None
    value: str | None


def describe_value(value: HandValue) -> str:
    """A ladder value as it is typed (``3/30``, ``mangan``)."""
    return str(value.limit) if value.limit else f"{value.han}/{value.fu}"


def hand_needs(
    key: str,
    players: Sequence[str],
    rules: Ruleset,
    state: TableState,
    before: Mapping[str, Totals],
    top: int,
) -> tuple[HandNeed, ...]:
    """For each player at a table in progress, the least hand (by self-draw or on each other
    player's discard) after which they would be in the top N if the match ended there.

    ``before``: the totals of every player the target ranks, without this match."""
    needs = []
    for seat, player in enumerate(players):
        for discarder in [None, *(s for s in range(len(players)) if s != seat)]:
            found = None
            for value in LADDER:
                try:
                    after, _payments = evolve(
                        state, rules, WinResult(wins=(Win(winner=seat, value=value, discarder=discarder),))
                    )
                except HonbaError:  # a value these rules do not score: the next one
                    continue
                ended = end_match(after, rules, MatchEnd("agreed"))
                summary = summarize(key, players, rules, ended, ())
                totals = dict(before)
                for other_seat, name in enumerate(players):
                    totals[name] = totals.get(name, Totals()).add(summary, other_seat)
                rows = rank(totals)
                now = next(r.rank for r in rows if r.player == player)
                if now is not None and now <= top:
                    found = describe_value(value)
                    break
            needs.append(HandNeed(player, None if discarder is None else players[discarder], found))
    return tuple(needs)
