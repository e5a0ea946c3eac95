"""Playwright on the system's Chromium for the browser tests of honba serve's pages, and the checks
every phone page must pass: no horizontal scrolling, no number broken over two lines, every
target at least 44 x 44 CSS px (each check is JavaScript run in the page; each has a test that
shows it catching a broken page, in tests/e2e/test_table_browser.py). The director's and the
public's pages (tests/e2e/test_web_events_browser.py) run the same number check."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
# The longest any single step may wait: a hang guard, never a speed check. Generous: under pytest -n 2 on
# two shared cores, a page load behind another worker's browser and server took more than 15 s.
WAIT_MS = 60_000
PHONES = {"390x844": (390, 844), "360x740": (360, 740)}
TARGET_PX = 44


@contextmanager
def launched() -> Iterator[Any]:
    """The system's Chromium, headless (never a browser Playwright downloads)."""
    from playwright.sync_api import sync_playwright

    args = ["--headless", "--disable-gpu", "--disable-background-networking", "--disable-component-update"]
    args += ["--no-first-run", "--disable-sync"]
    if os.geteuid() == 0:
        args.append("--no-sandbox")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=args)
        try:
            yield browser
        finally:
            browser.close()


# Counts the taps a person makes (trusted pointer-downs, whatever the page does with them) and notes
# a tap made while the page was scrolled, across the page loads of one tab.
TAP_COUNTER = """
addEventListener("pointerdown", (event) => {
  if (!event.isTrusted) return;
  sessionStorage.setItem("taps", String(Number(sessionStorage.getItem("taps") || 0) + 1));
  if (window.scrollY > 0) sessionStorage.setItem("scrolled", "yes");
}, true);
"""


def phone(
    browser: Any, size: tuple[int, int] = PHONES["390x844"], *, script: bool = True, offline_copy: bool = False
) -> Any:
    """A page on a touch phone of that viewport, counting taps; a dialog opening fails the test.

    The table page's service worker (the copy that opens it offline) runs only with ``offline_copy``,
    for the tests of the page offline: elsewhere it would fetch the page and its files a second time
    at every load (measured: about 0.2 CPU-seconds a load, Chromium and the server together) for
    nothing the test checks."""
    width, height = size
    context = browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=True,
        has_touch=True,
        java_script_enabled=script,
        service_workers="allow" if offline_copy else "block",
    )
    context.set_default_timeout(WAIT_MS)
    context.add_init_script(TAP_COUNTER)
    page = context.new_page()
    page.on("dialog", lambda dialog: pytest.fail(f"a dialog opened: {dialog.message}"))
    return page


# Every number drawn on more than one line: each number in the page's text (digits, with thousands
# commas, a decimal part, a clock's colons, a sign, or a date; not digits inside a word such as a key) whose
# characters' boxes sit on more than one line. Passed over: what is drawn, not laid out (a chart's
# svg), a digest (``.digest``: meant to break anywhere), and a link's address shown as text. With
# ``headerWords``, each word of a table's header cell too ("ran|k" reads as two words).
BROKEN_NUMBERS = r"""
(headerWords) => {
  const number = /\d{4}-\d{2}-\d{2}|[-+\u2212]?\d+(?:[,.:]\d+)*/g;
  const word = /\S+/g;
  const broken = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("script, style, noscript, svg, .digest") || !parent.getClientRects().length) continue;
    const text = node.data;
    const words = headerWords && parent.closest("th");
    for (const found of text.matchAll(words ? word : number)) {
      if (!words) {
        const before = text[found.index - 1] || " ";
        const after = text[found.index + found[0].length] || " ";
        // Digits inside a word or a dotted name (a key, "SHA-256" is checked: its "-256" follows a
        // letter but is read as a number) are passed over; after a colon or a comma they are a number
        // ("Score:25000", "[30,10,-10,-30]").
        if (/[\w.]/.test(before) || /\w/.test(after)) continue;
        // A link's address shown as text ("...?token=358527558168.pT_w"): a run of digits in it is no
        // number a person reads, and an address may break anywhere.
        const start = text.slice(0, found.index).search(/\S+$/);
        const around = text.slice(start < 0 ? found.index : start).split(/\s/, 1)[0];
        if (around.includes("://")) continue;
      }
      const range = document.createRange();
      range.setStart(node, found.index);
      range.setEnd(node, found.index + found[0].length);
      const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.bottom)));
      if (lines.size > 1) broken.push(found[0] + " in: " + text.trim().slice(0, 80));
    }
  }
  return broken;
}
"""

