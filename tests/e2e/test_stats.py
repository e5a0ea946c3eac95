"""Player statistics (``honba stats``): checked against an independent count over real logs, and by
hand on a recorded match.

The independent count reads the corpus's raw Tenhou XML logs with nothing of honba's (a few
lines of ElementTree below, after ../shared/corpus/FORMAT.md): ``INIT`` is a hand, ``REACH
step="2"`` an accepted riichi, ``AGARI who fromWho ten="fu,points,limit"`` a win (a tsumo has
``who == fromWho``; a double ron is two ``AGARI`` on one discard), ``RYUUKYOKU`` without ``type``
(or ``type="nm"``) an exhaustive draw with ``hai0..hai3`` for the ready hands, ``owari`` the final
scores and points. honba's figures come from the events its importer stored.
"""

from __future__ import annotations

import csv
import io
import json
import urllib.parse
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, hv, ron, tsumo
from defusedxml import ElementTree
from honba_cli import invoke
from matplotlib.image import imread
from playwright_support import rendered
from rich.console import Console

from domain.rules import load_preset
from domain.values import ExhaustiveDraw, WinResult
from projections.stats import player_stats
from replay.html.stats import render_stats_html
from replay.service.recording import recording
from replay.service.tournaments.stats import stats_report
from replay.service.tournaments.tournaments import attach_all
from replay.store.application import HonbaApp
from replay.store.standings_view import catch_up, open_view

DATA = CORPUS / "tsubakisakura-mjlog2json" / "data"
# The corpus tournament of docs/standings.md: two sessions of three Tenhou games.
SESSIONS = (
    (
        "2019021004gm-00a9-0000-e2f6516d",
        "2019080322gm-00a9-0000-81e85e04",
        "2019081518gm-00a9-0000-cce9d00c",
    ),
    (
        "2019103023gm-00a9-0000-f90e0fe9",
        "2019123123gm-00a9-0000-f4386d0e",
        "2023053016gm-0029-0000-e54b3b98",
    ),
)
needs_corpus = pytest.mark.skipif(not DATA.is_dir(), reason="the corpus is not here (../shared/corpus)")


def independent_count(paths: list[Path]) -> dict[str, Counter[str]]:
    """Per player name: matches, first places, hands, wins, self-drawn wins, deal-ins, accepted riichi,
    the points of their wins, exhaustive draws and ready at them, from the raw XML alone."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for path in paths:
        root = ElementTree.parse(path).getroot()
        names: list[str] = []
        dealt_in: set[int] = set()
        for tag in root:
            if tag.tag == "UN" and "dan" in tag.attrib:
                names = [urllib.parse.unquote(tag.attrib[f"n{i}"]) for i in range(4)]
                for name in names:
                    counts[name]["matches"] += 1
            elif tag.tag == "INIT":
                dealt_in = set()
                for name in names:
                    counts[name]["hands"] += 1
            elif tag.tag == "REACH" and tag.attrib.get("step") == "2":
                counts[names[int(tag.attrib["who"])]]["riichi"] += 1
            elif tag.tag == "AGARI":
                who, from_who = int(tag.attrib["who"]), int(tag.attrib["fromWho"])
                counts[names[who]]["wins"] += 1
                counts[names[who]]["win_value"] += int(tag.attrib["ten"].split(",")[1])
                if who == from_who:
                    counts[names[who]]["self_drawn"] += 1
                elif from_who not in dealt_in:  # a double ron is one deal-in
                    dealt_in.add(from_who)
                    counts[names[from_who]]["deal_ins"] += 1
            elif tag.tag == "RYUUKYOKU" and tag.attrib.get("type", "nm") == "nm":
                for seat, name in enumerate(names):
                    counts[name]["exhaustive_draws"] += 1
                    counts[name]["ready_at_draw"] += f"hai{seat}" in tag.attrib
            if "owari" in tag.attrib:
                values = tag.attrib["owari"].split(",")
                points = [float(values[2 * i + 1]) for i in range(4)]
                # Places by points, ties to the seat nearer the first dealer (Tenhou).
                top = max(range(4), key=lambda seat: (points[seat], -seat))
                counts[names[top]]["first"] += 1
    return counts


@pytest.fixture(scope="module")
def corpus_cup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The corpus tournament imported session by session, as docs/standings.md shows."""
    if not DATA.is_dir():
        pytest.skip("the corpus is not here (../shared/corpus)")
    db = str(tmp_path_factory.mktemp("stats") / "cup.sqlite")
    for session, games in enumerate(SESSIONS, start=1):
        files = [str(DATA / f"{game}.xml") for game in games]
        result = invoke(["--db", db, "import", *files, "--tournament", "corpus-cup", "--session", str(session)])
        assert result.exit_code == 0, result.output
    yield db


