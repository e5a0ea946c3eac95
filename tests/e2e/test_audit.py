"""``honba audit``: every number explained, compared with a claimed sheet, re-scored under other rules.

Issue 5: "--against SHEET.csv: compare with a claimed score sheet (one row per hand,
each player's score or change) and point at the first hand where they part and by
how much"; "--rules PRESET|FILE: re-score the same events under other rules and show,
per hand and at the end, what changes"; "--json for tools"; "The seeds' counters
example, with a deliberately wrong sheet, is found at the right hand."

The match is the worked example of seed 003 (docs/examples/counters-seed.jsonl):
"When there are counter sticks (honba) on the table, winners get bonus points
calculated by multiplying 300 by the number of those counters", "when a player wins
by claiming a discard (ron), the player gets a bonus of n x 300 from the discarder".
Worked by hand from the published Tenhou table (25,000 start; base = fu x 2^(2+han);
non-dealer ron 4 x base, dealer tsumo 2 x base from each, non-dealer tsumo 2 x base
from the dealer and 1 x base from the others, each rounded up to 100; noten payments
share 3,000):

    hand  result                          Ann     Ben     Cho     Dai
    E1-0  Ben ron on Ann 1/30: 1,000    24,000  26,000  25,000  25,000
    E2-0  Cho tsumo 2/30: 1,000/500     23,500  25,000  27,000  24,500
    E3-0  Ann ron on Ben 3/30: 3,900    27,400  21,100  27,000  24,500
    E4-0  Dai (dealer) tsumo 1/30: 500  26,900  20,600  26,500  26,000  (dealer stays: 1 counter)
    E4-1  draw, only Ann ready: 3,000   29,900  19,600  25,500  25,000  (dealer not ready: 2 counters)
    S1-2  Dai ron on Cho 2/30: 2,000    29,900  19,600  22,900  27,600
          + 2 counters x 300 = 600
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from conftest import REPO
from honba_cli import honba, invoke

from domain.match import match_id

KEY = "seed-counters-example"
SEED_RECORD = REPO / "docs" / "examples" / "counters-seed.jsonl"

HEADER = "hand,Ann,Ben,Cho,Dai"
SCORES = [
    "E1-0,24000,26000,25000,25000",
    "E2-0,23500,25000,27000,24500",
    "E3-0,27400,21100,27000,24500",
    "E4-0,26900,20600,26500,26000",
    "E4-1,29900,19600,25500,25000",
    "S1-2,29900,19600,22900,27600",
]
CHANGES = [
    "1,-1000,1000,0,0",
    "2,-500,-1000,2000,-500",
    "3,3900,-3900,0,0",
    "4,-500,-500,-500,1500",
    "5,3000,-1000,-1000,-1000",
    "6,0,0,-2600,2600",
]
# The scorer took the two counters of S1-2 as 300 in all instead of 600.
COUNTERS_AS_300 = "S1-2,29900,19600,23200,27300"
COUNTERS_AS_300_CHANGES = "6,0,0,-2300,2300"

# A counter worth 1,500 on a ron: 500 from each of the three others, all paid by the discarder.
COUNTER_1500 = 'base = "tenhou"\nextra_hand_bonus = 500\n'


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "honba.sqlite"
    result = invoke(["--db", str(path), "import", str(SEED_RECORD)])
    assert result.exit_code == 0, result.output
    return path


def audit_json(db: Path, *args: str, exit_code: int | None = None) -> dict[str, Any]:
    """The audit as JSON; it exits 1 when the chain, an invariant or the sheet is wrong."""
    result = honba(db, "audit", KEY, *args, "--json")
    data: dict[str, Any] = json.loads(result.stdout)
    wrong = not data["integrity"]["intact"] or any(f["kind"] == "invariant" for f in data["findings"])
    wrong = wrong or bool(data.get("sheet") and data["sheet"]["first_difference"])
    assert result.exit_code == (exit_code if exit_code is not None else int(wrong)), result.output
    return data


def sheet(tmp_path: Path, rows: list[str], name: str = "sheet.csv") -> Path:
    path = tmp_path / name
    path.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    return path


def test_the_ledger_follows_the_seed_hand_by_hand(db: Path) -> None:
    ledger = audit_json(db)["ledger"]
    scores = [",".join([line["hand"], *(str(s) for s in line["scores_after"].values())]) for line in ledger]
    assert scores == SCORES


def test_every_payment_is_itemised_with_its_reason(db: Path) -> None:
    last = audit_json(db)["ledger"][-1]
    assert [(p["payer"], p["payee"], p["amount"], p["reason"]) for p in last["payments"]] == [
        ("Cho", "Dai", 2000, "hand value"),
        ("Cho", "Dai", 600, "counters"),
    ]


def test_the_invariants_hold_for_the_seed(db: Path) -> None:
    assert audit_json(db)["findings"] == []
    assert "Invariants hold" in honba(db, "audit", KEY).stdout


def test_a_sheet_that_agrees_with_the_ledger_shows_no_difference(db: Path, tmp_path: Path) -> None:
    data = audit_json(db, "--against", str(sheet(tmp_path, SCORES)))
    assert data["sheet"]["kind"] == "scores"
    assert data["sheet"]["first_difference"] is None
    assert data["sheet"]["differences"] == []


def test_a_sheet_with_the_counters_taken_as_300_parts_at_south_1_by_300(db: Path, tmp_path: Path) -> None:
    wrong = sheet(tmp_path, [*SCORES[:-1], COUNTERS_AS_300])
    first = audit_json(db, "--against", str(wrong))["sheet"]["first_difference"]
    assert first["hand"] == "S1-2"
    assert "Cho 23,200 on the sheet, 22,900 by honba (+300)" in first["text"]
    assert "Dai 27,300 on the sheet, 27,600 by honba (-300)" in first["text"]
    assert "Ann" not in first["text"] and "Ben" not in first["text"]

    text = honba(db, "audit", KEY, "--against", str(wrong)).stdout
    assert "first parts from the ledger at S1-2" in text
    assert "(+300)" in text and "(-300)" in text


def test_an_early_mistake_carried_down_the_sheet_is_found_at_its_first_hand(db: Path, tmp_path: Path) -> None:
    # The scorer wrote Ann's 3 han 30 fu (3,900) as 2 han 30 fu (2,000) and carried the 1,900 down.
    carried = []
    for row in SCORES[2:]:
        hand, ann, ben, cho, dai = row.split(",")
        carried.append(f"{hand},{int(ann) - 1900},{int(ben) + 1900},{cho},{dai}")
    comparison = audit_json(db, "--against", str(sheet(tmp_path, [*SCORES[:2], *carried])))["sheet"]
    assert comparison["first_difference"]["hand"] == "E3-0"
    assert "(-1,900)" in comparison["first_difference"]["text"]
    assert "(+1,900)" in comparison["first_difference"]["text"]
    assert [d["hand"] for d in comparison["differences"]] == ["E3-0", "E4-0", "E4-1", "S1-2"]


def test_a_sheet_of_changes_is_compared_hand_by_hand(db: Path, tmp_path: Path) -> None:
    right = audit_json(db, "--against", str(sheet(tmp_path, CHANGES)))["sheet"]
    assert (right["kind"], right["first_difference"]) == ("changes", None)

    wrong = sheet(tmp_path, [*CHANGES[:-1], COUNTERS_AS_300_CHANGES], "changes.csv")
    first = audit_json(db, "--against", str(wrong))["sheet"]["first_difference"]
    assert first["hand"] == "S1-2"
    assert "Cho -2,300 on the sheet, -2,600 by honba (+300)" in first["text"]
    assert "Dai 2,300 on the sheet, 2,600 by honba (-300)" in first["text"]


def test_the_kind_of_sheet_can_be_named(db: Path, tmp_path: Path) -> None:
    path = sheet(tmp_path, CHANGES)
    assert audit_json(db, "--against", str(path), "--sheet-kind", "changes")["sheet"]["first_difference"] is None
    as_scores = audit_json(db, "--against", str(path), "--sheet-kind", "scores")["sheet"]
    assert as_scores["first_difference"]["hand"] == "E1-0"


def test_a_sheet_may_write_thousands_separators(db: Path, tmp_path: Path) -> None:
    rows = [",".join([r.split(",")[0], *(f'"{int(v):,}"' for v in r.split(",")[1:])]) for r in SCORES]
    assert audit_json(db, "--against", str(sheet(tmp_path, rows)))["sheet"]["first_difference"] is None


def test_a_sheet_missing_a_hand_says_so(db: Path, tmp_path: Path) -> None:
    comparison = audit_json(db, "--against", str(sheet(tmp_path, SCORES[:-1])))["sheet"]
    # Rows are matched by the hand they name: the missing one is named, then the count.
    assert comparison["first_difference"]["hand"] == "S1-2"
    assert "no row for this hand" in comparison["first_difference"]["text"]
    assert comparison["differences"][-1]["hand"] == "end"
    assert "5 rows" in comparison["differences"][-1]["text"]


def test_a_sheet_without_a_column_for_every_player_is_refused_naming_file_and_line(db: Path, tmp_path: Path) -> None:
    path = tmp_path / "sheet.csv"
    path.write_text("hand,Ann,Ben,Cho\n1,24000,26000,25000\n", encoding="utf-8")
    result = honba(db, "audit", KEY, "--against", str(path))
    assert result.exit_code == 2
    assert f"{path}:1:" in result.stderr and "'Dai'" in result.stderr


def test_a_sheet_with_a_word_for_a_number_is_refused_naming_the_row(db: Path, tmp_path: Path) -> None:
    result = honba(db, "audit", KEY, "--against", str(sheet(tmp_path, [SCORES[0], "E2-0,23500,lots,27000,24500"])))
    assert result.exit_code == 2
    assert "sheet.csv:3:" in result.stderr


def test_what_if_a_counter_were_worth_1500_changes_only_the_hand_with_counters_paid(db: Path, tmp_path: Path) -> None:
    # Only S1-2 pays counters (the E4-1 draw pays none): 2 x 1,500 = 3,000 instead of 600, 2,400 more.
    rules = tmp_path / "counter-1500.toml"
    rules.write_text(COUNTER_1500, encoding="utf-8")
    what_if = audit_json(db, "--rules", str(rules))["what_if"]
    assert what_if["changed_hands"] == ["S1-2"]
    assert what_if["hand_changes"] == [{"hand": "S1-2", "changes": {"Ann": 0, "Ben": 0, "Cho": -2400, "Dai": 2400}}]
    assert what_if["final_scores"] == {"Ann": 29900, "Ben": 19600, "Cho": 22900 - 2400, "Dai": 27600 + 2400}

    text = honba(db, "audit", KEY, "--rules", str(rules)).stdout
    assert "Hands whose payments change: S1-2" in text
    assert "S1-2: Cho -2,400, Dai +2,400" in text
    assert "counter-1500" in text  # the rule file is named by its file, not by its base preset
    assert "20,500" in text and "30,000" in text


def test_what_if_under_the_same_rules_changes_nothing(db: Path) -> None:
    what_if = audit_json(db, "--rules", "tenhou")["what_if"]
    assert what_if["changed_hands"] == []
    assert what_if["final_scores"] == {"Ann": 29900, "Ben": 19600, "Cho": 22900, "Dai": 27600}


def test_what_if_under_rules_for_another_number_of_players_is_refused(db: Path) -> None:
    result = honba(db, "audit", KEY, "--rules", "tenhou-sanma")
    assert result.exit_code == 2
    assert "3 players" in result.stderr


def test_json_holds_the_ledger_the_corrections_and_the_integrity(db: Path) -> None:
    # The referee finds S1-2 (line 7 of the record file) was 3 han 30 fu: 3,900 + 600 for the counters.
    line = json.dumps({"type": "win", "wins": [{"winner": "Dai", "from": "Cho", "han": 3, "fu": 30}]})
    amended = honba(db, "amend", KEY, "7", "--result", line, "--by", "Referee Ito", "--reason", "missed a dora")
    assert amended.exit_code == 0, amended.output

    data = audit_json(db)
    # Each entry by its line in the record file (the deal passes between them have none).
    assert [entry["entry"] for entry in data["ledger"]] == [2, 3, 4, 5, 6, 7]
    assert data["ledger"][-1]["corrected"] is True
    assert data["ledger"][-1]["changes"] == {"Ann": 0, "Ben": 0, "Cho": -4500, "Dai": 4500}
    (correction,) = data["corrections"]
    assert (correction["kind"], correction["target"], correction["by"], correction["reason"]) == (
        "amended",
        7,
        "Referee Ito",
        "missed a dora",
    )
    assert correction["original"] == "Dai ron on Cho: 2 han 30 fu"
    integrity = data["integrity"]
    assert integrity["intact"] is True and integrity["problems"] == []
    assert len(integrity["head"]) == 64
    assert data["final_scores"] == {"Ann": 29900, "Ben": 19600, "Cho": 25500 - 4500, "Dai": 25000 + 4500}


def test_the_audit_exits_1_when_the_sheet_differs_and_0_when_it_agrees(db: Path, tmp_path: Path) -> None:
    assert honba(db, "audit", KEY, "--against", str(sheet(tmp_path, [*SCORES[:-1], COUNTERS_AS_300]))).exit_code == 1
    assert honba(db, "audit", KEY, "--against", str(sheet(tmp_path, SCORES))).exit_code == 0


def test_the_audit_of_a_tampered_store_says_the_integrity_is_broken(db: Path) -> None:
    with closing(sqlite3.connect(db)) as sql:
        (state,) = sql.execute(
            "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = 6",
            (match_id(KEY).hex,),
        ).fetchone()
        sql.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = 6",
            (bytes(state).replace(b'"fu":30', b'"fu":40'), match_id(KEY).hex),
        )
        sql.commit()
    integrity = audit_json(db)["integrity"]
    assert integrity["intact"] is False
    assert [(p["position"], p["kind"]) for p in integrity["problems"]] == [(6, "altered")]
    assert "BROKEN: altered at 6" in honba(db, "audit", KEY).stdout


@pytest.mark.parametrize(
    ("encoding", "between"),
    [("utf-16", "\t"), ("utf-8-sig", ","), ("utf-8", ";")],
    ids=["unicode text (UTF-16, tabs)", "CSV UTF-8 (a mark)", "CSV with semicolons"],
)
def test_a_sheet_saved_by_a_spreadsheet_reads_as_the_same_sheet(
    db: Path, tmp_path: Path, encoding: str, between: str
) -> None:
    # A spreadsheet's "Unicode text" is UTF-16 with a byte order mark, its cells between tabs; "CSV
    # UTF-8" starts with a mark; where the comma is the decimal point a CSV's cells are between semicolons.
    wrong = tmp_path / "wrong.csv"
    lines = [HEADER, *SCORES[:-1], COUNTERS_AS_300]
    wrong.write_bytes(("\n".join(line.replace(",", between) for line in lines) + "\n").encode(encoding))
    first = audit_json(db, "--against", str(wrong))["sheet"]["first_difference"]
    assert first["hand"] == "S1-2"
    assert "Cho 23,200 on the sheet, 22,900 by honba (+300)" in first["text"]
