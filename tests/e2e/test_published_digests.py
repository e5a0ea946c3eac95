"""Each digest printed says what it is the digest of, and the documented ``--against`` flow uses the
right one (issue 22, "Seen" 5: "The documented `honba check FILE --against DIGEST` flow gives a false
alarm on an honest export: the digest the recording commands print is the store's, an exported
file's is another, and `export` does not print the file's").

The flow of docs/audit.md ("Publish the head digests"), end to end: record a match, publish what the
commands print, export it, then check the match, the file and the store, each against its own digest.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

from honba_cli import Honba, invoke

KEY = "club-9"


def digest(text: str, name: str) -> str:
    """The digest a command printed under its name (``Match head digest: ...``), saying what it is of."""
    found = re.findall(rf"^{name}: ([0-9a-f]{{64}}) \((.+)\)$", text, re.MULTILINE)
    assert found, f"no {name} in:\n{text}"
    return str(found[-1][0])


def test_the_documented_flow_checks_the_match_the_file_and_the_store_each_against_its_own_digest(
    tmp_path: Path,
) -> None:
    cli = Honba(tmp_path / "honba.sqlite", KEY)
    cli.ok("start", KEY, "--players", "Ann,Ben,Cho,Dai")
    cli.ok("win", KEY, "Ben:3/30", "--from", "Ann", "--riichi", "Ben")
    ended = cli.ok("end", KEY, "--reason", "time limit")
    match_head, store_head = digest(ended, "Match head digest"), digest(ended, "Store head digest")
    assert f"Match head digest: {match_head} (match {KEY}'s history in the store, up to its last entry;" in ended
    assert f"honba check {KEY} --against DIGEST)" in ended
    assert f"Store head digest: {store_head} (the store's last checkpoint" in ended
    exported = tmp_path / "club-9.jsonl"
    said = invoke(["--db", str(tmp_path / "honba.sqlite"), "export", KEY, "-o", str(exported)])
    assert said.exit_code == 0, said.output
    file_head = digest(said.stderr, "File head digest")
    assert f"(the chain over the lines of {exported}; honba check {exported} --against DIGEST)" in said.stderr
    # The file's head is its seal line's, and not the match's: the two are other histories.
    assert f'"head": "{file_head}"' in exported.read_text(encoding="utf-8").splitlines()[-1]
    assert file_head != match_head
    # Each checked against its own digest (the first 16 hex characters are enough): intact, exit 0.
    cli.ok("check", KEY, "--against", match_head[:16])
    cli.ok("check", str(exported), "--against", file_head[:16])
    cli.ok("check", "--against", store_head[:16])
    # Against another history's digest, the check says the digest is not in it (exit 1): why the
    # docs name which digest goes with which target.
    wrong = cli("check", str(exported), "--against", match_head[:16])
    assert wrong.exit_code == 1 and "unpublished" in wrong.stdout


def test_a_plain_export_and_a_tenhou_log_say_their_bytes_sha256(tmp_path: Path) -> None:
    cli = Honba(tmp_path / "honba.sqlite", KEY)
    cli.ok("start", KEY, "--players", "Ann,Ben,Cho,Dai")
    cli.ok("win", KEY, "Ben:3/30", "--from", "Ann")
    for args, name in ((["--plain"], "plain.jsonl"), (["--format", "tenhou-json"], "log.json")):
        path = tmp_path / name
        said = invoke(["--db", str(cli.db), "export", KEY, "-o", str(path), *args])
        assert said.exit_code == 0, said.output
        assert digest(said.stderr, "File SHA-256") == hashlib.sha256(path.read_bytes()).hexdigest()
        assert "which carry no chain for honba check" in said.stderr


def test_status_and_audit_say_which_digest_they_print(tmp_path: Path) -> None:
    cli = Honba(tmp_path / "honba.sqlite", KEY)
    cli.ok("start", KEY, "--players", "Ann,Ben,Cho,Dai")
    status = cli.ok("status", KEY)
    audit = cli.ok("audit", KEY)
    assert digest(status, "Match head digest") == digest(audit, "Match head digest")
    assert digest(status, "Store head digest") == digest(cli.ok("check"), "Store head digest")
