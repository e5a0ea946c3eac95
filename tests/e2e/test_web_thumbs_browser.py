"""The director's pages, the referee's desk and the standings pages on a 360 x 740 phone, in the
states of a day being played (issue 25): no horizontal scrolling, no number broken, every button,
field, summary and link standing alone at least 44 x 44 CSS px (``playwright_support.readable``,
the table page's checks); a session of 40 tables lists them at the top, each a tap from its card, and
its standings chart draws only the players who have finished a match. Skipped without /usr/bin/chromium.

The day (Tenhou's rules): 16 players, session 1 at 4 tables with a 60-minute limit and the clock
running; table 1 played 3 hands and ended; table 2 played 2 hands and the referee voided the first (entry 2);
table 3 played a hand and its recorder took it back; table 4 has not started.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from conftest import hv, ron, won
from playwright_support import CHROMIUM, PHONES, phone, readable, small_targets
from web_support import SIXTEEN, serving

from replay.service.common.access import TokenStore
from replay.service.director.director import seat_next
from replay.service.recording import recording
from replay.service.recording.clock import set_session_time_limit, start_session_clock
from replay.service.recording.entry import CorrectionRequest, Entry, apply_correction, apply_entry
from replay.service.tournaments.standings import caught_up_view
from replay.service.tournaments.tournaments import create_tournament
from replay.store.application import HonbaApp
from replay.store.tournaments import get_tournament
from replay.web.app import create_app

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium")
PLAYERS = SIXTEEN
VALUES = [hv(3, 30), hv(limit="mangan"), hv(2, 40)]


# The height, in CSS px, of the smallest text drawn in the charts shown on the page.
# (0 when no chart text is shown, which fails the check as it should.)
SMALLEST_CHART_TEXT = """() => {
  const heights = [...document.querySelectorAll("figure svg text")]
    .filter(t => t.getClientRects().length).map(t => t.getBoundingClientRect().height);
  return heights.length ? Math.min(...heights) : 0;
}"""


def play(app: HonbaApp, key: str, hands: int) -> None:
    """Hands at a table, each won by the next seat on the discard of the one after it."""
    for hand in range(hands):
        winner = hand % 4
        recording.record(app, key, won(ron(winner, (winner + 1) % 4, VALUES[hand % len(VALUES)])))


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The store of the day: its file, the director's token and the matches of session 1 by table."""
    db = str(tmp_path_factory.mktemp("day") / "honba.sqlite")
    app = HonbaApp.open(db)
    try:
        tokens = TokenStore(app)
        director = tokens.create("director")
        create_tournament(app, "Spring Open", PLAYERS)
        seat_next(app, caught_up_view(app), tokens, "Spring Open", director, method="random", seed=11)
        set_session_time_limit(app, "Spring Open", 1, 60)
        start_session_clock(app, "Spring Open", 1)
        keys = [key for _table, key in get_tournament(app, "Spring Open").session_matches(1)]
        play(app, keys[0], 3)
        recording.end(app, keys[0], "time limit")
        play(app, keys[1], 2)
        void = CorrectionRequest("void", 2, by="Referee Rin", reason="the wrong winner was tapped")
        apply_correction(app, keys[1], void, client_key=None)
        play(app, keys[2], 1)
        apply_entry(app, keys[2], Entry("undo"), by="table 3", reason="entered twice", client_key=None)
    finally:
        app.close()
    return {"db": db, "director": director, "keys": keys}


@pytest.fixture(scope="module")
def base(day: dict[str, Any]) -> Iterator[str]:
    with serving(create_app(day["db"])) as url:
        yield url


def opened(page: Any, url: str) -> None:
    """The page loaded with every closed part opened (what it holds must fit and be tappable too)."""
    response = page.goto(url)
    assert response is not None and response.status == 200, url
    page.wait_for_load_state()
    for summary in page.locator("details:not([open]) > summary").all():
        if summary.is_visible():
            summary.click()


