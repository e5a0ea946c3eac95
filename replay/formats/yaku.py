"""The yaku of a win as the logs name them, on one scale: Tenhou's ids and Japanese names.

Tenhou's mjlog writes each yaku as an id with its han (``yaku="1,1,52,2"``) and each
yakuman as an id (``yakuman="39"``); its JSON export and Mahjong Soul converters write
names (``立直(1飜)``, ``Riichi(1飜)``, ``役牌:場風牌(1飜)``); the original mjai server
writes its own names (``["reach", 1]``). Each is mapped here to Tenhou's id and name, the
names Tenhou's viewer shows. Ids 52-54 are the dora, ura dora and red fives, counted
apart (``WinDetails.dora``, ``ura``, ``red``) as the viewer counts them.

The ids and names are those of Tenhou's log viewer and of the public mjlog decoders
(e.g. mjx's ``mjx/converter``, tenhou-log's ``yaku`` tables), checked against the
corpus's XML and JSON exports of the same games (``tsubakisakura-mjlog2json``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Final

from domain.values import WinDetails, Yaku

TENHOU_YAKU: Final = (
    "門前清自摸和",
    "立直",
    "一発",
    "槍槓",
    "嶺上開花",
    "海底摸月",
    "河底撈魚",
    "平和",
    "断幺九",
    "一盃口",
    "自風 東",
    "自風 南",
    "自風 西",
    "自風 北",
    "場風 東",
    "場風 南",
    "場風 西",
    "場風 北",
    "役牌 白",
    "役牌 發",
    "役牌 中",
    "両立直",
    "七対子",
    "混全帯幺九",
    "一気通貫",
    "三色同順",
    "三色同刻",
    "三槓子",
    "対々和",
    "三暗刻",
    "小三元",
    "混老頭",
    "二盃口",
    "純全帯幺九",
    "混一色",
    "清一色",
    "人和",
    "天和",
    "地和",
    "大三元",
    "四暗刻",
    "四暗刻単騎",
    "字一色",
    "緑一色",
    "清老頭",
    "九蓮宝燈",
    "純正九蓮宝燈",
    "国士無双",
    "国士無双１３面",
    "大四喜",
    "小四喜",
    "四槓子",
    "ドラ",
    "裏ドラ",
    "赤ドラ",
)
DORA, URA, RED = 52, 53, 54
YAKUMAN_HAN: Final = 13
# North tiles set aside in three-player games: no Tenhou id in the yaku list, named so by its JSON.
KITA: Final = "抜きドラ"

# Other spellings of the same yaku (Mahjong Soul's Japanese and English names as converters
# write them, the original mjai server's names), by Tenhou id.
ALIASES: Final[dict[str, int]] = {
    "riichi": 1,
    "reach": 1,
    "ippatsu": 2,
    "menzenchin_tsumoho": 0,
    "fully concealed hand": 0,
    "menzen tsumo": 0,
    "robbing a kan": 3,
    "chankan": 3,
    "after a kan": 4,
    "rinshankaiho": 4,
    "under the sea": 5,
    "haiteiraoyue": 5,
    "under the river": 6,
    "hoteiraoyui": 6,
    "pinfu": 7,
    "all simples": 8,
    "tanyaochu": 8,
    "tanyao": 8,
    "pure double sequence": 9,
    "ipeko": 9,
    "iipeikou": 9,
    "double riichi": 21,
    "double_reach": 21,
    "seven pairs": 22,
    "chitoitsu": 22,
    "chiitoitsu": 22,
    "half outside hand": 23,
    "chanta": 23,
    "pure straight": 24,
    "ikkitsukan": 24,
    "ittsu": 24,
    "mixed triple sequence": 25,
    "sanshokudojun": 25,
    "triple triplets": 26,
    "sanshokudoko": 26,
    "three quads": 27,
    "sankantsu": 27,
    "all triplets": 28,
    "toitoiho": 28,
    "toitoi": 28,
    "three concealed triplets": 29,
    "sananko": 29,
    "little three dragons": 30,
    "shosangen": 30,
    "all terminals and honors": 31,
    "honroto": 31,
    "twice pure double sequence": 32,
    "ryanpeko": 32,
    "fully outside hand": 33,
    "junchantaiyao": 33,
    "half flush": 34,
    "honiso": 34,
    "honitsu": 34,
    "full flush": 35,
    "chiniso": 35,
    "chinitsu": 35,
    "blessing of heaven": 37,
    "tenho": 37,
    "blessing of earth": 38,
    "chiho": 38,
    "big three dragons": 39,
    "daisangen": 39,
    "four concealed triplets": 40,
    "suanko": 40,
    "all honors": 42,
    "tsuiso": 42,
    "all green": 43,
    "ryuiso": 43,
    "all terminals": 44,
    "chinroto": 44,
    "nine gates": 45,
    "churenpoton": 45,
    "thirteen orphans": 47,
    "kokushimuso": 47,
    "big four winds": 49,
    "daisushi": 49,
    "little four winds": 50,
    "shosushi": 50,
    "four quads": 51,
    "sukantsu": 51,
    "dora": DORA,
    "ura dora": URA,
    "uradora": URA,
    "red five": RED,
    "akadora": RED,
    "red dora": RED,
    "白": 18,
    "發": 19,
    "中": 20,
    "haku": 18,
    "hatsu": 19,
    "chun": 20,
    "white dragon": 18,
    "green dragon": 19,
    "red dragon": 20,
}
# The ``mahjong`` package's yaku (``Yaku.yaku_id``, the hand calculator's numbering) by Tenhou's
# id, so that a hand valued from its tiles names its yaku as the logs do. The package's own ids
# that Tenhou has no yaku for (open riichi, nagashi mangan, daisharin, ...) keep the package's
# English name.
LIBRARY_YAKU: Final[dict[int, int]] = {
    0: 0,  # menzen tsumo
    1: 1,  # riichi
    3: 2,  # ippatsu
    4: 3,  # chankan
    5: 4,  # rinshan kaihou
    6: 5,  # haitei
    7: 6,  # houtei
    8: 21,  # double riichi
    11: 36,  # renhou (as a mangan-or-more yaku): Tenhou's 人和
    12: 7,  # pinfu
    13: 8,  # tanyao
    14: 9,  # iipeikou
    15: 18,  # haku
    16: 19,  # hatsu
    17: 20,  # chun
    18: 10,  # seat wind east
    19: 11,
    20: 12,
    21: 13,
    22: 14,  # round wind east
    23: 15,
    24: 16,
    25: 17,
    26: 25,  # sanshoku doujun
    27: 24,  # ittsu
    28: 23,  # chanta
    29: 31,  # honroutou
    30: 28,  # toitoi
    31: 29,  # sanankou
    32: 27,  # sankantsu
    33: 26,  # sanshoku doukou
    34: 22,  # chiitoitsu
    35: 30,  # shousangen
    36: 34,  # honitsu
    37: 33,  # junchan
    38: 32,  # ryanpeikou
    39: 35,  # chinitsu
    100: 47,  # kokushi musou
    101: 45,  # chuuren poutou
    102: 40,  # suuankou
    103: 39,  # daisangen
    104: 50,  # shousuushii
    105: 43,  # ryuuiisou
    106: 51,  # suukantsu
    107: 42,  # tsuuiisou
    108: 44,  # chinroutou
    111: 49,  # daisuushii
    112: 48,  # kokushi musou, thirteen-sided wait
    113: 41,  # suuankou tanki
    114: 46,  # junsei chuuren poutou
    115: 37,  # tenhou
    116: 38,  # chiihou
    117: 36,  # renhou as a yakuman
    120: DORA,
    121: RED,
    122: URA,
}
_BY_NAME: Final = {name: index for index, name in enumerate(TENHOU_YAKU)}
_ENTRY: Final = re.compile(r"^(?P<name>.+?)\((?P<count>\d+)飜\)$|^(?P<yakuman>.+?)\(役満\)$")
SUITS: Final = "mpsz"


def tenhou_id(name: str) -> int | None:
    """Tenhou's id of a yaku named in any of the logs' spellings, or None."""
    cleaned = name.strip()
    if cleaned in _BY_NAME:
        return _BY_NAME[cleaned]
    return ALIASES.get(cleaned.lower())


@functools.lru_cache(maxsize=4096)
def yaku_of(index: int, han: int) -> Yaku:
    """A yaku by Tenhou's id (an id Tenhou does not list keeps its number as its name). A frozen
    value, made once for each id and han (every win of a log names a few; bounded, since a log
    names any numbers it likes)."""
    name = TENHOU_YAKU[index] if 0 <= index < len(TENHOU_YAKU) else f"yaku {index}"
    return Yaku(name, han, index)


def yaku_named(name: str, han: int) -> Yaku:
    """A yaku by a log's name for it: Tenhou's name and id when known, else the name as given."""
    index = tenhou_id(name)
    return yaku_of(index, han) if index is not None else Yaku(name.strip(), han, None)


def library_yaku(library_id: int, name: str, han: int) -> Yaku:
    """A yaku the ``mahjong`` package's hand calculator found (its id and name), by Tenhou's id
    and name where Tenhou has it."""
    index = LIBRARY_YAKU.get(library_id)
    return yaku_of(index, han) if index is not None else Yaku(name, han, None)


def parse_entry(entry: str) -> Yaku | None:
    """A JSON log's yaku entry (``立直(1飜)``, ``大三元(役満)``), or None when it is not one."""
    found = _ENTRY.match(entry.strip())
    if found is None:
        return None
    if found.group("yakuman") is not None:
        return yaku_named(found.group("yakuman"), YAKUMAN_HAN)
    return yaku_named(found.group("name"), int(found.group("count")))


