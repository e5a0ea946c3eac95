"""``honba audit --html``: the self-contained report, written by the CLI and rendered in headless Chromium.

The match is the seeds' counters example (docs/examples/counters-seed.jsonl) stored in
SQLite, with the fourth player renamed to a script tag and one hand corrected. Its
last hand is the seed's ``Cho -> Dai 600 (counters: 2 counters)``; the corrected hand
is East 3, Ann's ron on Ben, 3 han 30 fu (3,900) replaced by 4 han 30 fu (7,700).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from honba_cli import invoke
from matplotlib.image import imread
from playwright_support import rendered

from domain.values import HandValue, Win, WinResult
from projections.entries import entry_numbers
from replay.formats.record import build_match, parse_record
from replay.html.pages import render_audit_html
from replay.input.entry import entry_of
from replay.service.imports import storing
from replay.service.recording.entry import CorrectionRequest, apply_correction
from replay.store.application import HonbaApp

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "counters-seed.jsonl"
KEY = "seed-counters-example"
EVIL = "<script>alert(1)</script>"
REASON = "Ann's hand had dora 1: 4 han, not 3 <as the sheet says>"


def _store(db: Path) -> None:
    """The counters example with Dai renamed to a script tag, and East 3 amended."""
    text = EXAMPLE.read_text(encoding="utf-8").replace('"Dai"', json.dumps(EVIL))
    app = HonbaApp.open(str(db))
    assert storing.store_whole(app, build_match(parse_record(text, name=str(EXAMPLE)), name=str(EXAMPLE)))
    match = app.get_match(KEY)
    east3 = next(p for p, fact in match.history if isinstance(fact, WinResult) and fact.wins[0].value.han == 3)
    replacement = WinResult((Win(0, HandValue(han=4, fu=30), discarder=1),))
    entry = entry_of(replacement, match.players)
    amend = CorrectionRequest(
        "amend", entry_numbers(match).by_position[east3], entry=entry, by="referee Kim", reason=REASON
    )
    apply_correction(app, KEY, amend, client_key=None)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The HTML report, written by ``honba --db DB audit KEY --html OUT``."""
    tmp = tmp_path_factory.mktemp("report")
    db, out = tmp / "honba.sqlite", tmp / "audit.html"
    _store(db)
    result = invoke(["--db", str(db), "audit", KEY, "--html", str(out)])
    assert result.exit_code == 0, result.output
    assert "HTML report written to" in result.output
    return out


def test_the_report_holds_the_ledger_the_correction_and_the_chart(report: Path) -> None:
    page = report.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    # The seed's last hand: Dai's ron on Cho, 2 han 30 fu with 2 counters (2,000 + 600).
    assert "Cho &rarr; &lt;script&gt;alert(1)&lt;/script&gt; <strong>600</strong>" in page
    assert "(counters: 2 counters)" in page
    assert "<strong>2,000</strong>" in page
    assert "-2,600" in page
    # The corrected hand: 4 han 30 fu on a non-dealer is 7,700; the row is marked; the original stays.
    assert "<strong>7,700</strong>" in page
    assert re.search(r'<tr id="entry-\d+" class="corrected">', page)
    assert html_escaped(REASON) in page
    assert "referee Kim" in page
    assert "Ann ron on Ben: 3 han 30 fu" in page and "Ann ron on Ben: 4 han 30 fu" in page
    # Integrity, rules, findings, chart.
    assert "Intact." in page
    assert "Tenhou four-player hanchan" in page
    assert "Invariants hold" in page
    # The chart twice: drawn for a wide screen, and for a phone (shown by the screen's width).
    assert page.count("<svg") == 2 and page.count("</svg>") == 2
    assert 'aria-label="Scores through the match (narrow)"' in page


