"""Native Mahjong Soul records (the liqi protocol's protobuf) to logged games: a translation, no scoring.

A record file is one of: the game-record response (``ResGameRecord``: ``head``, the game's
players and configuration, and ``data``, its record), that response framed as the client
receives it (a response byte, a two-byte index, a ``Wrapper`` around it), or the record alone
(``Wrapper`` named ``.lq.GameDetailRecords``). The record (``GameDetailRecords``) holds its
events as ``Wrapper``s (``records``, or since 2021 ``actions`` of type 1), each named by its
message: ``RecordNewRound`` (round ``chang``, dealer ``ju``, counters ``ben``, sticks
``liqibang``, ``scores``, the hands dealt, ``doras``), ``RecordDealTile`` (a draw, with the
previous riichi's ``liqi`` when it stood), ``RecordDiscardTile`` (``is_liqi``),
``RecordChiPengGang`` (a call), ``RecordAnGangAddGang``, ``RecordBaBei`` (a north),
``RecordHule`` (the wins: each ``seat``, ``zimo``, ``count`` han or yakuman multiples with
``yiman``, ``fu``; ``delta_scores``), ``RecordNoTile`` (an exhaustive draw: who was ``tingpai``,
the ``delta_scores``) and ``RecordLiuJu`` (an abortive draw, by ``type``).

The room's rules are the record's own configuration (``head.config``): its mode (east or
south, three or four players), and for a room with rules of its own (``mode.detail_rule``)
the starting points, the points needed to end, kiriage mangan, nagashi mangan, the riichi
stick, going below zero, and the settlement: the points final points count from
(``jingsuanyuandian``, the top taking the difference from the start as oka) and the uma of the
second to last places (``shunweima_2``..``shunweima_4``, the first's their negated sum). The
record's final points (``total_point``, in thousandths) are then judged; a ranked room's are
judged under Mahjong Soul's ranked uma (the mode's preset). The liqi protocol's classes are
ms-api's ``ms.protocol_pb2``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Final

import attrs
from google.protobuf.message import DecodeError
from ms import protocol_pb2 as liqi

from domain.errors import InvalidRules
from domain.rules import Ruleset, load_preset
from domain.values import AbortiveDraw, AbortKind, ExhaustiveDraw, HandResult, HandValue, Win, WinResult
from replay.formats.deal import DealtHand, Draw, GameDeal
from replay.formats.logmodel import LogError, LoggedGame, LoggedHand, distinct_names

FORMAT: Final = "mahjongsoul"
RECORDS: Final = b".lq.GameDetailRecords"
RESPONSE: Final = 0x03
# ``RecordLiuJu.type``.
ABORTS: Final = {
    1: AbortKind.NINE_TERMINALS,
    2: AbortKind.FOUR_WINDS,
    3: AbortKind.FOUR_KONGS,
    4: AbortKind.FOUR_RIICHI,
    5: AbortKind.TRIPLE_RON,
}
# ``GameMode.mode``: east-only or south, four or three players.
MODES: Final = {1: (4, "east"), 2: (4, "south"), 11: (3, "east"), 12: (3, "south")}
# ``RecordChiPengGang.type``: chi, pon, open kan (all open calls).
OPEN_CALL_TYPES: Final = frozenset({0, 1, 2})


def detect(data: bytes) -> bool:
    """Whether the content is a Mahjong Soul record: protobuf naming ``.lq.GameDetailRecords``."""
    return data[:1] in (b"\x0a", b"\x1a", b"\x22", bytes([RESPONSE])) and RECORDS in data[:4096]


def read_mahjongsoul(data: bytes, *, file: str) -> list[LoggedGame]:
    """The game of a native Mahjong Soul record."""
    head, records = _decode(data, file)
    return [_Reader(file, head, records).game()]


def deals(data: bytes, *, file: str) -> list[GameDeal]:
    """The deals of a native Mahjong Soul record: each hand's dealt hands, draws (a kan's or a
    north's replacement from the dead wall), dora indicators, and its wall revealed after the hand
    (``RecordNewRound.paishan``) with what was published before it: the SHA-256 of the wall and a
    salt (``sha256``, ``salt``), or in older records the MD5 of the wall (``md5``)."""
    head, records = _decode(data, file)
    players = 4
    hands: list[DealtHand] = []
    dead_next: set[int] = set()
    winds = "ESWN"
    for _where, name, event in _events(records, file):
        if name == "RecordNewRound":
            dealt = [[_code(t) for t in tiles] for tiles in (event.tiles0, event.tiles1, event.tiles2, event.tiles3)]
            players = 3 if not dealt[3] else 4
            digest = event.sha256 or event.md5 or None
            wall: tuple[int, ...] | None = None
            problem: str | None = None
            try:
                text = event.paishan
                wall = tuple(tenhou_code(text[i : i + 2]) for i in range(0, len(text), 2)) if text else None
            except ValueError:
                problem = f"paishan {event.paishan[:40]!r}: not tiles in mpsz notation"
            hands.append(
                DealtHand(
                    f"{_where}",
                    f"{winds[event.chang % 4]}{event.ju + 1}-{event.ben}",
                    event.ju,
                    tuple(tuple(h) for h in dealt[:players]),
                    (),
                    tuple(_code(t) for t in event.doras),
                    wall_text=event.paishan or None,
                    digest=digest,
                    wall=wall,
                    wall_problem=problem,
                    salt=event.salt if event.sha256 else None,
                )
            )
            dead_next = set()
        elif not hands:
            continue
        elif name == "RecordDealTile":
            hand = hands[-1]
            draw = Draw(event.seat, _code(event.tile), dead=event.seat in dead_next)
            dead_next.discard(event.seat)
            doras = tuple(_code(t) for t in event.doras) or hand.dora
            hands[-1] = attrs.evolve(hand, draws=(*hand.draws, draw), dora=doras)
        elif name in ("RecordAnGangAddGang", "RecordBaBei") or (name == "RecordChiPengGang" and event.type == 2):
            dead_next.add(event.seat)
    commitment = "mahjongsoul" if any(h.digest for h in hands) else None
    game_id = str(head.uuid) if head is not None and head.uuid else file.rsplit("/", 1)[-1]
    return [GameDeal(file, game_id, FORMAT, players, tuple(hands), commitment)]


def _code(tile: str) -> int:
    """A tile's tenhou.net/6 code, 0 for what is no tile (the deal check then reports it)."""
    try:
        return tenhou_code(tile)
    except ValueError:
        return 0


