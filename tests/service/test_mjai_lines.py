"""``honba verify`` reads mjai without visiting each draw and discard, and gives what reading every
line as JSON gives (issue 36).

A draw or discard in one of the writers' layouts (riichienv's sorted keys, mjai's and Mortal's type
first, with or without spaces) is left in the text (``replay.formats.mjai._LineReader``): a seat's
lines are followed only where a result needs its tiles. Fresh riichienv games, four- and
three-player, written in each layout and in a mix of layouts with lines read as JSON among them,
are read both ways and compared game for game (``repr``, which shows each win's details and who
called); a draw or discard the handlers refuse is refused with the same message and line.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from conftest import compiled
from riichienv_games import riichienv_game

import replay.formats.mjai as mjai
from replay.formats.logmodel import LogError, LoggedGame


def every_line(data: bytes, file: str = "game.jsonl") -> list[LoggedGame] | str:
    """The games as the reader gives them reading every line as JSON, or its refusal."""
    try:
        text = mjai._decoded(data, file)
        games: list[list[tuple[int, dict[str, Any]]]] = []
        current: list[tuple[int, dict[str, Any]]] | None = None
        for line, event in mjai._events_of(text, file):
            if event["type"] == "start_game" or current is None:
                current = []
                games.append(current)
            current.append((line, event))
            if event["type"] == "end_game":
                current = None
        if not games:
            raise LogError(file, "no mjai events in it")
        several = len(games) > 1
        return [mjai._GameReader(file, k if several else None, False).read(g) for k, g in enumerate(games)]
    except LogError as exc:
        return str(exc)


def as_verify_reads(data: bytes, file: str = "game.jsonl") -> list[LoggedGame] | str:
    try:
        return mjai.read_hands(data, file=file)
    except LogError as exc:
        return str(exc)


def same(data: bytes) -> None:
    expected = every_line(data)
    assert not isinstance(expected, str), expected
    # ``repr`` shows what equality leaves out (each win's details, who called).
    assert repr(as_verify_reads(data)) == repr(expected)


# How each writer lays an event out.
def sorted_spaced(event: dict[str, Any]) -> str:
    return json.dumps(event, sort_keys=True)  # riichienv


def type_first_compact(event: dict[str, Any]) -> str:
    ordered = {"type": event["type"], **{k: v for k, v in event.items() if k != "type"}}
    return json.dumps(ordered, separators=(",", ":"))  # Mortal, mjai.app


def type_first_spaced(event: dict[str, Any]) -> str:
    ordered = {"type": event["type"], **{k: v for k, v in event.items() if k != "type"}}
    return json.dumps(ordered)


LAYOUTS = (sorted_spaced, type_first_compact, type_first_spaced)


def events_of(mode: str, seed: int) -> list[dict[str, Any]]:
    return [json.loads(line) for line in riichienv_game(mode, seed).decode().splitlines()]


@pytest.fixture(scope="module")
def games() -> list[list[dict[str, Any]]]:
    pytest.importorskip("riichienv")
    # Between them: rons and tsumos valued from the tiles, riichi, calls, kans and their
    # replacement draws, exhaustive and abortive draws; in sanma, seeds 2 and 4 have a kita
    # between a riichi and its win.
    return [events_of("4p-red-half", seed) for seed in (0, 1, 2)] + [events_of("3p-red-half", seed) for seed in (2, 4)]


@pytest.mark.parametrize("layout", LAYOUTS, ids=lambda f: f.__name__)
def test_riichienv_games_in_each_layout_read_alike(games: list[list[dict[str, Any]]], layout: Any) -> None:
    for events in games:
        same("\n".join(layout(e) for e in events).encode())
        same(("\n".join(layout(e) for e in events) + "\n").encode())


def test_several_games_in_one_file_read_alike(games: list[list[dict[str, Any]]]) -> None:
    texts = ["\n".join(sorted_spaced(e) for e in events) for events in games[:2]]
    same("\n".join(texts).encode())
    # Hands after an end_game are a game of their own.
    same((texts[0] + "\n" + "\n".join(sorted_spaced(e) for e in games[1][1:])).encode())


def test_a_mix_of_layouts_with_lines_read_as_json_among_them_reads_alike(games: list[list[dict[str, Any]]]) -> None:
    rng = random.Random(36)
    for events in games:
        lines = []
        for event in events:
            line = rng.choice(LAYOUTS)(event)
            roll = rng.random()
            if event["type"] in ("tsumo", "dahai") and roll < 0.15:
                # A draw or discard in no plain layout: read as JSON, followed with the calls.
                line = json.dumps({**event, "meta": {"q": 0.5}})
            elif roll < 0.2:
                line = "  " + line  # leading space: no plain line
            lines.append(line)
            if rng.random() < 0.03:
                lines.append("   ")
        same("\n".join(lines).encode())
        # Other line breaks: read line by line as before.
        same("\r\n".join(lines).encode())


def test_verify_leaves_the_plain_draws_and_discards_unread(
    games: list[list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = "\n".join(sorted_spaced(e) for e in games[0]).encode()
    read: list[str] = []
    line_event = mjai._line_event

    def counted(line: str, file: str, number: int) -> Any:
        read.append(line)
        return line_event(line, file, number)

    monkeypatch.setattr(mjai, "_line_event", counted)
    games_read = mjai.read_hands(data, file="game.jsonl")
    assert games_read and games_read[0].hands
    plain = sum(e["type"] in ("tsumo", "dahai") for e in games[0])
    assert plain > len(games[0]) * 3 // 4
    # Only the other events were read as JSON (the last line has no newline after it).
    assert len(read) <= len(games[0]) - plain + 1


def test_the_plain_lines_spelled_out_are_plain_lines() -> None:
    # What the lookup takes as a plain line (``_WRITTEN_PLAIN``) is one the regular expression
    # takes: the lookup only spares trying it.
    assert len(mjai._WRITTEN_PLAIN) == 3648
    assert all(mjai._PLAIN_LINE.fullmatch(line) for line in mjai._WRITTEN_PLAIN)
    assert all(mjai._PLAIN.match(line + "\n") for line in mjai._WRITTEN_PLAIN)
    # A seat's play is followed by looking the lines' codes up (``_SEAT_CODES``): each spelled-out
    # line's code is in its own seat's table alone, with the tile and the kind its seat's regular
    # expression reads; the layouts of one draw or discard share a code, no two draws or discards do.
    assert len(mjai._PLAIN_ENTRY) == 4 * 38 * 2 == sum(map(len, mjai._SEAT_CODES))
    seen: dict[tuple[int, str, bool], int] = {}
    for line, code in mjai._WRITTEN_PLAIN.items():
        (seat,) = [s for s, table in enumerate(mjai._SEAT_CODES) if code in table]
        tile, drawn = mjai._SEAT_CODES[seat][code]
        (found,) = mjai._SEAT_LINES[seat].findall("\n" + line + "\n")
        assert (found[0] or found[3], (found[1] or found[2]) == "tsumo") == (tile, drawn)
        assert mjai._PLAIN_ENTRY[code] == (seat, tile, drawn)
        assert seen.setdefault((seat, tile, drawn), code) == code
        # A discard's code says whether its tile lets a nagashi mangan stand, as the seat's regular
        # expression of a simple tile's discard says the opposite.
        if not drawn:
            simple = mjai._SEAT_SIMPLES[seat].search("\n" + line + "\n") is not None
            assert mjai._SEAT_DISCARD_CODES[seat][code] is not simple
        else:
            assert code not in mjai._SEAT_DISCARD_CODES[seat]


def test_a_known_event_line_reads_as_json_reads_it_each_time_afresh() -> None:
    # ``end_kyoku``, a riichi declared or accepted, a plain start or end of a game are looked up
    # (``_KNOWN_EVENTS``): the same value the JSON scanner gives, a new object each time.
    assert len(mjai._KNOWN_EVENTS) == 38
    for line in mjai._KNOWN_EVENTS:
        first, second = mjai._line_event(line, "game.jsonl", 1), mjai._line_event(line, "game.jsonl", 1)
        assert first == second == json.loads(line) and first is not second
        assert list(first) == list(json.loads(line))
    assert '{"type": "end_kyoku"}' in mjai._KNOWN_EVENTS and '{"actor":3,"type":"reach"}' in mjai._KNOWN_EVENTS


def test_no_plain_line_is_longer_than_the_longest_spelled_out() -> None:
    # A line longer than ``_LONGEST_PLAIN`` is not tried against the regular expression: every line
    # it takes (each spacing of the longest seat, tile, flag and kind, in both key orders) is no
    # longer, and the bound is one of them.
    import itertools

    taken = []
    for spaces in itertools.product(("", " "), repeat=7):
        a, b, c, d, e, f, g = spaces
        taken.append(f'{{"actor":{a}3,{b}"pai":{c}"5mr",{d}"tsumogiri":{e}false,{f}"type":{g}"dahai"}}')
        taken.append(f'{{"type":{a}"dahai",{b}"actor":{c}3,{d}"pai":{e}"5mr",{f}"tsumogiri":{g}false}}')
    assert all(mjai._PLAIN_LINE.fullmatch(line) for line in taken)
    assert max(map(len, taken)) == mjai._LONGEST_PLAIN
    assert all(len(line) <= mjai._LONGEST_PLAIN for line in mjai._WRITTEN_PLAIN)
    # One more space anywhere is no plain line.
    longest = max(taken, key=len)
    assert not any(mjai._PLAIN_LINE.fullmatch(longest[:i] + " " + longest[i:]) for i in range(1, len(longest)))


def oddly_spaced(rng: random.Random) -> Any:
    """A plain layout with a space after some separators and not others: not spelled out in
    ``_WRITTEN_PLAIN``, read by the regular expression."""

    def layout(event: dict[str, Any]) -> str:
        def sep(mark: str) -> str:
            return mark + (" " if rng.random() < 0.5 else "")

        ordered = (
            event
            if event["type"] not in ("tsumo", "dahai") or rng.random() < 0.5
            else {
                "type": event["type"],
                **{k: v for k, v in event.items() if k != "type"},
            }
        )
        parts = [f"{json.dumps(k)}{sep(':')}{json.dumps(v)}" for k, v in ordered.items()]
        text = "{"
        for i, part in enumerate(parts):
            text += part if i == 0 else sep(",") + part
        return text + "}"

    return layout


def test_plain_lines_in_layouts_not_spelled_out_read_alike(games: list[list[dict[str, Any]]]) -> None:
    rng = random.Random(5)
    layout = oddly_spaced(rng)
    for events in games:
        text = "\n".join(layout(dict(sorted(e.items()))) for e in events)
        odd = [line for line in text.split("\n") if mjai._PLAIN_LINE.fullmatch(line)]
        assert odd and any(line not in mjai._WRITTEN_PLAIN for line in odd)
        same(text.encode())
        same((text + "\n\n  \n").encode())


@pytest.mark.skipif(
    compiled(mjai),
    reason="a compiled mjai reader calls _line_event directly: no spy sees which lines it reads as JSON "
    "(.ci/run runs this file pure too)",
)
def test_plain_lines_in_layouts_not_spelled_out_are_not_read_as_json(
    games: list[list[dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Such a line is left in the text and read by the plain pattern: only the other events are read as JSON.
    layout = oddly_spaced(random.Random(5))
    read: list[str] = []
    line_event = mjai._line_event
    monkeypatch.setattr(
        mjai, "_line_event", lambda line, file, number: read.append(line) or line_event(line, file, number)
    )
    text = "\n".join(layout(dict(sorted(e.items()))) for e in games[0]) + "\n"
    mjai.read_hands(text.encode(), file="game.jsonl")
    assert len(read) == sum(e["type"] not in ("tsumo", "dahai") for e in games[0]) + 1  # the blank end


@pytest.mark.parametrize("brk", ["\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"])
def test_a_text_with_another_line_break_is_read_line_by_line(brk: str) -> None:
    # ``str.splitlines`` breaks at these: such a text is read as every line's JSON (an ASCII text is
    # searched for its six by ``str``'s own search, any other by the regular expression).
    assert mjai._lines_plain('{"type": "start_game"}\n{"type": "end_game"}\n')
    assert mjai._lines_plain('{"type": "start_game", "names": ["\u00e9"]}\n')
    assert not mjai._lines_plain('{"type": "start_game"}' + brk + '{"type": "end_game"}\n')
    assert not mjai._lines_plain('{"type": "start_game", "names": ["\u00e9"]}' + brk + "\n")


def lines(*events: Any) -> bytes:
    return "\n".join(json.dumps(e) for e in events).encode()


START = {"type": "start_game"}
KYOKU4 = {
    "type": "start_kyoku",
    "bakaze": "E",
    "kyoku": 1,
    "honba": 0,
    "kyotaku": 0,
    "oya": 0,
    "dora_marker": "1m",
    "scores": [25000] * 4,
    "tehais": [["?"] * 13 for _ in range(4)],
}
KYOKU3 = {**KYOKU4, "scores": [35000] * 3, "tehais": [["?"] * 13 for _ in range(3)]}
DRAW = {"type": "tsumo", "actor": 0, "pai": "?"}
DISCARD = {"type": "dahai", "actor": 0, "pai": "1m", "tsumogiri": False}
END = {"type": "ryukyoku", "reason": "fanpai", "deltas": [0, 0, 0, 0]}


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (lines(START, DRAW, KYOKU4, END), "line 2: 'tsumo' outside a hand"),
        (lines(DISCARD, START, KYOKU4, END), "line 1: 'dahai' outside a hand"),
        (lines(START, KYOKU4, END, {"type": "end_kyoku"}, DRAW, DISCARD), "line 5: 'tsumo' after end_kyoku"),
        (lines(START, KYOKU4, END, {"type": "end_kyoku"}, {"type": "end_game"}, DISCARD), "line 6: 'dahai' outside"),
        (
            lines(START, KYOKU3, DRAW, {**DRAW, "actor": 1}, {**DRAW, "actor": 3}, DISCARD, {**END, "deltas": [0] * 3}),
            "line 5: actor 3: there is no such seat at a 3-player table",
        ),
        (lines(START, KYOKU4, DRAW, {**DISCARD, "pai": "0m"}, END), "line 4: 'pai': '0m' is not an mjai tile"),
        (lines(START, KYOKU4, {**DRAW, "actor": 4}, END), "line 3: actor 4: there is no such seat"),
        (lines(START, KYOKU4, DRAW, END) + b'\n{"type": "dahai", "actor": 0', "line 5, column"),
        (lines(START, KYOKU4, DRAW, {"type": "dahai", "actor": 0, "pai": "1m", "pai2": "x"}, END), None),
        # An event without a type, a list, and a line that is no JSON further on: the line no JSON
        # is named first (every line is read first), then the first event of no type, in order.
        (lines(START, {"actor": 0}, KYOKU4, DRAW, END) + b"\n{not json", "line 6, column"),
        (lines(START, KYOKU4, DRAW, {"actor": 0}, [1, 2], END), "line 4: the event has no 'type'"),
        (lines(START, KYOKU4, [1, 2], {"actor": 0}, END), "line 3: an mjai event must be a JSON object"),
    ],
)
def test_a_draw_or_discard_is_refused_as_before(data: bytes, says: str | None) -> None:
    expected = every_line(data)
    assert repr(as_verify_reads(data)) == repr(expected)
    if says is not None:
        assert isinstance(expected, str) and says in expected, expected


def test_nukidora_is_read_as_kita_by_both_readers() -> None:
    # Some writers name the sanma north set aside "nukidora": the same event as "kita", read alike by
    # the full reader and verify's (riichienv's three-player games, which set north aside).
    pytest.importorskip("riichienv")
    for seed in (2, 4):
        events = events_of("3p-red-half", seed)
        assert any(e["type"] == "kita" for e in events)
        kita = "\n".join(json.dumps(e) for e in events).encode()
        nukidora = "\n".join(
            json.dumps({**e, "type": "nukidora"} if e["type"] == "kita" else e) for e in events
        ).encode()
        assert repr(mjai.read_mjai(nukidora, file="game.jsonl")) == repr(mjai.read_mjai(kita, file="game.jsonl"))
        assert repr(mjai.read_hands(nukidora, file="game.jsonl")) == repr(mjai.read_hands(kita, file="game.jsonl"))
