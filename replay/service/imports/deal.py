"""The fair-deal check (``honba verify --deal``): each hand's wall against its commitment, and the
tiles the log shows against that wall.

Two commitments are known. Tenhou's shuffle seed: every wall of the game is regenerated from it
(``replay.formats.tenhou_wall``) and each hand's dealt hands, draws (live and dead wall), dora
and ura indicators and dice must be the ones that wall gives, at Tenhou's positions. Riichi
City's digest: the SHA-256 it published of each hand's wall (``handCardsSHA256``) must be the
digest of the wall it revealed after the hand (``handCardEncode``), and the hands dealt, the
draws and the first dora indicator must be that wall's tiles at Riichi City's positions.

What it proves: the deal was fixed before play (a seed or digest published beforehand cannot be
matched by another wall) and the log's tiles are that deal. What it cannot: that the seed or
wall was drawn fairly, that the seed was not chosen knowing who sits where, or anything about a
log without a commitment (reported as such, never passed).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any, Final

import attrs

from domain.errors import HonbaError
from replay.formats.deal import DealtHand, GameDeal
from replay.formats.detect import expand_paths, read_deals
from replay.formats.source import read_source
from replay.formats.tenhou_wall import Layout, SeedError, Wall, hand_wall, layout, seed_words, walls
from replay.service.imports.batch import Unreadable, _in_order

NO_COMMITMENT = "no deal commitment: the log carries no shuffle seed or wall digest, so its deal cannot be checked"


@attrs.frozen
class DealMismatch:
    """One hand's tiles (or commitment) that its wall does not give."""

    file: str
    game: str
    hand: str
    field: str
    log: Any
    wall: Any

    def as_dict(self) -> dict[str, Any]:
        """Plain data for ``--json``."""
        return attrs.asdict(self)


@attrs.frozen
class DealReport:
    """The deal check of one game: how many hands were checked, how many matched, what did not;
    ``unchecked`` says why the game's deal could not be checked at all."""

    file: str
    game: str
    commitment: str | None
    hands: int = 0
    hands_matching: int = 0
    mismatches: tuple[DealMismatch, ...] = ()
    unchecked: str | None = None


@attrs.frozen
class DealRun:
    """Everything ``honba verify --deal`` found."""

    files: int
    reports: tuple[DealReport, ...]
    unreadable: tuple[Unreadable, ...]

    @property
    def exit_code(self) -> int:
        """2 when a file could not be read, 1 when a hand does not match its wall or a game has no
        commitment to check, else 0."""
        if self.unreadable:
            return 2
        return 1 if any(r.mismatches or r.unchecked for r in self.reports) else 0

    def as_dict(self) -> dict[str, Any]:
        """The JSON object ``honba verify --deal --json`` prints."""
        return {
            "files": self.files,
            "games": len(self.reports),
            "hands": sum(r.hands for r in self.reports),
            "hands_matching": sum(r.hands_matching for r in self.reports),
            "mismatches": [m.as_dict() for r in self.reports for m in r.mismatches],
            "unchecked": [
                {"file": r.file, "game": r.game, "hands": r.hands, "reason": r.unchecked}
                for r in self.reports
                if r.unchecked
            ],
            "unreadable": [{"file": u.file, "reason": u.reason} for u in self.unreadable],
        }


def check_deal(game: GameDeal) -> DealReport:
    """Check one game's deals against its commitment."""
    base = DealReport(game.file, game.game_id, game.commitment, hands=len(game.hands))
    if game.commitment is None:
        return attrs.evolve(base, unchecked=NO_COMMITMENT)
    if game.commitment == "tenhou-seed":
        return _tenhou(game, base)
    if game.commitment == "sha256":
        return _by_digest(game, base)
    if game.commitment == "mahjongsoul":
        return _by_digest(game, base, _against_salted)
    return attrs.evolve(base, unchecked=f"unknown commitment {game.commitment!r}")


def _tenhou(game: GameDeal, base: DealReport) -> DealReport:
    try:
        if game.seed:
            _, early = seed_words(game.seed)
            generated: Iterator[Wall] = walls(game.seed, game.players)
        else:
            # Before mid-2009: a seed per hand, the 2009 dead wall.
            early = True
            generated = (hand_wall(hand.seed or "", game.players) for hand in game.hands)
        where = layout(game.players, early=early)
        pairs = list(zip(game.hands, generated, strict=False))
    except SeedError as exc:
        return attrs.evolve(base, unchecked=f"the shuffle seed cannot be read: {exc}")
    found: list[DealMismatch] = []
    matching = 0
    for hand, wall in pairs:
        differences = list(_against_layout(hand, wall, where, game.players))
        found.extend(DealMismatch(game.file, game.game_id, hand.label, f, log, ours) for f, log, ours in differences)
        matching += not differences
    return attrs.evolve(base, hands_matching=matching, mismatches=tuple(found))


