"""The whole event's standings under other rules (issue 27), beside them as run, by hand.

One match under WRC (30,000 start and return, uma +15/+5/-5/-15, ties split): Ben rons Cho for a
mangan (8,000): Ben 38,000 +23.0, Ann and Dai 30,000 (tied 2nd and 3rd: (5 - 5) / 2 = 0.0 each),
Cho 22,000 -23.0. A second match: Dai rons Ann for 2 han 30 fu (2,000), and Cho has a chombo of
20,000 after uma: Dai +17.0, Ben and Cho 0.0 (tied), Ann -17.0, Cho -20.0 more.
"""

from __future__ import annotations

import json

import pytest
from honba_cli import Honba

# Each store is recorded once for the module's tests (twelve commands each): what-if reads the store, it
# changes nothing in it.


@pytest.fixture(scope="module")
def cup(tmp_path_factory: pytest.TempPathFactory) -> Honba:
    honba = Honba(tmp_path_factory.mktemp("what-if") / "cup.sqlite")
    honba.ok("tournament", "create", "cup", "--players", "Ann,Ben,Cho,Dai")
    honba.ok("start", "m1", "--players", "Ann,Ben,Cho,Dai", "--rules", "wrc")
    honba.ok("win", "m1", "Ben:mangan", "--from", "Cho")
    honba.ok("end", "m1", "--reason", "time limit")
    honba.ok("start", "m2", "--players", "Ann,Ben,Cho,Dai", "--rules", "wrc")
    honba.ok("win", "m2", "Dai:2/30", "--from", "Ann")
    honba.ok("penalty", "m2", "Cho", "--note", "chombo")
    honba.ok("end", "m2", "--reason", "time limit")
    for session, key in enumerate(("m1", "m2"), start=1):
        honba.ok("tournament", "attach", "cup", key, "--session", str(session))
    return honba


def rows(honba: Honba, *args: str) -> dict[str, tuple[float, float]]:
    data = json.loads(honba.ok("tournament", "what-if", "cup", "--format", "json", *args))
    return {r["player"]: (r["points"], r["what_if_points"]) for r in data["rows"]}


def test_other_uma_side_by_side_with_the_standings_as_run(cup: Honba) -> None:
    # Uma 30/10: m1 Ben 8 + 30 = +38, Ann and Dai (10 - 10) / 2 = 0, Cho -8 - 30 = -38;
    # m2 Dai 2 + 30 = +32, Ben and Cho 0, Ann -32, Cho's chombo -20.
    found = rows(cup, "--set", "uma=[30,10,-10,-30]")
    assert found == {
        "Ann": (-17.0, -32.0),
        "Ben": (23.0, 38.0),
        "Cho": (-43.0, -58.0),
        "Dai": (17.0, 32.0),
    }


def test_without_penalties(cup: Honba) -> None:
    assert rows(cup, "--without-penalties")["Cho"] == (-43.0, -23.0)


def test_nothing_to_change_is_refused(cup: Honba) -> None:
    assert "say what to change" in cup.refused("tournament", "what-if", "cup")


@pytest.fixture(scope="module")
def tied(tmp_path_factory: pytest.TempPathFactory) -> Honba:
    """Ann and Ben end level under uma 15/4/-4/-15, Ann by placements, Ben by score.

    m1: Ben rons Cho for a mangan (8,000), then Ann (no longer dealer) rons Dai for 2 han 30 fu
    (2,000): Ben 38,000 1st, Ann 32,000 2nd, Dai 28,000 3rd, Cho 22,000 4th. m2: Cho rons Ben for
    2 han 30 fu: Cho 32,000 1st, Ann and Dai 30,000 (tied 2nd and 3rd), Ben 28,000 4th.
    Under uma 15/4/-4/-15: Ann 2 + 4 + (4 - 4) / 2 = +6.0; Ben 8 + 15 - 2 - 15 = +6.0.
    Ann's placements average 2.25 against Ben's 2.5; Ben's net score is +6,000 against Ann's +2,000.
    """
    honba = Honba(tmp_path_factory.mktemp("what-if") / "tied.sqlite")
    honba.ok("tournament", "create", "cup", "--players", "Ann,Ben,Cho,Dai")
    honba.ok("start", "m1", "--players", "Ann,Ben,Cho,Dai", "--rules", "wrc")
    honba.ok("win", "m1", "Ben:mangan", "--from", "Cho")
    honba.ok("win", "m1", "Ann:2/30", "--from", "Dai")
    honba.ok("end", "m1", "--reason", "time limit")
    honba.ok("start", "m2", "--players", "Ann,Ben,Cho,Dai", "--rules", "wrc")
    honba.ok("win", "m2", "Cho:2/30", "--from", "Ben")
    honba.ok("end", "m2", "--reason", "time limit")
    for session, key in enumerate(("m1", "m2"), start=1):
        honba.ok("tournament", "attach", "cup", key, "--session", str(session))
    return honba


@pytest.mark.parametrize(("tie_break", "ahead"), [("placement", "Ann"), ("net_score", "Ben")])
def test_a_tie_on_points_is_broken_by_the_tie_break_asked(tied: Honba, tie_break: str, ahead: str) -> None:
    data = json.loads(
        tied.ok(
            "tournament", "what-if", "cup", "--format", "json", "--set", "uma=[15,4,-4,-15]", "--tie-break", tie_break
        )
    )
    ranked = {r["player"]: (r["what_if_rank"], r["what_if_points"]) for r in data["rows"]}
    assert ranked["Ann"][1] == ranked["Ben"][1] == 6.0
    behind = "Ben" if ahead == "Ann" else "Ann"
    assert (ranked[ahead][0], ranked[behind][0]) == (1, 2)


def test_a_tie_break_not_known_is_refused(tied: Honba) -> None:
    assert "--tie-break is placement or net_score, not 'coin'" in tied.refused(
        "tournament", "what-if", "cup", "--tie-break", "coin"
    )
