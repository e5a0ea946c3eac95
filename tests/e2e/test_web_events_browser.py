"""The director's and the public's pages in a real browser (the system's Chromium through Playwright):
every page, loaded once, laid out at 360 and 390 px without the page scrolling sideways and without a
number or a table header's word broken inside (``playwright_support.broken_numbers``, the phone pages'
check, with ``header_words``); the standings page shows a table in progress with provisional points
and moves without a reload; the chart picks a line out on a tap. A reload of any director page loses
nothing: served again, it is the same page (read through the test client, on the module's day: what
it shows is the server's). Skipped without /usr/bin/chromium.

The day played (Tenhou's rules): 16 players in 4 teams, session 1 at 4 tables, all ended; session 2
at 4 tables: two ended, one at its second hand, one not started. Set ``HONBA_SCREENSHOTS=1`` to
write the screenshots into docs/screenshots.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import hv, ron, won
from playwright.sync_api import expect
from playwright_support import CHROMIUM, WAIT_MS, broken_numbers, overflow
from starlette.testclient import TestClient
from web_support import SIXTEEN, element_text, serving

from replay.html.pages import render_standings_html
from replay.html.ratings import render_ratings_html
from replay.service.common.access import TokenStore
from replay.service.director.director import seat_next
from replay.service.director.ratings import ratings_data
from replay.service.director.stages import join_team
from replay.service.recording import recording
from replay.service.tournaments.standings import caught_up_view, standings_data, tournament_report
from replay.service.tournaments.tournaments import create_tournament
from replay.store.application import HonbaApp
from replay.store.tournaments import get_tournament
from replay.web.app import create_app

DOCS = Path(__file__).resolve().parents[2] / "docs"
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium")
PLAYERS = SIXTEEN
PHONE_WIDTHS = (360, 390)
VALUES = [hv(3, 30), hv(limit="mangan"), hv(2, 40), hv(limit="haneman"), hv(4, 30), hv(1, 30)]


def new_page(browser: Any, width: int = 1280, phone: bool = False) -> Any:
    viewport = {"width": width, "height": 844 if phone else 900}
    context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
    context.set_default_timeout(WAIT_MS)
    page = context.new_page()
    page.on("dialog", lambda dialog: pytest.fail(f"a dialog opened: {dialog.message}"))
    return page


def play_table(app: HonbaApp, key: str, number: int, hands: int, end: bool) -> None:
    """A table's hands, each a win of its own value by the next seat on the one after it."""
    for hand in range(hands):
        winner = (number + hand) % 4
        value = VALUES[(number * 3 + hand) % len(VALUES)]
        recording.record(app, key, won(ron(winner, (winner + 1) % 4, value)))
    if end:
        recording.end(app, key, "time limit")


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The store of the module's day: its file, the director's token, the matches of session 2."""
    db = str(tmp_path_factory.mktemp("day") / "honba.sqlite")
    app = HonbaApp.open(db)
    try:
        tokens = TokenStore(app)
        director = tokens.create("director")
        create_tournament(app, "Spring Open", PLAYERS)
        for team in range(4):
            join_team(app, "Spring Open", f"Team {'NESW'[team]}", PLAYERS[team * 4 : team * 4 + 4])
        view = caught_up_view(app)
        seat_next(app, view, tokens, "Spring Open", director, method="random", seed=11)
        for table, key in get_tournament(app, "Spring Open").session_matches(1):
            play_table(app, key, int(table or 0), 3, end=True)
        view = caught_up_view(app)
        seat_next(app, view, tokens, "Spring Open", director, method="fewest-repeats", seed=5)
        second = [key for _table, key in get_tournament(app, "Spring Open").session_matches(2)]
        for number, key in enumerate(second[:3], start=1):
            play_table(app, key, number, 2 if number < 3 else 1, end=number < 3)
        view = caught_up_view(app)
        standings = standings_data(tournament_report(view, "Spring Open"))
        ratings = ratings_data(app, view, "openskill")
    finally:
        app.close()
    static = tmp_path_factory.mktemp("static")
    (static / "standings.html").write_text(render_standings_html(standings), encoding="utf-8")
    (static / "ratings.html").write_text(render_ratings_html(ratings), encoding="utf-8")
    return {"db": db, "director": director, "second": second, "static": static}


@pytest.fixture(scope="module")
def base(day: dict[str, Any]) -> Iterator[str]:
    with serving(create_app(day["db"])) as url:
        yield url


# The director's pages of the day (the token is added to each).
DIRECTOR_PAGES = (
    "/director",
    "/director/t/Spring%20Open",
    "/director/t/Spring%20Open/s/1",
    "/director/t/Spring%20Open/s/2",
)


def pages(day: dict[str, Any], base: str) -> list[str]:
    """Every page this module's area owns, as a phone would open them."""
    token = f"token={day['director']}"
    return [
        *(f"{base}{path}?{token}" for path in DIRECTOR_PAGES),
        f"{base}/tournaments/Spring%20Open",
        f"{base}/tournaments/Spring%20Open?after=1",
        f"{base}/tournaments/Spring%20Open/what-if?set=uma%3D%5B30%2C10%2C-10%2C-30%5D",
        f"{base}/ratings",
        f"{base}/ratings/players/Maximiliane%20Wolkenstein-Oberhausen",
        f"{base}/certificates/verify",
        (day["static"] / "standings.html").as_uri(),
        (day["static"] / "ratings.html").as_uri(),
    ]


