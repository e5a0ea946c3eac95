"""The table page for thumbs, in the system's Chromium on a phone (issue 25).

The taps are counted in the page (each trusted pointer-down), on a 390 x 844 and a 360 x 740 phone,
with no scrolling: a ron with han and fu and one riichi in 5, a tsumo in 4 at most, an exhaustive
draw in 4, each with its record tap; what they record is what the command line records for the same
results. The numbers are the published riichi score table's (a non-dealer's 3 han 30 fu ron 3,900, a
2 han 30 fu tsumo 500/1,000) and the seeds' noten payment (3,000 split between the ready and the not
ready). Skipped when /usr/bin/chromium is absent; every wait is bounded, nothing is timed.
Set ``HONBA_SCREENSHOTS=1`` to write the table page's screenshots into docs/screenshots/.
"""

from __future__ import annotations

import json
import os
import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from honba_cli import ok
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect
from playwright_support import (
    CHROMIUM,
    PHONES,
    broken_numbers,
    overflow,
    phone,
    readable,
    readable_on_every_phone,
    small_targets,
    taps,
)
from web_support import PLAYERS, prepare, serving

from replay.service.recording import clock, recording
from replay.service.recording import table as table_service
from replay.service.recording.recording import server_time
from replay.store.application import HonbaApp
from replay.web.app import create_app

DOCS = Path(__file__).resolve().parents[2] / "docs"
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install chromium)")


def cli_ledger(db: str, key: str) -> list[dict[str, Any]]:
    hands: list[dict[str, Any]] = json.loads(ok(db, "log", key, "--json"))["hands"]
    return hands


def button(page: Any, name: str, value: str) -> Any:
    """The button (a label drawn around a radio or a checkbox) of a field's value."""
    return page.locator(f'#entry label.pick:has(input[name="{name}"][value="{value}"])')


def tap(page: Any, target: Any) -> None:
    """Tap a target that is on the screen as it stands: no scrolling to reach it."""
    box = target.bounding_box()
    viewport = page.viewport_size
    assert box is not None, "the target is not shown"
    assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], f"off the first screen: {box}"
    target.tap()


def tap_on_every_phone(page: Any, target: Any) -> None:
    """Tap a target that is on the first screen of every phone of ``PHONES`` as the page stands: the
    same page laid out on each in turn (no scrolling to reach it on any), then tapped on the last. The
    phone the page is laid out for comes first, so a tap costs one change of viewport (each costs
    Chromium a layout of the page)."""
    own = page.viewport_size
    current = (own["width"], own["height"])
    for width, height in sorted(PHONES.values(), key=lambda size: size != current):
        if (width, height) != current:
            page.set_viewport_size({"width": width, "height": height})
        box = target.bounding_box()
        assert box is not None, "the target is not shown"
        shown = box["y"] >= 0 and box["y"] + box["height"] <= height
        assert shown, f"off the first screen of a {width} x {height} phone: {box}"
    target.tap()


def record(page: Any, expected: str, *, every_phone: bool = False) -> None:
    """Tap Record once the confirm step on the page says ``expected`` (Record on the first screen of
    the page as it stands, or of every phone of ``PHONES`` with ``every_phone``)."""
    expect(page.locator("#confirm-lines")).to_contain_text(expected)
    expect(page.locator("#record")).to_be_enabled()
    with page.expect_navigation():
        (tap_on_every_phone if every_phone else tap)(page, page.locator("#record"))
    assert page.locator("#entry, #result").count() == 1, page.content()
    assert page.locator("#confirm-lines .error").count() == 0, page.inner_text("#confirm-lines")


