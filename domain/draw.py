"""A seating draw nobody can rig: commit to a random seed, reveal it after registration closes.

The director draws a random seed (32 bytes, written as 64 hexadecimal digits) and publishes its
commitment, the SHA-256 digest of the seed's bytes, before anyone knows who will play. Once
registration closes the seed is revealed; the seating follows from the seed and the players
alone, so anyone can recompute it, and nobody (the director included) could have chosen a
seating after seeing the players: another seating would need another seed, whose digest is not
the one published.

The draw, in full (a few lines in any language):

1. the players, sorted by their names' Unicode code points;
2. for i from n - 1 down to 1: j = the big-endian integer of SHA-256(seed bytes || i as 4
   big-endian bytes), modulo i + 1; swap the players at i and j (Fisher-Yates);
3. the tables are the consecutive groups of the table's size in that order, each in seat order
   (the first deals first).

Where team-mates are kept apart, ``domain.seating.separate_teams`` then moves them, by a
rule of its own that uses no randomness.

What the seating depends on besides the seed, its **terms** (``draw_terms``: the players drawn
over, each one's team, whether team-mates are kept apart, the players a table), is fixed when the
commitment is published and stored with it; the tournament then refuses whatever would change
them (a player registered, a team joined, the session seated by hand) until the reveal, which
draws over them. Their digest (``terms_digest``) is published beside the commitment, so that the
seating is recomputed from the published values alone (``seating_of``) exactly as it was played.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from domain.bounds import EVENT_PLAYERS, NAME, TABLE_SIZE, OutOfBounds, check_all
from domain.errors import RuleViolation
from domain.said import Said
from domain.seating import separate_teams

SEED_BYTES = 32
_HEX = re.compile(r"[0-9a-f]+")


def check_seed(seed: str) -> bytes:
    """The bytes of a seed written as 64 lowercase hexadecimal digits."""
    if len(seed) != 2 * SEED_BYTES or not _HEX.fullmatch(seed):
        raise RuleViolation(Said("a seed is {digits} hexadecimal digits (0-9, a-f)", digits=2 * SEED_BYTES))
    return bytes.fromhex(seed)


def check_commitment(commitment: str) -> str:
    """A commitment as it is published: the 64 lowercase hexadecimal digits of a SHA-256 digest."""
    if len(commitment) != 64 or not _HEX.fullmatch(commitment):
        raise RuleViolation(Said("a commitment is the 64 hexadecimal digits of a SHA-256 digest"))
    return commitment


def commitment_of(seed: str) -> str:
    """The commitment of a seed: SHA-256 of its bytes, in hexadecimal."""
    return hashlib.sha256(check_seed(seed)).hexdigest()


def drawn_order(seed: str, players: Sequence[str]) -> list[str]:
    """The players in the order the seed draws them (steps 1 and 2 of the module's recipe)."""
    secret = check_seed(seed)
    order = sorted(players)
    for i in range(len(order) - 1, 0, -1):
        digest = hashlib.sha256(secret + i.to_bytes(4, "big")).digest()
        j = int.from_bytes(digest, "big") % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def drawn_seating(seed: str, players: Sequence[str], size: int = 4) -> list[list[str]]:
    """The tables the seed draws: consecutive groups of ``size`` in the drawn order."""
    TABLE_SIZE.check(size)
    if len(players) > EVENT_PLAYERS:
        raise OutOfBounds(
            Said("players"),
            Said("{count:,} drawn, at most {most:,} (a thousand tables)", count=len(players), most=EVENT_PLAYERS),
        )
    check_all(players, NAME)
    if len(set(players)) != len(players):
        raise RuleViolation(Said("each player is drawn once: the list names someone twice"))
    if not players or len(players) % size:
        raise RuleViolation(Said("{count} players do not fill tables of {size}", count=len(players), size=size))
    order = drawn_order(seed, players)
    return [order[i : i + size] for i in range(0, len(order), size)]


# How a committed draw seats its players: the seed's shuffle (above), then tables in order.
METHOD = "sha256-fisher-yates"


def draw_terms(
    players: Sequence[str], teams: Mapping[str, str], *, teams_apart: bool, size: int | None = 4
) -> dict[str, Any]:
    """A draw's terms: the players drawn over (sorted), the teams of those of them in one (when
    team-mates are kept apart), the method and the players a table (None: the rules the reveal
    seats the session under say)."""
    if size is not None:
        TABLE_SIZE.check(size)
    drawn = sorted(players)
    kept = {p: teams[p] for p in drawn if p in teams} if teams_apart else {}
    return {"players": drawn, "teams": kept, "teams_apart": teams_apart, "method": METHOD, "size": size}


def terms_digest(terms: Mapping[str, Any]) -> str:
    """The SHA-256 of a draw's terms as canonical JSON (sorted keys, no spaces, UTF-8): published
    beside the commitment."""
    text = json.dumps(dict(terms), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def seating_of(seed: str, terms: Mapping[str, Any], size: int = 4) -> list[list[str]]:
    """The seating a seed draws under these terms: the shuffle, then team-mates moved apart when the
    terms keep them apart (``domain.seating.separate_teams``, which uses no randomness). ``size``:
    the players a table where the terms leave it to the reveal's rules."""
    tables = drawn_seating(seed, list(terms["players"]), int(terms.get("size") or size))
    teams = dict(terms.get("teams") or {})
    return separate_teams(tables, teams) if terms.get("teams_apart") and teams else tables
