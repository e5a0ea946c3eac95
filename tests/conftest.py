"""Shared helpers for the rulebook tests: tables, results and who-pays-what in one line.

Seats are ints: seat 0 dealt first (the starting East). Every expected number in
the tests comes from the seeds (``/work/shared/seeds``), the published riichi
score table or a real Tenhou log of the corpus (``/work/shared/corpus``), never
from honba's own output.

Tenhou writes a hand's score changes without the riichi sticks its players put on
the table in that hand (FORMAT.md: "Riichi deposits are not in deltas");
honba's ``score_changes`` include them. Where a test copies Tenhou's changes, it
subtracts the 1000 of each declarer visibly.
"""

from __future__ import annotations

import compileall
import os
import re
import signal
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Executor, Future
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, settings
from pg_server import PostgresServer, started_or_skipped
from rewritten_ahead import ahead, rewritten_modules
from service_match import ServiceMatch

from domain.match import Match
from domain.rules import Ruleset, load_preset
from domain.scoring.payments import settle
from domain.values import HandResult, HandValue, TableState, Win, WinResult
from replay.store.application import HonbaApp
from replay.store.pgstore import HonbaPostgresRecorder

if TYPE_CHECKING:
    from replay.service.imports.batch import ImportRun

# Ctrl-C reaches the commands the tests start (the tests that press it on an import or a follower).
# A shell starts a background job with SIGINT ignored, a child inherits that, and Python then leaves
# it ignored: a suite run in the background (`pytest &`, a CI runner's job) would find its commands
# deaf to it. A Python handler here is reset to the default in every command started (at exec).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# How long hypothesis takes to draw an example is not what a property test checks: on two cores
# shared by the suite's two processes, their servers and Chromium, drawing took longer than the
# health check allows and failed a test that passes when run alone (seen at load 17). Every test
# keeps its examples and its checks. A test's own ``settings`` override these: one that turns off other
# health checks names ``too_slow`` among them again (a list given replaces this one).
settings.register_profile("honba", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("honba")

TENHOU = load_preset("tenhou")
SANMA = load_preset("tenhou-sanma")

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS = SHARED / "corpus"
REPO = Path(__file__).resolve().parent.parent

EAST, SOUTH, WEST, NORTH = 0, 1, 2, 3  # round winds


# The suite's layers and what a test needs, as markers (registered in pyproject.toml), set here from where a
# test lives and what it uses, so that no test has to remember them: ``pytest -m "not slow"`` runs the fast
# layers, ``-m unit``, ``-m "not postgres"`` and the like pick a part (README's Tests section).
LEVELS = ("unit", "service", "e2e")


def _needs(item: pytest.Item) -> set[str]:
    """What a test needs beyond Python: a PostgreSQL server, the system's Chromium, the shared corpus."""
    needs = set()
    fixtures = set(getattr(item, "fixturenames", ()))
    callspec = getattr(item, "callspec", None)
    params = callspec.params if callspec is not None else {}
    if "postgres_server" in fixtures or "postgresql" in params.values():  # store_db's, or a module's own
        needs.add("postgres")
    if "browser" in fixtures or "chromium" in item.name or item.path.stem.endswith("_browser"):
        needs.add("browser")
    module = getattr(item, "module", None)
    if module is not None and any(hasattr(module, name) for name in ("CORPUS", "corpus_samples")):
        needs.add("corpus")
    return needs


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    """Only the suite's own modules have their asserts rewritten. pytest also rewrites every package of a
    distribution that brings a pytest plugin (hypothesis, anyio, ...) as it is imported, in each test
    process and on every run (no pyc of them is kept under ``PYTHONDONTWRITEBYTECODE``): 1.4 s of CPU a
    process for hypothesis alone, for assertions of the library's own that no test of ours reads."""
    try:
        from _pytest.assertion.rewrite import assertstate_key

        hook = config.stash[assertstate_key].hook
        if hook is not None:
            hook._must_rewrite.clear()  # type: ignore[attr-defined]
            hook._marked_for_rewrite_cache.clear()  # type: ignore[attr-defined]
    except (ImportError, AttributeError, KeyError):  # pytest's inside changed, or --assert=plain: as pytest does
        pass


def pytest_sessionstart(session: pytest.Session) -> None:
    """The project's modules compiled once, before the test processes start: with
    ``PYTHONDONTWRITEBYTECODE`` set (as on this project's machines and in CI) nothing else writes
    them, and every ``honba`` process a test starts would compile the modules it imports again
    (about 0.2 s of CPU a process). Reading bytecode is not writing it: the setting still holds.
    The same for the tests' helpers (each test process imports them) and, as pytest's rewritten
    pyc, the test modules themselves (tests/rewritten_ahead.py): each process would rewrite the
    whole suite's asserts again before its first test."""
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        for package in ("domain", "projections", "replay"):
            compileall.compile_dir(str(REPO / package), quiet=2, workers=1)
        # The helpers only: a test module's ordinary pyc is never read (pytest imports its rewritten one).
        tests = REPO / "tests"
        rewritten = re.compile(r"(test_[^/]*|conftest)\.py$")
        compileall.compile_dir(str(tests), quiet=2, workers=1, maxlevels=0, rx=rewritten)
        ahead(session.config, rewritten_modules(session.config, tests), processes=min(2, os.cpu_count() or 1))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test with its level (its folder) and what it needs; slow is what starts a server, a
    browser or another process, reads the corpus, or was measured to take seconds (``pytest.mark.slow``)."""
    for item in items:
        level = item.path.parent.name
        if level in LEVELS:
            item.add_marker(level)
        needs = _needs(item)
        for need in sorted(needs):
            item.add_marker(need)
        if needs & {"postgres", "browser"} or _slow_module(item):
            item.add_marker("slow")


def _slow_module(item: pytest.Item) -> bool:
    """A module measured slow as a whole (``SLOW_MODULES``)."""
    return item.path.stem in SLOW_MODULES


# Modules whose tests take seconds each, measured (``pytest --durations``): they start and kill processes
# (followers, racing writers, import workers, ``honba`` itself), read the whole corpus, run the README's
# walk-throughs, play whole events, or try hundreds of generated matches (hypothesis).
SLOW_MODULES = frozenset(
    {
        "test_bulk_import",
        "test_checkpoint_follower",
        "test_concurrency",
        "test_corpus_ratings",
        "test_corpus_standings",
        "test_corpus_verify",
        "test_correction_properties",
        "test_fuzz_cli",
        "test_fuzz_readers",
        "test_fuzz_web",
        "test_import_yields",
        "test_load_race",
        "test_narrow_output",
        "test_properties",
        "test_readme",
        "test_staged_event",
        "test_staged_event_web",
        "test_view_concurrency",
        "test_web",
        "test_worker_cmdline",
    }
)


@pytest.fixture(autouse=True)
def _no_inherited_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """The commands' output width is the one a test sets, else a pipe's (160), whoever runs the suite.

    pytest-xdist's controller loads GNU readline, which sets ``COLUMNS=80`` and ``LINES=24`` in the
    environment its workers inherit (readline's ``rl_change_environment``); a test that means a width sets it.
    """
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)


def table(
    rules: Ruleset = TENHOU,
    *,
    dealer: int = 0,
    counters: int = 0,
    deposits: int = 0,
    scores: Iterable[int] | None = None,
    round_wind: int = EAST,
    hand_number: int | None = None,
) -> TableState:
    """A table between hands. By default hand number = dealer + 1 in the East round."""
    return TableState(
        players=rules.players,
        scores=tuple(scores) if scores is not None else (rules.start_score,) * rules.players,
        round_wind=round_wind,
        hand_number=hand_number if hand_number is not None else dealer + 1,
        dealer=dealer,
        counters=counters,
        deposits=deposits,
    )


def hv(han: int | None = None, fu: int | None = None, *, limit: str | None = None, multiple: int = 1) -> HandValue:
    """A riichi hand value: ``hv(3, 30)`` or ``hv(limit="yakuman", multiple=2)``."""
    return HandValue(han=han, fu=fu, limit=limit, multiple=multiple)  # type: ignore[arg-type]


def ron(winner: int, discarder: int, value: HandValue, *, liable: int | None = None) -> Win:
    return Win(winner=winner, value=value, discarder=discarder, liable=liable)


def tsumo(winner: int, value: HandValue, *, liable: int | None = None) -> Win:
    return Win(winner=winner, value=value, liable=liable)


def won(*wins: Win, riichi: Iterable[int] = ()) -> WinResult:
    return WinResult(wins=wins, riichi=tuple(riichi))


def changes(result: HandResult, state: TableState, rules: Ruleset = TENHOU) -> tuple[int, ...]:
    """Each seat's score change over the hand (riichi sticks placed in it included)."""
    return settle(result, state, rules).deltas(state.players)


def deposits_after(result: HandResult, state: TableState, rules: Ruleset = TENHOU) -> int:
    return settle(result, state, rules).deposits_after


def started(
    rules: Ruleset = TENHOU,
    opening: TableState | None = None,
    *,
    key: str = "test-match",
    players: Iterable[str] | None = None,
) -> Match:
    """A match in memory, by default from East 1 at the rules' start score."""
    names = list(players) if players is not None else ["Ann", "Ben", "Cho", "Dai"][: rules.players]
    return Match.start(key, names, rules, {}, opening)


# The stores: SQLite files and a real PostgreSQL server that the session starts itself (tests/pg_server.py).


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server in a temporary directory for the whole session, stopped at its end.

    Skipped, saying why, where none can be started; under CI (``CI`` set) that is a failure instead.
    """
    server = started_or_skipped()
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> str:
    """The URL of a new, empty PostgreSQL database."""
    return postgres_server.new_database()


@pytest.fixture
def pg_opened(postgres_url: str) -> Iterator[tuple[HonbaApp, HonbaPostgresRecorder]]:
    """A store on a new PostgreSQL database, and its recorder (honba's)."""
    app = HonbaApp.open(postgres_url)
    recorder = app.recorder
    assert isinstance(recorder, HonbaPostgresRecorder)
    yield app, recorder
    app.close()


STORES = ["sqlite", "postgresql"]


@pytest.fixture(params=STORES)
def store_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """What ``--db`` names: a new SQLite file, or a new PostgreSQL database (one test each)."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return str(tmp_path / "store" / "honba.sqlite")


# The browser tests' Chromium: one per test process, a fresh context (its own cookies, storage, service
# workers) for each page a test opens (tests/playwright_support.py's ``phone``). Launching Chromium cost
# a second or two of CPU per test module that started its own.


@pytest.fixture(scope="session")
def chromium_session() -> Iterator[Any]:
    """The system's Chromium, headless, started once for the test process (see ``browser``)."""
    from playwright_support import CHROMIUM, launched

    if not CHROMIUM.exists():
        pytest.skip("no /usr/bin/chromium (apt-get install chromium)")
    with launched() as chromium:
        yield chromium


@pytest.fixture
def browser(chromium_session: Any) -> Iterator[Any]:
    """The process's Chromium for one test; every context the test opened is closed after it, so no page
    of one test (a live standings stream, a service worker) reaches into the next or holds a server open."""
    yield chromium_session
    for context in chromium_session.contexts:
        context.close()


@pytest.fixture
def service_match() -> Iterator[Callable[..., ServiceMatch]]:
    """``service_match(rules, ...)``: a new match in a store of its own in memory (tests/service_match.py),
    its store closed after the test."""
    opened: list[HonbaApp] = []

    def new(rules: str = "tenhou", **options: Any) -> ServiceMatch:
        app = HonbaApp.open(":memory:")
        opened.append(app)
        return ServiceMatch(app, rules, **options)

    yield new
    for app in opened:
        app.close()


@pytest.fixture
def club_app() -> Iterator[HonbaApp]:
    """A store in memory holding one match, ``said_support.KEY`` (Ann, Ben, Cho, Dai under Tenhou's
    rules, at East 1), closed after the test."""
    from said_support import KEY, PLAYERS

    from replay.service.recording import recording

    app = HonbaApp.open(":memory:")
    recording.start_match(app, KEY, list(PLAYERS), TENHOU, {"format": "honba"})
    yield app
    app.close()


@pytest.fixture
def db(tmp_path: Path) -> str:
    """The path of a new SQLite store (made when first opened)."""
    return str(tmp_path / "honba.sqlite")


@pytest.fixture
def client(db: str) -> Iterator[Any]:
    """The web app on ``db``, through Starlette's test client (no server, no browser)."""
    from starlette.testclient import TestClient

    from replay.web.app import create_app

    with TestClient(create_app(db)) as web:
        yield web


def imported(db: Path, folder: Path, **options: Any) -> ImportRun:
    """``import_paths`` of one folder into the store at ``db`` (opened and closed around it): the
    import's ``ImportRun``."""
    from replay.service.imports.batch import import_paths

    app = HonbaApp.open(str(db))
    try:
        return import_paths(app, [folder], **options)
    finally:
        app.close()


def watched_where_interpreted(reason: str, *modules: ModuleType) -> pytest.MarkDecorator:
    """A test's ``watched`` parameter: False (what is written, checked everywhere) and True (a spy on
    functions of ``modules`` watching what they do), the second skipped where any of them runs
    compiled, whose callers call those functions directly (``reason`` says which)."""
    spied = pytest.param(True, marks=pytest.mark.skipif(any(map(compiled, modules)), reason=reason))
    return pytest.mark.parametrize("watched", [False, spied], ids=["written", "not-scanned"])


def instances_made(monkeypatch: pytest.MonkeyPatch, cls: type) -> list[Any]:
    """The instances of ``cls`` made from now on, in order (its ``__init__`` counted for the test).
    For an interpreted class (an attrs value of ``domain.values`` or ``domain.scoring.payments``) whose
    ``__init__`` the code under test reaches whether it runs compiled or not: a spy on a function of a
    compiled module is not reached by its compiled callers, which call it directly."""
    made: list[Any] = []
    init = cls.__init__

    def counted(self: Any, *args: Any, **kwargs: Any) -> None:
        made.append(self)
        init(self, *args, **kwargs)

    monkeypatch.setattr(cls, "__init__", counted)
    return made


def compiled(module: ModuleType) -> bool:
    """Whether a module runs compiled (mypyc; ``domain.compiled.is_compiled``). A test that can only
    see a rule by a spy its compiled callers never reach says so by it."""
    from domain.compiled import is_compiled

    return is_compiled(module)


def _paths(value: Any) -> Iterator[Path]:
    """The paths in a value, in lists and tuples at any depth."""
    if isinstance(value, Path):
        yield value
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _paths(item)


class ReadHere(list[str], Executor):
    """A reading pool for ``import_paths`` (its ``pool``) that runs each task at once in this process,
    and the names of the files its tasks were given, in order: the files the import read (parsed and
    replayed). A file the import recognises is never handed to a reader. Seen from outside the import:
    a spy on the import's own reading function is not reached from a compiled ``import_paths``."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.extend(path.name for path in _paths(args))
        done: Future[Any] = Future()
        try:
            done.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # given back as a worker's would be
            done.set_exception(exc)
        return done


@contextmanager
def counting_xml_parses() -> Iterator[list[str]]:
    """The documents parsed into an XML tree while it is open: the text each C parser was fed.

    Counted where the Tenhou XML reader's ``parse_xml`` makes its parser, ``ET.XMLParser``: an
    attribute of the standard library's module, looked up at each parse whether the reader runs
    compiled or not. A spy set on ``parse_xml`` itself is not reached by a compiled reader, which
    calls it directly."""
    import xml.etree.ElementTree as ET

    fed: list[str] = []

    class CountedParser(ET.XMLParser):  # type: ignore[misc]
        def feed(self, data: Any) -> None:
            fed.append(data)
            super().feed(data)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ET, "XMLParser", CountedParser)
        yield fed


@pytest.fixture
def xml_parses() -> Iterator[list[str]]:
    """The text of each document the Tenhou XML reader parses into a tree during the test
    (``counting_xml_parses``): the fast readers' tests say which logs take the parser and which are
    read from their text."""
    with counting_xml_parses() as fed:
        yield fed
