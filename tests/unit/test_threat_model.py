"""Every row of docs/audit.md's threat model names the tests that back it, and each of them exists.

The table says what each edit to the store or to a file is caught by; a row whose test was
renamed or removed would be a claim nothing shows any more.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
AUDIT = ROOT / "docs" / "audit.md"


def threat_model_rows() -> list[tuple[str, list[tuple[str, str]]]]:
    """Each row of the table: its edit, and the (file, test) pairs its last column names (a bare
    name belongs to the file named before it)."""
    text = AUDIT.read_text(encoding="utf-8")
    table = text.split("| edit | detected by | test |", 1)[1].split("\n\n", 1)[0]
    rows = []
    for line in table.splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        named: list[tuple[str, str]] = []
        current = ""
        for item in re.findall(r"`([^`]+)`", cells[-1]):
            if "::" in item:
                current, test = item.split("::", 1)
            else:
                test = item
            named.append((current, test))
        rows.append((cells[0], named))
    return rows


def test_every_row_of_the_threat_model_names_a_test() -> None:
    rows = threat_model_rows()
    assert len(rows) >= 30
    for edit, named in rows:
        assert named, f"no test backs: {edit}"


def test_every_test_the_threat_model_names_exists() -> None:
    for edit, named in threat_model_rows():
        for file, test in named:
            path = ROOT / "tests" / file
            assert path.is_file(), f"{edit}: no {file}"
            functions = {
                node.name
                for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                if isinstance(node, ast.FunctionDef)
            }
            assert test in functions, f"{edit}: no {file}::{test}"
