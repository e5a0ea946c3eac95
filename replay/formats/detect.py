"""Which format a file is in, judged from its content, and reading it into logged games."""

from __future__ import annotations

import importlib
import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

from replay.formats.logmodel import LogError, LoggedGame, load_json
from replay.formats.source import check_text, read_source

LOG_FORMATS = ("tenhou-xml", "tenhou-json", "mjai")  # the keys of READERS, below
FORMATS = ("auto", *LOG_FORMATS)
# What a directory is searched for; a file named explicitly is always tried.
LOG_SUFFIXES = frozenset({".xml", ".mjlog", ".json", ".jsonl", ".mjson", ".gz", ".xml_"})


# How honba's record files start (``honba export`` writes ``type`` first).
_RECORD_START = re.compile(rb'\{\s*"type"\s*:\s*"start"\s*[,}]')


def detect_format(data: bytes) -> str | None:
    """``tenhou-xml``, ``tenhou-json``, ``mjai``, ``record`` (honba's own) or None."""
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:4096]
    if head.startswith(b"<"):
        return "tenhou-xml"
    if head.startswith(b"["):
        # One JSON array: several tenhou.net/6 games, or mjai events written as one array.
        if b'"log"' in data:
            return "tenhou-json"
        return "mjai" if b'"type"' in data else None
    if not head.startswith(b"{"):
        return None
    first_line = head.split(b"\n", 1)[0]
    if len(first_line) == len(head) and _RECORD_START.match(head):
        # A first line longer than the head looked at (a record's start line with long names,
        # a long source or many rule overrides, as honba's own export writes it): a record.
        return "record"
    try:
        first = load_json(first_line.decode("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        first = None
    if isinstance(first, dict):
        kind = first.get("type")
        if kind == "start":
            # honba's match start (mjai's events are start_game, start_kyoku): the record
            # reader says what is wrong with it, even without its key.
            return "record"
        if isinstance(kind, str):
            return "mjai"
        if "log" in first:
            return "tenhou-json"
    # A pretty-printed JSON document spans lines: look at the whole of it.
    return "tenhou-json" if b'"log"' in data else None


# The registry of log formats: name -> the module and function that read it. A new format is
# one module with a reader, one entry here and one branch of ``detect_format``; the readers are
# imported on first use (the mjai reader loads the ``mahjong`` library).
READERS: dict[str, tuple[str, str]] = {
    "tenhou-xml": ("replay.formats.tenhou_xml", "read_tenhou_xml"),
    "tenhou-json": ("replay.formats.tenhou_json", "read_tenhou_json"),
    "mjai": ("replay.formats.mjai", "read_mjai"),
}


def reader(name: str) -> Callable[..., list[LoggedGame]]:
    """The function that reads a log of the named format (``data, *, file`` -> its games)."""
    module, function = READERS[name]
    read: Callable[..., list[LoggedGame]] = getattr(importlib.import_module(module), function)
    return read


def read_log(path: Path, fmt: str = "auto") -> list[LoggedGame]:
    """Every game in a log file, in the given format or the one its content shows."""
    return read_games(read_source(path), file=str(path), fmt=fmt)


def read_games(data: bytes, *, file: str, fmt: str = "auto") -> list[LoggedGame]:
    """Every game in a log's content (read once by ``read_source``), in the given format or the one it shows."""
    check_text(data, file=file)
    kind = detect_format(data) if fmt == "auto" else fmt
    if kind == "record":
        raise LogError(file, "a honba record file, not a game log (load it with honba import)")
    if kind is None or kind not in READERS:
        raise LogError(file, "not a recognised log format (Tenhou mjlog XML, tenhou.net/6 JSON or mjai)")
    return reader(kind)(data, file=file)


def expand_paths(paths: list[Path]) -> list[Path]:
    """Files named, and the log files found below directories named, in a stable order."""
    return list(iter_paths(paths))


def iter_paths(paths: list[Path]) -> Iterator[Path]:
    """``expand_paths`` one file at a time, holding no list of them: an archive of any size streams.

    Below a directory, its entries in name order, each subdirectory where its name falls
    (symbolic links to directories are not followed).
    """
    for path in paths:
        if path.is_dir():
            yield from _walk(path)
        else:
            yield path


def count_paths(paths: list[Path]) -> int:
    """How many files ``iter_paths`` gives."""
    return sum(1 for _ in iter_paths(paths))


def _walk(directory: Path) -> Iterator[Path]:
    try:
        with os.scandir(directory) as scan:
            entries = sorted((entry.name, entry.is_dir(follow_symlinks=False)) for entry in scan)
    except OSError:
        return
    for name, is_dir in entries:
        path = directory / name
        if is_dir:
            yield from _walk(path)
        elif path.suffix in LOG_SUFFIXES and path.is_file():
            yield path
