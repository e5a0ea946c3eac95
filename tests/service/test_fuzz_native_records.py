"""Bad input for the Riichi City and Mahjong Soul readers and the deal check: records with a field
replaced by a value of another type or an absurd one, or protobuf bytes corrupted. Whatever comes
in, the answer is a normal result or a ``HonbaError`` naming the file, never another exception.
The examples are fixed (one seed), a few hundred of each."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from test_mahjongsoul_records import game_record
from test_riichi_city import four_player_game, three_player_game

from domain.errors import HonbaError
from replay.formats.detect import read_deals, read_games
from replay.service.imports.deal import check_deal
from replay.service.imports.verify import verify_game

ODD_VALUES: list[Any] = [None, "x", -1, 10**12, [], {}, True, 0, 1.5, '{"a": 1}']


def leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        return [p for key, item in value.items() for p in leaves(item, (*path, key))]
    if isinstance(value, list):
        return [p for index, item in enumerate(value) for p in leaves(item, (*path, index))]
    return [path]


def mutated_record(document: dict[str, Any], rng: random.Random) -> bytes:
    """The record with one value replaced: a field of an event's data (its JSON string) or any other."""
    path = rng.choice(leaves(document))
    holder: Any = document
    for key in path[:-1]:
        holder = holder[key]
    odd = rng.choice(ODD_VALUES)
    text = holder[path[-1]]
    if isinstance(text, str) and text.startswith("{") and rng.random() < 0.7:
        data = json.loads(text)
        if data:
            data[rng.choice(list(data))] = odd
            holder[path[-1]] = json.dumps(data)
            return json.dumps(document).encode()
    holder[path[-1]] = odd
    return json.dumps(document).encode()


def read_everything(data: bytes) -> None:
    try:
        for game in read_games(data, file="rec.json", tiles=True):
            verify_game(game)
        for deal in read_deals(data, file="rec.json"):
            check_deal(deal)
    except HonbaError as exc:
        assert str(exc).startswith("rec.json"), str(exc)


@pytest.mark.parametrize("players", [4, 3])
def test_riichi_city_records_with_odd_values(players: int) -> None:
    rng = random.Random(34 + players)
    base = (four_player_game() if players == 4 else three_player_game()).document()
    for _ in range(400):
        read_everything(mutated_record(json.loads(json.dumps(base)), rng))


def test_mahjong_soul_records_with_corrupted_bytes() -> None:
    rng = random.Random(34)
    base = game_record().SerializeToString()
    for _ in range(400):
        corrupted = bytearray(base)
        for _ in range(rng.randint(1, 4)):
            corrupted[rng.randrange(len(corrupted))] = rng.randrange(256)
        read_everything(bytes(corrupted))
        read_everything(bytes(corrupted[: rng.randrange(len(corrupted))]))