def test_the_report_escapes_every_name_and_loads_nothing(report: Path) -> None:
    page = report.read_text(encoding="utf-8")
    assert EVIL not in page
    assert "<script" not in page.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    # Self-contained: nothing fetched, and the policy forbids it anyway.
    assert not re.search(r"""(?:src|href)\s*=\s*["']?(?:https?:|//)""", page)
    assert "@import" not in page
    assert not re.search(r"url\(\s*[\"']?[^#\s]", page)  # only references inside the page, url(#clip)
    assert "default-src 'none'" in page


def html_escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#x27;")


def _sample(**extra: Any) -> dict[str, Any]:
    players = ["$x_1$", "_hidden", "東風", "Dai"]
    return {
        "match": "m<1>",
        "players": players,
        "rules": "tenhou",
        "rules_description": "",
        "source": {"format": "honba", "note": {"nested": True}},
        "integrity": {
            "name": "m",
            "events": 3,
            "head": "ab" * 32,
            "intact": False,
            "sealed": True,
            "problems": [{"position": 2, "kind": "altered", "detail": "digest <differs>"}],
        },
        "ledger": [],
        "corrections": [],
        "findings": [{"kind": "invariant", "hand": "E1-0", "text": "the payments do not sum to zero"}],
        "final_scores": dict.fromkeys(players, 25000),
        "final_points": None,
        "scores_by_hand": [[25000] * 4],
        "hand_labels": ["start"],
        **extra,
    }


def test_a_broken_chain_and_a_bare_match_render_plainly() -> None:
    page = render_audit_html(_sample())
    assert "<strong>Broken:</strong>" in page
    assert "altered</strong> at position 2: digest &lt;differs&gt;" in page
    assert "Invariants broken" in page
    assert "No hands recorded yet." in page
    assert "m&lt;1&gt;" in page and "m<1>" not in page
    assert "<svg" in page
    # Names matplotlib would treat specially are drawn as they are: no formula, none dropped from the legend.
    assert "$x_1$" in page and "_hidden" in page and "東風" in page
    assert render_audit_html(_sample()) == page  # a pure function: the same data, the same page


def test_the_sheet_and_what_if_sections_appear_when_present() -> None:
    row = {"hand": "E1-0", "result": "r", "changes": {"Dai": 1000}, "scores_after": {"Dai": 26000}}
    alt = {"hand": "E1-0", "result": "r", "changes": {"Dai": 1500}, "scores_after": {"Dai": 31500}}
    first = {"kind": "sheet", "hand": "E1-0", "text": "row 2: Dai 31,400 on the sheet"}
    page = render_audit_html(
        _sample(
            ledger=[row],
            sheet={"kind": "scores", "rows": 1, "first_difference": first, "differences": [first]},
            what_if={
                "rules": "ema",
                "changed_hands": ["E1-0"],
                "final_scores": {"Dai": 31500},
                "final_points": None,
                "notes": [],
                "ledger": [alt],
            },
        )
    )
    assert "first parts from the ledger at E1-0:</strong> row 2: Dai 31,400 on the sheet" in page
    assert "What if: tenhou against ema" in page
    assert "Hands whose payments change: E1-0" in page
    assert '<tr class="changed">' in page


def test_the_report_renders_in_headless_chromium(browser: Any, report: Path, tmp_path: Path) -> None:
    url = report.resolve().as_uri()
    png = tmp_path / "audit.png"
    dom = rendered(browser, url, 1280, 2000, png)
    assert '<table class="ledger">' in dom
    assert "<svg" in dom and "</svg>" in dom
    assert "<strong>600</strong>" in dom
    assert "<script" not in dom.lower()  # the name stayed text: no element was made of it
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in dom
    assert png.is_file() and png.stat().st_size > 10_000
    pixels = imread(png)
    assert pixels.shape[:2] == (2000, 1280)
    colours = {tuple(p) for p in pixels[::4, ::4, :3].reshape(-1, 3).round(2).tolist()}
    assert len(colours) > 20  # text, table rules, the yellow corrected row, the players' lines: not blank
    white = (pixels[:, :, :3] > 0.98).all(axis=2).mean()
    assert white < 0.97