def test_a_ron_takes_five_taps_a_tsumo_three_and_a_draw_four_with_no_scroll(browser: Any, db: str) -> None:
    (token,) = prepare(db, {"web": PLAYERS, "cli": PLAYERS}, [("table", "web")])
    clocked(db, "web", 60, timedelta(minutes=17))  # a table on the clock (nothing runs out here)
    with serving(create_app(db)) as base:
        # One page on the smaller phone, each target checked on the first screen of both before its tap.
        page = phone(browser, PHONES["360x740"])
        page.goto(f"{base}/matches/web?token={token}")
        taps(page)
        # A ron with han and fu and one riichi: winner, discarder, the value, the riichi, record.
        for name, value in (("winner", "Ben"), ("discarder", "Ann"), ("value", "3/30"), ("riichi", "Ben")):
            tap_on_every_phone(page, button(page, name, value))
        expect(page.locator("#confirm-lines")).to_contain_text("Ann pays Ben 3,900")
        screenshot(page, "table-phone.png", PHONES["390x844"])
        record(page, "Ann pays Ben 3,900", every_phone=True)
        assert taps(page) == (5, False)
        ok(db, "win", "cli", "Ben:3/30", "--from", "Ann", "--riichi", "Ben")
        # A tsumo (self-drawn is the default): winner, the value, record.
        for name, value in (("winner", "Cho"), ("value", "2/30")):
            tap_on_every_phone(page, button(page, name, value))
        record(page, "Ann pays Cho 500", every_phone=True)
        assert taps(page) == (3, False)
        ok(db, "win", "cli", "Cho:2/30")
        # An exhaustive draw with two ready (each not ready pays 750 to each ready): the draw, the two ready, record.
        for name, value in (("kind", "draw"), ("ready", "Ann"), ("ready", "Cho")):
            tap_on_every_phone(page, button(page, name, value))
        record(page, "Ben pays Ann 750 noten payment", every_phone=True)
        assert taps(page) == (4, False)
        ok(db, "draw", "cli", "--ready", "Ann,Cho")
        readable_on_every_phone(page)
    web, by_cli = cli_ledger(db, "web"), cli_ledger(db, "cli")
    assert len(web) == 3
    assert web == by_cli
    assert web[0]["changes"] == {"Ann": -3900, "Ben": 3900, "Cho": 0, "Dai": 0}  # the stick back to Ben
    # The deal passed to Ben: Cho's 2 han 30 fu tsumo takes 500 from each non-dealer, 1,000 from Ben.
    assert web[1]["changes"] == {"Ann": -500, "Ben": -1000, "Cho": 2000, "Dai": -500}


def test_several_winners_dora_and_kongs_are_in_the_more_panel(browser: Any, db: str) -> None:
    (token,) = prepare(db, {"web": PLAYERS, "cli": PLAYERS}, [("table", "web")])
    with serving(create_app(db)) as base:
        page = phone(browser, PHONES["360x740"])
        page.goto(f"{base}/matches/web?token={token}")
        for name, value in (("winner", "Ben"), ("discarder", "Ann"), ("value", "2/30")):
            tap(page, button(page, name, value))
        page.locator("#more > summary").tap()
        page.locator('#more input[name="dora"]').fill("1")
        page.locator("#winner2 > summary").tap()
        button(page, "winner2", "Dai").tap()
        page.locator('#more input[name="value2"]').fill("mangan")
        readable(page)
        record(page, "Ann pays Dai 8,000")
        ok(db, "win", "cli", "Ben:2/30", "Dai:mangan", "--from", "Ann", "--dora", "Ben:1")
        button(page, "kind", "abort").tap()
        button(page, "abort", "four_kongs").tap()
        for i, name in enumerate(("Ann", "Ben", "Ann", "Cho")):
            page.locator('select[name="kongs"]').nth(i).select_option(name)
        readable(page)
        record(page, "four kongs")
        ok(db, "abort", "cli", "four_kongs", "--kongs", "Ann,Ben,Ann,Cho")
    web, by_cli = cli_ledger(db, "web"), cli_ledger(db, "cli")
    assert [h["fact"] for h in web] == [h["fact"] for h in by_cli]
    assert len(web) == 2


