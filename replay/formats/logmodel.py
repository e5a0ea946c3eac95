"""What every log importer produces: a game as domain facts plus what the log recorded.

An importer only *translates*: it turns a foreign log (Tenhou mjlog XML,
tenhou.net/6 JSON, mjai) into domain hand results (``domain.values``) and keeps,
beside each, what the log itself recorded (the hand's header and its score
changes) so that ``replay.verify`` can compare the log with what honba computes.
No importer computes a payment.
"""

from __future__ import annotations

import attrs

from domain.errors import HonbaError
from domain.rules import Ruleset
from domain.values import HandResult


class LogError(HonbaError):
    """A log that cannot be read; ``where`` names the file and position."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


@attrs.frozen
class LoggedHand:
    """One hand as the log recorded it.

    The header (``round_wind`` 0 = East, ``hand_number`` from 1, ``dealer`` seat,
    ``counters``, ``deposit_sticks`` on the table, ``scores`` at the start) is
    what the log's server computed before the hand; ``deltas`` is each seat's
    net score change over the hand as the log recorded it, riichi sticks placed
    in the hand included (so start + deltas = next start). ``None`` where the log
    does not say. ``position`` names where the hand is in the file (``line 12``,
    ``log[3]``).
    """

    position: str
    round_wind: int
    hand_number: int
    dealer: int
    counters: int
    deposit_sticks: int
    scores: tuple[int, ...]
    result: HandResult | None
    deltas: tuple[int, ...] | None = None
    value_source: str = "log"  # where the hand value came from: log, tiles, payment


@attrs.frozen
class LoggedGame:
    """One game of a log file: players, rules, hands, and the recorded end.

    ``unsupported`` is the reason when the game is under rules honba does not
    score (the game is then reported, not verified). ``final_scores`` and
    ``final_points`` are the log's own end result, when it has one. ``length_known`` is
    False when the log does not say whether the game was east-only or a hanchan.
    """

    file: str
    game_id: str
    format: str
    players: tuple[str, ...]
    rules: Ruleset
    hands: tuple[LoggedHand, ...]
    final_scores: tuple[int, ...] | None = None
    final_points: tuple[float, ...] | None = None
    unsupported: str | None = None
    truncated: bool = False
    # False when the log does not say how long the game was (mjai, some converted logs): the
    # rules then run the longest plausible length, and the end of the match is not judged.
    length_known: bool = True
