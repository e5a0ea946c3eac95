"""Tournaments in the store: one read by name, one saved with its seal."""

from __future__ import annotations

from eventsourcing.application import AggregateNotFoundError

from domain.integrity import GENESIS, event_digest, roll
from domain.said import Said
from domain.store_errors import StoreError, TournamentNotFound
from domain.tournament import Tournament, tournament_id
from replay.store.application import HonbaApp
from replay.store.errors import UNAVAILABLE
from replay.store.rows import unreadable
from replay.store.seal import Seal


def get_tournament(store: HonbaApp, name: str) -> Tournament:
    """The stored tournament of that name."""
    try:
        tournament: Tournament = store.repository.get(tournament_id(name))
    except AggregateNotFoundError:
        raise TournamentNotFound(
            Said("no tournament {name} in the store (honba tournament create)", name=repr(name))
        ) from None
    except UNAVAILABLE:  # the store did not answer: nothing is known of the tournament's rows
        raise
    except Exception as exc:  # a row deleted, undecodable, of an unknown kind: whatever broke in reading
        raise StoreError(
            Said(
                "tournament {name} is damaged in the store: it cannot be read ({why}); see honba check",
                name=repr(name),
                why=unreadable(exc),
            )
        ) from None
    return tournament


def save_tournament(store: HonbaApp, tournament: Tournament) -> None:
    """Save a tournament's new events with its seal, in one transaction (``IntegrityError`` when
    another process saved it first). Its events carry no chain of their own: the seal records the
    rolling head over all of them (``domain.integrity.roll``), and so do the checkpoints, so that
    ``honba check`` sees any of them changed, removed or rolled back."""
    head = GENESIS
    for stored in store.recorder.select_events(tournament.id):
        try:
            head = roll(head, event_digest(store.mapper.to_domain_event(stored)))
        except Exception as exc:  # a row changed behind honba's back
            raise StoreError(
                Said(
                    "the tournament is damaged in the store at event {position}: "
                    "it cannot be read ({why}); nothing recorded; see honba check",
                    position=stored.originator_version,
                    why=unreadable(exc),
                )
            ) from None
    for event in tournament.pending_events:
        head = roll(head, event_digest(event))
    # A tournament saved before tournaments were sealed gets its seal at its next save.
    seal = store.seal_of(tournament.id) or Seal.open(tournament.id)
    seal.seal(tournament.version, head)
    store.save(tournament, seal)
