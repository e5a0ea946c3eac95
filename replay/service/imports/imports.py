"""Whether the options of ``honba import`` and ``honba verify`` go together, before any file is read.

The service decides and the command line only prints the refusal (one line, exit 2), so that
every front end refuses the same options with the same words.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from pathlib import Path

import attrs

from domain.bounds import MATCH_KEY, SESSION, Bound, OutOfBounds

# count_paths: how many games the files hold, for the command's progress (the front ends take it from here).
from replay.formats.detect import FORMATS, iter_paths
from replay.formats.detect import count_paths as count_paths

# ``import`` also takes honba's own record files; ``verify`` only game logs.
IMPORT_FORMATS = (*FORMATS, "record")
# Matches stored to a transaction: ten thousand matches is a season of a large club in one go.
BATCH = Bound("batch", 1, 10_000)
# Processes reading files at once: more than a thousand is no machine's cores.
JOBS = Bound("jobs", 1, 1_024)
# Shares an archive is split into (``--share K/N``): more than a million machines is no one's cluster.
SHARES = Bound("shares", 1, 1_000_000)


@attrs.frozen
class Share:
    """One share of an archive (``honba import --share K/N``): the files whose name falls in share
    ``number`` of ``count``. Every file falls in exactly one share, by its name alone (not by its
    folder or the order files are found), so N machines given the same archive, mounted wherever,
    each importing one share, import every file once between them."""

    number: int
    count: int

    def holds(self, path: Path) -> bool:
        """Whether the file is in this share."""
        return share_of(path.name, self.count) == self.number

    def of(self, paths: Iterable[Path]) -> Iterator[Path]:
        """The files of this share among ``paths``, in their order."""
        return (path for path in paths if self.holds(path))

    def __str__(self) -> str:
        return f"{self.number}/{self.count}"


def share_of(name: str, count: int) -> int:
    """The share (1 to ``count``) a file of this name falls in: the first eight bytes of the name's
    SHA-256 (UTF-8), as a number, modulo ``count``, plus one. It must never change: machines running
    different versions of honba split one archive between them."""
    digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).digest()
    return int.from_bytes(digest[:8], "big") % count + 1


def parse_share(text: str) -> Share:
    """``K/N`` (share K of N, 1 <= K <= N) as a ``Share``; ``ValueError`` with a one-line reason otherwise."""
    number, slash, count = text.strip().partition("/")
    if not slash or not number.strip().isdigit() or not count.strip().isdigit():
        raise ValueError(f"--share takes K/N (share K of N, e.g. 2/5), not {text!r}")
    share = Share(int(number), int(count))
    refusal = _range_refusal("--share's N", share.count, SHARES)
    if refusal is not None:
        raise ValueError(refusal)
    if not 1 <= share.number <= share.count:
        raise ValueError(f"--share {text.strip()}: K is from 1 to N ({share.count}), not {share.number}")
    return share


def _format_refusal(fmt: str, formats: tuple[str, ...]) -> str | None:
    if fmt not in formats:
        return f"--format must be one of {', '.join(formats)}, not {fmt!r}"
    return None


def _range_refusal(option: str, value: int, bound: Bound) -> str | None:
    if value < bound.low:
        return f"{option}: at least {bound.low}, not {value}"
    if value > bound.high:
        return f"{option}: at most {bound.high:,}, not {value}"
    return None


def _jobs_refusal(jobs: int | None) -> str | None:
    return None if jobs is None else _range_refusal("--jobs", jobs, JOBS)


def import_options_refusal(
    fmt: str,
    tournament: str | None,
    session: int,
    batch: int,
    jobs: int | None,
    key_prefix: str = "",
    share: str | None = None,
) -> str | None:
    """Why ``honba import`` cannot run with these options (the first reason found), or None when they go together.

    ``tournament`` None means no tournament; ``jobs`` None means the default (one process per core);
    ``key_prefix`` starts every match's key, and is refused where a key would be (once, not per game);
    ``share`` is ``--share``'s text (``K/N``), None when not given.
    """
    refusal = _format_refusal(fmt, IMPORT_FORMATS)
    if refusal is not None:
        return refusal
    if share is not None:
        try:
            parse_share(share)
        except ValueError as exc:
            return str(exc)
    try:
        MATCH_KEY.check(key_prefix, "--key-prefix")
    except OutOfBounds as exc:
        return str(exc)
    if tournament is not None and not tournament.strip():
        return "--tournament needs a name"
    if session < SESSION.low:
        return f"--session: sessions are numbered from {SESSION.low}, not {session}"
    return (
        _range_refusal("--session", session, SESSION) or _range_refusal("--batch", batch, BATCH) or _jobs_refusal(jobs)
    )


def verify_options_refusal(fmt: str, jobs: int | None, *, deal: bool = False, rules: bool = False) -> str | None:
    """Why ``honba verify`` cannot run with these options, or None when they go together (``deal``:
    the deal check, which scores nothing, so rules given for scoring have no place in it)."""
    if deal and rules:
        return "--rules scores hands; --deal checks the deals and scores nothing: give one or the other"
    return _format_refusal(fmt, FORMATS) or _jobs_refusal(jobs)


def import_files(paths: list[Path], fmt: str, share: Share | None = None) -> Iterator[Path]:
    """The files ``honba import`` reads, in order: the files named (record files: as named) and the logs
    below the directories named, those of ``share`` only when one is given."""
    files = iter_paths(paths) if fmt != "record" else iter(paths)
    return share.of(files) if share is not None else files


def count_import_files(paths: list[Path], fmt: str, share: Share | None = None) -> int:
    """How many files ``import_files`` gives (the command's progress)."""
    return sum(1 for _ in import_files(paths, fmt, share))
