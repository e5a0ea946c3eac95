"""A damaged match's line (what ``honba check`` finds: the kind of problem, its position, its
detail) as words (``domain.said``): the English the command line, ``honba check`` and the JSON for
tools always printed (its ``str()``), and said in Japanese from the service's catalogue where a page
shows it; the standings view keeps why a match is damaged as words (template and fields), so that
it is said again in either language. Keys and stored data are data: never translated.

The damage: the han of the match's first win changed behind honba's back (event 2), which the
digest event 3 recorded of it no longer matches.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from domain.match import match_id
from domain.rules import load_preset
from domain.said import Said, said_data, said_from_data
from domain.store_errors import DamagedMatch
from projections.views import POPODocumentView
from replay.cli.render import json_text
from replay.input.fields import entry_from_fields
from replay.service.recording import recording
from replay.service.recording.entry import apply_entry
from replay.service.recording.matches import match_status, table_data
from replay.service.tournaments.standings import standings_data, tournament_report
from replay.service.tournaments.tournaments import attach_all
from replay.store.application import HonbaApp
from replay.store.standings_view import catch_up
from replay.web.i18n import say, spoken

TENHOU = load_preset("tenhou")
KEY = "m1"
PLAYERS = ("Ann", "Ben", "Cho", "Dai")

LINE = (
    "match 'm1' is damaged in the store: altered at 2 "
    "(its content no longer matches what event 3 recorded of it); see honba check m1"
)
LINE_JA = (
    "対局 'm1' の記録が破損しています: 位置 2 で改変(内容が、イベント 3 に記録されたものと一致しません)。"
    "honba check m1 を参照してください"
)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[HonbaApp]:
    path = tmp_path / "honba.sqlite"
    application = HonbaApp.open(str(path))
    recording.start_match(application, KEY, list(PLAYERS), TENHOU, {"format": "honba"})
    for fields in ({"kind": "win", "winner": "Ben", "discarder": "Ann", "value": "3/30"}, {"kind": "draw"}):
        apply_entry(application, KEY, entry_from_fields(fields), client_key=None, by="table 1")
    attach_all(application, "cup", [(KEY, PLAYERS)], session=1)
    # Event 2 (the win) changed behind honba's back: it still reads, its digest no longer matches.
    where = (match_id(KEY).hex, 2)
    with closing(sqlite3.connect(path)) as conn, conn:
        (state,) = conn.execute(
            "SELECT state FROM stored_events WHERE originator_id = ? AND originator_version = ?", where
        ).fetchone()
        data = json.loads(state)
        data["fact"]["_data_"]["wins"][0]["value"]["han"] = 4
        conn.execute(
            "UPDATE stored_events SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (json.dumps(data).encode(), *where),
        )
    yield application
    application.close()


def test_the_damage_line_is_its_english_byte_for_byte_and_said_in_japanese_with_its_data(app: HonbaApp) -> None:
    damage = app.damage(KEY)
    assert isinstance(damage, Said)
    assert str(damage) == LINE
    assert say(damage, "ja") == LINE_JA
    # The JSON for tools (``honba status --json``) gives the English lines.
    assert json.loads(json_text(match_status(app, KEY).data))["damage"] == [LINE]


def test_a_page_and_the_api_say_the_damage_in_their_language(app: HonbaApp) -> None:
    data = table_data(app, KEY)
    assert str(data["damaged"]) == LINE
    japanese = spoken(data, "ja")
    english = spoken(data, "en")
    assert isinstance(japanese, dict) and isinstance(english, dict)
    assert (japanese["damaged"], japanese["damage"]) == (LINE_JA, [LINE_JA])
    assert (english["damaged"], english["damage"]) == (LINE, [LINE])


def test_recording_on_the_damaged_match_is_refused_in_both_languages(app: HonbaApp) -> None:
    # Another process (this one checked the match as it saved it, and loads it as it knows it).
    other = HonbaApp.open(dict(app.env)["SQLITE_DBNAME"])
    with pytest.raises(DamagedMatch) as refused:
        apply_entry(other, KEY, entry_from_fields({"kind": "draw"}), client_key=None, by="table 1")
    other.close()
    assert str(refused.value) == f"{LINE}; nothing recorded"
    assert say(refused.value.said, "ja") == f"{LINE_JA}。何も記録していません"


def test_the_standings_view_keeps_why_as_words_and_says_it_in_either_language(app: HonbaApp) -> None:
    view = POPODocumentView()
    catch_up(app, view)
    template = "its chain is broken: event {before} does not match what event {position} recorded of it"
    # Stored as the words are made (their template and fields), not as English text.
    stored = view.get_doc("damaged", KEY)
    assert stored is not None and stored["why"] == {"said": template, "fields": {"before": 2, "position": 3}}
    why = tournament_report(view, "cup").damaged[KEY]
    assert str(why) == "its chain is broken: event 2 does not match what event 3 recorded of it"
    assert say(why, "ja") == "連鎖が壊れています: イベント 2 が、イベント 3 に記録されたものと一致しません"
    # The JSON for tools keeps the English.
    data = json.loads(json_text(standings_data(tournament_report(view, "cup"))))
    assert data["damaged"] == {KEY: "its chain is broken: event 2 does not match what event 3 recorded of it"}


def test_words_kept_as_data_are_the_same_words_again() -> None:
    words = Said("{a} at {position} ({b})", a=Said("altered"), position=2, b=Said("x {y}", y="Ann"))
    kept = said_data(words)
    assert json.loads(json.dumps(kept)) == kept
    again = said_from_data(kept)
    assert again == words and str(again) == "altered at 2 (x Ann)"
    assert said_from_data("plain English kept") == "plain English kept"
