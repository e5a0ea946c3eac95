"""Out: ``honba export KEY --format tenhou-json`` and ``honba log KEY --format csv``.

A game imported from Tenhou's mjlog XML and exported again must give what Tenhou's own
JSON export of that game (in the corpus beside it) says: every hand's header, scores and
changes, and the final scores and points. A match recorded by hand exports its results,
and ``honba verify`` reads either back and agrees with it.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS
from honba_cli import honba, ok

GAME = "2019103023gm-00a9-0000-f90e0fe9"
TSUBAKI = CORPUS / "tsubakisakura-mjlog2json" / "data"


@pytest.fixture
def imported(tmp_path: Path) -> Path:
    xml = TSUBAKI / f"{GAME}.xml"
    if not xml.is_file():
        pytest.skip("the tsubakisakura games are not in the shared corpus here")
    db = tmp_path / "honba.sqlite"
    ok(db, "import", str(xml))
    return db


def test_an_imported_game_exports_what_tenhous_own_json_says(imported: Path, tmp_path: Path) -> None:
    out = tmp_path / "export.json"
    ok(imported, "export", GAME, "--format", "tenhou-json", "-o", str(out))
    ours = json.loads(out.read_text(encoding="utf-8"))
    tenhou = json.loads((TSUBAKI / f"{GAME}.json").read_text(encoding="utf-8"))
    assert ours["sc"] == tenhou["sc"]
    assert len(ours["log"]) == len(tenhou["log"])
    for mine, theirs in zip(ours["log"], tenhou["log"], strict=True):
        assert mine[0] == theirs[0]  # round and dealer, counters, sticks
        assert mine[1] == theirs[1]  # scores
        assert mine[16][:2] == theirs[16][:2]  # the result and its (first) changes


def value_strings(document: dict[str, Any]) -> list[str]:
    """Every win's value string (``30符1飜1000点``, ``満貫2000-4000点``, ...), in order."""
    found = []
    for kyoku in document["log"]:
        result = kyoku[16]
        if result[0] == "和了":
            found += [info[3] for info in result[2::2]]
    return found


@pytest.mark.parametrize(
    "game",
    [
        "2019021004gm-00a9-0000-e2f6516d",
        "2019080322gm-00a9-0000-81e85e04",
        "2019081518gm-00a9-0000-cce9d00c",
        "2019103023gm-00a9-0000-f90e0fe9",
        "2019123123gm-00a9-0000-f4386d0e",
        "2023053016gm-0029-0000-e54b3b98",
    ],
)
def test_the_value_strings_are_tenhous_own(tmp_path: Path, game: str) -> None:
    # Tenhou's JSON writes the bare hand value as each payer pays it: "30符1飜1000点" on a ron,
    # "満貫2000-4000点" for a non-dealer's tsumo (non-dealers, dealer), "30符1飜500点∀" for the
    # dealer's (each), "役満16000-32000点" for a double yakuman's non-dealer tsumo, pao or not.
    xml = TSUBAKI / f"{game}.xml"
    if not xml.is_file():
        pytest.skip("the tsubakisakura games are not in the shared corpus here")
    db = tmp_path / "honba.sqlite"
    ok(db, "import", str(xml))
    ours = json.loads(ok(db, "export", game, "--format", "tenhou-json"))
    tenhou = json.loads((TSUBAKI / f"{game}.json").read_text(encoding="utf-8"))
    assert value_strings(ours) == value_strings(tenhou)


