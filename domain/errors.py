"""Named errors a referee can read: each says what rule a command broke."""

from __future__ import annotations


class HonbaError(Exception):
    """Base of every error honba raises on purpose; its message is for people."""


class RuleViolation(HonbaError):
    """A command that the rules or the table state do not allow; nothing was recorded."""


class InvalidHandValue(RuleViolation):
    """A hand value that cannot exist (e.g. 1 han 20 fu) or is unknown."""


class UnknownSeat(RuleViolation):
    """A seat or player that is not at this table."""


class WinnerIsDiscarder(RuleViolation):
    """A winner named as the discarder of their own winning tile."""


class MatchAlreadyEnded(RuleViolation):
    """A result recorded after the match has ended."""


class PaymentsDoNotBalance(RuleViolation):
    """A hand whose payments between players do not sum to zero."""


class InvalidRules(HonbaError):
    """A rule file or override with an unknown key or a value out of range."""
