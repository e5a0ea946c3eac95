"""The mjai importer: small logs written for these tests, then fresh games from another engine.

The small logs state their own score changes; the hand values expected where a
log gives none are worked by hand from the tiles (yaku, fu) or are the smallest
value paying what the log recorded. The fresh games come from riichienv (a
riichi engine on PyPI, not in the corpus) playing Tenhou rules: their hand
values are taken from the tiles and must pay what the engine recorded.
"""

from __future__ import annotations

import json
from typing import Any

import attrs
import pytest
from riichienv_games import riichienv_game

import replay.formats.mjai as mjai
from domain.scoring.payments import settle
from domain.values import AbortiveDraw, AbortKind, ExhaustiveDraw, HandValue, TableState, Win, WinResult
from replay.formats.logmodel import LogError, LoggedGame, LoggedHand
from replay.formats.mjai import read_hands, read_mjai
from replay.input.tiles import MeldTiles
from replay.service.imports.verify import verify_game

HIDDEN = ["?"] * 13
START = [25000, 25000, 25000, 25000]


def kyoku(
    *,
    bakaze: str = "E",
    kyoku: int = 1,
    honba: int = 0,
    kyotaku: int = 0,
    oya: int = 0,
    scores: list[int] | None = None,
    tehais: list[list[str]] | None = None,
    dora: str = "9s",
) -> dict[str, Any]:
    players = len(scores) if scores is not None else 4
    return {
        "type": "start_kyoku",
        "bakaze": bakaze,
        "dora_marker": dora,
        "kyoku": kyoku,
        "honba": honba,
        "kyotaku": kyotaku,
        "oya": oya,
        "scores": scores or START,
        "tehais": tehais or [HIDDEN] * players,
    }


def ev(kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, **fields}


def turn(actor: int, tile: str) -> list[dict[str, Any]]:
    """A draw and the same tile thrown."""
    return [ev("tsumo", actor=actor, pai=tile), ev("dahai", actor=actor, pai=tile, tsumogiri=True)]


def lines(*events: dict[str, Any] | list[dict[str, Any]]) -> bytes:
    flat: list[dict[str, Any]] = []
    for e in events:
        flat.extend(e if isinstance(e, list) else [e])
    return "\n".join(json.dumps(e) for e in flat).encode()


def whole(*events: dict[str, Any] | list[dict[str, Any]], names: list[str] | None = None) -> bytes:
    start = ev("start_game", names=names or ["Ann", "Ben", "Cho", "Dai"])
    return lines(start, *events, ev("end_game"))


def read(data: bytes, file: str = "test.jsonl") -> LoggedGame:
    games = read_mjai(data, file=file)
    assert len(games) == 1
    # What ``honba verify`` reads (the draws and discards left in the text) is the same game
    # without the hands' tiles and each win's details (compared by ``repr``, which shows them).
    without_tiles = [attrs.evolve(g, hands=tuple(_verified(h) for h in g.hands)) for g in games]
    assert repr(read_hands(data, file=file)) == repr(without_tiles)
    return games[0]


def _verified(hand: LoggedHand) -> LoggedHand:
    """A hand as ``honba verify`` reads it: without its tiles, each win without its details."""
    result = hand.result
    if isinstance(result, WinResult):
        result = attrs.evolve(result, wins=tuple(attrs.evolve(w, details=None) for w in result.wins))
    return attrs.evolve(hand, tiles=None, result=result)


# Wins.


def test_ron_with_the_value_in_the_log() -> None:
    g = read(
        whole(
            kyoku(),
            ev("hora", actor=1, target=2, fan=3, fu=30, deltas=[0, 3900, -3900, 0]),
            ev("end_kyoku"),
            kyoku(kyoku=2, oya=1, scores=[25000, 28900, 21100, 25000]),
        )
    )
    first, second = g.hands
    assert first.result == WinResult((Win(winner=1, value=HandValue(han=3, fu=30), discarder=2),))
    assert first.deltas == (0, 3900, -3900, 0)
    assert first.value_source == "log" and first.position == "line 2"
    assert (second.round_wind, second.hand_number, second.dealer) == (0, 2, 1)
    assert g.players == ("Ann", "Ben", "Cho", "Dai") and g.format == "mjai"
    assert g.truncated  # the second hand never ends


