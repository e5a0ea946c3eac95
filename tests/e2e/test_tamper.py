"""Tamper evidence: stored events and exported files changed behind honba's back are named.

Issue 5: "``honba check`` walks the store and reports any match whose stored events
were altered, deleted, reordered or inserted behind honba's back, naming the match
and the position; exit 1 when anything is wrong", and "a file whose lines were
edited is caught the same way".

The tampered match is the seeds' counters example (docs/examples/counters-seed.jsonl,
seed 003). Under Tenhou's rules its events are, by position:

    1 start           5 deal passes to Cho    9 E4-1 draw, only Ann ready
    2 E1-0 Ben ron    6 E3-0 Ann ron 3/30    10 deal passes to Ann (dealer not ready)
    3 deal to Ben     7 deal passes to Dai   11 S1-2 Dai ron 2/30
    4 E2-0 Cho tsumo  8 E4-0 Dai tsumo 1/30  12 deal passes to Ben
                         (dealer wins: no pass)

Its exported file has the start on line 1, the six results on lines 2-7 (deal passes
are not written) and the seal on line 8. The tampering is done with ``sqlite3`` on the
``stored_events`` table (originator_id, originator_version, topic, state) and with plain
text edits on the file, never through honba.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO, TENHOU, hv, ron, tsumo, won
from honba_cli import Honba, honba
from typer.testing import Result

from domain.match import match_id
from replay.formats.record import build_match, check_record_text, parse_record
from replay.service.imports import storing
from replay.service.recording import recording
from replay.store.application import HonbaApp
from replay.store.store_check import check_store

COUNTERS = "seed-counters-example"
DEALER_BONUS = "seed-001-dealer-bonus"
CLUB = "club-1"
EXAMPLES = REPO / "docs" / "examples"
TOPIC = "domain.match:Match.{}"


# The command line as typed (``--db`` where a test names it, else the store HONBA_DB names).
cli = Honba(None)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file with three matches: two imported seed examples and one recorded hand by hand."""
    path = tmp_path_factory.mktemp("store") / "pristine.sqlite"
    store = HonbaApp.open(str(path))
    for name in ("counters-seed.jsonl", "dealer-bonus.jsonl"):
        text = (EXAMPLES / name).read_text(encoding="utf-8")
        storing.store_whole(store, build_match(parse_record(text, name=name), name=name))
    recording.start_match(store, CLUB, ["Ann", "Ben", "Cho", "Dai"], TENHOU)
    recording.record(store, CLUB, won(ron(1, 2, hv(3, 30))))  # each command its own transaction
    recording.record(store, CLUB, won(tsumo(2, hv(2, 30))))
    store.close()
    return path


@pytest.fixture
def db(pristine: Path, tmp_path: Path) -> Path:
    """A fresh copy of the three-match store for one test to tamper with."""
    path = tmp_path / "honba.sqlite"
    shutil.copy(pristine, path)
    return path


class Rows:
    """The ``stored_events`` rows of one match, changed with plain SQL."""

    def __init__(self, connection: sqlite3.Connection, key: str):
        self.sql = connection
        self.id = match_id(key).hex

    def row(self, version: int) -> tuple[str, bytes]:
        found = self.sql.execute(
            "SELECT topic, state FROM stored_events WHERE originator_id = ? AND originator_version = ?",
            (self.id, version),
        ).fetchone()
        assert found is not None, f"no stored event {version}"
        return str(found[0]), bytes(found[1])

    def set_state(self, version: int, state: bytes) -> None:
        self.sql.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (state, self.id, version),
        )

    def edit(self, version: int, change: Callable[[dict[str, Any]], None]) -> None:
        data = json.loads(self.row(version)[1])
        change(data)
        self.set_state(version, json.dumps(data, separators=(",", ":")).encode())

    def delete(self, version: int) -> None:
        self.sql.execute(
            "DELETE FROM stored_events WHERE originator_id = ? AND originator_version = ?", (self.id, version)
        )

    def shift(self, from_version: int, by: int) -> None:
        """Move the events from ``from_version`` on by ``by`` positions (in two steps: the key is unique)."""
        where = "originator_id = ? AND originator_version >= ?"
        self.sql.execute(
            f"UPDATE stored_events SET originator_version = originator_version + 100000 WHERE {where}",
            (self.id, from_version),
        )
        self.sql.execute(
            f"UPDATE stored_events SET originator_version = originator_version - 100000 + ? WHERE {where}",
            (by, self.id, from_version + 100000),
        )

    def insert(self, version: int, topic: str, state: bytes) -> None:
        self.sql.execute("INSERT INTO stored_events VALUES (?, ?, ?, ?)", (self.id, version, topic, state))


