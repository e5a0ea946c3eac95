"""Every refusal a page can show is words (``domain.said.Said``), so that a Japanese page says it
in Japanese (issue 33): no ``raise`` of a ``HonbaError`` whose message is English text (a string,
an f-string, a ``%`` or ``.format`` of one) in the packages the web reaches.

What only the command line can show stays English by design (the command line speaks English, as
its help does): those modules and functions are listed in ``COMMAND_LINE_ONLY`` with the reason, and
each listed place must still exist (a list that has gone stale fails too).
"""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Iterator
from pathlib import Path

from conftest import REPO

from domain.errors import HonbaError

# The packages a page reaches: the rules, the projections, the service, what is typed, the store,
# the web and the HTML builders, and the hand calculator's reader of tiles.
PAGE_SIDE = (
    "domain",
    "projections",
    "replay/service",
    "replay/input",
    "replay/store",
    "replay/web",
    "replay/html",
    "replay/formats/valuation.py",
)

# Module (path) -> the functions of it only the command line calls ("*": the whole module), and why.
COMMAND_LINE_ONLY: dict[str, tuple[tuple[str, ...], str]] = {
    "replay/service/audit/proofs.py": (("*",), "receipts and signed checkpoints: honba prove/checkpoint"),
    "replay/service/audit/witnesses.py": (("*",), "witnesses' cosignatures: honba witness"),
    "replay/service/audit/keys.py": (("*",), "key files: honba keys"),
    "replay/service/audit/checks.py": (("*",), "honba audit --against/--sheet (the web's audit page takes no sheet)"),
    "replay/service/imports/exports.py": (("*",), "honba export (the web has no export)"),
    "replay/service/imports/importing.py": (("*",), "honba import (the web has no import)"),
    "replay/service/imports/batch.py": (("*",), "honba import's batches (the web has no import)"),
    "replay/service/director/address.py": (("public_url",), "--public-url, read as honba serve starts"),
    "replay/service/tournaments/standings.py": (("follow_view",), "honba tournament follow"),
    "replay/input/files.py": (("read_capped",), "files the command line reads (logs, rule files, score sheets)"),
    "replay/input/entry.py": (
        ("entry_from_line", "_ref", "_refs", "_win_from_line", "_hand_penalties", "entry_line", "_win_line"),
        "a record file's lines, read by honba audit/record (the web reads entries by entry_from_fields)",
    ),
}

# The names a message goes by in an error's constructor; else its first parameter is the message.
_MESSAGE_NAMES = ("message", "problem", "said", "text", "detail")


def _is_text(node: ast.expr | None) -> bool:
    if node is None:
        return False
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp):
        return _is_text(node.left) or _is_text(node.right)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        return _is_text(node.func.value)
    return False


def _message(call: ast.Call, cls: type[HonbaError]) -> ast.expr | None:
    """The argument of ``call`` (a construction of ``cls``) that is its message."""
    try:
        parameters = [
            p
            for p in inspect.signature(cls).parameters.values()
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        ]
    except (TypeError, ValueError):
        parameters = []
    names = [p.name for p in parameters]
    wanted = next((n for n in _MESSAGE_NAMES if n in names), names[0] if names else None)
    for keyword in call.keywords:
        if keyword.arg == wanted:
            return keyword.value
    index = names.index(wanted) if wanted in names else 0
    return call.args[index] if len(call.args) > index else None


def _functions(tree: ast.Module) -> Iterator[tuple[str, ast.AST]]:
    """Each node of ``tree`` with the name of the outermost function it is in ("" at module level)."""
    for top in tree.body:
        name = top.name if isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else ""
        for node in ast.walk(top):
            yield name, node


def english_refusals(root: Path = REPO, places: tuple[str, ...] = PAGE_SIDE) -> list[str]:
    """Every ``raise`` of a ``HonbaError`` whose message is English text in ``places``, but for the
    command line's own (``COMMAND_LINE_ONLY``)."""
    files: list[Path] = []
    for place in places:
        path = root / place
        files += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    found = []
    for path in files:
        relative = path.relative_to(root).as_posix()
        skipped, _ = COMMAND_LINE_ONLY.get(relative, ((), ""))
        if "*" in skipped:
            continue
        module = importlib.import_module(".".join(Path(relative).with_suffix("").parts))
        for function, node in _functions(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)) or function in skipped:
                continue
            called = node.exc.func
            name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", None)
            cls = getattr(module, name, None) if name else None
            if isinstance(cls, type) and issubclass(cls, HonbaError) and _is_text(_message(node.exc, cls)):
                found.append(f"{relative}:{node.lineno} {name}")
    return found


def test_an_english_refusal_is_found_where_it_is_raised(tmp_path: Path) -> None:
    package = tmp_path / "domain"
    package.mkdir()
    (package / "__init__.py").write_text("")
    source = REPO / "domain" / "seating.py"
    text = source.read_text(encoding="utf-8")
    planted = text + '\n\ndef _planted() -> None:\n    raise RuleViolation(f"a table of {2} is too small")\n'
    (package / "seating.py").write_text(planted)
    found = english_refusals(tmp_path, ("domain/seating.py",))
    assert found and found[-1].startswith("domain/seating.py:") and found[-1].endswith(" RuleViolation")


def test_every_refusal_a_page_can_show_is_words() -> None:
    assert english_refusals() == []


def test_every_command_line_only_place_still_exists() -> None:
    for relative, (functions, _why) in COMMAND_LINE_ONLY.items():
        path = REPO / relative
        assert path.is_file(), relative
        defined = {name for name, _ in _functions(ast.parse(path.read_text(encoding="utf-8"))) if name}
        assert "*" in functions or set(functions) <= defined, (relative, set(functions) - defined)