def test_yakuman_in_the_logged_yaku_list() -> None:
    g = read(
        whole(
            kyoku(),
            ev(
                "hora",
                actor=1,
                target=2,
                fan=26,
                fu=0,
                yakus=[["daisangen", 13], ["tsuiso", 13]],
                deltas=[0, 64000, -64000, 0],
            ),
        )
    )
    result = g.hands[0].result
    assert isinstance(result, WinResult)
    assert result.wins[0].value == HandValue(limit="yakuman", multiple=2)


def test_value_from_the_tiles_on_a_ron() -> None:
    # Ben waits on 5p alone with 123m 456m 789m 234p: ittsu (2 han closed) and
    # 20 + 10 (closed ron) + 2 (single wait) = 32 -> 40 fu.
    ben = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "2p", "3p", "4p", "5p"]
    g = read(
        whole(
            kyoku(tehais=[HIDDEN, ben, HIDDEN, HIDDEN]),
            turn(0, "5p"),
            ev("hora", actor=1, target=0, deltas=[-2600, 2600, 0, 0]),
        )
    )
    hand = g.hands[0]
    assert hand.value_source == "tiles"
    assert hand.result == WinResult((Win(winner=1, value=HandValue(han=2, fu=40), discarder=0),))


def test_value_from_the_tiles_with_riichi_ippatsu_tsumo_and_ura() -> None:
    # The dealer declares riichi on her second turn and draws 4p next: riichi, ippatsu,
    # tsumo, pinfu, ittsu (2) and the pair of 9s under ura indicator 8s (2) = 8 han.
    ann = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "2p", "3p", "9s", "9s"]
    g = read(
        whole(
            kyoku(tehais=[ann, HIDDEN, HIDDEN, HIDDEN], dora="5s"),
            turn(0, "E"),
            turn(1, "S"),
            turn(2, "S"),
            turn(3, "S"),
            ev("tsumo", actor=0, pai="W"),
            ev("reach", actor=0),
            ev("dahai", actor=0, pai="W", tsumogiri=True),
            ev("reach_accepted", actor=0),
            turn(1, "N"),
            turn(2, "N"),
            turn(3, "N"),
            ev("tsumo", actor=0, pai="4p"),
            ev("hora", actor=0, target=0, deltas=[25000, -8000, -8000, -8000], ura_markers=["8s"]),
        )
    )
    hand = g.hands[0]
    assert hand.value_source == "tiles"
    assert hand.result == WinResult((Win(winner=0, value=HandValue(han=8)),), riichi=(0,))
    # The engine's hora deltas hand the winner her own stick back; the hand's net leaves it out.
    assert hand.deltas == (24000, -8000, -8000, -8000)


def test_value_from_the_payment_when_the_tiles_are_hidden() -> None:
    # 3900 on a ron, with 1 counter (300) and a stick (1000) on the table: the smallest
    # value that pays 3900 is 2 han 60 fu.
    g = read(whole(kyoku(honba=1, kyotaku=1), ev("hora", actor=3, target=2, deltas=[0, 0, -4200, 5200])))
    hand = g.hands[0]
    assert hand.value_source == "payment"
    assert hand.result == WinResult((Win(winner=3, value=HandValue(han=2, fu=60), discarder=2),))
    assert hand.deltas == (0, 0, -4200, 5200)


def test_pao_shows_in_the_payment_of_a_self_drawn_win() -> None:
    g = read(whole(kyoku(), ev("hora", actor=3, target=3, deltas=[0, 0, -32000, 32000])))
    result = g.hands[0].result
    assert result == WinResult((Win(winner=3, value=HandValue(limit="yakuman"), liable=2),))