@contextmanager
def tampering(path: Path, key: str = COUNTERS) -> Iterator[Rows]:
    with closing(sqlite3.connect(path)) as connection:
        yield Rows(connection, key)
        connection.commit()


def problems(path: Path) -> dict[str, list[tuple[int, str]]]:
    """Each match's problems as (position, kind), read by ``check_store``."""
    store = HonbaApp.open(str(path))
    try:
        return {c.name: [(p.position, p.kind) for p in c.problems] for c in check_store(store)}
    finally:
        store.close()


def only_counters(found: list[tuple[int, str]]) -> dict[str, list[tuple[int, str]]]:
    """What check_store must say when only the counters match was touched: the others stay clean."""
    return {COUNTERS: found, DEALER_BONUS: [], CLUB: []}


def set_fu(fu: int) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data["fact"]["_data_"]["wins"][0]["value"]["fu"] = fu

    return change


# The store.


def test_an_untouched_store_checks_clean(db: Path) -> None:
    assert problems(db) == only_counters([])
    result = honba(db, "check")
    assert result.exit_code == 0, result.output
    assert "3 checked, 0 with problems" in result.stdout


def test_a_match_recorded_command_by_command_checks_clean_after_more_commands(db: Path) -> None:
    store = HonbaApp.open(str(db))
    recording.record(store, CLUB, won(ron(0, 3, hv(1, 30))))
    store.close()
    assert problems(db) == only_counters([])


def test_an_altered_hand_value_is_named_altered_at_its_position(db: Path) -> None:
    # E3-0: Ann's ron on Ben, 3 han 30 fu, made 40 fu.
    with tampering(db) as rows:
        rows.edit(6, set_fu(40))
    assert problems(db) == only_counters([(6, "altered")])


def test_an_altered_player_name_in_the_start_event_is_named_at_position_1(db: Path) -> None:
    def rename(data: dict[str, Any]) -> None:
        data["players"][1] = "Bob"

    with tampering(db) as rows:
        rows.edit(1, rename)
    assert problems(db) == only_counters([(1, "altered")])


def test_an_altered_last_event_is_named_by_the_seal(db: Path) -> None:
    # Nothing follows the last event to name its digest; the seal saved with the match does.
    def elsewhere(data: dict[str, Any]) -> None:
        data["fact"]["_data_"]["hand_number"] = 3

    with tampering(db) as rows:
        rows.edit(12, elsewhere)
    assert problems(db) == only_counters([(12, "altered")])


def test_an_event_changed_to_another_kind_is_named_altered(db: Path) -> None:
    with tampering(db) as rows:
        rows.sql.execute(
            "UPDATE stored_events SET topic = ? WHERE originator_id = ? AND originator_version = 6",
            (TOPIC.format("HandDrawn"), rows.id),
        )
    assert problems(db) == only_counters([(6, "altered")])


def test_a_row_that_no_longer_reads_is_named_altered_and_nothing_else(db: Path) -> None:
    with tampering(db) as rows:
        rows.set_state(6, b"not json")
    assert problems(db) == only_counters([(6, "altered")])


def test_an_event_deleted_from_the_middle_is_named_deleted_at_its_position(db: Path) -> None:
    with tampering(db) as rows:
        rows.delete(6)
    assert problems(db) == only_counters([(6, "deleted")])


def test_an_event_deleted_with_the_later_ones_moved_up_is_named_deleted_at_its_position(db: Path) -> None:
    with tampering(db) as rows:
        rows.delete(6)
        rows.shift(7, -1)
    assert problems(db) == only_counters([(6, "deleted")])


def test_the_last_event_deleted_is_named_by_the_seal(db: Path) -> None:
    with tampering(db) as rows:
        rows.delete(12)
    assert problems(db) == only_counters([(12, "deleted")])


def test_the_last_two_events_deleted_are_named_from_the_first_missing(db: Path) -> None:
    with tampering(db) as rows:
        rows.delete(11)
        rows.delete(12)
    assert problems(db) == only_counters([(11, "deleted")])


