"""What the service says, on the pages in Japanese (issue 33): the table page's history, its
confirm step, the 409 of a hand another phone recorded (the page and the script's JSON, the API),
a bad entry's refusal next to its field, the referee's match page and the director's forms, said from the service's
words in the page's language; the same pages in English unchanged, and a name from the data
escaped inside a Japanese sentence. What each sentence says is tested at the service
(tests/service/test_said.py); here what the pages add: the language chosen, the catalogue merged,
the escaping.
"""

from __future__ import annotations

import re

from starlette.testclient import TestClient
from web_support import PLAYERS, prepare, table_form

BEN_ON_CHO = {"kind": "win", "winner": "Ben", "discarder": "Cho", "value": "3/30"}
DAI_ON_ANN = {"kind": "win", "winner": "Dai", "discarder": "Ann", "value": "2/30"}
JA = {"Accept-Language": "ja"}
EN = {"Accept-Language": "en"}
JSON = {"Accept": "application/json"}


def test_the_history_is_said_in_the_page_s_language(db: str, client: TestClient) -> None:
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    client.post("/matches/t1/record", data={**table_form(client, token), **BEN_ON_CHO})
    client.post("/matches/t1/record", data={**table_form(client, token), "kind": "draw", "ready": ["Ann", "Dai"]})
    japanese = client.get("/matches/t1", params={"token": token}, headers=JA).text
    assert "Ben ロン (Cho 放銃): 3翻30符" in japanese
    assert "流局 聴牌: Ann, Dai" in japanese
    # Undo names what it takes back, in words too.
    assert re.search(r'id="undo">[^<]*</button><span class="muted"> 流局 聴牌: Ann, Dai</span>', japanese)
    assert "ron on" not in japanese and "exhaustive draw" not in japanese
    english = client.get("/matches/t1", params={"token": token}, headers=EN).text
    assert "Ben ron on Cho: 3 han 30 fu" in english and "exhaustive draw, ready: Ann, Dai" in english
    assert "ロン" not in english


def test_a_second_phone_s_entry_is_refused_in_japanese_on_the_page_and_in_json(db: str, client: TestClient) -> None:
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    phone_a, phone_b, phone_c = table_form(client, token), table_form(client, token), table_form(client, token)
    assert client.post("/matches/t1/record", data={**phone_a, **BEN_ON_CHO}).status_code == 200
    refused = client.post("/matches/t1/record", data={**phone_b, **DAI_ON_ANN}, headers=JA)
    assert refused.status_code == 409
    assert re.search(
        r'id="taken" role="alert">記録されていません: E1-0 は別の端末で記録済みです: Ben ロン \(Cho 放銃\): 3翻30符。<',
        refused.text,
    )
    script = client.post("/matches/t1/record", data={**phone_c, **DAI_ON_ANN}, headers={**JA, **JSON})
    assert script.status_code == 409
    assert script.json() == {
        "error": "E1-0 は別の端末で記録済みです: Ben ロン (Cho 放銃): 3翻30符",
        "field": "expect",
        "hand": "E2-0",
        "recorded": ["Ben ロン (Cho 放銃): 3翻30符"],
    }
    # The same refusal in English, word for word as before.
    english = client.post("/matches/t1/record", data={**phone_c, **DAI_ON_ANN}, headers={**EN, **JSON})
    assert english.json()["error"] == "E1-0 was already recorded from another phone: Ben ron on Cho: 3 han 30 fu"


def test_the_api_s_409_follows_the_client_s_language(db: str, client: TestClient) -> None:
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    bearer = {"Authorization": f"Bearer {token}"}
    client.post("/api/matches/t1/entries", json={**BEN_ON_CHO, "hand": "E1-0"}, headers=bearer)
    stale = client.post("/api/matches/t1/entries", json={**DAI_ON_ANN, "hand": "E1-0"}, headers={**bearer, **JA})
    assert stale.status_code == 409
    assert stale.json()["error"] == "E1-0 は別の端末で記録済みです: Ben ロン (Cho 放銃): 3翻30符"
    plain = client.post("/api/matches/t1/entries", json={**DAI_ON_ANN, "hand": "E1-0"}, headers=bearer)
    assert plain.json()["error"] == "E1-0 was already recorded from another phone: Ben ron on Cho: 3 han 30 fu"


