"""The instructions of an import's reading worker's job: ``read_for_import`` of the corpus's first Tenhou logs.

    python -P benchmarks/worker_instructions.py [--logs 150] [--also TREE] [--reader|--read|--storing|--prepare|
        --building]

Each count is one process under ``valgrind --tool=cachegrind --cache-sim=no`` with ``PYTHONHASHSEED=0``
(the load does not change it): the readers imported as a worker has them (``preload``), one log read
first (caches and first uses), then the logs read, built and encoded with the standings view's
documents, the cycle collector paused as the import pauses it. The same process with no log after the
first is counted too and taken off: the figure is the job's alone. ``--also TREE``: the same for another
checkout (a copy of main, its bytecode compiled), and the ratio. Used for issue 36's fifteenth round.
``--reader``: the hands' reader alone (``read_plain_pieces`` of the tags the walk matched, as a fresh
worker reads them: its caches empty), its sixteenth round's. ``--storing``: the storing process beside two
reading workers (``import_paths`` of the logs into a fresh SQLite store, as ``honba import`` runs it:
unpickling the workers' results, the lookups, the inserts, the view's rows, the files' records), less the
same process with its workers started and given nothing; valgrind follows no child, so the workers' own
work is not counted (their hand-over is, on this side). Its nineteenth round's. ``--prepare``: encoding
the matches and their standings documents alone (``storing.prepare(match, mapper, from_log=True,
view=True)`` of each match, file by file as a worker builds them), less the same process building them
without it. Its twenty-first round's. ``--building``: building
the matches alone (``match_from_log`` of each game of the logs after the first, read beforehand as an import
reads them, the collector paused), less the same process without it: its twenty-first round's. ``--read``: the
whole reader an import runs (``read_games(data, tiles=True)`` of each log after the first: the walk over
the text, the tiles and the hands' reader), less the same process with the files read alone: its
twenty-fourth round's. ``--collector-paused``: the job with the cycle collector paused from its first log
on (the import pauses it per file, and the collection that starts when it resumes falls at another place
after a change elsewhere: the same code counted 1,715.8 and 1,731.3 M in two builds of one round); the
twenty-fourth round's measure.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

# ``python -P`` leaves this script's folder off the path: its helpers are found there all the same.
sys.path.append(str(Path(__file__).resolve().parent))

from machine import CORPUS, REPO, counted_instructions

JOB = """
import sys
from pathlib import Path
from replay.service.imports.batch import read_for_import
import replay.service.imports.preload  # noqa: F401  (what a reading worker has loaded)
every = sorted(Path(sys.argv[1]).glob("*.mjlog"))
read_for_import(every[0], "auto", {})
if len(sys.argv) > 3:
    import gc

    gc.disable()  # ``--collector-paused``
for path in every[: int(sys.argv[2])]:
    read_for_import(path, "auto", {})
"""
# ``--reader``: the hands' reader alone (``read_plain_pieces``) of the pieces the import's walk matched, the
# walk done first; the passes (``argv[3]``: 0 or 1) each as a fresh worker's, the readers' caches empty.
READER = """
import sys
from pathlib import Path
from replay.formats import tenhou_xml, yaku
from replay.formats.source import unpack
from replay.formats.tenhou_xml_tiles import plain_tags
every = sorted(Path(sys.argv[1]).glob("*.mjlog"))[: int(sys.argv[2])]
found = [(str(p), plain_tags(unpack(p.read_bytes(), file=str(p)).decode("utf-8-sig"))) for p in every]
pieces = [(file, got) for file, got in found if got is not None]
caches = [getattr(m, n) for m in (tenhou_xml, yaku) for n in dir(m) if hasattr(getattr(m, n), "cache_clear")]
def read():
    for file, (tiles, tags, played) in pieces:
        tenhou_xml.read_plain_pieces(tags, played, file=file, tiles=tiles)
read()
for _ in range(int(sys.argv[3])):
    for cache in caches:
        cache.cache_clear()
    read()
"""

# ``--read``: the logs' content read first, then (``argv[3]``: 1) each read as an import reads it
# (``read_games`` with its tiles): the whole reader, the walk over the text and the hands' reader.
READ = """
import sys
from pathlib import Path
import replay.service.imports.preload  # noqa: F401  (what a reading worker has loaded)
from replay.formats.detect import read_games
from replay.formats.source import read_source
every = sorted(Path(sys.argv[1]).glob("*.mjlog"))[: int(sys.argv[2])]
contents = [(read_source(path), str(path)) for path in every]
read_games(contents[0][0], file=contents[0][1], tiles=True)
if sys.argv[3] == "1":
    for data, file in contents[1:]:
        read_games(data, file=file, tiles=True)
"""

# ``--building``: the games of the logs read as an import reads them (with their tiles, their rules
# settled), then, with ``argv[3]`` 1, each built as a match (``match_from_log``): the building stage alone.
BUILDING = """
import gc
import sys
from pathlib import Path
import replay.service.imports.preload  # noqa: F401  (what a reading worker has loaded)
from replay.formats.detect import read_games
from replay.formats.source import read_source
from replay.service.imports.batch import ruled
from replay.service.imports.importing import match_from_log
gc.disable()
every = sorted(Path(sys.argv[1]).glob("*.mjlog"))[: int(sys.argv[2])]
def read(path):
    return [ruled(game, None) for game in read_games(read_source(path), file=str(path), tiles=True)]
for game in read(every[0]):
    match_from_log(game)
files = [read(path) for path in every[1:]]
if sys.argv[3] == "1":
    for games in files:
        for game in games:
            match_from_log(game)