def details(
    yaku: Iterable[Yaku], *, fu: int | None = None, winning_tile: str | None = None, calls: Iterable[str] = ()
) -> WinDetails:
    """The details of a win: the dora, ura dora, red fives and North tiles counted apart from the yaku."""
    kept: list[Yaku] = []
    dora = ura = red = kita = 0
    for item in yaku:
        index = item.tenhou_id
        if index == DORA:
            dora += item.han
        elif index == URA:
            ura += item.han
        elif index == RED:
            red += item.han
        elif item.name == KITA:
            kita += item.han
        else:
            kept.append(item)
    return WinDetails(
        tuple(kept), fu, dora=dora, red=red, ura=ura, kita=kita, winning_tile=winning_tile, calls=tuple(calls)
    )


def tile136(tile: int) -> str:
    """A tile of Tenhou's 136 numbering in ``1m``..``7z`` notation."""
    if 0 <= tile < len(_TILES136):
        return _TILES136[tile]
    kind = tile // 4
    return f"{kind % 9 + 1}{SUITS[kind // 9]}"


# The 136 tiles' names, made once (a win's tile and every tile of its calls is named).
_TILES136: Final = tuple(f"{tile // 4 % 9 + 1}{SUITS[tile // 4 // 9]}" for tile in range(136))


