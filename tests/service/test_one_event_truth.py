"""Issue 31: one event, one truth. Every view of a staged event's standings reads one projection
(``replay.service.director.stages.event_report``, ``projections.staged``); ``needs`` answers from after the
tables that have ended; a substitute only for a player who withdrew. In memory, at the service.

The event: eight players A to H under the WRC rules (30,000 start and return, uma +15/+5/-5/-15,
no oka; riichi.wiki World_Riichi_Championship_rules); a qualification of two sessions seated by
rank (names in order before anything is played), the top 4 go on to a final table with half their
points; substitutes count as the EMA's rule (-30.0 a match, ``domain.stages.EMA_SUBSTITUTE``).
Every match goes as in tests/e2e/test_staged_event.py: seat 1 rons seat 2 for V1, seat 3 rons seat 0
for V2 < V1, time limit; session points seat 0 -V2/1000 - 5, seat 1 +V1/1000 + 15, seat 2
-V1/1000 - 15, seat 3 +V2/1000 + 5.

Session 1, tables A B C D (8000, 2000) and E F G H (12000, 1000): A -7.0, B +23.0, C -23.0,
D +7.0; E -6.0, F +27.0, G -27.0, H +6.0. D withdraws after session 1; Sub stands in for D.
Session 2 by rank (F 27, B 23, [D gone], H 6, E -6, A -7, C -23, G -27, then Sub): F B H E
(5200, 1000): F -6.0, B +20.2, H -20.2, E +6.0; A C G Sub (3900, 2600): A -7.6, C +18.9, G -18.9,
Sub +7.6 as played, -30.0 by the rule.

Qualification: B 43.2, F 21.0, D 7.0, E 0.0, C -4.1, H -14.2, A -14.6, Sub -30.0, G -45.9. The top
4 who may go on (D withdrew): B, F, E, C, carrying B 21.6, F 10.5, E 0.0, C -2.1 (-4.1 / 2, a half
tenth away from zero). Final table B F E C (3900, 2000): B -7.0, F +18.9, E -18.9, C +7.0.

The event: F 29.4, B 14.6, C 4.9, E -18.9 (the final), then D 7.0, H -14.2, A -14.6, Sub -30.0,
G -45.9 (cut after the qualification). Added up flat the matches say B 36.2 first and Sub +7.6.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from domain.errors import RuleViolation
from domain.rules import load_preset
from domain.values import HandValue, Win, WinResult
from projections.views import DocumentView
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
from replay.store.tournaments import get_tournament

WRC = load_preset("wrc")
VALUES = {
    1000: HandValue(han=1, fu=30),
    2000: HandValue(han=2, fu=30),
    2600: HandValue(han=2, fu=40),
    3900: HandValue(han=3, fu=30),
    5200: HandValue(han=3, fu=40),
    8000: HandValue(limit="mangan"),
    12000: HandValue(limit="haneman"),
}
QUALIFIED = {"B": 43.2, "F": 21.0, "D": 7.0, "E": 0.0, "C": -4.1, "H": -14.2, "A": -14.6, "Sub": -30.0, "G": -45.9}
EVENT = [("F", 29.4), ("B", 14.6), ("C", 4.9), ("E", -18.9), ("D", 7.0), ("H", -14.2), ("A", -14.6)]
EVENT += [("Sub", -30.0), ("G", -45.9)]


def play(app: HonbaApp, key: str, v1: int, v2: int) -> None:
    recording.record(app, key, WinResult((Win(1, VALUES[v1], discarder=2),)))
    recording.record(app, key, WinResult((Win(3, VALUES[v2], discarder=0),)))
    recording.end(app, key, "time limit")


def fresh(app: HonbaApp) -> DocumentView:
    view = open_view(app)
    catch_up(app, view)
    return view


@pytest.fixture
def app() -> Iterator[HonbaApp]:
    application = HonbaApp.open(":memory:")
    yield application
    application.close()


def qualified(app: HonbaApp) -> None:
    """The qualification played (both sessions), the final not seated yet."""
    create_tournament(app, "cup", list("ABCDEFGH"))
    stages = ["qualification:2:advance=4,seating=rank", "final:1:carry=halve"]
    declare_format(app, "cup", event_format_of(stages, substitutes="ema"))
    seated = next_session(app, fresh(app), "cup", WRC)
    assert seated.tables == (("A", "B", "C", "D"), ("E", "F", "G", "H"))
    play(app, "cup-s1-t1", 8000, 2000)
    play(app, "cup-s1-t2", 12000, 1000)
    withdraw(app, "cup", "D", 1, "fell ill")
    substitute(app, "cup", "Sub", "D", "stands in for D")
    seated = next_session(app, fresh(app), "cup", WRC)
    assert seated.tables == (("F", "B", "H", "E"), ("A", "C", "G", "Sub"))
    play(app, "cup-s2-t1", 5200, 1000)
    play(app, "cup-s2-t2", 3900, 2600)


def finished(app: HonbaApp) -> None:
    qualified(app)
    seated = next_session(app, fresh(app), "cup", WRC)
    assert seated.tables == (("B", "F", "E", "C"),)
    play(app, "cup-s3-t1", 3900, 2000)


def test_every_standings_view_is_the_events_order_with_its_cut_halving_final_and_substitute(app: HonbaApp) -> None:
    finished(app)
    view = fresh(app)
    report = event_report(app, view, "cup")
    assert [(r.player, r.points) for r in report.rows] == EVENT
    assert [r.rank for r in report.rows] == list(range(1, 10))
    # Every front end reads these data: honba standings --format json/csv/html, the API, the page.
    data = standings_data(report)
    assert [(r["player"], r["points"]) for r in data["rows"]] == EVENT
    page = standings_page_data(app, view, "cup")
    assert [(r["player"], r["points"]) for r in page["standings"]["rows"]] == EVENT
    assert [(r["player"], r["points"]) for r in page["results"]["overall"]] == EVENT
    # As the event stood after the qualification: the qualification's order, the substitute at -30.
    after = event_report(app, view, "cup", after_session=2)
    assert {r.player: r.points for r in after.rows} == QUALIFIED
    assert report.by_session[2] == QUALIFIED
    assert report.by_session[3] == dict(EVENT)


def test_the_what_if_under_the_events_own_rules_is_the_event_as_run(app: HonbaApp) -> None:
    finished(app)
    data = what_if_data(app, fresh(app), "cup", rules=WRC)
    assert [(r["player"], r["what_if_points"]) for r in data["rows"]] == EVENT
    assert [(r["player"], r["points"]) for r in data["rows"]] == EVENT
    assert {r["difference"] for r in data["rows"]} == {0.0}


def test_the_what_if_replays_the_cut_under_the_other_rules(app: HonbaApp) -> None:
    finished(app)
    data = what_if_data(app, fresh(app), "cup", overrides={"uma": [0, 0, 0, 0]})
    # Qualification without uma: A -2.0 -2.6 = -4.6, B +8.0 +5.2 = 13.2, C -8.0 +3.9 = -4.1, D +2.0,
    # E -1.0 +1.0 = 0.0, F +12.0 -1.0 = 11.0, G -12.0 -3.9 = -15.9, H +1.0 -5.2 = -4.2, Sub -30.0.
    # Top 4 (D withdrew): B, F, E, C as before; carried B 6.6, F 5.5, E 0.0, C -2.1 (-2.05 away
    # from zero); the final without uma: B -2.0, F +3.9, E -3.9, C +2.0.
    final = {r["player"]: r["what_if_points"] for r in data["rows"][:4]}
    assert final == {"F": 9.4, "B": 4.6, "C": -0.1, "E": -3.9}


def test_needs_after_the_last_qualifying_session_answers_from_after_it(app: HonbaApp) -> None:
    qualified(app)
    data = needs_data(app, fresh(app), "cup")
    points = {p["player"]: p["points"] for p in data["players"]}
    assert points == {p: v for p, v in QUALIFIED.items() if p != "D"}
    status = {p["player"]: {x["status"] for x in p["places"]} for p in data["players"]}
    # Every table ended: who is in the top 4 (D withdrew, so the fifth, C, goes on) is settled.
    assert status == {
        "B": {"certain"},
        "F": {"certain"},
        "E": {"certain"},
        "C": {"certain"},
        "H": {"impossible"},
        "A": {"impossible"},
        "G": {"impossible"},
        "Sub": {"impossible"},
    }


def test_needs_with_one_table_ended_counts_that_table(app: HonbaApp) -> None:
    create_tournament(app, "cup", list("ABCDEFGH"))
    declare_format(app, "cup", event_format_of(["qualification:2:advance=4,seating=rank", "final:1:carry=halve"]))
    next_session(app, fresh(app), "cup", WRC)
    play(app, "cup-s1-t1", 8000, 2000)
    play(app, "cup-s1-t2", 12000, 1000)
    next_session(app, fresh(app), "cup", WRC)
    # Session 2: F B D H and E A C G; the first table ends (5200, 1000): F -6.0, B +20.2, D -20.2, H +6.0.
    play(app, "cup-s2-t1", 5200, 1000)
    data = needs_data(app, fresh(app), "cup")
    by = {p["player"]: p for p in data["players"]}
    assert by["B"]["points"] == 43.2 and by["D"]["points"] == -13.2 and by["F"]["points"] == 21.0
    # B's table has ended: B's one place (1st) is settled, open only to the table still playing.
    assert [(x["place"], x["status"]) for x in by["B"]["places"]] == [(1, "possible")]
    assert len(by["E"]["places"]) == 4


def test_a_substitute_only_for_a_player_who_withdrew_or_by_the_directors_override(app: HonbaApp) -> None:
    create_tournament(app, "cup", list("ABCDEFGH"))
    with pytest.raises(RuleViolation, match="'D' has not withdrawn from 'cup': withdraw them first"):
        substitute(app, "cup", "Sub", "D", "stands in")
    assert "Sub" not in get_tournament(app, "cup").players
    substitute(app, "cup", "Sub", "D", "D is late: the director seats Sub", override=True)
    tournament = get_tournament(app, "cup")
    assert tournament.substitutes == {"Sub": "D"}
    assert tournament.substitute_overrides == {"Sub": "D is late: the director seats Sub"}


def test_while_the_final_is_played_every_view_says_so_and_shows_the_points_carried(app: HonbaApp) -> None:
    qualified(app)
    next_session(app, fresh(app), "cup", WRC)
    data = standings_data(event_report(app, fresh(app), "cup"))
    assert data["stage_in_play"] == "final"
    assert standings_page_data(app, fresh(app), "cup")["results"]["stage_in_play"] == "final"
    # The finalists first, on the points they carried in (no final match ended yet: no rank).
    top = [(r["player"], r["points"], r["rank"]) for r in data["rows"][:4]]
    assert top == [("B", 21.6, None), ("F", 10.5, None), ("E", 0.0, None), ("C", -2.1, None)]
    assert {r["stage"] for r in data["rows"][:4]} == {"final"}
    play(app, "cup-s3-t1", 3900, 2000)
    data = standings_data(event_report(app, fresh(app), "cup"))
    assert data["stage_in_play"] is None
    assert [(r["player"], r["stage"]) for r in data["rows"]][:5] == [
        ("F", "final"),
        ("B", "final"),
        ("C", "final"),
        ("E", "final"),
        ("D", "qualification"),
    ]


def test_team_standings_add_up_the_members_event_lines_not_their_matches(app: HonbaApp) -> None:
    finished(app)
    for team, members in (("North", ["A", "B"]), ("South", ["F", "H"]), ("West", ["E", "G"]), ("East", ["C", "D"])):
        join_team(app, "cup", team, members)
    teams = results_data(standings_of_event(app, fresh(app), "cup"))["teams"]
    # The event's lines (EVENT): South F 29.4 + H -14.2 = 15.2; East C 4.9 + D 7.0 = 11.9; North
    # B 14.6 + A -14.6 = 0.0; West E -18.9 + G -45.9 = -64.8. Added up over every match they would be
    # South 39.9 - 14.2 = 25.7, North 36.2 - 14.6 = 21.6, East 2.9 + 7.0 = 9.9, West -64.8.
    assert [(t["team"], t["points"]) for t in teams] == [
        ("South", 15.2),
        ("East", 11.9),
        ("North", 0.0),
        ("West", -64.8),
    ]
    assert [t["matches"] for t in teams] == [5, 4, 5, 5]
    page = standings_page_data(app, fresh(app), "cup")
    assert page["results"]["teams"] == teams


def test_a_stage_played_whose_cut_is_not_made_yet_is_said_alike_by_every_view(app: HonbaApp) -> None:
    qualified(app)
    data = standings_data(event_report(app, fresh(app), "cup"))
    results = results_data(standings_of_event(app, fresh(app), "cup"))
    page = standings_page_data(app, fresh(app), "cup")
    said = "the qualification is played; the cut is next"
    assert (data["stage_in_play"], data["stage_said"]) == (None, said)
    assert (results["stage_in_play"], results["stage_said"]) == (None, said)
    # The page holds the words (said in its language): in English, the same sentence.
    assert (str(page["standings"]["stage_said"]), str(page["results"]["stage_said"])) == (said, said)


def test_a_stage_with_a_table_still_playing_is_being_played(app: HonbaApp) -> None:
    create_tournament(app, "cup", list("ABCDEFGH"))
    declare_format(app, "cup", event_format_of(["qualification:2:advance=4,seating=rank", "final:1:carry=halve"]))
    next_session(app, fresh(app), "cup", WRC)
    play(app, "cup-s1-t1", 8000, 2000)
    play(app, "cup-s1-t2", 12000, 1000)
    next_session(app, fresh(app), "cup", WRC)
    play(app, "cup-s2-t1", 5200, 1000)
    data = standings_data(event_report(app, fresh(app), "cup"))
    assert (data["stage_in_play"], data["stage_said"]) == ("qualification", "the qualification is being played")
