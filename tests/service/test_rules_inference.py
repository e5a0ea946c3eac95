"""Rules read from a log's own numbers when the log does not state them (issue 34).

The game is tests/tournament_log.py's Mahjong Soul tournament room (romaji converter output):
25,000 start, kiriage (E2-0's ``30符4飜8000点`` paid 8,000), play below zero (Dai at -2,900
in E4-0), M-League's final points (30,000 return, uma 30/10/-10/-30, tenths). The three-player
case is the corpus's chankan.json relabelled as a friendly room (tests/e2e/test_mahjongsoul_rooms.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest
from honba_cli import invoke
from tournament_log import tournament_bytes, tournament_game

from domain.rules import load_preset
from replay.formats.inference import infer_rules
from replay.formats.logmodel import LoggedGame
from replay.formats.tenhou_json import read_tenhou_json
from replay.service.imports.batch import ruled
from replay.service.imports.verify import verify_game, with_inferred_rules
from replay.store.application import HonbaApp


def tournament(data: bytes | None = None) -> LoggedGame:
    (game,) = read_tenhou_json(data or tournament_bytes(), file="tournament.json")
    return game


def test_the_rooms_rules_are_read_from_its_numbers() -> None:
    inferred = infer_rules(tournament())
    rules = inferred.rules
    assert rules.start_score == 25000
    assert rules.kiriage_mangan
    assert not rules.bust
    assert (rules.return_score, rules.uma, rules.oka, rules.points_rounding) == (
        30000,
        (30, 10, -10, -30),
        20000,
        "none",
    )
    assert inferred.points_known
    said = " | ".join(inferred.findings)
    assert "kiriage" in said and "(E2-0)" in said
    assert "below zero (Dai at -2,900 in E4-0)" in said
    assert "uma 30/10/-10/-30, oka 20 to the top (return 30,000)" in said


def test_under_the_inferred_rules_every_hand_and_the_final_points_agree() -> None:
    game = tournament()
    # Under the rules the reader assumes (Mahjong Soul's ranked payments), E2-0 pays 7,700 and
    # every later table differs.
    assert verify_game(game).hands_agreeing == 2
    report = verify_game(with_inferred_rules(game))
    assert (report.hands, report.hands_agreeing, report.disagreements) == (7, 7, ())
    assert any(note.startswith("inferred: kiriage") for note in report.notes)


def test_an_inferred_uma_that_is_wrong_shows_as_a_disagreement_of_the_final_points() -> None:
    # The final points a room's uma cannot give (a tenth moved between two players) are explained
    # by no uma: they are not judged, and said so.
    sc = tournament_game()["sc"]
    sc[1], sc[3] = 64.5, -22.0
    inferred = infer_rules(tournament(json.dumps(tournament_game(sc=sc), ensure_ascii=False).encode()))
    assert not inferred.points_known
    assert any("uma and oka not found" in f for f in inferred.findings)


def test_a_hand_paid_by_the_table_says_no_kiriage() -> None:
    document = tournament_game()
    # E2-0 paid 7,700, as Tenhou's table does; the scores after it follow.
    document["log"][2][16] = ["和了", [0, 0, 7700, -7700], [2, 3, 2, "30符4飜7700点", "断幺九(1飜)", "ドラ(3飜)"]]
    inferred = infer_rules(tournament(json.dumps(document, ensure_ascii=False).encode()))
    assert not inferred.rules.kiriage_mangan
    assert any(f.startswith("no kiriage") and "(E2-0)" in f for f in inferred.findings)


def test_ties_are_broken_by_seat_order_or_shared_as_the_points_say() -> None:
    # 40,000, 30,000 and two players tied on 15,000, under M-League's final points: by seat order
    # the tied take -10 and -30 of uma (-25, -45); shared, -20 each (-35, -35).
    game = attrs.evolve(
        tournament(), final_scores=(40000, 30000, 15000, 15000), final_points=(60.0, 10.0, -25.0, -45.0)
    )
    inferred = infer_rules(game)
    assert inferred.points_known and inferred.rules.uma_ties == "seat_order"
    assert inferred.rules.uma == (30, 10, -10, -30)
    assert any("ties broken by seat order" in f for f in inferred.findings)
    shared = infer_rules(attrs.evolve(game, final_points=(60.0, 10.0, -35.0, -35.0)))
    assert shared.points_known and shared.rules.uma_ties == "split"
    assert any("ties share their places" in f for f in shared.findings)


def test_a_log_that_ends_below_zero_says_bust() -> None:
    # The game cut after E3-1, where Dai goes to -2,900: the room ended it there.
    document = tournament_game(sc=[46700, 0.0, 27800, 0.0, 28400, 0.0, -2900, 0.0])
    document["log"] = document["log"][:5]
    inferred = infer_rules(tournament(json.dumps(document, ensure_ascii=False).encode()))
    assert inferred.rules.bust
    assert "bust: the log ends as Dai goes below zero (-2,900 after E3-1)" in inferred.findings


def test_rules_given_still_decide() -> None:
    rules = load_preset("m-league")
    game = ruled(tournament(), rules)
    assert game.rules.name == "m-league"
    assert not any(note.startswith("inferred") for note in game.notes)


def test_a_log_that_states_its_rules_is_not_inferred() -> None:
    document = tournament_game()
    document["rule"]["disp"] = "Gold Room East"
    document["title"] = ["Gold Room East", ""]
    game = tournament(json.dumps(document, ensure_ascii=False).encode())
    assert game.rules_stated and with_inferred_rules(game) is game


@pytest.mark.parametrize("as_json", [False, True])
def test_verify_says_what_was_inferred(tmp_path: Path, as_json: bool) -> None:
    log = tmp_path / "tournament.json"
    log.write_bytes(tournament_bytes())
    result = invoke(["verify", str(log), *(["--json"] if as_json else [])])
    assert result.exit_code == 0, result.output
    if as_json:
        data = json.loads(result.stdout)
        assert (data["hands"], data["hands_agreeing"]) == (7, 7)
        said = " | ".join(n["note"] for n in data["notes"])
    else:
        said = " ".join(result.stdout.split())  # the console wraps long notes
    assert "inferred: kiriage: 4 han 30 fu and 3 han 60 fu are paid as a mangan (E2-0)" in said
    assert "inferred: no bust: play goes on below zero (Dai at -2,900 in E4-0)" in said


def test_import_stores_the_game_under_the_inferred_rules(tmp_path: Path) -> None:
    log = tmp_path / "tournament.json"
    log.write_bytes(tournament_bytes())
    db = str(tmp_path / "honba.sqlite")
    result = invoke(["--db", db, "import", str(log)])
    assert result.exit_code == 0, result.output
    assert "the log has" not in result.output  # no disagreement to warn of
    match = HonbaApp.open(db).get_match(tournament_game()["ref"])
    assert match.rules.kiriage_mangan and match.rules.uma == (30, 10, -10, -30)
    assert match.state.scores == (44400, 18100, 28400, 9100)
