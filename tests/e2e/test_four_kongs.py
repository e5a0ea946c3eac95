"""Four kongs as an abortive draw, checked against who declared the kongs (issue 10).

The rule (Tenhou's 四槓散了, as riichi rule books give it): the hand is aborted when four
kongs have been declared by more than one player; four kongs all declared by one player do
not abort the hand, which plays on (that player may still win with four kongs). The record
may name who declared each kong (``kongs``); where it does not, the kind is taken as stated.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import TENHOU, started
from honba_cli import invoke

from domain.errors import RuleViolation, UnknownSeat
from domain.values import AbortiveDraw, AbortKind
from replay.store.application import HonbaApp

ANN, BEN, CHO = 0, 1, 2


def test_four_kongs_by_two_players_abort_the_hand() -> None:
    match = started(TENHOU)
    match.record(AbortiveDraw(AbortKind.FOUR_KONGS, kongs=(ANN, BEN, ANN, CHO)))
    assert match.state.counters == 1  # an abortive draw adds a counter, the dealer keeps the deal
    assert match.state.dealer == 0


def test_four_kongs_all_by_one_player_do_not_abort_the_hand() -> None:
    match = started(TENHOU)
    with pytest.raises(RuleViolation, match="all declared by Ben do not abort the hand"):
        match.record(AbortiveDraw(AbortKind.FOUR_KONGS, kongs=(BEN, BEN, BEN, BEN)))
    assert match.state.counters == 0 and not match.pending_events[1:]


def test_four_kongs_need_the_fourth_kong() -> None:
    match = started(TENHOU)
    with pytest.raises(RuleViolation, match="only after the fourth kong; 3 were declared"):
        match.record(AbortiveDraw(AbortKind.FOUR_KONGS, kongs=(ANN, BEN, CHO)))


def test_a_hand_has_at_most_four_kongs() -> None:
    match = started(TENHOU)
    with pytest.raises(RuleViolation, match="at most four kongs, not 5"):
        match.record(AbortiveDraw(AbortKind.NINE_TERMINALS, kongs=(ANN, BEN, CHO, ANN, BEN)))


def test_a_kong_declarer_must_sit_at_the_table() -> None:
    match = started(TENHOU)
    with pytest.raises(UnknownSeat, match="kong declarer: there is no seat 4"):
        match.record(AbortiveDraw(AbortKind.FOUR_KONGS, kongs=(ANN, BEN, CHO, 4)))


def test_four_kongs_without_the_declarers_are_taken_as_stated() -> None:
    match = started(TENHOU)
    match.record(AbortiveDraw(AbortKind.FOUR_KONGS))
    assert match.state.counters == 1


# At the table and in record files.


def test_four_kongs_by_one_player_are_refused_at_the_table(tmp_path: Path) -> None:
    db = str(tmp_path / "k.sqlite")
    invoke(["--db", db, "start", "t", "--players", "Ann,Ben,Cho,Dai"])
    result = invoke(["--db", db, "abort", "t", "four_kongs", "--kongs", "Ben,Ben,Ben,Ben"])
    assert result.exit_code == 2, result.output
    assert "all declared by Ben do not abort the hand" in result.stderr
    result = invoke(["--db", db, "abort", "t", "four_kongs", "--kongs", "Ann,Ben,Ann,Cho"])
    assert result.exit_code == 0, result.output


def test_the_kongs_of_a_four_kongs_draw_travel_in_the_record_file(tmp_path: Path) -> None:
    db = str(tmp_path / "k.sqlite")
    invoke(["--db", db, "start", "t", "--players", "Ann,Ben,Cho,Dai"])
    invoke(["--db", db, "abort", "t", "four_kongs", "--kongs", "Ann,Ben,Ann,Cho"])
    exported = invoke(["--db", db, "export", "t"]).stdout
    lines = [json.loads(line) for line in exported.splitlines() if line.strip()]
    assert {"type": "abort", "kind": "four_kongs", "kongs": ["Ann", "Ben", "Ann", "Cho"]}.items() <= lines[1].items()
    other = str(tmp_path / "other.sqlite")
    path = tmp_path / "t.jsonl"
    path.write_text(exported, encoding="utf-8")
    assert invoke(["--db", other, "import", str(path)]).exit_code == 0
    match = HonbaApp.open(other).get_match("t")
    (fact,) = [f for f in match.effective_facts() if isinstance(f, AbortiveDraw)]
    assert fact.kongs == (ANN, BEN, ANN, CHO)


def test_a_record_file_with_four_kongs_by_one_player_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "k.jsonl"
    path.write_text(
        '{"type": "start", "key": "k", "players": ["Ann", "Ben", "Cho", "Dai"], "rules": "tenhou"}\n'
        '{"type": "abort", "kind": "four_kongs", "kongs": ["Dai", "Dai", "Dai", "Dai"]}\n',
        encoding="utf-8",
    )
    result = invoke(["--db", str(tmp_path / "s.sqlite"), "import", str(path)])
    assert result.exit_code == 2, result.output
    assert "all declared by Dai do not abort the hand" in result.stderr
