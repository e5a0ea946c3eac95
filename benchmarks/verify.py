"""``honba verify``'s cost against a plain ElementTree parse of the same files and against riichienv.

    python benchmarks/verify.py [--repeat N] [--rounds R] [--mjai-games G]

Tenhou XML: reads the 633 real Tenhou logs of ``../shared/corpus/tenhou-wire-2018`` (633
distinct games) N times over (1 by default). Baseline, in the same run: reading every file and
parsing it with the standard library's ``xml.etree.ElementTree.fromstring``, every element visited
(its attributes read), and the same with lxml when it is installed (an extra line). Figures:
``replay.service.imports.batch.verify_paths``, what ``honba verify`` runs (read, parse, translate,
replay every hand through the domain's rules, compare), in this one process (``--jobs 1``) and
with one worker process per core (the default). The baseline and the one process are measured
in CPU time (``time.process_time``: the machine is shared, and a neighbour's load stretches the
wall clock, not the CPU a run takes), in R rounds taken in turn (paired), best of each. Then
where the one process's time goes, each part alone on the same files: the cheapest safe read of
what verify needs (the C parser after the DTD and entity check, then only the tags a hand result
needs), honba's reader alone (``read_log``) and the replay alone (``verify_game``).

mjai: G games (40 by default) played by riichienv's engine (a Rust mahjong environment) with a
greedy player, seeded, written as mjai JSON Lines to a temporary directory. Baseline, in the same
run and in turn: riichienv's own replay of each log (``MjaiReplay.from_jsonl``, each hand's
``Kyoku``, every win valued from its tiles: ``take_win_result_contexts``, ``calculate``). Figures:
``verify_paths`` of the same files, CPU per hand; the floor of a reader that visits every event
in Python (every line scanned, each event handed to a function that does nothing); and mjai's
CPU per hand against Tenhou XML's.

Targets (issue 36): verify in one process at least the throughput of the plain parse (ratio
>= 1); mjai within 5x riichienv's CPU per hand; mjai at most Tenhou XML's CPU per hand. (Issue
16: with the workers, at least 1.6x the one process on two cores.)
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

# The riichienv games the tests play too (tests/riichienv_games.py).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
# ``python -P`` (the tree named by PYTHONPATH runs) leaves this script's folder off the path: its
# helpers are found there all the same, after every tree on the path.
sys.path.append(str(Path(__file__).resolve().parent))
from machine import corpus_files, load_average, max_rss_mib, plain_parse, print_machine, timed, verdict
from riichienv_games import riichienv_game

from replay.formats import tenhou_rules, tenhou_xml, yaku
from replay.formats.detect import read_log
from replay.formats.logmodel import LoggedGame
from replay.formats.mjai import _events
from replay.service.imports.batch import VerifyRun, jobs_default, reading_pool, verify_paths
from replay.service.imports.verify import verify_game

T = TypeVar("T")

# The tags a hand result and its comparison need (``replay.formats.tenhou_xml``): the rest of a
# log, nine tags in ten, is draws and discards.
NEEDED = ("GO", "UN", "TAIKYOKU", "INIT", "REACH", "N", "AGARI", "RYUUKYOKU")


def cpu(action: Callable[[], T]) -> tuple[float, T]:
    """The CPU time of one run of ``action`` (this process's, the collector's passes included)."""
    start = time.process_time()
    result = action()
    return time.process_time() - start, result


def cold() -> None:
    """Empty the caches a ``honba verify`` process starts without and fills as it reads (the rules
    of each Tenhou room and dating, the yaku values, the players' names): a round after the first
    would otherwise find every log's rules already built, which one verify of an archive never does
    (a cache keyed on each log's hour missed for half of the 633 logs and hit in every later round)."""
    for module in (tenhou_rules, tenhou_xml, yaku):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


def paired(actions: dict[str, Callable[[], Any]], rounds: int) -> dict[str, tuple[float, Any]]:
    """Each action's best CPU time over ``rounds`` rounds, the actions taken in turn in each round
    (so that a neighbour's load falls on all of them alike), each from cold caches (``cold``), and
    what its last run gave."""
    best: dict[str, tuple[float, Any]] = {}
    for _ in range(rounds):
        for name, action in actions.items():
            cold()
            seconds, result = cpu(action)
            if name not in best or seconds < best[name][0]:
                best[name] = (seconds, result)
    return best


def needed_tags(files: list[Path]) -> int:
    """The cheapest safe read of what verify needs: the text checked for a DTD and entities (as
    honba's reader refuses them), the C parser, then only the needed tags, found by the C
    ``iter(tag)``, each tag's attributes read; the attributes read."""
    seen = 0
    for path in files:
        text = path.read_bytes().decode("utf-8-sig")
        if "<!DOCTYPE" in text or "<!ENTITY" in text:
            raise SystemExit(f"{path}: a DTD or entity in a corpus log")
        parser = ET.XMLParser()
        parser.feed(text)
        root = parser.close()
        for tag in NEEDED:
            for element in root.iter(tag):
                seen += len(element.items())
    return seen


def read_games(files: list[Path]) -> int:
    """honba's reader alone: every game of every file as ``honba verify`` reads it (each let go
    at once, as verify does); the games read."""
    return sum(len(read_log(path)) for path in files)


def replay_only(games: list[LoggedGame]) -> int:
    """The replay alone: each game already read, folded hand by hand with ``domain.progression``
    and compared (``verify_game``); the hands agreeing."""
    return sum(verify_game(game).hands_agreeing for game in games)


def lxml_parse() -> Callable[[list[Path]], int] | None:
    try:
        from lxml import etree
    except ImportError:
        return None
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)

    def parse(files: list[Path]) -> int:
        seen = 0
        for path in files:
            for element in etree.fromstring(path.read_bytes(), parser).iter():
                seen += len(element.attrib) >= 0
        return seen

    return parse


# mjai games from riichienv's engine.


def riichienv_games(count: int, directory: Path) -> list[Path] | None:
    """``count`` four-player hanchan played by riichienv's engine (seeds 0 to count - 1), as mjai
    JSON Lines files; None when riichienv is not installed."""
    if importlib.util.find_spec("riichienv") is None:
        return None
    files = []
    for seed in range(count):
        path = directory / f"riichienv-{seed:04}.jsonl"
        path.write_bytes(riichienv_game("4p-red-half", seed) + b"\n")
        files.append(path)
    return files


def riichienv_replay(files: list[Path]) -> int:
    """riichienv's own replay of mjai logs: each file read (``MjaiReplay.from_jsonl``), each hand
    taken, every win valued from its tiles; the hands."""
    import riichienv

    hands = 0
    for path in files:
        for kyoku in riichienv.MjaiReplay.from_jsonl(str(path)).take_kyokus():
            hands += 1
            for context in kyoku.take_win_result_contexts():
                context.calculate(context.create_calculator())
    return hands


def events_visited(files: list[Path]) -> int:
    """The floor of a reader that visits every mjai event in Python: every line scanned as honba's
    reader scans it (``replay.formats.mjai._events``) and each event handed to a function that
    does nothing; the events."""

    def nothing(event: dict[str, Any]) -> None:
        return None

    handlers = {"tsumo": nothing, "dahai": nothing}
    seen = 0
    for path in files:
        for _line, event in _events(path.read_bytes(), str(path)):
            handlers.get(event["type"], nothing)(event)
            seen += 1
    return seen


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=1, help="read the corpus this many times over")
    parser.add_argument("--rounds", type=int, default=3, help="paired rounds of each CPU measurement")
    parser.add_argument(
        "--mjai-games", type=int, default=40, help="riichienv games for the mjai comparison (0: skip it)"
    )
    args = parser.parse_args()
    print_machine()
    print(f"load average at the start: {load_average(1)}")
    files = corpus_files() * args.repeat
    print(f"input: {len(files)} files ({len(files) // args.repeat} Tenhou logs, distinct games, x {args.repeat})")

    xml = paired({"parse": lambda: plain_parse(files), "verify": lambda: verify_paths(files)}, args.rounds)
    parse_seconds, elements = xml["parse"]
    one_seconds, run = xml["verify"]
    assert isinstance(run, VerifyRun) and not run.unreadable
    parts = paired({"needed": lambda: needed_tags(files), "read": lambda: read_games(files)}, max(1, args.rounds - 1))
    needed_seconds, attributes = parts["needed"]
    read_seconds, _ = parts["read"]
    logged = [game for path in files for game in read_log(path)]
    # The games held for the replay are left out of the collector's passes, as a verify holds none.
    gc.freeze()
    replay_seconds, agreeing = paired({"replay": lambda: replay_only(logged)}, max(1, args.rounds - 1))["replay"]
    gc.unfreeze()
    # Let go before the mjai comparison: 633 games held (a verify holds none) made each of the
    # collector's full passes during it walk some million objects of theirs.
    logged.clear()
    gc.collect()
    jobs = jobs_default()
    with reading_pool(jobs, len(files)) as pool:
        pooled_seconds, pooled = timed(lambda: verify_paths(files, pool=pool), repeat=2)
    one_wall, _ = timed(lambda: verify_paths(files), repeat=1)
    assert pooled == run
    games = len(run.reports)
    problems = sum(1 for r in run.reports if r.disagreements or r.unsupported)
    xml_per_hand = one_seconds / run.hands

    def line(name: str, seconds: float, unit: str = "CPU") -> None:
        print(f"{name:<44} {seconds:6.2f} s {unit:<4} {len(files) / seconds:7.1f} files/s")

    print("Tenhou XML (CPU time, best of paired rounds):")
    line("plain ElementTree parse (baseline)", parse_seconds)
    print(f"  ({elements} elements visited)")
    lxml = lxml_parse()
    if lxml is not None:
        lxml_seconds, _ = paired({"lxml": lambda: lxml(files)}, args.rounds)["lxml"]
        line("lxml parse (for comparison)", lxml_seconds)
    line("honba verify, one process (--jobs 1)", one_seconds)
    print(f"  ({1e6 * xml_per_hand:.0f} us of CPU per hand, {run.hands} hands)")
    print("where one process's time goes (each part alone, same files, CPU):")
    line("  C parse, only the needed tags read", needed_seconds)
    print(f"    ({attributes} attributes of {', '.join(NEEDED)})")
    line("  honba's reader alone (read_log)", read_seconds)
    line("  the replay alone (verify_game)", replay_seconds)
    print(f"    ({agreeing} hands agreeing)")
    print(
        f"  {games} games, {run.hands_agreeing} of {run.hands} hands agree, "
        f"{problems} games with a disagreement or unsupported"
    )
    ratio = parse_seconds / one_seconds
    print(f"verify (one process) throughput / plain parse throughput: {ratio:.2f} (target >= 1: {verdict(ratio >= 1)})")
    print(
        f"  the replay alone is {replay_seconds / parse_seconds:.2f} of the plain parse, honba's reader alone "
        f"{read_seconds / parse_seconds:.2f}"
    )
    if lxml is not None:
        print(f"verify (one process) throughput / lxml parse throughput: {lxml_seconds / one_seconds:.2f}")
    print("with the workers (wall time):")
    line("honba verify, one process (--jobs 1)", one_wall, "wall")
    line(f"honba verify, {jobs} processes (default)", pooled_seconds, "wall")
    scale = one_wall / pooled_seconds
    print(
        f"verify with {jobs} processes / one process: {scale:.2f}x "
        f"(issue 16's target >= 1.6 on two cores: {verdict(scale >= 1.6) if jobs >= 2 else 'one core: not measurable'})"
    )

    with tempfile.TemporaryDirectory() as directory:
        mjai_files = riichienv_games(args.mjai_games, Path(directory))
        if args.mjai_games <= 0:
            print("mjai: skipped (--mjai-games 0)")
        elif mjai_files is None:
            print("mjai: riichienv is not installed: the comparison with it is skipped")
        else:
            mjai = paired(
                {
                    "riichienv": lambda: riichienv_replay(mjai_files),
                    "verify": lambda: verify_paths(mjai_files),
                    "events": lambda: events_visited(mjai_files),
                },
                args.rounds,
            )
            riichienv_seconds, riichienv_hands = mjai["riichienv"]
            mjai_seconds, mjai_run = mjai["verify"]
            events_seconds, events = mjai["events"]
            assert isinstance(mjai_run, VerifyRun) and not mjai_run.unreadable
            assert mjai_run.hands == riichienv_hands, (mjai_run.hands, riichienv_hands)
            per_hand = mjai_seconds / mjai_run.hands
            print(
                f"mjai: {len(mjai_files)} riichienv games, {mjai_run.hands} hands "
                f"({mjai_run.hands_agreeing} agreeing), {events} events (CPU time, best of paired rounds):"
            )
            print(f"  riichienv's replay (baseline)       {1e6 * riichienv_seconds / riichienv_hands:7.0f} us per hand")
            print(f"  honba verify, one process           {1e6 * per_hand:7.0f} us per hand")
            print(f"  every event scanned and visited     {1e6 * events_seconds / mjai_run.hands:7.0f} us per hand")
            within = per_hand / (riichienv_seconds / riichienv_hands)
            print(f"honba verify / riichienv per hand (mjai): {within:.1f}x (target <= 5: {verdict(within <= 5)})")
            versus = per_hand / xml_per_hand
            print(f"mjai / Tenhou XML per hand: {versus:.2f}x (target <= 1: {verdict(versus <= 1)})")
    print(f"load average at the end: {load_average(1)}")
    print(f"process peak RSS {max_rss_mib():.0f} MiB")


if __name__ == "__main__":
    main()
