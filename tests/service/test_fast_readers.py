"""The readers' fast paths give what their careful paths give (issue 36).

A Tenhou mjlog in the plain shape every Tenhou server writes is read without building the XML
tree (``replay.formats.tenhou_xml._GameReader.read_plain``): every corpus log is read both ways and
compared game for game, and text outside that shape (a comment, an entity, a nested element, a
repeated attribute, ...) is read through the parser, with its refusal where it has one. An mjai
line is read by the C scanner ``json.loads`` runs and, when it is not plain, by ``load_json``:
each kind of line gives the same events or the same error either way. ``honba verify`` reads an
mjai log without putting each hand's play in tenhou.net/6's arrays (only an import keeps them).
A call or riichi in Tenhou's layout is read from its numbers, and ``honba verify`` passes a hand's
header that agrees without listing its fields: each agrees with the careful path.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import attrs
import pytest
from conftest import counting_xml_parses

import replay.formats.mjai as mjai
import replay.formats.tenhou_xml as tenhou_xml
from domain.values import Win, WinResult
from replay.formats import detect
from replay.formats.detect import read_games
from replay.formats.logmodel import LogError, LoggedGame
from replay.formats.source import read_source, unpack
from replay.input.json_text import load_json
from replay.service.imports.verify import _compare_header as compare_header
from replay.service.imports.verify import _header_fields as header_fields

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not present")


def through_parser(data: bytes, file: str) -> list[LoggedGame] | str:
    """The games as the parser's tree gives them (the reader's careful path), or its refusal."""
    try:
        root = tenhou_xml.parse_xml(data, file)
        if root.tag != "mjloggm":
            raise LogError(file, f"not a Tenhou mjlog: the document is <{root.tag}>, not <mjloggm>")
        return [tenhou_xml._GameReader(file).read(root)]
    except LogError as exc:
        return str(exc)


def read_without_the_tree(data: bytes) -> bool:
    """Whether the reader reads a log (or refuses it) without the parser's tree: its plain shape."""
    with counting_xml_parses() as parsed:
        read_xml(data, "x.mjlog")
    return not parsed


def read_xml(data: bytes, file: str) -> list[LoggedGame] | str:
    try:
        return tenhou_xml.read_tenhou_xml(data, file=file)
    except LogError as exc:
        return str(exc)


@needs_corpus
def test_every_corpus_mjlog_reads_alike_without_the_tree(xml_parses: list[str]) -> None:
    files = sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.suffix in (".mjlog", ".xml", ".xml_"))
    assert len(files) > 700
    expected = {path: through_parser(read_source(path), str(path)) for path in files}
    assert len(xml_parses) == len(files)  # the parser's own reading
    xml_parses.clear()
    # Every one of them is in the plain shape: read with no parse at all. Compared by ``repr``, which
    # shows what equality leaves out (each win's details, who called): the same notes too.
    for path in files:
        assert repr(read_xml(read_source(path), str(path))) == repr(expected[path]), path
        assert xml_parses == [], path


def _without_details(game: LoggedGame) -> LoggedGame:
    """The game with each win's details left out (``Win.details`` None), the rest as it is."""
    hands = []
    for hand in game.hands:
        result = hand.result
        if isinstance(result, WinResult):
            result = attrs.evolve(result, wins=tuple(attrs.evolve(w, details=None) for w in result.wins))
        hands.append(attrs.evolve(hand, result=result))
    return attrs.evolve(game, hands=tuple(hands))


@needs_corpus
def test_verify_reads_each_corpus_mjlog_without_the_wins_details_and_the_rest_alike() -> None:
    # ``honba verify`` reads a mjlog without each win's details (nothing is paid by them; an import
    # reads them with the tiles): the same games otherwise, by ``repr``, on the plain path and the parser's.
    files = sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.suffix in (".mjlog", ".xml", ".xml_"))
    assert detect.READERS["tenhou-xml"].read == "read_hands"
    detailed = 0
    for path in files:
        data, file = read_source(path), str(path)
        try:
            full = tenhou_xml.read_tenhou_xml(data, file=file)
        except LogError as exc:
            with pytest.raises(LogError) as bare_refusal:
                tenhou_xml.read_hands(data, file=file)
            assert str(bare_refusal.value) == str(exc)
            continue
        detailed += sum(w.details is not None for g in full for h in g.hands for w in _wins(h.result))
        bare = tenhou_xml.read_hands(data, file=file)
        assert repr(bare) == repr([_without_details(game) for game in full]), path
        root = tenhou_xml.parse_xml(unpack(data, file=file), file)
        assert repr(tenhou_xml._GameReader(file, details=False).read(root)) == repr(bare[0]), path
    assert detailed > 5000


