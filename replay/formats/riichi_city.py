"""Riichi City game records (the platform's game-record JSON) to logged games: a translation, no scoring.

A record is the platform's answer to a record request (``{"code": 0, "data": {...}}``) or its
``data`` object alone: ``keyValue`` (the game's id), ``playerCount`` (3 or 4), ``initPoints``,
and ``handRecord``, one entry per hand. Each hand names its round wind (``quanFeng``: 49 East,
65 South, 81 West, 97 North: the tile codes of the winds), its players (``players``: ``userId``,
``nickname``, ``position``), its wall (``handCardEncode``, revealed after the hand, and its
SHA-256 ``handCardsSHA256``, published before it) and its events (``handEventRecord``: each an
``eventType`` and a ``data`` string of JSON):

- 1, the deal (one per player): ``hand_cards``, ``dealer_pos``, ``chang_ci`` (the hand of the
  round, from 1), ``ben_chang_num`` (counters), ``li_zhi_bang_num`` (deposit sticks),
  ``user_info_list`` (each ``user_id``'s ``hand_points``), ``bao_pai_card`` (the dora indicator),
  ``dices``;
- 2, a draw: ``in_card`` (0: none), ``is_gang_incard`` (from the dead wall);
- 4, an action: ``action`` 2 to 4 chi, 5 pon, 6 open kan, 7 ron, 8 closed kan, 9 added kan,
  10 tsumo, 11 discard (``is_li_zhi``: a riichi), 12 nine terminals, 13 north; ``card``;
- 5, the hand's end: ``end_type`` (0 ron, 1 tsumo, 6 nine terminals, 7 exhaustive draw, 2 to 5
  the other abortive draws, 8 a room closed early), ``win_info`` (per winner ``user_id``,
  ``all_fang_num`` han, ``all_fu``, ``fang_info``; at a draw, the players ready), ``user_profit``
  (per player ``point_profit`` and ``user_point``, the score after the hand);
- 6, the game's end: ``user_data`` (per player ``point_num``, the final score);
- 7, a kan's dora indicator: ``cards``, every kan's indicator shown so far.

Tiles are codes of 16 per suit: pinzu 1 to 9, souzu 17 to 25, manzu 33 to 41, the honors 49,
65, ..., 145 (East to red dragon), a red five 256 above its five. honba's seats count from the
first dealer (``dealer_pos`` of the first hand), as the other readers' do.

The room's rules are not in the record beyond its starting points: the hands are checked under
standard payments from those points, the end and final points are not judged (``--rules``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final, TypeGuard

import attrs

from domain.bounds import shown as quoted
from domain.errors import InvalidRules
from domain.rules import Ruleset, load_preset
from domain.values import AbortiveDraw, AbortKind, ExhaustiveDraw, HandResult, HandValue, Win, WinResult
from replay.formats.deal import DealtHand, Draw, GameDeal
from replay.formats.logmodel import LogError, LoggedGame, LoggedHand, distinct_names
from replay.formats.source import head
from replay.input.json_text import load_json

FORMAT: Final = "riichi-city"
ROUND_WINDS: Final = {49: 0, 65: 1, 81: 2, 97: 3}
WIND_LETTERS: Final = "ESWN"
# Event types.
DEAL, DRAW, ACTION, HAND_END, GAME_END, NEW_DORA = 1, 2, 4, 5, 6, 7
# Actions (``action`` of an event 4).
OPEN_CALLS: Final = frozenset({2, 3, 4, 5, 6})
RON, TSUMO, DISCARD, ADDED_KAN, NORTH = 7, 10, 11, 9, 13
# End types (``end_type`` of an event 5).
END_RON, END_TSUMO, END_NINE_TERMINALS, END_EXHAUSTIVE, END_CLOSED = 0, 1, 6, 7, 8
OTHER_ABORTS: Final = frozenset({2, 3, 4, 5})
YAKUMAN_HAN: Final = 13
SUITS: Final = {"p": 0, "s": 16, "m": 32}
_WALL_TOKEN: Final = re.compile(r"([0-9]+)([mpsz])")


def detect(data: bytes) -> bool:
    """Whether the content is a Riichi City record: a JSON object with hands (``handRecord``) of events."""
    # A capital R first, a needed part of both keys: one byte is found by ``memchr`` (a microsecond
    # for an mjai log, which holds none), where a longer needle is searched for byte by byte (40 us
    # per mjai file, asked of every JSON log). The same answer.
    return head(data).startswith(b"{") and b"R" in data and b'"handRecord"' in data and b'"handEventRecord"' in data


def tile_code(text: str) -> int:
    """A tile in ``1m``..``7z`` notation (``0`` a red five) as Riichi City's code."""
    number, suit = int(text[:-1]), text[-1]
    if suit == "z":
        return 49 + 16 * (number - 1)
    return 256 + SUITS[suit] + 5 if number == 0 else SUITS[suit] + number


