"""mjai JSON Lines to logged games: a translation, no scoring.

mjai (the protocol of the mjai AI arena, also written by Mortal, mjai.app and
riichienv) logs one event per line: ``start_game``, ``start_kyoku`` (``bakaze``,
``kyoku``, ``honba``, ``kyotaku``, ``oya``, ``scores``, ``tehais``), the draws,
discards and calls, ``reach``/``reach_accepted``, ``hora`` (``actor``,
``target``, ``deltas``; ``fan``/``fu``/``yakus`` when the writer gives them),
``ryukyoku`` (``deltas``; ``reason`` and ``tenpais`` when given), ``end_kyoku``
and ``end_game``.

The hand value is the log's own when it states one; otherwise it is valued from
the winner's tiles, tracked through the events (``value_source = "tiles"``),
and failing that found from the recorded payment (``"payment"``); see
``replay.formats.valuation``. The score changes the log recorded are kept
beside each hand, with the riichi sticks placed in the hand included.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import compress, count, repeat
from json.scanner import make_scanner
from operator import is_
from pathlib import PurePath
from typing import Any, Final, NamedTuple, NoReturn, cast

import attrs
from mahjong.shanten import Shanten

from domain.bounds import shown
from domain.entry_checks import liability_possible
from domain.errors import InvalidRules
from domain.rules import Ruleset, load_preset
from domain.scoring.payments import nearest_winner
from domain.values import (
    AbortiveDraw,
    AbortKind,
    ExhaustiveDraw,
    HandResult,
    HandValue,
    TableState,
    Win,
    WinDetails,
    WinFacts,
    WinResult,
)
from replay.formats.logmodel import LogError, LoggedGame, LoggedHand, distinct_names
from replay.formats.mjai_tiles import HandArrays
from replay.formats.source import first_line_object, head
from replay.formats.valuation import WinContext, value_from_payment, value_from_tiles
from replay.formats.yaku import details, yaku_named
from replay.input.json_text import DEEPEST, load_json
from replay.input.tiles import MeldTiles, tile34

FORMAT: Final = "mjai"
WINDS: Final = {"E": 0, "S": 1, "W": 2, "N": 3}
# The draws a hand has before the wall is exhausted: 136 - 14 dead wall - 13 x 4
# dealt; in sanma 108 - 14 - 13 x 3. Replacement draws after a kan or kita count too,
# since the dead wall is refilled from the live one.
WALL_DRAWS: Final = {4: 70, 3: 55}
TERMINALS_AND_HONORS: Final = frozenset({0, 8, 9, 17, 18, 26, *range(27, 34)})
WIND_TILES: Final = frozenset(range(27, 31))
MAX_POINTS: Final = 100_000_000
MAX_COUNT: Final = 10_000
SOURCE_RANK: Final = {"log": 0, "tiles": 1, "payment": 2}
# The value a win is read with until ``_wins`` gives it its own (a frozen value: one for all).
_UNVALUED: Final = HandValue(limit="mangan")
# Every mjai tile (``tile34`` reads them: 1m..9s, the red fives, E..C), and the red fives.
RED_FIVES: Final = frozenset({"5mr", "5pr", "5sr"})
MJAI_TILES: Final = frozenset(
    {f"{number}{suit}" for number in range(1, 10) for suit in "mps"} | RED_FIVES | set("ESWNPFC")
)

# Draw reasons as the writers spell them (mjai: fanpai, kyushukyuhai, suchareach,
# sukaikan, sufonrenta, sanchaho; riichienv: exhaustive_draw, kyushu_kyuhai,
# suucha_riichi, suukansansen, sufuurenta, nagashimangan; Tenhou's XML words too).
EXHAUSTIVE_REASONS: Final = frozenset({"fanpai", "exhaustivedraw", "exhaustive", "ryukyoku", "howanpai"})
ABORT_WORDS: Final = (
    (("kyushu", "kyuushu", "yao9"), AbortKind.NINE_TERMINALS),
    (("sufon", "suufon", "sufuu", "suufuu", "kaze4", "fourwind"), AbortKind.FOUR_WINDS),
    (("sucha", "suucha", "reach4", "fourriichi", "fourreach"), AbortKind.FOUR_RIICHI),
    (("kaikan", "kansan", "kan4", "fourkan", "fourkong"), AbortKind.FOUR_KONGS),
    (("sancha", "ron3", "tripleron"), AbortKind.TRIPLE_RON),
)


# The abortive draw each reason word names (``_abort_named``), as the words are met: a log names
# a few, on every draw.
_ABORT_NAMED: Final[dict[str, AbortKind | None]] = {}
# The most words kept: a log's reason is any string.
_MOST_WORDS: Final = 256


def _abort_named(word: str) -> AbortKind | None:
    """The abortive draw a draw's reason word (lower case, without separators) names, if any."""
    if word in _ABORT_NAMED:
        return _ABORT_NAMED[word]
    named = next((kind for words, kind in ABORT_WORDS if any(w in word for w in words)), None)
    if len(_ABORT_NAMED) < _MOST_WORDS:
        _ABORT_NAMED[word] = named
    return named


def detect(data: bytes) -> bool:
    """Whether the content is mjai events: JSON Lines whose first object names its ``type``, or
    one JSON array of such events (asked after tenhou.net/6 JSON, whose arrays hold ``log``)."""
    start = head(data)
    if start.startswith(b"["):
        return b'"type"' in data
    first = first_line_object(data) if start.startswith(b"{") else None
    return isinstance(first, dict) and isinstance(first.get("type"), str)


def read_mjai(data: bytes, *, file: str, tiles: bool = True) -> list[LoggedGame]:
    """The games of an mjai log (JSON Lines, or one JSON array of events), in order.

    A game without ``end_game`` (or without ``start_game``) is marked
    ``truncated`` and checked as far as it goes. Anything unreadable raises
    ``LogError`` naming the file and the line (``line 12``). Without ``tiles`` (what ``honba verify``
    reads), each hand's play is not put in tenhou.net/6's arrays (``LoggedHand.tiles``) and each win
    is read without its details (``Win.details``: the yaku the log names, its fu, the winning tile
    and the calls, which nothing is paid by): only an import keeps them.
    """
    text = _decoded(data, file)
    if not tiles and _lines_plain(text):
        # What ``honba verify`` reads: the draws and discards left in the text (see ``_LineReader``).
        return _read_lines(text, file)
    events = _events_of(text, file)
    games: list[list[tuple[int, dict[str, Any]]]] = []
    current: list[tuple[int, dict[str, Any]]] | None = None
    for line, event in events:
        kind = event["type"]
        if kind == "start_game" or current is None:
            current = []
            games.append(current)
        current.append((line, event))
        if kind == "end_game":
            current = None
    if not games:
        raise LogError(file, "no mjai events in it")
    several = len(games) > 1
    return [_GameReader(file, k if several else None, tiles).read(game) for k, game in enumerate(games)]


def read_hands(data: bytes, *, file: str) -> list[LoggedGame]:
    """``read_mjai`` without the hands' tiles: what ``honba verify`` reads (the registry's reader)."""
    return read_mjai(data, file=file, tiles=False)


def read_with_tiles(data: bytes, *, file: str) -> list[LoggedGame]:
    """``read_mjai`` with each hand's tiles, as an import keeps them."""
    return read_mjai(data, file=file)


def _events(data: bytes, file: str) -> list[tuple[int, dict[str, Any]]]:
    """Every event of an mjai log with its line, each line read as JSON."""
    return _events_of(_decoded(data, file), file)


