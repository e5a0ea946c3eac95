"""Tournaments: the aggregate's rules, ``honba import --tournament``, and the documented fixes
(``honba tournament alias / unalias / detach / attach``) followed by the standings end to end.

The games are record files written here by hand (JSON Lines, docs/record-format.md); their
final points are worked out by hand under Tenhou's rules (25,000 start, 30,000 return, uma
+20/+10/-10/-20, oka 20 to the top, scores rounded to the thousand, ties by seat order):

- ``r1-t1`` Ann, Ben, Cho, Dai: Ann, the dealer, rons Ben for 3 han 30 fu (5,800), then the
  time limit: 30,800 / 19,200 / 25,000 / 25,000. Cho (seat 2) 2nd: 25 - 30 + 10 = +5; Dai 3rd:
  -15; Ben 19.2 -> 19, 19 - 30 - 20 = -31; Ann -(5 - 15 - 31) = +41.
- ``r2-t1`` Ben, Annie, Dai, Cho (Annie is Ann under another log name): Annie rons Ben for
  2 han 30 fu (2,000): 23,000 / 27,000 / 25,000 / 25,000. Dai (seat 2) 2nd +5, Cho 3rd -15,
  Ben 23 - 50 = -27, Annie +37.
- ``friendly`` Ann, Ben, Cho, Dai, in the folder by mistake: Ben rons Ann for a mangan (8,000):
  17,000 / 33,000 / 25,000 / 25,000. Cho 2nd +5, Dai 3rd -15, Ann 17 - 50 = -33, Ben +43.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from honba_cli import Honba, honba, ok

from domain.errors import RuleViolation
from domain.tournament import Tournament, tournament_id
from replay.service.tournaments.tournaments import change_tournament, create_tournament
from replay.store.application import HonbaApp
from replay.store.tournaments import get_tournament

# The aggregate.


def test_a_tournament_needs_a_name_and_distinct_players() -> None:
    with pytest.raises(RuleViolation):
        Tournament.create(" ")
    with pytest.raises(RuleViolation):
        Tournament.create("cup", ["Ann", "Ann"])
    assert Tournament.create("cup", ["Ann"]).id == tournament_id("cup")


def test_attaching_a_match_registers_its_new_players_by_name() -> None:
    t = Tournament.create("cup", ["Ann", "Ben"])
    t.attach("m1", ["Ann", "Ben", "Cho", "Dai"], session=1, table=2)
    assert t.players == ["Ann", "Ben", "Cho", "Dai"]
    assert t.matches == {"m1": (1, 2)}
    version = t.version
    t.attach("m1", ["Ann", "Ben", "Cho", "Dai"], session=1, table=2)
    assert t.version == version  # the same attachment again records nothing
    t.declare_alias("Annie", "Ann")
    t.attach("m2", ["Annie", "Ben", "Cho", "Dai"], session=2)
    assert "Annie" not in t.players  # an alias is no new player
    with pytest.raises(RuleViolation):
        t.attach("m3", ["Ann", "Ben", "Cho", "Dai"], session=0)


def test_aliases_point_at_a_player_one_step_only() -> None:
    t = Tournament.create("cup", ["Ann", "Ben", "Cho"])
    t.attach("m1", ["Annie", "Ben", "Cho", "Dai"])  # Annie joins as a player of her own
    with pytest.raises(RuleViolation, match="not a player"):
        t.declare_alias("Annie", "Zoe")
    with pytest.raises(RuleViolation, match="differ"):
        t.declare_alias("Ann", "Ann")
    t.declare_alias("Annie", "Ann")
    assert t.player_of("Annie") == "Ann" and t.player_of("Ben") == "Ben"
    # Chains are refused both ways: standings resolve a log name in one step.
    with pytest.raises(RuleViolation, match="itself an alias"):
        t.declare_alias("A.", "Annie")
    with pytest.raises(RuleViolation, match="aliases of its own"):
        t.declare_alias("Ann", "Ben")
    # A wrong alias is pointed elsewhere, or withdrawn with a reason.
    t.declare_alias("Annie", "Cho")
    assert t.player_of("Annie") == "Cho"
    with pytest.raises(RuleViolation, match="why"):
        t.withdraw_alias("Annie", " ")
    t.withdraw_alias("Annie", "she is nobody else")
    assert t.player_of("Annie") == "Annie"
    with pytest.raises(RuleViolation, match="no alias"):
        t.withdraw_alias("Annie", "twice")


def test_a_detached_match_is_remembered_until_attached_again() -> None:
    t = Tournament.create("cup")
    t.attach("m1", ["Ann", "Ben", "Cho", "Dai"])
    with pytest.raises(RuleViolation, match="why"):
        t.detach("m1", "")
    with pytest.raises(RuleViolation, match="not in"):
        t.detach("m2", "never attached")
    t.detach("m1", "a friendly game")
    assert t.matches == {} and t.detached == {"m1": "a friendly game"}
    t.attach("m1", ["Ann", "Ben", "Cho", "Dai"], session=3)
    assert t.matches == {"m1": (3, None)} and t.detached == {}


def test_a_session_seats_only_players_of_the_tournament() -> None:
    t = Tournament.create("cup", ["Ann", "Ben", "Cho", "Dai"])
    t.declare_alias("Annie", "Ann")
    t.plan_session(1, [["Annie", "Ben", "Cho", "Dai"]])
    assert t.sessions == {1: [["Annie", "Ben", "Cho", "Dai"]]}
    with pytest.raises(RuleViolation):
        t.plan_session(2, [["Zoe", "Ben", "Cho", "Dai"]])


def test_the_tournament_reloads_from_the_store_as_it_was_saved() -> None:
    app = HonbaApp.open(":memory:")
    t = Tournament.create("cup", ["Ann"])
    t.attach("m1", ["Ann", "Ben", "Cho", "Dai"], session=1, table=1)
    t.declare_alias("Annie", "Ann")
    t.plan_session(2, [["Ann", "Ben", "Cho", "Dai"]])
    t.attach("m2", ["Ann", "Ben", "Cho", "Dai"], session=2)
    t.detach("m2", "wrong table")
    app.save(t)
    stored = get_tournament(app, "cup")
    assert (stored.players, stored.aliases, stored.sessions, stored.matches, stored.detached) == (
        ["Ann", "Ben", "Cho", "Dai"],
        {"Annie": "Ann"},
        {2: [["Ann", "Ben", "Cho", "Dai"]]},
        {"m1": (1, 1)},
        {"m2": "wrong table"},
    )


def test_a_change_made_meanwhile_by_another_process_is_kept() -> None:
    app = HonbaApp.open(":memory:")
    app.save(Tournament.create("cup", ["Ann", "Ben"]))
    calls = []

    def change(t: Tournament) -> None:
        calls.append(t.version)
        if len(calls) == 1:
            # Another process declares an alias between this load and this save.
            other = get_tournament(app, "cup")
            other.declare_alias("B.", "Ben")
            app.save(other)
        t.declare_alias("Annie", "Ann")

    change_tournament(app, "cup", change)
    assert len(calls) == 2  # loaded again and applied to the tournament as it then was
    assert get_tournament(app, "cup").aliases == {"B.": "Ben", "Annie": "Ann"}


# Import into a tournament, and the documented fixes, end to end on a SQLite store.


def start(key: str, players: list[str]) -> dict[str, Any]:
    return {"type": "start", "key": key, "players": players, "rules": "tenhou"}


def ron_line(winner: str, loser: str, **value: Any) -> dict[str, Any]:
    return {"type": "win", "wins": [{"winner": winner, "from": loser, **value}]}


END = {"type": "end", "reason": "time limit"}
RECORDS = {
    "session1/r1-t1.jsonl": [start("r1-t1", ["Ann", "Ben", "Cho", "Dai"]), ron_line("Ann", "Ben", han=3, fu=30), END],
    "session1/friendly.jsonl": [
        start("friendly", ["Ann", "Ben", "Cho", "Dai"]),
        ron_line("Ben", "Ann", limit="mangan"),
        END,
    ],
    "session2/r2-t1.jsonl": [
        start("r2-t1", ["Ben", "Annie", "Dai", "Cho"]),
        ron_line("Annie", "Ben", han=2, fu=30),
        END,
    ],
}


@pytest.fixture
def folders(tmp_path: Path) -> Path:
    for name, lines in RECORDS.items():
        path = tmp_path / "logs" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return tmp_path / "logs"


@pytest.fixture
def db(tmp_path: Path) -> Iterator[str]:
    yield str(tmp_path / "store" / "honba.sqlite")


def standings(db: str) -> dict[str, tuple[int, float, int]]:
    data = json.loads(ok(db, "standings", "--tournament", "cup", "--format", "json"))
    return {row["player"]: (row["rank"], row["points"], row["matches"]) for row in data["rows"]}


def test_import_attaches_every_game_and_the_documented_fixes_follow(db: str, folders: Path) -> None:
    out = ok(db, "import", str(folders / "session1"), "--tournament", "cup")
    assert "2 stored" in out and "2 matches count for tournament 'cup' in session 1" in out
    out = ok(db, "import", str(folders / "session2"), "--tournament", "cup", "--session", "2")
    assert "1 match counts for tournament 'cup' in session 2" in out

    # Players matched by name; Annie is nobody else yet.
    # Ann 41 - 33 = +8; Ben -31 + 43 - 27 = -15; Cho 5 + 5 - 15 = -5; Dai -15 - 15 + 5 = -25.
    assert standings(db) == {
        "Annie": (1, 37.0, 1),
        "Ann": (2, 8.0, 2),
        "Cho": (3, -5.0, 3),
        "Ben": (4, -15.0, 3),
        "Dai": (5, -25.0, 3),
    }

    # The friendly game was in the folder by mistake.
    ok(db, "tournament", "detach", "cup", "friendly", "--reason", "a friendly game, not of the cup")
    # Ann +41; Ben -31 - 27 = -58; Cho +5 - 15 = -10; Dai -15 + 5 = -10.
    assert standings(db) == {
        "Ann": (1, 41.0, 1),
        "Annie": (2, 37.0, 1),
        "Cho": (3, -10.0, 2),
        "Dai": (3, -10.0, 2),
        "Ben": (5, -58.0, 2),
    }

    # Annie is Ann: one person, two log names.
    ok(db, "tournament", "alias", "cup", "Annie", "Ann")
    merged = {
        "Ann": (1, 78.0, 2),
        # Cho and Dai: -10 points, places 2 and 3, no first place, net 0: they share the rank.
        "Cho": (2, -10.0, 2),
        "Dai": (2, -10.0, 2),
        "Ben": (4, -58.0, 2),
    }
    assert standings(db) == merged

    # Withdrawn by mistake: Annie stands for herself again; declared again, merged again.
    ok(db, "tournament", "unalias", "cup", "Annie", "--reason", "typed by mistake")
    assert standings(db)["Annie"] == (2, 37.0, 1) and standings(db)["Ann"] == (1, 41.0, 1)
    ok(db, "tournament", "alias", "cup", "Annie", "Ann")
    assert standings(db) == merged

    # Importing the folders again stores nothing, and does not undo the detach.
    out = ok(db, "import", str(folders), "--tournament", "cup")
    assert "0 stored, 3 already present" in out
    assert "match 'friendly' was detached from 'cup': left out" in out
    out = ok(db, "import", str(folders / "session2"), "--tournament", "cup", "--session", "2")
    assert standings(db) == merged

    shown = ok(db, "tournament", "show", "cup")
    assert "Aliases: Annie = Ann" in shown
    assert "Detached: friendly (a friendly game, not of the cup)" in shown

    # An explicit attach counts it again: Ann 78 - 33 = 45, Ben -58 + 43 = -15, Cho -10 + 5 = -5,
    # Dai -10 - 15 = -25.
    ok(db, "tournament", "attach", "cup", "friendly", "--session", "1")
    assert standings(db) == {"Ann": (1, 45.0, 3), "Cho": (2, -5.0, 3), "Ben": (3, -15.0, 3), "Dai": (4, -25.0, 3)}


def test_the_sessions_of_imported_games_give_the_standings_after_each(db: str, folders: Path) -> None:
    ok(db, "import", str(folders / "session1" / "r1-t1.jsonl"), "--tournament", "cup")
    ok(db, "import", str(folders / "session2"), "--tournament", "cup", "--session", "2")
    ok(db, "tournament", "alias", "cup", "Annie", "Ann")
    data = json.loads(ok(db, "standings", "--tournament", "cup", "--after", "1", "--format", "json"))
    assert {r["player"]: r["points"] for r in data["rows"]} == {"Ann": 41.0, "Ben": -31.0, "Cho": 5.0, "Dai": -15.0}
    data = json.loads(ok(db, "standings", "--tournament", "cup", "--format", "json"))
    assert data["by_session"] == {
        "1": {"Ann": 41.0, "Ben": -31.0, "Cho": 5.0, "Dai": -15.0},
        "2": {"Ann": 78.0, "Ben": -58.0, "Cho": -10.0, "Dai": -10.0},
    }


def test_import_without_a_tournament_attaches_nothing(db: str, folders: Path) -> None:
    out = ok(db, "import", str(folders))
    assert "3 stored" in out and "tournament" not in out
    assert honba(db, "standings", "--tournament", "cup").exit_code == 2


def test_import_refuses_a_session_below_one(db: str, folders: Path) -> None:
    refused = honba(db, "import", str(folders), "--tournament", "cup", "--session", "0")
    assert refused.exit_code == 2
    out = refused.output
    # Read by the one number reader in the session's range (domain.bounds.SESSION).
    assert "0 is out of range (1 to 1,000)" in " ".join(out.replace("│", " ").split())


def test_the_fixes_name_what_is_wrong(db: str, folders: Path) -> None:
    ok(db, "import", str(folders / "session1"), "--tournament", "cup")
    assert "not a player" in Honba(Path(db)).refused("tournament", "alias", "cup", "Zed", "Nobody")
    assert "no alias" in Honba(Path(db)).refused("tournament", "unalias", "cup", "Zed", "--reason", "x")
    assert "not in 'cup'" in Honba(Path(db)).refused("tournament", "detach", "cup", "r2-t1", "--reason", "x")
    assert "no tournament 'league'" in Honba(Path(db)).refused("tournament", "alias", "league", "Annie", "Ann")


# Creating a tournament: the same use case from the command line and from the director's page.


def test_creating_a_tournament_again_stores_nothing_new() -> None:
    app = HonbaApp.open(":memory:")
    first = create_tournament(app, "cup", ["Ann", "Ben"])
    again = create_tournament(app, "cup", ["Ann", "Ben"])
    assert (first.new, first.players, first.added) == (True, ("Ann", "Ben"), ("Ann", "Ben"))
    assert (again.new, again.players, again.added) == (False, ("Ann", "Ben"), ())
    assert get_tournament(app, "cup").version == 1


def test_creating_a_tournament_again_with_more_players_adds_only_them() -> None:
    app = HonbaApp.open(":memory:")
    create_tournament(app, "cup", ["Ann", "Ben"])
    again = create_tournament(app, "cup", ["Ben", "Cho", " "])
    assert (again.new, again.players, again.added) == (False, ("Ann", "Ben", "Cho"), ("Cho",))


def test_a_new_tournament_refuses_a_player_named_twice() -> None:
    app = HonbaApp.open(":memory:")
    with pytest.raises(RuleViolation, match="different from each other"):
        create_tournament(app, "cup", ["Ann", "Ann"])
    assert not app.recorder.select_events(tournament_id("cup"))


def test_honba_tournament_create_twice_says_so_and_fails_on_nothing(db: str) -> None:
    assert "Tournament 'cup' created with 2 players" in ok(db, "tournament", "create", "cup", "--players", "Ann,Ben")
    again = ok(db, "tournament", "create", "cup", "--players", "Ann,Ben")
    assert "Tournament 'cup' is already stored, with 2 players; nothing new" in again
    more = ok(db, "tournament", "create", "cup", "--players", "Cho")
    assert "Tournament 'cup' is already stored, with 3 players; added Cho" in more
    shown = ok(db, "tournament", "show", "cup")
    assert "Tournament 'cup': 3 players, 0 matches" in shown
