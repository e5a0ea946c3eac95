"""A win entered by its tiles counts han, fu and yaku as Tenhou counted them, and pays the same.

The oracle is Tenhou itself: each ``<AGARI>`` tag of the corpus's mjlogs holds the winner's
concealed tiles (``hai``, the winning tile among them), calls (``m``), the winning tile
(``machi``), the dora and ura dora indicators, and what Tenhou counted: ``ten="fu,points,limit"``
and the yaku with their han. The tiles and what the table taps (riichi, ippatsu, the last tile,
a supplement tile, a robbed kong, the first draw: the log's situational yaku) go in; han, fu and
the other yaku must come out as Tenhou's. Then a whole hanchan entered by tiles gives the
ledger of the same hanchan entered by han and fu, and ``honba stats`` counts its yaku.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import attrs
import pytest
from conftest import CORPUS, TENHOU
from honba_cli import Honba

from domain.match import Match
from domain.values import HandValue, WinFacts, WinResult
from projections.ledger import corrected_ledger
from replay.formats.detect import read_log
from replay.formats.yaku import DORA, RED, TENHOU_YAKU, URA
from replay.input.parsing import InputError
from replay.input.tiles import HandTiles, parse_call, parse_tiles
from replay.service.recording.tiles import tile_value, tile_win

GAMES = sorted((CORPUS / "tsubakisakura-mjlog2json" / "data").glob("*.xml"))
# Tenhou's yaku ids for what the table says of a win rather than what its tiles hold.
DOUBLE_RIICHI, IPPATSU, CHANKAN, RINSHAN, HAITEI, HOUTEI, TENHOU_HAND, CHIIHOU = 21, 2, 3, 4, 5, 6, 37, 38
RED_IDS = (16, 52, 88)
# The oracle is the shared corpus: without it (a checkout alone) these tests are skipped, not failed.
needs_corpus = pytest.mark.skipif(not GAMES, reason="../shared/corpus is not present")


def tile_text(tile: int) -> str:
    """A tile of Tenhou's 136 numbering in the notation typed at the table (a red five as 0)."""
    if tile in RED_IDS:
        return f"0{'mps'[tile // 36]}"
    kind = tile // 4
    return f"{kind % 9 + 1}{'mpsz'[kind // 9]}"


def call_text(code: int) -> str | None:
    """A meld code of Tenhou's (the ``m`` of an AGARI tag) as ``KIND:TILES``; None for a kita."""
    if code & 0x4:  # chi: the run's lowest kind, and which copy of each tile
        base = (code >> 10) // 3
        first = base // 7 * 9 + base % 7
        copies = ((code >> 3) & 3, (code >> 5) & 3, (code >> 7) & 3)
        return "chi:" + "".join(tile_text((first + i) * 4 + copies[i]) for i in range(3))
    if code & 0x8:  # pon: three of the four copies
        kind, unused = (code >> 9) // 3, (code >> 5) & 3
        return "pon:" + "".join(tile_text(kind * 4 + c) for c in range(4) if c != unused)
    if code & 0x10:
        kind = (code >> 9) // 3
        return "kakan:" + "".join(tile_text(kind * 4 + c) for c in range(4))
    if code & 0x20:
        return None
    kind = (code >> 8) // 4
    return ("ankan:" if code & 3 == 0 else "kan:") + "".join(tile_text(kind * 4 + c) for c in range(4))


def compact(tiles: list[str]) -> str:
    return "".join(tiles)


def agaris(path: Path) -> list[ET.Element]:
    return [el for el in ET.parse(path).getroot() if el.tag == "AGARI"]


def logged_yaku(el: ET.Element) -> list[tuple[int, int]]:
    if el.get("yakuman"):
        return [(int(y), 13) for y in el.get("yakuman", "").split(",")]
    pairs = [int(v) for v in el.get("yaku", "").split(",")]
    return list(zip(pairs[::2], pairs[1::2], strict=True))