def test_a_deleted_start_event_still_names_the_match_by_its_seal(db: Path) -> None:
    with tampering(db) as rows:
        rows.delete(1)
    found = problems(db)
    assert found[DEALER_BONUS] == found[CLUB] == []
    (name,) = set(found) - {DEALER_BONUS, CLUB}
    assert str(match_id(COUNTERS)) in name
    assert found[name] == [(1, "deleted")]


def test_a_match_deleted_whole_is_named_by_its_seal(db: Path) -> None:
    with tampering(db) as rows:
        rows.sql.execute("DELETE FROM stored_events WHERE originator_id = ?", (rows.id,))
    found = problems(db)
    (name,) = set(found) - {DEALER_BONUS, CLUB}
    assert str(match_id(COUNTERS)) in name
    assert found[name] == [(1, "deleted")]


def test_two_events_whose_contents_were_swapped_are_named_reordered(db: Path) -> None:
    # Cho's tsumo (4) and Ann's ron (6) trade places; both are wins, so both still read.
    with tampering(db) as rows:
        fourth, sixth = rows.row(4)[1], rows.row(6)[1]
        rows.set_state(4, sixth)
        rows.set_state(6, fourth)
    found = problems(db)
    assert found[DEALER_BONUS] == found[CLUB] == []
    assert {kind for _, kind in found[COUNTERS]} == {"reordered"}
    assert {4, 6} <= {position for position, _ in found[COUNTERS]}


def test_two_neighbouring_rows_swapped_are_named_reordered(db: Path) -> None:
    # Dai's tsumo (8) and the draw (9), topic and content, trade places.
    with tampering(db) as rows:
        eighth, ninth = rows.row(8), rows.row(9)
        rows.delete(8)
        rows.delete(9)
        rows.insert(8, *ninth)
        rows.insert(9, *eighth)
    found = problems(db)
    assert {kind for _, kind in found[COUNTERS]} == {"reordered"}
    assert {8, 9} <= {position for position, _ in found[COUNTERS]}


def test_a_copied_event_appended_with_the_next_version_is_named_inserted(db: Path) -> None:
    with tampering(db) as rows:
        rows.insert(13, *rows.row(11))
    assert problems(db) == only_counters([(13, "inserted")])


def test_a_forged_event_appended_after_the_head_is_named_inserted(db: Path) -> None:
    # A forger who names the real head digest as ``prior`` still does not move the seal.
    store = HonbaApp.open(str(db))
    head = store.get_match(COUNTERS).head
    store.close()
    with tampering(db) as rows:
        topic, state = rows.row(11)
        forged = json.loads(state) | {"prior": head}
        rows.insert(13, topic, json.dumps(forged).encode())
    assert problems(db) == only_counters([(13, "inserted")])


def test_a_forged_event_inserted_in_the_middle_with_later_versions_shifted_up_is_named_inserted(db: Path) -> None:
    with tampering(db) as rows:
        topic, state = rows.row(4)
        forged = json.loads(state)
        forged["fact"]["_data_"]["wins"][0]["value"]["han"] = 4
        rows.shift(6, +1)
        rows.insert(6, topic, json.dumps(forged).encode())
    assert problems(db) == only_counters([(6, "inserted")])


def test_a_copied_event_inserted_in_the_middle_is_named_inserted(db: Path) -> None:
    with tampering(db) as rows:
        copy = rows.row(2)
        rows.shift(6, +1)
        rows.insert(6, *copy)
    assert problems(db) == only_counters([(6, "inserted")])


def test_every_match_of_the_file_is_checked_independently(db: Path) -> None:
    with tampering(db) as rows:
        rows.edit(6, set_fu(40))
    with tampering(db, CLUB) as rows:
        rows.delete(4)
    found = problems(db)
    assert found == {COUNTERS: [(6, "altered")], DEALER_BONUS: [], CLUB: [(4, "deleted")]}


def _alter(rows: Rows) -> None:
    rows.edit(6, set_fu(40))


def _delete(rows: Rows) -> None:
    rows.delete(6)


def _delete_last(rows: Rows) -> None:
    rows.delete(12)


def _reorder(rows: Rows) -> None:
    fourth, sixth = rows.row(4)[1], rows.row(6)[1]
    rows.set_state(4, sixth)
    rows.set_state(6, fourth)


def _insert(rows: Rows) -> None:
    rows.insert(13, *rows.row(11))


