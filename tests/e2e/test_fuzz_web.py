"""Fuzzing the web front end: what a careless user or a hostile client may send (issue 24).

Every form of the pages (the table's entry and its confirm step, the referee's corrections; the
director's tournament, players, seating, draw, format, withdrawals, substitutes, teams, each
session's clock, a table's time and its link, the signed result; a certificate sent to be
checked, with files of any bytes), every body of the JSON API (entries and corrections, as
objects of any shape or as raw bytes) and every query string and path (``?after=``,
``?amend=``, ``?name=``, ``?token=``, ``?system=``, the what-if's rules, entry, session and
table numbers, keys, names and players) gets values
drawn by hypothesis: hostile Unicode (controls, NUL, separators, bidirectional controls, lone
surrogates where JSON can carry them, markup), numbers nobody means (5000 digits, 10^23, ``²``,
``٣``, signs, floats, NaN), JSON nested far too deep, text far too long, bodies over the limit.
Whatever comes in, through starlette's test client in process:

- never a 5xx, never a traceback in the body;
- a refusal (4xx) is one plain sentence (the JSON API's ``error``, an error page's message, or
  the error next to a form's field), one line;
- a refusal stores nothing: every row of the store (its events and its tokens) is the same
  before and after (the standings view is a cache of the events, kept apart);
- a redirect names no host.

One store for each test (a match with a hand recorded, a tournament with it, a token of each
role), one application over it; what a drawn request records stays for the next (a match may
end, a session be seated), as on a server. The budget is fixed (``derandomize``: the same
examples on every run): ``EXAMPLES`` per test, pages and API each more than 200, well under two
minutes on one core; ``HONBA_FUZZ_EXAMPLES=2000 HONBA_FUZZ_RANDOM=1`` searches further.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode
from uuid import UUID

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from honba_cli import store_rows
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pg_server import PostgresServer
from starlette.testclient import TestClient
from web_support import PLAYERS, prepare, refusal

from domain.bounds import LONGEST_LINE
from domain.values import ExhaustiveDraw
from replay.input.fields import MAX_WINNERS, WINNER_FIELDS, slot
from replay.service.common.access import TokenStore
from replay.service.director.certificates import certify_tournament
from replay.service.director.director import seat_next
from replay.service.recording.recording import end, record
from replay.service.tournaments.tournaments import change_tournament, create_tournament
from replay.store.application import HonbaApp
from replay.store.checkpoint import CHECKPOINTS_ID
from replay.store.standings_view import catch_up, open_view
from replay.web.app import create_app
from replay.web.limits import DEEPEST_JSON, MOST_BODY

EXAMPLES = int(os.environ.get("HONBA_FUZZ_EXAMPLES", "250"))
# PostgreSQL gets a fifth of them: what differs there is what its text and queries refuse.
POSTGRESQL_SHARE = 0.2


def mostly(usual: st.SearchStrategy[Any], other: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """``usual`` five times in six, else ``other``: most requests reach what lies behind the checks."""
    return st.integers(min_value=0, max_value=5).flatmap(lambda n: other if n == 0 else usual)


def fuzz(share: float = 1.0) -> settings:
    return settings(
        max_examples=max(1, int(EXAMPLES * share)),
        derandomize=not os.environ.get("HONBA_FUZZ_RANDOM"),
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
    )


KEY = "t1"
TOURNAMENT = "Open"
FINISHED = "Done"

# Text a form or a query string can carry: any character but the lone surrogates (no UTF-8 holds
# them; a JSON body carries them as escapes, below), NUL and the C0 and C1 controls included.
HOSTILE = "\x00\n\r\t\x1b\x7f\x85\x9b\u2028\u2029\u202e\u2066\u200f\ufeff\u200d[/b]<script>'\"&,:=%?#/.."
character = st.one_of(st.characters(codec="utf-8"), st.sampled_from(HOSTILE))
words = st.one_of(
    st.text(character, max_size=12),
    st.text(character, min_size=60, max_size=300),
    st.just("x" * 20_000),
    st.sampled_from(
        [*PLAYERS, "ann", "1", "4", KEY, TOURNAMENT, "", "   ", "Ben\n", "<i>t</i>", "a/b", "..", "O\x00pen"]
    ),
)
numbers = st.one_of(
    st.sampled_from(["9" * 5000, str(10**23), "²", "³", "٣", "\uff11", "-1", "+1", "0", "1e3", "1.5", "0x10"]),
    st.sampled_from(["1_000", "", " 7 ", "-0", "2", "3", "30", "1001", "65536", "NaN", "inf", "0" * 20 + "1"]),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    words,
)
values = st.one_of(
    st.sampled_from(["3/30", "mangan", "2xyakuman", "1000xyakuman", "4faan", "120points", "40pts x 3dbl", "99han"]),
    numbers.map(lambda n: f"{n}/30"),
    numbers.map(lambda n: f"3/{n}"),
    numbers.map(lambda n: f"{n}xyakuman"),
    words,
)
players = st.one_of(st.sampled_from([*PLAYERS, "1", "2"]), words)
# Tokens nobody was given: an id and a secret of any text (a NUL in the id included), or none at all.
forged = st.one_of(st.builds("{}.{}".format, words, words), st.sampled_from(["ab\x00c.secret", "x.y", "."]), words)
text = st.one_of(words, numbers, values)

# The entry's fields (docs/web.md, "The entry fields"), each winner's with its suffix.
ENTRY_FIELDS = [f"{name}{slot(i)}" for i in range(MAX_WINNERS) for name in WINNER_FIELDS] + [
    "kind",
    "riichi",
    "ready",
    "nagashi",
    "abort",
    "kongs",
    "player",
    "amount",
    "share",
    "note",
    "penalty_kind",
    "client_key",
]
kinds = st.one_of(st.sampled_from(["win", "draw", "abort", "penalty", "undo"]), words)


# The strategies a draw asks for are built once (``cache``), not again at each example: a strategy
# new to hypothesis is validated and its properties worked out before its first draw, which was a
# third of the fuzzers' CPU. The same strategies draw the same examples.
@cache
def field_value(name: str) -> st.SearchStrategy[Any]:
    """A drawn form value for a field: its own kind of text mostly, anything at times; a list where
    the field takes several items."""
    base = name.rstrip("23")
    own: st.SearchStrategy[str]
    if base in ("winner", "discarder", "pao", "player"):
        own = players
    elif base == "value":
        own = values
    elif base in ("han", "fu", "dora", "multiple", "faan", "doubles", "points", "melded", "jokers", "amount"):
        own = numbers
    elif base == "kind":
        own = kinds
    else:
        own = text
    one = st.one_of(own, own, text)
    if base in ("riichi", "ready", "nagashi", "kongs", "penalties", "facts", "special", "discards", "loser_scores"):
        return st.one_of(one, st.lists(one, max_size=4), st.lists(st.just("Ann"), min_size=65, max_size=70))
    return one


# Entries a table would send (so that requests reach the rules, the confirm step and the store), then
# the same with some fields given hostile values, or fields of no entry at all.
good_value = st.sampled_from(["3/30", "mangan", "1/30", "2/40", "yakuman", "4/25", "haneman", "2/30"])
two_players = st.lists(st.sampled_from(PLAYERS), min_size=0, max_size=3, unique=True)
plausible = st.one_of(
    st.builds(
        lambda who, discarder, value, riichi: (
            {"kind": "win", "winner": who, "discarder": discarder, "value": value}
            | ({"riichi": riichi} if riichi else {})
        ),
        st.sampled_from(PLAYERS),
        st.sampled_from([*PLAYERS, ""]),
        good_value,
        two_players,
    ),
    st.builds(lambda ready, riichi: {"kind": "draw", "ready": ready, "riichi": riichi}, two_players, two_players),
    st.builds(
        lambda kind: {"kind": "abort", "abort": kind}, st.sampled_from(["four_winds", "nine_terminals", "four_riichi"])
    ),
    st.builds(
        lambda who, amount, note: {"kind": "penalty", "player": who, "amount": amount, "note": note},
        st.sampled_from(PLAYERS),
        st.sampled_from(["", "1000", "8000", "12000"]),
        st.sampled_from(["", "slow play"]),
    ),
    st.just({"kind": "undo"}),
)


@cache
def entry_form() -> st.SearchStrategy[dict[str, Any]]:
    """An entry's form: a plausible entry with some fields given hostile values (or none), now and
    then a field of no entry."""
    chosen = st.lists(st.sampled_from(ENTRY_FIELDS), min_size=1, max_size=4, unique=True)
    return st.builds(
        lambda entry, fields, extra: {**entry, **fields, **extra},
        plausible,
        st.one_of(st.just({}), chosen.flatmap(lambda ns: st.fixed_dictionaries({n: field_value(n) for n in ns}))),
        st.one_of(st.just({}), st.dictionaries(words, text, min_size=1, max_size=1)),
    )


# JSON: any value, nested (within the depth honba reads, and far beyond it), of every type.
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**40), max_value=10**40),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(st.characters(), max_size=12),  # lone surrogates too: sent as escapes
    text,
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(words, inner, max_size=4)),
    max_leaves=12,
)


@cache
def json_entry() -> st.SearchStrategy[dict[str, Any]]:
    """An entry as JSON: a plausible one, some of its fields given values of the field's kind or of
    any JSON type, now and then a field of no entry."""
    names = st.lists(st.sampled_from(ENTRY_FIELDS), min_size=1, max_size=4, unique=True)
    fields = names.flatmap(lambda ns: st.fixed_dictionaries({n: st.one_of(field_value(n), json_values) for n in ns}))
    return st.builds(
        lambda entry, changed, extra: {**entry, **changed, **extra},
        plausible,
        st.one_of(st.just({}), fields),
        st.one_of(st.just({}), st.dictionaries(words, json_values, min_size=1, max_size=1)),
    )


@cache
def json_correction() -> st.SearchStrategy[dict[str, Any]]:
    """A correction as JSON: a plausible one (an action, a target, the fields to set or a replacement,
    who and why) with some of its fields given values of any kind."""
    plausible_correction = st.builds(
        lambda action, target, change, who: {"action": action, "target": target, **change, "by": who, "reason": "why"},
        st.sampled_from(["void", "amend", "penalty"]),
        st.sampled_from([2, 3, "2", 1]),
        st.one_of(
            st.just({}),
            plausible.map(lambda entry: {"replacement": entry}),
            st.sampled_from([{"value": "3/30"}, {"ready": ["Ann", "Ben"]}, {"winner2": ""}]).map(lambda c: {"set": c}),
        ),
        st.sampled_from(["Eve", "Ref"]),
    )
    hostile = st.fixed_dictionaries(
        {},
        optional={
            "action": st.one_of(st.sampled_from(["void", "amend", "penalty"]), json_values),
            "target": st.one_of(st.integers(min_value=-(10**30), max_value=10**30), numbers, json_values),
            "set": st.one_of(json_entry(), json_values),
            "replacement": st.one_of(json_entry(), json_values),
            "by": st.one_of(players, json_values),
            "reason": st.one_of(words, json_values),
            "client_key": st.one_of(words, json_values),
        },
    )
    return st.builds(lambda good, bad: {**good, **bad}, plausible_correction, hostile)


def raw_json(payload: Any) -> bytes:
    """A JSON document as bytes, lone surrogates as escapes (``ensure_ascii``), NaN as Python writes it."""
    return json.dumps(payload, ensure_ascii=True).encode("ascii")


raw_bodies = st.one_of(
    st.sampled_from(
        [
            b"[" * 100_000 + b"]" * 100_000,
            b'{"kind": ' * 40_000,
            ("[" * (DEEPEST_JSON + 1) + "]" * (DEEPEST_JSON + 1)).encode(),
            b'{"kind": "penalty", "player": "Ann", "amount": 1' + b"0" * 5000 + b"}",
            b'{"kind": "penalty", "player": "Ann", "note": "' + b"n" * (MOST_BODY + 1) + b'"}',
            b"\xff\xfe\x00{",
            b"",
            b"null",
            b'"text"',
            b'{"kind": "win", "winner": "\\ud800"}',
            b'{"kind": "undo"}',
        ]
    ),
    st.binary(max_size=64),
)


# The store and the application: one each for a test.


class Site:
    """The application in process over a store (``db``: a SQLite file or a PostgreSQL URL) with a
    match, a tournament and a token of each role."""

    def __init__(self, db: str):
        self.db = db
        self.table, self.director, self.referee = prepare(
            self.db, {KEY: PLAYERS}, [("table", KEY), ("director", None), ("referee", None)]
        )
        # The organiser's key pair: the director's signed result takes the private one, a check the public one.
        key = Ed25519PrivateKey.generate()
        self.private_pem = key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        self.public_pem = key.public_key().public_bytes(
            serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
        )
        app = HonbaApp.open(self.db)
        try:
            record(app, KEY, ExhaustiveDraw(ready=(0,)))  # entry 2: something to correct
            create_tournament(app, TOURNAMENT, list(PLAYERS))
            change_tournament(app, TOURNAMENT, lambda t: t.attach(KEY, PLAYERS, 1, 1))
            # A session seated by the director's use case while t1 plays (its page: the clock, a
            # table's time and link); a second tournament seated, ended and its result signed (a
            # certificate to check, and to sign again).
            view, tokens = open_view(app), TokenStore(app)
            create_tournament(app, FINISHED, list(PLAYERS))
            for name in (TOURNAMENT, FINISHED):
                catch_up(app, view)
                seat_next(app, view, tokens, name, self.director, method="random", seed=1, while_playing=True)
            end(app, f"{FINISHED}-s1-t1", "agreed")
            catch_up(app, view)
            self.certificate = raw_json(certify_tournament(app, view, FINISHED, self.private_pem))
        finally:
            app.close()
        self.client = TestClient(create_app(self.db), raise_server_exceptions=False, follow_redirects=False)
        self._reader: Any = None

    def csrf(self) -> str:
        return str(self.client.cookies.get("honba_csrf"))

    def reader(self) -> Any:
        """One PostgreSQL connection for every look at the rows, each statement its own transaction
        (autocommit: it sees what the server committed last). A connection a look (two an example)
        was a third of the test's own CPU on PostgreSQL."""
        if self._reader is None:
            import psycopg

            self._reader = psycopg.connect(self.db, autocommit=True)
        return self._reader

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()

    def rows(self) -> list[tuple[str, list[tuple[Any, ...]]]]:
        """Every row of the store's tables (its events, its tokens), the standings view's left out:
        a cache of the events, which a page that reads the standings brings up to date; and the
        checkpoints, which the server takes every few seconds of what was saved before (issue 26),
        whatever request is being answered."""
        if not self.db.startswith("postgresql://"):
            found = store_rows(Path(self.db))
        else:
            sql = self.reader()
            tables = [
                row[0]
                for row in sql.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
                    "AND tablename NOT LIKE 'honba_view%' ORDER BY tablename"
                )
            ]
            found = [(t, sorted(sql.execute(f'SELECT * FROM "{t}"').fetchall(), key=repr)) for t in tables]
        checkpoint = {CHECKPOINTS_ID, CHECKPOINTS_ID.hex, str(CHECKPOINTS_ID)}
        return [
            (t, [r for r in held if not checkpoint & {c for c in r if isinstance(c, str | UUID)}]) for t, held in found
        ]


