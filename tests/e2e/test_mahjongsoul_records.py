"""Native Mahjong Soul records (the liqi protocol's protobuf), built for the tests with ms-api's own
classes: read into the log model with the room's rules from the record's configuration, and
verified hand by hand.

The game (a friendly room: 25,000 start, kiriage mangan): East 1, after Ben's riichi stood, Cho
rons Dai's discard with 4 han 30 fu, 8,000 under kiriage (7,700 without), the stick his;
East 2, Dai's 1 han 30 fu tsumo (300/500); East 3, an exhaustive draw with Ann and Cho ready
(3,000 noten payments); East 3 with one counter, Cho's dealer baiman on Dai (24,000 and 300), which
takes Dai below zero and ends the game. Tenhou's and Mahjong Soul's tables give these numbers.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from honba_cli import Honba

from domain.values import ExhaustiveDraw, HandValue, WinResult
from replay.formats.detect import detect_format, read_log
from replay.formats.logmodel import LogError
from replay.service.imports.deal import deal_paths
from replay.service.imports.verify import verify_game

NAMES = ["Ann", "Ben", "Cho", "Dai"]


class _Protocol:
    """ms-api's ``protocol_pb2``, imported when a test first builds a message: at module level it cost
    every test process 0.8 s of CPU while it collected the suite."""

    def __getattr__(self, name: str) -> Any:
        from ms import protocol_pb2

        return getattr(protocol_pb2, name)


liqi = _Protocol()


def wrapped(message: Any) -> bytes:
    return liqi.Wrapper(name=f".lq.{type(message).__name__}", data=message.SerializeToString()).SerializeToString()


def new_round(ju: int, scores: list[int], ben: int = 0, liqibang: int = 0) -> Any:
    hand = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "2z", "2z"]
    return liqi.RecordNewRound(
        chang=0,
        ju=ju,
        ben=ben,
        liqibang=liqibang,
        scores=scores,
        tiles0=hand + (["3z"] if ju == 0 else []),
        tiles1=hand + (["3z"] if ju == 1 else []),
        tiles2=hand + (["3z"] if ju == 2 else []),
        tiles3=hand + (["3z"] if ju == 3 else []),
        doras=["5m"],
    )


def events(*, kiriage_room: bool = True) -> list[Any]:
    win = liqi.HuleInfo(seat=2, zimo=False, count=4, fu=30, yiman=False)
    tsumo = liqi.HuleInfo(seat=3, zimo=True, count=1, fu=30, yiman=False)
    # Without kiriage Cho's ron is 300 less, and every later score of Cho and Dai 300 apart.
    k = 0 if kiriage_room else 300
    return [
        new_round(0, [25000] * 4),
        liqi.RecordDiscardTile(seat=0, tile="3z"),
        liqi.RecordDealTile(seat=1, tile="4z"),
        liqi.RecordDiscardTile(seat=1, tile="4z", is_liqi=True),
        liqi.RecordDealTile(seat=2, tile="5z", liqi=liqi.LiQiSuccess(seat=1, score=24000, liqibang=1)),
        liqi.RecordDiscardTile(seat=2, tile="5z"),
        liqi.RecordDealTile(seat=3, tile="6z"),
        liqi.RecordDiscardTile(seat=3, tile="6z"),
        # The record's changes of the win: the riichi stick taken by the winner, the sticks put down apart.
        liqi.RecordHule(
            hules=[win], delta_scores=[0, 0, 9000 if kiriage_room else 8700, -8000 if kiriage_room else -7700]
        ),
        new_round(1, [25000, 24000, 34000 - k, 17000 + k]),
        liqi.RecordDiscardTile(seat=1, tile="3z"),
        liqi.RecordChiPengGang(seat=2, type=1, tiles=["3z", "3z", "3z"], froms=[2, 2, 1]),
        liqi.RecordDiscardTile(seat=2, tile="1m"),
        liqi.RecordDealTile(seat=3, tile="7z"),
        liqi.RecordHule(hules=[tsumo], delta_scores=[-300, -500, -300, 1100]),
        new_round(2, [24700, 23500, 33700 - k, 18100 + k]),
        liqi.RecordDiscardTile(seat=2, tile="3z"),
        liqi.RecordNoTile(
            players=[
                liqi.NoTilePlayerInfo(tingpai=True),
                liqi.NoTilePlayerInfo(tingpai=False),
                liqi.NoTilePlayerInfo(tingpai=True),
                liqi.NoTilePlayerInfo(tingpai=False),
            ],
            scores=[liqi.NoTileScoreInfo(delta_scores=[1500, -1500, 1500, -1500])],
        ),
        # The dealer was ready: East 3 again, one counter; the dealer's baiman on Dai (24,000 and 300)
        # takes Dai below zero, which ends the game (the room does not play on below zero).
        new_round(2, [26200, 22000, 35200 - k, 16600 + k], ben=1),
        liqi.RecordDiscardTile(seat=2, tile="3z"),
        liqi.RecordDealTile(seat=3, tile="7z"),
        liqi.RecordDiscardTile(seat=3, tile="7z"),
        liqi.RecordHule(hules=[liqi.HuleInfo(seat=2, count=8, fu=40)], delta_scores=[0, 0, 24300, -24300]),
    ]


def game_record(*, kiriage_room: bool = True, actions: bool = True) -> liqi.ResGameRecord:
    """The response a client receives for the record: its head and its data (the record, wrapped)."""
    if actions:
        detail = liqi.GameDetailRecords(
            version=210715,
            actions=[liqi.GameAction(type=1, result=wrapped(e)) for e in events(kiriage_room=kiriage_room)],
        )
    else:
        detail = liqi.GameDetailRecords(records=[wrapped(e) for e in events(kiriage_room=kiriage_room)])
    rule = liqi.GameDetailRule(
        init_point=25000,
        fandian=30000,
        liqibang_value=1000,
        changbang_value=100,
        have_qieshangmanguan=kiriage_room,
        have_liujumanguan=True,
        can_jifei=False,
    )
    head = liqi.RecordGame(
        uuid="231129-0e1c4b9a-test-4c6b-8a43-000000000034",
        config=liqi.GameConfig(category=1, mode=liqi.GameMode(mode=2, detail_rule=rule)),
        accounts=[liqi.RecordGame.AccountInfo(account_id=100 + s, seat=s, nickname=n) for s, n in enumerate(NAMES)],
        result=liqi.GameEndResult(
            players=[
                liqi.GameEndResult.PlayerItem(seat=s, part_point_1=p)
                for s, p in enumerate([26200, 22000, 59500, -7700] if kiriage_room else [26200, 22000, 59200, -7400])
            ]
        ),
    )
    return liqi.ResGameRecord(head=head, data=detail_bytes(detail))


def detail_bytes(detail: Any) -> bytes:
    return liqi.Wrapper(name=".lq.GameDetailRecords", data=detail.SerializeToString()).SerializeToString()


def written(tmp_path: Path, data: bytes, name: str = "game.pb") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_a_record_is_read_with_its_room_rules(tmp_path: Path) -> None:
    path = written(tmp_path, game_record().SerializeToString())
    assert detect_format(path.read_bytes()) == "mahjongsoul"
    [game] = read_log(path)
    assert game.players == tuple(NAMES)
    assert game.game_id == "231129-0e1c4b9a-test-4c6b-8a43-000000000034"
    assert game.rules.kiriage_mangan and game.rules.start_score == 25000 and game.rules.target_score == 30000
    ron, tsumo, draw, _ = (h.result for h in game.hands)
    assert isinstance(ron, WinResult) and isinstance(tsumo, WinResult)
    assert [(w.winner, w.discarder, w.value) for w in ron.wins] == [(2, 3, HandValue(han=4, fu=30))]
    assert ron.riichi == (1,)
    assert [(w.winner, w.discarder) for w in tsumo.wins] == [(3, None)]
    assert tsumo.called == (2,)
    assert draw == ExhaustiveDraw(ready=(0, 2))
    # The sticks put down in the hand are counted in its changes.
    assert game.hands[0].deltas == (0, -1000, 9000, -8000)
    assert game.final_scores == (26200, 22000, 59500, -7700)


@pytest.mark.parametrize("actions", [True, False], ids=["actions", "records"])
def test_every_hand_agrees_under_the_rooms_kiriage(tmp_path: Path, actions: bool) -> None:
    [game] = read_log(written(tmp_path, game_record(actions=actions).SerializeToString()))
    report = verify_game(game)
    assert report.disagreements == ()
    assert report.hands == report.hands_agreeing == 4


def test_a_room_without_kiriage_pays_7700(tmp_path: Path) -> None:
    [game] = read_log(written(tmp_path, game_record(kiriage_room=False).SerializeToString()))
    assert not game.rules.kiriage_mangan
    report = verify_game(game)
    assert report.disagreements == () and report.hands_agreeing == 4
    # The kiriage room's record read under rules without kiriage would disagree: the rule is read, not assumed.
    [kiriage] = read_log(written(tmp_path, game_record().SerializeToString(), "k.pb"))
    unkiriaged = attrs.evolve(kiriage, rules=game.rules)
    assert [(d.hand, d.field) for d in verify_game(unkiriaged).disagreements][:1] == [("E1-0", "score changes")]


def test_the_record_alone_and_the_framed_response_are_read(tmp_path: Path) -> None:
    record = game_record()
    alone = written(tmp_path, record.data, "alone.bin")
    [game] = read_log(alone)
    assert len(game.hands) == 4 and not game.rules_stated
    framed = bytes([3, 0, 7]) + liqi.Wrapper(name="", data=record.SerializeToString()).SerializeToString()
    [again] = read_log(written(tmp_path, framed, "framed.bin"))
    assert again.players == tuple(NAMES) and verify_game(again).hands_agreeing == 4


def test_a_record_is_imported_and_verified_by_the_command(tmp_path: Path) -> None:
    path = written(tmp_path, game_record().SerializeToString())
    honba = Honba(tmp_path / "store.sqlite")
    stored = honba("import", str(tmp_path))
    assert stored.exit_code == 0, stored.output
    assert "1 stored" in stored.stdout
    verified = honba("verify", "--json", str(path))
    assert verified.exit_code == 0, verified.output
    assert json.loads(verified.stdout)["hands_agreeing"] == 4


def test_a_broken_record_is_one_line(tmp_path: Path) -> None:
    data = game_record().SerializeToString()
    with pytest.raises(LogError, match="does not decode"):
        read_log(written(tmp_path, data[:-40]))


def test_a_record_saved_as_log_is_found_in_a_directory_other_logs_are_not(tmp_path: Path) -> None:
    written(tmp_path, game_record().SerializeToString(), "game-231129.log")
    (tmp_path / "server.log").write_text("12:00 started\n", "utf-8")
    honba = Honba(tmp_path / "store.sqlite")
    result = honba("verify", "--json", str(tmp_path))
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (data["files"], data["hands_agreeing"], data["unreadable"]) == (1, 4, [])


def test_a_record_is_exported_with_its_tiles(tmp_path: Path) -> None:
    path = written(tmp_path, game_record().SerializeToString())
    honba = Honba(tmp_path / "store.sqlite")
    assert honba("import", str(path)).exit_code == 0
    out = tmp_path / "out.json"
    key = "231129-0e1c4b9a-test-4c6b-8a43-000000000034"
    assert honba("export", key, "--format", "tenhou-json", "-o", str(out)).exit_code == 0
    first, second, *_ = json.loads(out.read_text("utf-8"))["log"]
    # East 1: the dealer's fourteenth tile (3z) is its first draw; the dora indicator 5m; Ben's
    # riichi on the 4z he drew (4z = 44).
    assert first[2] == [15] and first[5] == [43] and first[6] == [43]
    assert first[8] == [44] and first[9] == ["r44"]
    # East 2: Cho pons Ben's 3z (Ben sits on Cho's left): the letter first.
    assert second[11] == ["p434343"]
    verified = honba("verify", "--json", str(out))
    assert json.loads(verified.stdout)["hands_agreeing"] == 4


# A three-player hand's wall and salt as a public write-up shows them, with the SHA-256 the game
# published before the hand (pages.lipenghua.com, "maj-soul-crypto"): the digest is of the wall's
# text followed by the salt.
PUBLISHED_WALL = (
    "5p7s6z9m1m3z7p1p4z9p3z6s6p2z6p1p3p2s3p0s7z1m3p8p4p1z2s1z4p1z5z4z2z7s3z5s5z3p5p4s6p4p4s"
    "5p9s3s8p9m6z3z5s9s8p5z8s8p6s9p4z1m7p7p9p3s0p6s6s6z5s7s5z7z1p1s2z2s9p7p3s9m1s1z8s4z2p4s"
    "9m4p9s2s7z7s9s2p7z3s1s2p2z6z6p1p2p4s8s8s1m1s"
)
PUBLISHED_SALT = "3BTPHcg7hr3NXhMWuswVwC4F4TmBmguY"
PUBLISHED_SHA256 = "baa9a22c3151b771d6e7107d885015d33927e557a33e30d8974ac8175e9a8c05"


def dealt_record(*, sha256: str | None = None, draw: str | None = None) -> bytes:
    """One three-player hand dealt from the published wall (from its start, four tiles at a time
    from the dealer, then one each and the dealer's fourteenth) with two draws after the deal."""
    wall = [PUBLISHED_WALL[i : i + 2] for i in range(0, len(PUBLISHED_WALL), 2)]
    hands: list[list[str]] = [[], [], []]
    taken = 0
    for size in (4, 4, 4, 1):
        for seat in range(3):
            hands[seat] += wall[taken : taken + size]
            taken += size
    hands[0].append(wall[taken])
    taken += 1
    new_round = liqi.RecordNewRound(
        chang=0,
        ju=0,
        scores=[35000] * 3,
        tiles0=hands[0],
        tiles1=hands[1],
        tiles2=hands[2],
        doras=[wall[-6]],
        paishan=PUBLISHED_WALL,
        salt=PUBLISHED_SALT,
        sha256=sha256 or PUBLISHED_SHA256,
    )
    events = [
        new_round,
        liqi.RecordDiscardTile(seat=0, tile=hands[0][-1], moqie=True),
        liqi.RecordDealTile(seat=1, tile=draw or wall[taken]),
        liqi.RecordDiscardTile(seat=1, tile=draw or wall[taken], moqie=True),
        liqi.RecordDealTile(seat=2, tile=wall[taken + 1]),
        liqi.RecordLiuJu(type=1),
    ]
    detail = liqi.GameDetailRecords(records=[wrapped(e) for e in events])
    return liqi.Wrapper(name=".lq.GameDetailRecords", data=detail.SerializeToString()).SerializeToString()


def test_the_published_digest_is_of_the_wall_and_its_salt(tmp_path: Path) -> None:
    run = deal_paths([written(tmp_path, dealt_record(), "hand.pb")])
    data = run.as_dict()
    assert (data["hands"], data["hands_matching"], data["mismatches"]) == (1, 1, [])
    wrong = deal_paths([written(tmp_path, dealt_record(sha256="0" * 64), "wrong.pb")]).as_dict()
    assert [m["field"] for m in wrong["mismatches"]] == ["wall digest"]
    other = next(t for t in ("1z", "2z", "3z") if t != PUBLISHED_WALL[2 * 40 : 2 * 40 + 2])
    drawn = deal_paths([written(tmp_path, dealt_record(draw=other), "drawn.pb")]).as_dict()
    assert [m["field"] for m in drawn["mismatches"]] == ["dealt hands and draws"]


def settled_record(uma: tuple[int, int, int], totals: list[int], return_points: int = 25000) -> bytes:
    """The game's record with the room's settlement in its configuration and final points at its end."""
    record = game_record()
    rule = record.head.config.mode.detail_rule
    rule.jingsuanyuandian = return_points
    rule.shunweima_2, rule.shunweima_3, rule.shunweima_4 = uma
    for player, total in zip(record.head.result.players, totals, strict=True):
        player.total_point = total
    return bytes(record.SerializeToString())


# The end (26,200, 22,000, 59,500, -7,700) counted from 25,000: Cho +34.5 and the first's uma, Ann +1.2
# and the second's, Ben -3.0 and the third's, Dai -32.7 and the last's.
RANKED_UMA_POINTS = [6200, -8000, 49500, -47700]  # uma +15/+5/-5/-15
MLEAGUE_UMA_POINTS = [11200, -13000, 64500, -62700]  # uma +30/+10/-10/-30


@pytest.mark.parametrize(
    ("uma", "totals"), [((5, -5, -15), RANKED_UMA_POINTS), ((10, -10, -30), MLEAGUE_UMA_POINTS)], ids=["15", "30"]
)
def test_the_rooms_uma_is_read_and_the_final_points_judged(tmp_path: Path, uma: Any, totals: list[int]) -> None:
    [game] = read_log(written(tmp_path, settled_record(uma, totals)))
    assert game.rules.uma == (-sum(uma), *uma) and game.rules.return_score == 25000
    assert game.points_judged and game.final_points == tuple(t / 1000 for t in totals)
    assert verify_game(game).disagreements == ()
    # The same end under the other uma: the final points are judged, so they disagree.
    other = MLEAGUE_UMA_POINTS if totals == RANKED_UMA_POINTS else RANKED_UMA_POINTS
    [wrong] = read_log(written(tmp_path, settled_record(uma, other), "wrong.pb"))
    assert [d.field for d in verify_game(wrong).disagreements] == ["final points"]


def test_points_counted_from_above_the_start_give_the_top_the_oka(tmp_path: Path) -> None:
    # From 30,000 with 25,000 starts: everyone 5.0 lower, the top +20.0 (the four players' 5,000).
    oka = [1200, -13000, 64500, -52700]
    [game] = read_log(written(tmp_path, settled_record((5, -5, -15), oka, return_points=30000)))
    assert game.rules.oka == 20000
    assert verify_game(game).disagreements == ()
