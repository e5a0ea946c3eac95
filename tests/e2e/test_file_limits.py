"""Size limits on what honba reads, and files it writes that appear whole (issue 24, cases 2 and 5).

A log, a record file, a score sheet or a rule file is read with a cap on its size
(``replay.input.files.MAX_FILE``, 64 MiB; a rule file 1 MiB): ``/dev/zero``, a file that never
ends or a huge file is refused in one line naming it, and ``import`` and ``verify`` carry on with
the other files. ``honba check`` reads a record file as ``import`` reads it (gzipped too). A report
or an export is written to a temporary file and moved into place when complete: a write that fails
(here: the process's file size limit, as a full disk would) leaves the target as it was. The reads run
in a process of their own with its memory capped (a reader without a cap would fail there instead of
filling this machine's memory); the failed writes run in this process, its file size limit lowered
while the command runs.
"""

from __future__ import annotations

import gzip
import os
import resource
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fuzz_samples import mjai_log, record_text
from honba_cli import honba_main, store_rows

from domain.rules import load_preset
from domain.values import Penalty
from replay.input.files import MAX_FILE, MAX_RULE_FILE, FileTooLarge, read_capped, write_whole
from replay.service.recording.recording import end, penalise, start_match
from replay.service.tournaments.tournaments import change_tournament
from replay.store.application import HonbaApp

KEY = "club-1"


def sparse(path: Path, size: int) -> Path:
    """A file of ``size`` zero bytes that takes no room on the disk."""
    with path.open("wb") as file:
        file.truncate(size)
    return path


def honba_limited(*args: str, memory: int = 2 << 30, file_size: int | None = None) -> subprocess.CompletedProcess[str]:
    """The installed command in a process of its own, with its address space (and file sizes) capped:
    a reader that read without a cap would fail there, not fill this machine's memory."""

    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        if file_size is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))

    command = [sys.executable, "-c", "from replay.cli import main; main()", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, preexec_fn=limits, check=False)


# Reading.


def test_a_file_at_the_cap_is_read_and_one_byte_more_is_refused(tmp_path: Path) -> None:
    assert len(read_capped(sparse(tmp_path / "at.log", MAX_FILE))) == MAX_FILE
    with pytest.raises(FileTooLarge, match=r"over\.log: larger than 64 MiB: honba reads a log of at most 64 MiB"):
        read_capped(sparse(tmp_path / "over.log", MAX_FILE + 1), what="log")


@pytest.mark.timeout(300)
@pytest.mark.parametrize("command", ["import", "verify"])
def test_dev_zero_among_logs_is_refused_in_one_line_and_the_others_carry_on(tmp_path: Path, command: str) -> None:
    good = tmp_path / "good.jsonl"
    good.write_bytes(mjai_log())
    huge = sparse(tmp_path / "huge.mjlog", MAX_FILE + 4096)
    db = tmp_path / "s.sqlite"
    done = honba_limited("--db", str(db), command, "/dev/zero", str(huge), str(good))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines == [
        "honba: /dev/zero: larger than 64 MiB: honba reads a log or record file of at most 64 MiB",
        f"honba: {huge}: larger than 64 MiB: honba reads a log or record file of at most 64 MiB",
    ]
    if command == "import":
        assert "1 stored, 0 already present, 0 unsupported, 2 unreadable" in done.stdout
    else:
        assert "good.jsonl" in done.stdout


@pytest.mark.timeout(300)
def test_an_audit_against_dev_zero_or_a_huge_sheet_is_refused_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    assert honba_main("--db", str(db), "start", KEY, "--players", "Ann,Ben,Cho,Dai").code == 0
    for sheet in ("/dev/zero", str(sparse(tmp_path / "sheet.csv", MAX_FILE + 1))):
        done = honba_limited("--db", str(db), "audit", KEY, "--against", sheet)
        assert done.returncode == 2, done.stderr
        assert done.stderr == f"honba: {sheet}: larger than 64 MiB: honba reads a score sheet of at most 64 MiB\n"


def test_a_rule_file_beyond_a_mebibyte_is_refused(tmp_path: Path) -> None:
    rules = sparse(tmp_path / "club.toml", MAX_RULE_FILE + 1)
    run = honba_main(
        "--db", str(tmp_path / "s.sqlite"), "start", KEY, "--players", "A,B,C,D", "--rules-file", str(rules)
    )
    assert run.code == 2 and not run.traceback
    assert run.stderr == f"honba: {rules}: larger than 1 MiB: honba reads a rule file of at most 1 MiB\n"


