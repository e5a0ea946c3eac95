"""The store-wide chain of saves of a store written before checkpoints: rollbacks, tournaments, and
the store head (issue 11, cases 3, 5, 9), still caught on such a store (issue 26).

Until checkpoints, every save (a match's new events with its seal, a tournament's change, an
import) added a link to the store chain in the same transaction. A match's last events removed
together with its last seal row leave a link that names events no longer stored; the link
removed too leaves a gap in the store chain; only a rollback of the store's very last save,
link included, leaves nothing behind, and the store head digest published before catches it.
Saves made since by this honba are covered by checkpoints (``test_checkpoints.py``).

The store (``old_store.py``, written by honba at d35bc5b): ``m1`` (1 start, 2 Ben's ron on Ann,
3 deal to Ben, 4 a penalty on Dai), then ``m2`` (1 start, 2 a win), then tournament ``cup``
(1 created, 2 m1 attached, 3 m2 attached). Rows are changed with ``sqlite3`` on
``stored_events``, never through honba.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from honba_cli import honba, ok
from old_store import OLD_HEAD, write_old_store
from stored_rows import copy_store, delete_row, last_version, sql

from domain.match import match_id
from domain.tournament import tournament_id
from replay.store.chain import STORE_CHAIN_ID
from replay.store.seal import seal_id

PLAYERS = "Ann,Ben,Cho,Dai"


def store_head(output: str) -> str:
    found = re.search(r"Store head digest: ([0-9a-f]{64}) \(the store's last checkpoint", output)
    assert found, output
    return found.group(1)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("chain") / "pristine.sqlite"
    write_old_store(str(path))
    return path


@pytest.fixture
def db(pristine: Path, tmp_path: Path) -> Path:
    return copy_store(pristine, tmp_path)


def link_of(db: Path, stream: str, position: int) -> int:
    """The version of the store chain's link that saved ``stream`` up to ``position``."""
    with sql(db) as c:
        rows = c.execute(
            "SELECT originator_version, state FROM stored_events WHERE originator_id = ?", (STORE_CHAIN_ID.hex,)
        ).fetchall()
    for version, state in rows:
        data = json.loads(state)
        if data["stream"]["_data_"] == stream and data["position"] == position:
            return int(version)
    raise AssertionError(f"no link for {stream} at {position}")


M1 = match_id("m1").hex
M1_SEAL = seal_id(match_id("m1")).hex
CUP = tournament_id("cup").hex


def roll_back_m1_penalty(db: Path) -> None:
    """The penalty at m1's position 4 removed, with the seal row saved with it."""
    delete_row(db, M1, 4)
    delete_row(db, M1_SEAL, last_version(db, M1_SEAL))


def check(db: Path) -> dict[str, list[tuple[int, str]]]:
    result = honba(db, "check", "--json")
    data = json.loads(result.stdout)
    found = {r["name"]: [(p["position"], p["kind"]) for p in r["problems"]] for r in data["results"]}
    found["store chain"] = [(p["position"], p["kind"]) for p in data["store"]["problems"]]
    return found


def test_an_untouched_store_and_its_store_chain_check_clean(db: Path) -> None:
    text = ok(db, "check")
    assert "3 checked, 0 with problems" in text
    assert "Checkpoints: 0, intact; the store chain written before checkpoints: 8 links" in text
    assert store_head(text) == OLD_HEAD


def test_a_match_tail_rolled_back_with_its_seal_row_is_caught_by_the_store_chain(db: Path) -> None:
    roll_back_m1_penalty(db)
    found = check(db)
    assert found["m1"] == [(4, "deleted")]
    assert found["m2"] == [] and found["tournament cup"] == [] and found["store chain"] == []
    result = honba(db, "check")
    assert result.exit_code == 1
    assert "rolled back" in result.stdout
    assert "Integrity: BROKEN: deleted at 4" in honba(db, "audit", "m1").stdout


def test_a_rollback_with_its_store_link_removed_leaves_a_gap_in_the_store_chain(db: Path) -> None:
    roll_back_m1_penalty(db)
    delete_row(db, STORE_CHAIN_ID.hex, link_of(db, match_id("m1").hex, 4))
    found = check(db)
    assert found["store chain"] == [(3, "deleted")]
    assert honba(db, "check").exit_code == 1


def test_a_rollback_of_the_stores_last_save_is_caught_against_the_published_store_head(db: Path) -> None:
    # The old store's last save (m2 attached to the cup) and its link removed: nothing left shows it.
    published = store_head(ok(db, "check"))
    assert published == OLD_HEAD
    delete_row(db, STORE_CHAIN_ID.hex, last_version(db, STORE_CHAIN_ID.hex))
    delete_row(db, CUP, 3)
    assert honba(db, "check").exit_code == 0  # what no chain in the store can show, as the docs say
    result = honba(db, "check", "--against", published)
    assert result.exit_code == 1
    assert "unpublished" in result.stdout


