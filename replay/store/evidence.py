"""What the store's own evidence says of each stream: the checkpoints' leaves, and the store chain's
links of a store written before checkpoints (kept and still checked).

Each records (position, head digest) of a match's or tournament's save (the single digest of a
game identity or an imported file's record): ``against_evidence`` compares them with the stream's
stored events, naming a rollback (a recorded position no longer stored) and a change (a recorded
position stored with another head).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from uuid import UUID

import attrs

from domain.integrity import ChainProblem
from domain.said import Said
from replay.store.chain import StoreLinks, read_store_chain
from replay.store.checkpoint import Checkpoints, read_checkpoints
from replay.store.findings import MatchCheck
from replay.store.rows import Reader

# One record of a save: its position, its head digest, and what recorded it ("checkpoint 3", as words).
Saved = tuple[int, str, Said]


@attrs.frozen
class Evidence:
    """The store chain (of a store written before checkpoints) and the checkpoints, as read and checked."""

    chain: StoreLinks
    checkpoints: Checkpoints

    def saved(self, stream: UUID) -> list[Saved]:
        """Every (position, head, by whom) recorded of a stream, oldest first."""
        found: list[Saved] = [
            (position, head, Said("the store chain")) for position, head in self.chain.streams.get(stream, ())
        ]
        found += [
            (position, head, Said("checkpoint {number}", number=number))
            for position, head, number in self.checkpoints.streams.get(stream, ())
        ]
        return found

    @property
    def streams(self) -> set[UUID]:
        """Every stream the evidence records."""
        return set(self.chain.streams) | set(self.checkpoints.streams)

    @property
    def check(self) -> MatchCheck:
        """The checkpoints' own check, with the store chain's problems and digests before theirs (a
        store head published before checkpoints is one of the chain's links)."""
        own = self.checkpoints.check
        if not self.chain.check.events:
            return own
        chain = self.chain.check
        problems = tuple(
            attrs.evolve(
                p,
                detail=Said(
                    "the store chain (before checkpoints), link {position}: {detail}",
                    position=p.position,
                    detail=p.detail,
                ),
            )
            for p in chain.problems
        )
        notes = (
            *own.notes,
            f"the store chain written before checkpoints: {chain.events} link{'' if chain.events == 1 else 's'}",
        )
        return attrs.evolve(
            own,
            head=own.head or chain.head,
            problems=(*problems, *own.problems),
            digests=(*chain.digests, *own.digests),
            notes=notes,
        )


def read_evidence(reader: Reader) -> Evidence:
    """Read and check the store chain and every checkpoint."""
    return Evidence(read_store_chain(reader), read_checkpoints(reader))


def against_evidence(
    saved: Sequence[Saved], heads: Mapping[int, str], last: int, noun: str
) -> tuple[list[ChainProblem], tuple[int, str] | None]:
    """What the evidence recorded of one stream says of its stored events (``heads``: each stored
    position's head digest; ``last``: the last stored position): every recorded position must be
    stored with the head recorded. Returns the problems and, when the stored events agree with the
    last record and end there, that record (position, head).

    Events saved after the last record are covered by nothing yet (the next checkpoint covers
    them): they are not a problem here; the seal and the published head digest answer for them.
    """
    problems: list[ChainProblem] = []
    # The stream's events are the only ones compared here: "event", in words.
    word = Said("event") if noun == "event" else Said("{noun}", noun=noun)
    rolled_back = [(p, h, who) for p, h, who in saved if p > last]
    if rolled_back:
        position, head, who = max(rolled_back)
        detail = Said(
            "{who} records {noun} {position} (head {head}) but the stored {noun}s end at {last}: "
            "the last were removed (rolled back)",
            who=who,
            noun=word,
            position=position,
            head=head[:16],
            last=last,
        )
        problems.append(ChainProblem(last + 1, "deleted", detail))
    for position, head, who in saved:
        if position <= last and heads.get(position) != head:
            detail = Said(
                "{noun} {position} no longer matches what {who} recorded when it was saved",
                noun=word,
                position=position,
                who=who,
            )
            problems.append(ChainProblem(position, "altered", detail))
    latest = max(((p, h) for p, h, _who in saved), default=None)
    if latest is not None and not problems and latest[0] == last:
        return problems, latest
    return problems, None
