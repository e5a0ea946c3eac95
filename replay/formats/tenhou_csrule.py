"""A Tenhou private lobby's own rules: the ``csrule`` of the ``GO`` tag, decoded into rule values.

Tenhou's private lobbies (many online tournaments are played in them) write the
lobby's rules into ``GO csrule``: 45 comma-separated fields, two flag words in
hex and then numbers, an empty field meaning the default. No official
description is public; the decoding below follows two independent public
programs that read and write it (a JavaScript ``parseTenhouRules``, which reads a
lobby's ``CSRULE`` with its defaults, and a TypeScript ``ruleSetToTenhouConfig``,
which writes one), checked on the corpus's ``newattr2023.xml`` (a real lobby game:
30,000 start and return, uma 15/5, tied players splitting the uma, tenths kept).

Fields (0-based): 0 and 1 the flag words; 4 starting points; 5 the score that ends
the extension; 6 the return points; 7 "auto win points" (unclear: refused unless
empty or 0); 10 the riichi stick; 11 the counter's value from each payer; 16-18 what
each not-ready player pays with 1, 2 (and 3) players ready; 21-35 five rows of uma
(2nd, 3rd, 4th; the top takes minus their sum); 36-44 turn timers.

Each flag has one meaning here, or is named as one honba does not score by: what
only changes a hand's value (dora, ippatsu, double-wind fu, renhou) needs no rule,
since the log states every hand's value; what changes who pays what is a rule value.
"""

from __future__ import annotations

from typing import Any, Final

import attrs

# GO type bits (the lobby's base rule; the same bits as a ranked room's).
TYPE_SANMA: Final = 0x10
TYPE_HANCHAN: Final = 0x08

# Flag word 0: (bit, meaning, rule values when set). None: no rule value (the log states
# what it changes, or it changes nothing paid).
FLAGS0: Final[tuple[tuple[int, str, dict[str, Any] | None], ...]] = (
    (0x1, "no nagashi mangan", {"nagashi_mangan": False}),
    (0x2, "kiriage mangan", {"kiriage_mangan": True}),
    (0x4, "no bust", {"bust": False}),
    (0x8, "kan dora at once on open kans", None),
    (0x10, "no dora", None),
    (0x20, "no kan dora", None),
    (0x40, "no ura dora", None),
    (0x80, "no kan ura dora", None),
    (0x100, "no four-winds draw", None),
    (0x200, "no four-kongs draw", None),
    (0x400, "no four-riichi draw", None),
    (0x800, "no nine-terminals draw", None),
    (0x1000, "no triple-ron draw", None),
    (0x2000, "head bump (only the winner nearest the discarder)", {"multiple_ron": 1}),
    (0x4000, "no stop on the last dealer's win", {"dealer_stop_on_win": False}),
    (0x8000, "no stop on the last dealer's ready hand", {"dealer_stop_on_ready": False}),
    (0x10000, "the dealer's win passes the deal", {"deal_passes_after_dealer_win": True}),
    (0x20000, "the dealer's ready hand at a draw passes the deal", {"deal_passes_after_draw": "always"}),
    (0x40000, "final points rounded", {"points_rounding": "tenhou"}),
    (0x80000, "no ippatsu", None),
    (0x200000, "no extension", {"extension_winds": 0}),
    (0x400000, "no North dora", None),
    (0x1000000, "renhou as mangan", None),
    (0x2000000, "riichi with no draw left", None),
)
# Set, these are refused: what they change is not known well enough to score by it.
FLAGS0_REFUSED: Final = {0x100000: "two winds per round"}
ABORTIVE_BITS: Final = 0x100 | 0x200 | 0x400 | 0x800
TRIPLE_RON_DRAW_OFF: Final = 0x1000
TSUMO_SPLIT: Final = 0x800000

FLAGS1: Final[tuple[tuple[int, str, dict[str, Any] | None], ...]] = (
    (0x1, "a double-wind pair is 4 fu", None),
    (0x2, "tied players split the uma", {"uma_ties": "split"}),
    (0x4, "leftover deposits are lost", {"leftover_deposits": "lost"}),
    (0x8, "pao setting", None),
    (0x10, "no counted yakuman", None),
)
NO_COUNTED_YAKUMAN: Final = 0x10
KNOWN1: Final = 0x1F

FIELDS: Final = 45


@attrs.frozen
class _Defaults:
    """What an empty field means (parseTenhouRules' defaults), by the number of players."""

    start: int
    target: int
    back: int
    stick: int
    counter: int
    noten: tuple[int, ...]  # what each not-ready player pays with 1, 2 (, 3) ready
    uma: tuple[int, ...]  # 2nd, 3rd (, 4th)


DEFAULTS: Final = {
    4: _Defaults(25000, 30000, 30000, 1000, 100, (1000, 1500, 3000), (10, -10, -20)),
    3: _Defaults(35000, 40000, 40000, 1000, 100, (1000, 2000), (0, -20)),
}


