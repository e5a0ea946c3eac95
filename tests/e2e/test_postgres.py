"""PostgreSQL as a second store: the URL, its errors, the commands and tamper evidence on both stores.

Issue 7: "``--db postgresql://…`` (and the library's ``POSTGRES_*`` settings) stores
everything in PostgreSQL instead of SQLite; every command works the same on both."
The server is a real one the session starts in a temporary directory
(``postgres_server`` in conftest.py); the tests taking ``store_db`` run on each store.
Rows are changed behind honba's back with ``sqlite3`` and ``psycopg``: SQLite keeps
them in ``stored_events``, PostgreSQL in ``honba_events`` (the library names the
table after the application).
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest
from conftest import TENHOU, hv, ron, tsumo, won
from honba_cli import Honba, honba, ok

from domain.match import match_id
from domain.store_errors import StoreError
from domain.values import ExhaustiveDraw
from replay.service.recording import recording
from replay.store.application import HonbaApp
from replay.store.settings import persistence_env, redact

PLAYERS = "Ann,Ben,Cho,Dai"
HONBA = str(Path(sys.executable).with_name("honba"))


# The command line as typed (``--db`` where a test names it, else the store HONBA_DB names).
cli = Honba(None)


def is_postgres(db: str) -> bool:
    return db.startswith("postgresql://")


@pytest.fixture(autouse=True)
def no_store_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Only what a test names is used: no HONBA_DB, no library settings, no default file outside tmp_path."""
    for name in ("HONBA_DB", "PERSISTENCE_MODULE", "SQLITE_DBNAME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))


# The URL.


def test_a_postgresql_url_becomes_the_librarys_settings() -> None:
    assert persistence_env("postgresql://club:p%40ss%3Aw@db.example:6543/honba") == {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": "honba",
        "POSTGRES_HOST": "db.example",
        "POSTGRES_PORT": "6543",
        "POSTGRES_USER": "club",
        "POSTGRES_PASSWORD": "p@ss:w",
        "POSTGRES_CONNECT_TIMEOUT": "10",
    }
    env = persistence_env("postgres://club@/honba?host=/run/postgresql&schema=league&connect_timeout=3")
    assert (env["POSTGRES_HOST"], env["POSTGRES_PORT"], env["POSTGRES_PASSWORD"]) == ("/run/postgresql", "5432", "")
    assert (env["POSTGRES_SCHEMA"], env["POSTGRES_CONNECT_TIMEOUT"]) == ("league", "3")


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("postgresql://club:secret@db.example:5432/", "no database name"),
        ("postgresql://club:secret@db.example:99999/honba", "Port out of range"),
        ("postgresql://club:secret@db.example:five/honba", "Port could not be cast"),
        ("postgresql://club:secret@db.example/honba?sslmode=require", "unknown parameter 'sslmode'"),
        ("postgresql://club:secret@db.example/honba?connect_timeout=soon", "connect_timeout: 'soon' is not a whole"),
        # "²" passed isdigit, and int() then raised a traceback.
        ("postgresql://club:secret@db.example/honba?connect_timeout=²", "connect_timeout: '²' is not a whole"),
        ("postgresql://club:secret@db.example/honba?port=" + "9" * 5000, "port: '99999999"),
        ("postgresql://club:secret@db.example/honba?pool_size=0", "pool_size: 0 is out of range (1 to 1,000)"),
        # A password given in the query is not shown either.
        ("postgresql://club@db.example/honba?password=secret", "unknown parameter 'password'"),
        ("postgresql://club@db.example/honba?sslmode=x&sslpassword=secret", "unknown parameter 'sslmode'"),
        ("mysql://club:secret@db.example/honba", "unknown kind of store"),
    ],
)
def test_a_bad_url_is_refused_in_one_line_without_its_password(url: str, says: str) -> None:
    with pytest.raises(StoreError) as refused:
        persistence_env(url)
    message = str(refused.value)
    assert says in message
    assert "secret" not in message and "\n" not in message
    assert redact(url) in message


def run_honba(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([HONBA, *args], capture_output=True, text=True, timeout=timeout, check=False)


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("honba: "), done.stderr
    return lines[0]


def test_the_installed_command_says_in_one_line_what_is_wrong_with_the_url() -> None:
    line = one_line_error(run_honba("--db", "postgresql://club:secret@localhost:5432/", "list"))
    assert "no database name" in line and "secret" not in line


def test_an_unreachable_server_is_one_line_at_once() -> None:
    import socket

    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]  # bound, not listening: the connection is refused
        line = one_line_error(run_honba("--db", f"postgresql://club:secret@127.0.0.1:{port}/honba", "list", timeout=30))
    assert f"cannot connect to PostgreSQL at 127.0.0.1:{port}" in line
    assert "refused" in line.lower() and "secret" not in line


