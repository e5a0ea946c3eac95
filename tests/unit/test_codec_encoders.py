"""``to_data``'s encoder of each value class, written out once per class, gives what a loop over the
class's fields gives: every field read, those at their default left out, the plain ones as they are;
``Ruleset.to_dict``, reading the fields one by one, what ``attrs.asdict`` gave."""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import domain.codec as codec
from domain.codec import VALUE_CLASSES, to_data, value_fields, write_encoders
from domain.rules import Ruleset, load_preset
from domain.values import HandValue, Payment, Reason, TableState, Win, WinDetails, WinResult, Yaku

_SCALARS = (str, int, float, bool, type(None))
PRESETS = Path(__file__).resolve().parents[2] / "domain" / "presets"


def _by_loop(value: Any) -> Any:
    """``to_data`` as a loop over the fields (what it was before each class had its own encoder)."""
    if type(value) in _SCALARS:
        return value
    fields = value_fields(type(value))
    if fields is not None:
        out = {}
        for name, default in fields:
            item = getattr(value, name)
            if default is not attrs.NOTHING and item == default:
                continue
            out[name] = _by_loop(item)
        return out
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_by_loop(item) for item in value]
    return value


def test_every_value_class_has_fields_to_encode() -> None:
    assert all(value_fields(cls) for cls in VALUE_CLASSES)


@given(
    st.builds(
        WinResult,
        wins=st.lists(
            st.builds(
                Win,
                winner=st.integers(0, 3),
                value=st.builds(HandValue, han=st.integers(1, 13), fu=st.sampled_from([20, 30, 40])),
                details=st.none()
                | st.builds(
                    WinDetails,
                    yaku=st.lists(st.builds(Yaku, name=st.text(max_size=5), han=st.integers(0, 13)), max_size=3).map(
                        tuple
                    ),
                ),
            ),
            min_size=1,
            max_size=2,
        ).map(tuple),
        riichi=st.lists(st.integers(0, 3), max_size=2, unique=True).map(tuple),
    )
)
def test_a_win_is_encoded_as_the_loop_encodes_it(result: WinResult) -> None:
    assert to_data(result) == _by_loop(result)


def test_fields_at_their_default_are_left_out_and_the_others_kept() -> None:
    state = TableState(players=4, scores=(25000, 25000, 25000, 25000))
    assert to_data(state) == _by_loop(state)
    assert "final_points" not in to_data(state)
    # An enum written by its value, a field at its default ('' note) left out.
    payment = Payment(payer=0, payee=None, amount=1000, reason=Reason.HAND)
    assert to_data(payment) == _by_loop(payment) == {"payer": 0, "payee": None, "amount": 1000, "reason": "hand value"}


def test_encoders_written_ahead_encode_as_those_written_at_the_first_value(monkeypatch: pytest.MonkeyPatch) -> None:
    # An import's fork server writes them before it forks the reading workers (issue 36, twelfth round).
    win = WinResult(
        wins=(
            Win(winner=1, value=HandValue(han=3, fu=30), details=WinDetails(yaku=(Yaku(name="立直", han=1),))),
            Win(winner=2, discarder=0, value=HandValue(han=1, fu=30)),
        ),
        riichi=(1,),
    )
    state = TableState(players=4, scores=(25000, 25000, 25000, 25000))
    monkeypatch.setattr(codec, "_ENCODERS", {})
    write_encoders()
    written = dict(codec._ENCODERS)
    assert set(written) == set(VALUE_CLASSES)
    assert all(written[cls] is not codec._NOT_A_VALUE for cls in VALUE_CLASSES)
    ahead = (to_data(win), to_data(state))
    assert written == codec._ENCODERS  # nothing written at the values
    monkeypatch.setattr(codec, "_ENCODERS", {})
    assert ahead == (to_data(win), to_data(state)) == (_by_loop(win), _by_loop(state))


def _rules_by_asdict(rules: Ruleset) -> dict[str, Any]:
    """``Ruleset.to_dict`` as ``attrs.asdict`` wrote it before it read the fields one by one."""
    data = attrs.asdict(rules)
    data["uma"] = list(rules.uma)
    data["settling_table"] = [list(row) for row in rules.settling_table]
    data["uma_floating"] = [list(row) for row in rules.uma_floating]
    data["table_points"] = list(rules.table_points)
    data["special_hands"] = list(rules.special_hands)
    return data


@pytest.mark.parametrize("name", sorted(p.stem for p in PRESETS.glob("*.toml")))
def test_every_preset_s_rules_are_written_as_asdict_wrote_them(name: str) -> None:
    rules = load_preset(name)
    found, expected = rules.to_dict(), _rules_by_asdict(rules)
    assert found == expected and list(found) == list(expected)
    assert [type(value) for value in found.values()] == [type(value) for value in expected.values()]


@pytest.mark.parametrize("name", sorted(p.stem for p in PRESETS.glob("*.toml")))
def test_every_preset_s_rules_retitled_are_its_rules_with_that_description_each_value_the_same_object(
    name: str,
) -> None:
    rules = load_preset(name)
    copied = rules.retitled("a log of 2009-01-01 10:00")
    assert copied == attrs.evolve(rules, description="a log of 2009-01-01 10:00")
    assert copied.description == "a log of 2009-01-01 10:00" and rules.description != copied.description
    others = [field.name for field in attrs.fields(Ruleset) if field.name != "description"]
    assert all(getattr(copied, name) is getattr(rules, name) for name in others)


@attrs.frozen
class _Inner:
    seat: int = 0


@attrs.frozen
class _Outer:
    inner: _Inner = _Inner()
    inners: tuple[_Inner, ...] = ()
    reason: Reason = Reason.HAND
    children: tuple[_Outer, ...] = ()
    maybe: _Inner | None = None


@attrs.frozen
class _Later(_Inner):
    note: str = "x"


def test_a_field_holding_something_else_than_its_type_is_encoded_as_the_loop_encodes_it() -> None:
    """The encoder writes a field of a value class, a tuple of them or an enumeration in line only
    where the item is of that very type: a subclass, a list, a plain value, another class's value
    in its place are written as ``to_data`` writes them, key order and types alike."""
    odd: Any = [
        _Outer(),
        _Outer(inner=_Inner(3), inners=(_Inner(), _Inner(2)), reason=Reason.HAND, maybe=_Inner(1)),
        _Outer(inner=_Later(1), inners=[_Later(2), _Inner(1), 5, None], reason="hand value"),  # type: ignore[arg-type, list-item]
        _Outer(inner=None, inners=None, children=(_Outer(inner=_Inner(4)),), maybe=Payment(0, 1, 100, Reason.HAND)),  # type: ignore[arg-type]
        _Outer(inner=Reason.HAND, inners=(Reason.HAND, (1, 2)), reason=7),  # type: ignore[arg-type]
    ]
    for value in odd:
        found, expected = to_data(value), _by_loop(value)
        assert found == expected and list(found) == list(expected)
        assert repr(found) == repr(expected)  # each item of the same type, an enumeration as its value