def serving(db: str) -> Iterator[Site]:
    served = Site(db)
    try:
        with served.client:
            served.client.get("/")  # the CSRF cookie
            yield served
    finally:
        served.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    yield from serving(str(tmp_path_factory.mktemp("fuzz-web") / "store.sqlite"))


@pytest.fixture(scope="module")
def pg_site(postgres_server: PostgresServer) -> Iterator[Site]:
    """The same on PostgreSQL, whose text holds no NUL (a query with one is refused by the server)."""
    yield from serving(postgres_server.new_database())


TRACEBACK = re.compile(r"Traceback \(most recent call last\)|File \"[^\"]+\", line \d+")


def answered(served: Site, response: Any, before: list[Any], what: str) -> None:
    """The rules every answer keeps (the module's docstring)."""
    assert response.status_code < 500, (what, response.status_code, response.text[:300])
    assert not TRACEBACK.search(response.text), (what, response.text[:2000])
    if 300 <= response.status_code < 400:
        location = response.headers["location"]
        assert location.startswith("/") and not location.startswith("//"), (what, location)
    if response.status_code >= 400:
        said = refusal(response)
        assert said.strip() and "\n" not in said and len(said) <= LONGEST_LINE, (what, said)
        assert served.rows() == before, (what, "a refusal stored something", said)