def test_double_ron_and_the_riichi_sticks() -> None:
    g = read(
        whole(
            kyoku(kyotaku=1),
            ev("reach", actor=2),
            ev("dahai", actor=2, pai="5m", tsumogiri=False),
            ev("reach_accepted", actor=2),
            ev("reach", actor=3),
            ev("dahai", actor=3, pai="6m", tsumogiri=False),
            # Seat 3's declaration tile is ronned: no reach_accepted, no stick.
            ev("hora", actor=0, target=3, fan=1, fu=30, deltas=[3000, 0, 0, -1000]),
            ev("hora", actor=1, target=3, fan=2, fu=30, deltas=[0, 2000, 0, -2000]),
        )
    )
    hand = g.hands[0]
    assert isinstance(hand.result, WinResult)
    assert [(w.winner, w.discarder) for w in hand.result.wins] == [(0, 3), (1, 3)]
    assert hand.result.riichi == (2,)
    assert hand.deltas == (3000, 2000, -1000, -3000)


def test_original_mjai_puts_the_stick_in_reach_accepted() -> None:
    g = read(
        whole(
            kyoku(),
            ev("reach", actor=1),
            ev("reach_accepted", actor=1, deltas=[0, -1000, 0, 0], scores=[25000, 24000, 25000, 25000]),
            ev("hora", actor=1, target=0, fan=1, fu=40, deltas=[-1300, 2300, 0, 0]),
        )
    )
    assert g.hands[0].deltas == (-1300, 1300, 0, 0)


# Calls: whatever order a writer lists a call's tiles in, the hand is valued from them.

# Ben: 4m 5m to call a chi, 234p 678p, 45s waiting on 3s-6s, the pair 88s, and a North to throw.
BEN_CHI = ["4m", "5m", "2p", "3p", "4p", "6p", "7p", "8p", "4s", "5s", "8s", "8s", "N"]


@pytest.mark.parametrize(
    ("called", "consumed"),
    [("3m", ["4m", "5m"]), ("3m", ["5m", "4m"]), ("6m", ["4m", "5m"]), ("6m", ["5m", "4m"])],
    ids=["lowest-called", "lowest-called-reversed", "highest-called", "highest-called-reversed"],
)
def test_a_chi_is_valued_from_its_tiles_in_any_order(called: str, consumed: list[str]) -> None:
    # All simples (1 han, open tanyao) and the pair 8s under dora indicator 7s (2 dora): 3 han.
    # An open ron on a two-sided wait has no fu beyond the 20 base and is rounded up to 30
    # fu. 3 han 30 fu pays a non-dealer's ron 3,900 (seeds' score table), as does the
    # smaller-looking 2 han 60 fu a payment alone would give back.
    g = read(
        whole(
            kyoku(tehais=[HIDDEN, BEN_CHI, HIDDEN, HIDDEN], dora="7s"),
            turn(0, called),
            ev("chi", actor=1, target=0, pai=called, consumed=consumed),
            ev("dahai", actor=1, pai="N", tsumogiri=False),
            turn(2, "6s"),
            ev("hora", actor=1, target=2, deltas=[0, 3900, -3900, 0]),
        )
    )
    hand = g.hands[0]
    assert hand.value_source == "tiles"
    assert hand.result == WinResult((Win(winner=1, value=HandValue(han=3, fu=30), discarder=2),))


@pytest.mark.parametrize(
    ("kind", "listed", "in_order"),
    [
        ("chi", ("4m", "5m", "3m"), ("3m", "4m", "5m")),
        ("chi", ("7p", "5pr", "6p"), ("5pr", "6p", "7p")),
        ("pon", ("5s", "5s", "5sr"), ("5sr", "5s", "5s")),
        ("daiminkan", ("C", "C", "C", "C"), ("C", "C", "C", "C")),
        ("ankan", ("9m", "9m", "9m", "9m"), ("9m", "9m", "9m", "9m")),
        ("kakan", ("5p", "5p", "5p", "5pr"), ("5pr", "5p", "5p", "5p")),
    ],
)
def test_every_call_keeps_its_tiles_in_tile_order(
    kind: str, listed: tuple[str, ...], in_order: tuple[str, ...]
) -> None:
    meld = MeldTiles(kind, listed, listed[-1])
    assert meld.tiles == in_order
    assert sorted(meld.tiles) == sorted(listed)  # the same tiles, none lost or added


