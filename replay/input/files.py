"""Files honba reads and writes, with their limits: what it reads is capped, what it writes appears whole.

A log, a record file, a score sheet or a rule file is read with a cap on its size (``MAX_FILE``;
a gzipped file is capped again once unpacked, ``replay.formats.source``), so that ``/dev/zero``, a
huge file or a file that never ends is refused in one line instead of filling memory. A report or
an export is written to a temporary file beside its target and moved into place once complete, so
a failure (a full disk, an interrupted command) leaves the target as it was: never a cut or empty file.
"""

from __future__ import annotations

import contextlib
import os
import stat
from io import RawIOBase
from pathlib import Path

from domain.errors import HonbaError

# The most any file honba reads may hold: a log of a whole match is tens of kilobytes, a record
# file of a long match a few hundred, a score sheet less; a tournament's logs are read one file at a time.
MAX_FILE = 64 * 1024 * 1024
# A rule file is a page of TOML.
MAX_RULE_FILE = 1024 * 1024


class FileTooLarge(HonbaError):
    """A file beyond the size honba reads: ``file``, then what is wrong (``problem``)."""

    def __init__(self, file: str, problem: str):
        super().__init__(f"{file}: {problem}")
        self.file = file
        self.problem = problem


def mib(size: int) -> str:
    """A size in whole MiB (in KiB below one MiB: a key or a seed file's), as the refusals say it."""
    if size < 1024 * 1024:
        return f"{size // 1024} KiB"
    return f"{size // (1024 * 1024)} MiB"


def read_capped(path: Path, *, limit: int = MAX_FILE, what: str = "file") -> bytes:
    """The bytes of a file of at most ``limit`` bytes; ``FileTooLarge`` beyond it (read no further
    than the limit: a device such as ``/dev/zero`` or a pipe is refused as soon as it passes it).
    ``OSError`` when it cannot be read, as ``Path.read_bytes``."""
    # Unbuffered: the file is read in one piece of its size (no buffer of its own, nor the buffered
    # reader's check whether the file is a terminal, for every log of an archive).
    with open(path, "rb", buffering=0) as stream:
        # A file's size known, it is read in one piece of that size (and further if it grew meanwhile,
        # or if the system gave less: a read of a file is not promised whole).
        info = os.fstat(stream.fileno())
        known = min(info.st_size, limit) if stat.S_ISREG(info.st_mode) else 0
        data = stream.read(known + 1) or b""
        if len(data) != known or not known:
            data += _read_up_to(stream, limit + 1 - len(data))
    if len(data) > limit:
        raise FileTooLarge(str(path), f"larger than {mib(limit)}: honba reads a {what} of at most {mib(limit)}")
    return data


def _read_up_to(stream: RawIOBase, size: int) -> bytes:
    """At most ``size`` bytes of a stream, in pieces (a device or a pipe: no buffer of ``size`` made first)."""
    pieces: list[bytes] = []
    left = size
    while left > 0:
        piece = stream.read(min(left, 1 << 20))
        if not piece:
            break
        pieces.append(piece)
        left -= len(piece)
    return b"".join(pieces)


def write_whole(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` so that it appears whole or not at all: into a temporary file
    in the same folder, then moved into place (an atomic rename; through a symbolic link, at the file it
    names). On any failure the temporary file is removed and ``path`` is left as it was."""
    import tempfile  # only where a file is written (a report, an export), not when a command starts

    data = text.encode("utf-8")
    target = path.resolve() if path.is_symlink() else path
    if target.exists() and not target.is_file():
        # A device or a pipe (``-o /dev/stdout``): nothing to replace, written as it is.
        with target.open("wb") as stream:
            stream.write(data)
        return
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        # No such folder, no right to write there: said of the file asked for, not of the temporary one.
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        # mkstemp makes the file readable by its owner only: give it the mode of the file it replaces,
        # or the one a new file would have.
        mode = target.stat().st_mode & 0o7777 if target.exists() else 0o666 & ~_umask()
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError) and exc.filename is None:
            # A write that failed (a full disk, a file size limit): name the file it was for.
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