@attrs.frozen
class LobbyRules:
    """What a ``csrule`` says: rule values for honba, what it decoded, and why it is refused if it is."""

    overrides: dict[str, Any]
    decoded: tuple[str, ...]
    unsupported: str | None = None
    notes: tuple[str, ...] = ()


class CsruleError(ValueError):
    """A ``csrule`` that is not in the known form (too few fields, not hex, not numbers)."""


def decode_csrule(text: str, go_type: int) -> LobbyRules:
    """The rule values a private lobby's ``csrule`` sets, for a game of that GO type.

    Raises ``CsruleError`` when the text is not in the known form.
    """
    fields = text.split(",")
    if len(fields) < 36:
        raise CsruleError(f"{len(fields)} fields, expected {FIELDS}")
    try:
        flags0 = int(fields[0] or "0", 16)
        flags1 = int(fields[1] or "0", 16)
    except ValueError:
        raise CsruleError("the flag words (fields 0 and 1) are not hexadecimal") from None
    numbers: list[int | None] = [None, None]
    for index, field in enumerate(fields[2:], start=2):
        try:
            numbers.append(int(field) if field.strip() else None)
        except ValueError:
            raise CsruleError(f"field {index} ({field[:20]!r}) is not a number") from None
    players = 3 if go_type & TYPE_SANMA else 4
    base = DEFAULTS[players]

    def number(index: int, default: int) -> int:
        value = numbers[index] if index < len(numbers) else None
        # An empty field, or 0, is the default (as parseTenhouRules reads it).
        return value if value else default

    overrides: dict[str, Any] = {}
    decoded: list[str] = []
    notes: list[str] = []
    refused: list[str] = []

    start = number(4, base.start)
    target = number(5, base.target)
    back = number(6, base.back)
    overrides.update(start_score=start, return_score=back, target_score=0 if target == back else target)
    decoded.append(f"start {start}, return {back}, extension ends at {target}")
    if number(7, 0):
        refused.append(f"'auto win points' {numbers[7]} (field 7)")
    stick = number(10, base.stick)
    counter = number(11, base.counter)
    overrides.update(riichi_deposit=stick, extra_hand_bonus=counter)
    decoded.append(f"riichi stick {stick}, counter {counter} from each payer")

    paid = [number(16 + k, base.noten[k]) for k in range(players - 1)]
    pools = {pay * (players - 1 - k) for k, pay in enumerate(paid)}
    if len(pools) == 1:
        overrides["noten_pool"] = pools.pop()
        decoded.append(f"not-ready payments {overrides['noten_pool']} in all")
    else:
        refused.append(f"not-ready payments {paid} (fields 16-18) that are not one pool")

    rows = []
    for row in range(5):
        places = [number(21 + 3 * row + i, base.uma[i]) for i in range(players - 1)]
        rows.append((-sum(places), *places))
    if len(set(rows)) == 1:
        overrides["uma"] = list(rows[0])
        decoded.append(f"uma {'/'.join(str(u) for u in rows[0])}")
    else:
        refused.append(f"uma by rows {rows} (fields 21-35; which row applies is not known)")

    for bit, meaning, values in FLAGS0:
        if flags0 & bit:
            decoded.append(meaning)
            if values:
                overrides.update(values)
    if flags0 & ABORTIVE_BITS == ABORTIVE_BITS:
        overrides["abortive_draws"] = False
    if flags0 & TRIPLE_RON_DRAW_OFF and not flags0 & 0x2000:
        overrides["multiple_ron"] = 3
    if flags0 & TSUMO_SPLIT:
        decoded.append("tsumo split")
        if players == 3:
            overrides["tsumo_loss"] = False
    if not flags0 & 0x40000:
        overrides["points_rounding"] = "none"
    for bit, meaning in FLAGS0_REFUSED.items():
        if flags0 & bit:
            refused.append(f"{meaning} (flag {bit:#x})")
    known0 = sum(b for b, _m, _v in FLAGS0) | TSUMO_SPLIT | sum(FLAGS0_REFUSED)
    unknown0 = flags0 & ~known0
    if unknown0:
        notes.append(
            f"csrule flag word 0 bits {unknown0:#x} are not decoded by any public source; "
            "every hand is still compared with the log"
        )
    for bit, meaning, values in FLAGS1:
        if flags1 & bit:
            decoded.append(meaning)
            if values:
                overrides.update(values)
    if flags1 & NO_COUNTED_YAKUMAN:
        overrides["settling_table"] = [[5, 100], [6, 150], [8, 200], [11, 300]]
    if flags1 & ~KNOWN1:
        notes.append(f"csrule flag word 1 bits {flags1 & ~KNOWN1:#x} are not decoded by any public source")
    length = "hanchan" if go_type & TYPE_HANCHAN else "east-only"
    decoded.insert(0, f"{players} players, {length}")
    unsupported = f"private lobby rules honba does not score: {'; '.join(refused)}" if refused else None
    return LobbyRules(overrides, tuple(decoded), unsupported, tuple(notes))
