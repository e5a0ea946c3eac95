"""Named errors a referee can read: each says what rule a command broke."""

from __future__ import annotations

from collections.abc import Callable

from domain.said import Said


class HonbaError(Exception):
    """Base of every error honba raises on purpose; its message is for people.

    The message is plain English text, or words (``domain.said.Said``): its ``str()`` is the
    English all the same, and ``said`` keeps the words for a front end that speaks another language.
    """

    def __init__(self, *args: object) -> None:
        super().__init__(*(str(a) if isinstance(a, Said) else a for a in args))
        first = args[0] if args else ""
        self.said: Said | str = first if isinstance(first, Said) else str(self)


class RuleViolation(HonbaError):
    """A command that the rules or the table state do not allow; nothing was recorded."""


class InvalidHandValue(RuleViolation):
    """A hand value that cannot exist (e.g. 1 han 20 fu) or is unknown."""


class UnknownSeat(RuleViolation):
    """A seat or player that is not at this table."""


class WinnerIsDiscarder(RuleViolation):
    """A winner named as the discarder of their own winning tile."""


class WinnersOnSeveralDiscards(RuleViolation):
    """Several winners of one hand not all on one and the same discard (or one self-drawn)."""


class MatchAlreadyEnded(RuleViolation):
    """A result recorded after the match has ended."""


class PaymentsDoNotBalance(RuleViolation):
    """A hand whose payments between players do not sum to zero."""


class EntryRefused(RuleViolation):
    """A correction refused for what stands at entries of the match's log.

    The domain knows entries by their position in the aggregate; a user knows them by the
    number ``honba log`` and the record file give them. The message is given in pieces, text
    and positions (ints), so that the service layer, which holds that numbering, can name the
    entries its way (``renamed``); until then they read ``position 4``.
    """

    def __init__(self, *pieces: str | int) -> None:
        self.pieces = pieces
        super().__init__(self._text(lambda position: f"position {position}"))

    def _text(self, name: Callable[[int], str]) -> str:
        return "".join(name(piece) if isinstance(piece, int) else piece for piece in self.pieces)

    def renamed(self, name: Callable[[int], str]) -> RuleViolation:
        """The same refusal with each entry named by ``name(position)``."""
        return RuleViolation(self._text(name))


class DamagedFact(HonbaError):
    """A stored fact the table cannot hold (a seat it does not have): changed behind honba's back,
    since honba checks every fact against the table before it records it."""


class InvalidRules(HonbaError):
    """A rule file or override with an unknown key or a value out of range."""
