"""A win valued from its tiles asks the hand calculator with a configuration made once per thread
and set of flags, not once per win (issue 36), and is valued as with a fresh one.

``mahjong``'s ``HandConfig`` builds its sixty yaku objects each time it is made, and the calculator
writes the dora counts on them as it values a hand: a configuration used before for other hands
must value the next one as a fresh one would (the counts of the hand before never leak), and two
threads (the web's recording service values hands too) must not share one.
"""

from __future__ import annotations

import threading
from typing import Any

import attrs
import pytest
from riichienv_games import riichienv_game

import replay.formats.valuation as valuation
from domain.values import WinFacts
from replay.formats.mjai import read_hands
from replay.formats.valuation import TileReading, WinContext, read_tiles, value_from_tiles
from replay.input.tiles import MeldTiles


def fresh(ctx: WinContext, monkeypatch: pytest.MonkeyPatch) -> TileReading:
    """The reading with a configuration made for this win alone (as before issue 36)."""
    with monkeypatch.context() as patch:
        patch.setattr(valuation, "_hand_config", valuation._new_hand_config)
        return read_tiles(ctx)


def ron(concealed: str, win: str, **flags: Any) -> WinContext:
    given: dict[str, Any] = {"dora_markers": (), "ura_markers": (), **flags}
    return WinContext(
        concealed=tuple(concealed.split()), melds=(), win_tile=win, self_drawn=False, seat_wind=1, round_wind=0, **given
    )


# Riichi, with three dora, a red five and two ura dora; then hands of the same flags with none.
LOADED = ron(
    "2m 3m 4m 5pr 6p 7p 3s 3s 3s 6s 7s 8s 9p 9p",
    "9p",
    riichi=True,
    dora_markers=("2s", "8p"),
    ura_markers=("8p",),
)
BARE = ron("2m 3m 4m 5p 6p 7p 3s 3s 3s 6s 7s 8s 9p 9p", "9p", riichi=True)
OPEN = WinContext(
    concealed=("2m", "3m", "4m", "5p", "6p", "7p", "6s", "7s", "8s", "9p", "9p"),
    melds=(MeldTiles("pon", ("P", "P", "P"), "P"),),
    win_tile="9p",
    self_drawn=True,
    seat_wind=0,
    round_wind=0,
    dora_markers=("1m",),
    ura_markers=(),
    facts=WinFacts(last_tile=True),
)


def test_a_configuration_used_before_values_the_next_hand_as_a_fresh_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(valuation, "_configs", threading.local())
    for ctx in (LOADED, BARE, OPEN, LOADED, OPEN, BARE, BARE):
        reading = read_tiles(ctx)
        assert reading == fresh(ctx, monkeypatch)
        assert repr(reading) == repr(fresh(ctx, monkeypatch))
    # The dora of the first hand are not counted in the second (same flags, same configuration).
    assert read_tiles(LOADED).details.dora > 0
    assert read_tiles(BARE).details.dora == read_tiles(BARE).details.ura == read_tiles(BARE).details.red == 0


def test_one_configuration_is_made_per_set_of_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(valuation, "_configs", threading.local())
    made: list[object] = []
    new = valuation._new_hand_config

    def counted(key: Any) -> Any:
        made.append(key)
        return new(key)

    monkeypatch.setattr(valuation, "_new_hand_config", counted)
    for _ in range(3):
        read_tiles(LOADED)
        read_tiles(BARE)
        value_from_tiles(OPEN)
    # LOADED and BARE share their flags (riichi, a ron in the same seat); OPEN has its own.
    assert len(made) == 2


def test_two_threads_do_not_share_a_configuration() -> None:
    flags = dict.fromkeys(("tsumo", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei"), False)
    flags |= {"tenhou": False, "chiihou": False, "kita": 0, "three_players": False}
    key = valuation._ConfigKey(riichi=True, seat_wind=28, round_wind=27, red_fives=True, **flags)
    here = valuation._hand_config(key)
    assert valuation._hand_config(key) is here
    there: list[object] = []
    thread = threading.Thread(target=lambda: there.append(valuation._hand_config(key)))
    thread.start()
    thread.join(timeout=30)
    assert there and there[0] is not here


def test_every_win_of_fresh_games_is_valued_as_with_a_fresh_configuration(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("riichienv")
    asked: list[WinContext] = []
    read = valuation._read

    def kept(ctx: WinContext, *, counted: bool) -> Any:
        asked.append(ctx)
        return read(ctx, counted=counted)

    monkeypatch.setattr(valuation, "_read", kept)
    for mode, seed in (("4p-red-half", 0), ("4p-red-half", 1), ("3p-red-half", 2)):
        read_hands(riichienv_game(mode, seed), file=f"{mode}-{seed}.jsonl")
    monkeypatch.setattr(valuation, "_read", read)
    assert len(asked) >= 10
    # In the order verify valued them (each configuration used before by other wins), then again.
    shared = [read_tiles(ctx) for ctx in asked]
    assert [repr(r) for r in shared] == [repr(fresh(ctx, monkeypatch)) for ctx in asked]


def test_a_thread_keeps_a_bounded_number_of_configurations(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(valuation, "_configs", threading.local())
    monkeypatch.setattr(valuation, "_MOST_CONFIGS", 2)
    for ctx in (LOADED, OPEN, attrs.evolve(LOADED, ippatsu=True), LOADED):
        read_tiles(ctx)
        assert len(valuation._configs.made) <= 2
    assert read_tiles(LOADED) == fresh(LOADED, monkeypatch)