def _dealt(tiles: Sequence[int], where: Layout, dealer: int, players: int) -> list[list[int]]:
    """Each seat's 13 tiles as the layout deals them: four at a time three times round from the
    dealer, then one each."""
    hands: list[list[int]] = [[] for _ in range(players)]
    taken = 0
    for size in (4, 4, 4, 1):
        for turn in range(players):
            seat = (dealer + turn) % players
            hands[seat].extend(tiles[i] for i in where.live[taken : taken + size])
            taken += size
    return hands


def _against_layout(hand: DealtHand, wall: Wall, where: Layout, players: int) -> Iterator[tuple[str, Any, Any]]:
    """What of a hand's tiles is not what its wall gives at the layout's positions (one line per kind)."""
    tiles = wall.tiles
    if hand.dice is not None and tuple(hand.dice) != wall.dice:
        yield "dice", list(hand.dice), list(wall.dice)
    for seat, (logged, ours) in enumerate(zip(hand.hands, _dealt(tiles, where, hand.dealer, players), strict=False)):
        if sorted(logged) != sorted(ours):
            yield f"dealt to seat {seat}", sorted(logged), sorted(ours)
    live = iter(where.live[13 * players :])
    dead_used: list[int] = []
    for number, draw in enumerate(hand.draws, 1):
        if draw.dead:
            if where.dead_draws_ordered:
                if len(dead_used) >= len(where.dead_draws):
                    yield f"draw {number} (seat {draw.seat}, dead wall)", draw.tile, "none left"
                    return
                expected = tiles[where.dead_draws[len(dead_used)]]
                dead_used.append(expected)
                if draw.tile != expected:
                    yield f"draw {number} (seat {draw.seat}, dead wall)", draw.tile, expected
                    return
            else:
                pool = [tiles[i] for i in where.dead_draws if tiles[i] not in dead_used]
                if draw.tile not in pool:
                    yield f"draw {number} (seat {draw.seat}, dead wall)", draw.tile, sorted(pool)
                    return
                dead_used.append(draw.tile)
            continue
        position = next(live, None)
        if position is None:
            yield f"draw {number} (seat {draw.seat})", draw.tile, "the wall is exhausted"
            return
        if draw.tile != tiles[position]:
            yield f"draw {number} (seat {draw.seat})", draw.tile, tiles[position]
            return
    for name, logged_list, positions in (
        ("dora indicator", hand.dora, where.dora),
        ("ura indicator", hand.ura, where.ura),
    ):
        for index, tile in enumerate(logged_list):
            shown: int | None = tiles[positions[index]] if index < len(positions) else None
            if tile != shown:
                yield f"{name} {index + 1}", tile, shown
                break


def _by_digest(
    game: GameDeal,
    base: DealReport,
    against: Callable[[DealtHand, int], Iterator[tuple[str, Any, Any]]] | None = None,
) -> DealReport:
    check = against or _against_revealed
    found: list[DealMismatch] = []
    matching = 0
    for hand in game.hands:
        differences = list(check(hand, game.players))
        found.extend(DealMismatch(game.file, game.game_id, hand.label, f, log, ours) for f, log, ours in differences)
        matching += not differences
    return attrs.evolve(base, hands_matching=matching, mismatches=tuple(found))


# Riichi City's dealing, as its records show it (the corpus has none; checked on public records):
# the wall is dealt from its start, four tiles at a time three times round from the dealer, then
# one each and the dealer's fourteenth; draws follow in order; kan and north draws come from its
# end (the last tile first); the first dora indicator is the fifth tile from the end (four
# players; each kan's next one two further in) or the ninth (three players), each ura indicator
# the tile after its dora indicator.
RIICHI_CITY_DORA: Final = {4: 4, 3: 8}


