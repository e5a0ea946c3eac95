"""The rules' refusals on the director's pages in Japanese (issue 33): the rules a session is seated
under (the seating form) and the other rules of the what-if page, said from the service's words in
the page's language, the preset's name as it was typed (escaped); in English unchanged. What each
sentence says is tested at the service (tests/service/test_said_rules.py).
"""

from __future__ import annotations

from starlette.testclient import TestClient
from web_support import errors, prepare

JA = {"Accept-Language": "ja"}
EN = {"Accept-Language": "en"}
EIGHT = "\n".join(("Ann", "Ben", "Cho", "Dai", "Eve", "Fay", "Gus", "Hal"))


def test_rules_that_are_no_preset_are_refused_in_the_page_s_language(db: str, client: TestClient) -> None:
    (director,) = prepare(db, {}, [("director", None)])
    client.get("/director", params={"token": director})  # the form's cookie
    created = client.post(
        "/director/tournaments",
        data={"csrf": client.cookies.get("honba_csrf"), "token": director, "name": "Open", "players": EIGHT},
    )
    assert created.status_code == 200, created.text
    seat = {"csrf": client.cookies.get("honba_csrf"), "token": director, "session": "1", "rules": "<b>wrc"}
    japanese = client.post("/director/t/Open/sessions", data=seat, headers=JA)
    assert japanese.status_code == 400
    assert errors(japanese.text)["session"].startswith("不明なルールのプリセット &#39;&lt;b&gt;wrc&#39;(あるのは: ")
    english = client.post("/director/t/Open/sessions", data=seat, headers=EN)
    assert errors(english.text)["session"].startswith("unknown rules preset &#39;&lt;b&gt;wrc&#39; (known: ")
    what_if = client.get("/tournaments/Open/what-if", params={"rules": "nonsense"}, headers=JA)
    assert what_if.status_code == 400
    assert "不明なルールのプリセット &#39;nonsense&#39;(あるのは: american-modern, " in what_if.text
    assert "unknown rules preset" not in what_if.text
    changed = client.get("/tournaments/Open/what-if", params={"rules": "nonsense"}, headers=EN)
    assert "unknown rules preset &#39;nonsense&#39; (known: american-modern, " in changed.text
