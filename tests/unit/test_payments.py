"""Who pays whom beyond the hand's value: counters, riichi deposits, double ron,
three players, noten payments, nagashi mangan and pao.

Sources: seed 003 (the Japanese counters document), /work/shared/corpus/FORMAT.md
and the Tenhou logs it cites. In Tenhou's numbers the riichi sticks placed in the
hand are left out; honba's changes include them, so the tests subtract 1000 per
declarer where a log's changes are copied (see conftest).
"""

from __future__ import annotations

from conftest import SANMA, TENHOU, changes, deposits_after, hv, ron, table, tsumo, won

from domain.scoring.payments import settle
from domain.values import ExhaustiveDraw, Reason

# Counters (honba), seed 003.


def test_ron_counter_bonus_is_300_per_counter_from_the_discarder() -> None:
    # Seed 003: "North wins by ron ... getting a bonus of 600 points from the discarder" with 2 counters.
    state = table(dealer=0, counters=2, round_wind=1)
    payments = settle(won(ron(3, 1, hv(1, 30))), state, TENHOU).payments
    bonus = [p for p in payments if p.reason is Reason.COUNTERS]
    assert [(p.payer, p.payee, p.amount) for p in bonus] == [(1, 3, 600)]
    assert changes(won(ron(3, 1, hv(1, 30))), state) == (0, -1600, 0, 1600)


def test_tsumo_counter_bonus_is_100_from_each_payer() -> None:
    # Seed 003: "n x 100 points from each of other three players for a total of n x 300".
    # Tenhou 2019103023gm-00a9-0000-f90e0fe9 East 4, 1 counter: dealer tsumo "500点∀",
    # changes [-600,-600,-600,1800] (FORMAT.md).
    assert changes(won(tsumo(3, hv(1, 30))), table(dealer=3, counters=1)) == (-600, -600, -600, 1800)


def test_counters_are_paid_on_top_of_a_limit_hand() -> None:
    # Tenhou pao.xml, East 2 with 1 counter: a yakuman tsumo paid by the liable player is 32300.
    state = table(dealer=1, counters=1)
    assert changes(won(tsumo(2, hv(limit="yakuman"), liable=0)), state) == (-32300, 0, 32300, 0)


def test_no_counters_no_bonus() -> None:
    payments = settle(won(ron(1, 2, hv(1, 30))), table(), TENHOU).payments
    assert not [p for p in payments if p.reason is Reason.COUNTERS]


# Riichi deposits.


def test_the_winner_takes_the_riichi_deposits_of_the_hand_and_those_on_the_table() -> None:
    # Tenhou mjx 2020052700gm-00a9-0000-75a4695c, South 2 with 1 counter and 1 stick on the table:
    # 2 han 30 fu ron from seat 3, sc changes +33 (2000 + 300 + 1000) and -23.
    state = table(dealer=1, counters=1, deposits=1000, round_wind=1)
    assert changes(won(ron(0, 3, hv(2, 30))), state) == (3300, 0, 0, -2300)
    assert deposits_after(won(ron(0, 3, hv(2, 30))), state) == 0


def test_a_riichi_declared_in_the_hand_is_a_deposit_the_winner_takes() -> None:
    # Same game, East 4: seat 3 (dealer) declares riichi, seat 1 tsumo haneman:
    # Tenhou changes [-3000, 13000, -3000, -6000]; seat 3 also put 1000 on the table.
    state = table(dealer=3)
    result = won(tsumo(1, hv(6, 50)), riichi=[3])
    assert changes(result, state) == (-3000, 13000, -3000, -6000 - 1000)
    assert deposits_after(result, state) == 0


def test_riichi_deposits_stay_on_the_table_after_a_draw() -> None:
    # FORMAT.md: after a draw the sticks are "carried over, plus riichis made this kyoku".
    state = table(dealer=0, deposits=1000)
    assert deposits_after(ExhaustiveDraw(ready=(1, 2), riichi=(1, 2)), state) == 3000


# Double ron: each winner is paid as if alone; counters and all deposits go to the
# winner nearest the discarder in turn order (FORMAT.md).


def test_double_ron_each_winner_is_paid_as_if_alone_and_the_nearest_takes_the_deposits() -> None:
    # Tenhou 2019103023gm-00a9-0000-f90e0fe9 East 4: seat 2 declared riichi and dealt in to
    # both the dealer (seat 3, 4 han 30 fu, "11600") and seat 1 (haneman, "12000").
    # JSON changes [0,0,-11600,12600] + [0,12000,-12000,0]; the stick went to seat 3,
    # who plays right after seat 2.
    result = won(ron(3, 2, hv(4, 30)), ron(1, 2, hv(6, 30)), riichi=[2])
    assert changes(result, table(dealer=3)) == (0, 12000, -23600 - 1000, 12600)


