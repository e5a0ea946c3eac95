"""The table page's use cases: what a table's phone shows and sends, as plain data.

The page (``replay/web/table.py``) taps what this module offers and shows what it answers; every
rule stays below it. ``value_choices`` lists the hand values a table can tap under its rules (the
domain says which exist and which pay a limit); ``table_view`` is the page's match: the table,
the clock at the server's time, the numbered ledger with the entries taken back struck through,
what undo would take back, and the final points once the match has ended. ``entry_preview`` is
the confirm step (what recording would pay, worked out by the domain on the match in memory, at
the server's time, so that the end on time shows there), also for a win entered by its tiles
(``hand_tiles_from_fields``, valued by ``replay.service.recording.tiles``); ``record_entry`` records it.
"""

from __future__ import annotations

from typing import Any

from domain.amendments import correction_outcomes, fact_in_force
from domain.errors import HonbaError, InvalidHandValue
from domain.match import Match
from domain.rules import Ruleset
from domain.said import Listed, Said
from domain.scoring.riichi import FU_COUNTS, base_points, check_hand_value
from domain.scoring.units import value_example
from domain.values import LIMIT_NAMES, HandValue, MatchEnd, WinResult
from projections.entries import entry_numbers
from projections.ledger import corrected_ledger, correction_marks
from replay.input.entry import Entry, FieldError
from replay.input.parsing import InputError
from replay.input.tiles import HandTiles, tile_error
from replay.service.common.shapes import describe_details, end_reason_said, said_fact
from replay.service.recording.changes import entry_title, payment_data, payment_lines
from replay.service.recording.clock import clock_data
from replay.service.recording.entry import apply_entry, apply_to, fact_at
from replay.service.recording.matches import shown_table_data
from replay.service.recording.recording import ForHand, Recorded, check_for_hand, hand_now, server_time
from replay.service.recording.tiles import TileValue, record_tile_win, tile_result, typed_value
from replay.service.tournaments.standings import match_result_data
from replay.store.application import HonbaApp

# The values a table taps.


def value_choices(rules: Ruleset) -> dict[str, Any]:
    """The hand values a table can tap under ``rules``, in the words of their family:

    ``{"family": "riichi" or "points", "rows": [{"label": "2 han", "choices": [{"value": "2/30"
    (the entry's ``value`` text), "label": "30", "title": "2 han 30 fu", "ron": bool, "tsumo":
    bool}]}], "limits": [{"value", "label"}], "typed": bool (a value typed is the usual way:
    no rows), "placeholder": an example of a value typed}``.

    Riichi: a row per han, with the fu counts that exist for that han (``check_hand_value``: on
    a discard, self-drawn, or both) and pay less than a limit (``base_points``: 3 han 70 fu pays
    a mangan, which is the mangan button; under kiriage mangan 4 han 30 fu too); then the limits,
    mangan to yakuman. The points families: faan from the minimum to the settling table's last
    row where the rules count faan into a table (Hong Kong), and the ``limit`` where there is one;
    other values (points, doubles, tai) are typed. The placeholder is an example of the values the
    rules take (``domain.scoring.units``)."""
    if rules.scoring == "riichi":
        rows = []
        for han in range(1, 14):
            choices = [_pair(han, fu, rules) for fu in FU_COUNTS]
            shown = [c for c in choices if c is not None]
            if shown:
                rows.append({"label": f"{han} han", "choices": shown})
        limits = [{"value": name, "label": name} for name in LIMIT_NAMES]
        return {"family": "riichi", "rows": rows, "limits": limits, "typed": False, "placeholder": value_example(rules)}
    rows = []
    if rules.settling_unit == "faan" and rules.settling_table:
        low = rules.minimum if rules.minimum_unit == "faan" else 0
        top = rules.settling_table[-1][0]
        faan = [
            {"value": f"{n}faan", "label": str(n), "title": f"{n} faan", "ron": True, "tsumo": True}
            for n in range(low, top + 1)
        ]
        rows.append({"label": "faan", "choices": faan})
    limits = [{"value": "limit", "label": "limit"}] if rules.limit else []
    return {"family": "points", "rows": rows, "limits": limits, "typed": not rows, "placeholder": value_example(rules)}