def _wins(result: object) -> tuple[Win, ...]:
    return result.wins if isinstance(result, WinResult) else ()


GAME = (
    '<mjloggm ver="2.3"><GO type="169" lobby="0"/><UN n0="A" n1="B" n2="C" n3="D"/><TAIKYOKU oya="0"/>'
    '<INIT seed="0,0,0,1,2,33" ten="250,250,250,250" oya="0" hai0="1,2,3"/><T12/><D12/>'
    '<N who="1" m="42031"/><REACH who="0" step="1"/><REACH who="0" step="2" ten="240,250,250,250"/>'
    '<DORA hai="5"/><AGARI ba="0,1" hai="1" machi="1" ten="30,3900,0" yaku="1,1,52,2" doraHai="1" '
    'who="1" fromWho="0" sc="240,-39,250,49,250,0,250,0" owari="201,-20.0,299,30.0,250,5.0,250,-15.0"/>'
    "</mjloggm>"
)


@pytest.mark.parametrize(
    ("old", "new", "plain"),
    [
        ("", "", True),
        ('<mjloggm ver="2.3">', '<?xml version="1.0" encoding="UTF-8"?>\n<mjloggm ver="2.3">', True),
        ("<T12/>", "<T12 />\n", True),
        ("<T12/>", "<T/>", True),  # a draw without its tile: the play is not shown
        ("<T12/><D12/>", "", True),  # no draw at all: whose calls is unknown
        ('<DORA hai="5"/>', '<SHUFFLE seed="x" ref=""/>', True),
        # Outside the plain shape: the parser reads them (or refuses them).
        ("<T12/>", "<!-- <AGARI/> --><T12/>", False),
        ('n0="A"', 'n0="A&amp;B"', False),
        ('n0="A"', 'n0="A&#65;"', False),
        ('n0="A"', "n0='A'", False),
        ('n0="A"', 'n0="A\tB"', False),
        ('<DORA hai="5"/>', '<DORA hai="5" hai="6"/>', False),
        ('<DORA hai="5"/>', '<DORA hai="5" x="1" y="2"/>', False),
        ('<REACH who="0" step="1"/>', '<REACH who="0" step="1" who="1"/>', False),
        ("<T12/>", "<X><AGARI/></X>", False),
        ("<T12/>", "<T12>text</T12>", False),
        ("<T12/>", "<T12/>text", False),
        ('<mjloggm ver="2.3">', '<mjloggm xmlns="urn:x" ver="2.3">', False),
        ('<DORA hai="5"/>', '<DORA xmlns="urn:x"/>', False),
        ("<T12/>", "<T12/", False),
        ("</mjloggm>", "", False),
        ("</mjloggm>", "</mjloggm><more/>", False),
        ('<mjloggm ver="2.3">', '<mjloggm ver="2.3" id="1">', False),
        ('<mjloggm ver="2.3">', '<?xml version="1.0" encoding="latin-1"?><mjloggm ver="2.3">', False),
        ('<mjloggm ver="2.3">', ' <?xml version="1.0"?><mjloggm ver="2.3">', False),
        ('n0="A"', 'n0="A\x01"', False),
        ("mjloggm", "other", False),
    ],
)
def test_a_log_outside_the_plain_shape_is_read_by_the_parser(old: str, new: str, plain: bool) -> None:
    data = GAME.replace(old, new).encode() if old else GAME.encode()
    assert read_without_the_tree(data) is plain
    assert read_xml(data, "x.mjlog") == through_parser(data, "x.mjlog")


