"""Load check of ``honba serve`` (not a test): 40 tables each entering a hanchan at once, over HTTP.

    python benchmarks/serve_load.py [--tables 40] [--servers 2]

A PostgreSQL server is started like the tests' (``tests/pg_server.py``); two ``honba serve``
processes share its database; each table (a thread with its own HTTP connection, its own
table token and its own match) sends the eight hands of a hanchan and the end through the
JSON API, alternating between the servers, each request with a client key. A request
answered 409 (other tables saved at the same moment) or not answered is sent again with the
same key, as a phone would: it must record once.

Afterwards every hand must be stored exactly once and every chain must check
(``replay.store.store_check.check_store``). Printed: hands recorded per second over HTTP, the p50
and p95 latency of a recorded hand (retries included), and the plain baseline measured in
the same run: the same hanchans recorded one after another by ``replay.service.recording.record`` in this
process on a fresh database of the same server (no HTTP, no concurrency).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
from machine import print_machine

from domain.rules import load_preset
from domain.values import HandValue, Win, WinResult
from replay.service import recording
from replay.service.access import TokenStore
from replay.store.application import HonbaApp
from replay.store.store_check import check_store

PLAYERS = ("Ann", "Ben", "Cho", "Dai")


def hanchan() -> list[dict[str, Any]]:
    """Eight hands, East 1 to South 4: Ben wins 2 han 30 fu off Dai unless he deals (then Cho does);
    the deal passes every hand and the match ends after South 4 (Tenhou's rules)."""
    hands = []
    for hand in range(8):
        winner = "Cho" if PLAYERS[hand % 4] == "Ben" else "Ben"
        hands.append({"kind": "win", "winner": winner, "discarder": "Dai", "han": "2", "fu": "30"})
    return hands


def as_result(fields: dict[str, Any]) -> WinResult:
    winner, discarder = PLAYERS.index(fields["winner"]), PLAYERS.index(fields["discarder"])
    return WinResult((Win(winner, HandValue(han=2, fu=30), discarder),))


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def baseline(url: str, tables: int) -> float:
    """Hands per second recorded in process, one after another (the plain baseline)."""
    app = HonbaApp.open(url)
    try:
        rules = load_preset("tenhou")
        for n in range(tables):
            recording.start_match(app, f"base-{n}", list(PLAYERS), rules)
        started = time.perf_counter()
        for n in range(tables):
            for fields in hanchan():
                recording.record(app, f"base-{n}", as_result(fields), client_key=str(uuid.uuid4()))
        return tables * 8 / (time.perf_counter() - started)
    finally:
        app.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--servers", type=int, default=2)
    options = parser.parse_args()
    print_machine()
    from pg_server import PostgresServer, ServerUnavailable

    server = PostgresServer()
    try:
        server.start()
    except ServerUnavailable as exc:
        print(f"skipped: no PostgreSQL server could be started: {exc}")
        server.stop()
        return
    try:
        run(server, options.tables, options.servers)
    finally:
        server.stop()


def run(server: Any, tables: int, servers: int) -> None:
    url = server.new_database()
    app = HonbaApp.open(url)
    rules = load_preset("tenhou")
    tokens = TokenStore(app)
    keys = [f"load-{n}" for n in range(tables)]
    table_tokens = []
    for key in keys:
        recording.start_match(app, key, list(PLAYERS), rules)
        table_tokens.append(tokens.create("table", key))
    app.close()

    ports = [free_port() for _ in range(servers)]
    honba = str(Path(sys.executable).with_name("honba"))
    # The store's URL in the environment, never on a command line (process lists show those).
    env = {**os.environ, "HONBA_DB": url}
    processes = [
        subprocess.Popen([honba, "serve", "--port", str(port)], env=env, stdout=subprocess.DEVNULL) for port in ports
    ]
    latencies: list[float] = []
    retries = [0]
    failures: list[str] = []
    lock = threading.Lock()
    try:
        for port in ports:
            for _ in range(300):  # bounded: 30 s to start listening
                try:
                    httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
                    break
                except httpx.TransportError:
                    time.sleep(0.1)

        def table(number: int) -> None:
            base = f"http://127.0.0.1:{ports[number % servers]}"
            headers = {"Authorization": f"Bearer {table_tokens[number]}"}
            with httpx.Client(base_url=base, headers=headers, timeout=60) as client:
                for fields in hanchan():
                    body = {**fields, "client_key": str(uuid.uuid4())}
                    started = time.perf_counter()
                    for _attempt in range(20):
                        try:
                            answer = client.post(f"/api/matches/{keys[number]}/entries", json=body)
                        except httpx.TransportError:
                            answer = None
                        if answer is not None and answer.status_code == 200:
                            break
                        with lock:
                            retries[0] += 1
                    else:
                        with lock:
                            failures.append(f"{keys[number]}: {answer.text if answer is not None else 'no answer'}")
                    with lock:
                        latencies.append(time.perf_counter() - started)

        threads = [threading.Thread(target=table, args=(n,)) for n in range(tables)]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        seconds = time.perf_counter() - started
    finally:
        for process in processes:
            process.terminate()
            process.wait(timeout=30)

    check = HonbaApp.open(url)
    try:
        hands = {key: sum(1 for _, fact in check.get_match(key).history if isinstance(fact, WinResult)) for key in keys}
        finished = sum(check.get_match(key).state.finished for key in keys)
        checks = check_store(check)
        problems = [problem for result in checks for problem in result.problems]
    finally:
        check.close()
    plain = baseline(server.new_database(), tables)

    recorded = len(latencies)
    ordered = sorted(latencies)
    p50 = statistics.median(ordered) * 1000
    p95 = ordered[int(0.95 * (len(ordered) - 1))] * 1000
    print(f"{tables} tables, {servers} server processes, PostgreSQL: {recorded} hands in {seconds:.1f} s")
    print(
        f"  over HTTP: {recorded / seconds:.1f} hands/s; latency per recorded hand p50 {p50:.0f} ms, p95 {p95:.0f} ms"
    )
    print(f"  requests sent again after a 409 or no answer: {retries[0]}; failed for good: {len(failures)}")
    print(f"  plain baseline (recording.record in process, one after another): {plain:.1f} hands/s")
    print(f"  ratio HTTP concurrent / plain: {recorded / seconds / plain:.2f}")
    once = all(count == 8 for count in hands.values())
    print(f"  every hand stored exactly once: {'yes' if once else 'NO: ' + repr(hands)}; matches ended: {finished}")
    print(f"  every chain checks ({len(checks)} streams): {'yes' if not problems else 'NO: ' + repr(problems[:5])}")
    for failure in failures[:5]:
        print(f"  failure: {failure}")


if __name__ == "__main__":
    main()
