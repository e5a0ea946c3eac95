"""Issue 31: penalties and liability as the rules say, in the domain, in memory.

- Riichi scores move in 100-point sticks: a penalty off the score is a whole number of them, and one
  shared by the three others a whole number of them each (4,000 would pay 1,334/1,333/1,333).
- A penalty taken off the table is taken off the player; nobody gains (the EMA's rule: "penalties
  are applied to the overall score", reachmahjong.com WRC 2014 thread, as wrc.toml cites): the top
  player's points are what makes the sum zero of what is on the table, not of what left it.
- Liability (pao) under riichi rules only for a yakuman (Tenhou: "pao only for Big Three Dragons
  and Big Four Winds", reference/tenhou-rules-history.md).

Tenhou's final points (25,000 start, 30,000 return, uma +20/+10/-10/-20, oka 20 to the top, scores
rounded to the thousand, ties by seat order): Ben rons Ann for 3 han 30 fu (3,900): 21,100 /
28,900 / 25,000 / 25,000.
"""

from __future__ import annotations

import pytest
from conftest import TENHOU, hv, ron, started, won

from domain.errors import RuleViolation
from domain.rules import load_preset
from domain.values import Penalty, PenaltyShare

WRC = load_preset("wrc")


def test_a_penalty_shared_by_the_others_is_whole_sticks_each() -> None:
    match = started(TENHOU)
    with pytest.raises(
        RuleViolation, match=r"4,000 shared by the 3 others is no whole number of 100-point sticks each"
    ):
        match.penalise(Penalty(0, 4000, share=PenaltyShare.TO_OTHERS))
    assert match.state.scores == (25000, 25000, 25000, 25000)
    match.penalise(Penalty(0, 3900, share=PenaltyShare.TO_OTHERS))
    assert match.state.scores == (21100, 26300, 26300, 26300)


def test_a_penalty_off_the_table_is_whole_sticks() -> None:
    match = started(WRC)
    with pytest.raises(
        RuleViolation, match=r"a penalty of 4,050 is no whole number of 100-point sticks: 4,000 or 4,100"
    ):
        match.penalise(Penalty(1, 4050, share=PenaltyShare.OFF_TABLE))
    match.penalise(Penalty(1, 4000, share=PenaltyShare.OFF_TABLE))


def test_a_penalty_off_the_table_after_the_end_raises_nobody() -> None:
    match = started(TENHOU)
    match.record(won(ron(1, 0, hv(3, 30))))
    match.end("agreed")
    before = match.state.final_points
    # Ann 21,100 -> 21 - 30 - 20 = -29; Ben 28,900 -> 29 - 30 + 20 + 20 (oka) = +39 (the top);
    # Cho 25 - 30 + 10 = +5 (2nd by seat order), Dai 25 - 30 - 10 = -15.
    assert before == (-29.0, 39.0, 5.0, -15.0)
    # A referee's penalty of 4,000 off the table on Cho, after the end: Cho 21,000 (4th now:
    # 21 - 30 - 20 = -29), Ann 3rd (-19), Dai 2nd (+5). Ben's points are his score's and his
    # place's (+39); the 4,000 that left the table go to nobody: the points sum to -4.0.
    match.add_penalty(Penalty(2, 4000, share=PenaltyShare.OFF_TABLE), by="Ref", reason="late")
    after = match.fold().final_points
    assert after == (-19.0, 39.0, -29.0, 5.0)
    assert round(sum(after), 1) == -4.0


def test_liability_only_for_a_yakuman_under_riichi_rules() -> None:
    for rules in (WRC, TENHOU):
        match = started(rules)
        with pytest.raises(
            RuleViolation, match=r"liability \(pao\) is only for a yakuman under these rules, not 1 han 30 fu"
        ):
            match.record(won(ron(1, 0, hv(1, 30), liable=2)))
        match.record(won(ron(1, 0, hv(limit="yakuman"), liable=2)))


# The points families: no rule of theirs makes a third player liable. Hong Kong's half and full
# "responsibility" is the discarder's (yawnoc/mahjong-scorer, reference/rules-and-peers.md; the
# preset's loser_payment); the seeds' Taiwanese, Chinese, Japanese classical and American rules
# name no liable player at all. A limit hand with a liable player is refused by the rules' name.
@pytest.mark.parametrize(
    "name",
    [
        "hong-kong",
        "chinese-classical",
        "chinese-transitional",
        "taiwanese",
        "american-modern",
        "japanese-classical",
        "japanese-transitional",
        "wilmington-advanced",
    ],
)
def test_liability_is_refused_by_name_under_the_points_families(name: str) -> None:
    rules = load_preset(name)
    match = started(rules)
    before = match.state
    # A limit hand (entered under any limit name, the points families' "limit").
    with pytest.raises(RuleViolation, match=rf"^liability \(pao\) is not in the {name} rules"):
        match.record(won(ron(1, 0, hv(limit="yakuman"), liable=2)))
    assert match.state == before


def test_a_share_to_the_others_is_refused_where_penalties_come_off_after_uma() -> None:
    # WRC and M-League take a penalty off the player's final points after uma: nobody receives
    # it, so a share to the others (or a reverse mangan) would be dropped in silence.
    for rules in (WRC, load_preset("m-league")):
        match = started(rules)
        before = match.state
        for share in (PenaltyShare.TO_OTHERS, PenaltyShare.REVERSE_MANGAN):
            with pytest.raises(RuleViolation, match=rf"^share {share.value}: under these rules a penalty is taken off"):
                match.penalise(Penalty(0, 8000, share=share))
        assert match.state == before
        match.penalise(Penalty(0, 8000, share=PenaltyShare.OFF_TABLE))
        assert match.state.penalties == (8000, 0, 0, 0)
        assert match.state.scores == (rules.start_score,) * 4