def _decoded(data: bytes, file: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LogError(file, f"not UTF-8 text (byte {exc.start})") from None


def _events_of(text: str, file: str) -> list[tuple[int, dict[str, Any]]]:
    raw: list[tuple[int, Any]] = []
    if text.lstrip().startswith("["):
        # Some tools write the events as one JSON array rather than one per line.
        raw = [(i + 1, e) for i, e in enumerate(_parse(text, file, None))]
    else:
        append = raw.append
        for number, line in enumerate(text.splitlines(), start=1):
            event = _line_event(line, file, number)
            if event is not _BLANK:
                append((number, event))
    _check_types(raw, file)
    return cast(list[tuple[int, dict[str, Any]]], raw)


# What ``_line_event`` gives for a line holding nothing but white space (no event).
_BLANK: Final = object()


def _line_event(line: str, file: str, number: int) -> Any:
    """The JSON value of one line, or ``_BLANK`` for a blank one."""
    known = _KNOWN_EVENTS.get(line)
    if known is not None:
        return dict(known)  # a fresh event, as the scanner would give
    # A line without escapes nesting a few levels (every event a writer writes) is read by
    # the C scanner ``json.loads`` runs, without its Python around it; any other line, or
    # one the scanner does not take whole, is read by ``load_json``, which says why not.
    if "\\u" not in line and (len(line) <= DEEPEST or line.count("[") + line.count("{") <= DEEPEST):
        try:
            event, end = _SCAN(line, 0)
        except (StopIteration, ValueError):
            pass
        else:
            if end == len(line):
                return event
    if line.strip():
        return _parse(line, file, number)
    return _BLANK


def _check_types(raw: Sequence[tuple[int, Any]], file: str) -> None:
    for number, event in raw:
        # Checked once every line is read, as the lines are read first (a line that is no JSON
        # further on is named before an event without a type).
        if type(event) is not dict or type(event.get("type")) is not str:
            where = f"{file}, line {number}"
            if not isinstance(event, dict):
                raise LogError(where, f"an mjai event must be a JSON object, not {_kind(event)}")
            if not isinstance(event.get("type"), str):
                raise LogError(where, "the event has no 'type'")


def _known_events() -> dict[str, dict[str, Any]]:
    """The events of a type and at most a seat that every hand has (``end_kyoku``, a riichi declared
    and accepted) and a game's plain start and end, in the writers' common layouts (as
    ``_written_plain``), each read once: such a line is looked up, not scanned (``_line_event``)."""
    texts: set[str] = set()
    for comma, colon in ((", ", ": "), (",", ":")):
        for kind in ("end_kyoku", "start_game", "end_game"):
            texts.add(f'{{"type"{colon}"{kind}"}}')
        for kind in ("reach", "reach_accepted"):
            for seat in range(4):
                actor, type_ = f'"actor"{colon}{seat}', f'"type"{colon}"{kind}"'
                texts.add("{" + actor + comma + type_ + "}")
                texts.add("{" + type_ + comma + actor + "}")
    return {text: json.loads(text) for text in texts}


_KNOWN_EVENTS: Final = _known_events()


# The C scanner ``json.loads`` runs (the same decoder, the same values). Typeshed names the
# scanner's context as the scanner class; at run time it is the decoder, as ``json`` passes it.
_SCAN: Final[Callable[[str, int], tuple[Any, int]]] = make_scanner(json.JSONDecoder())  # type: ignore[arg-type]


def _parse(text: str, file: str, line: int | None) -> Any:
    try:
        return load_json(text)
    except json.JSONDecodeError as exc:
        at = f"{file}, line {line if line is not None else exc.lineno}, column {exc.colno}"
        raise LogError(at, f"not valid JSON ({exc.msg})") from None


@attrs.define
class _Hora:
    line: int
    win: Win
    value: HandValue | None
    source: str
    # What the win paid (the writer's ``deltas``); None where the writer gives none, until the
    # scores after the hand tell it (``_GameReader._fill_changes``).
    deltas: tuple[int, ...] | None
    sticks_before: int  # riichi sticks accepted in the hand before this win


@attrs.define
class _Kyoku:
    """One hand being read: its header, the tiles and what happened."""

    line: int
    round_wind: int
    hand_number: int
    dealer: int
    counters: int
    sticks: int
    scores: tuple[int, ...]
    players: int
    hands: list[list[str]]
    melds: list[list[MeldTiles]]
    dora: list[str]
    discards: list[list[str]] = attrs.Factory(list)
    called_from: set[int] = attrs.Factory(set)  # seats whose discard someone called
    callers: set[int] = attrs.Factory(set)  # seats that made an open call (chi, pon, daiminkan)
    declared: set[int] = attrs.Factory(set)
    accepted: list[int] = attrs.Factory(list)
    reach_changes: list[int] = attrs.Factory(list)
    double_riichi: set[int] = attrs.Factory(set)
    ippatsu: set[int] = attrs.Factory(set)
    discarded: set[int] = attrs.Factory(set)  # seats that have discarded at least once
    any_call: bool = False
    draws: int = 0
    last_draw: list[str | None] = attrs.Factory(list)
    after_kan: set[int] = attrs.Factory(set)  # seats whose next draw is a replacement
    rinshan_draw: set[int] = attrs.Factory(set)
    kakan: tuple[int, str] | None = None  # a kakan that may be robbed
    last_discard: tuple[int, str] | None = None
    discard_after_last_draw: bool = False
    kita: list[int] = attrs.Factory(list)
    horas: list[_Hora] = attrs.Factory(list)
    draw: tuple[int, dict[str, Any]] | None = None
    # The draw's payments: its ``deltas``, or what the scores after the hand tell where it has
    # none; None when neither says.
    draw_changes: tuple[int, ...] | None = None
    # The scores the hand's result left, where its last result event states them (``scores``).
    scores_after: tuple[int, ...] | None = None
    ended: bool = False
    # The hand's play in tenhou.net/6's arrays (kept as ``LoggedHand.tiles``).
    arrays: HandArrays | None = None
    # Read by ``_LineReader`` (the draws and discards left in the text): where the hand's lines
    # start and stop in it, the hands dealt, and the events read that change a seat's tiles.
    start: int = 0
    first_line: int = 0  # the index of the line at ``start``
    stop: int | None = None
    stop_index: int = 0  # the index of the line at ``stop`` (once it is known)
    plain_draws: int = 0  # the draws in the plain lines read so far
    dealt: list[list[str]] = attrs.Factory(list)
    moves: list[_Move] = attrs.Factory(list)


class _GameReader:
    def __init__(self, file: str, index: int | None, tiles: bool = True):
        self.file = file
        self.index = index
        # An import's reading: each hand's play in tenhou.net/6's arrays and each win's details
        # (``read_mjai``); verify reads neither.
        self.tiles = tiles
        self.tenhou_rules: dict[tuple[int, bool], Ruleset] = {}
        self.players = 0
        self.names: list[str] = []
        self.kyoku: _Kyoku | None = None
        self.finished = False
        self.started = False
        self.red_fives = False
        # The rules a log written by honba states (``start_game.honba_rules``); else Tenhou's.
        self.stated_rules: Ruleset | None = None
        self.final_scores: tuple[int, ...] | None = None
        self.triple_win = False
        self.line = 0
        self.kyokus: list[_Kyoku] = []
        # The scores as the last event that stated them left them: the original mjai server
        # writes ``scores`` on reach_accepted, hora and ryukyoku, not on start_kyoku.
        self.running_scores: list[int] | None = None

    def where(self, line: int | None = None) -> str:
        return f"{self.file}, line {line if line is not None else self.line}"

    def read(self, events: list[tuple[int, dict[str, Any]]]) -> LoggedGame:
        kyokus = self.kyokus
        # Each event type's handler, looked up once (the ``_on_`` methods by their type's name).
        handlers: dict[str, Callable[[dict[str, Any]], None]] = {name[4:]: getattr(self, name) for name in HANDLERS}
        handler_of = handlers.get
        for line, event in events:
            self.line = line
            kind = event["type"]
            handler = handler_of(kind)
            if handler is None:
                continue  # events that change neither the tiles nor the scores (``none``, ...)
            handler(event)
            if kind == "start_kyoku":
                assert self.kyoku is not None
                kyokus.append(self.kyoku)
            elif self.tiles and self.kyoku is not None and self.kyoku.arrays is not None:
                self.kyoku.arrays.event(event)
        return self._finish()

    def _finish(self) -> LoggedGame:
        """The game, once its events are read."""
        kyokus = self.kyokus
        if self.players == 0:
            raise LogError(self.file, "no start_kyoku: no hand in the game")
        rules = self._rules()
        for i, k in enumerate(kyokus):
            self._fill_changes(k, kyokus[i + 1] if i + 1 < len(kyokus) else None)
        hands = [self._logged(k, rules, kyokus[i + 1] if i + 1 < len(kyokus) else None) for i, k in enumerate(kyokus)]
        return LoggedGame(
            file=self.file,
            game_id=self._game_id(),
            # mjai names no game: its id is the file's name.
            id_in_log=False,
            format=FORMAT,
            players=self._player_names(),
            rules=rules,
            hands=tuple(hands),
            final_scores=self.final_scores,
            final_points=None,
            unsupported=None,
            # A game is whole when it starts, ends, and every hand in it has a result.
            truncated=not (self.started and self.finished) or any(h.result is None for h in hands),
            length_known=False,
        )

    # Game events.

    def _on_start_game(self, event: dict[str, Any]) -> None:
        self.started = True
        names = event.get("names")
        if names is not None:
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                raise LogError(self.where(), "start_game 'names' must be a list of strings")
            self.names = list(names)
        if event.get("aka_flag") is True:
            self.red_fives = True
        stated = event.get("honba_rules")
        if stated is not None:
            # A log written by ``honba export --format mjai`` states the match's rules.
            if not isinstance(stated, dict):
                raise LogError(self.where(), "start_game 'honba_rules' must be an object of rule values")
            try:
                self.stated_rules = Ruleset.from_stored(stated)
            except InvalidRules as exc:
                raise LogError(self.where(), f"start_game 'honba_rules': {exc}") from None

    def _on_end_game(self, event: dict[str, Any]) -> None:
        self.kyoku = None
        self.finished = True
        scores = event.get("scores")
        if scores is not None:
            self.final_scores = tuple(self._ints(scores, "scores", self.players))

    def _on_start_kyoku(self, event: dict[str, Any]) -> None:
        bakaze = event.get("bakaze")
        if not isinstance(bakaze, str) or bakaze not in WINDS:
            raise LogError(self.where(), f"bakaze {shown(bakaze)} is not one of E, S, W, N")
        scores = self._header_scores(event)
        if len(scores) not in (3, 4):
            raise LogError(self.where(), f"{len(scores)} scores: mjai games have 3 or 4 players")
        players = len(scores)
        if self.players and players != self.players:
            raise LogError(self.where(), f"{players} scores in a {self.players}-player game")
        self.players = players
        kyoku = self._int(event.get("kyoku"), "kyoku")
        oya = self._int(event.get("oya"), "oya")
        if not 0 <= oya < players:
            raise LogError(self.where(), f"oya {oya}: there is no such seat at a {players}-player table")
        if kyoku != oya + 1:
            raise LogError(self.where(), f"kyoku {kyoku} does not fit the dealer seat {oya}")
        honba = self._count(event.get("honba", 0), "honba")
        kyotaku = self._count(event.get("kyotaku", 0), "kyotaku")
        tehais = event.get("tehais")
        if tehais is not None:
            if not isinstance(tehais, list) or len(tehais) < players:
                raise LogError(self.where(), "tehais must be a list of hands, one per player")
            hands = [self._tiles(t, "tehais") for t in tehais[:players]]
        else:
            hands = _empty_lists(players)
        marker = event.get("dora_marker")
        self.kyoku = _Kyoku(
            line=self.line,
            round_wind=WINDS[bakaze],
            hand_number=kyoku,
            dealer=oya,
            counters=honba,
            sticks=kyotaku,
            scores=tuple(scores),
            players=players,
            hands=hands,
            melds=_empty_lists(players),
            dora=[self._tile(marker, "dora_marker")] if marker is not None else [],
            discards=_empty_lists(players),
            last_draw=[None] * players,
            kita=[0] * players,
        )
        if self.tiles:
            self.kyoku.arrays = HandArrays.start(hands, self.kyoku.dora[0] if self.kyoku.dora else None, players)

    def _header_scores(self, event: dict[str, Any]) -> list[int]:
        """The scores a hand starts with: its own ``scores``, else those the previous events left.

        The original mjai server (gimite/mjai, ``lib/mjai/active_game.rb``) writes no
        ``scores`` on ``start_kyoku``; each ``reach_accepted``, ``hora`` and ``ryukyoku``
        carries the scores after it, and every player starts with 25,000 (``game.rb``).
        """
        if "scores" in event:
            return self._ints(event.get("scores"), "scores", None)
        if self.running_scores is not None:
            return list(self.running_scores)
        tehais = event.get("tehais")
        seats = len(tehais) if isinstance(tehais, list) and len(tehais) in (3, 4) else 4
        start = load_preset("tenhou-sanma" if seats == 3 else "tenhou").start_score
        return [start] * seats

    def _note_scores(self, event: dict[str, Any], players: int) -> None:
        """Keep the ``scores`` an event states (the original mjai's dialect) for the next hand."""
        if "scores" in event:
            self.running_scores = self._ints(event.get("scores"), "scores", players)

    def _on_end_kyoku(self, event: dict[str, Any]) -> None:
        if self.kyoku is not None:
            self.kyoku.ended = True

    # Tile events.

    # A draw and a discard are nine events in ten: their seat and tile are checked in line, the
    # checks' own functions (and their messages) taking whatever is not a seat or a tile.

    def _on_tsumo(self, event: dict[str, Any]) -> None:
        k = self.kyoku
        if k is None or k.ended:
            k = self._in_hand("tsumo")
        seat = event.get("actor")
        if type(seat) is not int or not 0 <= seat < self.players:
            seat = self._seat(seat, "actor")
        tile = event.get("pai")
        if type(tile) is not str or tile not in MJAI_TILES:
            tile = self._tile(tile, "pai")
        elif tile in RED_FIVES:
            self.red_fives = True
        k.hands[seat].append(tile)
        k.last_draw[seat] = tile
        k.draws += 1
        k.discard_after_last_draw = False
        k.kakan = None
        if seat in k.after_kan:
            k.after_kan.discard(seat)
            k.rinshan_draw.add(seat)
        else:
            k.rinshan_draw.discard(seat)

    def _on_dahai(self, event: dict[str, Any]) -> None:
        k = self.kyoku
        if k is None or k.ended:
            k = self._in_hand("dahai")
        seat = event.get("actor")
        if type(seat) is not int or not 0 <= seat < self.players:
            seat = self._seat(seat, "actor")
        tile = event.get("pai")
        if type(tile) is not str or tile not in MJAI_TILES:
            tile = self._tile(tile, "pai")
        elif tile in RED_FIVES:
            self.red_fives = True
        hand = k.hands[seat]
        if tile in hand:
            hand.remove(tile)
        else:
            self._remove(k, seat, [tile])
        k.discards[seat].append(tile)
        k.discarded.add(seat)
        k.ippatsu.discard(seat)
        k.rinshan_draw.discard(seat)
        k.last_discard = (seat, tile)
        k.discard_after_last_draw = k.draws >= WALL_DRAWS[k.players]
        k.kakan = None

    def _call(self, event: dict[str, Any], kind: str) -> None:
        k = self._in_hand(kind)
        seat = self._seat(event.get("actor"), "actor")
        consumed = self._tiles(event.get("consumed"), "consumed")
        k.any_call = True
        k.ippatsu.clear()
        k.kakan = None
        if kind in ("chi", "pon", "daiminkan"):
            target = self._seat(event.get("target"), "target")
            tile = self._tile(event.get("pai"), "pai")
            self._remove(k, seat, consumed)
            k.called_from.add(target)
            k.callers.add(seat)
            k.melds[seat].append(MeldTiles(kind, (*consumed, tile), tile))
        elif kind == "ankan":
            self._remove(k, seat, consumed)
            k.melds[seat].append(MeldTiles("ankan", tuple(consumed)))
        else:  # kakan: the pon's three tiles are in consumed, the added one in pai
            tile = self._tile(event.get("pai"), "pai")
            self._remove(k, seat, [tile])
            kind_of = tile34(tile)
            for i, meld in enumerate(k.melds[seat]):
                if meld.kind == "pon" and kind_of is not None and _same_kind(meld.tiles[0], kind_of[0]):
                    k.melds[seat][i] = MeldTiles("kakan", (*meld.tiles, tile), meld.called)
                    break
            else:
                k.melds[seat].append(MeldTiles("kakan", (*consumed, tile)))
            k.kakan = (seat, tile)
        if kind in ("daiminkan", "ankan", "kakan"):
            k.after_kan.add(seat)

    def _on_chi(self, event: dict[str, Any]) -> None:
        self._call(event, "chi")

    def _on_pon(self, event: dict[str, Any]) -> None:
        self._call(event, "pon")

    def _on_daiminkan(self, event: dict[str, Any]) -> None:
        self._call(event, "daiminkan")

    def _on_ankan(self, event: dict[str, Any]) -> None:
        self._call(event, "ankan")

    def _on_kakan(self, event: dict[str, Any]) -> None:
        self._call(event, "kakan")

    def _on_kita(self, event: dict[str, Any]) -> None:
        k = self._in_hand("kita")
        seat = self._seat(event.get("actor"), "actor")
        tile = self._tile(event.get("pai", "N"), "pai")
        self._remove(k, seat, [tile])
        k.kita[seat] += 1
        # The replacement tile is a rinshan draw. A kita ends every ippatsu like a call:
        # riichienv's Tenhou rules pay it so (without this, 13 of 711 fresh sanma hands
        # came out one han above what the engine paid).
        k.after_kan.add(seat)
        k.ippatsu.clear()

    def _on_nukidora(self, event: dict[str, Any]) -> None:
        # Another writer's name for kita. A method, not a class attribute bound to ``_on_kita``: mypyc
        # makes such an attribute of a compiled class an instance's, never set.
        self._on_kita(event)

    def _on_dora(self, event: dict[str, Any]) -> None:
        k = self._in_hand("dora")
        k.dora.append(self._tile(event.get("dora_marker"), "dora_marker"))

    def _on_reach(self, event: dict[str, Any]) -> None:
        k = self._in_hand("reach")
        seat = self._seat(event.get("actor"), "actor")
        k.declared.add(seat)
        if seat not in k.discarded and not k.any_call:
            k.double_riichi.add(seat)

    def _on_reach_accepted(self, event: dict[str, Any]) -> None:
        k = self._in_hand("reach_accepted")
        seat = self._seat(event.get("actor"), "actor")
        if seat in k.accepted:
            raise LogError(self.where(), f"seat {seat}'s riichi accepted twice")
        k.accepted.append(seat)
        k.ippatsu.add(seat)
        deltas = event.get("deltas")
        # The original mjai puts the stick in reach_accepted's deltas; later writers (Mortal,
        # riichienv) leave it out of every delta, and it is then the rules' stick.
        if deltas is not None:
            changes = self._ints(deltas, "deltas", k.players)
            k.reach_changes = [a + b for a, b in zip(k.reach_changes or [0] * k.players, changes, strict=True)]
        else:
            # The stick alone: the seat's change, the others' as they were.
            if not k.reach_changes:
                k.reach_changes = [0] * k.players
            k.reach_changes[seat] -= self._rules().riichi_deposit
        self._note_scores(event, k.players)

    # Results.

    def _on_hora(self, event: dict[str, Any]) -> None:
        k = self._in_hand("hora")
        if k.draw is not None:
            raise LogError(self.where(), "a win after the hand was drawn")
        actor = self._seat(event.get("actor"), "actor")
        target = self._seat(event.get("target", actor), "target")
        if k.horas and any(h.win.winner == actor for h in k.horas):
            raise LogError(self.where(), f"seat {actor} wins twice in one hand")
        # Some writers give no deltas: what the win paid then follows from the scores after the hand.
        deltas = tuple(self._ints(event.get("deltas"), "deltas", k.players)) if "deltas" in event else None
        self_drawn = actor == target
        discarder = None if self_drawn else target
        ura = event.get("ura_markers") or event.get("uradora_markers") or []
        ura_markers = self._tiles(ura, "ura_markers")
        # A placeholder value until ``_wins`` makes the win again with its value and who is liable.
        win = Win(
            winner=actor,
            value=_UNVALUED,
            discarder=discarder,
            details=self._details(k, event, actor, target) if self.tiles else None,
        )
        value = self._logged_value(event)
        source = "log"
        if value is None:
            value = self._tile_value(k, event, actor, target, ura_markers)
            source = "tiles"
        if value is None:
            source = "payment"
        if len(k.horas) >= 2:
            self.triple_win = True
        k.horas.append(_Hora(self.line, win, value, source, deltas, len(k.accepted)))
        self._note_scores(event, k.players)
        self._note_scores_after(k, event)

    def _on_ryukyoku(self, event: dict[str, Any]) -> None:
        k = self._in_hand("ryukyoku")
        if k.horas:
            raise LogError(self.where(), "a draw after a win in the same hand")
        if k.draw is not None:
            raise LogError(self.where(), "the hand was drawn twice")
        k.draw = (self.line, event)
        if "deltas" in event:
            k.draw_changes = tuple(self._ints(event.get("deltas"), "deltas", k.players))
        self._note_scores(event, k.players)
        self._note_scores_after(k, event)

    def _note_scores_after(self, k: _Kyoku, event: dict[str, Any]) -> None:
        if "scores" in event:
            k.scores_after = tuple(self._ints(event.get("scores"), "scores", k.players))

    # Writers that give no deltas on hora and ryukyoku: the payments from the scores after the hand.

    def _fill_changes(self, k: _Kyoku, following: _Kyoku | None) -> None:
        """What a hand's wins or draw paid where the writer gave no ``deltas``: the scores after
        the hand (the next start_kyoku's, the result's own, or end_game's when no stick is left
        on the table for the top player) less those it started with and the sticks placed in it."""
        missing = [h for h in k.horas if h.deltas is None]
        if not missing and (k.draw is None or k.draw_changes is not None):
            return
        after = self._scores_after(k, following)
        line = missing[0].line if missing else k.draw[0] if k.draw is not None else k.line
        if after is None:
            if missing:
                raise LogError(
                    self.where(line),
                    "the win has no 'deltas', and no scores after the hand tell what it paid "
                    "(the next start_kyoku's, the hora's own 'scores' or end_game's)",
                )
            return  # a draw whose payments nobody states: not compared
        reach = k.reach_changes or [0] * k.players
        total = [a - b - r for a, b, r in zip(after, k.scores, reach, strict=True)]
        if not k.horas:
            k.draw_changes = tuple(total)
            return
        if len(missing) > 1 and any(h.value is None for h in missing):
            raise LogError(
                self.where(line),
                f"{len(missing)} wins have no 'deltas' and not all their values: the scores after the hand "
                "cannot tell what each winner was paid",
            )
        known = [sum(h.deltas[s] for h in k.horas if h.deltas is not None) for s in range(k.players)]
        # Several wins of stated values: the hand's total is known, not its split (only pao reads it).
        missing[0].deltas = tuple(t - n for t, n in zip(total, known, strict=True))
        for hora in missing[1:]:
            hora.deltas = (0,) * k.players

    def _scores_after(self, k: _Kyoku, following: _Kyoku | None) -> tuple[int, ...] | None:
        if following is not None:
            return following.scores
        if k.scores_after is not None:
            return k.scores_after
        sticks_left = not k.horas and (k.sticks or k.accepted)
        if self.final_scores is not None and len(self.final_scores) == k.players and not sticks_left:
            return self.final_scores
        return None

    # Each hand as logged, once the game's rules are known.

    def _logged(self, k: _Kyoku, rules: Ruleset, following: _Kyoku | None) -> LoggedHand:
        """The hand as a LoggedHand, once the game's rules are known."""
        reach = tuple(k.reach_changes) if k.reach_changes else (0,) * k.players
        result: HandResult | None = None
        deltas: tuple[int, ...] | None = None
        source = "log"
        riichi = tuple(k.accepted)
        called = tuple(k.callers)
        # Where the result is written: a refused win is named by its own line, not the hand's start.
        result_line = k.horas[0].line if k.horas else k.draw[0] if k.draw is not None else None
        if k.horas:
            wins, source = self._wins(k, rules)
            # An mjai log holds every call of the hand: who opened a hand is known.
            result = WinResult(wins, riichi, called=called)
            # Every win's payment is known by now (``_wins`` holds to it): one win's is the hand's.
            paid = [h.deltas for h in k.horas if h.deltas is not None]
            total = paid[0] if len(paid) == 1 else [sum(column) for column in zip(*paid, strict=True)]
            deltas = tuple(t + r for t, r in zip(total, reach, strict=True))
        elif k.draw is not None:
            line, event = k.draw
            self.line = line
            changes = k.draw_changes
            result = self._draw_result(k, event, changes or (0,) * k.players, riichi, following, called)
            deltas = None if changes is None else tuple(c + r for c, r in zip(changes, reach, strict=True))
        return LoggedHand(
            position=f"line {k.line}",
            result_position=f"line {result_line}" if result_line is not None else None,
            round_wind=k.round_wind,
            hand_number=k.hand_number,
            dealer=k.dealer,
            counters=k.counters,
            deposit_sticks=k.sticks,
            scores=k.scores,
            result=result,
            deltas=deltas,
            value_source=source,
            tiles=k.arrays.arrays() if k.arrays is not None else None,
        )

    def _wins(self, k: _Kyoku, rules: Ruleset) -> tuple[tuple[Win, ...], str]:
        """The wins with their values; missing values from the payment each recorded."""
        paid: list[tuple[int, ...]] = []
        liables: list[int | None] = []
        for hora in k.horas:
            # Every win's payment is known once the hand is read (``_fill_changes``); pao shows in it.
            assert hora.deltas is not None
            paid.append(hora.deltas)
            # A payment that looks like pao is read as pao only where the rules could make someone
            # liable for this win; elsewhere it is a payment the verifier shows as a disagreement.
            liable = self._liable(hora.deltas, hora.win.winner, hora.win.discarder)
            liables.append(liable if liability_possible(rules, hora.value) else None)
        wins: list[Win] = []
        source = "log"
        for hora, deltas, liable in zip(k.horas, paid, liables, strict=True):
            value = hora.value
            if value is None:
                # The winner nearest the discarder takes the counters and the deposits (the
                # domain's rule): asked only where a value is found from a payment.
                nearest = nearest_winner(WinResult(tuple(h.win for h in k.horas)), k.players)
                takes = hora.win is nearest
                state = TableState(
                    players=k.players,
                    scores=k.scores,
                    round_wind=k.round_wind,
                    hand_number=k.hand_number,
                    dealer=k.dealer,
                    counters=k.counters if takes else 0,
                    deposits=(k.sticks + hora.sticks_before) * rules.riichi_deposit if takes else 0,
                )
                value = value_from_payment(attrs.evolve(hora.win, liable=liable), deltas, state, rules)
            # The win made once more with its value and who is liable, from the fields ``_on_hora`` gave
            # it (``attrs.evolve``, which looks every field up, was a tenth of a hand's result).
            won = hora.win
            wins.append(
                Win(winner=won.winner, value=value, discarder=won.discarder, liable=liable, details=won.details)
            )
            if SOURCE_RANK[hora.source] > SOURCE_RANK[source]:
                source = hora.source
        return tuple(wins), source

    def _draw_result(
        self,
        k: _Kyoku,
        event: dict[str, Any],
        changes: tuple[int, ...],
        riichi: tuple[int, ...],
        following: _Kyoku | None,
        called: tuple[int, ...],
    ) -> HandResult:
        reason = event.get("reason")
        if reason is not None and not isinstance(reason, str):
            raise LogError(self.where(), "the draw's 'reason' must be a string")
        word = (reason or "").lower().replace("_", "").replace("-", "").replace(" ", "")
        kind = _abort_named(word)
        if kind is not None:
            return AbortiveDraw(kind, riichi, called=called)
        nagashi_named = "nagashi" in word or word == "nm"
        if word and word not in EXHAUSTIVE_REASONS and not nagashi_named:
            raise LogError(self.where(), f"unknown draw reason {shown(reason)}")
        if not word:
            # Writers that give no reason: a draw before the wall ran out is abortive.
            draws = self._draws(k)
            if draws and draws < WALL_DRAWS[k.players]:
                return AbortiveDraw(self._abort_kind(k), riichi, called=called)
        paid = {s for s, c in enumerate(changes) if c > 0}
        # Whose discards make a nagashi mangan is asked only where it decides: a draw named so, or
        # payments to an eligible seat that are not noten payments (nothing paid, or noten payments,
        # as at most draws, leave it unasked).
        if nagashi_named or (paid and not _noten_pattern(changes, paid)):
            eligible = self._nagashi_eligible(k)
            if nagashi_named or eligible & paid:
                nagashi = tuple(sorted(eligible & paid or paid))
                ready = self._ready(k, event, (0,) * k.players, riichi, following)
                return ExhaustiveDraw(ready=ready, riichi=riichi, nagashi=nagashi, called=called)
        return ExhaustiveDraw(ready=self._ready(k, event, changes, riichi, following), riichi=riichi, called=called)

    def _draws(self, k: _Kyoku) -> int:
        """The draws of a drawn hand before its result (asked only where the draw names no reason)."""
        return k.draws

    def _ready(
        self,
        k: _Kyoku,
        event: dict[str, Any],
        changes: tuple[int, ...],
        riichi: tuple[int, ...],
        following: _Kyoku | None,
    ) -> tuple[int, ...]:
        """Who was ready: the log's ``tenpais``, else the noten payments, else the hands.

        ``changes`` are the noten payments (zeros after a nagashi mangan, whose
        payments say nothing about who was ready).
        """
        tenpais = event.get("tenpais")
        if tenpais is not None:
            if (
                not isinstance(tenpais, list)
                or len(tenpais) != k.players
                or not all(isinstance(t, bool) for t in tenpais)
            ):
                raise LogError(self.where(), "'tenpais' must be one true/false per player")
            return tuple(s for s, t in enumerate(tenpais) if t)
        paid = [s for s, c in enumerate(changes) if c > 0]
        if paid:
            return tuple(paid)
        shown = [_is_ready(k, s) for s in range(k.players)]
        if all(r is not None for r in shown):
            return tuple(s for s, r in enumerate(shown) if r)
        # Nothing paid and hands unknown: all or none were ready. A riichi player was;
        # otherwise whether the dealer kept the deal (the next hand) shows it.
        if riichi or (following is not None and following.dealer == k.dealer):
            return tuple(range(k.players))
        return ()

    def _nagashi_eligible(self, k: _Kyoku) -> set[int]:
        """Seats whose discards were all terminals and honors, none of them called."""
        eligible: set[int] = set()
        for seat in range(k.players):
            own = k.discards[seat]
            if (
                own
                and seat not in k.called_from
                and all((x := tile34(t)) is not None and x[0] in TERMINALS_AND_HONORS for t in own)
            ):
                eligible.add(seat)
        return eligible

    def _abort_kind(self, k: _Kyoku) -> AbortKind:
        """The abortive draw the table shows when the log does not name it."""
        if len(k.accepted) == 4:
            return AbortKind.FOUR_RIICHI
        kans = sum(m.kind in ("daiminkan", "ankan", "kakan") for melds in k.melds for m in melds)
        if kans >= 4:
            return AbortKind.FOUR_KONGS
        firsts = [d[0] for d in k.discards if len(d) == 1]
        kinds = {tile34(t) for t in firsts}
        if len(firsts) == 4 and len(kinds) == 1 and next(iter(kinds)) is not None:
            first = next(iter(kinds))
            if first is not None and first[0] in WIND_TILES and not k.any_call:
                return AbortKind.FOUR_WINDS
        if not k.any_call:
            for seat in range(k.players):
                kinds_held = {parsed[0] for parsed in map(tile34, k.hands[seat]) if parsed is not None}
                if seat not in k.discarded and len(kinds_held & TERMINALS_AND_HONORS) >= 9:
                    return AbortKind.NINE_TERMINALS
        if k.last_discard is not None:
            return AbortKind.TRIPLE_RON
        return AbortKind.OTHER

    # Values.

    def _logged_value(self, event: dict[str, Any]) -> HandValue | None:
        """The value the log states (``fan``/``han``, ``fu``, ``yakus``), if it states one."""
        fan = event.get("fan", event.get("han"))
        if fan is None:
            return None
        han = self._count(fan, "fan")
        fu = event.get("fu")
        yakus = event.get("yakus")
        yakuman = 0
        if isinstance(yakus, list):
            for item in yakus:
                if isinstance(item, list) and len(item) == 2 and isinstance(item[1], int) and item[1] >= 13:
                    yakuman += item[1] // 13
        if yakuman:
            return HandValue(limit="yakuman", multiple=yakuman)
        if han >= 5:
            return HandValue(han=han)
        if han < 1 or fu is None:
            return None
        return HandValue(han=han, fu=rounded_fu(self._count(fu, "fu")))

    def _details(self, k: _Kyoku, event: dict[str, Any], actor: int, target: int) -> WinDetails:
        """What the hora says of the win beyond its payment (``yakus`` with their han, ``fu``), the
        winning tile and the winner's calls as the events showed them."""
        found = []
        yakus = event.get("yakus")
        if isinstance(yakus, list):
            for item in yakus:
                if isinstance(item, list) and len(item) == 2 and isinstance(item[0], str) and isinstance(item[1], int):
                    found.append(yaku_named(item[0], item[1]))
        fu = event.get("fu")
        han = event.get("fan", event.get("han"))
        below_limits = isinstance(han, int) and 0 < han < 5 and isinstance(fu, int) and not isinstance(fu, bool)
        tile = event.get("pai")
        if not isinstance(tile, str) or tile34(tile) is None:
            last = k.last_draw[actor] if actor == target else (k.last_discard[1] if k.last_discard else None)
            tile = last if last is not None and tile34(last) is not None else None
        calls = [f"{m.kind} {''.join(_tenhou_tile(t) for t in m.tiles)}" for m in k.melds[actor]]
        return details(
            found,
            fu=rounded_fu(fu) if below_limits and isinstance(fu, int) else None,
            winning_tile=_tenhou_tile(tile) if tile is not None else None,
            calls=calls,
        )

    def _tile_value(
        self, k: _Kyoku, event: dict[str, Any], actor: int, target: int, ura: list[str]
    ) -> HandValue | None:
        self_drawn = actor == target
        concealed = list(k.hands[actor])
        chankan = False
        if self_drawn:
            win_tile = k.last_draw[actor]
        elif k.kakan is not None and k.kakan[0] == target:
            win_tile = k.kakan[1]
            chankan = True
        elif k.last_discard is not None and k.last_discard[0] == target:
            win_tile = k.last_discard[1]
        else:
            return None
        pai = event.get("pai")
        if isinstance(pai, str) and tile34(pai) is not None:
            win_tile = pai
        if win_tile is None or not concealed:
            return None
        if not self_drawn:
            concealed.append(win_tile)
        riichi = actor in k.accepted or (actor in k.declared and self_drawn)
        ctx = WinContext(
            concealed=tuple(concealed),
            melds=tuple(k.melds[actor]),
            win_tile=win_tile,
            self_drawn=self_drawn,
            seat_wind=(actor - k.dealer) % k.players,
            round_wind=k.round_wind,
            dora_markers=tuple(k.dora),
            ura_markers=tuple(ura),
            riichi=riichi,
            double_riichi=riichi and actor in k.double_riichi,
            ippatsu=riichi and actor in k.ippatsu,
            facts=WinFacts(
                supplement_tile=self_drawn and actor in k.rinshan_draw,
                robbed_kong=chankan,
                last_tile=(self_drawn and k.draws >= WALL_DRAWS[k.players])
                or (not self_drawn and not chankan and k.discard_after_last_draw),
                first_turn=self_drawn and actor not in k.discarded and not k.any_call,
            ),
            kita=k.kita[actor],
            players=k.players,
            red_fives=self.red_fives,
        )
        return value_from_tiles(ctx)

    def _liable(self, deltas: tuple[int, ...], actor: int, discarder: int | None) -> int | None:
        """Pao shows in the payment: one payer on a self-drawn win, a second payer on a ron."""
        payers = [s for s, d in enumerate(deltas) if d < 0 and s != actor]
        if discarder is None:
            return payers[0] if len(payers) == 1 and len(deltas) > 2 else None
        others = [s for s in payers if s != discarder]
        return others[0] if len(others) == 1 else None

    # The game's header, known at the end.

    def _rules(self) -> Ruleset:
        """Tenhou's rules for the number of players: mjai names no rules. Its logs do not say
        whether a game was east-only, so the hanchan is played and the end is not judged
        (``LoggedGame.length_known``)."""
        if self.stated_rules is not None:
            return self.stated_rules
        # Asked at every accepted riichi (its stick): made once for the table's size and whether
        # three have won on one discard.
        key = (self.players, self.triple_win)
        rules = self.tenhou_rules.get(key)
        if rules is not None:
            return rules
        try:
            rules = load_preset("tenhou-sanma" if self.players == 3 else "tenhou")
            if self.triple_win:
                # The log shows three winners on one discard: these rules allow it.
                rules = rules.with_overrides({"multiple_ron": 3})
        except InvalidRules as exc:  # pragma: no cover - the presets ship with honba
            raise LogError(self.file, str(exc)) from None
        self.tenhou_rules[key] = rules
        return rules

    def _player_names(self) -> tuple[str, ...]:
        return distinct_names(self.names, self.players)

    def _game_id(self) -> str:
        stem = PurePath(self.file).stem
        return stem if self.index is None else f"{stem}#{self.index + 1}"

    # Plain checks.

    def _in_hand(self, kind: str) -> _Kyoku:
        if self.kyoku is None:
            raise LogError(self.where(), f"{kind!r} outside a hand (no start_kyoku before it)")
        if self.kyoku.ended:
            raise LogError(self.where(), f"{kind!r} after end_kyoku")
        return self.kyoku

    def _remove(self, k: _Kyoku, seat: int, tiles: Sequence[str]) -> None:
        _take(k.hands[seat], tiles)

    def _seat(self, value: Any, name: str) -> int:
        if type(value) is int and 0 <= value < self.players:
            return value  # a seat at the table, as every event names one
        seat = self._int(value, name)
        if not 0 <= seat < max(self.players, 1):
            raise LogError(self.where(), f"{name} {seat}: there is no such seat at a {self.players}-player table")
        return seat

    def _int(self, value: Any, name: str) -> int:
        if type(value) is int and -MAX_POINTS <= value <= MAX_POINTS:
            return value  # every number a writer writes: the checks below say what else is wrong
        if isinstance(value, bool) or not isinstance(value, int):
            raise LogError(self.where(), f"{name!r} must be a whole number, not {_kind(value)}")
        if abs(value) > MAX_POINTS:
            raise LogError(self.where(), f"{name!r} {shown(value)} is out of range")
        return value

    def _count(self, value: Any, name: str) -> int:
        number = self._int(value, name)
        if not 0 <= number <= MAX_COUNT:
            raise LogError(self.where(), f"{name!r} {number} is out of range")
        return number

    def _ints(self, value: Any, name: str, length: int | None) -> list[int]:
        if not isinstance(value, list):
            raise LogError(self.where(), f"{name!r} must be a list of whole numbers, not {_kind(value)}")
        if length is not None and len(value) != length:
            raise LogError(self.where(), f"{name!r} has {len(value)} values for {length} players")
        # Each a whole number in range, read in line (``_int`` says what else is wrong).
        return [v if type(v) is int and -MAX_POINTS <= v <= MAX_POINTS else self._int(v, name) for v in value]

    def _tile(self, value: Any, name: str) -> str:
        if type(value) is str and value in MJAI_TILES:
            if value in RED_FIVES:
                self.red_fives = True
            return value
        if value == "?":
            return "?"
        if not isinstance(value, str) or tile34(value) is None:
            raise LogError(self.where(), f"{name!r}: {shown(value)} is not an mjai tile")
        if value.endswith("r"):
            self.red_fives = True
        return value

    def _tiles(self, value: Any, name: str) -> list[str]:
        if type(value) is list:
            try:
                # A hand of mjai tiles (each one a string of the 37, by the set's own test: a tile
                # of another type is not in it, one that cannot be hashed raises).
                known = MJAI_TILES.issuperset(value)
            except TypeError:
                known = False
            if known:
                if not self.red_fives and not RED_FIVES.isdisjoint(value):
                    self.red_fives = True
                return list(value)
        if not isinstance(value, list):
            raise LogError(self.where(), f"{name!r} must be a list of tiles, not {_kind(value)}")
        return [self._tile(v, name) for v in value]


# The names of the event handlers (``_on_`` and the event's type), listed once.
HANDLERS: Final = tuple(name for name in dir(_GameReader) if name.startswith("_on_"))


# Reading mjai without visiting each draw and discard.
#
# Nine events in ten are a draw or a discard, and what verify keeps of them is a few things at a
# hand's result: the winner's tiles and how its hand went out (the last draw, a kan's replacement,
# ippatsu, the first turn), the draws so far, the last discard; at a draw, each seat's discards
# and, where no payment says who was ready, each hand. ``_LineReader`` reads every other line as
# JSON and leaves the draws and discards written in one of the writers' layouts (``_PLAIN``) in
# the text: one regular expression over the whole text finds the lines that are not one of them,
# and at a result the needed seat's lines are found by a regular expression and followed in order
# with the calls (``_SeatPlay``). A line in such a layout is a JSON object whose only keys are the
# type, a seat 0 to 3, a tile mjai writes (``MJAI_TILES`` or ``?``) and a tsumogiri flag: it reads
# the same as JSON, and the only refusals the handlers would give it (outside a hand, after
# end_kyoku, a fourth seat at a three-player table) are checked for each run of such lines before
# the event after it (``_LineReader.read_lines``), with the same message and line.

_TILE = r"(?:[1-9][mps]|5[mps]r|[ESWNPFC]|\?)"
# The tiles that end a nagashi mangan (no terminal or honor; a hidden tile is not known to be one).
_SIMPLE = r"(?:[2-8][mps]|5[mps]r|\?)"
_FLAG = r'"tsumogiri": ?(?:true|false)'


def _layouts(seat: str, tiles: str = _TILE, kinds: str = "tsumo|dahai", group: str = "(") -> str:
    """The layouts of a draw or discard, the seat given: keys in order (riichienv, Python's
    ``json.dumps(..., sort_keys=True)``: groups tile, kind), type first (mjai, Mortal, mjai.app:
    groups kind, tile); with or without a space after each separator."""
    return (
        rf'\{{"actor": ?{seat}, ?"pai": ?"{group}{tiles})", ?(?:{_FLAG}, ?)?"type": ?"{group}{kinds})"\}}'
        rf'|\{{"type": ?"{group}{kinds})", ?"actor": ?{seat}, ?"pai": ?"{group}{tiles})"(?:, ?{_FLAG})?\}}'
    )


def _written_plain() -> frozenset[str]:
    """The draws and discards in the layouts the writers use most, spelled out: riichienv's and
    Python's ``json.dumps`` (``", "`` and ``": "``) and the compact one (``","`` and ``":"``), keys
    in order or ``type`` first, with or without a tsumogiri flag (3,648 lines, each one that
    ``_PLAIN_LINE`` matches)."""
    lines: set[str] = set()
    tiles = [f"{n}{suit}" for suit in "mps" for n in range(1, 10)] + ["5mr", "5pr", "5sr", *"ESWNPFC", "?"]
    for comma, colon in ((", ", ": "), (",", ":")):
        for seat in range(4):
            for tile in tiles:
                for kind in ("tsumo", "dahai"):
                    for flag in ("", f'"tsumogiri"{colon}true', f'"tsumogiri"{colon}false'):
                        actor, pai, type_ = f'"actor"{colon}{seat}', f'"pai"{colon}"{tile}"', f'"type"{colon}"{kind}"'
                        lines.add("{" + comma.join(part for part in (actor, pai, flag, type_) if part) + "}")
                        lines.add("{" + comma.join(part for part in (type_, actor, pai, flag) if part) + "}")
    return frozenset(lines)


def _plain_codes() -> tuple[dict[str, int], tuple[tuple[int, str, bool], ...]]:
    """Each line of ``_written_plain`` with its code, and what each code is: the seat, the tile and
    whether it is a draw, as ``_PLAIN`` reads them (the layouts of one draw share its code)."""
    entries: dict[tuple[int, str, bool], int] = {}
    codes: dict[str, int] = {}
    for line in sorted(_written_plain()):
        m = _PLAIN.match(line + "\n")
        assert m is not None  # every spelled-out line is one (a test)
        entry = (int(m[1] or m[5]), m[2] or m[6], (m[3] or m[4]) == "tsumo")
        codes[line] = entries.setdefault(entry, len(entries))
    return codes, tuple(entries)


# One such line, without its newline.
_PLAIN_LINE: Final = re.compile(_layouts("[0-3]", group="(?:"))
# One such line (the next character a newline): groups seat, tile, kind or kind, seat, tile.
_PLAIN: Final = re.compile(rf"(?:{_layouts('([0-3])')})\n")
# Looked up for each line (a hash and a comparison, in C for the whole text at once:
# ``_plain_lines``), each spelled-out line giving its code (``_PLAIN_ENTRY``); a line not among them
# is tried against ``_PLAIN_LINE``. A file's codes, one a line, are kept: a seat's play and the last
# discard are then found among small whole numbers, not by looking its lines up again.
_WRITTEN_PLAIN, _PLAIN_ENTRY = _plain_codes()
# The longest line ``_PLAIN_LINE`` takes: spelled out among them (a space after every separator,
# the flag ``false``, a red five; a test tries every spacing). A longer line is not tried.
_LONGEST_PLAIN: Final = max(map(len, _WRITTEN_PLAIN))


def _seat_codes() -> tuple[dict[int | None, tuple[str, bool]], ...]:
    """Each seat's codes (``_PLAIN_ENTRY``), each with its tile and whether it is a draw: a seat's play
    is followed by a lookup of the file's codes (``_LineReader._play``), in C, among a few hundred
    small whole numbers (its lines looked up again were some forty thousand string comparisons)."""
    # Keyed by a line's code, looked up for the lines without one (None) too: found in none.
    seats: tuple[dict[int | None, tuple[str, bool]], ...] = ({}, {}, {}, {})
    for code, (seat, tile, drawn) in enumerate(_PLAIN_ENTRY):
        seats[seat][code] = (tile, drawn)
    return seats


def _seat_discards() -> tuple[dict[int | None, bool], ...]:
    """Each seat's codes of a discard, each with whether its tile is a terminal or an honor (a
    nagashi mangan's discards are all such; a simple tile or a hidden one: False)."""
    seats: tuple[dict[int | None, bool], ...] = ({}, {}, {}, {})
    for code, (seat, tile, drawn) in enumerate(_PLAIN_ENTRY):
        if not drawn:
            parsed = tile34(tile)
            seats[seat][code] = parsed is not None and parsed[0] in TERMINALS_AND_HONORS
    return seats


_SEAT_CODES: Final = _seat_codes()
_SEAT_DISCARD_CODES: Final = _seat_discards()
# Each seat's such lines (groups tile, kind or kind, tile), its discards, those of a simple tile:
# each matched from the newline before it (searched for as a literal, not tried at every
# character as a line's start would be), the newline after it looked at and left to the next.
_SEAT_LINES: Final = tuple(re.compile(rf"\n(?:{_layouts(str(seat))})(?=\n)") for seat in range(4))
_SEAT_DISCARDS: Final = tuple(re.compile(rf"\n(?:{_layouts(str(seat), kinds='dahai')})(?=\n)") for seat in range(4))
_SEAT_SIMPLES: Final = tuple(
    re.compile(rf"\n(?:{_layouts(str(seat), tiles=_SIMPLE, kinds='dahai')})(?=\n)") for seat in range(4)
)
_FOURTH_SEAT: Final = re.compile(r'"actor": ?3')
_RED_FIVE: Final = re.compile(r'"5[mps]r"')
# Line breaks other than ``\n`` (``str.splitlines`` counts them): such a text is read line by line.
_OTHER_BREAKS: Final = re.compile("[\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
_ASCII_BREAKS: Final = ("\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e")

# What a move is (``_Move``'s first field after the position).
DRAW, DISCARD, CALL, KITA, RIICHI, ACCEPTED = range(6)


class _Move(NamedTuple):
    """An event read as JSON that changes a seat's tiles or what its win counts: a draw or a
    discard outside the plain layouts, a call, a kita, a riichi declared or accepted. (A named
    tuple: made for each such event, where a frozen class's ``__init__`` sets each field apart.)"""

    at: int  # its line's start in the text
    line_index: int  # its line's index among the text's lines
    kind: int
    seat: int
    tile: str | None = None
    consumed: tuple[str, ...] = ()
    call: str = ""
    # For a riichi declared: whether a call had been made before it.
    after_call: bool = False


def _lines_plain(text: str) -> bool:
    """Whether the text is read by ``_LineReader``: JSON Lines broken by ``\\n`` alone."""
    if text.lstrip().startswith("["):
        return False
    if text.isascii():
        # The breaks an ASCII text can hold, each looked for by ``str``'s own search: the class's
        # regular expression tried at every character was 4 % of an mjai verify.
        return not any(brk in text for brk in _ASCII_BREAKS)
    return _OTHER_BREAKS.search(text) is None


def _plain_lines(lines: list[str]) -> tuple[list[int | None], list[int]]:
    """Each line's code (``_WRITTEN_PLAIN``; None for a line not among them), and the lines that are
    not among them, by their index; the last always."""
    codes = list(map(_WRITTEN_PLAIN.get, lines))
    indexes = list(compress(count(), map(is_, codes, repeat(None))))
    if not indexes or indexes[-1] != len(lines) - 1:
        indexes.append(len(lines) - 1)
    return codes, indexes


def _read_lines(text: str, file: str) -> list[LoggedGame]:
    """``read_mjai`` without the tiles, each draw and discard in a plain layout left in the text."""
    # The lines that are not a plain draw or discard, each read as JSON (all of them first, as
    # ``_events_of`` does, so that the first line that is no JSON is named first).
    runs: list[tuple[int, int]] = []  # the plain lines before each event
    events: list[tuple[int, int, int, Any]] = []  # line number, start, end, value
    lines = text.split("\n")
    last = len(lines) - 1  # no newline ends it: read as JSON whatever it holds
    plain = _PLAIN_LINE.fullmatch
    at = 0
    # Where line ``counted`` starts: the lengths before it and a newline after each, summed from
    # one line read to the next (the lengths are small whole numbers, made once; a running sum
    # of every line was one new number per line).
    counted = position = 0
    spelled = True  # every plain line is one of ``_WRITTEN_PLAIN``
    codes, others = _plain_lines(lines)
    for index in others:
        line = lines[index]
        if index < last and len(line) <= _LONGEST_PLAIN and line not in _KNOWN_EVENTS and plain(line) is not None:
            spelled = False
            continue  # a plain layout not spelled out in ``_WRITTEN_PLAIN``
        position += sum(map(len, lines[counted:index])) + index - counted
        counted = index
        start = position
        end = start + len(line) + (index < last)
        number = index + 1
        event = _line_event(line, file, number)
        if event is not _BLANK:
            runs.append((at, start))
            events.append((number, start, end, event))
        elif start > at:
            runs.append((at, start))
            events.append((number, start, end, _BLANK))
        at = end
    # Games as ``read_mjai`` splits them: a start_game, or whatever comes after an end_game. A
    # game's parts: ``2 * i`` the plain lines before event ``i``, ``2 * i + 1`` the event.
    games: list[list[int]] = []
    current: list[int] | None = None
    for index, ((start, end_of_run), (number, _, _, event)) in enumerate(zip(runs, events, strict=True)):
        if end_of_run > start:
            if current is None:
                # A draw or discard after the end of a game begins the next one (refused there).
                current = []
                games.append(current)
            current.append(2 * index)
        if event is not _BLANK:
            # Each event's type checked as ``_check_types`` checks it, once every line is read (a
            # line that is no JSON further on was named first), in this one pass over the events.
            kind = event.get("type") if type(event) is dict else None
            if type(kind) is not str:
                _check_types([(number, event)], file)
            if current is None or kind == "start_game":
                current = []
                games.append(current)
            current.append(2 * index + 1)
            if kind == "end_game":
                current = None
    if not games:
        raise LogError(file, "no mjai events in it")
    several = len(games) > 1
    return [
        _LineReader(file, k if several else None, text, runs, events, codes if spelled else None).read_lines(game)
        for k, game in enumerate(games)
    ]


def _take(hand: list[str], tiles: Sequence[str]) -> None:
    """The tiles taken from a hand: a tile it does not hold takes a hidden one (``?``)."""
    for tile in tiles:
        if tile in hand:
            hand.remove(tile)
        elif "?" in hand:
            hand.remove("?")
        else:
            # A hand the log does not show fully (another player's view): stop valuing it.
            hand.clear()
            hand.append("?")


def _empty_lists(players: int) -> list[Any]:
    """A new empty list for each seat (a literal: a comprehension is a function call of its own)."""
    return [[], [], [], []] if players == 4 else [[], [], []]


def _is_ready(k: _Kyoku, seat: int) -> bool | None:
    """Whether a seat's hand is one tile from winning, or None when the hand is not known."""
    hand = k.hands[seat]
    if not hand or "?" in hand:
        return None
    counts = [0] * 34
    for tile in hand:
        parsed = tile34(tile)
        if parsed is None:
            return None
        counts[parsed[0]] += 1
    try:
        return bool(Shanten.calculate_shanten(counts) == 0)
    except (ValueError, IndexError):
        return None


def _tenhou_tile(tile: str) -> str:
    """An mjai tile in ``1m``..``7z`` notation (a red five as its plain five)."""
    parsed = tile34(tile)
    if parsed is None:
        return tile
    kind = parsed[0]
    return f"{kind % 9 + 1}{'mpsz'[kind // 9]}"


def _same_kind(tile: str, kind: int) -> bool:
    parsed = tile34(tile)
    return parsed is not None and parsed[0] == kind


def _noten_pattern(changes: Sequence[int], paid: set[int]) -> bool:
    """Whether the changes look like noten payments: the ready share what the others pay."""
    if not paid or len(paid) == len(changes):
        return False
    gains = {changes[s] for s in paid}
    losses = {changes[s] for s in range(len(changes)) if s not in paid}
    return len(gains) == 1 and len(losses) == 1 and sum(changes) == 0


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null"}.get(
        type(value), "a number"
    )


def rounded_fu(fu: int) -> int:
    """A hand's fu as a table counts them: akochan's ``hora`` writes the raw count (38), which rounds
    up to the ten (40); 25 is seven pairs' own count and stays, as do counts already in tens."""
    return fu if fu == 25 else -(-fu // 10) * 10


class _SeatPlay:
    """One seat's tiles and how its hand stands, followed through its draws and discards and the
    moves read as JSON as ``_GameReader``'s handlers follow them."""

    __slots__ = (
        "after_kan",
        "discarded",
        "discards",
        "double_riichi",
        "hand",
        "ippatsu",
        "last_draw",
        "rinshan",
        "seat",
    )

    def __init__(self, seat: int, dealt: list[str]) -> None:
        self.seat = seat
        self.hand = list(dealt)
        self.last_draw: str | None = None
        self.discards: list[str] = []
        self.discarded = False
        self.ippatsu = False
        self.after_kan = False
        self.rinshan = False
        self.double_riichi = False

    def draw(self, tile: str) -> None:
        self.hand.append(tile)
        self.last_draw = tile
        # A draw after the seat's kan (or kita) is its replacement tile.
        self.rinshan = self.after_kan
        self.after_kan = False

    def discard(self, tile: str) -> None:
        hand = self.hand
        if tile in hand:
            hand.remove(tile)
        else:
            _take(hand, (tile,))
        self.discards.append(tile)
        self.discarded = True
        self.ippatsu = False
        self.rinshan = False

    def plain(self, lines: Iterable[tuple[str, bool]]) -> None:
        """The seat's draws and discards in plain lines (each its tile and whether it is a draw), in
        order: what ``draw`` and ``discard`` do for each, in one loop."""
        hand, discards = self.hand, self.discards
        last_draw, rinshan, after_kan = self.last_draw, self.rinshan, self.after_kan
        discarded = False
        for tile, drawn in lines:
            if drawn:
                hand.append(tile)
                last_draw = tile
                rinshan = after_kan
                after_kan = False
            else:
                # (One search of the hand, not a look and then a search: a discard is in it.)
                try:
                    hand.remove(tile)
                except ValueError:
                    _take(hand, (tile,))
                discards.append(tile)
                discarded = True
                rinshan = False
        self.last_draw, self.rinshan, self.after_kan = last_draw, rinshan, after_kan
        if discarded:
            self.discarded = True
            self.ippatsu = False

    def move(self, move: _Move) -> None:
        kind, own = move.kind, move.seat == self.seat
        if kind == DRAW:
            if own:
                assert move.tile is not None
                self.draw(move.tile)
        elif kind == DISCARD:
            if own:
                assert move.tile is not None
                self.discard(move.tile)
        elif kind in (CALL, KITA):
            # Any call or kita ends every ippatsu; a kan or kita of the seat's own is followed by
            # its replacement draw.
            self.ippatsu = False
            if own:
                taken = move.consumed if kind == CALL and move.call != "kakan" else (move.tile or "",)
                _take(self.hand, taken)
                if kind == KITA or move.call in ("daiminkan", "ankan", "kakan"):
                    self.after_kan = True
        elif kind == RIICHI:
            if own and not self.discarded and not move.after_call:
                self.double_riichi = True
        elif kind == ACCEPTED and own:
            self.ippatsu = True


class _LineReader(_GameReader):
    """``_GameReader`` over a text whose draws and discards in a plain layout are not read one by
    one: each run of them is checked as a whole, and a seat's are followed where a result needs
    its tiles (``_materialize``). What it gives is what ``_GameReader`` gives for the same lines."""

    def __init__(
        self,
        file: str,
        index: int | None,
        text: str,
        runs: list[tuple[int, int]],
        events: list[tuple[int, int, int, Any]],
        codes: list[int | None] | None = None,
    ) -> None:
        super().__init__(file, index, tiles=False)
        self.text = text
        # Each line's code (``_plain_lines``), where each plain line in the text is one of
        # ``_WRITTEN_PLAIN`` (a seat's are then found by a lookup); None where some are read by
        # ``_PLAIN_LINE``.
        self.codes = codes
        self.runs = runs
        self.events = events
        self.at = 0  # where the event being read starts in the text

    def read_lines(self, parts: list[int]) -> LoggedGame:
        """The game of these parts (``_read_lines``: ``2 * i`` a run, ``2 * i + 1`` an event)."""
        kyokus = self.kyokus
        handlers: dict[str, Callable[[dict[str, Any]], None]] = {name[4:]: getattr(self, name) for name in HANDLERS}
        handler_of = handlers.get
        runs, events, text = self.runs, self.events, self.text
        end = 0
        for part in parts:
            if not part & 1:
                # A run of plain draws and discards (checked here, not in a method of its own: four
                # runs a hand): refused as its first line would be, if at all.
                start, end = runs[part >> 1]
                k = self.kyoku
                if k is None or k.ended or (self.players == 3 and _FOURTH_SEAT.search(text, start, end)):
                    self._refuse(start, end)
                if not self.red_fives and _RED_FIVE.search(text, start, end):
                    self.red_fives = True
                # Each plain draw says ``"tsumo"`` once (a discard's ``"tsumogiri"`` is not it).
                k.plain_draws += text.count('"tsumo"', start, end)
                continue
            line, self.at, end, event = events[part >> 1]
            self.line = line
            kind = event["type"]
            handler = handler_of(kind)
            if handler is None:
                continue
            handler(event)
            if kind == "start_kyoku":
                assert self.kyoku is not None
                kyokus.append(self.kyoku)
                self.kyoku.start = end
                self.kyoku.first_line = line  # the line after start_kyoku's (``line`` counts from 1)
                self.kyoku.dealt = [list(hand) for hand in self.kyoku.hands]
        for k in kyokus:
            if k.stop is None:
                k.stop = end
                k.stop_index = k.first_line + text.count("\n", k.start, end)
        return self._finish()

    def _refuse(self, start: int, end: int) -> NoReturn:
        """The handlers' refusal of a run's first line they refuse: each read in turn until then."""
        text = self.text
        for m in _PLAIN.finditer(text, start, end):
            self.line = text.count("\n", 0, m.start()) + 1
            self.at = m.start()
            event = json.loads(m[0])
            (_GameReader._on_tsumo if event["type"] == "tsumo" else _GameReader._on_dahai)(self, event)
        raise AssertionError("a run of plain lines the handlers take")  # pragma: no cover

    def _stop(self) -> None:
        if self.kyoku is not None and self.kyoku.stop is None:
            self.kyoku.stop = self.at
            self.kyoku.stop_index = self.line - 1

    # The handlers: ``_GameReader``'s, and the move kept for the seats' play.

    def _on_start_kyoku(self, event: dict[str, Any]) -> None:
        self._stop()
        super()._on_start_kyoku(event)

    def _on_end_kyoku(self, event: dict[str, Any]) -> None:
        self._stop()
        super()._on_end_kyoku(event)

    def _on_end_game(self, event: dict[str, Any]) -> None:
        self._stop()
        super()._on_end_game(event)

    def _on_tsumo(self, event: dict[str, Any]) -> None:
        super()._on_tsumo(event)
        self._moved(DRAW, event, event["pai"])

    def _on_dahai(self, event: dict[str, Any]) -> None:
        super()._on_dahai(event)
        self._moved(DISCARD, event, event["pai"])

    def _call(self, event: dict[str, Any], kind: str) -> None:
        super()._call(event, kind)
        tile = None if kind == "ankan" else event["pai"]
        self._moved(CALL, event, tile, tuple(event["consumed"]), kind)

    def _on_kita(self, event: dict[str, Any]) -> None:
        super()._on_kita(event)
        self._moved(KITA, event, event.get("pai", "N"))

    def _on_reach(self, event: dict[str, Any]) -> None:
        super()._on_reach(event)
        assert self.kyoku is not None
        self._moved(RIICHI, event, None, after_call=self.kyoku.any_call)

    def _on_reach_accepted(self, event: dict[str, Any]) -> None:
        super()._on_reach_accepted(event)
        self._moved(ACCEPTED, event, None)

    def _moved(
        self,
        kind: int,
        event: dict[str, Any],
        tile: str | None,
        consumed: tuple[str, ...] = (),
        call: str = "",
        after_call: bool = False,
    ) -> None:
        # The handler has checked the event: its seat and tiles are what it read.
        assert self.kyoku is not None
        self.kyoku.moves.append(_Move(self.at, self.line - 1, kind, event["actor"], tile, consumed, call, after_call))

    def _on_hora(self, event: dict[str, Any]) -> None:
        k, actor = self.kyoku, event.get("actor")
        if k is not None and not k.ended and type(actor) is int and 0 <= actor < self.players:
            self._materialize(k, self.at, self.line - 1, (actor,))
        super()._on_hora(event)

    # A draw's result: the draws and the last discard; the discards, or every seat's play where the
    # hands are asked.

    def _draws(self, k: _Kyoku) -> int:
        # The draws before the hand stops, read from its lines where they are asked: a draw that
        # names its reason (every drawn hand riichienv writes) does not ask them.
        assert k.stop is not None
        self._table(k, k.stop, k.stop_index, [m for m in k.moves if m.at < k.stop])
        return k.draws

    def _nagashi_eligible(self, k: _Kyoku) -> set[int]:
        text, start, stop = self.text, k.start, k.stop
        assert stop is not None  # the hand's lines are all read
        eligible: set[int] = set()
        # The seats with a discard read as JSON.
        read = {m.seat for m in k.moves if m.kind == DISCARD}
        for seat in range(k.players):
            if seat in k.called_from:
                continue
            if seat in read:
                # A discard read as JSON: the seat's play in order.
                self._materialize(k, stop, k.stop_index, (seat,))
                if seat in super()._nagashi_eligible(k):
                    eligible.add(seat)
            elif self.codes is not None:
                # The seat's discards by their codes: at least one, each a terminal or an honor.
                # (``in`` stops at the first found: a simple tile is thrown early in most hands.)
                stretch = self.codes[k.first_line : k.stop_index]
                terminal = _SEAT_DISCARD_CODES[seat].get
                if False not in map(terminal, stretch) and True in map(terminal, stretch):
                    eligible.add(seat)
            elif _SEAT_DISCARDS[seat].search(text, start - 1, stop) and not _SEAT_SIMPLES[seat].search(
                text, start - 1, stop
            ):
                eligible.add(seat)
        return eligible

    def _ready(
        self,
        k: _Kyoku,
        event: dict[str, Any],
        changes: tuple[int, ...],
        riichi: tuple[int, ...],
        following: _Kyoku | None,
    ) -> tuple[int, ...]:
        if event.get("tenpais") is None and not any(c > 0 for c in changes):
            self._materialize(k, k.stop, k.stop_index, range(k.players))
        return super()._ready(k, event, changes, riichi, following)

    def _abort_kind(self, k: _Kyoku) -> AbortKind:
        self._materialize(k, k.stop, k.stop_index, range(k.players))
        return super()._abort_kind(k)

    # The state ``_GameReader``'s handlers would have left at a point of the hand.

    def _materialize(self, k: _Kyoku, at: int | None, index: int, seats: Sequence[int]) -> None:
        """The hand as the handlers leave it before ``at`` (the start of line ``index``, or the end
        of the text), for these seats and the table."""
        assert at is not None
        moves = [m for m in k.moves if m.at < at]
        self._table(k, at, index, moves)
        for seat in seats:
            play = self._play(k, seat, at, index, moves)
            k.hands[seat] = play.hand
            k.last_draw[seat] = play.last_draw
            k.discards[seat] = play.discards
            # Each of the seat's flags into the hand's set of seats (written out: a tuple of pairs
            # made and unpacked for each seat was a fifth of this).
            (k.discarded.add if play.discarded else k.discarded.discard)(seat)
            (k.ippatsu.add if play.ippatsu else k.ippatsu.discard)(seat)
            (k.rinshan_draw.add if play.rinshan else k.rinshan_draw.discard)(seat)
            (k.after_kan.add if play.after_kan else k.after_kan.discard)(seat)
            (k.double_riichi.add if play.double_riichi else k.double_riichi.discard)(seat)

    def _play(self, k: _Kyoku, seat: int, at: int, index: int, moves: list[_Move]) -> _SeatPlay:
        """One seat's play before ``at`` (line ``index``): its plain lines and the moves, in the
        order written."""
        play = _SeatPlay(seat, k.dealt[seat])
        text, codes = self.text, self.codes
        if codes is not None:
            # The seat's plain lines looked up among the codes of each stretch between the moves
            # (a move's own line is read as JSON: left out, as the last line of a text may be plain).
            own = _SEAT_CODES[seat].get
            begin = k.first_line
            for move in moves:
                play.plain(filter(None, map(own, codes[begin : move.line_index])))
                play.move(move)
                begin = move.line_index + 1
            play.plain(filter(None, map(own, codes[begin:index])))
            return play
        found = _SEAT_LINES[seat].findall
        # From the newline that ends start_kyoku's line; the plain lines before each move (each
        # found from the newline before it, the newline after it inside the part searched), then
        # the move.
        start = k.start - 1
        for move in moves:
            play.plain([(m[0] or m[3], (m[1] or m[2]) == "tsumo") for m in found(text, start, move.at)])
            play.move(move)
            start = move.at
        play.plain([(m[0] or m[3], (m[1] or m[2]) == "tsumo") for m in found(text, start, at)])
        return play

    def _table(self, k: _Kyoku, at: int, index: int, moves: list[_Move]) -> None:
        """The draws before ``at`` (line ``index``), the last discard, whether it came after the
        wall's last draw, and a kakan that may be robbed: from the lines before ``at``, the last first."""
        # The plain lines read are those before ``at`` (a result's line, or where the hand stops).
        draws = k.plain_draws + sum(m.kind == DRAW for m in moves)
        k.draws = draws
        k.kakan = None
        k.last_discard = None
        k.discard_after_last_draw = False
        kakan_known = draw_known = False
        for kind, seat, tile, call in self._tiles_back(k, at, index, moves):
            if not kakan_known:
                # The last draw, discard or call: a kakan is robbed before anything follows it.
                kakan_known = True
                if call == "kakan":
                    k.kakan = (seat, tile)
            if kind == DRAW:
                draw_known = True
            elif kind == DISCARD:
                if not draw_known:
                    k.discard_after_last_draw = draws >= WALL_DRAWS[k.players]
                k.last_discard = (seat, tile)
                return

    def _tiles_back(self, k: _Kyoku, at: int, index: int, moves: list[_Move]) -> Iterator[tuple[int, int, str, str]]:
        """The draws, discards and calls before ``at`` (line ``index``), the last first: each its kind,
        seat, tile and call (``""`` but for a call)."""
        codes = self.codes
        if codes is not None:
            # By the codes of the lines (a line read as JSON has none, the text's last may have one:
            # it is then a draw or discard read as JSON as well, the same seat and tile).
            moved = {m.line_index: m for m in moves if m.kind in (DRAW, DISCARD, CALL)}
            for i in range(index - 1, k.first_line - 1, -1):
                code = codes[i]
                if code is not None:
                    seat, tile, drawn = _PLAIN_ENTRY[code]
                    yield DRAW if drawn else DISCARD, seat, tile, ""
                elif (move := moved.get(i)) is not None:
                    yield move.kind, move.seat, move.tile or "", move.call
            return
        text, start = self.text, k.start
        tiles_moved = {m.at: m for m in moves if m.kind in (DRAW, DISCARD, CALL)}
        end = at
        while end > start:
            line_end = end - 1 if text[end - 1] == "\n" else end
            line = max(text.rfind("\n", start, line_end) + 1, start)
            end = line
            m = _PLAIN.match(text, line)
            if m is not None:
                yield DRAW if (m[3] or m[4]) == "tsumo" else DISCARD, int(m[1] or m[5]), m[2] or m[6], ""
            elif (move := tiles_moved.get(line)) is not None:
                yield move.kind, move.seat, move.tile or "", move.call


# The name the registry (``replay.formats.detect.REGISTRY``) reads this format with.
read = read_mjai
