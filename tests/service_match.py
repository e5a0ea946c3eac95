"""A match in a store in memory, entered through the service as every front end enters it.

The rule tests run here, at the service, in milliseconds: the text fields the web form and the JSON
API send (``docs/web.md``), read by ``replay.input`` and recorded by ``replay.service.recording.entry``, the
same use case ``honba win`` calls after reading its options. The command line keeps a test or a
few for what it adds (its options, its one-line refusal, its exit code): tests/e2e.

``win("Ben:2/30", discarder="Ann", facts=["first_turn"])`` is ``honba win t Ben:2/30 --from Ann
--first-turn``: each winner ``PLAYER:VALUE``, then the entry's fields by their names (the first
winner's; ``melded2`` and the like for the second).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from domain.errors import HonbaError
from replay.input.fields import entry_from_fields, refuse_unread, slot
from replay.service.common.rules import rules_for_start
from replay.service.recording.entry import apply_entry
from replay.service.recording.matches import match_status
from replay.service.recording.recording import Recorded, start_match
from replay.store.application import HonbaApp

PLAYERS = ("Ann", "Ben", "Cho", "Dai")


class ServiceMatch:
    """One match ``key`` in a store of its own in memory, started under a preset (and ``key=value``
    overrides, as ``honba start --set``)."""

    def __init__(
        self,
        app: HonbaApp,
        rules: str = "tenhou",
        *,
        players: Sequence[str] = PLAYERS,
        key: str = "t",
        overrides: Sequence[str] = (),
    ):
        self.app = app
        self.key = key
        ruleset = rules_for_start(rules, None, list(overrides))
        self.players = tuple(players[: ruleset.players])
        start_match(app, key, self.players, ruleset, {"format": "honba", "entered": "test"})

    def enter(self, fields: dict[str, Any]) -> Recorded:
        """Record the entry the text fields describe, as every front end does (a field the entry does
        not read fails the test: a misspelt one would be dropped, and the test would check less)."""
        all_read(fields)
        return apply_entry(self.app, self.key, entry_from_fields(fields), client_key=None)

    def win(self, *winners: str, **fields: Any) -> Recorded:
        """Record a win: each winner as ``PLAYER:VALUE``, then the entry's fields."""
        return self.enter(win_fields(winners, fields))

    def refused(self, *winners: str, **fields: Any) -> str:
        """The error a win is refused with (honba's own error, the line a front end shows), the match as
        it was: nothing recorded."""
        return self.refused_entry(win_fields(winners, fields))

    def refused_entry(self, fields: dict[str, Any]) -> str:
        """The error an entry (a draw, an abort, a penalty, ...) is refused with, nothing recorded."""
        all_read(fields)  # outside: a misspelt field is the test's error, not the refusal it looks for
        before = self.version()
        with pytest.raises(HonbaError) as refusal:
            self.enter(fields)
        assert self.version() == before
        text = str(refusal.value)
        assert "\n" not in text.strip(), text
        return text

    def version(self) -> int:
        """How many events the match holds."""
        version: int = self.app.get_match(self.key).version
        return version

    def status(self) -> dict[str, Any]:
        """The table now, as ``honba status --json`` gives it."""
        data: dict[str, Any] = match_status(self.app, self.key).data
        return data

    def scores(self) -> dict[str, int]:
        """Each player's score, as ``honba status --json`` gives them."""
        scores: dict[str, int] = self.status()["scores"]
        return scores


def win_fields(winners: Sequence[str], fields: dict[str, Any]) -> dict[str, Any]:
    """The text fields of a win: ``winner``/``value`` (``winner2``/``value2``, ...) from each
    ``PLAYER:VALUE``, then the fields given."""
    entry: dict[str, Any] = {"kind": "win"}
    for i, spec in enumerate(winners):
        name, value = spec.rsplit(":", 1)
        entry[f"winner{slot(i)}"], entry[f"value{slot(i)}"] = name, value
    return entry | fields


def all_read(fields: dict[str, Any]) -> None:
    """Every field given is one the entry reads (``replay.input.fields.refuse_unread``)."""
    kind = fields.get("kind")
    refuse_unread(fields, kind if isinstance(kind, str) else "")