def is_open_call(code: int) -> bool:
    """Whether Tenhou's meld code (``m`` of an ``N`` tag) is an open call: a chi, a pon or a kong
    called on a discard; not an added kong (the pon before it was the call), a concealed kong nor
    a kita (its bits as ``tenhou_call`` reads them)."""
    if code & 0x4 or code & 0x8:
        return True
    if code & 0x30:
        return False
    return code & 3 != 0


def tenhou_call(code: int, seat: int, players: int = 4) -> str:
    """One of the winner's calls from Tenhou's meld code (the ``m`` attribute of AGARI), e.g.
    ``chi 3m4m5m from seat 0``; the code's low bits give who it was called from, relative to
    the caller (1 the next seat, 2 across, 3 the previous)."""
    source = (seat + (code & 3)) % players
    if code & 0x4:  # chi: the lowest tile of the run and which of three was called
        base = (code >> 10) // 3
        first = base // 7 * 9 + base % 7
        run = "".join(f"{(first + i) % 9 + 1}" for i in range(3))
        return f"chi {run}{SUITS[first // 9]} from seat {source}"
    if code & 0x8:
        return f"pon {tile136((code >> 9) // 3 * 4)} from seat {source}"
    if code & 0x10:
        return f"added kan {tile136((code >> 9) // 3 * 4)}"
    if code & 0x20:
        return "kita"
    tile = tile136((code >> 8) // 4 * 4)
    return f"kan {tile} (concealed)" if code & 3 == 0 else f"kan {tile} from seat {source}"
