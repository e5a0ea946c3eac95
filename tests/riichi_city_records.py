"""Riichi City game records written for the tests, in the platform's shape (``{"code": 0, "data": {...}}``).

Each hand gets a wall of its own (shuffled with a fixed seed), dealt from its start (four tiles
at a time three times round from the dealer, then one each, the dealer's fourteenth after) and
drawn from the tile after; its ``handCardEncode`` is that wall in mpsz notation and its
``handCardsSHA256`` the SHA-256 of that text, as the platform publishes them. The score changes
(``user_profit``) are the numbers the test states, from the rules' own tables, never computed here.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from replay.formats.riichi_city import tile_code, tile_text

WINDS = {"E": 49, "S": 65, "W": 81}
NAMES = ["Aoi", "Ben", "Chie", "Dai"]


def full_wall(players: int) -> list[int]:
    """Every tile of a set, red fives included (one in each suit; three players: no 2m to 8m, no red 5m)."""
    tiles: list[int] = []
    for suit in "mps":
        for number in range(1, 10):
            if players == 3 and suit == "m" and 2 <= number <= 8:
                continue
            copies = [f"{number}{suit}"] * 4
            if number == 5 and not (players == 3 and suit == "m"):
                copies[0] = f"0{suit}"
            tiles += [tile_code(t) for t in copies]
    tiles += [tile_code(f"{n}z") for n in range(1, 8) for _ in range(4)]
    return tiles


class Record:
    """A game being written: hands appended in order, then the game's end."""

    def __init__(
        self, players: int = 4, init_points: int = 25000, first_dealer: int = 1, key: str = "cu1test0000000000001"
    ):
        self.players = players
        self.users = [200000001 + position for position in range(players)]
        self.first_dealer = first_dealer
        self.init_points = init_points
        self.key = key
        self.hands: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self.random = random.Random(34)

    def position(self, seat: int) -> int:
        """The platform's position of honba's seat (seats count from the first dealer)."""
        return (seat + self.first_dealer) % self.players

    def _event(self, kind: int, seat: int | None, data: dict[str, Any]) -> None:
        user = self.users[self.position(seat)] if seat is not None else 0
        self.events.append(
            {
                "data": json.dumps(data),
                "eventPos": len(self.events),
                "eventType": kind,
                "handId": "",
                "startTime": 1700000000000 + 1000 * len(self.events),
                "userId": user,
            }
        )

    def hand(
        self,
        wind: str,
        dealer: int,
        counters: int,
        sticks: int,
        scores: list[int],
        play: list[tuple[Any, ...]],
        end: dict[str, Any],
        deltas: list[int],
        kan_dora: bool = False,
    ) -> None:
        """One hand: ``scores`` and ``deltas`` by seat; ``play`` the turns in order: ``("draw", seat)``
        (the next tile, discarded), ``("riichi", seat)``, ``("tsumo", seat)``, ``("pon", seat)``;
        ``end`` the end event's ``end_type`` and winners (seat, han, fu) or ready seats."""
        wall = full_wall(self.players)
        self.random.shuffle(wall)
        self.events = []
        dealt: list[list[int]] = [[] for _ in range(self.players)]
        taken = 0
        for size in (4, 4, 4, 1):
            for turn in range(self.players):
                seat = (dealer + turn) % self.players
                dealt[seat] += wall[taken : taken + size]
                taken += size
        dealt[dealer].append(wall[taken])
        taken += 1
        info = [
            {"user_id": self.users[self.position(seat)], "hand_points": scores[seat]} for seat in range(self.players)
        ]
        for seat in range(self.players):
            self._event(
                1,
                seat,
                {
                    "hand_cards": dealt[seat],
                    "dealer_pos": self.position(dealer),
                    "chang_ci": dealer + 1,
                    "ben_chang_num": counters,
                    "li_zhi_bang_num": sticks,
                    "user_info_list": info,
                    # The fifth tile from the wall's end (the ninth with three players).
                    "bao_pai_card": wall[-5 if self.players == 4 else -9],
                    "dices": [3, 4],
                },
            )
        last_discard = 0
        for number, step in enumerate(play):
            kind, seat = step[0], step[1]
            if kind == "pon":
                # The pon of the last discard, with two tiles of the caller's hand (the record's
                # shapes; the tiles need not make a real pon here), then its discard.
                self._event(4, seat, {"action": 5, "card": last_discard, "group_cards": dealt[seat][1:3]})
                self._event(4, seat, {"action": 11, "card": dealt[seat][0], "is_li_zhi": False})
                last_discard = dealt[seat][0]
                continue
            if number == 0 and seat == dealer:
                # The dealer's first turn draws nothing: its fourteenth tile was dealt.
                self._event(2, seat, {"in_card": 0, "is_gang_incard": False, "is_first_xun_in": True})
                self._event(4, seat, {"action": 11, "card": dealt[seat][-1], "is_li_zhi": kind == "riichi"})
                last_discard = dealt[seat][-1]
                continue
            tile = wall[taken]
            taken += 1
            last_discard = tile
            self._event(2, seat, {"in_card": tile, "is_gang_incard": False, "is_first_xun_in": False})
            if kind == "tsumo":
                self._event(4, seat, {"action": 10, "card": tile, "is_li_zhi": False})
            else:
                self._event(4, seat, {"action": 11, "card": tile, "is_li_zhi": kind == "riichi"})
        if kan_dora:
            # A kan's indicator (event 7 lists every kan's indicator): two tiles further into the dead wall.
            self._event(7, None, {"cards": [wall[-7]]})
        if end.get("ron"):
            for winner in end["ron"]:
                self._event(4, winner, {"action": 7, "card": 0, "is_li_zhi": False})
        wins = [
            {
                "user_id": self.users[self.position(seat)],
                "all_fang_num": han,
                "all_fu": fu,
                "all_point": 0,
                "fang_info": [{"fang_type": 1, "fang_num": han}],
                # A riichi win shows the ura indicator: the tile after the dora indicator.
                "li_bao_card": [wall[-6 if self.players == 4 else -10]] if end.get("ura") else None,
            }
            for seat, han, fu in end.get("winners", ())
        ]
        wins += [
            {"user_id": self.users[self.position(seat)], "all_fang_num": 0, "all_fu": 0}
            for seat in end.get("ready", ())
        ]
        profit = [
            {
                "user_id": self.users[self.position(seat)],
                "point_profit": deltas[seat],
                "li_zhi_profit": 0,
                "is_bao_pai": False,
                "user_point": scores[seat] + deltas[seat],
            }
            for seat in range(self.players)
        ]
        self._event(5, None, {"end_type": end["end_type"], "win_info": wins, "user_profit": profit})
        text = "".join(tile_text(t) for t in wall)
        self.hands.append(
            {
                "benChangNum": counters,
                "changCi": dealer + 1,
                "quanFeng": WINDS[wind],
                "handCardEncode": text,
                "handCardsSHA256": hashlib.sha256(text.encode()).hexdigest(),
                "handID": f"h{len(self.hands)}",
                "handPos": len(self.hands),
                "paiShan": [],
                "players": [
                    {"userId": self.users[p], "nickname": NAMES[p], "position": p, "points": 0}
                    for p in range(self.players)
                ],
                "handEventRecord": self.events,
            }
        )

    def end(self, finals: list[int]) -> None:
        """The game's end, with each seat's final score."""
        data = {
            "user_data": [
                {"user_id": self.users[self.position(seat)], "point_num": finals[seat], "score": 0}
                for seat in range(self.players)
            ]
        }
        self.hands[-1]["handEventRecord"].append(
            {"data": json.dumps(data), "eventPos": 999, "eventType": 6, "handId": "", "startTime": 0, "userId": 0}
        )

    def document(self) -> dict[str, Any]:
        """The record as the platform serves it."""
        return {
            "code": 0,
            "message": "ok",
            "data": {
                "keyValue": self.key,
                "playerCount": self.players,
                "initPoints": self.init_points,
                "round": 2,
                "fangFu": 1,
                "gamePlay": 1001,
                "handRecord": self.hands,
            },
        }