def test_a_double_ron_takes_six_taps_the_second_value_from_the_same_buttons(browser: Any, db: str) -> None:
    """Ben 3 han 30 fu and Dai mangan on Ann's discard: Ben won, Ann from, 3/30, Dai won, mangan,
    Record. A non-dealer's 3 han 30 fu ron is 3,900 and a non-dealer's mangan 8,000 (the riichi
    score table); the same entry from the command line records the same facts."""
    (token,) = prepare(db, {"web": PLAYERS, "cli": PLAYERS}, [("table", "web")])
    with serving(create_app(db)) as base:
        page = phone(browser, PHONES["360x740"])  # each target checked on both phones' first screen
        page.goto(f"{base}/matches/web?token={token}")
        taps(page)
        for name, value in (("winner", "Ben"), ("discarder", "Ann"), ("value", "3/30"), ("winner", "Dai")):
            tap_on_every_phone(page, button(page, name, value))
        # Ben stays the first winner; Dai is marked as the second.
        expect(page.locator('#entry input[name="winner"][value="Ben"]')).to_be_checked()
        expect(button(page, "winner", "Dai")).to_have_class(re.compile(r"\bsecond\b"))
        tap_on_every_phone(page, button(page, "value", "mangan"))
        expect(page.locator('#entry input[name="value"][value="3/30"]')).to_be_checked()
        expect(page.locator("#confirm-lines")).to_contain_text("Ann pays Ben 3,900")
        record(page, "Ann pays Dai 8,000", every_phone=True)
        assert taps(page) == (6, False)
        ok(db, "win", "cli", "Ben:3/30", "Dai:mangan", "--from", "Ann")
        # A tap on the second winner again takes it back: a single ron is recorded.
        for name, value in (("winner", "Cho"), ("discarder", "Ben"), ("value", "1/30"), ("winner", "Ann")):
            tap_on_every_phone(page, button(page, name, value))
        tap_on_every_phone(page, button(page, "winner", "Ann"))
        expect(button(page, "winner", "Ann")).not_to_have_class(re.compile(r"\bsecond\b"))
        record(page, "Ben pays Cho 1,000", every_phone=True)
        ok(db, "win", "cli", "Cho:1/30", "--from", "Ben")
        readable_on_every_phone(page)
    web, by_cli = cli_ledger(db, "web"), cli_ledger(db, "cli")
    assert [h["fact"] for h in web] == [h["fact"] for h in by_cli]
    assert web[0]["changes"] == {"Ann": -11900, "Ben": 3900, "Cho": 0, "Dai": 8000}


def test_without_javascript_the_page_is_a_plain_form_with_a_confirm_page(browser: Any, db: str) -> None:
    (token,) = prepare(db, {"web": PLAYERS}, [("table", "web")])
    with serving(create_app(db)) as base:
        page = phone(browser, PHONES["360x740"], script=False)
        page.goto(f"{base}/matches/web?token={token}")
        for name, value in (("winner", "Ben"), ("discarder", "Ann"), ("value", "3/30"), ("riichi", "Ben")):
            button(page, name, value).tap()
        expect(page.locator("#record")).to_have_text("Show payments")
        page.locator("#record").tap()
        page.wait_for_selector("#confirm")
        assert "Ann pays Ben 3,900" in page.inner_text("#preview")
        readable(page)
        page.locator("#confirm").tap()
        page.wait_for_selector("#ledger")
        assert "Ben ron on Ann: 3 han 30 fu; riichi: Ben" in page.inner_text("#ledger")
        # A value typed (without scripts, in the box before the buttons) is recorded as typed.
        button(page, "winner", "Cho").tap()
        page.locator('input[name="value"]:not([type="radio"])').fill("4/30")
        page.locator("#record").tap()
        page.wait_for_selector("#confirm")
        assert "Cho tsumo: 4 han 30 fu" in page.inner_text("#preview")
        page.locator("#confirm").tap()
        page.wait_for_selector("#ledger")
    (first, second) = cli_ledger(db, "web")
    assert first["changes"] == {"Ann": -3900, "Ben": 3900, "Cho": 0, "Dai": 0}
    assert "Cho tsumo: 4 han 30 fu" in second["result"]


# A closed hand won on 3s: 234m 456p 678s 45s+3s 22p: riichi, all simples, pinfu: 3 han 30 fu.
PINFU_TANYAO = {"hand": "234m456p678s345s22p", "win_tile": "3s"}