def _decode(data: bytes, file: str) -> tuple[Any | None, Any]:
    """The record's head (None when the file holds the record alone) and its ``GameDetailRecords``."""
    try:
        if data[:1] == bytes([RESPONSE]):
            framed = liqi.Wrapper.FromString(data[3:])
            data = framed.data
        outer = liqi.Wrapper.FromString(data)
        if outer.name == ".lq.GameDetailRecords":
            return None, liqi.GameDetailRecords.FromString(outer.data)
        response = liqi.ResGameRecord.FromString(data)
        inner = liqi.Wrapper.FromString(response.data)
    except DecodeError as exc:
        raise LogError(file, f"not a Mahjong Soul record: the protobuf does not decode ({exc})") from None
    if inner.name != ".lq.GameDetailRecords":
        raise LogError(file, f"not a Mahjong Soul record: its data is {inner.name[:60]!r}, not .lq.GameDetailRecords")
    try:
        return response.head, liqi.GameDetailRecords.FromString(inner.data)
    except DecodeError as exc:
        raise LogError(file, f"the record's GameDetailRecords does not decode ({exc})") from None


def _events(records: Any, file: str) -> Iterator[tuple[str, str, Any]]:
    """Each event of the record: where it is, its message's name, the message."""
    wrapped = [(f"records[{i}]", r) for i, r in enumerate(records.records)]
    wrapped += [(f"actions[{i}]", a.result) for i, a in enumerate(records.actions) if a.type == 1 and a.result]
    for where, raw in wrapped:
        try:
            wrapper = liqi.Wrapper.FromString(raw)
            name = wrapper.name.removeprefix(".lq.")
            message = getattr(liqi, name, None)
            if message is None or not name.startswith("Record"):
                raise LogError(f"{file}, {where}", f"an event {wrapper.name[:60]!r} no record holds")
            yield where, name, message.FromString(wrapper.data)
        except DecodeError as exc:
            raise LogError(f"{file}, {where}", f"does not decode ({exc})") from None


