"""Which of honba's modules run compiled by mypyc, and the guard that keeps a stale compiled module from
running in place of its edited source.

``MODULES`` is the one list of the modules the build compiles (``setup.py`` and
``benchmarks/mypyc_trial.py`` read it from here). The build writes ``compiled.json`` beside this file:
each compiled module's source digest (and size and modification time, so that an unchanged checkout is
checked with a ``stat`` a file, not a read). ``guard()`` runs when ``domain``, ``projections`` or
``replay`` is first imported (their ``__init__``), before any listed module can be: unless the record's
modules are all as they were built, and ``HONBA_PURE`` is unset, every listed module is loaded from its
source for this process by a finder placed first on ``sys.meta_path``. mypyc's calls between the modules
of one build are direct C calls, so one stale module makes the whole build suspect, not only itself.

This module imports nothing of honba and runs at the start of every process: the standard library only,
and as little work as an unchanged build allows.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Mapping, Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

# The hot modules of an import's reading worker and storing process (docs/performance.md, issue 36,
# seventeenth and twenty-third rounds), as paths from the project's root.
MODULES: tuple[str, ...] = (
    "domain/amendments.py",
    "domain/bounds.py",
    "domain/clock.py",
    "domain/codec.py",
    "domain/draw.py",
    "domain/entry_checks.py",
    "domain/errors.py",
    "domain/integrity.py",
    "domain/progression.py",
    "domain/said.py",
    "domain/scoring/checks.py",
    "domain/scoring/memo.py",
    "domain/scoring/payments.py",
    "domain/scoring/points.py",
    "domain/scoring/riichi.py",
    "domain/scoring/units.py",
    "domain/seating.py",
    "domain/special_hands.py",
    "domain/stages.py",
    "domain/store_errors.py",
    "domain/win_facts.py",
    "projections/entries.py",
    "projections/ledger.py",
    "projections/needs.py",
    "projections/ratings.py",
    "projections/standings.py",
    "projections/standings_view.py",
    "projections/stats.py",
    "projections/table.py",
    "replay/formats/tenhou_xml.py",
    "replay/formats/tenhou_xml_tiles.py",
    "replay/formats/yaku.py",
    "replay/formats/tenhou_rules.py",
    "replay/formats/tenhou_vocab.py",
    "replay/formats/detect.py",
    "replay/formats/source.py",
    "replay/formats/mjai.py",
    "replay/store/mapper.py",
    "replay/service/imports/verify.py",
    "replay/service/imports/storing.py",
    "replay/service/imports/batch.py",
    "replay/service/imports/importing.py",
)
RECORD = "compiled.json"
# The project's root: the folder holding domain/, projections/ and replay/ (a checkout, or site-packages).
ROOT = Path(__file__).resolve().parent.parent
# Set by the first process that says the build is stale, so that the processes it starts (an import's
# reading workers) load the sources without saying it again.
SAID = "HONBA_STALE_SAID"
REBUILD = "pip install -e ."


def module_name(path: str) -> str:
    """``domain/scoring/memo.py`` -> ``domain.scoring.memo``."""
    return path.removesuffix(".py").replace("/", ".")


def source_digest(path: Path) -> str:
    """The SHA-256 of a source file's bytes, as the build records it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def record_of(root: Path, modules: Sequence[str]) -> dict[str, dict[str, object]]:
    """What the build writes of each compiled module's source: digest, size, modification time."""
    found: dict[str, dict[str, object]] = {}
    for path in modules:
        source = root / path
        stat = source.stat()
        found[path] = {"sha256": source_digest(source), "size": stat.st_size, "mtime_ns": stat.st_mtime_ns}
    return found


def changed(root: Path, modules: dict[str, dict[str, object]]) -> str | None:
    """The first recorded module whose source is not the one compiled, or None. A size and modification
    time as recorded is taken as unchanged (an editable install's own files); any other is read and its
    digest compared (an installed wheel's files, a touched file)."""
    # os.stat on text paths: pathlib's joins cost more than the stat calls at every process's start.
    folder = os.fspath(root)
    for path, built in modules.items():
        source = os.path.join(folder, path)
        try:
            stat = os.stat(source)
        except OSError:
            return path
        if stat.st_size != built.get("size"):
            return path
        if stat.st_mtime_ns != built.get("mtime_ns") and source_digest(Path(source)) != built.get("sha256"):
            return path
    return None