def test_a_pon_and_a_kakan_are_valued_from_their_tiles() -> None:
    # Ben pons White off Ann (consumed listed after the called tile's copies in any order),
    # then adds the fourth White: a kakan. He wins on 6s by ron off Cho: White (1 han),
    # 20 base + 16 (open kong of honours) = 36 -> 40 fu; 1 han 40 fu pays a non-dealer's
    # ron 1,300 (seeds' score table).
    ben = ["P", "P", "2p", "3p", "4p", "6p", "7p", "8p", "4s", "5s", "2m", "2m", "N"]
    g = read(
        whole(
            kyoku(tehais=[HIDDEN, ben, HIDDEN, HIDDEN], dora="9s"),
            turn(0, "P"),
            ev("pon", actor=1, target=0, pai="P", consumed=["P", "P"]),
            ev("dahai", actor=1, pai="N", tsumogiri=False),
            turn(2, "1m"),
            turn(3, "1m"),
            turn(0, "1m"),
            ev("tsumo", actor=1, pai="P"),
            ev("kakan", actor=1, pai="P", consumed=["P", "P", "P"]),
            ev("tsumo", actor=1, pai="9m"),
            ev("dahai", actor=1, pai="9m", tsumogiri=True),
            turn(2, "6s"),
            ev("hora", actor=1, target=2, deltas=[0, 1300, -1300, 0]),
        )
    )
    hand = g.hands[0]
    assert hand.value_source == "tiles"
    assert hand.result == WinResult((Win(winner=1, value=HandValue(han=1, fu=40), discarder=2),))
    # Who made an open call in the hand: Ben's pon (his kakan adds to it and opens nothing new).
    assert isinstance(hand.result, WinResult) and hand.result.called == (1,)


def test_original_mjai_server_dialect_scores_on_the_results_not_on_start_kyoku() -> None:
    # The original mjai server (gimite/mjai, lib/mjai/active_game.rb) writes start_kyoku
    # without scores; reach_accepted, hora and ryukyoku carry the scores after them, the
    # hora's deltas hand the winner the sticks on the table, and everyone starts at 25,000.
    # Cho's riichi, then Ben's 2 han 40 fu ron off Ann: 2,600 (seeds' score table) and the stick.
    # East 2: an exhaustive draw, Ann alone ready: 3,000 from the three others.
    header = {"bakaze": "E", "honba": 0, "kyotaku": 0, "dora_marker": "9s", "tehais": [HIDDEN] * 4}
    g = read(
        whole(
            ev("start_kyoku", kyoku=1, oya=0, **header),
            ev("reach", actor=2),
            ev("reach_accepted", actor=2, deltas=[0, 0, -1000, 0], scores=[25000, 25000, 24000, 25000]),
            ev(
                "hora",
                actor=1,
                target=0,
                fan=2,
                fu=40,
                deltas=[-2600, 3600, 0, 0],
                scores=[22400, 28600, 24000, 25000],
            ),
            ev("end_kyoku"),
            ev("start_kyoku", kyoku=2, oya=1, **header),
            ev(
                "ryukyoku",
                reason="fanpai",
                tenpais=[True, False, False, False],
                deltas=[3000, -1000, -1000, -1000],
                scores=[25400, 27600, 23000, 24000],
            ),
            ev("end_kyoku"),
        )
    )
    first, second = g.hands
    assert first.scores == (25000, 25000, 25000, 25000)
    assert first.deltas == (-2600, 3600, -1000, 0)
    assert second.scores == (22400, 28600, 24000, 25000)
    assert second.result == ExhaustiveDraw(ready=(0,))
    report = verify_game(g)
    assert report.hands_agreeing == 2
    assert report.disagreements == ()


