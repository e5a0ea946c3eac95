"""The score sheets printed from the director's session page in Chromium (Playwright, 360 x 740):
the link on the page opens the sheets; printed to PDF they are one page a table, on A4 and on
Letter; each sheet's QR code is its table's link; the page fits the phone. Skipped without
/usr/bin/chromium."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright_support import CHROMIUM, PHONES, overflow, phone
from web_support import SIXTEEN, serving

from replay.service.common.access import TokenStore
from replay.service.director.director import seat_next
from replay.service.tournaments.standings import caught_up_view
from replay.service.tournaments.tournaments import create_tournament
from replay.store.application import HonbaApp
from replay.web.app import create_app

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium")


@pytest.fixture(scope="module")
def day(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """Sixteen players seated at four tables in session 1, served; the director's token."""
    db = str(tmp_path_factory.mktemp("sheet") / "honba.sqlite")
    app = HonbaApp.open(db)
    try:
        tokens = TokenStore(app)
        director = tokens.create("director")
        create_tournament(app, "Spring Open", SIXTEEN)
        seat_next(app, caught_up_view(app), tokens, "Spring Open", director, method="random", seed=11)
    finally:
        app.close()
    with serving(create_app(db)) as url:
        yield {"base": url, "director": director}


def pdf_pages(pdf: bytes) -> int:
    """The pages of a PDF Chromium printed: its page objects (``/Type /Page``, not ``/Pages``)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-z])", pdf))


def test_the_sheets_from_the_session_page_print_one_page_a_table(browser: Any, day: dict[str, str]) -> None:
    page = phone(browser, PHONES["360x740"])
    page.goto(f"{day['base']}/director/t/Spring%20Open/s/1?token={day['director']}")
    # The Letter link as the session page gives it (followed below without loading that page again).
    letter = page.eval_on_selector("#sheet-letter", "link => link.href")
    page.click("#sheet-a4")
    page.wait_for_selector("section.sheet")
    assert page.locator("section.sheet").count() == 4
    assert overflow(page) == 0
    # Each sheet's QR code is of its table's link (the one the session page shows for that table).
    captions = page.locator("figure.qr figcaption").all_text_contents()
    assert len(captions) == 4 and all("token=" in c for c in captions)
    assert pdf_pages(page.pdf(format="A4")) == 4
    page.goto(letter)
    page.wait_for_selector("section.sheet")
    assert pdf_pages(page.pdf(format="Letter")) == 4


def test_a_sheet_of_one_table_prints_on_one_page_and_the_counter_catches_two(browser: Any, tmp_path: Path) -> None:
    """The page counter is checked on a page that must print on two pages."""
    page = phone(browser, PHONES["360x740"])
    page.set_content("<p>one</p><p style='break-before: page'>two</p>")
    assert pdf_pages(page.pdf(format="A4")) == 2


def test_the_sheets_in_japanese_still_print_one_page_a_table(browser: Any, day: dict[str, str]) -> None:
    """Japanese is wider than English: the header's words must not push a table onto a second page."""
    page = phone(browser, PHONES["360x740"])
    for paper, size in (("a4", "A4"), ("letter", "Letter")):
        page.goto(f"{day['base']}/director/t/Spring%20Open/s/1/sheet?token={day['director']}&paper={paper}&lang=ja")
        assert page.get_attribute("html", "lang") == "ja"
        assert page.locator("section.sheet h1").first.inner_text().startswith("Spring Open: 第 1 回戦、")
        assert overflow(page) == 0
        assert pdf_pages(page.pdf(format=size)) == 4
