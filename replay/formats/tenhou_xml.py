"""Tenhou mjlog XML (``<mjloggm>``) to logged games: a translation, no scoring.

Each ``INIT`` opens a hand; ``REACH step="2"`` is an accepted riichi; ``AGARI``
(one tag per winner, several in a row for a double ron) and ``RYUUKYOKU`` end it;
``owari`` on the last result is the game's end. ``../shared/corpus/FORMAT.md``
documents the tags. The score changes the log recorded (``sc``) are kept beside
each hand for ``replay.service.imports.verify``; the hand results themselves are only what a
person recording by hand would enter: winners, discarder, hand value, riichi,
who was ready.

The XML is parsed by the standard library's C parser (expat) only after the text is
checked to hold no document type declaration: without a DTD no entity can be declared,
so entity expansion and external references (files, URLs, DTDs) cannot happen. The
text is decoded as UTF-8 here and handed to the parser as text, so an ``encoding``
named in the XML declaration cannot hide a declaration from that check.
"""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence
from pathlib import PurePath
from typing import Final, Protocol, cast, overload
from urllib.parse import unquote

import attrs

from domain.bounds import shown as quoted
from domain.errors import InvalidRules
from domain.rules import Ruleset
from domain.values import (
    AbortiveDraw,
    ExhaustiveDraw,
    HandResult,
    HandValue,
    Win,
    WinDetails,
    WinResult,
    Yaku,
)
from replay.formats.logmodel import LogError, LoggedGame, LoggedHand, distinct_names
from replay.formats.source import head, unpack
from replay.formats.tenhou_csrule import CsruleError, decode_csrule
from replay.formats.tenhou_rules import TenhouRules, dating, log_time, points_format, rules_for
from replay.formats.tenhou_vocab import (
    ABORTS_BY_XML_TYPE,
    LIMITS_BY_TEN_CODE,
    LOG_ID,
    MAX_COUNT,
    MAX_KYOKU_INDEX,
    MAX_POINTS,
)
from replay.formats.yaku import YAKUMAN_HAN, details, is_open_call, tenhou_call, tile136, yaku_of

FORMAT: Final = "tenhou-xml"

# GO type bits (tsubakisakura/mjlog parser.rs; FORMAT.md). 0x01 humans, 0x02 no red
# fives, 0x04 no open tanyao, 0x40 fast, 0x20|0x80 the room, 0x100 hidden discards
# (暗): none of these changes what a hand pays.
HANCHAN: Final = 0x08
SANMA: Final = 0x10
CHIPS: Final = 0x200  # 祝儀: chip payments beside the points (``chip`` attributes, owari has 16 values)
FIVE_CHIPS: Final = 0x400  # 祝5 rather than 祝2; only with CHIPS
# The first letters of Tenhou's draw (T U V W) and discard (D E F G) tags, by seat.
DRAWS_AND_DISCARDS: Final = frozenset("TUVWDEFG")
# Bits above those: special rule sets. In the corpus 0x800 (type 2113) is a game of
# one hand from 1,000 points scored by ``ratio``, not standard riichi.
SPECIAL_BITS: Final = ~0x7FF

ABORT_KINDS: Final = ABORTS_BY_XML_TYPE
NAGASHI: Final = "nm"
# ``ten``'s third value; 5 (yakuman) is read from the yakuman list or the han.
LIMITS: Final = LIMITS_BY_TEN_CODE


def detect(data: bytes) -> bool:
    """Whether the content is XML (a mjlog is the one XML format honba reads)."""
    return head(data).startswith(b"<")


def read_tenhou_xml(
    data: bytes, *, file: str, collect: Callable[[ET.Element], None] | None = None, details: bool = True
) -> list[LoggedGame]:
    """The games of a Tenhou mjlog file (plain or gzip-compressed XML), in order.

    Each game's hands carry the log's own header and score changes; a game under
    special rules is returned with ``unsupported`` set, a game without its end
    (no ``owari``) with ``truncated`` set. Anything unreadable raises ``LogError``
    naming the file and the position (``INIT #3``, ``line 1, column 57``). ``collect`` is given
    every tag of the log in the same walk (an import's tiles, ``tenhou_xml_tiles``). Without
    ``details``, each win's ``details`` (its yaku, fu, winning tile and calls, which nothing is paid
    by) are left out (``None``): what ``honba verify`` reads (``read_hands``), the rest the same.
    """
    data = unpack(data, file=file)
    if collect is None:
        game = _read_plain(data, file, details)
        if game is not None:
            return [game]
    root = parse_xml(data, file)
    if root.tag != "mjloggm":
        raise LogError(file, f"not a Tenhou mjlog: the document is <{root.tag}>, not <mjloggm>")
    return [_GameReader(file, details=details).read(root, collect)]


def read_hands(data: bytes, *, file: str) -> list[LoggedGame]:
    """``read_tenhou_xml`` without each win's details: what ``honba verify`` reads (the registry's
    reader; an import reads with the tiles, ``tenhou_xml_tiles``, and keeps the details)."""
    return read_tenhou_xml(data, file=file, details=False)


# The plain shape every Tenhou server writes: an optional XML declaration, ``<mjloggm>`` with at
# most one attribute, then only empty tags (``<NAME a="v" .../>``), blank space between them. In
# it, names are ASCII (none starting ``xml``: no namespace), values double-quoted with neither ``<``,
# ``&`` (no entity or character reference) nor control characters (nothing the parser would
# normalise), and a tag no handler reads has at most two attributes, told apart by a
# backreference. Text of this shape is well-formed XML whose tree is its tags in order, each with
# its attributes as written: the tags a hand result needs are found in it by a regular expression,
# with the same values the tree would give, and the tree is never built (nine tags in ten are
# draws and discards). Anything else (a comment, an entity, a nested element, a tag with three
# attributes no handler reads, malformed XML) is read through the parser, which says what is wrong.
#
# One pass does both, the check of the shape and the finding of the tags a handler reads: from the
# opening tag (``_HEAD``) each step (``_STEP``, anchored where the last one ended) passes the tags no
# handler reads and takes the next one a handler does; where no step matches, the rest must be tags
# no handler reads and the closing tag (``_TAIL``), or the text is not of the plain shape.
_S: Final = r"[ \t\r\n]"
_NAME: Final = r"(?![Xx][Mm][Ll])[A-Za-z_][A-Za-z0-9_.-]*+"
_CHARS: Final = r'[^"<&\x00-\x1f\ufffe\uffff]*+'
_VALUE: Final = f'"{_CHARS}"'
_ATTRIBUTE: Final = rf"{_S}++{_NAME}={_VALUE}"
_NEEDED_TAGS: Final = "GO|UN|TAIKYOKU|INIT|REACH|N|AGARI|RYUUKYOKU"
_HEAD: Final = re.compile(
    rf'(?:<\?xml version="1\.0"(?: encoding="[Uu][Tt][Ff]-8")?\?>)?{_S}*+<mjloggm(?:{_ATTRIBUTE})?+{_S}*+>'
)
# Tags no handler reads: a draw or discard as Tenhou writes it (nine tags in ten) is tried first;
# any other tag whose name is not a needed tag's, with at most two attributes, told apart.
_SKIPPED: Final = (
    rf"(?:<[TUVWDEFG][0-9]*+/>|{_S}*+<(?!(?:{_NEEDED_TAGS})[ \t\r\n/])[A-Za-z][A-Za-z0-9]*+"
    rf"(?:{_S}++(?P<first>{_NAME})={_VALUE}(?:{_S}++(?!(?P=first)=){_NAME}={_VALUE})?+)?+{_S}*+/>)*+"
)
_TAIL: Final = re.compile(rf"{_SKIPPED}{_S}*+</mjloggm>{_S}*+")
# The tags a handler reads, with their attributes. The five tags a handler reads (all but a log's
# first few), a call, a riichi, a win, a draw and a hand's start, are first tried in the very layouts
# Tenhou writes them, their numbers as named groups: no attribute dictionary is made for them
# (``_GameReader.read_plain`` takes them by ``lastgroup``, the name of the alternative that matched,
# whose group spans the tag from its name to its end). Their lists of numbers are of at most six
# digits each, within what ``_ints`` reads (``MAX_POINTS``), each attribute comes at most once, and
# every value is one the shape allows. The same span is what the general alternative (``name`` and
# ``attributes``) would match there; anything else (another order, an attribute more, such as a
# win's ``ratio`` or a hand's ``shuffle``) is left to it.
_NUMBER: Final = "[0-9]{1,6}"
_NUMBERS: Final = f"{_NUMBER}(?:,{_NUMBER})*"
_SIGNED: Final = f"-?{_NUMBER}(?:,-?{_NUMBER})*"