@pytest.mark.parametrize(
    "later",
    [
        '<DORA hai="5" hai="6"/>',  # a repeated attribute of a tag no handler reads
        '<UN n0="A" n0="B"/>',  # of a tag a handler reads
        "<DORA hai=5/>",  # not XML
        "<X>text</X>",  # well-formed, outside the plain shape
        "<T12/>",  # the plain shape to the end: the reader's own refusal stands
    ],
)
def test_a_tag_the_reader_refuses_before_the_text_leaves_the_plain_shape_is_refused_as_the_parser_refuses_it(
    later: str,
) -> None:
    # The plain shape is checked as the tags are read: a refusal of the reader (a seat the table
    # does not have) stands only where the rest of the text is of the plain shape too; elsewhere the
    # parser's refusal (malformed XML) or its tree's reading comes first, as without the fast path.
    data = GAME.replace('<REACH who="0" step="1"/>', '<REACH who="7" step="1"/>').replace('<DORA hai="5"/>', later)
    assert read_xml(data.encode(), "x.mjlog") == through_parser(data.encode(), "x.mjlog")
    assert read_without_the_tree(data.encode()) is (later == "<T12/>")
    assert "who=7" in str(read_xml(data.replace(later, "<T12/>").encode(), "x.mjlog"))


def test_whether_a_hands_play_is_logged_is_read_alike() -> None:
    # A hand whose draws carry no tile (another player's view) says nothing of calls; one with
    # a tile does, wherever in the hand it comes.
    for draws in ("<T/><U/>", "<T/><D12/>", '<DORA hai="5"/><U33/>', "", "<T12/>"):
        data = GAME.replace("<T12/><D12/>", draws).encode()
        games = read_xml(data, "x.mjlog")
        assert games == through_parser(data, "x.mjlog")
        assert not isinstance(games, str)
        result = games[0].hands[0].result
        assert result is not None
        assert (result.called is not None) is any(c.isdigit() for c in draws.replace('hai="5"', "")), draws


# A call or a riichi in the very layout Tenhou writes it is read from its numbers
# (``_plain_call``, ``_plain_reach``); anything else about it goes to the careful handler.
CALL = '<N who="1" m="42031"/>'
RIICHI = '<REACH who="0" step="1"/><REACH who="0" step="2" ten="240,250,250,250"/>'


@pytest.mark.parametrize(
    ("old", "new", "tag", "careful"),
    [
        (CALL, '<N who="1" m="42031" />', "N", 0),
        (CALL, '<N who="1" m="42031" /><N who="2" m="1" />', "N", 0),  # a closed kong's code: not open
        (RIICHI, '<REACH who="0" step="1"/><REACH who="0" ten="240,250,250,250" step="2"/>', "REACH", 0),
        (RIICHI, '<REACH who="0" ten="240,250,250,250" step="2"/><REACH who="0" step="2"/>', "REACH", 0),  # one stick
        (RIICHI, '<REACH who="2" step="3"/>', "REACH", 0),
        # Outside Tenhou's layout: the careful handler, as before.
        (CALL, '<N m="42031" who="1"/>', "N", 1),
        (CALL, '<N who="1" m="42031" kind="pon"/>', "N", 1),
        (CALL, '<N who="1" m="1234567"/>', "N", 1),  # a number out of range
        (CALL, '<N who="1" m="-4"/>', "N", 1),
        (RIICHI, '<REACH who="0" step="2" ten="240,250,250,250"/>', "REACH", 1),
        (RIICHI, '<REACH who="0" step="02"/>', "REACH", 1),
        # In the layout, but refused: the careful handler says why.
        (CALL, '<N who="7" m="42031"/>', "N", 1),
        (RIICHI, '<REACH who="4" step="2"/>', "REACH", 1),
        (RIICHI, "", "REACH", 0),
        # Refused by the careful handler before it reads the tag (its words, the parser's, show it).
        ('<INIT seed="0,0,0,1,2,33"', '<N who="1" m="42031"/><INIT seed="0,0,0,1,2,33"', "N", 0),  # before a hand
        ("</mjloggm>", '<REACH who="1" step="1"/></mjloggm>', "REACH", 0),  # after the game's end
    ],
)
def test_a_call_or_riichi_in_tenhou_s_layout_reads_as_the_parser_reads_it(
    monkeypatch: pytest.MonkeyPatch, old: str, new: str, tag: str, careful: int
) -> None:
    """Which tags the careful handlers read is seen by the tags whose attributes are read (``_PlainTag``,
    whose ``get`` the handlers' attribute readers look up on its class, compiled or not): a call or
    riichi read from its numbers is never made into one. A spy on ``_on_call`` or ``_on_reach`` is
    not reached from a compiled ``_plain_call`` or ``_plain_reach``, which call them directly; a tag
    the careful handler refuses before reading it (outside a hand) is told by its words."""
    data = GAME.replace(old, new).encode()
    assert read_without_the_tree(data)
    expected = through_parser(data, "x.mjlog")
    read: list[Any] = []
    get = tenhou_xml._PlainTag.get

    def reading(el: Any, *args: Any) -> Any:
        if not any(seen is el for seen in read):
            read.append(el)  # kept: each tag once, by its identity
        return get(el, *args)

    monkeypatch.setattr(tenhou_xml._PlainTag, "get", reading)
    assert repr(read_xml(data, "x.mjlog")) == repr(expected)
    handled = [el.tag for el in read]
    # The game's own accepted riichi is not in Tenhou's layout (``step`` before ``ten``): careful too.
    assert handled.count(tag) == careful + (1 if tag == "REACH" and old != RIICHI else 0), handled