def hand_of(el: ET.Element, riichi: bool) -> HandTiles:
    """The hand of an AGARI tag as a table enters it: its tiles, and the situational taps."""
    situational = {y for y, _han in logged_yaku(el)}
    calls = [c for c in (call_text(int(m)) for m in (el.get("m") or "").split(",") if m) if c]
    ura = el.get("doraHaiUra")
    return HandTiles.from_text(
        compact([tile_text(int(t)) for t in el.get("hai", "").split(",")]),
        tile_text(int(el.get("machi", "0"))),
        calls,
        compact([tile_text(int(t)) for t in el.get("doraHai", "").split(",")]),
        compact([tile_text(int(t)) for t in ura.split(",")]) if ura else None,
        riichi=riichi or DOUBLE_RIICHI in situational,
        double_riichi=DOUBLE_RIICHI in situational,
        ippatsu=IPPATSU in situational,
        facts=WinFacts(
            robbed_kong=CHANKAN in situational,
            supplement_tile=RINSHAN in situational,
            last_tile=HAITEI in situational or HOUTEI in situational,
            first_turn=TENHOU_HAND in situational or CHIIHOU in situational,
        ),
    )


def wins_with_tags(path: Path) -> Iterator[tuple[Match, WinResult, list[ET.Element]]]:
    """Each hand won in the game, on its match as recorded up to it, with its AGARI tags."""
    (game,) = read_log(path)
    tags = iter(agaris(path))
    match = Match.start(game.game_id, game.players, game.rules)
    for hand in game.hands:
        if hand.result is None or match.state.finished:
            break
        if isinstance(hand.result, WinResult):
            yield match, hand.result, [next(tags) for _ in hand.result.wins]
        match.record(hand.result)


@needs_corpus
def test_the_corpus_holds_hanchan_with_dozens_of_wins() -> None:
    assert len(GAMES) == 6
    assert sum(len(agaris(path)) for path in GAMES) > 50


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_every_win_counts_from_its_tiles_the_han_fu_and_yaku_tenhou_counted(path: Path) -> None:
    for match, result, tags in wins_with_tags(path):
        for win, el in zip(result.wins, tags, strict=True):
            tiles = hand_of(el, riichi=win.winner in result.riichi)
            valued = tile_value(
                tiles, winner=win.winner, self_drawn=win.discarder is None, state=match.state, rules=match.rules
            )
            fu, _points, limit = (int(v) for v in el.get("ten", "").split(",")[:3])
            logged = logged_yaku(el)
            where = f"{path.name} {match.state.hand_label} seat {win.winner}"
            if el.get("yakuman"):
                assert valued.value == HandValue(limit="yakuman", multiple=len(logged)), where
            else:
                assert valued.value.han == sum(han for _y, han in logged), where
                if limit == 0:  # below mangan Tenhou's fu is the one that pays
                    assert valued.value.fu == fu, where
            counted = valued.details
            assert sorted((y.tenhou_id, y.han) for y in counted.yaku) == sorted(
                (y, han) for y, han in logged if y not in (DORA, RED, URA)
            ), where
            dora = dict(logged)
            assert (counted.dora, counted.red, counted.ura) == (dora.get(DORA, 0), dora.get(RED, 0), dora.get(URA, 0))


def tile_results(path: Path) -> list[object]:
    """The game's results with every win entered by its tiles (a value nobody typed)."""
    (game,) = read_log(path)
    tags = iter(agaris(path))
    match = Match.start(game.game_id, game.players, game.rules)
    results: list[object] = []
    for hand in game.hands:
        if hand.result is None or match.state.finished:
            break
        result = hand.result
        if isinstance(result, WinResult):
            entered = []
            for win in result.wins:
                el = next(tags)
                riichi = ",".join(game.players[s] for s in result.riichi) or None
                tiles = hand_of(el, riichi=win.winner in result.riichi)
                discarder = win.discarder
                one, _valued = tile_win(
                    game.players,
                    match.state,
                    match.rules,
                    game.players[win.winner],
                    tiles,
                    discarder=discarder,
                    liable=win.liable,
                    riichi=riichi,
                )
                entered.append(one.wins[0])
            result = WinResult(tuple(entered), result.riichi)
        results.append(result)
        match.record(result)  # type: ignore[arg-type]
    return results


