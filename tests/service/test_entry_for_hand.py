"""An entry says which hand it was entered for; one entered for a hand already taken is refused.

Issue 33: two phones on one table link both showed E2-0; the second's ron was stored as the next
hand, with payments nobody confirmed. Now every entry may carry the hand it was entered for (its
label, the match's version a client read, or the client key of the entry the same phone sent just
before it, for entries kept offline), and the service's recording use case refuses a stale one,
inside the same load and save, saying what was recorded instead; a retry of what a client key
already recorded still records once.

The match: Ann, Ben, Cho, Dai under Tenhou's rules, from East 1. Numbers from the published
table (Tenhou's, the seeds' riichi table): a non-dealer's ron of 3 han 30 fu is 3,900, of 2 han
30 fu 2,000; the dealer's (Ann's) ron of 2 han 30 fu is 2,900.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from honba_cli import Honba

from domain.errors import RuleViolation
from domain.rules import load_preset
from domain.values import ExhaustiveDraw, HandValue, Penalty, PenaltyShare, Win, WinResult
from replay.input.fields import entry_from_fields
from replay.service.recording import recording
from replay.service.recording.entry import apply_entry
from replay.service.recording.recording import ForHand, HandTaken
from replay.store.application import HonbaApp

TENHOU = load_preset("tenhou")
KEY = "club-1"
# Ben rons on Cho for 3 han 30 fu; Dai rons on Ann for 2 han 30 fu.
BEN_ON_CHO = WinResult((Win(1, HandValue(han=3, fu=30), discarder=2),))
DAI_ON_ANN = WinResult((Win(3, HandValue(han=2, fu=30), discarder=0),))


@pytest.fixture
def app() -> Iterator[HonbaApp]:
    application = HonbaApp.open(":memory:")
    recording.start_match(application, KEY, ["Ann", "Ben", "Cho", "Dai"], TENHOU, {"format": "honba"})
    yield application
    application.close()


def hands(app: HonbaApp) -> list[object]:
    """The results stored, in order (deal passes and ends left out)."""
    return [fact for _, fact in app.get_match(KEY).history if isinstance(fact, WinResult | ExhaustiveDraw)]


def test_the_second_phone_s_entry_for_the_same_hand_is_refused_with_what_was_recorded(app: HonbaApp) -> None:
    first = recording.record(app, KEY, BEN_ON_CHO, client_key="phone-a:1", expect=ForHand(hand="E1-0"))
    assert first.state.hand_label == "E2-0"
    assert dict(zip(first.players, first.state.scores, strict=True))["Ben"] == 28_900

    with pytest.raises(HandTaken) as refused:
        recording.record(app, KEY, DAI_ON_ANN, client_key="phone-b:1", expect=ForHand(hand="E1-0"))
    assert str(refused.value) == "E1-0 was already recorded from another phone: Ben ron on Cho: 3 han 30 fu"
    assert refused.value.hand == "E2-0"
    # One hand stored: phone B's ron is not the next hand.
    assert hands(app) == [BEN_ON_CHO]


def test_an_entry_for_the_hand_now_is_recorded(app: HonbaApp) -> None:
    recording.record(app, KEY, BEN_ON_CHO, expect=ForHand(hand="E1-0"))
    recording.record(app, KEY, DAI_ON_ANN, expect=ForHand(hand="E2-0"))
    assert hands(app) == [BEN_ON_CHO, DAI_ON_ANN]


def test_a_retry_with_its_client_key_records_once_even_after_the_hand_moved_on(app: HonbaApp) -> None:
    """The answer to the first send was lost; the phone sends the same entry again, for E1-0."""
    recording.record(app, KEY, BEN_ON_CHO, client_key="phone-a:1", expect=ForHand(hand="E1-0"))
    again = recording.record(app, KEY, BEN_ON_CHO, client_key="phone-a:1", expect=ForHand(hand="E1-0"))
    assert again.state.hand_label == "E2-0"
    assert hands(app) == [BEN_ON_CHO]


def test_a_hand_the_table_never_reached_is_named(app: HonbaApp) -> None:
    with pytest.raises(HandTaken, match=r"^E3-0 is not the hand at this table: it is at E1-0$"):
        recording.record(app, KEY, BEN_ON_CHO, expect=ForHand(hand="E3-0"))
    assert hands(app) == []


def test_a_penalty_at_the_hand_leaves_it_current(app: HonbaApp) -> None:
    """A penalty does not play the hand: a win entered for it after the penalty is that hand's."""
    # 8,100: shared by the three others in whole 100-point sticks (8,000 would not be).
    chombo = Penalty(seat=3, amount=8100, share=PenaltyShare.TO_OTHERS)
    recording.penalise(app, KEY, chombo, expect=ForHand(hand="E1-0"))
    recording.record(app, KEY, BEN_ON_CHO, expect=ForHand(hand="E1-0"))
    assert hands(app) == [BEN_ON_CHO]