def test_a_dialect_without_deltas_takes_the_payments_from_the_next_hands_scores() -> None:
    # The small game of docs/replay.md, written by a writer that puts no deltas on hora and
    # ryukyoku: each hand's payments are the next hand's scores less its own (the riichi stick
    # apart), the last hand's the end_game's scores. Ann's riichi and her 3 han 30 fu dealer ron
    # off Ben (5,800, the seeds' score table) with her stick back; then three ready at a draw,
    # Ann not: 1,000 from her to each (3,000 pool).
    g = read(
        lines(
            ev("start_game", names=["Ann", "Ben", "Cho", "Dai"]),
            kyoku(),
            ev("tsumo", actor=0, pai="?"),
            ev("reach", actor=0),
            ev("dahai", actor=0, pai="1m", tsumogiri=True),
            ev("reach_accepted", actor=0),
            *turn(1, "2m"),
            ev("hora", actor=0, target=1),
            ev("end_kyoku"),
            kyoku(honba=1, scores=[30800, 19200, 25000, 25000]),
            ev("ryukyoku", tenpais=[False, True, True, True]),
            ev("end_kyoku"),
            ev("end_game", scores=[27800, 20200, 26000, 26000]),
        )
    )
    first, second = g.hands
    assert first.deltas == (5800, -5800, 0, 0)
    assert first.value_source == "payment"  # hidden tiles: the smallest value paying 5,800 to the dealer
    assert isinstance(first.result, WinResult) and first.result.riichi == (0,)
    assert [(w.winner, w.discarder) for w in first.result.wins] == [(0, 1)]
    assert second.deltas == (-3000, 1000, 1000, 1000)
    assert second.result == ExhaustiveDraw(ready=(1, 2, 3))
    report = verify_game(g)
    assert (report.hands, report.hands_agreeing, report.disagreements) == (2, 2, ())


def test_a_win_without_deltas_and_no_later_scores_says_what_is_missing() -> None:
    with pytest.raises(LogError) as caught:
        read_mjai(lines(kyoku(), ev("hora", actor=1, target=0), ev("end_kyoku")), file="no-deltas.jsonl")
    assert caught.value.where == "no-deltas.jsonl, line 2"
    assert "the win has no 'deltas'" in caught.value.message and "start_kyoku" in caught.value.message


def test_a_double_ron_without_deltas_cannot_be_split_between_its_winners_without_their_values() -> None:
    data = lines(
        kyoku(),
        ev("hora", actor=1, target=0),
        ev("hora", actor=2, target=0),
        ev("end_kyoku"),
        kyoku(kyoku=2, oya=1, scores=[20000, 28000, 27000, 25000]),
        ev("ryukyoku", tenpais=[False, False, False, False]),
    )
    with pytest.raises(LogError, match="cannot tell what each winner"):
        read_mjai(data, file="double.jsonl")


def test_three_winners_on_one_discard_allow_triple_ron() -> None:
    g = read(
        whole(
            kyoku(),
            ev("hora", actor=1, target=0, fan=1, fu=30, deltas=[-1000, 1000, 0, 0]),
            ev("hora", actor=2, target=0, fan=1, fu=30, deltas=[-1000, 0, 1000, 0]),
            ev("hora", actor=3, target=0, fan=1, fu=30, deltas=[-1000, 0, 0, 1000]),
        )
    )
    assert g.rules.multiple_ron == 3
    assert g.hands[0].deltas == (-3000, 1000, 1000, 1000)


# Draws.


def test_exhaustive_draw_with_tenpais() -> None:
    g = read(
        whole(
            kyoku(),
            ev("ryukyoku", reason="fanpai", tenpais=[True, False, True, False], deltas=[1500, -1500, 1500, -1500]),
        )
    )
    assert g.hands[0].result == ExhaustiveDraw(ready=(0, 2))


def test_exhaustive_draw_ready_from_the_payments() -> None:
    g = read(
        whole(
            kyoku(),
            ev("reach", actor=3),
            ev("reach_accepted", actor=3),
            ev("ryukyoku", deltas=[-1000, -1000, -1000, 3000]),
        )
    )
    hand = g.hands[0]
    assert hand.result == ExhaustiveDraw(ready=(3,), riichi=(3,))
    assert hand.deltas == (-1000, -1000, -1000, 2000)