@pytest.mark.parametrize(
    ("tamper", "position", "kind"),
    [
        (_alter, 6, "altered"),
        (_delete, 6, "deleted"),
        (_delete_last, 12, "deleted"),
        (_reorder, 4, "reordered"),
        (_insert, 13, "inserted"),
    ],
    ids=["altered", "deleted", "last-deleted", "reordered", "inserted"],
)
def test_honba_check_names_the_match_position_and_kind_and_exits_1(
    db: Path, tamper: Callable[[Rows], None], position: int, kind: str
) -> None:
    with tampering(db) as rows:
        tamper(rows)
    result = honba(db, "check")
    assert result.exit_code == 1, result.output
    assert COUNTERS in result.stdout
    assert f"{kind} at {position}" in result.stdout
    assert "3 checked, 1 with problems" in result.stdout

    data = json.loads(honba(db, "check", "--json").stdout)
    by_name = {r["name"]: r for r in data["results"]}
    assert (position, kind) in [(p["position"], p["kind"]) for p in by_name[COUNTERS]["problems"]]
    assert by_name[DEALER_BONUS]["intact"] and by_name[CLUB]["intact"]


# Exported files.


@pytest.fixture
def exported(db: Path, tmp_path: Path) -> list[str]:
    """The counters match exported by ``honba export``, as its lines."""
    path = tmp_path / "export.jsonl"
    result = honba(db, "export", COUNTERS, "-o", str(path))
    assert result.exit_code == 0, result.output
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 8 and json.loads(lines[-1])["type"] == "seal"
    return lines


