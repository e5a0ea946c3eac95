"""tenhou.net/6 JSON to logged games: a translation, no scoring.

Two forms exist (``../shared/corpus/FORMAT.md``): the ``mjlog2json.cgi`` export
of a whole game, with the final result ``sc``, and the editor's ``#json=`` form,
usually one hand cut from a game, without ``sc``. Each ``log[i]`` is one hand:
``[0]`` = ``[kyoku index, honba, riichi sticks]``, ``[1]`` the scores at its
start, ``[4 + 3p]``..``[6 + 3p]`` player p's hand, draws and discards, and
``[16]`` the result (``和了`` with delta and info arrays, ``流局`` and the
other draw names).

The hand results are what a person recording by hand would enter: winners,
discarder, liable player, hand value (from the value string and the yaku list),
riichi, who was ready. The deltas the log recorded are kept beside each hand,
with the riichi sticks placed in the hand added (Tenhou's JSON leaves them out).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import PurePath
from typing import Any, Final

import attrs

from domain.bounds import shown
from domain.errors import InvalidRules
from domain.rules import Ruleset, load_preset
from domain.values import (
    AbortiveDraw,
    AbortKind,
    ExhaustiveDraw,
    HandResult,
    HandValue,
    Win,
    WinDetails,
    WinResult,
    Yaku,
)
from replay.formats.logmodel import (
    LogError,
    LoggedGame,
    LoggedHand,
    distinct_names,
    played_to_log_end,
)
from replay.formats.source import first_line_object, head
from replay.formats.tenhou_rules import TenhouRules, dating, log_time, points_format, rules_for
from replay.formats.tenhou_vocab import (
    ABORT_SPELLINGS,
    EXHAUSTIVE_SPELLINGS,
    KAZOE_YAKUMAN,
    KIRIAGE_MANGAN,
    LIMIT_SPELLINGS,
    LIMITS_BY_WORD,
    LOG_ID,
    MAX_COUNT,
    MAX_KYOKU_INDEX,
    MAX_POINTS,
    NAGASHI_SPELLINGS,
    WIN_SPELLINGS,
)
from replay.formats.yaku import details, parse_entry
from replay.input.json_text import load_json

FORMAT: Final = "tenhou-json"
# Mahjong Soul's ranked rooms, as converters name them (room_name_jp / room_name_en of the
# game's matchmode table; tensoul-py's Chinese names): all play the ranked rules of the
# `mahjongsoul` presets.
MAHJONG_SOUL_RANKED: Final = (
    "銅の間",
    "銀の間",
    "金の間",
    "玉の間",
    "王座の間",
    "铜之间",
    "银之间",
    "金之间",
    "玉之间",
    "王座之间",
    "bronze room",
    "silver room",
    "gold room",
    "jade room",
    "throne room",
)
# Rooms whose rules their players set (the converters write 友人戦/Friendly for a friendly
# room, 大会戦/Tournament (also misspelt "Tounament") for a tournament): the log does not
# state their rules.
MAHJONG_SOUL_CUSTOM: Final = ("友人戦", "大会戦", "friendly", "tournament", "tounament", "友人场", "比赛场")
# A Mahjong Soul game's uuid, which converters write as the log's ref (e.g. 200101-<uuid>).
MAHJONG_SOUL_REF: Final = re.compile(r"^\d{6}-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")

WIN: Final = "和了"
EXHAUSTIVE: Final = "流局"
ALL_READY: Final = "全員聴牌"
NONE_READY: Final = "全員不聴"
NAGASHI: Final = "流し満貫"
ABORTS: Final = ABORT_SPELLINGS
LIMITS: Final = LIMITS_BY_WORD
# Every spelling of a result's name (Tenhou's, and the romaji and English ones of Mahjong Soul's
# converters) as the name Tenhou writes.
RESULT_NAMES: Final[dict[str, str]] = {
    **{name: WIN for name in WIN_SPELLINGS},
    **{name: EXHAUSTIVE for name in EXHAUSTIVE_SPELLINGS},
    **{name: NAGASHI for name in NAGASHI_SPELLINGS},
}
# "30符4飜7700点", "満貫8000点", "30符3飜1000-2000点" (non-dealer tsumo), "30符1飜500点∀"
# (dealer tsumo, everyone pays), and the converters' "Mangan 2000-4000点", "Haneman 3000-6000点",
# "30Fu4Han7700Points"; a longer limit word is tried before one it ends with (三倍満 before 倍満).
_LIMIT_ALTERNATION: Final = "|".join(re.escape(word) for word in sorted(LIMIT_SPELLINGS, key=len, reverse=True))
VALUE: Final = re.compile(
    r"^\s*(?:(?P<fu>\d+)\s*(?:符|Fu))?\s*(?:(?P<han>\d+)\s*(?:飜|Han))?\s*"
    rf"(?P<limit>{_LIMIT_ALTERNATION})?\s*"
    r"(?P<points>\d+)(?:-(?P<dealer>\d+))?\s*(?:点|Points|pts)\s*(?P<all>∀)?\s*$"
)
YAKU_HAN: Final = re.compile(r"\((\d+)飜\)\s*$")
# A yakuman in the yaku list: "大三元(役満)"; converted logs may write a double one.
YAKUMAN_ITEM: Final = re.compile(r"\((ダブル|トリプル|\d+倍)?役満\)\s*$")
YAKUMAN_TIMES: Final = {None: 1, "ダブル": 2, "トリプル": 3}


def detect(data: bytes) -> bool:
    """Whether the content is tenhou.net/6 JSON: a list of games, or a game object (its ``log``),
    not JSON Lines of events that each name their ``type`` (mjai)."""
    start = head(data)
    if start.startswith(b"["):
        return b'"log"' in data
    if not start.startswith(b"{"):
        return False
    first = first_line_object(data)
    if isinstance(first, dict):
        if isinstance(first.get("type"), str):
            return False
        if "log" in first:
            return True
    # A pretty-printed JSON document spans lines: look at the whole of it.
    return b'"log"' in data


def read_tenhou_json(data: bytes, *, file: str) -> list[LoggedGame]:
    """The games of a tenhou.net/6 JSON file (one game object, or a list of them).

    Each hand keeps the log's header and its recorded score changes (riichi sticks
    placed in the hand included). A file without ``sc`` (the editor form, usually
    a one-hand excerpt) gives a game marked ``truncated``; a hand-built log that
    lacks what a hand result needs gives a game marked ``unsupported``. Anything
    unreadable raises ``LogError`` naming the file and the position (``log[3]``).
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LogError(file, f"not UTF-8 text (byte {exc.start})") from None
    try:
        document = load_json(text)
    except json.JSONDecodeError as exc:
        raise LogError(f"{file}, line {exc.lineno}, column {exc.colno}", f"not valid JSON ({exc.msg})") from None
    if isinstance(document, list):
        if not document:
            raise LogError(file, "an empty list: no game in it")
        return [_GameReader(file, f"[{i}] ", len(document) > 1).read(game) for i, game in enumerate(document)]
    return [_GameReader(file, "", False).read(document)]


