"""Checkpoints instead of one store-wide chain of saves (issue 26).

Saves write a match's events and its seal and nothing else; a checkpoint, taken apart from them
(at the end of every command that wrote, by ``honba checkpoint``, by ``honba serve`` every few
seconds), appends each stream saved since the one before to a Merkle log (RFC 6962) and names the
checkpoint before. A rollback of anything a checkpoint covers leaves a leaf that names events no
longer stored; the checkpoint removed too leaves a gap in the checkpoints; the last checkpoint
rolled back with what it covered is caught only against the store head digest published before.

The store: ``m1`` (1 start, 2 Ben's ron on Ann, 3 deal to Ben, 4 a penalty on Dai), ``m2`` (1
start, 2 a win, 3 the deal passing), tournament ``cup`` (1 created, 2 m1 attached, 3 m2
attached), each command taking its checkpoint. Rows are changed with ``sqlite3``.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from pathlib import Path

import pytest
from honba_cli import honba, ok
from stored_rows import copy_store, delete_row, last_version, sql

from domain.match import match_id
from domain.tournament import tournament_id
from replay.service.audit.checkpoints import keep_checkpoints
from replay.store.application import HonbaApp
from replay.store.chain import STORE_CHAIN_ID
from replay.store.checkpoint import CHECKPOINTS_ID, file_lock, read_checkpoints
from replay.store.merkle import append, hash_leaf, leaf_hash, root, tree_root
from replay.store.seal import seal_id

PLAYERS = "Ann,Ben,Cho,Dai"
M1, M2 = match_id("m1").hex, match_id("m2").hex
M1_SEAL = seal_id(match_id("m1")).hex
CUP = tournament_id("cup").hex


def store_head(output: str) -> str:
    found = re.search(r"store head digest:? ([0-9a-f]{64})", output, re.IGNORECASE)
    assert found, output
    return found.group(1)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("checkpoints") / "pristine.sqlite"
    ok(path, "start", "m1", "--players", PLAYERS)
    ok(path, "win", "m1", "Ben:3/30", "--from", "Ann")
    ok(path, "penalty", "m1", "Dai", "--amount", "1000", "--share", "off_table")
    ok(path, "start", "m2", "--players", PLAYERS)
    ok(path, "win", "m2", "Ben:3/30", "--from", "Ann")
    ok(path, "tournament", "create", "cup", "--players", PLAYERS)
    ok(path, "tournament", "attach", "cup", "m1")
    ok(path, "tournament", "attach", "cup", "m2")
    return path


@pytest.fixture
def db(pristine: Path, tmp_path: Path) -> Path:
    return copy_store(pristine, tmp_path)


def checkpoint_of(db: Path, stream: str, position: int) -> int:
    """The number of the checkpoint that recorded ``stream`` at ``position``."""
    with sql(db) as c:
        rows = c.execute(
            "SELECT originator_version, state FROM stored_events WHERE originator_id = ?", (CHECKPOINTS_ID.hex,)
        ).fetchall()
    for number, state in rows:
        for leaf in json.loads(state)["leaves"]:
            if leaf[0].replace("-", "") == stream and leaf[1] == position:
                return int(number)
    raise AssertionError(f"no checkpoint recorded {stream} at {position}")


def check(db: Path) -> dict[str, list[tuple[int, str]]]:
    data = json.loads(honba(db, "check", "--json").stdout)
    found = {r["name"]: [(p["position"], p["kind"]) for p in r["problems"]] for r in data["results"]}
    found["checkpoints"] = [(p["position"], p["kind"]) for p in data["store"]["problems"]]
    return found


def roll_back_m1_penalty(db: Path) -> None:
    """The penalty at m1's position 4 removed, with the seal row saved with it."""
    delete_row(db, M1, 4)
    delete_row(db, M1_SEAL, last_version(db, M1_SEAL))


def test_saves_write_no_shared_row_and_every_command_that_wrote_took_a_checkpoint(db: Path) -> None:
    assert last_version(db, STORE_CHAIN_ID.hex) == 0
    # Eight commands wrote: eight checkpoints, each of what its command saved.
    assert last_version(db, CHECKPOINTS_ID.hex) == 8
    text = ok(db, "check")
    assert "3 checked, 0 with problems" in text
    assert "Checkpoints: 8, intact" in text


