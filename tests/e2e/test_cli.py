"""The ``honba`` command: each command records or shows what it should.

Numbers are worked by hand from the published riichi rules (Tenhou's game):
base points = fu x 2^(2 + han); a non-dealer's ron is 4 x base, a dealer's 6 x
base, rounded up to 100; counters pay 300 each on a ron; noten payments share
3000. Every test uses its own SQLite file under ``tmp_path``, never the default.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from honba_cli import Honba, ok
from typer.testing import Result

from replay.store.application import HonbaApp

REPO = Path(__file__).resolve().parents[2]
SEED_RECORD = REPO / "docs" / "examples" / "counters-seed.jsonl"
PLAYERS = "Ann,Ben,Cho,Dai"


@pytest.fixture
def db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh SQLite file named by HONBA_DB; the default location is moved under tmp_path too."""
    path = tmp_path / "honba.sqlite"
    monkeypatch.setenv("HONBA_DB", str(path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("PERSISTENCE_MODULE", raising=False)
    return path


# The command line as typed (``--db`` where a test names it, else the store HONBA_DB names).
cli = Honba(None)


def status(key: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(cli.ok("status", key, "--json"))
    return data


def hands(key: str) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(cli.ok("log", key, "--json"))["hands"]
    return data


def scores(key: str) -> list[int]:
    return list(status(key)["scores"].values())


def started(key: str = "club-1") -> str:
    cli.ok("start", key, "--players", PLAYERS)
    return key


def stored_events(path: Path) -> int:
    """How many events the SQLite file holds (the app is kept alive while the recorder is read)."""
    store = HonbaApp.open(str(path))
    count: int = store.recorder.max_notification_id() or 0
    store.close()
    return count


def one_line_error(result: Result) -> str:
    """The rule for bad input: exit code 2, exactly one line on stderr, no traceback."""
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.output
    assert lines[0].startswith("honba: ")
    return lines[0]


def honba_executable() -> str:
    """The installed ``honba`` command of the running environment."""
    beside = Path(sys.executable).with_name("honba")
    found = str(beside) if beside.exists() else shutil.which("honba")
    assert found, "the honba command is not installed (pip install -e '.[test]')"
    return found


def clean_env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("HONBA_DB", "PERSISTENCE_MODULE", "SQLITE_DBNAME")}
    env.update({"XDG_DATA_HOME": str(tmp_path / "xdg"), "TMPDIR": str(tmp_path), "NO_COLOR": "1"})
    return env


# honba demo


def test_demo_records_a_sample_match_in_the_named_fresh_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "demo.sqlite"
    out = ok(path, "demo")
    assert f"Recorded the demo match 'demo' in {path}" in out
    assert path.exists()
    first = json.loads(ok(path, "log", "demo", "--json"))["hands"][0]
    # Cho's 3 han 40 fu ron off Ben, non-dealer: 40 x 2^5 x 4 = 5120 -> 5200; Cho's riichi stick comes back.
    assert first["changes"] == {"Ann": 0, "Ben": -5200, "Cho": 5200, "Dai": 0}


def test_the_demo_s_chombo_is_the_rules_reverse_mangan_as_the_readme_says(tmp_path: Path) -> None:
    # Issue 22: the demo split its chombo 2,668/2,666/2,666 while the README says that under tenhou
    # the rules' chombo is a reverse mangan: a non-dealer pays 4,000 to the dealer and 2,000 to each
    # other player. Ben is penalised at E3-4, Cho dealing.
    path = tmp_path / "demo.sqlite"
    ok(path, "demo")
    (penalty,) = [h for h in json.loads(ok(path, "log", "demo", "--json"))["hands"] if h["kind"] == "penalty"]
    assert (penalty["hand"], penalty["dealer"]) == ("E3-4", "Cho")
    assert penalty["changes"] == {"Ann": 2000, "Ben": -8000, "Cho": 4000, "Dai": 2000}


def test_demo_runs_as_the_installed_command_in_a_fresh_temporary_file(tmp_path: Path) -> None:
    done = subprocess.run(
        [honba_executable(), "demo"], capture_output=True, text=True, env=clean_env(tmp_path), timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    found = re.search(r"Recorded the demo match 'demo' in (\S+)", done.stdout)
    assert found, done.stdout
    assert Path(found.group(1)).is_file()
    assert Path(found.group(1)).is_relative_to(tmp_path)
    assert "Next hand: East 4, 0 counters (E4-0)" in done.stdout


def test_installed_command_reports_bad_input_in_one_line_without_traceback(tmp_path: Path) -> None:
    env = clean_env(tmp_path)
    done = subprocess.run(
        [honba_executable(), "--db", str(tmp_path / "x.sqlite"), "status", "nope"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["honba: no match 'nope' in the store"]
    assert done.stdout == ""


# Recording by hand


def test_start_opens_east_1_with_everyone_at_the_start_score(db: Path) -> None:
    out = cli.ok("start", "club-1", "--players", PLAYERS)
    assert "Started 'club-1' under tenhou: Ann, Ben, Cho, Dai" in out
    state = status("club-1")
    assert state["hand_name"] == "East 1, 0 counters"
    assert state["dealer"] == "Ann"
    assert state["scores"] == {"Ann": 25000, "Ben": 25000, "Cho": 25000, "Dai": 25000}
    assert db.exists()


def test_non_dealer_ron_3_han_30_fu_moves_exactly_3900(db: Path) -> None:
    key = started()
    cli.ok("win", key, "Ben:3/30", "--from", "Ann")
    # 30 x 2^5 = 960 base; x4 = 3840 -> 3900, all from the discarder.
    assert scores(key) == [21100, 28900, 25000, 25000]
    state = status(key)
    assert (state["hand"], state["dealer"]) == ("E2-0", "Ben")


def test_dealer_tsumo_2_han_30_fu_is_2000_from_each(db: Path) -> None:
    key = started()
    cli.ok("win", key, "Ann:2/30")
    # 30 x 2^4 = 480 base; each player pays the dealer 2 x 480 = 960 -> 1000 ("1000 all").
    assert scores(key) == [28000, 24000, 24000, 24000]
    state = status(key)
    assert (state["hand"], state["dealer"], state["consecutive_dealer_wins"]) == ("E1-1", "Ann", 1)


def test_draw_pays_noten_and_keeps_the_ready_dealer(db: Path) -> None:
    key = started()
    cli.ok("draw", key, "--ready", "Ann", "--riichi", "Ann")
    # One ready player takes 1000 from each of the three not ready; Ann's riichi stick stays on the table.
    assert scores(key) == [27000, 24000, 24000, 24000]
    state = status(key)
    assert (state["hand"], state["dealer"], state["deposits"], state["dealer_streak"]) == ("E1-1", "Ann", 1000, 2)


def test_next_winner_takes_counters_and_deposits(db: Path) -> None:
    key = started()
    cli.ok("draw", key, "--ready", "Ann", "--riichi", "Ann")
    cli.ok("win", key, "Ben:1/30", "--from", "Cho")
    # 1 han 30 fu ron 1000, plus 300 for the one counter from Cho, plus the 1000 deposit from the table.
    assert scores(key) == [27000, 26300, 22700, 24000]
    state = status(key)
    assert (state["hand"], state["counters"], state["deposits"]) == ("E2-0", 0, 0)


def test_abortive_draw_adds_a_counter_and_keeps_the_dealer(db: Path) -> None:
    key = started()
    cli.ok("abort", key, "four_winds", "--riichi", "Ben")
    assert scores(key) == [25000, 24000, 25000, 25000]
    state = status(key)
    assert (state["hand"], state["dealer"], state["counters"], state["deposits"]) == ("E1-1", "Ann", 1, 1000)
    assert hands(key)[0]["result"] == "abortive draw: four winds; riichi: Ben"


def test_penalty_shared_by_the_others(db: Path) -> None:
    key = started()
    cli.ok("penalty", key, "Dai", "--amount", "3000", "--note", "wrong tile")
    assert scores(key) == [26000, 26000, 26000, 22000]
    # A penalty is not a hand: the table stays at East 1 with no counter.
    assert status(key)["hand"] == "E1-0"


def test_penalty_off_the_table_is_paid_to_nobody(db: Path) -> None:
    key = started()
    cli.ok("penalty", key, "Cho", "--amount", "8000", "--share", "off_table")
    assert scores(key) == [25000, 25000, 17000, 25000]


def test_penalty_amount_defaults_to_the_rules_chombo_amount(db: Path) -> None:
    key = started()
    cli.ok("penalty", key, "Dai")
    after = scores(key)
    assert after[3] == 25000 - 8000
    assert sum(after) == 100000


def test_end_settles_final_points_with_tenhou_rounding(db: Path) -> None:
    key = started()
    cli.ok("win", key, "Cho:2/30")  # non-dealer tsumo 480 base: 1000 from the dealer, 500 from the others
    out = cli.ok("end", key, "--reason", "time limit")
    assert "Match over (time limit)" in out
    state = status(key)
    assert state["scores"] == {"Ann": 24000, "Ben": 24500, "Cho": 27000, "Dai": 24500}
    # Ranks: Cho, Ben (ahead of Dai on the tie by seat order), Dai, Ann. 24,500 rounds half away from
    # zero to 25: Ben 25-30+10 = +5, Dai 25-30-10 = -15, Ann 24-30-20 = -26, Cho takes the rest: +36.
    assert state["final_points"] == {"Ann": -26.0, "Ben": 5.0, "Cho": 36.0, "Dai": -15.0}
    assert state["finished"] is True


def test_nothing_is_recorded_after_the_end(db: Path) -> None:
    key = started()
    cli.ok("end", key)
    line = one_line_error(cli("win", key, "Ben:3/30", "--from", "Ann"))
    assert "has ended" in line


def test_early_end_may_not_claim_a_reason_the_rules_decide(db: Path) -> None:
    key = started()
    line = one_line_error(cli("end", key, "--reason", "complete"))
    assert "complete" in line
    assert status(key)["finished"] is False


def test_double_ron_counters_and_deposits_go_to_the_winner_nearest_the_discarder(db: Path) -> None:
    key = started()
    cli.ok("abort", key, "four_winds", "--riichi", "Dai")  # E1-1: 1 counter, 1000 on the table
    cli.ok("win", key, "Cho:mangan", "Dai:2/40", "--from", "Ben")
    # Cho plays right after Ben, Dai two turns after: Cho alone takes the 300 counter and the 1000 stick.
    # Mangan 8000; Dai's 2 han 40 fu: 40 x 2^4 x 4 = 2560 -> 2600.
    assert scores(key) == [25000, 25000 - 8000 - 2600 - 300, 25000 + 8000 + 300 + 1000, 25000 - 1000 + 2600]


# Showing a match


def test_seed_counters_example_ledger_shows_the_600_counter_bonus(db: Path) -> None:
    cli.ok("import", str(SEED_RECORD))
    out = cli.ok("log", "seed-counters-example")
    assert "Cho -> Dai 600 (counters: 2 counters)" in out
    ledger = hands("seed-counters-example")
    # The seeds' walk: East 4 with 0 counters, East 4 with 1, South 1 with 2, then South 2 with 0.
    assert [h["hand"] for h in ledger[3:]] == ["E4-0", "E4-1", "S1-2"]
    last = ledger[-1]
    assert {"payer": "Cho", "payee": "Dai", "amount": 600, "reason": "counters", "note": "2 counters"} in last[
        "payments"
    ]
    # North (Dai) wins 2 han 30 fu off Cho: 30 x 2^4 x 4 = 1920 -> 2000, plus 2 x 300.
    assert last["changes"] == {"Ann": 0, "Ben": 0, "Cho": -2600, "Dai": 2600}


def test_seed_counters_example_status_is_south_2_with_0_counters(db: Path) -> None:
    cli.ok("import", str(SEED_RECORD))
    out = cli.ok("status", "seed-counters-example")
    assert "South 2, 0 counters" in out
    assert status("seed-counters-example")["dealer"] == "Ben"


def test_status_and_log_json_parse_for_tools(db: Path) -> None:
    key = started()
    cli.ok("win", key, "Ben:3/30", "--from", "Ann", "--riichi", "Ben")
    state = json.loads(cli.ok("status", key, "--json"))
    assert state["match"] == key
    assert state["scores"]["Ben"] == 25000 - 1000 + 3900 + 1000
    log = json.loads(cli.ok("log", key, "--json"))
    assert log["match"] == key
    assert log["hands"][0]["deal_passed_to"] == "Ben"
    assert [p["amount"] for p in log["hands"][0]["payments"]] == [1000, 3900, 1000]


def test_rules_list_names_the_shipped_presets(db: Path) -> None:
    names = [line.split(":")[0] for line in cli.ok("rules", "list").splitlines()]
    assert {"tenhou", "tenhou-east", "tenhou-sanma"} <= set(names)


def test_rules_show_tenhou_prints_every_rule_value(db: Path) -> None:
    out = cli.ok("rules", "show", "tenhou")
    assert re.search(r"start_score\s*│\s*25000", out)
    assert re.search(r"return_score\s*│\s*30000", out)
    assert re.search(r"uma\s*│\s*\[20, 10, -10, -20\]", out)
    assert "honba: unknown rules preset 'nope'" in one_line_error(cli("rules", "show", "nope"))


# Record files


def test_import_then_export_gives_back_the_same_file_byte_for_byte(db: Path, tmp_path: Path) -> None:
    cli.ok("import", str(SEED_RECORD))
    assert cli.ok("export", "seed-counters-example", "--plain").encode("utf-8") == SEED_RECORD.read_bytes()
    target = tmp_path / "out.jsonl"
    cli.ok("export", "seed-counters-example", "-o", str(target))
    # The exported file carries the chain; imported elsewhere and exported again, it is the same bytes.
    ok(tmp_path / "other.sqlite", "import", str(target))
    again = ok(tmp_path / "other.sqlite", "export", "seed-counters-example")
    assert again.encode("utf-8") == target.read_bytes()


def test_a_match_recorded_by_hand_exports_and_imports_into_another_store(db: Path, tmp_path: Path) -> None:
    key = started()
    cli.ok("win", key, "Ben:3/30", "--from", "Ann", "--riichi", "Ben")
    cli.ok("draw", key, "--ready", "Cho")
    cli.ok("penalty", key, "Dai", "--amount", "3000")
    text = cli.ok("export", key)
    assert cli.ok("export", key, "--plain").splitlines()[1] == (
        '{"type": "win", "wins": [{"winner": "Ben", "from": "Ann", "han": 3, "fu": 30}], "riichi": ["Ben"]}'
    )
    record = tmp_path / "club-1.jsonl"
    record.write_text(text, encoding="utf-8")
    other = tmp_path / "other.sqlite"
    ok(other, "import", str(record))
    moved = json.loads(ok(other, "status", key, "--json"))
    assert moved == status(key)


def test_importing_twice_stores_nothing_new_and_says_so(db: Path) -> None:
    cli.ok("import", str(SEED_RECORD))
    before = stored_events(db)
    out = cli.ok("import", str(SEED_RECORD))
    assert "'seed-counters-example' already stored, nothing new" in out
    assert stored_events(db) == before


# Bad input


def _bad_record(tmp_path: Path) -> Path:
    path = tmp_path / "bad.jsonl"
    path.write_text(
        '{"type": "start", "key": "bad", "players": ["Ann", "Ben", "Cho", "Dai"], "rules": "tenhou"}\n'
        '{"type": "win", "wins": [{"winner": "Ben", "from": "Ann", "han": 3, "fu": 30}]}\n'
        '{"type": "win", "wins": [{"winner": "Cho"\n',
        encoding="utf-8",
    )
    return path


@pytest.mark.parametrize(
    ("args", "names"),
    [
        (["win", "club-1", "Eve:3/30", "--from", "Ann"], ["'Eve' is not a player"]),
        (["win", "club-1", "Ben:1/20"], ["1 han 20 fu"]),
        (["win", "club-1", "Ben:1/20", "--from", "Ann"], ["1 han 20 fu"]),
        (["win", "club-1", "Ben:3/30", "--from", "Ben"], ["own discard"]),
        (["status", "no-such-match"], ["no match 'no-such-match'"]),
        (["win", "no-such-match", "Ben:3/30"], ["no match 'no-such-match'"]),
        (["start", "club-1", "--players", PLAYERS], ["already stored"]),
        (["start", "club-2", "--players", "Ann,Ben,Cho"], ["4 players"]),
        (["start", "club-2", "--players", PLAYERS, "--set", "no_such_rule=1"], ["no_such_rule"]),
        (["import", "BAD"], ["bad.jsonl", ":3", "not valid JSON"]),
    ],
)
def test_bad_input_gives_one_line_exit_2_and_records_nothing(
    db: Path, tmp_path: Path, args: list[str], names: list[str]
) -> None:
    key = started()
    cli.ok("win", key, "Cho:2/30")
    before = status(key)
    args = [str(_bad_record(tmp_path)) if a == "BAD" else a for a in args]
    line = one_line_error(cli(*args))
    for name in names:
        assert name in line.replace(": ", ":"), line
    assert status(key) == before
    store = HonbaApp.open(str(db))
    assert [m.key for m in store.list_matches()] == [key]


def test_a_bust_on_a_non_dealers_win_leaves_the_dealer_with_one_hand_and_no_extra_hand(tmp_path: Path) -> None:
    # Seed 000: "Dealer's extra hand is played whenever the deal does not pass"; a non-dealer's
    # win passes it (seed 003: "when only a non-dealer wins"), so the hand that ended the match
    # was the dealer's first and only. A yakuman off a non-dealer's 25,000 is 32,000: a bust.
    honba = Honba(tmp_path / "honba.sqlite", "x")
    honba.ok("start", "x", "--players", "A,B,C,D")
    out = honba.ok("win", "x", "C:yakuman", "--from", "D")
    assert "Dealer streak: 1 (extra hands: 0)" in out
    status = honba.json("status", "x")
    assert (status["end_reason"], status["dealer_streak"], status["extra_hands"]) == ("bust", 1, 0)
    assert status["scores"] == {"A": 25000, "B": 25000, "C": 57000, "D": -7000}