def test_the_tiles_give_han_fu_and_yaku_and_a_value_tapped_that_differs_wins_with_a_warning(
    browser: Any, db: str
) -> None:
    (token,) = prepare(db, {"web": PLAYERS}, [("table", "web")])
    with serving(create_app(db)) as base:
        page = phone(browser, PHONES["390x844"])
        page.goto(f"{base}/matches/web?token={token}")
        taps(page)
        for name, value in (("winner", "Ben"), ("discarder", "Ann"), ("riichi", "Ben")):
            tap(page, button(page, name, value))
        # The tile keys show without a tap (riichi rules). The hand typed with the tile keys, the winning tile typed.
        for key in ("2m", "3m", "4m", "4p", "5p", "6p", "6s", "7s", "8s", "3s", "4s", "5s", "2p", "2p"):
            page.locator(f'#tile-keys button[data-tile="{key}"]').tap()
        assert page.locator('input[name="hand"]').input_value() == "234m456p678345s22p"
        # The last tile tapped is the winning tile until one is typed.
        assert page.locator('input[name="win_tile"]').input_value() == "2p"
        page.locator('input[name="win_tile"]').fill("3s")
        expect(page.locator("#confirm-lines")).to_contain_text("From the tiles: 3 han 30 fu")
        expect(page.locator("#confirm-lines")).to_contain_text("平和 1")
        # The tiles filled the value.
        expect(page.locator('input[name="value"][value="3/30"]')).to_be_checked()
        readable(page)
        screenshot(page, "table-phone-tiles.png")
        record(page, "Ann pays Ben 3,900")
        # The yaku kept with the win, in the ledger (named as Tenhou's viewer names them).
        assert "Ben: 立直 1, 平和 1, 断幺九 1" in page.inner_text("#ledger")
        # The same hand with 4 han 30 fu tapped: the value tapped is recorded, with the warning shown.
        # The tiles panel is open again at the next hand.
        for name, value in (("winner", "Ben"), ("discarder", "Ann"), ("value", "4/30")):
            tap(page, button(page, name, value))
        expect(page.locator("#tiles")).to_have_attribute("open", "")
        page.locator('input[name="hand"]').fill(PINFU_TANYAO["hand"])
        page.locator('input[name="win_tile"]').fill(PINFU_TANYAO["win_tile"])
        # Without riichi the tiles give 2 han 30 fu; the 4 han 30 fu tapped is recorded, with the warning.
        expect(page.locator("#confirm-lines .warning")).to_contain_text("4 han 30 fu is recorded")
        # Ben deals now: a dealer's 4 han 30 fu ron is 11,600.
        record(page, "Ann pays Ben 11,600")
    first, second = cli_ledger(db, "web")
    assert first["changes"]["Ben"] == 3900
    assert [y["name"] for y in first["log_details"][0]["yaku"]] == ["立直", "平和", "断幺九"]
    assert second["changes"]["Ben"] == 11600


def test_a_hand_by_tiles_takes_seventeen_taps_from_the_first_hand(browser: Any, db: str) -> None:
    """Ben's hand 234m 456p 678s 345s 2p, won on the second 2p from Ann, tapped: winner, discarder,
    the 14 tiles (the last the winning tile), Record: 17 taps for the first hand and the next (issue
    33), since the tile keys of a table under riichi rules show without a tap. All simples on a pair
    wait (not pinfu): 1 han 40 fu, a non-dealer's ron 1,300, a dealer's 2,000 (the riichi score
    table)."""
    (token,) = prepare(db, {"web": PLAYERS}, [("table", "web")])
    hand = ("2m", "3m", "4m", "4p", "5p", "6p", "6s", "7s", "8s", "3s", "4s", "5s", "2p", "2p")
    with serving(create_app(db)) as base:
        page = phone(browser, PHONES["360x740"])
        page.goto(f"{base}/matches/web?token={token}")
        taps(page)
        for _hand in range(2):
            expect(page.locator("#tiles")).to_have_attribute("open", "")
            for name, value in (("winner", "Ben"), ("discarder", "Ann")):
                tap(page, button(page, name, value))
            for key in hand:
                page.locator(f'#tile-keys button[data-tile="{key}"]').tap()
            expect(page.locator("#confirm-lines")).to_contain_text("From the tiles: 1 han 40 fu")
            record(page, "Ann pays Ben")
            assert taps(page)[0] == 17
        # A phone that closes the panel finds it closed at the next load; the tile keys are then a tap away.
        page.locator("#tiles > summary").tap()
        page.reload()
        expect(page.locator("#tiles")).not_to_have_attribute("open", "")
    first_hand, second_hand = cli_ledger(db, "web")
    assert first_hand["changes"]["Ben"] == 1300
    assert [y["name"] for y in first_hand["log_details"][0]["yaku"]] == ["断幺九"]
    # Ben deals now (a non-dealer's win passes the deal, no counter): a dealer's 1 han 40 fu ron.
    assert second_hand["changes"]["Ben"] == 2000


def clocked(db: str, key: str, minutes: int, started_ago: timedelta, now: datetime | None = None) -> None:
    app = HonbaApp.open(db)
    try:
        clock.set_time_limit(app, key, minutes)
        clock.start_clock(app, key, at=(now or server_time()) - started_ago)
    finally:
        app.close()


# True once the clock shows at least ``floor`` seconds left (m:ss left).
SHOWS_AT_LEAST = """(floor) => {
  const [m, s] = document.getElementById("clock").textContent.split(" ")[0].split(":").map(Number);
  return m * 60 + s >= floor;
}"""