class SourceFirst(MetaPathFinder):
    """Finds the named modules' ``.py`` files in their package's folders, ahead of the compiled
    extension modules beside them."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in self.names or path is None:
            return None
        leaf = fullname.rpartition(".")[2] + ".py"
        for folder in path:
            source = os.path.join(folder, leaf)
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


@dataclasses.dataclass(frozen=True)
class Decision:
    """What ``guard`` does in a process: run the build's compiled modules (``why_pure`` None), or load
    ``sources`` from their ``.py`` files, and the line to say on stderr (None: nothing to say). A
    dataclass, not attrs: setup.py runs this module where attrs may not be installed."""

    why_pure: str | None
    sources: frozenset[str]
    say: str | None


def read_record(root: Path) -> dict[str, object] | None:
    """The build's record (``compiled.json``) under ``root``'s domain/, or None without one."""
    try:
        data = json.loads((root / "domain" / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def decide(root: Path, environ: Mapping[str, str]) -> Decision:
    """Whether the build's compiled modules under ``root`` may run in a process with ``environ``."""
    record = read_record(root)
    built: dict[str, dict[str, object]] = {}
    if record is not None and isinstance(record.get("modules"), dict):
        built = record["modules"]  # type: ignore[assignment]
    said = None
    if environ.get("HONBA_PURE", "") not in ("", "0"):
        why: str | None = "HONBA_PURE is set"
    elif record is None:
        why = "not compiled: no build record"
    elif not built:
        why = f"installed without compiling: {record.get('pure', 'no reason recorded')}"
    else:
        stale = changed(root, built)
        why = None if stale is None else f"the compiled modules are older than their sources ({stale} changed)"
        if stale is not None and not environ.get(SAID):
            said = (
                f"honba: {stale} changed since honba was compiled: running every compiled module from its "
                f"source in this process; rebuild with `{REBUILD}` (or set HONBA_PURE=1)"
            )
    sources = frozenset() if why is None else frozenset(module_name(p) for p in (*MODULES, *built))
    return Decision(why, sources, said)


# What guard() decided for this process (None until it runs).
_decision: Decision | None = None


def guard() -> Decision:
    """Load every listed module from its source for this process unless the build's compiled modules
    are all fresh; say once, on stderr, when they are stale. Decides once a process."""
    global _decision
    if _decision is None:
        _decision = decide(ROOT, os.environ)
        if _decision.sources:
            sys.meta_path.insert(0, SourceFirst(_decision.sources))
        if _decision.say is not None:
            print(_decision.say, file=sys.stderr)
            os.environ[SAID] = "1"
    return _decision


_EXTENSIONS = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def is_compiled(module: ModuleType) -> bool:
    """Whether a module was loaded from a compiled extension module."""
    origin = getattr(module.__spec__, "origin", None) or ""
    return origin.endswith(_EXTENSIONS)


def describe() -> str:
    """How this process runs honba: ``compiled (mypyc, N modules)``, or ``pure Python (why)``."""
    decision = guard()
    if decision.why_pure is not None:
        return f"pure Python ({decision.why_pure})"
    modules = (read_record(ROOT) or {}).get("modules")
    names = [module_name(path) for path in modules] if isinstance(modules, dict) else []
    found = 0
    for name in names:
        spec = importlib.util.find_spec(name)
        found += bool(spec is not None and spec.origin and spec.origin.endswith(_EXTENSIONS))
    if found == len(names):
        return f"compiled (mypyc, {found} modules)"
    if found == 0:
        return "pure Python (the build record names compiled modules, but none is beside its source)"
    return f"compiled (mypyc, {found} of {len(names)} modules; the others' compiled files are missing)"
