"""Issue 22's done-when property: a random valid result (every kind of fact, six presets) entered
through the command line, the table page's form, the JSON API and a record file is stored as the
same fact by all four; amending any one field of it through the referee's desk, the command line
and the API changes that field only.

Results are drawn as domain facts (or, for a penalty, as the entry a referee types: its amount and
share may be left to the rules) and kept only where the domain records them on a fresh table;
each front end is then given them in its own words: ``PLAYER:VALUE`` and options on the command
line, the form's fields, a JSON body, a record line. Bounded for CI: a few dozen examples each,
derandomized.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from honba_cli import Honba
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient
from web_support import errors, form_field_names, form_of_page

from domain.errors import HonbaError
from domain.match import Match
from domain.rules import Ruleset, load_preset
from domain.scoring.units import value_unit
from domain.values import (
    LIMIT_NAMES,
    AbortiveDraw,
    AbortKind,
    DealPass,
    ExhaustiveDraw,
    HandPenalty,
    HandValue,
    MatchEnd,
    Penalty,
    Win,
    WinFacts,
    WinResult,
)
from replay.formats.record import build_match, parse_record
from replay.input.entry import FLAG_KEYS, Entry, entry_line, entry_of, fact_of
from replay.service.common.access import TokenStore
from replay.service.imports.storing import store_whole
from replay.service.recording import recording
from replay.service.recording.entry import amended, entry_fields, value_text
from replay.store.application import HonbaApp
from replay.web.app import create_app

PLAYERS = ("Ann", "Ben", "Cho", "Dai")
PRESETS = ("tenhou", "hong-kong", "taiwanese", "chinese-classical", "american-modern", "ema")
RULES = {name: load_preset(name) for name in PRESETS}
TILES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
# Han and fu that exist on a discard, and the ones only a self-drawn hand has (seed 002's table).
RON_HAN_FU = [(1, 30), (1, 40), (1, 50), (2, 25), (2, 30), (2, 40), (3, 25), (3, 30), (3, 40), (4, 25), (4, 30)]
TSUMO_HAN_FU = [*RON_HAN_FU, (2, 20), (3, 20), (4, 20)]
# Per preset: six presets make 48 examples per front end.
EXAMPLES = settings(
    max_examples=8,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.filter_too_much],
)
seats = st.integers(0, 3)


def subset(draw: st.DrawFn, items: range | tuple[int, ...] = range(4)) -> tuple[int, ...]:
    return tuple(i for i in items if draw(st.booleans()))


def value_for(draw: st.DrawFn, rules: Ruleset, self_drawn: bool) -> HandValue:
    """A hand value in the rules' unit, with dora where riichi counts them."""
    if rules.scoring == "riichi":
        kind = draw(st.sampled_from(["han_fu", "han", "limit", "yakuman"]))
        if kind in ("han_fu", "han"):
            han, fu = draw(st.sampled_from(TSUMO_HAN_FU if self_drawn else RON_HAN_FU))
            if kind == "han":
                han, fu = draw(st.integers(5, 12)), None
            dora = draw(st.none() | st.integers(0, han - 1))
            return HandValue(han=han, fu=fu, dora=dora)
        if kind == "limit":
            return HandValue(limit=draw(st.sampled_from(LIMIT_NAMES[:4])))
        return HandValue(limit="yakuman", multiple=draw(st.integers(1, 3)))
    low = rules.minimum if rules.minimum_unit == "faan" else 1
    # The kinds each unit takes (domain.scoring.units): Hong Kong faan or their points, the
    # classical rules points and doubles, Taiwanese tai (points) and no limit.
    kinds = {
        "faan": ["faan", "points", "limit"],
        "doubles": ["points", "both", "doubles", "limit"],
        "tai": ["points", "tai", "limit"] if rules.limit else ["points", "tai"],
    }[value_unit(rules)]
    return draw(
        st.sampled_from(kinds).flatmap(
            lambda kind: {
                "faan": st.builds(HandValue, faan=st.integers(low, 9)),
                "points": st.builds(HandValue, points=st.integers(1, 200)),
                "both": st.builds(HandValue, points=st.integers(10, 60), doubles=st.integers(0, 4)),
                "doubles": st.builds(HandValue, doubles=st.integers(1, 5)),
                "tai": st.builds(HandValue, tai=st.integers(1, 200)),
                "limit": st.just(HandValue(limit="mangan")),
            }[kind]
        )
    )


