"""Turn a logged game into a Match: the same commands a person recording it would give."""

from __future__ import annotations

from typing import Any

from domain.errors import HonbaError
from domain.match import Match
from domain.values import TableState
from replay.formats.logmodel import LogError, LoggedGame


def opening_for(game: LoggedGame) -> TableState | None:
    """None for a game logged from East 1 at the start score; else the table of its first header."""
    first = game.hands[0]
    rules = game.rules
    header = (first.round_wind, first.hand_number, first.dealer, first.counters, first.deposit_sticks)
    if header == (0, 1, 0, 0, 0) and all(s == rules.start_score for s in first.scores):
        return None
    return first.table(rules)


def source_of(game: LoggedGame) -> dict[str, Any]:
    """Where a match came from: format, log id, file; and, when the log has them, each hand's tiles
    (``tiles``: per hand in the log's order, its tenhou.net/6 tile arrays or null), which
    ``honba export --format tenhou-json`` gives back."""
    source: dict[str, Any] = {"format": game.format, "log_id": game.game_id, "file": game.file}
    if any(hand.tiles is not None for hand in game.hands):
        source["tiles"] = [list(hand.tiles) if hand.tiles is not None else None for hand in game.hands]
    return source


def match_from_log(game: LoggedGame) -> Match:
    """A Match holding every result of the game, built in memory (nothing stored).

    Raises the domain's error when the match cannot start, and a ``LogError`` naming the
    file, the hand's position in it and the rule broken when a result is refused; the
    caller stores nothing then.
    """
    if not game.hands:
        raise LogError(game.file, f"game {game.game_id}: no hand in it, nothing to store")
    match = Match.start(game.game_id, game.players, game.rules, source_of(game), opening_for(game))
    for hand in game.hands:
        # The table once per hand; the hand's label only for a refusal (a frozen table: what it was
        # before the result, whatever ``record`` did before refusing it).
        state = match.state
        if hand.result is None or state.finished:
            break
        try:
            match.record(hand.result)
        except HonbaError as exc:
            where = hand.result_position or hand.position
            raise LogError(f"{game.file}, {where}", f"game {game.game_id}, hand {state.hand_label}: {exc}") from None
    return match
