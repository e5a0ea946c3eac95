"""Signed notes and checkpoints as the front ends read them (``replay.formats.note``): the longest
note sent, reading a note and the checkpoint in it, a witness's or the log's verifier. The front
ends take them from here, never from ``replay.formats``."""

from __future__ import annotations

from replay.formats.note import MAX_NOTE, NoteError, Verifier, parse_checkpoint, parse_note

__all__ = ["MAX_NOTE", "NoteError", "Verifier", "parse_checkpoint", "parse_note"]
