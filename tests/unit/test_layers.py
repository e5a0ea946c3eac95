"""Imports point one way: front ends -> service -> store / formats / input -> projections -> domain.

Read from the source with ``ast`` (nothing is imported): every import of a honba module, at
the top of a module, inside a function or under ``TYPE_CHECKING`` (a type named from a
higher layer is a dependency on it all the same), must name a module of the same layer or a
lower one, and the modules import each other without a cycle, nor do the packages (two
packages of one layer, such as ``replay.input`` and ``replay.formats``, one way only). The front
ends never import the store or the formats: they call the service, and no module of the service
hands on a name of the store for them to import from there (a second address of the store's
class or function: ``re_exports``). Every module of ``replay`` lives in the package of its
layer: none is left at ``replay``'s root.

The checks run on a source tree given as a root directory, so that the last tests here can
plant a cycle, an upward import, a cycle between packages, a front end reaching below the service,
a service module handing on the store's names and a module without a layer in a tree of their
own and see each one caught.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("domain", "projections", "replay")

# The layers, lowest first; a module belongs to the layer of the package it is in.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("domain",),
    ("projections",),
    # The outside world's adapters: the store (the event store, its seals, the store chain and
    # checks of rows, the standings view's tables), the log and record formats, what people type.
    ("replay.store", "replay.formats", "replay.input"),
    # The use cases: plain values in, attrs values or plain data out, grouped by what they serve;
    # a group imports only the groups before it here (common first, imports last), which the
    # packages' cycle check holds them to. ``replay.service`` itself last: its root holds no module
    # (``test_no_module_is_left_without_a_layer``), but the planted trees below use it.
    (
        "replay.service.common",
        "replay.service.audit",
        "replay.service.tournaments",
        "replay.service.recording",
        "replay.service.director",
        "replay.service.imports",
        "replay.service",
    ),
    # The front ends: they parse and present; nothing below imports them.
    ("replay.cli", "replay.html", "replay.web"),
)
FRONT_ENDS = len(LAYERS) - 1
NAMES = ("domain", "projections", "store, formats, input", "service", "front ends")
# What the front ends never import: they call the service (and ``replay.input`` to read what was
# typed), which alone reaches the store and the formats.
BELOW_THE_SERVICE = ("replay.store", "replay.formats")


def module_name(root: Path, path: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the three packages by name, their own ``__init__`` modules left out."""
    found = {module_name(root, p): p for package in PACKAGES for p in sorted((root / package).rglob("*.py"))}
    return {name: path for name, path in found.items() if name not in PACKAGES}


def layer_of(module: str) -> int | None:
    for number, prefixes in enumerate(LAYERS):
        if any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes):
            return number
    return None


def imports_of(module: str, path: Path, known: set[str]) -> set[str]:
    """The honba modules a module imports anywhere in it: at the top, in a function, under
    ``TYPE_CHECKING`` (``from replay import cli`` names ``replay.cli``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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
    # A package's own __init__ is no dependency of its modules' layer order.
    return {name for name in found if name != module and name not in PACKAGES}


def graph(root: Path = ROOT) -> dict[str, set[str]]:
    found = modules(root)
    known = set(found)
    return {name: imports_of(name, path, known) for name, path in found.items()}


def without_layer(root: Path = ROOT) -> list[str]:
    """Modules in no layer, among them any module left at ``replay``'s root."""
    return sorted(name for name in modules(root) if layer_of(name) is None)


def package_of(module: str) -> str | None:
    """The package of the layers' list a module is in (``replay.formats.record.read``:
    ``replay.formats``), or None."""
    for prefixes in LAYERS:
        for prefix in prefixes:
            if module == prefix or module.startswith(prefix + "."):
                return prefix
    return None


