"""honba's hot modules compiled with mypyc in a scratch copy, measured against the same code interpreted.

    python -P benchmarks/mypyc_trial.py [--part import|service] [--pairs 3] [--keep DIR] [--no-measure]
                                        [--without MODULE ...]

The build path is ``setup.py`` (``pip install``, since the twenty-third round); this script is issue 36's
seventeenth-round trial, kept to measure a list of modules (``--without``) or another part before the
build compiles it: ``IMPORT`` is the build's own list (``domain/compiled.py``'s ``MODULES``), compiled here
by mypyc's command line (one C file) with the build's record written beside it, so that the stale guard
runs the compiled modules. This tree's committed code (``git archive HEAD``) is unpacked twice into a
temporary folder (or ``--keep DIR``): one copy stays interpreted, the other has ``--part``'s modules
(``IMPORT`` or ``SERVICE`` below) compiled in place by ``mypyc``; a module mypyc refuses is left
interpreted and said with mypyc's reason (``REFUSED`` lists those that compile but fail at run time).
A construct mypyc 2.4 cannot compile in an otherwise compilable hot module may be rewritten in the
compiled copy only (``REWRITES``: same behaviour, other spelling; empty since the source was rewritten).
Both copies' bytecode is compiled (this environment sets PYTHONDONTWRITEBYTECODE). Then, from the
compiled copy, with the interpreted copy as ``--also``: ``import``: ``worker_instructions.py`` (a reading
worker's job in instructions) and ``import_store.py --pairs`` (the import's CPU, paired); ``service``:
``service_hand.py`` (a recorded hand's service call in instructions). The compile's wall and CPU time are printed with
the load.

Needs gcc and the Python headers; mypyc is mypy's (in the test extra). The venv's setuptools may be
older than pyproject.toml's PEP 639 licence: the copy's pyproject.toml is moved aside while mypyc's
generated setup.py runs, and mypy's settings are read from it with ``--config-file``.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import runpy
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parent))

from machine import REPO, load_average, print_machine


def _names(text: str) -> list[str]:
    """Module paths written a few to a line."""
    return text.split()


# What a reading worker's job and the import's storing process run most (cProfile and cachegrind of
# ``worker_instructions.py``'s job): the list the build compiles (``domain/compiled.py``'s ``MODULES``),
# read from this tree's file without importing honba (the path may hold another tree's).
COMPILED = runpy.run_path(str(REPO / "domain" / "compiled.py"))
IMPORT: list[str] = list(COMPILED["MODULES"])
# A recorded hand's service call (``service_hand.py --profile``): the same domain and projections, the
# recording service, the store's modules around the save, the site's token check.
SERVICE = [m for m in IMPORT if m.startswith(("domain/", "projections/"))] + _names("""
replay/service/common/access.py replay/service/common/opening.py replay/service/common/rules.py
replay/service/common/shapes.py replay/service/recording/clock.py replay/service/recording/entry.py
replay/service/recording/matches.py replay/service/recording/recording.py replay/service/recording/table.py
replay/service/recording/tiles.py replay/store/checked.py replay/store/pgstore.py replay/store/mapper.py
replay/store/tokens.py replay/store/retry.py replay/store/rows.py replay/store/integrity.py
replay/store/streams.py replay/store/transcoding.py replay/store/evidence.py replay/store/findings.py
replay/web/site.py
""")
# Hot modules mypyc compiles but whose compiled form fails (left out of both lists); the ones it refuses
# to compile (domain/match.py, tournament.py, replay/store/application.py, chain.py, checkpoint.py,
# identity.py, seal.py) are found by the loop below and printed with mypyc's words.
REFUSED = {
    "projections/views.py": "replay/store/views.py's SQLiteDocumentView, interpreted, subclasses its DocumentView: "
    "'interpreted classes cannot inherit from compiled'",
    "replay/store/sqlite_store.py": "its __class__ assignment on the library's SQLiteDatastore: "
    "'object layout differs'",
    "replay/service/recording/changes.py": "class Opening(Said) subclasses an attrs class of a compiled module: "
    "mypyc's code generator fails (generate_richcompare_wrapper)",
    "domain/said.py": "its Said, compiled as a native class, refuses the interpreted Opening(Said) "
    "(twenty-third round: recording a match failed)",
}
# Constructs mypyc 2.4 refuses, rewritten in the compiled copy only: (old text, new text) by module. Empty
# since the twenty-third round wrote the seventeenth's four rewrites in the source itself (a Protocol's
# overloads with an implementation signature, a function nested in an attrs class's method at module level,
# a list for a starred generator in a tuple, the surrogate range as the pattern's escape).
REWRITES: dict[str, tuple[str, str]] = {}
ERROR = re.compile(r"^((?:domain|projections|replay)/[\w/]+\.py):\d+: (?:error|\w*Error)\b.*$", re.M)


def load() -> str:
    """The load average, as the benchmarks print it beside a figure."""
    return "load average " + load_average(1, ", ")


def unpack(into: Path) -> None:
    """This tree's committed code, as ``git archive`` gives it."""
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(REPO), "archive", "HEAD"], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)


