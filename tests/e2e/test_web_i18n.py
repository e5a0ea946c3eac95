"""The web pages in Japanese and English (replay/web/i18n.py): the language a request is served in
(``?lang=``, the cookie the switch leaves, the browser's Accept-Language) and the pages in both
languages in Chromium at 360 x 740 (the table page recording a ron in its five taps, the standings,
the director's and the referee's pages). The catalogue's completeness: tests/unit/test_catalogue.py.
The browser tests are skipped without /usr/bin/chromium."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from playwright_support import PHONES, phone, readable, taps
from starlette.testclient import TestClient
from web_support import PLAYERS, prepare, send, serving

from replay.service.director import stages
from replay.service.recording.recording import end
from replay.service.tournaments.sign_off import require_sign_off
from replay.service.tournaments.tournaments import attach_match, create_tournament, plan_session
from replay.store.application import HonbaApp
from replay.web import i18n
from replay.web.app import create_app


@pytest.mark.parametrize(
    ("query", "cookie", "accept", "language"),
    [
        (None, None, None, "en"),
        (None, None, "ja", "ja"),
        (None, None, "ja-JP,ja;q=0.9,en-US;q=0.8", "ja"),
        (None, None, "en-GB,en;q=0.9,ja;q=0.5", "en"),
        (None, None, "fr-FR,ja;q=0.3", "ja"),
        (None, None, "fr-FR,de;q=0.5", "en"),
        (None, None, "ja;q=0", "en"),
        (None, "ja", "en", "ja"),
        ("en", "ja", "ja", "en"),
        ("xx", None, "ja", "ja"),
    ],
)
def test_the_language_is_the_query_the_cookie_or_the_browsers(
    query: str | None, cookie: str | None, accept: str | None, language: str
) -> None:
    assert i18n.chosen(query, cookie, accept) == language


def test_the_forms_names_made_once_per_language_stay_in_their_language(tmp_path: Path) -> None:
    # The names a form offers (_words.html) are translated once per language and kept with the
    # template (issue 36): pages in either language, in turns, each say its own.
    db = str(tmp_path / "honba.sqlite")
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    with TestClient(create_app(db)) as client:
        for _turn in range(2):
            english = client.get(f"/matches/t1?token={token}&lang=en").text
            japanese = client.get(f"/matches/t1?token={token}&lang=ja").text
            assert ">four winds<" in english and "四風連打" not in english
            assert ">四風連打<" in japanese and "four winds" not in japanese


def test_a_page_says_its_language_and_the_switch_keeps_the_query_and_sets_the_cookie(tmp_path: Path) -> None:
    db = str(tmp_path / "honba.sqlite")
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    with TestClient(create_app(db)) as client:
        english = client.get(f"/matches/t1?token={token}").text
        assert '<html lang="en">' in english and ">Win<" in english
        japanese = client.get(f"/matches/t1?token={token}", headers={"Accept-Language": "ja-JP,ja;q=0.9"}).text
        assert '<html lang="ja">' in japanese and ">和了<" in japanese and ">ツモ<" in japanese
        # The switch is the page itself (its token kept) in the other language.
        assert f'href="/matches/t1?token={token}&amp;lang=en"' in japanese
        chosen = client.get(f"/matches/t1?token={token}&lang=ja")
        assert chosen.cookies.get(i18n.COOKIE) == "ja"
        # The cookie keeps it for the next page, whatever the browser asks.
        again = client.get("/", headers={"Accept-Language": "en"}).text
        assert '<html lang="ja">' in again and "対局一覧" in again


# Words of the pages' own English that a Japanese page must not show (names and data aside).
ENGLISH = (
    "the",
    "of",
    "and",
    "every",
    "match",
    "matches",
    "event",
    "rank",
    "player",
    "rating",
    "points",
    "Check",
    "Show",
)


def untranslated(page: str, data: tuple[str, ...]) -> list[str]:
    """The English words left in a page's visible text, its code samples and the given data removed."""
    body = re.sub(r"(?s)<code[^>]*>.*?</code>|<title>.*?</title>|<[^>]+>", " ", page.split("<main", 1)[1])
    for value in data:
        body = body.replace(value, " ")
    return [word for word in ENGLISH if re.search(rf"\b{word}\b", body)]