def package_graph(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    """The imports between packages (``replay.input`` -> ``replay.formats``): two packages of one
    layer may each import the other without any cycle between their modules."""
    packages: dict[str, set[str]] = {}
    for module, targets in edges.items():
        here = package_of(module)
        for target in targets:
            there = package_of(target)
            if here is not None and there is not None and there != here:
                packages.setdefault(here, set()).add(there)
    return packages


def below_the_service(edges: dict[str, set[str]]) -> list[str]:
    """Every import of the store or a format by a front end."""
    return [
        f"{module} imports {target}"
        for module, targets in sorted(edges.items())
        if layer_of(module) == FRONT_ENDS
        for target in sorted(targets)
        if package_of(target) in BELOW_THE_SERVICE
    ]


SERVICE = 3


def re_exports(root: Path = ROOT) -> list[str]:
    """Every name a service module takes from the store only to hand it on: listed in its
    ``__all__``, or bound again at the module's top (``X = Name``) and used nowhere else. A front end
    that imports it from there reaches below the service all the same, under a second address."""
    found = []
    for module, path in sorted(modules(root).items()):
        if layer_of(module) != SERVICE:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        taken = {
            alias.asname or alias.name: f"{node.module}.{alias.name}"
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module and package_of(node.module) == "replay.store"
            for alias in node.names
        }
        listed: set[str] = set()
        rebound: list[ast.expr] = []
        for statement in tree.body:
            targets = (
                statement.targets
                if isinstance(statement, ast.Assign)
                else [statement.target]
                if isinstance(statement, ast.AnnAssign | ast.AugAssign)
                else []
            )
            value = statement.value if isinstance(statement, ast.Assign | ast.AnnAssign | ast.AugAssign) else None
            if any(isinstance(target, ast.Name) and target.id == "__all__" for target in targets) and value:
                listed |= {e.value for e in ast.walk(value) if isinstance(e, ast.Constant) and isinstance(e.value, str)}
            elif isinstance(value, ast.Name):
                rebound.append(value)
        # The names used other than as the whole value of a binding at the module's top.
        used = {
            node.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and not any(node is r for r in rebound)
        }
        rebound_names = {r.id for r in rebound}
        for name, source in sorted(taken.items()):
            if name in listed or (name in rebound_names and name not in used):
                found.append(f"{module} hands on {source}")
    return found


# The store's class: a front end holds what the service opened for it (``open_store``, ``OpenedStore``) and
# passes it on to the use cases, and never names the class, under its own name or a service's alias of it.
STORE_CLASS = "replay.store.application.HonbaApp"
# The event library the store is built on: only ``replay.store`` knows it (the service says its errors as
# the domain's, ``replay.service.common.opening.store_failures``).
LIBRARY = "eventsourcing"


def store_class_addresses(root: Path = ROOT) -> set[str]:
    """Every address of the store's class: its own, and each name a service module binds to it at its
    top (``Store: TypeAlias = HonbaApp``)."""
    addresses = {STORE_CLASS}
    for module, path in sorted(modules(root).items()):
        if layer_of(module) != SERVICE:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        local = {
            alias.asname or alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module
            for alias in node.names
            if f"{node.module}.{alias.name}" == STORE_CLASS
        }
        for statement in tree.body:
            if isinstance(statement, ast.Assign | ast.AnnAssign) and isinstance(statement.value, ast.Name):
                targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                if statement.value.id in local:
                    addresses |= {f"{module}.{t.id}" for t in targets if isinstance(t, ast.Name)}
    return addresses


def front_ends_naming_the_store(root: Path = ROOT) -> list[str]:
    """Every front-end module that imports the event library, or names the store's class (imported
    by any of its addresses, or read as an attribute of a module that holds one: ``opening.Store``)."""
    addresses = store_class_addresses(root)
    found = []
    for module, path in sorted(modules(root).items()):
        if layer_of(module) != FRONT_ENDS:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        held: dict[str, str] = {}  # a local name -> the module it names
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == LIBRARY:
                        found.append(f"{module} imports {alias.name}")
                    held[alias.asname or alias.name] = alias.name
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.split(".")[0] == LIBRARY:
                    found.append(f"{module} imports {node.module}")
                for alias in node.names:
                    address = f"{node.module}.{alias.name}"
                    if address in addresses:
                        found.append(f"{module} names the store's class as {address}")
                    held[alias.asname or alias.name] = address
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in held:
                address = f"{held[node.value.id]}.{node.attr}"
                if address in addresses:
                    found.append(f"{module} names the store's class as {address}")
    return found


def upward(edges: dict[str, set[str]]) -> list[str]:
    """Every import of a module from a higher layer."""
    wrong = []
    for module, targets in sorted(edges.items()):
        for target in sorted(targets):
            here, there = layer_of(module), layer_of(target)
            if here is not None and there is not None and there > here:
                wrong.append(f"{module} ({NAMES[here]}) imports {target} ({NAMES[there]})")
    return wrong


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every cycle a depth-first walk of the imports meets (each closing import once)."""
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1 on the path being walked, 2 done
    path: list[str] = []

    def walk(node: str) -> None:
        state[node] = 1
        path.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                found.append([*path[path.index(target) :], target])
            elif target not in state:
                walk(target)
        path.pop()
        state[node] = 2

    for node in sorted(edges):
        if node not in state:
            walk(node)
    return found


def test_no_module_is_left_without_a_layer() -> None:
    assert without_layer() == []
    assert [p.name for p in (ROOT / "replay").glob("*.py")] == ["__init__.py"]
    # Every use case lives in the group of what it serves: none is left at the service's root.
    assert [p.name for p in (ROOT / "replay" / "service").glob("*.py")] == ["__init__.py"]


def test_every_import_points_to_the_same_layer_or_a_lower_one() -> None:
    assert upward(graph()) == []


def test_the_modules_import_each_other_without_a_cycle() -> None:
    assert cycles(graph()) == []


def test_the_packages_import_each_other_without_a_cycle() -> None:
    assert cycles(package_graph(graph())) == []


def test_the_front_ends_reach_the_store_and_the_formats_only_through_the_service() -> None:
    assert below_the_service(graph()) == []


def test_the_front_ends_never_name_the_store_class_nor_import_the_event_library() -> None:
    # They hold the store the service opened and pass it on; its checkpoints, its closing and the
    # library's errors are the service's (replay/service/common/opening.py).
    assert front_ends_naming_the_store() == []


def test_no_service_module_hands_on_a_name_of_the_store() -> None:
    # One address per concept: the refusals front ends catch are the domain's (domain/store_errors.py),
    # the store as a front end holds it comes from the service's own functions (common/opening.py).
    assert re_exports() == []


def test_the_domain_imports_neither_projections_nor_replay_and_projections_no_replay() -> None:
    for module, targets in graph().items():
        if module.startswith("domain"):
            assert all(t.startswith("domain") for t in targets), module
        if module.startswith("projections"):
            assert not any(t.startswith("replay") for t in targets), module


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


def test_matplotlib_is_loaded_only_where_a_chart_is_drawn() -> None:
    # About a quarter of a second to import: inside the functions that draw, never at a module's top,
    # so that honba serve, the commands and the pages that draw no chart never load it.
    for module, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        top = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
        names = [a.name for n in top if isinstance(n, ast.Import) for a in n.names]
        names += [n.module or "" for n in top if isinstance(n, ast.ImportFrom)]
        assert not any(n.split(".")[0] == "matplotlib" for n in names), module


def test_every_package_is_found_for_a_non_editable_install() -> None:
    # ``pip install .`` ships only the packages pyproject's find includes; a package left out imports
    # in the editable install the tests use and fails in a user's.
    import fnmatch
    import tomllib

    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    find = setuptools["packages"]["find"]
    packages = {
        module_name(ROOT, p.parent / "__init__.py") for top in PACKAGES for p in (ROOT / top).rglob("__init__.py")
    }
    assert packages
    left_out = {p for p in packages if not any(fnmatch.fnmatchcase(p, pattern) for pattern in find["include"])}
    assert not left_out


# The checks themselves, on a small tree of their own with each fault planted.


def plant(root: Path, files: dict[str, str]) -> Path:
    for package in PACKAGES:
        (root / package).mkdir(parents=True, exist_ok=True)
        (root / package / "__init__.py").write_text("", encoding="utf-8")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        (path.parent / "__init__.py").touch()
        path.write_text(text, encoding="utf-8")
    return root


def test_a_cycle_through_a_type_only_import_is_caught(tmp_path: Path) -> None:
    root = plant(
        tmp_path,
        {
            "replay/service/a.py": "from replay.service.b import B\n",
            "replay/service/b.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from replay.service.a import A\nB = 1\n"
            ),
        },
    )
    assert cycles(graph(root)) == [["replay.service.a", "replay.service.b", "replay.service.a"]]


def test_a_cycle_through_an_import_inside_a_function_is_caught(tmp_path: Path) -> None:
    root = plant(
        tmp_path,
        {
            "replay/store/a.py": "def f():\n    from replay.store.b import g\n",
            "replay/store/b.py": "from replay.store.a import f\n",
        },
    )
    assert cycles(graph(root)) == [["replay.store.a", "replay.store.b", "replay.store.a"]]


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("replay/store/low.py", "replay.service.high"),
        ("replay/service/low.py", "replay.web.high"),
        ("projections/low.py", "replay.store.high"),
    ],
)
def test_an_import_from_a_higher_layer_is_caught(tmp_path: Path, importer: str, imported: str) -> None:
    high = imported.replace(".", "/") + ".py"
    root = plant(tmp_path, {importer: f"from {imported} import X\n", high: "X = 1\n"})
    assert len(upward(graph(root))) == 1


def test_a_module_at_the_root_of_replay_is_caught(tmp_path: Path) -> None:
    root = plant(tmp_path, {"replay/service/ok.py": "", "replay/loose.py": ""})
    assert without_layer(root) == ["replay.loose"]


def test_a_cycle_between_two_packages_of_one_layer_is_caught(tmp_path: Path) -> None:
    # No module cycle: input.fields -> formats.logmodel, formats.record.read -> input.entry.
    root = plant(
        tmp_path,
        {
            "replay/input/fields.py": "from replay.formats.logmodel import shown\n",
            "replay/input/entry.py": "X = 1\n",
            "replay/formats/logmodel.py": "def shown(value): return repr(value)\n",
            "replay/formats/record/read.py": "from replay.input.entry import X\n",
        },
    )
    edges = graph(root)
    assert cycles(edges) == []
    assert cycles(package_graph(edges)) == [["replay.formats", "replay.input", "replay.formats"]]


@pytest.mark.parametrize(
    ("front_end", "imported"),
    [
        ("replay/web/page.py", "replay.store.application"),
        ("replay/cli/command.py", "replay.formats.note"),
        ("replay/html/chart.py", "replay.formats.record.write"),
    ],
)
def test_a_front_end_reaching_below_the_service_is_caught(tmp_path: Path, front_end: str, imported: str) -> None:
    below = imported.replace(".", "/") + ".py"
    root = plant(tmp_path, {front_end: f"def f():\n    from {imported} import X\n", below: "X = 1\n"})
    module = front_end.removesuffix(".py").replace("/", ".")
    assert below_the_service(graph(root)) == [f"{module} imports {imported}"]
    # Through the service it is not caught.
    root = plant(
        tmp_path / "through",
        {
            front_end: "from replay.service.facade import X\n",
            "replay/service/facade.py": f"from {imported} import X\n",
            below: "X = 1\n",
        },
    )
    assert below_the_service(graph(root)) == []


def test_a_cycle_between_two_groups_of_the_service_is_caught(tmp_path: Path) -> None:
    # No module cycle: recording.table -> tournaments.standings, tournaments.sign_off ->
    # recording.recording; the groups import each other all the same.
    root = plant(
        tmp_path,
        {
            "replay/service/recording/table.py": "from replay.service.tournaments.standings import S\n",
            "replay/service/recording/recording.py": "R = 1\n",
            "replay/service/tournaments/standings.py": "S = 1\n",
            "replay/service/tournaments/sign_off.py": "from replay.service.recording.recording import R\n",
        },
    )
    edges = graph(root)
    assert cycles(edges) == []
    assert cycles(package_graph(edges)) == [
        ["replay.service.recording", "replay.service.tournaments", "replay.service.recording"]
    ]


# The service's old errors.py (before the refusals moved to domain/store_errors.py): the store's
# classes imported and listed in ``__all__``, so that front ends would import them "from the service".
OLD_SERVICE_ERRORS = """
from replay.store.errors import (
    UNAVAILABLE,
    DamagedMatch,
    MatchNotFound,
    StoreConflict,
    StoreError,
    StoreUnavailable,
    TournamentNotFound,
)

__all__ = ["UNAVAILABLE", "DamagedMatch", "MatchNotFound", "StoreConflict", "StoreError", "StoreUnavailable",
           "TournamentNotFound"]
"""


def test_a_service_module_listing_the_stores_names_in_all_is_caught(tmp_path: Path) -> None:
    store = "UNAVAILABLE = ()\n" + "".join(
        f"class {name}(Exception): ...\n"
        for name in ("DamagedMatch", "MatchNotFound", "StoreConflict", "StoreError", "StoreUnavailable")
    )
    root = plant(
        tmp_path,
        {
            "replay/store/errors.py": store + "class TournamentNotFound(Exception): ...\n",
            "replay/service/common/errors.py": OLD_SERVICE_ERRORS,
            "replay/web/app.py": "from replay.service.common.errors import MatchNotFound\n",
        },
    )
    # The layers' other checks see nothing wrong: the front end imports the service.
    assert below_the_service(graph(root)) == [] and upward(graph(root)) == []
    assert re_exports(root) == [
        f"replay.service.common.errors hands on replay.store.errors.{name}"
        for name in (
            "DamagedMatch",
            "MatchNotFound",
            "StoreConflict",
            "StoreError",
            "StoreUnavailable",
            "TournamentNotFound",
            "UNAVAILABLE",
        )
    ]


def test_a_store_name_bound_again_and_not_used_is_caught_and_one_used_is_not(tmp_path: Path) -> None:
    root = plant(
        tmp_path,
        {
            "replay/store/application.py": "class HonbaApp: ...\ndef open_view(app): ...\n",
            "replay/service/common/opening.py": (
                "from replay.store.application import HonbaApp as _App, open_view\nApp = _App\n"
                "def opened(app):\n    return open_view(app)\n"
            ),
        },
    )
    # open_view is used by the service's own function; HonbaApp is only handed on, as App.
    assert re_exports(root) == ["replay.service.common.opening hands on replay.store.application.HonbaApp"]


# What replay/cli/shell.py and replay/cli/tournaments.py did before the service's ``OpenedStore`` and
# ``store_failures`` (issue 35): the library's error imported, the store's class named by the service's alias.
OLD_SHELL = """from eventsourcing.persistence import PersistenceError
from replay.service.common.opening import Store, open_store

class Shell:
    def __init__(self, db):
        self._app: Store | None = None
"""
OPENING = """from typing import TypeAlias
from replay.store.application import HonbaApp

Store: TypeAlias = HonbaApp

def open_store(db): return HonbaApp.open(db)
"""


def test_a_front_end_importing_the_event_library_or_naming_the_store_class_is_caught(tmp_path: Path) -> None:
    root = plant(
        tmp_path,
        {
            "replay/cli/shell.py": OLD_SHELL,
            "replay/cli/tournaments.py": (
                "from replay.service.common import opening\ndef change(c: opening.Store) -> None: ...\n"
            ),
            "replay/web/app.py": "import eventsourcing.application\nfrom replay.store.application import HonbaApp\n",
            "replay/service/common/opening.py": OPENING,
            "replay/store/application.py": "class HonbaApp: ...\n",
        },
    )
    assert store_class_addresses(root) == {STORE_CLASS, "replay.service.common.opening.Store"}
    assert front_ends_naming_the_store(root) == [
        "replay.cli.shell imports eventsourcing.persistence",
        "replay.cli.shell names the store's class as replay.service.common.opening.Store",
        "replay.cli.tournaments names the store's class as replay.service.common.opening.Store",
        "replay.web.app imports eventsourcing.application",
        "replay.web.app names the store's class as replay.store.application.HonbaApp",
    ]
    # A use case's function, the service's handle and the store opened for the front end are not the class.
    root = plant(
        tmp_path / "through",
        {
            "replay/cli/shell.py": (
                "from replay.service.common.opening import OpenedStore, open_store\n"
                "class Shell(OpenedStore): ...\nAPP = open_store(None)\n"
            ),
            "replay/service/common/opening.py": OPENING + "class OpenedStore: ...\n",
            "replay/store/application.py": "class HonbaApp: ...\n",
        },
    )
    assert front_ends_naming_the_store(root) == []