def _handled(tiles: bool) -> tuple[tuple[str, str], ...]:
    """The tags a handler reads in the very layouts Tenhou writes them (``_needed``'s alternatives but
    the general one, in its order), each with the first two characters of its name (no two alike: a
    tag can match at most the one alternative its start names); with ``tiles``, the groups the tiles
    read too (each hand dealt, a win's ura indicators) and a new dora indicator in Tenhou's layout
    (``piece_pattern()``'s: a group more costs ``_STEP``'s walk, ``honba verify``'s, at every tag)."""

    def kept(name: str, pattern: str) -> str:
        return f"(?P<{name}>{pattern})" if tiles else pattern

    dealt = "".join(f'(?: hai{seat}="{kept(f"dealt{seat}", "[0-9,]*")}")?' for seat in range(4))
    handled = (
        ("N ", r'(?P<call>N who="(?P<call_who>[0-9])" m="(?P<call_m>[0-9]{1,6})" ?/>)'),
        ("RE", rf'(?P<reach>REACH who="(?P<reach_who>[0-9])"(?: ten="{_CHARS}")? step="(?P<reach_step>[0-9])" ?/>)'),
        (
            "AG",
            rf'(?P<agari>AGARI ba="{_NUMBER},{_NUMBER}" hai="[0-9,]*"(?: m="(?P<agari_m>{_NUMBERS})")? '
            rf'machi="(?P<machi>{_NUMBER})" ten="(?P<fu>{_NUMBER}),{_NUMBER},(?P<limit>{_NUMBER})" '
            rf'(?:yaku="(?P<yaku>{_NUMBER},{_NUMBER}(?:,{_NUMBER},{_NUMBER})*)"|yakuman="(?P<yakuman>{_NUMBERS})") '
            rf'doraHai="[0-9,]*"(?: doraHaiUra="{kept("ura", "[0-9,]*")}")? who="(?P<who>[0-9])" '
            rf'fromWho="(?P<from_who>[0-9])"'
            rf'(?: paoWho="(?P<pao>[0-9])")? sc="(?P<agari_sc>{_SIGNED})"(?: owari="(?P<agari_owari>{_CHARS})")? ?/>)',
        ),
        ("IN", rf'(?P<init>INIT seed="(?P<seed>{_NUMBERS})" ten="(?P<ten>{_SIGNED})" oya="(?P<oya>[0-9])"{dealt} ?/>)'),
        (
            "RY",
            rf'(?P<draw>RYUUKYOKU(?: type="(?P<draw_type>[a-z0-9]{{1,8}})")? ba="{_NUMBER},{_NUMBER}" '
            rf'sc="(?P<draw_sc>{_SIGNED})"'
            r'(?: hai0="(?P<hai0>[0-9,]*)")?(?: hai1="(?P<hai1>[0-9,]*)")?(?: hai2="(?P<hai2>[0-9,]*)")?'
            rf'(?: hai3="(?P<hai3>[0-9,]*)")?(?: owari="(?P<draw_owari>{_CHARS})")? ?/>)',
        ),
    )
    return (*handled, ("DO", r'(?P<dora>DORA hai="(?P<dora_hai>[0-9]{1,6})" ?/>)')) if tiles else handled


# The general alternative: any tag a handler reads, its attributes as a whole.
_GENERAL: Final = rf"(?P<name>{_NEEDED_TAGS})(?P<attributes>(?:{_ATTRIBUTE})*+){_S}*+/>"


def _needed(tiles: bool) -> str:
    """The tags a handler reads, with their attributes (``_STEP``'s alternatives): each in Tenhou's
    layout (``_handled``), then any (``_GENERAL``)."""
    return "(?:" + "|".join(pattern for _, pattern in _handled(tiles)) + f"|{_GENERAL})"


_STEP: Final = re.compile(rf"{_SKIPPED}{_S}*+<{_needed(tiles=False)}")
# A tag no handler reads as ``_SKIPPED`` passes it, but a new dora indicator (a piece's: what follows its ``<``).
_PASSED: Final = (
    rf"(?!(?:{_NEEDED_TAGS}|DORA)[ \t\r\n/])[A-Za-z][A-Za-z0-9]*+"
    rf"(?:{_S}++(?P<first>{_NAME})={_VALUE}(?:{_S}++(?!(?P=first)=){_NAME}={_VALUE})?+)?+{_S}*+/>"
)


@functools.cache
def piece_pattern() -> tuple[dict[str, re.Pattern[str]], re.Pattern[str]]:
    """What a piece of a plain-shaped text (what follows a ``<``, ``tag_pieces``) is matched with: a tag
    no handler reads as ``_SKIPPED`` passes it but a new dora indicator, or a tag a handler reads, or an
    indicator in Tenhou's layout, as ``_STEP`` takes it (the same groups, and the tiles'), then blank
    space up to the next ``<``. As two parts that match as the one alternation would: by a piece's
    first two characters, the pattern of the one tag in Tenhou's layout it can be (``_handled``'s, with
    its own groups); where there is none, or it does not match, the rest (a tag no handler reads, or
    the general alternative). Each alone makes a match far cheaper than the alternation of some fifty
    groups (its marks saved at every branch, and a match object of them all). Compiled at its first
    use, by the import's tiles (``tenhou_xml_tiles``): ``honba verify`` does not read with it, and
    compiling it costs some 20 M instructions."""
    handled = {start: re.compile(rf"{pattern}{_S}*+") for start, pattern in _handled(tiles=True)}
    return handled, re.compile(rf"(?:{_PASSED}|{_GENERAL}){_S}*+")


# The closing tag, the last piece of a plain-shaped text; blank space.
_CLOSING: Final = re.compile(rf"/mjloggm>{_S}*+")
_BLANK: Final = re.compile(rf"{_S}*+")


def tag_pieces(text: str) -> tuple[list[str], int] | None:
    """A mjlog's text cut at each ``<``, and where its tags start: ``pieces[first:-1]`` are the tags
    between the opening tag (an XML declaration, ``<mjloggm ...>``, blank space) and the closing tag,
    the last piece; None unless the text opens and closes as a plain-shaped text does. For the text to
    be of the plain shape each tag must be matched to its end by ``piece_pattern()`` or be a draw or discard
    as Tenhou spells it. (The whole text is cut: cutting its part after the opening tag, a copy, measured
    slower.)"""
    head = _HEAD.match(text)
    if head is None:
        return None
    end = head.end()
    pieces = text.split("<")
    first = text.count("<", 0, end) + 1
    if (
        len(pieces) <= first
        or _BLANK.fullmatch(pieces[first - 1], end - text.rfind("<", 0, end) - 1) is None
        or _CLOSING.fullmatch(pieces[-1]) is None
    ):
        return None
    return pieces, first