def facts_for(draw: st.DrawFn, rules: Ruleset, winner: int, discarder: int | None) -> WinFacts:
    """How a win went out: flags that agree with a discard or a self-drawn win, tiles, melds, the
    hand's penalties, and a heavenly hand where the dealer (seat 0 at the start) may claim it."""
    flags = set(draw(st.lists(st.sampled_from(FLAG_KEYS), max_size=2)))
    if discarder is not None:
        flags -= {"supplement_tile", "flower_supplement", "second_kong"}
    else:
        flags -= {"robbed_kong"}
    if "first_turn" in flags:
        # The first turn is never the last tile, and comes before any call and any discard of the winner's.
        flags -= {"last_tile", "call_before_first_draw"}
    special: tuple[str, ...] = ()
    if winner == 0 and discarder is None and "heavenly_hand" in rules.special_hands and draw(st.booleans()):
        special, flags = ("heavenly_hand",), (flags - {"supplement_tile", "flower_supplement"}) | {"first_turn"}
    payers = [s for s in range(4) if s != winner]
    penalties = draw(
        st.lists(
            st.builds(
                HandPenalty,
                payer=st.sampled_from(payers),
                amount=st.integers(1, 30).map(lambda n: n * 100),
                note=st.sampled_from(["", "late", "slow play"]),
            ),
            max_size=2,
        )
    )
    first_turn = "first_turn" in flags
    return WinFacts(
        **{f: f in flags for f in FLAG_KEYS},
        winning_tile=draw(st.none() | st.sampled_from(TILES)),
        discards=() if first_turn else tuple(draw(st.lists(st.sampled_from(TILES), max_size=3))),
        melded_sets=0 if first_turn else draw(st.integers(0, 4)),
        # Jokers dealt before play (rules that play them are few: the domain refuses the others).
        predealt_jokers=draw(st.sampled_from([0, 0, 0, 1])),
        special_hands=special,
        penalties=tuple(penalties),
    )


@st.composite
def results(draw: st.DrawFn, preset: str) -> tuple[str, Entry]:
    """A result or penalty that the domain records at the opening table of a match under ``preset``."""
    rules = RULES[preset]
    kinds = ["win", "win", "draw", "penalty"] + (["abort"] if rules.abortive_draws else [])
    kind = draw(st.sampled_from(kinds))
    if kind == "win":
        count = draw(st.integers(1, min(3, rules.multiple_ron)))
        discarder = draw(seats) if count > 1 else draw(st.none() | seats)
        others = [s for s in range(4) if s != discarder]
        winners = draw(st.permutations(others).map(lambda p: p[:count]))
        wins = []
        for winner in winners:
            value = value_for(draw, rules, discarder is None)
            facts = facts_for(draw, rules, winner, discarder)
            if facts.special_hands and draw(st.booleans()):
                value = HandValue()  # a special hand scores the rules' own limit
            # Riichi rules make a player liable only for a yakuman (pao); the points families never.
            pao = rules.scoring == "riichi" and value.limit == "yakuman"
            liable = draw(st.none() | st.sampled_from([s for s in range(4) if s != winner])) if pao else None
            scores = tuple(draw(st.lists(st.integers(0, 300), min_size=4, max_size=4))) if rules.losers_settle else ()
            wins.append(Win(winner, value, discarder, liable, facts, scores))
        fact: Any = WinResult(tuple(wins), subset(draw))
    elif kind == "draw":
        ready = subset(draw)
        nagashi = subset(draw) if rules.nagashi_mangan and draw(st.booleans()) else ()
        fact = ExhaustiveDraw(ready, subset(draw, ready) if not nagashi else subset(draw), nagashi)
    elif kind == "abort":
        abort = draw(st.sampled_from([k for k in AbortKind]))
        riichi = tuple(range(4)) if abort is AbortKind.FOUR_RIICHI else subset(draw)
        if abort is AbortKind.FOUR_KONGS:
            four = st.lists(seats, min_size=4, max_size=4).filter(lambda k: len(set(k)) > 1)
            kongs = tuple(draw(st.just([]) | four))
        else:
            kongs = tuple(draw(st.lists(seats, max_size=4)))
        fact = AbortiveDraw(abort, riichi, kongs)
    else:
        share = draw(st.none() | st.sampled_from(["to_others", "off_table", "reverse_mangan"]))
        amount = None if share == "reverse_mangan" else draw(st.none() | st.integers(1, 160).map(lambda n: n * 100))
        entry = Entry(
            "penalty",
            player=draw(st.sampled_from(PLAYERS)),
            amount=amount,
            penalty_kind=draw(st.sampled_from(["chombo", "slow play"])),
            share=share,
            note=draw(st.sampled_from(["", "declared a win on a wrong tile"])),
        )
        assume(recorded(preset, entry) is not None)
        return preset, entry
    entry = entry_of(fact, PLAYERS)
    assume(recorded(preset, entry) is not None)
    return preset, entry