def test_the_store_checks_against_its_own_published_head_and_one_published_before_later_saves(db: Path) -> None:
    published = store_head(ok(db, "check"))
    assert ok(db, "check", "--against", published)
    # A save by this honba adds no link: the checkpoint its command takes covers it.
    ok(db, "draw", "m2", "--ready", "Ann")
    assert "1 checkpoints were added since" in ok(db, "check", "--against", published)


def test_a_deleted_seal_row_is_named_as_the_seal_not_as_an_inserted_event(db: Path) -> None:
    delete_row(db, M1_SEAL, last_version(db, M1_SEAL))
    found = check(db)
    assert found["m1"] == [(0, "altered")]
    result = honba(db, "check", "m1", "--json")
    (problem,) = json.loads(result.stdout)["results"][0]["problems"]
    assert "a seal row was removed or changed" in problem["detail"]


def test_a_match_attached_row_deleted_from_a_tournament_is_caught(db: Path) -> None:
    delete_row(db, CUP, 2)
    assert check(db)["tournament cup"] == [(2, "deleted")]
    assert honba(db, "check").exit_code == 1


def test_the_last_match_attached_row_of_a_tournament_deleted_is_caught(db: Path) -> None:
    delete_row(db, CUP, 3)
    assert check(db)["tournament cup"] == [(3, "deleted")]


def test_a_match_deleted_whole_with_its_seal_is_named_by_the_store_chain(db: Path) -> None:
    with sql(db) as c:
        c.execute("DELETE FROM stored_events WHERE originator_id IN (?, ?)", (M1, M1_SEAL))
    found = check(db)
    assert found[f"{match_id('m1')} (gone from the store)"] == [(1, "deleted")]


def test_every_recording_command_and_status_print_the_head_digests(db: Path) -> None:
    for args in (("win", "m2", "Cho:mangan", "--from", "Dai"), ("status", "m2"), ("end", "m2")):
        text = ok(db, *args)
        # Each digest says what it is the digest of, and how it is checked later.
        assert re.search(
            r"Match head digest: [0-9a-f]{64} \(match m2's history in the store.*honba check m2 --against", text
        ), args
        assert re.search(
            r"Store head digest: [0-9a-f]{64} \(the store's last checkpoint.*honba check --against", text
        ), args
    assert store_head(text) == store_head(ok(db, "check"))


def test_a_command_on_a_match_whose_seal_row_was_removed_names_the_seal(db: Path) -> None:
    delete_row(db, M1_SEAL, last_version(db, M1_SEAL))
    result = honba(db, "win", "m1", "Cho:mangan", "--from", "Dai")
    assert result.exit_code == 2
    assert "a seal row was removed or changed" in result.stderr and "inserted" not in result.stderr


def test_standings_on_a_store_with_an_unreadable_row_leave_its_match_out_and_say_so(db: Path) -> None:
    with sql(db) as c:
        c.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = 2", (b"\x00", M1)
        )
    # One damaged match never takes the standings down (issue 32): it is left out and named.
    result = honba(db, "standings", "--tournament", "cup")
    assert result.exit_code == 0, result.output
    (line,) = [line for line in result.stderr.strip().splitlines() if "damaged" in line]
    assert line.startswith("honba: warning: match 'm1' is damaged in the store") and "see honba check" in line


def test_a_store_written_before_the_store_chain_checks_and_is_covered_from_its_next_save(db: Path) -> None:
    # A store written by an earlier honba has no store chain: its matches are checked by their
    # own chains and seals, and from the next command that writes on, checkpoints cover them.
    with sql(db) as c:
        c.execute("DELETE FROM stored_events WHERE originator_id = ?", (STORE_CHAIN_ID.hex,))
    assert "Checkpoints: 0, intact" in ok(db, "check")
    before = last_version(db, M1)
    ok(db, "draw", "m1", "--ready", "Ann")
    assert "Checkpoints: 1, intact" in ok(db, "check")
    for version in range(last_version(db, M1), before, -1):  # the draw's save rolled back
        delete_row(db, M1, version)
    delete_row(db, M1_SEAL, last_version(db, M1_SEAL))
    assert check(db)["m1"] == [(before + 1, "deleted")]


def test_the_store_chain_removed_whole_is_caught_only_against_the_published_store_head(db: Path) -> None:
    published = store_head(ok(db, "check"))
    with sql(db) as c:
        c.execute("DELETE FROM stored_events WHERE originator_id = ?", (STORE_CHAIN_ID.hex,))
    assert honba(db, "check").exit_code == 0  # it looks like a store written before the store chain
    assert honba(db, "check", "--against", published).exit_code == 1


def test_a_command_on_a_tournament_with_a_deleted_row_says_so_in_one_line(db: Path) -> None:
    delete_row(db, CUP, 2)
    for args in (("tournament", "show", "cup"), ("tournament", "attach", "cup", "m2")):
        result = honba(db, *args)
        assert result.exit_code == 2, args
        (line,) = result.stderr.strip().splitlines()
        assert line.startswith("honba: tournament 'cup' is damaged in the store") and "see honba check" in line