def test_double_ron_counters_go_only_to_the_winner_nearest_the_discarder() -> None:
    # Tenhou mjx 2020052700gm-00a9-0000-75a4695c East 2, 2 counters, 1 stick on the table;
    # the dealer (seat 1) declares riichi and deals in to seat 2 (mangan, ba="2,2") and
    # seat 3 (1 han 40 fu, ba="2,0"): sc changes -86 -13 for seat 1, +106 and +13.
    result = won(ron(2, 1, hv(5, 30)), ron(3, 1, hv(1, 40)), riichi=[1])
    state = table(dealer=1, counters=2, deposits=1000)
    assert changes(result, state) == (0, -8600 - 1300 - 1000, 8000 + 600 + 2000, 1300)
    assert deposits_after(result, state) == 0


def test_double_ron_the_nearest_winner_does_not_depend_on_the_order_written() -> None:
    result = won(ron(3, 1, hv(1, 40)), ron(2, 1, hv(5, 30)), riichi=[1])
    state = table(dealer=1, counters=2, deposits=1000)
    assert changes(result, state) == (0, -10900, 10600, 1300)


def test_double_ron_nearest_winner_wraps_around_the_table() -> None:
    # Discarder seat 3: seat 0 plays next, then seat 1.
    result = won(ron(1, 3, hv(1, 30)), ron(0, 3, hv(1, 30)))
    state = table(dealer=2, counters=1, deposits=2000)
    assert changes(result, state) == (1000 + 300 + 2000, 1000, 0, -2300)


def test_double_ron_with_the_each_winner_option_every_winner_gets_the_counters() -> None:
    # Seed 000: "If multiple winners are allowed, each winner is paid as if he had won alone,
    # e.g., if the specified bonus is 100 points, each winner gets 300 points for the first
    # extra hand". The deposits still go to the nearest winner.
    rules = TENHOU.with_overrides({"multiple_ron_counters": "each"})
    result = won(ron(2, 1, hv(1, 30)), ron(3, 1, hv(1, 30)))
    state = table(rules, dealer=0, counters=1, deposits=1000)
    assert changes(result, state, rules) == (0, -2600, 1000 + 300 + 1000, 1000 + 300)


# Three players (preset tenhou-sanma): tsumo loss, counters 100 from each payer, so 200 on a ron.


def test_three_player_ron_counter_bonus_is_200_per_counter() -> None:
    # FORMAT.md / double_nukidora.json [1,1,0]: 3900 -> +4100.
    state = table(SANMA, dealer=1, counters=1)
    assert changes(won(ron(2, 1, hv(3, 30))), state, SANMA) == (0, -4100, 4100)


def test_three_player_tsumo_counter_bonus_is_100_from_each_payer() -> None:
    # FORMAT.md / double_nukidora.json [0,2,1]: "500-1000点" -> [-1200,-700,2900]
    # (2 counters, 1 stick on the table).
    state = table(SANMA, dealer=0, counters=2, deposits=1000)
    assert changes(won(tsumo(2, hv(2, 30))), state, SANMA) == (-1200, -700, 2900)


def test_three_player_dealer_tsumo_with_counters_and_deposits() -> None:
    # double_nukidora.json [6,2,1]: the dealer (seat 2) declares riichi, 1 stick on the table,
    # 2 counters, "30符4飜3900点∀" -> [-4100,-4100,10200].
    state = table(SANMA, dealer=2, counters=2, deposits=1000, round_wind=1, hand_number=3)
    assert changes(won(tsumo(2, hv(4, 30)), riichi=[2]), state, SANMA) == (-4100, -4100, 10200 - 1000)


def test_three_player_seven_pairs_tsumo_with_four_counters() -> None:
    # double_nukidora.json [6,4,0]: "25符3飜800-1600点" with 4 counters -> [3200,-1200,-2000].
    state = table(SANMA, dealer=2, counters=4, round_wind=1, hand_number=3)
    assert changes(won(tsumo(0, hv(3, 25))), state, SANMA) == (3200, -1200, -2000)


def test_three_player_dealer_haneman_tsumo_with_counters_and_a_stick() -> None:
    # sanma2.xml East 2, 2 counters, 1 stick: ten="30,12000,2", sc changes -62, +134, -62.
    state = table(SANMA, dealer=1, counters=2, deposits=1000)
    assert changes(won(tsumo(1, hv(6, 30))), state, SANMA) == (-6200, 13400, -6200)


# Noten payments at an exhaustive draw: the not-ready pay the ready from a pool.


def test_noten_one_ready_player_receives_3000() -> None:
    # mjx 2020052700gm-00a9-0000-75a4695c East 1: sc "-10,-10,-10,+30".
    assert changes(ExhaustiveDraw(ready=(3,)), table()) == (-1000, -1000, -1000, 3000)


def test_noten_two_ready_players_receive_1500_each() -> None:
    # Same game, East 2: seats 1 (riichi) and 2 ready, sc "-15,+15,+15,-15".
    result = ExhaustiveDraw(ready=(1, 2), riichi=(1,))
    assert changes(result, table(dealer=1, counters=1)) == (-1500, 1500 - 1000, 1500, -1500)


