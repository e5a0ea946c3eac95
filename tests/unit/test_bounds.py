"""Bounds in the domain, once: every number and text honba records has a range, checked where every
front end's input goes through (the Match's and the Tournament's commands), refused in one line
naming the field (issue 24, "Values nobody can mean are stored").

The ranges are those docs/rules.md ("Bounds") gives with their reasons; the numbers that cannot be
meant come from the issue (a penalty of 99,999,999,999,999,999,999,999, sessions and dora of
10^23, ``Ben:1000xyakuman`` paid as 6x).
"""

from __future__ import annotations

import math

import pytest
from conftest import TENHOU, changes, hv, table

from domain.bounds import (
    FU,
    LONGEST_NUMBER,
    NAME,
    PENALTY_AMOUNT,
    SCORE,
    SESSION,
    YAKUMAN_MULTIPLE,
    OutOfBounds,
    TextBound,
    unprintable,
    whole_number,
)
from domain.draw import commitment_of, drawn_seating
from domain.errors import InvalidRules, RuleViolation
from domain.match import Match
from domain.rules import Ruleset, load_preset
from domain.stages import EMA_SUBSTITUTE, EventFormat, Stage, SubstituteRule, parse_stage
from domain.tournament import Tournament
from domain.values import HandValue, Penalty, PenaltyShare, TableState, Win, WinFacts, WinResult

PLAYERS = ("Ann", "Ben", "Cho", "Dai")
HUGE = 10**23


def started(rules: str = "tenhou") -> Match:
    return Match.start("m", PLAYERS, load_preset(rules))


NO_FACTS = WinFacts()


def ron(value: HandValue, facts: WinFacts = NO_FACTS) -> WinResult:
    return WinResult((Win(1, value, discarder=0, facts=facts),))


# The one number parser.


@pytest.mark.parametrize("text", ["²", "٣", "\uff13", "1²", "1_000", "0x10", "1e3", "", " ", "+", "-", "1.0", "½"])
def test_a_number_is_ascii_digits_only(text: str) -> None:
    with pytest.raises(OutOfBounds, match=r"^session: .* is not a whole number \(digits 0-9\)$"):
        whole_number(text, SESSION)


def test_unicode_digits_that_python_reads_are_refused_too() -> None:
    # int() reads Arabic-Indic and full-width digits; a user who sends them means nothing honba records.
    assert int("٣") == 3 and int("\uff13") == 3
    for text in ("٣", "\uff13"):
        with pytest.raises(OutOfBounds):
            whole_number(text, SESSION)


def test_a_number_too_long_is_refused_before_python_reads_it() -> None:
    # 5000 digits: beyond int()'s own limit of 4,300 digits, which raises a bare ValueError.
    with pytest.raises(OutOfBounds, match=f"too long for a number \\(at most {LONGEST_NUMBER} characters\\)"):
        whole_number("9" * 5000, SESSION)
    with pytest.raises(OutOfBounds, match="at most"):
        whole_number("0" * (LONGEST_NUMBER + 1), SESSION)


def test_a_sign_only_where_the_field_may_be_negative() -> None:
    assert whole_number("-12000", SCORE) == -12000
    assert whole_number("+12000", SCORE) == 12000
    with pytest.raises(OutOfBounds, match="digits 0-9\\)"):
        whole_number("-1", SESSION)
    with pytest.raises(OutOfBounds):
        whole_number("+1", SESSION)


def test_a_number_is_held_to_its_fields_range_and_the_error_names_the_field() -> None:
    assert whole_number(" 7 ", SESSION) == 7
    assert whole_number("0007", SESSION) == 7
    with pytest.raises(OutOfBounds) as refused:
        whole_number("1001", SESSION, "--session")
    assert str(refused.value) == "--session: 1001 is out of range (1 to 1,000)"
    assert (refused.value.field, refused.value.problem) == ("--session", "1001 is out of range (1 to 1,000)")


# Text: one line of printable text of a bounded length.


@pytest.mark.parametrize(
    "character",
    ["\n", "\r", "\t", "\x1b", "\x00", "\x7f", "\x85", "\u2028", "\u2029", "\u202e", "\u2066", "\u200f", "\udcff"],
)
def test_control_characters_make_text_more_than_one_line(character: str) -> None:
    assert unprintable(f"Ann{character}") == character
    with pytest.raises(OutOfBounds, match=f"U\\+{ord(character):04X}: it must be one line of text"):
        NAME.check(f"Ann{character}Ben", "player 1's name")


