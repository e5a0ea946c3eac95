"""A process that checked a match reads only what was saved since: a hand costs the same at hand 1 and hand 500.

``HonbaApp.load`` keeps what it checked (``replay.store.checked``): the next load of the match
reads the last checked event and seal row again and the rows after them, checks them against
the head and seal kept, and applies the new ones to a copy of the aggregate kept. What that
check sees and does not see is docs/audit.md's "What a command checks before it records"; these
tests hold each line of it. Nothing is timed: rows read are counted.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import NAMESPACE_URL, uuid5

import pytest
from test_tamper_both_stores import execute, last

from domain.match import Match, match_id
from domain.rules import load_preset
from domain.store_errors import DamagedMatch, StoreConflict
from domain.values import AbortiveDraw, HandValue, Penalty, Win, WinResult
from replay.service.recording import recording
from replay.store.application import HonbaApp
from replay.store.checked import detached
from replay.store.integrity import check_match
from replay.store.seal import seal_id
from replay.store.sqlite_store import HonbaSQLiteRecorder

KEY = "long"
PLAYERS = ("Ann", "Ben", "Cho", "Dai")
ABORT = AbortiveDraw("four_winds")
# Rows of the match's stream each read handed back, in order.
ROWS_READ: list[int] = []


class RowCountingRecorder(HonbaSQLiteRecorder):
    """honba's SQLite recorder, noting how many of the match's rows each read returned."""

    def select_events(self, originator_id: Any, **kwargs: Any) -> Any:
        rows = super().select_events(originator_id, **kwargs)
        if originator_id == match_id(KEY):
            ROWS_READ.append(len(rows))
        return rows

    def select_tails(self, streams: Any) -> Any:
        # The match's tail and its seal's, in one statement: the match's rows counted.
        rows = super().select_tails(streams)
        if any(stream == match_id(KEY) for stream, _position in streams):
            ROWS_READ.append(sum(1 for row in rows if row.originator_id == match_id(KEY)))
        return rows


def ron(winner: int, discarder: int, han: int = 3) -> WinResult:
    return WinResult((Win(winner, HandValue(han=han, fu=30), discarder),))


@pytest.fixture
def counted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[HonbaApp]:
    monkeypatch.setenv("APPLICATION_RECORDER_TOPIC", f"{__name__}:{RowCountingRecorder.__name__}")
    app = HonbaApp.open(str(tmp_path / "long.sqlite"))
    recording.start_match(app, KEY, PLAYERS, load_preset("tenhou"))
    ROWS_READ.clear()
    yield app
    app.close()
    ROWS_READ.clear()


@pytest.fixture
def stored(store_db: str) -> Iterator[tuple[str, HonbaApp]]:
    """A match with two hands recorded, on SQLite and on PostgreSQL, and the process that recorded them."""
    app = HonbaApp.open(store_db)
    recording.start_match(app, KEY, PLAYERS, load_preset("tenhou"))
    recording.record(app, KEY, ron(1, 0))
    recording.record(app, KEY, ron(2, 1))
    yield store_db, app
    app.close()


def test_a_hand_late_in_a_match_reads_as_few_rows_as_the_second(counted: HonbaApp) -> None:
    reads = []
    for hand in range(40):
        before = len(ROWS_READ)
        recording.record(counted, KEY, ABORT, client_key=f"hand-{hand}")
        reads.append(sum(ROWS_READ[before:]))
    # The start was saved by this process: every load reads the last event checked, and nothing else.
    assert reads == [1] * 40
    # Forty hands (and the start) are there, checked whole by a process that never saw them.
    other = HonbaApp.open(counted.env["SQLITE_DBNAME"])
    assert len(other.load(KEY).match.history) == 40
    other.close()


def test_a_hand_reads_the_tails_of_its_match_and_seal_in_one_statement_on_either_store(
    stored: tuple[str, HonbaApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    # One snapshot of both (as one save left them) and one statement: on SQLite the two tails were
    # two reads (issue 36, sixth round: 6.25 statements a hand, 5.25 now).
    _db, app = stored
    recorder = type(app.recorder)
    reads: list[str] = []
    tails, events = recorder.select_tails, recorder.select_events  # type: ignore[attr-defined]

    def reading_tails(self: Any, streams: Any) -> Any:
        reads.append("tails")
        return tails(self, streams)

    def reading_events(self: Any, originator_id: Any, **kwargs: Any) -> Any:
        reads.append("events")
        return events(self, originator_id, **kwargs)

    monkeypatch.setattr(recorder, "select_tails", reading_tails)
    monkeypatch.setattr(recorder, "select_events", reading_events)
    recording.record(app, KEY, ABORT, client_key="third")
    assert reads == ["tails"]
    # The rows of each stream from the position given on, each stream's in order: what reading the
    # two streams apart gives, row for row.
    match, seal = match_id(KEY), seal_id(match_id(KEY))
    rows = app.recorder.select_tails([(match, 2), (seal, 1)])  # type: ignore[attr-defined]
    apart = events(app.recorder, match, gt=1) + events(app.recorder, seal, gt=0)
    assert len(apart) > 4
    assert sorted((r.originator_id, r.originator_version, r.topic, r.state) for r in rows) == sorted(
        (r.originator_id, r.originator_version, r.topic, r.state) for r in apart
    )
    assert [r.originator_version for r in rows if r.originator_id == match] == [
        r.originator_version for r in apart if r.originator_id == match
    ]
    assert app.recorder.select_tails([]) == []  # type: ignore[attr-defined]
    # The statement made once per count of streams: one stream, then three, each read as asked.
    one = app.recorder.select_tails([(match, 4)])  # type: ignore[attr-defined]
    assert [(r.originator_id, r.originator_version) for r in one] == [(match, 4), (match, 5), (match, 6)]
    three = app.recorder.select_tails([(match, 5), (seal, 1), (match_id("no such match"), 1)])  # type: ignore[attr-defined]
    assert sorted((r.originator_id, r.originator_version) for r in three) == sorted(
        [(match, 5), (match, 6)] + [(r.originator_id, r.originator_version) for r in events(app.recorder, seal, gt=0)]
    )


def test_hands_another_process_saved_are_read_checked_and_applied(stored: tuple[str, HonbaApp]) -> None:
    db, app = stored
    other = HonbaApp.open(db)
    recording.record(other, KEY, ABORT)
    recording.record(other, KEY, ron(3, 2))
    other.close()
    after = recording.record(app, KEY, ron(0, 3))
    fresh = HonbaApp.open(db)
    whole = fresh.load(KEY).match
    fresh.close()
    # The process that kept its check ends where a process that read the match whole does.
    assert (after.version, after.head, after.state) == (whole.version, whole.head, whole.state)
    assert whole.version == 10  # the start, three wins and their deal passes, an abortive draw, a last win
    assert check_match(app, match_id(KEY), KEY).problems == ()


def test_a_load_with_nothing_saved_since_leaves_what_is_kept_as_it_was(stored: tuple[str, HonbaApp]) -> None:
    """A load that finds no row saved since this process last checked the match (its own save: a
    table's every hand) keeps nothing again, since what is kept is that very state: no new copies
    of the match and its seal. A load after another process saved keeps the match as it is now."""
    db, app = stored
    kept = app.checked.get(KEY)
    assert kept is not None
    loaded = app.load(KEY)
    assert app.checked.get(KEY) is kept
    assert (loaded.match.version, loaded.match.head) == (kept.match.version, kept.match.head)
    other = HonbaApp.open(db)
    recording.record(other, KEY, ABORT)
    other.close()
    loaded = app.load(KEY)
    now = app.checked.get(KEY)
    assert now is not None and now is not kept
    assert now.match.version == loaded.match.version == kept.match.version + 1
    assert now.match is not loaded.match  # a copy: the command on the loaded match changes nothing kept


def test_the_very_last_event_changed_between_two_saves_is_refused(stored: tuple[str, HonbaApp]) -> None:
    db, app = stored
    stream = match_id(KEY)
    recording.record(app, KEY, ABORT)  # an abortive draw is one event: it is the last
    position = last(db, stream)
    ((state,),) = execute(
        db, "SELECT state FROM EVENTS WHERE originator_id = ? AND originator_version = ?", stream, position
    )
    data = json.loads(bytes(state))
    data["fact"]["_data_"]["kind"] = "nine_terminals"
    execute(
        db,
        "UPDATE EVENTS SET state = ? WHERE originator_id = ? AND originator_version = ?",
        json.dumps(data).encode(),
        stream,
        position,
    )
    with pytest.raises(DamagedMatch, match="nothing recorded"):
        recording.record(app, KEY, ron(1, 0))
    assert last(db, stream) == position


def test_the_seal_rolled_back_between_two_saves_is_refused(stored: tuple[str, HonbaApp]) -> None:
    db, app = stored
    seal = seal_id(match_id(KEY))
    execute(db, "DELETE FROM EVENTS WHERE originator_id = ? AND originator_version = ?", seal, last(db, seal))
    with pytest.raises(DamagedMatch, match="nothing recorded"):
        recording.record(app, KEY, ABORT)


def test_the_last_hand_removed_with_its_seal_row_between_two_saves_is_refused(stored: tuple[str, HonbaApp]) -> None:
    db, app = stored
    stream, seal = match_id(KEY), seal_id(match_id(KEY))
    # The second hand's two events and the seal row that named them: the match as it was after the first.
    for _ in range(2):
        execute(db, "DELETE FROM EVENTS WHERE originator_id = ? AND originator_version = ?", stream, last(db, stream))
    execute(db, "DELETE FROM EVENTS WHERE originator_id = ? AND originator_version = ?", seal, last(db, seal))
    # The match's own chain and seal show nothing (the checkpoints are what name this rollback);
    # the process that checked the later head refuses to record on the shorter history, every time.
    for _try in range(2):
        with pytest.raises(
            DamagedMatch, match=r"rolled back \(this process checked it up to event 5, it now ends at event 3\)"
        ):
            recording.record(app, KEY, ABORT)
    assert last(db, stream) == 3


def test_an_older_event_changed_between_two_saves_is_named_by_check_where_it_is(stored: tuple[str, HonbaApp]) -> None:
    """What a kept check does not see (docs/audit.md): a row before the last event checked, changed
    between two saves of a long-running process. The hand is recorded on the history this process
    checked (its first event names the head checked, not the changed row's), and ``honba check``,
    which reads the match whole, names the change where it is; so does the next process that loads it."""
    db, app = stored
    stream = match_id(KEY)
    ((state,),) = execute(db, "SELECT state FROM EVENTS WHERE originator_id = ? AND originator_version = ?", stream, 2)
    data = json.loads(bytes(state))
    data["fact"]["_data_"]["wins"][0]["value"]["han"] = 5
    execute(
        db,
        "UPDATE EVENTS SET state = ? WHERE originator_id = ? AND originator_version = ?",
        json.dumps(data).encode(),
        stream,
        2,
    )
    kept = app.checked.get(KEY)
    assert kept is not None
    recorded = recording.record(app, KEY, ABORT)
    # The hands as recorded (Ben's 3900 off Ann, Cho's 3900 off Ben), not the changed row's.
    assert recorded.state.scores == (25000 - 3900, 25000 + 3900 - 3900, 25000 + 3900, 25000)
    ((prior,),) = execute(db, "SELECT state FROM EVENTS WHERE originator_id = ? AND originator_version = ?", stream, 6)
    assert json.loads(bytes(prior))["prior"] == kept.match.head  # the new event names the head this process checked
    found = check_match(app, match_id(KEY), KEY)
    assert [(p.position, p.kind) for p in found.problems] == [(2, "altered")]
    other = HonbaApp.open(db)
    with pytest.raises(DamagedMatch, match="altered at 2"):
        recording.record(other, KEY, ABORT)
    other.close()


def test_a_command_on_a_loaded_match_changes_nothing_kept(counted: HonbaApp) -> None:
    recording.record(counted, KEY, ABORT)
    kept = counted.checked.get(KEY)
    assert kept is not None
    loaded = counted.load(KEY)
    assert loaded.match is not kept.match
    # Every list, dict and set of the match is its own: a command on it leaves the kept one as it was.
    for name, value in vars(kept.match).items():
        if isinstance(value, list | dict | set):
            assert vars(loaded.match)[name] is not value, name
    loaded.match.record(ABORT)
    assert (kept.match.version, len(kept.match.history), len(kept.match.pending_events)) == (2, 1, 0)
    twin = detached(loaded.match)
    assert twin.pending_events == loaded.match.pending_events and twin.pending_events is not loaded.match.pending_events


def _generic_copy_is_alike(aggregate: Any, twin: Any) -> None:
    """``twin`` holds ``aggregate``'s values, each list, dict and set a copy of its own, the rest the same objects."""
    assert type(twin) is type(aggregate) and vars(twin) == vars(aggregate)
    for name, value in vars(aggregate).items():
        if isinstance(value, list | dict | set):
            assert vars(twin)[name] is not value, name
        else:
            assert vars(twin)[name] is value, name


def test_a_copy_by_name_copies_every_container_of_a_match_and_a_seal_in_every_state() -> None:
    # ``detached`` copies a match's and a seal's containers by name (``_LAYOUTS``): the names must be
    # every attribute that holds a list, dict or set, in whatever state a match is.
    from datetime import UTC, datetime

    from replay.store.checked import _LAYOUTS
    from replay.store.seal import Seal

    match = Match.start(KEY, PLAYERS, load_preset("tenhou"))
    seal = Seal.open(match.id)
    states: list[tuple[Any, Any]] = []

    def seen() -> None:
        seal.seal(match.version, match.head)
        states.append((detached(match), detached(seal)))

    seen()
    match.record(ron(1, 0), client_key="a")
    match.record(ABORT, client_key="b")
    seen()
    match.preview(ABORT)  # a result worked out ahead (``ahead``)
    seen()
    match.penalise(Penalty(2, 12000), client_key="c")
    match.amend(2, ron(2, 0), by="referee", reason="misread", client_key="d")  # ``scored`` let go
    seen()
    match.set_time_limit(60, by="director", client_key="e")
    match.start_clock(datetime(2026, 1, 1, tzinfo=UTC), by="director")
    match.add_time(5, by="director", reason="a dispute")
    seen()
    match.end("agreed", client_key="f")
    match.reopen(by="referee", reason="by mistake", client_key="g")
    match.collect_events()
    seal.collect_events()
    seen()
    for kept_match, kept_seal in [*states, (match, seal)]:
        for aggregate in (kept_match, kept_seal):
            count, containers = _LAYOUTS[type(aggregate)]
            held = vars(aggregate)
            assert len(held) == count and set(containers) <= set(held)
            assert {name for name, value in held.items() if isinstance(value, list | dict | set)} <= set(containers)
            assert all(held[name] is None or type(held[name]) in (list, dict, set) for name in containers)
            _generic_copy_is_alike(aggregate, detached(aggregate))
    # The state where ``scored`` is None (after the correction, before the table is asked) was copied too.
    assert any(vars(kept)["scored"] is None for kept, _seal in states)


def test_an_aggregate_holding_other_attributes_is_copied_value_by_value() -> None:
    match = Match.start(KEY, PLAYERS, load_preset("tenhou"))
    match.extra = [1, 2]  # type: ignore[attr-defined]  # an attribute its class does not set
    twin = detached(match)
    _generic_copy_is_alike(match, twin)
    assert twin.extra == [1, 2] and twin.extra is not match.extra  # type: ignore[attr-defined]


def test_a_hand_recorded_builds_no_ledger_of_the_whole_match_unless_asked(
    counted: HonbaApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: list[int] = []
    whole = recording.corrected_ledger

    def counting(steps: Any) -> Any:
        built.append(1)
        return whole(steps)

    monkeypatch.setattr(recording, "corrected_ledger", counting)
    for hand in range(3):
        done = recording.record(counted, KEY, ABORT, client_key=f"hand-{hand}")
    # The JSON API answers with the table and the head: the ledger of every hand is not made.
    assert built == []
    # The command line asks for it, and gets every entry.
    assert [(entry.number, entry.position) for entry in done.ledger] == [(1, 2), (2, 3), (3, 4)]
    assert built == [1]


def decoding_counted(app: HonbaApp, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The positions of the rows ``app``'s mapper decodes from now on."""
    decoded: list[int] = []
    mapper = type(app.mapper)
    to_domain_event = mapper.to_domain_event

    def counting(self: Any, stored_event: Any) -> Any:
        decoded.append(stored_event.originator_version)
        return to_domain_event(self, stored_event)

    monkeypatch.setattr(mapper, "to_domain_event", counting)
    return decoded


def test_a_load_after_this_process_saved_compares_the_rows_it_wrote_and_decodes_none(
    stored: tuple[str, HonbaApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table's every hand: the match's last row and its seal's, read back as this process wrote
    them (the same bytes), are the events it wrote; they are not decoded and hashed again (issue 36,
    thirteenth round). Rows another process saved since are decoded and checked, as before."""
    db, app = stored
    decoded = decoding_counted(app, monkeypatch)
    loaded = app.load(KEY)
    assert decoded == []
    assert (loaded.match.version, loaded.seal.position, loaded.seal.head) == (5, 5, loaded.match.head)
    recording.record(app, KEY, ABORT)
    assert decoded == []
    other = HonbaApp.open(db)
    recording.record(other, KEY, ABORT)
    other.close()
    decoded.clear()
    assert recording.record(app, KEY, ABORT).version == 8
    # The last event this process checked (6) and the other's after it (7), the seal's row this
    # process wrote and the other's: decoded and checked.
    assert len(decoded) == 4 and {6, 7} <= set(decoded)
    decoded.clear()
    recording.record(app, KEY, ABORT)
    assert decoded == []


def test_the_last_event_rewritten_in_other_bytes_is_decoded_and_checked(
    stored: tuple[str, HonbaApp], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last row no longer the bytes this process wrote: decoded and checked against the head
    kept as before. The same event written otherwise (its JSON spaced) passes; a changed one is
    refused (``test_the_very_last_event_changed_between_two_saves_is_refused``)."""
    db, app = stored
    stream = match_id(KEY)
    position = last(db, stream)
    ((state,),) = execute(
        db, "SELECT state FROM EVENTS WHERE originator_id = ? AND originator_version = ?", stream, position
    )
    spaced = json.dumps(json.loads(bytes(state)), ensure_ascii=False).encode()
    assert spaced != bytes(state)
    execute(
        db, "UPDATE EVENTS SET state = ? WHERE originator_id = ? AND originator_version = ?", spaced, stream, position
    )
    decoded = decoding_counted(app, monkeypatch)
    assert recording.record(app, KEY, ABORT).version == position + 1
    assert position in decoded


def test_match_and_seal_ids_found_once_per_key_are_each_keys_own() -> None:
    """``match_id`` and ``seal_id`` are kept per key (a server asks them at every hand's load and
    save): each key's id is the one its name makes, whatever was asked before, and the kept ones
    are let go past a few hundred."""
    keys = [f"table-{n}" for n in range(600)]
    for _round in range(2):
        for key in keys:
            made = uuid5(NAMESPACE_URL, f"honba:/matches/{key}")
            assert match_id(key) == made
            assert seal_id(match_id(key)) == uuid5(made, "seal")
    assert len({match_id(key) for key in keys}) == len(keys)
    assert match_id.cache_info().currsize <= 512 and seal_id.cache_info().currsize <= 512


def test_ids_read_on_sqlite_are_found_once_per_spelling(counted: HonbaApp) -> None:
    """An id read from SQLite (a match's and its seal's at every hand) is parsed once per spelling:
    the store's own (32 lowercase hex digits) is the id, any other spelling stays text, whatever
    was read before (``test_foreign_rows.py`` refuses such a row)."""
    recorder = counted.recorder
    assert isinstance(recorder, HonbaSQLiteRecorder)
    stream = match_id(KEY)
    for _round in range(2):
        assert recorder.convert_originator_id(stream.hex) == stream
        assert recorder.convert_originator_id(str(stream)) == str(stream)
        assert recorder.convert_originator_id(stream.hex.upper()) == stream.hex.upper()
    assert [event.originator_id for event in recorder.select_events(stream)] == [stream]


def test_a_saved_seal_is_kept_itself_and_a_command_failing_midway_leaves_it_as_it_was(counted: HonbaApp) -> None:
    """A save keeps the seal it wrote without copying it (issue 36, fourteenth round): no one holds
    it after the save, and every load hands out a copy; a command that fails after changing its
    match, or whose save conflicts after its seal was changed, leaves what is kept as it was."""
    loaded = counted.load(KEY)
    loaded.match.record(ABORT, client_key="one")
    counted.save_match(loaded.match, loaded.seal)
    kept = counted.checked.get(KEY)
    assert kept is not None and kept.seal is loaded.seal  # kept itself: no copy made
    as_kept = (kept.seal.version, kept.seal.position, kept.seal.head, kept.match.version, kept.match.head)
    assert counted.load(KEY).seal is not kept.seal

    def failing(match: Match) -> None:
        match.record(ABORT, client_key="never")
        raise RuntimeError("the command failed midway")

    with pytest.raises(RuntimeError, match="midway"):
        recording.on_match(counted, KEY, failing)
    # A save that conflicts: its seal sealed the new head before the store refused it.
    loaded = counted.load(KEY)
    other = HonbaApp.open(counted.env["SQLITE_DBNAME"])
    recording.record(other, KEY, ABORT, client_key="theirs")
    loaded.match.record(ABORT, client_key="ours")
    with pytest.raises(StoreConflict):
        counted.save_match(loaded.match, loaded.seal)
    assert loaded.seal.position == loaded.match.version != as_kept[1]
    assert counted.checked.get(KEY) is kept
    assert (kept.seal.version, kept.seal.position, kept.seal.head, kept.match.version, kept.match.head) == as_kept
    # The next hand loads correctly: their hand read and checked, ours recorded after it.
    recorded = recording.record(counted, KEY, ABORT, client_key="next")
    again = other.load(KEY)
    other.close()
    assert recorded.version == again.match.version and recorded.head == again.match.head
    assert len(again.match.history) == 3
    assert [k for k in again.match.client_keys] == ["one", "theirs", "next"]


def _contents(match: Match) -> dict[str, Any]:
    """Each attribute of a match as it is: its object, and a container's items, copied."""
    return {
        name: (id(value), list(value.items()) if isinstance(value, dict) else list(value))
        if isinstance(value, list | dict)
        else id(value)
        for name, value in vars(match).items()
    }


def test_a_match_saved_by_a_command_is_kept_itself_and_its_caller_s_reads_change_nothing(
    counted: HonbaApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``on_match``'s save keeps the match it returns, uncopied (issue 36, fifteenth round): scored at
    the save, reading it (what the callers turn into their answers) writes nothing in it, so another
    thread's load copies it safely; a command after it runs on a copy, and one failing midway
    leaves it as it was."""
    match, _ = recording.on_match(counted, KEY, lambda m: m.record(ABORT, client_key="one"), "one")
    kept = counted.checked.get(KEY)
    assert kept is not None and kept.match is match  # kept itself: no copy made
    before = _contents(match)
    written: list[str] = []
    setting = Match.__setattr__

    def noted(self: Match, name: str, value: Any) -> None:
        written.append(name)
        setting(self, name, value)

    monkeypatch.setattr(Match, "__setattr__", noted)
    match.state, match.corrected_steps(), match.effective_entries(), match.end_judgements()
    match.fold(), match.hands_after_time(), match.state_before(match.version)
    monkeypatch.undo()
    assert written == [] and _contents(match) == before
    assert counted.load(KEY).match is not match

    def failing(loaded: Match) -> None:
        loaded.record(ABORT, client_key="never")
        raise RuntimeError("the command failed midway")

    with pytest.raises(RuntimeError, match="midway"):
        recording.on_match(counted, KEY, failing)
    assert counted.checked.get(KEY) is kept and _contents(match) == before
    recorded = recording.record(counted, KEY, ABORT, client_key="two")
    assert _contents(match) == before and recorded.version == match.version + 1
    again = HonbaApp.open(counted.env["SQLITE_DBNAME"])
    stored = again.load(KEY).match
    again.close()
    assert (stored.version, stored.head, list(stored.client_keys)) == (recorded.version, recorded.head, ["one", "two"])