# A win, a draw and a hand's start in the layouts Tenhou writes them are read from their numbers too
# (``_plain_agari``, ``_plain_ryuukyoku``, ``_plain_init``); anything else about them goes to the careful handler.
WIN = (
    '<AGARI ba="0,1" hai="1" machi="1" ten="30,3900,0" yaku="1,1,52,2" doraHai="1" '
    'who="1" fromWho="0" sc="240,-39,250,49,250,0,250,0" owari="201,-20.0,299,30.0,250,5.0,250,-15.0"/>'
)
START = '<INIT seed="0,0,0,1,2,33" ten="250,250,250,250" oya="0" hai0="1,2,3"/>'
END = 'owari="201,-20.0,299,30.0,250,5.0,250,-15.0"'
# A draw in Tenhou's layout (``_plain_ryuukyoku``), put where the win was: two hands shown, noten
# payments to them.
DRAW = f'<RYUUKYOKU ba="0,1" sc="240,-15,250,15,250,15,250,-15" hai1="1,2" hai2="3" {END}/>'


@pytest.mark.parametrize(
    ("old", "new", "tag", "careful"),
    [
        (WIN, WIN, "AGARI", 0),
        (
            WIN,
            WIN.replace('hai="1"', 'hai="1" m="42031"').replace('doraHai="1"', 'doraHai="1" doraHaiUra="9"'),
            "AGARI",
            0,
        ),
        (WIN, WIN.replace('ten="30,3900,0" yaku="1,1,52,2"', 'ten="40,32000,5" yakuman="39,42"'), "AGARI", 0),
        (WIN, WIN.replace('ten="30,3900,0" yaku="1,1,52,2"', 'ten="40,8000,1" yaku="1,1,7,1,52,3"'), "AGARI", 0),
        (WIN, WIN.replace('ten="30,3900,0"', 'ten="30,3900,5"'), "AGARI", 0),  # a counted yakuman's han
        (WIN, WIN.replace('fromWho="0"', 'fromWho="0" paoWho="2"'), "AGARI", 0),
        (WIN, WIN.replace('fromWho="0"', 'fromWho="0" paoWho="1"'), "AGARI", 0),  # liable for himself: nobody
        (WIN, WIN.replace('who="1" fromWho="0"', 'who="1" fromWho="1"'), "AGARI", 0),  # a tsumo
        (WIN, WIN.replace('machi="1"', 'machi="135"').replace(f" {END}", " "), "AGARI", 0),  # a space, no end
        (WIN, WIN.replace('machi="1"', 'machi="136"'), "AGARI", 0),  # no such tile: no winning tile
        (WIN, WIN.replace(f" {END}", "") + WIN.replace('who="1"', 'who="2"'), "AGARI", 0),  # a double ron
        (WIN, DRAW, "RYUUKYOKU", 0),
        (
            WIN,
            DRAW.replace(' hai1="1,2" hai2="3"', "").replace("-15,250,15,250,15,250,-15", "0,250,0,250,0,250,0"),
            "RYUUKYOKU",
            0,
        ),
        (
            WIN,
            DRAW.replace('hai1="1,2"', 'hai0="" hai1="1,2"').replace('hai2="3"', 'hai2="3" hai3="5"'),
            "RYUUKYOKU",
            0,
        ),
        (WIN, DRAW.replace("<RYUUKYOKU ", '<RYUUKYOKU type="yao9" ').replace(f" {END}", " "), "RYUUKYOKU", 0),
        (WIN, DRAW.replace("<RYUUKYOKU ", '<RYUUKYOKU type="nm" '), "RYUUKYOKU", 0),  # nagashi: the ones paid
        (START, START + DRAW.replace(f" {END}", "") + START, "RYUUKYOKU", 0),  # a draw, then the next hand
        (START, START.replace('hai0="1,2,3"', 'hai0="1" hai1="2" hai2="3" hai3="4"'), "INIT", 0),
        (START, START.replace(' hai0="1,2,3"', ""), "INIT", 0),
        (START, START.replace('seed="0,0,0', 'seed="0,3,2').replace('ten="250', 'ten="-12'), "INIT", 0),
        # Outside Tenhou's layout: the careful handler, as before.
        (
            WIN,
            WIN.replace('<AGARI ba="0,1"', '<AGARI who="1" ba="0,1"').replace(' who="1" fromWho', " fromWho"),
            "AGARI",
            1,
        ),
        (WIN, WIN.replace('doraHai="1"', 'doraHai="1" ratio="1"'), "AGARI", 1),
        (WIN, WIN.replace('sc="240', 'sc="1234567'), "AGARI", 1),  # a number out of range: refused
        (WIN, WIN.replace('yaku="1,1,52,2"', 'yaku="1,1,52"'), "AGARI", 1),  # not pairs: refused
        (START, START.replace('hai0="1,2,3"', 'hai0="1,2,3" shuffle="mt19937ar,x"'), "INIT", 1),
        (START, START.replace('hai0="1,2,3"', 'hai1="1,2,3" hai0="4"'), "INIT", 1),
        (WIN, DRAW.replace('hai1="1,2" hai2="3"', 'hai2="3" hai1="1,2"'), "RYUUKYOKU", 1),
        (WIN, DRAW.replace("ba=", 'hai0="4" ba='), "RYUUKYOKU", 1),
        (WIN, DRAW.replace(f"{END}", f'{END} ratio="1"'), "RYUUKYOKU", 1),
        # In the layout, but refused: the careful handler says why.
        (WIN, WIN.replace('who="1"', 'who="4"'), "AGARI", 1),
        (WIN, WIN.replace('fromWho="0"', 'fromWho="5"'), "AGARI", 1),
        (WIN, WIN.replace('fromWho="0"', 'fromWho="0" paoWho="4"'), "AGARI", 1),
        (WIN, WIN.replace('yaku="1,1,52,2"', 'yaku="1,14"'), "AGARI", 1),
        (WIN, WIN.replace('ten="30,3900,0"', 'ten="30,3900,7"'), "AGARI", 1),
        (WIN, WIN.replace('sc="240,-39,250,49,250,0,250,0"', 'sc="240,-39,250,49,250,0"'), "AGARI", 1),
        (WIN, WIN.replace(END, 'owari="201,-20.0,299,30.0,250,5.0"'), "AGARI", 1),
        (
            WIN,
            WIN.replace(f" {END}", "") + WIN.replace('fromWho="0"', 'fromWho="2"').replace('who="1"', 'who="3"'),
            "AGARI",
            1,
        ),
        (WIN, WIN.replace(f" {END}", "") + WIN, "AGARI", 1),  # the same seat wins twice
        (WIN, WIN.replace(f" {END}", "") + WIN.replace('who="1" fromWho="0"', 'who="2" fromWho="2"'), "AGARI", 1),
        (WIN, WIN + WIN.replace('who="1"', 'who="2"'), "AGARI", 1),  # after the game's end
        (WIN, DRAW.replace("<RYUUKYOKU ", '<RYUUKYOKU type="xyz" '), "RYUUKYOKU", 1),  # no such draw
        (  # nagashi mangan with nobody paid
            WIN,
            DRAW.replace("<RYUUKYOKU ", '<RYUUKYOKU type="nm" ').replace(
                "-15,250,15,250,15,250,-15", "0,250,0,250,0,250,0"
            ),
            "RYUUKYOKU",
            1,
        ),
        (WIN, DRAW.replace("250,15,250,-15", "250,15"), "RYUUKYOKU", 1),  # sc short of the seats
        (WIN, DRAW.replace(END, 'owari="201,-20.0,299,30.0"'), "RYUUKYOKU", 1),
        (WIN, DRAW.replace('sc="240', 'sc="1234567'), "RYUUKYOKU", 1),  # a number out of range
        (WIN, WIN.replace(f" {END}", "") + DRAW, "RYUUKYOKU", 1),  # a draw after a win
        (WIN, DRAW + DRAW, "RYUUKYOKU", 1),  # after the game's end
        (START, DRAW + START, "RYUUKYOKU", 1),  # outside a hand
        (START, WIN.replace(f" {END}", "") + START, "AGARI", 1),  # outside a hand
        (START, START.replace('oya="0"', 'oya="4"'), "INIT", 1),
        (START, START.replace('seed="0,0,0', 'seed="1,0,0'), "INIT", 1),
        (START, START.replace('seed="0,0,0', 'seed="16,0,0'), "INIT", 1),
        (START, START.replace('seed="0,0,0', 'seed="0,10001,0'), "INIT", 1),
        (START, START.replace('seed="0,0,0,1,2,33"', 'seed="0,0"'), "INIT", 1),
        (START, START.replace('ten="250,250,250,250"', 'ten="250,250,250"'), "INIT", 1),
        (WIN, WIN + START, "INIT", 1),  # after the game's end
        ('<GO type="169" lobby="0"/>', "", "INIT", 1),  # before the GO tag
    ],
)
def test_a_win_a_draw_or_a_hands_start_in_tenhou_s_layout_reads_as_the_parser_reads_it(
    monkeypatch: pytest.MonkeyPatch, old: str, new: str, tag: str, careful: int
) -> None:
    data = GAME.replace(old, new).encode()
    assert read_without_the_tree(data)
    expected = through_parser(data, "x.mjlog")
    handled: list[str] = []
    for name in ("_on_agari", "_on_init", "_on_ryuukyoku"):
        monkeypatch.setattr(tenhou_xml._GameReader, name, _counted(getattr(tenhou_xml._GameReader, name), handled))
    assert repr(read_xml(data, "x.mjlog")) == repr(expected)
    assert handled.count(tag) == careful, handled


