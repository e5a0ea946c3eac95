"""A seating draw nobody can rig (issue 27): the commitment is published before the draw, the seed
revealed after, and anyone recomputes the seating: another store from the revealed seed, and the
command alone from the published seed and players."""

from __future__ import annotations

import hashlib
import stat
from pathlib import Path

from honba_cli import Honba

from domain.draw import commitment_of, drawn_seating
from replay.store.application import HonbaApp
from replay.store.tournaments import get_tournament, save_tournament

PLAYERS = ["Ann", "Ben", "Cho", "Dai", "Eve", "Fay", "Gus", "Hal"]


def sessions(db: Path, name: str) -> dict[int, list[list[str]]]:
    app = HonbaApp.open(str(db))
    try:
        return dict(get_tournament(app, name).sessions)
    finally:
        app.close()


def test_the_commitment_is_the_seeds_sha256() -> None:
    # SHA-256 of 32 zero bytes (FIPS 180-4; `head -c 32 /dev/zero | sha256sum`).
    assert commitment_of("00" * 32) == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"


def test_another_store_recomputes_the_draw_from_the_revealed_seed(tmp_path: Path) -> None:
    first = Honba(tmp_path / "director.sqlite")
    first.ok("tournament", "create", "cup", "--players", ",".join(PLAYERS))
    seed_file = tmp_path / "seed.txt"
    out = first.ok("tournament", "commit-draw", "cup", "1", "--seed-file", str(seed_file))
    seed = seed_file.read_text().strip()
    commitment = hashlib.sha256(bytes.fromhex(seed)).hexdigest()
    assert commitment in out and seed not in out
    assert stat.S_IMODE(seed_file.stat().st_mode) == 0o600
    # A seed other than the committed one is refused.
    assert "not the one committed" in first.refused("tournament", "reveal-draw", "cup", "1", "--seed", "ab" * 32)
    first.ok("tournament", "reveal-draw", "cup", "1", "--seed-file", str(seed_file), "--rules", "wrc")
    assert "checks" in first.ok("tournament", "verify-draw", "cup", "1")
    drawn = sessions(first.db, "cup")[1]

    # Another store, knowing only what was published: the players, the commitment, then the seed.
    other = Honba(tmp_path / "anyone.sqlite")
    other.ok("tournament", "create", "cup", "--players", ",".join(reversed(PLAYERS)))
    other.ok("tournament", "commit-draw", "cup", "1", "--commitment", commitment)
    other.ok("tournament", "reveal-draw", "cup", "1", "--seed", seed, "--no-start")
    assert sessions(other.db, "cup")[1] == drawn
    assert "checks" in other.ok("tournament", "verify-draw", "cup", "1")
    # ... and without any store.
    alone = other.ok(
        "tournament", "verify-draw", "--seed", seed, "--players", ",".join(PLAYERS), "--commitment", commitment
    )
    assert [line.split(": ", 1)[1].split(", ") for line in alone.splitlines()] == drawn
    assert "not that commitment" in other.refused(
        "tournament", "verify-draw", "--seed", "ab" * 32, "--players", ",".join(PLAYERS), "--commitment", commitment
    )


def test_the_draw_is_the_published_recipe() -> None:
    # Fisher-Yates over the sorted names, j from SHA-256(seed || i), as docs/director.md says.
    seed = "01" * 32
    order = sorted(PLAYERS)
    for i in range(7, 0, -1):
        j = int(hashlib.sha256(bytes.fromhex(seed) + i.to_bytes(4, "big")).hexdigest(), 16) % (i + 1)
        order[i], order[j] = order[j], order[i]
    assert drawn_seating(seed, PLAYERS) == [order[:4], order[4:]]


def test_a_session_seated_otherwise_than_its_draw_fails_verification(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "cup.sqlite")
    honba.ok("tournament", "create", "cup", "--players", ",".join(PLAYERS))
    seed = "02" * 32
    honba.ok("tournament", "commit-draw", "cup", "1", "--commitment", commitment_of(seed))
    honba.ok("tournament", "reveal-draw", "cup", "1", "--seed", seed, "--no-start")
    # The director cannot seat the session again by hand (issue 32) ...
    refused = honba.refused("tournament", "seat", "cup", "1", "Ann,Ben,Cho,Dai", "Eve,Fay,Gus,Hal")
    assert "the draw of session 1 of 'cup' is revealed" in refused
    # ... so a seating written behind the draw's back (as a writer to the store would) is what
    # verify-draw finds: the draw no longer checks.
    app = HonbaApp.open(str(honba.db))
    try:
        cup = get_tournament(app, "cup")
        cup._plan_session(1, [PLAYERS[:4], PLAYERS[4:]])
        save_tournament(app, cup)
    finally:
        app.close()
    result = honba("tournament", "verify-draw", "cup", "1")
    assert result.exit_code == 1 and "seated otherwise than the draw" in result.stdout
