"""Reading a log file once: its bytes, gunzipped when compressed, checked to be UTF-8 text.

Every reader takes these bytes (``detect.read_log`` reads the file here and hands them on), so
a file is read and unpacked once whatever its format.
"""

from __future__ import annotations

import functools
import gzip
import io
import json
import zlib
from pathlib import Path
from typing import Any

from replay.formats.logmodel import LogError
from replay.input.files import MAX_FILE, FileTooLarge, read_capped
from replay.input.json_text import load_json

# What a gzipped file may unpack to: as much as a file may hold (replay/input/files.py).
MAX_UNPACKED = MAX_FILE


def read_source(path: Path) -> bytes:
    """The file's content (at most ``MAX_FILE`` bytes), unpacked: one clear ``LogError`` for a file
    that cannot be read or is too large."""
    file = str(path)
    try:
        raw = read_capped(path, what="log or record file")
    except FileTooLarge as exc:
        raise LogError(file, exc.problem) from None
    except OSError as exc:
        raise LogError(file, f"cannot read: {exc.strerror or exc}") from None
    return unpack(raw, file=file)


def check_text(data: bytes, *, file: str) -> None:
    """Refuse an empty log, or one in a wide encoding, in one line."""
    # ``isspace`` stops at the first byte that is not blank (``strip`` would copy the whole file).
    if not data or data.isspace():
        raise LogError(file, "an empty file")
    wide = _wide_encoding(data)
    if wide == "UTF-16" and data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        # UTF-16 with its mark is read (``utf8_text``): one that reaches here does not decode.
        raise LogError(file, "broken UTF-16 text: a byte order mark, then bytes that are not UTF-16 text")
    if wide is not None:
        raise LogError(file, f"{wide} text: honba reads logs written in UTF-8 (save the file as UTF-8)")


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


def utf8_text(data: bytes) -> bytes:
    """A log saved as UTF-16 with a byte order mark (as Windows tools save text), re-encoded as
    UTF-8; any other content as it is (the readers skip a UTF-8 byte order mark themselves, and
    ``check_text`` refuses UTF-32 and UTF-16 without a mark, which cannot be told from binary)."""
    if data[:2] not in (b"\xff\xfe", b"\xfe\xff") or data[:4] == b"\xff\xfe\x00\x00":
        return data
    try:
        return data.decode("utf-16").encode("utf-8")
    except UnicodeError:
        return data


def decoded_text(data: bytes) -> str:
    """A text file's text: UTF-8 (a byte order mark skipped) or UTF-16 with a byte order mark (a
    record file or a score sheet saved by a Windows editor or a spreadsheet's "Unicode text");
    ``UnicodeDecodeError`` for anything else, its ``start`` the first byte that is no UTF-8."""
    return utf8_text(data).decode("utf-8-sig")


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


# What the formats' detect functions look at (each format module has one: ``detect(data) -> bool``).


def head(data: bytes) -> bytes:
    """The start of a log's content, after a byte order mark and blank space: what its first
    character says of its format."""
    # Stripped from a prefix (the whole file stripped is a copy of it, made twice a file by detection):
    # the same start unless the prefix is nearly all blank, when the whole is stripped.
    start = data[:8192].lstrip(b"\xef\xbb\xbf \t\r\n")
    if len(start) >= 4096 or len(data) <= 8192:
        return start[:4096]
    return data.lstrip(b"\xef\xbb\xbf \t\r\n")[:4096]


def first_line_object(data: bytes) -> Any:
    """The first line of a log read as JSON (a JSON Lines file's first object), or None. Detection
    asks it of one file up to three times (a record, tenhou.net/6 JSON, mjai): the line is parsed
    once, and the same object given each time (read, never changed, by those who ask)."""
    return _line_object(head(data).split(b"\n", 1)[0])


@functools.lru_cache(maxsize=4)
def _line_object(line: bytes) -> Any:
    try:
        return load_json(line.decode("utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
