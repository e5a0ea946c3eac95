"""Which format a file is in, judged from its content, and reading it into logged games."""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import zlib
from collections.abc import Iterator
from pathlib import Path

from replay.formats.logmodel import LogError, LoggedGame, load_json

LOG_FORMATS = ("tenhou-xml", "tenhou-json", "mjai")
FORMATS = ("auto", *LOG_FORMATS)
# What a directory is searched for; a file named explicitly is always tried.
LOG_SUFFIXES = frozenset({".xml", ".mjlog", ".json", ".jsonl", ".mjson", ".gz", ".xml_"})
MAX_UNPACKED = 64 * 1024 * 1024


def unpack(data: bytes, *, file: str) -> bytes:
    """The file's bytes, gunzipped when gzip-compressed (with a cap against gzip bombs)."""
    if data[:2] != b"\x1f\x8b":
        return data
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            unpacked = stream.read(MAX_UNPACKED + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise LogError(file, f"broken gzip data ({exc})") from None
    if len(unpacked) > MAX_UNPACKED:
        raise LogError(file, f"unpacks to more than {MAX_UNPACKED // (1024 * 1024)} MiB")
    return unpacked


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


def read_log(path: Path, fmt: str = "auto") -> list[LoggedGame]:
    """Every game in a log file, in the given format or the one its content shows."""
    file = str(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise LogError(file, f"cannot read: {exc.strerror or exc}") from None
    data = unpack(raw, file=file)
    if not data.strip():
        raise LogError(file, "an empty file")
    wide = _wide_encoding(data)
    if wide is not None:
        raise LogError(file, f"{wide} text: honba reads logs written in UTF-8 (save the file as UTF-8)")
    kind = detect_format(data) if fmt == "auto" else fmt
    if kind == "record":
        raise LogError(file, "a honba record file, not a game log (load it with honba import)")
    if kind == "tenhou-xml":
        from replay.formats.tenhou_xml import read_tenhou_xml

        return read_tenhou_xml(data, file=file)
    if kind == "tenhou-json":
        from replay.formats.tenhou_json import read_tenhou_json

        return read_tenhou_json(data, file=file)
    if kind == "mjai":
        from replay.formats.mjai import read_mjai

        return read_mjai(data, file=file)
    raise LogError(file, "not a recognised log format (Tenhou mjlog XML, tenhou.net/6 JSON or mjai)")


def _wide_encoding(data: bytes) -> str | None:
    """``UTF-16`` or ``UTF-32`` when the bytes are text in one of those (by its BOM, or by the
    zero byte beside the first character of an XML or JSON document), else None."""
    if data[:4] in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"):
        return "UTF-32"
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "UTF-16"
    if len(data) >= 2 and b"\x00" in (data[0:1], data[1:2]) and data[:2].strip(b"\x00") in (b"<", b"{", b"["):
        return "UTF-16"
    return None


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
