"""A hand typed by its tiles (replay/input/tiles.py), read and refused by the game's own counts: the
``123m456p789s11z`` notation (m, p, s the suits, 1z-7z the winds and dragons, 0 a red five), four
copies of each tile and one red five a suit, a winning hand of fourteen tiles (a kong counting
three) holding its winning tile, a pon or kan of like tiles, a chi a run of three in one suit. Each
refusal names the option it is in (``--hand: ...``), or a form's field. In memory, no store."""

from __future__ import annotations

import itertools

import pytest

from domain.said import Said
from replay.input.entry import FieldError
from replay.input.parsing import InputError
from replay.input.tiles import (
    MAX_TILE_TEXT,
    HandTiles,
    MeldTiles,
    hand_tiles_from_fields,
    in_tile_order,
    notation,
    parse_call,
    parse_tiles,
    tile34,
    tile_error,
    tile_text,
)


def refusal(text: str, option: str = "--hand") -> str:
    with pytest.raises(InputError) as caught:
        parse_tiles(text, option)
    return str(caught.value)


def test_the_notation_names_every_kind_of_tile() -> None:
    assert parse_tiles("123m 456p 789s") == ("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s")
    # The honours in their order: east, south, west, north, white, green, red.
    assert parse_tiles("1234567z") == ("E", "S", "W", "N", "P", "F", "C")
    assert parse_tiles("0m0p0s") == ("5mr", "5pr", "5sr")
    # Four kongs and a pair: 18 tiles, the most a hand holds.
    assert len(parse_tiles("1111222233334444m55z")) == 18
    assert [notation(t) for t in ("5pr", "C", "7s")] == ["0p", "7z", "7s"]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("  ", "--hand: no tiles given"),
        ("8z", "--hand: 8z is no tile (the honours are 1z-7z)"),
        ("0z", "--hand: 0z is no tile (the honours are 1z-7z)"),
        ("123x", "--hand: cannot read '123x' from '123x' on"),
        ("m123", "--hand: cannot read 'm123' from 'm123' on"),
        ("123m45", "--hand: cannot read '123m45' from '45' on"),
        ("12m-3p", "--hand: cannot read '12m-3p' from '-3p' on"),
        # No hand holds more than 18 tiles (four kongs: 4 x 4 and a pair).
        ("1111222233334444m555z", "--hand: 19 tiles is more than any hand holds"),
    ],
)
def test_text_that_names_no_tiles_is_refused(text: str, said: str) -> None:
    assert refusal(text).startswith(said)


def test_an_mjai_tile_is_one_of_34_kinds_and_only_a_five_is_red() -> None:
    assert tile34("1m") == (0, False) and tile34("9s") == (26, False)
    assert tile34("5pr") == (13, True) and tile34("C") == (33, False)
    for no_tile in ("6mr", "5mx", "0m", "10m", "5z", "", "5MR", "E "):
        assert tile34(no_tile) is None, no_tile
    # The 37 mjai tiles (read from a table made once): 34 kinds, three of them with a red five.
    tiles = [f"{n}{suit}" for suit in "mps" for n in range(1, 10)] + ["5mr", "5pr", "5sr", *"ESWNPFC"]
    read = [tile34(tile) for tile in tiles]
    assert len(set(read)) == 37 and {kind for kind, _ in filter(None, read)} == set(range(34))
    assert [tile for tile, parsed in zip(tiles, read, strict=True) if parsed and parsed[1]] == ["5mr", "5pr", "5sr"]


def test_tiles_in_tile_order_by_kind_a_red_five_first_what_is_no_tile_last() -> None:
    # The 37 tiles are put in order by a table; a list with anything else in it by reading each.
    tiles = ["C", "5pr", "1m", "5p", "E", "9s", "5p", "5mr", "5m"]
    assert in_tile_order(tiles) == ("1m", "5mr", "5m", "5pr", "5p", "5p", "9s", "E", "C")
    assert in_tile_order([*tiles, "x", "?", "6mr"]) == (*in_tile_order(tiles), "x", "?", "6mr")
    assert in_tile_order(["?", "2s", "1s"]) == ("1s", "2s", "?")
    for order in itertools.permutations(["5s", "5sr", "4s", "P"]):
        assert in_tile_order(order) == ("4s", "5sr", "5s", "P")