def recorded(preset: str, entry: Entry, change: dict[str, Any] | None = None) -> Any:
    """The fact the domain records for the entry at a fresh table (amended by ``change`` where one
    is given, as a correction of it); None where it refuses."""
    rules = RULES[preset]
    match = Match.start("k", PLAYERS, rules)
    try:
        fact = fact_of(entry, PLAYERS, match.state, rules)
        match.penalise(fact) if isinstance(fact, Penalty) else match.record(fact)
        if change is None:
            return fact
        replacement = fact_of(amended(entry, change), PLAYERS, match.state_before(2), rules)
        match.amend(2, replacement, by="Kim", reason="property")
        return replacement
    except HonbaError:
        return None


# The front ends, each in its own words.


def cli_words(entry: Entry, key: str) -> list[str]:
    """``honba win``/``draw``/``abort``/``penalty`` as a person types the entry."""
    if entry.kind == "draw":
        ready, riichi, nagashi = (
            _names("--ready", entry.ready),
            _names("--riichi", entry.riichi),
            _names("--nagashi", entry.nagashi),
        )
        return ["draw", key, *ready, *riichi, *nagashi]
    if entry.kind == "abort":
        return ["abort", key, entry.abort, *_names("--riichi", entry.riichi), *_names("--kongs", entry.kongs)]
    if entry.kind == "penalty":
        words = ["penalty", key, str(entry.player), "--kind", entry.penalty_kind, "--note", entry.note]
        words += ["--amount", str(entry.amount)] if entry.amount is not None else []
        return words + (["--share", entry.share] if entry.share else [])
    words = ["win", key, *[f"{w.winner}:{value_text(w.value)}" for w in entry.wins]]
    if entry.wins[0].discarder is not None:
        words += ["--from", str(entry.wins[0].discarder)]
    words += _names("--riichi", entry.riichi)
    for w in entry.wins:
        n, f = w.winner, w.facts
        words += ["--dora", f"{n}:{w.value.dora}"] if w.value.dora is not None else []
        words += ["--pao", f"{n}:{w.pao}"] if w.pao is not None else []
        words += [word for flag in FLAG_KEYS if getattr(f, flag) for word in ("--fact", f"{n}:{flag}")]
        words += [word for hand in f.special_hands for word in ("--special", f"{n}:{hand}")]
        words += ["--tile", f"{n}:{f.winning_tile}"] if f.winning_tile else []
        words += ["--discards", f"{n}:{','.join(f.discards)}"] if f.discards else []
        words += ["--melded", f"{n}:{f.melded_sets}", "--jokers", f"{n}:{f.predealt_jokers}"]
        for p in w.penalties:
            words += ["--penalty", f"{n}:{p.payer}:{p.amount}" + (f":{p.note}" if p.note else "")]
        words += ["--loser-scores", f"{n}:{','.join(map(str, w.loser_scores))}"] if w.loser_scores else []
    return words


def _names(option: str, names: tuple[Any, ...]) -> list[str]:
    return [option, ",".join(map(str, names))] if names else []


