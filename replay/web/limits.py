"""What a request to ``honba serve`` may be: how large its body, how many fields its form, how deep its JSON.

Every limit is checked before the request is read whole, so that no client can make the server hold
more than this in memory or parse it (``docs/web.md``, "Limits"); what is inside (a note's length, a
number's range) the domain's bounds say (``domain.bounds``). ``body_limited`` caps every body
(in the application's middleware); ``replay.web.app`` answers its ``TooLarge`` with a 413 in one plain sentence.
"""

from __future__ import annotations

from typing import Any

# The largest request body honba reads. A form or an entry is a few kilobytes; the largest the
# pages send is a director's list of players (a thousand tables: 4,000 names of at most 64
# characters, about 260 KB).
MOST_BODY = 1024 * 1024
# The most fields a form may have (starlette's own default): an entry's form has about a hundred.
MOST_FIELDS = 1000
# How deep a JSON body may nest, checked before it is parsed: a correction nests three deep (its
# ``replacement`` holds lists); Python's parser would recurse once a level, up to a RecursionError.
DEEPEST_JSON = 16


class TooLarge(Exception):
    """A request body larger than ``MOST_BODY`` (413); nothing of it was used."""

    def __init__(self) -> None:
        most = f"{MOST_BODY // 1024:,} KiB"
        super().__init__(f"the request is larger than honba reads (at most {most}): nothing was recorded")


def body_limited(scope: Any, receive: Any, most: int = MOST_BODY) -> Any:
    """The ``receive`` of an ASGI request whose body is refused once larger than ``most`` bytes,
    before it is read whole (the application's one middleware gives it to every route: ``replay.web.app``).

    A ``Content-Length`` above the limit is refused at the first read (of a POST: no route reads a
    GET's body); a body sent in chunks is counted as it comes and refused as soon as it passes the
    limit. The refusal is ``TooLarge``, raised where the route reads its body (its form, its JSON),
    so that the application's handlers answer it as a page or as JSON like any other error.
    """
    # No route reads the body of a GET (the live stream only listens for the client going away).
    if scope["type"] != "http" or scope["method"] in ("GET", "HEAD"):
        return receive
    headers = scope.get("headers") or []
    if headers.__class__ is not list:
        # ASGI allows any iterable of pairs, even one read once (uvicorn gives a list): made a list
        # once, as Starlette's ``Headers`` makes it, for the routes' reads after this one
        # (``replay.web.site.header``: POST routes only; ``.__class__``, not ``type()``: a call less).
        headers = scope["headers"] = list(headers)
    declared = dict(headers).get(b"content-length", b"")
    too_large = bool(declared) and (not declared.isdigit() or len(declared) > 18 or int(declared) > most)
    received = 0

    async def receiving() -> Any:
        nonlocal received
        if too_large:
            raise TooLarge()
        message = await receive()
        if message["type"] == "http.request":
            received += len(message.get("body", b""))
            if received > most:
                raise TooLarge()
        return message

    return receiving
