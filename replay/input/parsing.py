"""Reading what a person types on the command line: hand values and rule overrides."""

from __future__ import annotations

import json
import re
from typing import Any

from domain.bounds import ANY_RULE_NUMBER, Bound, OutOfBounds, shown, whole_number
from domain.errors import HonbaError
from domain.said import Said
from domain.values import LIMIT_NAMES, HandValue

# re.ASCII: \d is 0-9 only (not ``٣``), as every number honba reads (domain.bounds.whole_number).
_HAN_FU = re.compile(
    r"^\s*(\d+)\s*(?:han|h)?\s*(?:/|\s+|,)?\s*(\d+)\s*(?:fu|f)\s*$|^\s*(\d+)\s*/\s*(\d+)\s*$", re.ASCII
)
_HAN_ONLY = re.compile(r"^\s*(\d+)\s*han\s*$", re.ASCII)
_YAKUMAN = re.compile(r"^\s*(?:(\d+)\s*[x*]?\s*yakuman|yakuman\s*[x*]\s*(\d+))\s*$", re.ASCII)


class InputError(HonbaError):
    """Something typed on the command line that honba cannot read."""


_FAAN = re.compile(r"^\s*(\d+)\s*(?:faan|fan)\s*$", re.ASCII)
# Taiwanese tai add up (Four Winds, preset Taiwanese 16-Tile: "scores for patterns are
# simply added up"): a tai is a point of the hand's score, never a doubling as a faan is.
_TAI = re.compile(r"^\s*(\d+)\s*tai\s*$", re.ASCII)
_POINTS = re.compile(r"^\s*(\d+)\s*(?:points|pts|p)(?:\s*(?:[x*/,+]|\s)\s*(\d+)\s*(?:doubles|dbl|d))?\s*$", re.ASCII)
_DOUBLES = re.compile(r"^\s*(\d+)\s*(?:doubles|dbl)\s*$", re.ASCII)
_FU_HAN = re.compile(r"^\s*(\d+)\s*fu\s*(\d+)\s*han\s*$", re.ASCII)


def _count(digits: str, name: str) -> int:
    """A count of a typed hand value (``name``: ``han``, ``fu``, ...), read by the one number reader
    (``domain.bounds.whole_number``: its length cap) to the bound a record line holds that field to
    (``replay.input.entry.bound_of``), as the same count sent as a field or in a record line is read;
    its range is the domain's to check when the result is recorded, for all of them alike."""
    from replay.input.entry import bound_of

    try:
        return whole_number(digits, Bound(name, 0, bound_of(name)))
    except OutOfBounds as exc:
        raise InputError(exc.said) from None


def parse_value(text: str) -> HandValue:
    """A hand value in the unit of its rules.

    Riichi: ``3/30``, ``3han30fu``, ``30fu 3han``, ``6han``, ``mangan``, ``2xyakuman``.
    Faan (Hong Kong): ``4faan``. Tai (Taiwanese): ``5tai``, the hand's points (tai add up).
    Points and doubles (classical rules): ``120points``,
    ``40pts x 3dbl`` (40 basic points doubled three times), ``3doubles``; ``limit`` for a limit hand.
    Every count is read by the one number reader (ASCII digits, a length cap).
    """
    lowered = text.strip().lower()
    if lowered in LIMIT_NAMES:
        return HandValue(limit=lowered)  # type: ignore[arg-type]
    if lowered == "limit":
        return HandValue(limit="mangan")
    match = _FAAN.match(lowered)
    if match:
        return HandValue(faan=_count(match.group(1), "faan"))
    match = _TAI.match(lowered)
    if match:
        return HandValue(tai=_count(match.group(1), "tai"))
    match = _POINTS.match(lowered)
    if match:
        doubles = None if match.group(2) is None else _count(match.group(2), "doubles")
        return HandValue(points=_count(match.group(1), "points"), doubles=doubles)
    match = _DOUBLES.match(lowered)
    if match:
        return HandValue(doubles=_count(match.group(1), "doubles"))
    match = _YAKUMAN.match(lowered)
    if match:
        multiple = _count(match.group(1) or match.group(2), "multiple")
        return HandValue(limit="yakuman", multiple=multiple)
    match = _HAN_ONLY.match(lowered)
    if match:
        return HandValue(han=_count(match.group(1), "han"))
    match = _FU_HAN.match(lowered)
    if match:
        return HandValue(han=_count(match.group(2), "han"), fu=_count(match.group(1), "fu"))
    match = _HAN_FU.match(lowered)
    if match:
        han = match.group(1) or match.group(3)
        fu = match.group(2) or match.group(4)
        return HandValue(han=_count(han, "han"), fu=_count(fu, "fu"))
    raise InputError(
        Said(
            "cannot read the hand value {text}: write e.g. 3/30 (3 han 30 fu), 6han, mangan, 2xyakuman, "
            "4faan, 5tai, 120points, 40pts x 3dbl or limit",
            text=shown(text),
        )
    )


# A rule value given with ``--set``: a list of lists at most (a settling table), so a few levels.
OVERRIDE_DEEPEST = 4
_SIGNED = re.compile(r"\s*[+-]?[0-9]+\s*")


def parse_override(text: str, field: str = "--set") -> tuple[str, Any]:
    """A rule override ``key=value``; the value is read as JSON when it can be (a number by the one
    number reader, ``domain.bounds.whole_number``, its depth capped before it is parsed), else as text.
    The rule's own range is the rules' to check. ``field`` is where it was given, as a refusal names
    it (the command line's ``--set``, a form's ``set``)."""
    from replay.input.json_text import load_json  # only where --set is given

    if "=" not in text:
        raise InputError(Said("a rule override is key=value, not {text}", text=shown(text)))
    key, raw = text.split("=", 1)
    key = key.strip()
    if _SIGNED.fullmatch(raw):
        return key, whole_number(raw, ANY_RULE_NUMBER, f"{field} {shown(key)}")
    try:
        value: Any = load_json(raw, deepest=OVERRIDE_DEEPEST)
    except json.JSONDecodeError as exc:
        if raw.lstrip()[:1] in ("[", "{"):
            raise InputError(
                Said("{field} {key}: not a JSON list or object ({error})", field=field, key=shown(key), error=exc.msg)
            ) from None
        value = raw
    return key, value
