"""The format of an event: its stages, how substitutes count, how teams are ranked.

A staged event is played in stages, each of one or more sessions, numbered on from one stage to
the next (a qualification of sessions 1 and 2, a semi-final in session 3, a final table in
session 4). After a stage the top ``advance`` players go on to the next one, which starts from
the points they had (``keep``), half of them (``halve``) or none (``reset``). How a stage's first
session is seated and how its later sessions are (``seating``, ``later``):

- ``draw``: at random, by a committed draw (``domain.draw``: nobody can rig it);
- ``rank``: by the standings before it, tables of consecutive ranks (table 1 seats ranks 1 to 4:
  a final table seats 1-4 by rank);
- ``snake``: by the standings before it, spread over the tables (ranks 1, 2, 3, 4 head tables
  1 to 4 of a 16-player semi-final, ranks 5 to 8 sit at them in reverse order, and so on);
- ``swiss``: progressive seating, players of similar standing together (as ``rank``);
- ``fewest-repeats``: as few pairs meeting again as can be found.

Substitutes stand in for a player who cannot play (EMA's rule as a preset, below). Their results
count as played, at a fixed number of points per match, or not at all; the others at their table
keep their own results as played.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import attrs

from domain.bounds import ADVANCE, NAME, SESSION, SUBSTITUTE_POINTS, OutOfBounds, shown, whole_number
from domain.errors import RuleViolation
from domain.said import Said, one_of

CARRIES = ("keep", "halve", "reset")
SEATINGS = ("draw", "rank", "snake", "swiss", "fewest-repeats")
SUBSTITUTE_COUNTS = ("as-played", "fixed", "not-counted")
TEAM_POINTS = ("sum", "average")


@attrs.frozen
class Stage:
    """One stage: its name, how many sessions it has, how many go on after it (None for the
    last), what of the points before it it starts from, and how its sessions are seated."""

    name: str
    sessions: int
    advance: int | None = None
    carry: str = "keep"
    seating: str = "draw"
    later: str = "swiss"


@attrs.frozen
class SubstituteRule:
    """How a substitute's results count: as played, at ``fixed_points`` a match, or not at all."""

    counts: str = "as-played"
    fixed_points: float = 0.0


# The EMA's rule as MahjongPantheon applies it (pantheon pull request #14, "Add replacement players
# custom logic", 2017): a substitute counts as if they had scored -15,000 and always takes an uma of
# -15,000, whatever they scored and wherever they placed: -30 points a match. The EMA's own rule
# text could not be found; docs/director.md says so.
EMA_SUBSTITUTE = SubstituteRule("fixed", -30.0)
SUBSTITUTE_PRESETS: dict[str, SubstituteRule] = {
    "ema": EMA_SUBSTITUTE,
    "as-played": SubstituteRule("as-played"),
    "not-counted": SubstituteRule("not-counted"),
}