class _GameReader:
    """Reads one game object; ``prefix`` places it in a file that holds a list of games."""

    def __init__(self, file: str, prefix: str, several: bool):
        self.file = file
        self.prefix = prefix
        self.several = several
        self.players = 4
        self.mahjong_soul = False
        # What a riichi stick is worth under the game's rules (set once they are read, before any hand).
        self.riichi_deposit: int | None = None

    def where(self, position: str) -> str:
        return f"{self.file}, {self.prefix}{position}".rstrip(", ")

    def read(self, document: Any) -> LoggedGame:
        if not isinstance(document, dict):
            raise LogError(self.where(""), f"a game must be a JSON object, not {_kind(document)}")
        log = document.get("log")
        if not isinstance(log, list):
            raise LogError(self.where("log"), "missing or not a list: this is not a tenhou.net/6 log")
        self.players = self._player_count(document, log)
        rules, length_known, noted = self._rules(document, log)
        self.riichi_deposit = rules.riichi_deposit
        hands: list[LoggedHand] = []
        unsupported: str | None = None
        for i, kyoku in enumerate(log):
            hand, problem = self._hand(i, kyoku, log[i + 1] if i + 1 < len(log) else None)
            hands.append(hand)
            unsupported = unsupported or problem
        final_scores, final_points = self._final(document.get("sc"))
        return LoggedGame(
            file=self.file,
            game_id=self._game_id(document),
            id_in_log=self._id_in_log(document),
            format=FORMAT,
            players=self._names(document.get("name")),
            rules=rules,
            hands=tuple(hands),
            final_scores=final_scores,
            final_points=final_points,
            unsupported=unsupported,
            # The editor form has no end: it is an excerpt, checked as far as it goes.
            truncated=final_scores is None,
            length_known=length_known,
            notes=noted.notes if unsupported is None else (),
            points_judged=noted.points_judged,
            rules_stated=noted.points_judged or not self.mahjong_soul,
        )

    # The game's header.

    def _player_count(self, document: dict[str, Any], log: list[Any]) -> int:
        rule = document.get("rule")
        disp = rule.get("disp") if isinstance(rule, dict) else None
        if document.get("ratingc") == "PF3" or (isinstance(disp, str) and disp.startswith("三")):
            return 3
        if document.get("ratingc") == "PF4" or (isinstance(disp, str) and disp):
            return 4
        # No header says it: a game where the fourth seat never has points nor tiles is sanma.
        fourth_empty = all(
            isinstance(k, list)
            and len(k) > 15
            and isinstance(k[1], list)
            and len(k[1]) == 4
            and k[1][3] == 0
            and k[13] == []
            and k[14] == []
            and k[15] == []
            for k in log
        )
        return 3 if log and fourth_empty else 4

    def _rules(self, document: dict[str, Any], log: list[Any]) -> tuple[Ruleset, bool, TenhouRules]:
        """The rules, whether the log says the game's length, and what the log leaves open.

        Tenhou's rooms ("鳳南喰赤" a hanchan, "般東喰" east-only) take Tenhou's rules of the
        log's date (``tenhou_rules``). Games converted from Mahjong Soul (a room name of its
        own, or its game uuid as ``ref``) take, in a ranked room, the ranked rules; in a
        friendly or tournament room, or one not known, the log does not state the rules:
        the hands are checked under Mahjong Soul's, from the starting points the log shows,
        and the final points are not judged (``LoggedGame.rules_stated``).
        """
        rule = document.get("rule")
        own = rule.get("honba") if isinstance(rule, dict) else None
        if own is not None:
            # A log written by ``honba export --format tenhou-json`` states the match's rules.
            if not isinstance(own, dict):
                raise LogError(self.where("rule.honba"), "must be an object of rule values")
            try:
                stated = Ruleset.from_stored(own)
            except InvalidRules as exc:
                raise LogError(self.where("rule.honba"), str(exc)) from None
            if stated.players != self.players:
                raise LogError(
                    self.where("rule.honba"), f"rules for {stated.players} players in a {self.players}-player log"
                )
            # A match ended early (``rule.honba_end``) is settled where the log ends.
            return stated, not (isinstance(rule, dict) and "honba_end" in rule), TenhouRules(stated)
        disp = rule.get("disp") if isinstance(rule, dict) else None
        disp = disp if isinstance(disp, str) else ""
        title = document.get("title")
        names = " ".join([disp, *(t for t in title if isinstance(t, str))] if isinstance(title, list) else [disp])
        lowered = names.lower()
        east = "東" in names or "东" in names or "east" in lowered
        south = "南" in names or "south" in lowered
        ref = document.get("ref")
        ranked = any(room in lowered for room in MAHJONG_SOUL_RANKED)
        custom = any(room in lowered for room in MAHJONG_SOUL_CUSTOM)
        self.mahjong_soul = (
            ranked
            or custom
            or "の間" in names
            or "之间" in names
            or " room" in lowered
            or (isinstance(ref, str) and MAHJONG_SOUL_REF.match(ref.strip()) is not None)
        )
        try:
            if self.mahjong_soul:
                rules = load_preset("mahjongsoul-sanma" if self.players == 3 else "mahjongsoul")
                if east:
                    rules = rules.with_overrides({"length": "east"})
                if ranked and not custom:
                    return rules, east or south, TenhouRules(rules)
                return self._rules_not_stated(rules, names, log)
            played = log_time(ref) if isinstance(ref, str) else None
            sc = document.get("sc")
            # The final points of ``sc`` (every second number), as written: a tenth dates the game.
            points = [str(p) for p in sc[1 : 2 * self.players : 2]] if isinstance(sc, list) else []
            when = dating(played, points_format=points_format(points) if played is None else None)
            noted = rules_for(self.players, east, when, final_points=sc is not None)
            return noted.rules, True, noted
        except InvalidRules as exc:  # pragma: no cover - the presets ship with honba
            raise LogError(self.where("rule"), str(exc)) from None

    def _rules_not_stated(self, rules: Ruleset, room: str, log: list[Any]) -> tuple[Ruleset, bool, TenhouRules]:
        """A Mahjong Soul room whose rules the log does not state: Mahjong Soul's payments from
        the starting points the log shows; its end and final points are not judged."""
        first = log[0] if log and isinstance(log[0], list) and len(log[0]) > 1 else None
        header = first[0] if first is not None else None
        scores = first[1][: self.players] if first is not None and isinstance(first[1], list) else []
        opening = header == [0, 0, 0] and len(scores) == self.players
        if opening and len(set(scores)) == 1 and isinstance(scores[0], int) and scores[0] != rules.start_score:
            # The room's own starting points: final points then count from them, as no rule says otherwise.
            rules = rules.with_overrides({"start_score": scores[0], "return_score": scores[0], "target_score": 0})
        rules = played_to_log_end(rules)
        shown_room = room.strip() or "unnamed"
        note = (
            f"rules not stated: Mahjong Soul room {shown_room!r} does not say its rules; scores, counters and "
            "deposits are checked under Mahjong Soul's, the end of the match and the final points are not "
            "judged (give --rules to score them)"
        )
        return rules, False, TenhouRules(rules, (note,), points_judged=False)

    def _names(self, raw: Any) -> tuple[str, ...]:
        where = self.where("name")
        if raw is None:
            raw = [""] * 4
        if not isinstance(raw, list) or not all(isinstance(n, str) for n in raw):
            raise LogError(where, "must be a list of player names")
        return distinct_names(raw, self.players)

    def _game_id(self, document: dict[str, Any]) -> str:
        ref = document.get("ref")
        if isinstance(ref, str) and ref.strip():
            return ref.strip()
        name = PurePath(self.file).name
        match = LOG_ID.search(name)
        base = match.group(0) if match else PurePath(self.file).stem
        return f"{base}{self.prefix.strip()}" if self.several else base

    def _id_in_log(self, document: dict[str, Any]) -> bool:
        ref = document.get("ref")
        return (isinstance(ref, str) and bool(ref.strip())) or LOG_ID.search(PurePath(self.file).name) is not None

    def _final(self, sc: Any) -> tuple[tuple[int, ...] | None, tuple[float, ...] | None]:
        if sc is None:
            return None, None
        where = self.where("sc")
        if not isinstance(sc, list) or len(sc) < 2 * self.players or len(sc) % 2:
            raise LogError(where, f"expected score, points pairs for {self.players} players")
        scores = tuple(_int(v, f"{where}[{2 * i}]") for i, v in enumerate(sc[0 : 2 * self.players : 2]))
        points = tuple(_number(v, f"{where}[{2 * i + 1}]") for i, v in enumerate(sc[1 : 2 * self.players : 2]))
        return scores, points

    # One hand.

    def _hand(self, index: int, kyoku: Any, following: Any) -> tuple[LoggedHand, str | None]:
        position = f"log[{index}]"
        where = self.where(position)
        if not isinstance(kyoku, list) or len(kyoku) < 16:
            raise LogError(where, f"a hand must be a list of 17 items, not {_kind(kyoku)}")
        header = _ints(kyoku[0], f"{where}[0]", length=3)
        kyoku_index, honba, sticks = header
        if not 0 <= kyoku_index <= MAX_KYOKU_INDEX:
            raise LogError(f"{where}[0]", f"kyoku index {kyoku_index} is out of range (0 to {MAX_KYOKU_INDEX})")
        if self.players == 3 and kyoku_index % 4 == 3:
            raise LogError(f"{where}[0]", f"kyoku index {kyoku_index}: a three-player game has no fourth dealer")
        for name, value in (("honba", honba), ("riichi sticks", sticks)):
            if not 0 <= value <= MAX_COUNT:
                raise LogError(f"{where}[0]", f"{name} {value} is out of range")
        scores = _ints(kyoku[1], f"{where}[1]", length=None)
        if len(scores) < self.players:
            raise LogError(f"{where}[1]", f"{len(scores)} scores for {self.players} players")
        scores = scores[: self.players]
        draws = [_list(kyoku[5 + 3 * p], f"{where}[{5 + 3 * p}]") for p in range(self.players)]
        discards = [_list(kyoku[6 + 3 * p], f"{where}[{6 + 3 * p}]") for p in range(self.players)]
        dealer = kyoku_index % 4
        outcome = kyoku[16] if len(kyoku) > 16 else None
        reader = _ResultReader(self, where, dealer, draws, discards, following)
        result, deltas, problem = reader.read(outcome)
        hand = LoggedHand(
            position=position,
            round_wind=kyoku_index // 4,
            hand_number=kyoku_index % 4 + 1,
            dealer=dealer,
            counters=honba,
            deposit_sticks=sticks,
            scores=tuple(scores),
            result=result,
            deltas=deltas,
            value_source="log",
            tiles=_tiles(kyoku),
        )
        return hand, problem