def test_every_page_fits_a_phone_without_a_number_broken_inside(browser: Any, day: dict[str, Any], base: str) -> None:
    """Each page loaded once and checked at both phone widths (the viewport changed on the loaded page:
    the layout is what is checked, and a page load costs Chromium far more than a new layout)."""
    page = new_page(browser, PHONE_WIDTHS[0], phone=True)
    for url in pages(day, base):
        page.set_viewport_size({"width": PHONE_WIDTHS[0], "height": 844})
        page.goto(url)
        page.wait_for_load_state()
        for summary in page.locator("details > summary").all():
            if summary.is_visible():
                summary.click()  # what a closed part holds must fit too
        for width in PHONE_WIDTHS:
            page.set_viewport_size({"width": width, "height": 844})
            inner = page.evaluate("innerWidth")
            assert inner == width, f"{url}: the phone zoomed out to {inner} px"
            assert overflow(page) == 0, f"{url} at {width} px: the page scrolls sideways ({overflow(page)} px too wide)"
            broken = broken_numbers(page, header_words=True)
            assert broken == [], f"{url} at {width} px: numbers or header words broken inside: {broken}"
        if url == pages(day, base)[3]:
            screenshot(page, "director-session-phone.png")
        if url == pages(day, base)[1] and os.environ.get("HONBA_SCREENSHOTS"):
            page.set_viewport_size({"width": 1280, "height": 900})
            screenshot(page, "director.png")


LONG_NAME = "Maximilianehieronymuswolkensteinoberhausenxyz"  # 45 letters, not a break among them


def test_a_name_of_one_long_word_never_widens_the_page(browser: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "honba.sqlite")
    app = HonbaApp.open(db)
    try:
        tokens = TokenStore(app)
        director = tokens.create("director")
        create_tournament(app, "Long", [LONG_NAME, *PLAYERS[:7]])
        seat_next(app, caught_up_view(app), tokens, "Long", director, method="random", seed=3)
        for _table, key in get_tournament(app, "Long").session_matches(1):
            play_table(app, key, 1, 1, end=False)  # both tables in progress, a hand played at each
        standings = standings_data(tournament_report(caught_up_view(app), "Long"))
    finally:
        app.close()
    static = tmp_path / "standings.html"
    static.write_text(render_standings_html(standings), encoding="utf-8")
    with serving(create_app(db)) as url:
        page = new_page(browser, 360, phone=True)
        director_pages = (f"{url}/director/t/Long?token={director}", f"{url}/director/t/Long/s/1?token={director}")
        for address in (f"{url}/tournaments/Long", *director_pages, static.as_uri()):
            page.goto(address)
            page.get_by_text(LONG_NAME).first.wait_for()
            assert overflow(page) == 0, f"{address}: the page scrolls sideways ({overflow(page)} px too wide)"
            broken = broken_numbers(page, header_words=True)
            assert broken == [], f"{address}: numbers or header words broken inside: {broken}"


