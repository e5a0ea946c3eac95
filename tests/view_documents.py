"""What the standings view's tests compare: every document a view holds, by kind and key, and a
corpus file by name (skipped where the shared corpus lacks it). Shared by the tests of the view an
import keeps and of the rebuild from events, which compare two views document by document."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS

from projections.views import DocumentView

# Every kind of document the view writes (``projections.standings_view``'s docstring).
KINDS = (
    "match",
    "rules",
    "summary",
    "stats",
    "tournament",
    "tournament-name",
    "entry",
    "attached",
    "standings",
    "totals",
    "damaged",
    "unreadable",
    "view",
)


def corpus_file(name: str) -> Path:
    """The first file of the shared corpus by that name (the test is skipped without it)."""
    found = sorted(CORPUS.rglob(name))
    if not found:
        pytest.skip(f"{name} is not in the shared corpus here")
    return found[0]


def documents(view: DocumentView) -> dict[tuple[str, str], Any]:
    """Every document of the view, by kind and key."""
    return {(kind, key): data for kind in KINDS for key, data in view.docs(kind)}