def tile_text(code: int) -> str:
    """A Riichi City tile code in ``1m``..``7z`` notation (``0`` a red five)."""
    if code >= 256:
        return f"0{'psm'[(code - 256) // 16]}"
    if code >= 49:
        return f"{(code - 49) // 16 + 1}z"
    return f"{code % 16}{'psm'[code // 16]}"


def wall_tiles(text: str) -> tuple[int, ...]:
    """The tiles of a revealed wall (``handCardEncode``) in its order, in mpsz notation (``1m2m`` or
    ``12m``); ValueError when it is not that notation or holds a tile that does not exist."""
    if _WALL_TOKEN.sub("", text):
        raise ValueError("not tiles in mpsz notation")
    tiles: list[int] = []
    for digits, suit in _WALL_TOKEN.findall(text):
        for digit in digits:
            if suit == "z" and not 1 <= int(digit) <= 7:
                raise ValueError(f"no tile {digit}z")
            tiles.append(tile_code(digit + suit))
    return tuple(tiles)


def read_riichi_city(data: bytes, *, file: str) -> list[LoggedGame]:
    """The game of a Riichi City record, its hands with the record's own header and score changes."""
    return [_Reader(file, _document(data, file)).game()]


def deals(data: bytes, *, file: str) -> list[GameDeal]:
    """The deals of a Riichi City record: each hand's dealt hands, draws and dora indicators, its
    revealed wall and the SHA-256 published of it."""
    return [_Reader(file, _document(data, file)).deal()]