def test_nagashi_mangan() -> None:
    g = read(whole(kyoku(), ev("ryukyoku", reason="nagashimangan", deltas=[-4000, 8000, -2000, -2000])))
    hand = g.hands[0]
    assert isinstance(hand.result, ExhaustiveDraw) and hand.result.nagashi == (1,)


@pytest.mark.parametrize(
    ("thrown", "nagashi"),
    [(["9p", "E", "1s"], (1,)), (["9p", "5p", "1s"], ()), ([], ())],
    ids=["terminals-and-honors", "a-simple-among-them", "no-discard"],
)
def test_a_nagashi_mangan_no_reason_names_is_read_from_the_discards(
    thrown: list[str], nagashi: tuple[int, ...]
) -> None:
    # The draw says only that the wall ran out; its payments are no noten payments. Seat 1's discards
    # (each a plain line: verify leaves it in the text) say whether it was a nagashi mangan.
    play = [turn(seat, tile) for tile in thrown for seat, tile in ((0, "5m"), (1, tile), (2, "4s"), (3, "6m"))]
    g = read(whole(kyoku(), *play, ev("ryukyoku", reason="exhaustive_draw", deltas=[-4000, 8000, -2000, -2000])))
    result = g.hands[0].result
    assert isinstance(result, ExhaustiveDraw) and result.nagashi == nagashi
    # Not one: the payments are read as what they would be, seat 1 paid as the one ready.
    assert result.ready == (() if nagashi else (1,))
    # Noten payments: no seat's discards are asked (a nagashi is never read from them).
    noten = read(whole(kyoku(), *play, ev("ryukyoku", reason="exhaustive_draw", deltas=[-1000, 3000, -1000, -1000])))
    assert noten.hands[0].result == ExhaustiveDraw(ready=(1,))


@pytest.mark.parametrize(
    ("reason", "kind"),
    [
        ("kyushukyuhai", AbortKind.NINE_TERMINALS),
        ("kyushu_kyuhai", AbortKind.NINE_TERMINALS),
        ("sufonrenta", AbortKind.FOUR_WINDS),
        ("suchareach", AbortKind.FOUR_RIICHI),
        ("sukaikan", AbortKind.FOUR_KONGS),
        ("sanchaho", AbortKind.TRIPLE_RON),
    ],
)
def test_every_abortive_draw(reason: str, kind: AbortKind) -> None:
    g = read(whole(kyoku(honba=1), ev("ryukyoku", reason=reason, deltas=[0, 0, 0, 0])))
    assert g.hands[0].result == AbortiveDraw(kind)


def test_a_reason_word_is_judged_once_as_the_words_say_and_the_words_kept_are_bounded() -> None:
    def named(word: str) -> AbortKind | None:
        return next((kind for words, kind in mjai.ABORT_WORDS if any(w in word for w in words)), None)

    words = ["kyushukyuhai", "exhaustivedraw", "sufonrenta", "nagashimangan", "", "xsanchahox", "ryukyoku"]
    words += [f"word{n}" for n in range(mjai._MOST_WORDS + 10)] + ["kaze4", "fourkong"]
    for word in words + words:
        assert mjai._abort_named(word) == named(word), word
    assert len(mjai._ABORT_NAMED) <= mjai._MOST_WORDS


def test_a_draw_without_reason_before_the_wall_runs_out_is_abortive() -> None:
    riichi: list[dict[str, Any]] = []
    for seat in range(4):
        riichi += [ev("tsumo", actor=seat, pai="?"), ev("reach", actor=seat)]
        riichi += [ev("dahai", actor=seat, pai="1m", tsumogiri=False), ev("reach_accepted", actor=seat)]
    g = read(whole(kyoku(), riichi, ev("ryukyoku", deltas=[0, 0, 0, 0])))
    hand = g.hands[0]
    assert hand.result == AbortiveDraw(AbortKind.FOUR_RIICHI, (0, 1, 2, 3))
    assert hand.deltas == (-1000, -1000, -1000, -1000)


