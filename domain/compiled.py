"""Which of honba's modules run compiled by mypyc, and the guard that keeps a stale compiled module from
running in place of its edited source.

``MODULES`` is the one list of the modules the build compiles (``setup.py`` and
``benchmarks/mypyc_trial.py`` read it from here). The build writes ``compiled.txt`` beside this file:
each compiled module's source digest (and size and modification time, so that an unchanged checkout is
checked with a ``stat`` a file, not a read), or why it compiled nothing. ``guard()`` runs when ``domain``,
``projections`` or ``replay`` is first imported (their ``__init__``), before any listed module can be:
unless the record's modules are all as they were built, and ``HONBA_PURE`` is unset, every listed module
is loaded from its source for this process by a finder placed first on ``sys.meta_path``. mypyc's calls
between the modules of one build are direct C calls, so one stale module makes the whole build suspect,
not only itself.

This module runs at the start of every honba process, before anything else of honba: it imports only
``os`` and ``sys`` at its top (the rest where it is needed), its record is plain lines, and an unchanged
build costs one ``stat`` a module (a ``json``, ``dataclasses`` and ``importlib.util`` import took a
command's start from 107 to 187 M instructions; docs/performance.md, issue 36, twenty-third round).
"""

from __future__ import annotations

import os
import sys

# typing's own flag without importing typing (mypy reads the name as typing's).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from importlib.machinery import ModuleSpec
    from types import ModuleType