def test_the_version_read_must_be_the_match_s_version(app: HonbaApp) -> None:
    version = app.get_match(KEY).version
    recording.record(app, KEY, BEN_ON_CHO, expect=ForHand(version=version))
    with pytest.raises(HandTaken) as refused:
        recording.record(app, KEY, DAI_ON_ANN, expect=ForHand(version=version))
    assert str(refused.value).startswith(f"the match changed since version {version} ")
    assert str(refused.value).endswith("at E2-0): E1-0 Ben ron on Cho: 3 han 30 fu")
    assert hands(app) == [BEN_ON_CHO]


def test_entries_kept_offline_follow_the_one_sent_before_them(app: HonbaApp) -> None:
    """A phone offline kept three entries: the first for E1-0, each next for the hand after the one
    before it (which only the server works out). Sent in order, all three are recorded."""
    draw = ExhaustiveDraw(ready=(0,))
    recording.record(app, KEY, BEN_ON_CHO, client_key="k1", expect=ForHand(hand="E1-0"))
    recording.record(app, KEY, DAI_ON_ANN, client_key="k2", expect=ForHand(after="k1"))
    recording.record(app, KEY, draw, client_key="k3", expect=ForHand(after="k2"))
    assert hands(app) == [BEN_ON_CHO, DAI_ON_ANN, draw]
    # Sent again (the answer lost), the last records nothing more.
    recording.record(app, KEY, draw, client_key="k3", expect=ForHand(after="k2"))
    assert hands(app) == [BEN_ON_CHO, DAI_ON_ANN, draw]


def test_an_entry_kept_after_one_that_was_refused_is_refused_too(app: HonbaApp) -> None:
    """Phone B's first kept entry lost its hand to phone A; the one it kept after it names a hand
    nobody can say it meant: refused, nothing recorded, never landing on some later hand."""
    recording.record(app, KEY, BEN_ON_CHO, client_key="a1", expect=ForHand(hand="E1-0"))
    with pytest.raises(HandTaken):
        recording.record(app, KEY, DAI_ON_ANN, client_key="b1", expect=ForHand(hand="E1-0"))
    with pytest.raises(HandTaken, match="the entry sent before this one from this phone was not recorded"):
        recording.record(app, KEY, ExhaustiveDraw(ready=(0,)), client_key="b2", expect=ForHand(after="b1"))
    assert hands(app) == [BEN_ON_CHO]


def test_an_entry_after_a_key_when_another_was_recorded_since_is_refused(app: HonbaApp) -> None:
    recording.record(app, KEY, BEN_ON_CHO, client_key="a1")
    recording.record(app, KEY, DAI_ON_ANN, client_key="other")
    with pytest.raises(HandTaken):
        recording.record(app, KEY, ExhaustiveDraw(ready=(0,)), client_key="a2", expect=ForHand(after="a1"))


def test_a_stale_undo_does_not_take_back_another_phone_s_entry(app: HonbaApp) -> None:
    """Phone B, still at E1-0, taps undo meaning the hand before: phone A's E1-0 win stands."""
    recording.record(app, KEY, BEN_ON_CHO, expect=ForHand(hand="E1-0"))
    undo = entry_from_fields({"kind": "undo"})
    with pytest.raises(HandTaken):
        apply_entry(app, KEY, undo, client_key=None, expect=ForHand(hand="E1-0"))
    assert not app.get_match(KEY).correction_log
    # Entered for the hand now, it takes it back.
    apply_entry(app, KEY, undo, client_key=None, expect=ForHand(hand="E2-0"))
    assert app.get_match(KEY).state.hand_label == "E1-0"