# Every visible target smaller than 44 x 44 CSS px: links, buttons, summaries, fields, and the
# labels drawn as buttons (their radio or checkbox inside is hidden: the label is the target).
# A link in running text is exempt, as WCAG 2.5.8 allows (its "inline" exception: a link sized by the
# line of text it sits in, which a bigger box would tear apart): an ``a`` whose parent element also
# holds text of its own, letters or digits outside any link (a sentence, "Session 1: 4 tables"). A
# link alone in its list item, cell or paragraph, or among other links with only separators between
# them ("Table page · Audit report"), is a target of its own and must be 44 x 44.
SMALL_TARGETS = r"""
(least) => {
  function inRunningText(link) {
    const parent = link.parentElement;
    if (link.tagName !== "A" || !parent) return false;
    const walker = document.createTreeWalker(parent, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest("a[href]")) continue;
      if (/[\p{L}\p{N}]/u.test(node.data)) return true;
    }
    return false;
  }
  const targets = document.querySelectorAll(
    "a[href], button, summary, select, textarea, label.pick, label.check, " +
    "input:not([type=hidden]):not([type=radio]):not([type=checkbox])"
  );
  const small = [];
  for (const target of targets) {
    const box = target.getBoundingClientRect();
    if (!target.getClientRects().length || getComputedStyle(target).visibility === "hidden") continue;
    if (inRunningText(target)) continue;
    if (box.width < least - 0.5 || box.height < least - 0.5) {
      const name = (target.textContent || target.getAttribute("name") || "").trim().replace(/\s+/g, " ");
      const size = `${box.width.toFixed(1)}x${box.height.toFixed(1)}`;
      small.push(`${target.tagName.toLowerCase()} "${name.slice(0, 40)}" ${size}`);
    }
  }
  return small;
}
"""


def broken_numbers(page: Any, *, header_words: bool = False) -> list[str]:
    """The numbers of the page drawn over more than one line (``BROKEN_NUMBERS``); with
    ``header_words``, the words of its tables' header cells too (the standings and the director's
    pages, whose narrow columns a long header word could split)."""
    found: list[str] = page.evaluate(BROKEN_NUMBERS, header_words)
    return found


def small_targets(page: Any) -> list[str]:
    """The visible targets of the page smaller than 44 x 44 CSS px (a link in running text exempt)."""
    found: list[str] = page.evaluate(SMALL_TARGETS, TARGET_PX)
    return found


def overflow(page: Any) -> int:
    """How far the page is wider than the phone's screen, in CSS px (0: no horizontal scrolling)."""
    width: int = page.evaluate("document.documentElement.scrollWidth")
    return max(width - page.viewport_size["width"], 0)


def readable(page: Any) -> None:
    """The page as it stands has no horizontal scrolling, no number broken, no target too small."""
    assert overflow(page) == 0, f"the page is {overflow(page)} px wider than the phone"
    broken = broken_numbers(page)
    assert broken == [], f"numbers broken over two lines: {broken}"
    small = small_targets(page)
    assert small == [], f"targets smaller than {TARGET_PX} x {TARGET_PX} px: {small}"


def on_every_phone(page: Any) -> Iterator[tuple[int, int]]:
    """The page, as it stands, laid out on each phone of ``PHONES`` in turn (its viewport changed, not
    the page loaded again: a layout costs Chromium far less than a load); each phone's size yielded,
    and the page's own size given back after."""
    own = page.viewport_size
    try:
        for width, height in PHONES.values():
            page.set_viewport_size({"width": width, "height": height})
            yield width, height
    finally:
        page.set_viewport_size(own)


def readable_on_every_phone(page: Any) -> None:
    """``readable`` on each phone of ``PHONES``, the page loaded once."""
    for width, height in on_every_phone(page):
        try:
            readable(page)
        except AssertionError as failed:
            raise AssertionError(f"on a {width} x {height} phone: {failed}") from None


def taps(page: Any) -> tuple[int, bool]:
    """The taps counted since the last call (then counting starts again), and whether one was made
    while the page was scrolled."""
    counted: list[Any] = page.evaluate(
        "() => { const n = [Number(sessionStorage.getItem('taps') || 0), sessionStorage.getItem('scrolled') === 'yes'];"
        " sessionStorage.removeItem('taps'); sessionStorage.removeItem('scrolled'); return n; }"
    )
    return int(counted[0]), bool(counted[1])


def rendered(browser: Any, url: str, width: int, height: int, shot: Path) -> str:
    """A page (an exported report, by its file URL) as Chromium draws it in a window of that size: its
    DOM once loaded (what ``chromium --dump-dom`` prints), and its screenshot written to ``shot`` (what
    ``--screenshot --window-size`` writes). One load in the process's Chromium, where two Chromiums
    started for the two cost a launch each."""
    context = browser.new_context(viewport={"width": width, "height": height})
    try:
        page = context.new_page()
        page.goto(url)
        dom: str = page.content()
        page.screenshot(path=str(shot))
    finally:
        context.close()
    return dom