def _tiles(kyoku: list[Any]) -> tuple[Any, ...] | None:
    """A hand's tile arrays (``kyoku[2:16]``) when the log has its tiles (a haipai), else None: a
    log of results only (honba's own export, a converter's) has none to keep."""
    arrays = kyoku[2:16]
    if not any(isinstance(array, list) and array for array in arrays[2::3]):
        return None
    if not all(isinstance(array, list) for array in arrays):
        return None
    return tuple(arrays)


class _ResultReader:
    """The result of one hand (``log[i][16]``) as a domain hand result and its deltas."""

    def __init__(
        self,
        game: _GameReader,
        where: str,
        dealer: int,
        draws: list[list[Any]],
        discards: list[list[Any]],
        following: Any,
    ):
        self.game = game
        self.players = game.players
        self.where = where
        self.dealer = dealer
        self.draws = draws
        self.discards = discards
        self.following = following

    def read(self, outcome: Any) -> tuple[HandResult | None, tuple[int, ...] | None, str | None]:
        result, deltas, problem = self._read(outcome)
        if result is not None and any(self.draws):
            result = attrs.evolve(result, called=self._called())
        return result, deltas, problem

    def _called(self) -> tuple[int, ...]:
        """Seats that made an open call: a chi (``c``), pon (``p``) or open kong (``m``) in their
        draws; added and concealed kongs (``k``, ``a``) are in the discards and open nothing."""
        return tuple(
            seat
            for seat, draws in enumerate(self.draws)
            if any(isinstance(entry, str) and any(c in entry for c in "cpm") for entry in draws)
        )

    def _read(self, outcome: Any) -> tuple[HandResult | None, tuple[int, ...] | None, str | None]:
        where = f"{self.where}[16]"
        if outcome is None or outcome == []:
            # An excerpt may stop before its hand ends.
            return None, None, None
        if not isinstance(outcome, list) or not isinstance(outcome[0], str):
            raise LogError(where, "the result must be a list starting with its name (和了, 流局, ...)")
        name = outcome[0].strip()
        name = RESULT_NAMES.get(name, name)
        declared = self._declared_riichi()
        if name == WIN:
            return self._win(outcome, declared, where)
        if name in ABORTS:
            kind = ABORTS[name]
            riichi = declared
            if kind is AbortKind.TRIPLE_RON:
                # Three players called ron on one discard: a riichi declared with it is not paid.
                riichi = tuple(s for s in declared if s != self._ronned_declarer())
            changes = _sum_deltas([d for d in outcome[1:] if isinstance(d, list)], self.players, where)
            return AbortiveDraw(kind, riichi), self._with_sticks(changes, riichi), None
        if name in (EXHAUSTIVE, ALL_READY, NONE_READY, NAGASHI):
            return self._draw(name, outcome, declared, where)
        raise LogError(
            f"{where}[0]", f"unknown result name {shown(name)} (read: 和了, 流局 and the draws' names, or their romaji)"
        )

    def _win(
        self, outcome: list[Any], riichi: tuple[int, ...], where: str
    ) -> tuple[HandResult | None, tuple[int, ...] | None, str | None]:
        rest = outcome[1:]
        if not rest or len(rest) % 2:
            raise LogError(where, "a win needs pairs of score changes and win info")
        delta_lists: list[list[Any]] = []
        wins: list[Win] = []
        problem: str | None = None
        for k in range(0, len(rest), 2):
            item = f"{where}[{k + 2}]"
            delta_lists.append(_list(rest[k], f"{where}[{k + 1}]"))
            info = _list(rest[k + 1], item)
            if len(info) < 3:
                raise LogError(item, "win info needs who, from whom and pao seats")
            who, from_who, pao = (self._seat(info[j], f"{item}[{j}]") for j in range(3))
            if len(info) < 4:
                # A hand-built log (the corpus's synthetic confusing_nakis_2) may name the
                # winner and no value: nothing to score, so the game is not verified.
                problem = (
                    problem or f"{item.split(', ')[-1]}: the win of seat {who} has no hand value (a hand-built log?)"
                )
                continue
            value = _hand_value(info[3], info[4:], item)
            wins.append(
                Win(
                    winner=who,
                    value=value,
                    discarder=None if from_who == who else from_who,
                    liable=None if pao == who else pao,
                    details=attrs.evolve(
                        _details(info[3], info[4:]),
                        winning_tile=self._winning_tile(who, from_who),
                        calls=_calls(self.draws[who], self.discards[who], who) if who < len(self.draws) else (),
                    ),
                )
            )
        changes = _sum_deltas(delta_lists, self.players, where)
        if problem is not None:
            return None, changes, problem
        discarders = {w.discarder for w in wins}
        (discarder,) = discarders if len(discarders) == 1 else (None,)
        if discarder is not None and self._riichi_on_last_discard(discarder):
            # The declaration whose discard was ronned is not paid.
            riichi = tuple(s for s in riichi if s != discarder)
        return WinResult(tuple(wins), riichi), self._with_sticks(changes, riichi), None

    def _winning_tile(self, who: int, from_who: int) -> str | None:
        """The tile won on: the winner's last draw, or the last tile the discarder let go."""
        if who == from_who:
            own = self.draws[who] if who < len(self.draws) else []
            last = own[-1] if own else None
            return _tile_name(last) if isinstance(last, int) else None
        if from_who >= len(self.discards):
            return None
        thrown = [d for d in self.discards[from_who] if d != 0]
        drawn = self.draws[from_who]
        tile = _tile_of(thrown[-1], drawn[-1] if drawn else None) if thrown else None
        return _tile_name(tile) if tile is not None else None

    def _draw(
        self, name: str, outcome: list[Any], riichi: tuple[int, ...], where: str
    ) -> tuple[HandResult, tuple[int, ...], str | None]:
        changes = _sum_deltas([d for d in outcome[1:] if isinstance(d, list)], self.players, where)
        everyone = tuple(range(self.players))
        if name == ALL_READY:
            return ExhaustiveDraw(ready=everyone, riichi=riichi), self._with_sticks(changes, riichi), None
        if name == NONE_READY:
            return ExhaustiveDraw(ready=(), riichi=riichi), self._with_sticks(changes, riichi), None
        if name == NAGASHI:
            nagashi = tuple(s for s, c in enumerate(changes) if c > 0)
            if not nagashi:
                raise LogError(where, "nagashi mangan with nobody paid")
            # The JSON does not show who was ready; riichi players were, and whether the
            # dealer was is what decides the deal: the next hand's dealer shows it.
            ready = set(riichi)
            if self._dealer_kept() is True:
                ready.add(self.dealer)
            result = ExhaustiveDraw(ready=tuple(sorted(ready)), riichi=riichi, nagashi=nagashi)
            return result, self._with_sticks(changes, riichi), None
        # 流局 with noten payments: those paid were ready. With nothing paid, all or
        # none were ready: a riichi player was, and otherwise the deal shows it.
        ready = {s for s, c in enumerate(changes) if c > 0}
        if not any(changes) and (riichi or self._dealer_kept() is True):
            ready = set(everyone)
        return ExhaustiveDraw(ready=tuple(sorted(ready)), riichi=riichi), self._with_sticks(changes, riichi), None

    # Riichi.

    def _declared_riichi(self) -> tuple[int, ...]:
        """Seats that declared riichi in the hand (a ``"r…"`` discard)."""
        return tuple(
            seat
            for seat in range(self.players)
            if any(isinstance(d, str) and d.startswith("r") for d in self.discards[seat])
        )

    def _riichi_on_last_discard(self, seat: int) -> bool:
        own = self.discards[seat]
        return bool(own) and isinstance(own[-1], str) and own[-1].startswith("r")

    def _ronned_declarer(self) -> int | None:
        """On a triple ron: the seat whose riichi declaration was the discard ronned, if any."""
        last = _last_discarder(self.draws, self.discards, self.dealer, self.players)
        if last is not None:
            return last if self._riichi_on_last_discard(last) else None
        # The turn order could not be followed: fall back to the only declaration that
        # is some player's last action, when there is exactly one.
        candidates = [s for s in range(self.players) if self._riichi_on_last_discard(s)]
        return candidates[0] if len(candidates) == 1 else None

    def _with_sticks(self, changes: tuple[int, ...], riichi: Sequence[int]) -> tuple[int, ...]:
        """Tenhou's deltas leave out the sticks placed in the hand (each the rules' riichi deposit);
        the model includes them."""
        stick = self.game.riichi_deposit
        assert stick is not None, "the rules are read before the hands"
        return tuple(c - stick * (seat in riichi) for seat, c in enumerate(changes))

    def _dealer_kept(self) -> bool | None:
        """Whether the next hand of the log has the same dealer (None if there is none)."""
        nxt = self.following
        if not isinstance(nxt, list) or not nxt or not isinstance(nxt[0], list) or not nxt[0]:
            return None
        index = nxt[0][0]
        if not isinstance(index, int) or isinstance(index, bool):
            return None
        return index % 4 == self.dealer

    def _seat(self, value: Any, where: str) -> int:
        seat = _int(value, where)
        if not 0 <= seat < self.players:
            raise LogError(where, f"seat {seat}: there is no such seat at a {self.players}-player table")
        return seat


