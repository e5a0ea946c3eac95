"""What an import's processes keep stays bounded by what one batch or checkpoint needs, not the archive
(issue 36: the peak of ``honba import``'s largest process at ten times the corpus at most 1.1 times its
peak at once). Each test counts a structure after N games: sizes, not timings."""

from __future__ import annotations

import tracemalloc
from pathlib import Path
from typing import Any

import orjson
import pytest
from conftest import CORPUS
from service_match import ServiceMatch

import domain.integrity as integrity
import domain.match as match_module
from domain.match import rules_digest, stored_rules
from domain.rules import load_preset
from replay.service.imports.batch import import_paths
from replay.store import checkpoint
from replay.store.application import HonbaApp
from replay.store.checkpoint import CHECKPOINTS_ID, checkpoint_event, last_checkpoint, pending_leaves
from replay.store.seal import seal_id

WIRE = sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))
needs_corpus = pytest.mark.skipif(not WIRE, reason="../shared/corpus is not present")


def imported(tmp_path: Path, logs: int) -> HonbaApp:
    folder = tmp_path / "logs"
    folder.mkdir()
    for source in WIRE[:logs]:
        (folder / source.name).write_bytes(source.read_bytes())
    app = HonbaApp.open(str(tmp_path / "store.sqlite"))
    assert import_paths(app, [folder]).stored == logs
    return app


@needs_corpus
def test_a_checkpoint_of_an_import_keeps_no_seal_and_no_id_or_time_of_what_it_read(tmp_path: Path) -> None:
    app = imported(tmp_path, 40)
    try:
        # Every event the import made is stored: none of their ids and times is kept with its text
        # (before: each event's, up to 4,096, which a long import's storing process reached).
        assert integrity._TIMES == {}
        times = len(integrity._TIMES)
        assert app.checkpoint().taken
        # Each match's seal was opened and sealed in the window the checkpoint read: nothing to keep for
        # a later checkpoint (before: one entry per match, 40 here, up to 3,000 in a long import).
        assert app.sealed_streams == {}
        # The game identities' and files' events it read back and digested leave no text behind (before:
        # two per event, 160 here, 4,096 at ten times the corpus); the checkpoint's own event, stored, two.
        assert len(integrity._TIMES) - times <= 2
    finally:
        app.close()


def last_leaves(app: HonbaApp) -> list[Any]:
    row = app.recorder.select_events(CHECKPOINTS_ID, desc=True, limit=1)[0]
    return list(app.mapper.to_domain_event(row).leaves)


@needs_corpus
def test_a_checkpoint_reads_what_it_covers_a_few_hundred_rows_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = imported(tmp_path, 150)  # 600 rows to cover: seals opened and sealed, identities, files
    try:
        batches: list[int] = []
        select = app.recorder.select_notifications

        def counted(*args: Any, **kwargs: Any) -> Any:
            rows = select(*args, **kwargs)
            batches.append(len(rows))
            return rows

        monkeypatch.setattr(app.recorder, "select_notifications", counted)
        leaves, _ = pending_leaves(app, last_checkpoint(app).upto, {})
        assert sum(batches) == 600 and max(batches) <= 500  # before: all 600 at once (2,000 a time)
        assert len(leaves) == 450  # every match, identity and file record covered all the same
    finally:
        app.close()


def test_a_seal_opened_before_the_last_checkpoint_is_looked_up_once_and_its_next_hand_covered() -> None:
    app = HonbaApp.open(":memory:")
    try:
        match = ServiceMatch(app)
        assert app.checkpoint().taken
        assert app.sealed_streams == {}
        started = last_leaves(app)
        match.win("Ben:2/30", discarder="Ann")
        taken = app.checkpoint()
        assert taken.taken and taken.leaves == 1
        match_id = match_module.match_id(match.key)
        assert [leaf[0] for leaf in started] == [leaf[0] for leaf in last_leaves(app)] == [str(match_id)]
        assert last_leaves(app)[0][1] > started[0][1]  # the hand's events covered
        # Found by the seal's first row, and kept: a server's next hands on it are not looked up again.
        assert app.sealed_streams == {seal_id(match_id): match_id}
    finally:
        app.close()


def test_an_events_digest_is_hashed_piece_by_piece_not_copied_whole() -> None:
    last = checkpoint.Last()
    leaves = [[f"00000000-0000-5000-8000-{n:012x}", n % 30 + 1, f"{n:064x}"] for n in range(3000)]
    event = checkpoint_event(last, leaves, 9000)
    written = len(orjson.dumps(leaves))
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        digest = integrity.event_digest(event)
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
    assert digest == integrity.digest_of(integrity.event_content(event))
    # The leaves' bytes once, with the encoder's buffer; joined and braced they were there four times.
    assert peak < 3 * written, (peak, written)


def test_rule_values_are_kept_by_bytes_of_their_own_size() -> None:
    base = load_preset("tenhou").to_dict()
    match_module._RULES.clear()
    match_module._RETITLED.clear()
    match_module._rules_digest.cache_clear()
    values = []
    for hour in range(60):
        stored = base | {"description": f"Tenhou, dated 2018-01-01 {hour:02d}:00"}
        integrity.written_for_event(stored)  # as a match's start writes them, by orjson
        values.append(stored)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for stored in values:
            stored_rules(stored)
            rules_digest(stored)
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(match_module._RULES) == 60
    # Each set of values: its 2 KB of bytes, its rules retitled, their digest (25 KB a set as traced
    # here). Before: orjson's bytes kept as the keys, each with the buffer it was written in (51 KB).
    assert kept / 60 < 35_000, kept / 60
