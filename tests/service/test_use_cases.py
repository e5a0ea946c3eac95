"""The use cases the front ends share, called as the front ends call them: plain values in, values out.

What a command decided on its own before (a penalty or a referee's penalty, whether a damaged
match may be exported, a penalty's default amount on the table an amended entry was played at)
is the service's, and is tested here without the command line or the web; the command and page
tests check what is printed and shown. Numbers from Tenhou's table (tests/conftest.py): 3 han
30 fu off a discard is 3,900; the rules' chombo is a reverse mangan, 8,000 from a non-dealer.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from conftest import TENHOU, hv, ron, won

from domain.errors import MatchAlreadyEnded
from domain.match import Match, match_id
from domain.progression import initial_state
from domain.scoring.payments import penalty_at
from domain.store_errors import DamagedMatch, MatchExists, MatchNotFound
from domain.values import ExhaustiveDraw, Penalty
from replay.input.entry import entry_of
from replay.input.parsing import InputError
from replay.service.imports.exports import export_match
from replay.service.recording import recording
from replay.service.recording.entry import CorrectionRequest, Entry, apply_correction, apply_entry
from replay.service.recording.matches import match_status, read_log, stored_matches
from replay.store.application import HonbaApp
from replay.store.seal import seal_id

PLAYERS = ["Ann", "Ben", "Cho", "Dai"]
KEY = "m1"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[HonbaApp]:
    application = HonbaApp.open(str(tmp_path / "store.sqlite"))
    recording.start_match(application, KEY, PLAYERS, TENHOU)
    yield application
    application.close()


def test_recording_returns_the_match_after_it_with_the_digest_to_publish(store: HonbaApp) -> None:
    done = recording.record(store, KEY, won(ron(1, 0, hv(3, 30))))
    assert done.state.scores == (21100, 28900, 25000, 25000)
    assert [p.amount for p in done.ledger[-1].payments] == [3900]
    assert done.head == store.get_match(KEY).head
    assert done.version == 3  # start, the win, the deal passing to Ben
    # The store's head is a checkpoint's, taken apart from the save: the next one covers the hand.
    taken = store.checkpoint()
    assert taken.taken and taken.head == store.store_head()


def test_what_is_recorded_may_be_read_against_the_match_as_loaded(store: HonbaApp) -> None:
    seen: list[tuple[str, ...]] = []

    def ready_dealer(match: Match) -> ExhaustiveDraw:
        seen.append(match.players)
        return ExhaustiveDraw(ready=(match.state.dealer,))

    done = recording.record(store, KEY, ready_dealer)
    assert seen == [tuple(PLAYERS)]
    # Ann, the dealer, alone ready: 1,000 from each of the others.
    assert done.state.scores == (28000, 24000, 24000, 24000)


def test_a_penalty_without_a_referee_is_a_penalty_and_with_one_a_correction(store: HonbaApp) -> None:
    chombo = Penalty(1, 8000, "chombo", "reverse_mangan")
    recording.penalise(store, KEY, chombo)
    match = store.get_match(KEY)
    assert [fact for _, fact in match.history] == [chombo] and match.correction_log == []
    given = CorrectionRequest("penalty", entry=entry_of(chombo, PLAYERS), by="Ito", reason="a second false win")
    apply_correction(store, KEY, given, client_key=None)
    match = store.get_match(KEY)
    assert [c.replacement for _, c in match.correction_log] == [chombo]
    assert [(c.by, c.reason) for _, c in match.correction_log] == [("Ito", "a second false win")]


def test_after_the_end_only_a_referee_adds_a_penalty(store: HonbaApp) -> None:
    recording.end(store, KEY, "time limit")
    chombo = Penalty(1, 8000, "chombo", "reverse_mangan")
    with pytest.raises(MatchAlreadyEnded):
        recording.penalise(store, KEY, chombo)
    given = CorrectionRequest("penalty", entry=entry_of(chombo, PLAYERS), by="Ito", reason="found after the end")
    done = apply_correction(store, KEY, given, client_key=None)
    assert done.state.final_points is not None
    assert done.state.scores[1] == 25000 - 8000


def test_an_amendment_is_read_on_the_table_its_entry_was_played_at(store: HonbaApp) -> None:
    recording.penalise(store, KEY, Penalty(2, 8000, "chombo", "reverse_mangan"))  # entry 2, at East 1, Ann dealing
    recording.record(store, KEY, ExhaustiveDraw())  # entry 3: nobody ready, the deal passes to Ben
    # The penalty was Ann's: her chombo, its amount left to the rules: a reverse mangan is sized by who deals.
    chombo = Entry("penalty", player="Ann", penalty_kind="chombo")
    amend = CorrectionRequest("amend", 2, entry=chombo, by="Ito", reason="a false win, not a win")
    done = apply_correction(store, KEY, amend, client_key=None)
    assert done.entry == 2
    (correction,) = [c for _, c in store.get_match(KEY).correction_log]
    played_at = initial_state(TENHOU)  # East 1, Ann dealing
    assert played_at.dealer == 0
    assert correction.replacement == penalty_at(0, played_at, TENHOU, kind="chombo")
    # Read at the table now (Ben dealing) Ann would pay a non-dealer's reverse mangan instead.
    now = store.get_match(KEY).state
    assert now.dealer == 1 and penalty_at(0, now, TENHOU, kind="chombo") != correction.replacement


def test_undo_says_which_entry_it_voided(store: HonbaApp) -> None:
    recording.record(store, KEY, won(ron(1, 0, hv(3, 30))))
    done = apply_entry(store, KEY, Entry("undo"), by="the table", reason="wrong winner", client_key=None)
    assert done.entry == 2
    assert done.state.scores == (25000, 25000, 25000, 25000)


def test_a_start_again_is_refused_unless_it_is_a_retry_of_the_same_start(store: HonbaApp) -> None:
    with pytest.raises(MatchExists):
        recording.start_match(store, KEY, PLAYERS, TENHOU)
    first = recording.start_match(store, "m2", PLAYERS, TENHOU, client_key="s1")
    again = recording.start_match(store, "m2", PLAYERS, TENHOU, client_key="s1")
    assert (again.version, again.head) == (first.version, first.head)


def test_a_command_on_no_match_names_it(store: HonbaApp) -> None:
    with pytest.raises(MatchNotFound, match="no match 'nowhere'"):
        recording.record(store, "nowhere", ExhaustiveDraw())


def damage(store: HonbaApp) -> None:
    """The match's seal row removed behind honba's back."""
    path = dict(store.env)["SQLITE_DBNAME"]
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("DELETE FROM stored_events WHERE originator_id = ?", (seal_id(match_id(KEY)).hex,))


def test_a_damaged_match_is_not_exported_unless_forced_and_then_as_a_record_with_its_damage(store: HonbaApp) -> None:
    recording.record(store, KEY, won(ron(1, 0, hv(3, 30))))
    intact = export_match(store, KEY).text.splitlines()
    assert json.loads(intact[-1])["type"] == "seal" and "damaged" not in json.loads(intact[-1])
    damage(store)
    with pytest.raises(DamagedMatch, match="not exported"):
        export_match(store, KEY)
    with pytest.raises(InputError, match="leave out --plain"):
        export_match(store, KEY, force=True, plain=True)
    with pytest.raises(InputError, match="leave out --plain"):
        export_match(store, KEY, fmt="tenhou-json", force=True)
    # The damage in the start line, under the chain (issue 26: the seal line is covered by no digest).
    start = json.loads(export_match(store, KEY, force=True).text.splitlines()[0])
    assert start["type"] == "start" and "unsealed" in start["damaged"]


def test_an_unknown_export_format_is_refused_in_words(store: HonbaApp) -> None:
    with pytest.raises(InputError, match="--format must be record, tenhou-json or mjai, not 'csv'"):
        export_match(store, KEY, fmt="csv")


def test_status_and_log_say_when_the_match_is_damaged(store: HonbaApp) -> None:
    assert match_status(store, KEY).damage is None
    damage(store)
    status = match_status(store, KEY)
    assert status.damage is not None and "unsealed" in str(status.damage)
    assert status.data["scores"] == {"Ann": 25000, "Ben": 25000, "Cho": 25000, "Dai": 25000}
    assert read_log(store, KEY).damage == status.damage


def test_recording_on_a_damaged_match_records_nothing(store: HonbaApp) -> None:
    damage(store)
    with pytest.raises(DamagedMatch, match="nothing recorded"):
        recording.record(store, KEY, ExhaustiveDraw())
    assert store.get_match(KEY).version == 1


def test_the_stored_matches_are_listed_in_the_order_they_were_started(store: HonbaApp) -> None:
    recording.start_match(store, "m0", PLAYERS, TENHOU)
    assert [(m.key, m.players) for m in stored_matches(store)] == [(KEY, tuple(PLAYERS)), ("m0", tuple(PLAYERS))]
