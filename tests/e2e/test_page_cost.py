"""What a page costs the server, where the cost was work done again for nothing (issue 35): the
domain's names said once per language, a template compiled once per process, a table link's QR code
drawn once. Each is checked by what the server does (the sentences said, the templates parsed, the
codes drawn), never by a time; what they saved is in docs/testing.md."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from jinja2 import Environment, pass_context
from starlette.testclient import TestClient
from test_web_director import links, seated_open
from web_support import PLAYERS, prepare

from replay.web.app import create_app


def test_the_domain_s_names_are_said_once_per_language_not_at_every_use(db: str, client: TestClient) -> None:
    # The forms' names of the domain's things (``_words.html``: an abortive draw's kind, a win's facts,
    # a share) were a dict of 45 translations built at each of the 60 uses on a table page: 2,389
    # sentences said a render, 62 % of its CPU. Said once for the language's templates, a render
    # after the first says none of them again, and the page still shows them in its language.
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    served = client.app.state.served  # type: ignore[attr-defined]
    said: Counter[str] = Counter()
    for language in ("en", "ja"):
        templates = served.languages[language]
        say = templates.globals["_"]

        def counted(context: Any, message: str, say: Any = say, **values: Any) -> Any:
            said[message] += 1
            return say(context, message, **values)

        templates.globals["_"] = pass_context(counted)
        client.get("/matches/t1", params={"token": token, "lang": language})  # the first: names said once
        said.clear()
        page = client.get("/matches/t1", params={"token": token, "lang": language}).text
        names = ("nine terminals", "four winds", "robbed kong", "reverse mangan", "off table")
        assert [said[name] for name in names] == [0] * len(names), language
        assert ("九種九牌" if language == "ja" else "nine terminals") in page
        assert sum(said.values()) < 400, language  # the page's own sentences, each said where it is shown


def test_a_second_application_in_the_process_compiles_no_template_again(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every test's application (and a server's) made its own environments, which parsed and compiled
    # each template they rendered: about 0.9 CPU-seconds for all of them in both languages, again for
    # each application. The code compiled is kept for the process (``replay.web.site.COMPILED``).
    (token,) = prepare(db, {"t1": PLAYERS}, [("table", "t1")])
    urls = [f"/matches/t1?token={token}&lang={language}" for language in ("en", "ja")] + ["/", "/ratings"]
    with TestClient(create_app(db)) as first:
        pages = [first.get(url).text for url in urls]
    parsed: list[str] = []
    parse = Environment._parse

    def counted(self: Environment, source: str, name: str | None, filename: str | None) -> Any:
        parsed.append(str(name))
        return parse(self, source, name, filename)

    monkeypatch.setattr(Environment, "_parse", counted)
    with TestClient(create_app(db)) as second:
        again = [second.get(url).text for url in urls]
    assert parsed == []
    assert [len(page) for page in again] == [len(page) for page in pages] and "nine terminals" in again[0]


def test_a_table_link_s_qr_code_is_drawn_once_however_often_its_page_is_loaded(
    db: str, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import qrcode

    drawn: list[str] = []
    add_data = qrcode.QRCode.add_data

    def counted(code: Any, data: str, *args: Any, **options: Any) -> Any:
        drawn.append(data)
        return add_data(code, data, *args, **options)

    monkeypatch.setattr(qrcode.QRCode, "add_data", counted)
    client.get("/")  # the CSRF cookie
    director, seated = seated_open(client, db)
    shown = links(seated)
    assert len(shown) == 2 and seated.count('aria-label="QR code of the table link"') == 2
    for _ in range(3):
        again = client.get("/director/t/Open/s/1", params={"token": director}).text
        assert again.count('aria-label="QR code of the table link"') == 2
    assert sorted(drawn) == sorted(shown)  # each link's code drawn at the first load only


def test_the_standings_chart_is_drawn_once_until_the_standings_change(
    db: str, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The public standings page drew its chart (matplotlib) at every load, however many phones
    # opened it between two results; a result recorded draws it again.
    from matplotlib.figure import Figure

    from replay.service.recording.recording import end
    from replay.service.tournaments.tournaments import attach_match, create_tournament
    from replay.store.application import HonbaApp

    prepare(db, {"t1": PLAYERS, "t2": PLAYERS}, [])
    app = HonbaApp.open(db)
    try:
        create_tournament(app, "Cup", list(PLAYERS))
        attach_match(app, "Cup", "t1", 1, 1)
        attach_match(app, "Cup", "t2", 1, 2)
        end(app, "t1", "agreed")
    finally:
        app.close()
    drawn: list[int] = []
    savefig = Figure.savefig

    def counted(self: Figure, *args: Any, **options: Any) -> Any:
        drawn.append(1)
        return savefig(self, *args, **options)

    monkeypatch.setattr(Figure, "savefig", counted)
    pages = [client.get("/tournaments/Cup").text for _ in range(3)]
    assert len(drawn) == 1 and all('aria-label="Points by session"' in page for page in pages)
    assert len({page.count("<path") for page in pages}) == 1
    app = HonbaApp.open(db)
    try:
        end(app, "t2", "agreed")  # the standings move: the chart is drawn again, once
    finally:
        app.close()
    for _ in range(2):
        client.get("/tournaments/Cup")
    assert len(drawn) == 2