def _against_revealed(hand: DealtHand, players: int) -> Iterator[tuple[str, Any, Any]]:
    """A Riichi City hand: its published digest against its revealed wall, then its tiles against that wall."""
    if hand.wall_text is None or hand.digest is None:
        yield "commitment", "no wall or digest in the log's hand", "a wall and its SHA-256"
        return
    digest = hashlib.sha256(hand.wall_text.encode("utf-8")).hexdigest()
    if digest != hand.digest.lower():
        yield "wall digest", hand.digest, digest
        return
    wall = hand.wall
    if wall is None:
        yield "wall", hand.wall_problem or "unreadable", "a wall of tiles"
        return
    dealt: list[list[int]] = [[] for _ in range(players)]
    taken = 0
    for size in (4, 4, 4, 1):
        for turn in range(players):
            seat = (hand.dealer + turn) % players
            dealt[seat] += wall[taken : taken + size]
            taken += size
    dealt[hand.dealer].append(wall[taken])
    taken += 1
    for seat, (logged, ours) in enumerate(zip(hand.hands, dealt, strict=False)):
        if sorted(logged) != sorted(ours):
            yield f"dealt to seat {seat}", sorted(logged), sorted(ours)
    live = iter(range(taken, len(wall)))
    dead = iter(range(len(wall) - 1, taken - 1, -1))
    for number, draw in enumerate(hand.draws, 1):
        position = next(dead if draw.dead else live, None)
        where = f"draw {number} (seat {draw.seat}{', dead wall' if draw.dead else ''})"
        if position is None:
            yield where, draw.tile, "the wall is exhausted"
            return
        if draw.tile != wall[position]:
            yield where, draw.tile, wall[position]
            return
    # Each ura indicator lies beside its dora indicator, one tile further from the end.
    for name, indicators, offset in (("dora", hand.dora, 0), ("ura", hand.ura, 1)):
        for index, indicator in enumerate(indicators):
            if index and players == 3:
                # A three-player kan's indicator: its place is not seen in public records; in the dead wall.
                if indicator not in wall[-18:]:
                    yield f"{name} indicator {index + 1}", indicator, "not in the dead wall"
                continue
            shown = wall[len(wall) - 1 - RIICHI_CITY_DORA[players] - offset - 2 * index]
            if indicator != shown:
                yield f"{name} indicator {index + 1}", indicator, shown


def _against_salted(hand: DealtHand, players: int) -> Iterator[tuple[str, Any, Any]]:
    """A Mahjong Soul hand: the published SHA-256 of its wall and salt (or the MD5 of its wall, in
    older records) against the wall revealed, then the hands dealt and the draws against that wall:
    the dealt tiles one run of it, the draws from the live wall the run that follows, in order (read
    either way round, from any place: Mahjong Soul's dealing order is not assumed)."""
    if hand.wall_text is None or hand.digest is None:
        yield "commitment", "no wall or digest in the hand's record", "a wall and its digest"
        return
    if hand.salt is not None:
        digest = hashlib.sha256((hand.wall_text + hand.salt).encode("utf-8")).hexdigest()
    else:
        digest = hashlib.md5(hand.wall_text.encode("utf-8"), usedforsecurity=False).hexdigest()
    if digest != hand.digest.lower():
        yield "wall digest", hand.digest, digest
        return
    wall = hand.wall
    if wall is None:
        yield "wall", hand.wall_problem or "unreadable", "a wall of tiles"
        return
    dealt = sorted(t for seat in hand.hands for t in seat)
    live = [d.tile for d in hand.draws if not d.dead]
    run = len(dealt)
    for order in (wall, wall[::-1]):
        ring = order + order
        for start in range(len(order)):
            if sorted(ring[start : start + run]) == dealt and list(ring[start + run : start + run + len(live)]) == live:
                return
    yield "dealt hands and draws", "not one run of the revealed wall", f"{len(wall)} tiles"


def deal_file(path: Path, fmt: str = "auto") -> tuple[list[DealReport], Unreadable | None]:
    """The deal check of every game of one log file, or why the file could not be read."""
    try:
        games = read_deals(read_source(path), file=str(path), fmt=fmt)
    except HonbaError as exc:
        message = str(exc)
        reason = message[len(str(path)) + 2 :] if message.startswith(f"{path}: ") else message
        return [], Unreadable(str(path), reason, message)
    return [check_deal(game) for game in games], None


def deal_paths(
    paths: list[Path],
    fmt: str = "auto",
    tick: Callable[[str], None] | None = None,
    *,
    pool: Executor | None = None,
) -> DealRun:
    """The deal check of every game of every log under the paths; with a ``pool``
    (``replay.service.imports.batch.reading_pool``) the files are checked in its worker processes, as
    ``verify_paths`` verifies them, the reports in file order either way."""
    files = expand_paths(paths)
    reports: list[DealReport] = []
    unreadable: list[Unreadable] = []
    for path, (done, problem) in zip(files, _in_order(pool, files, deal_file, fmt), strict=True):
        reports.extend(done)
        if problem is not None:
            unreadable.append(problem)
        if tick is not None:
            tick(str(path))
    return DealRun(len(files), tuple(reports), tuple(unreadable))