def test_every_control_separator_surrogate_and_bidirectional_control_is_found_and_nothing_else() -> None:
    # Every code point: the C0 and C1 controls with DEL, the lone surrogates, the line and paragraph
    # separators and the twelve bidirectional controls are each found first; no other one is.
    bidi = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]
    refused = {*range(32), *range(127, 160), *range(0xD800, 0xE000), 0x2028, 0x2029, *bidi}
    assert len(refused) == 32 + 33 + 2048 + 2 + 12
    for code in sorted(refused):
        assert unprintable(f"Ann{chr(code)}Ben{chr(0x202E)}") == chr(code)
    assert unprintable("".join(chr(code) for code in range(0x110000) if code not in refused)) is None


@pytest.mark.parametrize("name", ["Ann", "Zoë", "李 明", "Nguyễn", "👩‍👩‍👧", "ア" * 64, "Ann (2)", "<i>x</i>"])
def test_names_in_any_script_are_text(name: str) -> None:
    # Zero-width joiners (emoji, Indic and Persian names) are text, not controls.
    assert NAME.check(name) == name


def test_text_has_a_length_limit() -> None:
    with pytest.raises(OutOfBounds, match=r"^note: 201 characters, at most 200"):
        TextBound("note", 200).check("x" * 201)


# Where they are enforced: the Match's commands.


def test_a_match_with_a_name_on_two_lines_is_refused_naming_the_player() -> None:
    with pytest.raises(OutOfBounds, match=r"^player 2's name: 'B\\nen' holds the control character U\+000A"):
        Match.start("m", ("Ann", "B\nen", "Cho", "Dai"), TENHOU)
    with pytest.raises(OutOfBounds, match=r"^match key: .*U\+001B"):
        Match.start("m\x1b[31m", PLAYERS, TENHOU)
    with pytest.raises(OutOfBounds, match=r"^player 1's name: 65 characters, at most 64"):
        Match.start("m", ("A" * 65, "Ben", "Cho", "Dai"), TENHOU)


def test_a_client_key_a_referee_and_a_reason_are_one_line_each() -> None:
    match = started()
    with pytest.raises(OutOfBounds, match=r"^client key: "):
        match.record(ron(hv(3, 30)), client_key="k\n1")
    match.record(ron(hv(3, 30)))
    with pytest.raises(OutOfBounds, match=r"^correction reason: "):
        match.void(2, by="Ref", reason="typo\x1b[2J")
    with pytest.raises(OutOfBounds, match=r"^correction by: "):
        match.void(2, by="R" * 65, reason="typo")
    with pytest.raises(OutOfBounds, match=r"^end reason: "):
        match.end("time\nlimit")
    assert match.version == 3  # start, the win, the deal pass: nothing of the refused commands


def test_no_penalty_above_what_any_table_could_hold() -> None:
    match = started()
    with pytest.raises(OutOfBounds, match=r"^penalty amount: 99999999999999999999999 is out of range"):
        match.penalise(Penalty(3, 99_999_999_999_999_999_999_999))
    with pytest.raises(OutOfBounds, match=r"^penalty note: "):
        match.penalise(Penalty(3, 8000, note="x" * 201))
    # Off the table (whole 100-point sticks: shared by three, 4,000,000 would not be whole sticks each).
    match.penalise(Penalty(3, PENALTY_AMOUNT.high, share=PenaltyShare.OFF_TABLE))


def test_a_yakuman_counted_more_times_than_any_table_counts_is_refused_not_paid_as_six() -> None:
    # Issue 24: "Ben:1000xyakuman is labelled 1000x but paid 6x". Six is the most a table counts.
    match = started()
    with pytest.raises(OutOfBounds, match=r"^yakuman multiple: 1000 is out of range \(1 to 6\)"):
        match.record(ron(hv(limit="yakuman", multiple=1000)))
    match.record(ron(hv(limit="yakuman", multiple=YAKUMAN_MULTIPLE.high)))
    # Six yakuman of a non-dealer on a discard: 6 x 32,000.
    assert match.state.scores == (25000 - 192000, 25000 + 192000, 25000, 25000)


