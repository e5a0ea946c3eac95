"""Riichi City game records: read into the log model, verified hand by hand, imported, and their
deals checked against the SHA-256 the platform publishes of each wall.

The records are written for the tests (``tests/riichi_city_records.py``) in the platform's shape;
their score changes are Tenhou's table's numbers (a non-dealer's 2 han 30 fu ron 2,000, 1 han 30
fu tsumo 300/500, 3 han 30 fu ron 3,900; 3,000 noten payments, 1,000 riichi sticks).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from honba_cli import Honba
from riichi_city_records import Record

from domain.values import AbortiveDraw, AbortKind, ExhaustiveDraw, HandValue, WinResult
from replay.formats.detect import detect_format, read_deals, read_log
from replay.formats.logmodel import LogError
from replay.service.imports.deal import deal_paths
from replay.service.imports.verify import verify_game


def four_player_game() -> Record:
    """Three hands: a ron after a riichi, a tsumo after a pon, an exhaustive draw with two ready."""
    record = Record(players=4, init_points=25000, first_dealer=1)
    start = [25000] * 4
    record.hand(
        "E",
        0,
        0,
        0,
        start,
        [("draw", 0), ("riichi", 1), ("draw", 2), ("draw", 3)],
        {"end_type": 0, "ron": [2], "winners": [(2, 2, 30)], "ura": True},
        [0, -1000, 3000, -2000],
    )
    record.hand(
        "E",
        1,
        0,
        0,
        [25000, 24000, 28000, 23000],
        [("draw", 1), ("draw", 2), ("pon", 0), ("draw", 1), ("draw", 2), ("draw", 3), ("tsumo", 0)],
        {"end_type": 1, "winners": [(0, 1, 30)]},
        [1100, -500, -300, -300],
    )
    record.hand(
        "E",
        2,
        0,
        0,
        [26100, 23500, 27700, 22700],
        [("draw", 2), ("draw", 3), ("draw", 0), ("draw", 1)],
        {"end_type": 7, "ready": [0, 2]},
        [1500, -1500, 1500, -1500],
        kan_dora=True,
    )
    record.end([27600, 22000, 29200, 21200])
    return record


def three_player_game() -> Record:
    """A ron on the dealer, then nine terminals."""
    record = Record(players=3, init_points=35000, first_dealer=2, key="cu1test0000000000003")
    record.hand(
        "E",
        0,
        0,
        0,
        [35000] * 3,
        [("draw", 0)],
        {"end_type": 0, "ron": [1], "winners": [(1, 3, 30)]},
        [-3900, 3900, 0],
    )
    record.hand("E", 1, 0, 0, [31100, 38900, 35000], [], {"end_type": 6}, [0, 0, 0])
    record.end([31100, 38900, 35000])
    return record


def written(tmp_path: Path, record: Record | dict[str, Any], name: str = "game.json") -> Path:
    path = tmp_path / name
    document = record.document() if isinstance(record, Record) else record
    path.write_text(json.dumps(document, ensure_ascii=False), "utf-8")
    return path


def test_a_four_player_record_is_read_as_the_platform_wrote_it(tmp_path: Path) -> None:
    path = written(tmp_path, four_player_game())
    assert detect_format(path.read_bytes()) == "riichi-city"
    [game] = read_log(path)
    # Seats count from the first dealer: position 1 (Ben) is East.
    assert game.players == ("Ben", "Chie", "Dai", "Aoi")
    assert game.game_id == "cu1test0000000000001"
    assert [(h.round_wind, h.hand_number, h.dealer, h.counters) for h in game.hands] == [
        (0, 1, 0, 0),
        (0, 2, 1, 0),
        (0, 3, 2, 0),
    ]
    ron, tsumo, draw = (h.result for h in game.hands)
    assert isinstance(ron, WinResult) and isinstance(tsumo, WinResult)
    assert [(w.winner, w.discarder, w.value) for w in ron.wins] == [(2, 3, HandValue(han=2, fu=30))]
    assert ron.riichi == (1,)
    assert [(w.winner, w.discarder) for w in tsumo.wins] == [(0, None)]
    assert tsumo.called == (0,)
    assert draw == ExhaustiveDraw(ready=(0, 2))
    assert game.hands[0].deltas == (0, -1000, 3000, -2000)
    assert game.final_scores == (27600, 22000, 29200, 21200)
    assert not game.rules_stated and game.rules.start_score == 25000


def test_every_hand_of_a_record_agrees_with_honba(tmp_path: Path) -> None:
    for record in (four_player_game(), three_player_game()):
        [game] = read_log(written(tmp_path, record))
        report = verify_game(game)
        assert report.disagreements == ()
        assert report.hands == report.hands_agreeing == len(game.hands)
        assert any("rules not stated" in note for note in report.notes)


def test_a_three_player_record(tmp_path: Path) -> None:
    [game] = read_log(written(tmp_path, three_player_game()))
    assert game.players == ("Chie", "Aoi", "Ben")
    assert game.rules.players == 3 and game.rules.start_score == 35000
    assert game.hands[1].result == AbortiveDraw(AbortKind.NINE_TERMINALS)


def test_a_score_change_the_rules_do_not_give_is_a_disagreement(tmp_path: Path) -> None:
    document = four_player_game().document()
    end = document["data"]["handRecord"][0]["handEventRecord"][-1]
    data = json.loads(end["data"])
    # The record says East gained 100 the winner did not: the changes no longer follow the rules.
    data["user_profit"][0]["user_point"] += 100
    data["user_profit"][2]["user_point"] -= 100
    end["data"] = json.dumps(data)
    [game] = read_log(written(tmp_path, document))
    report = verify_game(game)
    assert [(d.hand, d.field) for d in report.disagreements][:1] == [("E1-0", "score changes")]


def test_the_deal_check_checks_the_published_digest_and_the_wall(tmp_path: Path) -> None:
    clean = written(tmp_path, four_player_game(), "clean.json")
    run = deal_paths([clean])
    data = run.as_dict()
    assert data["hands"] == data["hands_matching"] == 3 and run.exit_code == 0

    document = four_player_game().document()
    hands = document["data"]["handRecord"]
    # A digest that is not the wall's: caught on that hand.
    hands[0]["handCardsSHA256"] = "0" * 64
    # A draw that is not the wall's next tile (another tile of the set): caught on that hand.
    draw = next(e for e in hands[1]["handEventRecord"] if e["eventType"] == 2 and json.loads(e["data"])["in_card"])
    data_of = json.loads(draw["data"])
    data_of["in_card"] = 49 if data_of["in_card"] != 49 else 65
    draw["data"] = json.dumps(data_of)
    run = deal_paths([written(tmp_path, document, "altered.json")])
    found = run.as_dict()
    assert [(m["hand"], m["field"]) for m in found["mismatches"]] == [
        ("E1-0", "wall digest"),
        # The first draw of East 2 (its dealer's first turn draws nothing), by seat 2, changed.
        ("E2-0", "draw 1 (seat 2)"),
    ]
    assert found["hands_matching"] == 1 and run.exit_code == 1


def test_a_wareme_room_is_unsupported_not_misjudged(tmp_path: Path) -> None:
    document = four_player_game().document()
    document["data"]["isGeMu"] = True
    [game] = read_log(written(tmp_path, document))
    report = verify_game(game)
    assert report.unsupported is not None and "wareme" in report.unsupported
    assert report.disagreements == ()


def test_a_kans_dora_indicator_is_checked_at_its_place(tmp_path: Path) -> None:
    [deal] = read_deals(written(tmp_path, four_player_game()).read_bytes(), file="game.json")
    assert len(deal.hands[2].dora) == 2
    document = four_player_game().document()
    event = next(e for e in document["data"]["handRecord"][2]["handEventRecord"] if e["eventType"] == 7)
    shown = json.loads(event["data"])["cards"][0]
    event["data"] = json.dumps({"cards": [49 if shown != 49 else 65]})
    run = deal_paths([written(tmp_path, document)])
    assert [(m["hand"], m["field"]) for m in run.as_dict()["mismatches"]] == [("E3-0", "dora indicator 2")]


def test_an_ura_indicator_not_beside_its_dora_is_caught(tmp_path: Path) -> None:
    document = four_player_game().document()
    end = document["data"]["handRecord"][0]["handEventRecord"][-1]
    data = json.loads(end["data"])
    [shown] = data["win_info"][0]["li_bao_card"]
    data["win_info"][0]["li_bao_card"] = [49 if shown != 49 else 65]
    end["data"] = json.dumps(data)
    assert deal_paths([written(tmp_path, four_player_game(), "clean.json")]).exit_code == 0
    run = deal_paths([written(tmp_path, document)])
    assert [(m["hand"], m["field"]) for m in run.as_dict()["mismatches"]] == [("E1-0", "ura indicator 1")]


def test_a_dealt_tile_not_from_the_wall_is_caught(tmp_path: Path) -> None:
    document = four_player_game().document()
    deal = document["data"]["handRecord"][2]["handEventRecord"][1]  # seat 1's deal of East 3
    data = json.loads(deal["data"])
    data["hand_cards"][0] = 49 if data["hand_cards"][0] != 49 else 65
    deal["data"] = json.dumps(data)
    run = deal_paths([written(tmp_path, document)])
    assert [(m["hand"], m["field"]) for m in run.as_dict()["mismatches"]] == [("E3-0", "dealt to seat 1")]


def test_a_record_is_imported_and_verified_by_the_command(tmp_path: Path) -> None:
    path = written(tmp_path, four_player_game())
    honba = Honba(tmp_path / "store.sqlite")
    imported = honba("import", str(path))
    assert imported.exit_code == 0, imported.output
    assert "1 stored" in imported.stdout
    verified = honba("verify", "--json", str(path))
    assert verified.exit_code == 0, verified.output
    assert json.loads(verified.stdout)["hands_agreeing"] == 3


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["data"].update(playerCount=5), "playerCount: 5: a game of 3 or 4 players"),
        (
            lambda d: d["data"]["handRecord"][0].update(quanFeng=50),
            "handRecord[0].quanFeng: 50: not a wind (49, 65, 81, 97)",
        ),
    ],
)
def test_a_broken_record_names_the_field(tmp_path: Path, change: Any, message: str) -> None:
    document = four_player_game().document()
    change(document)
    with pytest.raises(LogError, match=re.escape(message)):
        read_log(written(tmp_path, document))


def test_an_unknown_end_of_a_hand_names_its_value(tmp_path: Path) -> None:
    document = four_player_game().document()
    end = document["data"]["handRecord"][2]["handEventRecord"][-2]
    data = json.loads(end["data"])
    data["end_type"] = 42
    end["data"] = json.dumps(data)
    with pytest.raises(LogError, match="end_type: 42: an end of a hand"):
        read_log(written(tmp_path, document))


def test_a_record_is_exported_with_its_tiles(tmp_path: Path) -> None:
    path = written(tmp_path, four_player_game())
    honba = Honba(tmp_path / "store.sqlite")
    assert honba("import", str(path)).exit_code == 0
    out = tmp_path / "out.json"
    assert honba("export", "cu1test0000000000001", "--format", "tenhou-json", "-o", str(out)).exit_code == 0
    document = json.loads(out.read_text("utf-8"))
    first, second, _ = document["log"]
    # East 1: the dealer (seat 0) holds 13 tiles, its fourteenth its first draw; its first discard is
    # that tile, drawn just before (60); seat 1's riichi discard is written r60 (the tile it drew).
    assert [len(first[4 + 3 * seat]) for seat in range(4)] == [13, 13, 13, 13]
    assert first[6][0] == 60 and first[9] == ["r60"]
    # East 2: seat 0 pons seat 2's discard (across): the letter before the called tile, second.
    [pon] = [take for take in second[5] if isinstance(take, str)]
    assert pon[2] == "p" and len(pon) == 7
    verified = honba("verify", "--json", str(out))
    assert json.loads(verified.stdout)["hands_agreeing"] == 3