# The value of a win.


def _details(text: Any, yaku: Sequence[Any]) -> WinDetails:
    """What the win info says beyond the value: the yaku (``立直(1飜)``, ``大三元(役満)``) with
    the dora counted apart, and the fu of a hand below the limits (``30符...``)."""
    found = [parse_entry(y) or Yaku(y, 0, None) for y in yaku if isinstance(y, str)]
    match = VALUE.match(text) if isinstance(text, str) else None
    fu = match.group("fu") if match is not None and match.group("limit") is None else None
    return details(found, fu=int(fu) if fu is not None else None)


def _hand_value(text: Any, yaku: Sequence[Any], where: str) -> HandValue:
    """The hand value from the value string and the yaku list.

    ``30符4飜7700点`` gives han and fu; a limit name gives the limit, except a
    yakuman: its multiple is the number of yakuman in the yaku list, and a
    yakuman reached by counting han (no yakuman in the list) is given as its han
    so that the rules (``counted_yakuman``) decide what it pays.
    """
    if not isinstance(text, str):
        raise LogError(f"{where}[3]", f"the value must be a string such as '30符4飜7700点', not {_kind(text)}")
    match = VALUE.match(text)
    if match is None:
        raise LogError(f"{where}[3]", f"cannot read the hand value {shown(text)}")
    names = [y for y in yaku if isinstance(y, str)]
    if len(names) != len(yaku):
        raise LogError(where, "the yaku must be strings such as '立直(1飜)'")
    yakuman = 0
    han_sum = 0
    for name in names:
        item = YAKUMAN_ITEM.search(name)
        if item is not None:
            times = item.group(1)
            yakuman += YAKUMAN_TIMES[times] if times in YAKUMAN_TIMES else int(times[:-1])
            continue
        counted = YAKU_HAN.search(name)
        if counted is None:
            raise LogError(where, f"cannot read the yaku {shown(name)}")
        han_sum += int(counted.group(1))
    spelled = match.group("limit")
    limit = LIMIT_SPELLINGS[spelled] if spelled is not None else None
    if limit == KIRIAGE_MANGAN:
        # A 4 han 30 fu or 3 han 60 fu hand the room rounds up: a mangan, as the log paid it.
        limit = "満貫"
    if limit in ("役満", KAZOE_YAKUMAN) or yakuman:
        if yakuman:
            return HandValue(limit="yakuman", multiple=yakuman)
        return HandValue(han=max(13, han_sum))
    if limit is not None:
        return HandValue(limit=LIMITS[limit])
    fu = match.group("fu")
    han = match.group("han")
    if han is None and fu is None:
        raise LogError(f"{where}[3]", f"the hand value {shown(text)} has neither han nor a limit")
    return HandValue(han=int(han) if han is not None else han_sum, fu=int(fu) if fu is not None else None)


