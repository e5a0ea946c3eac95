"""Fresh games from another engine (riichienv), not in the corpus: a greedy player for each seat
and the game's mjai log. Shared by tests/service/test_mjai.py and benchmarks/verify.py (which
puts this folder on its path); callers import riichienv's absence as they see fit."""

from __future__ import annotations

import json
import random
from typing import Any

# The most steps a game takes (a hanchan is a few thousand): a player that never ends one fails.
MOST_STEPS = 50_000


def choose(observation: Any, rng: random.Random, three: bool) -> Any:
    """A greedy player: win when it can, riichi when it can, sometimes call, else throw the tile
    that keeps the hand's shanten lowest."""
    import riichienv

    kinds = riichienv.ActionType
    legal = observation.legal_actions()
    for kind in (kinds.Ron, kinds.Tsumo, kinds.Riichi, kinds.Kita):
        for action in legal:
            if action.action_type == kind:
                return action
    calls = [a for a in legal if a.action_type in (kinds.Pon, kinds.Chi, kinds.Ankan, kinds.Kakan, kinds.Daiminkan)]
    if calls and rng.random() < 0.08:
        return rng.choice(calls)
    discards = [a for a in legal if a.action_type == kinds.Discard]
    if discards:
        shanten = riichienv.calculate_shanten_3p if three else riichienv.calculate_shanten
        scored = []
        for action in discards:
            hand = list(observation.hand)
            if action.tile in hand:
                hand.remove(action.tile)
            scored.append((shanten(hand), rng.random(), action))
        return min(scored, key=lambda s: (s[0], s[1]))[2]
    passes = [a for a in legal if a.action_type == kinds.Pass]
    return passes[0] if passes else rng.choice(legal)


def riichienv_game(mode: str, seed: int) -> bytes:
    """One game of riichienv's ``mode`` (``4p-red-half``, ``3p-red-east``, ...) under Tenhou's rules,
    played by ``choose`` from ``seed``: its mjai log, a JSON line an event."""
    import riichienv

    env = riichienv.RiichiEnv(game_mode=mode, seed=seed, rule=riichienv.GameRule.default_tenhou())
    observations = env.reset()
    rng = random.Random(seed)
    three = mode.startswith("3p")
    for _ in range(MOST_STEPS):
        if env.done():
            break
        observations = env.step({p: choose(o, rng, three) for p, o in observations.items()})
    if not env.done():
        raise RuntimeError(f"riichienv game {mode} {seed} did not end in {MOST_STEPS} steps")
    return "\n".join(json.dumps(e) for e in env.mjai_log).encode()