def test_rules_that_count_fewer_yakuman_pay_what_they_count() -> None:
    # WRC counts every yakuman once (riichi.wiki); the hand is recorded as it was, paid as the rules say.
    wrc = load_preset("wrc")
    assert changes(ron(hv(limit="yakuman", multiple=2)), table(wrc, scores=[30000] * 4), wrc) == (-32000, 32000, 0, 0)


def test_dora_and_counts_of_ten_to_the_twenty_three_are_refused() -> None:
    match = started()
    with pytest.raises(RuleViolation, match="dora cannot be more than the hand's 3 han"):
        match.record(ron(HandValue(han=3, fu=30, dora=HUGE)))
    with pytest.raises(OutOfBounds, match=r"^fu: 171 is out of range \(0 to 170\)"):
        match.record(ron(HandValue(han=5, fu=FU.high + 1)))
    with pytest.raises(RuleViolation, match=r"melded sets"):
        match.record(ron(hv(3, 30), WinFacts(melded_sets=HUGE)))
    assert match.version == 1


def test_a_hand_under_rules_without_a_limit_is_bounded_before_it_is_scored() -> None:
    # Taiwanese rules have no Limit: 10^23 tai would be paid as they are.
    match = started("taiwanese")
    with pytest.raises(OutOfBounds, match=r"^points: .* is out of range \(0 to 1,000,000\)"):
        match.record(WinResult((Win(1, HandValue(points=HUGE), discarder=0),)))
    match.record(WinResult((Win(1, HandValue(points=20), discarder=0),)))
    # Classical rules with their Limit taken off: a double more doubles again, without end.
    unlimited = Match.start("m", PLAYERS, load_preset("japanese-classical").with_overrides({"limit": 0}))
    with pytest.raises(OutOfBounds, match=r"^doubles: .* is out of range \(0 to 64\)"):
        unlimited.record(WinResult((Win(1, HandValue(points=20, doubles=HUGE), discarder=0),)))
    with pytest.raises(OutOfBounds, match=r"^hand score: "):
        unlimited.record(WinResult((Win(1, HandValue(points=1000, doubles=64), discarder=0),)))
    # Hong Kong without its Limit and settling table: the base doubled per faan.
    no_laak = Match.start("m", PLAYERS, load_preset("hong-kong").with_overrides({"limit": 0, "settling_table": []}))
    with pytest.raises(OutOfBounds, match=r"^faan: .* is out of range \(0 to 64\)"):
        no_laak.record(WinResult((Win(1, HandValue(faan=HUGE), discarder=0),)))


def test_loser_scores_and_a_hands_penalty_are_bounded() -> None:
    match = started("chinese-classical")
    with pytest.raises(OutOfBounds, match=r"^loser score: "):
        match.record(WinResult((Win(1, HandValue(points=20), discarder=0, loser_scores=(0, 20, HUGE, 0)),)))


def test_an_opening_table_beyond_any_match_is_refused() -> None:
    opening = TableState(players=4, scores=(25000,) * 4, counters=HUGE)
    with pytest.raises(OutOfBounds, match=r"^opening counters: "):
        Match.start("m", PLAYERS, TENHOU, opening=opening)
    opening = TableState(players=4, scores=(HUGE, 25000, 25000, 25000))
    with pytest.raises(OutOfBounds, match=r"^opening score: "):
        Match.start("m", PLAYERS, TENHOU, opening=opening)


# The Tournament's commands.


def test_sessions_and_tables_of_a_tournament_are_bounded() -> None:
    tournament = Tournament.create("Spring", PLAYERS)
    with pytest.raises(OutOfBounds, match=r"^session: 100000000000000000000000 is out of range \(1 to 1,000\)"):
        tournament.plan_session(HUGE, [list(PLAYERS)])
    with pytest.raises(OutOfBounds, match=r"^session: "):
        tournament.attach("m", PLAYERS, HUGE)
    with pytest.raises(OutOfBounds, match=r"^table: "):
        tournament.attach("m", PLAYERS, 1, HUGE)
    tournament.attach("m", PLAYERS, SESSION.high, 1)


