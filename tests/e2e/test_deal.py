"""The fair-deal check (``honba verify --deal``): Tenhou's walls regenerated from the logs' own seeds.

The evidence is the real corpus: every hand of every Tenhou log in it that carries a seed (the
SHUFFLE tag since 2009, each INIT's own seed before) must be dealt, drawn and shown its indicators
from the wall the seed gives. A copy of such a log with one tile changed must be caught, at the
hand and the draw changed; a log without a seed is reported as unchecked, never passed.
"""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS
from honba_cli import Honba

from replay.formats.deal import DealtHand, Draw, GameDeal
from replay.formats.tenhou_wall import SeedError, hand_wall, layout, seed_words, walls
from replay.service.imports.deal import NO_COMMITMENT, check_deal, deal_paths

needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
# A 2019 Tenhou log of the corpus with its SHUFFLE seed (one game, four players).
SEEDED = CORPUS / "tsubakisakura-mjlog2json" / "data" / "2019021004gm-00a9-0000-e2f6516d.xml"


def seeded_logs() -> list[Path]:
    """Every Tenhou XML log of the corpus that carries a seed (the SHUFFLE tag or INIT's own)."""
    found = []
    for path in sorted(CORPUS.rglob("*")):
        if path.suffix in {".xml", ".mjlog"} and path.is_file():
            text = path.read_text("utf-8", errors="replace")
            if "<SHUFFLE seed=" in text or re.search(r"<INIT [^>]*shuffle=", text):
                found.append(path)
    return found


@needs_corpus
def test_every_seeded_hand_of_the_corpus_comes_from_its_regenerated_wall() -> None:
    logs = seeded_logs()
    run = deal_paths(logs)
    data = run.as_dict()
    assert data["unreadable"] == [] and data["unchecked"] == []
    assert data["mismatches"] == []
    # 149 logs, over 1,000 hands: four-player and three-player, the 2009 hexadecimal seeds and the
    # per-hand seeds before them included.
    assert data["games"] == len(logs) >= 140
    assert data["hands"] == data["hands_matching"] >= 1000
    assert run.exit_code == 0


@needs_corpus
def test_the_seed_gives_the_first_hand_as_the_log_deals_it() -> None:
    # The numbers of the log itself: its first INIT deals seat 0 the tiles of hai0 and shows dice
    # and indicator in ``seed``; the wall regenerated from SHUFFLE must give exactly those.
    text = SEEDED.read_text("utf-8")
    seed = re.search(r'<SHUFFLE seed="([^"]*)"', text)
    init = re.search(r"<INIT ([^>]*)>", text)
    assert seed and init
    attributes = dict(re.findall(r'(\w+)="([^"]*)"', init.group(1)))
    wall = next(walls(seed.group(1), 4))
    kyoku, _, _, die1, die2, indicator = (int(v) for v in attributes["seed"].split(","))
    assert kyoku == 0 and wall.dice == (die1, die2)
    assert wall.tiles[layout(4).dora[0]] == indicator
    where = layout(4).live
    dealt = [wall.tiles[i] for i in (*where[0:4], *where[16:20], *where[32:36], where[48])]
    assert sorted(dealt) == sorted(int(t) for t in attributes["hai0"].split(","))


def altered(tmp_path: Path, change: str) -> tuple[Path, str, str]:
    """A copy of the seeded log with one tile changed (a draw, a dealt tile or the dora indicator),
    with the hand and the field the change is in, counted from the log's own tags."""
    text = SEEDED.read_text("utf-8")
    if change == "draw":
        # Seat 1's 10th draw of the game becomes a tile of the next kind.
        found = list(re.finditer(r"<U(\d+)/>", text))[9]
        text = text[: found.start()] + f"<U{(int(found.group(1)) + 4) % 136}/>" + text[found.end() :]
    elif change == "dealt":
        found = re.search(r'hai2="(\d+),', text)
        assert found
        text = text[: found.start(1)] + str((int(found.group(1)) + 4) % 136) + text[found.end(1) :]
    else:
        found = re.search(r'<INIT seed="(\d+,\d+,\d+,\d+,\d+,)(\d+)"', text)
        assert found
        text = text[: found.start(2)] + str((int(found.group(2)) + 1) % 136) + text[found.end(2) :]
    before = text[: found.start()]
    init = found.start() if change == "dora" else before.rfind("<INIT ")
    kyoku, counters = re.findall(r"\d+", text[init : init + 40])[:2]
    label = f"{'ESWN'[int(kyoku) // 4]}{int(kyoku) % 4 + 1}-{counters}"
    draws = len(re.findall(r"<[TUVW]\d+/>", before[init:]))
    field = {"draw": f"draw {draws + 1} (seat 1)", "dealt": "dealt to seat 2", "dora": "dora indicator 1"}[change]
    path = tmp_path / "altered.xml"
    path.write_text(text, "utf-8")
    return path, label, field


@needs_corpus
@pytest.mark.parametrize("change", ["draw", "dealt", "dora"])
def test_a_wall_altered_by_one_tile_is_caught(tmp_path: Path, change: str) -> None:
    path, label, field = altered(tmp_path, change)
    run = deal_paths([path])
    data = run.as_dict()
    assert run.exit_code == 1
    assert [(m["hand"], m["field"]) for m in data["mismatches"]] == [(label, field)]
    # Every other hand still matches: the change is found where it is, and only there.
    assert data["hands_matching"] == data["hands"] - 1


