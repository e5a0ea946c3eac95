"""What the web app does as it starts, so that the first hand a table sends does not pay for it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Run in a fresh interpreter: in the test process anyio's backend is imported already.
STARTED = """
import asyncio, sys
from replay.web.app import create_app

BACKEND = "anyio._backends._asyncio"
web = create_app(":memory:")
assert BACKEND not in sys.modules, "imported before the app started: this test shows nothing"

async def started() -> bool:
    async with web.router.lifespan_context(web):
        return BACKEND in sys.modules

print(asyncio.run(started()))
"""


def test_the_thread_pool_is_ready_when_the_server_has_started() -> None:
    # The thread pool's first turn imports anyio's event loop backend (20 to 30 ms of CPU, issue 36:
    # the first hand on a fresh server cost 20 to 40 ms): the app's start takes that turn.
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH", "")) if p)}
    run = subprocess.run(
        [sys.executable, "-P", "-c", STARTED], cwd=REPO, env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "True"


def test_a_server_on_postgresql_has_a_connection_for_each_hand_thread_with_a_hand_s_statements_when_started(
    postgres_url: str,
) -> None:
    # In this process: what the app's start leaves in its store's pool is looked at, not its imports.
    import asyncio

    from replay.store.pgstore import HonbaPostgresRecorder
    from replay.web.app import create_app

    web = create_app(postgres_url)
    served = web.state.served
    recorder = served.app.recorder
    assert isinstance(recorder, HonbaPostgresRecorder)
    pool = recorder.datastore.pool

    async def started() -> tuple[int, list[set[str]]]:
        async with web.router.lifespan_context(web):
            opened = pool.get_stats()["pool_size"]
            held = [pool.getconn() for _ in range(opened)]
            try:
                statements = [
                    {
                        row["statement"]
                        for row in conn.execute(
                            "SELECT statement FROM pg_prepared_statements WHERE name LIKE 'honba%%'", prepare=False
                        ).fetchall()
                    }
                    for conn in held
                ]
            finally:
                for conn in held:
                    pool.putconn(conn)
            return opened, statements

    opened, statements = asyncio.run(started())
    assert opened >= served.hand_threads.most > pool.min_size
    hands = {text.decode() for text, _formats, _params in recorder._hands}
    assert hands and all(hands <= held for held in statements)
