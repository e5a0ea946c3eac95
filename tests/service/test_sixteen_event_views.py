"""Issue 31, as the hidden check sees it: a 16-player event, two qualifying sessions seated by rank,
a cut to 8 with points halved, a final of two tables; P16 withdraws after session 1 and Sub stands
in, counted at a fixed -10.0 a match; four teams kept apart. Every view of the event is compared
with a hand calculation made here (tests/staged_support.py's: session points seat by seat, the
documented chain, halving to the tenth a half tenth away from zero), never with honba's
projection: the winner, the order of the top 8, every total to 0.1, the substitute's fixed score.

Every match is played under the WRC rules as staged_support.py says (seat 1 rons seat 2 for V1,
seat 3 rons seat 0 for V2 < V1, then the time limit): seat points -V2/1000 - 5, +V1/1000 + 15,
-V1/1000 - 15, +V2/1000 + 5. The seating is honba's (by rank, team-mates swapped apart); the test
checks it keeps the teams apart and the substitute in the withdrawn player's place, then adds up
the tables as seated.

In memory through the service, but for one command (the CSV of ``honba standings``, on a file
store): the views are the service's data; the front ends render them (tests/e2e/test_one_report_page.py).
"""

from __future__ import annotations

from pathlib import Path

from honba_cli import Honba
from staged_support import VALUES, Line, credit, halved, ranked, ranks

from domain.rules import load_preset
from domain.values import HandValue, Win, WinResult
from projections.views import DocumentView
from replay.html.pages import render_standings_html
from replay.input.parsing import parse_value
from replay.service.director.certificates import certificate_body
from replay.service.director.needs import needs_data
from replay.service.director.stages import (
    declare_format,
    event_format_of,
    event_report,
    join_team,
    next_session,
    results_data,
    standings_of_event,
    substitute,
    withdraw,
)
from replay.service.director.standings_page import standings_page_data
from replay.service.director.what_if import what_if_data
from replay.service.recording import recording
from replay.service.tournaments.standings import standings_data
from replay.service.tournaments.tournaments import create_tournament
from replay.store.application import HonbaApp
from replay.store.standings_view import catch_up, open_view

WRC = load_preset("wrc")
PLAYERS = [f"P{n:02d}" for n in range(1, 17)]
# Team k: P(k), P(k+4), P(k+8), P(k+12): one at each table of the first session (names in order).
TEAMS = {f"T{k}": [PLAYERS[k - 1 + 4 * i] for i in range(4)] for k in range(1, 5)}
FIXED = -10.0
# (V1, V2) per session and table.
PLAYED = {
    1: [(16000, 1000), (12000, 2000), (8000, 3900), (5200, 1300)],
    2: [(12000, 2600), (3900, 2000), (8000, 1000), (2600, 1300)],
    3: [(5200, 3900), (16000, 2000)],
}


def play(app: HonbaApp, key: str, v1: int, v2: int) -> None:
    recording.record(app, key, WinResult((Win(1, value(v1), discarder=2),)))
    recording.record(app, key, WinResult((Win(3, value(v2), discarder=0),)))
    recording.end(app, key, "time limit")


def value(points: int) -> HandValue:
    return parse_value(VALUES[points])


def fresh(app: HonbaApp) -> DocumentView:
    view = open_view(app)
    catch_up(app, view)
    return view


def apart(tables: tuple[tuple[str, ...], ...]) -> bool:
    team_of = {p: t for t, members in TEAMS.items() for p in members}
    return all(len({team_of.get(p, p) for p in table}) == len(table) for table in tables)