@attrs.define
class _Hand:
    position: str
    round_wind: int
    dealer: int
    counters: int
    sticks: int
    scores: tuple[int, ...]
    riichi: list[int] = attrs.field(factory=list)
    pending: int | None = None
    called: set[int] = attrs.field(factory=set)
    last_actor: int | None = None
    result: HandResult | None = None
    deltas: tuple[int, ...] | None = None
    # The hand in tenhou.net/6's arrays, built as the events come (``_Reader._tiles``).
    dealt: list[list[int]] = attrs.field(factory=list)
    takes: list[list[Any]] = attrs.field(factory=list)
    drops: list[list[Any]] = attrs.field(factory=list)
    dora: list[int] = attrs.field(factory=list)
    ura: list[int] = attrs.field(factory=list)
    pons: dict[tuple[int, int], str] = attrs.field(factory=dict)
    readable: bool = True


def tenhou_code(tile: str) -> int:
    """A tile in Mahjong Soul's notation (``1m``..``7z``, ``0`` a red five) in tenhou.net/6's code;
    ValueError for anything else."""
    if len(tile) != 2 or tile[1] not in "mpsz" or not tile[0].isdigit():
        raise ValueError(tile)
    number, suit = int(tile[0]), "mpsz".index(tile[1])
    if number == 0 and suit < 3:
        return 51 + suit
    if not 1 <= number <= (7 if suit == 3 else 9):
        raise ValueError(tile)
    return (suit + 1) * 10 + number


def _kind(code: int) -> int:
    return (code - 50) * 10 + 5 if code > 50 else code


def _order(code: int) -> tuple[int, int]:
    # Tenhou lists tiles by kind, a red five after the plain ones.
    return _kind(code), 1 if code > 50 else 0


def _placed(letter: str, called: int, others: list[int], source: int, players: int) -> str:
    """A pon or open kan's string: the letter and the called tile at the place of the player it
    was called from (first from the left, second across, last from the right)."""
    if players == 3 and source == 2:
        source = 3
    at = {3: 0, 2: 1, 1: len(others)}.get(source, 0)
    parts = [str(t) for t in others]
    parts.insert(at, f"{letter}{called}")
    return "".join(parts)


