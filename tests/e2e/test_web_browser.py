"""honba serve in a real browser: the system's Chromium driven by Playwright (never a downloaded build).

Skipped when /usr/bin/chromium is absent (``.ci/run`` installs it when it may). The server runs in a
thread on a free loopback port; every wait is bounded (Playwright's timeouts), nothing is timed.
What the pages say without a script (a table link refused at another match, the referee's amendment
form) is checked without a browser: tests/e2e/test_web.py, tests/e2e/test_web_desk.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from honba_cli import invoke
from playwright.sync_api import expect
from playwright_support import WAIT_MS
from web_support import PLAYERS, prepare, serving

from replay.service.tournaments.tournaments import change_tournament
from replay.store.application import HonbaApp
from replay.web.app import create_app

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install chromium)")


def new_page(browser: Any, *, phone: bool = False) -> Any:
    viewport = {"width": 390, "height": 844} if phone else {"width": 1280, "height": 900}
    # The table page's offline copy (its service worker) is tested in test_table_offline_browser.py;
    # here it would only fetch every page a second time (playwright_support.phone).
    context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone, service_workers="block")
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.on("dialog", lambda dialog: pytest.fail(f"a dialog opened: {dialog.message}"))
    return page


def enter(page: Any, link: str, fields: dict[str, Any]) -> None:
    """Enter one result through the table page as a player would: tap what happened (the kind, the
    winner, the discarder, the value, the riichi or ready), see the confirm step on the page, record."""
    page.goto(link)
    form = page.locator("#entry")

    def tap(name: str, value: str) -> None:
        form.locator(f'label.pick:has(input[name="{name}"][value="{value}"])').click()

    if fields["kind"] != "win":
        tap("kind", fields["kind"])
    for name in ("winner", "discarder", "player", "abort"):
        if name in fields:
            tap(name, str(fields[name]))
    value = fields.get("limit") or (f"{fields['han']}/{fields['fu']}" if "han" in fields else None)
    if value is not None:
        tap("value", value)
    for name in ("riichi", "ready", "nagashi"):
        for player in fields.get(name, ()):
            tap(name, player)
    expect(page.locator("#record")).to_be_enabled()
    with page.expect_navigation():
        page.locator("#record").click()
    page.wait_for_selector("#ledger")


def cli_ledger(db: str, key: str) -> list[dict[str, Any]]:
    result = invoke(["--db", db, "log", key, "--json"])
    assert result.exit_code == 0, result.output
    hands: list[dict[str, Any]] = json.loads(result.stdout)["hands"]
    return hands


def hanchan() -> list[tuple[dict[str, Any], list[str]]]:
    """Eight hands, East 1 to South 4, each (fields of the table page, the same result for the CLI):
    Ben wins 2 han 30 fu off Dai whenever he is not the dealer, Cho off Dai when he is; the deal
    passes every hand, and Ben ends above 30,000, so the match ends after South 4 (Tenhou's rules)."""
    hands = []
    for hand in range(8):
        dealer = PLAYERS[hand % 4]
        winner = "Cho" if dealer == "Ben" else "Ben"
        riichi = ["Ann"] if hand == 3 else []
        fields = {"kind": "win", "winner": winner, "discarder": "Dai", "han": "2", "fu": "30", "riichi": riichi}
        words = ["win", "cli", f"{winner}:2/30", "--from", "Dai", *(["--riichi", "Ann"] if riichi else [])]
        hands.append((fields, words))
    return hands


# The hands of the hanchan entered through the page: the first, the one with a riichi, and the last,
# which ends the match. The others are the same taps at another dealer (the ledger of a whole sequence
# of every kind of entry through the page's forms is test_web.py's, the taps of each kind
# test_table_browser.py's): they are recorded on both matches by the command line, for a second of
# Chromium's time each.
THROUGH_THE_PAGE = (0, 3, 7)


def test_a_hanchan_through_the_table_page_gives_the_cli_ledger_and_ends_on_the_page(browser: Any, db: str) -> None:
    (token,) = prepare(db, {"web": PLAYERS, "cli": PLAYERS}, [("table", "web")])
    with serving(create_app(db)) as base:
        page = new_page(browser, phone=True)
        link = f"{base}/matches/web?token={token}"
        for hand, (fields, words) in enumerate(hanchan()):
            if hand in THROUGH_THE_PAGE:
                enter(page, link, fields)
            else:
                result = invoke(["--db", db, words[0], "web", *words[2:]])  # the same, on "web"
                assert result.exit_code == 0, result.output
            result = invoke(["--db", db, *words])
            assert result.exit_code == 0, result.output
        assert "finished" in page.inner_text("#state")
    web, by_cli = cli_ledger(db, "web"), cli_ledger(db, "cli")
    assert len(web) == 8 + 1  # eight hands and the end
    assert web == by_cli


def attach(db: str, keys: list[str]) -> None:
    app = HonbaApp.open(db)
    try:

        def change(t: Any) -> None:
            for number, key in enumerate(keys, start=1):
                t.attach(key, PLAYERS, 1, number)

        change_tournament(app, "Open", change, create=True)
    finally:
        app.close()


def test_the_standings_page_changes_without_a_reload_while_another_browser_records(
    browser: Any, db: str, tmp_path: Path
) -> None:
    (token,) = prepare(db, {"t1": PLAYERS, "t2": PLAYERS}, [("table", "t1")])
    attach(db, ["t1", "t2"])
    with serving(create_app(db)) as base:
        watcher = new_page(browser)
        watcher.goto(f"{base}/tournaments/Open")
        watcher.evaluate("window.loadedOnce = 'yes'")  # gone if the page were loaded again
        watcher.locator("#live[data-position]").wait_for()  # the first event of the stream arrived
        in_progress = "t1 session 1: Ann, Ben, Cho, Dai in progress"
        assert in_progress in watcher.inner_text("#live")
        table = new_page(browser, phone=True)
        # A yakuman off Ann busts her: t1 ends and counts.
        enter(table, f"{base}/matches/t1?token={token}", {"kind": "win", "winner": "Ben", "discarder": "Ann",
                                                         "limit": "yakuman"})  # fmt: skip
        expect(watcher.locator("#live")).not_to_contain_text(in_progress, timeout=WAIT_MS)
        assert watcher.evaluate("window.loadedOnce") == "yes"
        rows = watcher.locator("#standings-table tbody tr")
        assert rows.first.inner_text().split("\t")[1] == "Ben"


def test_a_double_submitted_form_records_once(browser: Any, db: str) -> None:
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    with serving(create_app(db)) as base:
        # The page's own confirm step, tapped twice.
        page = new_page(browser, phone=True)
        page.goto(f"{base}/matches/t1?token={token}")
        for name, value in (("winner", "Ben"), ("discarder", "Ann"), ("value", "mangan")):
            page.locator(f'#entry label.pick:has(input[name="{name}"][value="{value}"])').tap()
        expect(page.locator("#record")).to_be_enabled()
        with page.expect_navigation():
            page.dblclick("#record")
        page.wait_for_selector("#ledger")
        # Without scripts: the confirm page tapped twice, then the back button and the same confirm again.
        plain = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False).new_page()
        plain.goto(f"{base}/matches/t1?token={token}")
        for name, value in (("winner", "Cho"), ("discarder", "Dai"), ("value", "mangan")):
            plain.locator(f'#entry label.pick:has(input[name="{name}"][value="{value}"])').click()
        plain.locator("#record").click()
        plain.wait_for_selector("#confirm")
        plain.dblclick("#confirm")
        plain.wait_for_selector("#ledger")
        plain.go_back()
        plain.wait_for_selector("#confirm")
        plain.click("#confirm")
        plain.wait_for_selector("#ledger")
    hands = cli_ledger(db, "t1")
    assert len(hands) == 2
    assert hands[0]["changes"] == {"Ann": -8000, "Ben": 8000, "Cho": 0, "Dai": 0}  # a non-dealer's mangan
    assert hands[1]["changes"] == {"Ann": 0, "Ben": 0, "Cho": 8000, "Dai": -8000}


def test_a_player_called_script_shows_as_text(browser: Any, db: str) -> None:
    name = "<script>alert(1)</script>"
    (token,) = prepare(db, {"t1": ("Ann", "Ben", name, "Dai")}, [("table", "t1")])
    with serving(create_app(db)) as base:
        page = new_page(browser)  # a dialog would fail the test
        enter(page, f"{base}/matches/t1?token={token}", {"kind": "win", "winner": name, "discarder": "Ann",
                                                         "limit": "mangan"})  # fmt: skip
        assert name in page.inner_text("#seats")
        assert name in page.inner_text("#ledger")
        # The page's one script is its own file; the name made none (the other script element is the
        # page's sentences for it, JSON that never runs).
        scripts = page.locator("script").all()
        assert [s.get_attribute("src") for s in scripts if s.get_attribute("type") is None] == ["/static/table.js"]
        assert [s.get_attribute("type") for s in scripts if s.get_attribute("src") is None] == ["application/json"]