def _pair(han: int, fu: int, rules: Ruleset) -> dict[str, Any] | None:
    value = HandValue(han=han, fu=fu)
    ways = {}
    for way, self_drawn in (("ron", False), ("tsumo", True)):
        try:
            check_hand_value(value, self_drawn=self_drawn)
        except InvalidHandValue:
            ways[way] = False
            continue
        ways[way] = base_points(value, rules).limit is None
    if not any(ways.values()):
        return None
    return {"value": f"{han}/{fu}", "label": str(fu), "title": f"{han} han {fu} fu", **ways}


def value_choice(value: HandValue, rules: Ruleset) -> str | None:
    """The choice of ``value_choices`` that pays what ``value`` pays (what tiles fill in): its
    pair, or the limit it reaches; None where no button says it (a double yakuman, a value of
    the points families)."""
    if rules.scoring != "riichi":
        return None
    if value.limit is not None:
        return value.limit if value.limit != "yakuman" or value.multiple == 1 else None
    if value.han is None:
        return None
    try:
        reached = base_points(value, rules).limit
    except HonbaError:
        return None
    if reached is not None:
        return reached if reached in LIMIT_NAMES else None
    return f"{value.han}/{value.fu}" if value.fu is not None else None


# The page's match.


def table_view(app: HonbaApp, key: str, *, ledger: bool = False) -> dict[str, Any]:
    """What the table page shows of the match ``key``, read once: ``table_data``'s table, and
    ``choices`` (``value_choices``), ``clock`` (``clock_data`` at the server's time; None with no
    time limit), ``entries`` (``ledger_rows``), ``undo`` (``undo_target``), ``result``
    (``match_result_data`` once the match has ended, else None), ``for_hand`` (the hand an entry
    made from what is shown is entered for: ``replay.service.recording.recording.hand_now``), ``version``
    (the match's, an API client's ``If-Match``) and ``receipt`` (whether the page offers the
    match's receipt: once it has ended); ``damaged`` as ``table_data``'s:
    a match whose chain or seal shows a change is shown with that line, never refused. With
    ``ledger`` (the JSON API's match), ``table_data``'s ``ledger`` and ``lines`` besides."""
    shown = app.read(key)
    match = shown.match
    data = shown_table_data(app, key, shown, ledger=ledger)
    data["choices"] = value_choices(match.rules)
    data["nagashi"] = match.rules.nagashi_mangan
    data["clock"] = clock_data(match, server_time()) if match.clock.limit is not None else None
    data["entries"] = ledger_rows(match)
    data["result"] = match_result_data(match) if match.state.finished else None
    # The hand an entry from this page is entered for, and the match's version (the API's ETag).
    data["for_hand"] = hand_now(match.state)
    data["version"] = match.version
    # Each player may take the match's receipt (``replay.service.audit.proofs.match_receipt``) once it has
    # ended: an ended match is what the signed checkpoints are to prove; a damaged one has none.
    data["receipt"] = match.state.finished and shown.damage is None
    # Last: it asks the domain on the match in memory, which it changes (never saved).
    data["undo"] = undo_target(match)
    return data


