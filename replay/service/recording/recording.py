"""Recording at a table: start a match, record a hand result or a penalty, end a match early.

Each use case loads the match once (its events and its seal, checked on the rows read: a
damaged match is refused, nothing recorded), applies the command to the Match aggregate, and
saves its new events with its seal in one transaction (``replay.store.application.HonbaApp.load``
and ``save_match``). It returns ``Recorded``: the match after the command as plain values, with
the match's head digest to publish (the store's head is a checkpoint's, taken apart from saves:
``HonbaApp.checkpoint``).

What is recorded may be given as a domain value, or as a function of the loaded match (what
the front end read, resolved against the match's players and table): the match is read once
either way, and a command tried again after a conflict resolves it again on the match as it
then is.

A hand result is recorded with the time it is recorded at, by the server's clock
(``server_time``, read here once per command, never by a front end nor by the match): the
match's clock (``domain.clock``) decides from it whether the time rule ends the match.

An entry may say which hand it was entered for (``ForHand``: the hand's label as the table showed
it, the match's version a client read, or the client key of the entry the same phone sent just
before it): one entered for a hand that is no longer the table's is refused (``HandTaken``, with what
was recorded there instead), inside the same load and save, so that two phones on one table never
both record a hand; a retry of what its client key already recorded answers as before.

Saves are optimistic: when another process saved the match in between (``StoreConflict``), a
command sent with a client key is applied again to the match as it now is, up to ``TRIES``
times, since the key makes a second try record nothing twice; one without a key is refused:
the user decides.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

import attrs

from domain.amendments import CorrectedStep
from domain.errors import HonbaError
from domain.match import Match
from domain.rules import Ruleset
from domain.said import Listed, Said, listed
from domain.store_errors import FinalConflict, MatchExists, StoreConflict
from domain.values import HandResult, MatchEnd, Penalty, TableState
from projections.ledger import LedgerEntry, corrected_ledger
from replay.service.common.shapes import said_fact
from replay.service.recording.changes import Change, change_at
from replay.store.application import HonbaApp
from replay.store.retry import TRIES, retrying

T = TypeVar("T")
# What a command records: a value, or made from the match as loaded (its players, its table, its rules).
ResultGiven = HandResult | Callable[[Match], HandResult]
PenaltyGiven = Penalty | Callable[[Match], Penalty]


@attrs.frozen
class Recorded:
    """A stored match after a command, as the front ends show it.

    ``ledger`` is the corrected history entry by entry (the last entries are what was just
    recorded), made from ``steps`` when a front end asks for it (the command line does, the JSON
    API does not: a hand's answer costs the same at any point of a match); ``head`` the match's
    head digest, to publish (``replay.service.audit.digests`` says what it is; the store's is a
    checkpoint's, taken apart from saves: ``HonbaApp.checkpoint``); ``entry`` the number of the
    entry a correction touched (as ``honba log`` numbers it), when there is one, and ``change``
    what the correction (or an early end) did to it.
    """

    key: str
    players: tuple[str, ...]
    rules: Ruleset
    state: TableState
    steps: tuple[CorrectedStep, ...]
    head: str
    version: int
    entry: int | None = None
    change: Change | None = None

    @property
    def ledger(self) -> tuple[LedgerEntry, ...]:
        """The corrected history's ledger, entry by entry."""
        return tuple(corrected_ledger(self.steps))


@attrs.frozen
class ForHand:
    """The hand an entry was entered for, as the client that sent it knew it (any of the three).

    ``hand`` is the hand's label as the table showed it (``TableState.hand_label``, ``E2-0``;
    ``end`` once the match has ended); ``version`` the match's version a client read (the API's
    ``ETag``, sent back as ``If-Match``); ``after`` the client key of the entry the same client sent
    just before this one (entries kept on a phone while it was offline: the hand after that one,
    which only the server can work out)."""

    hand: str | None = None
    version: int | None = None
    after: str | None = None


class HandTaken(HonbaError):
    """An entry entered for a hand that is no longer the table's (another phone recorded it, or
    something else changed the match since the client read it); nothing was recorded. ``hand``
    is the table's hand now, ``recorded`` what was recorded since, in words (``domain.said``: the
    English is their ``str()``)."""

    def __init__(self, message: Said, hand: str, recorded: tuple[Said | Listed, ...]):
        super().__init__(message)
        self.hand = hand
        self.recorded = recorded


def hand_now(state: TableState) -> str:
    """The hand a table is at, as an entry names it: its label (``E2-0``), ``end`` once the match
    has ended. Under rules without counters a dealer's repeat keeps its label (``E1``): the hands
    the dealer has held since taking the deal follow it there (``E1+1``), so that each hand's name
    is its own."""
    if state.finished:
        return "end"
    return hand_name(state)


def hand_name(state: TableState) -> str:
    """A hand's own name (``hand_now``'s, of a table before its hand is played)."""
    if state.counters_shown or not state.extra_hands:
        return state.hand_label
    return f"{state.hand_label}+{state.extra_hands}"


def check_for_hand(match: Match, expect: ForHand | None, client_key: str | None) -> None:
    """Refuse (``HandTaken``) an entry entered for a hand that is no longer the table's.

    A retry of what its client key already recorded passes: the aggregate answers it with nothing
    recorded (``Match.seen``), whatever was recorded since."""
    if expect is None or (client_key is not None and client_key in match.client_keys):
        return
    now = hand_now(match.state)
    read = expect.version
    if read is not None and read != match.version:
        since = _since(match, lambda position: position > read)
        said = listed(since, "; ", Said("a change of the clock or a correction"))
        raise HandTaken(
            Said(
                "the match changed since version {read} (now {version}, at {now}): {said}",
                read=read,
                version=match.version,
                now=now,
                said=said,
            ),
            now,
            since,
        )
    if expect.after is not None and expect.after != match.last_entry_key:
        raise HandTaken(
            Said(
                "the entry sent before this one from this phone was not recorded (or another was recorded after it),"
                " so this one was not either: the table is at {now}; enter it again if it still stands",
                now=now,
            ),
            now,
            (),
        )
    if expect.hand is not None and expect.hand != now:
        taken = _taken(match, expect.hand)
        if taken:
            raise HandTaken(
                Said(
                    "{hand} was already recorded from another phone: {what}", hand=expect.hand, what=listed(taken, "; ")
                ),
                now,
                taken,
            )
        raise HandTaken(
            Said("{hand} is not the hand at this table: it is at {now}", hand=expect.hand, now=now), now, ()
        )


def _taken(match: Match, hand: str) -> tuple[Said | Listed, ...]:
    """What stands recorded at the hand labelled ``hand`` (its result, penalties, an end)."""
    players, scoring = match.players, match.rules.scoring
    return tuple(
        said_fact(e.fact, players, scoring)
        for e in corrected_ledger(match.corrected_steps())
        if hand_name(e.before) == hand and e.kind != "end"
    )


def _since(match: Match, after: Callable[[int], bool]) -> tuple[Said, ...]:
    """What stands recorded at the positions ``after`` selects, in words, each with its hand."""
    players, scoring = match.players, match.rules.scoring
    return tuple(
        Said("{hand} {what}", hand=hand_name(e.before), what=said_fact(e.fact, players, scoring))
        for e in corrected_ledger(match.corrected_steps())
        if e.position is not None and after(e.position) and e.kind != "end"
    )


def server_time() -> datetime:
    """The time now, by the server's clock (UTC): the one clock every table's time is read from."""
    return datetime.now(UTC)


def recorded(match: Match, entry: int | None = None, change: Change | None = None) -> Recorded:
    """The match as ``Recorded``."""
    steps = match.steps_held()
    return Recorded(match.key, match.players, match.rules, match.state, steps, match.head, match.version, entry, change)


def on_match(
    store: HonbaApp,
    key: str,
    command: Callable[[Match], T],
    client_key: str | None = None,
    expect: ForHand | None = None,
) -> tuple[Match, T]:
    """Load the match once, apply ``command`` to it, save what it records in one transaction:
    the match after it, and what the command returned.

    When another process saved the match in between (``StoreConflict``), a command with a
    client key is applied again to the match as it now is, up to ``TRIES`` times (at once, then
    after a short bounded jitter: ``replay.store.retry``): the key makes the retry safe (if the
    other process recorded this very command, the retry records nothing). A command without a
    key is not retried, nor is a ``FinalConflict`` (a save no later try could write: a table's one
    trip whose insert's outcome was not known, after a try that read the match and found the command
    not recorded). ``expect``, the hand the command was entered for, is checked on the match
    as loaded each time (``check_for_hand``): a hand taken meanwhile refuses it.

    The match returned is, once saved, the one the store keeps for its next load (``HonbaApp.save_match``'s
    ``read_only_after``): read it (its state, steps, clock), never run a command on it.
    """

    def once(_attempt: int) -> tuple[Match, T]:
        loaded = store.load(key)
        check_for_hand(loaded.match, expect, client_key)
        outcome = command(loaded.match)
        # Nothing pending: a retry of a command already recorded, nothing to save.
        if loaded.match.pending_events:
            # Its caller only reads what ``on_match`` returns: the saved match is kept uncopied.
            store.save_match(loaded.match, loaded.seal, read_only_after=True)
        return loaded.match, outcome

    return retrying(
        once,
        conflict=StoreConflict,
        # A final conflict (``FinalConflict``) is one every later try would meet: answered at once.
        again=lambda conflict: client_key is not None and not isinstance(conflict, FinalConflict),
        give_up=lambda conflict: StoreConflict(f"{conflict} (tried {TRIES} times)"),
    )


def result_on(given: ResultGiven, match: Match) -> HandResult:
    """The hand result ``given`` stands for on this match."""
    return given(match) if callable(given) else given


def penalty_on(given: PenaltyGiven, match: Match) -> Penalty:
    """The penalty ``given`` stands for on this match."""
    return given(match) if callable(given) else given


def start_match(
    store: HonbaApp,
    key: str,
    players: Sequence[str],
    rules: Ruleset,
    source: Mapping[str, Any] | None = None,
    opening: TableState | None = None,
    *,
    client_key: str | None = None,
) -> Recorded:
    """Start and store a new match; a key already in use is refused, except for a retry
    (``client_key`` given) of the very same start, which answers with the stored match."""
    already = MatchExists(f"a match {key!r} is already stored")
    if client_key is not None:
        # Kept with the match, so that only a retry of this very start answers with it.
        source = {**(source or {}), "client_key": client_key}
    match = Match.start(key, players, rules, source, opening)
    if store.has_match(key):
        return _same_start(store, match, client_key, already)
    try:
        store.save_match(match)
    except StoreConflict:
        # Started by another process since the look above.
        return _same_start(store, match, client_key, already)
    return recorded(match)


def _same_start(store: HonbaApp, match: Match, client_key: str | None, already: MatchExists) -> Recorded:
    stored = store.get_match(match.key)
    same = (stored.players, stored.rules, stored.source) == (match.players, match.rules, match.source)
    if client_key is not None and same:
        return recorded(stored)
    raise already


def record(
    store: HonbaApp,
    key: str,
    result: ResultGiven,
    *,
    client_key: str | None = None,
    at: datetime | None = None,
    expect: ForHand | None = None,
) -> Recorded:
    """Record a hand result on a stored match (a retry with the same client key records nothing).

    ``at`` is when it is recorded, for the match's clock: the server's time now, read once
    here (a retry after a conflict records it at the same time); a test or a replay gives it.
    """
    when = at if at is not None else server_time()
    match, _ = on_match(
        store, key, lambda m: m.record(result_on(result, m), client_key=client_key, at=when), client_key, expect
    )
    return recorded(match)


def penalise(
    store: HonbaApp,
    key: str,
    penalty: PenaltyGiven,
    *,
    client_key: str | None = None,
    expect: ForHand | None = None,
) -> Recorded:
    """Record a penalty on a stored match, as entered at the table (a referee's penalty, with who
    and why and also after the end, is a correction: ``replay.service.recording.entry.apply_correction``)."""
    match, _ = on_match(
        store, key, lambda m: m.penalise(penalty_on(penalty, m), client_key=client_key), client_key, expect
    )
    return recorded(match)


def end(
    store: HonbaApp, key: str, reason: str, *, client_key: str | None = None, expect: ForHand | None = None
) -> Recorded:
    """End a stored match early; ``reason`` may not be one the rules decide (complete, bust, dealer_stop).
    ``change`` says what the end did (the final scores)."""
    match, position = on_match(store, key, lambda m: ending(m, reason, client_key), client_key, expect)
    change = change_at(match, position)
    return recorded(match, change.entry, change)


def ending(match: Match, reason: str, client_key: str | None = None) -> int:
    """End the match in memory early for ``reason`` (the one place an early end is made: the table's,
    the referee's and a preview's): the position of the end that stands."""
    match.end(reason, client_key=client_key)
    return ended_at(match)


def ended_at(match: Match) -> int:
    """The position of the end that stands (the match has ended)."""
    ends = [p for p, fact in match.effective_entries() if isinstance(fact, MatchEnd)]
    assert ends, "the match has ended"
    return ends[-1]
