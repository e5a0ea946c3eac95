"""What the tests of the service's words share (tests/service/test_said*.py): the club match's key
and players, saying words in Japanese, and an entry as a table phone sends it."""

from __future__ import annotations

from domain.said import Listed, Said
from replay.input.fields import entry_from_fields
from replay.service.recording.entry import apply_entry
from replay.store.application import HonbaApp
from replay.web.i18n import say

# The match of ``club_app`` (tests/conftest.py): Ann, Ben, Cho, Dai under Tenhou's rules.
KEY = "club-1"
PLAYERS = ("Ann", "Ben", "Cho", "Dai")


def ja(value: Said | Listed | str) -> str:
    """Words as a Japanese page says them."""
    return say(value, "ja")


def enter(app: HonbaApp, **fields: object) -> None:
    """An entry sent as a table phone sends it (its form's fields), recorded on the club match."""
    apply_entry(app, KEY, entry_from_fields(fields), client_key=None, by="table 1")
