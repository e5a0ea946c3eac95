"""``honba check FILE`` on files that are not record files at all: one line, exit 2, no traceback."""

from __future__ import annotations

from pathlib import Path

from honba_cli import invoke


def test_a_file_that_is_not_utf8_is_named_in_one_line_with_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    # Windows-1252 quotes: no UTF-8 (UTF-16 with its byte order mark would be read, as a log is).
    bad.write_bytes(b"\x93not a record\x94")
    result = invoke(["--db", str(tmp_path / "s.sqlite"), "check", str(bad)])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [f"honba: {bad}: not a record file: not UTF-8 text (byte 0)"]
    assert result.exception is None or isinstance(result.exception, SystemExit)
