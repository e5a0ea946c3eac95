"""The ranges of everything honba accepts from outside: numbers, names, keys and text.

Every count, amount and multiple has a range the rules make sensible, and every name, key and
note a length and one line of printable text (docs/rules.md, "Bounds", says which and why).
They are checked where every front end's input goes through: the entry checks
(``domain.entry_checks``) that the Match aggregate runs before it records anything, and the
Tournament aggregate's commands. A stored event is history and is read as it is; only what is
recorded from now on is held to these bounds.

``whole_number`` is the one reader of a number typed or sent as text (the command line, the
forms, the query strings, the API): ASCII digits only, a sign only where the field may be
negative, a length cap, then the field's range; its error names the field.
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from domain.errors import RuleViolation
from domain.said import Said


class OutOfBounds(RuleViolation):
    """A value beyond its field's range, or text that is not one line of printable text; nothing was recorded.

    ``field`` names what was refused and ``problem`` says why, so that a front end can put the field
    its own way (``--session``, ``session``); the message is both. A field that is no form's or
    option's name but the domain's words (``Said("players")``) is said in the page's language.
    """

    def __init__(self, field: str | Said, problem: str | Said):
        super().__init__(Said("{field}: {problem}", field=field, problem=problem))
        # A front end places the refusal by the field's English name (a form's field, an option).
        self.field = str(field)
        self.problem = str(problem)


def shown(value: object, width: int = 40) -> str:
    """A value as a refusal quotes it: ``repr`` (escapes and all: one line whatever it holds), cut when
    long; a list or an object (read from JSON) by its kind only, however large or deep it is."""
    if isinstance(value, list | dict):
        return "a list" if isinstance(value, list) else "an object"
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


# A refusal is one line a person reads: a message quoting 20,000 characters of input (a key, a
# name typed by mistake) keeps its start and its end, the middle cut.
LONGEST_LINE = 600


def clipped(message: str) -> str:
    """The message on one line (a line break or another control character in text it quotes, such as
    a file's name, written as its escape), cut in its middle to at most ``LONGEST_LINE`` characters:
    how every front end shows a refusal (the command line's ``honba: ...``, the web's error)."""
    if unprintable(message) is not None:
        message = "".join(repr(ch)[1:-1] if unprintable(ch) else ch for ch in message)
    if len(message) <= LONGEST_LINE:
        return message
    half = (LONGEST_LINE - 5) // 2
    return f"{message[:half]} ... {message[-half:]}"


@attrs.frozen
class Bound:
    """The range of a whole number: ``low`` to ``high``, both included; ``field`` names it in a refusal."""

    field: str | Said
    low: int
    high: int

    def check(self, value: object, field: str | Said | None = None) -> int:
        """The value when it is a whole number in range, else ``OutOfBounds`` naming the field."""
        name = field or self.field
        if isinstance(value, bool) or not isinstance(value, int):
            raise OutOfBounds(name, Said("{value} is not a whole number", value=shown(value)))
        if not self.low <= value <= self.high:
            raise OutOfBounds(
                name,
                Said("{value} is out of range ({low:,} to {high:,})", value=shown(value), low=self.low, high=self.high),
            )
        return value

    def named(self, field: str | Said) -> Bound:
        """The same range under another name (``--amount`` for a penalty's amount)."""
        return attrs.evolve(self, field=field)


# Characters that make text more than one line of printable text: the C0 and C1 controls (newline,
# carriage return, escape, DEL ...), the line and paragraph separators, lone surrogates (no text can
# hold them: what undecodable bytes on a command line become) and the bidirectional controls, which
# make a name read in another order than it is written (Trojan Source, CVE-2021-42574).
_BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_SEPARATORS = frozenset("\u2028\u2029")


# They as one class of the regular expression: a search finds the first in C (a Python test of each
# character was a tenth of a verify's reading of a log, its rules' description checked). The surrogates
# are the pattern's own escape, not characters of the literal: mypyc refuses those in a string literal.
_UNPRINTABLE = re.compile(
    "[\x00-\x1f\x7f-\x9f" + r"\ud800-\udfff" + "".join(sorted(_SEPARATORS | _BIDI_CONTROLS)) + "]"
)


def unprintable(text: str) -> str | None:
    """The first character that keeps ``text`` from being one line of printable text, or None."""
    found = _UNPRINTABLE.search(text)
    return None if found is None else found.group()


@attrs.frozen
class TextBound:
    """Text of at most ``longest`` characters on one line (no control characters), none of the
    ``forbidden`` characters (``why`` says why not); ``field`` names it."""

    field: str | Said
    longest: int
    forbidden: str = ""
    why: str | Said = ""
    # Whole texts refused for the same ``why`` (a web address's "." and "..").
    reserved: frozenset[str] = frozenset()

    def check(self, text: object, field: str | Said | None = None) -> str:
        """The text when it fits, else ``OutOfBounds`` naming the field (and the first character refused)."""
        name = field or self.field
        if not isinstance(text, str):
            raise OutOfBounds(name, Said("{text} is not text", text=shown(text)))
        if len(text) > self.longest:
            raise OutOfBounds(
                name,
                Said(
                    "{count:,} characters, at most {most} ({text})",
                    count=len(text),
                    most=self.longest,
                    text=shown(text),
                ),
            )
        bad = unprintable(text)
        if bad is not None:
            raise OutOfBounds(
                name,
                Said(
                    "{text} holds the control character U+{code:04X}: it must be one line of text",
                    text=shown(text),
                    code=ord(bad),
                ),
            )
        for ch in self.forbidden:
            if ch in text:
                raise OutOfBounds(
                    name, Said("{text} holds {char}: {why}", text=shown(text), char=repr(ch), why=self.why)
                )
        if text.strip() in self.reserved:
            raise OutOfBounds(name, Said("{text} cannot be a name: {why}", text=shown(text), why=self.why))
        return text

    def named(self, field: str | Said) -> TextBound:
        """The same limit under another name."""
        return attrs.evolve(self, field=field)


# The numbers. Points are table points (a riichi stick is 1,000).

# Rule files may set a start score up to 1,000,000 (domain.rules) and a table has at most four
# players: no table holds more points than this, so no penalty can take more.
MOST_POINTS_ON_A_TABLE = 4 * 1_000_000
# A score, a loser's own hand score or an opening table's score: a hundred million either way is no
# game's (the record file's bound, replay/formats/record/read.py).
MOST_SCORE = 100_000_000

SEAT = Bound(Said("seat"), 0, 3)
# A hand value's counts. The rules' settling table sets a tighter ceiling where it has rows
# (twice its top row: 26 han in riichi, domain.scoring.checks.han_ceiling); these hold under any
# rules, those without a table included.
HAN = Bound(Said("han"), 0, 99)
# The most fu any table counts is 170: a closed ron (20 + 10) with four concealed kongs of terminals or
# honours (4 x 32), a pair of the double wind counted 4 fu and a single wait (2): 164, rounded up.
FU = Bound(Said("fu"), 0, 170)
DORA = Bound(Said("dora"), 0, 99)
# Six yakuman in one hand is the most any table counts (Tenhou's cap, domain.rules.MAX_YAKUMAN_MULTIPLE).
YAKUMAN_MULTIPLE = Bound(Said("yakuman multiple"), 1, 6)
# Each faan or double doubles the score: 64 of them is already far beyond any limit (the record
# file's bound); a hand's score is bounded as well, below.
FAAN = Bound(Said("faan"), 0, 64)
DOUBLES = Bound(Said("doubles"), 0, 64)
# A hand's points (basic points, or tai added up): no rule file's Limit is above 1,000,000.
HAND_POINTS = Bound(Said("points"), 0, 1_000_000)
# Taiwanese tai, added up into the hand's points: the same range, under its own name.
TAI = HAND_POINTS.named(Said("tai"))
# What a hand scores before payment doubles, under rules without a Limit (doubles or faan of a base).
HAND_SCORE = Bound(Said("hand score"), 0, MOST_SCORE)
# The melded sets and pre-dealt jokers of a win are the rules' to limit (``sets_in_hand``,
# ``predealt_jokers``: domain.win_facts), and so is what a tile is.
# A player draws at most a quarter of the wall (34 of 136 tiles, 36 of 144): the most discards.
DISCARDS = Bound(Said("discards"), 0, 40)
LOSER_SCORE = Bound(Said("loser score"), 0, MOST_SCORE)
PENALTY_AMOUNT = Bound(Said("penalty amount"), 1, MOST_POINTS_ON_A_TABLE)
SCORE = Bound(Said("score"), -MOST_SCORE, MOST_SCORE)
# An opening table's counts (a record file's or a log's first hand): more than 99 counters, extra
# hands or dealer wins in a row is no match's; deposits are points, never more than a table holds.
COUNTERS = Bound(Said("counters"), 0, 99)
DEPOSITS = Bound(Said("deposits"), 0, MOST_POINTS_ON_A_TABLE)
STREAK = Bound(Said("streak"), 0, 99)
HANDS_PLAYED = Bound(Said("hands played"), 0, 9_999)
# A tournament's sessions and tables: a league that plays a session every day for almost three
# years, a thousand tables (four thousand players) at once.
SESSION = Bound(Said("session"), 1, 1_000)
TABLE = Bound(Said("table"), 1, 1_000)
# The links of a table revoked by one reissue (the session's page says how many): a table's links are a handful.
REVOKED = Bound(Said("revoked"), 0, 1_000)
# A table's or a session's time limit, and time added to it: a day's play at most.
MINUTES = Bound(Said("minutes"), 1, 24 * 60)
# A seating's seed (``honba tournament seat --seed``, the director's page): any whole number a person
# types, within a number's length cap; the same seed gives the same seating.
SEED = Bound(Said("seed"), 0, 10**18)
# A player withdraws after a session, 0 before the first.
AFTER_SESSION = Bound(Said("after session"), 0, SESSION.high)
# The players of an event: a thousand tables of four. How many advance from a stage, the top N a
# player may finish in, are at most that many.
EVENT_PLAYERS = 4 * TABLE.high
ADVANCE = Bound(Said("advance"), 1, EVENT_PLAYERS)
# The players a table seats (a draw's tables): three (sanma) or four.
TABLE_SIZE = Bound(Said("players a table"), 3, 4)
# A substitute's fixed points a match, in final points as an uma is (the EMA's rule: -30).
SUBSTITUTE_POINTS = Bound(Said("substitute's points"), -1_000, 1_000)
# What a ranking across events weighs an event by (the EMA's MERS weight): an event lasts a day to a
# month; its players come from no country given up to every country there is (fewer than 300).
EVENT_DAYS = Bound(Said("days"), 1, 30)
COUNTRIES = Bound(Said("countries"), 0, 300)
# New rules (a rule file, ``--set``): uma and table points in final points (Tenhou's uma is 20 and
# 10, the largest in use 50), a settling table's counts and percents of the limit.
UMA = Bound(Said("uma"), -1_000, 1_000)
SETTLING_COUNT = Bound(Said("settling count"), 0, 99)
PERCENT = Bound(Said("percent"), 1, 10_000)
# A number given for a rule (``--set``), before the rule's own range: within a whole number's length cap.
ANY_RULE_NUMBER = Bound(Said("rule value"), -(10**18), 10**18)
# An entry of a match's log (its line in the exported record file).
ENTRY = Bound(Said("entry"), 1, 1_000_000)
# The leaves of the checkpoints' Merkle log a signed checkpoint or a proof names (one per save).
TREE_SIZE = Bound(Said("tree size"), 0, 10**15)

# The text.

# A player's name (and an alias, a referee, a substitute; a team's and a stage's name): Tenhou allows
# 8 characters, Mahjong Soul 14; 64 leaves room.
NAME = TextBound(Said("player name"), 64)
# A match's key and a client's retry key; a tournament's name, which the keys of its matches start with.
KEY = TextBound(Said("key"), 200)
# A new match's key is also a part of its web addresses (/matches/KEY/audit), where a '/' would make
# "club/audit" the audit of "club": refused from now on (a match stored with one is read as it is,
# on the command line; the web cannot name it).
MATCH_KEY = TextBound(
    Said("match key"),
    KEY.longest,
    forbidden="/",
    why=Said("a match's key is a part of its web address"),
    reserved=frozenset({".", ".."}),
)
# A tournament's name is also the last part of its web address (/tournaments/NAME), where a '/' would
# split it: the web could not name such a tournament (nor a match's key, ``MATCH_KEY``, for its own).
TOURNAMENT = TextBound(
    Said("tournament name"),
    100,
    forbidden="/",
    why=Said("a tournament's name is the end of its web address (/tournaments/NAME)"),
    # "/tournaments/.." is "/" to a browser.
    reserved=frozenset({".", ".."}),
)
# A rule set's name and description (a rule file's own, or its file's name; a Tenhou lobby's rules
# are described in a few hundred characters).
RULES_NAME = TextBound(Said("rules name"), 100)
RULES_DESCRIPTION = TextBound(Said("rules description"), 2_000)
# A reason, a note, a penalty's kind, an early end's reason, when a correction was made.
TEXT = TextBound(Said("text"), 200)

# A number typed or sent as text: at most this many characters (a sign and leading zeros included),
# read before Python's own integer parser (which reads 4,300 digits and Unicode digits such as ``٣``).
LONGEST_NUMBER = 20


# Digits 0-9 only (a pattern with ``\\d`` would take ``٣``), an optional sign, an optional fraction.
_WHOLE = re.compile(r"[+-]?[0-9]+")
_DECIMAL = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


def whole_number(text: object, bound: Bound, field: str | Said | None = None) -> int:
    """A whole number sent as text, in ``bound``'s range: ASCII digits 0-9 only (``²`` and ``٣`` are
    not), a leading ``-`` or ``+`` only where the range reaches below zero, at most
    ``LONGEST_NUMBER`` characters; blank space around it is left out. ``OutOfBounds`` names the field.
    """
    name = field or bound.field
    return bound.check(int(_number_text(text, bound, name, _WHOLE, "a whole number")), name)


def decimal_number(text: object, bound: Bound, field: str | Said | None = None) -> float:
    """A number sent as text that may have a fraction (``2.5``), read as ``whole_number`` reads a whole
    one, in ``bound``'s range."""
    name = field or bound.field
    value = float(_number_text(text, bound, name, _DECIMAL, "a number"))
    if not bound.low <= value <= bound.high:
        raise OutOfBounds(
            name,
            Said("{value} is out of range ({low:,} to {high:,})", value=shown(value), low=bound.low, high=bound.high),
        )
    return value


_NUMBER_WORDS = {"a whole number": Said("a whole number"), "a number": Said("a number")}


def _number_text(text: object, bound: Bound, name: str | Said, pattern: re.Pattern[str], kind: str) -> str:
    words = _NUMBER_WORDS[kind]
    if not isinstance(text, str):
        raise OutOfBounds(name, Said("{text} is not {kind}", text=shown(text), kind=words))
    digits = text.strip(" \t")
    if len(digits) > LONGEST_NUMBER:
        raise OutOfBounds(
            name,
            Said(
                "{text} is too long for a number (at most {most} characters)", text=shown(digits), most=LONGEST_NUMBER
            ),
        )
    signed = bound.low < 0
    if not pattern.fullmatch(digits) or (digits[:1] in ("-", "+") and not signed):
        raise OutOfBounds(
            name,
            Said(
                "{text} is not {kind} (digits 0-9, with a sign)" if signed else "{text} is not {kind} (digits 0-9)",
                text=shown(digits),
                kind=words,
            ),
        )
    return digits


def check_all(values: Any, bound: Bound | TextBound, field: str | None = None) -> None:
    """Check each of several values against one bound."""
    for value in values:
        bound.check(value, field)
