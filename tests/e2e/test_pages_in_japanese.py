"""Every page honba serves or writes, in Japanese, shows none of its own English (issue 33): the
table page (with its sign-off and its script's sentences), the director's pages (the draw, the
players, a withdrawal, a substitute, the teams, the format, the certificate), a session's page and
its score sheets, the referee's desk and a match's, the standings, the audit page, the
certificate check, the error pages (404, 403); and the command line's HTML (``honba audit --html``, ``honba
tournament sheet``, ``honba standings``, ``stats`` and ``ratings --format html``) with ``--lang ja``.

"Its own English" is any message of the catalogue (its English id, cut at its placeholders and
markup into phrases) found in the page's visible text once the data is taken out: names, keys,
rule presets, the stage lines typed, code samples, and every text of the service's own data for the
match (its audit report's: what each hand was, the end's reason, the payments' reasons, the rules'
description), which the service says in its own words. The same check on the English pages
finds their messages: it can see them."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from honba_cli import Honba
from starlette.testclient import TestClient
from web_support import PLAYERS, prepare, send

from domain.rules import preset_names
from replay.html.words import LOCALE_DIR
from replay.service.audit.audit import report_data
from replay.service.audit.checks import audit_match
from replay.service.common.opening import open_standings_view
from replay.service.director import stages
from replay.service.recording.recording import end
from replay.service.tournaments.sign_off import require_sign_off, sign_scores
from replay.service.tournaments.standings import read_view
from replay.service.tournaments.tournaments import attach_match, create_tournament, plan_session
from replay.store.application import HonbaApp
from replay.web.app import create_app

STAGES = ("heats:2:advance=4", "final:1")


def phrases() -> set[str]:
    """The catalogue's English, as the phrases a page would show: each message cut at its
    placeholders, markup and punctuation; a phrase of two words or more, or one word of five letters."""
    with (LOCALE_DIR / "ja" / "LC_MESSAGES" / "messages.po").open("rb") as po:
        catalogue = read_po(po, locale="ja")
    found = set()
    for message in catalogue:
        for english in [message.id] if isinstance(message.id, str) else message.id:
            for part in re.split(r"%\(\w+\)s|<[^>]+>|&\w+;|[():;,.!?]", english):
                part = part.strip(" -'\"")
                if (" " in part and re.search(r"[a-z]{2}", part)) or re.fullmatch(r"[A-Za-z'-]{5,}", part):
                    found.add(part)
    return found


PHRASES = phrases()
# Each phrase as a whole-word pattern, compiled once: ``re``'s cache holds 512 patterns, fewer than
# the phrases, so a search per phrase compiled every one again for every page (22,000 compiles,
# half the module's time).
PHRASE_PATTERNS = [(p, re.compile(rf"(?<![A-Za-z]){re.escape(p)}(?![A-Za-z])")) for p in sorted(PHRASES)]


def strings(value: Any) -> Iterator[str]:
    """Every text a service's plain data holds (the data a page shows as the service words it)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from strings(item)


def english_left(page: str, data: set[str]) -> list[str]:
    """The catalogue's phrases in a page's visible text (its code, scripts, charts, form values and the
    data taken out)."""
    body = page.split("<body", 1)[-1]
    body = re.sub(
        r"(?s)<code[^>]*>.*?</code>|<script.*?</script>|<style.*?</style>|<svg.*?</svg>|<textarea.*?</textarea>",
        " ",
        body,
    )
    text = " ".join(re.sub(r"<[^>]+>", " ", body).replace("&#39;", "'").replace("&amp;", "&").split())
    # Longest first: a result's text goes before a name it holds; whole words only (a digest's
    # two letters are no word).
    for value in sorted((v for v in data if len(v) > 2), key=len, reverse=True):
        text = re.sub(rf"(?<![A-Za-z]){re.escape(value)}(?![A-Za-z])", " ", text)
    return [p for p, pattern in PHRASE_PATTERNS if pattern.search(text)]


@pytest.fixture
def event(tmp_path: Path) -> tuple[str, dict[str, str], set[str]]:
    """A tournament with a format, a team and the sign-off on; its match t1 ended and disputed
    (one hand, then an early end), t2 fresh: the store, the tokens, the data its pages show."""
    db = str(tmp_path / "honba.sqlite")
    table, director, fresh = prepare(
        db, {"t1": PLAYERS, "t2": PLAYERS}, [("table", "t1"), ("director", None), ("table", "t2")]
    )
    app = HonbaApp.open(db)
    try:
        create_tournament(app, "Cup", PLAYERS)
        plan_session(app, "Cup", 1, [list(PLAYERS)])
        attach_match(app, "Cup", "t1", 1, 1)
        require_sign_off(app, "Cup")
        stages.join_team(app, "Cup", "Red", ["Ann", "Ben"])
        stages.declare_format(app, "Cup", stages.event_format_of(list(STAGES)))
    finally:
        app.close()
    with TestClient(create_app(db)) as client:
        ron = {"kind": "win", "winner": "Ben", "discarder": "Ann", "value": "3/30", "riichi": "Ben"}
        send(client, "t1", table, ron)
    app = HonbaApp.open(db)
    try:
        end(app, "t1", "time limit")
        view = open_standings_view(app)
        read_view(app, lambda _view: None, view=view)
        sign_scores(app, view, "t1", "Ann", agreed=False, note="not our total")
        audited = report_data(audit_match(app, "t1"))
    finally:
        app.close()
    data = {*PLAYERS, "Cup", "Red", "t1", "t2", "not our total", *STAGES, *preset_names(), *strings(audited)}
    # The stage's lines as the format says them back (draw, keep, fewest-repeats: what is typed).
    data |= {"heats", "final", "draw", "keep", "fewest-repeats", "as-played", "sum"}
    return db, {"table": table, "director": director, "fresh": fresh}, data