def quoted(part: str) -> str:
    """A part of a path, percent-encoded whole."""
    return quote(part, safe="")


# The pages' forms.


def in_a_path(part: str) -> bool:
    """Text a path can carry as one part (a client's library would make ``..`` or ``/`` another address)."""
    return bool(part.strip()) and "/" not in part and part not in (".", "..")


keys = mostly(st.just(KEY), words.filter(in_a_path))
names = mostly(st.sampled_from([TOURNAMENT, TOURNAMENT, FINISHED]), words.filter(in_a_path))


@st.composite
def page_forms(draw: st.DrawFn, served: Site) -> tuple[str, dict[str, Any]]:
    """A form of a page, filled: (the address it is posted to, its fields)."""
    form = draw(
        st.sampled_from(["preview", "record", "create", "players", "seat", "correct-preview", "correct", "any"])
    )
    if form in ("preview", "record"):
        token, address = served.table, f"/matches/{quoted(draw(keys))}/{form}"
        fields = draw(entry_form())
    elif form in ("correct-preview", "correct"):
        token, address = served.referee, f"/referee/m/{quoted(draw(keys))}/{form.replace('-', '/')}"
        desk = {
            "action": draw(st.one_of(st.sampled_from(["void", "amend", "penalty"]), words)),
            "target": draw(st.one_of(st.sampled_from(["2", "1", "3"]), numbers)),
            "by": draw(players),
            "reason": draw(words),
        }
        fields = {**draw(entry_form()), **desk}
    elif form == "create":
        token, address = served.director, "/director/tournaments"
        fields = {"name": draw(words), "players": "\n".join(draw(st.lists(players, max_size=6)))}
    elif form == "players":
        token, address = served.director, f"/director/t/{quoted(draw(names))}/players"
        fields = {"players": "\n".join(draw(st.lists(players, max_size=6)))}
    elif form == "seat":
        token, address = served.director, f"/director/t/{quoted(draw(names))}/sessions"
        fields = {
            "session": draw(numbers),
            "seed": draw(numbers),
            "method": draw(st.one_of(st.sampled_from(["fewest-repeats", "random"]), words)),
            "rules": draw(st.one_of(st.sampled_from(["tenhou", "wrc", "tenhou-sanma"]), words)),
            "while_playing": draw(st.one_of(st.just("yes"), st.just(""), words)),
        }
    else:  # any address that takes a form, with fields of any name
        token = draw(st.sampled_from([served.table, served.director, served.referee]))
        address = draw(st.sampled_from(["/matches/t1/preview", "/director/tournaments", "/referee/m/t1/correct"]))
        fields = draw(st.dictionaries(words, st.one_of(text, st.lists(text, max_size=3)), max_size=5))
    # The form's own fields: right mostly; now and then a wrong token or CSRF token, or none.
    own = {"csrf": served.csrf(), "token": token, "client_key": draw(st.one_of(st.just("k"), words))}
    broken = draw(mostly(st.none(), st.sampled_from(["csrf", "token"])))
    if broken is not None:
        own[broken] = draw(forged)
    return address, {**fields, **own}