class FrontEnds:
    """One store, the command line on it, the web app over it, a table token per match."""

    def __init__(self, db: Path, web: TestClient):
        self.db, self.web = db, web
        self.honba = Honba(db)
        self.keys = itertools.count()
        self.app = HonbaApp.open(str(db))
        self.tokens = TokenStore(self.app)
        self.referee = self.tokens.create("referee", None)

    def start(self, preset: str, label: str) -> tuple[str, str]:
        key = f"{label}-{next(self.keys)}"
        recording.start_match(self.app, key, list(PLAYERS), RULES[preset])
        return key, self.tokens.create("table", key)

    def facts(self, key: str) -> list[Any]:
        """The results and penalties in force, in order."""
        match = self.app.get_match(key)
        return [
            s.fact
            for s in match.corrected_steps()
            if s.fact is not None and not isinstance(s.fact, DealPass | MatchEnd)
        ]

    def by_cli(self, preset: str, entry: Entry) -> str:
        key, _ = self.start(preset, "cli")
        self.honba.ok(*cli_words(entry, key))
        return key

    def by_form(self, preset: str, entry: Entry) -> str:
        key, token = self.start(preset, "form")
        page = self.web.get(f"/matches/{key}", params={"token": token}).text
        form = "entry"  # the table page's one form, for every kind of entry
        action, fields = form_of_page(page, form)
        given = entry_fields(entry)
        # The table page has a field for every fact of the entry.
        assert set(given) <= form_field_names(page, form), set(given) - form_field_names(page, form)
        confirm = self.web.post(action, data={**fields, **given})
        assert confirm.status_code == 200, errors(confirm.text) or confirm.text
        action, confirmed = form_of_page(confirm.text, "confirm-form")
        assert self.web.post(action, data=confirmed).status_code == 200
        return key

    def by_api(self, preset: str, entry: Entry) -> str:
        key, token = self.start(preset, "api")
        headers = {"Authorization": f"Bearer {token}"}
        answer = self.web.post(f"/api/matches/{key}/entries", json=entry_fields(entry), headers=headers)
        assert answer.status_code == 200, answer.text
        return key

    def by_file(self, preset: str, entry: Entry) -> str:
        key = f"file-{next(self.keys)}"
        start = {"type": "start", "key": key, "players": list(PLAYERS), "rules": preset}
        text = json.dumps(start) + "\n" + json.dumps(entry_line(entry)) + "\n"
        store_whole(self.app, build_match(parse_record(text, name=f"{key}.jsonl"), name=f"{key}.jsonl"))
        return key

    def amend_at_desk(self, key: str, change: dict[str, Any]) -> None:
        desk = self.web.get(f"/referee/m/{key}", params={"token": self.referee, "amend": "2"})
        assert desk.status_code == 200, desk.text
        action, fields = form_of_page(desk.text, "amend-form")
        fields.update({"by": "Kim", "reason": "property", **change})
        confirm = self.web.post(action, data=fields)
        assert confirm.status_code == 200, errors(confirm.text) or confirm.text
        action, confirmed = form_of_page(confirm.text, "confirm-form")
        assert self.web.post(action, data=confirmed).status_code == 200

    def amend_by_cli(self, key: str, change: dict[str, Any]) -> None:
        ((name, value),) = change.items()
        text = ",".join(value) if isinstance(value, list) else value
        self.honba.ok("amend", key, "2", "--set", f"{name}={text}", "--by", "Kim", "--reason", "property")

    def amend_by_api(self, key: str, change: dict[str, Any]) -> None:
        body = {"action": "amend", "target": 2, "set": change, "by": "Kim", "reason": "property"}
        headers = {"Authorization": f"Bearer {self.referee}"}
        answer = self.web.post(f"/api/matches/{key}/corrections", json=body, headers=headers)
        assert answer.status_code == 200, answer.text


@pytest.fixture
def ends(tmp_path: Path) -> Iterator[FrontEnds]:
    db = tmp_path / "honba.sqlite"
    HonbaApp.open(str(db)).close()
    with TestClient(create_app(str(db))) as web:
        front = FrontEnds(db, web)
        try:
            yield front
        finally:
            front.app.close()


@pytest.mark.parametrize("preset", PRESETS)
@EXAMPLES
@given(data=st.data())
def test_every_front_end_stores_the_same_fact(ends: FrontEnds, preset: str, data: st.DataObject) -> None:
    _preset, entry = data.draw(results(preset))
    event(f"{preset} {entry.kind}" + (f" x{len(entry.wins)}" if entry.wins else ""))
    fact = recorded(preset, entry)
    keys = [ends.by_cli(preset, entry), ends.by_form(preset, entry), ends.by_api(preset, entry)]
    keys.append(ends.by_file(preset, entry))
    assert [ends.facts(key) for key in keys] == [[fact]] * 4


# One field changed.


