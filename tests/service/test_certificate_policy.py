"""Which certificates are checked against the store: the service decides, once, for every front end.
A store that holds the certified tournament checks everything the certificate says against its
record; any other store checks the signature alone (its standings view is not even built)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from domain.rules import load_preset
from projections.views import DocumentView
from replay.service.director.certificates import certificate_body, sign, verify_certificate
from replay.service.recording import recording
from replay.service.tournaments.tournaments import attach_match, create_tournament
from replay.store.application import HonbaApp
from replay.store.standings_view import catch_up, open_view

PLAYERS = ("Ann", "Ben", "Cho", "Dai")
TENHOU = load_preset("tenhou")


@pytest.fixture
def organiser() -> Iterator[HonbaApp]:
    """A store holding the cup: one match, ended early, attached as session 1."""
    app = HonbaApp.open(":memory:")
    create_tournament(app, "cup", PLAYERS)
    recording.start_match(app, "cup-1", list(PLAYERS), TENHOU, {"format": "honba"})
    recording.end(app, "cup-1", "time limit")
    attach_match(app, "cup", "cup-1", session=1, table=1)
    yield app
    app.close()


def view_of(app: HonbaApp) -> DocumentView:
    view = open_view(app)
    catch_up(app, view)
    return view


def certificate(app: HonbaApp) -> dict[str, object]:
    return sign(certificate_body(app, view_of(app), "cup"), Ed25519PrivateKey.generate())


def test_a_store_holding_the_tournament_checks_the_certificate_against_its_record(organiser: HonbaApp) -> None:
    verdict = verify_certificate(certificate(organiser), None, organiser, lambda: view_of(organiser))
    assert (verdict.tournament, verdict.against_store, verdict.problems) == ("cup", True, ())


def test_a_changed_number_fails_against_the_store_that_holds_it(organiser: HonbaApp) -> None:
    signed = certificate(organiser)
    recording.start_match(organiser, "cup-2", list(PLAYERS), TENHOU, {"format": "honba"})
    recording.end(organiser, "cup-2", "time limit")
    attach_match(organiser, "cup", "cup-2", session=2, table=1)
    verdict = verify_certificate(signed, None, organiser, lambda: view_of(organiser))
    assert verdict.against_store and verdict.problems


def test_another_store_checks_the_signature_alone_and_builds_no_view(organiser: HonbaApp) -> None:
    signed = certificate(organiser)
    other = HonbaApp.open(":memory:")
    asked: list[bool] = []

    def never() -> DocumentView:
        asked.append(True)
        return view_of(other)

    try:
        verdict = verify_certificate(signed, None, other, never)
    finally:
        other.close()
    assert (verdict.against_store, verdict.problems, asked) == (False, (), [])
