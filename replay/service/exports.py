"""A stored match written out: as a record file (with its chain, or plain for editing) or a tenhou.net/6 log.

A match whose chain or seal does not check in the store is refused: a fresh chain over it would
launder the damage. Forced, it is written as a record file with the damage in its seal line,
which ``honba check`` reports and ``honba import`` refuses.
"""

from __future__ import annotations

from replay.formats.record import export_record, unchained
from replay.formats.tenhou_json_out import export_tenhou_json
from replay.input.parsing import InputError
from replay.store.application import HonbaApp
from replay.store.errors import DamagedMatch

EXPORT_FORMATS = ("record", "tenhou-json")


def export_match(store: HonbaApp, key: str, *, fmt: str = "record", plain: bool = False, force: bool = False) -> str:
    """A stored match as a record file (with its chain, or ``plain`` without) or a tenhou.net/6
    JSON log (``fmt="tenhou-json"``).

    A match whose chain or seal does not check in the store is refused: a fresh chain over it
    would launder the damage. ``force`` writes it anyway as a record file with the damage in
    its seal line, which ``honba check`` reports and ``honba import`` refuses.
    """
    if fmt not in EXPORT_FORMATS:
        raise InputError(f"--format must be record or tenhou-json, not {fmt!r}")
    match = store.get_match(key)
    damage = store.damage(key)
    if damage is not None and not force:
        raise DamagedMatch(f"{damage}; not exported (--force writes it with the damage recorded)")
    if damage is not None and (plain or fmt != "record"):
        raise InputError("a damaged match is exported as a record file with its damage recorded: leave out --plain")
    if fmt == "tenhou-json":
        return export_tenhou_json(match)
    text = export_record(match, damage=damage)
    return unchained(text) if plain else text
