"""Which rules a Tenhou game was played under: the room type, and the rules Tenhou had on its date.

Tenhou changed some rules over the years without a trace in the GO type. honba
picks them from when the log was written, never from how the game being checked
turned out, so that ``verify`` can still disagree with a log. A log is dated by
its id (``2019103023gm-...``: the day and the hour, taken as Japan time), or failing
that by traces of its format whose era is known (the wall seed in ``INIT``; ``owari``
points written as whole numbers, with a decimal, or with a tenth that is not zero).
Each change is known only between two points, to the hour where the logs give it:
the last log seen under the old rule and the first seen under the new. A log dated
between them (or not dated closely enough) is played under the rule named in
``CHANGES`` as assumed, and the verifier says so (``TenhouRules.notes``); a change
that touches only the final points is then not judged at all.

Sources (``docs/replay.md`` lists them too, with the logs that fix each boundary):

- East-only uma 10/5 -> 20/10: logs' own ``owari``; 10/5 in terralian/fastmaj's test logs
  up to ``2009073112gm-0061-0000-cad1a977`` (2009-07-31 12:00; the corpus's ``shuffle.xml``
  and ``bye.xml`` of 2009 too), 20/10 from ``2009082713gm-00e1-0000-8820f355`` (2009-08-27
  13:00; the corpus's ``2009100718gm-00e1`` of the Ledenel tests).
- The ready-hand stop ("tenpai-yame") of the last dealer: announced on Tenhou's blog
  (blog.tenhou.net/article/38215017.html, posted 2010-05-18) for June 2010; terralian/fastmaj's
  ``TenhouRuleTimelineHandler`` switches at 2010-06-01 07:00, and its test log
  ``2010060106gm-00a9-0000-30d6de3b`` (06:00 that day) plays South 4 on twice with the ready
  dealer on top. Before, only a win ended the game ("agari-yame"): the corpus's ``bug1.xml``
  (early 2009) plays on.
- Final points in tenths: whole numbers (rounded to the thousand) in logs through 2022-01-13,
  tenths by 2022-01-31 (the real logs of issue 23; the latest whole-number log at hand is
  fastmaj's ``2021100323gm-00a9-0000-d0ac1302``, the earliest in tenths the corpus's
  ``2023053016gm-0029``; riichi.wiki "Tenhou.net rules"; mjx ``_to_final_score``). Final
  points with a tenth that is not zero date a log to the tenths era.
- ``owari`` points written with one decimal ("-33.0") from between 2009-10-07 18:00 (the
  corpus's ``2009100718gm-00e1`` still writes whole numbers) and 2010-03-04 12:00 (fastmaj's
  ``2010030412gm-00e1-0000-4a275c59`` writes decimals).
- The wall seed in ``INIT`` (``shuffle=``) until July 2009, before the ``SHUFFLE`` tag: last
  seen in fastmaj's ``2009071823gm-0041-0000-ff3a2214`` (2009-07-18 23:00), the tag first
  seen in ``2009072917gm-0061-0000-85a7478c`` (2009-07-29 17:00).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Any, Final

import attrs

from domain.rules import Ruleset, load_preset

HOUR: Final = timedelta(hours=1)


def _hour(moment: datetime) -> str:
    if moment.year < 1000:
        return moment.strftime("%Y-%m-%d %H:00")  # (its year unpadded, as strftime writes it)
    # Every log's date names its hour: formatted without strftime's call into the C library.
    return f"{moment.year}-{moment.month:02d}-{moment.day:02d} {moment.hour:02d}:00"


@attrs.frozen
class Dating:
    """When a log was written, as closely as it says: an hour, a window of hours, or nothing.

    ``earliest`` and ``latest`` are whole hours (Japan time), both included. ``after`` names
    changes of ``CHANGES`` that the log's own numbers show it came after (final points in
    tenths), whatever the window.
    """

    earliest: datetime | None = None
    latest: datetime | None = None
    how: str = "no date"
    after: tuple[str, ...] = ()

    @classmethod
    def on(cls, day: date) -> Dating:
        """A log known to be of that day, at an hour not known."""
        return cls(
            datetime(day.year, day.month, day.day),
            datetime(day.year, day.month, day.day, 23),
            f"dated {day.isoformat()}",
        )

    @classmethod
    def at(cls, hour: datetime) -> Dating:
        """A log whose id gives its day and hour."""
        return cls(hour, hour, f"dated {_hour(hour)}")


@attrs.frozen
class RuleChange:
    """One change of Tenhou's rules, known between the last log under the old rule and the first
    under the new (hours, Japan time, both included)."""

    what: str
    old_last_seen: datetime
    new_first_seen: datetime
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


# The wall seed in INIT dates a log to before the first log seen with the SHUFFLE tag.
WALL_SEED_LATEST: Final = datetime(2009, 7, 29, 17) - HOUR
# Final points written as whole numbers ("-33", not "-33.0") date a log to before the first
# log seen writing decimals.
WHOLE_POINTS_LATEST: Final = datetime(2010, 3, 4, 12) - HOUR
# Written with a decimal: after the last whole-number log seen.
DECIMAL_POINTS_EARLIEST: Final = datetime(2009, 10, 7, 18) + HOUR

ROUNDING: Final = "final points rounding"

CHANGES: Final = (
    RuleChange(
        what="east-only uma",
        old_last_seen=datetime(2009, 7, 31, 12),
        new_first_seen=datetime(2009, 8, 27, 13),
        old={"uma": [10, 5, -5, -10]},
        new={},
        old_words="uma 10/5",
        new_words="uma 20/10",
        source=(
            "logs' own owari: 10/5 in fastmaj's 2009073112gm-0061-0000-cad1a977, 20/10 in "
            "2009082713gm-00e1-0000-8820f355"
        ),
        points_only=True,
        room=(4, True),
    ),
    RuleChange(
        what="the last dealer's ready-hand stop",
        old_last_seen=datetime(2010, 6, 1, 6),
        new_first_seen=datetime(2010, 6, 1, 7),
        old={"dealer_stop_on_ready": False},
        new={},
        old_words="no ready-hand stop",
        new_words="ready-hand stop",
        source=(
            "blog.tenhou.net/article/38215017.html (from June 2010); fastmaj switches at 2010-06-01 07:00 and its "
            "2010060106gm-00a9-0000-30d6de3b plays on"
        ),
    ),
    RuleChange(
        what=ROUNDING,
        old_last_seen=datetime(2022, 1, 13, 23),
        new_first_seen=datetime(2022, 1, 31, 0),
        old={},
        new={"points_rounding": "none"},
        old_words="points rounded to the thousand",
        new_words="points in tenths",
        source="logs: whole numbers through 2022-01-13, tenths by 2022-01-31 (issue 23; riichi.wiki Tenhou.net rules)",
        points_only=True,
    ),
)
# The day after the last whole-number log: final points in tenths date a log from then on.
TENTHS_EARLIEST: Final = datetime(2022, 1, 14)


@attrs.frozen
class TenhouRules:
    """The rules of a Tenhou room as of a log's dating, and what could not be placed."""

    rules: Ruleset
    notes: tuple[str, ...] = ()
    # False when a change that touches only the final points cannot be placed: they are not judged.
    points_judged: bool = True