def seconds_left(page: Any) -> int:
    minutes, _, rest = page.inner_text("#clock").removesuffix(" left").partition(":")
    return int(minutes) * 60 + int(rest)


def test_the_clock_counts_down_from_the_servers_time_not_the_phones(
    browser: Any, db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The server's clock stands still (the app is served in this process), the phone's runs only
    # when the test moves it: every number shown is exact, whatever the machine's speed.
    now = server_time().replace(microsecond=0)  # whole seconds, as a moment is stored (domain.clock)
    monkeypatch.setattr(clock, "server_time", lambda: now)
    monkeypatch.setattr(table_service, "server_time", lambda: now)
    monkeypatch.setattr(recording, "server_time", lambda: now)
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    clocked(db, "t1", 60, timedelta(minutes=10), now)
    with serving(create_app(db)) as base:
        page = phone(browser, PHONES["360x740"])
        # The phone's own clock is a year off: the page counts from what the server sent.
        phone_time = now - timedelta(days=365)
        page.clock.install(time=phone_time)
        page.clock.pause_at(phone_time + timedelta(seconds=1))
        page.goto(f"{base}/matches/t1?token={token}")
        first = seconds_left(page)
        assert first == 50 * 60
        page.clock.run_for(3_000)  # three seconds pass on the phone
        assert seconds_left(page) == first - 3
        # A minute on the phone but no time on the server: the page takes the server's time again
        # and shows it. Without the server's answer it would show a minute less, and stay so. The
        # page asks at its minute's last moment, so that no second of the phone's passes after the
        # answer (an answer that came while the phone's minute still ran was then counted down from).
        page.clock.run_for(56_000)
        with page.expect_response(lambda answer: answer.url.split("?")[0].endswith("/clock")):
            page.clock.run_for(1_000)
        page.wait_for_function(SHOWS_AT_LEAST, arg=first, polling=100)
        assert seconds_left(page) == first


def test_time_up_shows_the_hands_left_and_the_confirm_step_says_the_match_ends(browser: Any, db: str) -> None:
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    clocked(db, "t1", 60, timedelta(minutes=61))
    with serving(create_app(db)) as base:
        page = phone(browser, PHONES["360x740"])
        page.goto(f"{base}/matches/t1?token={token}")
        # Tenhou's rules: the hand in play is the last (hands_after_time 0).
        expect(page.locator("#clock")).to_have_text("time is up: this hand is the last")
        for name, value in (("winner", "Ben"), ("discarder", "Ann"), ("value", "mangan")):
            tap(page, button(page, name, value))
        expect(page.locator("#confirm-lines .ends")).to_have_text("Recording this ends the match (time up).")
        record(page, "Ann pays Ben 8,000")
        assert "finished" in page.inner_text("#state")
        # The finished table shows each player's final points and uma.
        result = page.locator("#result")
        expect(result).to_be_visible()
        readable(page)
        screenshot(page, "table-phone-finished.png")
        rows = [r.split("\t") for r in result.locator("tbody tr").all_inner_texts()]
    status = json.loads(ok(db, "status", "t1", "--json"))
    assert status["end_reason"] == "time_up"
    shown = {row[1]: float(row[-1]) for row in rows}
    assert shown == {p: round(v, 1) for p, v in status["final_points"].items()}
    assert [row[1] for row in rows] == ["Ben", "Cho", "Dai", "Ann"]


# The confirm step's lines that are not wholly on the screen, and whether the lines scroll in a box
# of their own (every line must show: the deposits, the end of the match are the ones that matter).
HIDDEN_LINES = """() => {
  const lines = document.getElementById("confirm-lines");
  const hidden = [...lines.children].filter(p => {
    const box = p.getBoundingClientRect();
    return box.top < 0 || box.bottom > innerHeight + 0.5;
  }).map(p => p.textContent);
  return {hidden, scrolls: lines.scrollHeight > lines.clientHeight + 1};
}"""


def test_the_confirm_step_shows_every_line_with_the_record_button_on_the_first_screen(browser: Any, db: str) -> None:
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    ok(db, "draw", "t1", "--ready", "Ben", "--riichi", "Ben")  # a deposit and a counter on the table
    clocked(db, "t1", 60, timedelta(minutes=61))
    with serving(create_app(db)) as base:
        page = phone(browser, PHONES["360x740"])
        page.goto(f"{base}/matches/t1?token={token}")
        taps(page)
        for name, value in (("winner", "Cho"), ("discarder", "Ann"), ("value", "3/30"), ("riichi", "Cho")):
            tap(page, button(page, name, value))
        expect(page.locator("#confirm-lines .ends")).to_have_text("Recording this ends the match (time up).")
        expect(page.locator("#confirm-lines")).to_contain_text("deposits")
        found = page.evaluate(HIDDEN_LINES)
        assert found == {"hidden": [], "scrolls": False}, page.inner_text("#confirm-lines")
        record(page, "deposits")
        assert taps(page) == (5, False)
        assert "finished" in page.inner_text("#state")


# The names of a row of buttons broken inside a word, or wider than their button.
BROKEN_NAMES = """(selector) => {
  const broken = [];
  for (const face of document.querySelectorAll(selector + " .face")) {
    const t = face.querySelector(".t"), text = t.firstChild, outer = face.getBoundingClientRect();
    const inner = t.getBoundingClientRect();
    if (inner.left < outer.left - 0.5 || inner.right > outer.right + 0.5) broken.push("wider: " + t.textContent);
    for (const word of text.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(text, word.index);
      range.setEnd(text, word.index + word[0].length);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
      if (tops.size > 1) broken.push("broken: " + word[0]);
    }
  }
  return broken;
}"""


def test_more_winners_buttons_break_names_between_words_only(browser: Any, db: str) -> None:
    players = ("Ann", "Maximiliane Wolkenstein-Oberhausen", "Player024", "Dai")
    (token,) = prepare(db, {"t1": players}, [("table", "t1")])
    with serving(create_app(db)) as base:
        page = phone(browser, PHONES["360x740"])
        page.goto(f"{base}/matches/t1?token={token}")
        page.locator("#more > summary").tap()
        for panel in ("#winner2", "#winner3"):
            page.locator(f"{panel} > summary").tap()
            assert page.evaluate(BROKEN_NAMES, f"{panel} .grid4") == []
        readable(page)


def test_undo_says_which_entry_it_takes_back_and_the_entry_stays_struck_through(browser: Any, db: str) -> None:
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    ok(db, "win", "t1", "Ben:3/30", "--from", "Ann")
    ok(db, "win", "t1", "Cho:mangan", "--from", "Dai")
    with serving(create_app(db)) as base:
        page = phone(browser, PHONES["360x740"])
        page.goto(f"{base}/matches/t1?token={token}")
        expect(page.locator("#undo")).to_have_text("Undo entry 3 (E2-0)")
        page.locator("#undo").tap()
        page.wait_for_selector("#confirm")
        assert page.inner_text("#preview") == (
            "Undo entry 3 (E2-0): Cho ron on Dai: mangan: it stays in the ledger, struck through"
        )
        page.locator("#confirm").tap()
        page.wait_for_selector("#ledger")
        entries = page.locator("#ledger > li")
        expect(entries).to_have_count(3)
        assert [e.get_attribute("data-entry") for e in entries.all()] == ["2", "3", "4"]
        struck = page.locator('#ledger > li[data-entry="3"] s')
        expect(struck).to_have_text("Cho ron on Dai: mangan")
        expect(page.locator('#ledger > li[data-entry="4"]')).to_contain_text("entry 3 taken back")
        readable(page)


def test_a_page_whose_link_was_issued_again_says_so_at_the_next_tap_and_on_reload(browser: Any, db: str) -> None:
    # It said "The server did not answer (403): try again." and, reloaded, showed no form and no word why.
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    said = "this table's link was issued again: this one no longer enters results (ask the director for the new link)"
    with serving(create_app(db)) as base:
        page = phone(browser, PHONES["360x740"])
        page.goto(f"{base}/matches/t1?token={token}")
        ok(db, "token", "reissue", "--match", "t1")
        tap(page, button(page, "kind", "draw"))
        expect(page.locator("#confirm-lines .error")).to_have_text(said)
        expect(page.locator("#record")).to_be_disabled()
        page.reload()
        expect(page.locator("#replaced")).to_have_text(said[0].upper() + said[1:] + ".")
        assert page.locator("#entry").count() == 0
        readable(page)


VIEWPORT = '<meta name="viewport" content="width=device-width, initial-scale=1">'


def test_every_state_of_the_table_page_reads_on_a_360_px_phone(browser: Any, db: str) -> None:
    """No horizontal scrolling, no number broken, every target 44 x 44 px: the page read-only and with
    its form, each kind of entry, every panel open, a ledger of big and negative numbers, a long name,
    the confirm page, the finished page."""
    players = ("Ann", "Ben", "Alexandra-Konstantinopoulou", "Dai")
    (token,) = prepare(db, {"t1": players}, [("table", "t1")])
    clocked(db, "t1", 90, timedelta(minutes=1))
    ok(db, "win", "t1", "Ben:baiman", "--from", "Ann")
    ok(db, "win", "t1", "Alexandra-Konstantinopoulou:3/30", "--from", "Ann", "--riichi", "Dai")
    ok(db, "penalty", "t1", "Dai", "--amount", "12000")
    ok(db, "undo", "t1", "--by", "table", "--reason", "undo")
    ok(db, "draw", "t1", "--ready", "Ann", "--nagashi", "Ann")
    with serving(create_app(db)) as base:
        page = phone(browser, PHONES["360x740"])
        page.goto(f"{base}/matches/t1")
        readable(page)
        page.goto(f"{base}/matches/t1?token={token}")
        readable(page)
        for kind in ("draw", "abort", "penalty", "win"):
            button(page, "kind", kind).tap()
            readable(page)
        for panel in ("#more", "#winner2", "#winner3", "#tiles", "#more .by-field", "#end-form"):
            page.locator(f"{panel} > summary").first.tap()
        readable(page)
        page.locator("#undo").tap()
        page.wait_for_selector("#confirm")
        readable(page)


def test_the_number_check_catches_a_number_broken_over_two_lines(browser: Any) -> None:
    page = phone(browser, PHONES["360x740"])
    page.set_content(
        VIEWPORT + '<table style="width:30px"><tr><td style="overflow-wrap:anywhere">+27,300</td></tr></table>'
    )
    assert broken_numbers(page) == ["+27,300 in: +27,300"]
    page.set_content(
        VIEWPORT + '<p style="width:30px">abc1234def</p><p><span style="white-space:nowrap">+27,300</span></p>'
    )
    assert broken_numbers(page) == []
    # A table link's address whose token's id happens to be all digits: an address, not a number.
    link = "http://127.0.0.1:8000/matches/Spring%20Open-s1-t4?token=358527558168.pT_wTFE2e9"
    page.set_content(VIEWPORT + f'<p style="width:90px;overflow-wrap:anywhere">in: {link}</p>')
    assert broken_numbers(page) == []
    page.set_content(VIEWPORT + '<p style="width:30px;overflow-wrap:anywhere">in: 358527558168.</p>')
    assert broken_numbers(page) == ["358527558168 in: in: 358527558168."]


def test_the_number_check_catches_a_clock_broken_and_on_request_a_header_word_but_passes_over_a_digest(
    browser: Any,
) -> None:
    page = phone(browser, PHONES["360x740"])
    narrow = "font:20px monospace;width:2ch;overflow-wrap:anywhere"  # two characters a line
    page.set_content(VIEWPORT + f'<p style="{narrow}">1:05</p>')
    assert broken_numbers(page) == ["1:05 in: 1:05"]
    # A header broken inside a word ("ra|nk") reads as two words: caught where the page asks for it
    # (the standings and the director's pages: ``header_words``), numbers only elsewhere.
    page.set_content(VIEWPORT + f'<table><tr><th style="{narrow}">rank</th><td>3</td></tr></table>')
    assert broken_numbers(page, header_words=True) == ["rank in: rank"]
    assert broken_numbers(page) == []
    # A digest is meant to break anywhere, even one of digits only; the same digits as text are a number.
    page.set_content(VIEWPORT + f'<p class="digest" style="{narrow}">2026</p><p style="{narrow}">2026</p>')
    assert broken_numbers(page) == ["2026 in: 2026"]


def test_the_number_check_catches_a_number_after_a_colon_or_a_comma_and_a_date_broken(browser: Any) -> None:
    page = phone(browser, PHONES["360x740"])
    narrow = "font:20px monospace;width:4ch;overflow-wrap:anywhere"  # four characters a line
    page.set_content(VIEWPORT + f'<p style="{narrow}">Score:25000</p>')
    assert broken_numbers(page) == ["25000 in: Score:25000"]
    page.set_content(VIEWPORT + f'<p style="{narrow}">[3,-1000]</p>')
    assert broken_numbers(page) == ["-1000 in: [3,-1000]"]
    page.set_content(VIEWPORT + f'<p style="{narrow}">2026-11-30</p>')
    assert broken_numbers(page) == ["2026-11-30 in: 2026-11-30"]


def test_the_target_check_catches_a_small_target_and_the_width_check_a_wide_page(browser: Any) -> None:
    page = phone(browser, PHONES["360x740"])
    page.set_content(VIEWPORT + '<button style="height:30px;padding:0">ok</button><div style="width:500px">x</div>')
    assert small_targets(page) and small_targets(page)[0].startswith('button "ok"')
    assert overflow(page) > 0


def test_the_target_check_lets_a_link_in_a_sentence_stay_small_but_not_a_link_or_button_alone(browser: Any) -> None:
    page = phone(browser, PHONES["360x740"])
    small = 'style="font-size:12px;line-height:14px"'
    page.set_content(
        VIEWPORT + f'<p {small}>Rated by <a href="#r">Ann</a> after 3 matches.</p>'  # inline: exempt
        f'<ul><li {small}><a href="#alone">alone</a></li></ul>'  # the only content of its item
        f'<p {small}><a href="#one">one</a> · <a href="#two">two</a></p>'  # links with a separator only
        f'<table><tr><td {small}><a href="#cell">cell</a></td><td>3</td></tr></table>'  # alone in its cell
        '<button style="font-size:12px;line-height:14px;padding:0">go</button>'
    )
    found = [target.split(" ")[1] for target in small_targets(page)]
    assert found == ['"alone"', '"one"', '"two"', '"cell"', '"go"']


def screenshot(page: Any, name: str, size: tuple[int, int] | None = None) -> None:
    """A screenshot of the page (laid out on a phone of that size, if given); written into
    docs/screenshots/ with ``HONBA_SCREENSHOTS=1``."""
    if os.environ.get("HONBA_SCREENSHOTS"):
        (DOCS / "screenshots").mkdir(exist_ok=True)
        shot = DOCS / "screenshots" / name
        own = page.viewport_size
        if size is not None:
            page.set_viewport_size({"width": size[0], "height": size[1]})
        page.screenshot(path=str(shot), full_page=False)
        page.set_viewport_size(own)
        assert shot.stat().st_size > 0


def test_an_answer_to_an_entry_since_changed_neither_fills_its_value_nor_lets_it_be_recorded(
    browser: Any, db: str
) -> None:
    """On a slow venue network the confirm step's answer for the hand as it stood (the tiles with 2p
    winning: 2 han 40 fu) may arrive after the winning tile was changed (3s: 3 han 30 fu) and
    before the page asks again: that answer is of an entry no longer on the page, so it neither
    fills the value nor enables Record (a tap then recorded the old value)."""
    (token,) = prepare(db, {"web": PLAYERS}, [("table", "web")])
    held: list[Any] = []
    with serving(create_app(db)) as base:
        page = phone(browser, PHONES["390x844"])
        page.route(f"{base}/matches/web/check", lambda route: held.append(route))
        page.goto(f"{base}/matches/web?token={token}")
        for name, value in (("winner", "Ben"), ("discarder", "Ann"), ("riichi", "Ben")):
            tap(page, button(page, name, value))
        page.locator('input[name="hand"]').fill("234m456p678345s22p")
        page.locator('input[name="win_tile"]').fill("2p")
        stale = asked_about(page, held, "win_tile=2p")
        page.locator('input[name="win_tile"]').fill("3s")
        # The answer about 2p arrives now, before the page asks about 3s (it waits 250 ms after typing).
        with page.expect_response(f"{base}/matches/web/check"):
            stale.continue_()
        page.evaluate("() => new Promise((done) => setTimeout(done, 20))")
        assert page.locator("#record").is_disabled()
        assert not page.locator('input[name="value"][value="2/40"]').is_checked()
        page.unroute(f"{base}/matches/web/check")
        for route in held[held.index(stale) + 1 :]:  # the earlier ones the page has given up on
            try:
                route.continue_()
            except PlaywrightError as exc:
                # A request the page has cancelled itself (a newer entry asked) is settled already.
                if "already handled" not in str(exc):
                    raise
        expect(page.locator("#confirm-lines")).to_contain_text("From the tiles: 3 han 30 fu")
        expect(page.locator('input[name="value"][value="3/30"]')).to_be_checked()


def asked_about(page: Any, held: list[Any], field: str) -> Any:
    """The held request of the page's confirm step whose entry has ``field`` (``win_tile=2p``), once
    the page has sent it (it asks 250 ms after the last keystroke)."""
    for _ in range(1200):  # a hang guard of a minute
        for route in held:
            if field in (route.request.post_data or "").split("&"):
                return route
        page.wait_for_timeout(50)
    raise AssertionError(f"the page never asked about {field}")