# The hot modules of an import's reading worker and storing process (docs/performance.md, issue 36,
# seventeenth and twenty-third rounds), as paths from the project's root. Not domain/said.py: compiled,
# its ``Said`` is a native class that refuses the interpreted ``Opening(Said)`` of the recording service
# ("domain.said.Said object expected; got ...Opening": recording a match failed), and a reading worker's
# job costs the same without it (0.871 of main's instructions against 0.870).
# projections/standings_view.py is compiled since its projection's ``name`` and ``topics`` are declared
# ``ClassVar`` (as plain class attributes, compiled, they were instance attributes' descriptors, and the
# library's runner calls ``.upper()`` on the name: the PostgreSQL view's follower failed); a worker's job
# is 0.871 of main's instructions with it, 0.879 without.
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
RECORD = "compiled.txt"
# The project's root: the folder holding domain/, projections/ and replay/ (a checkout, or site-packages).
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Set by the first process that says the build is stale, so that the processes it starts (an import's
# reading workers) load the sources without saying it again.
SAID = "HONBA_STALE_SAID"
REBUILD = "pip install -e ."
REINSTALL = "pip install --force-reinstall ."
# A compiled module's source as compiled: its SHA-256, size and modification time (ns).
Built = tuple[str, int, int]


def module_name(path: str) -> str:
    """``domain/scoring/memo.py`` -> ``domain.scoring.memo``."""
    return path.removesuffix(".py").replace("/", ".")


def source_digest(path: str | os.PathLike[str]) -> str:
    """The SHA-256 of a source file's bytes, as the build records it."""
    import hashlib

    with open(path, "rb") as source:
        return hashlib.sha256(source.read()).hexdigest()


def record_text(
    root: str | os.PathLike[str], modules: Sequence[str] = (), pure: str | None = None, *, installed: bool = False
) -> str:
    """The build's record: a line for each compiled module's source (digest, size, modification time,
    path), or the line of a build that compiled nothing and why. ``installed``: a build that is copied
    where it runs (a wheel): its files get the time they are installed, so the time is written as 0
    and only the size is compared at run time (``changed``): a file installed by pip is not edited
    in place, and a digest of every source at every start cost 50 M instructions."""
    lines = ["# honba's build (setup.py): the sources of the modules mypyc compiled (domain/compiled.py)"]
    if pure is not None:
        lines.append(f"pure {pure}")
    for path in modules:
        source = os.path.join(root, path)
        stat = os.stat(source)
        lines.append(f"{source_digest(source)} {stat.st_size} {0 if installed else stat.st_mtime_ns} {path}")
    return "\n".join(lines) + "\n"


def read_record(root: str | os.PathLike[str]) -> tuple[dict[str, Built], str | None] | None:
    """The build's record under ``root``'s domain/: the compiled modules' sources and why the build
    compiled nothing (None if it compiled), or None without a record (or an unreadable one)."""
    try:
        with open(os.path.join(root, "domain", RECORD), encoding="utf-8") as file:
            text = file.read()
    except OSError:
        return None
    built: dict[str, Built] = {}
    pure = None
    for line in text.splitlines():
        if line.startswith("#") or not line:
            continue
        if line.startswith("pure "):
            pure = line.removeprefix("pure ")
            continue
        fields = line.split(" ", 3)
        if len(fields) != 4 or not fields[1].isdigit() or not fields[2].isdigit():
            return None
        built[fields[3]] = (fields[0], int(fields[1]), int(fields[2]))
    return built, pure


def changed(root: str | os.PathLike[str], modules: Mapping[str, Built]) -> str | None:
    """The first recorded module whose source is not the one compiled, or None. A size and modification
    time as recorded is taken as unchanged (an editable install's own files), and the size alone where
    the time is recorded as 0 (an installed wheel's files, ``record_text``); any other is read and its
    digest compared (a touched file)."""
    folder = os.fspath(root)
    for path, (digest, size, mtime_ns) in modules.items():
        source = os.path.join(folder, path)
        try:
            stat = os.stat(source)
        except OSError:
            return path
        if stat.st_size != size:
            return path
        if mtime_ns and stat.st_mtime_ns != mtime_ns and source_digest(source) != digest:
            return path
    return None


class SourceFirst:
    """A ``sys.meta_path`` finder: the named modules' ``.py`` files in their package's folders, ahead of
    the compiled extension modules beside them."""

    def __init__(self, names: frozenset[str]) -> None:
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """The spec of a named module's source, or None (Python's own finders decide)."""
        if fullname not in self.names or path is None:
            return None
        import importlib.util

        leaf = fullname.rpartition(".")[2] + ".py"
        for folder in path:
            source = os.path.join(folder, leaf)
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


class Decision:
    """What ``guard`` does in a process: run the build's compiled modules (``why_pure`` None), or load
    ``sources`` from their ``.py`` files, and the line to say on stderr (None: nothing to say). Not
    changed once made; a plain class, not attrs: this module imports as little as it can (above)."""

    __slots__ = ("say", "sources", "why_pure")

    def __init__(self, why_pure: str | None, sources: frozenset[str], say: str | None) -> None:
        self.why_pure = why_pure
        self.sources = sources
        self.say = say


def decide(root: str | os.PathLike[str], environ: Mapping[str, str]) -> Decision:
    """Whether the build's compiled modules under ``root`` may run in a process with ``environ``."""
    record = read_record(root)
    built, pure = record if record is not None else ({}, None)
    said = None
    if environ.get("HONBA_PURE", "") not in ("", "0"):
        why: str | None = "HONBA_PURE is set"
    elif record is None:
        why = "not compiled: no build record"
    elif not built:
        why = f"installed without compiling: {pure or 'no reason recorded'}"
    else:
        stale = changed(root, built)
        why = None if stale is None else f"the compiled modules are older than their sources ({stale} changed)"
        if stale is not None and not environ.get(SAID):
            # An installed build (its times recorded as 0, ``record_text``) is installed again, not rebuilt in place.
            rebuild = REBUILD if any(mtime for _, _, mtime in built.values()) else REINSTALL
            said = (
                f"honba: {stale} changed since honba was compiled: running every compiled module from its "
                f"source in this process; rebuild with `{rebuild}` (or set HONBA_PURE=1)"
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


def _is_extension(origin: str | None) -> bool:
    import importlib.machinery

    return bool(origin) and str(origin).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def is_compiled(module: ModuleType) -> bool:
    """Whether a module was loaded from a compiled extension module."""
    return _is_extension(getattr(module.__spec__, "origin", None))


def describe() -> str:
    """How this process runs honba: ``compiled (mypyc, N modules)``, or ``pure Python (why)``."""
    import importlib.util

    decision = guard()
    if decision.why_pure is not None:
        return f"pure Python ({decision.why_pure})"
    built = (read_record(ROOT) or ({}, None))[0]
    found = 0
    for path in built:
        spec = importlib.util.find_spec(module_name(path))
        found += _is_extension(spec.origin if spec is not None else None)
    if found == len(built):
        return f"compiled (mypyc, {found} modules)"
    if found == 0:
        return "pure Python (the build record names compiled modules, but none is beside its source)"
    return f"compiled (mypyc, {found} of {len(built)} modules; the others' compiled files are missing)"