def test_a_recorded_match_writes_its_value_strings_as_tenhou_does(tmp_path: Path) -> None:
    # Tenhou's score table: Ben's mangan tsumo as a non-dealer is 2,000 from each non-dealer and
    # 4,000 from the dealer; the deal passes to Ben, whose 1 han 30 fu tsumo as the dealer is 500
    # from each and 3 han 30 fu ron 5,800; Dai's double yakuman tsumo 16,000 and 32,000.
    db = tmp_path / "honba.sqlite"
    ok(db, "start", "club", "--players", "Ann,Ben,Cho,Dai")
    ok(db, "win", "club", "Ben:mangan")
    ok(db, "win", "club", "Ben:1/30")
    ok(db, "win", "club", "Ben:3/30", "--from", "Ann")
    ok(db, "win", "club", "Dai:2xyakuman")
    text = ok(db, "export", "club", "--format", "tenhou-json")
    assert value_strings(json.loads(text)) == ["満貫2000-4000点", "30符1飜500点∀", "30符3飜5800点", "役満16000-32000点"]
    # A counted yakuman (13 han) is written 役満 too, its han in the yaku list: 32,000 on a ron.
    ok(db, "start", "counted", "--players", "Ann,Ben,Cho,Dai")
    ok(db, "win", "counted", "Ben:13han", "--from", "Ann")
    counted = ok(db, "export", "counted", "--format", "tenhou-json")
    assert value_strings(json.loads(counted)) == ["役満32000点"]
    for name, written in (("club.json", text), ("counted.json", counted)):
        log = tmp_path / name
        log.write_text(written, encoding="utf-8")
        verified = json.loads(honba(db, "verify", str(log), "--json").stdout)
        assert verified["hands"] == verified["hands_agreeing"] > 0 and verified["disagreements"] == []


def test_an_exported_game_is_verified_and_imported_back_as_the_same_match(imported: Path, tmp_path: Path) -> None:
    out = tmp_path / "export.json"
    ok(imported, "export", GAME, "--format", "tenhou-json", "-o", str(out))
    verified = honba(imported, "verify", str(out), "--json")
    assert verified.exit_code == 0, verified.output
    data = json.loads(verified.stdout)
    assert data["hands"] == data["hands_agreeing"] > 0
    assert "0 stored, 1 already present" in ok(imported, "import", str(out))


def test_a_recorded_match_exports_its_results_and_verify_agrees(tmp_path: Path) -> None:
    db = tmp_path / "honba.sqlite"
    ok(db, "start", "club", "--players", "Ann,Ben,Cho,Dai", "--rules", "m-league")
    ok(db, "win", "club", "Ben:3/30", "--from", "Ann")
    ok(db, "draw", "club", "--ready", "Ben", "--riichi", "Ben")
    ok(db, "win", "club", "Cho:2/40", "--riichi", "Ann")
    ok(db, "draw", "club", "--ready", "Ann,Cho")
    ok(db, "end", "club", "--reason", "time limit")
    text = ok(db, "export", "club", "--format", "tenhou-json")
    log = tmp_path / "club.json"
    log.write_text(text, encoding="utf-8")
    verified = honba(db, "verify", str(log), "--json")
    assert verified.exit_code == 0, verified.output
    data = json.loads(verified.stdout)
    assert (data["hands"], data["hands_agreeing"], data["disagreements"]) == (4, 4, [])


def test_a_match_with_a_penalty_cannot_be_written_as_a_tenhou_log(tmp_path: Path) -> None:
    db = tmp_path / "honba.sqlite"
    ok(db, "start", "club", "--players", "Ann,Ben,Cho,Dai")
    ok(db, "penalty", "club", "Dai")
    result = honba(db, "export", "club", "--format", "tenhou-json")
    assert result.exit_code != 0
    assert "penalty" in result.output and "Traceback" not in result.output


def test_the_ledger_as_csv_for_spreadsheets(tmp_path: Path) -> None:
    db = tmp_path / "honba.sqlite"
    ok(db, "start", "club", "--players", "=Ann,Ben,Cho,Dai")
    ok(db, "win", "club", "Ben:3/30", "--from", "=Ann")
    rows = list(csv.reader(io.StringIO(ok(db, "log", "club", "--format", "csv"))))
    header, first = rows[0], rows[1]
    # A name a spreadsheet would read as a formula is written as text.
    assert "'=Ann change" in header
    assert first[header.index("Ben change")] == "3900"  # 3 han 30 fu on a non-dealer's ron (seeds' table)
    assert first[header.index("'=Ann change")] == "-3900"
    assert first[header.index("Ben score")] == "28900"