def test_a_bad_entry_is_refused_in_japanese_next_to_its_field(db: str, client: TestClient) -> None:
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    own = {"kind": "win", "winner": "Ben", "discarder": "Ben", "value": "3/30"}
    page = client.post("/matches/t1/preview", data={**table_form(client, token), **own}, headers=JA)
    assert page.status_code == 400
    assert re.search(
        r'id="error-discarder" role="alert">Ben は自分の捨て牌で和了できません: ツモに放銃者はいません<', page.text
    )
    impossible = {"kind": "win", "winner": "Ben", "discarder": "Cho", "value": "1/20"}
    checked = client.post("/matches/t1/check", data={**table_form(client, token), **impossible}, headers=JA)
    assert checked.status_code == 400
    assert checked.json() == {"error": "1翻20符はありません: 20符は平和ツモで、2翻以上です", "field": "value"}
    english = client.post("/matches/t1/check", data={**table_form(client, token), **impossible}, headers=EN)
    assert english.json()["error"] == "1 han 20 fu does not exist: 20 fu is pinfu tsumo, at least 2 han"


def test_the_confirm_step_says_the_hand_in_japanese(db: str, client: TestClient) -> None:
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    page = client.post("/matches/t1/preview", data={**table_form(client, token), **BEN_ON_CHO}, headers=JA)
    assert page.status_code == 200
    assert "<li>E1-0: Ben ロン (Cho 放銃): 3翻30符</li>" in page.text
    checked = client.post("/matches/t1/check", data={**table_form(client, token), **BEN_ON_CHO}, headers=JA).json()
    assert checked["entries"][0]["title"] == "E1-0: Ben ロン (Cho 放銃): 3翻30符"
    english = client.post("/matches/t1/check", data={**table_form(client, token), **BEN_ON_CHO}, headers=EN).json()
    assert english["entries"][0]["title"] == "E1-0: Ben ron on Cho: 3 han 30 fu"


def test_a_name_inside_a_japanese_sentence_is_escaped(db: str, client: TestClient) -> None:
    players = ("Ann", "<i>Ben</i>", "Cho", "Dai")
    (token,) = prepare(db, {"t1": players}, [("table", "t1")])
    win = {**BEN_ON_CHO, "winner": "<i>Ben</i>"}
    client.post("/matches/t1/record", data={**table_form(client, token), **win})
    page = client.get("/matches/t1", params={"token": token}, headers=JA).text
    assert "&lt;i&gt;Ben&lt;/i&gt; ロン (Cho 放銃): 3翻30符" in page
    assert "<i>Ben</i>" not in page


def test_the_referee_s_match_page_says_the_hands_in_japanese(db: str, client: TestClient) -> None:
    table, referee = prepare(db, {"t1": PLAYERS}, [("table", "t1"), ("referee", None)])
    client.post("/matches/t1/record", data={**table_form(client, table), **BEN_ON_CHO})
    page = client.get("/referee/m/t1", params={"token": referee}, headers=JA)
    assert page.status_code == 200, page.text
    assert "Ben ロン (Cho 放銃): 3翻30符" in page.text
    english = client.get("/referee/m/t1", params={"token": referee}, headers=EN).text
    assert "Ben ron on Cho: 3 han 30 fu" in english


def director_post(client: TestClient, url: str, token: str, **fields: object) -> str:
    answer = client.post(url, data={"csrf": client.cookies.get("honba_csrf"), "token": token, **fields}, headers=JA)
    assert answer.status_code == 400, answer.text
    return answer.text


def test_the_director_s_forms_are_refused_in_japanese(db: str, client: TestClient) -> None:
    (director,) = prepare(db, {}, [("director", None)])
    client.get("/director", params={"token": director})
    page = director_post(client, "/director/tournaments", director, name="Open", players="Ann\nBen\nAnn")
    assert "選手名は空にできず、互いに異なる必要があります" in page
    assert "different from each other" not in page
    client.post(
        "/director/tournaments",
        data={"csrf": client.cookies.get("honba_csrf"), "token": director, "name": "Open", "players": "Ann\nBen"},
    )
    page = director_post(client, "/director/t/Open/withdraw", director, player="Eve", after="0", reason="ill")
    assert "&#39;Eve&#39; は &#39;Open&#39; の選手ではありません" in page
    page = director_post(client, "/director/t/Open/withdraw", director, player="Ann", after="0", reason="")
    assert "選手が棄権する理由を書いてください" in page


