"""Amendments, never edits: a referee corrects a match with new events; the original stays.

Issue 5: "A referee can amend an earlier hand (replace its result), void it, add or
cancel a penalty, at any time, also after the match ended. Each amendment is a new
event with who made it, when and why; the original stays in the log. Projections,
scores and standings use the amended history. Where an amendment changes a result
that decided a later deal pass, the hands that were actually played stay as played,
and the audit shows the inconsistency plainly."

Numbers are worked by hand from the published riichi rules (Tenhou's game, 25,000
start, 30,000 return, uma 20/10, the 20,000 oka to the top): base points = fu x
2^(2 + han); a non-dealer's ron is 4 x base, a dealer's 6 x base, rounded up to 100.
So 3 han 30 fu = 30 x 32 = 960 -> 3,840 -> 3,900; 2 han 30 fu = 480 -> 1,920 -> 2,000
(a dealer's: 2,880 -> 2,900); 1 han 30 fu = 240 -> 960 -> 1,000. Final points: the
score rounded to the thousand, less 30, plus uma; the top takes what makes the sum zero.

The match of these tests is ``honba_cli.two_wins``; entries are named by the numbers
``honba log`` shows (their lines in the exported record file):
    1 start (Ann deals first)   2 E1-0 Ben ron on Cho 3/30   3 E2-0 Cho ron on Dai 1/30
Scores as recorded: Ann 25,000, Ben 28,900, Cho 22,100, Dai 24,000.

The rules of corrections (payments after a correction, what a correction may change, what the
rules refuse) are checked at the service, in memory: tests/service/test_correction_rules.py. Here
what the command line adds: its options read into the same request (``--result``, ``--by``,
``--reason``), its one-line refusal with exit 2 and nothing stored, its output, the record file.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from honba_cli import Honba, two_wins

KEY = "club-2026-11-21-t1"

AMEND_TO_2_30 = json.dumps({"type": "win", "wins": [{"winner": "Ben", "from": "Cho", "han": 2, "fu": 30}]})
ANN_WON_IT = json.dumps({"type": "win", "wins": [{"winner": "Ann", "from": "Cho", "han": 2, "fu": 30}]})


@pytest.fixture
def honba(tmp_path: Path) -> Honba:
    """The match of the module docstring, recorded through the command line."""
    return two_wins(tmp_path / "honba.sqlite", KEY)


def amend(honba: Honba, entry: int, line: str, *extra: str) -> str:
    return honba.ok("amend", KEY, str(entry), "--result", line, "--by", "Referee Ito", "--reason", *extra)


def test_an_amendment_is_a_new_event_and_the_original_stays_in_the_log(honba: Honba) -> None:
    before = honba.events()
    amend(honba, 2, AMEND_TO_2_30, "miscounted: no dora")
    after = honba.events()
    assert after[: len(before)] == before  # every recorded event is still there, unchanged
    assert len(after) == len(before) + 1
    assert b'"han":3' in dict(after)[2]


def test_the_amendment_records_who_made_it_when_and_why(honba: Honba) -> None:
    amend(honba, 2, AMEND_TO_2_30, "miscounted: no dora")
    (correction,) = honba.json("audit", KEY)["corrections"]
    assert correction["kind"] == "amended"
    assert correction["target"] == 2
    assert correction["original"] == "Ben ron on Cho: 3 han 30 fu"
    assert correction["replacement"] == "Ben ron on Cho: 2 han 30 fu"
    assert (correction["by"], correction["reason"]) == ("Referee Ito", "miscounted: no dora")
    assert datetime.fromisoformat(correction["at"]).tzinfo is not None


def test_audit_shows_the_inconsistency_in_words(honba: Honba) -> None:
    amend(honba, 2, ANN_WON_IT, "Ann declared first")
    text = honba.ok("audit", KEY)
    assert "inconsistency: E1-0" in text
    assert "Ann declared first" in text


def add_penalty(honba: Honba) -> str:
    return honba.ok(
        "penalty", KEY, "Dai", "--amount", "3000", "--share", "to_others",
        "--by", "Referee Ito", "--reason", "chombo seen on the video",
    )  # fmt: skip


@pytest.mark.parametrize(
    "missing",
    [("--reason", "miscounted"), ("--by", "Referee Ito")],
    ids=["without-by", "without-reason"],
)
def test_a_correction_needs_by_and_reason(honba: Honba, missing: tuple[str, str]) -> None:
    before = honba.events()
    result = honba("amend", KEY, "2", "--result", AMEND_TO_2_30, *missing)
    assert result.exit_code == 2
    result = honba("void", KEY, "2", *missing)
    assert result.exit_code == 2
    assert honba.events() == before


def test_a_correction_with_an_empty_by_or_reason_is_refused(honba: Honba) -> None:
    before = honba.events()
    message = honba.refused("void", KEY, "2", "--by", " ", "--reason", "miscounted")
    assert "say who makes the correction" in message
    honba.refused("amend", KEY, "2", "--result", AMEND_TO_2_30, "--by", "Referee Ito", "--reason", "")
    assert honba.events() == before


@pytest.mark.parametrize("command", ["amend", "void"])
def test_a_number_that_names_a_deal_pass_is_refused(honba: Honba, command: str) -> None:
    # The deal pass after E2-0 stands in the match's log after entry 3, but deal passes are
    # decided by the rules: they have no line in the record file, so no number; 4 names nothing.
    before = honba.events()
    extra = ["--result", AMEND_TO_2_30] if command == "amend" else []
    result = honba(command, KEY, "4", *extra, "--by", "Referee Ito", "--reason", "x")
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    message = result.stderr.strip()
    assert f"there is no entry 4 in match {KEY!r}" in message
    assert "numbered 2 to 3" in message and "deal passes" in message
    assert honba.events() == before


@pytest.mark.parametrize("entry", ["0", "²", "9" * 5000])
def test_an_entry_number_out_of_range_is_a_usage_mistake(honba: Honba, entry: str) -> None:
    # Entry numbers start at 1 (domain.bounds.ENTRY) and are read by the one number reader.
    before = honba.events()
    result = honba("void", KEY, entry, "--by", "Referee Ito", "--reason", "x")
    assert result.exit_code == 2, result.output
    assert "Invalid value for 'entry'" in " ".join(result.output.replace("│", " ").split())
    assert honba.events() == before


def test_record_files_round_trip_with_their_corrections(honba: Honba, tmp_path: Path) -> None:
    amend(honba, 2, AMEND_TO_2_30, "miscounted")
    honba.ok("void", KEY, "3", "--by", "Referee Ito", "--reason", "wrong table")
    honba.ok("end", KEY, "--reason", "time limit")
    add_penalty(honba)
    exported = honba.ok("export", KEY)
    assert exported.count('"type": "correction"') == 3

    path = tmp_path / "with-corrections.jsonl"
    path.write_text(exported, encoding="utf-8")
    elsewhere = Honba(tmp_path / "elsewhere.sqlite", KEY)
    elsewhere.ok("import", str(path))

    assert elsewhere.json("status", KEY) == honba.json("status", KEY)
    assert elsewhere.json("log", KEY) == honba.json("log", KEY)

    def corrections(cli: Honba) -> list[tuple[Any, ...]]:
        return [
            (c["kind"], c["original"], c["replacement"], c["by"], c["reason"])
            for c in cli.json("audit", KEY)["corrections"]
        ]

    assert corrections(elsewhere) == corrections(honba)
    assert elsewhere.ok("export", KEY) == exported
    # Ben's 2,000 from Cho stands; Cho's 1,000 from Dai is void; Dai's 3,000 penalty is shared.
    assert elsewhere.scores() == {"Ann": 26000, "Ben": 28000, "Cho": 24000, "Dai": 22000}