def test_a_match_tail_rolled_back_with_its_seal_row_is_caught_by_the_checkpoint_that_covered_it(db: Path) -> None:
    roll_back_m1_penalty(db)
    found = check(db)
    assert found["m1"] == [(4, "deleted")]
    assert found["m2"] == [] and found["tournament cup"] == [] and found["checkpoints"] == []
    result = honba(db, "check")
    assert result.exit_code == 1
    assert "checkpoint 3 records event 4" in result.stdout and "rolled back" in result.stdout
    assert "Integrity: BROKEN: deleted at 4" in honba(db, "audit", "m1").stdout


def test_a_rollback_with_its_checkpoint_removed_leaves_a_gap_in_the_checkpoints(db: Path) -> None:
    roll_back_m1_penalty(db)
    delete_row(db, CHECKPOINTS_ID.hex, checkpoint_of(db, M1, 4))
    assert check(db)["checkpoints"] == [(3, "deleted")]
    assert honba(db, "check").exit_code == 1


def test_the_last_checkpoint_rolled_back_with_what_it_covered_is_caught_against_the_published_store_head(
    db: Path,
) -> None:
    m2_seal = seal_id(match_id("m2")).hex
    before = last_version(db, M2)
    published = store_head(ok(db, "draw", "m2", "--ready", "Ann"))
    assert store_head(ok(db, "check")) == published
    # The draw, the deal pass after it, the seal row and the checkpoint taken of them: all removed.
    delete_row(db, CHECKPOINTS_ID.hex, last_version(db, CHECKPOINTS_ID.hex))
    delete_row(db, m2_seal, last_version(db, m2_seal))
    for version in range(last_version(db, M2), before, -1):
        delete_row(db, M2, version)
    assert honba(db, "check").exit_code == 0  # what nothing in the store can show, as the docs say
    result = honba(db, "check", "--against", published)
    assert result.exit_code == 1
    assert "unpublished" in result.stdout


def test_a_save_after_the_last_checkpoint_is_no_problem_and_the_next_checkpoint_covers_it(db: Path) -> None:
    published = store_head(ok(db, "check"))
    store = HonbaApp.open(str(db))
    try:
        from replay.service.recording import recording

        before = last_version(db, CHECKPOINTS_ID.hex)
        recording.end(store, "m2", "agreed")  # the service alone takes no checkpoint
        assert last_version(db, CHECKPOINTS_ID.hex) == before
        assert ok(db, "check")  # events after the last checkpoint are covered by nothing yet
        taken = store.checkpoint()
        assert taken.taken and taken.leaves == 1 and taken.number == before + 1
        assert not store.checkpoint().taken  # nothing new since
    finally:
        store.close()
    assert "1 checkpoints were added since" in ok(db, "check", "--against", published)


def test_a_deleted_seal_row_is_named_as_the_seal_not_as_an_inserted_event(db: Path) -> None:
    delete_row(db, M1_SEAL, last_version(db, M1_SEAL))
    assert check(db)["m1"] == [(0, "altered")]
    (problem,) = json.loads(honba(db, "check", "m1", "--json").stdout)["results"][0]["problems"]
    assert "a seal row was removed or changed" in problem["detail"]


def test_a_match_attached_row_deleted_from_a_tournament_is_caught_in_the_middle_and_last(db: Path) -> None:
    delete_row(db, CUP, 2)
    assert check(db)["tournament cup"] == [(2, "deleted")]


def test_the_last_match_attached_row_of_a_tournament_deleted_is_caught_by_its_seal(db: Path) -> None:
    delete_row(db, CUP, 3)
    assert check(db)["tournament cup"] == [(3, "deleted")]
    assert honba(db, "check").exit_code == 1


def test_a_tournament_rolled_back_with_its_seal_row_is_caught_by_the_checkpoint(db: Path) -> None:
    delete_row(db, CUP, 3)
    cup_seal = seal_id(tournament_id("cup")).hex
    delete_row(db, cup_seal, last_version(db, cup_seal))
    found = check(db)
    assert found["tournament cup"] == [(3, "deleted")]


def test_a_match_deleted_whole_with_its_seal_is_named_by_the_checkpoints(db: Path) -> None:
    with sql(db) as c:
        c.execute("DELETE FROM stored_events WHERE originator_id IN (?, ?)", (M1, M1_SEAL))
    assert check(db)[f"{match_id('m1')} (gone from the store)"] == [(1, "deleted")]


