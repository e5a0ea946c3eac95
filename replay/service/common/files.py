"""The files a command reads and writes beside the store, for the front ends: a file read with a
cap on its size (``read_capped``), a file written whole or not at all (``write_whole``). The front
ends take them from here, never from ``replay.formats``."""

from __future__ import annotations

from replay.formats.files import FileTooLarge, read_capped, write_whole

__all__ = ["FileTooLarge", "read_capped", "write_whole"]