def test_a_correction_refused_at_the_desk_names_its_entries_in_japanese(db: str, client: TestClient) -> None:
    table, referee = prepare(db, {"t1": PLAYERS}, [("table", "t1"), ("referee", None)])
    client.post("/matches/t1/record", data={**table_form(client, table), **BEN_ON_CHO})
    client.get("/referee/m/t1", params={"token": referee})
    void = {"csrf": client.cookies.get("honba_csrf"), "token": referee, "action": "void", "target": "2"}
    assert client.post("/referee/m/t1/correct", data={**void, "by": "Rei", "reason": "misread"}).status_code < 400
    again = client.post("/referee/m/t1/correct", data={**void, "by": "Rei", "reason": "twice"}, headers=JA)
    assert again.status_code == 400, again.text
    assert "記録 2 の結果または罰符はすでに無効です(記録 3 の訂正による。" in again.text
    assert "void already" not in again.text
    nobody = client.post("/referee/m/t1/correct", data={**void, "by": "", "reason": "x"}, headers=JA)
    assert "訂正者を入力してください" in nobody.text
    english = client.post("/referee/m/t1/correct", data={**void, "by": "Rei", "reason": "twice"}, headers=EN)
    assert "the result or penalty at entry 2 is void already (by the correction at entry 3:" in english.text


def test_what_a_correction_changed_is_headlined_in_japanese_at_the_desk(db: str, client: TestClient) -> None:
    table, referee = prepare(db, {"t1": PLAYERS}, [("table", "t1"), ("referee", None)])
    client.post("/matches/t1/record", data={**table_form(client, table), **BEN_ON_CHO})
    client.get("/referee/m/t1", params={"token": referee})
    void = {"csrf": client.cookies.get("honba_csrf"), "token": referee, "action": "void", "target": "2"}
    asked = {**void, "by": "Rei", "reason": "misread"}
    preview = client.post("/referee/m/t1/correct/preview", data=asked, headers=JA)
    assert (
        '<p class="change-headline" id="change-headline">記録する内容: 記録 2 を記録 3 で無効化。</p>' in preview.text
    )
    done = client.post("/referee/m/t1/correct", data=asked, headers=JA)
    assert '<p class="change-headline" id="change-headline">記録しました: 記録 2 を記録 3 で無効化。</p>' in done.text
    english = client.get(str(done.url), headers=EN).text
    assert '<p class="change-headline" id="change-headline">Recorded: entry 2 voided by entry 3.</p>' in english


def test_a_match_not_in_the_store_is_said_in_japanese(db: str, client: TestClient) -> None:
    (referee,) = prepare(db, {"t1": PLAYERS}, [("referee", None)])
    missing = client.get("/referee/m/t9", params={"token": referee}, headers=JA)
    assert missing.status_code == 404
    assert "対局 &#39;t9&#39; は保存されていません" in missing.text
    english = client.get("/referee/m/t9", params={"token": referee}, headers=EN)
    assert "no match &#39;t9&#39; in the store" in english.text


def test_the_director_s_draw_is_refused_in_japanese(db: str, client: TestClient) -> None:
    (director,) = prepare(db, {}, [("director", None)])
    client.get("/director", params={"token": director})
    players = "Ann\nBen\nCho\nDai"
    client.post(
        "/director/tournaments",
        data={"csrf": client.cookies.get("honba_csrf"), "token": director, "name": "Open", "players": players},
    )
    page = director_post(client, "/director/t/Open/draw/commit", director, commitment="xyz")
    assert "コミットメントは SHA-256 ダイジェストの 64 桁の 16 進数です" in page
    assert "hexadecimal" not in page


def test_the_director_s_substitute_is_refused_in_japanese(db: str, client: TestClient) -> None:
    (director,) = prepare(db, {}, [("director", None)])
    client.get("/director", params={"token": director})
    client.post(
        "/director/tournaments",
        data={"csrf": client.cookies.get("honba_csrf"), "token": director, "name": "Open", "players": "Ann\nBen"},
    )
    page = director_post(
        client, "/director/t/Open/substitute", director, substitute="Ben", replaces="Ann", reason="ill"
    )
    assert "&#39;Ben&#39; はすでに &#39;Open&#39; に出場しています: 補欠は新しい選手です" in page
    page = director_post(client, "/director/t/Open/substitute", director, substitute="Eve", replaces="Ann", reason="")
    assert "補欠が出場する理由を書いてください" in page