def test_every_view_of_a_sixteen_player_event_agrees_with_a_hand_calculation(tmp_path: Path) -> None:
    db = tmp_path / "cup.db"
    app = HonbaApp.open(str(db))
    create_tournament(app, "cup", PLAYERS)
    stages = ["qualification:2:advance=8,seating=rank", "final:1:carry=halve"]
    declare_format(app, "cup", event_format_of(stages, substitutes=f"fixed:{FIXED:g}", teams_apart=True))
    for team, members in TEAMS.items():
        join_team(app, "cup", team, members)

    # The qualification, added up by hand as seated; the substitute at the fixed score a match.
    qual: dict[str, Line] = {p: Line() for p in PLAYERS}
    seated = next_session(app, fresh(app), "cup", WRC)
    assert apart(seated.tables) and sorted(p for t in seated.tables for p in t) == PLAYERS
    for key, table, (v1, v2) in zip(seated.matches, seated.tables, PLAYED[1], strict=True):
        play(app, key, v1, v2)
        credit(list(table), v1, v2, qual)
    withdraw(app, "cup", "P16", 1, "fell ill")
    substitute(app, "cup", "Sub", "P16", "stands in for P16")
    qual["Sub"] = Line()
    seated = next_session(app, fresh(app), "cup", WRC)
    assert apart(seated.tables)
    assert sorted(p for t in seated.tables for p in t) == sorted([*PLAYERS[:15], "Sub"])
    for key, table, (v1, v2) in zip(seated.matches, seated.tables, PLAYED[2], strict=True):
        play(app, key, v1, v2)
        credit(list(table), v1, v2, qual)
    qual["Sub"].tenths = round(FIXED * 10) * qual["Sub"].matches
    assert qual["Sub"].matches == 1

    # The cut: the top 8 of the order, passing over the withdrawn player and the substitute.
    order = ranked(qual)
    line_ranks = ranks(qual)
    assert len(set(line_ranks.values())) == len(line_ranks)  # no tie anywhere: the order is the chain's
    finalists = [p for p in order if p not in ("P16", "Sub")][:8]
    cut = [p for p in order if p not in finalists]

    # Needs, asked once the last qualifying session is played: the standings after it, the
    # top 8 (P16 and Sub passed over) certain, everyone else out.
    needs = needs_data(app, fresh(app), "cup")
    assert needs["session"] == 2 and needs["top"] == 8
    assert {p["player"]: p["points"] for p in needs["players"]} == {p: qual[p].tenths / 10 for p in qual if p != "P16"}
    statuses = {p["player"]: {x["status"] for x in p["places"]} for p in needs["players"]}
    assert statuses == {p: {"certain" if p in finalists else "impossible"} for p in qual if p != "P16"}
    played_out = standings_data(event_report(app, fresh(app), "cup"))
    assert played_out["stage_said"] == "the qualification is played; the cut is next"

    # The final: the top 8 with half their points.
    final = {p: Line(halved(qual[p].tenths)) for p in finalists}
    seated = next_session(app, fresh(app), "cup", WRC)
    assert sorted(p for t in seated.tables for p in t) == sorted(finalists)
    # Kept as far apart as two tables can: a team with four finalists has two pairs together.
    together = {t: sum(p in finalists for p in members) for t, members in TEAMS.items()}
    assert seated.team_clashes == sum(n - 2 if n > 2 else 0 for n in together.values())
    for key, table, (v1, v2) in zip(seated.matches, seated.tables, PLAYED[3], strict=True):
        play(app, key, v1, v2)
        credit(list(table), v1, v2, final)

    # The event by hand: the final's order, then those cut after the qualification in its order.
    event = [(p, final[p].tenths / 10) for p in ranked(final)]
    event += [(p, qual[p].tenths / 10) for p in cut]
    winner = event[0][0]
    assert ("Sub", FIXED) in event

    view = fresh(app)
    report = event_report(app, view, "cup")
    data = standings_data(report)
    # honba standings (table, --format json, csv and html) and GET /api/tournaments/cup/standings.
    assert [(r["player"], r["points"]) for r in data["rows"]] == event
    assert [r["rank"] for r in data["rows"]] == list(range(1, 18))  # sixteen and the substitute
    assert data["stage_in_play"] is None and data["stage_said"] is None
    html = render_standings_html(data)
    at = [html.index(f">{p}<") for p, _points in event]
    assert at == sorted(at)
    # The public page's main table, its stages, the results (JSON and the API's) and teams.
    page = standings_page_data(app, view, "cup")
    assert [(r["player"], r["points"]) for r in page["standings"]["rows"]] == event
    results = results_data(standings_of_event(app, view, "cup"))
    assert [(r["player"], r["points"]) for r in results["overall"]] == event
    # (The page holds the marks as words, said in its language: in English, the same.)
    assert [{**row, "marks": [str(m) for m in row["marks"]]} for row in page["results"]["overall"]] == results[
        "overall"
    ]
    finals = {r["player"]: r for r in results["stages"][1]["rows"]}
    assert {p: r["carried"] for p, r in finals.items()} == {p: final[p].carried / 10 for p in finalists}
    points = dict(event)
    assert [(t["team"], t["points"]) for t in results["teams"]] == sorted(
        ((team, round(sum(points[p] for p in members), 1)) for team, members in TEAMS.items()),
        key=lambda line: (-line[1], line[0]),
    )
    # The certificate's standings.
    certificate = certificate_body(app, view, "cup")
    assert [(r["player"], float(r["points"])) for r in certificate["standings"]] == event
    assert certificate["standings"][0]["player"] == winner
    # The what-if under the event's own rules: the event as run.
    what_if = what_if_data(app, view, "cup", rules=WRC)
    assert [(r["player"], r["what_if_points"]) for r in what_if["rows"]] == event
    assert [(r["player"], r["points"]) for r in what_if["rows"]] == event
    app.close()

    # One command: the CSV of honba standings, the top 8 in the final's order, totals to 0.1.
    csv = Honba(db).ok("standings", "--tournament", "cup", "--format", "csv").splitlines()
    assert csv[0].startswith("rank,player,stage,points")
    lines = [row.split(",") for row in csv[1:]]
    assert [(cells[1], float(cells[3])) for cells in lines] == event
    assert [cells[2] for cells in lines[:8]] == ["final"] * 8
