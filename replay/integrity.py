"""``honba check``: is every stored match (or exported file) the history honba recorded?

The store is read row by row, below the application, so that events changed
behind honba's back are seen as they are stored: each event's digest, the
digest it names as its predecessor, and the seal saved with the match.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from uuid import UUID

import attrs

from domain.integrity import GENESIS, ChainProblem, Link, check_chain, digest_of, event_digest
from domain.match import Match
from replay.app import HonbaApp


@attrs.frozen
class MatchCheck:
    """The integrity of one stored match, or of one record file."""

    name: str
    events: int
    head: str
    problems: tuple[ChainProblem, ...]
    sealed: bool = True

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
            "problems": [attrs.asdict(p) for p in self.problems],
        }


def _match_ids(app: HonbaApp) -> Iterator[tuple[UUID, str]]:
    """Every match id in the store with its key, read from the rows that start matches."""
    start = 1
    topic = f"{Match.Started.__module__}:{Match.Started.__qualname__}"
    while True:
        batch = app.recorder.select_notifications(start=start, limit=500, topics=[topic])
        if not batch:
            return
        for row in batch:
            try:
                key = str(json.loads(row.state).get("key", "?"))
            except (ValueError, UnicodeDecodeError, AttributeError):
                key = "?"
            yield UUID(str(row.originator_id)), key
        start = batch[-1].id + 1


def check_match(app: HonbaApp, match_id: UUID, key: str) -> MatchCheck:
    """Check one stored match's chain and seal."""
    links: list[Link] = []
    problems: list[ChainProblem] = []
    for stored in app.recorder.select_events(match_id):
        try:
            event = app.mapper.to_domain_event(stored)
            links.append(Link(stored.originator_version, event_digest(event), str(getattr(event, "prior", ""))))
        except Exception as exc:  # a row that no longer decodes is altered, whatever broke in decoding
            problems.append(ChainProblem(stored.originator_version, "altered", f"cannot be read: {exc}"))
            links.append(Link(stored.originator_version, f"unreadable-{stored.originator_version}", "?"))
    seal = app.seal_of(match_id)
    sealed = None if seal is None else (seal.position, seal.head)
    problems += check_chain(links, sealed=sealed)
    if seal is None:
        problems.append(ChainProblem(0, "unsealed", "no seal was saved with this match"))
    head = links[-1].digest if links else GENESIS
    return MatchCheck(key, len(links), head, tuple(_unique(problems)), sealed=seal is not None)


def check_store(app: HonbaApp) -> list[MatchCheck]:
    """Check every match in the store."""
    return [check_match(app, match_id, key) for match_id, key in _match_ids(app)]


def line_links(lines: list[dict[str, Any]]) -> list[Link]:
    """The chain links of a record file's lines (the seal line excluded)."""
    return [Link(i, digest_of(line), str(line.get("prior", ""))) for i, line in enumerate(lines, start=1)]


def check_record_text(text: str, *, name: str) -> MatchCheck:
    """Check an exported record file's chain: every line names the digest of the line before,
    and the last line seals the count and the head digest."""
    lines: list[dict[str, Any]] = []
    problems: list[ChainProblem] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            problems.append(ChainProblem(number, "altered", f"line {number} is not JSON ({exc.msg})"))
            continue
        if isinstance(data, dict):
            lines.append(data)
    seal = lines.pop() if lines and lines[-1].get("type") == "seal" else None
    chained = any("prior" in line for line in lines)
    if not chained and seal is None:
        return MatchCheck(name, len(lines), GENESIS, tuple(problems), sealed=False)
    links = line_links(lines)
    sealed = None
    if seal is None:
        problems.append(ChainProblem(len(lines) + 1, "unsealed", "the seal line at the end is missing"))
    else:
        sealed = (int(seal.get("lines", 0)), str(seal.get("head", "")))
    problems += check_chain(links, sealed=sealed)
    head = links[-1].digest if links else GENESIS
    return MatchCheck(name, len(lines), head, tuple(_unique(problems)), sealed=seal is not None)


def _unique(problems: list[ChainProblem]) -> list[ChainProblem]:
    seen: set[tuple[int, str]] = set()
    out = []
    for p in sorted(problems, key=lambda p: p.position):
        if (p.position, p.kind) not in seen:
            seen.add((p.position, p.kind))
            out.append(p)
    return out
