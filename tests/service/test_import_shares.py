"""``honba import --share K/N`` (issue 36): an archive split between machines by file name, each file in
exactly one share; the shares imported into one store give what one import of the whole gives; a share
run again stores nothing twice, and one interrupted is completed by running it again."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, imported

from replay.service.imports.imports import (
    Share,
    count_import_files,
    import_files,
    import_options_refusal,
    parse_share,
    share_of,
)
from replay.store.application import HonbaApp
from replay.store.checkpoint import CHECKPOINTS_ID

WIRE = sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))
needs_corpus = pytest.mark.skipif(not WIRE, reason="../shared/corpus is not present")


def test_a_file_falls_in_the_share_its_names_digest_gives_forever() -> None:
    # Pinned: machines running different versions of honba split one archive between them, so the
    # split of a name never changes. (SHA-256 of the name's UTF-8; its first 8 bytes, big-endian, mod N.)
    assert [share_of("2018010100gm-00a9-0000-0a0d1c3c.mjlog", n) for n in (1, 2, 3, 5)] == [1, 1, 1, 4]
    assert [share_of("chankan.json", n) for n in (1, 2, 3, 5)] == [1, 2, 1, 5]
    # The folder a file is in plays no part: an archive splits the same wherever it is mounted.
    share = Share(4, 5)
    assert share.holds(Path("/a/2018010100gm-00a9-0000-0a0d1c3c.mjlog"))
    assert share.holds(Path("b/c/2018010100gm-00a9-0000-0a0d1c3c.mjlog"))


@needs_corpus
@pytest.mark.parametrize("count", [1, 2, 3, 7, 16])
def test_every_file_of_the_archive_is_in_exactly_one_share(count: int) -> None:
    shares = [Share(number, count) for number in range(1, count + 1)]
    for path in WIRE:
        assert sum(share.holds(path) for share in shares) == 1, path.name
    # Split by a digest, the shares are near even: none empty, none more than twice its part.
    sizes = [sum(1 for _ in share.of(WIRE)) for share in shares]
    assert sum(sizes) == len(WIRE)
    assert min(sizes) > 0 and max(sizes) <= 2 * len(WIRE) / count


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("2", "--share takes K/N (share K of N, e.g. 2/5), not '2'"),
        ("a/3", "--share takes K/N (share K of N, e.g. 2/5), not 'a/3'"),
        ("1/-3", "--share takes K/N (share K of N, e.g. 2/5), not '1/-3'"),
        ("0/3", "--share 0/3: K is from 1 to N (3), not 0"),
        ("4/3", "--share 4/3: K is from 1 to N (3), not 4"),
        ("1/0", "--share's N: at least 1, not 0"),
        ("1/2000000", "--share's N: at most 1,000,000, not 2000000"),
    ],
)
def test_a_share_that_is_not_k_of_n_is_refused_in_one_line(text: str, reason: str) -> None:
    with pytest.raises(ValueError) as refused:
        parse_share(text)
    assert str(refused.value) == reason
    assert import_options_refusal("auto", None, 1, 100, None, "", text) == reason
    assert import_options_refusal("auto", None, 1, 100, None, "", " 2/5 ") is None
    assert parse_share(" 2/5 ") == Share(2, 5)


def test_record_files_named_are_split_by_name_as_well(tmp_path: Path) -> None:
    named = [tmp_path / f"night-{n}.jsonl" for n in range(12)]
    for path in named:
        path.write_text("")
    shares = [list(import_files(named, "record", Share(k, 4))) for k in range(1, 5)]
    assert sorted(p for share in shares for p in share) == sorted(named)
    assert [count_import_files(named, "record", Share(k, 4)) for k in range(1, 5)] == [len(s) for s in shares]


def archive(folder: Path, count: int) -> Path:
    # In two folders: the split is by name, not by folder or order.
    for index, source in enumerate(WIRE[:count]):
        part = folder / f"part-{index % 2}"
        part.mkdir(parents=True, exist_ok=True)
        (part / source.name).write_bytes(source.read_bytes())
    return folder


def rows(db: Path) -> list[tuple[str, int, str]]:
    """Every row of the store but the checkpoints, as (stream, position, topic), in a stable order (its
    state holds the time it was stored)."""
    with closing(sqlite3.connect(db)) as conn:
        found = conn.execute("SELECT originator_id, originator_version, topic FROM stored_events").fetchall()
    return sorted(row for row in found if row[0] != CHECKPOINTS_ID.hex)


@needs_corpus
def test_the_shares_imported_into_one_store_store_what_one_whole_import_stores(tmp_path: Path) -> None:
    folder = archive(tmp_path / "logs", 30)
    whole = imported(tmp_path / "whole.sqlite", folder)
    assert (whole.stored, whole.conflicts, whole.unreadable) == (30, (), ())
    shared = tmp_path / "shared.sqlite"
    runs = [imported(shared, folder, share=Share(k, 3)) for k in (3, 1, 2)]
    # Each file read by one share only: every game stored once, none found present.
    assert [run.files for run in runs] == [count_import_files([folder], "auto", Share(k, 3)) for k in (3, 1, 2)]
    assert sum(run.files for run in runs) == 30 and all(run.files for run in runs)
    assert sum(run.stored for run in runs) == 30 and sum(run.present for run in runs) == 0
    # The same matches, seals, identities and records of the files, each once.
    assert rows(shared) == rows(tmp_path / "whole.sqlite")
    # A share run again stores nothing: its files are recognised without being read.
    again = imported(shared, folder, share=Share(1, 3))
    assert (again.stored, again.present) == (0, runs[1].stored)


@needs_corpus
def test_a_share_interrupted_is_completed_by_running_it_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = archive(tmp_path / "logs", 40)
    share = Share(2, 2)
    expected = count_import_files([folder], "auto", share)
    assert expected > 10
    db = tmp_path / "store.sqlite"
    # Ctrl-C while the second batch is stored: as its rows go to the store (the interpreted
    # ``HonbaApp.insert_rows``; a compiled import calls its own ``store_prepared`` directly).
    original = HonbaApp.insert_rows
    calls: list[int] = []

    def interrupted(app: HonbaApp, rows: Any) -> Any:
        calls.append(len(rows))
        if len(calls) == 2:
            raise KeyboardInterrupt
        return original(app, rows)

    monkeypatch.setattr(HonbaApp, "insert_rows", interrupted)
    with pytest.raises(KeyboardInterrupt):
        imported(db, folder, share=share, batch=5)
    monkeypatch.setattr(HonbaApp, "insert_rows", original)
    resumed = imported(db, folder, share=share, batch=5)
    assert (resumed.stored, resumed.present) == (expected - 5, 5)
    # What an uninterrupted import of the share stores, nothing twice.
    whole = tmp_path / "whole.sqlite"
    imported(whole, folder, share=share)
    assert rows(db) == rows(whole)
