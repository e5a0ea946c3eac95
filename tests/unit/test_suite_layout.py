"""Every test module lives in the folder of its altitude, under a name of its own (docs/testing.md).

A test file added beside the helpers in ``tests/`` would run unmarked (no ``unit``, ``service`` or
``e2e``: ``pytest -m "not slow"`` and the level markers would not see it); two modules of one name
in two folders would be imported as one by pytest (each folder is on its path).
"""

from __future__ import annotations

from collections import Counter

from conftest import LEVELS, REPO

TESTS = REPO / "tests"


def test_every_test_module_is_in_a_level_folder() -> None:
    stray = sorted(p.name for p in TESTS.glob("test_*.py"))
    assert stray == [], f"move these into tests/unit, tests/service or tests/e2e (git mv): {stray}"
    assert sorted(p.name for p in TESTS.iterdir() if p.is_dir() and p.name in LEVELS) == sorted(LEVELS)


def test_no_two_test_modules_share_a_name() -> None:
    names = Counter(p.name for level in LEVELS for p in (TESTS / level).glob("test_*.py"))
    assert [name for name, count in names.items() if count > 1] == []
