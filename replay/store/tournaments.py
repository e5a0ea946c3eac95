"""Tournaments in the store: one read by name, one saved with the store chain's link."""

from __future__ import annotations

from eventsourcing.application import AggregateNotFoundError

from domain.integrity import GENESIS, event_digest, roll
from domain.tournament import Tournament, tournament_id
from replay.store.application import HonbaApp
from replay.store.errors import UNAVAILABLE, StoreError, TournamentNotFound
from replay.store.rows import unreadable


def get_tournament(store: HonbaApp, name: str) -> Tournament:
    """The stored tournament of that name."""
    try:
        tournament: Tournament = store.repository.get(tournament_id(name))
    except AggregateNotFoundError:
        raise TournamentNotFound(f"no tournament {name!r} in the store (honba tournament create)") from None
    except UNAVAILABLE:  # the store did not answer: nothing is known of the tournament's rows
        raise
    except Exception as exc:  # a row deleted, undecodable, of an unknown kind: whatever broke in reading
        raise StoreError(
            f"tournament {name!r} is damaged in the store: it cannot be read ({unreadable(exc)}); see honba check"
        ) from None
    return tournament


def save_tournament(store: HonbaApp, tournament: Tournament) -> str:
    """Save a tournament's new events with the store chain's link; the store head after it. Its
    events carry no chain of their own: the link records the rolling head over all of them
    (``domain.integrity.roll``), so that ``honba check`` sees any of them changed, removed or rolled back."""
    head = GENESIS
    for stored in store.recorder.select_events(tournament.id):
        try:
            head = roll(head, event_digest(store.mapper.to_domain_event(stored)))
        except Exception as exc:  # a row changed behind honba's back
            raise StoreError(
                f"the tournament is damaged in the store at event {stored.originator_version}: "
                f"it cannot be read ({unreadable(exc)}); nothing recorded; see honba check"
            ) from None
    for event in tournament.pending_events:
        head = roll(head, event_digest(event))
    return store.save_linked(tournament, (tournament.id, tournament.version, head))
