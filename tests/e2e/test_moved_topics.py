"""A store written before the seal, the store chain and the game identities moved into ``replay.store`` still reads.

Every stored event names its class by topic (module and class), and a ``Created`` event names its
aggregate's too: a store written before the move names ``replay.seal:Seal.Opened``,
``replay.seal:StoreChain.Linked``, ``replay.identity:GameIdentity.Claimed`` and
``replay.identity:ImportedFile.Recorded``. The store here is written now and then given the old
topics, row by row and inside the stored state, exactly as the code before the move wrote them; it
must still read, check clean and take new hands.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from conftest import TENHOU, hv, ron, won
from honba_cli import invoke

from domain.match import Match, match_id
from domain.values import ExhaustiveDraw
from replay.service.imports.storing import AlreadyStoredAs, prepare, store_prepared
from replay.service.recording import recording
from replay.store.application import HonbaApp
from replay.store.identity import ImportedFile
from replay.store.imported import imported_file, record_imported
from replay.store.store_check import check_store

PLAYERS = ["Ann", "Ben", "Cho", "Dai"]
MOVED = {
    "replay.store.seal:": "replay.seal:",
    "replay.store.chain:": "replay.seal:",
    "replay.store.identity:": "replay.identity:",
}


def written_before_the_move(path: Path) -> None:
    """Give every row the topics the code before the move wrote: in the topic column, and in the
    stored state where a ``Created`` event names its aggregate's class."""
    with closing(sqlite3.connect(path)) as conn, conn:
        for new, old in MOVED.items():
            conn.execute(
                "UPDATE stored_events SET topic = replace(topic, ?, ?), "
                "state = CAST(replace(CAST(state AS TEXT), ?, ?) AS BLOB)",
                (new, old, new, old),
            )


def topics(path: Path) -> set[str]:
    with closing(sqlite3.connect(path)) as conn:
        return {row[0].split(":")[0] for row in conn.execute("SELECT topic FROM stored_events")}


def a_game(key: str) -> Match:
    match = Match.start(key, PLAYERS, TENHOU, {"format": "tenhou-xml", "log_id": key})
    match.record(won(ron(1, 0, hv(3, 30))))
    return match


def test_a_store_written_with_the_old_topics_reads_checks_and_records(tmp_path: Path) -> None:
    path = tmp_path / "before.sqlite"
    store = HonbaApp.open(str(path))
    recording.start_match(store, "m1", PLAYERS, TENHOU)
    recording.record(store, "m1", won(ron(1, 0, hv(3, 30))))
    assert store_prepared(store, [prepare(a_game("log-1"), store.mapper, from_log=True)]) == [True]
    record_imported(store, [ImportedFile.recorded("d" * 64, [["log-1", PLAYERS, "log-1"]], [], [])])
    store.close()
    written_before_the_move(path)
    assert {"replay.seal", "replay.identity"} <= topics(path)
    assert not {"replay.store.seal", "replay.store.chain", "replay.store.identity"} & topics(path)

    store = HonbaApp.open(str(path))
    try:
        assert [c.name for c in check_store(store) if not c.intact] == []
        assert store.get_match("m1").state.scores == (21100, 28900, 25000, 25000)
        # A new hand: the seal written under the old topic is loaded, checked and extended.
        after = recording.record(store, "m1", ExhaustiveDraw(ready=(1,)))
        assert after.version == 4
        # The same game from another file is found by the identity stored under the old topic.
        again = store_prepared(store, [prepare(a_game("log-1-copy"), store.mapper, from_log=True)])
        assert again == [AlreadyStoredAs("log-1")]
        recorded = imported_file(store, "d" * 64)
        assert recorded is not None and recorded.games == [["log-1", PLAYERS, "log-1"]]
        assert [c.name for c in check_store(store) if not c.intact] == []
    finally:
        store.close()
    checked = invoke(["--db", str(path), "check"])
    assert checked.exit_code == 0, checked.output
    assert "2 checked, 0 with problems" in checked.stdout


def test_a_match_whose_start_row_is_gone_is_still_found_by_its_seal_under_the_old_topic(tmp_path: Path) -> None:
    path = tmp_path / "before.sqlite"
    store = HonbaApp.open(str(path))
    recording.start_match(store, "m1", PLAYERS, TENHOU)
    store.close()
    written_before_the_move(path)
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("DELETE FROM stored_events WHERE originator_id = ?", (match_id("m1").hex,))
    store = HonbaApp.open(str(path))
    try:
        names = [c.name for c in check_store(store) if not c.intact]
    finally:
        store.close()
    assert names == [f"match {match_id('m1')} (its start event is missing)"]
