"""Issue 32: the readers of a stored match survive any damage to its rows. Each example changes one
stored row of a small SQLite store behind honba's back (a field removed, a value replaced by any
JSON value, a whole state replaced) and asks every service reader of the match (status, log, the
table page's and the referee's data, the audit, the export, the check of the store, the standings
view's catch-up); each answers or refuses with honba's own errors (one line), never anything else.
Examples as in the other fuzz suites (``HONBA_FUZZ_EXAMPLES``, a fifth of them here: each copies a store)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_outside_the_chain import fill, ok

from domain.errors import HonbaError
from domain.match import match_id
from replay.service.audit.checks import audit_match, check_targets
from replay.service.imports.exports import export_match
from replay.service.recording.matches import match_status, read_log, referee_data, table_data
from replay.store.application import HonbaApp
from replay.store.standings_view import catch_up, open_view

EXAMPLES = max(1, int(os.environ.get("HONBA_FUZZ_EXAMPLES", "250")) // 5)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**40), 2**40) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """m1 (a start, Ben's ron, the deal passing, a penalty) and m2, tournament cup with both."""
    db = tmp_path_factory.mktemp("pristine") / "honba.sqlite"
    fill(str(db))
    ok(str(db), "penalty", "m1", "Dai", "--amount", "1000", "--share", "off_table")
    return db


def paths(data: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a row's decoded state."""
    found = [at] if at else []
    if isinstance(data, dict):
        for key, value in data.items():
            found += paths(value, (*at, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += paths(value, (*at, index))
    return found


def changed(data: Any, path: tuple[Any, ...], value: Any, remove: bool) -> Any:
    *parents, last = path
    into = data
    for step in parents:
        into = into[step]
    if remove and isinstance(into, dict):
        del into[last]
    else:
        into[last] = value
    return data


READERS: tuple[Callable[[HonbaApp], Any], ...] = (
    lambda app: match_status(app, "m1"),
    lambda app: read_log(app, "m1"),
    lambda app: table_data(app, "m1"),
    lambda app: referee_data(app, "m1"),
    lambda app: audit_match(app, "m1"),
    lambda app: export_match(app, "m1", force=True),
    lambda app: check_targets(lambda: app, []),
    lambda app: catch_up(app, open_view(app)),
    lambda app: match_status(app, "m2"),
)


@settings(
    max_examples=EXAMPLES,
    derandomize=not os.environ.get("HONBA_FUZZ_RANDOM"),
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_every_reader_survives_any_change_to_a_stored_row(pristine: Path, tmp_path: Path, data: Any) -> None:
    db = tmp_path / f"damaged-{os.getpid()}.sqlite"
    shutil.copyfile(pristine, db)
    version = data.draw(st.integers(1, 4), label="row of m1")
    with closing(sqlite3.connect(db)) as connection, connection:
        ((state,),) = connection.execute(
            "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?",
            (match_id("m1").hex, version),
        )
        decoded = json.loads(bytes(state))
        where = paths(decoded)
        if not where or data.draw(st.integers(0, 5), label="whole state") == 0:
            decoded = data.draw(json_values, label="state")
        else:
            path = data.draw(st.sampled_from(where), label="path")
            decoded = changed(decoded, path, data.draw(json_values, label="value"), data.draw(st.booleans()))
        connection.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (json.dumps(decoded).encode(), match_id("m1").hex, version),
        )
    app = HonbaApp.open(str(db))
    try:
        for read in READERS:
            # Refused in one line (honba's own error) is what every front end prints or answers with a 4xx.
            with contextlib.suppress(HonbaError):
                read(app)
    finally:
        app.close()
        for leftover in tmp_path.glob("damaged-*"):
            leftover.unlink()
