"""Issue 27, done when: the 32-player event with two qualification sessions, a cut to 16 with points
halved, a semi-final and a final table runs end to end from the web; each stage's seating comes from
the standings before it; the standings per stage match a hand calculation.

The same event as the command line's (test_staged_event.py): the same format, draw seed, tables and
results, so the hand calculation of staged_support.py checks both. Here only the pages are used, as
a browser would: the director creates the event, declares the format, commits to and reveals the
draw and seats each later session with the forms of the director's pages (each form sent as the
page has it, the fields a person fills set); each table plays through the link the session's page
shows, its hands and its end (the time limit) entered with the table page's forms and confirmed.
The seating is read from the session's page, the results from the public standings page and the
JSON API.
"""

from __future__ import annotations

import hashlib
import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from staged_support import (
    PLAYED,
    PLAYERS,
    SEED,
    STAGES,
    VALUES,
    Line,
    by_rank,
    credit,
    drawn,
    halved,
    ranked,
    ranks,
    seat_results,
    snake,
)
from starlette.testclient import TestClient
from web_support import errors, form_of_page, prepare

from replay.web.app import create_app

NAME = "cup"
# Each match played: its table in seat order and its values (V1, V2).
Played = dict[str, tuple[list[str], int, int]]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(str(tmp_path / "cup.sqlite"))) as web:
        yield web


def opened(client: TestClient, url: str, **params: str) -> str:
    """A page opened (a GET, redirects followed): its HTML."""
    response = client.get(url, params=params or None)
    assert response.status_code == 200, response.text[-2000:]
    return response.text


def buttons(form: str, name: str) -> set[str]:
    """The values of a form's buttons (radios and boxes) of that name: what tapping one sends."""
    values = set()
    for tag in re.findall(r"<input\b[^>]*>", form):
        attrs = dict(re.findall(r'([a-z_-]+)="([^"]*)"', tag))
        if attrs.get("type") in ("radio", "checkbox") and attrs.get("name") == name:
            values.add(html.unescape(attrs.get("value", "")))
    return values


def sent(client: TestClient, page: str, form_id: str, status: int = 200, **filled: str) -> str:
    """A form of ``page`` sent as a browser would: its fields as the page has them, those ``filled``
    set (each one the form has; where it has buttons of that name, a value one of them sends, as
    tapped); the page it leads to (redirects followed)."""
    form = page.split(f'id="{form_id}"', 1)[1].split("</form>", 1)[0]
    for name, value in filled.items():
        assert f'name="{name}"' in form, f"the form {form_id} has no field {name}"
        tapped = buttons(form, name)
        assert not tapped or value in tapped, f"the form {form_id} has no button {name}={value}: {sorted(tapped)}"
    action, fields = form_of_page(page, form_id)
    response = client.post(action, data={**fields, **filled})
    assert response.status_code == status, errors(response.text) or response.text[-2000:]
    return response.text


def entered(client: TestClient, page: str, form_id: str, **filled: str) -> str:
    """An entry of a table page: its form sent, its confirm step confirmed; the table page after."""
    confirm = sent(client, page, form_id, **filled)
    assert 'id="confirm-form"' in confirm, errors(confirm)
    return sent(client, confirm, "confirm-form")


def value_button(value: int) -> dict[str, str]:
    """The table page's button for a value of the score table: han/fu (``3/30``) or the limit."""
    return {"value": VALUES[value]}


def seating(session_page: str) -> list[list[str]]:
    """Each table's players as the session's page lists them, in seat order."""
    found = re.findall(r'<li id="table-(\d+)">\s*<h2>Table \d+</h2>\s*<p>([^<]*)</p>', session_page)
    assert [int(n) for n, _ in found] == list(range(1, len(found) + 1))
    return [players.split(", ") for _, players in found]


def links(session_page: str) -> list[str]:
    return re.findall(r'class="table-link" href="([^"]+)"', session_page)


def seats(table_page: str) -> list[str]:
    """The players of the table page's seat cards, in seat order."""
    body = table_page.split('id="seats"', 1)[1].split('id="values"', 1)[0]
    return [html.unescape(name) for name in re.findall(r'<span class="name">([^<]*)</span>', body)]


def play(client: TestClient, link: str, table: list[str], v1: int, v2: int, lines: dict[str, Line]) -> None:
    """A table's match through its link, as staged_support says: seat 1 rons seat 2 for ``v1``, seat 3
    rons seat 0 for ``v2``, then the time limit ends it."""
    page = opened(client, link)
    assert seats(page) == table
    page = entered(client, page, "entry", kind="win", winner=table[1], discarder=table[2], **value_button(v1))
    page = entered(client, page, "entry", kind="win", winner=table[3], discarder=table[0], **value_button(v2))
    page = entered(client, page, "end-entry", reason="time limit")
    assert "<strong>finished</strong> (time limit)" in page and 'id="entry"' not in page
    credit(table, v1, v2, lines)


