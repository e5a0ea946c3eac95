"""What a log shows of each hand's deal, and what commits its wall: the input of ``honba verify --deal``.

A reader that knows its platform's deal gives, per game, the tiles each hand's log shows (the
hands dealt, every draw in order, the dora and ura indicators, the dice) and the platform's
commitment to the walls: Tenhou's shuffle seed (``seed``), or Riichi City's wall revealed after
the hand with the SHA-256 it published (``DealtHand.wall_text`` and ``DealtHand.digest``).
``replay.service.imports.deal`` checks the one against the other. Nothing here is scored.
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Draw:
    """A tile drawn: by which seat, which tile, and whether from the dead wall (after a kan or a north)."""

    seat: int
    tile: int
    dead: bool = False


@attrs.frozen
class DealtHand:
    """One hand's tiles as its log shows them.

    ``hands``: each seat's tiles as dealt (13; the dealer's 14th is its first draw). Tiles are
    the platform's own codes (Tenhou: 0 to 135, one id per physical tile; Riichi City: a kind's
    code). ``wall_text`` and ``digest``: the wall the platform revealed and the SHA-256 it
    published before the hand (Riichi City); ``wall``: that wall's tiles, when they could be read.
    """

    position: str
    label: str
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    draws: tuple[Draw, ...] = ()
    dora: tuple[int, ...] = ()
    ura: tuple[int, ...] = ()
    dice: tuple[int, ...] | None = None
    wall_text: str | None = None
    digest: str | None = None
    wall: tuple[int, ...] | None = None
    # A seed of the hand's own (Tenhou's INIT ``shuffle`` before mid-2009), when the game has none.
    seed: str | None = None
    # The salt the wall text was hashed with (Mahjong Soul: SHA-256 of the wall and the salt).
    salt: str | None = None
    # Why the wall text could not be read into tiles (the check then says so for the hand).
    wall_problem: str | None = None


@attrs.frozen
class GameDeal:
    """A game's deals and what commits them.

    ``commitment``: what the log commits its walls with (``tenhou-seed``: the SHUFFLE seed in
    ``seed``, or each INIT's own in ``DealtHand.seed``; ``sha256``: a published digest per
    hand; ``mahjongsoul``: a published SHA-256 of each wall with its salt, or an MD5 of the wall
    in older records), or None when the log carries none (a Tenhou log without SHUFFLE, a converted log):
    its hands are then counted, not checked.
    """

    file: str
    game_id: str
    format: str
    players: int
    hands: tuple[DealtHand, ...]
    commitment: str | None = None
    seed: str | None = None