@needs_corpus
def test_the_command_reports_the_altered_hand_and_exits_1(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "unused.sqlite")
    clean = honba("verify", "--deal", str(SEEDED))
    assert clean.exit_code == 0, clean.output
    path, label, field = altered(tmp_path, "draw")
    changed = honba("verify", "--deal", "--json", str(path))
    assert changed.exit_code == 1
    data = json.loads(changed.stdout)
    assert [(m["hand"], m["field"]) for m in data["mismatches"]] == [(label, field)]
    table = honba("verify", "--deal", str(path))
    assert "Hands that do not match their wall" in table.stdout and field in table.stdout


def test_a_log_without_a_seed_is_unchecked_never_passed(tmp_path: Path) -> None:
    # A small log written for the test: two hands, no SHUFFLE and no INIT seed.
    log = tmp_path / "noseed.xml"
    hand = '<INIT seed="0,0,0,1,2,6" ten="250,250,250,250" oya="0" hai0="0,1,2,3,4,5,6,7,8,9,10,11,12" '
    hand += 'hai1="13,14,15,16,17,18,19,20,21,22,23,24,25" hai2="26,27,28,29,30,31,32,33,34,35,36,37,38" '
    hand += 'hai3="39,40,41,42,43,44,45,46,47,48,49,50,51"/><T52/><D52/>'
    log.write_text(f'<mjloggm ver="2.3"><GO type="169"/>{hand}{hand}</mjloggm>', "utf-8")
    run = deal_paths([log])
    data = run.as_dict()
    assert data["unchecked"] == [{"file": str(log), "game": "noseed.xml", "hands": 2, "reason": NO_COMMITMENT}]
    assert data["hands_matching"] == 0 and run.exit_code == 1
    result = Honba(tmp_path / "unused.sqlite")("verify", "--deal", str(log))
    assert result.exit_code == 1
    assert "no deal commitment" in result.stdout


def test_a_log_format_without_deals_is_unchecked(tmp_path: Path) -> None:
    log = tmp_path / "game.json"
    log.write_text(
        json.dumps(
            {
                "title": ["", ""],
                "name": ["A", "B", "C", "D"],
                "rule": {"disp": "般南喰赤", "aka": 1},
                "log": [
                    [
                        [0, 0, 0],
                        [25000, 25000, 25000, 25000],
                        [],
                        [],
                        *([[]] * 12),
                        ["流局", [0, 0, 0, 0]],
                    ]
                ],
            }
        ),
        "utf-8",
    )
    run = deal_paths([log])
    assert [r.unchecked for r in run.reports] == [NO_COMMITMENT]


def test_unreadable_seeds_are_named() -> None:
    with pytest.raises(SeedError, match="not base64"):
        seed_words("mt19937ar-sha512-n288-base64,@@@@")
    with pytest.raises(SeedError, match="unknown seed kind"):
        seed_words("xorshift,1234")
    with pytest.raises(SeedError, match="not hexadecimal"):
        hand_wall("mt19937ar,XYZ")
    game = GameDeal(
        "f.xml", "g", "tenhou-xml", 4, (DealtHand("INIT #1", "E1-0", 0, ((),) * 4),), "tenhou-seed", "rot13,x"
    )
    report = check_deal(game)
    assert report.unchecked is not None and "cannot be read" in report.unchecked


def test_a_draw_past_the_dead_wall_is_a_mismatch() -> None:
    # Four-player walls hold four kan draws: a fifth one cannot come from the wall.
    seed = "mt19937ar-sha512-n288-base64," + "AAAAAQ==" * 1
    wall = next(walls(seed, 4))
    where = layout(4)
    dealt: list[list[int]] = [[], [], [], []]
    taken = 0
    for size in (4, 4, 4, 1):
        for seat in range(4):
            dealt[seat] += [wall.tiles[i] for i in where.live[taken : taken + size]]
            taken += size
    draws = tuple(Draw(0, wall.tiles[i], dead=True) for i in (*where.dead_draws, 0))
    hand = DealtHand("INIT #1", "E1-0", 0, tuple(tuple(h) for h in dealt), draws, dice=wall.dice)
    report = check_deal(GameDeal("f.xml", "g", "tenhou-xml", 4, (hand,), "tenhou-seed", seed))
    assert [(m.field, m.wall) for m in report.mismatches] == [("draw 5 (seat 0, dead wall)", "none left")]


def test_rules_have_no_place_in_the_deal_check(tmp_path: Path) -> None:
    line = Honba(tmp_path / "unused.sqlite").refused("verify", "--deal", "--rules", "tenhou", str(tmp_path))
    assert "--deal checks the deals and scores nothing" in line


class CountingPool(ThreadPoolExecutor):
    """A pool that counts the files given to it (threads: the check itself is the same code)."""

    def __init__(self) -> None:
        super().__init__(max_workers=2)
        self.submitted = 0

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        self.submitted += 1
        return super().submit(fn, *args, **kwargs)


@needs_corpus
def test_the_deal_check_runs_in_the_workers_it_is_given() -> None:
    logs = seeded_logs()[:6]
    with CountingPool() as pool:
        pooled = deal_paths(logs, pool=pool)
    assert pool.submitted == len(logs)
    # The same reports in the same order as checked here.
    assert pooled.as_dict() == deal_paths(logs).as_dict()


@needs_corpus
def test_the_command_checks_deals_with_jobs_as_verify_does(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "unused.sqlite")
    logs = [str(p) for p in seeded_logs()[:20]]
    one = honba("verify", "--deal", "--json", "--jobs", "1", *logs)
    two = honba("verify", "--deal", "--json", "--jobs", "2", *logs)
    assert one.exit_code == two.exit_code == 0, two.output
    assert json.loads(two.stdout) == json.loads(one.stdout)