def test_every_page_in_japanese_shows_none_of_its_own_english(event: tuple[str, dict[str, str], set[str]]) -> None:
    db, tokens, data = event
    director = tokens["director"]
    pages = {
        f"/matches/t1?token={tokens['table']}": "最終持ち点",
        f"/matches/t2?token={tokens['fresh']}": "九種九牌",
        "/": "対局一覧",
        f"/director?token={director}": "大会運営",
        f"/director/t/Cup?token={director}": "代走",
        f"/director/t/Cup/s/1?token={director}": "リンクを再発行",
        f"/director/t/Cup/s/1/sheet?token={director}": "点数表",
        f"/referee?token={director}": "Ann の異議: not our total",
        f"/referee/m/t1?token={director}": "記録を無効にする",
        "/tournaments/Cup": "回戦ごとのポイント",
        "/matches/t1/audit": "対局の監査",
        "/certificates/verify": "署名付き結果の検証",
        # The ratings with their chart (its label and axes in the page's language).
        "/ratings": 'aria-label="レーティングの推移"',
        "/no-such-page": "そのページはありません。",
        "/director?token=not-a-token": "このリンクでは大会を運営することはできません",
    }
    refused = {"/no-such-page": 404, "/director?token=not-a-token": 403}
    with TestClient(create_app(db)) as client:
        for url, japanese in pages.items():
            page = client.get(url, headers={"Accept-Language": "ja"})
            assert page.status_code == refused.get(url, 200), url
            assert '<html lang="ja">' in page.text, url
            assert japanese in page.text, url
            assert english_left(page.text, data) == [], url
            # The same page in English shows the catalogue's phrases: the check sees them.
            assert english_left(client.get(url, headers={"Accept-Language": "en"}).text, data) != [], url


def test_the_table_page_gives_its_script_the_outbox_and_sign_off_sentences_in_japanese(
    event: tuple[str, dict[str, str], set[str]],
) -> None:
    db, tokens, _data = event
    with TestClient(create_app(db), headers={"Accept-Language": "ja"}) as client:
        page = client.get(f"/matches/t1?token={tokens['table']}").text
    island = re.search(r'<script type="application/json" id="table-words">(.*?)</script>', page, re.S)
    assert island is not None
    said = json.loads(island.group(1))
    assert said["waiting"] == "未送信(この端末に保存、この順で送信):"
    assert said["refusedAt"] == "記録されていません: %(what)s(%(hand)s で入力)。%(error)s。"
    # The sign-off as it stands: Ann disputes, the others have not said.
    assert "最終持ち点: 異議あり" in page and "Ann: 異議あり (not our total)" in page and "Ben: 未確認" in page


def test_the_command_line_writes_its_html_in_japanese_with_lang_ja(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "h.sqlite", "t1")
    honba.ok("start", "t1", "--players", ",".join(PLAYERS))
    honba.ok("win", "t1", "Ben:3/30", "--from", "Ann")
    honba.ok("tournament", "create", "Cup", "--players", ",".join(PLAYERS))
    honba.ok("tournament", "attach", "Cup", "t1", "--session", "1", "--table", "1")
    report = tmp_path / "audit.html"
    honba.ok("audit", "t1", "--html", str(report), "--lang", "ja")
    audit = report.read_text(encoding="utf-8")
    assert '<html lang="ja">' in audit and "<h2>記録</h2>" in audit and "<h2>Ledger</h2>" not in audit
    sheet = honba.ok("tournament", "sheet", "Cup", "1", "--lang", "ja")
    assert '<html lang="ja">' in sheet and "点数表: Cup 第 1 回戦" in sheet
    # The column typed back keeps its name: honba audit --against reads "hand".
    assert '<th class="hand">hand<span class="wind">局</span></th>' in sheet
    standings = honba.ok("standings", "--tournament", "Cup", "--format", "html", "--lang", "ja")
    assert '<html lang="ja">' in standings and "Cup 順位表" in standings
    stats = honba.ok("stats", "--tournament", "Cup", "--format", "html", "--lang", "ja")
    assert '<html lang="ja">' in stats and "<h1>Cup の成績</h1>" in stats and "<th>放銃</th>" in stats
    ratings = honba.ok("ratings", "--format", "html", "--lang", "ja")
    assert '<html lang="ja">' in ratings and "<h1>OpenSkill レーティング</h1>" in ratings
    # English stays the default; a language honba has no catalogue for is refused, nothing written.
    honba.ok("audit", "t1", "--html", str(tmp_path / "en.html"))
    assert "<h2>Ledger</h2>" in (tmp_path / "en.html").read_text(encoding="utf-8")
    refused = honba.refused("audit", "t1", "--html", str(tmp_path / "fr.html"), "--lang", "fr")
    assert refused == "honba: --lang must be en or ja, not 'fr'"
    assert not (tmp_path / "fr.html").exists()
    assert honba.refused("tournament", "sheet", "Cup", "1", "--lang", "fr") == refused