def ledger_lines(match: Match) -> list[tuple[object, ...]]:
    """Each entry's table, payments (who, whom, how much, why), changes, scores and deal pass; not
    the payment's note, which says the value as entered ("haneman", or "6 han = haneman")."""
    return [
        (
            e.before.hand_label,
            [(p.payer, p.payee, p.amount, p.reason) for p in e.payments],
            e.deltas,
            e.after.scores,
            e.deal_pass,
        )
        for e in corrected_ledger(match.corrected_steps())
    ]


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_each_hanchan_entered_by_tiles_ends_as_tenhou_ended_it(path: Path) -> None:
    (game,) = read_log(path)
    by_value = Match.start("by-value", game.players, game.rules)
    by_tiles = Match.start("by-tiles", game.players, game.rules)
    for hand, tiled in zip(game.hands, tile_results(path), strict=False):
        assert hand.result is not None
        by_value.record(hand.result)
        by_tiles.record(tiled)  # type: ignore[arg-type]
    assert ledger_lines(by_tiles) == ledger_lines(by_value)
    assert by_tiles.state.scores == by_value.state.scores
    if game.final_points is not None and by_tiles.state.finished:
        assert by_tiles.state.final_points == game.final_points


@needs_corpus
def test_a_hanchan_entered_by_tiles_gives_the_ledger_of_the_hanchan_entered_by_han_and_fu(tmp_path: Path) -> None:
    path = GAMES[0]
    (game,) = read_log(path)
    honba = Honba(tmp_path / "t.sqlite")
    by_value = Match.start("by-value", game.players, game.rules)
    by_tiles = Match.start("by-tiles", game.players, game.rules)
    for hand, tiled in zip(game.hands, tile_results(path), strict=False):
        assert hand.result is not None
        by_value.record(hand.result)
        by_tiles.record(tiled)  # type: ignore[arg-type]
    assert by_tiles.state.finished and by_value.state.finished
    assert ledger_lines(by_tiles) == ledger_lines(by_value)
    assert by_tiles.state.final_points == game.final_points
    # Stored, the yaku the tiles gave are what honba stats counts, as Tenhou named them.
    from replay.service.imports.storing import store_whole
    from replay.store.application import HonbaApp

    app = HonbaApp.open(str(honba.db))
    try:
        store_whole(app, by_tiles)
    finally:
        app.close()
    stats = json.loads(honba.ok("stats", "--all", "--format", "json"))
    counted = Counter[str]()
    for row in stats["players"]:
        counted.update(row["yaku"])
    expected = Counter[str]()
    for el in agaris(path):
        expected.update(TENHOU_YAKU[y] for y, _han in logged_yaku(el) if y not in (DORA, RED, URA))
    assert counted == expected
    assert sum(counted.values()) > 10
    shown = honba.ok("stats", "--all")
    assert "Wins by yaku" in shown and "立直" in shown


def test_honba_win_by_tiles_records_the_score_table_value_with_its_yaku(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "w.sqlite", "w")
    honba.ok("start", "w", "--players", "Ann,Ben,Cho,Dai")
    # Riichi, pinfu, tanyao and one dora (the 1m indicator makes 2m the dora) on Ann's discard:
    # 4 han 30 fu, 7,700 from the discarder for a non-dealer (the riichi score table).
    shown = honba.ok(
        "win", "w", "Ben", "--from", "Ann", "--riichi", "Ben",
        "--hand", "234m567p23488s678s", "--win-tile", "2s", "--dora-indicators", "1m",
    )  # fmt: skip
    assert "From the tiles: 4 han 30 fu" in shown
    assert honba.scores() == {"Ann": 25000 - 7700, "Ben": 25000 + 7700, "Cho": 25000, "Dai": 25000}
    log = honba.json("log", "w")["hands"][0]
    assert log["result"] == "Ben ron on Ann: 4 han 30 fu; riichi: Ben"
    assert "Ben: 立直 1, 平和 1, 断幺九 1; dora 1; 30 fu; winning tile 2s" in log["log_says"]
    audit = honba.ok("audit", "w")
    assert "立直 1, 平和 1, 断幺九 1" in audit