def test_noten_three_ready_players_receive_1000_each() -> None:
    # Tenhou RYUUKYOKU sc="108,-30,177,10,537,10,178,10" (tenhou-wire-2018).
    assert changes(ExhaustiveDraw(ready=(1, 2, 3)), table()) == (-3000, 1000, 1000, 1000)


def test_noten_nobody_pays_when_all_or_none_are_ready() -> None:
    # FORMAT.md: "全員聴牌" / "全員不聴", no money moves.
    assert changes(ExhaustiveDraw(ready=(0, 1, 2, 3)), table()) == (0, 0, 0, 0)
    assert changes(ExhaustiveDraw(ready=()), table()) == (0, 0, 0, 0)


def test_three_player_noten_pool_is_2000() -> None:
    # sanma2.xml East 2 with 1 counter: seat 1 (the dealer, riichi) alone ready,
    # RYUUKYOKU sc="310,-10,530,20,200,-10" (units of 100).
    result = ExhaustiveDraw(ready=(1,), riichi=(1,))
    assert changes(result, table(SANMA, dealer=1, counters=1), SANMA) == (-1000, 2000 - 1000, -1000)
    # double_nukidora.json [0,1,0]: two ready -> [1000,1000,-2000].
    assert changes(ExhaustiveDraw(ready=(0, 1)), table(SANMA, dealer=0, counters=1), SANMA) == (1000, 1000, -2000)


# Nagashi mangan: paid as a mangan tsumo, without counters; the sticks stay on the table.


def test_nagashi_mangan_is_a_mangan_tsumo_without_counters() -> None:
    # Tenhou 2018020706gm-0089-0000-4c0c2f05 East 4 with 4 counters: seats 1 and 3 (dealer)
    # declare riichi, seat 2 has nagashi mangan: RYUUKYOKU type="nm" sc changes
    # -20, -20, +80, -40; the next hand starts with 2 sticks on the table.
    result = ExhaustiveDraw(ready=(1, 3), riichi=(1, 3), nagashi=(2,))
    state = table(dealer=3, counters=4)
    assert changes(result, state) == (-2000, -2000 - 1000, 8000, -4000 - 1000)
    assert deposits_after(result, state) == 2000


def test_nagashi_mangan_by_the_dealer_is_4000_all() -> None:
    assert changes(ExhaustiveDraw(ready=(), nagashi=(0,)), table(dealer=0, counters=2)) == (12000, -4000, -4000, -4000)


# Pao (liability), as Tenhou plays it: on a tsumo the liable player pays it all; on a
# ron the discarder and the liable player pay half each.


def test_pao_on_tsumo_the_liable_player_pays_the_whole_hand() -> None:
    # mjx pao-tsumo.mjlog East 4: seat 2 tsumo yakuman, paoWho=0, sc changes -320, 0, +320, 0.
    assert changes(won(tsumo(2, hv(limit="yakuman"), liable=0)), table(dealer=3)) == (-32000, 0, 32000, 0)


def test_pao_on_a_dealer_tsumo_the_liable_player_pays_counters_too() -> None:
    # Tenhou 2018020216gm-0009-0000-2b814224 East 4 with 1 counter: seat 1 declares riichi,
    # the dealer (seat 3) wins a yakuman by tsumo, paoWho=1: sc changes 0, -483, 0, +493.
    state = table(dealer=3, counters=1)
    result = won(tsumo(3, hv(limit="yakuman"), liable=1), riichi=[1])
    assert changes(result, state) == (0, -48300 - 1000, 0, 49300)


def test_pao_on_tsumo_of_a_double_yakuman_the_liable_player_pays_it_all() -> None:
    # Tenhou 2019103023gm-00a9-0000-f90e0fe9 East 4 with 3 counters: seat 0 tsumo double
    # yakuman (ten="50,64000,5"), paoWho=2: sc changes +649, 0, -649, 0.
    state = table(dealer=3, counters=3)
    assert changes(won(tsumo(0, hv(limit="yakuman", multiple=2), liable=2)), state) == (64900, 0, -64900, 0)


def test_pao_on_ron_the_discarder_and_the_liable_player_split_the_hand() -> None:
    # Tenhou 2018012302gm-0009-0000-ba31f509 East 2: seat 3 ron on seat 2's discard,
    # yakuman, paoWho=0: sc changes -160, 0, -160, +320.
    assert changes(won(ron(3, 2, hv(limit="yakuman"), liable=0)), table(dealer=1)) == (-16000, 0, -16000, 32000)


def test_payments_name_their_reasons() -> None:
    state = table(dealer=0, counters=1, deposits=1000)
    payments = settle(won(ron(1, 2, hv(1, 30)), riichi=[3]), state, TENHOU).payments
    reasons = {p.reason for p in payments}
    assert reasons == {Reason.HAND, Reason.COUNTERS, Reason.RIICHI_STICK, Reason.DEPOSITS}
    assert sum(p.amount for p in payments if p.reason is Reason.DEPOSITS) == 2000