def test_tournament_names_players_and_aliases_are_one_line() -> None:
    with pytest.raises(OutOfBounds, match=r"^tournament name: "):
        Tournament.create("Spring\r\nSet-Cookie: x")
    with pytest.raises(OutOfBounds, match=r"^player name: "):
        Tournament.create("Spring", ["Ann", "B\u202eneB"])
    tournament = Tournament.create("Spring", PLAYERS)
    with pytest.raises(OutOfBounds, match=r"^alias: "):
        tournament.declare_alias("An\tn", "Ann")
    with pytest.raises(OutOfBounds, match=r"^player name: "):
        tournament.register("\x00")


def test_a_tournament_lists_at_most_the_players_a_session_can_seat() -> None:
    # 5,000 pasted players made a tournament that no session could ever seat (at most 1,000 tables).
    with pytest.raises(OutOfBounds, match=r"^players: 4,001 listed, at most 4,000"):
        Tournament.create("Big", [f"P{n}" for n in range(4001)])
    assert len(Tournament.create("Big", [f"P{n}" for n in range(4000)]).players) == 4000


def test_a_tournament_name_holds_no_slash_for_it_ends_its_web_address() -> None:
    with pytest.raises(OutOfBounds, match=r"^tournament name: '<i>t</i>' holds '/': a tournament's name is the end of"):
        Tournament.create("<i>t</i>", PLAYERS)
    assert Tournament.create("<i>t?#%", PLAYERS).name == "<i>t?#%"
    # "/tournaments/.." is "/" to a browser: the director's link to it opened the home page.
    for name in (".", "..", " .. "):
        with pytest.raises(OutOfBounds, match=r"cannot be a name: a tournament's name is the end of its web address"):
            Tournament.create(name, PLAYERS)
    assert Tournament.create("...", PLAYERS).name == "..."


def test_a_new_match_key_holds_no_slash_for_it_is_a_part_of_its_web_addresses() -> None:
    # "club/audit" would read as the audit page of "club" (/matches/club/audit).
    with pytest.raises(OutOfBounds, match=r"^match key: 'club/audit' holds '/': a match's key is a part of its web"):
        Match.start("club/audit", PLAYERS, TENHOU)
    assert Match.start("club audit #3?", PLAYERS, TENHOU).key == "club audit #3?"
    with pytest.raises(OutOfBounds, match=r"^match key: '\.\.' cannot be a name"):
        Match.start("..", PLAYERS, TENHOU)


# The staged events' commands (issue 27's): the same bounds, names and reasons as one line.


def test_a_withdrawal_is_after_a_session_there_can_be_and_says_why_on_one_line() -> None:
    tournament = Tournament.create("Spring", PLAYERS)
    with pytest.raises(OutOfBounds, match=r"^after session: 100000000000000000000000 is out of range \(0 to 1,000\)"):
        tournament.withdraw("Ann", HUGE, "ill")
    with pytest.raises(OutOfBounds, match=r"^reason: 'ill\\nSet-Cookie: x' holds the control character U\+000A"):
        tournament.withdraw("Ann", 1, "ill\nSet-Cookie: x")
    tournament.withdraw("Ann", SESSION.high, "ill")


def test_a_substitutes_and_a_teams_name_are_names() -> None:
    tournament = Tournament.create("Spring", PLAYERS)
    with pytest.raises(OutOfBounds, match=r"^substitute's name: 65 characters, at most 64"):
        tournament.seat_substitute("S" * 65, "Ann", "ill")
    with pytest.raises(OutOfBounds, match=r"^reason: "):
        tournament.seat_substitute("Sam", "Ann", "\x1b[2Jill")
    with pytest.raises(OutOfBounds, match=r"^team name: 'Red\\u202eTeam' holds the control character U\+202E"):
        tournament.join_team("Ann", "Red\u202eTeam")
    tournament.join_team("Ann", "R" * NAME.longest)
    assert tournament.teams == {"Ann": "R" * NAME.longest}


def test_a_draw_is_of_a_session_there_can_be() -> None:
    tournament = Tournament.create("Spring", PLAYERS)
    with pytest.raises(OutOfBounds, match=r"^session: 100000000000000000000000 is out of range"):
        tournament.commit_draw(HUGE, commitment_of("0" * 64))
    with pytest.raises(OutOfBounds, match=r"^session: 0 is out of range"):
        tournament.reveal_draw(0, "0" * 64, PLAYERS, [list(PLAYERS)])
    assert tournament.draws == {}


