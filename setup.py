"""honba's build: the hot modules (``domain/compiled.py``'s ``MODULES``) compiled with mypyc.

Everything else about the package is in pyproject.toml; this file adds the extension modules only.
A pure-Python build instead when ``HONBA_PURE`` is set (not 0), when there is no C compiler or no
Python headers (one line says so; pip shows a build's lines with ``-v``), or when the compile fails:
the package is the same and runs its sources. Every build writes ``domain/compiled.txt`` where the
package is built (in place for an editable install): each compiled module's source digest, which
``domain.compiled.guard`` compares at run time, or why nothing was compiled.

The C is split a file a module (mypyc's ``multi_file``) and compiled on every core this process may use.
"""

from __future__ import annotations

import importlib.machinery
import os
import runpy
import shutil
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
# The guard module, read without importing honba (its packages' __init__ would place the guard here).
COMPILED = runpy.run_path(str(HERE / "domain" / "compiled.py"))
MODULES: tuple[str, ...] = COMPILED["MODULES"]
RECORD: str = COMPILED["RECORD"]
RECORD_TEXT = COMPILED["record_text"]
# The commands that build (pip's PEP 517 hooks run ``bdist_wheel`` and ``editable_wheel``); the metadata
# hooks (``egg_info``, ``dist_info``) need no compile.
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "install", "develop"}


def say(line: str) -> None:
    print(f"honba: {line}", file=sys.stderr, flush=True)


def why_not_compile() -> str | None:
    """Why this build is pure Python, or None to compile."""
    if os.environ.get("HONBA_PURE", "") not in ("", "0"):
        return "HONBA_PURE is set"
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}); apt-get install build-essential python3-dev to compile"
    include = sysconfig.get_path("include")
    if not (Path(include) / "Python.h").is_file():
        return f"no Python headers ({include}/Python.h); apt-get install python3-dev to compile"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed in the build environment (mypy, pyproject.toml's build requirements)"
    return None


def write_record(folder: Path, record: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / RECORD).write_text(record, encoding="utf-8")


class BuildExt(build_ext):
    """setuptools' build_ext, with an extension's C files compiled in parallel, a failed compile taken
    as a pure-Python build, and the record written beside the modules it describes."""

    # What extensions() decided: the compiled modules' sources, or why none is compiled.
    record: str = RECORD_TEXT(HERE, pure="no extension was built")

    def build_extension(self, ext: Any) -> None:
        compile_one = self.compiler.compile

        def compile_all(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            if len(sources) < 2:
                return list(compile_one(sources, *args, **kwargs))
            cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
            with ThreadPoolExecutor(cores) as pool:
                parts = pool.map(lambda source: compile_one([source], *args, **kwargs), sources)
                return [obj for part in parts for obj in part]

        self.compiler.compile = compile_all
        try:
            super().build_extension(ext)
        finally:
            self.compiler.compile = compile_one

    def run(self) -> None:
        # Read before the build: setuptools' build_ext clears ``inplace`` while it runs and leaves it so
        # when the compile raises.
        inplace = bool(self.inplace or getattr(self, "editable_mode", False))
        try:
            super().run()
        except Exception as error:  # a compiler or linker failure: the pure package instead
            say(f"compiling failed ({type(error).__name__}: {error}); installing pure Python")
            self.extensions = []
            BuildExt.record = RECORD_TEXT(HERE, pure=f"the compile failed ({type(error).__name__})")
            if inplace:
                # What an earlier build left beside the sources is not this build's.
                remove_extensions()
        write_record(Path(self.build_lib) / "domain", BuildExt.record)
        if inplace:
            write_record(HERE / "domain", BuildExt.record)


class BuildPy(build_py):
    """setuptools' build_py, with the record of a build that compiles nothing (build_ext then does not
    run) written beside the package's modules."""

    def run(self) -> None:
        super().run()
        write_record(Path(self.build_lib) / "domain", BuildExt.record)


def in_place() -> bool:
    """Whether this build puts its modules beside the sources (an editable install)."""
    args = set(sys.argv[1:])
    return bool({"editable_wheel", "develop"} & args or ("build_ext" in args and {"--inplace", "-i"} & args))


def remove_extensions() -> None:
    """The compiled files an earlier build left beside the sources (an editable install's), removed: a
    module since dropped from ``MODULES`` would otherwise still be loaded compiled, as would mypyc's
    shared library of that build, whatever the guard decides for the modules of this one."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for package in ("domain", "projections", "replay"):
        for found in (HERE / package).rglob("*"):
            if found.name.endswith(suffixes):
                found.unlink()
    for found in HERE.glob("*__mypyc*"):
        if found.name.endswith(suffixes):
            found.unlink()


def pure(why: str) -> list[Any]:
    """No extension module: said why, and recorded (in place at once, since no build_ext may run)."""
    say(f"building pure Python: {why}")
    BuildExt.record = RECORD_TEXT(HERE, pure=why)
    if in_place():
        remove_extensions()
        write_record(HERE / "domain", BuildExt.record)
    return []


def extensions() -> list[Any]:
    """mypyc's extension modules for ``MODULES`` (it generates their C now), or none, said why."""
    if not BUILDS.intersection(sys.argv[1:]):
        return []
    why = why_not_compile()
    if why is not None:
        return pure(why)
    from mypyc.build import mypycify

    os.chdir(HERE)  # mypy reads its settings from pyproject.toml here
    say(f"compiling {len(MODULES)} modules with mypyc (HONBA_PURE=1 for a pure-Python build)")
    record = RECORD_TEXT(HERE, MODULES, installed=not in_place())
    try:
        built = mypycify(list(MODULES), opt_level="3", multi_file=True)
    except (SystemExit, Exception) as error:  # mypy's type errors end mypycify with sys.exit
        return pure(f"mypyc refused the modules ({type(error).__name__}: {error})")
    if in_place():
        remove_extensions()
    BuildExt.record = record
    return list(built)


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildExt, "build_py": BuildPy})
