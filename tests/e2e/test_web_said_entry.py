"""A Japanese table page (``?lang=ja``) refusing what a phone typed, in Japanese, next to its field
(issue 33): a hand by tiles with a tile that is none, one the hand calculator finds no yaku in, a
tile field too long, a note of two lines, a hand value beyond any hand. One request each, the form
without scripts (its confirm step); what each sentence says in both languages is tested at the
service (tests/service/test_said_entry.py), here what the page adds: the language the query chose,
the words said there, escaped.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from web_support import PLAYERS, prepare, table_form

from replay.web.app import create_app

# Ben (South in the East round) on Cho's discard: a complete hand with West's triplet and no yaku.
NO_YAKU = {"kind": "win", "winner": "Ben", "discarder": "Cho", "hand": "123m456p789s333z22p", "win_tile": "1m"}
CASES = [
    (
        {**NO_YAKU, "hand": "123m456p789s11z8z"},
        "hand",
        "8z という牌はありません(字牌は 1z-7z)",
        "is no tile",
    ),
    (NO_YAKU, "hand", "役がありません", "no yaku"),
    ({**NO_YAKU, "hand": "2" * 121 + "m"}, "hand", "最大 120 文字です", "at most"),
    (
        {"kind": "penalty", "player": "Dai", "amount": "1000", "note": "slow\nplay"},
        "note",
        "note: &#39;slow\\nplay&#39; に制御文字 U+000A があります: 1 行の文字で入力してください",
        "control character",
    ),
    (
        {"kind": "win", "winner": "Ben", "discarder": "Cho", "value": "999han"},
        "value",
        "999翻の手はありません。最大の役満にはずっと前に届きます(最大 26 翻まで。役満などは名前で入力してください)",
        "beyond any hand",
    ),
]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[tuple[TestClient, dict[str, str]]]:
    db = str(tmp_path / "honba.sqlite")
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    with TestClient(create_app(db)) as client:
        yield client, table_form(client, token)


@pytest.mark.parametrize(("fields", "field", "japanese", "english"), CASES, ids=[c[3] for c in CASES])
def test_a_japanese_table_page_refuses_in_japanese_next_to_the_field(
    table: tuple[TestClient, dict[str, str]], fields: dict[str, str], field: str, japanese: str, english: str
) -> None:
    client, form = table
    page = client.post("/matches/t1/preview?lang=ja", data={**form, **fields})
    assert page.status_code == 400, page.text
    shown = re.findall(r'class="error" id="error-([a-z_0-9]+)" role="alert">([^<]*)<', page.text)
    assert shown == [(field, japanese)]
    assert english not in page.text
