"""Who may write what through ``honba serve``: secret tokens, stored hashed beside the event store.

A token is ``<id>.<secret>``; the store keeps its id, role (``director``, ``referee`` or
``table``), the match a table token writes to, a random salt and ``sha256(salt + secret)``,
never the secret itself. The secret is 192 random bits, not a password a person chose, so a
fast hash is enough (no dictionary to try), and every request's check stays cheap.

The table, ``honba_access_tokens``, lives in the same database as the events (the SQLite
file, or the PostgreSQL database) but outside the event log: a token is a key to the door,
not a fact of any match, and revoking one must not rewrite history.
An in-memory store keeps its tokens in memory.

Roles: a ``table`` token records at its own match only; a ``referee`` token records at any
match and corrects (amend, void, penalty with who and why); a ``director`` token may do all
of that and run tournaments.

A table's link made by a director (``reissue`` with the director's token as ``issuer``) has a secret derived from the
director's own: HMAC-SHA256 keyed with the director's secret over the table token's id and its
match. The store still keeps only its salted hash, yet the director's pages can show the link
(and its QR code) again at any time (``table_link``): the director's token recomputes it and the
stored hash confirms it. Knowing a table's link tells nothing of the director's secret.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
from typing import Final
from urllib.parse import quote

import attrs

from domain.errors import HonbaError
from domain.said import Said
from replay.store.application import HonbaApp
from replay.store.tokens import TokenRows

ROLES: Final = ("director", "referee", "table")
# What a table token becomes when its link is issued again: kept (its hash), so that the old link is
# told it was replaced, not taken for a stranger's; it allows nothing (``check`` gives no grant).
REPLACED: Final = "replaced"
# A token's id: the hex of ``secrets.token_hex`` (the part before the dot).
TOKEN_ID: Final = re.compile(r"[0-9a-f]{1,32}")


class AccessError(HonbaError):
    """A token cannot be made as asked."""


@attrs.frozen
class Grant:
    """What a valid token allows: its role and, for a table token, its match."""

    token_id: str
    role: str
    match: str | None

    def may_record(self, match_key: str) -> bool:
        """Whether this token may enter results at the match."""
        return self.role in ("director", "referee") or (self.role == "table" and self.match == match_key)

    def may_correct(self) -> bool:
        """Whether this token may amend, void or add a penalty as a referee."""
        return self.role in ("director", "referee")

    def may_direct(self) -> bool:
        """Whether this token may create tournaments, players, sessions and tables."""
        return self.role == "director"


@attrs.frozen
class TableLink:
    """A table's token issued (again): its match, the token (shown once: the store keeps its hash),
    and how many earlier tokens of the table it revoked."""

    match: str
    token: str
    revoked: int = 0

    @property
    def path(self) -> str:
        """The table page's path with the token, as the link's end (the server's address goes before)."""
        return f"/matches/{quote(self.match, safe='/')}?token={quote(self.token)}"


def _digest(secret: str, salt: bytes) -> str:
    return hashlib.sha256(salt + secret.encode("utf-8")).hexdigest()


def derived_key(issuer: str, purpose: str, *parts: str) -> bytes:
    """32 bytes derived from a token's secret (the part after the dot) for one purpose and its
    parts: HMAC-SHA256 keyed with the token's secret. Whoever holds the token can make them again;
    nobody can go back from them to the token."""
    secret = issuer.split(".", 1)[1] if "." in issuer else ""
    if not secret:
        raise AccessError(Said("a secret is derived from a whole token (id.secret)"))
    message = "\0".join(("honba", purpose, *parts)).encode("utf-8")
    return hmac.new(secret.encode("utf-8"), message, hashlib.sha256).digest()


def derived_secret(issuer: str, purpose: str, *parts: str) -> str:
    """A token secret of 192 bits (as ``secrets.token_urlsafe(24)`` makes) derived as ``derived_key``."""
    return base64.urlsafe_b64encode(derived_key(issuer, purpose, *parts)[:24]).decode("ascii")


class TokenStore:
    """The hashed tokens of one store (their rows: ``replay.store.tokens.TokenRows``)."""

    def __init__(self, app: HonbaApp):
        self._app = app
        self._rows = TokenRows(app)

    def create(self, role: str, match: str | None = None, *, issuer: str | None = None, replacing: bool = False) -> str:
        """A new token for a role (a table token names its match); returns the token, shown once
        (a table token with an ``issuer``, a director's token, has its secret derived from it).
        ``replacing``: the match's other table tokens are revoked in the same transaction (a table's
        link issued again: the old link stops writing the moment the new one exists)."""
        if role not in ROLES:
            raise AccessError(Said("the role is one of {roles}, not {role}", roles=", ".join(ROLES), role=repr(role)))
        if role == "table" and not match:
            raise AccessError(Said("a table token writes to one match: name it (--match KEY)"))
        if role != "table" and match:
            raise AccessError(Said("a {role} token is not tied to a match: leave out --match", role=role))
        if match is not None and not self._app.has_match(match):
            raise AccessError(Said("no match {match} in the store", match=repr(match)))
        token_id = secrets.token_hex(6)
        secret = secrets.token_urlsafe(24) if issuer is None else derived_secret(issuer, "table", token_id, str(match))
        self._insert(token_id, role, match, secret, replacing)
        return f"{token_id}.{secret}"

    def _insert(self, token_id: str, role: str, match: str | None, secret: str, replacing: bool) -> None:
        salt = secrets.token_hex(16)
        digest = _digest(secret, bytes.fromhex(salt))
        self._rows.insert(token_id, (role, match, salt, digest), replacing=REPLACED if replacing else None)

    def table_link(self, issuer: str, match: str) -> str | None:
        """The standing table token of ``match`` that the director token ``issuer`` issued, made
        again from the director's secret and checked against its stored hash; None when no such
        token stands (none issued, reissued by another director token, or revoked)."""
        if "." not in issuer:
            return None
        for token_id, salt, digest in self._rows.table_rows(match):
            secret = derived_secret(issuer, "table", token_id, match)
            if hmac.compare_digest(_digest(secret, bytes.fromhex(salt)), digest):
                return f"{token_id}.{secret}"
        return None

    def table_tokens(self, match: str) -> int:
        """How many table tokens write to ``match``."""
        return self._rows.table_count(match)

    def check(self, token: str | None) -> Grant | None:
        """What a token allows, or None for no token, a malformed one, a wrong one or a table link
        issued again since (``replaced``)."""
        found = self._checked(token)
        return None if found is None or found.role == REPLACED else found

    def replaced(self, token: str | None) -> str | None:
        """The match whose table link this token was, when that link has been issued again since
        (the old link is told so); else None."""
        found = self._checked(token)
        return found.match if found is not None and found.role == REPLACED else None

    def _checked(self, token: str | None) -> Grant | None:
        if not token or "." not in token:
            return None
        token_id, secret = token.split(".", 1)
        # An id is hex (``create``): anything else is no token's, and is not sent to the store
        # (PostgreSQL refuses a NUL in a query's text).
        if not TOKEN_ID.fullmatch(token_id) or not secret:
            return None
        row = self._rows.row(token_id)
        if row is None:
            return None
        role, match, salt, digest = row
        if not hmac.compare_digest(_digest(secret, bytes.fromhex(salt)), digest):
            return None
        return Grant(token_id, role, match)

    def reissue(self, match: str, *, issuer: str | None = None) -> TableLink:
        """A table's link issued again: a new table token for ``match``, every earlier one revoked
        with it (in one transaction); the new token, shown once, and how many were revoked. With
        ``issuer``, a director's token, the new token's secret is derived from it, so that
        ``table_link`` shows it again (the director's pages)."""
        if issuer is not None:
            grant = self.check(issuer)
            if grant is None or not grant.may_direct():
                raise AccessError(Said("only a director's token issues table links"))
        if not self._app.has_match(match):
            # (before the tokens are counted: a key no match has is not looked for among them)
            raise AccessError(Said("no match {match} in the store", match=repr(match)))
        revoked = self.table_tokens(match)
        return TableLink(match, self.create("table", match, issuer=issuer, replacing=True), revoked)

    def revoke(self, token_id: str) -> bool:
        """Remove a token by its id (the part before the dot); whether there was one."""
        return self._rows.delete(token_id)