def test_the_directors_the_referees_and_the_standings_pages_read_and_tap_on_a_360_px_phone(
    browser: Any, day: dict[str, Any], base: str
) -> None:
    token = f"token={day['director']}"
    referee = f"{base}/referee/m/{quote(day['keys'][1])}?{token}"
    urls = [
        f"{base}/director?{token}",
        f"{base}/director/t/Spring%20Open?{token}",
        f"{base}/director/t/Spring%20Open/s/1?{token}",
        f"{base}/referee?{token}",
        referee,
        f"{referee}&amend=3",
        f"{base}/tournaments/Spring%20Open",
        f"{base}/tournaments/Spring%20Open/what-if?set=uma%3D%5B30%2C10%2C-10%2C-30%5D",
        f"{base}/ratings",
        f"{base}/ratings/players/{quote(PLAYERS[0])}",
        f"{base}/",
        f"{base}/matches/{quote(day['keys'][0])}",
        f"{base}/matches/{quote(day['keys'][1])}/audit",
        f"{base}/director/t/Spring%20Open/s/1/sheet?{token}",
    ]
    page = phone(browser, PHONES["360x740"])
    failures: list[str] = []
    chart_text, session, live_tables, corrections = 0.0, ("", ""), 0, ""
    for url in urls:
        opened(page, url)
        try:
            readable(page)
        except AssertionError as failed:
            failures.append(f"{url}: {failed}")
        # Checked on the page as it was opened (each page is loaded once).
        if url == urls[-2]:
            # The audit's chart on a phone is the one drawn for it: its smallest text is drawn at least
            # 9 px tall (the chart drawn for a wide screen, shrunk to the phone, drew it at 4 px).
            chart_text = page.evaluate(SMALLEST_CHART_TEXT)
        # The states were the ones meant: a clock running, tables in progress, corrections at the desk.
        elif url == urls[2]:
            session = (page.inner_text("#table-2"), page.inner_text("#table-1"))
        elif url == urls[6]:
            live_tables = page.locator("li.live-table").count()
        elif url == referee:
            corrections = page.inner_text("#corrections")
    assert failures == [], "\n".join(failures)
    assert chart_text >= 9
    assert "left" in session[0] and "ended" in session[1]
    assert live_tables == 3
    assert "Referee Rin" in corrections


def test_the_session_page_lists_its_tables_at_the_top_each_a_tap_away(browser: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "honba.sqlite")
    app = HonbaApp.open(db)
    try:
        tokens = TokenStore(app)
        director = tokens.create("director")
        create_tournament(app, "Big", [f"Player {i:03d}" for i in range(160)])
        seat_next(app, caught_up_view(app), tokens, "Big", director, method="random", seed=1)
        keys = [key for _table, key in get_tournament(app, "Big").session_matches(1)]
        play(app, keys[36], 1)
        play(app, keys[39], 1)
        recording.end(app, keys[39], "agreed")
    finally:
        app.close()
    with serving(create_app(db)) as url:
        page = phone(browser, PHONES["360x740"])
        response = page.goto(f"{url}/director/t/Big/s/1?token={director}")
        # What a director's phone loads at each reload on the venue's network: 209 KB (880 KB when each
        # QR code drew every module as a square of its own, replay/html/qr.py).
        assert response is not None and len(response.body()) < 300_000
        index = page.locator("#table-index")
        links = index.locator("a")
        assert links.count() == 40
        assert small_targets(page) == []
        box = index.bounding_box()
        assert box is not None and box["height"] <= 740, f"the list of tables is {box} tall: more than a screen"
        assert page.evaluate("document.documentElement.scrollHeight") > 20 * 740  # the page it saves a scroll of
        assert links.nth(36).inner_text().split() == ["Table", "37", "playing"]
        assert links.nth(39).inner_text().split() == ["Table", "40", "ended"]
        assert links.nth(0).get_attribute("href") == "#table-1"
        links.nth(36).click()
        card = page.locator("#table-37").bounding_box()
        assert card is not None and 0 <= card["y"] < 740 / 2, f"table 37's card is at {card} after the tap"
        readable(page)
        # Its standings: 4 of 160 players have finished a match; the chart draws them alone, says so, and
        # stays within a screen (all 160 named, it was some 3,750 px tall).
        page.goto(f"{url}/tournaments/Big")
        readable(page)
        assert page.locator("figure.chart svg g[id$='-name']").count() == 4
        assert "156 players without a finished match not drawn" in page.inner_text("#chart-note")
        chart = page.locator("figure.chart svg").bounding_box()
        assert chart is not None and chart["height"] <= 740 / 2