def test_a_checkpoint_whose_leaves_were_changed_is_named_altered(db: Path) -> None:
    # m1's leaf in checkpoint 3 made to name position 3 instead of 4, as if the penalty never was.
    number = checkpoint_of(db, M1, 4)
    with sql(db) as c:
        (state,) = c.execute(
            "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?",
            (CHECKPOINTS_ID.hex, number),
        ).fetchone()
        data = json.loads(state)
        data["leaves"] = [[leaf[0], 3, leaf[2]] for leaf in data["leaves"]]
        c.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (json.dumps(data).encode(), CHECKPOINTS_ID.hex, number),
        )
    assert (number, "altered") in check(db)["checkpoints"]
    assert honba(db, "check").exit_code == 1


def test_the_checkpoints_removed_whole_are_caught_only_against_the_published_store_head(db: Path) -> None:
    published = store_head(ok(db, "check"))
    with sql(db) as c:
        c.execute("DELETE FROM stored_events WHERE originator_id = ?", (CHECKPOINTS_ID.hex,))
    assert honba(db, "check").exit_code == 0  # it looks like a store written before checkpoints
    assert honba(db, "check", "--against", published).exit_code == 1


def test_a_command_skips_its_checkpoint_while_another_process_holds_the_lock(db: Path) -> None:
    before = last_version(db, CHECKPOINTS_ID.hex)
    with file_lock(db.with_name("honba.checkpoint.lock")) as held:
        assert held
        ok(db, "draw", "m2", "--ready", "Ann")
        assert last_version(db, CHECKPOINTS_ID.hex) == before  # skipped, not waited for
        assert "Another process is taking a checkpoint now" in ok(db, "checkpoint")
    assert f"Checkpoint {before + 1}: 1 stream saved" in ok(db, "checkpoint")
    assert f"Nothing saved since checkpoint {before + 1}" in ok(db, "checkpoint")


def test_no_checkpoint_is_taken_after_one_that_cannot_be_read(db: Path) -> None:
    last = last_version(db, CHECKPOINTS_ID.hex)
    with sql(db) as c:
        c.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (b"not json", CHECKPOINTS_ID.hex, last),
        )
    ok(db, "draw", "m2", "--ready", "Ann")  # what the command records is stored all the same
    refused = honba(db, "checkpoint")
    assert refused.exit_code == 2
    assert refused.stderr.strip().splitlines() == [
        "honba: the last checkpoint cannot be read: none is taken after it; see honba check"
    ]
    assert last_version(db, CHECKPOINTS_ID.hex) == last
    assert (last, "altered") in check(db)["checkpoints"]


def test_a_server_takes_a_checkpoint_every_few_seconds_while_something_was_saved(db: Path) -> None:
    from replay.service.recording import recording

    store = HonbaApp.open(str(db))
    stop = threading.Event()
    taken: list[bool] = []

    def run(take):  # type: ignore[no-untyped-def]
        done = take()
        taken.append(done.taken)
        if len(taken) == 1:
            recording.end(store, "m2", "agreed")  # something saved between two ticks
        if len(taken) == 3:
            stop.set()
        return done

    try:
        thread = threading.Thread(target=keep_checkpoints, args=(store, stop), kwargs={"every": 0.01, "run": run})
        thread.start()
        thread.join(timeout=60)
        assert not thread.is_alive()
    finally:
        store.close()
    # Nothing new at the first tick; the save covered at the second; nothing new again at the third.
    assert taken == [False, True, False]
    assert "Checkpoints: 9, intact" in ok(db, "check")


