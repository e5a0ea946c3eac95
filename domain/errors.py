"""Named errors a referee can read: each says what rule a command broke."""

from __future__ import annotations

from collections.abc import Callable

from domain.said import Field, Said


class HonbaError(Exception):
    """Base of every error honba raises on purpose; its message is for people.

    The message is plain English text, or words (``domain.said.Said``): its ``str()`` is the
    English all the same, and ``said`` keeps the words for a front end that speaks another language.
    """

    def __init__(self, *args: object) -> None:
        super().__init__(*(str(a) if isinstance(a, Said) else a for a in args))
        first = args[0] if args else ""
        self.said: Said | str = first if isinstance(first, Said) else str(self)

    def __reduce__(self) -> tuple[Callable[..., HonbaError], tuple[type[HonbaError], tuple[object, ...]], object]:
        # An import's reading processes send their refusals back pickled. Python rebuilds an exception
        # by calling its class with ``args`` (the message), which fails for a refusal made of parts
        # (a field and a problem, a file and a line): rebuilt here without its ``__init__``, then given
        # its attributes (the field, the words) as they were. They are the pickle protocol's state
        # (``__getstate__``, set again by ``__setstate__``), not ``__dict__`` read and written directly:
        # compiled by mypyc, a refusal made without ``__init__`` has no ``__dict__`` to update until an
        # attribute is set, and its class's own attributes may be kept outside it.
        return (_rebuilt, (type(self), self.args), self.__getstate__())


def _rebuilt(kind: type[HonbaError], args: tuple[object, ...]) -> HonbaError:
    """A refusal as it was pickled (``HonbaError.__reduce__``), its attributes set after."""
    return kind.__new__(kind, *args)


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
    number ``honba log`` and the record file give them. The message is words (``Said``) whose
    entries are fields made by ``entry_at`` (a position), so that the service layer, which holds
    that numbering, can name the entries its way (``renamed``); until then they read ``position 4``.
    """

    def __init__(self, said: Said) -> None:
        super().__init__(said)

    def renamed(self, name: Callable[[int], str | Said]) -> RuleViolation:
        """The same refusal with each entry named by ``name(position)``."""
        said = self.said
        assert isinstance(said, Said)

        def change(value: Field) -> Field:
            if isinstance(value, Said) and value.template == _POSITION:
                position = dict(value.fields)["position"]
                assert isinstance(position, int)
                return name(position)
            return value

        return RuleViolation(said.mapped(change))


_POSITION = "position {position}"


def entry_at(position: int) -> Said:
    """The entry at ``position`` of the aggregate, as a field of an ``EntryRefused`` (``position 4``
    until the service names it by its number)."""
    return Said("position {position}", position=position)


class DamagedFact(HonbaError):
    """A stored fact the table cannot hold (a seat it does not have): changed behind honba's back,
    since honba checks every fact against the table before it records it."""


class InvalidRules(HonbaError):
    """A rule file or override with an unknown key or a value out of range."""
