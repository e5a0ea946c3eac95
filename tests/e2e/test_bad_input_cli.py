"""``honba verify`` and ``honba import`` on a directory where good and broken files mix.

Every broken file is named on stderr, once, in one line with its reason; the good
ones are still verified or stored; the exit status is 2; nothing of a broken file
reaches the store, and the good files are stored whole (the same events as
importing them alone). The commands run in-process (``typer.testing.CliRunner``).
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

import pytest
from fuzz_samples import mjai_events, record_text, tenhou_json_log, xml_log
from honba_cli import honba
from typer.testing import Result

from replay.store.application import HonbaApp


def lines(events: list[dict[str, object]]) -> bytes:
    return "\n".join(json.dumps(e) for e in events).encode()


def three_winners() -> bytes:
    """A log the reader accepts but the rules refuse on import: three rons on one discard."""
    extra = b'<INIT seed="3,0,0,1,2,33" ten="163,304,278,255" oya="3"/>' + b"".join(
        f'<AGARI ba="0,0" ten="30,1000,0" yaku="8,1" who="{w}" fromWho="3" sc="0,0,0,0,0,0,0,0"/>'.encode()
        for w in (0, 1, 2)
    )
    return xml_log().replace(b"</mjloggm>", extra + b"</mjloggm>")


def twice() -> bytes:
    """Two games of one file under the same id, with other results."""
    first = json.loads(tenhou_json_log())
    second = json.loads(tenhou_json_log())
    second["log"] = second["log"][:1]
    return json.dumps([first, second], ensure_ascii=False).encode()


GOOD_LOGS = {
    "good-xml.mjlog": xml_log,
    "good-tenhou.json": tenhou_json_log,
    "good-mjai.jsonl": lambda: lines(mjai_events()),
}
# Unreadable for verify and import alike.
BROKEN_LOGS = {
    "broken-random.xml": lambda: b"<mjloggm><GO type='169'/><INIT seed=\x00\xff",
    "broken-cut.json": lambda: tenhou_json_log()[:300],
    "broken-seat.jsonl": lambda: lines([{**e, "actor": 7} if e["type"] == "hora" else e for e in mjai_events()]),
    "broken-empty.json": lambda: b"",
    "broken-gzip.mjlog.gz": lambda: gzip.compress(xml_log())[:-12],
    "broken-utf32.json": lambda: tenhou_json_log().decode().encode("utf-32"),
}
# Read by verify (it reports what the rules refuse as disagreements); refused by import.
REFUSED_ON_IMPORT = {
    "broken-three-winners.mjlog": three_winners,
    "broken-twice.json": twice,
}
GOOD_RECORDS = {"good-record.jsonl": lambda: record_text().encode()}
BROKEN_RECORDS = {
    "broken-record.jsonl": lambda: (
        record_text().replace('"han": 2, "fu": 30}]}', '"han": "2", "fu": 30}]}', 1).encode()
    ),
}


def write(folder: Path, files: dict[str, object]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, make in files.items():
        (folder / name).write_bytes(make())  # type: ignore[operator]
    return folder


def broken_lines(result: Result, folder: Path, names: set[str]) -> dict[str, str]:
    """Each broken file's one stderr line, checked: starts ``honba: FILE`` and gives a reason."""
    found: dict[str, str] = {}
    for line in result.stderr.splitlines():
        if not line.strip():
            continue
        assert line.startswith(f"honba: {folder}/"), line
        name = line[len(f"honba: {folder}/") :].split(":")[0].split(",")[0]
        assert name not in found, f"{name} named twice:\n{result.stderr}"
        reason = line[len(f"honba: {folder / name}") :].lstrip(",: ")
        assert len(reason) > 10, line
        found[name] = reason
    assert set(found) == names, result.stderr
    return found


