"""Reading what a person types on the command line: hand values, players, rule overrides."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from domain.errors import HonbaError
from domain.values import LIMIT_NAMES, HandValue

_HAN_FU = re.compile(r"^\s*(\d+)\s*(?:han|h)?\s*(?:/|\s+|,)?\s*(\d+)\s*(?:fu|f)\s*$|^\s*(\d+)\s*/\s*(\d+)\s*$")
_HAN_ONLY = re.compile(r"^\s*(\d+)\s*han\s*$")
_YAKUMAN = re.compile(r"^\s*(?:(\d+)\s*[x*]?\s*yakuman|yakuman\s*[x*]\s*(\d+))\s*$")


class InputError(HonbaError):
    """Something typed on the command line that honba cannot read."""


_FAAN = re.compile(r"^\s*(\d+)\s*(?:faan|fan|tai)\s*$")
_POINTS = re.compile(r"^\s*(\d+)\s*(?:points|pts|p)(?:\s*(?:[x*/,+]|\s)\s*(\d+)\s*(?:doubles|dbl|d))?\s*$")
_DOUBLES = re.compile(r"^\s*(\d+)\s*(?:doubles|dbl)\s*$")


def parse_value(text: str) -> HandValue:
    """A hand value in the unit of its rules.

    Riichi: ``3/30``, ``3han30fu``, ``30fu 3han``, ``6han``, ``mangan``, ``2xyakuman``.
    Faan (Hong Kong) or tai: ``4faan``. Points and doubles (classical rules): ``120points``,
    ``40pts x 3dbl`` (40 basic points doubled three times), ``3doubles``; ``limit`` for a limit hand.
    """
    lowered = text.strip().lower()
    if lowered in LIMIT_NAMES:
        return HandValue(limit=lowered)  # type: ignore[arg-type]
    if lowered == "limit":
        return HandValue(limit="mangan")
    match = _FAAN.match(lowered)
    if match:
        return HandValue(faan=int(match.group(1)))
    match = _POINTS.match(lowered)
    if match:
        doubles = None if match.group(2) is None else int(match.group(2))
        return HandValue(points=int(match.group(1)), doubles=doubles)
    match = _DOUBLES.match(lowered)
    if match:
        return HandValue(doubles=int(match.group(1)))
    match = _YAKUMAN.match(lowered)
    if match:
        multiple = int(match.group(1) or match.group(2))
        return HandValue(limit="yakuman", multiple=multiple)
    match = _HAN_ONLY.match(lowered)
    if match:
        return HandValue(han=int(match.group(1)))
    match = re.match(r"^\s*(\d+)\s*fu\s*(\d+)\s*han\s*$", lowered)
    if match:
        return HandValue(han=int(match.group(2)), fu=int(match.group(1)))
    match = _HAN_FU.match(lowered)
    if match:
        han = match.group(1) or match.group(3)
        fu = match.group(2) or match.group(4)
        return HandValue(han=int(han), fu=int(fu))
    raise InputError(
        f"cannot read the hand value {text!r}: write e.g. 3/30 (3 han 30 fu), 6han, mangan, 2xyakuman, "
        "4faan, 120points, 40pts x 3dbl or limit"
    )


def seat_of(name: str, players: Sequence[str]) -> int:
    """A player's seat, from the name (or the seat number)."""
    if name in players:
        return players.index(name)
    folded = [p.casefold() for p in players]
    if name.casefold() in folded:
        return folded.index(name.casefold())
    if name.isdigit() and int(name) < len(players):
        return int(name)
    raise InputError(f"{name!r} is not a player at this table ({', '.join(players)})")


def seats_of(names: str | None, players: Sequence[str]) -> tuple[int, ...]:
    """Seats from a comma-separated list of players, in order, repeats kept."""
    if not names:
        return ()
    return tuple(seat_of(n.strip(), players) for n in names.split(",") if n.strip())


def parse_override(text: str) -> tuple[str, Any]:
    """A rule override ``key=value``; the value is read as JSON when it can be."""
    if "=" not in text:
        raise InputError(f"a rule override is key=value, not {text!r}")
    key, raw = text.split("=", 1)
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key.strip(), value
