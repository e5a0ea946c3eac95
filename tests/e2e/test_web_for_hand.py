"""The hand an entry was entered for, over the JSON API and the table page's forms (issue 33).

What the rule decides is tested at the service (tests/service/test_entry_for_hand.py); here what the
front ends add: the API's ``hand`` member and ``If-Match`` header (the ``ETag`` of ``GET
/api/matches/KEY``), the form's hidden ``expect``, the 409 answer with what was recorded instead,
and a retry with its client key recording once. Under Tenhou's rules a non-dealer's ron of 3 han
30 fu pays 3,900, of 2 han 30 fu 2,000 (the seeds' riichi table).
"""

from __future__ import annotations

import re
from typing import Any

from starlette.testclient import TestClient
from web_support import PLAYERS, hidden, prepare, table_form

from domain.values import WinResult
from replay.store.application import HonbaApp

BEN_ON_CHO = {"kind": "win", "winner": "Ben", "discarder": "Cho", "value": "3/30"}
DAI_ON_ANN = {"kind": "win", "winner": "Dai", "discarder": "Ann", "value": "2/30"}


def wins(db: str) -> list[WinResult]:
    app = HonbaApp.open(db)
    try:
        return [f for _, f in app.get_match("t1").history if isinstance(f, WinResult)]
    finally:
        app.close()


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_the_api_refuses_an_entry_for_a_hand_already_taken_with_409(db: str, client: TestClient) -> None:
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    shown = client.get("/api/matches/t1").json()
    assert shown["hand"] == shown["for_hand"] == "E1-0"
    first = client.post("/api/matches/t1/entries", json={**BEN_ON_CHO, "hand": "E1-0"}, headers=bearer(token))
    assert first.status_code == 200, first.text
    second = client.post("/api/matches/t1/entries", json={**DAI_ON_ANN, "hand": "E1-0"}, headers=bearer(token))
    assert second.status_code == 409
    assert second.json() == {
        "error": "E1-0 was already recorded from another phone: Ben ron on Cho: 3 han 30 fu",
        "field": "hand",
        "hand": "E2-0",
        "recorded": ["Ben ron on Cho: 3 han 30 fu"],
    }
    assert len(wins(db)) == 1


def test_a_retry_with_its_client_key_answers_as_the_first_time(db: str, client: TestClient) -> None:
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    body: dict[str, Any] = {**BEN_ON_CHO, "hand": "E1-0", "client_key": "phone-a:7"}
    answers = [client.post("/api/matches/t1/entries", json=body, headers=bearer(token)) for _ in range(2)]
    assert [a.status_code for a in answers] == [200, 200]
    assert answers[0].json() == answers[1].json()
    assert len(wins(db)) == 1


def test_if_match_takes_the_etag_of_the_match_read(db: str, client: TestClient) -> None:
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    etag = client.get("/api/matches/t1").headers["etag"]
    assert re.fullmatch(r'"\d+"', etag)
    first = client.post("/api/matches/t1/entries", json=BEN_ON_CHO, headers={**bearer(token), "If-Match": etag})
    assert first.status_code == 200
    assert first.headers["etag"] == client.get("/api/matches/t1").headers["etag"] != etag
    stale = client.post("/api/matches/t1/entries", json=DAI_ON_ANN, headers={**bearer(token), "If-Match": etag})
    assert stale.status_code == 409
    assert stale.json()["error"].endswith("at E2-0): E1-0 Ben ron on Cho: 3 han 30 fu")
    assert len(wins(db)) == 1
    bad = client.post("/api/matches/t1/entries", json=DAI_ON_ANN, headers={**bearer(token), "If-Match": "yesterday"})
    assert bad.status_code == 400 and bad.json()["field"] == "If-Match"


def test_a_hand_member_that_is_not_text_is_refused_by_name(db: str, client: TestClient) -> None:
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    answer = client.post("/api/matches/t1/entries", json={**BEN_ON_CHO, "hand": 3}, headers=bearer(token))
    assert answer.status_code == 400 and answer.json()["field"] == "hand"
    assert wins(db) == []


def test_two_pages_on_one_table_link_record_one_hand(db: str, client: TestClient) -> None:
    """Both phones opened the page at E1-0; the second's entry is refused and the page says why."""
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    phone_a, phone_b = table_form(client, token), table_form(client, token)
    assert phone_a["expect"] == phone_b["expect"] == "E1-0"
    assert client.post("/matches/t1/record", data={**phone_a, **BEN_ON_CHO}).status_code == 200
    refused = client.post("/matches/t1/record", data={**phone_b, **DAI_ON_ANN})
    assert refused.status_code == 409
    assert re.search(
        r'id="taken" role="alert">Not recorded: E1-0 was already recorded from another phone: '
        r"Ben ron on Cho: 3 han 30 fu\.<",
        refused.text,
    )
    # The page shows the table as it stands, ready for the next hand.
    assert hidden(refused.text, "expect") == "E2-0"
    assert len(wins(db)) == 1


def test_the_confirm_page_carries_the_hand_to_record(db: str, client: TestClient) -> None:
    """Without scripts: the preview's confirm page sends the hand on with the entry."""
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    phone_b = table_form(client, token)
    confirm = client.post("/matches/t1/preview", data={**phone_b, **DAI_ON_ANN})
    assert hidden(confirm.text, "expect") == "E1-0"
    client.post("/matches/t1/record", data={**table_form(client, token), **BEN_ON_CHO})
    fields = dict(re.findall(r'<input type="hidden" name="([a-z_0-9]+)" value="([^"]*)"', confirm.text))
    refused = client.post("/matches/t1/record", data=fields)
    assert refused.status_code == 409
    assert len(wins(db)) == 1


def test_the_page_s_script_is_answered_in_json(db: str, client: TestClient) -> None:
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    form = table_form(client, token)
    json_accept = {"Accept": "application/json"}
    done = client.post("/matches/t1/record", data={**form, **BEN_ON_CHO}, headers=json_accept)
    assert done.status_code == 200 and done.json()["hand"] == "E2-0"
    # The next entry kept on the phone follows the first by its client key.
    after = {**table_form(client, token), "expect": "", "after": form["client_key"]}
    assert client.post("/matches/t1/record", data={**after, **DAI_ON_ANN}, headers=json_accept).json()["hand"] == "E3-0"
    stale = client.post(
        "/matches/t1/record", data={**table_form(client, token), "expect": "E1-0", **DAI_ON_ANN}, headers=json_accept
    )
    assert stale.status_code == 409 and stale.json()["hand"] == "E3-0"
    assert len(wins(db)) == 2


def test_every_form_of_the_table_page_that_records_names_the_hand(db: str, client: TestClient) -> None:
    """An entry naming no hand is recorded unchecked (kept for old API clients): the page never sends one."""
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    client.post("/matches/t1/record", data={**table_form(client, token), **BEN_ON_CHO})
    page = client.get("/matches/t1", params={"token": token}).text
    forms = re.findall(r'(?s)<form method="post" action="/matches/t1/(?:preview|record)"[^>]*>.*?</form>', page)
    # The entry form, the undo and the early end.
    assert len(forms) == 3
    for form in forms:
        assert re.search(r'name="expect" value="E2-0"', form), form[:80]
