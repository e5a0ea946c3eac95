"""The sign-off (issue 33): once a match ends, each player (or the table's referee) confirms the
final scores; until then the standings list it as unconfirmed; a dispute goes to the referee's desk.

The rule is the WRC rules' (2015, §8.2: the players confirm the final scores at the table). Here
the Tournament aggregate and the service's use cases, in memory; the page in
tests/e2e/test_table_offline_browser.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from domain.errors import RuleViolation
from domain.rules import load_preset
from domain.values import Penalty
from replay.input.entry import entry_of
from replay.service.recording import recording
from replay.service.recording.entry import CorrectionRequest, apply_correction
from replay.service.tournaments.sign_off import disputes, require_sign_off, sign_off_data, sign_scores, unconfirmed
from replay.service.tournaments.tournaments import change_tournament, create_tournament
from replay.store.application import HonbaApp
from replay.store.standings_view import catch_up, open_view
from replay.store.tournaments import get_tournament

PLAYERS = ["Ann", "Ben", "Cho", "Dai"]


@pytest.fixture
def app() -> Iterator[HonbaApp]:
    application = HonbaApp.open(":memory:")
    create_tournament(application, "Cup", PLAYERS)
    recording.start_match(application, "cup-1", PLAYERS, load_preset("tenhou"))
    change_tournament(application, "Cup", lambda t: t.attach("cup-1", PLAYERS, 1, 1))
    yield application
    application.close()


def signed(app: HonbaApp, player: str | None, *, agreed: bool = True, note: str = "") -> dict[str, object]:
    view = open_view(app)
    catch_up(app, view)
    return sign_scores(app, view, "cup-1", player, agreed=agreed, note=note)


def pending(app: HonbaApp) -> list[dict[str, object]]:
    view = open_view(app)
    catch_up(app, view)
    return unconfirmed(app, view, "Cup")


def test_without_a_sign_off_a_finished_match_counts_as_entered(app: HonbaApp) -> None:
    recording.end(app, "cup-1", "agreed")
    assert pending(app) == []
    with pytest.raises(RuleViolation, match="has no sign-off"):
        signed(app, "Ann")


def test_a_match_is_unconfirmed_until_each_player_confirms(app: HonbaApp) -> None:
    require_sign_off(app, "Cup")
    with pytest.raises(RuleViolation, match="has not ended"):
        signed(app, "Ann")
    recording.end(app, "cup-1", "agreed")
    assert [m["status"] for m in pending(app)] == ["unconfirmed"]
    for player in PLAYERS[:3]:
        assert signed(app, player)["status"] == "unconfirmed"
    done = signed(app, "Dai")
    assert done["status"] == "confirmed"
    assert [p["said"] for p in done["players"]] == ["confirmed"] * 4  # type: ignore[index]
    assert pending(app) == []


def test_a_dispute_is_flagged_to_the_referee_whose_confirmation_settles_it(app: HonbaApp) -> None:
    require_sign_off(app, "Cup")
    recording.end(app, "cup-1", "agreed")
    with pytest.raises(RuleViolation, match="say what is disputed"):
        signed(app, "Ben", agreed=False)
    for player in PLAYERS:
        signed(app, player, agreed=player != "Ben", note="E3-0 was a haneman, not a mangan" if player == "Ben" else "")
    view = open_view(app)
    catch_up(app, view)
    (flagged,) = disputes(app, view)
    assert flagged["match"] == "cup-1" and flagged["status"] == "disputed"
    assert {"player": "Ben", "said": "disputed", "note": "E3-0 was a haneman, not a mangan"} in flagged["players"]
    assert signed(app, None)["status"] == "confirmed"
    assert disputes(app, view) == []
    assert pending(app) == []


def test_only_the_match_s_players_or_the_referee_sign(app: HonbaApp) -> None:
    require_sign_off(app, "Cup")
    recording.end(app, "cup-1", "agreed")
    with pytest.raises(RuleViolation, match="did not play"):
        signed(app, "Eve")


def test_said_again_nothing_new_is_recorded(app: HonbaApp) -> None:
    require_sign_off(app, "Cup")
    recording.end(app, "cup-1", "agreed")
    signed(app, "Ann")
    version = get_tournament(app, "Cup").version
    signed(app, "Ann")
    assert get_tournament(app, "Cup").version == version
    view = open_view(app)
    catch_up(app, view)
    data = sign_off_data(app, view, "cup-1")
    assert data is not None and data["players"][0] == {"player": "Ann", "said": "confirmed", "note": ""}


def test_a_referee_s_correction_after_the_players_confirmed_asks_them_again(app: HonbaApp) -> None:
    require_sign_off(app, "Cup")
    recording.end(app, "cup-1", "agreed")
    for player in PLAYERS:
        signed(app, player)
    assert pending(app) == []
    # Dai's 3,000 penalty, added by the referee once the match had ended: the scores signed are gone.
    penalty = entry_of(Penalty(3, 3000), PLAYERS)
    request = CorrectionRequest("penalty", entry=penalty, by="Eve", reason="slow play")
    apply_correction(app, "cup-1", request, client_key=None)
    (again,) = pending(app)
    assert again["status"] == "unconfirmed"
    assert [p["said"] for p in again["players"]] == [None] * 4  # type: ignore[index]
    for player in PLAYERS:
        signed(app, player)
    assert pending(app) == []


def test_a_player_called_referee_signs_for_themselves_not_for_the_referee() -> None:
    app = HonbaApp.open(":memory:")
    try:
        players = ["referee", "Ben", "Cho", "Dai"]
        create_tournament(app, "Cup", players)
        recording.start_match(app, "cup-1", players, load_preset("tenhou"))
        change_tournament(app, "Cup", lambda t: t.attach("cup-1", players, 1, 1))
        require_sign_off(app, "Cup")
        recording.end(app, "cup-1", "agreed")
        mine = signed(app, "referee")
        assert mine["status"] == "unconfirmed" and mine["referee"] is None
        assert mine["players"][0] == {"player": "referee", "said": "confirmed", "note": ""}  # type: ignore[index]
        settled = signed(app, None)
        assert settled["status"] == "confirmed" and settled["referee"] == "confirmed"
    finally:
        app.close()