# Turn order, for the one case where the result does not name the discarder.


def _tile_name(code: int) -> str | None:
    """A tile of Tenhou's JSON (11-19 man, 21-29 pin, 31-39 sou, 41-47 honours, 51-53 red fives) as ``5m``."""
    if code in (51, 52, 53):
        return f"5{'mps'[code - 51]}"
    suit, number = divmod(code, 10)
    if 1 <= suit <= 4 and 1 <= number <= 9 and (suit < 4 or number <= 7):
        return f"{number}{'mpsz'[suit - 1]}"
    return None


def _calls(draws: list[Any], discards: list[Any], who: int) -> list[str]:
    """The winner's calls as Tenhou's JSON writes them (``c275226`` in the draws, ``k``/``a`` kans
    and ``f44`` kita in the discards), in the words honba uses for every format."""
    found: list[str] = []
    added: set[str] = set()
    for entry in [*draws, *discards]:
        if not isinstance(entry, str) or entry.startswith("r"):
            continue
        letter = next((c for c in entry if c.isalpha()), "")
        digits = entry.replace(letter, "")
        if letter == "f":
            found.append("kita")
            continue
        tiles = [
            _tile_name(int(digits[i : i + 2])) for i in range(0, len(digits) - 1, 2) if digits[i : i + 2].isdigit()
        ]
        names = sorted(t for t in tiles if t is not None)
        if not names:
            continue
        source = _call_source(entry, who)
        if letter == "c":
            found.append(f"chi {''.join(t[0] for t in names)}{names[0][1]} from seat {source}")
        elif letter == "p":
            found.append(f"pon {names[0]} from seat {source}")
        elif letter == "m":
            found.append(f"kan {names[0]} from seat {source}")
        elif letter == "a":
            found.append(f"kan {names[0]} (concealed)")
        elif letter == "k":
            found.append(f"added kan {names[0]}")
            added.add(names[0])
    # A pon later added to is one added kan, as Tenhou's mjlog shows it.
    return [c for c in found if not (c.startswith("pon ") and c.split(" ")[1] in added)]