def rewrite(tree: Path) -> None:
    """``REWRITES`` applied; one whose text is not found is said (mypyc may then refuse the module)."""
    for name, (old, new) in REWRITES.items():
        path = tree / name
        text = path.read_text()
        if old not in text:
            print(f"  rewrite of {name} not applied: its text moved (mypyc may refuse the module)")
            continue
        path.write_text(text.replace(old, new))


def compile_modules(tree: Path, modules: list[str]) -> list[str]:
    """mypyc over ``modules`` in ``tree``, a refused module dropped and the rest compiled again; the
    modules compiled. Prints each refusal and the compile's wall and CPU time."""
    config = tree.parent / "mypy-settings.toml"
    shutil.move(tree / "pyproject.toml", config)
    mypyc = Path(sys.executable).parent / "mypyc"
    left = list(modules)
    wall = cpu = 0.0
    try:
        while left:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            done = subprocess.run(
                [str(mypyc), "--config-file", str(config), *left], cwd=tree, capture_output=True, text=True
            )
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            wall += time.perf_counter() - start
            cpu += after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            if done.returncode == 0:
                break
            found = ERROR.search(done.stdout + done.stderr)
            if found is None or found.group(1) not in left:
                raise SystemExit(f"mypyc failed without naming a module:\n{(done.stdout + done.stderr)[-2000:]}")
            print(f"  refused: {found.group(0).strip()}")
            left.remove(found.group(1))
    finally:
        shutil.move(config, tree / "pyproject.toml")
        shutil.rmtree(tree / "build", ignore_errors=True)
    # The build's record of the compiled sources, as setup.py writes it: without it the stale guard
    # (domain/compiled.py) loads every listed module from its source.
    (tree / "domain" / COMPILED["RECORD"]).write_text(COMPILED["record_text"](tree, left), encoding="utf-8")
    print(f"  compiled {len(left)} of {len(modules)} modules: {wall:.0f} s wall, {cpu:.0f} s CPU ({load()})")
    return left


def run(tree: Path, *command: str) -> None:
    """A benchmark of ``tree`` (the compiled copy) run with its own path first, its output shown."""
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    subprocess.run([sys.executable, "-P", *command], cwd=tree, env=env, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("import", "service"), default="import")
    parser.add_argument("--pairs", type=int, default=3, help="import: paired runs of each copy")
    parser.add_argument("--keep", type=Path, help="unpack and keep the two copies here (a new folder)")
    parser.add_argument("--no-measure", action="store_true", help="compile only")
    parser.add_argument("--without", nargs="*", default=[], help="modules of --part left interpreted")
    args = parser.parse_args()
    print_machine()
    work = args.keep or Path(tempfile.mkdtemp(prefix="honba-mypyc-"))
    compiled, interpreted = work / "compiled", work / "interpreted"
    try:
        unpack(compiled)
        unpack(interpreted)
        # The benchmarks read the corpus beside their checkout (``machine.CORPUS``).
        if not (work / "shared").exists():
            (work / "shared").symlink_to((REPO.parent / "shared").resolve())
        rewrite(compiled)
        modules = [m for m in (IMPORT if args.part == "import" else SERVICE) if m not in args.without]
        print(f"mypyc, part {args.part}: {len(modules)} modules; left interpreted: {', '.join(sorted(REFUSED))}")
        compile_modules(compiled, modules)
        for tree in (compiled, interpreted):
            subprocess.run(
                [sys.executable, "-m", "compileall", "-q", "domain", "projections", "replay", "benchmarks"],
                cwd=tree,
                check=True,
            )
        if args.no_measure:
            return
        if args.part == "import":
            run(compiled, "benchmarks/worker_instructions.py", "--also", str(interpreted))
            run(compiled, "benchmarks/import_store.py", "--also", str(interpreted), "--pairs", str(args.pairs))
        else:
            run(compiled, "benchmarks/service_hand.py", "--also", str(interpreted))
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
