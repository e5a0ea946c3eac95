"""Tenhou's vocabulary and the bounds its logs are read within, in one place for the mjlog XML
reader, the tenhou.net/6 JSON reader and the JSON export.

The yaku ids and names of every format are in ``replay/formats/yaku.py`` (with the tile codes),
the rules of a Tenhou room by date in ``tenhou_rules.py``.
"""

from __future__ import annotations

import re
from typing import Final

from domain.values import AbortKind, LimitName

# Tenhou log ids, e.g. 2019103023gm-00a9-0000-f90e0fe9 (the file name usually carries it).
LOG_ID: Final = re.compile(r"\d{10}gm-[0-9a-f]{4}-\d{4,5}-x?[0-9a-f]+")

# Bounds on numbers from a file: far above any real game, low enough that a corrupt or hostile
# file is refused instead of producing absurd tables.
MAX_POINTS: Final = 100_000_000
MAX_COUNT: Final = 10_000
MAX_KYOKU_INDEX: Final = 15

# The limit hands as Tenhou writes them: in the JSON's value text, and as the third value of
# the mjlog's ``ten`` (5, yakuman, is read there from the yakuman list or the han).
LIMIT_WORDS: Final[dict[LimitName, str]] = {
    "mangan": "満貫",
    "haneman": "跳満",
    "baiman": "倍満",
    "sanbaiman": "三倍満",
    "yakuman": "役満",
}
LIMITS_BY_WORD: Final[dict[str, LimitName]] = {word: name for name, word in LIMIT_WORDS.items()}
LIMITS_BY_TEN_CODE: Final[dict[int, LimitName]] = {1: "mangan", 2: "haneman", 3: "baiman", 4: "sanbaiman"}

# The abortive draws: their names in the JSON (and the export), their ``type`` in the mjlog.
ABORT_WORDS: Final[dict[AbortKind, str]] = {
    AbortKind.NINE_TERMINALS: "九種九牌",
    AbortKind.FOUR_RIICHI: "四家立直",
    AbortKind.TRIPLE_RON: "三家和了",
    AbortKind.FOUR_KONGS: "四槓散了",
    AbortKind.FOUR_WINDS: "四風連打",
}
ABORTS_BY_WORD: Final[dict[str, AbortKind]] = {word: kind for kind, word in ABORT_WORDS.items()}
ABORTS_BY_XML_TYPE: Final[dict[str, AbortKind]] = {
    "yao9": AbortKind.NINE_TERMINALS,
    "reach4": AbortKind.FOUR_RIICHI,
    "ron3": AbortKind.TRIPLE_RON,
    "kan4": AbortKind.FOUR_KONGS,
    "kaze4": AbortKind.FOUR_WINDS,
}

# The other spellings converters from Mahjong Soul write (the romaji and English name columns of
# the downloaders' word table, e.g. "Mangan 8000点", "Ryuukyoku", "Kyuushu Kyuuhai"), each mapped to
# the word Tenhou writes. A hand rounded up to a mangan (切り上げ満貫, kiriage) is a mangan; a
# yakuman reached by counting han keeps its own word (数え役満) so that the rules decide it.
KAZOE_YAKUMAN: Final = "数え役満"
KIRIAGE_MANGAN: Final = "切り上げ満貫"
LIMIT_SPELLINGS: Final[dict[str, str]] = {
    **{word: word for word in LIMIT_WORDS.values()},
    KAZOE_YAKUMAN: KAZOE_YAKUMAN,
    KIRIAGE_MANGAN: KIRIAGE_MANGAN,
    "Mangan": "満貫",
    "Haneman": "跳満",
    "Baiman": "倍満",
    "Sanbaiman": "三倍満",
    "Yakuman": "役満",
    "Kazoe Yakuman": KAZOE_YAKUMAN,
    "Counted Yakuman": KAZOE_YAKUMAN,
    "Kiriage Mangan": KIRIAGE_MANGAN,
    "Rounded Mangan": KIRIAGE_MANGAN,
}
# The results' names: the win, the exhaustive draw and nagashi mangan, and the abortive draws.
WIN_SPELLINGS: Final = frozenset({"和了", "Agari"})
EXHAUSTIVE_SPELLINGS: Final = frozenset({"流局", "Ryuukyoku", "Exhaustive Draw"})
NAGASHI_SPELLINGS: Final = frozenset({"流し満貫", "Nagashi Mangan", "Mangan at Draw"})
ABORT_SPELLINGS: Final[dict[str, AbortKind]] = {
    **ABORTS_BY_WORD,
    "四開槓": AbortKind.FOUR_KONGS,
    "Suukaikan": AbortKind.FOUR_KONGS,
    "Four Kan Abortion": AbortKind.FOUR_KONGS,
    "三家和": AbortKind.TRIPLE_RON,
    "Sanchahou": AbortKind.TRIPLE_RON,
    "Three Ron Abortion": AbortKind.TRIPLE_RON,
    "Kyuushu Kyuuhai": AbortKind.NINE_TERMINALS,
    "Nine Terminal Abortion": AbortKind.NINE_TERMINALS,
    "Suufon Renda": AbortKind.FOUR_WINDS,
    "Four Wind Abortion": AbortKind.FOUR_WINDS,
    "Suucha Riichi": AbortKind.FOUR_RIICHI,
    "Four Riichi Abortion": AbortKind.FOUR_RIICHI,
}
