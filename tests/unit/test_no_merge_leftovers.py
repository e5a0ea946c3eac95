"""No file of the repository keeps a merge's conflict markers (a docs page once shipped both sides
of a conflict, with the markers, and nothing failed)."""

from __future__ import annotations

import re
import subprocess

from conftest import REPO

# A marker is a whole line: seven of the same sign at its start (``=======`` alone on its line).
_MARKER = re.compile(r"^(<{7} |>{7} |={7}$)", re.MULTILINE)


def tracked_text_files() -> list[str]:
    """The repository's tracked files (git's own list; a fresh clone is what CI tests)."""
    listing = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True)
    return [name for name in listing.stdout.decode().split("\0") if name]


def conflict_markers(text: str) -> list[int]:
    """The lines (from 1) of ``text`` that are a conflict marker."""
    return [text.count("\n", 0, found.start()) + 1 for found in _MARKER.finditer(text)]


def test_conflict_markers_are_found_where_a_merge_left_them() -> None:
    left = "keep\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> main\n"
    assert conflict_markers(left) == [2, 4, 6]
    assert conflict_markers("a rule: ======= under a title is not a marker\n") == []


def test_no_tracked_file_keeps_conflict_markers() -> None:
    found = []
    for name in tracked_text_files():
        try:
            text = (REPO / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError):
            continue
        found += [f"{name}:{line}" for line in conflict_markers(text)]
    assert found == []


# The first bytes of every SQLite database file.
_SQLITE = b"SQLite format 3\x00"


def stores_and_locks(names: list[str], head: dict[str, bytes]) -> list[str]:
    """Of these tracked files, those a run of honba left behind: a SQLite store (or its view) and a
    checkpoint thread's lock file (``head``: each file's first bytes)."""
    return [name for name in names if head.get(name, b"").startswith(_SQLITE) or name.endswith(".checkpoint.lock")]


def test_a_store_left_by_a_run_is_found() -> None:
    head = {"builtins.isinstance": _SQLITE + b"\x10\x00", "docs/a.md": b"# a"}
    names = ["builtins.isinstance", "builtins.checkpoint.lock", "docs/a.md"]
    assert stores_and_locks(names, head) == ["builtins.isinstance", "builtins.checkpoint.lock"]


def test_no_tracked_file_is_a_store_a_run_left_behind() -> None:
    # A profiling run once opened stores named after the functions it was given, and they were
    # committed: 600 KB of binary rows at the top of the repository.
    names = tracked_text_files()
    head = {}
    for name in names:
        path = REPO / name
        if path.is_file():
            with path.open("rb") as file:
                head[name] = file.read(len(_SQLITE))
    assert stores_and_locks(names, head) == []