class _Reader:
    def __init__(self, file: str, head: Any | None, records: Any):
        self.file = file
        self.head = head
        self.records = records
        self.players = 4
        self.length = "south"
        self.rules_stated = False

    def game(self) -> LoggedGame:
        hands: list[_Hand] = []
        hand: _Hand | None = None
        for where, name, event in _events(self.records, self.file):
            if name == "RecordNewRound":
                self.players = 3 if not list(event.tiles3) and len(event.scores) == 3 else len(event.scores)
                hand = _Hand(
                    where,
                    event.chang,
                    event.ju,
                    event.ben,
                    event.liqibang,
                    tuple(event.scores[: self.players]),
                )
                hands.append(hand)
                self._begin_tiles(hand, event)
                continue
            if hand is None:
                raise LogError(f"{self.file}, {where}", f"{name} before the first hand")
            self._event(hand, where, name, event)
        rules, notes, judged = self._rules()
        deposit = rules.riichi_deposit
        logged = [self._logged(h, deposit) for h in hands]
        return LoggedGame(
            file=self.file,
            game_id=self._game_id(),
            format=FORMAT,
            players=self._names(),
            rules=rules,
            hands=tuple(logged),
            final_scores=self._final(),
            final_points=self._final_points(),
            truncated=self._final() is None,
            length_known=self.head is not None,
            notes=notes,
            points_judged=judged,
            rules_stated=self.rules_stated,
            id_in_log=self.head is not None and bool(self.head.uuid),
        )

    def _begin_tiles(self, hand: _Hand, event: Any) -> None:
        try:
            dealt = [
                [tenhou_code(t) for t in tiles] for tiles in (event.tiles0, event.tiles1, event.tiles2, event.tiles3)
            ]
            hand.dora = [tenhou_code(t) for t in event.doras]
        except ValueError:
            hand.readable = False
            return
        hand.dealt = dealt[: self.players]
        hand.takes = [[] for _ in range(self.players)]
        hand.drops = [[] for _ in range(self.players)]
        if 0 <= hand.dealer < self.players and len(hand.dealt[hand.dealer]) == 14:
            # The dealer's fourteenth tile is its first draw in tenhou.net/6's arrays.
            hand.takes[hand.dealer].append(hand.dealt[hand.dealer].pop())

    def _arrays(self, hand: _Hand, name: str, event: Any) -> None:
        """An event in tenhou.net/6's arrays (a draw, a discard, a call string, new indicators)."""
        if not hand.readable or not hand.takes or not 0 <= event.seat < self.players:
            return
        seat = event.seat
        if name == "RecordDealTile":
            hand.takes[seat].append(tenhou_code(event.tile))
            if list(event.doras):
                hand.dora = [tenhou_code(t) for t in event.doras]
        elif name == "RecordDiscardTile":
            shown: Any = 60 if event.moqie else tenhou_code(event.tile)
            hand.drops[seat].append(f"r{shown}" if event.is_liqi or event.is_wliqi else shown)
            if list(event.doras):
                hand.dora = [tenhou_code(t) for t in event.doras]
        elif name == "RecordChiPengGang":
            tiles = [tenhou_code(t) for t in event.tiles]
            froms = list(event.froms)
            called_at = next((i for i, f in enumerate(froms) if f != seat), len(tiles) - 1)
            called = tiles[called_at]
            others = sorted((t for i, t in enumerate(tiles) if i != called_at), key=_order)
            source = (froms[called_at] - seat) % self.players if called_at < len(froms) else 3
            if event.type == 0:
                text = f"c{called}{''.join(map(str, others))}"
            else:
                text = _placed("p" if event.type == 1 else "m", called, others, source, self.players)
                if event.type == 1:
                    hand.pons[(seat, _kind(called))] = text
            hand.takes[seat].append(text)
            if event.type == 2:
                hand.drops[seat].append(0)
        elif name == "RecordAnGangAddGang":
            tile = tenhou_code(event.tiles)
            if event.type == 3:
                # A closed kan of fives holds the red one (every suit has one), written last.
                kind = _kind(tile)
                fourth = kind // 10 + 50 if kind % 10 == 5 and kind < 40 else kind
                hand.drops[seat].append(f"{kind}{kind}{kind}a{fourth}")
            else:
                pon = hand.pons.get((seat, _kind(tile)))
                if pon is not None:
                    at = pon.index("p")
                    hand.drops[seat].append(f"{pon[:at]}k{tile}{pon[at + 1 :]}")
            if list(event.doras):
                hand.dora = [tenhou_code(t) for t in event.doras]
        elif name == "RecordBaBei":
            hand.drops[seat].append(f"f{44}")

    def _tiles(self, hand: _Hand) -> tuple[Any, ...] | None:
        """The hand in tenhou.net/6's arrays, when its events could all be put in them."""
        if not hand.readable or not self.players == len(hand.dealt) == len(hand.takes) == len(hand.drops):
            return None
        arrays: list[Any] = [list(hand.dora), list(hand.ura)]
        for seat in range(4):
            if seat < self.players:
                arrays += [sorted(hand.dealt[seat], key=_order), hand.takes[seat], hand.drops[seat]]
            else:
                arrays += [[], [], []]
        return tuple(arrays)

    def _event(self, hand: _Hand, where: str, name: str, event: Any) -> None:
        if name in ("RecordDealTile", "RecordDiscardTile", "RecordChiPengGang", "RecordAnGangAddGang", "RecordBaBei"):
            try:
                self._arrays(hand, name, event)
            except (ValueError, IndexError):
                hand.readable = False
        if name in ("RecordDealTile", "RecordChiPengGang"):
            # The draw or call after a riichi's discard: it stood (nobody ronned it).
            if hand.pending is not None and hand.pending not in hand.riichi:
                hand.riichi.append(hand.pending)
            hand.pending = None
            if name == "RecordChiPengGang" and event.type in OPEN_CALL_TYPES:
                hand.called.add(event.seat)
        elif name == "RecordDiscardTile":
            hand.last_actor = event.seat
            if event.is_liqi or event.is_wliqi:
                hand.pending = event.seat
        elif name in ("RecordAnGangAddGang", "RecordBaBei"):
            # A robbed kan or north is ronned from the player who declared it.
            hand.last_actor = event.seat
        elif name == "RecordHule":
            self._hule(hand, where, event)
        elif name == "RecordNoTile":
            self._no_tile(hand, event)
        elif name == "RecordLiuJu":
            kind = ABORTS.get(event.type)
            if kind is None:
                raise LogError(f"{self.file}, {where}", f"RecordLiuJu type {event.type}: an abortive draw not known")
            self._stood(hand)
            hand.result = AbortiveDraw(kind, riichi=tuple(hand.riichi), called=tuple(hand.called))
            hand.deltas = (0,) * self.players

    def _stood(self, hand: _Hand) -> None:
        # A riichi declared on the hand's last discard stands at a draw (no draw followed it).
        if hand.pending is not None and hand.pending not in hand.riichi:
            hand.riichi.append(hand.pending)
        hand.pending = None

    def _hule(self, hand: _Hand, where: str, event: Any) -> None:
        wins: list[Win] = []
        for info in event.hules:
            discarder = None if info.zimo else hand.last_actor
            if not info.zimo and hand.pending is not None and hand.pending == discarder:
                hand.pending = None  # the riichi's discard was ronned: its stick is not put down
            # ``count``: the han, or the yakuman's multiple; some records leave it 0 (the yaku's own then).
            count = info.count or sum(fan.val for fan in info.fans)
            if info.yiman:
                value = HandValue(limit="yakuman", multiple=max(1, info.count))
            else:
                value = HandValue(han=count, fu=info.fu or None)
            liable = info.baopai - 1 if info.baopai else None
            if not hand.ura and list(info.li_doras):
                try:
                    hand.ura = [tenhou_code(t) for t in info.li_doras]
                except ValueError:
                    hand.readable = False
            wins.append(Win(winner=info.seat, value=value, discarder=discarder, liable=liable))
        if not wins:
            raise LogError(f"{self.file}, {where}", "RecordHule with no winner")
        self._stood(hand)
        hand.result = WinResult(tuple(wins), tuple(hand.riichi), called=tuple(hand.called))
        hand.deltas = tuple(event.delta_scores[: self.players])

    def _no_tile(self, hand: _Hand, event: Any) -> None:
        self._stood(hand)
        ready = tuple(seat for seat, player in enumerate(event.players) if player.tingpai)
        nagashi: tuple[int, ...] = ()
        deltas = [0] * self.players
        for score in event.scores:
            for seat, change in enumerate(score.delta_scores[: self.players]):
                deltas[seat] += change
            if event.liujumanguan:
                nagashi += (score.seat,)
        hand.result = ExhaustiveDraw(ready=ready, riichi=tuple(hand.riichi), nagashi=nagashi, called=tuple(hand.called))
        hand.deltas = tuple(deltas)

    def _logged(self, hand: _Hand, deposit: int) -> LoggedHand:
        deltas = hand.deltas
        if deltas is not None:
            # The record's changes leave out the sticks put down in the hand (taken when each riichi stood).
            deltas = tuple(d - deposit * hand.riichi.count(seat) for seat, d in enumerate(deltas))
        return LoggedHand(
            position=hand.position,
            round_wind=hand.round_wind,
            hand_number=hand.dealer + 1,
            dealer=hand.dealer,
            counters=hand.counters,
            deposit_sticks=hand.sticks,
            scores=hand.scores,
            result=hand.result,
            deltas=deltas,
            tiles=self._tiles(hand),
        )

    # The record's head.

    def _rules(self) -> tuple[Ruleset, tuple[str, ...], bool]:
        """The rules the record's configuration states: the mode's preset, and a room's own rules;
        and whether they say how the final points are counted (the room's settlement is in it)."""
        config = self.head.config if self.head is not None else None
        mode = MODES.get(config.mode.mode) if config is not None else None
        if mode is not None:
            self.players, self.length = mode
        rules = load_preset("mahjongsoul-sanma" if self.players == 3 else "mahjongsoul")
        overrides: dict[str, Any] = {"length": self.length}
        notes: list[str] = []
        judged = config is not None
        if config is None:
            notes.append(
                "rules not stated: the file holds the record without its head (the room's configuration); "
                "the hands are checked under Mahjong Soul's ranked rules, the end and final points are not judged"
            )
        elif config.mode.HasField("detail_rule"):
            detail = config.mode.detail_rule
            if detail.init_point:
                overrides.update(start_score=detail.init_point, return_score=detail.init_point)
            if detail.fandian:
                overrides["target_score"] = detail.fandian
            if detail.liqibang_value:
                overrides["riichi_deposit"] = detail.liqibang_value
            overrides["kiriage_mangan"] = bool(detail.have_qieshangmanguan)
            overrides["nagashi_mangan"] = bool(detail.have_liujumanguan)
            overrides["bust"] = not detail.can_jifei
            self.rules_stated = True
            # Records without the settlement (``jingsuanyuandian`` 0: older ones) do not say the uma.
            judged = detail.jingsuanyuandian > 0
            if judged:
                start = detail.init_point or rules.start_score
                later = [detail.shunweima_2, detail.shunweima_3, detail.shunweima_4][: self.players - 1]
                overrides.update(
                    return_score=detail.jingsuanyuandian,
                    oka_to_top=detail.jingsuanyuandian > start,
                    uma=[-sum(later), *later],
                )
            notes.append(
                "rules from the record's room configuration: starting points, points to end, riichi stick, "
                "kiriage mangan, nagashi mangan, going below zero, "
                + (
                    "the points counted from and the uma (final points judged)"
                    if judged
                    else "no settlement (final points not judged)"
                )
            )
        else:
            self.rules_stated = True
        overrides["name"] = f"mahjongsoul-record-{self.players}p"
        overrides["description"] = "Mahjong Soul room, rules from the record's configuration"
        try:
            return rules.with_overrides(overrides, source="record"), tuple(notes), judged
        except InvalidRules as exc:
            raise LogError(f"{self.file}, head.config", str(exc)) from None

    def _names(self) -> tuple[str, ...]:
        names = [""] * self.players
        if self.head is not None:
            for account in self.head.accounts:
                if 0 <= account.seat < self.players:
                    names[account.seat] = account.nickname
        return distinct_names(names, self.players)

    def _final(self) -> tuple[int, ...] | None:
        if self.head is None or not self.head.result.players:
            return None
        final = [0] * self.players
        for player in self.head.result.players:
            if 0 <= player.seat < self.players:
                final[player.seat] = player.part_point_1
        return tuple(final)

    def _final_points(self) -> tuple[float, ...] | None:
        # ``total_point``: the final points in thousandths (49500 for +49.5); a record that leaves
        # them all out (0 each, as no game ends) has none to judge.
        if self.head is None or not any(player.total_point for player in self.head.result.players):
            return None
        points = [0.0] * self.players
        for player in self.head.result.players:
            if 0 <= player.seat < self.players:
                points[player.seat] = player.total_point / 1000
        return tuple(points)

    def _game_id(self) -> str:
        if self.head is not None and self.head.uuid:
            return str(self.head.uuid)
        return self.file.rsplit("/", 1)[-1]


# The name the registry (``replay.formats.detect.REGISTRY``) reads this format with.
read = read_mahjongsoul