def stats_json(db: str, *args: str) -> dict[str, Any]:
    result = invoke(["--db", db, "stats", *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


FIGURES = (
    "matches",
    "hands",
    "wins",
    "self_drawn",
    "deal_ins",
    "riichi",
    "win_value",
    "exhaustive_draws",
    "ready_at_draw",
)


@needs_corpus
def test_stats_over_the_corpus_tournament_match_an_independent_count(corpus_cup: str) -> None:
    expected = independent_count([DATA / f"{game}.xml" for session in SESSIONS for game in session])
    data = stats_json(corpus_cup, "--tournament", "corpus-cup")
    figures = {row["player"]: row for row in data["players"]}
    assert set(figures) == set(expected)
    for player, counts in expected.items():
        row = figures[player]
        assert {f: row[f] for f in FIGURES} == {f: counts[f] for f in FIGURES}, player
        assert row["place_counts"][0] == counts["first"], player
        # The rates are those counts' shares.
        assert row["win_rate"] == round(counts["wins"] / counts["hands"], 4)
        assert row["deal_in_rate"] == round(counts["deal_ins"] / counts["hands"], 4)
        assert row["riichi_rate"] == round(counts["riichi"] / counts["hands"], 4)
    # Enough happened in these six games for the comparison to mean something.
    assert sum(c["wins"] for c in expected.values()) > 40
    assert sum(c["deal_ins"] for c in expected.values()) > 20
    assert sum(c["ready_at_draw"] for c in expected.values()) > 3


def independent_yaku_count(paths: list[Path]) -> dict[str, Counter[str]]:
    """Per player name, each yaku's count, from Tenhou's own JSON export of the games: each win's
    list after its points ("対々和(2飜)", "国士無双(役満)"), dora of any kind left out."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for path in paths:
        game = json.loads(path.read_text(encoding="utf-8"))
        for hand in game["log"]:
            result = hand[-1]
            if result[0] != "和了":
                continue
            for outcome in result[2::2]:  # after each win's score changes: [who, from, liable, points, yaku...]
                for item in outcome[4:]:
                    name = item.split("(")[0]
                    if "ドラ" not in name:
                        counts[game["name"][outcome[0]]][name] += 1
    return counts


def independent_call_count_xml(paths: list[Path]) -> dict[str, Counter[str]]:
    """Per player name: hands played, and hands in which the player made an open call, from the raw
    XML: an ``N`` tag is a call, its ``m`` a meld code whose low bits say the kind (mjlog's layout:
    0x4 a chi, 0x8 a pon, 0x10 a pon made a kong, 0x20 a kita; none of these a kong, called from
    a discard when its two lowest bits name another seat, concealed when they are 0)."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for path in paths:
        names: list[str] = []
        callers: set[int] = set()
        for tag in ElementTree.parse(path).getroot():
            if tag.tag == "UN" and "dan" in tag.attrib:
                names = [urllib.parse.unquote(tag.attrib[f"n{i}"]) for i in range(4)]
            elif tag.tag == "INIT":
                for seat in callers:
                    counts[names[seat]]["called"] += 1
                callers = set()
                for name in names:
                    counts[name]["hands"] += 1
            elif tag.tag == "N":
                m = int(tag.attrib["m"])
                chi, pon, added, kita = m & 0x4, m & 0x8, m & 0x10, m & 0x20
                open_kong = not (chi or pon or added or kita) and m & 3 != 0
                if chi or pon or open_kong:
                    callers.add(int(tag.attrib["who"]))
        for seat in callers:
            counts[names[seat]]["called"] += 1
    return counts


def independent_call_count_json(paths: list[Path]) -> dict[str, Counter[str]]:
    """The same from Tenhou's JSON export: a hand's draws per seat (``log[i][5]``, ``[8]``, ``[11]``,
    ``[14]``) hold a chi as ``"c…"``, a pon as ``"…p…"`` and an open kong as ``"…m…"``."""
    counts: dict[str, Counter[str]] = defaultdict(Counter)
    for path in paths:
        game = json.loads(path.read_text(encoding="utf-8"))
        for hand in game["log"]:
            for seat in range(4):
                name = game["name"][seat]
                counts[name]["hands"] += 1
                draws = hand[5 + 3 * seat]
                counts[name]["called"] += any(isinstance(d, str) and set(d) & set("cpm") for d in draws)
    return counts


@needs_corpus
def test_call_rate_over_the_corpus_tournament_matches_an_independent_count(corpus_cup: str) -> None:
    expected = independent_call_count_xml([DATA / f"{game}.xml" for session in SESSIONS for game in session])
    figures = {row["player"]: row for row in stats_json(corpus_cup, "--tournament", "corpus-cup")["players"]}
    assert set(figures) == set(expected)
    for player, counts in expected.items():
        row = figures[player]
        assert (row["called"], row["call_hands"]) == (counts["called"], counts["hands"]), player
        assert row["call_rate"] == round(counts["called"] / counts["hands"], 4), player
    # Calls happen in these games, and not in every hand.
    called = sum(c["called"] for c in expected.values())
    assert 20 < called < sum(c["hands"] for c in expected.values())


@needs_corpus
def test_call_rate_from_tenhous_json_export_matches_an_independent_count(tmp_path: Path) -> None:
    paths = [DATA / f"{game}.json" for game in SESSIONS[0]]
    db = str(tmp_path / "json.sqlite")
    result = invoke(["--db", db, "import", *map(str, paths), "--tournament", "j", "--session", "1"])
    assert result.exit_code == 0, result.output
    expected = independent_call_count_json(paths)
    figures = {row["player"]: row for row in stats_json(db, "--tournament", "j")["players"]}
    assert set(figures) == set(expected)
    for player, counts in expected.items():
        assert (figures[player]["called"], figures[player]["call_hands"]) == (counts["called"], counts["hands"])
    assert sum(c["called"] for c in expected.values()) > 10


@needs_corpus
def test_per_yaku_counts_match_tenhous_own_export(corpus_cup: str) -> None:
    expected = independent_yaku_count([DATA / f"{game}.json" for session in SESSIONS for game in session])
    figures = {row["player"]: row["yaku"] for row in stats_json(corpus_cup, "--tournament", "corpus-cup")["players"]}
    for player, counts in expected.items():
        assert figures[player] == dict(counts), player
    assert sum(sum(c.values()) for c in expected.values()) > 60


@needs_corpus
def test_stats_of_one_player_and_of_every_stored_match(corpus_cup: str) -> None:
    everyone = stats_json(corpus_cup, "--all")
    assert everyone["tournament"] is None and everyone["matches"] == 6
    one = stats_json(corpus_cup, "--tournament", "corpus-cup", "--player", "櫻井奏")
    assert [row["player"] for row in one["players"]] == ["櫻井奏"]
    # 櫻井奏's +96.0 is what the owari of 2019103023gm-00a9-0000-f90e0fe9 gives him (docs/standings.md).
    assert one["players"][0]["points"] == 96.0
    assert one["players"][0]["matches"] == 1


@needs_corpus
def test_stats_as_csv_hold_the_same_figures(corpus_cup: str) -> None:
    result = invoke(["--db", corpus_cup, "stats", "--tournament", "corpus-cup", "--format", "csv"])
    assert result.exit_code == 0, result.output
    rows = {row["player"]: row for row in csv.DictReader(io.StringIO(result.stdout))}
    data = {row["player"]: row for row in stats_json(corpus_cup, "--tournament", "corpus-cup")["players"]}
    assert set(rows) == set(data)
    for player, row in rows.items():
        assert int(row["wins"]) == data[player]["wins"]
        assert float(row["deal_in_rate"]) == data[player]["deal_in_rate"]
        assert int(row["first"]) == data[player]["place_counts"][0]


def test_stats_need_a_tournament_or_all(tmp_path: Path) -> None:
    db = str(tmp_path / "s.sqlite")
    for args in (
        [],
        ["--tournament", "x", "--all"],
        ["--all", "--format", "xml"],
        ["--tournament", "nowhere"],
        ["--all", "--player", "nobody"],
    ):
        result = invoke(["--db", db, "stats", *args])
        assert result.exit_code == 2
        assert "Traceback" not in result.output and len(result.output.strip().splitlines()) == 1, result.output


# A recorded match, figured by hand (Tenhou rules, the published score table).


@pytest.fixture
def club() -> Iterator[HonbaApp]:
    app = HonbaApp.open(":memory:")
    names = ["Ann", "Ben", "Cho", "Dai"]
    recording.start_match(app, "night-1", names, load_preset("tenhou"))
    # East 1: Ann (dealer) wins 3 han 30 fu off Ben, riichi by Ann: 5,800 for the hand value.
    recording.record(app, "night-1", WinResult(wins=(ron(0, 1, hv(3, 30)),), riichi=(0,)))
    # East 1, 1 counter: an exhaustive draw, Ann and Cho ready: Ann keeps the deal again.
    recording.record(app, "night-1", ExhaustiveDraw(ready=(0, 2)))
    # East 1, 2 counters: Cho self-drawn 2 han 30 fu: 500 / 1,000 (2,000 of hand value), the
    # counters 200 from each payer (600).
    recording.record(app, "night-1", WinResult(wins=(tsumo(2, hv(2, 30)),)))
    recording.end(app, "night-1", "time limit")
    attach_all(app, "night", [("night-1", names)], 1)
    yield app
    app.close()


def test_figures_of_a_recorded_match(club: HonbaApp) -> None:
    view = open_view(club)
    catch_up(club, view)
    rows = {row.player: row.figures() for row in stats_report(view, "night").players}
    ann, ben, cho = rows["Ann"], rows["Ben"], rows["Cho"]
    assert (ann["hands"], ann["wins"], ann["riichi"], ann["win_value"]) == (3, 1, 1, 5800)
    assert (ann["dealer_hands"], ann["dealer_kept"], ann["dealer_keep_rate"]) == (3, 2, round(2 / 3, 4))
    assert (ann["exhaustive_draws"], ann["ready_at_draw"], ann["ready_at_draw_rate"]) == (1, 1, 1.0)
    assert (ben["deal_ins"], ben["deal_in_value"], ben["average_deal_in"], ben["deal_in_rate"]) == (
        1,
        5800,
        5800.0,
        round(1 / 3, 4),
    )
    assert (cho["wins"], cho["self_drawn"], cho["self_drawn_share"], cho["win_value"]) == (1, 1, 1.0, 2000)
    assert (cho["counters_won"], cho["deposits_won"]) == (600, 0)
    assert ann["deposits_won"] == 1000  # her own riichi stick, back with her win
    assert rows["Dai"]["wins"] == 0 and rows["Dai"]["win_rate"] == 0.0


def test_recorded_matches_have_no_call_rate(club: HonbaApp) -> None:
    """Hands entered at the table say nothing of calls: no call rate, shown as "—", never 0."""
    view = open_view(club)
    catch_up(club, view)
    from replay.cli.stats import stats_csv, stats_table
    from replay.service.tournaments.stats import stats_data

    data = stats_data(stats_report(view, "night"))
    assert all(row["call_rate"] is None and row["call_hands"] == 0 for row in data["players"])
    console = Console(file=io.StringIO(), width=250, color_system=None)
    console.print(stats_table(data))
    assert isinstance(console.file, io.StringIO)
    lines = [line for line in console.file.getvalue().splitlines() if "Ann" in line]
    assert "—" in lines[0] and "0.0%" in lines[0]  # the call rate, beside real zeros (Ann's deal-ins)
    assert all(row["call_rate"] == "" for row in csv.DictReader(io.StringIO(stats_csv(data))))


def test_a_match_in_progress_does_not_count_yet(club: HonbaApp) -> None:
    recording.start_match(club, "night-2", ["Ann", "Ben", "Cho", "Dai"], load_preset("tenhou"))
    recording.record(club, "night-2", WinResult(wins=(ron(1, 0, hv(1, 30)),)))
    attach_all(club, "night", [("night-2", ["Ann", "Ben", "Cho", "Dai"])], 2)
    view = open_view(club)
    catch_up(club, view)
    report = stats_report(view, "night")
    assert (report.matches, report.in_progress) == (1, 1)
    assert {row.player: row.counts["hands"] for row in report.players} == dict.fromkeys(["Ann", "Ben", "Cho", "Dai"], 3)


def test_names_in_the_table_are_text_never_markup(club: HonbaApp, tmp_path: Path) -> None:
    view = open_view(club)
    catch_up(club, view)
    from replay.cli.stats import stats_table
    from replay.service.tournaments.stats import stats_data

    data = stats_data(stats_report(view, "night"))
    data["players"][0]["player"] = "[bold red]Ann[/]"
    console = Console(file=io.StringIO(), width=250, color_system=None)
    console.print(stats_table(data))
    assert isinstance(console.file, io.StringIO)
    assert "[bold red]Ann[/]" in console.file.getvalue()


def test_no_matches_no_figures() -> None:
    assert player_stats([], players=["Ann"])[0].figures()["win_rate"] == 0.0


# The HTML page: charts, names as text, renders in headless Chromium.


@pytest.fixture
def stats_page(club: HonbaApp, tmp_path: Path) -> Path:
    view = open_view(club)
    catch_up(club, view)
    from replay.service.tournaments.stats import stats_data

    data = stats_data(stats_report(view, "night"))
    data["players"][0]["player"] = "<b>Ann</b> & $x$"
    page = tmp_path / "stats.html"
    page.write_text(render_stats_html(data), encoding="utf-8")
    return page


def test_the_stats_page_holds_the_table_and_both_charts(stats_page: Path) -> None:
    text = stats_page.read_text(encoding="utf-8")
    assert 'aria-label="Placement distribution"' in text
    assert 'aria-label="Points by session"' in text
    assert "&lt;b&gt;Ann&lt;/b&gt; &amp; $x$" in text and "<b>Ann</b>" not in text
    assert "<script" not in text


def test_the_stats_page_renders_in_headless_chromium(browser: Any, stats_page: Path, tmp_path: Path) -> None:
    url = stats_page.resolve().as_uri()
    png = tmp_path / "stats.png"
    dom = rendered(browser, url, 1280, 1400, png)
    assert "Placement distribution" in dom and "Points through the sessions" in dom
    assert dom.count("</svg>") >= 2
    pixels = imread(png)
    assert pixels.shape[:2] == (1400, 1280)
    assert (pixels[:, :, :3] > 0.98).all(axis=2).mean() < 0.97  # not blank
