"""The table page on tournament day (issue 33), in the system's Chromium on a 360 x 740 phone: two
phones on one table link, entries kept on the phone while it is offline, the page opening again
without a connection.

The rule (an entry for a hand already taken is refused) is tested at the service
(tests/service/test_entry_for_hand.py); here what the page adds: the refusal shown to the table, the outbox
kept in IndexedDB and sent in order when the connection is back, the service worker, the players'
sign-off tapped at the table (the standings' and the referee's desk's lines about it, plain HTML, are
read through the test client in the same test). Numbers are
the published riichi table's (a non-dealer's ron of 3 han 30 fu is 3,900, of 2 han 30 fu 2,000).
Skipped when /usr/bin/chromium is absent; every wait is bounded, nothing is timed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from honba_cli import invoke
from playwright.sync_api import expect
from playwright_support import CHROMIUM, PHONES, phone, readable
from starlette.testclient import TestClient
from web_support import PLAYERS, element_text, hidden, prepare, serving

from replay.web.app import create_app

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium (apt-get install chromium)")


def honba(db: str, *words: str) -> str:
    result = invoke(["--db", db, *words])
    assert result.exit_code == 0, result.output
    return result.stdout


def results(db: str) -> list[str]:
    """The hands stored, in order, as ``honba log`` says them."""
    return [h["result"] for h in json.loads(honba(db, "log", "t1", "--json"))["hands"] if h.get("result")]


def table_phone(browser: Any) -> Any:
    """A 360 x 740 phone with the table page's service worker running, as on tournament day."""
    return phone(browser, PHONES["360x740"], offline_copy=True)


def tap_entry(page: Any, taps: tuple[tuple[str, str], ...]) -> None:
    for name, value in taps:
        page.locator(f'#entry label.pick:has(input[name="{name}"][value="{value}"])').tap()


BEN_ON_CHO = (("winner", "Ben"), ("discarder", "Cho"), ("value", "3/30"))
DAI_ON_ANN = (("winner", "Dai"), ("discarder", "Ann"), ("value", "2/30"))
DRAW_ANN_READY = (("kind", "draw"), ("ready", "Ann"))


def test_two_pages_on_one_table_link_store_one_hand_and_the_second_is_told(browser: Any, db: str) -> None:
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    with serving(create_app(db)) as base:
        link = f"{base}/matches/t1?token={token}"
        phone_a, phone_b = table_phone(browser), table_phone(browser)
        phone_a.goto(link)
        phone_b.goto(link)
        # Phone B has tapped its ron and sees its payments (the table was at E1-0 then) ...
        tap_entry(phone_b, DAI_ON_ANN)
        expect(phone_b.locator("#confirm-lines")).to_contain_text("Ann pays Dai 2,000")
        # ... when phone A records the hand.
        tap_entry(phone_a, BEN_ON_CHO)
        expect(phone_a.locator("#confirm-lines")).to_contain_text("Cho pays Ben 3,900")
        with phone_a.expect_navigation():
            phone_a.locator("#record").tap()
        expect(phone_a.locator("#state")).to_contain_text("East 2")
        # Phone B's Record: refused, and the page (reloaded at the table as it stands) says why.
        with phone_b.expect_navigation():
            phone_b.locator("#record").tap()
        refused = phone_b.locator("#outbox .refused")
        expect(refused).to_contain_text(
            "Not recorded: Dai ron on Ann 2/30 (entered at E1-0). "
            "E1-0 was already recorded from another phone: Ben ron on Cho: 3 han 30 fu."
        )
        expect(phone_b.locator("#state")).to_contain_text("East 2")
        readable(phone_b)
        # A phone still at E1-0 that taps again is told before it can record.
        phone_c = table_phone(browser)
        phone_c.goto(link)
        honba(db, "draw", "t1", "--ready", "Ann,Ben,Cho,Dai")  # a third phone's entry, by the command line
        tap_entry(phone_c, DRAW_ANN_READY)
        expect(phone_c.locator("#confirm-lines .error")).to_have_text(
            "E2-0 was already recorded from another phone: exhaustive draw, ready: Ann, Ben, Cho, Dai"
        )
        expect(phone_c.locator("#record")).to_be_disabled()
        # Seen: the refusal goes once the table has read it.
        phone_b.locator("#outbox .refused button").tap()
        expect(refused).to_have_count(0)
    assert results(db) == ["Ben ron on Cho: 3 han 30 fu", "exhaustive draw, ready: Ann, Ben, Cho, Dai"]


def test_entries_made_offline_are_kept_in_order_and_sent_once_when_back_online(browser: Any, db: str) -> None:
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    with serving(create_app(db)) as base:
        page = table_phone(browser)
        page.goto(f"{base}/matches/t1?token={token}")
        page.context.set_offline(True)
        for entry in (BEN_ON_CHO, DAI_ON_ANN, DRAW_ANN_READY):
            tap_entry(page, entry)
            expect(page.locator("#record")).to_be_enabled()
            page.locator("#record").tap()
            expect(page.locator("#record")).to_be_disabled()
        waiting = page.locator("#outbox .waiting li")
        expect(waiting).to_have_text(
            ["E1-0: Ben ron on Cho 3/30", "then: Dai ron on Ann 2/30", "then: exhaustive draw, ready: Ann"]
        )
        readable(page)
        assert results(db) == []
        # Back online: sent in order, then the page shows the table as it stands.
        with page.expect_navigation():
            page.context.set_offline(False)
        expect(page.locator("#outbox .waiting li")).to_have_count(0)
        expect(page.locator("#ledger > li.entry")).to_have_count(3)
        # Nothing refused, nothing left.
        expect(page.locator("#outbox .refused")).to_have_count(0)
    # Ann deals first: Ben's ron passes the deal (E2-0), Dai's too (E3-0), and the draw with the
    # dealer, Cho, not ready passes it again with a counter: E4-1.
    assert results(db) == ["Ben ron on Cho: 3 han 30 fu", "Dai ron on Ann: 2 han 30 fu", "exhaustive draw, ready: Ann"]
    assert json.loads(honba(db, "status", "t1", "--json"))["hand"] == "E4-1"