def test_a_call_is_its_kind_and_its_tiles() -> None:
    assert parse_call("pon:777z") == MeldTiles("pon", ("C", "C", "C"))
    # A chi's tiles in order whatever order they were typed in.
    assert parse_call("CHI:435m") == MeldTiles("chi", ("3m", "4m", "5m"))
    assert parse_call("kan:5550p").tiles == ("5pr", "5p", "5p", "5p")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("steal:123m", "--call: write a call as KIND:TILES with KIND one of chi, pon, kan, ankan, kakan"),
        ("pon:", "--call: write a call as KIND:TILES"),
        ("pon:77z", "--call: a pon has 3 tiles, not 2 ('pon:77z')"),
        ("ankan:222s", "--call: a ankan has 4 tiles, not 3 ('ankan:222s')"),
        ("pon:776z", "--call: the tiles of a pon are all alike ('pon:776z')"),
        ("chi:135m", "--call: a chi is three tiles in a row of one suit ('chi:135m')"),
        ("chi:12m3p", "--call: a chi is three tiles in a row of one suit ('chi:12m3p')"),
        ("chi:123z", "--call: a chi is three tiles in a row of one suit ('chi:123z')"),
    ],
)
def test_a_call_of_no_set_is_refused(text: str, said: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_call(text)
    assert str(caught.value).startswith(said)


# A closed hand of fourteen: 123m 456p 789s 234s and a pair of easts, won on the 4p.
HAND = "123m456p789s234s11z"


def hand_refusal(hand: str, win_tile: str = "4p", calls: tuple[str, ...] = ()) -> str:
    with pytest.raises(InputError) as caught:
        HandTiles.from_text(hand, win_tile, calls)
    return str(caught.value)


def test_a_hand_of_fourteen_with_its_winning_tile_is_read() -> None:
    tiles = HandTiles.from_text(HAND, "4p", dora_indicators="1z", ura_indicators="9m", riichi=True)
    assert len(tiles.concealed) == 14 and tiles.win_tile == "4p"
    assert tiles.dora_indicators == ("E",) and tiles.ura_indicators == ("9m",) and tiles.riichi
    # A kong counts three: eleven concealed tiles and a kong are a hand.
    assert HandTiles.from_text("123m456p789s11z", "1z", ["kan:2222s"]).calls[0].kind == "kan"


@pytest.mark.parametrize(
    ("hand", "win_tile", "said"),
    [
        (HAND, "45p", "--win-tile: one tile, not 2 ('45p')"),
        (HAND, "7z", "--win-tile: 7z is not among the tiles of --hand"),
        ("123m456p789s11z", "1z", "--hand: a winning hand has 14 tiles (a kong counts 3), the winning tile among"),
        # Five of the one-of-characters: there are four of each tile.
        ("11111m456p789s111z", "4p", "--hand: more than four of 1m"),
        # Two red fives of characters: each suit has one.
        ("00m123p456p789s111z", "1p", "--hand: a suit has one red five"),
    ],
)
def test_tiles_that_make_no_winning_hand_are_refused(hand: str, win_tile: str, said: str) -> None:
    assert hand_refusal(hand, win_tile).startswith(said)


def test_a_forms_tile_fields_make_the_hand_or_none() -> None:
    assert hand_tiles_from_fields({}) is None
    assert hand_tiles_from_fields({"hand": "  ", "win_tile": None}) is None
    # A field sent twice is read as its last value (a form's repeated field).
    read = hand_tiles_from_fields({"hand": ["", HAND], "win_tile": "4p", "calls": ""})
    assert read is not None and read.win_tile == "4p"


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        # The winning tile, the calls, the indicators and ippatsu describe a hand: not without one.
        ({"win_tile": "4p"}, "hand"),
        ({"ippatsu": "on"}, "hand"),
        ({"hand": HAND}, "win_tile"),
        ({"hand": HAND, "win_tile": "7z"}, "win_tile"),
        ({"hand": HAND, "win_tile": "4p", "calls": "pon:77z"}, "calls"),
        ({"hand": HAND, "win_tile": "4p", "dora_indicators": "8z"}, "dora_indicators"),
        ({"hand": 123, "win_tile": "4p"}, "hand"),
        ({"hand": "1" * (MAX_TILE_TEXT + 1) + "m", "win_tile": "1m"}, "hand"),
    ],
)
def test_a_forms_tile_field_that_cannot_be_read_is_refused_by_its_name(fields: dict[str, object], field: str) -> None:
    with pytest.raises(FieldError) as caught:
        hand_tiles_from_fields(fields)
    assert caught.value.field == field


def test_a_tile_field_is_text_of_bounded_length() -> None:
    assert tile_text({"hand": " 123m "}, "hand") == "123m"
    assert tile_text({"hand": []}, "hand") == ""
    with pytest.raises(FieldError, match="expected text"):
        tile_text({"hand": 5}, "hand")
    with pytest.raises(FieldError, match=f"at most {MAX_TILE_TEXT} characters"):
        tile_text({"hand": "1" * (MAX_TILE_TEXT + 1)}, "hand")


def test_a_refusal_naming_options_is_said_by_the_forms_fields() -> None:
    # Words: the option it is in is the field, the options it names are said as the fields' names.
    named = tile_error(
        Said("{option}: {problem}", option="--win-tile", problem=Said("{x} is not in {hand}", x="7z", hand="--hand"))
    )
    assert named.field == "win_tile" and str(named) == "7z is not in hand"
    assert tile_error(Said("the tiles are {n}", n=3)).field == "hand"
    # Text: the option read from its start, the others named as the fields.
    text = tile_error("--call: a pon with --hand")
    assert text.field == "calls" and str(text) == "a pon with hand"
    assert tile_error("no tiles").field == "hand"