class _Groups:
    """The groups each fast reader takes, by number (a group by its name is looked up by it each
    time), in ``_STEP``'s matches or in those of ``piece_pattern()``'s patterns of a tag in Tenhou's
    layout (each its own numbers)."""

    # A plain class with slots, not attrs: made twice per process, and attrs' making of the class
    # itself costs ``honba verify``'s start some 4 M instructions.
    __slots__ = ("agari", "call", "draw", "init", "reach")

    def __init__(self, index: Mapping[str, int]) -> None:
        agari = ("who", "from_who", "pao", "agari_sc", "agari_owari", "fu", "limit", "yakuman", "yaku", "machi")
        self.call = (index["call_who"], index["call_m"])
        self.reach = (index["reach_who"], index["reach_step"])
        self.init = (index["seed"], index["ten"], index["oya"])
        self.agari = tuple(index[name] for name in (*agari, "agari_m"))
        self.draw = tuple(
            index[name] for name in ("draw_sc", "draw_type", "draw_owari", "hai0", "hai1", "hai2", "hai3")
        )


_IN_STEP: Final = _Groups(_STEP.groupindex)


@functools.cache
def _in_piece() -> _Groups:
    # Each group's name is one alternative's: the numbers of them all, each in its tag's pattern.
    return _Groups({name: at for pattern in piece_pattern()[0].values() for name, at in pattern.groupindex.items()})


_PAIR: Final = re.compile(r'([^\s=]+)="([^"]*)"')
# A draw or discard with its tile (``T52``, ``D115``): the hand's play is in the log.
_PLAYED: Final = re.compile(r"<[TUVWDEFG][0-9]++[ \t\r\n/]")


class _Tag(Protocol):
    """What a handler reads of a tag: ``ET.Element`` or ``_PlainTag``."""

    @property
    def tag(self) -> str: ...

    @overload
    def get(self, key: str, default: None = None) -> str | None: ...

    @overload
    def get(self, key: str, default: str) -> str: ...

    # mypyc compiles no overloads without an implementation signature, even a Protocol's.
    def get(self, key: str, default: str | None = None) -> str | None: ...


class _PlainTag:
    """A tag of a plain-shaped mjlog: its name and attributes, read as ``ET.Element``'s are."""

    __slots__ = ("attrib", "tag")

    def __init__(self, tag: str, attrib: dict[str, str]):
        self.tag = tag
        self.attrib = attrib

    @overload
    def get(self, key: str, default: None = None) -> str | None: ...

    @overload
    def get(self, key: str, default: str) -> str: ...

    def get(self, key: str, default: str | None = None) -> str | None:
        return self.attrib.get(key, default)


class _NotPlain(Exception):
    """The text is not of the plain shape after all (``_GameReader.read_plain``): read it through
    the parser."""


def _read_plain(
    data: bytes | str, file: str, details: bool = True, tiles: Sequence[Sequence[object]] | None = None
) -> LoggedGame | None:
    """The game of a mjlog in the plain shape, read without the parser's tree; None for anything
    else (read through the parser, which refuses what should be refused). A repeated attribute
    (malformed XML) is anything else too. A log the reader refuses is refused only where the text
    is of the plain shape to its end: elsewhere the parser says what is wrong first. ``tiles``: each
    hand's tile arrays, put in the hands made (where there are as many as hands). ``data`` as text:
    the bytes decoded already (as here, ``utf-8-sig``)."""
    if isinstance(data, str):
        text = data
    else:
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            return None
    # (A declaration, a comment or a CDATA section, ``<!``, is no tag of the shape: no step takes it.)
    head = _HEAD.match(text)
    if head is None:
        return None
    try:
        return _GameReader(file, details=details, tiles=tiles).read_plain(text, head.end())
    except _NotPlain:
        return None


def _attributes(found: re.Match[str]) -> dict[str, str]:
    """The attributes of a tag ``_STEP`` matched by its general alternative; ``_NotPlain`` where one
    repeats (malformed XML, which the parser refuses)."""
    pairs = _PAIR.findall(found["attributes"])
    attrib = dict(pairs)
    if len(attrib) != len(pairs):
        raise _NotPlain
    return attrib


def _plain_to_the_end(text: str, steps: Callable[[], re.Match[str] | None], end: int) -> bool:
    """Whether the rest of a text is of the plain shape: the steps still to come (``_STEP``'s scanner,
    where it stopped), each general tag without a repeated attribute, then the tail from where the
    last ended (``end``, the end of the last step taken)."""
    try:
        for found in iter(steps, None):
            end = found.end()
            if found.lastgroup == "attributes":
                _attributes(found)
    except _NotPlain:
        return False
    return _TAIL.fullmatch(text, end) is not None


# A document type declaration, and the name it gives (for the message).
_DOCTYPE: Final = re.compile(r"<!DOCTYPE\s*([^\s\[>]*)")