def test_check_reads_a_gzipped_record_file_as_import_does(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite"
    assert honba_main("--db", str(db), "start", KEY, "--players", "Ann,Ben,Cho,Dai").code == 0
    assert honba_main("--db", str(db), "win", KEY, "Ben:3/30", "--from", "Ann").code == 0
    exported = tmp_path / "club.jsonl"
    assert honba_main("--db", str(db), "export", KEY, "-o", str(exported)).code == 0
    packed = tmp_path / "club.jsonl.gz"
    packed.write_bytes(gzip.compress(exported.read_bytes()))
    assert honba_main("--db", str(tmp_path / "other.sqlite"), "import", str(packed)).code == 0
    checked = honba_main("check", str(packed))
    assert checked.code == 0, checked.stderr
    assert "intact" in checked.stdout
    assert checked.stdout.count("intact") == honba_main("check", str(exported)).stdout.count("intact")


def test_check_of_a_gzip_bomb_is_refused_in_one_line(tmp_path: Path) -> None:
    bomb = tmp_path / "bomb.jsonl.gz"
    bomb.write_bytes(gzip.compress(record_text().encode() + b" " * (MAX_FILE + 1), compresslevel=1))
    run = honba_main("check", str(bomb))
    assert (run.code, run.traceback) == (2, "")
    assert run.stderr == f"honba: {bomb}: unpacks to more than 64 MiB\n"


# Writing.


def test_a_file_written_whole_replaces_its_target_and_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "report.html"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o640)
    write_whole(target, "new")
    assert target.read_text(encoding="utf-8") == "new"
    assert target.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html"]


def test_a_file_written_through_a_link_replaces_what_the_link_names(tmp_path: Path) -> None:
    real = tmp_path / "real.jsonl"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    write_whole(link, "new")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new"


def test_a_file_into_a_folder_that_is_not_there_is_named_as_asked(tmp_path: Path) -> None:
    # The refusal named honba's temporary file (".x.jsonl.e7ct1x7k.tmp"), not the file asked for.
    asked = tmp_path / "no such folder" / "x.jsonl"
    with pytest.raises(FileNotFoundError) as failed:
        write_whole(asked, "new")
    assert failed.value.filename == str(asked)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.fixture(scope="module")
def long_match(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store whose reports are larger than the file size limit below: a match of 200 penalties
    (its export and audit report), and a tournament of 64 players in 16 matches ended by agreement
    (its standings and statistics pages)."""
    db = tmp_path_factory.mktemp("long") / "s.sqlite"
    store = HonbaApp.open(str(db))
    try:
        rules = load_preset("tenhou")
        start_match(store, KEY, ["Ann", "Ben", "Cho", "Dai"], rules, {"format": "honba"})
        for hand in range(200):
            penalise(store, KEY, Penalty(hand % 4, 300, note=f"slow play {hand} " + "." * 150))
        players = [f"Player {n:02}" for n in range(64)]
        change_tournament(store, "cup", lambda t: None, create=True)
        for table in range(16):
            seated = players[4 * table : 4 * table + 4]
            key = f"cup-{table}"
            start_match(store, key, seated, rules, {"format": "honba"})
            end(store, key, "time limit")
            change_tournament(store, "cup", lambda t, key=key, seated=seated: t.attach(key, seated))
    finally:
        store.close()
    # The standings view brought up to date now: the commands below only read it.
    assert honba_main("--db", str(db), "views", "update").code == 0
    return db


FAILED_WRITES = {
    "export": ("export", KEY, "-o"),
    "audit --html": ("audit", KEY, "--html"),
    "standings -o": ("standings", "--tournament", "cup", "--format", "html", "-o"),
    "stats -o": ("stats", "--all", "--format", "html", "-o"),
}


@contextmanager
def file_size_limit(size: int) -> Iterator[None]:
    """This process's file size limit lowered to ``size`` bytes for a while, as a full disk would stop a
    write: a write past it fails with EFBIG ("File too large") instead of the signal SIGXFSZ ending the
    process. The limit is the process's own (the kernel's, not honba's), so the command runs here, under
    it, instead of in a process started for it (an interpreter's start and its imports each time, two
    per report); nothing else writes a file in this process while the command runs."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (size, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)


@pytest.mark.parametrize("name", sorted(FAILED_WRITES))
def test_a_write_that_fails_leaves_the_file_as_it_was(long_match: Path, tmp_path: Path, name: str) -> None:
    # Each report is larger than the limit: written, it fails part way (as on a full disk).
    target = tmp_path / "out.file"
    target.write_text("the earlier file", encoding="utf-8")
    store = store_rows(long_match)
    with file_size_limit(45_000):
        done = honba_main("--db", str(long_match), *FAILED_WRITES[name], str(target))
    assert (done.code, done.traceback) == (2, ""), (done.stdout, done.stderr)
    assert done.stderr.endswith(f"honba: {target}: File too large\n"), done.stderr
    assert target.read_text(encoding="utf-8") == "the earlier file"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith((".out", "out"))) == ["out.file"]
    assert store_rows(long_match) == store
    os.unlink(target)
    with file_size_limit(45_000):
        done = honba_main("--db", str(long_match), *FAILED_WRITES[name], str(target))
    assert done.code == 2 and not target.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith((".out", "out"))) == []
