"""A correction's lines in the request's language: the referee's confirm step (the entry before and
after, the fields and the payments that change) and the JSON API's correction (its headline, before,
after and payments, as the table page's script's answers are said), in Japanese for a Japanese
request and, for any other, the English the API always gave.

The match: Ann, Ben, Cho, Dai under Tenhou's rules; entry 2 is Ben's ron on Ann, 3 han 30 fu: 3,900.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient
from web_support import PLAYERS, prepare, send

from replay.web.app import create_app

JA = {"Accept-Language": "ja"}


@pytest.fixture
def desk(store_db: str) -> Iterator[tuple[TestClient, str]]:
    table, referee = prepare(store_db, {"t1": PLAYERS}, [("table", "t1"), ("referee", None)])
    with TestClient(create_app(store_db)) as client:
        send(client, "t1", table, {"kind": "win", "winner": "Ben", "discarder": "Ann", "han": "3", "fu": "30"})
        yield client, referee


def test_the_api_says_a_correction_in_the_request_s_language(desk: tuple[TestClient, str]) -> None:
    client, referee = desk
    headers = {"Authorization": f"Bearer {referee}"}
    body = {"action": "void", "target": 2, "by": "Kim", "reason": "wrong table"}
    url = "/api/matches/t1/corrections/preview"
    english = client.post(url, json=body, headers=headers)
    assert english.status_code == 200, english.text
    shown = english.json()["correction"]
    assert (shown["headline"], shown["before"], shown["after"]) == (
        "entry 2 voided by entry 3",
        "Ben ron on Ann: 3 han 30 fu",
        "void",
    )
    assert shown["hands"] == [{"before": ["E1-0: Ben ron on Ann: 3 han 30 fu", "Ann pays Ben 3,900"], "after": []}]
    japanese = client.post(url, json=body, headers={**headers, **JA})
    said = japanese.json()["correction"]
    assert (said["headline"], said["before"], said["after"]) == (
        "記録 2 を記録 3 で無効化",
        "Ben ロン (Ann 放銃): 3翻30符",
        "無効",
    )
    assert said["hands"] == [{"before": ["E1-0: Ben ロン (Ann 放銃): 3翻30符", "Ann から Ben へ 3,900"], "after": []}]
    # The rest is data, the same in both.
    assert {k: v for k, v in said.items() if k not in ("headline", "before", "after", "hands")} == {
        k: v for k, v in shown.items() if k not in ("headline", "before", "after", "hands")
    }
    # A refusal of the API's own reading, too.
    both = client.post(url, json={**body, "set": {}, "replacement": {}}, headers={**headers, **JA})
    assert both.status_code == 400
    assert both.json() == {
        "error": "変更するフィールド('set')か記録全体('replacement')のどちらか一方を指定してください",
        "field": "set",
    }


def test_the_desk_s_confirm_step_says_the_fields_and_payments_that_change_in_japanese(
    desk: tuple[TestClient, str],
) -> None:
    client, referee = desk
    form = {"csrf": client.cookies.get("honba_csrf"), "token": referee, "by": "Kim", "reason": "misread"}
    amend = {"action": "amend", "target": "2", "kind": "win", "winner": "Ben", "discarder": "Ann", "value": "4/30"}
    page = client.post("/referee/m/t1/correct/preview", data={**form, **amend}, headers=JA)
    assert page.status_code == 200, page.text
    found = dict(re.findall(r'<td id="correction-(before|after)">([^<]*)</td>', page.text))
    assert found == {"before": "Ben ロン (Ann 放銃): 3翻30符", "after": "Ben ロン (Ann 放銃): 4翻30符"}
    # The field by its name in the page's words, its values as entered; 4 han 30 fu off a non-dealer is 7,700.
    assert "<tr><td>点数</td><td>3/30</td><td>4/30</td></tr>" in page.text
    assert "変更前: E1-0: Ben ロン (Ann 放銃): 3翻30符; Ann から Ben へ 3,900" in page.text
    assert "変更後: E1-0: Ben ロン (Ann 放銃): 4翻30符; Ann から Ben へ 7,700" in page.text
    english = client.post("/referee/m/t1/correct/preview", data={**form, **amend}).text
    assert "<tr><td>value</td><td>3/30</td><td>4/30</td></tr>" in english
    assert "was: E1-0: Ben ron on Ann: 3 han 30 fu; Ann pays Ben 3,900" in english
