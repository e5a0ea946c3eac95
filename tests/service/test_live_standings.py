"""Live standings as data: every table in progress with its hand, scores and provisional points,
moving with every hand; empty states that read sensibly; a finished match's points taken apart.

The points are worked out by hand from the presets' rules (Tenhou: 30,000 return, uma 20/10,
oka 20 to the top, scores rounded to the thousand; WRC: 30,000, uma 15/5, no oka) and the
score table (a non-dealer's 3 han 30 fu on a discard is 3,900).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from conftest import hv, ron, won

from domain.rules import load_preset
from replay.html.pages import render_standings_html
from replay.service.recording import recording
from replay.service.tournaments.standings import caught_up_view, match_result_data, standings_data, tournament_report
from replay.service.tournaments.tournaments import attach_all
from replay.store.application import HonbaApp

TENHOU = load_preset("tenhou")
WRC = load_preset("wrc")
NAMES = ("Ann", "Ben", "Cho", "Dai")
OTHERS = ("Eve", "Fay", "Gus", "Hal")
BEN_ON_ANN = won(ron(1, 0, hv(3, 30)))  # 3,900 from Ann to Ben
CHO_ON_DAI = won(ron(2, 3, hv(3, 30)))  # 3,900 from Dai to Cho


@pytest.fixture
def app() -> Iterator[HonbaApp]:
    application = HonbaApp.open(":memory:")
    yield application
    application.close()


def data(app: HonbaApp, name: str = "cup") -> dict[str, object]:
    return standings_data(tournament_report(caught_up_view(app), name))


def test_a_table_in_progress_shows_its_hand_scores_and_provisional_points(app: HonbaApp) -> None:
    recording.start_match(app, "t1", NAMES, TENHOU)
    attach_all(app, "cup", [("t1", NAMES)], 1)
    recording.record(app, "t1", BEN_ON_ANN)
    (table,) = data(app)["tables_in_progress"]  # type: ignore[index]
    assert (table["match"], table["hand"], table["provisional"]) == ("t1", "E2-0", True)
    # Ann 21,100, Ben 28,900, Cho and Dai 25,000: rounded to 21, 29, 25, 25 thousand, against 30:
    # -9, -1, -5, -5; Ben first (+20 uma, +20 oka), Cho second before Dai by seat (+10, -10), Ann
    # last (-20): Cho +5, Dai -15, Ann -29, Ben the rest, +39.
    assert [(s["player"], s["score"], s["place"], s["points"]) for s in table["seats"]] == [
        ("Ann", 21100, 4, -29.0),
        ("Ben", 28900, 1, 39.0),
        ("Cho", 25000, 2, 5.0),
        ("Dai", 25000, 3, -15.0),
    ]


def test_the_provisional_points_move_with_every_hand(app: HonbaApp) -> None:
    recording.start_match(app, "t1", NAMES, TENHOU)
    attach_all(app, "cup", [("t1", NAMES)], 1)
    recording.record(app, "t1", BEN_ON_ANN)
    before = data(app)["tables_in_progress"][0]  # type: ignore[index]
    recording.record(app, "t1", CHO_ON_DAI)
    after = data(app)["tables_in_progress"][0]  # type: ignore[index]
    assert (before["hand"], after["hand"]) == ("E2-0", "E3-0")
    # Ann 21,100, Ben 28,900, Cho 28,900, Dai 21,100: 21, 29, 29, 21 thousand; Ben first before Cho
    # by seat (-1 + 20 + 20 oka), Cho second (-1 + 10 = +9), Ann third (-9 - 10 = -19), Dai last
    # (-9 - 20 = -29); Ben the rest: +39.
    assert [s["points"] for s in after["seats"]] == [-19.0, 39.0, 9.0, -29.0]
    # Provisional, never counted: nobody has a finished match, so nobody has points or a rank.
    rows = data(app)["rows"]
    assert all(row["points"] == 0 and row["rank"] is None for row in rows)  # type: ignore[index, union-attr]


def test_before_any_result_nobody_is_ranked_and_nothing_is_charted(app: HonbaApp) -> None:
    for number, players in enumerate((NAMES, OTHERS), start=1):
        recording.start_match(app, f"t{number}", players, TENHOU)
        attach_all(app, "cup", [(f"t{number}", players)], 1)
    shown = data(app)
    assert [(row["rank"], row["average_place"]) for row in shown["rows"]] == [(None, None)] * 8  # type: ignore[union-attr]
    assert shown["finished"] == 0 and shown["in_progress"] == 2
    page = render_standings_html(shown)  # type: ignore[arg-type]
    assert "<svg" not in page and "0.00" not in page
    # The rank of each of the 8, and their points, net score and average place (the page's report);
    # the two tables have not played a hand: no place for any of their seats either.
    table = page[page.index('<section id="standings-table">') : page.index('<section id="in-progress">')]
    assert table.count('<td class="num rank">—</td>') == 8 and table.count('<td class="num">—</td>') == 24
    assert page.count('<td class="num">—</td><td class="num provisional">—</td>') == 8
    assert "2 matches still in progress do not count yet" in page and "Tables in progress" in page


def test_a_player_without_a_finished_match_shows_a_dash_beside_those_ranked(app: HonbaApp) -> None:
    recording.start_match(app, "t1", NAMES, WRC)
    recording.start_match(app, "t2", OTHERS, WRC)
    attach_all(app, "cup", [("t1", NAMES), ("t2", OTHERS)], 1)
    recording.record(app, "t1", BEN_ON_ANN)
    recording.end(app, "t1", "time limit")
    rows = {row["player"]: row for row in data(app)["rows"]}  # type: ignore[union-attr]
    assert rows["Ben"]["rank"] == 1 and rows["Ben"]["average_place"] == 1.0
    assert (rows["Eve"]["rank"], rows["Eve"]["average_place"], rows["Eve"]["matches"]) == (None, None, 0)


def test_a_finished_match_gives_its_points_taken_apart(app: HonbaApp) -> None:
    recording.start_match(app, "t1", NAMES, WRC)
    recording.record(app, "t1", BEN_ON_ANN)
    recording.record(app, "t1", CHO_ON_DAI)
    recording.end(app, "t1", "time limit")
    result = match_result_data(app.get_match("t1"))
    assert (result["finished"], result["provisional"], result["end_reason"]) == (True, False, "time limit")
    # 30,000 start and return: Ann 26,100 (-3.9), Ben 33,900 (+3.9), Cho 33,900 (+3.9), Dai 26,100;
    # WRC splits the uma of tied players: Ben and Cho share 15 and 5 (+10 each), Ann and Dai -10.
    assert [(s["player"], s["score_points"], s["uma"], s["points"]) for s in result["seats"]] == [
        ("Ann", -3.9, -10.0, -13.9),
        ("Ben", 3.9, 10.0, 13.9),
        ("Cho", 3.9, 10.0, 13.9),
        ("Dai", -3.9, -10.0, -13.9),
    ]
    assert [s["place"] for s in result["seats"]] == [3, 1, 1, 3]


def test_tenhou_gives_the_top_the_oka_and_the_rounding(app: HonbaApp) -> None:
    recording.start_match(app, "t1", NAMES, TENHOU)
    recording.record(app, "t1", BEN_ON_ANN)
    recording.end(app, "t1", "agreed")
    seats = match_result_data(app.get_match("t1"))["seats"]
    # Ann 21,100 -> 21 (-9) - 20; Cho and Dai 25 (-5), second by seat +10 and third -10; Ben 28,900
    # -> 29 (-1) and takes the rest: +39, so his uma and oka come to 40.
    assert [(s["score_points"], s["uma"], s["points"]) for s in seats] == [
        (-9.0, -20.0, -29.0),
        (-1.0, 40.0, 39.0),
        (-5.0, 10.0, 5.0),
        (-5.0, -10.0, -15.0),
    ]


def test_the_chart_names_every_one_of_sixteen_players_at_the_end_of_a_line_of_its_own() -> None:
    from replay.html.pages import PLAYER_COLOURS, line_style, spread, standings_chart_svg

    players = [f"Player {i:02d}" for i in range(16)]
    by_session = {"1": {p: float(i) for i, p in enumerate(players)}, "2": dict.fromkeys(players, 0.0)}
    svg = standings_chart_svg({"by_session": by_session, "rows": [{"player": p} for p in players], "finished": 8})
    assert all(p in svg for p in players)
    assert len({line_style(i) for i in range(16)}) == 16
    # Okabe and Ito's colours (safe for the common kinds of colour blindness), no other.
    assert {line_style(i)[0] for i in range(16)} <= set(PLAYER_COLOURS)
    # Sixteen lines ending at 0: their names spread a gap apart, centred where the lines end.
    placed = spread([0.0] * 16, 1.0)
    assert placed == [i - 7.5 for i in range(16)]


def chart_of(players: int, played: int) -> tuple[str, str, list[str]]:
    """The chart and its note for ``players`` players of whom the first ``played`` (in rank order)
    have finished a match, each a point apart."""
    from replay.html.pages import standings_chart_note, standings_chart_svg

    names = [f"Player {i:03d}" for i in range(players)]
    rows = [{"player": p, "matches": 1 if i < played else 0} for i, p in enumerate(names)]
    data = {"by_session": {"1": {p: float(played - i) if i < played else 0.0 for i, p in enumerate(names)}}}
    data |= {"rows": rows, "finished": played // 4}
    return standings_chart_svg(data), standings_chart_note(data), names


def height_pt(svg: str) -> float:
    found = re.search(r'<svg[^>]* height="([\d.]+)pt"', svg)
    assert found, svg[:300]
    return float(found.group(1))


def test_the_chart_of_160_players_draws_only_those_who_have_finished_a_match() -> None:
    svg, note, names = chart_of(160, 12)  # three tables of forty ended
    assert all(f'id="player-{i}-name"' in svg and names[i] in svg for i in range(12))
    assert not any(f'id="player-{i}"' in svg or names[i] in svg for i in range(12, 160))
    assert height_pt(svg) <= 4.4 * 72  # the chart of a few players: 3,456 pt when all 160 were named
    assert note == "Lines 148 players without a finished match not drawn (every player is in the table)."


def test_the_chart_names_the_top_twenty_lines_and_draws_the_others_grey_and_unnamed() -> None:
    svg, note, names = chart_of(160, 60)
    assert [i for i in range(160) if f'id="player-{i}-name"' in svg] == list(range(20))
    assert all(f'id="player-{i}"' in svg and names[i] not in svg for i in range(20, 60))
    assert svg.count("stroke: #c4c8ce") == 40
    assert height_pt(svg) <= 0.3 * 20 * 72
    assert note == (
        "Lines named: the top 20 of 60 players with a finished match, the others in grey; "
        "100 players without a finished match not drawn (every player is in the table)."
    )
