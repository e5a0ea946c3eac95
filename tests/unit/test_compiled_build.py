"""The compiled build's guard (domain/compiled.py): a module compiled by mypyc runs only while every
compiled module's source is the one compiled and HONBA_PURE is unset; otherwise every listed module
runs from its source, and a stale build is said once, in one line, with how to rebuild.

On planted trees of real sources and a record as setup.py writes it; tests/e2e/test_compiled_install.py
runs the same cases on this checkout's own build in fresh processes, and installs honba pure.
"""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import tomllib
from pathlib import Path

import pytest
from conftest import REPO
from packaging.requirements import Requirement

from domain.compiled import MODULES, RECORD, SAID, SourceFirst, decide, module_name, read_record, record_text

EVERY = frozenset(module_name(path) for path in MODULES)
BUILT = ("domain/bounds.py", "domain/said.py", "replay/formats/tenhou_xml.py")


def planted(root: Path, pure: str | None = None) -> Path:
    """Real sources of three listed modules under ``root``, with the record of a build of them (or of
    a build that compiled nothing, and why), as setup.py writes it."""
    for path in BUILT:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / path, root / path)
    record = record_text(root, BUILT) if pure is None else record_text(root, pure=pure)
    (root / "domain" / RECORD).write_text(record, encoding="utf-8")
    return root


def test_every_listed_module_is_a_source_of_this_tree() -> None:
    # setup.py compiles the list as it is: a module renamed or removed would fail every install.
    assert MODULES
    assert [path for path in MODULES if not (REPO / path).is_file()] == []
    assert len(set(MODULES)) == len(MODULES)


def test_a_fresh_build_runs_compiled(tmp_path: Path) -> None:
    decision = decide(planted(tmp_path), {})
    assert decision.why_pure is None
    assert decision.sources == frozenset()
    assert decision.say is None


def test_an_edited_source_runs_every_listed_module_from_source_and_says_so_in_one_line(tmp_path: Path) -> None:
    root = planted(tmp_path)
    with (root / "domain" / "said.py").open("a", encoding="utf-8") as source:
        source.write("# edited after the build\n")
    decision = decide(root, {})
    assert decision.why_pure == "the compiled modules are older than their sources (domain/said.py changed)"
    # mypyc's calls within a build are direct: the unchanged modules are not trusted either.
    assert decision.sources >= EVERY | {"domain.bounds", "replay.formats.tenhou_xml"}
    assert decision.say is not None
    assert "\n" not in decision.say
    assert "domain/said.py changed" in decision.say
    assert "pip install -e ." in decision.say


def test_an_edit_of_the_same_size_is_caught_by_its_digest(tmp_path: Path) -> None:
    root = planted(tmp_path)
    source = root / "domain" / "bounds.py"
    text = source.read_bytes()
    source.write_bytes(text[:-2] + (b"#\n" if text[-2:] != b"#\n" else b" \n"))
    assert decide(root, {}).why_pure == "the compiled modules are older than their sources (domain/bounds.py changed)"


def test_an_installed_build_compares_sizes_only_and_reads_no_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A wheel's files get the time pip installs them: recorded with time 0, they are not read at every
    # start (a digest of each source cost 50 M instructions); a file of another size is still caught.
    root = tmp_path
    for path in BUILT:
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / path, root / path)
    (root / "domain" / RECORD).write_text(record_text(root, BUILT, installed=True), encoding="utf-8")
    import domain.compiled

    read: list[str] = []
    monkeypatch.setattr(domain.compiled, "source_digest", lambda path: read.append(str(path)) or "")
    assert decide(root, {}).why_pure is None and read == []
    with (root / "domain" / "bounds.py").open("a", encoding="utf-8") as source:
        source.write("# edited\n")
    stale = decide(root, {})
    assert stale.why_pure == "the compiled modules are older than their sources (domain/bounds.py changed)"
    assert stale.say is not None and "pip install --force-reinstall ." in stale.say


def test_a_touched_source_whose_bytes_are_the_same_is_still_fresh(tmp_path: Path) -> None:
    # A checkout or an installed wheel's files have other modification times than the build's.
    root = planted(tmp_path)
    source = root / "replay" / "formats" / "tenhou_xml.py"
    stat = source.stat()
    os.utime(source, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))
    assert decide(root, {}).why_pure is None


