"""The JSON API: a match's state and ledger, an entry's preview, recording an entry, an entry as it
stands, a correction's preview and the correction, a tournament's standings.

Writes take the token as ``Authorization: Bearer TOKEN``; errors answer as ``{"error": ...}``, with
the ``field`` it is in where there is one (``replay.web.site.Site.error``). Entries are the text
fields of ``replay.service.recording.entry`` (``docs/web.md``), the same as the forms'.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from domain.bounds import ENTRY
from domain.said import Said
from replay.service.common.access import Grant
from replay.service.common.shapes import state_data
from replay.service.director.stages import event_report, results_data, standings_of_event
from replay.service.recording.changes import change_data
from replay.service.recording.entry import (
    CorrectionRequest,
    Entry,
    FieldError,
    apply_correction,
    apply_entry,
    correction_preview,
    entered,
    entry_data,
    entry_from_fields,
    preview,
    refuse_unread,
)
from replay.service.recording.recording import ForHand, HandTaken, Recorded
from replay.service.tournaments.sign_off import unconfirmed
from replay.service.tournaments.standings import read_view, standings_data
from replay.web.site import Answered, bearer, for_hand, header, json_body, number, site, text_of
from replay.web.standings import after_of
from replay.web.table import table_context


def read_body_entry(body: dict[str, Any]) -> Entry:
    """The entry a JSON body describes; a member the entry does not read is refused by its name (a
    client's typo, ``"nots"``, would otherwise be dropped with nothing said). The forms send every
    kind's fields at once, so only the API holds a body to this. Besides the entry's fields a body
    may hold its ``client_key`` and the hand it was entered for (``hand``, ``after``: ``body_for_hand``)."""
    entry = entry_from_fields(body)
    refuse_unread(body, entry.kind, also=("client_key", "hand", "after"))
    return entry


def body_for_hand(request: Request, body: dict[str, Any]) -> ForHand | None:
    """The hand an entry sent as JSON was entered for: ``"hand"`` (its label, as ``GET
    /api/matches/KEY`` gives it in ``for_hand``), ``"after"`` (the client key of the entry this client sent before
    it), and the ``If-Match`` header (the match's version, that answer's ``ETag``)."""
    return for_hand(text_of(body, "hand"), text_of(body, "after"), header(request, "if-match"))


async def match_json(request: Request) -> Response:
    served = site(request)
    key = request.path_params["key"]

    def data() -> dict[str, Any]:
        context = table_context(served, key, None, ledger=True)
        return {
            "match": key,
            "rules": context["rules"],
            "players": context["players"],
            **context["state"],
            "ledger": context["ledger"],
            "head": context["head"],
            "damaged": context["damaged"],
            "damage": context["damage"],
            "version": context["version"],
            # What an entry sends back as its "hand": the hand's label, "end" once the match has ended.
            "for_hand": context["for_hand"],
        }

    shown = await served.call(data)
    # The version as an ETag: sent back as If-Match with an entry, it refuses the entry (409) once
    # anything was recorded since. What is damaged is said in the request's language.
    return served.json(request, shown, headers={"ETag": f'"{shown["version"]}"'})


async def preview_json(request: Request) -> Response:
    served = site(request)
    key = request.path_params["key"]
    body = await json_body(request)
    await served.call(lambda: served.may_record(key, bearer(request)))
    entry = read_body_entry(body)
    shown = await served.call(lambda: preview(served.app, key, entry))
    data: dict[str, Any] = {"match": key, "lines": list(shown.lines), "scores_after": shown.scores_after}
    if shown.change is not None:
        data["change"] = change_data(shown.change)
    # (its lines and a change's words said in the request's language: English unless it asks for another)
    return served.json(request, data)


async def record_json(request: Request) -> Response:
    served = site(request)
    key = request.path_params["key"]
    body = await json_body(request)
    token = bearer(request)

    # The token's check and the save in one call, not two turns of the thread pool: each turn is two
    # thread wake-ups and a hand-over of the GIL, which on cores other processes keep busy wait for a
    # time slice each (issue 36's paced tables beside CPU-bound neighbours); on SQLite, whose calls
    # take turns anyway, none (``Site.call_here``: on the event loop itself).
    def step() -> Recorded:
        grant = served.may_record(key, token)
        entry = read_body_entry(body)
        client_key = text_of(body, "client_key") or None
        expect = body_for_hand(request, body)
        return apply_entry(served.app, key, entry, client_key=client_key, by=f"table {grant.token_id}", expect=expect)

    def run() -> dict[str, Any]:
        # The token's check and the save in one round trip on PostgreSQL where they can be, else the
        # token's row and the match's tails in one statement (``entered``).
        match = entered(served.app, key, step)
        data = {"match": key, **state_data(match.players, match.state, match.rules), "head": match.head}
        data["version"] = match.version
        if match.change is not None:
            data["change"] = change_data(match.change)
        return data

    try:
        data = await served.call_here(run)
    except HandTaken as exc:
        # Entered for a hand already taken: what was recorded instead, and the hand now.
        body = {"error": exc.said, "field": "hand", "hand": exc.hand, "recorded": list(exc.recorded)}
        return served.json(request, body, 409)
    return served.json(request, data, headers={"ETag": f'"{data["version"]}"'})


async def entry_json(request: Request) -> Response:
    """The entry that stands at an entry number: its text fields (what a correction starts from)
    and its record line."""
    served = site(request)
    key = request.path_params["key"]
    entry_number = number(request.path_params["number"], ENTRY)

    return served.json(request, await served.call(lambda: entry_data(served.app, key, entry_number)))


def correction_request(body: dict[str, Any]) -> CorrectionRequest:
    """A correction sent as JSON: ``action`` (void, amend, penalty, reopen or end), ``target`` (the
    entry's number), ``set`` (amend: the fields to change, the rest kept) or ``replacement`` (amend:
    the whole entry again; penalty: the penalty added), ``by`` and ``reason`` (an end's reason)."""
    action = text_of(body, "action")
    target = body.get("target")
    changes, replacement = body.get("set"), body.get("replacement")
    if changes is not None and not isinstance(changes, dict):
        raise FieldError("set", Said("'set' is an object of the fields to change"))
    if replacement is not None and not isinstance(replacement, dict):
        raise FieldError("replacement", Said("'replacement' is an object of the entry's fields"))
    if changes is not None and replacement is not None:
        raise FieldError("set", Said("give the fields to change ('set') or the whole replacement, not both"))
    entry = None
    if replacement is not None:
        fields = {**replacement, "kind": "penalty"} if action == "penalty" else replacement
        entry = entry_from_fields(fields)
    return CorrectionRequest(
        action,
        None if target is None or target == "" else number(target, ENTRY, "target"),
        entry=entry,
        changes=changes,
        by=text_of(body, "by"),
        reason=text_of(body, "reason"),
    )


async def correction_preview_json(request: Request) -> Response:
    served = site(request)
    key = request.path_params["key"]
    body = await json_body(request)
    await served.call(lambda: served.need(bearer(request), Grant.may_correct, "correct matches"))
    shown = await served.call(lambda: correction_preview(served.app, key, correction_request(body)))
    return served.json(request, {"match": key, "correction": change_data(shown)})


async def correct_json(request: Request) -> Response:
    served = site(request)
    key = request.path_params["key"]
    body = await json_body(request)
    await served.call(lambda: served.need(bearer(request), Grant.may_correct, "correct matches"))
    client_key = text_of(body, "client_key") or None

    def run() -> dict[str, Any]:
        match = apply_correction(served.app, key, correction_request(body), client_key=client_key)
        assert match.change is not None  # a correction says what it did
        state = state_data(match.players, match.state, match.rules)
        return {"match": key, "correction": change_data(match.change), **state, "head": match.head}

    return served.json(request, await served.call(run))


async def standings_json(request: Request) -> Response:
    served = site(request)
    name = request.path_params["name"]
    after = after_of(request)
    await served.refreshed()
    data = await served.call(
        lambda: read_view(
            served.app,
            lambda view: standings_data(
                event_report(served.app, view, name, after_session=after), unconfirmed(served.app, view, name)
            ),
            view=served.view,
        )
    )
    # Why a match is damaged, said in the request's language.
    return served.json(request, data)


async def results_json(request: Request) -> Response:
    """Each stage's standings (who advanced, who was cut, points carried), the whole event's and the
    teams': ``honba tournament results --format json``, by the same use case."""
    served = site(request)
    name = request.path_params["name"]
    await served.refreshed()
    return served.json(
        request,
        await served.call(
            lambda: read_view(
                served.app, lambda view: results_data(standings_of_event(served.app, view, name)), view=served.view
            )
        ),
    )


# A table's recorded hand first: the routes are tried in order, a regular expression each (issue 36,
# nineteenth round: 8,000 instructions of each hand for the one before it); no two of them take the same address.
ROUTES = [
    Route("/api/matches/{key}/entries", Answered(record_json), methods=["POST"], name="record_json"),
    Route("/api/matches/{key}/preview", preview_json, methods=["POST"]),
    Route("/api/matches/{key}/entries/{number}", entry_json),
    Route("/api/matches/{key}/corrections/preview", correction_preview_json, methods=["POST"]),
    Route("/api/matches/{key}/corrections", correct_json, methods=["POST"]),
    Route("/api/matches/{key}", match_json),
    Route("/api/tournaments/{name}/standings", standings_json),
    Route("/api/tournaments/{name}/results", results_json),
]