def test_a_wrong_password_or_database_is_the_servers_reason_in_one_line(postgres_url: str) -> None:
    parts = urlsplit(postgres_url)
    wrong_password = postgres_url.replace(f":{parts.password}@", ":not-the-password@")
    line = one_line_error(run_honba("--db", wrong_password, "list"))
    assert "password authentication failed" in line and "not-the-password" not in line
    line = one_line_error(run_honba("--db", postgres_url.rsplit("/", 1)[0] + "/no_such_db", "list"))
    assert 'database "no_such_db" does not exist' in line


def test_the_librarys_own_postgres_settings_are_used_when_no_db_is_named(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in persistence_env(postgres_url).items():
        monkeypatch.setenv(name, value)
    cli.ok("start", "env-1", "--players", PLAYERS)
    cli.ok("win", "env-1", "Ben:3/30", "--from", "Ann")
    for name in persistence_env(postgres_url):
        monkeypatch.delenv(name)
    store = HonbaApp.open(postgres_url)
    try:
        assert store.get_match("env-1").state.scores == (21100, 28900, 25000, 25000)
    finally:
        store.close()


# Every command on both stores.


def test_a_match_recorded_by_hand_goes_round_both_stores(store_db: str, tmp_path: Path, postgres_url: str) -> None:
    """Recorded on one store by the commands, exported, imported into a store of the other kind."""
    other = str(tmp_path / "other.sqlite") if is_postgres(store_db) else postgres_url
    ok(store_db, "start", "club-1", "--players", PLAYERS)
    ok(store_db, "win", "club-1", "Ben:3/30", "--from", "Ann", "--riichi", "Ben", "--key", "t1-h1")
    ok(store_db, "win", "club-1", "Ben:3/30", "--from", "Ann", "--riichi", "Ben", "--key", "t1-h1")  # a retry
    ok(store_db, "draw", "club-1", "--ready", "Cho,Dai")
    ok(store_db, "abort", "club-1", "four_winds")
    ok(store_db, "penalty", "club-1", "Dai", "--amount", "3000", "--share", "off_table")
    status = json.loads(ok(store_db, "status", "club-1", "--json"))
    # Ben's ron with his riichi stick (+3900, -1000 stick, back with the ron); Cho and Dai ready (1500 each
    # from Ann and Ben); a counter; Dai's 3000 off the table.
    assert status["scores"] == {"Ann": 21100 - 1500, "Ben": 28900 - 1500, "Cho": 26500, "Dai": 26500 - 3000}
    assert status["hand"] == "E3-2"
    assert "club-1" in ok(store_db, "list")
    assert json.loads(ok(store_db, "check", "--json"))["results"][0]["intact"]

    exported = tmp_path / "club-1.jsonl"
    ok(store_db, "export", "club-1", "-o", str(exported))
    assert "stored" in ok(other, "import", str(exported)).lower()
    again = tmp_path / "again.jsonl"
    ok(other, "export", "club-1", "-o", str(again))
    assert again.read_bytes() == exported.read_bytes()
    assert json.loads(ok(other, "status", "club-1", "--json")) == status
    assert json.loads(ok(other, "log", "club-1", "--json")) == json.loads(ok(store_db, "log", "club-1", "--json"))
    assert "already" in ok(other, "import", str(exported)).lower()
    assert json.loads(ok(other, "check", "--json"))["results"][0]["intact"]


def test_the_installed_command_on_postgresql(postgres_url: str) -> None:
    """Real processes: each opens, uses and closes its connections, and exits."""
    for args in (
        ("start", "proc-1", "--players", PLAYERS),
        ("win", "proc-1", "Cho:mangan", "--from", "Dai", "--key", "k1"),
        ("end", "proc-1", "--reason", "time limit"),
    ):
        done = run_honba("--db", postgres_url, *args)
        assert done.returncode == 0, done.stderr
    done = run_honba("--db", postgres_url, "status", "proc-1", "--json")
    assert json.loads(done.stdout)["scores"] == {"Ann": 25000, "Ben": 25000, "Cho": 33000, "Dai": 17000}


# Tamper evidence on both stores: rows changed with plain SQL, behind honba's back.


class Rows:
    """The stored rows of one match, in SQLite's ``stored_events`` or PostgreSQL's ``honba_events``."""

    def __init__(self, db: str, key: str):
        self.postgres = is_postgres(db)
        self.table = "honba_events" if self.postgres else "stored_events"
        self.id: Any = match_id(key) if self.postgres else match_id(key).hex
        self.connection: Any = psycopg.connect(db) if self.postgres else sqlite3.connect(db)

    def sql(self, statement: str, *args: Any) -> Any:
        if self.postgres:
            statement = statement.replace("?", "%s")
        return self.connection.execute(statement.replace("EVENTS", self.table), args)

    def row(self, version: int) -> tuple[str, bytes]:
        found = self.sql(
            "SELECT topic, state FROM EVENTS WHERE originator_id = ? AND originator_version = ?", self.id, version
        ).fetchone()
        assert found is not None, f"no stored event {version}"
        return str(found[0]), bytes(found[1])

    def versions(self) -> list[int]:
        found = self.sql("SELECT originator_version FROM EVENTS WHERE originator_id = ? ORDER BY 1", self.id)
        return [int(v) for (v,) in found.fetchall()]

    def set_state(self, version: int, state: bytes) -> None:
        self.sql(
            "UPDATE EVENTS SET state = ? WHERE originator_id = ? AND originator_version = ?", state, self.id, version
        )

    def delete(self, version: int) -> None:
        self.sql("DELETE FROM EVENTS WHERE originator_id = ? AND originator_version = ?", self.id, version)

    def insert(self, version: int, topic: str, state: bytes) -> None:
        self.sql(
            "INSERT INTO EVENTS (originator_id, originator_version, topic, state) VALUES (?, ?, ?, ?)",
            self.id,
            version,
            topic,
            state,
        )


@contextmanager
def tampering(db: str, key: str) -> Iterator[Rows]:
    rows = Rows(db, key)
    with closing(rows.connection):
        yield rows
        rows.connection.commit()


def _alter(rows: Rows) -> None:
    data = json.loads(rows.row(2)[1])
    data["fact"]["_data_"]["wins"][0]["value"]["fu"] = 40  # Ben's 3 han 30 fu made 40 fu
    rows.set_state(2, json.dumps(data, separators=(",", ":")).encode())


def _delete(rows: Rows) -> None:
    rows.delete(4)


def _delete_last(rows: Rows) -> None:
    rows.delete(rows.versions()[-1])


def _reorder(rows: Rows) -> None:
    second, fourth = rows.row(2)[1], rows.row(4)[1]  # two wins trade places
    rows.set_state(2, fourth)
    rows.set_state(4, second)


def _insert(rows: Rows) -> None:
    rows.insert(rows.versions()[-1] + 1, *rows.row(2))


@pytest.fixture
def tamper_store(store_db: str) -> str:
    """Two matches recorded command by command; ``club-1``'s events: 1 start, 2 Ben's ron, 3 deal passes,
    4 Cho's tsumo, 5 deal passes, 6 the draw (only Ann ready), 7 deal passes."""
    store = HonbaApp.open(store_db)
    try:
        for key in ("club-1", "club-2"):
            recording.start_match(store, key, ["Ann", "Ben", "Cho", "Dai"], TENHOU)
            recording.record(store, key, won(ron(1, 0, hv(3, 30))))
            recording.record(store, key, won(tsumo(2, hv(2, 30))))
            recording.record(store, key, ExhaustiveDraw(ready=(0,)))
        assert store.get_match("club-1").version == 7
    finally:
        store.close()
    return store_db


@pytest.mark.parametrize(
    ("tamper", "position", "kind"),
    [
        (_alter, 2, "altered"),
        (_delete, 4, "deleted"),
        (_delete_last, 7, "deleted"),
        (_reorder, 2, "reordered"),
        (_insert, 8, "inserted"),
    ],
    ids=["altered", "deleted", "last-deleted", "reordered", "inserted"],
)
def test_honba_check_names_rows_changed_behind_its_back_on_both_stores(
    tamper_store: str, tamper: Callable[[Rows], None], position: int, kind: str
) -> None:
    assert honba(tamper_store, "check").exit_code == 0
    with tampering(tamper_store, "club-1") as rows:
        tamper(rows)
    result = honba(tamper_store, "check", "--json")
    assert result.exit_code == 1, result.output
    found = {
        r["name"]: [(p["position"], p["kind"]) for p in r["problems"]] for r in json.loads(result.stdout)["results"]
    }
    assert found["club-2"] == []
    assert (position, kind) in found["club-1"]
    assert {k for _, k in found["club-1"]} == {kind}
    table = honba(tamper_store, "check")
    assert table.exit_code == 1 and f"{kind} at {position}" in table.stdout
    assert "2 checked, 1 with problems" in table.stdout


@pytest.mark.parametrize("password", ["se/cret", "se#cret", "se?cret", "5/secret"])
def test_a_password_with_an_unencoded_separator_is_never_shown(password: str) -> None:
    url = f"postgresql://club:{password}@db.example:5432/honba"
    assert "cret" not in redact(url)
    with pytest.raises(StoreError) as refused:
        persistence_env(url)
    assert "cret" not in str(refused.value)
    assert "percent-encoded" in str(refused.value)


def test_a_url_whose_user_part_cannot_be_told_apart_is_masked_whole() -> None:
    assert redact("postgresql://club:secret") == "postgresql://***"
    line = one_line_error(run_honba("--db", "postgresql://club:se/cret@localhost/honba", "list"))
    assert "cret" not in line


def test_a_store_is_named_as_given_by_option_variable_or_default(monkeypatch: pytest.MonkeyPatch) -> None:
    # honba serve printed "the default store" when HONBA_DB named the store it served.
    from replay.store.settings import DB_ENV, default_db_path, store_name

    monkeypatch.delenv(DB_ENV, raising=False)
    monkeypatch.delenv("POSTGRES_DBNAME", raising=False)
    assert store_name(None) == str(default_db_path())
    monkeypatch.setenv(DB_ENV, "postgresql://club:secret@db.example/honba")
    assert store_name(None) == "postgresql://club:***@db.example/honba"
    assert store_name("club.sqlite") == "club.sqlite"