def _counted(handler: Any, handled: list[str]) -> Any:
    def counting(reader: Any, el: Any) -> None:
        handled.append(el.tag)
        handler(reader, el)

    return counting


def test_a_header_that_agrees_is_passed_and_each_field_that_does_not_is_listed() -> None:
    # ``_compare_header`` passes a header whose every field agrees at once; any field that does not
    # is listed as ``_header_fields`` lists it, the others not.
    game = tenhou_xml.read_tenhou_xml(GAME.encode(), file="x.mjlog")[0]
    hand = game.hands[0]
    state = hand.table(game.rules)
    changes: list[dict[str, Any]] = [
        {},
        {"dealer": 1},
        {"round_wind": 1},
        {"round_wind": 4},  # the same wind letter: agrees, as before
        {"hand_number": 2},
        {"counters": 1},
        {"deposit_sticks": 1},
        {"scores": (250, 250, 250, 251)},
        {"dealer": 2, "scores": (0, 0, 0, 0)},
    ]
    for change in changes:
        logged = attrs.evolve(hand, **change)
        found: list[tuple[str, Any, Any]] = []
        compare_header(logged, state, "next", 1000, functools.partial(_listed, found), "E1-0")
        listed = [(f"next {f}", a, b) for f, a, b in header_fields(logged, state, 1000) if a != b]
        assert found == listed, change
        assert bool(found) is (change not in ({}, {"round_wind": 4})), change