def test_a_removed_source_is_stale(tmp_path: Path) -> None:
    root = planted(tmp_path)
    (root / "domain" / "bounds.py").unlink()
    assert decide(root, {}).why_pure == "the compiled modules are older than their sources (domain/bounds.py changed)"


def test_the_processes_a_stale_process_starts_run_the_sources_without_saying_it_again(tmp_path: Path) -> None:
    root = planted(tmp_path)
    (root / "domain" / "said.py").write_text("# another module\n", encoding="utf-8")
    decision = decide(root, {SAID: "1"})
    assert decision.sources >= EVERY
    assert decision.say is None


def test_honba_pure_runs_the_sources_of_a_fresh_build(tmp_path: Path) -> None:
    root = planted(tmp_path)
    decision = decide(root, {"HONBA_PURE": "1"})
    assert decision.why_pure == "HONBA_PURE is set"
    assert decision.sources >= EVERY
    assert decision.say is None
    assert decide(root, {"HONBA_PURE": "0"}).why_pure is None
    assert decide(root, {"HONBA_PURE": ""}).why_pure is None


def test_without_a_record_or_with_a_pure_build_the_sources_run(tmp_path: Path) -> None:
    # A pure build in place replaces a compiled build's record; the old compiled files beside the
    # sources must not run then.
    pure = decide(planted(tmp_path / "pure", pure="HONBA_PURE is set"), {})
    assert pure.why_pure == "installed without compiling: HONBA_PURE is set"
    assert pure.sources == EVERY
    none = tmp_path / "none"
    planted(none)
    (none / "domain" / RECORD).unlink()
    assert decide(none, {}).why_pure == "not compiled: no build record"
    assert decide(none, {}).sources == EVERY
    (none / "domain" / RECORD).write_text("a line that is no record\n", encoding="utf-8")
    assert decide(none, {}).why_pure == "not compiled: no build record"


def test_the_finder_takes_the_source_before_the_compiled_module_beside_it(tmp_path: Path) -> None:
    package = tmp_path / "planted"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "hot.py").write_text("WHERE = 'source'\n", encoding="utf-8")
    (package / "cold.py").write_text("WHERE = 'source'\n", encoding="utf-8")
    for name in ("hot", "cold"):
        (package / f"{name}{importlib.machinery.EXTENSION_SUFFIXES[0]}").write_bytes(b"an old build")
    # Python's own finder takes an extension module before the source beside it: the shadowing.
    default = importlib.machinery.PathFinder.find_spec("planted.hot", [str(package)])
    assert default is not None
    assert default.origin is not None
    assert default.origin.endswith(importlib.machinery.EXTENSION_SUFFIXES[0])
    finder = SourceFirst(frozenset({"planted.hot"}))
    spec = finder.find_spec("planted.hot", [str(package)])
    assert spec is not None
    assert spec.origin == str(package / "hot.py")
    assert finder.find_spec("planted.cold", [str(package)]) is None  # not listed: Python's finder decides
    assert finder.find_spec("planted", None) is None


def test_the_build_reads_the_types_of_the_dependencies_it_installs() -> None:
    # mypyc type-checks the compiled modules in pip's build environment: the libraries it reads must
    # be the releases honba runs with (the same bounds as the dependencies').
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    runs_with = {Requirement(text).name: Requirement(text).specifier for text in project["project"]["dependencies"]}
    for text in project["build-system"]["requires"]:
        needed = Requirement(text)
        if needed.name in ("setuptools", "mypy"):
            continue
        assert needed.name in runs_with, needed.name
        assert needed.specifier == runs_with[needed.name], needed.name
    mypy = [Requirement(t) for t in project["build-system"]["requires"] if Requirement(t).name == "mypy"]
    assert [str(r.specifier) for r in mypy] == ["==2.4.1"]


@pytest.mark.parametrize("path", BUILT)
def test_the_record_holds_each_sources_digest(tmp_path: Path, path: str) -> None:
    import hashlib

    record = read_record(planted(tmp_path))
    assert record is not None
    digest, size, _ = record[0][path]
    assert digest == hashlib.sha256((REPO / path).read_bytes()).hexdigest()
    assert size == (REPO / path).stat().st_size
    assert record[1] is None