def test_the_ratings_what_if_certificate_and_error_pages_have_no_english_left_in_japanese(tmp_path: Path) -> None:
    db = str(tmp_path / "honba.sqlite")
    prepare(db, {"t1": PLAYERS})
    app = HonbaApp.open(db)
    try:
        create_tournament(app, "Cup", PLAYERS)
        plan_session(app, "Cup", 1, [list(PLAYERS)])
        attach_match(app, "Cup", "t1", 1, 1)
    finally:
        app.close()
    japanese = {"Accept-Language": "ja"}
    with TestClient(create_app(db)) as client:
        pages = {
            "/ratings": ("レーティング", 200),
            "/ratings?system=ema": ("EMA 式", 200),
            "/tournaments/Cup/what-if?rules=tenhou": ("実際ともしもの比較", 200),
            "/certificates/verify": ("署名付き結果の検証", 200),
            "/no-such-page": ("見つかりません", 404),
        }
        for url, (text, status) in pages.items():
            page = client.get(url, headers=japanese)
            assert page.status_code == status, url
            assert text in page.text, url
            assert untranslated(page.text, (*PLAYERS, "Cup", "OpenSkill", "honba", "Nobody", "tenhou")) == [], url
            # The same page in English has those words: the check can see them.
            english = client.get(url, headers={"Accept-Language": "en"}).text
            assert untranslated(english, (*PLAYERS, "Cup")) != [], url


def test_the_payments_are_worded_in_japanese_from_the_services_values(tmp_path: Path) -> None:
    db = str(tmp_path / "honba.sqlite")
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    ron = {"kind": "win", "winner": "Ben", "discarder": "Ann", "value": "3/30", "riichi": "Ben"}
    with TestClient(create_app(db), headers={"Accept-Language": "ja"}) as client:
        confirm, table = send(client, "t1", token, ron)
        check = client.post(
            "/matches/t1/check",
            data={"csrf": client.cookies.get("honba_csrf"), "token": token, "kind": "draw", "ready": "Ben"},
        ).json()
    assert "error" not in check, check
    # 3 han 30 fu from a non-dealer is 3,900; Ben's riichi stick goes out and comes back (seed 000).
    assert "Ann から Ben へ 3,900" in confirm and "Ben が 1,000 リーチ棒 を供託" in confirm
    assert "供託から Ben へ 1,000 供託" in confirm and "t1 の記録を確認" in confirm and "記録後の点数" in confirm
    ledger = table.split('id="ledger"', 1)[1]
    assert "Ann から Ben へ 3,900" in ledger and "Ben が 1,000 リーチ棒 を供託" in ledger
    for page in (confirm, ledger):
        assert " pays " not in page and "on the table" not in page and "gives" not in page
    # The script words the confirm step from the same values, with the sentences the page gives it.
    # An exhaustive draw with one tenpai: 3,000 noten payments, 1,000 from each of the three others.
    assert [row["payee"] for row in check["entries"][0]["payments"]] == ["Ben", "Ben", "Ben"]
    assert "%(payer)s から %(payee)s へ %(amount)s" in table


def main_text(page: str) -> str:
    """The text of a page's main element, its tags dropped and its white space collapsed."""
    main = page.split("<main", 1)[1].split("</main>", 1)[0]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", main.split(">", 1)[1])).split())


def test_the_table_standings_director_and_referee_pages_in_both_languages_on_a_phone(
    browser: Any, tmp_path: Path
) -> None:
    db = str(tmp_path / "honba.sqlite")
    table, director = prepare(db, {"t1": PLAYERS}, [("table", "t1"), ("director", None)])
    app = HonbaApp.open(db)
    try:
        create_tournament(app, "Cup", PLAYERS)
        plan_session(app, "Cup", 1, [list(PLAYERS)])
        attach_match(app, "Cup", "t1", 1, 1)
        # The director's longer forms with what they show: the format's stages, a team.
        stages.declare_format(app, "Cup", stages.event_format_of(["heats:2:advance=4", "final:1"]))
        stages.join_team(app, "Cup", "Red", ["Ann", "Ben"])
    finally:
        app.close()
    with serving(create_app(db)) as base:
        page = phone(browser, PHONES["360x740"])
        page.context.set_extra_http_headers({"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.8"})
        page.goto(f"{base}/matches/t1?token={table}")
        assert page.get_attribute("html", "lang") == "ja"
        taps(page)
        for name, value in (("winner", "Ben"), ("discarder", "Ann"), ("value", "3/30"), ("riichi", "Ben")):
            page.locator(f'#entry label.pick:has(input[name="{name}"][value="{value}"])').tap()
        expect(page.locator("#record")).to_have_text("記録")
        expect(page.locator("#record")).to_be_enabled()
        with page.expect_navigation():
            page.locator("#record").tap()
        assert taps(page) == (5, False)
        assert "東 2" in page.inner_text("#state") and "本場" in page.inner_text("#state")
        assert page.locator("#kind-win + .face").inner_text() == "和了"
        readable(page)
        pages = {
            f"{base}/tournaments/Cup": ("順位", "rank"),
            f"{base}/director?token={director}": ("大会運営", "Director"),
            f"{base}/director/t/Cup?token={director}": ("席決め", "Seat session"),
            f"{base}/director/t/Cup/s/1?token={director}": ("速報順位表", "Live standings"),
            f"{base}/referee/m/t1?token={director}": ("訂正", "Corrections"),
            f"{base}/referee?token={director}": ("審判席", "Referee's desk"),
        }
        # The audit page (a report of its own, no switch) in the browser's language too.
        page.goto(f"{base}/matches/t1/audit")
        assert page.get_attribute("html", "lang") == "ja"
        assert "対局の監査" in page.inner_text("body")
        readable(page)
        # The pages, the referee's desk last: its switch is tapped next.
        for url, (japanese, _english) in pages.items():
            page.goto(url)
            assert page.get_attribute("html", "lang") == "ja"
            assert japanese in page.inner_text("main"), url
            readable(page)
        # The switch: English from here on (the cookie), whatever the browser asks.
        with page.expect_navigation():
            page.locator("#langs a[hreflang=en]").tap()
        assert page.get_attribute("html", "lang") == "en"
        page.goto(f"{base}/matches/t1?token={table}")
        assert page.get_attribute("html", "lang") == "en"
        assert page.locator("#kind-win + .face").inner_text() == "Win"
        readable(page)
        english_cookie = {c["name"]: c["value"] for c in page.context.cookies()}[i18n.COOKIE]
    # The other pages in English with the cookie the switch left, the browser still asking for
    # Japanese: what they say is the HTML's (their layout in English: test_web_thumbs_browser.py).
    assert english_cookie == "en"
    with TestClient(create_app(db), cookies={i18n.COOKIE: english_cookie}) as client:
        for url, (_japanese, english) in pages.items():
            shown = client.get(url.removeprefix(base), headers={"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.8"})
            assert shown.status_code == 200, url
            assert '<html lang="en">' in shown.text, url
            assert english in main_text(shown.text), url


