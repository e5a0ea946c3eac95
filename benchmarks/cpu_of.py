"""The CPU a command costs, its every descendant included: ``python benchmarks/cpu_of.py -- pytest ...``.

``/usr/bin/time`` around ``pytest`` misses Chromium: the browser's processes are Playwright's
driver's children, and pytest does not wait for that driver, so their time is never added to what
``time`` reads. This runs the command as a child subreaper (``PR_SET_CHILD_SUBREAPER``): every
process the command leaves behind is handed to it, it waits for each, and the kernel's count of its
children's CPU then holds them all. Prints one line, ``user system wall`` in seconds (``-o`` writes it
to a file too); exits with the command's status. Linux only. CPU, not wall time, is what compares on
a shared machine; even so a busy machine inflates it (two hyperthreads share a core): compare runs
made one after the other, alternately.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def main() -> int:
    """Run the command, wait for it and everything it started, print their CPU."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", help="also write the line to this file")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command, after --")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command given")
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        parser.error(f"prctl(PR_SET_CHILD_SUBREAPER): {os.strerror(ctypes.get_errno())}")
    started = time.monotonic()
    status = subprocess.call(command)
    while True:  # the orphans handed to this process: Chromium, its driver, servers
        try:
            os.wait()
        except ChildProcessError:
            break
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    line = f"{used.ru_utime:.2f} {used.ru_stime:.2f} {time.monotonic() - started:.2f}"
    print(f"cpu_of: user system wall (s): {line}", file=sys.stderr)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as out:
            out.write(line + "\n")
    return status


if __name__ == "__main__":
    sys.exit(main())