def ledger_rows(match: Match) -> list[dict[str, Any]]:
    """Every numbered entry of a match in order, as the table page lists them: ``{"entry" (the
    number ``honba log`` shows; None for an end the rules decided), "kind" (``hand``,
    ``penalty``, ``end``, ``voided``, ``correction``), "hand", "result", "lines" (each payment in
    words), "payments" (the same as values, ``payment_data``, for a page to word), "yaku" (the
    yaku and dora kept with each win), "scores_after", "void" (struck
    through: an entry taken back, a correction cancelled), "note" (what corrected it)}``. An
    entry taken back stays in its place, so the numbers run on without a gap."""
    players, scoring = match.players, match.rules.scoring
    steps = match.corrected_steps()
    entries = corrected_ledger(steps)
    numbers = entry_numbers(match)
    marks = correction_marks(match.history, match.corrections, steps)
    rows: list[tuple[int, dict[str, Any]]] = []
    shown = set()
    for e in entries:
        mark = marks.get(e.position) if e.position is not None else None
        note = None
        if mark is not None and mark.kind == "amended":
            note = Said(
                "amended by entry {entry}, was: {was}",
                entry=_number(numbers.number(mark.correction)),
                was=said_fact(mark.original, players),
            )
        shown.add(e.position)
        rows.append(
            (
                e.position if e.position is not None else 0,
                {
                    "entry": numbers.number(e.position),
                    "kind": e.kind,
                    "hand": e.before.hand_label,
                    "result": said_fact(e.fact, players, scoring),
                    "lines": payment_lines(e, players, scoring)[1:] if e.kind != "end" else [],
                    "payments": payment_data(e, players) if e.kind != "end" else [],
                    "yaku": describe_details(e.fact, players),
                    "scores_after": dict(zip(players, e.after.scores, strict=True)),
                    "void": False,
                    "note": note,
                },
            )
        )
    for position, mark in marks.items():
        if mark.kind != "voided" or position in shown:
            continue
        rows.append(
            (
                position,
                {
                    "entry": numbers.number(position),
                    "kind": "voided",
                    "hand": mark.before.hand_label,
                    "result": said_fact(mark.original, players, scoring),
                    "lines": [],
                    "payments": [],
                    "yaku": [],
                    "scores_after": None,
                    "void": True,
                    "note": Said("taken back by entry {entry}", entry=_number(numbers.number(mark.correction))),
                },
            )
        )
    outcomes = correction_outcomes(match.correction_log)
    for position, correction in match.correction_log:
        if position in shown:
            continue  # a penalty added stands in the ledger as a penalty
        target = numbers.number(correction.target)
        what: Said
        if correction.target is None:
            added = said_fact(correction.replacement, players, scoring)  # type: ignore[arg-type]
            what = Said("penalty added: {penalty}", penalty=added)
        elif correction.replacement is None:
            undone = correction.reason == "undo"
            what = Said("entry {entry} taken back" if undone else "entry {entry} voided", entry=_number(target))
        else:
            amended = said_fact(correction.replacement, players, scoring)
            what = Said("entry {entry} amended: {fact}", entry=_number(target), fact=amended)
        rows.append(
            (
                position,
                {
                    "entry": numbers.number(position),
                    "kind": "correction",
                    "hand": None,
                    "result": what,
                    "lines": [],
                    "payments": [],
                    "yaku": [],
                    "scores_after": None,
                    "void": outcomes.get(position) is None,
                    "note": Said("by {by}: {reason}", by=correction.by, reason=_reason(correction.reason)),
                },
            )
        )
    # An end the rules decided has no number: it follows the hand that ended the match.
    return [row for _, row in sorted(rows, key=lambda r: r[0])]


def undo_target(match: Match) -> dict[str, Any] | None:
    """What undo would take back at this table (the domain's ``Match.undo`` decides, asked on the
    match in memory, which it changes: never saved): ``{"entry" (its number), "hand", "what"
    (in words), "text" (one line)}``; None when there is nothing to take back."""
    try:
        return _undo(match)
    except HonbaError:
        return None


def _undo(match: Match) -> dict[str, Any]:
    """Undo on the match in memory, and what it took back; the domain's refusal when nothing can be."""
    numbers = entry_numbers(match)
    players, scoring = match.players, match.rules.scoring
    tables = {e.position: e.before.hand_label for e in corrected_ledger(match.corrected_steps())}
    log = list(match.correction_log)
    corrections = dict(log)
    position = match.undo(by="table", reason="undo")
    number = numbers.number(position)
    correction = corrections.get(position)
    what: Said | Listed
    if correction is not None and correction.target is not None:
        what = Said("the correction of entry {entry}", entry=_number(numbers.number(correction.target)))
        standing = fact_in_force(position, match.history, log)
        if standing is not None:
            what = Said("{what} ({fact})", what=what, fact=said_fact(standing, players, scoring))
        hand = tables.get(correction.target)
    else:
        standing = fact_in_force(position, match.history, log)
        ended = dict(match.history).get(position)
        if isinstance(ended, MatchEnd):
            what = Said("{end}: the match goes on", end=said_fact(ended, players, scoring))
        else:
            what = said_fact(standing, players, scoring) if standing is not None else Said("the entry")
        hand = tables.get(position)
    if hand:
        text = Said("entry {entry} ({hand}): {what}", entry=_number(number), hand=hand, what=what)
    else:
        text = Said("entry {entry}: {what}", entry=_number(number), what=what)
    return {"entry": number, "hand": hand, "what": what, "text": text}


def _number(number: int | None) -> int | str:
    """An entry's number as a sentence says it (``None`` as the English said it before)."""
    return "None" if number is None else number