def _called_tile(call: str) -> int | None:
    """The claimed tile of a chi/pon/open-kan string such as ``"c275226"`` or ``"12p1212"``."""
    for i, ch in enumerate(call):
        if ch in "cpm":
            digits = call[i + 1 : i + 3]
            return int(digits) if digits.isdigit() else None
    return None


def _call_source(call: str, caller: int) -> int | None:
    """The seat a call took its tile from: the letter's position says left, across or right.

    Positions count in the four-seat geometry even in sanma, where seat 2 sits
    across from seat 0 (the corpus's double_nukidora.json: ``"42p4242"`` by seat
    0 takes seat 2's discard).
    """
    for i, ch in enumerate(call):
        if ch == "c":
            return (caller - 1) % 4
        if ch in "pm":
            relative = {0: 1, 2: 2}.get(i, 3)
            return (caller - relative) % 4
    return None


def _tile_of(action: Any, drawn: Any) -> int | None:
    if isinstance(action, str) and action.startswith("r"):
        action = int(action[1:]) if action[1:].isdigit() else None
    if action == 60:
        return drawn if isinstance(drawn, int) else None
    return action if isinstance(action, int) else None


def _last_discarder(draws: list[list[Any]], discards: list[list[Any]], dealer: int, players: int) -> int | None:
    """Who made the hand's last discard, by following the turns; None if they cannot be followed.

    Each turn is a draw (a tile, or a call string when the player claimed the
    previous discard) and an action (a discard; a kan or kita, after which the
    player draws again; or 0 after an open kan). A player whose next draw is a
    call on a discard may still have let that discard go and called a later one
    of the same tile, so every choice is tried until all the lists are used up.
    """
    budget = [20_000]  # steps, so that a corrupt log cannot make the search run long

    def follow(took: tuple[int, ...], did: tuple[int, ...], seat: int, claimed: bool, last: int | None) -> int | None:
        took_, did_ = list(took), list(did)
        while budget[0] > 0:
            budget[0] -= 1
            drawn: Any = None
            if not claimed:
                if took_[seat] >= len(draws[seat]):
                    return last if _all_used(took_, did_) else None
                drawn = draws[seat][took_[seat]]
                took_[seat] += 1
                if isinstance(drawn, str):
                    return None  # a call where a draw was due: an earlier choice was wrong
            claimed = False
            if did_[seat] >= len(discards[seat]):
                return last if _all_used(took_, did_) else None
            action = discards[seat][did_[seat]]
            did_[seat] += 1
            if action == 0 or (isinstance(action, str) and any(ch in action for ch in "akf")):
                continue  # a kan or kita: the same player draws a replacement
            tile = _tile_of(action, drawn)
            if tile is None:
                return None
            last = seat
            claims = []
            for other in range(players):
                if other == seat or took_[other] >= len(draws[other]):
                    continue
                call = draws[other][took_[other]]
                if isinstance(call, str) and _called_tile(call) == tile and _call_source(call, other) == seat:
                    # A pon or kan goes before a chi.
                    claims.append((call.startswith("c"), other))
            for _, caller in sorted(claims):
                call = draws[caller][took_[caller]]
                took_c, did_c = list(took_), list(did_)
                took_c[caller] += 1
                # After an open kan the discard list has a 0 and the player draws a replacement.
                if "m" in call and did_c[caller] < len(discards[caller]) and discards[caller][did_c[caller]] == 0:
                    did_c[caller] += 1
                found = follow(tuple(took_c), tuple(did_c), caller, "m" not in call, last)
                if found is not None:
                    return found
            seat = (seat + 1) % players
        return None

    def _all_used(took: list[int], did: list[int]) -> bool:
        return all(took[p] == len(draws[p]) and did[p] == len(discards[p]) for p in range(players))

    try:
        return follow((0,) * players, (0,) * players, dealer, False, None)
    except RecursionError:
        return None