def play_session(
    client: TestClient, director: str, session_page: str, session: int, lines: dict[str, Line], played: Played
) -> None:
    """Every table of a session played through the links its page shows (then all ended, as the
    director's page says); each match's table and values kept in ``played``."""
    tables = seating(session_page)
    shown = links(session_page)
    assert len(shown) == len(tables) == len(PLAYED[session])
    for number, (link, table, (v1, v2)) in enumerate(zip(shown, tables, PLAYED[session], strict=True), start=1):
        key = link.split("?", 1)[0].rsplit("/", 1)[1]
        assert key == f"{NAME}-s{session}-t{number}"
        play(client, link, table, v1, v2, lines)
        played[key] = (table, v1, v2)
    again = opened(client, f"/director/t/{NAME}/s/{session}", token=director)
    assert again.count(": ended") == len(tables)


def table_rows(page: str, table_id: str) -> list[list[str]]:
    """The cells' text of a table of a page, row by row."""
    body = page.split(f'id="{table_id}"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.DOTALL)
    cell = re.compile(r"<td[^>]*>(.*?)</td>", re.DOTALL)
    cells = [[re.sub(r"<[^>]+>", "", c).strip() for c in cell.findall(r)] for r in rows]
    return [row for row in cells if row]


def tenths(text: str) -> int:
    return round(float(text) * 10)


def check_stage(page: str, stage: int, lines: dict[str, Line], statuses: dict[str, str] | None = None) -> None:
    """A stage's table of the standings page against the hand calculation: the order, the points
    (those carried in, for a later stage), the matches, and who advanced or was cut."""
    rows = table_rows(page, f"stage-{stage}")
    if stage > 1:  # rank, player, carried, points, matches, status
        assert {r[1]: tenths(r[2]) for r in rows} == {p: line.carried for p, line in lines.items()}
        rows = [[r[0], r[1], *r[3:]] for r in rows]
    assert [r[1] for r in rows] == ranked(lines)
    assert {r[1]: int(r[0]) for r in rows} == ranks(lines)
    assert {r[1]: tenths(r[2]) for r in rows} == {p: line.tenths for p, line in lines.items()}
    assert {r[1]: int(r[3]) for r in rows} == {p: line.matches for p, line in lines.items()}
    assert {r[1]: r[4] for r in rows} == (statuses or {p: "" for p in lines})


def check_matches(client: TestClient, played: Played) -> None:
    """The JSON API's standings: every match played has ended, with the points of the hand calculation
    by seat."""
    response = client.get(f"/api/tournaments/{NAME}/standings")
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["in_progress"] == 0 and data["finished"] == len(played)
    shown = {m["match"]: (m["players"], [round(x * 10) for x in m["final_points"]]) for m in data["matches"]}
    assert shown == {
        key: (table, [t for t, _place, _net in seat_results(v1, v2)]) for key, (table, v1, v2) in played.items()
    }


def test_a_32_player_event_with_a_cut_a_semi_final_and_a_final_table_runs_from_the_web(
    tmp_path: Path, client: TestClient
) -> None:
    (director,) = prepare(str(tmp_path / "cup.sqlite"), {}, [("director", None)])
    opened(client, "/")  # the CSRF cookie
    home = opened(client, "/director", token=director)
    page = sent(client, home, "create-tournament", name=NAME, players="\n".join(PLAYERS))
    page = sent(client, page, "format-form", stages="\n".join(STAGES))
    assert 'id="seat-form"' not in page  # session 1 is seated by the draw only
    commitment = hashlib.sha256(bytes.fromhex(SEED)).hexdigest()
    page = sent(client, page, "commit-form", commitment=commitment)
    assert f'id="commitment">{commitment}<' in page
    public = opened(client, f"/tournaments/{NAME}")
    assert commitment in public and SEED not in public

    # Qualification, session 1: the draw.
    stage1 = {p: Line() for p in PLAYERS}
    played: Played = {}
    session = sent(client, page, "reveal-form", seed=SEED, rules="wrc")
    assert "Session 1 of cup" in session
    assert seating(session) == drawn(SEED, PLAYERS)
    play_session(client, director, session, 1, stage1, played)
    check_matches(client, played)
    check_stage(opened(client, f"/tournaments/{NAME}"), 1, stage1)

    # Session 2: Swiss, tables of consecutive ranks after session 1.
    order = ranked(stage1)
    page = opened(client, f"/director/t/{NAME}", token=director)
    session = sent(client, page, "seat-form", rules="wrc")
    assert seating(session) == by_rank(order)
    play_session(client, director, session, 2, stage1, played)
    check_matches(client, played)
    check_stage(opened(client, f"/tournaments/{NAME}"), 1, stage1)

    # The cut: the top 16 go on with half their points; the semi-final seats them by snake.
    order = ranked(stage1)
    top = order[:16]
    stage2 = {p: Line(halved(stage1[p].tenths)) for p in top}
    page = opened(client, f"/director/t/{NAME}", token=director)
    session = sent(client, page, "seat-form", rules="wrc")
    assert seating(session) == snake(top)
    page = opened(client, f"/director/t/{NAME}", token=director)
    assert "closed: 16 advanced" in page
    play_session(client, director, session, 3, stage2, played)
    check_matches(client, played)
    public = opened(client, f"/tournaments/{NAME}")
    check_stage(public, 1, stage1, {p: "advanced" if p in top else "cut" for p in PLAYERS})
    check_stage(public, 2, stage2)

    # The final table: the semi-final's top 4, seated 1-4 by rank, keeping their points.
    order2 = ranked(stage2)
    finalists = order2[:4]
    stage3 = {p: Line(stage2[p].tenths) for p in finalists}
    page = opened(client, f"/director/t/{NAME}", token=director)
    session = sent(client, page, "seat-form", rules="wrc")
    assert seating(session) == [finalists]
    assert "closed: 4 advanced" in opened(client, f"/director/t/{NAME}", token=director)
    play_session(client, director, session, 4, stage3, played)
    check_matches(client, played)

    public = opened(client, f"/tournaments/{NAME}")
    check_stage(public, 1, stage1, {p: "advanced" if p in top else "cut" for p in PLAYERS})
    check_stage(public, 2, stage2, {p: "advanced" if p in finalists else "cut" for p in top})
    check_stage(public, 3, stage3)
    overall = table_rows(public, "overall")  # rank, player, stage, points, marks
    last = [(p, "final", stage3[p]) for p in ranked(stage3)]
    last += [(p, "semi-final", stage2[p]) for p in order2[4:]]
    last += [(p, "qualification", stage1[p]) for p in order[16:]]
    assert [(r[0], r[1], r[2], tenths(r[3])) for r in overall] == [
        (str(rank), p, stage, line.tenths) for rank, (p, stage, line) in enumerate(last, start=1)
    ]

    # The JSON API gives each stage's results as `honba tournament results --format json` does.
    results = client.get(f"/api/tournaments/{NAME}/results").json()
    for stage, lines in zip(results["stages"], (stage1, stage2, stage3), strict=True):
        assert [r["player"] for r in stage["rows"]] == ranked(lines)
        assert {r["player"]: round(r["points"] * 10) for r in stage["rows"]} == {p: x.tenths for p, x in lines.items()}
    assert {r["player"]: round(r["carried"] * 10) for r in results["stages"][1]["rows"]} == {
        p: halved(stage1[p].tenths) for p in top
    }
    assert [r["player"] for r in results["stages"][1]["rows"] if r["status"] == "advanced"] == finalists
    assert [r["player"] for r in results["overall"]] == [p for p, _, _ in last]

    # Every session of the format is seated: the page offers no more.
    page = opened(client, f"/director/t/{NAME}", token=director)
    assert "Every session of the format is seated" in page and 'id="seat-form"' not in page


def test_a_seating_form_sent_once_every_session_is_seated_is_refused_on_the_page(
    tmp_path: Path, client: TestClient
) -> None:
    # A form of a page opened before (another tab, a second tap): the refusal shows, though its form no longer does.
    (director,) = prepare(str(tmp_path / "cup.sqlite"), {}, [("director", None)])
    opened(client, "/")
    page = sent(
        client,
        opened(client, "/director", token=director),
        "create-tournament",
        name=NAME,
        players="\n".join(PLAYERS[:4]),
    )
    page = sent(client, page, "format-form", stages="final:1")
    before = sent(client, page, "commit-form")
    sent(client, before, "reveal-form")
    refused = sent(client, before, "reveal-form", 400)
    assert "no draw of session 2 is committed" in errors(refused)["draw"]
    refused = client.post(
        f"/director/t/{NAME}/sessions", data={"csrf": client.cookies.get("honba_csrf"), "token": director}
    )
    assert refused.status_code == 400 and "every session" in errors(refused.text)["session"]
    # Nothing seated by either.
    assert "Session 2" not in opened(client, f"/director/t/{NAME}", token=director)
