"""User rule files: TOML that starts from a preset and changes named values.

Issue 4, point 10: "A user rule file (TOML) starts from a preset and overrides values;
unknown keys and values out of range (for example a bonus of 0 or 2,001) are refused
with the key named." Seeds 000 and 001: both bonuses "can be specified as points from
1 to 2,000".
"""

from __future__ import annotations

import pytest

from domain.errors import InvalidRules
from domain.rules import load_preset, parse_rule_text, rules_diff

WRC_HOUSE_RULES = """
# Our club plays the WRC rules with double ron and a chombo shared by the others.
base = "wrc"
name = "club-wrc"
description = "WRC rules, club variant"
multiple_ron = 2
chombo_share = "to_others"
uma = [20, 10, -10, -20]

[sources]
rules = "club meeting, 2024"
"""


def test_a_rule_file_starts_from_its_base_preset_and_changes_only_what_it_names() -> None:
    rules = parse_rule_text(WRC_HOUSE_RULES, source="club.toml")
    changed = {key: (old, new) for key, old, new in rules_diff(load_preset("wrc"), rules)}
    assert changed == {
        "name": ("wrc", "club-wrc"),
        "description": (load_preset("wrc").description, "WRC rules, club variant"),
        "multiple_ron": (1, 2),
        "chombo_share": ("off_table", "to_others"),
        "uma": ([15, 5, -5, -15], [20, 10, -10, -20]),
    }
    # Everything else is the WRC's: 30,000 start and target, no oka.
    assert (rules.start_score, rules.return_score, rules.oka) == (30000, 30000, 0)


def test_the_sources_table_documents_and_is_not_a_rule() -> None:
    rules = parse_rule_text(WRC_HOUSE_RULES, source="club.toml")
    assert "sources" not in rules.to_dict()


def test_a_rule_file_without_a_base_states_every_value_it_needs() -> None:
    rules = parse_rule_text('name = "plain"\nstart_score = 30000\n', source="plain.toml")
    assert (rules.name, rules.start_score) == ("plain", 30000)


def test_an_unknown_rule_is_refused_with_its_name() -> None:
    with pytest.raises(InvalidRules, match=r"club\.toml: unknown rule 'double_ron'"):
        parse_rule_text('base = "wrc"\ndouble_ron = true\n', source="club.toml")


def test_an_unknown_base_preset_is_refused_with_its_name() -> None:
    with pytest.raises(InvalidRules, match="unknown rules preset 'world-riichi'"):
        parse_rule_text('base = "world-riichi"\n', source="club.toml")


def test_a_base_that_is_not_a_preset_name_is_refused() -> None:
    with pytest.raises(InvalidRules, match="'base' must name a preset"):
        parse_rule_text("base = 3\n", source="club.toml")


def test_a_file_that_is_not_toml_is_refused() -> None:
    with pytest.raises(InvalidRules, match=r"club\.toml: not valid TOML"):
        parse_rule_text('base = "wrc\n', source="club.toml")


@pytest.mark.parametrize("key", ["extra_hand_bonus", "dealer_bonus"])
@pytest.mark.parametrize("value", [0, 2001])
def test_a_bonus_outside_1_to_2000_is_refused_with_its_name(key: str, value: int) -> None:
    # Seeds 000 and 001: "The amount of bonus can be specified as points from 1 to 2,000."
    with pytest.raises(InvalidRules, match=rf"club\.toml: rule '{key}': {value} is out of range \(1 to 2000\)"):
        parse_rule_text(f'base = "wrc"\n{key} = {value}\n', source="club.toml")


@pytest.mark.parametrize("key", ["extra_hand_bonus", "dealer_bonus"])
@pytest.mark.parametrize("value", [1, 2000])
def test_a_bonus_of_1_or_2000_is_accepted(key: str, value: int) -> None:
    rules = parse_rule_text(f'base = "taiwanese"\n{key} = {value}\n', source="club.toml")
    assert getattr(rules, key) == value


def test_a_value_of_the_wrong_kind_is_refused_with_its_name() -> None:
    with pytest.raises(InvalidRules, match="rule 'bust': 'no' is not true or false"):
        parse_rule_text('base = "wrc"\nbust = "no"\n', source="club.toml")


def test_a_value_outside_its_choices_is_refused_with_its_name() -> None:
    with pytest.raises(InvalidRules, match="rule 'loser_payment': 'winner_pays' is not one of"):
        parse_rule_text('base = "hong-kong"\nloser_payment = "winner_pays"\n', source="club.toml")


def test_uma_must_sum_to_zero() -> None:
    with pytest.raises(InvalidRules, match="rule 'uma'"):
        parse_rule_text('base = "wrc"\numa = [15, 5, -5, -10]\n', source="club.toml")


def test_a_rule_file_may_start_from_a_preset_that_has_a_base_itself() -> None:
    # ema.toml starts from wrc.toml; a club file can start from ema.
    rules = parse_rule_text('base = "ema"\nkiriage_mangan = true\n', source="club.toml")
    assert (rules.multiple_ron, rules.kiriage_mangan, rules.start_score) == (3, True, 30000)
