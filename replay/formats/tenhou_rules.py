"""Which rules a Tenhou game was played under: the room type, and the date Tenhou's rules had then.

Tenhou changed some rules over the years without a trace in the GO type. honba
picks them from the log's date (its id starts ``YYYYMMDDHH``), never from how the
game it is checking turned out, so that ``verify`` can still disagree. Each
boundary below is the last date seen under the old rule in the corpus; what
happened between that and the first log seen under the new rule is not known,
and a log from that gap may be reported as a disagreement.
"""

from __future__ import annotations

import re
from datetime import date

from domain.rules import Ruleset, load_preset

# Early 2009, when Tenhou wrote the wall seed into each INIT (``shuffle=``; the SHUFFLE tag
# replaced it by October 2009): four-player east-only games paid uma 10/5 (shuffle.xml of
# 2009-03-17, bye.xml of 2009-06-18; 20/10 from 2009-10-07, a type 225 game of the
# Ledenel tests), and the dealer of the last hand did not stop when ready and top
# (bug1.xml of 2009-02-20 plays on; the 2018 games of tenhou-wire stop, as the rules page
# says). The last log seen with that wall format is of 2009-06-18.
EARLY_2009_UNTIL = date(2009, 6, 18)
# Final points rounded to the thousand up to 2021-01-02 (the hidacow three-player game
# 2021010217gm-00b9; type 41 rooms too, example.xml of 2016); kept with tenths in 2023
# (2023053016gm-0029: 63.8, -23.9, ...).
ROUNDED_POINTS_UNTIL = date(2021, 1, 2)

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


def tenhou_rules(players: int, east_only: bool, played: date | None, *, early_wall_format: bool = False) -> Ruleset:
    """The preset for the room (three or four players, east-only or hanchan) as of that date.

    ``early_wall_format`` says the log writes the wall seed into INIT, as Tenhou did
    until mid-2009: it dates a log whose id is unknown. Without either, the current
    rules are used.
    """
    if players == 3:
        rules = load_preset("tenhou-sanma")
        if east_only:
            rules = rules.with_overrides(
                {"name": "tenhou-sanma-east", "description": "Tenhou three-player east-only game", "length": "east"}
            )
    else:
        rules = load_preset("tenhou-east" if east_only else "tenhou")
    early = early_wall_format or (played is not None and played <= EARLY_2009_UNTIL)
    changes: dict[str, object] = {}
    notes: list[str] = []
    if early:
        changes["dealer_stop_on_ready"] = False
        notes.append("no ready-hand stop")
        if players == 4 and east_only:
            changes["uma"] = [10, 5, -5, -10]
            notes.append("uma 10/5")
    if played is not None and played > ROUNDED_POINTS_UNTIL:
        changes["points_rounding"] = "none"
        notes.append("points in tenths")
    if not changes:
        return rules
    when = played.isoformat() if played is not None else "early 2009"
    changes["description"] = f"{rules.description} ({', '.join(notes)}, as Tenhou played in {when})"
    return rules.with_overrides(changes)