@pytest.mark.parametrize(("draws", "exhaustive"), [(70, True), (69, False)])
def test_a_draw_without_reason_is_exhaustive_once_the_wall_has_run_out(draws: int, exhaustive: bool) -> None:
    # The draws counted from the hand's plain lines (verify leaves them in the text), where the draw
    # names no reason: the wall's 70 draws make it exhaustive, one fewer abortive.
    play = [turn(n % 4, "1m") for n in range(draws)]
    g = read(whole(kyoku(), *play, ev("ryukyoku", deltas=[0, 0, 0, 0])))
    result = g.hands[0].result
    if exhaustive:
        assert result == ExhaustiveDraw(ready=())
    else:
        assert isinstance(result, AbortiveDraw) and result.kind == AbortKind.TRIPLE_RON


# Three players, the game's end, the rules.


def test_three_player_game() -> None:
    scores = [35000, 35000, 35000]
    g = read(
        whole(
            kyoku(scores=scores),
            ev("hora", actor=2, target=2, fan=2, fu=30, deltas=[-1000, -1000, 2000]),
            ev("end_kyoku"),
            kyoku(kyoku=2, oya=1, scores=[34000, 34000, 37000]),
            ev("ryukyoku", reason="kyushukyuhai", deltas=[0, 0, 0]),
            names=["Ann", "Ben", "Cho"],
        )
    )
    assert g.rules.name.startswith("tenhou-sanma") and g.players == ("Ann", "Ben", "Cho")
    assert g.hands[0].result == WinResult((Win(winner=2, value=HandValue(han=2, fu=30)),))
    assert not g.truncated


def test_mjai_does_not_say_how_long_the_game_is_so_its_end_is_not_judged() -> None:
    g = read(whole(kyoku(bakaze="E", kyoku=4, oya=3), ev("ryukyoku", deltas=[0, 0, 0, 0])))
    assert g.rules.length == "south" and not g.length_known
    assert verify_game(g).disagreements == ()


def test_several_games_in_one_file() -> None:
    one = whole(kyoku(), ev("ryukyoku", deltas=[0, 0, 0, 0]))
    games = read_mjai(one + b"\n" + one, file="logs/two.jsonl")
    assert [g.game_id for g in games] == ["two#1", "two#2"]


def test_hands_after_end_game_are_a_game_of_their_own() -> None:
    draw = ev("ryukyoku", deltas=[0, 0, 0, 0])
    games = read_mjai(lines(ev("start_game"), kyoku(), draw, ev("end_game"), kyoku()), file="x.jsonl")
    assert [(g.truncated, len(g.hands)) for g in games] == [(False, 1), (True, 1)]


def test_events_as_one_json_array() -> None:
    data = json.dumps([ev("start_game"), kyoku(), ev("ryukyoku", deltas=[0, 0, 0, 0]), ev("end_game")]).encode()
    assert read(data).hands[0].result == ExhaustiveDraw()


# Malformed input: LogError naming the file and the line, never a raw exception.


