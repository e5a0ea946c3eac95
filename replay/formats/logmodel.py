"""What every log importer produces: a game as domain facts plus what the log recorded.

An importer only *translates*: it turns a foreign log (Tenhou mjlog XML,
tenhou.net/6 JSON, mjai) into domain hand results (``domain.values``) and keeps,
beside each, what the log itself recorded (the hand's header and its score
changes) so that ``replay.service.imports.verify`` can compare the log with what honba computes.
No importer computes a payment.
"""

from __future__ import annotations

from typing import Any

import attrs

from domain.errors import HonbaError
from domain.rules import Ruleset
from domain.values import HandResult, TableState


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
    # Where the hand's result is written, when that is not ``position`` (an mjai hand starts at its
    # start_kyoku line, its win is many lines below): an error about the result names it.
    result_position: str | None = None
    # The hand's tiles as tenhou.net/6 writes them (its arrays 2 to 15: dora indicators, ura
    # indicators, then each seat's haipai, draws and discards), where the log has them: kept
    # with an imported match (its ``source``) so that an export gives them back. Never scored.
    tiles: tuple[Any, ...] | None = attrs.field(default=None, eq=False)

    def table(self, rules: Ruleset) -> TableState:
        """The table as the hand's header shows it (the sticks on it counted in the rules' deposit)."""
        return TableState(
            players=rules.players,
            scores=self.scores,
            round_wind=self.round_wind,
            hand_number=self.hand_number,
            dealer=self.dealer,
            counters=self.counters,
            deposits=self.deposit_sticks * rules.riichi_deposit,
        )


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
    # What the verifier should say about the rules chosen (a date between two known rule
    # points, rules the log does not state), one sentence each.
    notes: tuple[str, ...] = ()
    # False when the rules that turn final scores into points are not known for this game
    # (a date between two known points, a room whose rules the log does not state): the
    # final points are then not compared.
    points_judged: bool = True
    # False when the log does not state the rules at all (a Mahjong Soul friendly or
    # tournament room): the hands are checked, the end of the match and the final points
    # are not, unless rules are given (``honba verify --rules``).
    rules_stated: bool = True
    # False when ``game_id`` is not the log's own (Tenhou's log id, a converter's ref) but made
    # from the file's name: an import then keys the game by the file's content as well, so that
    # files of the same name in two folders never share a key.
    id_in_log: bool = True


# A target no table reaches (every table's points add up to far less): under ``played_to_log_end``
# the match never ends after its last scheduled hand on its own.
UNREACHABLE_TARGET = 1_000_000


def played_to_log_end(rules: Ruleset) -> Ruleset:
    """The rules a game whose log does not state them is replayed under: its payments, but no end
    of its own (no bust, no stop of the last dealer on top, no end at a target after the last
    hand), so that every logged hand is replayed and the log's end is where the match ends.

    Tournament and friendly rooms play on below zero and past the last dealer on top, and which
    of them a room plays is what its log does not say: ending where some room's rules would
    end would drop the rest of the log unseen.
    """
    return rules.with_overrides(
        {
            "bust": False,
            "dealer_stop_on_win": False,
            "dealer_stop_on_ready": False,
            "extension_winds": 3,
            "extension_sudden_death": False,
            "target_score": UNREACHABLE_TARGET,
        }
    )


def distinct_names(names: list[str], players: int) -> tuple[str, ...]:
    """The log's player names for ``players`` seats, made distinct and non-empty.

    A match needs distinct, non-empty names: an empty or repeated one becomes the name
    with its seat, e.g. ``seat (2)``.
    """
    seen: set[str] = set()
    out: list[str] = []
    for seat, name in enumerate((names + [""] * 4)[:players]):
        if not name.strip() or name in seen:
            name = f"{name or 'seat'} ({seat})"
        seen.add(name)
        out.append(name)
    return tuple(out)