@attrs.frozen
class EventFormat:
    """The stages of an event, how its substitutes count, how its teams are ranked and seated."""

    stages: tuple[Stage, ...]
    substitutes: SubstituteRule = SubstituteRule()
    team_points: str = "sum"
    keep_teams_apart: bool = False

    def check(self) -> EventFormat:
        """The format itself when it makes sense, else ``RuleViolation`` saying what does not."""
        if not self.stages:
            raise RuleViolation(Said("an event has at least one stage"))
        names = [s.name for s in self.stages]
        if len(set(names)) != len(names) or any(not n.strip() for n in names):
            raise RuleViolation(Said("each stage needs a name of its own"))
        for name in names:
            NAME.check(name, "stage name")
        previous: int | None = None
        for index, stage in enumerate(self.stages, start=1):
            if stage.sessions < 1:
                raise RuleViolation(Said("stage {stage}: at least one session", stage=repr(stage.name)))
            SESSION.check(stage.sessions, f"stage {stage.name!r}: sessions")
            if stage.carry not in CARRIES:
                raise RuleViolation(
                    Said(
                        "stage {stage}: carry is {choices}, not {value}",
                        stage=repr(stage.name),
                        choices=", ".join(CARRIES),
                        value=shown(stage.carry),
                    )
                )
            if index == 1 and stage.carry != "keep":
                raise RuleViolation(
                    Said("stage {stage} is the first: it has no points before it to carry", stage=repr(stage.name))
                )
            for seating in (stage.seating, stage.later):
                if seating not in SEATINGS:
                    raise RuleViolation(
                        Said(
                            "stage {stage}: seating is {choices}, not {value}",
                            stage=repr(stage.name),
                            choices=", ".join(SEATINGS),
                            value=shown(seating),
                        )
                    )
            last = index == len(self.stages)
            if last and stage.advance is not None:
                raise RuleViolation(Said("stage {stage} is the last: nobody advances after it", stage=repr(stage.name)))
            if not last and (stage.advance is None or stage.advance < 1):
                raise RuleViolation(
                    Said("stage {stage}: say how many advance to the next stage", stage=repr(stage.name))
                )
            if stage.advance is not None:
                ADVANCE.check(stage.advance, f"stage {stage.name!r}: advance")
            if previous is not None and stage.advance is not None and stage.advance >= previous:
                raise RuleViolation(
                    Said(
                        "stage {stage}: fewer advance from each stage than from the one before", stage=repr(stage.name)
                    )
                )
            previous = stage.advance if stage.advance is not None else previous
        total = sum(stage.sessions for stage in self.stages)
        if total > SESSION.high:
            raise OutOfBounds(
                Said("sessions"),
                Said("{total:,} in all, at most {most:,} (the last session's number)", total=total, most=SESSION.high),
            )
        if self.substitutes.counts not in SUBSTITUTE_COUNTS:
            raise RuleViolation(
                Said(
                    "substitutes count {choices}, not {value}",
                    choices=", ".join(SUBSTITUTE_COUNTS),
                    value=shown(self.substitutes.counts),
                )
            )
        fixed = self.substitutes.fixed_points
        low, high = SUBSTITUTE_POINTS.low, SUBSTITUTE_POINTS.high
        if not (isinstance(fixed, int | float) and math.isfinite(fixed) and low <= fixed <= high):
            raise OutOfBounds(
                SUBSTITUTE_POINTS.field,
                Said("{value} is out of range ({low:,} to {high:,})", value=shown(fixed), low=low, high=high),
            )
        if self.team_points not in TEAM_POINTS:
            raise RuleViolation(Said("team points are the {choices} of members' points", choices=one_of(TEAM_POINTS)))
        return self

    def to_data(self) -> dict[str, Any]:
        """The format as plain data (stored in ``Tournament.FormatDeclared``)."""
        return attrs.asdict(self, value_serializer=lambda _i, _f, v: list(v) if isinstance(v, tuple) else v)

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> EventFormat:
        """A format from its plain data."""
        return cls(
            stages=tuple(Stage(**dict(s)) for s in data.get("stages", ())),
            substitutes=SubstituteRule(**dict(data.get("substitutes", {}))),
            team_points=str(data.get("team_points", "sum")),
            keep_teams_apart=bool(data.get("keep_teams_apart", False)),
        )

    def first_session(self, stage: int) -> int:
        """The number of the first session of stage ``stage`` (1-based)."""
        return 1 + sum(s.sessions for s in self.stages[: stage - 1])

    def stage_of(self, session: int) -> int:
        """The stage (1-based) a session belongs to; sessions after the last stage's belong to it."""
        end = 0
        for index, stage in enumerate(self.stages, start=1):
            end += stage.sessions
            if session <= end:
                return index
        return len(self.stages)

    def sessions_of(self, stage: int) -> range:
        """The sessions of stage ``stage``."""
        first = self.first_session(stage)
        return range(first, first + self.stages[stage - 1].sessions)


# A tournament without a declared format is one stage of every session it has.
def single_stage(sessions: int) -> EventFormat:
    """The format of an event that is one stage of ``sessions`` sessions."""
    return EventFormat((Stage("tournament", max(sessions, 1)),))


def carried_tenths(tenths: int, carry: str) -> int:
    """The points (in tenths) a player starts the next stage from: kept, halved (to the tenth,
    a half tenth rounded away from zero: 12.3 -> 6.2, -12.3 -> -6.2) or reset."""
    if carry == "reset":
        return 0
    if carry == "halve":
        half = (abs(tenths) + 1) // 2
        return half if tenths >= 0 else -half
    return tenths


def parse_stage(text: str, *, first: bool = True) -> Stage:
    """A stage from its command-line form ``NAME:SESSIONS[:key=value,...]`` (keys ``advance``,
    ``carry``, ``seating``, ``later``), e.g. ``semi-final:1:advance=4,carry=halve,seating=snake``.
    The first stage is seated by a draw unless it says otherwise, the others by rank."""
    parts = text.split(":", 2)
    if len(parts) < 2 or not parts[0].strip() or not parts[1].strip():
        raise RuleViolation(Said("a stage is NAME:SESSIONS[:key=value,...], not {text}", text=shown(text)))
    name = NAME.check(parts[0].strip(), "stage name")
    # Numbers read by the one number reader (ASCII digits, a length cap) within their bounds.
    values: dict[str, Any] = {"name": name, "sessions": whole_number(parts[1], SESSION, f"stage {name!r}: sessions")}
    if not first:
        values["seating"] = "rank"
    for item in parts[2].split(",") if len(parts) == 3 and parts[2].strip() else []:
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not sep or key not in ("advance", "carry", "seating", "later"):
            raise RuleViolation(
                Said(
                    "stage {stage}: {item} is none of advance=, carry=, seating=, later=",
                    stage=repr(name),
                    item=shown(item),
                )
            )
        if key == "advance":
            values[key] = whole_number(value, ADVANCE, f"stage {name!r}: advance")
        else:
            values[key] = value
    return Stage(**values)