# Plain checks on JSON values.


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null"}.get(
        type(value), "a number"
    )


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        raise LogError(where, f"expected a whole number, not {_kind(value)} {shown(value)}")
    if isinstance(value, float) and not value.is_integer():
        raise LogError(where, f"expected a whole number, not {value}")
    if abs(value) > MAX_POINTS:
        raise LogError(where, f"{shown(value)} is out of range")
    return int(value)


def _number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        raise LogError(where, f"expected a number, not {_kind(value)}")
    if abs(value) > MAX_POINTS:
        raise LogError(where, f"{shown(value)} is out of range")
    return float(value)


def _ints(value: Any, where: str, *, length: int | None) -> list[int]:
    if not isinstance(value, list):
        raise LogError(where, f"expected a list of whole numbers, not {_kind(value)}")
    if length is not None and len(value) != length:
        raise LogError(where, f"expected {length} numbers, got {len(value)}")
    return [_int(v, f"{where}[{i}]") for i, v in enumerate(value)]


def _list(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise LogError(where, f"expected a list, not {_kind(value)}")
    return value


def _sum_deltas(delta_lists: Sequence[Any], players: int, where: str) -> tuple[int, ...]:
    """The seats' total change over the result's delta arrays (two for a double ron)."""
    total = [0] * players
    for k, deltas in enumerate(delta_lists):
        values = _ints(deltas, f"{where}[{2 * k + 1}]", length=None)
        if len(values) < players or any(values[players:]):
            raise LogError(f"{where}[{2 * k + 1}]", f"{len(values)} score changes for {players} players")
        for seat in range(players):
            total[seat] += values[seat]
    return tuple(total)


# The name the registry (``replay.formats.detect.REGISTRY``) reads this format with.
read = read_tenhou_json