def write(tmp_path: Path, lines: list[str], name: str = "disputed.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def file_problems(path: Path) -> list[tuple[int, str]]:
    return [(p.position, p.kind) for p in check_record_text(path.read_text(encoding="utf-8"), name=str(path)).problems]


def check_file(path: Path) -> Result:
    return cli("check", str(path))


def test_an_untouched_export_checks_clean(exported: list[str], tmp_path: Path) -> None:
    path = write(tmp_path, exported)
    assert file_problems(path) == []
    result = check_file(path)
    assert result.exit_code == 0, result.output
    assert "intact" in result.stdout


def test_an_edited_line_of_a_file_is_named_altered(exported: list[str], tmp_path: Path) -> None:
    lines = list(exported)
    lines[3] = lines[3].replace('"han": 3', '"han": 2')  # line 4: Ann's ron on Ben, 3 han made 2
    path = write(tmp_path, lines)
    assert file_problems(path) == [(4, "altered")]
    result = check_file(path)
    assert result.exit_code == 1
    assert "altered at 4" in result.stdout


def test_an_edited_start_line_of_a_file_is_named_altered(exported: list[str], tmp_path: Path) -> None:
    lines = list(exported)
    lines[0] = lines[0].replace('"Ben"', '"Bob"')
    assert file_problems(write(tmp_path, lines)) == [(1, "altered")]


def test_a_deleted_line_of_a_file_is_named_deleted(exported: list[str], tmp_path: Path) -> None:
    lines = list(exported)
    del lines[3]
    path = write(tmp_path, lines)
    assert file_problems(path) == [(4, "deleted")]
    result = check_file(path)
    assert result.exit_code == 1
    assert "deleted at 4" in result.stdout


def test_the_last_result_deleted_from_a_file_is_named_by_the_seal(exported: list[str], tmp_path: Path) -> None:
    lines = list(exported)
    del lines[6]
    assert file_problems(write(tmp_path, lines)) == [(7, "deleted")]


def test_two_swapped_lines_of_a_file_are_named_reordered(exported: list[str], tmp_path: Path) -> None:
    lines = list(exported)
    lines[2], lines[3] = lines[3], lines[2]
    path = write(tmp_path, lines)
    found = file_problems(path)
    assert {kind for _, kind in found} == {"reordered"}
    assert {3, 4} <= {position for position, _ in found}
    result = check_file(path)
    assert result.exit_code == 1
    assert "reordered at 3" in result.stdout


def test_a_line_written_into_a_file_is_named_inserted(exported: list[str], tmp_path: Path) -> None:
    lines = list(exported)
    lines.insert(3, '{"type": "penalty", "player": "Ann", "amount": 3000, "kind": "chombo", "share": "to_others"}')
    path = write(tmp_path, lines)
    assert file_problems(path) == [(4, "inserted")]
    result = check_file(path)
    assert result.exit_code == 1
    assert "inserted at 4" in result.stdout


def test_a_copied_line_inserted_into_a_file_is_named_inserted(exported: list[str], tmp_path: Path) -> None:
    lines = list(exported)
    lines.insert(5, lines[1])  # Ben's ron of line 2 again, as line 6
    assert file_problems(write(tmp_path, lines)) == [(6, "inserted")]


def test_a_file_whose_seal_was_dropped_is_named_unsealed(exported: list[str], tmp_path: Path) -> None:
    path = write(tmp_path, exported[:-1])
    assert [kind for _, kind in file_problems(path)] == ["unsealed"]
    result = check_file(path)
    assert result.exit_code == 1
    assert "unsealed" in result.stdout


def test_a_seal_whose_count_was_changed_is_named_altered(exported: list[str], tmp_path: Path) -> None:
    lines = list(exported)
    lines[-1] = lines[-1].replace('"lines": 7', '"lines": 6')
    assert file_problems(write(tmp_path, lines)) == [(8, "altered")]


def test_a_line_that_is_no_longer_json_is_named_altered(exported: list[str], tmp_path: Path) -> None:
    lines = list(exported)
    lines[3] = lines[3][:-10]
    assert file_problems(write(tmp_path, lines)) == [(4, "altered")]


def test_honba_check_reports_each_file_of_several(exported: list[str], tmp_path: Path) -> None:
    clean = write(tmp_path, exported, "clean.jsonl")
    edited = write(tmp_path, [exported[0], exported[1].replace('"fu": 30', '"fu": 40'), *exported[2:]], "bad.jsonl")
    result = cli("check", str(clean), str(edited), "--json")
    assert result.exit_code == 1
    results = {Path(r["name"]).name: r for r in json.loads(result.stdout)["results"]}
    assert results["clean.jsonl"]["intact"]
    assert [(p["position"], p["kind"]) for p in results["bad.jsonl"]["problems"]] == [(2, "altered")]


def stored_keys(path: Path) -> list[str]:
    store = HonbaApp.open(str(path))
    try:
        return [m.key for m in store.list_matches()]
    finally:
        store.close()


@pytest.mark.parametrize(
    ("change", "line"),
    [
        (lambda ls: [*ls[:3], ls[3].replace('"han": 3', '"han": 2'), *ls[4:]], 4),
        (lambda ls: [*ls[:3], *ls[4:]], 4),
        (lambda ls: [ls[0], ls[2], ls[1], *ls[3:]], 2),
        (lambda ls: [ls[0].replace('"Ben"', '"Bob"'), *ls[1:]], 1),
    ],
    ids=["edited", "deleted", "swapped", "edited-start"],
)
def test_importing_a_tampered_chained_file_is_refused_naming_file_and_line(
    exported: list[str], tmp_path: Path, change: Callable[[list[str]], list[str]], line: int
) -> None:
    path = write(tmp_path, change(exported))
    fresh = tmp_path / "fresh.sqlite"
    result = honba(fresh, "import", str(path))
    assert result.exit_code == 2
    errors = [e for e in result.stderr.splitlines() if e.startswith("honba:")]
    assert len(errors) == 1
    assert f"{path}:{line}:" in errors[0]
    assert "chain" in errors[0]
    assert stored_keys(fresh) == []


def test_a_hand_written_file_without_a_chain_imports_but_check_says_it_could_not_check_it(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.sqlite"
    path = EXAMPLES / "counters-seed.jsonl"
    assert '"prior"' not in path.read_text(encoding="utf-8")
    result = honba(fresh, "import", str(path))
    assert result.exit_code == 0, result.output
    assert stored_keys(fresh) == [COUNTERS]
    checked = check_file(path)
    # Issue 11: nothing to check is no evidence; the check says so and does not pass.
    assert checked.exit_code == 1
    assert "unchained" in checked.stdout


def test_a_plain_export_edited_by_hand_imports(db: Path, tmp_path: Path) -> None:
    plain = honba(db, "export", COUNTERS, "--plain").stdout
    edited = plain.replace('"han": 3', '"han": 2')
    path = tmp_path / "edited.jsonl"
    path.write_text(edited, encoding="utf-8")
    fresh = tmp_path / "fresh.sqlite"
    result = honba(fresh, "import", str(path))
    assert result.exit_code == 0, result.output
    assert stored_keys(fresh) == [COUNTERS]
