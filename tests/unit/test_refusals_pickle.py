"""A refusal made in another process (an import's reading workers) arrives whole: its class, its
message, the parts a front end places it by, and its words for a page in another language."""

from __future__ import annotations

import pickle

import pytest

from domain.bounds import OutOfBounds
from domain.errors import HonbaError, RuleViolation
from domain.said import Said
from replay.formats.logmodel import LogError
from replay.input.entry import FieldError
from replay.input.files import FileTooLarge


def sent(error: HonbaError) -> HonbaError:
    received: HonbaError = pickle.loads(pickle.dumps(error))
    return received


@pytest.mark.parametrize(
    ("error", "parts"),
    [
        (FieldError("wins[0].han", "expected a whole number"), {"field": "wins[0].han"}),
        (
            LogError("game.mjlog:3", "no INIT before AGARI"),
            {"where": "game.mjlog:3", "message": "no INIT before AGARI"},
        ),
        (FileTooLarge("big.json", "over 64 MiB"), {"file": "big.json", "problem": "over 64 MiB"}),
        (OutOfBounds("han", "at most 130"), {"field": "han", "problem": "at most 130"}),
        (RuleViolation("seat 5 is not at the table"), {}),
    ],
    ids=["field", "log", "file", "bounds", "plain"],
)
def test_a_refusal_crosses_a_process_boundary_whole(error: HonbaError, parts: dict[str, str]) -> None:
    received = sent(error)
    assert type(received) is type(error)
    assert str(received) == str(error)
    assert {name: getattr(received, name) for name in parts} == parts


def test_a_refusal_in_words_keeps_its_words() -> None:
    words = Said("seat {seat} is not at the table", seat=5)
    received = sent(FieldError("riichi", words))
    assert isinstance(received, FieldError)
    assert isinstance(received.said, Said)
    assert received.said == words
    assert (received.field, str(received)) == ("riichi", "seat 5 is not at the table")
