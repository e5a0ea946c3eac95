"""Verify throughput (games/s, hands/s) against parsing the same files without replaying them.

    python benchmarks/verify.py [--repeat N]

Reads the 633 real Tenhou logs of ``../shared/corpus/tenhou-wire-2018`` N times over (3 by
default: several seconds each way). The baseline is the floor any replay pays: reading and
parsing every file (``read_log``). The figure is ``honba verify``'s own work
(``replay.batch.verify_paths``): the same parsing, then every hand replayed through the
domain's Match and compared with the log. Target: verify at least half the throughput of
parsing alone. Peak memory of each, measured in a separate pass (tracemalloc slows Python).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from machine import corpus_files, max_rss_mib, mib, peak_python_memory, print_machine, timed, verdict

from replay.batch import VerifyRun, verify_paths
from replay.formats.detect import read_log


def parse_only(files: list[Path]) -> tuple[int, int]:
    games = hands = 0
    for path in files:
        for game in read_log(path):
            games += 1
            hands += sum(1 for hand in game.hands if hand.result is not None)
    return games, hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=3, help="read the corpus this many times over")
    args = parser.parse_args()
    print_machine()
    files = corpus_files() * args.repeat
    print(f"input: {len(files)} files ({len(files) // args.repeat} Tenhou logs x {args.repeat})")

    parse_seconds, (games, hands) = timed(lambda: parse_only(files))
    verify_seconds, run = timed(lambda: verify_paths(files))
    assert isinstance(run, VerifyRun)
    assert len(run.reports) == games and not run.unreadable
    problems = sum(1 for r in run.reports if r.disagreements or r.unsupported)

    print(
        f"parse only (baseline): {parse_seconds:6.2f} s  {games / parse_seconds:7.1f} games/s  "
        f"{hands / parse_seconds:8.1f} hands/s"
    )
    print(
        f"verify:                {verify_seconds:6.2f} s  {games / verify_seconds:7.1f} games/s  "
        f"{run.hands / verify_seconds:8.1f} hands/s  ({run.hands_agreeing} of {run.hands} hands agree, "
        f"{problems} games with a disagreement or unsupported)"
    )
    ratio = parse_seconds / verify_seconds
    print(f"verify throughput / parse throughput: {ratio:.2f} (target >= 0.50: {verdict(ratio >= 0.5)})")

    one = corpus_files()
    with peak_python_memory() as parse_peak:
        parse_only(one)
    with peak_python_memory() as verify_peak:
        verify_paths(one)
    print(
        f"peak Python memory over {len(one)} files: parse {mib(parse_peak[0])}, verify {mib(verify_peak[0])}; "
        f"process peak RSS {max_rss_mib():.0f} MiB"
    )


if __name__ == "__main__":
    main()