_LOG_TIME = re.compile(r"(?<!\d)(\d{4})(\d{2})(\d{2})(\d{2})gm-")


def log_time(log_id: str) -> datetime | None:
    """The hour a Tenhou game was played (Japan time), from its log id (``2019103023gm-...``)."""
    found = _LOG_TIME.search(log_id)
    if found is None:
        return None
    try:
        year, month, day, hour = (int(found.group(n)) for n in range(1, 5))
        return datetime(year, month, day, hour)
    except ValueError:
        return None


def dating(played: datetime | None, *, wall_seed_in_init: bool = False, points_format: str | None = None) -> Dating:
    """How closely a log is dated: by its id's hour, else by traces of its format.

    ``wall_seed_in_init``: the log writes ``shuffle=`` into INIT (Tenhou's format until July
    2009). ``points_format``: how the final points are written, ``"whole"`` ("-33"),
    ``"decimal"`` ("-33.0"), or ``"tenths"`` (a tenth that is not zero, "63.8": only Tenhou's
    points in tenths have one); None when the log has no final points.
    """
    if played is not None:
        return Dating.at(played)
    if wall_seed_in_init:
        return Dating(None, WALL_SEED_LATEST, "no date; the wall seed in INIT dates it before 2009-07-29 17:00")
    if points_format == "whole":
        return Dating(
            None, WHOLE_POINTS_LATEST, "no date; final points as whole numbers date it before 2010-03-04 12:00"
        )
    if points_format == "tenths":
        return Dating(
            TENTHS_EARLIEST,
            None,
            "no date; final points with a tenth that is not zero date it after 2022-01-13",
            after=(ROUNDING,),
        )
    if points_format == "decimal":
        return Dating(
            DECIMAL_POINTS_EARLIEST, None, "no date; final points with a decimal date it after 2009-10-07 18:00"
        )
    return Dating()