def send_a_form(served: Site, data: st.DataObject) -> None:
    address, fields = data.draw(page_forms(served))
    before = served.rows()
    response = served.client.post(address, data=fields)
    answered(served, response, before, f"POST {address} {fields!r:.300}")


@fuzz()
@given(data=st.data())
def test_no_page_form_gets_a_500_or_stores_a_refusal(site: Site, data: st.DataObject) -> None:
    send_a_form(site, data)


@fuzz(POSTGRESQL_SHARE)
@given(data=st.data())
def test_no_page_form_gets_a_500_or_stores_a_refusal_on_postgresql(pg_site: Site, data: st.DataObject) -> None:
    send_a_form(pg_site, data)


# The director's forms beyond creating and seating (issue 25's pages), and the certificates'.

# A session's and a table's number in a path: the seated ones mostly, else any text.
sessions = mostly(st.just("1"), st.one_of(st.just("2"), numbers.filter(in_a_path)))
tables = mostly(st.just("1"), st.one_of(st.just("2"), numbers.filter(in_a_path)))
lines = st.lists(st.one_of(players, words, st.sampled_from(["qualifying:2", "final:1:top4", "a:1"])), max_size=5)
reasons = mostly(st.sampled_from(["", "late start", "ill"]), words)
hexes = mostly(st.sampled_from(["0" * 64, "F" * 64, "00", "ABC" * 22]), st.one_of(words, numbers))


