"""Which rules a Tenhou game was played under: the room type, and the rules Tenhou had on its date.

Tenhou changed some rules over the years without a trace in the GO type. honba
picks them from when the log was written, never from how the game being checked
turned out, so that ``verify`` can still disagree with a log. A log is dated by
its id (``2019103023gm-...``, taken as Japan time), or failing that by traces of
its format whose era is known (the wall seed in ``INIT``; ``owari`` points
written as whole numbers). Each change is known only between two points: the
last log seen under the old rule and the first seen under the new. A log dated
between them (or not dated closely enough) is played under the rule named in
``CHANGES`` as assumed, and the verifier says so (``TenhouRules.notes``); a
change that touches only the final points is then not judged at all.

Sources (``docs/replay.md`` lists them too):

- East-only uma 10/5 -> 20/10: logs' own ``owari``; 10/5 in games of 2009-07-31
  and earlier (types 0x41, 0x61 of terralian/fastmaj's test resources; the corpus's
  ``shuffle.xml`` and ``bye.xml`` of 2009), 20/10 from 2009-08-27 (type 0xE1; the
  corpus's ``2009100718gm-00e1`` of the Ledenel tests).
- The ready-hand stop ("tenpai-yame") of the last dealer: announced on Tenhou's blog
  (blog.tenhou.net/article/38215017.html, posted 2010-05-18) for June 2010;
  terralian/fastmaj's ``TenhouRuleTimelineHandler`` switches on 2010-06-01. Before, only a
  win ended the game ("agari-yame"): the corpus's ``bug1.xml`` (early 2009) plays on.
- Final points in tenths: whole numbers (rounded to the thousand) in logs up to October
  2021 (the corpus's hidacow ``2021010217gm-00b9``, real logs of October 2021 reported in
  the tracker's issue 13; riichi.wiki "Tenhou.net rules"; mjx ``_to_final_score``),
  tenths by June 2022 (logs reported in issue 13; the corpus's ``2023053016gm-0029``).
- ``owari`` points written with one decimal ("-33.0") from between 2009-10 and 2010-03-04
  (the corpus's ``2009100718gm-00e1`` still writes whole numbers; fastmaj and mjx logs of
  2010-03-04 on write decimals): a log writing whole numbers is from before 2010-03-04.
- The wall seed in ``INIT`` (``shuffle=``) until mid-2009, before the ``SHUFFLE`` tag
  (last seen 2009-06-18, ``bye.xml``; the SHUFFLE tag is in logs of late July 2009).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from datetime import date
from typing import Any, Final

import attrs

from domain.rules import Ruleset, load_preset


@attrs.frozen
class Dating:
    """When a log was written, as closely as it says: a day, a window, or nothing."""

    earliest: date | None = None
    latest: date | None = None
    how: str = "no date"

    @classmethod
    def on(cls, day: date) -> Dating:
        """A log whose id gives its day."""
        return cls(day, day, f"dated {day.isoformat()}")


@attrs.frozen
class RuleChange:
    """One change of Tenhou's rules, known between the last log under the old rule and the first under the new."""

    what: str
    old_last_seen: date
    new_first_seen: date
    old: Mapping[str, Any]
    new: Mapping[str, Any]
    old_words: str
    new_words: str
    source: str
    # Whether the change touches only the final points (then, when it cannot be placed, they are not judged).
    points_only: bool = False
    # Which rooms it concerns: None for all, else (players, east_only).
    room: tuple[int, bool] | None = None

    def concerns(self, players: int, east_only: bool) -> bool:
        """Whether the change applies to this room."""
        return self.room is None or self.room == (players, east_only)


# The wall seed in INIT dates a log to before the SHUFFLE tag (late July 2009).
WALL_SEED_LATEST: Final = date(2009, 7, 31)
# Final points written as whole numbers ("-33", not "-33.0") date a log to before 2010-03-04.
WHOLE_POINTS_LATEST: Final = date(2010, 3, 3)
# Written with a decimal: after the last whole-number log seen (2009-10-07).
DECIMAL_POINTS_EARLIEST: Final = date(2009, 10, 8)