def points_format(points: list[str]) -> str | None:
    """How a log writes its final points (``owari``'s text, or the numbers of a JSON ``sc``):
    ``"tenths"`` when one has a tenth that is not zero, ``"decimal"`` when every one has a
    decimal point, ``"whole"`` otherwise; None without final points."""
    if not points:
        return None
    if any(_tenth(p) for p in points):
        return "tenths"
    return "decimal" if all("." in p for p in points) else "whole"


def _tenth(text: str) -> bool:
    fraction = text.strip().partition(".")[2]
    return bool(fraction.strip("0"))


def rules_for(players: int, east_only: bool, when: Dating, *, final_points: bool = True) -> TenhouRules:
    """The preset for the room (three or four players, east-only or hanchan) as Tenhou had it then.

    For each change of ``CHANGES`` that concerns the room: the new rule when the log's own
    numbers show it came after the change (``Dating.after``); the old rule when the log is
    from no later than the last hour the old rule was seen, the new one when it is from no
    earlier than the first hour the new was seen; otherwise the new rule is assumed (a
    change of the final points alone is then not judged), and a note says so. A log
    without ``final_points`` gets no note about changes of the final points alone.
    """
    placed = tuple([_placed(change, when) for change in CHANGES])
    room = _room_rules(players, east_only, placed, final_points)
    rules = room.rules
    if room.words:
        # The description names the log's own dating (an hour, for most logs): the one part of
        # the rules made per log, a copy of the room's rules with it (``_described``).
        description = f"{rules.description} ({', '.join(room.words)}; {when.how})"
        rules = _described(players, east_only, placed, final_points, description)
    notes = tuple(
        f"{change.what}: {when.how}, between {change.old_words} (last seen {_hour(change.old_last_seen)}) "
        f"and {change.new_words} (first seen {_hour(change.new_first_seen)}); {outcome}"
        for change, outcome in room.open_changes
    )
    return TenhouRules(rules, notes, room.points_judged)


def _placed(change: RuleChange, when: Dating) -> str:
    """Where a log's dating puts it against a change: ``after`` it by the log's own numbers,
    under the ``old`` or the ``new`` rule by its hours, or ``open`` between the two."""
    if change.what in when.after:
        return "after"
    if when.latest is not None and when.latest <= change.old_last_seen:
        return "old"
    if when.earliest is not None and when.earliest >= change.new_first_seen:
        return "new"
    return "open"


# The room's rules named with a log's dating (``Ruleset.described``), kept by that description:
# logs of the same room and hour (half of an archive's, as tenhou-wire-2018's 633 logs show 325
# descriptions) share one copy instead of each making its own. Rules are frozen, so one copy serves
# every log it names.
@functools.lru_cache(maxsize=1024)
def _described(players: int, east_only: bool, placed: tuple[str, ...], final_points: bool, description: str) -> Ruleset:
    return _room_rules(players, east_only, placed, final_points).rules.described(description, source="overrides")


@attrs.frozen
class _RoomRules:
    """A room's rules as placed against every change, before the log's own dating is named: the
    rules (the preset's description), the words the description adds, the changes left open with
    what follows from each, and whether the final points are judged."""

    rules: Ruleset
    words: tuple[str, ...]
    open_changes: tuple[tuple[RuleChange, str], ...]
    points_judged: bool


# A room's rules depend on the room and on where the log's dating falls against each change
# (``_placed``), never on the hour itself: a bulk import or verify of logs each dated by its hour
# builds them (a preset with overrides, checked: a tenth of reading a log) once per room and era,
# not once per hour as a cache keyed on the dating did. The arguments are few and frozen.
@functools.lru_cache(maxsize=256)
def _room_rules(players: int, east_only: bool, placed: tuple[str, ...], final_points: bool) -> _RoomRules:
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
    open_changes: list[tuple[RuleChange, str]] = []
    judged = True
    for change, where in zip(CHANGES, placed, strict=True):
        if not change.concerns(players, east_only):
            continue
        if where == "old":
            changes.update(change.old)
            words.append(change.old_words)
            continue
        changes.update(change.new)
        if where != "open":
            if change.new:
                words.append(change.new_words)
            continue
        if change.points_only and not final_points:
            continue
        judged = judged and not change.points_only
        open_changes.append(
            (change, "final points not judged" if change.points_only else f"{change.new_words} assumed")
        )
    if changes:
        rules = rules.with_overrides(changes)
    return _RoomRules(rules, tuple(words), tuple(open_changes), judged)