def test_the_table_pages_offline_and_sign_off_texts_in_japanese_on_a_phone(browser: Any, tmp_path: Path) -> None:
    """The outbox's sentences (the script's, from the page's JSON island) and the sign-off's, in
    Japanese at 360 x 740, with no sideways scrolling and 44 px targets."""
    db = str(tmp_path / "honba.sqlite")
    (table,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    app = HonbaApp.open(db)
    try:
        create_tournament(app, "Cup", PLAYERS)
        attach_match(app, "Cup", "t1", 1, 1)
        require_sign_off(app, "Cup")
    finally:
        app.close()
    with serving(create_app(db)) as base:
        page = phone(browser, PHONES["360x740"], offline_copy=True)
        page.context.set_extra_http_headers({"Accept-Language": "ja"})
        page.goto(f"{base}/matches/t1?token={table}")
        page.context.set_offline(True)
        # Ben's ron on Cho (3 han 30 fu: 3,900), kept on the phone; then Dai's ron on Ann behind it.
        for winner, discarder, value in (("Ben", "Cho", "3/30"), ("Dai", "Ann", "2/30")):
            for name, picked in (("winner", winner), ("discarder", discarder), ("value", value)):
                page.locator(f'#entry label.pick:has(input[name="{name}"][value="{picked}"])').tap()
            expect(page.locator("#record")).to_be_enabled()
            if winner == "Ben":
                expect(page.locator("#confirm-lines")).to_have_text(
                    "サーバーに接続できません。記録するとこの入力は端末に保存され、接続が戻ったときに送信されます。"
                )
            else:
                expect(page.locator("#confirm-lines")).to_have_text(
                    "未送信の記録 1 件の後に保存します。支払いは記録されてから表示されます。"
                )
            page.locator("#record").tap()
            expect(page.locator("#record")).to_be_disabled()
        expect(page.locator("#outbox .warning")).to_have_text("未送信(この端末に保存、この順で送信):")
        expect(page.locator("#outbox .waiting li")).to_have_text(
            ["E1-0: Ben が Cho からロン 3/30", "続いて: Dai が Ann からロン 2/30"]
        )
        readable(page)
        with page.expect_navigation():
            page.context.set_offline(False)
        expect(page.locator("#ledger > li.entry")).to_have_count(2)
        # The match ends (the table's early end, by another phone); the players sign it off.
        app = HonbaApp.open(db)
        try:
            end(app, "t1", "time limit")
        finally:
            app.close()
        page.reload()
        expect(page.locator("#sign-off h2")).to_have_text("最終持ち点: 未確認")
        expect(page.locator("#sign-off p.muted")).to_have_text(
            "各選手が最終持ち点を確認します(または審判が確認します)。異議は審判席に届きます。"
        )
        expect(page.locator("#confirm-scores")).to_have_text("最終持ち点を確認")
        expect(page.locator("#dispute-scores")).to_have_text("異議あり")
        readable(page)
        page.locator('#sign-form label.pick:has(input[name="player"][value="Cho"])').tap()
        page.locator('#sign-form input[name="note"]').fill("供託が違う")
        with page.expect_navigation():
            page.locator("#dispute-scores").tap()
        expect(page.locator("#sign-off h2")).to_have_text("最終持ち点: 異議あり")
        expect(page.locator("#signatures")).to_contain_text("Cho: 異議あり (供託が違う)")
        expect(page.locator("#signatures")).to_contain_text("Ann: 未確認")
        readable(page)
