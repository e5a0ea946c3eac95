"""Work done once per process, not once per log: the presets are read once, and the rules of a
Tenhou room on a given day are built once."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import CORPUS

import domain.rules
from domain.rules import load_preset
from replay.service.imports.batch import verify_paths

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")


def test_a_preset_is_read_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    reads: list[str] = []
    original = domain.rules.parse_rule_text

    def counted(text: str, *, source: str) -> Any:
        reads.append(source)
        return original(text, source=source)

    monkeypatch.setattr(domain.rules, "parse_rule_text", counted)
    domain.rules._read_preset.cache_clear()
    try:
        first = load_preset("tenhou")
        assert load_preset("tenhou") is first
        # Thirty real Tenhou hanchan logs (four players, the tenhou preset) read and verified.
        files = sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))[:30]
        run = verify_paths(list(files))
        assert len(run.reports) == 30 and not run.unreadable
        assert reads.count("preset tenhou") == 1
    finally:
        domain.rules._read_preset.cache_clear()


def test_an_unknown_preset_is_still_refused_by_name() -> None:
    with pytest.raises(domain.rules.InvalidRules, match="unknown rules preset 'tenhuo'"):
        load_preset("tenhuo")


def test_the_rules_of_one_room_and_era_are_built_once() -> None:
    from replay.formats.detect import read_log
    from replay.formats.tenhou_rules import _described, _room_rules, log_time

    _room_rules.cache_clear()
    _described.cache_clear()
    files = sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))[:30]
    run = verify_paths(list(files))
    info = _room_rules.cache_info()
    named = _described.cache_info()
    # Thirty four-player hanchan logs of February 2018, dated by 16 different hours: one room under
    # one era of every rule change, its rules built once (a cache keyed on the dating built them 16
    # times), and named with each hour once (16 copies of them, not 30). Each log's rules still name
    # its own hour.
    assert len(run.reports) == 30 and info.misses == 1
    assert len({report.game[:10] for report in run.reports}) == 16
    assert named.misses == 16 and named.hits == 14
    game = read_log(files[0])[0]
    assert game.rules.description.endswith(f"; dated {log_time(game.game_id):%Y-%m-%d %H}:00)")
    same_hour = [path for path in files[1:] if read_log(path)[0].game_id[:10] == game.game_id[:10]]
    assert same_hour and read_log(same_hour[0])[0].rules is game.rules


def test_a_rulesets_digest_is_worked_out_once_and_keeps_its_value() -> None:
    from domain.integrity import digest_of, plain
    from domain.match import _rules_digest, rules_digest
    from domain.rules import Ruleset, preset_names

    _rules_digest.cache_clear()
    for name in preset_names():
        stored = load_preset(name).to_dict()
        # The value every stored match's content was compared by before: unchanged.
        assert rules_digest(stored) == digest_of(plain(Ruleset.from_stored(stored).to_dict()))
        assert rules_digest(dict(stored)) == rules_digest(stored)
    info = _rules_digest.cache_info()
    assert info.misses == len(preset_names()) and info.hits == 2 * len(preset_names())


def test_an_imported_mjlog_is_parsed_at_most_once_with_its_tiles(xml_parses: list[str]) -> None:
    from replay.formats.detect import read_games
    from replay.formats.source import read_source

    parses = xml_parses
    path = sorted((CORPUS / "tenhou-wire-2018").glob("*.mjlog"))[0]
    data = read_source(path)
    [game] = read_games(data, file=str(path), tiles=True)
    # In the plain shape Tenhou writes, the tiles are read from the text the reader reads: no parse.
    assert parses == []
    assert all(hand.tiles is not None for hand in game.hands)
    # Outside it (a comment), the log is parsed once and the tiles collected in the reader's walk.
    commented = data.replace(b"<INIT ", b"<!-- a hand --><INIT ", 1)
    [again] = read_games(commented, file="commented.mjlog", tiles=True)
    assert parses == [commented.decode("utf-8-sig")]
    assert [hand.tiles for hand in again.hands] == [hand.tiles for hand in game.hands]
