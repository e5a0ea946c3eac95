"""What a check of a stored match, a tournament, the store chain or a record file found."""

from __future__ import annotations

from typing import Any

import attrs

from domain.integrity import ChainProblem, check_published


@attrs.frozen
class MatchCheck:
    """The integrity of one stored match, or of one record file."""

    name: str
    events: int
    head: str
    problems: tuple[ChainProblem, ...]
    sealed: bool = True
    # The digest of every event (or line), in order, for ``--against``; and what a check adds in words.
    digests: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    noun: str = "event"

    @property
    def intact(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        """Plain data for ``--json``."""
        return {
            "name": self.name,
            "events": self.events,
            "head": self.head,
            "intact": self.intact,
            "sealed": self.sealed,
            # The English of each detail (words where a page says them): the JSON for tools.
            "problems": [{"position": p.position, "kind": p.kind, "detail": str(p.detail)} for p in self.problems],
            "notes": list(self.notes),
        }

    def against(self, published: str) -> MatchCheck:
        """This check with a head digest published earlier compared (``--against``)."""
        problem, note = check_published(self.digests, published, noun=self.noun)
        if problem is None:
            return attrs.evolve(self, notes=(*self.notes, note))
        return attrs.evolve(self, problems=(*self.problems, problem))
