"""What the fork server of the reading workers loads before it forks them (``batch._start_pool``'s
preload), so that each worker starts with it instead of loading it at its first file.

Imported by that fork server only: importing it loads the pool's module (``batch``, and with it the
store's mapper), the reader of Tenhou's XML logs (a bulk archive's usual format; the other formats'
readers are still imported by a worker at its first file of theirs, as a Tenhou file never loads
them), and reads every preset (the rules a log's room starts from). Each worker paid about 0.03 s of
CPU for these at its first file (cProfile: the reader's modules imported, ``tomllib`` and the presets
read), every worker of every import. It also writes the encoders of the domain's values
(``domain.codec.write_encoders``), which each worker wrote and compiled at its first file (issue 36,
twelfth round).
"""

from __future__ import annotations

import importlib

from domain.codec import write_encoders
from domain.rules import load_preset, preset_names
from replay.formats.detect import READERS
from replay.service.imports import batch as batch

_TENHOU = READERS["tenhou-xml"]
for _module in (_TENHOU.module, _TENHOU.tiles):
    if _module is not None:
        importlib.import_module(_module)
for _name in preset_names():
    load_preset(_name)
write_encoders()
