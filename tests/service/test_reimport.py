"""Re-import for free: a file whose bytes (with the same import options) were imported before is
recognised by its digest, recorded in the store, without being read; a changed file is read and
compared with what is stored."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CORPUS, ReadHere, imported

from replay.service.imports.batch import PARALLEL_FROM, OnDemandPool, reading_pool

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")

WIRE = sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))


def archive(folder: Path, count: int) -> Path:
    folder.mkdir()
    for source in WIRE[:count]:
        (folder / source.name).write_bytes(source.read_bytes())
    return folder


@pytest.fixture
def reads() -> ReadHere:
    """The files an import reads (parses and replays), in order: the import is given this pool."""
    return ReadHere()


def test_an_archive_imported_again_is_recognised_without_reading_a_file(tmp_path: Path, reads: ReadHere) -> None:
    folder = archive(tmp_path / "logs", 12)
    db = tmp_path / "store.sqlite"
    first = imported(db, folder, pool=reads, keep_games=True)
    assert (first.stored, first.present) == (12, 0) and len(reads) == 12
    reads.clear()
    again = imported(db, folder, pool=reads, keep_games=True)
    assert reads == []
    assert (again.files, again.stored, again.present) == (12, 0, 12)
    # The games are named as stored, with their players, for --tournament.
    assert again.games == first.games
    assert [key for key, _ in again.listed] == [key for key, _ in first.listed]


def test_a_changed_file_is_read_again_and_compared_with_the_stored_match(tmp_path: Path, reads: ReadHere) -> None:
    folder = archive(tmp_path / "logs", 3)
    db = tmp_path / "store.sqlite"
    imported(db, folder, pool=reads)
    target = folder / WIRE[1].name
    # The same game in other bytes (a line break added): read, compared, found present.
    target.write_bytes(target.read_bytes() + b"\n")
    reads.clear()
    same_game = imported(db, folder, pool=reads)
    assert reads == [WIRE[1].name]
    assert (same_game.stored, same_game.present, same_game.conflicts) == (0, 3, ())
    # The same log id with another player's name: read, compared, a conflict; never recorded as
    # imported, so the next import reads it again and names the conflict again.
    data = target.read_bytes()
    name = data.split(b'n0="', 1)[1].split(b'"', 1)[0]
    target.write_bytes(data.replace(b'n0="' + name + b'"', b'n0="%41%6C%74%65%72%65%64"', 1))
    for _ in range(2):
        reads.clear()
        changed = imported(db, folder, pool=reads)
        assert reads == [WIRE[1].name]
        assert len(changed.conflicts) == 1 and "stored with other players" in changed.conflicts[0].reason


def test_the_same_bytes_under_other_import_options_are_read_again(tmp_path: Path, reads: ReadHere) -> None:
    folder = archive(tmp_path / "logs", 2)
    db = tmp_path / "store.sqlite"
    imported(db, folder, pool=reads)
    reads.clear()
    prefixed = imported(db, folder, pool=reads, key_prefix="club-")
    assert sorted(reads) == sorted(p.name for p in WIRE[:2])
    # Under another key, each is the same game as one stored: stored once, found as a duplicate.
    assert prefixed.stored == 0 and len(prefixed.duplicates) == 2


def test_a_recognised_file_reports_its_unsupported_games_and_warnings_again(tmp_path: Path, reads: ReadHere) -> None:
    # The special-rule logs of this folder (ratio, chip, sanma.xml: GO type 2113) are unsupported.
    folder = CORPUS / "dnovikoff-tenhou" / "log" / "test_data"
    db = tmp_path / "store.sqlite"
    first = imported(db, folder, pool=reads)
    assert len(first.unsupported) >= 4
    reads.clear()
    again = imported(db, folder, pool=reads)
    assert reads == []
    assert again.unsupported == first.unsupported
    assert again.warnings == first.warnings
    assert (again.stored, again.present) == (0, first.stored + first.present)


def test_the_same_bytes_under_another_name_are_recognised_without_being_read(tmp_path: Path, reads: ReadHere) -> None:
    # A log without an id in it takes its key from the file's name, but its games are the games
    # stored already (a game is stored once, whatever file it comes from): the copy is recognised
    # by its content before it is parsed (issue 26; before, it was read under its own key and
    # found to be the game stored already).
    folder = archive(tmp_path / "logs", 1)
    db = tmp_path / "store.sqlite"
    imported(db, folder, pool=reads)
    (folder / "copy.mjlog").write_bytes((folder / WIRE[0].name).read_bytes())
    reads.clear()
    again = imported(db, folder, pool=reads, keep_games=True)
    assert reads == []
    assert again.stored == 0 and again.present == 2
    assert dict(again.games) == {WIRE[0].stem: dict(again.games)[WIRE[0].stem]}


def test_an_archive_imported_again_starts_no_reading_worker(tmp_path: Path) -> None:
    # honba import's pool starts at the first file that needs reading: here none does.
    folder = archive(tmp_path / "logs", PARALLEL_FROM)
    db = tmp_path / "store.sqlite"
    with reading_pool(2, PARALLEL_FROM, on_demand=True) as pool:
        assert isinstance(pool, OnDemandPool) and not pool.started
        first = imported(db, folder, pool=pool)
        assert pool.started
    assert first.stored == PARALLEL_FROM
    with reading_pool(2, PARALLEL_FROM, on_demand=True) as pool:
        assert isinstance(pool, OnDemandPool)
        again = imported(db, folder, pool=pool)
        assert not pool.started
    assert (again.stored, again.present) == (0, PARALLEL_FROM)


def test_a_renamed_copy_of_an_archive_is_recognised_by_its_content_without_reading_a_file(
    tmp_path: Path, reads: ReadHere
) -> None:
    folder = archive(tmp_path / "logs", 12)
    db = tmp_path / "store.sqlite"
    first = imported(db, folder, pool=reads, keep_games=True)
    assert first.stored == 12
    copy = tmp_path / "copy"
    copy.mkdir()
    for number, log in enumerate(sorted(folder.iterdir())):
        (copy / f"renamed-{number}.mjlog").write_bytes(log.read_bytes())
    reads.clear()
    again = imported(db, copy, pool=reads, keep_games=True)
    assert reads == []  # recognised before parsing: by content, not by name
    assert (again.files, again.stored, again.present, again.conflicts) == (12, 0, 12, ())
    # The games are the ones stored, under the keys they were stored as (for --tournament).
    assert dict(again.games) == dict(first.games)


def test_a_recognised_file_is_not_read_by_an_import_that_reads_in_its_own_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Fewer files than PARALLEL_FROM (and --jobs 1): no reading pool, the files read in this process.
    # Seen at ``read_capped`` as the log reader looks it up (``replay.formats.source``'s global, reached
    # by its caller compiled or not); the import's own digest of each file is read elsewhere.
    from replay.formats import source

    folder = archive(tmp_path / "logs", 4)
    db = tmp_path / "store.sqlite"
    read: list[str] = []
    plain = source.read_capped

    def counted(path: Path, **options: object) -> bytes:
        read.append(Path(path).name)
        return plain(path, **options)  # type: ignore[arg-type]

    monkeypatch.setattr(source, "read_capped", counted)
    first = imported(db, folder)
    assert first.stored == 4 and sorted(read) == sorted(p.name for p in WIRE[:4])
    read.clear()
    again = imported(db, folder)
    assert read == [] and (again.stored, again.present) == (0, 4)
    target = folder / WIRE[2].name
    target.write_bytes(target.read_bytes() + b"\n")
    changed = imported(db, folder)
    assert read == [WIRE[2].name] and changed.present == 4
