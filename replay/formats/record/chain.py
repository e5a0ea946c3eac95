"""A record file's chain: the lines it holds (``record_lines``), each naming the digest of the one
before, and the seal line (``chain_lines``); ``check_record_text`` finds any line edited, removed,
moved or added since honba wrote the file (``docs/audit.md``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from domain.integrity import GENESIS, ChainProblem, Link, check_chain, digest_of
from replay.input.json_text import load_line

# How deep a record line's arrays and objects may nest: a line needs a handful of levels;
# a deeper one (a ``source`` nested hundreds deep) would exhaust the stack further on.


def record_lines(text: str) -> list[str]:
    """A record file's lines, exactly as the file holds them: split on newlines only (a
    ``\\r`` before one is dropped), blank lines kept, no line for the newline ending the file.

    Only ``\\n`` ends a line: the other characters ``str.splitlines`` breaks on (U+2028,
    U+0085, form feed) may stand inside a name or a note, and must not move a line.
    """
    text = text.removeprefix("\ufeff")  # a BOM some editors write before the first line
    lines = [line.removesuffix("\r") for line in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def chain_lines(lines: Sequence[Mapping[str, Any]], *, damage: str | None = None) -> list[dict[str, Any]]:
    """The lines with the chain: each names the digest of the one before; then the seal line.

    ``damage`` (what did not check in the store, when there is any) is written in the first line,
    under the chain: the next line's ``prior`` and the seal's head cover it, so that removing it
    is an edit the chain shows."""
    chained: list[dict[str, Any]] = []
    prior = GENESIS
    for number, line in enumerate(lines):
        linked = {**line, "prior": prior}
        if number == 0 and damage is not None:
            linked["damaged"] = damage
        chained.append(linked)
        prior = digest_of(linked)
    chained.append({"type": "seal", "lines": len(chained), "head": prior})
    return chained


def check_record_text(text: str, *, name: str) -> FileCheck:
    """Check a record file's chain: every line names the digest of the line before, and the
    seal line counts the lines and names the head digest. A file without any chain (written by
    hand) has nothing to check. Problems are named by their line in the file."""
    lines: list[dict[str, Any] | None] = []
    numbers: list[int] = []  # the file line of each non-blank line
    unreadable: dict[int, str] = {}
    problems: list[ChainProblem] = []
    blank: list[int] = []
    for number, raw in enumerate(record_lines(text), start=1):
        if not raw.strip():
            blank.append(number)
            continue
        try:
            data = load_line(raw)
        except json.JSONDecodeError as exc:
            data, unreadable[len(lines) + 1] = None, f"not JSON ({exc.msg})"
        else:
            if not isinstance(data, dict):
                # (``null`` included: every line that is not an object is named as such)
                data, unreadable[len(lines) + 1] = None, "not a JSON object"
        lines.append(data)
        numbers.append(number)
    seal = lines.pop() if lines and lines[-1] is not None and lines[-1].get("type") == "seal" else None
    if seal is None and not any(line is not None and "prior" in line for line in lines):
        # Nothing to check is no evidence that nothing changed: the check says it could not be made.
        why = "the file carries no chain (no 'prior' fields, no seal line): it could not be checked"
        return FileCheck(name, len(lines), GENESIS, (ChainProblem(0, "unchained", why),), chained=False)
    links: list[Link] = []
    for i, line in enumerate(lines, start=1):
        if line is None:
            # An unreadable line is taken to follow the line before it, so that only it is named.
            problems.append(ChainProblem(i, "altered", unreadable[i]))
            links.append(Link(i, f"unreadable-{i}", links[-1].digest if links else GENESIS))
        else:
            links.append(Link(i, digest_of(line), str(line.get("prior", ""))))
    sealed = None
    if seal is None:
        problems.append(ChainProblem(len(lines), "unsealed", "the seal line at the end is missing"))
    else:
        count, head = seal.get("lines"), seal.get("head")
        sealed = (count if isinstance(count, int) else 0, head if isinstance(head, str) else "")
    problems += check_chain(links, sealed=sealed, noun="line")
    # The damage a forced export recorded: in its first line (under the chain), or in the seal line
    # of a file written before it moved there.
    first = lines[0] if lines else None
    for where, line in ((1, first), (len(lines) + 1, seal)):
        if line is not None and "damaged" in line:
            detail = f"exported with --force from a store where the match did not check: {line['damaged']}"
            problems.append(ChainProblem(where, "damaged", detail))

    def in_file(position: int) -> int:
        return numbers[position - 1] if 1 <= position <= len(numbers) else position

    found: dict[tuple[int, str], ChainProblem] = {}
    # The chain covers the file's exact lines: a blank line honba did not write is one added.
    for number in blank:
        found[(number, "inserted")] = ChainProblem(number, "inserted", "a blank line the chain does not include")
    for problem in problems:
        found.setdefault(
            (in_file(problem.position), problem.kind), attrs.evolve(problem, position=in_file(problem.position))
        )
    head = links[-1].digest if links else GENESIS
    problems = sorted(found.values(), key=lambda p: p.position)
    return FileCheck(
        name, len(lines), head, tuple(problems), chained=True, digests=tuple(link.digest for link in links)
    )


@attrs.frozen
class FileCheck:
    """The integrity of a record file: its lines, head digest and the problems found."""

    name: str
    lines: int
    head: str
    problems: tuple[ChainProblem, ...]
    chained: bool = True
    # The digest of every line, in order: a published head digest is looked for among them.
    digests: tuple[str, ...] = ()
