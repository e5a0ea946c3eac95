"""``honba verify`` throughput against a plain ElementTree parse of the same files.

    python benchmarks/verify.py [--repeat N]

Reads the 633 real Tenhou logs of ``../shared/corpus/tenhou-wire-2018`` (633 distinct games)
N times over (3 by default). Baselines, in the same run: reading every file and parsing it
with the standard library's ``xml.etree.ElementTree.fromstring``, every element visited
(its attributes read), and the same with lxml when it is installed (an extra line). Figures:
``replay.batch.verify_paths``, what ``honba verify`` runs (read, parse, translate, replay every
hand through the domain's rules, compare), in this one process (``--jobs 1``) and with one
worker process per core (the default). Targets (issue 16): verify in one process at least the
throughput of the plain parse (ratio >= 1); with the workers, at least 1.6x the one process on
two cores.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from machine import corpus_files, max_rss_mib, plain_parse, print_machine, timed, verdict

from replay.batch import VerifyRun, jobs_default, reading_pool, verify_paths


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
    print(
        f"  {games} games, {run.hands_agreeing} of {run.hands} hands agree, "
        f"{problems} games with a disagreement or unsupported"
    )
    ratio = parse_seconds / one_seconds
    print(f"verify (one process) throughput / plain parse throughput: {ratio:.2f} (target >= 1: {verdict(ratio >= 1)})")
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
