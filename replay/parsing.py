"""Reading what a person types on the command line: hand values, players, rule overrides."""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from domain.bounds import (
    ANY_RULE_NUMBER,
    DOUBLES,
    FAAN,
    FU,
    HAN,
    HAND_POINTS,
    SEAT,
    YAKUMAN_MULTIPLE,
    Bound,
    OutOfBounds,
    shown,
    whole_number,
)
from domain.errors import HonbaError
from domain.values import LIMIT_NAMES, HandValue

# re.ASCII: \d is 0-9 only (not ``٣``), as every number honba reads (domain.bounds.whole_number).
_HAN_FU = re.compile(
    r"^\s*(\d+)\s*(?:han|h)?\s*(?:/|\s+|,)?\s*(\d+)\s*(?:fu|f)\s*$|^\s*(\d+)\s*/\s*(\d+)\s*$", re.ASCII
)
_HAN_ONLY = re.compile(r"^\s*(\d+)\s*han\s*$", re.ASCII)
_YAKUMAN = re.compile(r"^\s*(?:(\d+)\s*[x*]?\s*yakuman|yakuman\s*[x*]\s*(\d+))\s*$", re.ASCII)


class InputError(HonbaError):
    """Something typed on the command line that honba cannot read."""


_FAAN = re.compile(r"^\s*(\d+)\s*(?:faan|fan|tai)\s*$", re.ASCII)
_POINTS = re.compile(r"^\s*(\d+)\s*(?:points|pts|p)(?:\s*(?:[x*/,+]|\s)\s*(\d+)\s*(?:doubles|dbl|d))?\s*$", re.ASCII)
_DOUBLES = re.compile(r"^\s*(\d+)\s*(?:doubles|dbl)\s*$", re.ASCII)
_FU_HAN = re.compile(r"^\s*(\d+)\s*fu\s*(\d+)\s*han\s*$", re.ASCII)


def _count(digits: str, bound: Bound) -> int:
    """A count of a typed hand value, read by the one number reader (its length cap and bounds)."""
    return whole_number(digits, bound)


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
        return HandValue(faan=_count(match.group(1), FAAN))
    match = _POINTS.match(lowered)
    if match:
        doubles = None if match.group(2) is None else _count(match.group(2), DOUBLES)
        return HandValue(points=_count(match.group(1), HAND_POINTS), doubles=doubles)
    match = _DOUBLES.match(lowered)
    if match:
        return HandValue(doubles=_count(match.group(1), DOUBLES))
    match = _YAKUMAN.match(lowered)
    if match:
        multiple = _count(match.group(1) or match.group(2), YAKUMAN_MULTIPLE)
        return HandValue(limit="yakuman", multiple=multiple)
    match = _HAN_ONLY.match(lowered)
    if match:
        return HandValue(han=_count(match.group(1), HAN))
    match = _FU_HAN.match(lowered)
    if match:
        return HandValue(han=_count(match.group(2), HAN), fu=_count(match.group(1), FU))
    match = _HAN_FU.match(lowered)
    if match:
        han = match.group(1) or match.group(3)
        fu = match.group(2) or match.group(4)
        return HandValue(han=_count(han, HAN), fu=_count(fu, FU))
    raise InputError(
        f"cannot read the hand value {shown(text)}: write e.g. 3/30 (3 han 30 fu), 6han, mangan, 2xyakuman, "
        "4faan, 120points, 40pts x 3dbl or limit"
    )


def seat_of(name: str, players: Sequence[str]) -> int:
    """A player's seat, from the name (or the seat number)."""
    if name in players:
        return players.index(name)
    folded = [p.casefold() for p in players]
    if name.casefold() in folded:
        return folded.index(name.casefold())
    if name.isascii() and name.isdigit():
        try:
            seat = whole_number(name, SEAT)
        except OutOfBounds:
            seat = len(players)
        if seat < len(players):
            return seat
    raise InputError(f"{shown(name)} is not a player at this table ({', '.join(players)})")


def seats_of(names: str | None, players: Sequence[str]) -> tuple[int, ...]:
    """Seats from a comma-separated list of players, in order, repeats kept."""
    if not names:
        return ()
    return tuple(seat_of(n.strip(), players) for n in names.split(",") if n.strip())


# A rule value given with ``--set``: a list of lists at most (a settling table), so a few levels.
OVERRIDE_DEEPEST = 4
_SIGNED = re.compile(r"\s*[+-]?[0-9]+\s*")


def parse_override(text: str) -> tuple[str, Any]:
    """A rule override ``key=value``; the value is read as JSON when it can be (a number by the one
    number reader, ``domain.bounds.whole_number``, its depth capped before it is parsed), else as text.
    The rule's own range is the rules' to check."""
    from replay.formats.logmodel import load_json  # only where --set is given

    if "=" not in text:
        raise InputError(f"a rule override is key=value, not {shown(text)}")
    key, raw = text.split("=", 1)
    key = key.strip()
    if _SIGNED.fullmatch(raw):
        return key, whole_number(raw, ANY_RULE_NUMBER, f"--set {shown(key)}")
    try:
        value: Any = load_json(raw, deepest=OVERRIDE_DEEPEST)
    except json.JSONDecodeError as exc:
        if raw.lstrip()[:1] in ("[", "{"):
            raise InputError(f"--set {shown(key)}: not a JSON list or object ({exc.msg})") from None
        value = raw
    return key, value