def stored(db: Path) -> tuple[int, list[tuple[str, int]]]:
    """How many events the store holds, and each match's key and version."""
    store = HonbaApp.open(str(db))
    try:
        events = store.recorder.max_notification_id() or 0
        matches = sorted((m.key, store.get_match(m.key).version) for m in store.list_matches())
    finally:
        store.close()
    return events, matches


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("HONBA_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("PERSISTENCE_MODULE", raising=False)
    return tmp_path


def test_verify_names_each_broken_file_on_stderr_and_checks_the_good_ones(env: Path) -> None:
    folder = write(env / "logs", {**GOOD_LOGS, **BROKEN_LOGS, **REFUSED_ON_IMPORT})
    result = honba(env / "x.sqlite", "verify", str(folder), "--json")
    assert result.exit_code == 2, result.output
    reasons = broken_lines(result, folder, set(BROKEN_LOGS))
    assert "not valid JSON" in reasons["broken-cut.json"] and "line 1, column" in reasons["broken-cut.json"]
    assert "line" in reasons["broken-seat.jsonl"] and "actor 7" in reasons["broken-seat.jsonl"]
    assert "UTF-32" in reasons["broken-utf32.json"]
    report = json.loads(result.stdout)
    assert report["files"] == len(GOOD_LOGS) + len(BROKEN_LOGS) + len(REFUSED_ON_IMPORT)
    assert sorted(u["file"] for u in report["unreadable"]) == sorted(str(folder / n) for n in BROKEN_LOGS)
    verified = {Path(d["file"]).name for d in report["disagreements"]} | {
        Path(u["file"]).name for u in report["unsupported"]
    }
    assert report["games"] == len(GOOD_LOGS) + 1 + 2  # three-winners: one game; twice: two
    assert report["hands"] > 0 and not verified & set(BROKEN_LOGS)
    # The table form says the same on stdout, and the same lines on stderr.
    table = honba(env / "x.sqlite", "verify", str(folder))
    assert table.exit_code == 2
    assert broken_lines(table, folder, set(BROKEN_LOGS)) == reasons


def test_import_stores_the_good_files_whole_and_nothing_of_the_broken_ones(env: Path) -> None:
    db = env / "store.sqlite"
    honba(db, "start", "club-1", "--players", "Ann,Ben,Cho,Dai")
    before = stored(db)
    assert before[1] == [("club-1", 1)]

    good = {**GOOD_LOGS, **GOOD_RECORDS}
    broken = {**BROKEN_LOGS, **REFUSED_ON_IMPORT, **BROKEN_RECORDS}
    folder = write(env / "mixed", {**good, **broken})
    result = honba(db, "import", str(folder))
    assert result.exit_code == 2, result.output
    reasons = broken_lines(result, folder, set(broken))
    assert "INIT #5" in reasons["broken-three-winners.mjlog"] and "3 winners" in reasons["broken-three-winners.mjlog"]
    assert "same id" in reasons["broken-twice.json"]
    assert reasons["broken-record.jsonl"].startswith("3.wins[0].han:"), reasons["broken-record.jsonl"]
    assert f"{len(good)} stored, 0 already present, 0 unsupported, {len(broken)} unreadable" in result.stdout

    # The good files alone, into a store of their own, give exactly the events added.
    alone_db = env / "alone.sqlite"
    honba(alone_db, "start", "club-1", "--players", "Ann,Ben,Cho,Dai")
    alone = honba(alone_db, "import", str(write(env / "good", good)))
    assert alone.exit_code == 0, alone.output
    after = stored(db)
    assert after == stored(alone_db)
    assert after[0] > before[0]
    # Logs without an id are keyed by their file's name and content digest (issue 34).
    assert {re.sub(r"-[0-9a-f]{12}$", "-<digest>", key) for key, _ in after[1]} == {
        "club-1",
        "2024010100gm-00a9-0000-00000000",
        "good-xml-<digest>",
        "good-mjai-<digest>",
        "demo",
    }

    # Again: the good ones are already present, the broken ones named again, nothing new stored.
    again = honba(db, "import", str(folder))
    assert again.exit_code == 2
    assert broken_lines(again, folder, set(broken)) == reasons
    assert f"0 stored, {len(good)} already present" in again.stdout
    assert stored(db) == after


@pytest.mark.parametrize("name", sorted({**BROKEN_LOGS, **REFUSED_ON_IMPORT, **BROKEN_RECORDS}))
def test_one_broken_file_alone_is_one_line_and_exit_2(env: Path, name: str) -> None:
    make = {**BROKEN_LOGS, **REFUSED_ON_IMPORT, **BROKEN_RECORDS}[name]
    folder = write(env / "one", {name: make})
    db = env / "one.sqlite"
    result = honba(db, "import", str(folder / name))
    assert result.exit_code == 2
    broken_lines(result, folder, {name})
    assert stored(db) == (0, [])


@pytest.mark.parametrize("command", ["import", "verify"])
def test_an_empty_path_is_refused_not_read_as_the_current_directory(
    env: Path, command: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A script's "$LOGS" left unset: the good log in the current directory must not be taken.
    write(env, {"good-xml.mjlog": xml_log})
    monkeypatch.chdir(env)
    db = env / "empty.sqlite"
    result = honba(db, command, "")
    assert result.exit_code == 2
    assert result.stderr.strip() == "honba: PATHS: an empty path names no file or directory"
    assert "stored" not in result.stdout
    assert not db.exists() or stored(db) == (0, [])