@st.composite
def changes(draw: st.DrawFn, preset: str, entry: Entry) -> dict[str, Any]:
    """One text field of the entry given a new value (in the spelling ``entry_fields`` writes), or
    cleared."""
    rules = RULES[preset]
    names = list(PLAYERS)

    def players(items: range = range(4)) -> list[str]:
        return [names[i] for i in items if draw(st.booleans())]

    if entry.kind == "draw":
        field = draw(st.sampled_from(["ready", "riichi"] + (["nagashi"] if rules.nagashi_mangan else [])))
        return {field: players()}
    if entry.kind == "abort":
        field = draw(st.sampled_from(["abort", "riichi", "kongs"]))
        if field == "abort":
            return {field: draw(st.sampled_from([k.value for k in AbortKind]))}
        if field == "kongs":
            return {field: [names[s] for s in draw(st.lists(seats, max_size=4))]}
        return {field: players()}
    if entry.kind == "penalty":
        field = draw(st.sampled_from(["player", "amount", "penalty_kind", "note", "share"]))
        return {
            "player": {field: draw(st.sampled_from(names))},
            "amount": {field: str(draw(st.integers(1, 120)) * 100)},
            "penalty_kind": {field: draw(st.sampled_from(["chombo", "slow play", "false riichi"]))},
            "note": {field: draw(st.sampled_from(["", "again", "wrong tile"]))},
            "share": {field: draw(st.sampled_from(["to_others", "off_table"]))},
        }[field]
    index = draw(st.integers(0, len(entry.wins) - 1))
    s = "" if index == 0 else str(index + 1)
    win = entry.wins[index]
    winner = names.index(str(win.winner))
    fields = ["value", "riichi", "facts", "tile", "discards", "melded", "pao", "penalties"]
    fields += ["dora"] * (rules.scoring == "riichi" and win.value.han is not None)
    fields += ["loser_scores"] * rules.losers_settle
    field = draw(st.sampled_from(fields))
    if field == "value":
        return {f"value{s}": value_text(value_for(draw, rules, win.discarder is None))}
    if field == "dora":
        assert win.value.han is not None
        return {f"dora{s}": str(draw(st.integers(0, win.value.han - 1)))}
    if field == "riichi":
        return {field: players()}
    if field == "facts":
        return {f"facts{s}": [f for f in FLAG_KEYS if draw(st.booleans())]}
    if field == "tile":
        return {f"tile{s}": draw(st.sampled_from(["", *TILES]))}
    if field == "discards":
        return {f"discards{s}": draw(st.lists(st.sampled_from(TILES), max_size=3))}
    if field == "melded":
        return {f"melded{s}": str(draw(st.integers(1, 4)))}
    if field == "pao":
        return {f"pao{s}": draw(st.sampled_from(["", *[n for i, n in enumerate(names) if i != winner]]))}
    if field == "loser_scores":
        return {f"loser_scores{s}": ",".join(str(draw(st.integers(0, 300))) for _ in range(4))}
    payers = [n for i, n in enumerate(names) if i != winner]
    return {f"penalties{s}": [f"{draw(st.sampled_from(payers))}:{draw(st.integers(1, 9)) * 100}"]}


def expected_fields(entry: Entry, change: dict[str, Any]) -> dict[str, Any]:
    """The entry's fields with the one field changed and every other kept (a cleared field gone)."""
    fields = entry_fields(entry)
    ((name, value),) = change.items()
    if value in ("", []):
        fields.pop(name, None)
    else:
        fields[name] = value
    return fields


@pytest.mark.parametrize("preset", PRESETS)
@EXAMPLES
@given(data=st.data())
def test_amending_one_field_changes_that_field_only(ends: FrontEnds, preset: str, data: st.DataObject) -> None:
    _preset, typed = data.draw(results(preset))
    # A correction starts from the entry as stored (a penalty's amount and share filled in by the rules).
    entry = entry_of(recorded(preset, typed), PLAYERS)
    change = data.draw(changes(preset, entry))
    event(f"{entry.kind}: {next(iter(change)).rstrip('23')}")
    after = recorded(preset, entry, change)
    assume(after is not None and after != recorded(preset, entry))
    expected = expected_fields(entry, change)
    # The change made in memory changes that field only (each field drawn in the spelling the fields keep).
    assert entry_fields(entry_of(after, PLAYERS)) == expected
    for amend in (ends.amend_at_desk, ends.amend_by_cli, ends.amend_by_api):
        key = ends.by_api(preset, entry)
        amend(key, change)
        (stored,) = ends.facts(key)
        assert entry_fields(entry_of(stored, PLAYERS)) == expected, amend.__name__
        assert stored == after, amend.__name__
