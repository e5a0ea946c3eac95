"""A table's recorded hand through the JSON API, answered by the shorter path the nineteenth round of
issue 36 gave it, exactly as by the general one.

The route is an ASGI application of its own (``site.Answered``: no second request and exception
handling inside Starlette's), its body read from the request's messages (``site.body_of``) and
parsed from its bytes (``load_json_bytes``), its headers read from the scope (``site.header``), and
the body limit and the security headers one middleware. For the same requests (a good entry, a
retry, a bad field, a bad or missing token, a stale or malformed If-Match, a hand already taken, a
body too large declared or in chunks, JSON that is not, text that is not UTF-8, the wrong content
type, a GET, a refusal in Japanese) the answers' statuses, headers and bodies are those of the same
application with the route as a plain Starlette function route over ``Request.body()``,
``load_json`` and ``request.headers`` (the match's head aside: a digest over each store's own
clock). Every answer carries the security headers once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.testclient import TestClient
from web_support import prepare

from replay.input.json_text import load_json
from replay.web import api, site
from replay.web.app import SECURITY_HEADERS, create_app
from replay.web.limits import MOST_BODY

KEY = "t1"
ENTRIES = f"/api/matches/{KEY}/entries"


def general(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hand's helpers as they were: Starlette's headers and body, the standard JSON reading."""
    monkeypatch.setattr(site, "header", lambda request, name: request.headers.get(name))
    monkeypatch.setattr(api, "header", lambda request, name: request.headers.get(name))
    monkeypatch.setattr(site, "body_of", lambda request: request.body())
    monkeypatch.setattr(site, "load_json_bytes", lambda data, deepest: load_json(data.decode("utf-8"), deepest=deepest))


