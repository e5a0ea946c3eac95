"""A recorded hand's cost (not a test): the server's CPU early and late in one match, and SQL statements per hand.

    python benchmarks/hand_cost.py [--hands 240] [--also DIR] [--store both|sqlite|postgresql]

One ``honba serve`` over one store, one match, one table token; one client posts ``--hands``
abortive draws (which keep the dealer and end nothing, so a match can take any number of them)
to the JSON API one after another, each with a client key, and reads the server's CPU time
(user + system, from /proc) after every hand. Printed, per store:

- the server's CPU per hand for the first quarter of the hands (1-60 of 240) and the last
  (181-240), and their ratio (issue 36's target: at most 1.25; before it, every hand re-read and
  re-hashed the whole match: 4.2-4.8x);
- on PostgreSQL, the statements the server sent per recorded hand, counted by the database's own
  ``pg_stat_statements`` (loaded into the server this script starts; top-level statements, each
  BEGIN and COMMIT one), over the last quarter's hands after a reset, with the statements that
  make them up (the checkpoints the server takes every few seconds are in the count: the script
  waits for one after the last hand).

``--also DIR`` runs the same, in the same run, with the honba of another tree (its ``replay`` and
``domain`` on PYTHONPATH; for instance main's before issue 36), so that the two are compared on
the machine as it is loaded at that moment.
"""

from __future__ import annotations

import argparse
import http.client
import json
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from machine import REPO, print_machine
from pg_server import PostgresServer
from serve_load import ABORT, Servers, setup

from replay.service.audit.checkpoints import EVERY

STATEMENTS = """
SELECT calls, query FROM pg_stat_statements
WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND query NOT LIKE '%pg_stat_statements%'
ORDER BY calls DESC
"""


def post_hands(port: int, key: str, token: str, count: int, servers: Servers) -> list[float]:
    """Post ``count`` abortive draws one after another; the servers' CPU seconds before the first
    and after each one."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    cpu = [servers.cpu()]
    for _hand in range(count):
        body = json.dumps({**ABORT, "client_key": str(uuid.uuid4())})
        connection.request("POST", f"/api/matches/{key}/entries", body=body, headers=headers)
        answer = connection.getresponse()
        answer.read()
        if answer.status != 200:
            raise SystemExit(f"hand not recorded: HTTP {answer.status}")
        cpu.append(servers.cpu())
    connection.close()
    return cpu


def per_hand(cpu: list[float], first: int, last: int) -> float:
    """The CPU milliseconds per hand of hands ``first`` to ``last`` (counted from 1)."""
    return 1000 * (cpu[last] - cpu[first - 1]) / (last - first + 1)


def show_cpu(name: str, cpu: list[float], hands: int) -> float:
    quarter = hands // 4
    early = per_hand(cpu, 1, quarter)
    late = per_hand(cpu, hands - quarter + 1, hands)
    print(
        f"  {name}: server CPU per hand, hands 1-{quarter}: {early:.2f} ms; hands {hands - quarter + 1}-{hands}: "
        f"{late:.2f} ms; late / early: {late / early:.2f}x (target <= 1.25)"
    )
    return late / early


def run_sqlite(tree: Path, hands: int, work: Path) -> None:
    db = str(work / f"hands-{uuid.uuid4().hex[:8]}.sqlite")
    ((key, token),) = setup(tree, db, 1)
    servers = Servers(tree, db, 1)
    try:
        cpu = post_hands(servers.ports[0], key, token, hands, servers)
    finally:
        servers.stop()
    show_cpu(f"SQLite ({tree})", cpu, hands)


def run_postgres(server: Any, tree: Path, hands: int) -> None:
    import psycopg

    db = server.new_database()
    with psycopg.connect(db, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    ((key, token),) = setup(tree, db, 1)
    servers = Servers(tree, db, 1)
    quarter = hands // 4
    try:
        early = post_hands(servers.ports[0], key, token, hands - quarter, servers)
        with psycopg.connect(db, autocommit=True) as conn:
            conn.execute("SELECT pg_stat_statements_reset()")
        late = post_hands(servers.ports[0], key, token, quarter, servers)
        # The server takes a checkpoint every few seconds while something was saved: one is counted.
        time.sleep(EVERY + 1)
        with psycopg.connect(db, autocommit=True) as conn:
            rows = conn.execute(STATEMENTS).fetchall()
    finally:
        servers.stop()
    name = f"PostgreSQL ({tree})"
    show_cpu(name, early + [c - late[0] + early[-1] for c in late[1:]], hands)
    total = sum(calls for calls, _query in rows)
    print(f"  {name}: {total / quarter:.2f} statements per recorded hand (hands {hands - quarter + 1}-{hands})")
    for calls, query in rows[:12]:
        print(f"    {calls / quarter:5.2f}  {' '.join(query.split())[:110]}")


class StatementsServer(PostgresServer):
    """The tests' throwaway PostgreSQL server, with ``pg_stat_statements`` loaded (top-level
    statements only: what a client sends, not what a function it calls runs inside)."""

    def _options(self) -> str:
        return (
            super()._options() + " -c shared_preload_libraries=pg_stat_statements"
            " -c pg_stat_statements.track=top -c pg_stat_statements.track_utility=on"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=240)
    parser.add_argument("--also", type=Path, help="also run with the honba of this tree")
    parser.add_argument("--store", choices=("both", "sqlite", "postgresql"), default="both")
    args = parser.parse_args()
    print_machine()
    trees: list[Path] = [REPO] + ([args.also.resolve()] if args.also else [])
    with tempfile.TemporaryDirectory(prefix="honba-hands-") as work:
        if args.store in ("both", "sqlite"):
            for tree in trees:
                run_sqlite(tree, args.hands, Path(work))
        if args.store in ("both", "postgresql"):
            server = StatementsServer()
            server.start()
            try:
                for tree in trees:
                    run_postgres(server, tree, args.hands)
            finally:
                server.stop()


if __name__ == "__main__":
    sys.exit(main())
