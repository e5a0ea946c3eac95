"""Whether the options of ``honba import`` and ``honba verify`` go together, before any file is read.

The service decides and the command line only prints the refusal (one line, exit 2), so that
every front end refuses the same options with the same words.
"""

from __future__ import annotations

from domain.bounds import MATCH_KEY, SESSION, Bound, OutOfBounds

# count_paths: how many games the files hold, for the command's progress (the front ends take it from here).
from replay.formats.detect import FORMATS
from replay.formats.detect import count_paths as count_paths

# ``import`` also takes honba's own record files; ``verify`` only game logs.
IMPORT_FORMATS = (*FORMATS, "record")
# Matches stored to a transaction: ten thousand matches is a season of a large club in one go.
BATCH = Bound("batch", 1, 10_000)
# Processes reading files at once: more than a thousand is no machine's cores.
JOBS = Bound("jobs", 1, 1_024)


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
    fmt: str, tournament: str | None, session: int, batch: int, jobs: int | None, key_prefix: str = ""
) -> str | None:
    """Why ``honba import`` cannot run with these options (the first reason found), or None when they go together.

    ``tournament`` None means no tournament; ``jobs`` None means the default (one process per core);
    ``key_prefix`` starts every match's key, and is refused where a key would be (once, not per game).
    """
    refusal = _format_refusal(fmt, IMPORT_FORMATS)
    if refusal is not None:
        return refusal
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
