"""The controller's rewritten pyc of the test modules (tests/rewritten_ahead.py): written as pytest
itself reads them, written again only when the source changed, and nothing at all (pytest rewriting
as it always did) when pytest's private pieces are gone or the assertions are not rewritten."""

from __future__ import annotations

from pathlib import Path

import pytest
import rewritten_ahead
from rewritten_ahead import ahead

PLANTED = "def test_planted() -> None:\n    seats = 4\n    assert seats == 3\n"


def planted(tmp_path: Path) -> tuple[Path, Path]:
    from _pytest.assertion.rewrite import PYC_TAIL

    source = tmp_path / "test_planted.py"
    source.write_text(PLANTED, encoding="utf-8")
    return source, tmp_path / "__pycache__" / f"test_planted{PYC_TAIL}"


def test_the_pyc_written_is_the_one_pytest_reads_and_is_written_once(
    request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    from _pytest.assertion.rewrite import _read_pyc

    source, pyc = planted(tmp_path)
    assert ahead(request.config, [source], processes=1) == 1
    code = _read_pyc(source, pyc)
    assert code is not None
    space: dict[str, object] = {}
    exec(code, space)
    with pytest.raises(AssertionError) as failed:
        space["test_planted"]()  # type: ignore[operator]
    assert "assert 4 == 3" in str(failed.value)  # rewritten: the values are shown
    assert ahead(request.config, [source], processes=1) == 0  # fresh: left as it is
    source.write_text(PLANTED.replace("3", "5"), encoding="utf-8")
    assert ahead(request.config, [source], processes=1) == 1  # changed: written again


def test_many_modules_are_written_by_two_processes(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    from _pytest.assertion.rewrite import _read_pyc

    sources = []
    for n in range(rewritten_ahead.FORKED_FROM):
        source = tmp_path / f"test_planted_{n}.py"
        source.write_text(PLANTED, encoding="utf-8")
        sources.append(source)
    assert ahead(request.config, sources, processes=2) == len(sources)
    from _pytest.assertion.rewrite import PYC_TAIL

    assert all(_read_pyc(s, tmp_path / "__pycache__" / f"{s.stem}{PYC_TAIL}") is not None for s in sources)


def test_without_pytests_pieces_or_rewriting_nothing_is_written(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source, pyc = planted(tmp_path)
    monkeypatch.setattr(rewritten_ahead, "_pytest_rewriter", lambda: None)  # a pytest that moved them
    assert ahead(request.config, [source], processes=1) == 0
    monkeypatch.undo()
    monkeypatch.setattr(request.config.option, "assertmode", "plain")
    assert ahead(request.config, [source], processes=1) == 0
    assert not pyc.exists()
