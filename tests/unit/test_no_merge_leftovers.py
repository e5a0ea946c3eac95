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