def test_an_entry_kept_offline_for_a_hand_another_phone_recorded_is_shown_not_recorded(browser: Any, db: str) -> None:
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    with serving(create_app(db)) as base:
        page = table_phone(browser)
        page.goto(f"{base}/matches/t1?token={token}")
        page.context.set_offline(True)
        for entry in (DAI_ON_ANN, DRAW_ANN_READY):
            tap_entry(page, entry)
            expect(page.locator("#record")).to_be_enabled()
            page.locator("#record").tap()
            expect(page.locator("#record")).to_be_disabled()
        honba(db, "win", "t1", "Ben:3/30", "--from", "Cho")  # another phone, online, recorded E1-0
        with page.expect_navigation():
            page.context.set_offline(False)
        refused = page.locator("#outbox .refused")
        expect(refused).to_have_count(2)
        expect(refused.first).to_contain_text(
            "Not recorded: Dai ron on Ann 2/30 (entered at E1-0). "
            "E1-0 was already recorded from another phone: Ben ron on Cho: 3 han 30 fu."
        )
        expect(refused.nth(1)).to_contain_text("the entry sent before this one from this phone was not recorded")
        # Reloaded, they are still shown: never lost until the table says it has seen them.
        page.reload()
        expect(page.locator("#outbox .refused")).to_have_count(2)
    assert results(db) == ["Ben ron on Cho: 3 han 30 fu"]


# True once the service worker's cache holds this page. A predicate that returns caches.match's promise
# passed at once (a promise is truthy: Playwright does not wait for it), and went offline before the
# page was kept when the machine was busy: each poll asks again and answers what the last one found.
KEPT = """() => {
  caches.match(location.href).then((found) => { window.honbaKept = Boolean(found); });
  return window.honbaKept === true;
}"""


def test_the_table_page_opens_again_offline(browser: Any, db: str) -> None:
    """Served on 127.0.0.1 (a secure context, as HTTPS is), the service worker keeps the page."""
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    with serving(create_app(db)) as base:
        page = table_phone(browser)
        link = f"{base}/matches/t1?token={token}"
        page.goto(link)
        # The page is kept and the worker has taken it over (activated and claimed: a worker still
        # activating when the page reloads leaves the reload to the network, which is off).
        page.wait_for_function(KEPT, polling=100)
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        page.context.set_offline(True)
        page.reload()
        expect(page.locator("#entry")).to_have_count(1)
        tap_entry(page, BEN_ON_CHO)
        page.locator("#record").tap()
        expect(page.locator("#outbox .waiting li")).to_have_text(["E1-0: Ben ron on Cho 3/30"])
        with page.expect_navigation():
            page.context.set_offline(False)
        expect(page.locator("#ledger > li.entry")).to_have_count(1)
    assert results(db) == ["Ben ron on Cho: 3 han 30 fu"]


def test_the_players_sign_off_the_final_scores_and_a_dispute_reaches_the_referee(browser: Any, db: str) -> None:
    table, referee = prepare(db, {"t1": PLAYERS}, [("table", "t1"), ("referee", None)])
    honba(db, "tournament", "create", "Cup", "--players", ",".join(PLAYERS))
    honba(db, "tournament", "attach", "Cup", "t1", "--table", "1")
    honba(db, "tournament", "sign-off", "Cup")
    honba(db, "win", "t1", "Ben:3/30", "--from", "Cho")
    honba(db, "end", "t1", "--reason", "time limit")
    with serving(create_app(db)) as base:
        page = table_phone(browser)
        page.goto(f"{base}/matches/t1?token={table}")
        expect(page.locator("#sign-off h2")).to_have_text("Final scores: unconfirmed")
        for player in ("Ann", "Ben", "Dai"):
            page.locator(f'#sign-form label.pick:has(input[name="player"][value="{player}"])').tap()
            with page.expect_navigation():
                page.locator("#confirm-scores").tap()
        page.locator('#sign-form label.pick:has(input[name="player"][value="Cho"])').tap()
        page.locator('#sign-form input[name="note"]').fill("my riichi stick is missing")
        with page.expect_navigation():
            page.locator("#dispute-scores").tap()
        expect(page.locator("#sign-off h2")).to_have_text("Final scores: disputed")
        expect(page.locator("#signatures")).to_contain_text("Cho: disputed (my riichi stick is missing)")
        readable(page)
        # The standings and the referee's desk say it in their HTML (no script, a plain form): read
        # and sent without a browser of their own, at the same store.
        with TestClient(create_app(db)) as client:
            assert "t1 (disputed)" in element_text(client.get("/tournaments/Cup").text, "unconfirmed")
            desk = client.get("/referee", params={"token": referee}).text
            assert "Cho disputes: my riichi stick is missing" in element_text(desk, "disputes")
            signed = client.post("/referee/m/t1/sign", data={"csrf": hidden(desk, "csrf"), "token": referee})
            assert signed.status_code == 200, signed.text
            assert 'id="disputes"' not in client.get("/referee", params={"token": referee}).text
            assert 'id="unconfirmed"' not in client.get("/tournaments/Cup").text
        page.reload()
        expect(page.locator("#sign-off h2")).to_have_text("Final scores: confirmed")
        assert page.locator("#sign-form").count() == 0
