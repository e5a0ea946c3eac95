"""Mahjong Soul games converted to Tenhou's JSON: ranked rooms by name, other rooms' rules not stated.

The converters (the "majsoul to tenhou" scripts, tensoul) write the room into
``rule.disp`` and ``title``: a ranked room by its name (銀の間, Gold Room, ...), a friendly
room as 友人戦/Friendly and a tournament as 大会戦/Tournament, with the room's number. A
ranked room's rules are Mahjong Soul's ranked rules; a friendly or tournament room's are
whatever its players set, which the log does not state. The real game here is the corpus's
``chankan.json`` (hidacow), a three-player Silver Room game; the friendly-room version is
that game relabelled by the test, its final points recomputed for an uma of 20/0/-20.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS
from honba_cli import invoke

from domain.rules import load_preset
from replay.formats.logmodel import LoggedGame
from replay.formats.tenhou_json import read_tenhou_json
from replay.service.imports.batch import verify_paths
from replay.service.imports.verify import verify_game, with_rules
from replay.store.application import HonbaApp

CHANKAN = CORPUS / "hidacow-mjai-reviewer3p" / "convlog" / "tests" / "testdata" / "chankan.json"
# 20,200 / 25,800 / 59,000 from 35,000, no oka, uma 20/0/-20: -34.8, -9.2, 44.
OTHER_UMA_POINTS = [20200, -34.8, 25800, -9.2, 59000, 44, 0, 0]


def ranked() -> dict[str, Any]:
    if not CHANKAN.is_file():
        pytest.skip("chankan.json is not in the shared corpus here")
    document: dict[str, Any] = json.loads(CHANKAN.read_text(encoding="utf-8"))
    return document


def friendly(sc: list[float] | None = None) -> dict[str, Any]:
    document = ranked()
    document["rule"]["disp"] = "三友人戦赤"
    document["title"] = ["三友人戦赤: 123456", ""]
    if sc is not None:
        document["sc"] = sc
    return document


def read(document: dict[str, Any]) -> LoggedGame:
    (game,) = read_tenhou_json(json.dumps(document, ensure_ascii=False).encode(), file="game.json")
    return game


def test_a_ranked_room_is_known_by_its_name_and_scored_under_the_ranked_rules() -> None:
    game = read(ranked())
    assert game.rules.name == "mahjongsoul-sanma"
    assert game.rules_stated and game.points_judged
    assert verify_game(game).disagreements == ()


@pytest.mark.parametrize("room", ["金の間", "Jade Room", "玉之间", "王座の間"])
def test_every_ranked_room_name_maps_to_the_ranked_rules(room: str) -> None:
    document = ranked()
    document["rule"]["disp"] = "三" + room
    document["title"] = [room, ""]
    game = read(document)
    assert game.rules.name == "mahjongsoul-sanma" and game.rules_stated


@pytest.mark.parametrize("room", ["三友人戦赤: 1234", "Friendly: 1234", "大会戦: 5678", "Tournament: 5678"])
def test_friendly_and_tournament_rooms_do_not_state_their_rules(room: str) -> None:
    document = ranked()
    document["rule"]["disp"] = room.split(":")[0]
    document["title"] = [room, ""]
    game = read(document)
    assert not game.rules_stated
    assert not game.points_judged
    assert any("rules not stated" in n for n in game.notes)


def test_a_friendly_room_is_checked_hand_by_hand_and_its_final_points_are_not_a_disagreement() -> None:
    game = read(friendly(OTHER_UMA_POINTS))
    report = verify_game(game)
    assert report.disagreements == ()
    assert report.hands == report.hands_agreeing > 0
    assert any("rules not stated" in n for n in report.notes)


def test_a_friendly_room_still_disagrees_where_the_log_states_something_wrong() -> None:
    document = friendly()
    document["log"][1][1][0] += 1000  # the second hand's scores as the log states them
    assert "next scores" in {d.field for d in verify_game(read(document)).disagreements}


def test_rules_given_by_the_user_score_the_final_points() -> None:
    rules = load_preset("mahjongsoul-sanma").with_overrides({"uma": [20, 0, -20], "name": "club-sanma"})
    game = with_rules(read(friendly(OTHER_UMA_POINTS)), rules)
    report = verify_game(game)
    assert report.disagreements == ()
    assert any("club-sanma" in n for n in report.notes)
    ranked_uma = with_rules(read(friendly(OTHER_UMA_POINTS)), load_preset("mahjongsoul-sanma"))
    assert "final points" in {d.field for d in verify_game(ranked_uma).disagreements}


def test_verify_rules_option_reaches_the_games_whose_rules_are_not_stated(tmp_path: Path) -> None:
    log = tmp_path / "friendly.json"
    log.write_text(json.dumps(friendly(OTHER_UMA_POINTS), ensure_ascii=False), encoding="utf-8")
    assert verify_paths([log]).reports[0].disagreements == ()
    plain = invoke(["verify", str(log), "--json"])
    assert plain.exit_code == 0, plain.output  # a note is not a disagreement
    notes = json.loads(plain.stdout)["notes"]
    assert {n["game"] for n in notes} == {"friendly"} and "rules not stated" in notes[0]["note"]
    # The room's uma is read from the log's own final points (issue 34), and said.
    assert "inferred: uma 20/0/-20, no oka, tenths kept (the final sc)" in [n["note"] for n in notes]
    result = invoke(["verify", str(log), "--json", "--rules", "mahjongsoul-sanma"])
    assert result.exit_code == 1, result.output
    data = json.loads(result.output)
    assert [d["field"] for d in data["disagreements"]] == ["final points"]


def test_import_rules_option_stores_a_friendly_room_under_the_rules_given(tmp_path: Path) -> None:
    log = tmp_path / "friendly.json"
    log.write_text(json.dumps(friendly(OTHER_UMA_POINTS), ensure_ascii=False), encoding="utf-8")
    club = tmp_path / "club.toml"
    club.write_text('base = "mahjongsoul-sanma"\nname = "club-sanma"\numa = [20, 0, -20]\n', encoding="utf-8")
    db = str(tmp_path / "honba.sqlite")
    result = invoke(["--db", db, "import", str(log), "--rules", str(club)])
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output  # scored under the rules given, it agrees with the log
    store = HonbaApp.open(db)
    # The log names no id (its ref is empty): its key is its name and its content's digest.
    (listed,) = store.list_matches()
    assert listed.key.startswith("friendly-")
    stored = store.get_match(listed.key).rules
    assert (stored.name, stored.uma) == ("club-sanma", (20, 0, -20))