def _listed(found: list[tuple[str, Any, Any]], hand: str, field: str, log: Any, honba: Any) -> None:
    found.append((field, log, honba))


# mjai: the lines the scanner reads, and those it leaves to ``load_json``.

MJAI_LINES = [
    '{"type":"tsumo","actor":0,"pai":"5mr"}',
    '  {"type":"none"}  ',
    '{"type":"none","x":NaN,"y":Infinity}',
    '{"type":"none","n":' + "9" * 5000 + "}",
    '{"type":"none","n":1e400}',
    '{"type":"none","s":"\\u00e9\\ud83c\\udc04"}',
    '{"type":"none","s":"\\ud800"}',
    '{"type":"none","a":1,"a":2}',
    '{"type":"none"} {"type":"none"}',
    '{"type":"none"},',
    '{"type":"none"',
    "[" * 600 + "]" * 600,
    '{"type":"none","deep":' + "[" * 400 + "]" * 400 + "}",
    "\ufeff{}",
    "{}\x0c",
    "[1]",
    '{"type": 3}',
]


def per_line(text: str) -> list[Any] | str:
    """What ``load_json`` makes of each line (the careful path)."""
    try:
        return [load_json(line) for line in text.splitlines() if line.strip()]
    except json.JSONDecodeError as exc:
        return f"JSON: {exc.msg}"