"""

# ``--storing``: the storing process of an import with two reading workers (``argv[3]``: a fresh SQLite
# file); with no log, the pool started alone (its fork server and workers, as before an import's first file).
STORING = """
import sys
from pathlib import Path
from replay.service.imports.batch import import_paths, reading_pool
from replay.store.application import HonbaApp
every = sorted(Path(sys.argv[1]).glob("*.mjlog"))[: int(sys.argv[2])]
with reading_pool(2, 1000):
    pass
app = HonbaApp.open(sys.argv[3])
with reading_pool(2, 1000, on_demand=True) as pool:
    if every:
        run = import_paths(app, every, pool=pool)
        assert run.stored == len(every), run
    else:
        pool.submit(len, "").result()
app.close()
"""


# ``--prepare``: the logs' games built file by file as a reading worker builds them, then (``argv[3]``:
# "prepare") each encoded with its standings documents, or ("build") not.
PREPARE = """
import gc
import sys
from pathlib import Path
from replay.service.imports.batch import _matches_in, mapper_for
from replay.service.imports.storing import prepare
import replay.service.imports.preload  # noqa: F401  (what a reading worker has loaded)
every = sorted(Path(sys.argv[1]).glob("*.mjlog"))
gc.disable()
mapper = mapper_for({})
def one(path, encode):
    built, from_log = _matches_in(path, "auto", [], "", [], None)
    for match in built if encode else ():
        prepare(match, mapper, from_log=from_log, view=True)
one(every[0], True)
for path in every[: int(sys.argv[2])]:
    one(path, sys.argv[3] == "prepare")
"""


def preparing(tree: Path, logs: int) -> int:
    """The instructions of encoding ``logs`` logs' matches with their standings documents (``prepare``)."""
    counts = [
        counted_instructions(tree, [PREPARE, str(CORPUS), str(logs), stage], "prepare")
        for stage in ("prepare", "build")
    ]
    return counts[0] - counts[1]


def storing(tree: Path, logs: int) -> int:
    """The storing process's own instructions for ``logs`` logs imported with two reading workers."""
    counts = []
    # Each in a fresh folder: the store and the view's file beside it (``honba.views.sqlite``) both new.
    for count in (logs, 0):
        with tempfile.TemporaryDirectory() as work:
            db = str(Path(work) / "honba.sqlite")
            counts.append(counted_instructions(tree, [STORING, str(CORPUS), str(count), db], "the import"))
    return counts[0] - counts[1]


def instructions(tree: Path, logs: int, reader: int | None = None, paused: bool = False) -> int:
    """The instructions (``Ir``) of one process reading ``logs`` logs with ``tree``'s honba (``reader``:
    the hands' reader alone, its passes over the logs after the first; ``paused``: the job's cycle
    collector paused from its first log on)."""
    script, more = (JOB, ["paused"] if paused else []) if reader is None else (READER, [str(reader)])
    return counted_instructions(tree, [script, str(CORPUS), str(logs), *more], "the job")


def building(tree: Path, logs: int) -> int:
    """The building stage's own instructions: the logs after the first built as matches, less reading them."""
    built, read = (counted_instructions(tree, [BUILDING, str(CORPUS), str(logs), b], "the building") for b in "10")
    return built - read


def reading(tree: Path, logs: int) -> int:
    """The whole reader's own instructions: the logs after the first read as an import reads them
    (``read_games`` with tiles), less the same process reading their files alone."""
    read, loaded = (counted_instructions(tree, [READ, str(CORPUS), str(logs), r], "the reading") for r in "10")
    return read - loaded


def job(tree: Path, logs: int, reader: bool = False, paused: bool = False) -> int:
    """The job's own instructions: ``logs`` logs, less the same process with none after the first
    (``reader``: one pass of the hands' reader over them, less the process without it; ``paused``: the
    collector paused, so that when a collection falls does not move the count)."""
    if reader:
        return instructions(tree, logs, 1) - instructions(tree, logs, 0)
    return instructions(tree, logs, paused=paused) - instructions(tree, 0, paused=paused)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--logs", type=int, default=150, help="how many of the corpus's Tenhou logs")
    parser.add_argument("--also", type=Path, help="another checkout to count, and the ratio to it")
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--reader", action="store_true", help="the hands' reader alone (read_plain_pieces)")
    group.add_argument("--storing", action="store_true", help="the storing process beside two reading workers")
    group.add_argument("--prepare", action="store_true", help="encoding the matches and their documents alone")
    group.add_argument("--read", action="store_true", help="the whole reader alone (read_games with tiles)")
    group.add_argument("--building", action="store_true", help="building the matches alone (match_from_log)")
    parser.add_argument(
        "--collector-paused",
        action="store_true",
        help="the job's cycle collector paused (a change that moves when a collection falls moves the "
        "count by up to 20 M either way, whatever it does: issue 36, twenty-fourth round)",
    )
    args = parser.parse_args()
    if not CORPUS.is_dir():
        raise SystemExit(f"the shared corpus is not at {CORPUS}")

    def count(tree: Path) -> int:
        if args.prepare:
            return preparing(tree, args.logs)
        if args.building:
            return building(tree, args.logs)
        if args.read:
            return reading(tree, args.logs)
        return storing(tree, args.logs) if args.storing else job(tree, args.logs, args.reader, args.collector_paused)

    mine = count(REPO)
    print(f"{REPO}: {mine / 1e6:,.1f} M instructions for {args.logs} logs")
    if args.also is not None:
        other = count(args.also.resolve())
        print(f"{args.also}: {other / 1e6:,.1f} M instructions")
        print(f"this tree / {args.also}: {mine / other:.4f}")


if __name__ == "__main__":
    main()
