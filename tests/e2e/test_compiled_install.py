"""honba compiled and pure, as processes run it: this checkout's own compiled build (the README's install
compiles it in place) runs compiled while its sources are the ones compiled, from source once one is
edited (said once, on stderr, in one line) or when HONBA_PURE is set; and ``pip install`` builds the pure
package with HONBA_PURE=1 or without a C compiler, saying so (a venv in a temporary folder).

The first tests copy the build (its sources, its compiled files and its record) so that an edit never
touches the checkout; they skip where this checkout is not a fresh compiled build (a pure install, or a
tree run as it is). The installs build a wheel each (pip's isolated build environment: from the package
index or pip's cache).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from conftest import REPO

from domain.compiled import MODULES, RECORD, SAID, decide

pytestmark = pytest.mark.slow

WHICH = (
    "import domain.compiled as c, domain.bounds as b, replay.formats.tenhou_xml as t; "
    "print(c.describe()); print(c.is_compiled(b), c.is_compiled(t))"
)


def _environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("HONBA_PURE", SAID, "PYTHONPATH")}
    return {**env, **extra}


@pytest.fixture
def built_copy(tmp_path: Path) -> Path:
    """This checkout's compiled build, copied with its modification times (the record's fast path)."""
    if decide(REPO, {}).why_pure is not None:
        pytest.skip(f"this checkout runs pure Python ({decide(REPO, {}).why_pure}): no compiled build to copy")
    for package in ("domain", "projections", "replay"):
        shutil.copytree(REPO / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    for group in REPO.glob("*__mypyc*"):  # mypyc's shared library of the build, beside the packages
        shutil.copy2(group, tmp_path / group.name)
    return tmp_path


def _run(root: Path, code: str, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-P", "-c", code],
        env=_environment(PYTHONPATH=str(root), **extra),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_fresh_build_runs_its_compiled_modules(built_copy: Path) -> None:
    done = _run(built_copy, WHICH)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"compiled (mypyc, {len(MODULES)} modules)", "True True"]
    assert done.stderr == ""


def test_honba_pure_runs_the_sources(built_copy: Path) -> None:
    done = _run(built_copy, WHICH, HONBA_PURE="1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["pure Python (HONBA_PURE is set)", "False False"]
    assert done.stderr == ""


def test_an_edited_source_runs_every_compiled_module_from_source_said_once(built_copy: Path) -> None:
    with (built_copy / "domain" / "scoring" / "points.py").open("a", encoding="utf-8") as source:
        source.write("EDITED = True  # after the build\n")
    # The edited module's new line runs, and so does every other listed module's source; a process it
    # starts (an import's reading workers) loads the sources too without saying it again.
    child = f"import subprocess, sys; subprocess.run([sys.executable, '-P', '-c', {WHICH!r}], check=True)"
    done = _run(built_copy, f"import domain.scoring.points as p; print(p.EDITED); {WHICH}; {child}")
    assert done.returncode == 0, done.stderr
    stale = "pure Python (the compiled modules are older than their sources (domain/scoring/points.py changed))"
    assert done.stdout.splitlines() == ["True", stale, "False False", stale, "False False"]
    assert len(done.stderr.splitlines()) == 1
    assert "domain/scoring/points.py changed since honba was compiled" in done.stderr
    assert "pip install -e ." in done.stderr


def test_honba_version_says_how_it_runs(built_copy: Path) -> None:
    done = _run(built_copy, "import sys; sys.argv = ['honba', '--version']; from replay.cli import main; main()")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith(f", compiled (mypyc, {len(MODULES)} modules)")
    pure = _run(
        built_copy, "import sys; sys.argv = ['honba', '--version']; from replay.cli import main; main()", HONBA_PURE="1"
    )
    assert pure.stdout.strip().endswith(", pure Python (HONBA_PURE is set)")


# The pure installs: a package of this tree's sources, installed into a venv of its own.


@pytest.fixture(scope="module")
def fresh_venv(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A venv with pip, and a copy of this tree's sources without any build of them."""
    where = tmp_path_factory.mktemp("pure-install")
    venv.create(where / "venv", with_pip=True)
    source = where / "source"
    ignore = shutil.ignore_patterns("__pycache__", "*.so", RECORD)
    for package in ("domain", "projections", "replay"):
        shutil.copytree(REPO / package, source / package, ignore=ignore)
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy2(REPO / name, source / name)
    return where / "venv", source


def _install(fresh_venv: tuple[Path, Path], **extra: str) -> tuple[subprocess.CompletedProcess[str], list[Path]]:
    """``pip install -v`` of the copy into the venv; what it said, and the compiled files it installed."""
    python = fresh_venv[0] / "bin" / "python"
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "-v", "--no-deps", "--force-reinstall", str(fresh_venv[1])],
        env=_environment(**extra),
        capture_output=True,
        text=True,
        timeout=600,
    )
    site = next((fresh_venv[0] / "lib").glob("python*/site-packages"))
    compiled = [
        p
        for p in site.rglob("*.so")
        if p.name.split(".")[0].endswith("__mypyc")
        or p.relative_to(site).parts[0] in ("domain", "projections", "replay")
    ]
    return done, compiled


def _describe(fresh_venv: tuple[Path, Path]) -> str:
    python = fresh_venv[0] / "bin" / "python"
    done = subprocess.run(
        [str(python), "-P", "-c", "from domain.compiled import describe; print(describe())"],
        env=_environment(),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=fresh_venv[0],
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_honba_pure_at_install_builds_no_extension(fresh_venv: tuple[Path, Path]) -> None:
    done, compiled = _install(fresh_venv, HONBA_PURE="1")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "honba: building pure Python: HONBA_PURE is set" in done.stdout + done.stderr
    assert compiled == []
    assert _describe(fresh_venv) == "pure Python (installed without compiling: HONBA_PURE is set)"


def test_without_a_c_compiler_the_pure_package_installs_saying_so(fresh_venv: tuple[Path, Path]) -> None:
    done, compiled = _install(fresh_venv, CC="/nonexistent/honba-cc")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    said = [line for line in (done.stdout + done.stderr).splitlines() if "honba: building pure Python" in line]
    assert len(said) == 1
    assert "no C compiler (/nonexistent/honba-cc)" in said[0]
    assert "build-essential python3-dev" in said[0]
    assert compiled == []
    assert _describe(fresh_venv).startswith("pure Python (installed without compiling: no C compiler")