def scanned(text: str) -> list[Any] | str:
    try:
        return [event for _, event in mjai._events(text.encode(), "x.jsonl")]
    except LogError as exc:
        if "JSON (" not in exc.message:
            return exc.message
        return f"JSON: {exc.message.removeprefix('not valid JSON (').removesuffix(')')}"


@pytest.mark.parametrize("line", MJAI_LINES)
def test_each_kind_of_mjai_line_reads_as_load_json_reads_it(line: str) -> None:
    text = '{"type":"start_game"}\n' + line + "\n"
    expected = per_line(text)
    got = scanned(text)
    if isinstance(expected, str) or isinstance(got, str):
        if isinstance(expected, list):
            # JSON that is not an event is refused by the reader, after every line is read.
            assert got.startswith(("an mjai event must be", "the event has no")), got
        else:
            assert got == expected
    else:
        assert json.dumps(got) == json.dumps(expected)


def test_a_line_that_is_no_json_is_named_before_an_event_without_a_type() -> None:
    with pytest.raises(LogError) as caught:
        mjai._events(b'{"type":"start_game"}\n[1]\n{"type":\n', "x.jsonl")
    assert caught.value.where == "x.jsonl, line 3, column 9"


def test_verify_reads_an_mjai_log_without_the_tiles_an_import_keeps(monkeypatch: pytest.MonkeyPatch) -> None:
    log = "\n".join(
        json.dumps(e)
        for e in [
            {"type": "start_game", "names": ["A", "B", "C", "D"]},
            {
                "type": "start_kyoku",
                "bakaze": "E",
                "kyoku": 1,
                "honba": 0,
                "kyotaku": 0,
                "oya": 0,
                "scores": [25000] * 4,
                "dora_marker": "1m",
                "tehais": [["?"] * 13] * 4,
            },
            {"type": "tsumo", "actor": 0, "pai": "5mr"},
            {"type": "dahai", "actor": 0, "pai": "5mr", "tsumogiri": True},
            {"type": "ryukyoku", "deltas": [0, 0, 0, 0]},
            {"type": "end_kyoku"},
            {"type": "end_game"},
        ]
    ).encode()
    kept = read_games(log, file="x.jsonl", tiles=True)
    monkeypatch.setattr(mjai.HandArrays, "start", _no_arrays)
    verified = read_games(log, file="x.jsonl")
    assert verified == kept
    assert [h.tiles for h in verified[0].hands] == [None]


def _no_arrays(*args: Any) -> Any:
    raise AssertionError("the hand's tiles were put in arrays")
