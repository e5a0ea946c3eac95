"""``honba verify`` throughput against a plain ElementTree parse of the same files.

    python benchmarks/verify.py [--repeat N]

Reads the 633 real Tenhou logs of ``../shared/corpus/tenhou-wire-2018`` (633 distinct games)
N times over (3 by default). Baselines, in the same run: reading every file and parsing it
with the standard library's ``xml.etree.ElementTree.fromstring``, every element visited
(its attributes read), and the same with lxml when it is installed (an extra line). Figures:
``replay.service.imports.batch.verify_paths``, what ``honba verify`` runs (read, parse, translate, replay every
hand through the domain's rules, compare), in this one process (``--jobs 1``) and with one
worker process per core (the default). Then where the one process's time goes, each part
measured alone on the same files: the cheapest safe read of what verify needs (the C parser
after the DTD and entity check, then only the tags a hand result needs, found by the C
``iter(tag)``), honba's reader alone (``read_log``) and the replay alone (the games already
read, through ``verify_game``: ``domain.progression`` and the comparison); the first and the
last together are the floor of a verify in one process. Targets (issue 16): verify in one process at least the
throughput of the plain parse (ratio >= 1); with the workers, at least 1.6x the one process on
two cores.
"""

from __future__ import annotations

import argparse
import gc
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

from machine import corpus_files, max_rss_mib, plain_parse, print_machine, timed, verdict

from replay.formats.detect import read_log
from replay.formats.logmodel import LoggedGame
from replay.service.imports.batch import VerifyRun, jobs_default, reading_pool, verify_paths
from replay.service.imports.verify import verify_game

# The tags a hand result and its comparison need (``replay.formats.tenhou_xml``): the rest of a
# log, nine tags in ten, is draws and discards.
NEEDED = ("GO", "UN", "TAIKYOKU", "INIT", "REACH", "N", "AGARI", "RYUUKYOKU")


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="read the corpus this many times over")
    args = parser.parse_args()
    print_machine()
    files = corpus_files() * args.repeat
    print(f"input: {len(files)} files ({len(files) // args.repeat} Tenhou logs, distinct games, x {args.repeat})")

    parse_seconds, elements = timed(lambda: plain_parse(files), repeat=2)
    needed_seconds, attributes = timed(lambda: needed_tags(files), repeat=2)
    read_seconds, _ = timed(lambda: read_games(files), repeat=2)
    logged = [game for path in files for game in read_log(path)]
    # The games held for the replay are left out of the collector's passes, as a verify holds none.
    gc.freeze()
    replay_seconds, agreeing = timed(lambda: replay_only(logged), repeat=2)
    gc.unfreeze()
    one_seconds, run = timed(lambda: verify_paths(files), repeat=2)
    assert isinstance(run, VerifyRun)
    jobs = jobs_default()
    with reading_pool(jobs, len(files)) as pool:
        pooled_seconds, pooled = timed(lambda: verify_paths(files, pool=pool), repeat=2)
    assert pooled == run and not run.unreadable
    games = len(run.reports)
    problems = sum(1 for r in run.reports if r.disagreements or r.unsupported)

    def line(name: str, seconds: float) -> None:
        print(f"{name:<40} {seconds:6.2f} s  {len(files) / seconds:7.1f} files/s")

    line("plain ElementTree parse (baseline)", parse_seconds)
    print(f"  ({elements} elements visited)")
    lxml = lxml_parse()
    if lxml is not None:
        lxml_seconds, _ = timed(lambda: lxml(files), repeat=2)
        line("lxml parse (for comparison)", lxml_seconds)
    line("honba verify, one process (--jobs 1)", one_seconds)
    line(f"honba verify, {jobs} processes (default)", pooled_seconds)
    print("where one process's time goes (each part alone, same files):")
    line("  C parse, only the needed tags read", needed_seconds)
    print(f"    ({attributes} attributes of {', '.join(NEEDED)})")
    line("  honba's reader alone (read_log)", read_seconds)
    line("  the replay alone (verify_game)", replay_seconds)
    print(f"    ({len(logged)} games already read, {agreeing} hands agreeing)")
    print(
        f"  {games} games, {run.hands_agreeing} of {run.hands} hands agree, "
        f"{problems} games with a disagreement or unsupported"
    )
    ratio = parse_seconds / one_seconds
    print(f"verify (one process) throughput / plain parse throughput: {ratio:.2f} (target >= 1: {verdict(ratio >= 1)})")
    floor = parse_seconds / (needed_seconds + replay_seconds)
    print(
        f"  the floor: needed tags + replay alone = {needed_seconds + replay_seconds:.2f} s, "
        f"{floor:.2f} of the plain parse's throughput"
        + (" (the replay alone takes longer than the plain parse)" if replay_seconds > parse_seconds else "")
    )
    if lxml is not None:
        print(f"verify (one process) throughput / lxml parse throughput: {lxml_seconds / one_seconds:.2f}")
    scale = one_seconds / pooled_seconds
    print(
        f"verify with {jobs} processes / one process: {scale:.2f}x "
        f"(target >= 1.6 on two cores: {verdict(scale >= 1.6) if jobs >= 2 else 'one core: not measurable'})"
    )
    print(f"verify with {jobs} processes / plain parse: {parse_seconds / pooled_seconds:.2f}")
    print(f"process peak RSS {max_rss_mib():.0f} MiB")


if __name__ == "__main__":
    main()