def test_a_key_used_for_another_command_is_still_refused_as_such(app: HonbaApp) -> None:
    """The hand check lets a used key through to the aggregate, which tells a retry from a reuse."""
    recording.record(app, KEY, BEN_ON_CHO, client_key="k1", expect=ForHand(hand="E1-0"))
    with pytest.raises(RuleViolation, match="already used for a different command"):
        recording.record(app, KEY, DAI_ON_ANN, client_key="k1", expect=ForHand(hand="E1-0"))


def test_an_entry_for_the_last_hand_after_the_end_is_refused() -> None:
    """The match ended on E1-0 (a bust); a second phone's entry for E1-0 names what ended it."""
    application = HonbaApp.open(":memory:")
    recording.start_match(application, KEY, ["Ann", "Ben", "Cho", "Dai"], TENHOU, {"format": "honba"})
    busted = WinResult((Win(1, HandValue(limit="yakuman", multiple=2), discarder=2),))
    done = recording.record(application, KEY, busted, expect=ForHand(hand="E1-0"))
    assert done.state.finished
    with pytest.raises(HandTaken, match=r"^E1-0 was already recorded from another phone: Ben ron on Cho"):
        recording.record(application, KEY, DAI_ON_ANN, expect=ForHand(hand="E1-0"))
    application.close()


def test_the_command_line_s_expect_refuses_a_hand_already_taken(tmp_path: Path) -> None:
    """``honba win --expect E1-0`` after E1-0 was recorded: one line, exit 2, nothing recorded."""
    honba = Honba(tmp_path / "honba.sqlite", KEY)
    honba.ok("start", KEY, "--players", "Ann,Ben,Cho,Dai")
    honba.ok("win", KEY, "Ben:3/30", "--from", "Cho", "--expect", "E1-0")
    line = honba.refused_as_it_was("win", KEY, "Dai:2/30", "--from", "Ann", "--expect", "E1-0")
    assert line == "honba: E1-0 was already recorded from another phone: Ben ron on Cho: 3 han 30 fu"
    assert honba.refused_as_it_was("draw", KEY, "--expect", "E1-0").startswith("honba: E1-0 was already")
    honba.ok("draw", KEY, "--ready", "Ann", "--expect", "E2-0")
    # Ben, the dealer at E2, was not ready: the deal passes, and a draw adds a counter.
    assert honba.json("status", KEY)["hand"] == "E3-1"


def test_under_rules_without_counters_a_dealer_s_repeat_is_a_hand_of_its_own() -> None:
    """Hong Kong's rules count no counters: the dealer's repeat is shown as E1 again, and named
    E1+1 by an entry, so a second phone's entry for the first E1 is refused all the same."""
    application = HonbaApp.open(":memory:")
    recording.start_match(application, KEY, ["Ann", "Ben", "Cho", "Dai"], load_preset("hong-kong"), {})
    dealer_wins = entry_from_fields({"kind": "win", "winner": "Ann", "value": "3faan"})
    done = apply_entry(application, KEY, dealer_wins, client_key=None, expect=ForHand(hand="E1"))
    assert done.state.hand_label == "E1"
    assert recording.hand_now(done.state) == "E1+1"
    ben_wins = entry_from_fields({"kind": "win", "winner": "Ben", "discarder": "Cho", "value": "3faan"})
    with pytest.raises(HandTaken, match=r"^E1 was already recorded from another phone: Ann tsumo: 3 faan$"):
        apply_entry(application, KEY, ben_wins, client_key=None, expect=ForHand(hand="E1"))
    apply_entry(application, KEY, ben_wins, client_key=None, expect=ForHand(hand="E1+1"))
    assert len(hands(application)) == 2
    application.close()