@pytest.mark.parametrize(
    ("data", "where", "says"),
    [
        (b'{"type": "start_game"}\n{"type": ', "line 2", "not valid JSON"),
        (b"\xff\xfe", "bad.jsonl", "UTF-8"),
        (b"\n\n", "bad.jsonl", "no mjai events"),
        (b'{"type": "start_game"}\n[1, 2]', "line 2", "JSON object"),
        (b'{"type": "start_game"}\n{"actor": 1}', "line 2", "no 'type'"),
        (b'{"type": "start_game"}\n{"type": "end_game"}', "bad.jsonl", "no start_kyoku"),
        (lines(ev("start_game"), ev("tsumo", actor=0, pai="1m")), "line 2", "outside a hand"),
        (lines(kyoku(), ev("tsumo", actor=7, pai="1m")), "line 2", "no such seat"),
        (lines(kyoku(), ev("tsumo", actor=0, pai="0m")), "line 2", "not an mjai tile"),
        (lines(kyoku(), ev("tsumo", actor=True, pai="1m")), "line 2", "whole number"),
        (lines(kyoku(), ev("hora", actor=1, target=0, deltas=[1, 2])), "line 2", "2 values for 4 players"),
        (lines(kyoku(), ev("hora", actor=1, target=0)), "line 2", "the win has no 'deltas'"),
        (lines(kyoku(), ev("hora", actor=1, target=0, deltas=None)), "line 2", "'deltas' must be a list"),
        (lines(kyoku(), ev("hora", actor=1, target=0, deltas=[10**30, 0, 0, 0])), "line 2", "out of range"),
        (lines(kyoku(scores=[1, 2])), "line 1", "3 or 4 players"),
        (lines(kyoku(oya=2)), "line 1", "does not fit the dealer"),
        (lines(kyoku(honba=-1)), "line 1", "out of range"),
        (lines({**kyoku(), "bakaze": "X"}), "line 1", "bakaze"),
        (lines(kyoku(), ev("ryukyoku", reason="rain", deltas=[0, 0, 0, 0])), "line 2", "unknown draw reason"),
        (lines(kyoku(), ev("ryukyoku", tenpais=[1, 0], deltas=[0, 0, 0, 0])), "line 2", "tenpais"),
        (lines(kyoku(), ev("reach_accepted", actor=0), ev("reach_accepted", actor=0)), "line 3", "twice"),
        (
            lines(kyoku(), ev("hora", actor=1, target=0, fan=1, fu=30, deltas=[0, 0, 0, 0]), ev("ryukyoku")),
            "line 3",
            "after a win",
        ),
        (b'{"type": "start_kyoku", "scores": [' + b"9" * 5000 + b"]}", "line 1, column 36", "number too long"),
        (b"[" * 100_000 + b"]" * 100_000, "line 1, column 501", "nested more than 500 deep"),
    ],
)
def test_malformed_input_is_a_log_error_with_its_line(data: bytes, where: str, says: str) -> None:
    with pytest.raises(LogError) as caught:
        read_mjai(data, file="bad.jsonl")
    assert caught.value.where.startswith("bad.jsonl")
    assert where in caught.value.where
    assert says in caught.value.message
    # ``honba verify``'s reading, which leaves plain draws and discards in the text, says the same.
    with pytest.raises(LogError) as also:
        read_hands(data, file="bad.jsonl")
    assert str(also.value) == str(caught.value)


# Fresh games from another engine (riichienv), not in the corpus.


@pytest.mark.parametrize("mode", ["4p-red-half", "4p-red-east", "3p-red-half", "3p-red-east"])
def test_fresh_riichienv_games_value_from_tiles_and_pay_what_the_engine_recorded(mode: str) -> None:
    pytest.importorskip("riichienv")
    wins = 0
    # In sanma, seeds 2 and 4 have a kita between a riichi and its win: the kita ends the ippatsu.
    for seed in range(5):
        data = riichienv_game(mode, seed)
        g = read(data, file=f"riichienv-{mode}-{seed}.jsonl")
        assert not g.truncated
        assert g.rules.players == (3 if mode.startswith("3p") else 4)
        for hand, following in zip(g.hands, g.hands[1:], strict=False):
            assert hand.deltas is not None
            assert tuple(s + d for s, d in zip(hand.scores, hand.deltas, strict=True)) == following.scores
        for hand in g.hands:
            assert hand.result is not None and hand.deltas is not None
            if isinstance(hand.result, WinResult):
                wins += 1
                assert hand.value_source == "tiles", hand.position
            state = TableState(
                players=g.rules.players,
                scores=hand.scores,
                round_wind=hand.round_wind,
                hand_number=hand.hand_number,
                dealer=hand.dealer,
                counters=hand.counters,
                deposits=hand.deposit_sticks * g.rules.riichi_deposit,
            )
            # The values read off the tiles, paid under Tenhou's rules, give the engine's changes.
            assert settle(hand.result, state, g.rules).deltas(g.rules.players) == hand.deltas, hand.position
        report = verify_game(g)
        assert report.disagreements == () and report.hands == len(g.hands)
    assert wins >= 8
