"""The event store: matches in an embedded SQLite file or in PostgreSQL, found by their natural key.

The tests taking ``store`` run once on each store (``store_db`` in conftest.py).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from domain.errors import InvalidHandValue
from domain.match import Match, match_id
from domain.rules import load_preset
from domain.store_errors import MatchExists, MatchNotFound
from domain.values import (
    AbortiveDraw,
    AbortKind,
    ExhaustiveDraw,
    HandValue,
    Penalty,
    Win,
    WinResult,
)
from replay.formats.record import RecordError, build_match, parse_record
from replay.service.imports import storing
from replay.service.recording import recording
from replay.store.application import HonbaApp
from replay.store.settings import default_db_path, persistence_env

PLAYERS = ("Ann", "Ben", "Cho", "Dai")
TENHOU = load_preset("tenhou")


@pytest.fixture
def db_file(tmp_path: Path) -> Path:
    return tmp_path / "store" / "honba.sqlite"


@pytest.fixture
def store(store_db: str) -> Iterator[HonbaApp]:
    app = HonbaApp.open(store_db)
    yield app
    app.close()


def ron(winner: int, discarder: int, han: int, fu: int) -> WinResult:
    return WinResult((Win(winner, HandValue(han=han, fu=fu), discarder=discarder),))


def recorded(store: HonbaApp, key: str = "club-1") -> Match:
    recording.start_match(store, key, PLAYERS, TENHOU, {"format": "honba", "entered": "test"})
    recording.record(store, key, ron(1, 0, 3, 30))
    recording.record(store, key, ExhaustiveDraw(ready=(1,), riichi=(1,)))
    recording.record(store, key, AbortiveDraw(AbortKind.FOUR_WINDS))
    recording.penalise(store, key, Penalty(3, 3000))
    return store.get_match(key)


def test_a_match_survives_reopening_the_store(store: HonbaApp, store_db: str) -> None:
    before = recorded(store)
    facts_before = store.get_match("club-1").effective_facts()
    store.close()
    reopened = HonbaApp.open(store_db)
    try:
        after = reopened.get_match("club-1")
        facts_after = reopened.get_match("club-1").effective_facts()
        assert after.state == before.state
        assert after.version == before.version
        assert (after.players, after.rules, after.source) == (before.players, before.rules, before.source)
        assert facts_after == facts_before
        # Ben's 3 han 30 fu ron off Ann (3900); Ben ready alone with a riichi stick (+3000 - 1000);
        # the abortive draw moves nothing; Dai's 3000 penalty gives 1000 to each other player.
        assert after.state.scores == (21100 - 1000 + 1000, 28900 + 2000 + 1000, 24000 + 1000, 24000 - 3000)
    finally:
        reopened.close()


def test_the_file_is_created_on_first_use(db_file: Path) -> None:
    assert not db_file.exists()
    app = HonbaApp.open(str(db_file))
    app.close()
    assert db_file.is_file()


def test_the_same_key_gives_the_same_id(store: HonbaApp) -> None:
    assert match_id("club-1") == match_id("club-1")
    assert match_id("club-1") != match_id("club-2")
    assert recorded(store).id == match_id("club-1")
    assert Match.start("club-1", PLAYERS, TENHOU).id == match_id("club-1")


def test_a_second_start_with_the_same_key_is_refused(store: HonbaApp) -> None:
    first = recorded(store)
    with pytest.raises(MatchExists):
        recording.start_match(store, "club-1", ("Eve", "Fay", "Gus", "Hal"), TENHOU)
    assert store.get_match("club-1").players == first.players
    assert store.get_match("club-1").version == first.version


def test_store_whole_refuses_a_stored_key_with_other_results(store: HonbaApp) -> None:
    first = recorded(store)
    rival = Match.start("club-1", PLAYERS, TENHOU)
    rival.record(ron(2, 3, 1, 30))
    with pytest.raises(MatchExists, match="other results"):
        storing.store_whole(store, rival)
    assert store.get_match("club-1").version == first.version
    assert store.get_match("club-1").state == first.state


def test_store_whole_of_the_same_match_again_stores_nothing(store: HonbaApp) -> None:
    first = recorded(store)
    again = Match.start("club-1", PLAYERS, TENHOU)
    again.record(ron(1, 0, 3, 30))
    again.record(ExhaustiveDraw(ready=(1,), riichi=(1,)))
    again.record(AbortiveDraw(AbortKind.FOUR_WINDS))
    again.penalise(Penalty(3, 3000))
    assert storing.store_whole(store, again) is False
    assert store.get_match("club-1").version == first.version


def test_store_whole_stores_every_event_at_once(store: HonbaApp) -> None:
    match = Match.start("whole", PLAYERS, TENHOU)
    for _ in range(3):
        match.record(ron(1, 0, 1, 30))
    assert storing.store_whole(store, match) is True
    assert store.get_match("whole").version == match.version
    assert store.get_match("whole").state == match.state


def test_an_invalid_record_stores_nothing(store: HonbaApp) -> None:
    text = (
        '{"type": "start", "key": "half", "players": ["Ann", "Ben", "Cho", "Dai"]}\n'
        '{"type": "win", "wins": [{"winner": "Ben", "from": "Ann", "han": 3, "fu": 30}]}\n'
        '{"type": "win", "wins": [{"winner": "Cho", "from": "Ben", "han": 1, "fu": 20}]}\n'
    )
    with pytest.raises(RecordError):
        storing.store_whole(store, build_match(parse_record(text, name="half.jsonl"), name="half.jsonl"))
    assert not store.has_match("half")
    assert list(store.list_matches()) == []


def test_a_refused_command_records_nothing(store: HonbaApp) -> None:
    before = recorded(store)
    with pytest.raises(InvalidHandValue):
        recording.record(store, "club-1", ron(2, 1, 1, 20))
    assert store.get_match("club-1").version == before.version
    with pytest.raises(MatchNotFound):
        recording.record(store, "club-9", ron(2, 1, 3, 30))


def test_list_matches_in_the_order_they_were_started(store: HonbaApp) -> None:
    recording.start_match(store, "b-second", PLAYERS, TENHOU, {"format": "honba"})
    recording.start_match(store, "a-first", ("A", "B", "C"), load_preset("tenhou-sanma"))
    recording.record(store, "b-second", ron(1, 0, 3, 30))
    summaries = list(store.list_matches())
    assert [(s.key, s.players, s.rules) for s in summaries] == [
        ("b-second", PLAYERS, "tenhou"),
        ("a-first", ("A", "B", "C"), "tenhou-sanma"),
    ]
    assert summaries[0].source == {"format": "honba"}


def test_memory_store_writes_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    app = HonbaApp.open(":memory:")
    recorded(app)
    assert app.get_match("club-1").state.hands_played == 3
    app.close()
    assert list(tmp_path.iterdir()) == []


def test_where_the_store_is(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HONBA_DB", "PERSISTENCE_MODULE", "SQLITE_DBNAME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    # Nothing named: the default file under XDG_DATA_HOME.
    assert default_db_path() == tmp_path / "xdg" / "honba" / "honba.sqlite"
    assert persistence_env(None) == {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(tmp_path / "xdg" / "honba" / "honba.sqlite"),
    }
    # The library's own settings are honoured when honba is told nothing.
    monkeypatch.setenv("PERSISTENCE_MODULE", "eventsourcing.popo")
    assert persistence_env(None) == {}
    # HONBA_DB beats them; --db (an explicit name) beats HONBA_DB.
    monkeypatch.setenv("HONBA_DB", str(tmp_path / "env.sqlite"))
    assert persistence_env(None)["SQLITE_DBNAME"] == str(tmp_path / "env.sqlite")
    assert persistence_env(str(tmp_path / "opt.sqlite"))["SQLITE_DBNAME"] == str(tmp_path / "opt.sqlite")
    assert persistence_env(":memory:") == {"PERSISTENCE_MODULE": "eventsourcing.popo"}


def test_a_tournament_s_events_are_honba_s_though_their_module_is_loaded_on_first_read() -> None:
    from eventsourcing.utils import get_topic

    from domain.tournament import Tournament
    from replay.store.mapper import AGGREGATE_TOPICS, event_class

    assert event_class(get_topic(Tournament.Created)) is Tournament.Created
    assert get_topic(Tournament) in AGGREGATE_TOPICS
    # Only its events: a function or the class itself under the module's name is no row of honba's.
    for foreign in ("domain.tournament:tournament_id", "domain.tournament:Tournament", "domain.tournament:nothing"):
        assert event_class(foreign) is None


def test_a_command_on_a_match_does_not_load_the_tournaments_and_a_tournament_still_reads(tmp_path: Path) -> None:
    # In a process of its own: this one has loaded domain.tournament long since.
    script = (
        "import sys\n"
        "from domain.rules import load_preset\n"
        "from replay.service.recording import recording\n"
        "from replay.store.application import HonbaApp\n"
        "app = HonbaApp.open(sys.argv[1])\n"
        "recording.start_match(app, 'm', ['A', 'B', 'C', 'D'], load_preset('tenhou'))\n"
        "app.checkpoint()\n"
        "loaded = 'domain.tournament' in sys.modules\n"
        "from replay.service.tournaments.tournaments import create_tournament\n"
        "from replay.store.tournaments import get_tournament\n"
        "create_tournament(app, 'cup', ['A', 'B'])\n"
        "app.close()\n"
        "again = HonbaApp.open(sys.argv[1])\n"
        "print(loaded, ','.join(get_tournament(again, 'cup').players))\n"
    )
    db = str(tmp_path / "store.sqlite")
    done = subprocess.run([sys.executable, "-c", script, db], capture_output=True, text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "A,B"]
