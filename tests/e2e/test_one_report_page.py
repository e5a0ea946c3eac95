"""Issue 31: one page per report. ``honba standings --format html`` and the public standings page
render one template (``replay/html/templates/standings_section.html``): for the same tournament the
standings report on both is the same HTML. A table that has not played a hand shows no places and no
points by seat (equal scores would rank it +35/+5/-15/-25 under Tenhou's uma and oka by seat order).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from honba_cli import Honba
from playwright_support import CHROMIUM
from starlette.testclient import TestClient
from web_support import serving

from domain.rules import load_preset
from domain.values import HandValue, Win, WinResult
from replay.service.recording import recording
from replay.service.tournaments.standings import standings_data, tournament_report
from replay.service.tournaments.tournaments import attach_all, create_tournament
from replay.store.application import HonbaApp
from replay.store.standings_view import catch_up, open_view
from replay.web.app import create_app

TENHOU = load_preset("tenhou")
NAMES = ["Ann", "Ben", "Cho", "Dai"]
OTHERS = ["Eve", "Fay", "Gus", "Hal"]


def event(db: str) -> None:
    """A finished table and one that has not played a hand."""
    app = HonbaApp.open(db)
    try:
        create_tournament(app, "cup", NAMES + OTHERS)
        recording.start_match(app, "t1", NAMES, TENHOU)
        recording.start_match(app, "t2", OTHERS, TENHOU)
        attach_all(app, "cup", [("t1", NAMES), ("t2", OTHERS)], 1)
        recording.record(app, "t1", WinResult((Win(1, HandValue(limit="mangan"), discarder=2),)))
        recording.end(app, "t1", "time limit")
    finally:
        app.close()


def section(page: str, name: str) -> str:
    found = re.search(rf'<section id="{name}">.*?</section>', page, re.S)
    assert found, f"no section {name}"
    return found.group(0)


def test_a_table_that_has_not_started_has_no_places_and_no_points(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite")
    event(db)
    app = HonbaApp.open(db)
    try:
        view = open_view(app)
        catch_up(app, view)
        data = standings_data(tournament_report(view, "cup"))
    finally:
        app.close()
    (table,) = data["tables_in_progress"]
    assert [(s["place"], s["points"]) for s in table["seats"]] == [(None, None)] * 4
    assert [m["provisional_points"] for m in data["matches"] if m["match"] == "t2"] == [None]


def test_the_export_and_the_page_render_one_standings_report(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite")
    event(db)
    honba = Honba(Path(db))
    exported = honba.ok("standings", "--tournament", "cup", "--format", "html")
    with TestClient(create_app(db)) as client:
        page = client.get("/tournaments/cup").text
    # The same table of standings, row for row and cell for cell.
    assert section(exported, "standings-table") == section(page, "standings-table")
    ben = re.search(r'<tr data-player="Ben">.*?</tr>', exported)
    # Tenhou's rules (30,000 return, uma +20 and oka +20 to the top): Ben's 33,000 is +3 + 20 + 20.
    assert ben and '<td class="num">+43.0</td>' in ben.group(0)
    # The table not started: a dash for each seat's place and points, on both.
    for shown in (exported, page):
        cards = section(shown, "in-progress")
        assert cards.count('<td class="num">—</td><td class="num provisional">—</td>') == 4
        assert "+35.0" not in cards


# Each provisional points cell of the tables in progress: whether it shows whole within its table's
# box (a cell cut off at the box's edge showed "-30.C" at 360 px).
CUT_OFF = """
() => [...document.querySelectorAll("#in-progress td.provisional")].filter((cell) => {
  const box = cell.closest(".scroll").getBoundingClientRect();
  const shown = cell.getBoundingClientRect();
  return shown.right > box.right + 0.5 || shown.left < box.left - 0.5;
}).map((cell) => cell.textContent)
"""


@pytest.mark.skipif(not CHROMIUM.exists(), reason="no Chromium at /usr/bin/chromium")
def test_the_provisional_points_show_whole_on_a_phone_and_a_desktop(browser: Any, tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite")
    app = HonbaApp.open(db)
    try:
        create_tournament(app, "cup", NAMES + OTHERS)
        for key, players in (("t1", NAMES), ("t2", OTHERS)):
            recording.start_match(app, key, players, TENHOU)
            attach_all(app, "cup", [(key, players)], 1)
            # A baiman on a discard: 9,000 left to the discarder, -41.0 if it ended now.
            recording.record(app, key, WinResult((Win(1, HandValue(limit="baiman"), discarder=2),)))
    finally:
        app.close()
    exported = tmp_path / "standings.html"
    Honba(Path(db)).ok("standings", "--tournament", "cup", "--format", "html", "-o", str(exported))
    with serving(create_app(db)) as url:
        # Each page loaded once, its layout checked at both widths (the viewport changed on the page).
        page = browser.new_context(viewport={"width": 360, "height": 900}).new_page()
        for address in (f"{url}/tournaments/cup", exported.as_uri()):
            page.set_viewport_size({"width": 360, "height": 900})
            page.goto(address)
            page.locator("#in-progress td.provisional").first.wait_for()
            assert page.locator("#in-progress td.provisional").count() == 8
            for width in (360, 1280):
                page.set_viewport_size({"width": width, "height": 900})
                assert page.evaluate(CUT_OFF) == [], f"{address} at {width} px"