CHANGES: Final = (
    RuleChange(
        what="east-only uma",
        old_last_seen=date(2009, 7, 31),
        new_first_seen=date(2009, 8, 27),
        old={"uma": [10, 5, -5, -10]},
        new={},
        old_words="uma 10/5",
        new_words="uma 20/10",
        source="logs' own owari: 10/5 up to 2009-07-31, 20/10 from 2009-08-27 (terralian/fastmaj test logs)",
        points_only=True,
        room=(4, True),
    ),
    RuleChange(
        what="the last dealer's ready-hand stop",
        old_last_seen=date(2010, 5, 31),
        new_first_seen=date(2010, 6, 2),
        old={"dealer_stop_on_ready": False},
        new={},
        old_words="no ready-hand stop",
        new_words="ready-hand stop",
        source="blog.tenhou.net/article/38215017.html (from June 2010); fastmaj switches on 2010-06-01",
    ),
    RuleChange(
        what="final points rounding",
        old_last_seen=date(2021, 10, 1),
        new_first_seen=date(2022, 6, 30),
        old={},
        new={"points_rounding": "none"},
        old_words="points rounded to the thousand",
        new_words="points in tenths",
        source="logs: whole numbers in October 2021, tenths by June 2022 (issue 13; riichi.wiki Tenhou.net rules)",
        points_only=True,
    ),
)


@attrs.frozen
class TenhouRules:
    """The rules of a Tenhou room as of a log's dating, and what could not be placed."""

    rules: Ruleset
    notes: tuple[str, ...] = ()
    # False when a change that touches only the final points cannot be placed: they are not judged.
    points_judged: bool = True


_DATE = re.compile(r"(?<!\d)(\d{4})(\d{2})(\d{2})\d{2}gm-")


def log_date(log_id: str) -> date | None:
    """The day a Tenhou game was played, from its log id (``2019103023gm-...``)."""
    found = _DATE.search(log_id)
    if found is None:
        return None
    try:
        return date(int(found.group(1)), int(found.group(2)), int(found.group(3)))
    except ValueError:
        return None


def dating(played: date | None, *, wall_seed_in_init: bool = False, points_format: str | None = None) -> Dating:
    """How closely a log is dated: by its id's day, else by traces of its format.

    ``wall_seed_in_init``: the log writes ``shuffle=`` into INIT (Tenhou's format until
    mid-2009). ``points_format``: how ``owari`` writes points, ``"whole"`` ("-33") or
    ``"decimal"`` ("-33.0"); None when the log has no final points.
    """
    if played is not None:
        return Dating.on(played)
    if wall_seed_in_init:
        return Dating(None, WALL_SEED_LATEST, "no date; the wall seed in INIT dates it before August 2009")
    if points_format == "whole":
        return Dating(None, WHOLE_POINTS_LATEST, "no date; final points as whole numbers date it before 2010-03-04")
    if points_format == "decimal":
        return Dating(DECIMAL_POINTS_EARLIEST, None, "no date; final points with a decimal date it after 2009-10-07")
    return Dating()


# The same room and dating give the same rules: a bulk import or verify asks for them for every
# log, and building them (a preset with overrides, checked) was a tenth of reading a log. The
# arguments are frozen values; the cache is bounded (a log's dating is a day: a few per archive).
@functools.lru_cache(maxsize=1024)
def rules_for(players: int, east_only: bool, when: Dating, *, final_points: bool = True) -> TenhouRules:
    """The preset for the room (three or four players, east-only or hanchan) as Tenhou had it then.

    For each change of ``CHANGES`` that concerns the room: the old rule when the log is
    from no later than the last day the old rule was seen, the new one when it is from no
    earlier than the first day the new was seen; otherwise the new rule is assumed (a
    change of the final points alone is then not judged), and a note says so. A log
    without ``final_points`` gets no note about changes of the final points alone.
    """
    if players == 3:
        rules = load_preset("tenhou-sanma")
        if east_only:
            rules = rules.with_overrides(
                {"name": "tenhou-sanma-east", "description": "Tenhou three-player east-only game", "length": "east"}
            )
    else:
        rules = load_preset("tenhou-east" if east_only else "tenhou")
    changes: dict[str, Any] = {}
    words: list[str] = []
    notes: list[str] = []
    judged = True
    for change in CHANGES:
        if not change.concerns(players, east_only):
            continue
        if when.latest is not None and when.latest <= change.old_last_seen:
            changes.update(change.old)
            words.append(change.old_words)
        elif when.earliest is not None and when.earliest >= change.new_first_seen:
            changes.update(change.new)
            if change.new:
                words.append(change.new_words)
        else:
            changes.update(change.new)
            if change.points_only and not final_points:
                continue
            judged = judged and not change.points_only
            outcome = "final points not judged" if change.points_only else f"{change.new_words} assumed"
            notes.append(
                f"{change.what}: {when.how}, between {change.old_words} (last seen {change.old_last_seen.isoformat()}) "
                f"and {change.new_words} (first seen {change.new_first_seen.isoformat()}); {outcome}"
            )
    if words:
        changes["description"] = f"{rules.description} ({', '.join(words)}; {when.how})"
    if changes:
        rules = rules.with_overrides(changes)
    return TenhouRules(rules, tuple(notes), judged)
