"""A throwaway PostgreSQL server for the tests: ``initdb`` in a temporary directory, ``pg_ctl`` to start and stop.

The server listens on a free port of 127.0.0.1 (and on a unix socket in its own
directory), trusts nobody without the password, and is made for speed, not
durability (no fsync; for the tests, its files in memory where the machine has room:
``scratch_dir``). Each test gets a database of its own from ``PostgresServer.new_database``.
PostgreSQL refuses to run as root, so as root the server runs as the ``postgres`` system
user (or ``nobody``) through ``runuser``.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

USER = "honba"
PASSWORD = "honba-test-secret"  # the tests' own throwaway server; not a credential of anything else
START_TIMEOUT = 30
# The server's files go to memory (``/dev/shm``) where it has at least this much room: a session's
# databases, one per PostgreSQL test, come to about a gigabyte.
ROOM_NEEDED = 4 * 1024**3


class ServerUnavailable(Exception):
    """No PostgreSQL server can be started here (the reason is the message)."""


def find_bin_dir() -> Path:
    """The directory of ``initdb`` and ``pg_ctl``: PostgreSQL 15's first, then any other, then the PATH."""
    candidates = sorted(
        glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: (not p.startswith("/usr/lib/postgresql/15/"), p)
    )
    for directory in candidates:
        if (Path(directory) / "initdb").is_file() and (Path(directory) / "pg_ctl").is_file():
            return Path(directory)
    initdb = shutil.which("initdb")
    if initdb and shutil.which("pg_ctl"):
        return Path(initdb).parent
    raise ServerUnavailable("PostgreSQL's initdb/pg_ctl not found (install the postgresql package; .ci/run does)")


def scratch_dir() -> str | None:
    """Where the server's directory goes: ``/dev/shm`` (memory) where it is writable and roomy, else the
    system's temporary directory (None). On a disk the session's removal of its databases (thousands of
    files, written back by then) took 4 s for a module's 15 and a minute for a whole run's, in the
    teardown of a worker's last test; creating each database costs a third more."""
    shm = "/dev/shm"
    try:
        roomy = shutil.disk_usage(shm).free >= ROOM_NEEDED
    except OSError:
        return None
    return shm if roomy and os.access(shm, os.W_OK | os.X_OK) else None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _run_as() -> str | None:
    """The user to run the server as: none needed unless root."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    raise ServerUnavailable("running as root and there is no postgres (or nobody) user to run the server as")


class PostgresServer:
    """One server in one temporary directory; ``start`` it, ``stop`` it."""

    def __init__(self, where: str | None = None) -> None:
        """``where``: the directory to make the server's own in (the tests': ``scratch_dir()``); by
        default the system's temporary directory, on a disk, as the benchmarks measure a server."""
        self.bin_dir = find_bin_dir()
        self.user = _run_as()
        self.where = where
        self.root = Path(tempfile.mkdtemp(prefix="honba-pg-", dir=where))
        self.data = self.root / "data"
        self.sockets = self.root / "sockets"
        self.port = 0
        self._names = itertools.count(1)
        if self.user is not None:
            os.chmod(self.root, 0o755)
            shutil.chown(self.root, self.user)

    def _cmd(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = [str(self.bin_dir / args[0]), *args[1:]]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False, cwd=self.root)

    def _own(self, path: Path, text: str) -> Path:
        path.write_text(text, encoding="utf-8")
        if self.user is not None:
            shutil.chown(path, self.user)
        return path

    def _options(self) -> str:
        return (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.sockets} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
            # Each new database writes its template's 8 MB to the WAL: kept to a few segments in the
            # tests' directory (in memory), not the default gigabyte.
            + (" -c max_wal_size=128MB -c min_wal_size=32MB" if self.where is not None else "")
        )

    def halt(self) -> None:
        """Stop the server at once, as a crash or a lost network would, keeping its data (``resume``)."""
        done = self._cmd("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        if done.returncode != 0:
            raise ServerUnavailable(f"pg_ctl stop failed: {(done.stderr or done.stdout).strip()[-500:]}")

    def resume(self) -> None:
        """Start a halted server again on its port."""
        options = self._options()
        log = self.root / "server.log"
        done = self._cmd(
            "pg_ctl", "-D", str(self.data), "-l", str(log), "-o", options, "-w", "-t", str(START_TIMEOUT), "start"
        )
        if done.returncode != 0:
            raise ServerUnavailable(f"pg_ctl start failed: {(done.stderr or done.stdout).strip()[-500:]}")

    def start(self) -> None:
        """``initdb`` and ``pg_ctl start``; raises ``ServerUnavailable`` saying why not."""
        self.sockets.mkdir()
        if self.user is not None:
            shutil.chown(self.sockets, self.user)
        pwfile = self._own(self.root / "pwfile", PASSWORD + "\n")
        done = self._cmd(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            USER,
            f"--pwfile={pwfile}",
            "--auth=scram-sha-256",
            "--no-sync",
            "-E",
            "UTF8",
            "--locale=C",
        )
        pwfile.unlink()
        if done.returncode != 0:
            raise ServerUnavailable(f"initdb failed: {(done.stderr or done.stdout).strip()[-500:]}")
        failure = ""
        for _ in range(3):  # another process may take the free port before the server does
            self.port = _free_port()
            options = self._options()
            log = self.root / "server.log"
            done = self._cmd(
                "pg_ctl", "-D", str(self.data), "-l", str(log), "-o", options, "-w", "-t", str(START_TIMEOUT), "start"
            )
            if done.returncode == 0:
                return
            failure = log.read_text(encoding="utf-8", errors="replace") if log.exists() else done.stderr
        raise ServerUnavailable(f"pg_ctl start failed: {failure.strip()[-500:]}")

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://{USER}:{PASSWORD}@127.0.0.1:{self.port}/{dbname}"

    def new_database(self, template: str | None = None) -> str:
        """A new database, empty or a copy of the database ``template`` (which nobody may be connected
        to); its URL."""
        import psycopg

        name = f"honba_test_{next(self._names)}"
        copied = f' TEMPLATE "{template}"' if template else ""
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"{copied}')
        return self.url(name)

    def stop(self) -> None:
        """Stop the server (if it runs) and remove its directory."""
        if (self.data / "postmaster.pid").exists():
            self._cmd("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)


def started_or_skipped() -> PostgresServer:
    """A PostgreSQL server started for a test or a session; where none can be started, the test is
    skipped saying why, and under CI (``CI`` set) it fails instead: CI installs the server."""
    import pytest

    server: PostgresServer | None = None
    try:
        server = PostgresServer(scratch_dir())
        server.start()
    except ServerUnavailable as exc:
        if server is not None:
            server.stop()
        if os.environ.get("CI"):
            pytest.fail(f"CI needs the PostgreSQL server: {exc}")
        pytest.skip(f"no PostgreSQL server could be started: {exc}")
    return server