def _document(data: bytes, file: str) -> dict[str, Any]:
    try:
        document = load_json(data.decode("utf-8-sig"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise LogError(file, f"not valid JSON ({exc})") from None
    if isinstance(document, dict) and isinstance(document.get("data"), dict):
        document = document["data"]
    if not isinstance(document, dict) or not isinstance(document.get("handRecord"), list):
        raise LogError(file, "not a Riichi City record: no handRecord list")
    return document


@attrs.define
class _Hand:
    """A hand being read."""

    position: str
    header: dict[str, Any] = attrs.field(factory=dict)
    dealt: dict[int, tuple[int, ...]] = attrs.field(factory=dict)
    draws: list[Draw] = attrs.field(factory=list)
    dora: list[int] = attrs.field(factory=list)
    ura: list[int] = attrs.field(factory=list)
    riichi: list[int] = attrs.field(factory=list)
    pending_riichi: int | None = None
    called: set[int] = attrs.field(factory=set)
    last_actor: int | None = None
    result: HandResult | None = None
    deltas: tuple[int, ...] | None = None
    ended: bool = False
    # The hand in tenhou.net/6's arrays (``tenhou_arrays``), built as the events come.
    takes: list[list[Any]] = attrs.field(factory=list)
    drops: list[list[Any]] = attrs.field(factory=list)
    last_drawn: list[int | None] = attrs.field(factory=list)
    pons: dict[tuple[int, int], str] = attrs.field(factory=dict)
    riichi_next: set[int] = attrs.field(factory=set)


class _Reader:
    def __init__(self, file: str, document: dict[str, Any]):
        self.file = file
        self.document = document
        players = document.get("playerCount")
        if not _whole(players) or players not in (3, 4):
            raise LogError(self.where("playerCount"), f"{quoted(players)}: a game of 3 or 4 players")
        self.players: int = players
        self.first_dealer: int | None = None
        self.seat_of: dict[int, int] = {}
        self.names: list[str] = []
        self.final: tuple[int, ...] | None = None
        self.closed_early = False
        # The first hand's players by their position (user ids, nicknames).
        self._positions: list[Any] = []
        self._nicknames: list[str] = []

    def where(self, field: str) -> str:
        return f"{self.file}, {field}"

    # The game.

    def game(self) -> LoggedGame:
        hands = [self._hand(index, record) for index, record in enumerate(self.document["handRecord"])]
        logged = [self._logged(hand) for hand in hands if hand.header]
        rules = self._rules()
        note = (
            f"rules not stated: a Riichi City record states only its starting points ({rules.start_score}); "
            "the hands are checked under standard payments, the end of the match and the final points are not "
            "judged (give --rules to score them)"
        )
        unsupported = None
        if self.document.get("isGeMu") is True:
            # Wareme: whoever sits at the wall's break pays and receives double; no rules of honba's do.
            unsupported = "a Riichi City room with wareme (isGeMu): the player at the wall's break pays double"
        return LoggedGame(
            file=self.file,
            game_id=self._game_id(),
            format=FORMAT,
            players=distinct_names(self.names, self.players),
            rules=rules,
            hands=tuple(logged),
            unsupported=unsupported,
            id_in_log=isinstance(self.document.get("keyValue"), str) and bool(self.document["keyValue"].strip()),
            final_scores=self.final,
            truncated=self.final is None or self.closed_early,
            length_known=False,
            notes=(note,),
            points_judged=False,
            rules_stated=False,
        )

    def deal(self) -> GameDeal:
        hands = [(self._hand(index, record), record) for index, record in enumerate(self.document["handRecord"])]
        dealt: list[DealtHand] = []
        for hand, record in hands:
            if not hand.header:
                continue
            text = record.get("handCardEncode")
            digest = record.get("handCardsSHA256")
            wall: tuple[int, ...] | None = None
            problem: str | None = None
            if isinstance(text, str):
                try:
                    wall = wall_tiles(text)
                except ValueError as exc:
                    problem = f"handCardEncode {quoted(text)}: {exc}"
            dealt.append(
                DealtHand(
                    hand.position,
                    self._label(hand),
                    hand.header["dealer"],
                    tuple(hand.dealt.get(seat, ()) for seat in range(self.players)),
                    tuple(hand.draws),
                    tuple(hand.dora),
                    tuple(hand.ura),
                    dice=None,
                    wall_text=text if isinstance(text, str) else None,
                    digest=digest if isinstance(digest, str) else None,
                    wall=wall,
                    wall_problem=problem,
                )
            )
        return GameDeal(self.file, self._game_id(), FORMAT, self.players, tuple(dealt), commitment="sha256")

    def _game_id(self) -> str:
        key = self.document.get("keyValue")
        if isinstance(key, str) and key.strip():
            return key.strip()
        return self.file.rsplit("/", 1)[-1]

    def _rules(self) -> Ruleset:
        start = self.document.get("initPoints")
        rules = load_preset("tenhou-sanma" if self.players == 3 else "tenhou")
        if isinstance(start, int) and not isinstance(start, bool) and start > 0:
            try:
                rules = rules.with_overrides(
                    {
                        "name": f"riichi-city-{self.players}p",
                        "description": f"Riichi City room ({start:,} start; its other rules not stated in the record)",
                        "start_score": start,
                        "return_score": start,
                        "target_score": 0,
                    },
                    source="record",
                )
            except InvalidRules as exc:
                raise LogError(self.where("initPoints"), str(exc)) from None
        return rules

    def _label(self, hand: _Hand) -> str:
        header = hand.header
        return f"{WIND_LETTERS[header['round_wind']]}{header['hand_number']}-{header['counters']}"

    # One hand.

    def _hand(self, index: int, record: Any) -> _Hand:
        position = f"handRecord[{index}]"
        if not isinstance(record, dict):
            raise LogError(self.where(position), "must be an object")
        events = record.get("handEventRecord")
        if not isinstance(events, list):
            raise LogError(self.where(position), "has no handEventRecord list")
        self._players(record, position)
        hand = _Hand(position)
        for number, event in enumerate(events):
            where = f"{position}.handEventRecord[{number}]"
            if not isinstance(event, dict) or not isinstance(event.get("eventType"), int):
                raise LogError(self.where(where), "must be an object with an eventType")
            raw = event.get("data")
            try:
                data = load_json(raw) if isinstance(raw, str) and raw.strip() else {}
            except ValueError as exc:
                raise LogError(self.where(f"{where}.data"), f"not valid JSON ({exc})") from None
            if not isinstance(data, dict):
                raise LogError(self.where(f"{where}.data"), "must be a JSON object")
            self._event(hand, event["eventType"], event.get("userId"), data, record, where)
        return hand

    def _players(self, record: dict[str, Any], position: str) -> None:
        players = record.get("players")
        if not isinstance(players, list) or len(players) != self.players:
            raise LogError(self.where(f"{position}.players"), f"must list the {self.players} players")
        if self._positions:
            return
        for player in players:
            if (
                not isinstance(player, dict)
                or not _whole(player.get("userId"))
                or not _whole(player.get("position", 0))
            ):
                raise LogError(self.where(f"{position}.players"), "each player needs a userId and a position (numbers)")
        by_position = sorted(players, key=lambda p: p.get("position", 0))
        self._positions = [p["userId"] for p in by_position]
        if len(set(self._positions)) != self.players:
            raise LogError(self.where(f"{position}.players"), "two players with one userId")
        self._nicknames = [p["nickname"] if isinstance(p.get("nickname"), str) else "" for p in by_position]

    def _seat(self, user: Any, where: str) -> int:
        if not _whole(user) or user not in self.seat_of:
            raise LogError(self.where(where), f"user {quoted(user)} is none of the game's players")
        return self.seat_of[user]

    def _event(
        self, hand: _Hand, kind: int, user: Any, data: dict[str, Any], record: dict[str, Any], where: str
    ) -> None:
        if kind == DEAL:
            self._on_deal(hand, user, data, record, where)
        elif not hand.header:
            if kind in (DRAW, ACTION, HAND_END):
                raise LogError(self.where(where), f"event {kind} before the hand was dealt")
        elif kind == DRAW:
            tile = _int(data.get("in_card", 0), f"{where}.in_card", self)
            if tile and not _known(tile):
                raise LogError(self.where(f"{where}.in_card"), f"{tile}: no tile of Riichi City's")
            if tile:
                seat = self._seat(user, where)
                hand.draws.append(Draw(seat, tile, dead=bool(data.get("is_gang_incard"))))
                if hand.takes:
                    hand.takes[seat].append(tenhou_code(tile))
                    hand.last_drawn[seat] = tile
            self._accept_riichi(hand)
        elif kind == ACTION:
            self._on_action(hand, user, data, where)
        elif kind == NEW_DORA:
            # ``cards``: every kan's indicator shown so far (the deal's own, ``bao_pai_card``, apart).
            cards = data.get("cards")
            if isinstance(cards, list) and all(isinstance(c, int) for c in cards) and len(cards) >= len(hand.dora):
                hand.dora = hand.dora[:1] + list(cards)
        elif kind == HAND_END:
            self._on_end(hand, data, where)
        elif kind == GAME_END:
            self._on_game_end(data, where)

    def _on_deal(self, hand: _Hand, user: Any, data: dict[str, Any], record: dict[str, Any], where: str) -> None:
        dealer_pos = _int(data.get("dealer_pos"), f"{where}.dealer_pos", self)
        if self.first_dealer is None:
            if not 0 <= dealer_pos < self.players:
                raise LogError(self.where(f"{where}.dealer_pos"), f"{dealer_pos}: no such position")
            self.first_dealer = dealer_pos
            # Seats from the first dealer, as East: position p sits at seat (p - first dealer) mod players.
            order = self._positions[dealer_pos:] + self._positions[:dealer_pos]
            names = self._nicknames[dealer_pos:] + self._nicknames[:dealer_pos]
            self.seat_of = {user_id: seat for seat, user_id in enumerate(order)}
            self.names = names
        seat = self._seat(user, where)
        cards = data.get("hand_cards")
        if not isinstance(cards, list) or not all(_whole(c) and _known(c) for c in cards):
            raise LogError(self.where(f"{where}.hand_cards"), "must be a list of tiles")
        hand.dealt[seat] = tuple(cards)
        if not hand.header:
            self._header(hand, data, record, where)
        if seat == hand.header["dealer"] and len(cards) == 14:
            # The dealer's fourteenth tile counts as its first draw (a discard of it is from the draw).
            hand.last_drawn[seat] = cards[-1]

    def _header(self, hand: _Hand, data: dict[str, Any], record: dict[str, Any], where: str) -> None:
        """The hand's header from its first deal event, and its tile arrays begun."""
        dealer_pos = _int(data.get("dealer_pos"), f"{where}.dealer_pos", self)
        wind = record.get("quanFeng")
        if not _whole(wind) or wind not in ROUND_WINDS:
            raise LogError(
                self.where(f"{where[: where.index('.')]}.quanFeng"), f"{quoted(wind)}: not a wind (49, 65, 81, 97)"
            )
        assert self.first_dealer is not None  # set by the first deal event, before this
        dealer = (dealer_pos - self.first_dealer) % self.players
        number = _int(data.get("chang_ci"), f"{where}.chang_ci", self)
        if number != dealer + 1:
            raise LogError(self.where(f"{where}.chang_ci"), f"{number} does not fit dealer position {dealer_pos}")
        scores = [0] * self.players
        listed = data.get("user_info_list")
        if not isinstance(listed, list) or len(listed) != self.players:
            raise LogError(self.where(f"{where}.user_info_list"), f"must list the {self.players} players' points")
        for entry in listed:
            if not isinstance(entry, dict):
                raise LogError(self.where(f"{where}.user_info_list"), "must be objects")
            scores[self._seat(entry.get("user_id"), where)] = _int(
                entry.get("hand_points"), f"{where}.user_info_list.hand_points", self
            )
        hand.header = {
            "round_wind": ROUND_WINDS[wind],
            "hand_number": number,
            "dealer": dealer,
            "counters": _int(data.get("ben_chang_num", 0), f"{where}.ben_chang_num", self),
            "deposit_sticks": _int(data.get("li_zhi_bang_num", 0), f"{where}.li_zhi_bang_num", self),
            "scores": tuple(scores),
        }
        indicator = data.get("bao_pai_card")
        if _whole(indicator) and indicator:
            hand.dora = [indicator]
        hand.takes = [[] for _ in range(self.players)]
        hand.drops = [[] for _ in range(self.players)]
        hand.last_drawn = [None] * self.players

    def _accept_riichi(self, hand: _Hand) -> None:
        # A riichi's stick is on the table once its discard is not ronned.
        if hand.pending_riichi is not None and hand.pending_riichi not in hand.riichi:
            hand.riichi.append(hand.pending_riichi)
        hand.pending_riichi = None

    def _on_action(self, hand: _Hand, user: Any, data: dict[str, Any], where: str) -> None:
        action = _int(data.get("action"), f"{where}.action", self)
        seat = self._seat(user, where)
        if action == RON:
            return
        self._accept_riichi(hand)
        if hand.takes:
            self._arrays(hand, seat, action, data)
        if action in OPEN_CALLS:
            hand.called.add(seat)
        if action in (DISCARD, ADDED_KAN, NORTH):
            hand.last_actor = seat
        if action == DISCARD and data.get("is_li_zhi"):
            hand.pending_riichi = seat

    def _arrays(self, hand: _Hand, seat: int, action: int, data: dict[str, Any]) -> None:
        """An action in tenhou.net/6's arrays: a discard (60 for the tile just drawn, ``r`` before a
        riichi's), a call string with the draws (chi, pon, open kan) or the discards (the kans, north)."""
        raw_card = data.get("card")
        group = data.get("group_cards") or []
        if not _whole(raw_card) or not _known(raw_card):
            return
        if not isinstance(group, list) or not all(_whole(t) and _known(t) for t in group):
            return
        card: int = raw_card
        if action == DISCARD:
            shown: Any = 60 if card == hand.last_drawn[seat] else tenhou_code(card)
            if data.get("is_li_zhi"):
                shown = f"r{shown}"
            hand.drops[seat].append(shown)
        elif action in OPEN_CALLS and hand.last_actor is not None:
            source = (hand.last_actor - seat) % self.players
            others = sorted((tenhou_code(t) for t in group), key=_tenhou_order)
            if action in (2, 3, 4):
                text = f"c{tenhou_code(card)}{''.join(map(str, others))}"
            else:
                text = _placed("p" if action == 5 else "m", tenhou_code(card), others, source, self.players)
                if action == 5:
                    hand.pons[(seat, _kind_of(tenhou_code(card)))] = text
            hand.takes[seat].append(text)
            if action == 6:
                hand.drops[seat].append(0)
        elif action == 8:
            tiles = sorted((tenhou_code(t) for t in [*group, card]), key=_tenhou_order)
            hand.drops[seat].append(f"{''.join(map(str, tiles[:3]))}a{tiles[3]}")
        elif action == ADDED_KAN:
            added = tenhou_code(card)
            pon = hand.pons.get((seat, _kind_of(added)))
            if pon is not None:
                at = pon.index("p")
                hand.drops[seat].append(f"{pon[:at]}k{added}{pon[at + 1 :]}")
        elif action == NORTH:
            hand.drops[seat].append(f"f{tenhou_code(card)}")
        hand.last_drawn[seat] = None

    def _on_end(self, hand: _Hand, data: dict[str, Any], where: str) -> None:
        if hand.ended:
            raise LogError(self.where(where), "a second end of one hand")
        hand.ended = True
        end = _int(data.get("end_type"), f"{where}.end_type", self)
        riichi = tuple(hand.riichi)
        infos = data.get("win_info") or []
        if not isinstance(infos, list) or not all(isinstance(i, dict) for i in infos):
            raise LogError(self.where(f"{where}.win_info"), "must be a list of objects")
        profits = data.get("user_profit") or []
        if not isinstance(profits, list) or not all(isinstance(p, dict) for p in profits):
            raise LogError(self.where(f"{where}.user_profit"), "must be a list of objects")
        liable = [self._seat(p.get("user_id"), where) for p in profits if p.get("is_bao_pai")]
        for info in infos:
            ura = info.get("li_bao_card")
            if isinstance(ura, list) and ura and all(isinstance(t, int) for t in ura) and not hand.ura:
                hand.ura = list(ura)
        called = tuple(hand.called)
        if end in (END_RON, END_TSUMO):
            if not infos:
                raise LogError(self.where(f"{where}.win_info"), "a win with no winner")
            wins = []
            for info in infos:
                winner = self._seat(info.get("user_id"), where)
                discarder = None if end == END_TSUMO else hand.last_actor
                if discarder == winner:
                    raise LogError(self.where(where), f"seat {winner} rons its own discard")
                value = _value(info, self, where)
                pao = next((s for s in liable if s != winner), None)
                wins.append(Win(winner=winner, value=value, discarder=discarder, liable=pao))
            hand.result = WinResult(tuple(wins), riichi, called=called)
        elif end == END_EXHAUSTIVE:
            ready = tuple(sorted({self._seat(i.get("user_id"), where) for i in infos}))
            hand.result = ExhaustiveDraw(ready=ready, riichi=riichi, called=called)
        elif end == END_NINE_TERMINALS:
            hand.result = AbortiveDraw(AbortKind.NINE_TERMINALS, riichi=riichi, called=called)
        elif end in OTHER_ABORTS:
            # The record does not say which abortive draw (four winds, four riichi, four kans, three
            # rons): none of them pays anything, and the deal stays with the dealer after each.
            hand.result = AbortiveDraw(AbortKind.OTHER, riichi=riichi, called=called)
        elif end == END_CLOSED:
            self.closed_early = True
            return
        else:
            raise LogError(
                self.where(f"{where}.end_type"), f"{end}: an end of a hand Riichi City records are not known to write"
            )
        hand.deltas = self._deltas(hand, profits, where)

    def _deltas(self, hand: _Hand, profits: list[dict[str, Any]], where: str) -> tuple[int, ...] | None:
        """Each seat's change over the hand, riichi sticks put down included: its score after
        (``user_point``) less its score before."""
        if len(profits) != self.players:
            return None
        deltas = [0] * self.players
        for profit in profits:
            seat = self._seat(profit.get("user_id"), where)
            after = _int(profit.get("user_point"), f"{where}.user_profit.user_point", self)
            deltas[seat] = after - hand.header["scores"][seat]
        return tuple(deltas)

    def _on_game_end(self, data: dict[str, Any], where: str) -> None:
        listed = data.get("user_data")
        if not isinstance(listed, list) or len(listed) != self.players:
            raise LogError(self.where(f"{where}.user_data"), f"must list the {self.players} players' final points")
        final = [0] * self.players
        for entry in listed:
            if not isinstance(entry, dict):
                raise LogError(self.where(f"{where}.user_data"), "must be objects")
            final[self._seat(entry.get("user_id"), where)] = _int(
                entry.get("point_num"), f"{where}.user_data.point_num", self
            )
        self.final = tuple(final)

    def _tiles(self, hand: _Hand) -> tuple[Any, ...] | None:
        """The hand in tenhou.net/6's arrays: indicators, then each seat's haipai, draws, discards."""
        if len(hand.dealt) != self.players or not all(_known(t) for t in (*hand.dora, *hand.ura)):
            return None
        arrays: list[Any] = [[tenhou_code(t) for t in hand.dora], [tenhou_code(t) for t in hand.ura]]
        dealer = hand.header["dealer"]
        for seat in range(4):
            if seat >= self.players:
                arrays += [[], [], []]
                continue
            dealt = list(hand.dealt[seat])
            takes = list(hand.takes[seat])
            if seat == dealer and len(dealt) == 14:
                # The dealer's fourteenth tile is its first draw in tenhou.net/6's arrays.
                takes.insert(0, tenhou_code(dealt.pop()))
            haipai = sorted((tenhou_code(t) for t in dealt), key=_tenhou_order)
            arrays += [haipai, takes, list(hand.drops[seat])]
        return tuple(arrays)

    def _logged(self, hand: _Hand) -> LoggedHand:
        header = hand.header
        return LoggedHand(
            position=hand.position,
            round_wind=header["round_wind"],
            hand_number=header["hand_number"],
            dealer=header["dealer"],
            counters=header["counters"],
            deposit_sticks=header["deposit_sticks"],
            scores=header["scores"],
            result=hand.result,
            deltas=hand.deltas,
            tiles=self._tiles(hand) if hand.takes else None,
        )


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


TENHOU_SUITS: Final = {0: 20, 16: 30, 32: 10}  # pinzu, souzu, manzu: tenhou.net/6's tens
TENHOU_REDS: Final = {256 + 5: 52, 256 + 21: 53, 256 + 37: 51}


def _known(code: int) -> bool:
    """Whether a code is a tile of Riichi City's (a red five, a suit's 1 to 9, an honor)."""
    if code in TENHOU_REDS:
        return True
    if 49 <= code <= 145:
        return (code - 49) % 16 == 0
    return code // 16 in (0, 1, 2) and 1 <= code % 16 <= 9


def tenhou_code(code: int) -> int:
    """A Riichi City tile in tenhou.net/6's code (11 to 47, 51 to 53 the red fives)."""
    if code in TENHOU_REDS:
        return TENHOU_REDS[code]
    if code >= 49:
        return 41 + (code - 49) // 16
    return TENHOU_SUITS[code // 16 * 16] + code % 16


def _kind_of(code: int) -> int:
    """A tenhou.net/6 code's kind: a red five is its five."""
    return (code - 50) * 10 + 5 if code > 50 else code


def _tenhou_order(code: int) -> tuple[int, int]:
    # Tenhou lists tiles by kind, a red five after the plain ones.
    return _kind_of(code), 1 if code > 50 else 0


def _placed(letter: str, called: int, others: list[int], source: int, players: int) -> str:
    """A pon or open kan's string: the letter and the called tile at the place of the player it
    was called from (first from the left, second across, last from the right)."""
    if players == 3 and source == 2:
        source = 3  # three players: the seat two along is the left
    at = {3: 0, 2: 1, 1: len(others)}.get(source, 0)
    parts = [str(t) for t in others]
    parts.insert(at, f"{letter}{called}")
    return "".join(parts)


def _int(value: Any, field: str, reader: _Reader) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 10**9:
        raise LogError(reader.where(field), f"{quoted(value)}: not a whole number")
    return value


def _value(info: dict[str, Any], reader: _Reader, where: str) -> HandValue:
    """A winner's hand value as the record states it: its han (dora included) and fu; a yakuman
    when one of its yaku counts 13 han or more (each 13 a multiple)."""
    han = _int(info.get("all_fang_num"), f"{where}.win_info.all_fang_num", reader)
    fu = _int(info.get("all_fu", 0), f"{where}.win_info.all_fu", reader)
    yaku: Sequence[Any] = info.get("fang_info") or []
    if any(isinstance(y, dict) and isinstance(y.get("fang_num"), int) and y["fang_num"] >= YAKUMAN_HAN for y in yaku):
        return HandValue(limit="yakuman", multiple=max(1, han // YAKUMAN_HAN))
    if han < 1:
        raise LogError(reader.where(f"{where}.win_info.all_fang_num"), f"{han}: a win of no han")
    return HandValue(han=han, fu=fu if fu else None)


# The name the registry (``replay.formats.detect.REGISTRY``) reads this format with.
read = read_riichi_city