def chunked(size: int) -> Iterator[bytes]:
    """A body in chunks, without a Content-Length: counted as it comes."""
    yield b'{"kind": "undo", "note": "'
    for _ in range(size // 65536 + 1):
        yield b"x" * 65536
    yield b'"}'


def requests(token: str) -> list[tuple[str, dict[str, Any]]]:
    """The same requests for either application (its own table token)."""
    bearer = {"Authorization": f"Bearer {token}"}
    sent_as = {**bearer, "content-type": "application/json"}
    japanese = {**bearer, "Accept-Language": "ja"}
    good = {"kind": "abort", "abort": "four_winds", "client_key": "k1"}
    win = {"kind": "win", "winner": "Ben", "discarder": "Ann", "han": 2, "fu": "30", "riichi": ["Ann"]}
    return [
        ("good entry", {"json": good, "headers": {**bearer, "If-Match": '"1"'}}),
        ("the same again", {"json": good, "headers": bearer}),
        ("a win with a list", {"json": {**win, "client_key": "k2"}, "headers": bearer}),
        ("a bad field", {"json": {"kind": "abort", "abort": "no_such"}, "headers": bearer}),
        ("a member no entry reads", {"json": {**good, "client_key": "k3", "nots": "x"}, "headers": bearer}),
        ("in Japanese", {"json": {"kind": "abort", "abort": "no_such"}, "headers": japanese}),
        ("a bad token", {"json": good, "headers": {"Authorization": "Bearer nope"}}),
        ("no token", {"json": good, "headers": {}}),
        ("a stale If-Match", {"json": {**good, "client_key": "k4"}, "headers": {**bearer, "If-Match": '"1"'}}),
        ("a malformed If-Match", {"json": {**good, "client_key": "k5"}, "headers": {**bearer, "If-Match": "v2"}}),
        ("a hand taken", {"json": {**good, "client_key": "k6", "hand": "E1-0"}, "headers": bearer}),
        ("a hand too long", {"json": {**good, "client_key": "k7", "hand": "x" * 40}, "headers": bearer}),
        ("a number too long", {"json": {**win, "han": 10**30}, "headers": bearer}),
        ("a float", {"json": {**win, "han": 2.0}, "headers": bearer}),
        ("too large", {"json": {"kind": "penalty", "note": "x" * (MOST_BODY + 1)}, "headers": bearer}),
        ("too large in chunks", {"content": chunked(MOST_BODY), "headers": sent_as}),
        ("not JSON", {"content": b'{"kind": "abort",}', "headers": sent_as}),
        ("not UTF-8", {"content": b'{"kind": "\xff"}', "headers": sent_as}),
        ("a lone surrogate", {"content": b'{"kind": "\\ud800"}', "headers": sent_as}),
        ("too deep", {"content": b'{"a": %s}' % (b"[" * 20 + b"]" * 20), "headers": sent_as}),
        ("an array", {"content": b"[1]", "headers": {**bearer, "content-type": "application/json; charset=utf-8"}}),
        ("the wrong type", {"content": b'{"kind": "abort"}', "headers": {**bearer, "content-type": "text/plain"}}),
        ("no type", {"content": b'{"kind": "abort"}', "headers": bearer}),
        ("a GET", {"method": "GET", "headers": bearer}),
    ]  # fmt: skip


def headers_once(app: Any) -> Any:
    """``app`` given each request's headers as an iterable that can be read once: ASGI's scope allows
    any iterable of pairs (uvicorn gives a list)."""

    async def asgi(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            scope = {**scope, "headers": (pair for pair in scope["headers"])}
        await app(scope, receive, send)

    return asgi


def answers(
    db: str, token: str, plain_route: bool, monkeypatch: pytest.MonkeyPatch, *, read_once: bool = False
) -> list[tuple[Any, ...]]:
    web: Any = create_app(db)
    if plain_route:
        routes = web.router.routes
        at = [getattr(route, "path", "") for route in routes].index("/api/matches/{key}/entries")
        routes[at] = Route("/api/matches/{key}/entries", api.record_json, methods=["POST"])
    found = []
    with monkeypatch.context() as patch:
        if plain_route:
            general(patch)
        with TestClient(headers_once(web) if read_once else web) as client:
            for name, sent in requests(token):
                answer = client.request(sent.pop("method", "POST"), ENTRIES, **sent)
                body: Any = answer.content
                if answer.headers.get("content-type") == "application/json":
                    body = answer.json()
                    if isinstance(body, dict) and "head" in body:
                        body["head"] = "(each store's own)"
                found.append((name, answer.status_code, sorted(answer.headers.multi_items()), body))
    return found


def test_the_hand_s_route_answers_every_request_as_the_general_route_did(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    roles = [("table", KEY)]
    (mine,) = prepare(str(tmp_path / "short.sqlite"), {KEY: ("Ann", "Ben", "Cho", "Dai")}, roles)
    (theirs,) = prepare(str(tmp_path / "general.sqlite"), {KEY: ("Ann", "Ben", "Cho", "Dai")}, roles)
    short = answers(str(tmp_path / "short.sqlite"), mine, False, monkeypatch)
    plain = answers(str(tmp_path / "general.sqlite"), theirs, True, monkeypatch)
    assert [answer[:2] for answer in short] == [answer[:2] for answer in plain]
    for one, other in zip(short, plain, strict=True):
        assert one == other
    statuses = {name: status for name, status, _headers, _body in short}
    # The requests are what they say: each answered as the API answers it.
    assert statuses["good entry"] == statuses["the same again"] == statuses["a win with a list"] == 200
    assert statuses["a stale If-Match"] == statuses["a hand taken"] == 409
    assert statuses["too large"] == statuses["too large in chunks"] == 413
    assert statuses["a bad token"] == statuses["no token"] == 403
    assert statuses["a GET"] == 405
    assert {statuses[name] for name in ("a bad field", "not JSON", "not UTF-8", "too deep", "no type")} == {400}
    for _name, _status, headers, _body in short:
        for header, value in SECURITY_HEADERS.items():
            assert [v for k, v in headers if k == header.lower()] == [value]


def test_headers_that_can_be_read_once_are_read_as_a_list_of_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    roles = [("table", KEY)]
    (listed,) = prepare(str(tmp_path / "listed.sqlite"), {KEY: ("Ann", "Ben", "Cho", "Dai")}, roles)
    (once,) = prepare(str(tmp_path / "once.sqlite"), {KEY: ("Ann", "Ben", "Cho", "Dai")}, roles)
    as_listed = answers(str(tmp_path / "listed.sqlite"), listed, False, monkeypatch)
    as_once = answers(str(tmp_path / "once.sqlite"), once, False, monkeypatch, read_once=True)
    assert as_once == as_listed
    assert dict((name, status) for name, status, _headers, _body in as_once)["good entry"] == 200


def test_a_page_and_a_missing_one_carry_the_security_headers_once(tmp_path: Path) -> None:
    db = str(tmp_path / "store.sqlite")
    prepare(db, {KEY: ("Ann", "Ben", "Cho", "Dai")})
    with TestClient(create_app(db)) as client:
        for path in ("/", "/no/such/page", f"/api/matches/{KEY}", "/api/matches/none"):
            answer = client.get(path)
            for header, value in SECURITY_HEADERS.items():
                assert answer.headers.get_list(header) == [value], (path, header)


def test_the_hand_s_route_is_the_first_tried(tmp_path: Path) -> None:
    db = str(tmp_path / "store.sqlite")
    prepare(db, {KEY: ("Ann", "Ben", "Cho", "Dai")})
    first = create_app(db).router.routes[0]
    assert getattr(first, "path", None) == "/api/matches/{key}/entries"
    assert getattr(first, "methods", None) == {"POST"}


def body_read(messages: list[dict[str, Any]], read: Any) -> tuple[str, Any]:
    """What a reading of the body gives for these messages (twice: the second from what was kept)."""
    left = list(messages)

    async def receive() -> dict[str, Any]:
        return left.pop(0)

    async def reading() -> tuple[str, Any]:
        request = Request({"type": "http", "method": "POST", "headers": []}, receive)
        try:
            first = await read(request)
        except ClientDisconnect:
            return ("disconnected", None)
        return ("read", (first, await read(request), await request.body(), len(left)))

    return asyncio.run(reading())


@pytest.mark.parametrize(
    "messages",
    [
        [{"type": "http.request", "body": b'{"a": 1}', "more_body": False}],
        [{"type": "http.request", "body": b"", "more_body": False}],
        [{"type": "http.request"}],
        [{"type": "http.request", "body": b'{"a"', "more_body": True}, {"type": "http.request", "body": b": 1}"}],
        [{"type": "http.request", "body": b"", "more_body": True}, {"type": "http.request", "body": b"x"}],
        [{"type": "http.request", "body": b"{", "more_body": True}, {"type": "http.disconnect"}],
        [{"type": "http.disconnect"}],
    ],
)  # fmt: skip
def test_a_body_is_read_as_starlette_reads_it(messages: list[dict[str, Any]]) -> None:
    assert body_read(messages, site.body_of) == body_read(messages, Request.body)


names = st.sampled_from([b"authorization", b"content-type", b"if-match", b"host", b"x-if-match", b"Authorization"])
values = st.binary(max_size=12).map(lambda raw: bytes(b % 128 or 32 for b in raw)) | st.sampled_from([b"\xe9t\xe9"])


@given(st.lists(st.tuples(names, values), max_size=6))
def test_a_header_is_read_as_starlette_reads_it(sent: list[tuple[bytes, bytes]]) -> None:
    request = Request({"type": "http", "method": "POST", "headers": sent})
    for name in ("authorization", "content-type", "if-match"):
        assert site.header(request, name) == request.headers.get(name)
    assert site.bearer(request) == (
        request.headers.get("authorization", "")[7:].strip()
        if request.headers.get("authorization", "").lower().startswith("bearer ")
        else None
    )


header_names = st.sampled_from(["ETag", "etag", "Retry-After", "Content-Type", "content-length", "X-Other", "Allow"])
header_values = st.text(alphabet="abc\"'0123456789 ;=/-é", max_size=12)


@given(
    st.binary(max_size=40),
    st.sampled_from([100, 200, 204, 304, 400, 403, 404, 409, 413, 500, 503]),
    st.none() | st.dictionaries(header_names, header_values, max_size=3),
)
def test_a_json_answer_is_starlette_s_response_of_its_bytes(
    body: bytes, status: int, headers: dict[str, str] | None
) -> None:
    made = site.JSONAnswer(body, status, headers)
    starlette = Response(body, status_code=status, headers=headers, media_type="application/json")
    assert (made.status_code, made.body, made.raw_headers, made.background) == (
        starlette.status_code,
        starlette.body,
        starlette.raw_headers,
        starlette.background,
    )