def main_of(page: str) -> str:
    found = re.search(r"<main.*</main>", page, re.S)
    assert found, page[:500]
    return found.group(0)


def test_a_reload_of_any_director_page_loses_nothing(day: dict[str, Any]) -> None:
    """Served again, each director page is the same page: every table link and QR code, what was
    typed or drawn (a reload is a second GET: what it shows is the server's, so no browser is needed)."""
    token = {"token": day["director"]}
    with TestClient(create_app(day["db"])) as client:
        for path in DIRECTOR_PAGES:
            before = client.get(path, params=token)
            assert before.status_code == 200, path
            again = client.get(path, params=token)
            assert main_of(again.text) == main_of(before.text), path
            links = re.findall(r'<a class="table-link" href="([^"]+)"', before.text)
            codes = before.text.count('aria-label="QR code of the table link"')
            if "/s/" in path:
                assert len(links) == 4 and codes == 4, path
        tournament = client.get(DIRECTOR_PAGES[1], params=token).text
    assert "Seat session 3" in element_text(tournament, "session")
    assert "still playing" in element_text(tournament, "still-playing")


def test_the_standings_page_shows_a_table_in_progress_and_moves_without_a_reload(
    browser: Any, day: dict[str, Any], base: str
) -> None:
    page = new_page(browser, 390, phone=True)
    page.goto(f"{base}/tournaments/Spring%20Open")
    page.evaluate("window.loadedOnce = 'yes'")  # gone if the page were loaded again
    page.locator("#live[data-position]").wait_for()  # the stream's first event arrived
    key = day["second"][2]
    card = page.locator(f'li.live-table[data-match="{key}"]')
    expect(card).to_contain_text("E2-0")
    assert "provisional" in page.inner_text("#in-progress h2")
    before = card.locator("td.provisional").all_inner_texts()
    assert len(before) == 4 and all(p.startswith(("+", "-")) for p in before)
    screenshot(page, "standings-phone.png")
    app = HonbaApp.open(day["db"])
    try:  # another process's hand: the server learns of it from the store's notification log
        recording.record(app, key, won(ron(2, 3, hv(limit="baiman"))))  # a non-dealer wins: E3 next
    finally:
        app.close()
    expect(card).to_contain_text("E3-0", timeout=WAIT_MS)
    assert card.locator("td.provisional").all_inner_texts() != before
    assert page.evaluate("window.loadedOnce") == "yes"


def test_a_tap_on_a_line_or_its_name_picks_it_out_of_sixteen(browser: Any, day: dict[str, Any], base: str) -> None:
    page = new_page(browser, 1280)
    page.goto(f"{base}/tournaments/Spring%20Open")
    page.locator("#live[data-position]").wait_for()
    chart = page.locator("figure.chart svg")
    assert chart.locator('g[id^="player-"][id$="-name"]').count() == 16
    page.locator("#player-12-name text").click()
    assert "picking" in (chart.get_attribute("class") or "")
    assert page.locator("#player-12.picked").count() == 1 and page.locator("g.picked").count() == 2
    # The same player's row in the table picks it out too; a second tap lets go.
    page.locator("#standings-table tr[data-player]").nth(3).locator("td.player").click()
    assert page.locator("#player-3.picked").count() == 1
    page.locator("#standings-table tr[data-player]").nth(3).locator("td.player").click()
    assert page.locator("g.picked").count() == 0
    screenshot(page, "standings.png")


def screenshot(page: Any, name: str) -> None:
    """A screenshot of the whole page into docs/screenshots/, with ``HONBA_SCREENSHOTS=1`` only (as the
    table page's: a full page's picture costs Chromium a second and checks nothing of honba's)."""
    if os.environ.get("HONBA_SCREENSHOTS"):
        (DOCS / "screenshots").mkdir(exist_ok=True)
        shot = DOCS / "screenshots" / name
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 0
