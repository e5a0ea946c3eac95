"""Issue 31: one table state. The state of a match (hand, dealer, counters where the rules use them,
deposits, the pending extra-hand bonus as seed 000 shows it, streaks, finished) is computed once in
the service (``replay.service.common.shapes.state_data``); ``honba status``'s text, its ``--json``, the
API and the table page render that value.

Seed 000: "The sum total of pending extra hand payments is shown on the status bar. Note that the
value indicates the total of the actual bonus without multiplying it with the number of losers.
Accordingly, in Japanese games the winner will always get three times the shown value, while in
Taiwanese games the value is multiplied by three only if East is the winner and goes out
self-drawn." Japanese rules: 100 a counter; Taiwanese: 2 an extra hand.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from domain.rules import load_preset
from domain.values import ExhaustiveDraw
from replay.cli.render import state_lines
from replay.service.recording import recording
from replay.service.recording.matches import status_data, table_data
from replay.store.application import HonbaApp
from replay.web.app import create_app

PLAYERS = ["Ann", "Ben", "Cho", "Dai"]


@pytest.fixture
def app() -> Iterator[HonbaApp]:
    application = HonbaApp.open(":memory:")
    yield application
    application.close()


def views(app: HonbaApp, key: str) -> tuple[dict[str, object], list[str]]:
    """The state as --json and the API give it, and as honba status says it."""
    match = app.get_match(key)
    data = status_data(key, match)
    # The API's and the table page's state is the same value.
    assert table_data(app, key)["state"] == {k: v for k, v in data.items() if k in table_data(app, key)["state"]}
    return data, state_lines(match.players, match.fold(), match.rules)


def test_after_a_dealer_ready_draw_the_bonus_is_pending_and_after_an_early_end_nothing_is(app: HonbaApp) -> None:
    recording.start_match(app, "m", PLAYERS, load_preset("tenhou"))
    recording.record(app, "m", ExhaustiveDraw(ready=(0,)))
    data, lines = views(app, "m")
    # Ann (the dealer) ready: one counter, 100 pending (the bonus itself, not 300).
    assert (data["counters"], data["extra_hand_bonus_pending"], data["finished"]) == (1, 100, False)
    assert "Extra-hand bonus pending: 100 (the winner gets 3 times it: from each loser self-drawn," in "\n".join(lines)
    recording.end(app, "m", "agreed")
    data, lines = views(app, "m")
    # Over: no hand is next, so nothing is pending, in the data and in the words alike.
    assert (data["extra_hand_bonus_pending"], data["finished"]) == (None, True)
    assert not any("bonus" in line for line in lines)


@pytest.mark.parametrize("preset", ["taiwanese", "japanese-classical"])
def test_rules_without_counters_show_none_anywhere(app: HonbaApp, preset: str) -> None:
    recording.start_match(app, "m", PLAYERS, load_preset(preset))
    recording.record(app, "m", ExhaustiveDraw(ready=(0,)))
    data, lines = views(app, "m")
    assert data["counters"] is None
    assert not any("Counters" in line for line in lines)


def test_taiwanese_says_three_times_only_to_east_self_drawn(app: HonbaApp) -> None:
    recording.start_match(app, "m", PLAYERS, load_preset("taiwanese"))
    recording.record(app, "m", ExhaustiveDraw(ready=(0,)))
    data, lines = views(app, "m")
    # The dealer held the deal: one extra hand, 2 pending (the bonus itself).
    assert data["extra_hand_bonus_pending"] == 2
    text = "\n".join(lines)
    assert "from every loser" not in text
    assert "East winning gets it from each loser self-drawn (3 times it), from the discarder alone" in text


def test_the_table_page_renders_the_one_state(tmp_path: Path) -> None:
    store_db = str(tmp_path / "store.sqlite")
    app = HonbaApp.open(store_db)
    try:
        recording.start_match(app, "tw", PLAYERS, load_preset("taiwanese"))
        recording.record(app, "tw", ExhaustiveDraw(ready=(0,)))
        recording.start_match(app, "jp", PLAYERS, load_preset("tenhou"))
        recording.record(app, "jp", ExhaustiveDraw(ready=(0,)))
    finally:
        app.close()
    with TestClient(create_app(store_db)) as client:
        page = client.get("/matches/tw").text
        state = page[page.index('id="state"') : page.index("</span></div>", page.index('id="state"'))]
        assert "counter" not in state
        assert 'extra-hand bonus <span class="num">2</span>' in state
        page = client.get("/matches/jp").text
        state = page[page.index('id="state"') : page.index("</span></div>", page.index('id="state"'))]
        assert '<span class="num">1</span> counter ' in state
        assert 'extra-hand bonus <span class="num">100</span>' in state