def test_an_amendment_of_one_field_keeps_what_the_tiles_said_of_the_hand(tmp_path: Path) -> None:
    # The referee finds Cho, not Ann, dealt in: the discarder changes; the hand, its yaku and its
    # winning tile are what they were (a correction changes only what the referee changed).
    honba = Honba(tmp_path / "w.sqlite", "w")
    honba.ok("start", "w", "--players", "Ann,Ben,Cho,Dai")
    honba.ok(
        "win", "w", "Ben", "--from", "Ann", "--riichi", "Ben",
        "--hand", "234m567p23488s678s", "--win-tile", "2s", "--dora-indicators", "1m",
    )  # fmt: skip
    said = honba.json("log", "w")["hands"][0]["log_says"]
    honba.ok("amend", "w", "2", "--set", "discarder=Cho", "--by", "Eve", "--reason", "Cho dealt in")
    hand = honba.json("log", "w")["hands"][0]
    assert hand["result"] == "Ben ron on Cho: 4 han 30 fu; riichi: Ben"
    assert hand["log_says"] == said == ["Ben: 立直 1, 平和 1, 断幺九 1; dora 1; 30 fu; winning tile 2s"]
    # The statistics still count the hand's yaku (of finished matches).
    honba.ok("end", "w", "--reason", "time limit")
    (ben,) = [r for r in json.loads(honba.ok("stats", "--all", "--format", "json"))["players"] if r["player"] == "Ben"]
    assert ben["yaku"] == {"立直": 1, "平和": 1, "断幺九": 1}


def test_an_amendment_of_a_logged_hand_keeps_what_the_log_said(tmp_path: Path) -> None:
    # Tenhou's 2023053016gm-0029 (the corpus): East 1 is ⓝLuckyJ's riichi ippatsu tsumo, 3s, one dora.
    log = CORPUS / "tsubakisakura-mjlog2json" / "data" / "2023053016gm-0029-0000-e54b3b98.xml"
    if not log.is_file():
        pytest.skip("the tsubakisakura games are not in the shared corpus here")
    honba = Honba(tmp_path / "t.sqlite")
    honba.ok("import", str(log))
    key = log.stem
    said = ["ⓝLuckyJ: 立直 1, 一発 1, 門前清自摸和 1; dora 1; 30 fu; winning tile 3s"]
    assert honba.json("log", key)["hands"][0]["log_says"] == said
    honba.ok("amend", key, "2", "--set", "dora=0", "--by", "Eve", "--reason", "the indicator was misread")
    assert honba.json("log", key)["hands"][0]["log_says"] == said


def test_a_typed_value_that_differs_from_the_tiles_is_recorded_with_a_warning(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "w.sqlite", "w")
    honba.ok("start", "w", "--players", "Ann,Ben,Cho,Dai")
    # Menzen tsumo, pinfu, tanyao: 3 han 20 fu self-drawn; the table says 2 han 30 fu.
    result = honba("win", "w", "Cho:2/30", "--hand", "234m567p23488s678s", "--win-tile", "2s")
    assert result.exit_code == 0, result.output
    assert "the tiles give 3 han 20 fu" in result.stderr and "2 han 30 fu is recorded" in result.stderr
    # 2 han 30 fu self-drawn by a non-dealer: 500 from each non-dealer, 1,000 from the dealer.
    assert honba.scores() == {"Ann": 24000, "Ben": 24500, "Cho": 27000, "Dai": 24500}


