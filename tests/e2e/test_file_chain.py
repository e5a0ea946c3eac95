"""The chain of an exported record file covers its exact lines (issue 11, cases 2, 3, 7, 10).

A correction line names the line it corrects by its number in the file, so a line
added, blank or not, moves what it corrects: every added, removed or moved line is
caught by ``honba check FILE`` and refused by ``honba import``. A file cut short and
resealed by hand cannot be told from an honest shorter file by the file alone (the
digests have no key); against the head digest published when the match ended,
``honba check FILE --against DIGEST`` catches it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from honba_cli import Honba, honba, ok

KEY = "club-9"


# The command line as typed (``--db`` where a test names it, else the store HONBA_DB names).
cli = Honba(None)


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A match of four hands where the referee voided the first (line 2 of its export)."""
    path = tmp_path / "store.sqlite"
    ok(path, "start", KEY, "--players", "Ann,Ben,Cho,Dai")
    ok(path, "win", KEY, "Ben:3/30", "--from", "Ann")  # position 2
    ok(path, "win", KEY, "Cho:mangan", "--from", "Dai")
    ok(path, "draw", KEY, "--ready", "Ann")
    ok(path, "void", KEY, "2", "--by", "Eve", "--reason", "wrong winner")
    return path


def export(db: Path, tmp_path: Path) -> list[str]:
    path = tmp_path / "export.jsonl"
    ok(db, "export", KEY, "-o", str(path))
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def write(tmp_path: Path, lines: list[str], name: str = "disputed.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def head_of(lines: list[str]) -> str:
    seal = json.loads(lines[-1])
    assert seal["type"] == "seal"
    return str(seal["head"])


def test_a_blank_line_added_after_the_start_line_is_caught_and_the_file_refused(db: Path, tmp_path: Path) -> None:
    lines = export(db, tmp_path)
    assert json.loads(lines[-2])["type"] == "correction" and json.loads(lines[-2])["target"] == 2
    path = write(tmp_path, [lines[0], "", *lines[1:]])
    checked = cli("check", str(path))
    assert checked.exit_code == 1
    assert "inserted at 2" in checked.stdout
    imported = honba(tmp_path / "other.sqlite", "import", str(path))
    assert imported.exit_code == 2
    assert f"{path}:2: the file's chain is broken" in imported.stderr


@pytest.mark.parametrize("where", [3, -1, 100])
def test_a_blank_line_added_anywhere_is_caught_at_its_line(db: Path, tmp_path: Path, where: int) -> None:
    lines = export(db, tmp_path)
    changed = list(lines)
    changed.insert(where if where >= 0 else len(lines) + where, "   ")
    number = changed.index("   ") + 1
    checked = cli("check", str(write(tmp_path, changed)))
    assert checked.exit_code == 1
    assert f"inserted at {number}" in checked.stdout


def test_a_file_cut_short_and_resealed_is_caught_against_the_published_head(db: Path, tmp_path: Path) -> None:
    lines = export(db, tmp_path)
    published = head_of(lines)
    last = json.loads(lines[-2])
    # The last line dropped, and a seal written for what is left: it names the dropped line's prior.
    forged = [*lines[:-2], json.dumps({"type": "seal", "lines": len(lines) - 2, "head": last["prior"]})]
    path = write(tmp_path, forged)
    assert cli("check", str(path)).exit_code == 0  # on its own, what the docs say cannot be seen
    checked = cli("check", str(path), "--against", published)
    assert checked.exit_code == 1
    assert "unpublished" in checked.stdout


def test_a_file_checks_against_its_own_published_head(db: Path, tmp_path: Path) -> None:
    lines = export(db, tmp_path)
    path = write(tmp_path, lines)
    assert "intact" in cli.ok("check", str(path), "--against", head_of(lines)[:16])


def test_a_file_with_corrections_added_since_the_head_was_published_still_holds_it(db: Path, tmp_path: Path) -> None:
    published = head_of(export(db, tmp_path))
    ok(db, "penalty", KEY, "Dai", "--amount", "900", "--by", "Eve", "--reason", "slow play")
    path = write(tmp_path, export(db, tmp_path), "later.jsonl")
    text = cli.ok("check", str(path), "--against", published, "--json")
    assert json.loads(text)["results"][0]["intact"] is True


def test_against_takes_a_digest(db: Path, tmp_path: Path) -> None:
    path = write(tmp_path, export(db, tmp_path))
    result = cli("check", str(path), "--against", "not-a-digest")
    assert result.exit_code == 2
    assert "--against takes a head digest" in result.stderr


def test_a_line_separator_in_a_name_or_a_note_is_refused_so_no_export_holds_one(tmp_path: Path) -> None:
    # Issue 24: names and notes are one line of text (domain.bounds), so that whatever honba
    # accepts exports to a file that checks and imports again (tests/service/test_round_trip.py).
    db = str(tmp_path / "s.sqlite")
    assert "U+2028" in honba(db, "start", KEY, "--players", "Ann\u2028Lee,Ben,Cho,Dai").stderr
    assert "U+0085" in honba(db, "start", KEY, "--players", "Ann,Ben,Cho,Da\x85i").stderr
    ok(db, "start", KEY, "--players", "Ann,Ben,Cho,Dai")
    assert "U+2029" in honba(db, "penalty", KEY, "Ben", "--note", "slow\u2029play").stderr
    ok(db, "penalty", KEY, "Ben", "--note", "slow play")
    path = tmp_path / "sep.jsonl"
    ok(db, "export", KEY, "-o", str(path))
    assert "intact" in cli.ok("check", str(path))
    ok(tmp_path / "other.sqlite", "import", str(path))


@pytest.mark.parametrize("text", ['{"type": "start", "key": "k"}\n', "just some text\n", "\n"])
def test_check_of_a_file_without_a_chain_says_it_could_not_check_it(tmp_path: Path, text: str) -> None:
    path = tmp_path / "plain.jsonl"
    path.write_text(text, encoding="utf-8")
    result = cli("check", str(path), "--json")
    assert result.exit_code == 1
    (found,) = json.loads(result.stdout)["results"]
    assert [p["kind"] for p in found["problems"]] == ["unchained"]


def test_an_export_whose_first_line_is_over_4_kb_imports(tmp_path: Path) -> None:
    # The longest key and names honba takes (domain.bounds), under rules of a file with a long
    # description and a long settling table: the start line says all of them.
    db = str(tmp_path / "s.sqlite")
    key = "k" * 200
    players = ",".join(name * 64 for name in ("A", "B", "C", "D"))
    rows = ", ".join(f"[{count}, {100 + count}]" for count in range(20, 60))
    rules = tmp_path / "club.toml"
    rules.write_text(
        f'base = "chinese-classical"\nname = "club"\ndescription = "{"d" * 2000}"\nsettling_table = [{rows}]\n',
        encoding="utf-8",
    )
    ok(db, "start", key, "--players", players, "--rules-file", str(rules))
    path = tmp_path / "long.jsonl"
    ok(db, "export", key, "-o", str(path))
    assert len(path.read_text(encoding="utf-8").split("\n")[0]) > 4096
    assert "1 stored, 0 already present" in ok(tmp_path / "other.sqlite", "import", str(path))


def test_a_record_nested_hundreds_deep_is_refused_in_one_line(tmp_path: Path) -> None:
    nested: object = 0
    for _ in range(480):
        nested = [nested]
    start = {"type": "start", "key": "deep", "players": ["A", "B", "C", "D"], "rules": "tenhou"}
    path = tmp_path / "deep.jsonl"
    path.write_text(json.dumps({**start, "source": {"n": nested}}) + "\n", encoding="utf-8")
    for args in (("import", str(path)), ("check", str(path))):
        result = honba(tmp_path / "s.sqlite", *args)
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        assert result.exit_code != 0
    imported = honba(tmp_path / "s.sqlite", "import", str(path))
    assert "nested more than" in imported.stderr


def test_a_stored_match_checks_against_its_published_head_and_not_another(db: Path) -> None:
    audit = ok(db, "audit", KEY)
    head = audit.split("Match head digest: ")[1].split()[0]
    assert "intact" in ok(db, "check", KEY, "--against", head)
    result = honba(db, "check", KEY, "--against", "0" * 64)
    assert result.exit_code == 1
    assert "unpublished" in result.stdout
