"""The 32-player staged event of issue 27 and its hand calculation, shared by the command line's test
(test_staged_event.py) and the web's (test_staged_event_web.py): both play the same tables with the
same results, so one calculation checks both.

Two qualification sessions, a cut to 16 with points halved, a semi-final and a final table. Every
match is played under the WRC rules (30,000 start and return, uma +15/+5/-5/-15, no oka;
riichi.wiki World_Riichi_Championship_rules) the same way, with values of the WRC score table
chosen per table: the player in seat 1 rons seat 2 for ``V1``, then seat 3 rons seat 0 for
``V2 < V1`` (both non-dealer wins, no counters, no riichi), then the time limit. Final scores:
seat 0 30,000 - V2, seat 1 30,000 + V1, seat 2 30,000 - V1, seat 3 30,000 + V2; places 3, 1, 4, 2;
session points (score - 30,000) / 1,000 + uma: seat 1 +V1/1000 + 15, seat 3 +V2/1000 + 5, seat 0
-V2/1000 - 5, seat 2 -V1/1000 - 15. The tests add these up themselves and rank by the documented
chain (points, average place, first places, net score, name), halve the points at the cut to the
tenth (a half tenth away from zero), and seat each session as the format says: session 1 by the
draw's published recipe (docs/director.md), computed here with hashlib alone; session 2 by rank
(Swiss); the semi-final by snake; the final table 1-4 by rank.
"""

from __future__ import annotations

import hashlib
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

SEED = "5eed" * 16
PLAYERS = [f"P{n:02d}" for n in range(1, 33)]
# The format, a stage a line (the command line's --stage, the director page's format form).
STAGES = ["qualification:2:advance=16", "semi-final:1:advance=4,carry=halve,seating=snake", "final:1"]
# The values of the WRC score table played, as the entry's text says them.
VALUES = {1000: "1/30", 1300: "1/40", 2000: "2/30", 2600: "2/40", 3900: "3/30", 5200: "3/40", 8000: "mangan"}
VALUES |= {12000: "haneman", 16000: "baiman"}
# (V1, V2) per session and table.
PLAYED = {
    1: [
        (16000, 1000),
        (12000, 2000),
        (8000, 3900),
        (5200, 1300),
        (3900, 2600),
        (2600, 1000),
        (12000, 5200),
        (2000, 1300),
    ],
    2: [
        (8000, 1000),
        (16000, 3900),
        (2000, 1000),
        (12000, 2600),
        (5200, 2000),
        (3900, 1300),
        (8000, 5200),
        (2600, 2000),
    ],
    3: [(12000, 1000), (5200, 3900), (16000, 2600), (8000, 1300)],
    4: [(3900, 2000)],
}


class Line:
    """A player's totals in a stage, as the tests add them up."""

    def __init__(self, carried_tenths: int = 0) -> None:
        self.carried = carried_tenths
        self.tenths = carried_tenths
        self.matches = 0
        self.places = 0
        self.firsts = 0
        self.net = 0

    def add(self, tenths: int, place: int, net: int) -> None:
        self.tenths += tenths
        self.matches += 1
        self.places += place
        self.firsts += place == 1
        self.net += net


def seat_results(v1: int, v2: int) -> list[tuple[int, int, int]]:
    """(tenths of points, place, net score) by seat of a table played as the module says, by hand."""
    return [(-v2 // 100 - 50, 3, -v2), (v1 // 100 + 150, 1, v1), (-v1 // 100 - 150, 4, -v1), (v2 // 100 + 50, 2, v2)]


def credit(table: list[str], v1: int, v2: int, lines: dict[str, Line]) -> None:
    """Add a table's results, seat by seat, to its players' lines."""
    for seat, (tenths, place, net) in enumerate(seat_results(v1, v2)):
        lines[table[seat]].add(tenths, place, net)


def standing(line: Line) -> tuple[Any, ...]:
    """The documented chain, lower first: points, average place, first places, net score."""
    average = line.places / line.matches if line.matches else float("inf")
    return (line.matches == 0, -line.tenths, average, -line.firsts, -line.net)


def ranked(lines: dict[str, Line]) -> list[str]:
    """The players in order: by the chain, then by name."""
    return sorted(lines, key=lambda name: (*standing(lines[name]), name))


def ranks(lines: dict[str, Line]) -> dict[str, int]:
    """Each player's rank: players equal on the whole chain share one (the name only orders the list)."""
    return {p: 1 + sum(standing(q) < standing(line) for q in lines.values()) for p, line in lines.items()}


def drawn(seed: str, players: list[str]) -> list[list[str]]:
    """The draw's recipe as docs/director.md publishes it."""
    order = sorted(players)
    secret = bytes.fromhex(seed)
    for i in range(len(order) - 1, 0, -1):
        j = int.from_bytes(hashlib.sha256(secret + i.to_bytes(4, "big")).digest(), "big") % (i + 1)
        order[i], order[j] = order[j], order[i]
    return [order[i : i + 4] for i in range(0, len(order), 4)]


def by_rank(order: list[str]) -> list[list[str]]:
    """Tables of consecutive ranks (Swiss after one session; the final table 1-4)."""
    return [order[i : i + 4] for i in range(0, len(order), 4)]


def snake(top: list[str]) -> list[list[str]]:
    """Sixteen players by snake: table c seats ranks c, 7 - c, 8 + c and 15 - c (from 0)."""
    return [[top[c], top[7 - c], top[8 + c], top[15 - c]] for c in range(4)]


def halved(tenths: int) -> int:
    half = (Decimal(abs(tenths)) / 2).quantize(Decimal(1), rounding=ROUND_HALF_UP)
    return int(half) if tenths >= 0 else -int(half)