@cache
def certificates(served: Site) -> st.SearchStrategy[bytes]:
    """A certificate file: JSON of a certificate's shape with drawn parts, JSON of any shape, or any bytes."""
    shaped = st.builds(
        lambda body, signature: {"certificate": body, "signature": signature},
        st.one_of(
            st.fixed_dictionaries(
                {},
                optional={
                    "tournament": st.one_of(st.just(TOURNAMENT), words, json_values),
                    "matches": st.one_of(st.just([{"match": KEY, "events": 3, "head": "0"}]), json_values),
                    "standings": json_values,
                },
            ),
            json_values,
        ),
        st.one_of(
            st.fixed_dictionaries(
                {},
                optional={
                    "algorithm": st.one_of(st.just("Ed25519"), json_values),
                    "key_id": json_values,
                    "public_key": st.one_of(st.just("AAAA"), json_values),
                    "value": json_values,
                },
            ),
            json_values,
        ),
    )
    changed = st.builds(
        lambda at, byte: served.certificate[:at] + bytes([byte]) + served.certificate[at + 1 :],
        st.integers(min_value=0, max_value=len(served.certificate) - 1),
        st.integers(min_value=0, max_value=255),
    )
    other = st.one_of(
        changed, shaped.map(raw_json), json_values.map(raw_json), raw_bodies.filter(lambda b: len(b) < 200_000)
    )
    return mostly(st.just(served.certificate), other)