# The reasons a table's own corrections give, as words; a referee's reason is their text.
_REASONS = {"undo": Said("undo")}


def _reason(reason: str) -> Said | str:
    return _REASONS.get(reason, reason)


# The confirm step and recording.


def entry_preview(
    app: HonbaApp, key: str, entry: Entry, tiles: HandTiles | None = None, expect: ForHand | None = None
) -> dict[str, Any]:
    """The confirm step of an entry at the table: ``{"lines" (what it is and what each player
    pays, in words), "entries" (the same as values for a page to word: each ledger entry added,
    ``{"title" (what it is, in words; None for an end), "payments" (``payment_data``)}``),
    "scores_after", "hand" (the hand it is recorded at), "ends" (why the match
    would end with it, e.g. ``time_up``; None), "ends_in_words" (the same in words, ``time up``:
    the lines do not say the end, the confirm step says it once from this), "tiles" (a win entered
    by its tiles: what they give, ``TileValue.data``, with ``choice``, the value button it pays as), "undo" (for an
    undo: what it takes back, as ``undo_target``)}``. Worked out by the domain on the stored
    match in memory, at the server's time (the clock's rule applies as when recording); a bad
    entry is refused before anything is stored, and so is one entered for a hand another phone has
    recorded since (``expect``: ``replay.service.recording.recording.HandTaken``, before its payments mislead)."""
    match = app.get_match(key)
    check_for_hand(match, expect, None)
    players, scoring = match.players, match.rules.scoring
    hand = match.state.hand_label
    before = len(corrected_ledger(match.corrected_steps()))
    tiles_data = undo = None
    if entry.kind == "undo":
        undo = _undo(match)
        lines: list[Said | str] = [Said("Undo {what}: it stays in the ledger, struck through", what=undo["text"])]
        entries = []
    else:
        if tiles is not None:
            result, valued = _tile_win(match, entry, tiles)
            match.record(result, at=server_time())
            tiles_data = {**valued.data(), "choice": value_choice(valued.from_tiles, match.rules)}
        else:
            apply_to(match, entry, server_time())
        added = corrected_ledger(match.corrected_steps())[before:]
        # An end's first line says the end: said once, by "ends_in_words"; what it pays stays.
        lines = [
            line
            for e in added
            for line in ([] if e.kind == "end" else [entry_title(e, players, scoring)])
            + payment_lines(e, players, scoring)[1:]
        ]
        entries = [
            {
                "title": None if e.kind == "end" else entry_title(e, players, scoring),
                "payments": payment_data(e, players),
            }
            for e in added
        ]
    state = match.state
    return {
        "lines": lines,
        "entries": entries,
        "scores_after": dict(zip(players, state.scores, strict=True)),
        "hand": hand,
        "ends": (state.end_reason or None) if state.finished else None,
        "ends_in_words": end_reason_said(state.end_reason) if state.finished and state.end_reason else None,
        "tiles": tiles_data,
        "undo": undo,
    }


def _tile_win(match: Match, entry: Entry, tiles: HandTiles) -> tuple[WinResult, TileValue]:
    if entry.kind != "win":
        raise FieldError("hand", Said("the hand's tiles give the value of a win"))
    won = fact_at(match, entry)
    assert isinstance(won, WinResult)  # a win's entry is one
    try:
        return tile_result(won, typed_value(entry), tiles, match.state, match.rules)
    except InputError as exc:
        raise tile_error(exc.said) from None


def record_entry(
    app: HonbaApp,
    key: str,
    entry: Entry,
    tiles: HandTiles | None,
    *,
    client_key: str | None,
    by: str,
    expect: ForHand | None = None,
) -> Recorded:
    """Record an entry at the table (``apply_entry``), or a win entered by its tiles
    (``record_tile_win``: its value and yaku the tiles', a value typed as well recorded where it
    pays otherwise); ``expect``, the hand the phone showed, refuses it once that hand is taken."""
    if tiles is None:
        return apply_entry(app, key, entry, client_key=client_key, by=by, expect=expect)
    if entry.kind != "win":
        raise FieldError("hand", Said("the hand's tiles give the value of a win"))
    try:
        return record_tile_win(app, key, entry, tiles, client_key=client_key, expect=expect)[0]
    except InputError as exc:
        if isinstance(exc, FieldError):
            raise
        raise tile_error(exc.said) from None
