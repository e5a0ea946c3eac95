"""The table page's use cases (replay.service.recording.table): the values a table taps, the numbered ledger
with what was taken back, what undo takes back, the confirm step (with the clock's end and tiles).

The numbers are the published riichi score table's: a non-dealer's ron of 4 han 30 fu is 7,700 and
of 3 han 60 fu 7,700 (8,000, a mangan, under kiriage mangan), of 3 han 70 fu 8,000 (a mangan); a
closed ron has at least 30 fu, 1 han has at least 30 fu.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from domain.rules import load_preset
from domain.scoring.riichi import base_points, hand_values
from domain.values import HandValue
from replay.input.entry import FieldError
from replay.input.fields import entry_from_fields
from replay.input.tiles import hand_tiles_from_fields
from replay.service.recording import clock, recording
from replay.service.recording.entry import apply_entry
from replay.service.recording.table import entry_preview, table_view, value_choice, value_choices
from replay.store.application import HonbaApp

PLAYERS = ["Ann", "Ben", "Cho", "Dai"]


def pairs(preset: str, way: str) -> set[str]:
    return {c["value"] for row in value_choices(load_preset(preset))["rows"] for c in row["choices"] if c[way]}


def test_the_han_fu_buttons_are_the_pairs_that_exist_below_the_limit() -> None:
    ron, tsumo = pairs("tenhou", "ron"), pairs("tenhou", "tsumo")
    assert "4/30" in ron and "3/60" in ron  # 7,700
    assert "3/70" not in ron and "4/40" not in ron  # a mangan: the mangan button
    assert "1/20" not in tsumo and "1/25" not in ron  # 1 han has at least 30 fu
    assert "2/20" in tsumo and "2/20" not in ron  # a closed ron has at least 30 fu
    # Seven pairs self-drawn has menzen tsumo too (Tenhou writes it "25符3飜", tests/unit/test_tenhou_json.py).
    assert "2/25" in ron and "2/25" not in tsumo and "3/25" in tsumo
    rules = load_preset("tenhou")
    for value in hand_values(self_drawn=False):
        if value.limit is None and value.han is not None:
            # Every pair that exists is a button, or pays a limit that is one.
            shown = f"{value.han}/{value.fu}" in ron
            assert shown == (base_points(value, rules).limit is None), value


def test_under_kiriage_mangan_4_han_30_fu_is_the_mangan_button() -> None:
    assert load_preset("m-league").kiriage_mangan
    assert "4/30" not in pairs("m-league", "ron") and "3/60" not in pairs("m-league", "ron")
    assert value_choice(HandValue(han=4, fu=30), load_preset("m-league")) == "mangan"
    assert value_choice(HandValue(han=4, fu=30), load_preset("tenhou")) == "4/30"


def test_the_limits_are_named_in_the_rules_family() -> None:
    riichi = value_choices(load_preset("tenhou"))
    assert [limit["label"] for limit in riichi["limits"]] == ["mangan", "haneman", "baiman", "sanbaiman", "yakuman"]
    hong_kong = value_choices(load_preset("hong-kong"))
    assert [limit["label"] for limit in hong_kong["limits"]] == ["limit"]
    # Hong Kong counts faan into the Faan-Laak table: from its minimum of 3 to the table's last row, 10.
    assert [c["value"] for c in hong_kong["rows"][0]["choices"]] == [f"{n}faan" for n in range(3, 11)]
    classical = value_choices(load_preset("chinese-classical"))
    assert classical["typed"] and classical["rows"] == []


@pytest.fixture
def app(tmp_path: Path) -> HonbaApp:
    opened = HonbaApp.open(str(tmp_path / "t.sqlite"))
    recording.start_match(opened, "m", PLAYERS, load_preset("tenhou"))
    return opened


def enter(app: HonbaApp, **fields: object) -> None:
    apply_entry(app, "m", entry_from_fields(fields), client_key=None, by="table 1")


def test_an_entry_taken_back_stays_in_the_numbered_ledger_struck_through(app: HonbaApp) -> None:
    enter(app, kind="win", winner="Ben", discarder="Ann", value="3/30")
    enter(app, kind="win", winner="Cho", value="mangan")
    assert str(table_view(app, "m")["undo"]["text"]) == "entry 3 (E2-0): Cho tsumo: mangan"
    enter(app, kind="undo")
    enter(app, kind="draw", ready=["Ann"])
    rows = table_view(app, "m")["entries"]
    assert [(r["entry"], r["kind"], r["void"]) for r in rows] == [
        (2, "hand", False),
        (3, "voided", True),
        (4, "correction", False),
        (5, "hand", False),
    ]
    assert str(rows[1]["result"]) == "Cho tsumo: mangan" and str(rows[1]["note"]) == "taken back by entry 4"
    assert str(rows[2]["result"]) == "entry 3 taken back"


def test_the_undo_confirm_step_names_the_entry_and_nothing_is_stored(app: HonbaApp) -> None:
    enter(app, kind="win", winner="Ben", discarder="Ann", value="3/30", riichi=["Ben"])
    shown = entry_preview(app, "m", entry_from_fields({"kind": "undo"}))
    assert [str(line) for line in shown["lines"]] == [
        "Undo entry 2 (E1-0): Ben ron on Ann: 3 han 30 fu; riichi: Ben: it stays in the ledger, struck through"
    ]
    assert shown["scores_after"] == dict.fromkeys(PLAYERS, 25000)
    assert len(table_view(app, "m")["entries"]) == 1


def test_the_confirm_step_says_the_match_ends_when_time_is_up(app: HonbaApp) -> None:
    clock.set_time_limit(app, "m", 60)
    clock.start_clock(app, "m", at=recording.server_time() - timedelta(minutes=61))
    shown = entry_preview(app, "m", entry_from_fields({"kind": "win", "winner": "Ben", "value": "1/30"}))
    assert shown["ends"] == "time_up"
    assert str(table_view(app, "m")["clock"]["text"]) == "time is up: this hand is the last"
    enter(app, kind="win", winner="Ben", value="1/30")
    view = table_view(app, "m")
    assert view["finished"] and view["result"]["end_reason"] == "time_up"
    assert view["undo"] is not None  # the last hand can still be taken back


def test_the_confirm_step_says_the_end_once_in_words(app: HonbaApp) -> None:
    clock.set_time_limit(app, "m", 60)
    clock.start_clock(app, "m", at=recording.server_time() - timedelta(minutes=61))
    shown = entry_preview(app, "m", entry_from_fields({"kind": "win", "winner": "Ben", "value": "1/30"}))
    assert str(shown["ends_in_words"]) == "time up"
    assert not any("end" in str(line) for line in shown["lines"]), shown["lines"]
    early = entry_preview(app, "m", entry_from_fields({"kind": "end", "reason": "time limit"}))
    assert early["ends"] == early["ends_in_words"] == "time limit"
    assert not any("end" in str(line) for line in early["lines"]), early["lines"]


def test_the_tiles_value_a_win_and_name_its_yaku(app: HonbaApp) -> None:
    tiles = hand_tiles_from_fields({"hand": "234m456p678s345s22p", "win_tile": "3s"})
    entry = entry_from_fields({"kind": "win", "winner": "Ben", "discarder": "Ann", "riichi": ["Ben"]})
    shown = entry_preview(app, "m", entry, tiles)
    assert "Ann pays Ben 3,900" in shown["lines"]  # riichi, pinfu, all simples: 3 han 30 fu
    assert shown["tiles"]["choice"] == "3/30"
    assert [y["name"] for y in shown["tiles"]["yaku"]] == ["立直", "平和", "断幺九"]


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"win_tile": "3s"}, "hand"),
        ({"hand": "234m456p678s345s22p"}, "win_tile"),
        ({"hand": "234m456p678s345s22x", "win_tile": "3s"}, "hand"),
        ({"hand": "234m456p678s345s22p", "win_tile": "9s"}, "win_tile"),
        ({"hand": "234m456p678s22p", "win_tile": "3s", "calls": "pon:34s"}, "calls"),
        ({"hand": "2" * 500 + "m", "win_tile": "3s"}, "hand"),
    ],
)
def test_a_tile_field_that_cannot_be_read_is_refused_by_its_name(fields: dict[str, str], field: str) -> None:
    with pytest.raises(FieldError) as refused:
        hand_tiles_from_fields(fields)
    assert refused.value.field == field
    assert "--" not in str(refused.value)  # the page's words, not the command line's options