def parse_xml(data: bytes, file: str) -> ET.Element:
    """A mjlog's document element, from its bytes, refused when it declares a DTD or entities."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise LogError(file, f"not UTF-8 text (byte {exc.start})") from None
    # No Tenhou log has a DTD: refusing any keeps entity tricks and external references out,
    # before the parser sees a byte (a declaration inside a comment is refused too: no log has one).
    doctype = _DOCTYPE.search(text)
    if doctype is not None:
        name = quoted(doctype.group(1))
        raise LogError(file, f"refused XML: a document type declaration (<!DOCTYPE {name}>) has no place in a log")
    if "<!ENTITY" in text:
        raise LogError(file, "refused XML: an entity declaration has no place in a log; entities are not expanded")
    # The C parser (defusedxml's checks ran as Python callbacks on every tag: a quarter of an
    # import's time). Fed text, expat reads it as UTF-8 whatever the declaration says.
    parser = ET.XMLParser()
    try:
        parser.feed(text)
        root: ET.Element = parser.close()
    except ET.ParseError as exc:
        line, column = exc.position
        raise LogError(f"{file}, line {line}, column {column}", f"not well-formed XML ({exc.msg})") from None
    return root


# Attribute readers: each names the attribute and the tag when the log is wrong.


def _text(el: _Tag, name: str, where: str) -> str:
    value = el.get(name)
    if value is None:
        raise LogError(where, f"<{el.tag}> has no {name!r} attribute")
    return value


def _ints(el: _Tag, name: str, where: str, *, at_least: int = 1) -> list[int]:
    raw = _text(el, name, where)
    try:
        values = list(map(int, raw.split(","))) if raw.strip() else []
    except ValueError:
        raise LogError(where, f"<{el.tag} {name}={quoted(raw)}>: not a list of whole numbers") from None
    if len(values) < at_least:
        raise LogError(where, f"<{el.tag} {name}={quoted(raw)}>: {len(values)} values, expected at least {at_least}")
    # Scores are in hundreds: any number of the file times 100 stays within MAX_POINTS.
    if values and (max(values) > MAX_POINTS // 100 or min(values) < -(MAX_POINTS // 100)):
        raise LogError(where, f"<{el.tag} {name}={quoted(raw)}>: a number out of range")
    return values


def _int(el: _Tag, name: str, where: str) -> int:
    # Most attributes read one by one (who, step, m, oya: every REACH and call) hold a
    # single number: int() on it directly skips the split and the list. Anything else
    # (a list, empty, not a number, out of range) takes the full reader and its messages.
    raw = el.get(name)
    if raw is not None:
        try:
            value = int(raw)
        except ValueError:
            pass
        else:
            if -(MAX_POINTS // 100) <= value <= MAX_POINTS // 100:
                return value
    return _ints(el, name, where)[0]


class _Hand:
    """A hand being read: the header from INIT, then what happened in it."""

    # A plain class with slots, not attrs: one is made for every hand of every log read, and
    # attrs' ``__init__`` (thirteen fields, three of them by factories) cost 1.3 us against this
    # one's 0.9. Nothing compares, prints or copies a hand being read.
    __slots__ = (
        "called",
        "changes",
        "counters",
        "dealer",
        "deposit_sticks",
        "draw",
        "hand_number",
        "played",
        "position",
        "riichi",
        "round_wind",
        "scores",
        "wins",
    )

    def __init__(
        self,
        position: str,
        round_wind: int,
        hand_number: int,
        dealer: int,
        counters: int,
        deposit_sticks: int,
        scores: tuple[int, ...],
    ) -> None:
        self.position = position
        self.round_wind = round_wind
        self.hand_number = hand_number
        self.dealer = dealer
        self.counters = counters
        self.deposit_sticks = deposit_sticks
        self.scores = scores
        self.riichi: list[int] = []
        self.wins: list[Win] = []
        self.draw: HandResult | None = None
        # Sum of the ``sc`` changes (in points) of the result tags: riichi sticks not included.
        self.changes: list[int] | None = None
        # Seats that made an open call (``N``: chi, pon, open kong), and whether the hand's draws
        # and discards are in the log at all (a log cut to its results says nothing of calls).
        self.called: set[int] = set()
        self.played = False

    @property
    def ended(self) -> bool:
        return bool(self.wins) or self.draw is not None

    def logged(self, riichi_deposit: int, tiles: tuple[object, ...] | None = None) -> LoggedHand:
        result: HandResult | None = self.draw
        if self.wins:
            # (The converters make each a tuple: wins in order, the seats sorted.)
            result = WinResult(self.wins, self.riichi, called=self.called if self.played else None)
        elif result is not None and self.played:
            result = attrs.evolve(result, called=tuple(self.called))
        deltas: tuple[int, ...] | None = None
        if self.changes is not None:
            # sc leaves out the sticks the riichi players put on the table in this hand
            # (their REACH ten is already a stick lower); the log model's deltas include them.
            riichi = self.riichi
            deltas = (
                tuple([c - riichi_deposit * riichi.count(seat) for seat, c in enumerate(self.changes)])
                if riichi
                else tuple(self.changes)
            )
        return LoggedHand(
            position=self.position,
            round_wind=self.round_wind,
            hand_number=self.hand_number,
            dealer=self.dealer,
            counters=self.counters,
            deposit_sticks=self.deposit_sticks,
            scores=self.scores,
            result=result,
            deltas=deltas,
            tiles=tiles,
        )


class _GameReader:
    """Reads one ``<mjloggm>`` element, tag by tag, in document order."""

    def __init__(self, file: str, *, details: bool = True, tiles: Sequence[Sequence[object]] | None = None):
        self.file = file
        # Each hand's tile arrays (an import's, read from the same text), given to the hands made.
        self.tiles = tiles
        # Whether each win's details are read (``read_tenhou_xml``'s ``details``).
        self.details = details
        # The groups of the matches the fast readers are given (``_STEP``'s, or ``piece_pattern()``'s).
        self.groups = _IN_STEP
        self.go: _Tag | None = None
        self.players = 4
        self.names: list[str] = []
        self.hands: list[LoggedHand] = []
        # The hands read, made logged hands once the rules (their riichi deposit) are known.
        self.closed: list[_Hand] = []
        self.hand: _Hand | None = None
        self.inits = 0
        self.owari: list[str] | None = None
        self.log_id: str | None = None
        # Tenhou wrote the wall seed into INIT until mid-2009: it dates a log without an id.
        self.early_wall_format = False
        # The log id in the file's name, if it has one (the rules' dating and the game's id ask).
        named = LOG_ID.search(_file_name(file))
        self.name_id = named.group(0) if named else None

    def where(self, tag: str) -> str:
        if tag == "INIT" or self.inits == 0:
            position = f"INIT #{self.inits}" if tag == "INIT" else f"<{tag}>"
        else:
            position = f"INIT #{self.inits} <{tag}>"
        return f"{self.file}, {position}"

    def read(self, root: ET.Element, collect: Callable[[ET.Element], None] | None = None) -> LoggedGame:
        handlers = self._handlers()
        # Draws, discards, DORA, BYE, SHUFFLE: nothing a hand result needs; a draw or discard
        # only says that the hand's play (and so its calls) is in the log.
        # The loop runs for every tag of the log, nine in ten of them draws and discards: past a
        # hand's first draw, a tag that is no handler's costs a test of one local name.
        handler_of = handlers.get
        unknown: _Hand | None = None  # the open hand, while whether its play is logged is unknown
        for el in root:
            tag = el.tag
            handler = handler_of(tag)
            if handler is not None:
                handler(el)
                unknown = self.hand if self.hand is not None and not self.hand.played else None
            elif unknown is not None and tag[:1] in DRAWS_AND_DISCARDS:
                unknown.played = tag[1:].isdigit()
                if unknown.played:
                    unknown = None
            if collect is not None:
                collect(el)  # after the reader's own checks of the tag
        return self._game()

    def read_plain(self, text: str, start: int) -> LoggedGame:
        """The game of a mjlog whose text is of the plain shape from ``start`` (where its opening tag
        ends) to its end; ``_NotPlain`` where it is not. One pass checks the shape and finds the tags
        a handler reads (``_STEP``, each step from where the last ended), which are read as they are
        found: the same handlers, given only their tags; whether a hand's play is logged is one
        search for a draw or discard with its tile between its INIT and the next (``read`` sees the
        same draws one tag at a time). A call, riichi, win or hand's start in Tenhou's layout is read
        from its numbers (``_plain_call``, ``_plain_reach``, ``_plain_agari``, ``_plain_init``), any
        other tag by its handler. A refusal of the reader stands only where the rest of the text is
        of the plain shape too."""
        handlers = self._handlers()
        self.groups = _IN_STEP
        # Each group by its number, passed one by one: a call with ``*`` goes through a tuple, twice a tag.
        (call_who, call_m), (reach_who, reach_step) = _IN_STEP.call, _IN_STEP.reach
        opened = 0  # where the open hand's tags start
        # A scanner's ``match``: each call matches where the last match ended (CPython's ``re`` has had
        # it since Python 2; the stubs do not name it).
        steps: Callable[[], re.Match[str] | None] = _STEP.scanner(text, start).match  # type: ignore[attr-defined]
        end = start
        try:
            for found in iter(steps, None):
                end = found.end()
                kind = found.lastgroup
                # The tags in order of how often they come: a call, a riichi, a hand's start, a win.
                if kind == "call":
                    who, meld = found.group(call_who, call_m)
                    self._plain_call(who, meld)
                elif kind == "reach":
                    who, step = found.group(reach_who, reach_step)
                    self._plain_reach(who, step)
                elif kind == "init":
                    if self.hand is not None:
                        self.hand.played = _PLAYED.search(text, opened, found.start(kind)) is not None
                    opened = end
                    self._plain_init(found)
                elif kind == "agari":
                    self._plain_agari(found)
                elif kind == "draw":
                    self._plain_ryuukyoku(found)
                else:
                    el = _PlainTag(found["name"], _attributes(found))
                    if el.tag == "INIT":
                        if self.hand is not None:
                            self.hand.played = _PLAYED.search(text, opened, found.start("name")) is not None
                        opened = end
                    handlers[el.tag](el)
        except LogError:
            if _plain_to_the_end(text, steps, end):
                raise
            raise _NotPlain from None
        if _TAIL.fullmatch(text, end) is None:
            raise _NotPlain
        if self.hand is not None:
            self.hand.played = _PLAYED.search(text, opened) is not None
        return self._game()

    def read_pieces(self, tags: Sequence[re.Match[str]], played: Sequence[bool]) -> LoggedGame:
        """``read_plain`` of a text cut at each ``<`` (``read_plain_pieces``): ``tags`` are its pieces
        between the opening and the closing tag, each matched to its end by ``piece_pattern()``, but the draws
        and discards spelled as Tenhou spells them (each of the plain shape), ``played`` whether each
        hand's play is in the log. They are read by the same readers in the same order. ``_NotPlain``
        where a tag is not of the plain shape after all (a repeated attribute), and where the reader
        refuses the log (``read_plain`` then says the same or leaves it to the parser)."""
        handlers = self._handlers()
        groups = self.groups = _in_piece()
        (call_who, call_m), (reach_who, reach_step) = groups.call, groups.reach
        try:
            for found in tags:
                kind = found.lastgroup
                # The tags in order of how often they come: a call, a riichi, a hand's start, a win.
                if kind == "call":
                    who, meld = found.group(call_who, call_m)
                    self._plain_call(who, meld)
                elif kind == "reach":
                    who, step = found.group(reach_who, reach_step)
                    self._plain_reach(who, step)
                elif kind == "init":
                    if self.hand is not None:
                        self.hand.played = played[self.inits - 1]
                    self._plain_init(found)
                elif kind == "agari":
                    self._plain_agari(found)
                elif kind == "draw":
                    self._plain_ryuukyoku(found)
                elif kind == "attributes":
                    el = _PlainTag(found["name"], _attributes(found))
                    if el.tag == "INIT" and self.hand is not None:
                        self.hand.played = played[self.inits - 1]
                    handlers[el.tag](el)
                # (Else a tag no handler reads: ``first``, ``dora`` or none its last group.)
            if self.inits != len(played):
                raise _NotPlain
            if self.hand is not None:
                self.hand.played = played[self.inits - 1]
            return self._game()
        except LogError:
            raise _NotPlain from None

    def _plain_call(self, who: str, code: str) -> None:
        """``_on_call`` of ``<N who="{who}" m="{code}" />`` (one digit; at most six, within what ``_int``
        reads): an open hand and a seat at the table are read here, anything else by ``_on_call``
        with its message."""
        hand = self.hand
        seat = int(who)
        if hand is None or hand.draw is not None or hand.wins or self.owari is not None or seat >= self.players:
            self._on_call(_PlainTag("N", {"who": who, "m": code}))
        elif is_open_call(int(code)):
            hand.called.add(seat)

    def _plain_reach(self, who: str, step: str) -> None:
        """``_on_reach`` of ``<REACH who="{who}" step="{step}"/>`` (one digit each; the ``ten``
        between them is not read): an open hand and a seat at the table are read here, anything
        else by ``_on_reach`` with its message."""
        hand = self.hand
        seat = int(who)
        if hand is None or hand.draw is not None or hand.wins or self.owari is not None or seat >= self.players:
            self._on_reach(_PlainTag("REACH", {"who": who, "step": step}))
        elif step == "2" and seat not in hand.riichi:
            hand.riichi.append(seat)

    def _careful(self, found: re.Match[str], handler: Callable[[_Tag], None]) -> None:
        """A tag matched in Tenhou's layout that its fast reader does not take, read by its careful
        handler from its attributes (none repeats in that layout), which says what is wrong."""
        tag = found.group(found.lastgroup or "")  # the tag itself, from its name to its end
        handler(_PlainTag(tag.partition(" ")[0], dict(_PAIR.findall(tag))))

    def _plain_init(self, found: re.Match[str]) -> None:
        """``_on_init`` of an INIT in Tenhou's layout (no ``shuffle``): a hand's start that fits the
        table is read here from its numbers, anything else by ``_on_init`` with its message (the
        checks come before anything is changed, so that it starts from the same reader)."""
        # (Typed as the layout's groups are, each a text: compiled, ``int`` of a text is read directly.)
        seed_text, ten_text, oya = cast("tuple[str, str, str]", found.group(*self.groups.init))
        # The seed's first three numbers (the hand, counters, deposit sticks): the rest is the dice
        # and the first dora indicator, which no result needs (each number of the layout is one).
        seed = [int(number) for number in seed_text.split(",", 3)[:3]]
        ten = [int(number) for number in ten_text.split(",")]
        dealer = int(oya)
        players = self.players
        if (
            self.owari is not None
            or self.go is None
            or len(seed) < 3
            or len(ten) < players
            or dealer >= players
            or not _deal_fits(seed[0], seed[1], seed[2], dealer)
        ):
            self._careful(found, self._on_init)
            return
        self._close_hand()
        self.inits += 1
        self.hand = _hand_at(self.inits, seed, dealer, ten[:players])

    def _plain_agari(self, found: re.Match[str]) -> None:
        """``_on_agari`` of an AGARI in Tenhou's layout: a win on an open hand by seats at the table,
        with a value, an ``sc`` and an ``owari`` that ``_on_agari`` would take, is read here from its
        numbers into the same win; anything else by ``_on_agari`` with its message (checked before
        anything is changed)."""
        hand = self.hand
        players = self.players
        # The groups in one call (each by its name is a call of its own).
        who_text, from_text, pao, sc_text, owari, fu_text, limit_text, yakuman, yaku_text, machi, m = found.group(
            *self.groups.agari
        )
        who = int(who_text)
        from_who = int(from_text)
        liable = int(pao) if pao is not None else None
        # sc's numbers (the layout's: each one) as text; only each seat's change is read.
        sc = sc_text.split(",")
        owari_values = owari.split(",") if owari is not None else None
        fu, limit = int(fu_text), int(limit_text)
        ids: list[int] = []  # a yakuman's
        named: tuple[Yaku, ...] = ()  # the yaku, each with its han (for each yaku's details)
        value: HandValue | None
        if yakuman is not None:
            ids = list(map(int, yakuman.split(",")))
            value = HandValue(limit="yakuman", multiple=len(ids))
        elif self.details:
            named, han, most = _yaku_pairs(yaku_text)
            value = _value_of(fu, limit, han) if most <= 13 else None
        else:
            # (Without the details, the han alone: ``honba verify`` makes no yaku.)
            counted = list(map(int, yaku_text.split(",")[1::2]))
            value = _value_of(fu, limit, sum(counted)) if max(counted) <= 13 else None
        discarder = None if from_who == who else from_who
        if (
            hand is None
            or hand.draw is not None
            or self.owari is not None
            or who >= players
            or from_who >= players
            or (liable is not None and liable >= players)
            or value is None
            or len(sc) < 2 * players
            or (owari_values is not None and len(owari_values) < 2 * players)
            # (A hand's first win, nearly every one, has no win before it to agree with.)
            or (
                hand.wins
                and (
                    discarder is None
                    or any(w.discarder != discarder for w in hand.wins)
                    or any(w.winner == who for w in hand.wins)
                )
            )
        ):
            self._careful(found, self._on_agari)
            return
        details: WinDetails | None = None
        if self.details:
            # The layout has a yakuman's ids, or the ids and han in pairs (``named``).
            found_yaku = [yaku_of(y, YAKUMAN_HAN) for y in ids] if yakuman is not None else list(named)
            codes = [int(number) for number in m.split(",")] if m is not None else []
            details = self._win_details(who, fu, limit, found_yaku, int(machi), codes)
        hand.wins.append(
            Win(winner=who, value=value, discarder=discarder, liable=None if liable == who else liable, details=details)
        )
        self._sum_changes(hand, [int(change) * 100 for change in sc[1 : 2 * players : 2]])
        if owari_values is not None:
            self.owari = owari_values

    def _plain_ryuukyoku(self, found: re.Match[str]) -> None:
        """``_on_ryuukyoku`` of a RYUUKYOKU in Tenhou's layout: a draw of an open hand, of a known
        type, with an ``sc`` and an ``owari`` that ``_on_ryuukyoku`` would take, is read here from its
        numbers into the same draw (``_draw``); anything else by ``_on_ryuukyoku`` with its message
        (checked before anything is changed)."""
        hand = self.hand
        players = self.players
        sc_text, kind, owari, *hai = found.group(*self.groups.draw)
        sc = sc_text.split(",")  # each a number (the layout's); only each seat's change is read
        owari_values = owari.split(",") if owari is not None else None
        changes = [int(change) * 100 for change in sc[1 : 2 * players : 2]] if len(sc) >= 2 * players else []
        if (
            hand is None
            or hand.draw is not None
            or hand.wins
            or self.owari is not None
            or not changes
            or (owari_values is not None and len(owari_values) < 2 * players)
            or not (kind is None or kind in ABORT_KINDS or (kind == NAGASHI and any(c > 0 for c in changes)))
        ):
            self._careful(found, self._on_ryuukyoku)
            return
        self._sum_changes(hand, changes)
        shown = [seat for seat in range(players) if hai[seat] is not None]
        hand.draw = self._draw(kind, shown, changes, tuple(hand.riichi), self.file)
        if owari_values is not None:
            self.owari = owari_values

    def _handlers(self) -> dict[str, Callable[[_Tag], None]]:
        return {
            "GO": self._on_go,
            "UN": self._on_un,
            "TAIKYOKU": self._on_taikyoku,
            "INIT": self._on_init,
            "REACH": self._on_reach,
            "AGARI": self._on_agari,
            "RYUUKYOKU": self._on_ryuukyoku,
            "N": self._on_call,
        }

    def _game(self) -> LoggedGame:
        """The game read, once every tag was."""
        if self.go is None:
            raise LogError(self.file, "no <GO> tag: the game's rules are unknown")
        self._close_hand()
        rules, unsupported, noted = self._rules(self.go)
        tiles = self.tiles
        if tiles is not None and len(tiles) == len(self.closed):
            # (Made with their tiles: not made again by ``attrs.evolve``, as a game read otherwise is.)
            self.hands = [
                hand.logged(rules.riichi_deposit, tuple(hand_tiles))
                for hand, hand_tiles in zip(self.closed, tiles, strict=True)
            ]
        else:
            self.hands = [hand.logged(rules.riichi_deposit) for hand in self.closed]
        final_scores: tuple[int, ...] | None = None
        points: tuple[float, ...] | None = None
        if self.owari is not None:
            final_scores, points = self._final(self.owari)
        if unsupported is None:
            unsupported = self._start_score_check(rules)
        return LoggedGame(
            file=self.file,
            game_id=self._game_id(),
            id_in_log=bool(self.log_id) or self.name_id is not None,
            format=FORMAT,
            players=tuple(self._player_names()),
            rules=rules,
            hands=tuple(self.hands),
            final_scores=final_scores,
            final_points=points,
            unsupported=unsupported,
            truncated=self.owari is None,
            notes=noted.notes if unsupported is None else (),
            points_judged=noted.points_judged,
        )

    # Header tags.

    def _on_go(self, el: _Tag) -> None:
        if self.go is not None:
            raise LogError(self.where("GO"), "a second <GO> tag in one game")
        self.go = el
        self.players = 3 if _int(el, "type", self.where("GO")) & SANMA else 4

    def _on_un(self, el: _Tag) -> None:
        # A later UN with only some names is a reconnect; the first one names the seats.
        if not self.names:
            self.names = [_unquoted(el.get(f"n{i}", "")) for i in range(4)]

    def _on_taikyoku(self, el: _Tag) -> None:
        self.log_id = el.get("log") or None

    # Hand tags.

    def _on_init(self, el: _Tag) -> None:
        self._close_hand()
        self.inits += 1
        where = self.where("INIT")
        if self.owari is not None:
            raise LogError(where, "a hand after the game's end (owari)")
        if self.go is None:
            raise LogError(where, "a hand before the <GO> tag")
        self.early_wall_format = self.early_wall_format or el.get("shuffle") is not None
        seed = _ints(el, "seed", where, at_least=3)
        ten = _ints(el, "ten", where, at_least=self.players)
        dealer = _int(el, "oya", where)
        kyoku, counters, sticks = seed[:3]
        if not 0 <= dealer < self.players:
            raise LogError(where, f"oya={dealer}: there is no such seat at a {self.players}-player table")
        # The kyoku index is 4 x round wind + dealer seat, in sanma too (East 4 is skipped).
        if not 0 <= kyoku <= MAX_KYOKU_INDEX or kyoku % 4 != dealer:
            raise LogError(where, f"seed {seed[:3]} does not fit dealer seat {dealer}")
        if not (0 <= counters <= MAX_COUNT and 0 <= sticks <= MAX_COUNT):
            raise LogError(where, f"seed {seed[:3]}: counters and deposit sticks out of range")
        self.hand = _hand_at(self.inits, seed, dealer, ten[: self.players])

    def _on_reach(self, el: _Tag) -> None:
        hand = self._open_hand("REACH")
        where = self.where("REACH")
        who = self._seat(el, "who", where)
        # Step 1 is the declaration; only step 2 (nobody ronned the declaration tile)
        # puts the stick on the table.
        if _int(el, "step", where) == 2 and who not in hand.riichi:
            hand.riichi.append(who)

    def _on_call(self, el: _Tag) -> None:
        hand = self._open_hand("N")
        where = self.where("N")
        who = self._seat(el, "who", where)
        if is_open_call(_int(el, "m", where)):
            hand.called.add(who)

    def _on_agari(self, el: _Tag) -> None:
        hand = self._open_hand("AGARI", ended_by_win_ok=True)
        where = self.where("AGARI")
        who = self._seat(el, "who", where)
        from_who = self._seat(el, "fromWho", where)
        discarder = None if from_who == who else from_who
        liable = self._seat(el, "paoWho", where) if el.get("paoWho") is not None else None
        if liable == who:
            liable = None
        # ``ten`` and ``yaku`` are read once, for the hand value and for the details.
        ten = _ints(el, "ten", where, at_least=3)
        value, yaku = _hand_value(el, where, ten)
        details = self._details(el, who, where, ten, yaku) if self.details else None
        win = Win(winner=who, value=value, discarder=discarder, liable=liable, details=details)
        if hand.wins and (discarder is None or any(w.discarder != discarder for w in hand.wins)):
            raise LogError(where, "a second win in one hand that is not a ron on the same discard")
        if any(w.winner == who for w in hand.wins):
            raise LogError(where, f"seat {who} wins twice in one hand")
        hand.wins.append(win)
        self._add_changes(hand, el, where)
        self._take_owari(el, where)

    def _on_ryuukyoku(self, el: _Tag) -> None:
        hand = self._open_hand("RYUUKYOKU")
        where = self.where("RYUUKYOKU")
        changes = self._add_changes(hand, el, where)
        shown = [seat for seat in range(self.players) if el.get(f"hai{seat}") is not None]
        hand.draw = self._draw(el.get("type"), shown, changes, tuple(hand.riichi), where)
        self._take_owari(el, where)

    @staticmethod
    def _draw(
        kind: str | None, shown: list[int], changes: list[int], riichi: tuple[int, ...], where: str
    ) -> ExhaustiveDraw | AbortiveDraw:
        """A hand's draw (both readers of RYUUKYOKU): of its ``type`` (none for an exhaustive
        draw), the seats whose hands are shown, its score changes and the riichi sticks placed."""
        if kind is None:
            return ExhaustiveDraw(ready=_ready(shown, changes), riichi=riichi)
        if kind == NAGASHI:
            # The nagashi players are the ones the mangan payments in sc go to.
            nagashi = tuple(seat for seat, c in enumerate(changes) if c > 0)
            if not nagashi:
                raise LogError(where, "nagashi mangan with nobody paid in sc")
            return ExhaustiveDraw(ready=tuple(shown), riichi=riichi, nagashi=nagashi)
        if kind in ABORT_KINDS:
            return AbortiveDraw(kind=ABORT_KINDS[kind], riichi=riichi)
        raise LogError(where, f"unknown draw type {quoted(kind)}")

    # Helpers.

    def _details(self, el: _Tag, who: int, where: str, ten: list[int], yaku: list[int] | None) -> WinDetails:
        """What the AGARI tag says of the win beyond its payment: yaku (ids with han, or
        yakuman ids), fu, the winning tile (``machi``) and the winner's calls (``m``). ``ten`` and
        ``yaku``: the numbers ``_hand_value`` read (``yaku`` None where it did not read them)."""
        found = []
        if el.get("yakuman"):
            found = [yaku_of(y, YAKUMAN_HAN) for y in _ints(el, "yakuman", where, at_least=1)]
        if el.get("yaku"):
            pairs = yaku if yaku is not None else _ints(el, "yaku", where, at_least=2)
            found += [yaku_of(pairs[i], pairs[i + 1]) for i in range(0, len(pairs) - 1, 2)]
        machi = el.get("machi")
        tile = int(machi) if machi is not None and machi.isdigit() else None
        codes = [int(c) for c in (el.get("m") or "").split(",") if c.strip().isdigit()]
        return self._win_details(who, ten[0], ten[2], found, tile, codes)

    def _win_details(
        self, who: int, fu: int, limit: int, found: list[Yaku], machi: int | None, codes: list[int]
    ) -> WinDetails:
        """A win's details from its numbers (both readers of AGARI): the yaku named, the fu where
        the hand is not a limit hand, the winning tile (a ``machi`` of Tenhou's 136 tiles) and the
        winner's calls (their meld codes)."""
        tile = tile136(machi) if machi is not None and machi < 136 else None
        calls = [tenhou_call(code, who, self.players) for code in codes]
        return details(found, fu=fu if limit == 0 else None, winning_tile=tile, calls=calls)

    def _open_hand(self, tag: str, *, ended_by_win_ok: bool = False) -> _Hand:
        hand = self.hand
        if hand is None:
            raise LogError(self.where(tag), f"<{tag}> outside a hand (no INIT before it)")
        if hand.draw is not None or (hand.wins and not ended_by_win_ok):
            raise LogError(self.where(tag), f"<{tag}> after the hand had ended")
        if self.owari is not None:
            raise LogError(self.where(tag), f"<{tag}> after the game's end (owari)")
        return hand

    def _seat(self, el: _Tag, name: str, where: str) -> int:
        seat = _int(el, name, where)
        if not 0 <= seat < self.players:
            raise LogError(where, f"{name}={seat}: there is no such seat at a {self.players}-player table")
        return seat

    def _add_changes(self, hand: _Hand, el: _Tag, where: str) -> list[int]:
        # sc = before0,change0,before1,change1,... in hundreds; sanma has a fourth
        # pair of zeros, chip games eight more values after the points.
        sc = _ints(el, "sc", where, at_least=2 * self.players)
        changes = [sc[2 * seat + 1] * 100 for seat in range(self.players)]
        self._sum_changes(hand, changes)
        return changes

    def _sum_changes(self, hand: _Hand, changes: list[int]) -> None:
        if hand.changes is None:
            hand.changes = list(changes)
            return
        # A double ron's second tag holds only its own payments: add them up.
        hand.changes = [a + b for a, b in zip(hand.changes, changes, strict=True)]

    def _take_owari(self, el: _Tag, where: str) -> None:
        raw = el.get("owari")
        if raw is None:
            return
        values = raw.split(",")
        if len(values) < 2 * self.players:
            raise LogError(where, f"owari={quoted(raw)}: {len(values)} values, expected {2 * self.players}")
        self.owari = values

    def _close_hand(self) -> None:
        if self.hand is not None:
            self.closed.append(self.hand)
            self.hand = None

    def _final(self, owari: Sequence[str]) -> tuple[tuple[int, ...], tuple[float, ...]]:
        where = f"{self.file}, owari"
        try:
            scores = tuple(int(owari[2 * seat]) * 100 for seat in range(self.players))
            points = tuple(float(owari[2 * seat + 1]) for seat in range(self.players))
        except ValueError:
            raise LogError(where, f"owari={quoted(','.join(owari))}: not scores and points") from None
        if any(abs(n) > MAX_POINTS or n != n for n in (*scores, *points)):
            raise LogError(where, f"owari={quoted(','.join(owari))}: a number out of range")
        return scores, points

    def _rules(self, go: _Tag) -> tuple[Ruleset, str | None, TenhouRules]:
        """The preset for the GO type as of the log's date, why it is unsupported when it is, and
        what the dating left open."""
        where = f"{self.file}, <GO>"
        kind = _int(go, "type", where)
        points = self.owari[1 : 2 * self.players : 2] if self.owari is not None else []
        when = dating(
            log_time(self._game_id()), wall_seed_in_init=self.early_wall_format, points_format=points_format(points)
        )
        noted = rules_for(self.players, not kind & HANCHAN, when, final_points=self.owari is not None)
        rules = noted.rules
        unsupported: str | None = None
        if kind & SPECIAL_BITS:
            unsupported = f"special rule set (GO type {kind}, bits {kind & SPECIAL_BITS:#x}), not standard riichi"
        elif kind & (CHIPS | FIVE_CHIPS):
            unsupported = f"chip (shuugi) rules (GO type {kind}): chips are paid beside the points"
        elif (go.get("csrule") or "").strip(","):
            # A private lobby's own rules: they replace whatever Tenhou's date would say.
            try:
                lobby = decode_csrule(go.get("csrule") or "", kind)
            except CsruleError as exc:
                raise LogError(where, f"csrule {quoted(go.get('csrule') or '')}: {exc}") from None
            unsupported = lobby.unsupported
            try:
                rules = rules.with_overrides(
                    {
                        **lobby.overrides,
                        "name": f"tenhou-lobby-{go.get('lobby') or '0'}",
                        "description": f"Tenhou private lobby {go.get('lobby') or '?'} ({', '.join(lobby.decoded)})",
                    },
                    source="csrule",
                )
            except InvalidRules as exc:
                raise LogError(where, str(exc)) from None
            noted = TenhouRules(rules, lobby.notes)
        return rules, unsupported, noted

    def _start_score_check(self, rules: Ruleset) -> str | None:
        """A game that opens at East 1 with other than the preset's start score is not standard."""
        if not self.hands:
            return None
        first = self.hands[0]
        opens = first.round_wind == 0 and first.dealer == 0 and first.counters == 0 and first.deposit_sticks == 0
        if opens and any(s != rules.start_score for s in first.scores):
            return f"starts at {list(first.scores)} points, not the {rules.start_score} of {rules.name} rules"
        return None

    def _player_names(self) -> list[str]:
        return list(distinct_names(self.names, self.players))

    def _game_id(self) -> str:
        if self.log_id:
            return self.log_id
        return self.name_id if self.name_id is not None else PurePath(self.file).stem


def _hand_value(el: _Tag, where: str, ten: list[int]) -> tuple[HandValue, list[int] | None]:
    """The hand value as the log states it: ``ten="fu,points,limit"`` (read: ``ten``) with yaku or
    yakuman; and the ``yaku`` numbers read for it (None for a yakuman, whose yaku are not read)."""
    fu, _points, limit = ten[:3]
    yakuman = el.get("yakuman")
    if yakuman is not None:
        ids = [y for y in yakuman.split(",") if y.strip()]
        if not ids:
            raise LogError(where, "an empty yakuman list")
        return HandValue(limit="yakuman", multiple=len(ids)), None
    if el.get("yaku") is None:
        raise LogError(where, "<AGARI> has neither 'yaku' nor 'yakuman'")
    yaku = _ints(el, "yaku", where, at_least=2)
    if len(yaku) % 2:
        raise LogError(where, f"yaku has {len(yaku)} values: expected id,han pairs")
    if any(not 0 <= h <= 13 for h in yaku[1::2]):
        raise LogError(where, f"yaku={quoted(el.get('yaku', ''))}: a yaku of less than 0 or more than 13 han")
    # Every yaku's han, dora, red fives and ura-dora included (ids 52-54).
    value = _value_of(fu, limit, sum(yaku[1::2]))
    if value is None:
        raise LogError(where, f"ten={quoted(el.get('ten', ''))}: unknown limit {limit}")
    return value, yaku


@functools.lru_cache(maxsize=4096)
def _yaku_pairs(text: str) -> tuple[tuple[Yaku, ...], int, int]:
    """A win's ``yaku`` as Tenhou writes it (ids and han in pairs, each a number: ``_STEP``'s layout)
    read: each yaku with its han, their han added up and the most han of one. Once per text: wins
    share them (the 633 logs of ``benchmarks/import_store.py``: 5,722 wins, 1,349 texts)."""
    pairs = text.split(",")
    han = list(map(int, pairs[1::2]))
    return tuple(map(yaku_of, map(int, pairs[0::2]), han)), sum(han), max(han)


# A frozen value of a few numbers, made once for each (an archive's wins share a few hundred).
@functools.lru_cache(maxsize=1024)
def _value_of(fu: int, limit: int, han: int) -> HandValue | None:
    """A win's value from ``ten``'s fu and limit and its yaku's han (both readers of AGARI), or None
    for a limit Tenhou does not write."""
    if limit in LIMITS:
        return HandValue(limit=LIMITS[limit])
    if limit in (0, 5):
        # limit 5 without a yakuman list is a counted yakuman (13 han or more): the
        # han are given so that the rules (their settling table) decide what it pays.
        return HandValue(han=han, fu=fu)
    return None


def _deal_fits(kyoku: int, counters: int, sticks: int, dealer: int) -> bool:
    """Whether an INIT's seed (kyoku index, counters, deposit sticks) fits its dealer seat and
    ranges (``_on_init`` says which does not)."""
    # The kyoku index is 4 x round wind + dealer seat, in sanma too (East 4 is skipped).
    return (
        0 <= kyoku <= MAX_KYOKU_INDEX
        and kyoku % 4 == dealer
        and 0 <= counters <= MAX_COUNT
        and 0 <= sticks <= MAX_COUNT
    )


def _hand_at(inits: int, seed: list[int], dealer: int, ten: list[int]) -> _Hand:
    """The hand an INIT opens (both readers of INIT), its seed and dealer checked."""
    kyoku, counters, sticks = seed[:3]
    # (Positional: one for every hand read.)
    return _Hand(f"INIT #{inits}", kyoku // 4, dealer + 1, dealer, counters, sticks, tuple([t * 100 for t in ten]))


def _file_name(file: str) -> str:
    """``PurePath(file).name``, without making the path where its last part is a plain name."""
    name = file.rpartition("/")[2]
    return name if name not in ("", ".", "..") else PurePath(file).name


# A name as Tenhou writes every one: each of its UTF-8 bytes percent-encoded.
_ALL_ENCODED: Final = re.compile(r"(?:%[0-9A-Fa-f]{2})*+")


@functools.lru_cache(maxsize=1024)
def _unquoted(name: str) -> str:
    """A player's name as UN writes it (percent-encoded), decoded: ``unquote``'s text (UTF-8, a
    byte that is not replaced), once per name (an archive's games share players). A name of
    percent-encoded bytes alone, as Tenhou writes every one, is decoded from its hex digits in C
    (``unquote`` walks it in Python); any other by ``unquote``."""
    if _ALL_ENCODED.fullmatch(name) is not None:
        return bytes.fromhex(name.replace("%", "")).decode("utf-8", "replace")
    return unquote(name)


def _ready(shown: Sequence[int], changes: Sequence[int]) -> tuple[int, ...]:
    """Who was ready at an exhaustive draw: the hands shown, and the payees of noten payments.

    Tenhou's own logs show every ready hand (``hai<N>``). Logs rebuilt from what
    one client saw (the corpus's tenhou-wire-2018) can lack that client's own
    hand; its readiness still shows in the noten payments: whoever received them
    was ready, and if nothing moved while some hands were shown, all were ready.
    """
    ready = set(shown) | {seat for seat, c in enumerate(changes) if c > 0}
    if shown and not any(changes):
        ready = set(range(len(changes)))
    return tuple(sorted(ready))


def read_plain_mjlog(
    data: bytes | str, *, file: str, tiles: Sequence[Sequence[object]] | None = None
) -> LoggedGame | None:
    """The game of a mjlog (its bytes unpacked, or their text decoded as ``utf-8-sig``) in the plain
    shape, read without the tree as ``read_tenhou_xml`` reads it (each win's details too); None for any
    other text. For a reader that takes more from the same text: an import's tiles
    (``tenhou_xml_tiles``), given as ``tiles`` (each hand's arrays), which each hand gets where there
    are as many as the hands read."""
    return _read_plain(data, file, tiles=tiles)


def read_plain_pieces(
    tags: Sequence[re.Match[str]], played: Sequence[bool], *, file: str, tiles: Sequence[Sequence[object]]
) -> LoggedGame | None:
    """``read_plain_mjlog`` of a text an import has cut at each ``<`` already (``tag_pieces``) to read its
    tiles (``tenhou_xml_tiles.plain_tags``): ``tags`` the matches of its tags between the opening and the
    closing tag (each piece matched to its end by ``piece_pattern()``), but the draws and discards spelled as
    Tenhou spells them, in order, ``played`` whether each hand's play is in the log. The same game,
    without a second walk over the text (nine tags in ten a draw or discard); None for a log the reader
    refuses and a tag not of the plain shape after all: ``read_plain_mjlog`` reads those as any text."""
    try:
        return _GameReader(file, tiles=tiles).read_pieces(tags, played)
    except _NotPlain:
        return None


# The name the registry (``replay.formats.detect.REGISTRY``) reads this format with by default
# (``read_hands`` is what it reads with: without each win's details).
read = read_tenhou_xml
