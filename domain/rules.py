"""The rules in force: one immutable value with every rule value named.

Presets are TOML files shipped in ``domain/presets``; a rule file or a list of
overrides starts from a preset and changes named values. A match stores the
full rule values it started with (``Ruleset.to_dict``), never only a preset name,
so editing a preset later cannot change a recorded match.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from importlib import resources
from typing import Any

import attrs

from domain.errors import InvalidRules


def _choice(*allowed: str) -> Any:
    def check(_inst: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if value not in allowed:
            raise InvalidRules(f"rule {attribute.name!r}: {value!r} is not one of {', '.join(allowed)}")

    return check


def _between(low: int, high: int) -> Any:
    def check(_inst: object, attribute: attrs.Attribute[Any], value: object) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InvalidRules(f"rule {attribute.name!r}: {value!r} is out of range ({low} to {high})")

    return check


def _flag(_inst: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, bool):
        raise InvalidRules(f"rule {attribute.name!r}: {value!r} is not true or false")


def _uma(_inst: object, attribute: attrs.Attribute[Any], value: object) -> None:
    if not isinstance(value, tuple) or not all(isinstance(v, int) for v in value):
        raise InvalidRules(f"rule {attribute.name!r}: {value!r} is not a list of whole numbers")


@attrs.frozen
class Ruleset:
    """Every rule value of a match. Points are in table points (a riichi stick is 1000)."""

    name: str = "custom"
    description: str = ""
    players: int = attrs.field(default=4, validator=_between(3, 4))
    start_score: int = attrs.field(default=25000, validator=_between(0, 1_000_000))
    # Target to end the match and the score against which final points are counted.
    return_score: int = attrs.field(default=30000, validator=_between(0, 1_000_000))
    length: str = attrs.field(default="south", validator=_choice("east", "south"))
    # Winds the match may extend into while nobody has reached the return score.
    extension_winds: int = attrs.field(default=1, validator=_between(0, 3))
    bust: bool = attrs.field(default=True, validator=_flag)
    dealer_stop_on_win: bool = attrs.field(default=True, validator=_flag)
    dealer_stop_on_ready: bool = attrs.field(default=False, validator=_flag)

    # Hand value to payment.
    kiriage_mangan: bool = attrs.field(default=False, validator=_flag)
    counted_yakuman: bool = attrs.field(default=True, validator=_flag)
    max_yakuman_multiple: int = attrs.field(default=6, validator=_between(1, 6))
    round_payments_to: int = attrs.field(default=100, validator=_between(1, 1000))
    tsumo_loss: bool = attrs.field(default=False, validator=_flag)

    # Counters (honba) and deposits.
    counter_per_payer: int = attrs.field(default=100, validator=_between(0, 10000))
    riichi_deposit: int = attrs.field(default=1000, validator=_between(0, 100000))
    multiple_ron: int = attrs.field(default=2, validator=_between(1, 3))
    # With several winners on one discard: who takes counters and deposits.
    multiple_ron_counters: str = attrs.field(default="nearest", validator=_choice("nearest", "each"))
    leftover_deposits: str = attrs.field(default="top", validator=_choice("top", "lost"))

    # Draws.
    noten_pool: int = attrs.field(default=3000, validator=_between(0, 100000))
    nagashi_mangan: bool = attrs.field(default=True, validator=_flag)
    abortive_draws: bool = attrs.field(default=True, validator=_flag)

    # Progression: when the deal passes.
    deal_passes_after_dealer_win: bool = attrs.field(default=False, validator=_flag)
    deal_passes_after_draw: str = attrs.field(
        default="unless_dealer_ready", validator=_choice("always", "never", "unless_dealer_ready")
    )
    deal_passes_after_abortive_draw: bool = attrs.field(default=False, validator=_flag)

    # Final points.
    uma: tuple[int, ...] = attrs.field(default=(20, 10, -10, -20), converter=tuple, validator=_uma)
    oka_to_top: bool = attrs.field(default=True, validator=_flag)
    # "tenhou": final scores rounded to the thousand, half away from zero, the top takes
    # the remainder; "none": tenths kept.
    points_rounding: str = attrs.field(default="tenhou", validator=_choice("tenhou", "none"))

    # Penalties.
    chombo_amount: int = attrs.field(default=8000, validator=_between(0, 100000))
    chombo_share: str = attrs.field(default="to_others", validator=_choice("to_others", "off_table"))

    def __attrs_post_init__(self) -> None:
        if len(self.uma) != self.players:
            raise InvalidRules(f"rule 'uma': {len(self.uma)} values for {self.players} players")
        if sum(self.uma) != 0:
            raise InvalidRules(f"rule 'uma': {list(self.uma)} does not sum to zero")

    @property
    def oka(self) -> int:
        """The bonus to the top player: what everyone paid above the start score."""
        return (self.return_score - self.start_score) * self.players if self.oka_to_top else 0

    @property
    def counter_on_ron(self) -> int:
        """What the discarder pays per counter: one share for every other player."""
        return self.counter_per_payer * (self.players - 1)

    def to_dict(self) -> dict[str, Any]:
        """Every rule value as plain data (tuples as lists), for events and files."""
        data = attrs.asdict(self)
        data["uma"] = list(self.uma)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, source: str = "rules") -> Ruleset:
        """Build from plain data; unknown keys are refused with the key named."""
        known = {f.name for f in attrs.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidRules(f"{source}: unknown rule {unknown[0]!r}")
        values = dict(data)
        if "uma" in values and isinstance(values["uma"], list):
            values["uma"] = tuple(values["uma"])
        try:
            return cls(**values)
        except InvalidRules as exc:
            raise InvalidRules(f"{source}: {exc}") from None
        except TypeError as exc:
            raise InvalidRules(f"{source}: {exc}") from None

    def with_overrides(self, overrides: Mapping[str, Any], *, source: str = "overrides") -> Ruleset:
        """A copy with some values changed, checked like a rule file."""
        merged = self.to_dict()
        unknown = sorted(set(overrides) - set(merged))
        if unknown:
            raise InvalidRules(f"{source}: unknown rule {unknown[0]!r}")
        merged.update(overrides)
        return Ruleset.from_dict(merged, source=source)


def preset_names() -> list[str]:
    """Names of the presets shipped with honba."""
    folder = resources.files("domain") / "presets"
    return sorted(p.name[: -len(".toml")] for p in folder.iterdir() if p.name.endswith(".toml"))


def load_preset(name: str) -> Ruleset:
    """The preset of that name, e.g. ``tenhou`` or ``tenhou-sanma``."""
    if name not in preset_names():
        raise InvalidRules(f"unknown rules preset {name!r} (known: {', '.join(preset_names())})")
    text = (resources.files("domain") / "presets" / f"{name}.toml").read_text(encoding="utf-8")
    return parse_rule_text(text, source=f"preset {name}")


def parse_rule_text(text: str, *, source: str) -> Ruleset:
    """A ruleset from TOML text: ``base = "preset"`` (optional) then rule values.

    A ``[sources]`` table, if present, is documentation and is not a rule.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InvalidRules(f"{source}: not valid TOML: {exc}") from None
    data.pop("sources", None)
    base = data.pop("base", None)
    if base is not None:
        if not isinstance(base, str):
            raise InvalidRules(f"{source}: 'base' must name a preset")
        return load_preset(base).with_overrides(data, source=source)
    return Ruleset.from_dict(data, source=source)


DEFAULT_PRESET = "tenhou"