def test_a_typed_value_that_pays_as_the_tiles_do_is_no_difference(tmp_path: Path) -> None:
    honba = Honba(tmp_path / "w.sqlite", "w")
    honba.ok("start", "w", "--players", "Ann,Ben,Cho,Dai")
    # 123m 345m 678m 999m 22m: a full flush (6 han closed) and riichi, 7 han: a haneman by the
    # tiles, typed as haneman.
    result = honba(
        "win", "w", "Ben:haneman", "--from", "Ann", "--riichi", "Ben",
        "--hand", "12334567899922m", "--win-tile", "2m",
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "warning" not in result.stderr
    # A haneman on a discard by a non-dealer: 12,000.
    assert honba.scores()["Ann"] == 25000 - 12000


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--hand", "234m567p23488s678", "--win-tile", "2s"], "--hand: cannot read"),
        (["--hand", "234m567p2348s678s", "--win-tile", "2s"], "a winning hand has 14 tiles"),
        (["--hand", "234m567p23488s678s", "--win-tile", "9s"], "--win-tile: 9s is not among"),
        (["--hand", "234m567p23488s678s"], "--hand needs --win-tile"),
        (["--hand", "112345678m99p", "--win-tile", "1m", "--call", "pon:111m"], "more than four of 1m"),
        (["--hand", "234m567p23488s", "--win-tile", "2s", "--call", "chi:679s"], "three tiles in a row"),
        (["--hand", "234m567p23488s", "--win-tile", "2s", "--call", "peng:678s"], "KIND:TILES"),
        (["--hand", "123m456p789s1238z", "--win-tile", "1m"], "8z is no tile"),
        (["--hand", "123m456p789s12345z", "--win-tile", "1m"], "not a winning hand"),
        (["--win-tile", "1m"], "go with --hand"),
    ],
)
def test_tiles_that_make_no_hand_are_refused_with_the_option_named(tmp_path: Path, args: list[str], said: str) -> None:
    honba = Honba(tmp_path / "w.sqlite", "w")
    honba.ok("start", "w", "--players", "Ann,Ben,Cho,Dai")
    line = honba.refused("win", "w", "Ben:1/30" if "--hand" not in args else "Ben", "--from", "Ann", *args)
    assert said in line
    assert honba.json("log", "w")["hands"] == []


def test_the_notation_reads_red_fives_and_honours() -> None:
    assert parse_tiles("0m55p7z") == ("5mr", "5p", "5p", "C")
    assert parse_call("ankan:1111z").kind == "ankan"
    with pytest.raises(InputError):
        parse_tiles("")


@needs_corpus
def test_the_yaku_are_kept_out_of_the_match_content() -> None:
    path = GAMES[0]
    results = tile_results(path)
    wins = [r for r in results if isinstance(r, WinResult)]
    assert all(w.details is not None for r in wins for w in r.wins)
    # Two wins that differ only in what was said of them are the same win.
    plain = [attrs.evolve(r, wins=tuple(attrs.evolve(w, details=None) for w in r.wins)) for r in wins]
    assert plain == wins


def test_a_tile_entry_takes_the_winds_from_the_table() -> None:
    # A called pung of South winds: the round wind in the South round, the seat wind of the
    # dealer's right-hand neighbour (seat 1 while seat 0 deals), no yaku for West in the East round.
    tiles = HandTiles.from_text("234m567p23488s", "2s", ["pon:222z"])
    east = Match.start("e", ["Ann", "Ben", "Cho", "Dai"], TENHOU).state
    with pytest.raises(InputError, match="the hand has no yaku"):
        tile_value(tiles, winner=2, self_drawn=False, state=east, rules=TENHOU)
    south = attrs.evolve(east, round_wind=1)
    valued = tile_value(tiles, winner=2, self_drawn=False, state=south, rules=TENHOU)
    # An open hand won on a discard: 20 fu and 4 for the called pung of honours, 30 fu.
    assert (valued.value.han, valued.value.fu) == (1, 30)
    assert [y.name for y in valued.details.yaku] == ["場風 南"]
    seat = tile_value(tiles, winner=1, self_drawn=False, state=east, rules=TENHOU)
    assert [y.name for y in seat.details.yaku] == ["自風 南"]