def test_a_draw_seats_tables_of_three_or_four_named_players() -> None:
    seed = "0" * 64
    with pytest.raises(OutOfBounds, match=r"^players a table: 0 is out of range \(3 to 4\)"):
        drawn_seating(seed, PLAYERS, 0)  # before: ZeroDivisionError
    with pytest.raises(OutOfBounds, match=r"^player name: 'A\\nB' holds"):
        drawn_seating(seed, ["A\nB", "Ben", "Cho", "Dai"])
    assert sorted(drawn_seating(seed, PLAYERS[:3], 3)[0]) == sorted(PLAYERS[:3])


def test_a_ranking_weighs_an_event_of_a_day_to_a_month_and_up_to_300_countries() -> None:
    tournament = Tournament.create("Spring", PLAYERS)
    with pytest.raises(OutOfBounds, match=r"^days: 31 is out of range \(1 to 30\)"):
        tournament.declare_ranking_facts("2026-11-21", 31, 10, False)
    with pytest.raises(OutOfBounds, match=r"^countries: 100000000000000000000000 is out of range \(0 to 300\)"):
        tournament.declare_ranking_facts("2026-11-21", 2, HUGE, False)
    tournament.declare_ranking_facts("2026-11-21", 30, 300, True)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("qualifier:²", r"^stage 'qualifier': sessions: '²' is not a whole number"),  # before: ValueError
        ("qualifier:" + "9" * 5000, r"^stage 'qualifier': sessions: '9+\.\.\. is too long for a number"),
        ("qualifier:1001", r"^stage 'qualifier': sessions: 1001 is out of range \(1 to 1,000\)"),
        ("qualifier:2:advance=٣", r"^stage 'qualifier': advance: '٣' is not a whole number"),
        ("Q" * 65 + ":2", r"^stage name: 65 characters, at most 64"),
        ("qual\nifier:2", r"^stage name: 'qual\\nifier' holds the control character U\+000A"),
    ],
)
def test_a_stages_numbers_are_read_as_every_number_and_its_name_is_a_name(text: str, says: str) -> None:
    with pytest.raises(OutOfBounds, match=says):
        parse_stage(text)


def test_an_events_format_is_bounded_before_it_is_declared() -> None:
    tournament = Tournament.create("Spring", PLAYERS)
    long = EventFormat((Stage("qualifier", 600, advance=16), Stage("final", 401)))
    with pytest.raises(OutOfBounds, match=r"^sessions: 1,001 in all, at most 1,000"):
        tournament.declare_format(long)
    many = EventFormat((Stage("qualifier", 2, advance=HUGE), Stage("final", 1)))
    with pytest.raises(OutOfBounds, match=r"^stage 'qualifier': advance: 100000000000000000000000 is out of range"):
        tournament.declare_format(many)
    for points in (math.nan, math.inf, 1_000.5, -(10.0**308)):
        substitutes = SubstituteRule("fixed", points)
        with pytest.raises(OutOfBounds, match=r"^substitute's points: "):  # before: nan stored
            tournament.declare_format(EventFormat((Stage("qualifier", 2),), substitutes))
    assert tournament.format is None
    tournament.declare_format(EventFormat((Stage("qualifier", 999, advance=4), Stage("final", 1)), EMA_SUBSTITUTE))


# New rules.


def test_new_rules_have_a_name_of_one_line_and_uma_of_a_sensible_size() -> None:
    with pytest.raises(InvalidRules, match=r"--set: rule 'uma': .* is out of range \(-1,000 to 1,000\)"):
        TENHOU.with_overrides({"uma": [10**20, 0, 0, -(10**20)]}, source="--set")
    with pytest.raises(InvalidRules, match="rule 'name': "):
        TENHOU.with_overrides({"name": "club\nrules"}, source="--set")
    # A stored match's rules are history: read as they are.
    stored = {**TENHOU.to_dict(), "uma": [2000, 0, 0, -2000]}
    assert Ruleset.from_stored(stored).uma == (2000, 0, 0, -2000)