def test_the_tree_head_is_rfc_6962s_merkle_tree_hash_of_every_leaf() -> None:
    # Certificate Transparency's test vectors: eight leaves, the tree hash of the first n of them.
    leaves = [b"", b"\x00", b"\x10", b"\x20\x21", b"\x30\x31", b"\x40\x41\x42\x43", bytes(range(0x50, 0x58))]
    leaves.append(bytes(range(0x60, 0x70)))
    expected = [
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
        "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
        "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
        "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
        "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
    ]
    hashes = [hash_leaf(leaf) for leaf in leaves]
    for size in range(1, 9):
        assert tree_root(hashes[:size]) == expected[size - 1]
        # Appended a few at a time, as checkpoints do, from the frontier alone.
        frontier, grown = append([], 0, hashes[: size // 2])
        frontier, grown = append(frontier, grown, hashes[size // 2 : size])
        assert (root(frontier), grown) == (expected[size - 1], size)
    assert hashes[0] == hashlib.sha256(b"\x00").hexdigest()


def test_the_last_tree_head_is_the_merkle_tree_hash_of_every_leaf_of_every_checkpoint(db: Path) -> None:
    with sql(db) as c:
        rows = c.execute(
            "SELECT state FROM stored_events WHERE originator_id = ? ORDER BY originator_version", (CHECKPOINTS_ID.hex,)
        ).fetchall()
    checkpoints = [json.loads(state) for (state,) in rows]
    leaves = [leaf for checkpoint in checkpoints for leaf in checkpoint["leaves"]]
    assert len(leaves) == 8  # one stream saved per command that wrote
    assert checkpoints[-1]["root"] == tree_root([leaf_hash(leaf) for leaf in leaves])
    assert checkpoints[-1]["size"] == 8
    store = HonbaApp.open(str(db))
    try:
        assert read_checkpoints(store).check.intact
    finally:
        store.close()


def test_a_save_rolled_back_before_any_checkpoint_covered_it_is_caught_against_the_matchs_published_head(
    db: Path,
) -> None:
    from domain.values import ExhaustiveDraw
    from replay.service.recording import recording

    store = HonbaApp.open(str(db))
    try:
        before = last_version(db, M2)
        # A table records through the server: its answer names the match's head digest to publish.
        published = recording.record(store, "m2", ExhaustiveDraw(ready=(0,))).head
    finally:
        store.close()
    # Rolled back, with its seal row, before the server's next checkpoint.
    m2_seal = seal_id(match_id("m2")).hex
    delete_row(db, m2_seal, last_version(db, m2_seal))
    for version in range(last_version(db, M2), before, -1):
        delete_row(db, M2, version)
    assert honba(db, "check").exit_code == 0  # no checkpoint covered it: nothing in the store shows it
    result = honba(db, "check", "m2", "--against", published)
    assert result.exit_code == 1 and "unpublished" in result.stdout


def test_honba_serve_takes_checkpoints_while_it_runs_and_a_last_one_when_it_stops(db: Path) -> None:
    from starlette.testclient import TestClient

    from replay.service.common.access import TokenStore
    from replay.web.app import create_app

    store = HonbaApp.open(str(db))
    try:
        token = TokenStore(store).create("table", "m2")
    finally:
        store.close()
    before = last_version(db, CHECKPOINTS_ID.hex)
    with TestClient(create_app(str(db))) as client:
        body = {"kind": "draw", "ready": ["Ann"], "client_key": "c1"}
        answer = client.post("/api/matches/m2/entries", json=body, headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.text
    # Stopped: what it saved is covered (by a checkpoint it took while running, or the last one).
    assert last_version(db, CHECKPOINTS_ID.hex) > before
    m2_seal = seal_id(match_id("m2")).hex
    delete_row(db, m2_seal, last_version(db, m2_seal))
    for version in range(last_version(db, M2), 3, -1):
        delete_row(db, M2, version)
    assert check(db)["m2"] == [(4, "deleted")]


class Waits:
    """A stop event that records each wait asked of it and stops after ``ticks`` of them."""

    def __init__(self, ticks: int) -> None:
        self.asked: list[float] = []
        self.ticks = ticks

    def wait(self, timeout: float) -> bool:
        self.asked.append(timeout)
        return len(self.asked) > self.ticks


def test_checkpoints_that_fail_back_off_and_warn_once_per_outage(capsys: pytest.CaptureFixture[str]) -> None:
    # The database down for eight tries, then up: one warning, waits doubling to the cap, then one
    # line that checkpoints are taken again and the wait back to every few seconds.
    outcomes = [OSError("connection refused")] * 8 + [None, None]

    def run(_take):  # type: ignore[no-untyped-def]
        outcome = outcomes.pop(0)
        if outcome is not None:
            raise outcome

    stop = Waits(ticks=10)
    keep_checkpoints(None, stop, every=3.0, run=run)  # type: ignore[arg-type]
    assert stop.asked == [3.0, 6.0, 12.0, 24.0, 48.0, 60.0, 60.0, 60.0, 60.0, 3.0, 3.0]
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "honba: warning: no checkpoint taken: connection refused",
        "honba: checkpoints taken again (after 8 failed)",
    ]
