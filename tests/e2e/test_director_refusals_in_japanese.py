"""The director's forms refused in Japanese (issue 33): a page asked with ``?lang=ja`` whose form
is refused comes back (400) with the service's refusal said in Japanese next to the form, the data
in it as typed: a tournament of more players than a session can seat, a team joined while a draw is
committed, a draw revealed under rules for another table size, a format of more sessions than
there can be, the next session seated while tables still play. One request each, no browser. And
the director's other sentences from the service: why phones cannot reach a server on loopback, how
many matches the standings do not count yet.

The service says these sentences in both languages (tests/service/test_director_said.py); here the
pages show them. Aliases have no form (``honba tournament alias`` on the command line): their
refusals are the service test's alone.
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from web_support import errors, prepare

from replay.html.stats import render_stats_html
from replay.service.common.access import TokenStore
from replay.service.director import director, draws, stages
from replay.service.director.address import served_address
from replay.service.tournaments.tournaments import create_tournament
from replay.store.application import HonbaApp
from replay.store.standings_view import catch_up, open_view
from replay.web.app import create_app

EIGHT = ["Ann", "Ben", "Cho", "Dai", "Eve", "Fay", "Gus", "Hal"]
CSRF = "a-csrf-token-of-the-test"


@pytest.fixture
def director_site(tmp_path: Path) -> Iterator[tuple[TestClient, str, str]]:
    """A store with "Cup" (its first session's draw committed for tables of four), "Open" (its
    first session seated and playing) and "Heats" (two stages, the first playing, a player gone);
    a client, the director's token, the seed of Cup's draw."""
    db = str(tmp_path / "honba.sqlite")
    (token,) = prepare(db, {}, [("director", None)])
    app = HonbaApp.open(db)
    try:
        create_tournament(app, "Cup", EIGHT)
        seed = draws.commit_draw(app, "Cup", 1, size=4).seed
        assert seed is not None
        create_tournament(app, "Open", EIGHT)
        view = open_view(app)
        catch_up(app, view)
        director.seat_next(app, view, TokenStore(app), "Open", token, method="random", seed=3)
        # "Heats" in two stages, its first session seated and playing, Hal gone after it.
        create_tournament(app, "Heats", EIGHT)
        stages.declare_format(
            app, "Heats", stages.event_format_of(["heats:1:advance=4,seating=fewest-repeats", "final:1:seating=rank"])
        )
        catch_up(app, view)
        director.seat_next(app, view, TokenStore(app), "Heats", token)
        stages.withdraw(app, "Heats", "Hal", 1, "a train to catch")
    finally:
        app.close()
    with TestClient(create_app(db)) as client:
        # The form's CSRF field matches its cookie (what a page load would have set).
        client.cookies.set("honba_csrf", CSRF)
        yield client, token, seed


def refused_in_japanese(client: TestClient, url: str, token: str, field: str, **fields: str) -> str:
    """The form posted to a page asked in Japanese: the refusal shown next to ``field`` (a 400)."""
    page = client.post(url, params={"lang": "ja"}, data={"csrf": CSRF, "token": token, **fields})
    assert page.status_code == 400, page.text[-2000:]
    assert '<html lang="ja">' in page.text
    return html.unescape(errors(page.text)[field])


def test_the_director_s_forms_refused_say_why_in_japanese_with_the_data(
    director_site: tuple[TestClient, str, str],
) -> None:
    client, token, seed = director_site
    players = "\n".join(f"P{number}" for number in range(4001))
    assert refused_in_japanese(client, "/director/tournaments", token, "name", name="Big", players=players) == (
        "選手: 4,001 人が書かれています。最大 4,000 人です(4 人卓 1,000 卓)"
    )
    assert refused_in_japanese(client, "/director/t/Cup/teams", token, "team", team="Red", members="Ann") == (
        "'Cup' 第 1 回戦の抽選はコミット済みです: 'Ann' をチームに入れることは抽選の対象を変えてしまいます。"
        "先に抽選を公開してください"
    )
    reveal = {"seed": seed, "rules": "tenhou-sanma"}
    assert refused_in_japanese(client, "/director/t/Cup/draw/reveal", token, "draw", **reveal) == (
        "第 1 回戦の抽選は 4 人卓でコミットしました。このルールは 3 人卓です"
    )
    stages = "heats:600:advance=4\nfinal:600"
    assert refused_in_japanese(client, "/director/t/Cup/format", token, "format", stages=stages) == (
        "回戦: 合計 1,200 回戦です。最大 1,000 です(最終回戦の番号)"
    )
    assert refused_in_japanese(client, "/director/t/Open/sessions", token, "session", method="random") == (
        "前の回戦の 2 卓がまだ対局中です(Open-s1-t1, Open-s1-t2): それでも第 2 回戦の席を決めるなら確認してください"
    )


def test_the_standings_in_japanese_say_how_many_matches_do_not_count_yet(
    director_site: tuple[TestClient, str, str],
) -> None:
    client, _token, _seed = director_site
    page = client.get("/tournaments/Open", params={"lang": "ja"}).text
    assert "進行中の対局 2 件はまだ集計に含まれません: 下のポイントは暫定です。" in page
    assert "still in progress" not in page
    # A staged event's sentence of its stages and a player's mark, in Japanese (the stage's name is data).
    staged = client.get("/tournaments/Heats", params={"lang": "ja"}).text
    assert '<p id="stage-in-play">heats が進行中です: 各選手の行は' in staged
    assert '<span class="muted small">第 1 回戦後に棄権</span>' in staged
    assert "being played" not in staged and "withdrew" not in staged


def test_on_loopback_the_director_s_page_says_in_japanese_why_phones_cannot_reach_it(tmp_path: Path) -> None:
    db = str(tmp_path / "h.sqlite")
    (token,) = prepare(db, {}, [("director", None)])
    with TestClient(create_app(db, served_address("127.0.0.1", 8000, None, {}))) as client:
        page = html.unescape(client.get("/director", params={"token": token, "lang": "ja"}).text)
    assert (
        "スマートフォンから接続できません: スマートフォンから 127.0.0.1 には接続できません(このマシン専用です): "
        "--host 0.0.0.0 を付けて起動し、スマートフォンが開くアドレスを --public-url(例: http://"
    ) in page
    assert "phones cannot reach" not in page


def test_the_stats_page_says_how_many_matches_do_not_count_yet_in_its_language() -> None:
    data = {"tournament": "Open", "players": [], "matches": 0, "in_progress": 2}
    assert "<p>進行中の対局 2 件はまだ集計に含まれません。</p>" in render_stats_html(data, "ja")
    assert "<p>2 matches still in progress do not count yet.</p>" in render_stats_html(data)
