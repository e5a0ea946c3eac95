"""The walk-throughs of the README and the docs run as written (issue 22: "the README's walk-through
runs as written (a test runs its command blocks)").

Every ```` ```sh ```` block of a document is read line by line and run in order against a store of its
own (``HONBA_DB`` in a temporary directory), the ``honba`` lines in this process (Typer's runner), from
a working directory where ``docs/`` is this repository's and ``../shared`` the shared corpus, as the
README's commands expect of a clone. Each line must exit as the document says: 0, unless its comment
says ``exit 1`` or ``exit 2``. What is stated, not hidden:

- paths under ``/tmp/`` are taken under the test's temporary directory (the suite runs in parallel);
- a ``honba check ... --against DIGEST`` stands for the digest the walk-through printed before for that target (the
  file's head digest ``honba export`` printed for a file, the match head digest a command printed
  for a key, the store head digest for the whole store): the documented flow must print the right
  one before it is used, and the check must pass against it (a signed checkpoint's file given to
  ``--against`` is checked as it is);
- lines that cannot run here are skipped with the reason: ``pip install`` and ``venv`` (this suite
  runs the installed honba), ``honba serve`` (a server that runs until stopped: tests/e2e/test_web.py
  starts one) and ``honba witness`` (it fetches from one: tests/e2e/test_proofs.py runs both), a PostgreSQL
  server at an example address (tests/e2e/test_postgres.py runs a real one),
  and, where ``../shared/corpus`` is absent, the lines that read it and those that use what they
  stored.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

import attrs
import pytest
from conftest import CORPUS, REPO
from honba_cli import invoke

# The walk-throughs, each in a store of its own, after the walk-through it builds on: audit.md's
# match club-7 is the one record-format.md records and corrects, as audit.md says.
WALKTHROUGHS = {"README.md": (), "docs/record-format.md": (), "docs/audit.md": ("docs/record-format.md",)}


@attrs.frozen
class Line:
    """One command of a document: where it is, its text, the comment after it, the exit it expects;
    or a file the document shows (a ``toml`` block whose first line is ``# NAME``), to be written."""

    doc: str
    number: int
    command: str
    comment: str
    content: str | None = None

    @property
    def expected(self) -> int:
        found = re.search(r"\bexit (\d)\b", self.comment)
        return int(found.group(1)) if found else 0

    def __str__(self) -> str:
        return f"{self.doc}:{self.number}: {self.command}"


def split_comment(text: str) -> tuple[str, str]:
    """A shell line and its comment: the first ``#`` outside quotes after a blank."""
    quote = ""
    for i, char in enumerate(text):
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "#" and (i == 0 or text[i - 1].isspace()):
            return text[:i].strip(), text[i + 1 :].strip()
    return text.strip(), ""


def walkthrough(doc: str) -> list[Line]:
    """The commands of a document's ``sh`` blocks, in order (continued lines joined), and the files
    its ``toml`` blocks show under their names."""
    lines: list[Line] = []
    inside = False
    shown: list[str] | None = None
    pending = ""
    start = 0
    for number, raw in enumerate((REPO / doc).read_text(encoding="utf-8").splitlines(), start=1):
        if shown is not None:
            if raw.strip() == "```":
                name = shown[0].lstrip("#").strip()
                lines.append(Line(doc, start, f"(the file {name})", "", "\n".join(shown[1:]) + "\n"))
                shown = None
            else:
                shown.append(raw)
            continue
        if raw.strip().startswith("```"):
            inside = raw.strip() == "```sh"
            if raw.strip() == "```toml":
                shown, start = [], number + 1
            continue
        if not inside:
            continue
        if not pending:
            start = number
        if raw.rstrip().endswith("\\"):
            pending += raw.rstrip()[:-1] + " "
            continue
        command, comment = split_comment(pending + raw)
        pending = ""
        if command:
            lines.append(Line(doc, start, command, comment))
    return lines


def skipped(line: Line, corpus: bool, unavailable: set[str]) -> str | None:
    """Why a line is not run here, or None."""
    if line.content is not None:
        return None
    words = shlex.split(line.command)
    if words[0] in ("python3", "pip") or "pip install" in line.command:
        return "installs honba; this suite runs the installed honba"
    if "serve" in words[:4] and words[0] == "honba":
        return "starts a server that runs until stopped (tests/e2e/test_web.py starts one)"
    if words[:2] == ["honba", "witness"]:
        return "co-signs what a running honba serve publishes (tests/e2e/test_proofs.py runs both)"
    if "postgresql://" in line.command and ("db.example" in line.command or "@host" in line.command):
        return "names a PostgreSQL server at an example address (tests/e2e/test_postgres.py runs a real one)"
    if not corpus and ("../shared/corpus" in line.command or unavailable.intersection(words)):
        return "needs the shared corpus (../shared/corpus), absent here"
    return None


class Walk:
    """A walk-through being run: its working directory, its environment, the digests printed so far."""

    def __init__(self, tmp: Path):
        self.tmp = tmp
        self.work = tmp / "work"
        self.work.mkdir()
        (self.work / "docs").symlink_to(REPO / "docs")
        if CORPUS.is_dir():
            (tmp / "shared").symlink_to(CORPUS.parent)
        self.env = {"HONBA_DB": str(tmp / "honba.sqlite"), "COLUMNS": "160"}
        self.matches: dict[str, str] = {}
        self.files: dict[str, str] = {}
        self.store: str | None = None

    def local(self, text: str) -> str:
        return text.replace("/tmp/", f"{self.tmp}/")

    def run(self, line: Line) -> tuple[int, str]:
        if line.content is not None:
            name = line.command.removeprefix("(the file ").removesuffix(")")
            (self.work / name).write_text(line.content, encoding="utf-8")
            return 0, ""
        words = [self.local(w) for w in shlex.split(line.command)]
        if words[0] == "export" and len(words) == 2 and "=" in words[1]:
            name, value = words[1].split("=", 1)
            self.env[name] = value
            return 0, ""
        if words[0] == "honba":
            args = self.against(words[1:])
            previous = Path.cwd()
            os.chdir(self.work)
            try:
                result = invoke(args, env=self.env)
            finally:
                os.chdir(previous)
            text = result.stdout + result.stderr
            self.note_digests(text)
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                raise result.exception
            return result.exit_code, text
        if words[0] == "printf":
            done = subprocess.run(self.local(line.command), shell=True, cwd=self.work, capture_output=True, text=True)
            return done.returncode, done.stdout + done.stderr
        raise AssertionError(f"{line}: a command this test does not know how to run")

    def against(self, args: list[str]) -> list[str]:
        """``honba check ... --against DIGEST``: the digest printed before for the check's target."""
        if "--against" not in args or "check" not in args:
            return args
        at = args.index("--against")
        if at + 1 < len(args) and (self.work / args[at + 1]).is_file():
            return args  # a signed checkpoint's file (issue 37), checked as it is
        targets = [a for i, a in enumerate(args) if i not in (at, at + 1) and not a.startswith("-")][1:]
        if not targets:
            published = self.store
        elif (self.work / targets[0]).is_file():
            published = self.files.get(targets[0])
        else:
            published = self.matches.get(targets[0])
        assert published, f"the walk-through publishes no digest for {targets or 'the store'} before checking it"
        return [*args[: at + 1], published[:16], *args[at + 2 :]]

    def note_digests(self, text: str) -> None:
        self.matches.update(
            {key: digest for digest, key in re.findall(r"Match head digest: ([0-9a-f]{64}) \(match (\S+)'s", text)}
        )
        for digest, path in re.findall(r"File head digest: ([0-9a-f]{64}) \(the chain over the lines of (\S+);", text):
            self.files[path] = digest
        for digest in re.findall(r"Store head digest: ([0-9a-f]{64})", text):
            self.store = digest


@pytest.mark.parametrize("doc", WALKTHROUGHS)
def test_the_walkthrough_runs_as_written(doc: str, tmp_path: Path) -> None:
    lines = walkthrough(doc)
    assert lines, f"{doc} has no sh block"
    lines = [line for before in WALKTHROUGHS[doc] for line in walkthrough(before)] + lines
    walk = Walk(tmp_path)
    corpus = CORPUS.is_dir()
    unavailable: set[str] = set()
    ran = 0
    for line in lines:
        why = skipped(line, corpus, unavailable)
        if why is not None:
            if "corpus" in why:
                # What the line would have stored: its tournament and the games it names by file.
                words = shlex.split(line.command)
                unavailable.update(w for i, w in enumerate(words) if i and words[i - 1] == "--tournament")
                unavailable.update(Path(w).stem for w in words if w.startswith("../shared/corpus"))
            continue
        code, text = walk.run(line)
        assert code == line.expected, f"{line}\nexited {code}, the document says {line.expected}:\n{text}"
        ran += 1
    assert ran, f"nothing of {doc} ran"


def test_the_readme_s_walkthrough_reads_its_commands_and_their_expected_exits() -> None:
    # The reader of the blocks itself: a comment's exit code, a '#' inside quotes kept, lines joined.
    assert split_comment('honba amend k 2 --reason "the #3 tile" # exit 2: refused') == (
        'honba amend k 2 --reason "the #3 tile"',
        "exit 2: refused",
    )
    readme = walkthrough("README.md")
    audit = [line for line in readme if line.command.startswith("honba audit seed-counters-example --against")]
    assert audit and audit[0].expected == 1
    assert any(line.command.startswith("honba start club-2026-11-21") for line in readme)
