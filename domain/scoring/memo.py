"""What the scoring works out from the rules and a hand's own numbers alone, kept per set of rules.

A hand value's checks (``domain.scoring.checks.check_value``) and what the losers pay for it
(``domain.scoring.payments.hand_value_payments``) depend on the rules and on the value, the seats
and the dealer, never on the rest of the table: an import scores thousands of hands under a
handful of rule sets with a few dozen distinct values (1 han 30 fu, mangan, ...), so each is worked
out once per set of rules and looked up after. The rules are frozen values; a ``RulesMemo`` is
found by the rules object (``rules_memo``), and rules of the same values under another description
(a Tenhou log's rules carry its hour) share one.
"""

from __future__ import annotations

import operator
import weakref
from typing import Any

import attrs

from domain.rules import Ruleset
from domain.values import HandValue, Payment

# The rule values that say how a hand is checked and paid: every field but the description (the
# name stays: a refusal names the rules, and a refusal is never kept).
_SCORING_FIELDS = tuple(field.name for field in attrs.fields(Ruleset) if field.name != "description")
# Their values, read in one call in C (once per rules object: a log's rules are its own, named with its hour).
_SCORING_VALUES = operator.attrgetter(*_SCORING_FIELDS)
# Every field of a hand value, read in one call (``value_key``).
_VALUE_NUMBERS = operator.attrgetter(*(field.name for field in attrs.fields(HandValue)))
# At most this many values kept per set of rules (riichi has about 60; a rule family counting
# points has more): beyond it a value is worked out each time, as before.
MEMO_SIZE = 1024
# At most this many sets of rule values kept (an import's few; a server's presets and matches).
RULESETS_KEPT = 256


@attrs.define(eq=False)
class RulesMemo:
    """One set of rules' values worked out: the hand values that passed their checks (by
    ``value_key``, with whether self-drawn), the losers' payments of a hand's value by its key and
    seats (``hand_value_payments``), the extra-hand bonus, the riichi sticks. Only what passed is
    kept: a refusal is said each time."""

    checked: set[tuple[Any, ...]] = attrs.Factory(set)
    payments: dict[tuple[Any, ...], tuple[Payment, ...]] = attrs.Factory(dict)
    # The extra-hand bonus by its count and the seats (``extra_hand_bonus``), and the riichi stick
    # each seat places.
    bonuses: dict[tuple[Any, ...], tuple[Payment, ...]] = attrs.Factory(dict)
    sticks: dict[int, Payment] = attrs.Factory(dict)


# Rules objects by ``id()``, each with a weak reference to it (an id is reused once its object is
# gone: the reference says whether it is still the same rules) and its memo; and the memos by the
# rule values, for rules objects of the same values (each match's start may make its own).
_BY_OBJECT: dict[int, tuple[weakref.ref[Ruleset], RulesMemo]] = {}
_BY_VALUES: dict[tuple[Any, ...], RulesMemo] = {}


def rules_memo(rules: Ruleset) -> RulesMemo:
    """The memo of these rules (the same for rules of the same values but the description)."""
    found = _BY_OBJECT.get(id(rules))
    if found is not None and found[0]() is rules:
        return found[1]
    return _memo_of_new(rules)


def _memo_of_new(rules: Ruleset) -> RulesMemo:
    values: tuple[Any, ...] = _SCORING_VALUES(rules)
    memo = _BY_VALUES.get(values)
    if memo is None:
        if len(_BY_VALUES) >= RULESETS_KEPT:
            _BY_VALUES.clear()
        memo = _BY_VALUES[values] = RulesMemo()
    key = id(rules)
    kept = _BY_OBJECT

    def let_go(_gone: weakref.ref[Ruleset]) -> None:
        # The entry goes with the rules object (its id may then be another object's). The table is
        # held here itself: rules let go as the interpreter shuts down still find it.
        kept.pop(key, None)

    _BY_OBJECT[key] = (weakref.ref(rules, let_go), memo)
    return memo


def value_key(value: HandValue) -> tuple[Any, ...]:
    """A hand value's numbers with their types: equal keys only for values that are the same to
    every check and every note (``True`` equals 1 and ``3.0`` equals 3 as numbers, but neither is a
    count a check lets through as one, nor is written as one). Every field of ``HandValue``, read
    from its class: a field added to it is in the key without a word here.

    Kept by the value object (frozen: its key never changes), which is held with it so that its
    ``id()`` is no other object's: a win's value is asked for by its checks and by its payments, and
    a log reader makes each value once and shares it among the wins of that value (the Tenhou
    reader's few hundred for an archive)."""
    kept = _KEYS.get(id(value))
    if kept is not None and kept[0] is value:
        return kept[1]
    numbers = _VALUE_NUMBERS(value)
    key = (*numbers, *map(type, numbers))
    if len(_KEYS) >= VALUES_KEPT:
        _KEYS.clear()
    _KEYS[id(value)] = (value, key)
    return key


# The keys of the hand values asked for (``value_key``), each with its value, by the value's ``id()``:
# all let go at once beyond this many.
_KEYS: dict[int, tuple[HandValue, tuple[Any, ...]]] = {}
VALUES_KEPT = 1024
