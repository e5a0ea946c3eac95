"""A stored match written out: a record file (with its chain, or plain for editing), a tenhou.net/6 or an mjai log.

A match whose chain or seal does not check in the store is refused: a fresh chain over it would
launder the damage. Forced, it is written as a record file with the damage in its start line (under the chain),
which ``honba check`` reports and ``honba import`` refuses.
"""

from __future__ import annotations

import attrs

from domain.store_errors import DamagedMatch
from replay.formats.mjai_out import export_mjai
from replay.formats.record import check_record_text, export_record, unchained
from replay.formats.tenhou_json_out import export_tenhou_json
from replay.input.parsing import InputError
from replay.service.audit.digests import Digest, bytes_digest, file_digest
from replay.store.application import HonbaApp

EXPORT_FORMATS = ("record", "tenhou-json", "mjai")


@attrs.frozen
class Exported:
    """A match written out: the file's text, and its digest to publish (``digest``: the head of the
    chain over its lines, which ``honba check FILE --against`` compares with; a file without a chain,
    plain or a tenhou.net/6 log, its bytes' SHA-256)."""

    text: str
    digest: Digest


def export_match(
    store: HonbaApp,
    key: str,
    *,
    fmt: str = "record",
    plain: bool = False,
    force: bool = False,
    path: str = "the exported file",
) -> Exported:
    """A stored match as a record file (with its chain, or ``plain`` without) or a tenhou.net/6
    JSON log (``fmt="tenhou-json"``), with the file's digest (``path`` names the file in it).

    A match whose chain or seal does not check in the store is refused: a fresh chain over it
    would launder the damage. ``force`` writes it anyway as a record file with the damage in
    its start line, under the chain, which ``honba check`` reports and ``honba import`` refuses.
    """
    if fmt not in EXPORT_FORMATS:
        raise InputError(f"--format must be record, tenhou-json or mjai, not {fmt!r}")
    match = store.get_match(key)
    damage = store.damage(key)
    if damage is not None and not force:
        raise DamagedMatch(f"{damage}; not exported (--force writes it with the damage recorded)")
    if damage is not None and (plain or fmt != "record"):
        raise InputError("a damaged match is exported as a record file with its damage recorded: leave out --plain")
    if fmt in ("tenhou-json", "mjai"):
        text = export_tenhou_json(match) if fmt == "tenhou-json" else export_mjai(match)
        return Exported(text, bytes_digest(path, text.encode("utf-8")))
    # The record file holds the English line (a file for tools, read back by ``honba check``).
    text = export_record(match, damage=None if damage is None else str(damage))
    if plain:
        text = unchained(text)
        return Exported(text, bytes_digest(path, text.encode("utf-8")))
    # The digest honba check works out of the file: the two agree by construction.
    return Exported(text, file_digest(path, check_record_text(text, name=path).head))
