"""Imports point one way: presentation -> service -> store / formats -> projections -> domain.

Read from the source with ``ast`` (nothing is imported): every import of a honba module, at
the top of a module or inside a function, must name a module of the same layer or a lower
one, and the modules import each other without a cycle. An import under ``TYPE_CHECKING``
only names a type and never runs, so it is not counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("domain", "projections", "replay")

# The layers, lowest first; a module belongs to the first prefix it starts with (longest listed first).
LAYERS: tuple[tuple[str, ...], ...] = (
    ("domain",),
    ("projections",),
    # The outside world's adapters: the store (and the two aggregates kept where their stored
    # topics name them), the log and record formats.
    ("replay.store", "replay.seal", "replay.identity", "replay.formats"),
    # The application and its use cases.
    (
        "replay.service",
        "replay.app",
        "replay.integrity",
        "replay.importing",
        "replay.verify",
        "replay.batch",
        "replay.audit",
        "replay.tournaments",
        "replay.player_stats",
        "replay.parsing",
    ),
    # Presentation: nothing below imports it.
    ("replay.cli", "replay.html", "replay.render", "replay.web"),
)
PRESENTATION = LAYERS[-1]


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    # The three top packages' own (empty) __init__ modules belong to no layer.
    found = {module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}
    return {name: path for name, path in found.items() if name not in PACKAGES}


def layer_of(module: str) -> int:
    for number, prefixes in enumerate(LAYERS):
        if any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes):
            return number
    raise AssertionError(f"{module} is in no layer: add it to LAYERS in tests/test_layers.py")


def _type_checking_only(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def imports_of(module: str, path: Path) -> set[str]:
    """The honba modules a module imports (``from replay import cli`` names ``replay.cli``)."""
    found: set[str] = set()
    known = modules()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking_only(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] in PACKAGES)
        elif (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.level == 0
            and node.module.split(".")[0] in PACKAGES
        ):
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in known else node.module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    # A package's own __init__ is no dependency of its modules' layer order.
    return {name for name in found if name != module and name not in PACKAGES}


def graph() -> dict[str, set[str]]:
    return {name: imports_of(name, path) for name, path in modules().items()}


def test_every_import_points_to_the_same_layer_or_a_lower_one() -> None:
    wrong = [
        f"{module} (layer {layer_of(module)}) imports {target} (layer {layer_of(target)})"
        for module, targets in graph().items()
        for target in sorted(targets)
        if layer_of(target) > layer_of(module)
    ]
    assert wrong == []


def test_nothing_outside_the_presentation_imports_it() -> None:
    presentation = len(LAYERS) - 1
    wrong = [
        f"{module} imports {target}"
        for module, targets in graph().items()
        if layer_of(module) < presentation
        for target in targets
        if layer_of(target) == presentation
    ]
    assert wrong == []


def test_the_domain_imports_neither_projections_nor_replay_and_projections_no_replay() -> None:
    for module, targets in graph().items():
        if module.startswith("domain"):
            assert all(t.startswith("domain") for t in targets), module
        if module.startswith("projections"):
            assert not any(t.startswith("replay") for t in targets), module


def test_the_modules_import_each_other_without_a_cycle() -> None:
    edges = graph()
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1 on the path being walked, 2 done
    path: list[str] = []

    def walk(node: str) -> None:
        state[node] = 1
        path.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                cycles.append([*path[path.index(target) :], target])
            elif target not in state:
                walk(target)
        path.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            walk(node)
    assert cycles == []


def test_projections_and_the_sqlite_store_never_load_postgresql() -> None:
    # psycopg is imported only when PostgreSQL is the store (replay/store/pgstore.py, postgres_views.py).
    for module, path in modules().items():
        if module in ("replay.store.pgstore", "replay.store.postgres_views"):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
        names = [a.name for n in top if isinstance(n, ast.Import) for a in n.names]
        names += [n.module or "" for n in top if isinstance(n, ast.ImportFrom)]
        assert not any(n.split(".")[0] == "psycopg" or n == "eventsourcing.postgres" for n in names), module


def test_every_package_is_listed_for_a_non_editable_install() -> None:
    # ``pip install .`` ships only the packages pyproject names; a package left out imports
    # in the editable install the tests use and fails in a user's.
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    packages = {module_name(p.parent / "__init__.py") for top in PACKAGES for p in (ROOT / top).rglob("__init__.py")}
    assert packages <= listed