@cache
def keys_sent(served: Site, pem: bytes) -> st.SearchStrategy[bytes]:
    """A key file: the right one mostly, the other of the pair, or any bytes."""
    other = served.public_pem if pem == served.private_pem else served.private_pem
    return mostly(st.just(pem), st.one_of(st.just(other), st.binary(max_size=300), st.just(pem[:40])))


DIRECTOR_FORMS = (
    "commit",
    "reveal",
    "format",
    "withdraw",
    "substitute",
    "teams",
    "clock",
    "time",
    "link",
    "certificate",
    "verify",
)


@st.composite
def director_forms(draw: st.DrawFn, served: Site) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A director's form (or the certificate check's), filled: (the address, its fields, its files)."""
    form = draw(st.sampled_from(DIRECTOR_FORMS))
    tournament = f"/director/t/{quoted(draw(names))}"
    session = f"{tournament}/s/{quoted(draw(sessions))}"
    files: dict[str, Any] = {}
    if form == "commit":
        address, fields = f"{tournament}/draw/commit", {"commitment": draw(hexes)}
    elif form == "reveal":
        address = f"{tournament}/draw/reveal"
        fields = {"seed": draw(hexes), "rules": draw(st.one_of(st.just("tenhou"), words))}
    elif form == "format":
        address = f"{tournament}/format"
        fields = {
            "stages": "\n".join(draw(lines)),
            "substitutes": draw(st.one_of(st.sampled_from(["as-played", "fixed", "excluded"]), words)),
            "team_points": draw(st.one_of(st.sampled_from(["sum", "average"]), words)),
        }
    elif form == "withdraw":
        address = f"{tournament}/withdraw"
        fields = {"player": draw(players), "after": draw(mostly(st.sampled_from(["1", "0"]), numbers))}
        fields["reason"] = draw(reasons)
    elif form == "substitute":
        address = f"{tournament}/substitute"
        fields = {"substitute": draw(players), "replaces": draw(players), "reason": draw(reasons)}
    elif form == "teams":
        address, fields = f"{tournament}/teams", {"team": draw(words), "members": "\n".join(draw(lines))}
    elif form == "clock":
        address = f"{session}/clock"
        fields = {"action": draw(st.one_of(st.sampled_from(["start", "limit"]), words)), "minutes": draw(numbers)}
    elif form == "time":
        address = f"{session}/t/{quoted(draw(tables))}/time"
        fields = {"minutes": draw(mostly(st.sampled_from(["5", "30"]), numbers)), "reason": draw(reasons)}
    elif form == "link":
        address, fields = f"{session}/t/{quoted(draw(tables))}/link", {}
    elif form == "certificate":
        address, fields = f"/director/t/{quoted(draw(mostly(st.just(FINISHED), names)))}/certificate", {}
        files = {"key": ("organiser.key", draw(keys_sent(served, served.private_pem)))}
    else:
        address, fields = "/certificates/verify", {}
        files = {"certificate": ("result.cert.json", draw(certificates(served)))}
        if draw(st.booleans()):
            files["key"] = ("organiser.pub.pem", draw(keys_sent(served, served.public_pem)))
    if draw(mostly(st.just(False), st.just(True))):
        # Fields of no form, and files where none is taken (or more than one is).
        fields.update(draw(st.dictionaries(words, text, min_size=1, max_size=2)))
        files[draw(words) or "f"] = ("x.txt", draw(st.binary(max_size=64)))
    token = draw(mostly(st.just(served.director), st.sampled_from([served.table, served.referee])))
    own = {"csrf": served.csrf(), "token": token}
    broken = draw(mostly(st.none(), st.sampled_from(["csrf", "token"])))
    if broken is not None:
        own[broken] = draw(forged)
    return address, {**fields, **own}, files


def send_a_directors_form(served: Site, data: st.DataObject) -> None:
    address, fields, files = data.draw(director_forms(served))
    before = served.rows()
    response = served.client.post(address, data=fields, files=files or None)
    answered(served, response, before, f"POST {address} {fields!r:.300} files {list(files)}")


@fuzz()
@given(data=st.data())
def test_no_directors_form_gets_a_500_or_stores_a_refusal(site: Site, data: st.DataObject) -> None:
    send_a_directors_form(site, data)


@fuzz(POSTGRESQL_SHARE)
@given(data=st.data())
def test_no_directors_form_gets_a_500_or_stores_a_refusal_on_postgresql(pg_site: Site, data: st.DataObject) -> None:
    send_a_directors_form(pg_site, data)


# Query strings and addresses: every GET that reads what the client sends.


ADDRESSES = (
    "standings",
    "standings json",
    "results json",
    "live stream",
    "find a tournament",
    "table",
    "audit",
    "match json",
    "entry json",
    "desk",
    "director's tournament",
    "desk's matches",
    "director",
    "director's session",
    "score sheets",
    "what-if",
    "ratings",
    "rating history",
    "certificate",
    "certificate check",
    "signed checkpoint",
    "consistency proof",
    "receipt",
)


@st.composite
def page_queries(draw: st.DrawFn, served: Site) -> str:
    """A GET of a page or of the API, with drawn query strings and path parts."""
    which = draw(st.sampled_from(ADDRESSES))
    query: dict[str, str] = {}
    if which in ("standings", "standings json", "results json", "live stream"):
        after = draw(st.one_of(st.none(), numbers))
        query = {} if after is None else {"after": after}
    if which in (
        "table",
        "desk",
        "director's tournament",
        "desk's matches",
        "director",
        "director's session",
        "score sheets",
    ):
        query = {"token": draw(mostly(st.sampled_from([served.table, served.director, served.referee]), forged))}
    if which == "director's session" and draw(st.booleans()):
        # What a reissue did, as its redirect says it: numbers only.
        query.update({"reissued": draw(mostly(st.just("1"), numbers)), "revoked": draw(mostly(st.just("1"), numbers))})
    if which in ("ratings", "rating history") and draw(st.booleans()):
        query["system"] = draw(mostly(st.sampled_from(["openskill", "ema"]), words))
    if which == "what-if":
        asked = {
            "rules": draw(st.one_of(st.sampled_from(["", "wrc", "ema", "tenhou"]), words)),
            "set": "\n".join(
                draw(st.lists(st.one_of(st.sampled_from(["uma=20,10", "oka=0", "start=30000"]), text), max_size=3))
            ),
            "tie_break": draw(st.one_of(st.sampled_from(["", "placement", "net_score"]), words)),
            "without_penalties": draw(st.one_of(st.just(""), st.just("yes"), words)),
        }
        query = {k: v for k, v in asked.items() if draw(st.booleans())}
    if which == "score sheets" and draw(st.booleans()):
        query["paper"] = draw(mostly(st.sampled_from(["a4", "letter"]), words))
    if draw(st.booleans()):
        # The page's language, as its switch sends it (or not).
        query["lang"] = draw(mostly(st.sampled_from(["ja", "en"]), words))
    if which == "desk":
        query["amend"] = draw(st.one_of(st.sampled_from(["2", "1"]), numbers))
    if which == "standings":
        address = f"/tournaments/{quoted(draw(names))}"
    elif which == "standings json":
        address = f"/api/tournaments/{quoted(draw(names))}/standings"
    elif which == "results json":
        address = f"/api/tournaments/{quoted(draw(names))}/results"
    elif which == "live stream":
        # A stream answers at once only where there is no tournament (a control character is in no name's).
        address = f"/tournaments/{quoted('nope' + chr(7) + draw(words))}/events"
    elif which == "find a tournament":
        address, query = "/tournaments", {"name": draw(mostly(st.just(TOURNAMENT), words))}
    elif which == "table":
        address = f"/matches/{quoted(draw(keys))}"
    elif which == "audit":
        address = f"/matches/{quoted(draw(keys))}/audit"
    elif which == "match json":
        address = f"/api/matches/{quoted(draw(keys))}"
    elif which == "entry json":
        address = f"/api/matches/{quoted(draw(keys))}/entries/{quoted(draw(mostly(st.just('2'), numbers))) or '1'}"
    elif which == "desk":
        address = f"/referee/m/{quoted(draw(keys))}"
    elif which == "director's tournament":
        address = f"/director/t/{quoted(draw(names))}"
    elif which == "director's session":
        address = f"/director/t/{quoted(draw(names))}/s/{quoted(draw(sessions))}"
    elif which == "score sheets":
        address = f"/director/t/{quoted(draw(names))}/s/{quoted(draw(sessions))}/sheet"
    elif which == "what-if":
        address = f"/tournaments/{quoted(draw(names))}/what-if"
    elif which == "ratings":
        address = "/ratings"
    elif which == "rating history":
        address = f"/ratings/players/{quoted(draw(mostly(st.sampled_from(PLAYERS), words.filter(in_a_path))))}"
    elif which == "certificate":
        address = f"/tournaments/{quoted(draw(names))}/certificate"
    elif which == "certificate check":
        address = "/certificates/verify"
    elif which == "signed checkpoint":
        address = f"/checkpoints/{quoted(draw(mostly(st.sampled_from(['latest', '1', '2']), numbers)))}"
    elif which == "consistency proof":
        address = "/api/checkpoints/consistency"
        query = {name: draw(mostly(st.sampled_from(["0", "1", "2"]), numbers)) for name in ("old", "new")}
    elif which == "receipt":
        address = f"/matches/{quoted(draw(keys))}/receipt"
    else:
        address = "/referee" if which == "desk's matches" else "/director"
    return address + ("?" + urlencode(query) if query else "")


def ask(served: Site, data: st.DataObject) -> None:
    address = data.draw(page_queries(served))
    before = served.rows()
    response = served.client.get(address)
    answered(served, response, before, f"GET {address:.300}")


@fuzz(0.6)
@given(data=st.data())
def test_no_query_string_or_address_gets_a_500(site: Site, data: st.DataObject) -> None:
    ask(site, data)


@fuzz(0.6 * POSTGRESQL_SHARE)
@given(data=st.data())
def test_no_query_string_or_address_gets_a_500_on_postgresql(pg_site: Site, data: st.DataObject) -> None:
    ask(pg_site, data)


# The JSON API's bodies.


@st.composite
def api_requests(draw: st.DrawFn, served: Site) -> tuple[str, bytes, dict[str, str]]:
    """A write of the JSON API: (address, body, headers)."""
    key = quoted(draw(keys))
    route = draw(st.sampled_from(["preview", "entries", "corrections/preview", "corrections"]))
    address = f"/api/matches/{key}/{route}"
    if route.startswith("corrections"):
        token = served.referee
        body = draw(mostly(json_correction().map(raw_json), raw_bodies))
    else:
        token = served.table
        body = draw(mostly(json_entry().map(raw_json), raw_bodies))
    headers = {
        "content-type": draw(
            mostly(st.just("application/json"), st.sampled_from(["application/json; charset=utf-8", "text/plain"]))
        ),
        "authorization": draw(
            mostly(
                st.just(f"Bearer {token}"), st.one_of(forged.map("Bearer {}".format), st.sampled_from(["", "Basic a"]))
            )
        ),
    }
    return address, body, headers


def header_bytes(headers: dict[str, str]) -> dict[str, bytes]:
    """Headers as a client sends them: UTF-8 bytes, without the CR, LF and NUL that HTTP itself
    refuses in a header (the server's HTTP parser answers those before honba sees them)."""
    sent = {name: value.translate({0: None, 10: None, 13: None}).encode("utf-8") for name, value in headers.items()}
    return {name: value for name, value in sent.items() if value}


def call_the_api(served: Site, data: st.DataObject) -> None:
    address, body, headers = data.draw(api_requests(served))
    before = served.rows()
    response = served.client.post(address, content=body, headers=header_bytes(headers))
    answered(served, response, before, f"POST {address} {body[:300]!r}")
    if response.status_code >= 400:
        assert response.headers["content-type"].startswith("application/json")


@fuzz()
@given(data=st.data())
def test_no_json_api_request_gets_a_500_or_stores_a_refusal(site: Site, data: st.DataObject) -> None:
    call_the_api(site, data)


@fuzz(POSTGRESQL_SHARE)
@given(data=st.data())
def test_no_json_api_request_gets_a_500_or_stores_a_refusal_on_postgresql(pg_site: Site, data: st.DataObject) -> None:
    call_the_api(pg_site, data)
