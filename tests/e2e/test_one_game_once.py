"""One game, stored once: a game's identity is its content, not its file's name.

Real files of the corpus: mjx's ``tests_cpp/**/encdec-*.mjlog`` repeat games of its
``tests_py`` under other names (corpus README); ``2011020401gm-00a9-0000-f6eff225`` comes
whole and as two excerpts cut by mjx (``-no-game-end``, ``-no-round-end``); the Equim and
hidacow folders each hold a different game named ``chankan.json``. The distinct games are
counted here from the logs themselves (players, every hand's header, the final result),
not from honba.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from conftest import CORPUS
from honba_cli import ok

from replay.store.application import HonbaApp

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")
MJX = CORPUS / "mjx-project-mjx"
FULL = "2011020401gm-00a9-0000-f6eff225"


def corpus_file(name: str) -> Path:
    found = sorted(CORPUS.rglob(name))
    if not found:
        pytest.skip(f"{name} is not in the shared corpus here")
    return found[0]


def keys(db: Path) -> list[str]:
    app = HonbaApp.open(str(db))
    return sorted(m.key for m in app.list_matches())


def the_game(path: Path) -> tuple[str, ...]:
    """What a log says its game is: names, every hand's header, and its end."""
    text = path.read_text(encoding="utf-8")
    names = re.search(r"<UN [^>]*>", text)
    inits = re.findall(r'<INIT seed="([^"]*)" ten="([^"]*)"', text)
    ends = re.findall(r'owari="([^"]*)"', text)
    return (names.group(0) if names else "", *(f"{s}|{t}" for s, t in inits), *ends)


def test_the_same_game_under_two_file_names_is_stored_once(tmp_path: Path) -> None:
    # encdec-chanta.mjlog is mjx's copy of 2020080212gm-00a9-0000-82c7d512.mjlog.
    dated = corpus_file("2020080212gm-00a9-0000-82c7d512.mjlog")
    copy = corpus_file("encdec-chanta.mjlog")
    assert the_game(dated) == the_game(copy)
    db = tmp_path / "honba.sqlite"
    out = ok(db, "import", str(copy), str(dated))
    said = " ".join(out.split())
    assert "1 stored, 1 already present" in said
    # encdec-chanta.mjlog names no log id: its key is its name and its content's digest.
    (key,) = keys(db)
    assert re.fullmatch(r"encdec-chanta-[0-9a-f]{12}", key)
    assert f"is the game already stored as '{key}': stored once" in said


def test_a_full_game_completes_its_stored_excerpt_without_erasing_it(tmp_path: Path) -> None:
    excerpt = corpus_file(f"{FULL}-no-round-end.mjlog")
    full = corpus_file(f"{FULL}.mjlog")
    db = tmp_path / "honba.sqlite"
    ok(db, "import", str(excerpt))
    before = HonbaApp.open(str(db)).get_match(FULL)
    assert not before.state.finished
    ok(db, "import", str(full))
    after = HonbaApp.open(str(db)).get_match(FULL)
    assert after.state.finished
    # The hands of the full game, 8 INIT tags in the log, each with its result.
    assert len(re.findall(r"<INIT ", full.read_text(encoding="utf-8"))) == 8
    assert len(after.effective_facts()) > len(before.effective_facts())
    # Completed, not replaced: the excerpt's events are still the first ones, unchanged.
    app = HonbaApp.open(str(db))
    stored = list(app.events.get(after.id))
    assert [e.originator_version for e in stored[: before.version]] == list(range(1, before.version + 1))
    ok(db, "check")


def test_an_excerpt_after_its_full_game_stores_nothing(tmp_path: Path) -> None:
    db = tmp_path / "honba.sqlite"
    ok(db, "import", str(corpus_file(f"{FULL}.mjlog")))
    out = ok(db, "import", str(corpus_file(f"{FULL}-no-round-end.mjlog")))
    assert "0 stored, 1 already present" in out
    assert keys(db) == [FULL]


def test_two_games_whose_files_share_a_name_are_two_keys(tmp_path: Path) -> None:
    # Issue 34: importing the corpus into a fresh store exited 2, both games keyed ``chankan``.
    # Neither log names an id: each is keyed by its name and its content.
    four = CORPUS / "equim-chan-mjai-reviewer" / "convlog" / "tests" / "testdata" / "chankan.json"
    three = CORPUS / "hidacow-mjai-reviewer3p" / "convlog" / "tests" / "testdata" / "chankan.json"
    if not (four.is_file() and three.is_file()):
        pytest.skip("the two chankan.json files are not in the shared corpus here")
    db = tmp_path / "honba.sqlite"
    ok(db, "import", str(four))
    ok(db, "import", str(three))
    stored = keys(db)
    assert len(stored) == 2 and all(re.fullmatch(r"chankan-[0-9a-f]{12}", key) for key in stored)
    # Imported again, each is the game stored already: no third key.
    ok(db, "import", str(four), str(three))
    assert keys(db) == stored
    ok(db, "import", str(three), "--key-prefix", "hidacow-")
    assert len(keys(db)) == 2


def test_import_warns_about_what_verify_would_flag(tmp_path: Path) -> None:
    # kokushi_peinuki.json: the conversion leaves a deposit out of the winner's change (corpus README).
    out = ok(tmp_path / "honba.sqlite", "import", str(corpus_file("kokushi_peinuki.json")))
    assert "warning: " in out
    assert "E3-0: score changes: the log has [-49000, 0, 48000], honba [-49000, 0, 49000]" in out


def test_the_mjx_games_are_each_stored_and_counted_once_in_a_tournament(tmp_path: Path) -> None:
    complete = [p for p in sorted(MJX.rglob("*.mjlog")) if "owari=" in p.read_text(encoding="utf-8")]
    complete = [p for p in complete if "upd-" not in p.name]  # the cut updates are excerpts of their own
    distinct = {the_game(p) for p in complete}
    assert len(complete) > len(distinct)  # the corpus holds copies
    folder = tmp_path / "mjx"
    folder.mkdir()
    for i, path in enumerate(complete):
        # Every file in one folder (some names repeat across mjx's folders), its name kept after a number.
        shutil.copyfile(path, folder / f"{i:03d}-{path.name}")
    db = tmp_path / "honba.sqlite"
    out = ok(db, "import", str(folder), "--tournament", "mjx", "--jobs", "1")
    assert len(keys(db)) == len(distinct)
    assert f"{len(distinct)} matches count for tournament 'mjx' in session 1" in out
